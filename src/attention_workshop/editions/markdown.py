"""The translatable text of Markdown (a notebook's markdown cell, a page): its blocks (:mod:`.blocks`) as units, and
the text written again with their translations in place, block by block."""

from __future__ import annotations

from attention_workshop.editions.blocks import blocks, replace
from attention_workshop.editions.units import Unit

NOTES = {  # what a translator needs to know about a block of this kind ("#." in the PO file)
    "heading": "one line",
    "title": "a box's title, one line",
    "cell": "a table cell, one line",
    "term": (
        "a glossary entry's terms, separated by ' · ': this edition's own terms plain, the one it uses first; a term "
        'in another language marked with its code, <span lang="en">attention</span>, <span lang="zh">注意力</span>'
    ),
    "definition": "a glossary definition",
}


def markdown_units(text: str, context: str, lines: bool = False) -> list[Unit]:
    """The units of a cell or page: one per block with words, all with msgctxt ``context`` (two identical blocks
    share one entry, as in Sphinx's catalogs); ``lines``: remember each block's line for reports (pages)."""
    return [Unit(context, b.text, b.kind, NOTES.get(b.kind, ""), line=b.line if lines else 0) for b in blocks(text)]


def translate_markdown(text: str, context: str, translation) -> str:
    """``text`` with every block that has a translation (``translation(context, msgid)``; fuzzy or missing: none)
    replaced by it; a block without one stays English, the rest of the text byte for byte."""
    return replace(text, lambda block: translation(context, block.text))


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)
