"""What a translator translates: a unit is one piece of English text, where it sits and what kind it is."""

from __future__ import annotations

import dataclasses
import string


@dataclasses.dataclass(frozen=True)
class Unit:
    """One translatable piece of an English source: where it sits, its English, what kind of text it is."""

    context: str  # msgctxt: a notebook cell's id, a page's name, a message's name
    msgid: str  # the English (an f-string's fields as {0}, {1}, ...)
    kind: str  # heading, paragraph, item, cell, title, term, definition; string, comment; setting, message, ...
    note: str = ""  # for the translator (a PO file's "#." line): what the placeholders stand for, what to write
    flag: str = ""  # the entry's format flag: "python-brace-format" (fields checked by msgfmt and the generator)
    line: int = dataclasses.field(default=0, compare=False)  # where a page's block starts (for reports), 0: none


def brace_fields(text: str) -> list[str] | None:
    """The replacement fields of ``text`` read as a ``str.format`` template (``"{n} of {total:>4}"`` ->
    ``["n", "total"]``), in order; ``None`` if it is not a valid template (a lone brace)."""
    try:
        return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return None


def brace_format(msgid: str) -> str:
    """``"python-brace-format"`` if ``msgid`` is a ``str.format`` template with a field, else ``""``: for a text
    the code fills (a package message, a setting with ``{type}``, an f-string's numbered placeholders), never for
    Markdown, whose braces are roles and math."""
    return "python-brace-format" if brace_fields(msgid) else ""
