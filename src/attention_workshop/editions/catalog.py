"""Translation files (gettext PO): reading them strictly, the translations they hold, what they lack (status), and
merging the English into them the way GNU ``msgmerge --previous`` does (with Babel's ``Catalog.update``).

Files are read and written with polib, without line wrapping (one entry's diff stays in that entry): Babel's
``read_po`` neither parses a fuzzy entry's previous msgid (``#|``) nor refuses an unterminated string or a duplicate
entry, and its ``write_po`` wraps comment lines, the ``#|`` previous msgid included, at 76 columns when string wrapping
is off (``width=None`` or 0), breaking a long previous msgid inside its quotes. Babel does the merge itself.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import pathlib
import re
import types

import polib

from attention_core import files

# The kinds of a Markdown block whose msgid may hold equation placeholders (:mod:`.markdown`).
MARKDOWN_KINDS = ("heading", "paragraph", "item", "cell", "title", "alt", "caption", "term", "definition")


class TranslationFileError(Exception):
    """A translation file the generator cannot trust: a syntax error, a wrong encoding, a duplicate entry. Its
    message is one line naming the file, the line and (where there is one) the entry's msgctxt; a file that cannot
    be read at all (a folder, a broken link) has no line (``line=None``)."""

    def __init__(self, path: pathlib.Path, line: int | None, problem: str, context: str | None = None):
        self.path, self.line, self.problem, self.context = path, line, problem, context
        where = f" [msgctxt {context!r}]" if context is not None else ""
        at = f":{line}" if line is not None else ""
        super().__init__(f"{_shown(path)}{at}:{where} {problem}")


def _shown(path: pathlib.Path) -> str:
    from attention_workshop.paths import ROOT

    try:
        return pathlib.Path(path).absolute().relative_to(ROOT).as_posix()
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
    return parse_po(path, po_bytes(path), duplicates)


def po_bytes(path: pathlib.Path) -> bytes:
    """The bytes of the PO file at ``path``; a file that cannot be read raises :class:`TranslationFileError`."""
    present(path)
    try:
        return pathlib.Path(path).read_bytes()
    except OSError as error:  # no permission, a device that fails
        raise TranslationFileError(path, None, f"cannot be read ({error.strerror or error})") from None


def parse_po(path: pathlib.Path, data: bytes, duplicates: str = "raise") -> polib.POFile:
    """:func:`read_po` of ``data``, the bytes of the PO file at ``path`` (which the errors name)."""
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


def present(path: pathlib.Path) -> bool:
    """Whether a translation file is at ``path`` (``False``: nothing is, and a new one may be made there). A folder,
    a link that leads nowhere (to a missing file, or round in a loop), or a file where one of its folders should be
    is no translation file and no absence either: :class:`TranslationFileError`, so that nothing is read as empty
    or written through the link."""
    path = pathlib.Path(path)
    folder = next((p for p in path.parents if p.exists() or p.is_symlink()), None)  # the nearest that is there
    if folder is not None and not folder.is_dir():  # every file under it would read as absent
        raise TranslationFileError(path, None, f"cannot be there: {_shown(folder)} is a file, not a folder")
    if path.is_symlink() and not path.exists():
        raise TranslationFileError(path, None, f"a link to {os.readlink(path)}, which does not exist (or loops)")
    if path.exists() and not path.is_file():
        raise TranslationFileError(path, None, "is a folder (or another kind of file), not a translation file")
    return path.exists()


def load_translation(path: pathlib.Path, lang: str = "") -> Translation:
    """The :class:`Translation` in the PO file at ``path`` (an empty one where there is no file), checked as
    :func:`read_po` checks it. Parsed once for each content: a command asks for a source's translation at each of
    its steps (the status, the guards, the generation), and parsing a lesson's PO file takes about 5 ms. The bytes
    are read every time, so a file changed since is parsed again; a file that fails its check is never kept."""
    if not present(path):
        return Translation(new_po(path.stem, lang))
    data = po_bytes(path)
    if data not in _PARSED:
        if len(_PARSED) >= 256:  # a long-lived process (the tests) reads many versions: start again
            _PARSED.clear()
        _PARSED[data] = Translation(parse_po(path, data))
    return _PARSED[data]


_PARSED: dict[bytes, Translation] = {}  # a PO file's bytes -> its translation (load_translation)


def new_po(name: str, lang: str) -> polib.POFile:
    po = polib.POFile(wrapwidth=0)
    complete_header(po, name, lang)
    return po


def complete_header(po: polib.POFile, name: str, lang: str, project: str = "") -> None:
    """Fill the header fields GNU msgfmt --check-header asks for that ``po`` lacks (an existing value is kept: the
    translator's tool owns PO-Revision-Date and Last-Translator). Plural-Forms from Babel's table for ``lang``."""
    from babel import Locale, UnknownLocaleError
    from babel.messages.plurals import get_plural

    try:
        language, plural = Locale.parse(lang).english_name, str(get_plural(lang))
    except (ValueError, UnknownLocaleError):
        language, plural = lang, "nplurals=2; plural=(n != 1);"
    defaults = {
        "Project-Id-Version": project or f"attention-executable {pathlib.Path(name).stem}",
        "PO-Revision-Date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M+0000"),
        "Last-Translator": "The Attention, executable authors",
        "Language-Team": f"{language} ({lang}), the Attention, executable authors",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural,
    }
    for key, value in defaults.items():
        if not po.metadata.get(key, "").strip():
            po.metadata[key] = value
    if not po.header.strip():
        po.header = (
            f"{language} ({lang}) translation of {name}, Attention, executable.\n"
            "Merged with the English by `python -m attention_workshop.editions update` (make editions): translate\n"
            'each msgstr, then remove the fuzzy flag; see CONTRIBUTING.md, "Editions".'
        )


class Translation:
    """The translations of one English source into one language: ``(context, msgid) -> msgstr``. A fuzzy entry
    (made from other English) counts as none; a msgstr's leading and trailing line breaks follow its msgid's."""

    def __init__(self, po: polib.POFile | None = None, mapping=None):
        self.table = types.MappingProxyType(  # read-only: one Translation serves every caller (load_translation)
            dict(mapping)
            if mapping is not None
            else {
                (e.msgctxt, e.msgid): same_ends(e.msgstr, e.msgid)
                for e in po
                if e.msgstr and not e.obsolete and "fuzzy" not in e.flags
            }
        )

    def __call__(self, context: str, msgid: str) -> str | None:
        return self.table.get((context, msgid))


def same_ends(msgstr: str, msgid: str) -> str:
    """``msgstr`` beginning and ending with a line break exactly when ``msgid`` does (GNU msgfmt refuses a file
    where they differ)."""
    if not msgstr:
        return msgstr
    core = msgstr.strip("\n")
    return ("\n" if msgid.startswith("\n") else "") + core + ("\n" if msgid.endswith("\n") else "")


# ----------------------------------------------------------------------------------------------- status
@dataclasses.dataclass
class Status:
    """What a translation file lacks or holds wrongly, entry by entry (``(context, msgid)`` pairs)."""

    missing: list = dataclasses.field(default_factory=list)  # no translation
    stale: list = dataclasses.field(default_factory=list)  # fuzzy: made from other English, to confirm
    unused: list = dataclasses.field(default_factory=list)  # an entry no English text has (run update)
    duplicate: list = dataclasses.field(default_factory=list)  # a second entry with the same msgctxt and msgid
    invalid: list = dataclasses.field(default_factory=list)  # (context, msgid, problem): fields, line breaks
    errors: list = dataclasses.field(default_factory=list)  # the file cannot be read: one line each
    obsolete: int = 0  # entries kept as "#~" for English that may come back: not a problem
    where: dict = dataclasses.field(default_factory=dict)  # (context, msgid) -> ":line" of a page's block
    total: int = 0  # the entries the English asks for

    KINDS = ("missing", "stale", "unused", "duplicate", "invalid")
    UNFINISHED = ("missing", "stale")  # what an edition in progress may land with (English shown instead)

    @property
    def translated(self) -> int:
        """The entries with a current, valid translation."""
        return self.total - len(self.missing) - len(self.stale) - len(self.invalid)

    def count(self, kinds: tuple[str, ...] = KINDS) -> int:
        return sum(len(getattr(self, kind)) for kind in kinds) + len(self.errors)

    def report(self, lang: str, name: str, kinds: tuple[str, ...] = KINDS) -> list[str]:
        """One line per problem: language, file (and line of a page), kind, msgctxt and the English's first words."""
        lines = [f"{lang}: {error}" for error in self.errors]
        for kind in kinds:
            for item in getattr(self, kind):
                context, msgid = item[0], item[1]
                extra = f" ({item[2]})" if len(item) > 2 else ""
                where = self.where.get((context, msgid), "")
                lines.append(f"{lang}: {name}{where}: {kind}: [{context}] {_first_words(msgid, 90)}{extra}")
        return lines


def status(source, lang: str) -> Status:
    """What the translation file of ``source`` lacks: missing, stale, unused, duplicate and invalid entries (a
    file that cannot be read: one error line)."""
    units = source.units()
    path = source.po_path(lang)
    try:
        po = read_po(path, duplicates="keep") if present(path) else new_po(source.name, lang)
    except TranslationFileError as error:
        return Status(errors=[str(error)])
    found = Status(obsolete=sum(1 for e in po if e.obsolete), total=len(units))
    found.where = {(u.context, u.msgid): f":{u.line}" for u in units if u.line}
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    wanted = {(u.context, u.msgid): u for u in units}
    for u in units:
        entry = entries.get((u.context, u.msgid))
        if entry is None or not entry.msgstr:
            found.missing.append((u.context, u.msgid))
        elif "fuzzy" in entry.flags:
            found.stale.append((u.context, u.msgid))
        else:
            problem = check_entry(u, entry.msgstr)
            if problem:
                found.invalid.append((u.context, u.msgid, problem))
    found.unused = [key for key in entries if key not in wanted]
    found.duplicate = [(e.msgctxt, e.msgid, f"line {e.linenum} of the PO file") for e in duplicate_entries(po)]
    return found


def check_entry(unit, msgstr: str) -> str | None:
    """What is wrong with ``msgstr`` as the translation of ``unit``, or ``None``: fields other than the English's
    in a text the code fills (``python-brace-format``, a package message), line breaks at its ends unlike the
    English's (msgfmt refuses both), equation placeholders of a Markdown block other than its msgid's
    (:func:`.markdown.placeholder_problem`)."""
    from attention_workshop.editions.markdown import placeholder_problem
    from attention_workshop.editions.units import brace_fields

    if same_ends(msgstr, unit.msgid) != msgstr:
        return "the msgstr must begin and end with a line break exactly where the msgid does"
    if unit.kind in MARKDOWN_KINDS:
        return placeholder_problem(msgstr, unit.msgid)
    if unit.flag == "python-brace-format" or unit.kind == "message":
        english, translated = brace_fields(unit.msgid), brace_fields(msgstr)
        if translated is None:
            return "a lone { or } in the msgstr (write {{ or }} for a brace)"
        if sorted(translated) != sorted(english or []):
            return f"fields {sorted(translated)} in the msgstr, {sorted(english or [])} in the msgid"
    return None


# ----------------------------------------------------------------------------------------------- merge
def update(source, lang: str) -> Status:
    """Merge the English of ``source`` into its PO file (:func:`merge`) and write it; return its status. A file
    that cannot be read raises :class:`TranslationFileError` before anything is written."""
    target, text = merged(source, lang)
    write(target, text)
    return status(source, lang)


def merged(source, lang: str) -> tuple[pathlib.Path, str]:
    """The PO file of ``source`` merged with its English, as text, and where it goes (nothing written)."""
    target = source.po_path(lang)
    old = read_po(target) if present(target) else polib.POFile(wrapwidth=0)
    return target, merge(old, source.units(), source.name, lang, _locations(source)).__unicode__()


def write(target: pathlib.Path, text: str) -> bool:
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    files.write_text(target, text)  # a translator's file: never left half written
    return True


def _locations(source):
    """The ``#:`` reference of a unit: a notebook cell as ``file:cell``, a page as its file (no line numbers: they
    would change every entry's comment when a line is added above it); none for the package's or theme's words."""
    if " " in source.name:
        return lambda unit: []
    if source.name.endswith((".ipynb", ".yml")):
        return lambda unit: [(source.name, unit.context)]
    return lambda unit: [(source.name, "")]


def _migrate(entry: polib.POEntry) -> None:
    """An entry of a Markdown block written before equation references became placeholders (the references
    themselves in its msgid and msgstr, and in a fuzzy entry's previous msgid) takes today's form in place
    (:func:`.markdown.migrated`), so that merging finds it again: no translation lost, none turned fuzzy."""
    from attention_workshop.editions.markdown import NOT_PROSE_KINDS, migrated

    if (entry.comment or "").startswith(("string", "message", "setting", "theme", *NOT_PROSE_KINDS)):
        return  # code, the package's and the theme's words: no Markdown, no reference
    entry.msgid, entry.msgstr = migrated(entry.msgid, entry.msgstr)
    if entry.previous_msgid:
        entry.previous_msgid = migrated(entry.previous_msgid, "")[0]


def merge(old: polib.POFile, units: list, name: str, lang: str, locations=lambda unit: []) -> polib.POFile:
    """The translation file for ``units`` made from ``old`` as GNU msgmerge makes it, with Babel's
    ``Catalog.update``: an English text found again keeps its translation; a changed one gets the translation of
    the most similar old text (difflib ratio >= 0.6, any msgctxt), marked fuzzy with the old English as its
    previous msgid (``#|``); an old entry nothing matches becomes obsolete (``#~``), and an obsolete entry comes
    back when its English, or a text like it, does. Entries follow the order of ``units``; their comments say
    the kind (and notes for the translator), their flags ``fuzzy`` and the format; a translator's own comments
    (``# ...``) stay with the entry."""
    from babel.messages.catalog import Catalog

    catalog, before = Catalog(fuzzy=False), {}
    for entry in sorted(old, key=lambda e: e.obsolete):  # an active entry wins over an obsolete one
        _migrate(entry)
        key = (entry.msgid, entry.msgctxt)
        if key not in before:
            before[key] = entry
            comments = entry.tcomment.splitlines() if entry.tcomment else []
            flags = ["fuzzy"] if "fuzzy" in entry.flags else []
            catalog.add(entry.msgid, entry.msgstr, context=entry.msgctxt, flags=flags, user_comments=comments)
    template = Catalog(fuzzy=False)
    unique = list({(u.context, u.msgid): u for u in units}.values())
    for unit in unique:
        template.add(unit.msgid, context=unit.context)
    catalog.update(template, update_creation_date=False)

    po = polib.POFile(wrapwidth=0)
    po.header, po.metadata = old.header, dict(old.metadata)
    complete_header(po, name, lang, project="attention-core" if name.startswith("src/attention_core") else "")
    for unit in unique:
        message = catalog.get(unit.msgid, context=unit.context)
        msgstr = same_ends(message.string or "", unit.msgid)
        fuzzy = bool(msgstr) and "fuzzy" in message.flags
        previous = None
        if fuzzy:
            was = before.get((unit.msgid, unit.context))
            previous = message.previous_id[0] if message.previous_id else (was.previous_msgid if was else None)
        po.append(
            polib.POEntry(
                msgctxt=unit.context,
                msgid=unit.msgid,
                msgstr=msgstr,
                flags=(["fuzzy"] if fuzzy else []) + ([unit.flag] if unit.flag else []),
                previous_msgid=previous,
                comment=unit.kind + (f": {unit.note}" if unit.note else ""),
                tcomment="\n".join(message.user_comments),
                occurrences=locations(unit),
            )
        )
    for message in catalog.obsolete.values():
        if message.string:
            po.append(
                polib.POEntry(
                    msgctxt=message.context,
                    msgid=message.id,
                    msgstr=same_ends(message.string, message.id),
                    tcomment="\n".join(message.user_comments),
                    obsolete=True,
                )
            )
    return po
