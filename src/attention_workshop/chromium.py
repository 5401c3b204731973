"""How the book drives a browser: which Chromium, and with which flags (the tests, the PDFs and the benchmarks).

Debian's ``chromium-headless-shell``, else its ``chromium``, or ``$CHROMIUM``, driven by Playwright; no browser is
downloaded. The headless shell is Chromium's old headless mode, the build Playwright itself runs headless
browsers with: the same engine without the browser's windowing layers. The site tests gave it about 12% less
processor time than the full browser in headless mode (471 against 537 CPU-seconds, all 135 passing with each).
"""

from __future__ import annotations

import os
import shutil

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def find_chromium() -> str | None:
    """The browser to drive: $CHROMIUM if set, else Debian's chromium-headless-shell, else its chromium (or one
    of them on PATH)."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"] if os.path.exists(os.environ["CHROMIUM"]) else None
    names = ("chromium-headless-shell", "chromium", "chromium-browser")
    for candidate in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium", *map(shutil.which, names)):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
