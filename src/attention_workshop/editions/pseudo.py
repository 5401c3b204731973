"""The pseudo-language edition: every translatable word marked, so English that escapes translation shows."""

from __future__ import annotations

import json
import pathlib
import re

from attention_core import files
from attention_workshop.editions.blocks import KINDS as BLOCK_KINDS
from attention_workshop.editions.catalog import Translation
from attention_workshop.editions.sources import ConfigSource, Source, sources


# ----------------------------------------------------------------------------------------------- pseudo edition
def pseudo_text(text: str) -> str:
    from attention_core.lang import pseudo

    return pseudo(text)


ROLE = re.compile(r"\{(\w+)\}`([^`]*)`")
LINK = re.compile(r"(\[(?:[^\[\]]|\[[^\[\]]*\])*\])(\([^)]*\))")  # its text may hold brackets: [[4]](refs.md#x)
MATH = re.compile(r"\$\$?[^$]+\$\$?")
CODE = re.compile(r"`[^`]*`")
TAG = re.compile(r"<[^<>\n]+>")  # an HTML tag of portable Markdown (<span lang="zh">, <a id=...>)


def pseudo_inline(text: str) -> str:
    """A block of markdown in the pseudo-language: text replaced, syntax, math, code, HTML tags, link targets and
    cross-reference targets kept (a ``{ref}``'s own text and a ``{term}``'s term are text too)."""
    parts, last = [], 0
    pattern = re.compile(f"{ROLE.pattern}|{LINK.pattern}|{MATH.pattern}|{CODE.pattern}|{TAG.pattern}")
    for m in pattern.finditer(text):
        parts.append(pseudo_text(text[last : m.start()]))
        piece = m.group()
        role = ROLE.fullmatch(piece)
        link = LINK.fullmatch(piece)
        if role and role.group(1) == "term":
            piece = f"{{term}}`{pseudo_text(role.group(2))}`"
        elif role and role.group(1) in ("ref", "numref") and "<" in role.group(2):
            label, target = role.group(2).rsplit("<", 1)
            piece = f"{{{role.group(1)}}}`{pseudo_text(label)}<{target}`"
        elif link:
            piece = "[" + pseudo_inline(link.group(1)[1:-1]) + "]" + link.group(2)
        parts.append(piece)
        last = m.end()
    parts.append(pseudo_text(text[last:]))
    return "".join(parts)


def pseudo_translation(source: Source) -> Translation:
    """Every unit of ``source`` in the pseudo-language: nothing a reader sees is left in English, so any English
    the pseudo edition shows escaped the translation mechanism."""
    table = {}
    for unit in source.units():
        if unit.kind == "math":  # a line of display math: only the words in \text{...}
            text = re.sub(r"(\\text\{)([^{}]*)(\})", lambda m: m[1] + pseudo_text(m[2]) + m[3], unit.msgid)
        elif unit.kind in BLOCK_KINDS and unit.kind != "comment":
            text = pseudo_inline(unit.msgid)
        elif unit.context in ("sphinx:language", "sphinx:html_search_language"):
            text = unit.msgid  # Sphinx has no pseudo-language: keep its English machinery
        else:
            text = pseudo_text(unit.msgid)
        table[(unit.context, unit.msgid)] = text
    return Translation(mapping=table)


def write_pseudo_edition(folder: pathlib.Path) -> list[pathlib.Path]:
    """Write the pseudo-language edition of the whole book into ``folder`` (a folder below the repository);
    return its notebooks (to be executed before it is built)."""
    from attention_core.lang import PSEUDO

    notebooks = []
    for source in sources():
        if not source.generates:
            continue
        translation = pseudo_translation(source)
        if isinstance(source, ConfigSource):
            files.write_text(folder / "_config.yml", source.edition(PSEUDO, translation, folder))
            files.write_text(folder / "_toc.yml", source.toc(PSEUDO, translation))
            continue
        target = folder / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        made = source.edition(PSEUDO, translation)
        if isinstance(made, dict):
            files.write_text(target, json.dumps(made, ensure_ascii=False, indent=1))
            notebooks.append(target)
        else:
            files.write_text(target, made)
    return notebooks
