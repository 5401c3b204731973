"""Where the workshop works: the repository it was installed from, and the list of editions.

The editions are listed once, in ``locale/editions.toml``: each with its name in its own language and its status
(the English source, a complete translation, or one in progress). Every tool reads them from here.
``python -m attention_workshop.paths [folders|notebooks|complete]`` prints them for the Makefile.
"""

from __future__ import annotations

import pathlib
import re
import sys
import tomllib

from attention_workshop.command import OneLineParser, run

ROOT = pathlib.Path(__file__).resolve().parents[2]  # src/attention_workshop/paths.py -> the repository
LOCALE = ROOT / "locale"  # locale/<language>/LC_MESSAGES/*.po: one folder per translated edition
EDITIONS_FILE = LOCALE / "editions.toml"
ENGLISH = "en"  # the source edition: the English notebooks and pages at the repository's top
PROG = "python -m attention_workshop.paths"
STATUSES = ("source", "complete", "in progress")
LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]+)*(?:@[A-Za-z0-9]+)?")  # zh, zh_CN, pt-BR, sr@latin: the
# one rule for an edition's code, in locale/editions.toml and in the editions command's --lang (a folder name that
# cannot be "..", "." or a path)


class EditionsError(ValueError):
    """``locale/editions.toml`` and the translation folders disagree, or an entry is malformed."""


def _listed(path: pathlib.Path | None = None) -> dict[str, dict]:
    path = path or LOCALE / EDITIONS_FILE.name  # LOCALE read now: a test may point it at a copy of the repository
    try:
        listed = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise EditionsError(f"{path}: {error}") from None
    first = listed.get(ENGLISH)
    if next(iter(listed), None) != ENGLISH or not isinstance(first, dict) or first.get("status") != "source":
        raise EditionsError(f'{path}: the first edition must be [{ENGLISH}] with status = "source"')
    for code, entry in listed.items():
        if not LANGUAGE_CODE.fullmatch(code):
            raise EditionsError(
                f"{path}: [{code!r}] is not a language code (two or three letters, then _ or - parts: zh, pt-BR); it "
                "names the edition's folder"
            )
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise EditionsError(f"{path}: [{code}] needs a name (the language's own name for itself)")
        if entry.get("status") not in STATUSES or (code != ENGLISH and entry["status"] == "source"):
            raise EditionsError(
                f'{path}: [{code}] status must be "complete" or "in progress", not {entry.get("status")!r}'
            )
        if code != ENGLISH and not (path.parent / code / "LC_MESSAGES").is_dir():
            raise EditionsError(f"{path}: [{code}] is listed but {path.parent / code / 'LC_MESSAGES'} does not exist")
    folders = {p.name for p in path.parent.iterdir() if (p / "LC_MESSAGES").is_dir()}
    if ENGLISH in folders and listed.get(ENGLISH, {}).get("status") == "source":
        raise EditionsError(
            f"{path.parent / ENGLISH}: English is the source language, edited by hand and never generated; it has no "
            "translation folder"
        )
    unlisted = sorted(folders - set(listed))
    if unlisted:
        raise EditionsError(
            f"{path}: translation folders not listed: {', '.join(unlisted)} (add them with a name and a status)"
        )
    return listed


def editions() -> list[str]:
    """Every edition, English first, in the order of ``locale/editions.toml``."""
    return list(_listed())


def translations() -> list[str]:
    """The translated editions: generated into the folder of that name and built into ``_build/html/<language>``."""
    return [code for code in _listed() if code != ENGLISH]


def complete(code: str) -> bool:
    """Whether the edition is the source or a complete translation (the gate fails on any missing or stale
    entry)."""
    return _listed()[code]["status"] != "in progress"


def name(code: str) -> str:
    """The edition's name in its own language (English, 中文, Français): what every language switch shows."""
    return _listed()[code]["name"]


def notebooks() -> list[pathlib.Path]:
    """Every edition's notebooks (its ``book/`` and ``notebooks/`` folders), English first: what ``make execute``
    executes and what the book's build reads."""
    prefixes = [ROOT if code == ENGLISH else ROOT / code for code in editions()]
    return [f for p in prefixes for d in ("book", "notebooks") for f in sorted((p / d).glob("*.ipynb"))]


def main(argv: list[str] | None = None) -> int:
    """Print the editions' folders (``folders``: ``book notebooks zh/book zh/notebooks ...``), their notebooks
    (``notebooks``) or the complete translations (``complete``), for the Makefile."""
    parser = OneLineParser(prog=PROG, description=main.__doc__)
    parser.add_argument("what", nargs="?", default="folders", choices=("folders", "notebooks", "complete"))
    what = parser.parse_args(argv).what
    try:
        codes = editions()
    except EditionsError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    prefixes = ["" if code == ENGLISH else f"{code}/" for code in codes]
    if what == "folders":
        print(" ".join(f"{p}{folder}" for p in prefixes for folder in ("book", "notebooks")))
    elif what == "notebooks":
        print(" ".join(str(f.relative_to(ROOT)) for f in notebooks()))
    else:
        print(" ".join(code for code in codes[1:] if complete(code)))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, PROG))
