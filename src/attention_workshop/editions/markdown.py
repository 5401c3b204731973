"""The translatable text of a page: its sections under headings and its glossary entries."""

from __future__ import annotations

import re

from attention_workshop.editions.catalog import Translation
from attention_workshop.editions.units import Unit

# ----------------------------------------------------------------------------------------------- pages
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
FENCE = re.compile(r"^(```+|:::+)")


def page_sections(text: str) -> list[tuple[str, str, str]]:
    """A markdown page cut into consecutive pieces ``(context, kind, text)`` that join back into ``text``
    exactly: the part before the first heading, each heading with its section, and inside a ```{glossary}
    block each entry (its term lines and definition) on its own."""
    lines = text.splitlines(keepends=True)
    pieces: list[list] = [["front", "section", ""]]
    fence, glossary, used = None, False, {}
    for line in lines:
        bare = line.rstrip("\n")
        match = FENCE.match(bare)
        if fence is None and match:
            fence, glossary = match.group(1), bare.startswith(match.group(1) + "{glossary}")
            pieces[-1][2] += line
            if glossary:
                pieces.append(["", "term", ""])
            continue
        if fence is not None and bare.strip() == fence:
            fence, was_glossary, glossary = None, glossary, False
            if was_glossary:
                pieces.append(["glossary-end", "section", line])
                continue
            pieces[-1][2] += line
            continue
        if glossary:
            entry_start = bare and not bare[0].isspace() and (not pieces[-1][2].strip() or _ends_entry(pieces[-1][2]))
            if entry_start and pieces[-1][2].strip():
                pieces.append(["", "term", ""])
            if entry_start and not pieces[-1][0]:
                pieces[-1][0] = "term:" + bare.strip()
            pieces[-1][2] += line
            continue
        heading = HEADING.match(bare) if fence is None else None
        if heading:
            pieces.append([_slug(heading.group(2)), "section", line])
            continue
        pieces[-1][2] += line
    out = []
    for context, kind, body in pieces:
        if not body:
            continue
        context = context or kind
        n = used.get(context, 0)
        used[context] = n + 1
        out.append((context if n == 0 else f"{context}-{n + 1}", kind, body))
    assert "".join(p[2] for p in out) == text
    return out


def _ends_entry(body: str) -> bool:
    """A glossary entry is complete once it has an indented definition line (the next unindented line starts
    the next entry)."""
    return any(line[:1].isspace() and line.strip() for line in body.splitlines())


def _slug(title: str) -> str:
    from docutils.nodes import make_id

    return make_id(re.sub(r"[`*{}]", "", title)) or "section"


def page_units(text: str) -> list[Unit]:
    return [Unit(ctx, body, kind) for ctx, kind, body in page_sections(text) if re.search(r"[^\W\d_]", body)]


def translate_page(text: str, translation: Translation) -> str:
    out = []
    for context, _, body in page_sections(text):
        new = translation(context, body)
        out.append(new if new is not None else body)
    return "".join(out)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)
