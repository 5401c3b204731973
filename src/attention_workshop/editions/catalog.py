"""Translation files (gettext PO): reading, the translations they hold, and merging the English into them."""

from __future__ import annotations

import copy
import dataclasses
import pathlib
import re

import polib


class TranslationFileError(Exception):
    """A translation file the generator cannot trust: a syntax error, a wrong encoding, a duplicate entry. Its
    message is one line naming the file, the line and (where there is one) the entry's msgctxt."""

    def __init__(self, path: pathlib.Path, line: int, problem: str, context: str | None = None):
        self.path, self.line, self.problem, self.context = path, line, problem, context
        where = f" [msgctxt {context!r}]" if context is not None else ""
        super().__init__(f"{_shown(path)}:{line}:{where} {problem}")


def _shown(path: pathlib.Path) -> str:
    from attention_workshop.paths import ROOT

    try:
        return pathlib.Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# One line of a PO file: a comment, a keyword with its string, or a string continuing the previous one. A string is
# C-quoted: no raw double quote or backslash inside but as an escape (polib would silently cut an unterminated
# string; GNU msgfmt refuses it).
_STRING = r'"(?:[^"\\]|\\[\\"abfnrtv?\']|\\[0-7]{1,3}|\\x[0-9A-Fa-f]+)*"'
_PO_LINE = re.compile(rf"(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?{_STRING}\s*")
_MARKED = re.compile(r"#[~|]+\s?")  # an obsolete (#~) or previous (#|, #~|) line: its rest is PO syntax too


def read_po(path: pathlib.Path, duplicates: str = "raise") -> polib.POFile:
    """The PO file at ``path``, checked as GNU msgfmt checks it: UTF-8 (as its header must say), every line a
    comment, a keyword with a well-quoted string or a string's continuation, and no two entries with the same
    msgctxt and msgid (``duplicates="raise"``; ``"keep"`` returns them for :func:`status` to report).
    Anything else raises :class:`TranslationFileError` naming the file, the line and the entry."""
    data = pathlib.Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TranslationFileError(path, line, f"not UTF-8 (byte {data[error.start]:#04x}): save it as UTF-8") from None
    if text.startswith("\ufeff"):
        raise TranslationFileError(path, 1, "starts with a byte order mark: save it as UTF-8 without BOM")
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        marked = _MARKED.match(line)
        if marked:
            line = line[marked.end() :]
        elif line.startswith("#"):
            continue
        if line and not _PO_LINE.fullmatch(line):
            raise TranslationFileError(
                path, number, f"syntax error: {raw.strip()[:60]!r}", _context_before(text, number)
            )
    try:
        po = polib.pofile(text, wrapwidth=0)
    except (OSError, ValueError) as error:
        found = re.search(r"line (\d+)", str(error))
        line = int(found.group(1)) if found else 1
        raise TranslationFileError(path, line, f"syntax error ({error})", _context_before(text, line)) from None
    charset = re.search(r"charset=([\w-]+)", po.metadata.get("Content-Type", ""))
    if charset is None or charset.group(1).lower().replace("_", "-") != "utf-8":
        raise TranslationFileError(path, 1, "the header must declare Content-Type: text/plain; charset=UTF-8")
    seen: dict[tuple, int] = {}
    for entry in po:
        if entry.obsolete:
            continue
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            if duplicates == "raise":
                raise TranslationFileError(
                    path,
                    entry.linenum,
                    f"duplicate entry (first at line {seen[key]}): {_first_words(entry.msgid)}",
                    entry.msgctxt,
                )
        else:
            seen[key] = entry.linenum
    return po


def duplicate_entries(po: polib.POFile) -> list[polib.POEntry]:
    """The entries of ``po`` whose msgctxt and msgid an earlier entry already has."""
    seen, found = set(), []
    for entry in po:
        key = (entry.msgctxt, entry.msgid)
        if not entry.obsolete and key in seen:
            found.append(entry)
        seen.add(key)
    return found


def _context_before(text: str, line: int) -> str | None:
    """The msgctxt of the entry that line ``line`` belongs to (the last one opened at or before it)."""
    found = None
    for raw in text.splitlines()[:line]:
        match = re.match(r'\s*msgctxt\s+"(.*)"\s*$', raw)
        if match:
            found = match.group(1)
        elif not raw.strip():
            found = None
    return found


def _first_words(text: str, n: int = 60) -> str:
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= n else first[: n - 1] + "…"


def load_po(path: pathlib.Path, lang: str = "") -> polib.POFile:
    return read_po(path) if path.exists() else new_po(path.stem, lang)


def new_po(name: str, lang: str) -> polib.POFile:
    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"attention-executable {name}",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    return po


class Translation:
    """The translations of one English source into one language: ``(context, msgid) -> msgstr``."""

    def __init__(self, po: polib.POFile | None = None, mapping=None):
        self.table = (
            dict(mapping)
            if mapping is not None
            else {(e.msgctxt, e.msgid): e.msgstr for e in po if e.msgstr and not e.obsolete and "fuzzy" not in e.flags}
        )

    def __call__(self, context: str, msgid: str) -> str | None:
        return self.table.get((context, msgid))


@dataclasses.dataclass
class Status:
    missing: list[tuple[str, str]]  # (context, English): no translation
    stale: list[tuple[str, str]]  # (context, English): the translation was made from other English (fuzzy)
    unused: list[tuple[str, str]]  # (context, English): an entry no English text has any more

    def count(self) -> int:
        return len(self.missing) + len(self.stale) + len(self.unused)


def status(source, lang: str) -> Status:
    """What the translation file of ``source`` lacks: missing, stale and unused entries."""
    units = source.units()
    po = load_po(source.po_path(lang), lang)
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    wanted = {(u.context, u.msgid) for u in units}
    missing, stale = [], []
    for u in units:
        entry = entries.get((u.context, u.msgid))
        if entry is None or not entry.msgstr:
            missing.append((u.context, u.msgid))
        elif "fuzzy" in entry.flags:
            stale.append((u.context, u.msgid))
    unused = [key for key in entries if key not in wanted]
    return Status(missing, stale, unused)


def update(source, lang: str) -> Status:
    """Merge the English of ``source`` into its PO file, as gettext's msgmerge does: a new text gets an empty
    entry, a changed text keeps its old translation marked fuzzy (stale) with the previous English beside it, and
    an entry no text uses any more is dropped."""
    units = source.units()
    target = source.po_path(lang)
    old = load_po(target, lang)
    by_key = {(e.msgctxt, e.msgid): e for e in old if not e.obsolete}
    wanted = {(u.context, u.msgid) for u in units}
    leftovers: dict[str, list[polib.POEntry]] = {}
    for e in old:
        if not e.obsolete and (e.msgctxt, e.msgid) not in wanted and e.msgstr:
            leftovers.setdefault(e.msgctxt, []).append(e)
    po = new_po(pathlib.Path(source.name).stem, lang)
    po.metadata = old.metadata or po.metadata
    for u in units:
        entry = by_key.get((u.context, u.msgid))
        if entry is None:  # new English, or changed English at the same place: carried over as stale
            previous = _closest(u.msgid, leftovers.get(u.context, []))
            entry = polib.POEntry(msgctxt=u.context, msgid=u.msgid, msgstr=previous.msgstr if previous else "")
            if previous is not None:
                entry.flags = ["fuzzy"]
                entry.previous_msgid = previous.msgid
                leftovers[u.context].remove(previous)
        entry = copy.copy(entry)
        entry.comment = u.kind + (f": {u.note}" if u.note else "")
        entry.occurrences = [(source.name, u.context)] if " " not in source.name else []
        po.append(entry)
    target.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(target))
    return status(source, lang)


def _closest(text: str, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    if not candidates:
        return None
    import difflib

    return max(candidates, key=lambda e: difflib.SequenceMatcher(None, e.msgid, text).ratio())
