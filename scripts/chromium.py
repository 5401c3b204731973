"""How the book drives a browser: which Chromium, and with which flags (the tests, the PDFs and the benchmarks).

Debian's ``chromium`` (``/usr/bin/chromium``), or ``$CHROMIUM``, driven by Playwright; no browser is downloaded.
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
    """The browser to drive: $CHROMIUM if set, else Debian's chromium (or a chromium on PATH)."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"] if os.path.exists(os.environ["CHROMIUM"]) else None
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
