"""What a translator translates: a unit is one piece of English text, where it sits and what kind it is."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Unit:
    """One translatable piece of an English source: where it sits, its English, what kind of text it is."""

    context: str  # msgctxt: a cell id, or a page section's anchor
    msgid: str  # the English (an f-string's fields as {0}, {1}, ...)
    kind: str  # "markdown", "string", "comment", "section", "term"
    note: str = ""  # for the translator: what the placeholders stand for
