"""The translatable text of Markdown (a notebook's markdown cell, a page): its blocks (:mod:`.blocks`) as units, and
the text written again with their translations in place, block by block.

A reference to a numbered equation (``[(8)](04_from_scores_to_weights.ipynb#eq-softmax)``, a lesson's portable
Markdown: :mod:`attention_workshop.portable`) is not text: the book's build renumbers it whenever an equation is
added before it. In a block's msgid each reference is a numbered placeholder, ``{0}``, ``{1}``, ... in order (as an
f-string's fields are in a code string's), and the note says which equation each stands for; the generator puts
the English's references back in their place. So renumbering the equations (``python -m
attention_workshop.editions renumber``) changes no msgid, no translation and no translation file. A placeholder is
``{digits}`` in the prose, outside code spans and math (where ``h_{12}`` keeps its braces); an English block whose
prose holds such a text of its own is refused (:class:`.blocks.BlockError`), so a placeholder means one thing.
"""

from __future__ import annotations

import re

from attention_workshop.editions.blocks import BlockError, blocks, replace
from attention_workshop.editions.units import Unit
from attention_workshop.portable import CODE_SPAN, EQUATION_LINK

NOTES = {  # what a translator needs to know about a block of this kind ("#." in the PO file)
    "heading": "one line",
    "title": "a box's title, one line",
    "cell": "a table cell, one line",
    "term": (
        "a glossary entry's terms, one per line: this edition's own terms plain, the one it uses first; a term in "
        "another language marked with its code, {lang}`en: attention`, {lang}`zh: 注意力`"
    ),
    "definition": "a glossary definition",
}
NOT_PROSE_KINDS = ("comment", "math")  # a code block's comment, a line of display math: no reference, no placeholder
_NOT_PROSE = re.compile(rf"{CODE_SPAN.pattern}|\$\$.*?\$\$|\$[^$\n]+\$", re.S)  # code spans and math
PLACEHOLDER = re.compile(r"\{(\d+)\}")


def _prose(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each run of ``text`` outside code spans and math."""
    runs, last = [], 0
    for match in _NOT_PROSE.finditer(text):
        runs.append((last, match.start()))
        last = match.end()
    return [*runs, (last, len(text))]


def _in_prose(pattern: re.Pattern, text: str) -> list[re.Match]:
    return [m for a, b in _prose(text) for m in pattern.finditer(text, a, b) if m.end() <= b]


def with_placeholders(text: str) -> tuple[str, list[str]]:
    """An English block's msgid, each equation reference in its prose replaced by ``{0}``, ``{1}``, ... in order,
    and the references (``BlockError`` if its prose already holds a ``{digits}`` of its own)."""
    own = _in_prose(PLACEHOLDER, text)
    if own:
        raise BlockError(
            f"{own[0].group()!r} in the prose of {text[:60]!r} would read as an equation's placeholder in the "
            "translation files: write it as code (`...`) or math"
        )
    references = _in_prose(EQUATION_LINK, text)
    for n, match in reversed(list(enumerate(references))):
        text = text[: match.start()] + f"{{{n}}}" + text[match.end() :]
    return text, [m.group() for m in references]


def placeholder_problem(msgstr: str, msgid: str) -> str | None:
    """Why ``msgstr`` is not a translation of ``msgid`` as far as its equation placeholders go, or ``None``: it
    must hold each of the msgid's placeholders once, no other, and no equation reference written out (its number
    would go stale)."""
    english = sorted(int(m.group(1)) for m in _in_prose(PLACEHOLDER, msgid))
    used = sorted(int(m.group(1)) for m in _in_prose(PLACEHOLDER, msgstr))
    written = _in_prose(EQUATION_LINK, msgstr)
    if written:
        return f"{written[0].group()} written out: write the placeholder of the msgid ({{0}}, {{1}}, ...) instead"
    if used != english:
        listed = ", ".join(f"{{{n}}}" for n in english) or "none"
        return (
            f"equation placeholders {', '.join(f'{{{n}}}' for n in used) or 'none'}: the msgid has {listed}, each once"
        )
    return None


def restored(msgstr: str, references: list[str]) -> str:
    """A translation with each placeholder ``{n}`` of its prose replaced by the English's ``references[n]``."""
    for match in reversed(_in_prose(PLACEHOLDER, msgstr)):
        msgstr = msgstr[: match.start()] + references[int(match.group(1))] + msgstr[match.end() :]
    return msgstr


def migrated(msgid: str, msgstr: str) -> tuple[str, str]:
    """An entry written before equation references became placeholders (the references in its msgid and msgstr),
    in today's form: each reference of the msgstr becomes the placeholder of the same reference in the msgid (same
    number and label; a label referred to twice, in order). A msgstr whose references are not the msgid's keeps
    them, and :func:`placeholder_problem` reports it."""
    if not _in_prose(EQUATION_LINK, msgid):  # today's form already (or no reference)
        return msgid, msgstr
    try:
        new_id, references = with_placeholders(msgid)
    except BlockError:  # a {digits} of its own beside the references: no English gives such a msgid any more
        return msgid, msgstr
    free = {n: (m.group(1), m.group(2)) for n, m in enumerate(_in_prose(EQUATION_LINK, msgid))}
    found = _in_prose(EQUATION_LINK, msgstr)
    taken = []
    for match in found:
        n = next((n for n, key in free.items() if key == (match.group(1), match.group(2))), None)
        if n is None:
            return new_id, msgstr
        taken.append(n)
        del free[n]
    for n, match in reversed(list(zip(taken, found, strict=True))):
        msgstr = msgstr[: match.start()] + f"{{{n}}}" + msgstr[match.end() :]
    return new_id, msgstr


def _note(kind: str, references: list[str]) -> str:
    said = [NOTES.get(kind, "")]
    said += [
        f"{{{n}}} = equation {EQUATION_LINK.fullmatch(r).group(2)} (its number, a link)"
        for n, r in enumerate(references)
    ]
    return "; ".join(s for s in said if s)


def markdown_units(text: str, context: str, lines: bool = False) -> list[Unit]:
    """The units of a cell or page: one per block with words, all with msgctxt ``context`` (two identical blocks
    share one entry, as in Sphinx's catalogs), equation references as placeholders; ``lines``: remember each
    block's line for reports (pages)."""
    units = []
    for b in blocks(text):
        try:
            msgid, references = (b.text, []) if b.kind in NOT_PROSE_KINDS else with_placeholders(b.text)
        except BlockError as error:
            raise BlockError(f"[{context}] {error}") from None
        units.append(Unit(context, msgid, b.kind, _note(b.kind, references), line=b.line if lines else 0))
    return units


def translate_markdown(text: str, context: str, translation) -> str:
    """``text`` with every block that has a translation (``translation(context, msgid)``; fuzzy or missing: none)
    replaced by it, the English's equation references in place of its placeholders; a block without one stays
    English on its own, the rest of the text byte for byte. A translation whose placeholders are not its msgid's
    is refused (:class:`.code.TranslationRefused`)."""
    from attention_workshop.editions.code import TranslationRefused

    def one(block):
        if block.kind in NOT_PROSE_KINDS:
            return translation(context, block.text)
        try:
            msgid, references = with_placeholders(block.text)
        except BlockError as error:
            raise BlockError(f"[{context}] {error}") from None
        found = translation(context, msgid)
        if found is None:
            return None
        problem = placeholder_problem(found, msgid)
        if problem:
            raise TranslationRefused(msgid, "", problem)
        return restored(found, references)

    return replace(text, one)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)
