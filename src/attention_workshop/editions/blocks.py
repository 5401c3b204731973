"""The translatable blocks of MyST Markdown, much as Sphinx's gettext builder cuts a page: one block per paragraph,
heading, list item's paragraph, table cell, directive title, ``alt`` or ``caption`` option, glossary term group and
definition; and, beyond what Sphinx extracts, one per display-math line with words in ``\\text{...}`` and one per
comment of a code block.

The text is tokenised by MyST's own parser (``myst_parser.parsers.mdit.create_md_parser``, markdown-it-py with the
book's extensions from ``_config.yml``), so a directive fence ```` ```{name} ````, a ``:::`` colon fence, a
``(label)=`` target, ``$$`` math and a code block are recognised as the book's build recognises them. The rest of
math and code, labels, other directive options and HTML blocks are not text. The body of a directive whose content
is Markdown (``{admonition}``, ``{dropdown}``, ``{note}``, ...) is cut the same way, recursively. The portable HTML
of a lesson or page (``attention_workshop.portable``: a solution's ``<summary>``, an admonition's ``<p
class="admonition-title">``) gives its title as a block, and a glossary's ``<dt>`` line its entry's terms (one
block: ``attention · <span lang="zh">注意力</span>``); a body, Markdown between blank lines, is cut like any other,
a paragraph between a glossary's ``<dd>`` and ``</dd>`` as a definition.

A block's text (a translator's ``msgid``) is its lines without what the Markdown around them adds: the ``#`` of a
heading, a list item's marker, a block quote's ``>``, indentation. :func:`replace` puts a translation back in
place of those lines and keeps everything else byte for byte.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable

# Directives whose body is Markdown (cut recursively); any other directive's body (math, code, a toctree) is kept.
MARKDOWN_DIRECTIVES = {
    "admonition", "attention", "caution", "danger", "dropdown", "epigraph", "error", "figure", "hint", "important",
    "margin", "note", "pull-quote", "seealso", "sidebar", "tip", "topic", "warning", "card", "tab-item", "div",
}  # fmt: skip
UNTITLED = {"figure", "image", "div"}  # their argument is a path or a class, not text
TEXT_OPTIONS = {"alt", "caption"}  # directive options whose value is text a reader sees
# The kinds of block ("#." in a PO file; the pseudo edition treats a math line and a comment apart).
KINDS = ("heading", "paragraph", "item", "cell", "title", "alt", "caption", "term", "definition", "math", "comment")
PYTHON = {"python", "python3", "ipython", "ipython3", "py", "pycon"}  # fenced code whose comments a tokenizer finds
_TEXT_MATH = re.compile(r"\\text\{[^{}]*[^\W\d_]")  # \text{...} with a letter: words inside display math
_PRAGMA = re.compile(r"#\s*(noqa|NBVAL_|fmt:|type:|pragma)")
_OPTION = re.compile(r"\s*:([\w-]+):(\s*)(.*?)\s*$")
_DIRECTIVE = re.compile(r"\{([\w-]+)\}\s*(.*)$")
# What is not prose inside a block: math, inline code, a role's name, HTML tags, link targets, addresses.
_NOT_PROSE = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$|`+[^`]*`+|\{[\w:-]+\}|<[^>\n]+>|\]\([^)\n]*\)|https?://\S+", re.S)


@dataclasses.dataclass(frozen=True)
class Block:
    """One translatable block: its kind, its text, and where each line of the text sits in the source."""

    kind: str  # one of KINDS
    text: str  # the msgid: the block's lines, without markers and indentation, joined by "\n"
    spans: tuple[tuple[int, int, int], ...]  # (line, start column, end column) of each line of ``text``
    inline: bool = False  # part of one line (a heading's words, a table cell, a title): replaced within the line

    @property
    def line(self) -> int:
        """The block's first line, counted from 1."""
        return self.spans[0][0] + 1


def has_words(text: str) -> bool:
    """Whether ``text`` has prose besides math, code, role names, tags and addresses (a block with none, say a
    table cell holding only ``$T$``, is not an entry; a link's text is prose: a lesson's title in a table cell is)."""
    return re.search(r"[^\W\d_]", _NOT_PROSE.sub(" ", text)) is not None


def blocks(text: str, every: bool = False) -> list[Block]:
    """The blocks of ``text`` in order: those with words (``every``: all of them, for aligning two versions)."""
    found = _every_block(text)
    return list(found) if every else [b for b in found if has_words(b.text)]


@functools.lru_cache(maxsize=4096)  # a cell is cut to list its entries and again to translate it, in each edition
def _every_block(text: str) -> tuple[Block, ...]:
    return tuple(_blocks(text, text.splitlines(keepends=True)))


@functools.cache
def _parser():
    """MyST's Markdown parser with the extensions the book enables (``_config.yml``: parse.myst_enable_extensions)."""
    import yaml
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    from attention_workshop.paths import ROOT

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    extensions = set(config.get("parse", {}).get("myst_enable_extensions", []))
    return create_md_parser(MdParserConfig(enable_extensions=extensions), RendererHTML)


class BlockError(ValueError):
    """The parser's line map and the source disagree (a construct this module does not know how to cut)."""


def _blocks(text: str, lines: list[str]) -> list[Block]:
    tokens = _parser().parse(text)
    out: list[Block] = []
    containers: list[str] = []
    definition = False  # between a portable glossary's <dd> and </dd> (HTML blocks around Markdown)
    for i, tok in enumerate(tokens):
        if tok.type in ("list_item_open", "dd_open", "footnote_open"):
            containers.append(tok.type)
        elif tok.type in ("list_item_close", "dd_close", "footnote_close"):
            containers.pop()
        elif tok.type == "paragraph_open":
            kind = {"list_item_open": "item", "dd_open": "definition"}.get(containers[-1] if containers else "", "")
            kind = kind or ("definition" if definition and not containers else "paragraph")
            out.append(_paragraph(tokens[i + 1].content, tok.map, lines, kind))
        elif tok.type in ("heading_open", "dt_open"):
            out.append(_one_line(tokens[i + 1].content, tok.map[0], lines, "heading" if tok.type[0] == "h" else "term"))
        elif tok.type == "tr_open":
            out.extend(_cells(tok.map[0], lines))
        elif tok.type in ("fence", "colon_fence"):
            out.extend(_directive(tok, lines))
        elif tok.type == "code_block":  # indented code: Python in this book, else any language with # comments
            out.extend(_code_comments("", tok.map[0], tok.content.splitlines(keepends=True), lines))
        elif tok.type in ("math_block", "math_block_label", "amsmath"):
            out.extend(_math(tok.map, lines))
        elif tok.type == "html_block":
            out.extend(_html_titles(tok.map, lines))
            tags = [_body(lines[n]).strip() for n in range(*tok.map) if _body(lines[n]).strip()]
            definition = bool(tags) and tags[-1] == "<dd>"
    return out


# The titles a portable lesson writes in HTML (``attention_workshop.portable``): a solution's ``<summary>`` and an
# admonition's ``<p class="admonition-title">``, each alone on its line; and a portable glossary's terms, one
# ``<dt>`` line per entry (after the entry's anchor, which is not text).
_HTML_TITLE = re.compile(r'^\s*<(summary|p class="admonition-title")>(.*?)</(?:summary|p)>\s*$')
_HTML_TERMS = re.compile(r'^\s*<dt>(?:<a id="[^"<>]*"></a>)?(.*?)</dt>\s*$')


def _html_titles(where: list[int], lines: list[str]) -> list[Block]:
    """The titles and glossary terms in an HTML block (the rest of its HTML is not text)."""
    out = []
    for number in range(*where):
        body = _body(lines[number])
        match = _HTML_TITLE.match(body)
        terms = _HTML_TERMS.match(body)
        found, group = (match, 2) if match else (terms, 1)
        if found and found.group(group).strip():
            words = found.group(group)
            start = found.start(group) + len(words) - len(words.lstrip())
            kind = "title" if match else "term"
            out.append(Block(kind, words.strip(), ((number, start, start + len(words.strip())),), True))
    return out


def _math(where: list[int], lines: list[str]) -> list[Block]:
    """The lines of display math with words in ``\\text{...}`` (the rest of a formula is not text): one block
    each, the whole line, so a translation may move the words around the symbols."""
    out = []
    for number in range(*where):
        body = _body(lines[number])
        if _TEXT_MATH.search(body):
            start = len(body) - len(body.lstrip())
            out.append(Block("math", body.strip(), ((number, start, len(body)),), inline=True))
    return out


def _code_comments(language: str, first: int, content: list[str], lines: list[str]) -> list[Block]:
    """The comments of a code block shown in the text (a solution's code, a shell command): one block each, the
    words after ``#``. Python's (a block marked as Python, or not marked) are found by its tokenizer (a ``#`` in a
    string is not one); other languages' are a ``#`` at a line's start or after a space."""
    found: list[tuple[int, int]] | None = None  # (line in content, column of "#")
    if language in PYTHON or not language:
        import io
        import tokenize

        try:
            tokens = list(tokenize.generate_tokens(io.StringIO("".join(content)).readline))
            found = [(t.start[0] - 1, t.start[1]) for t in tokens if t.type == tokenize.COMMENT]
        except (tokenize.TokenError, SyntaxError):
            found = None  # not Python after all (or a fragment): read it as any other language
    if found is None:
        found = []
        for n, line in enumerate(content):
            match = re.search(r"(?:^|\s)(#)", line)
            if match:
                found.append((n, match.start(1)))
    out = []
    for n, column in found:
        own = _body(content[n])
        words = own[column:].lstrip("#").strip()
        if not words or _PRAGMA.match(own[column:]) or not re.search(r"[^\W\d_]", words):
            continue
        source = _body(lines[first + n])
        if not source.endswith(own):
            raise BlockError(f"line {first + n + 1}: the code block is not where expected")
        out.append(Block("comment", words, ((first + n, len(source) - len(words), len(source)),), inline=True))
    return out


def _body(line: str) -> str:
    return line.rstrip("\r\n").rstrip()


def _paragraph(content: str, where: list[int], lines: list[str], kind: str) -> Block:
    first, end = where
    parts = content.split("\n")
    if len(parts) != end - first:
        raise BlockError(f"line {first + 1}: a paragraph of {end - first} lines parsed as {len(parts)}")
    spans = []
    for number, part in zip(range(first, end), parts, strict=True):
        body, part = _body(lines[number]), part.strip()
        if not body.endswith(part):
            raise BlockError(f"line {number + 1}: {part[:40]!r} is not where the parser put it")
        spans.append((number, len(body) - len(part), len(body)))
    return Block(kind, "\n".join(p.strip() for p in parts), tuple(spans))


def _one_line(content: str, number: int, lines: list[str], kind: str) -> Block:
    body = _body(lines[number])
    start = body.find(content, len(re.match(r"\s*#*\s*", body).group()))
    if start < 0 or not content:
        raise BlockError(f"line {number + 1}: {content[:40]!r} is not where the parser put it")
    return Block(kind, content, ((number, start, start + len(content)),), inline=True)


def _cells(number: int, lines: list[str]) -> list[Block]:
    """The cells of a table row, as written between its unescaped pipes (an escaped ``\\|`` stays in the text)."""
    body, cells, start, escaped = _body(lines[number]), [], 0, False
    for col, ch in enumerate(body + "|"):
        if ch == "|" and not escaped:
            cells.append((start, col))
            start = col + 1
        escaped = ch == "\\" and not escaped
    if body.lstrip().startswith("|"):
        cells = cells[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        cells = cells[:-1]
    out = []
    for a, b in cells:
        cell = body[a:b]
        text = cell.strip()
        if text and not re.fullmatch(r":?-+:?", text):
            lead = a + len(cell) - len(cell.lstrip())
            out.append(Block("cell", text, ((number, lead, lead + len(text)),), inline=True))
    return out


def _directive(tok, lines: list[str]) -> list[Block]:
    match = _DIRECTIVE.match(tok.info.strip())
    if match is None:  # a code block
        language = tok.info.strip().split()[0].lower() if tok.info.strip() else ""
        return _code_comments(language, tok.map[0] + 1, tok.content.splitlines(keepends=True), lines)
    name, argument = match.groups()
    fence = tok.map[0]
    out = []
    if argument and name not in UNTITLED:
        body = _body(lines[fence])
        out.append(Block("title", argument, ((fence, len(body) - len(argument), len(body)),), inline=True))
    if name not in MARKDOWN_DIRECTIVES:
        return out
    content = tok.content.splitlines(keepends=True)
    skip = 0
    if content and content[0].strip() == "---":  # options as a YAML block
        skip = next((k + 1 for k in range(1, len(content)) if content[k].strip() == "---"), len(content))
    while skip < len(content) and _OPTION.match(content[skip]):
        option = _OPTION.match(content[skip])
        if option.group(1) in TEXT_OPTIONS and option.group(3):
            body = _body(lines[fence + 1 + skip])
            value = option.group(3)
            out.append(Block(option.group(1), value, ((fence + 1 + skip, len(body) - len(value), len(body)),), True))
        skip += 1
    inner = content[skip:]
    # from the body's lines to the source's: the body was cut out of the fence's indentation
    for block in _blocks("".join(inner), inner):
        spans = []
        for number, start, end in block.spans:
            source, own = _body(lines[fence + 1 + skip + number]), _body(inner[number])
            if not source.endswith(own):
                raise BlockError(f"line {fence + 2 + skip + number}: the directive's body is not where expected")
            shift = len(source) - len(own)
            spans.append((fence + 1 + skip + number, start + shift, end + shift))
        out.append(dataclasses.replace(block, spans=tuple(spans)))
    return out


def replace(text: str, translate: Callable[[Block], str | None]) -> str:
    """``text`` with each block that ``translate`` returns a translation for replaced by it; everything else
    (markers, indentation, labels, math, code, the blocks without a translation) byte for byte as it was.

    A translation in several lines continues at the block's own indentation (a list item's, a definition's);
    within a line (a heading, a cell, a title) its line breaks become spaces and a table cell's pipes are
    escaped."""
    lines = text.splitlines(keepends=True)
    for block in sorted(blocks(text), key=lambda b: b.spans[0][:2], reverse=True):
        new = translate(block)
        if new is None:
            continue
        new = new.strip()
        if block.inline:
            new = " ".join(new.split("\n"))
            if block.kind == "cell":
                new = re.sub(r"(?<!\\)\|", r"\\|", new)
            number, start, end = block.spans[0]
            lines[number] = lines[number][:start] + new + lines[number][end:]
            continue
        (first, start, _), (last, _, end) = block.spans[0], block.spans[-1]
        lead = lines[first][:start]
        follow = lines[block.spans[1][0]][: block.spans[1][1]] if len(block.spans) > 1 else re.sub(r"[^\s>]", " ", lead)
        parts = new.split("\n")
        joined = lead + parts[0] + "".join("\n" + ((follow + p) if p.strip() else follow.rstrip()) for p in parts[1:])
        lines[first : last + 1] = [joined + lines[last][end:]]
    return "".join(lines)
