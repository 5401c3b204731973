"""Translation files (gettext PO): reading, the translations they hold, and merging the English into them."""

from __future__ import annotations

import copy
import dataclasses
import pathlib

import polib


def load_po(path: pathlib.Path, lang: str = "") -> polib.POFile:
    return polib.pofile(str(path), wrapwidth=0) if path.exists() else new_po(path.stem, lang)


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
