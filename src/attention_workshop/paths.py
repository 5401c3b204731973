"""Where the workshop works: the repository it was installed from, and the edition list's folders."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]  # src/attention_workshop/paths.py -> the repository
LOCALE = ROOT / "locale"  # locale/<language>/LC_MESSAGES/*.po: one folder per translated edition
ENGLISH = "en"  # the source edition: the English notebooks and pages at the repository's top


def translations() -> list[str]:
    """The translated editions: every language with a folder of translation files, ``locale/<language>/``. Each is
    generated into the folder of that name and built into ``_build/html/<language>``. The one list the generator,
    the build, the language switch, the PDFs and the tests read."""
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())


def editions() -> list[str]:
    """Every edition, English first."""
    return [ENGLISH, *translations()]
