"""The translatable text of a code cell: string literals (an f-string's fields numbered) and comments, read from
LibCST's lossless syntax tree and written back with a translation in their place.

A translation is data, never code. What a translator reads and writes for a string literal is the text the literal
means (its escapes decoded by Python itself), in the one grammar of Python's ``str.format``: ``{0}``, ``{1}``, ...
stand for the English f-string's fields in order, ``{{`` and ``}}`` for braces. A translation may use exactly the
placeholders of its English, each once, and nothing else in braces; it has a line break only where the English has
one, and a comment never has one (:func:`check_translation`, :class:`TranslationRefused`). The generator writes the
translated text back with its backslashes, quotes and braces escaped, so the new literal means exactly that text
(:func:`_escape`), as a new node of the cell's tree: everything else is written back by LibCST byte for byte.

LibCST (``libcst``, a concrete syntax tree with its own parser) reads every cell the same way on Python 3.11, 3.12
and 3.13: an f-string is one node with its text and its fields (``{expr!conv:spec}``, as written), whatever the
running Python's tokenizer does with f-strings (3.12 splits them into parts). What is text and which literals are
names is the lessons' policy (CONTRIBUTING, "Labels and names never share a literal"), read from the tree:
:func:`translatable` and :class:`_Reader`.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import re
import unicodedata

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from attention_workshop.editions.blocks import BlockError

LANGUAGE = "set_language"  # set_language("en"): the one declared code substitution, the edition's language
TEXT_CALLS = {"print", "pad"}  # a one-word string passed to these is text (a header), not a name
TEXT_KEYWORDS = {"alt", "caption", "title", "suptitle", "label", "xlabel", "ylabel", "description"}
PROSE_PUNCTUATION = ",.;:!?()'\"“”‘’"  # written differently by other languages (，。；：！？（）)
PRAGMA = re.compile(r"#\s*(noqa|NBVAL_|fmt:|type:|pragma)")
WRAP = 100  # display columns of a regenerated, translated multi-line string literal
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # where str.splitlines (so a notebook) cuts a line
STRINGS = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


class TranslationRefused(ValueError):
    """A translation that is not text for its English: it adds, drops or repeats a field, or breaks a line the
    English does not. ``field`` is the offending piece of the translation, as written."""

    def __init__(self, msgid: str, field: str, problem: str):
        self.msgid, self.field, self.problem = msgid, field, problem
        super().__init__(f"{field!r}: {problem}" if field else problem)


@dataclasses.dataclass(frozen=True)
class Literal:
    """A run of implicitly concatenated string literals (or one comment) in a code cell."""

    kind: str  # "string", "comment" or "bytes" (never translated)
    text: str  # what a translator reads: a string's meaning, braces doubled, fields as {0}, {1}, ...
    fields: list[str]  # the source of each field "{expr!conv:spec}", in order
    prefix: str = ""  # the string prefix of the first piece (r, f, rf, ...)
    indent: int = 0  # the column where the run starts
    quote: str = '"'  # the quotes of the first piece
    name: bool = False  # used as a name by the code (a subscript key, a compared value): never translated
    enclosing: str = ""  # the quotes of the f-strings whose field holds this literal ("" at the top of a cell)
    multiline: bool = False  # a run of single-quoted pieces over several lines: a translation is wrapped the same way
    node: cst.CSTNode | None = dataclasses.field(default=None, compare=False, repr=False)  # its node in the tree


# ----------------------------------------------------------------------------------------------- reading
def literals(source: str) -> list[Literal]:
    """Every comment and every run of implicitly concatenated string literals in a code cell, in order (not the
    strings inside f-string fields: :func:`_code_literals`)."""
    return [lit for lit in _read(source)[1] if not lit.enclosing]


def _code_literals(source: str) -> list[Literal]:
    """Every literal of a code cell and, after each, the string literals inside its f-string fields (each knowing
    the quotes of the f-strings around it)."""
    return list(_read(source)[1])


@functools.lru_cache(maxsize=4096)  # a cell is read to list its entries, check them, translate and guard it
def _read(source: str) -> tuple[cst.Module, tuple[Literal, ...]]:
    """The cell's tree and its literals, in the order of the source (a literal inside an f-string's field after the
    run that holds it). A cell LibCST cannot read is a :class:`.blocks.BlockError` naming the line."""
    try:
        wrapper = MetadataWrapper(cst.parse_module(source))
    except cst.ParserSyntaxError as error:
        raise BlockError(f"line {error.raw_line}: not Python the generator can read ({error.message})") from None
    reader = _Reader(wrapper.module)
    wrapper.visit(reader)
    return wrapper.module, tuple(reader.found)


class _Reader(cst.CSTVisitor):
    """Collects the literals of a cell in the order of the source, and which strings the code uses as names:
    subscript keys (``sweep["mean"]``), compared values (``name == "dot"``), the language code of
    ``set_language("en")``, and a one-word identifier passed to a function (``position_of("place")``,
    ``score="general"``), except to ``print`` and ``pad`` or as a text keyword (``ylabel="microseconds"``). A
    lesson's code never uses a label as a name (CONTRIBUTING), so these are the only literals an edition must keep
    as they are."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, module: cst.Module):
        super().__init__()
        self.module, self.found, self.names, self.inside, self.enclosing = module, [], set(), set(), []

    # what the code uses as a name
    def _mark(self, node) -> None:
        if isinstance(node, STRINGS) and not isinstance(getattr(node, "evaluated_value", ""), bytes):
            self.names.add(id(node))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                value = element.slice.value
                for item in [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]:
                    self._mark(item)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for operand in (node.left, *(target.comparator for target in node.comparisons)):
            self._mark(operand)

    def visit_Call(self, node: cst.Call) -> None:
        callee = node.func.value if isinstance(node.func, cst.Name) else getattr(node.func, "attr", None)
        callee = getattr(callee, "value", callee) or ""
        for arg in node.args:
            if arg.star:
                continue
            if arg.keyword is None and (callee == LANGUAGE or (callee not in TEXT_CALLS and _identifier(arg.value))):
                self._mark(arg.value)
            elif arg.keyword is not None and arg.keyword.value not in TEXT_KEYWORDS and _identifier(arg.value):
                self._mark(arg.value)

    # the literals
    def visit_Comment(self, node: cst.Comment) -> None:
        column = self.get_metadata(PositionProvider, node).start.column
        self.found.append(Literal("comment", node.value[1:].strip(), [], indent=column, node=node))

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> None:
        if id(node) not in self.inside:
            self._run(node, _pieces(node))

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if id(node) not in self.inside:
            self._run(node, [node])

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        if id(node) not in self.inside:
            self._run(node, [node])
        self.enclosing.append(node.quote[0])  # the quotes around what its fields hold

    def leave_FormattedString(self, node: cst.FormattedString) -> None:
        self.enclosing.pop()

    def _run(self, node, pieces: list) -> None:
        self.inside |= {id(n) for n in _runs(node)}
        first = pieces[0]
        written = self.module.code_for_node(node.with_changes(lpar=[], rpar=[]))
        where = dict(
            prefix=first.prefix,
            indent=self.get_metadata(PositionProvider, node).start.column,
            quote=first.quote,
            enclosing="".join(self.enclosing),
            node=node,
        )
        if any("b" in piece.prefix.lower() for piece in pieces):
            if not self.enclosing:  # a bytes literal is never text; inside a field it is not even listed
                self.found.append(Literal("bytes", written, [], **where))
            return
        text, fields = "", []
        for piece in pieces:
            if isinstance(piece, cst.SimpleString):
                text += _braces(piece.evaluated_value)
                continue
            for part in piece.parts:
                if isinstance(part, cst.FormattedStringText):
                    text += _braces(_meaning(part.value, piece))
                else:
                    text += "{" + str(len(fields)) + "}"
                    fields.append(self.module.code_for_node(part))
        multiline = "\n" in written and len(first.quote) == 1
        self.found.append(Literal("string", text, fields, name=id(node) in self.names, multiline=multiline, **where))


def _pieces(node) -> list:
    """The string literals of a run, in order (a ``ConcatenatedString`` nests to the right)."""
    if isinstance(node, cst.ConcatenatedString):
        return [*_pieces(node.left), *_pieces(node.right)]
    return [node]


def _runs(node) -> list:
    """A run's node, its pieces and the ``ConcatenatedString`` nodes between them."""
    if isinstance(node, cst.ConcatenatedString):
        return [node, *_runs(node.left), *_runs(node.right)]
    return [node]


def _identifier(node) -> bool:
    value = (
        getattr(node, "evaluated_value", None) if isinstance(node, cst.SimpleString | cst.ConcatenatedString) else None
    )
    return isinstance(value, str) and value.isidentifier()


def _meaning(text: str, fstring: cst.FormattedString) -> str:
    """What a literal part of an f-string means, as Python reads it: its escapes decoded, ``{{`` a brace. Read by
    Python's own parser, from the part alone in an f-string of the same prefix and quotes (a field after it, so that
    a quote at its end does not close the string)."""
    parsed = ast.parse(f"{fstring.prefix}{fstring.quote}{text}{{0}}{fstring.quote}", mode="eval").body
    return "".join(v.value for v in parsed.values if isinstance(v, ast.Constant))


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


# ----------------------------------------------------------------------------------------------- what is text
def translatable(lit: Literal) -> bool:
    """Comments (but pragmas) and strings with a letter or prose punctuation (``", "`` too: an edition may use its
    own punctuation) are entries; a literal the code uses as a name is not, nor one of symbols only (``" | "``),
    nor a bytes literal."""
    if lit.kind == "comment":
        return bool(lit.text) and not PRAGMA.match("#" + lit.text) and re.search(r"[^\W\d_]", lit.text) is not None
    if lit.name or lit.kind != "string":
        return False
    plain = re.sub(r"\{\d+\}|\s", "", lit.text)  # what is left besides placeholders and white space
    return re.search(r"[^\W\d_]", plain) is not None or any(ch in PROSE_PUNCTUATION for ch in plain)


# ----------------------------------------------------------------------------------------------- the guard
def placeholders(text: str, msgid: str = "") -> list[str | int]:
    """A code string's translator text as pieces: text (``{{``, ``}}`` read as braces) and placeholder numbers.
    Anything else in braces (``{expr}``, ``{0!r}``, ``{0:>8}``, a lone ``{`` or ``}``) is refused."""
    pieces: list[str | int] = []
    for match in re.finditer(r"\{\{|\}\}|\{(\d+)\}|\{[^{}]*\}?|\}|[^{}]+", text):
        piece = match.group(0)
        if match.group(1) is not None:
            pieces.append(int(match.group(1)))
        elif piece in ("{{", "}}"):
            pieces.append(piece[0])
        elif piece[0] not in "{}":
            pieces.append(piece)
        elif piece == "}" or not piece.endswith("}"):
            raise TranslationRefused(
                msgid, piece, "a brace that opens or closes no placeholder: write {{ or }} for a brace"
            )
        else:
            raise TranslationRefused(
                msgid, piece, "not a placeholder of the English: a translation moves {0}, {1}, ... and adds no field"
            )
    return pieces


def check_translation(lit: Literal, text: str) -> list[str | int]:
    """Refuse a translation of ``lit`` that is more than text (:class:`TranslationRefused`, naming the offending
    field); return its pieces (:func:`placeholders`). A string keeps exactly the placeholders of its English,
    each once, and breaks a line only if the English does; a comment stays one line; a string inside an f-string's
    field has no backslash, line break or quote of its own or of an f-string around it (Python 3.11 allows none
    there, and every version must read the same code)."""
    if lit.kind == "comment":
        bad = next((ch for ch in text if ch in LINE_BREAKS or _control(ch)), None)
        if bad is not None:
            raise TranslationRefused(lit.text, bad, "a comment is one line of text: no line break or control character")
        return [text]
    pieces = placeholders(text, lit.text)
    _same_placeholders(pieces, len(lit.fields), lit.text)
    value = "".join(p for p in pieces if isinstance(p, str))
    english_value = "".join(p for p in placeholders(lit.text) if isinstance(p, str))
    if not any(ch in LINE_BREAKS for ch in english_value):
        bad = next((ch for ch in value if ch in LINE_BREAKS), None)
        if bad is not None:
            raise TranslationRefused(lit.text, bad, "a line break where the English has none")
    if lit.enclosing:
        forbidden = "\\" + lit.enclosing + lit.quote[0]
        bad = next((ch for ch in value if ch in forbidden or ch in LINE_BREAKS or _control(ch)), None)
        if bad is not None:
            raise TranslationRefused(
                lit.text,
                bad,
                "a text inside an f-string's field holds no backslash, line break or quote "
                + " ".join(dict.fromkeys(forbidden[1:])),
            )
    return pieces


def check_fields(text: str, n: int) -> None:
    """A translated f-string uses each placeholder {0}..{n-1} exactly once, and no other field
    (:class:`TranslationRefused` otherwise)."""
    _same_placeholders(placeholders(text), n, "")


def _same_placeholders(pieces: list[str | int], n: int, msgid: str) -> None:
    used = [p for p in pieces if isinstance(p, int)]
    english = ", ".join(f"{{{i}}}" for i in range(n)) or "none"
    for i in used:
        if i >= n:
            raise TranslationRefused(msgid, f"{{{i}}}", f"the English has no such placeholder (it has {english})")
        if used.count(i) > 1:
            raise TranslationRefused(msgid, f"{{{i}}}", f"used {used.count(i)} times; the English uses it once")
    for i in range(n):
        if i not in used:
            raise TranslationRefused(msgid, f"{{{i}}}", f"missing: the English has {english}, each once")


def _control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cs") and ch != "\t"


def refusals(source: str, translate) -> list[tuple[Literal, TranslationRefused]]:
    """Every translation of a code cell's literals that :func:`check_translation` refuses, with its literal."""
    found = []
    for lit in _code_literals(source):
        text = translate(lit.text) if translatable(lit) else None
        if text is not None:
            try:
                check_translation(lit, text)
            except TranslationRefused as refused:
                found.append((lit, refused))
    return found


def syntax_error(source: str) -> SyntaxError | None:
    """Why Python cannot read a code cell (``None`` if it can). A cell with IPython's ``%magic`` or ``!shell``
    lines is read as IPython reads it."""
    try:
        ast.parse(source)
        return None
    except (SyntaxError, ValueError) as error:  # ValueError: a null byte
        first = error if isinstance(error, SyntaxError) else SyntaxError(str(error))
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        ast.parse(TransformerManager().transform_cell(source))
        return None
    except ImportError:
        return first
    except (SyntaxError, ValueError):
        return first


def culprit(source: str, translate, lang: str) -> Literal | None:
    """The first literal of a code cell whose translation, alone, makes the cell unreadable to Python."""
    for lit in _code_literals(source):
        text = translate(lit.text) if translatable(lit) else None
        if text is None or text == lit.text:
            continue
        try:
            alone = translate_code(source, lambda msgid, m=lit.text, t=text: t if msgid == m else None, lang)
        except (TranslationRefused, ValueError):
            return lit
        if syntax_error(alone) is not None:
            return lit
    return None


# ----------------------------------------------------------------------------------------------- writing back
def translate_code(source: str, translate, lang: str) -> str:
    """A code cell's source with its translatable literals and comments translated (``translate(msgid)``
    returns the translation or ``None``) and the edition's language in ``set_language(...)``. A translation
    that is more than text raises :class:`TranslationRefused`."""
    _, found = _read(source)
    wanted = {lit.text: translate(lit.text) for lit in found if translatable(lit)}
    wanted = tuple((msgid, text) for msgid, text in wanted.items() if text is not None and text != msgid)
    if f"{LANGUAGE}(" not in source and not wanted:
        return source  # nothing to translate: no need to walk the tree
    return _translated(source, wanted, lang)


@functools.lru_cache(maxsize=4096)  # each edition's cells again in every `status`, `generate` and guard
def _translated(source: str, wanted: tuple[tuple[str, str], ...], lang: str) -> str:
    """:func:`translate_code` for the translations ``wanted`` (msgid, translation): the same cell with the same
    translations is written once (a refused translation is not kept: it raises again)."""
    module, found = _read(source)
    return module.visit(_Writer(module, {id(lit.node): lit for lit in found}, dict(wanted).get, lang)).code


class _Writer(cst.CSTTransformer):
    """Replaces each translated run or comment by a new node (LibCST writes the rest back as it was), after the
    strings inside its fields (a transformer leaves the innermost node first)."""

    def __init__(self, module: cst.Module, found: dict[int, Literal], translate, lang: str):
        super().__init__()
        self.module, self.found, self.translate, self.lang = module, found, translate, lang

    def _wanted(self, lit: Literal) -> str | None:
        text = self.translate(lit.text) if translatable(lit) else None
        return None if text == lit.text else text

    def leave_Comment(self, original: cst.Comment, updated: cst.Comment) -> cst.Comment:
        lit = self.found[id(original)]
        text = self._wanted(lit)
        if text is None:
            return updated
        check_translation(lit, text)
        return updated.with_changes(value="# " + text)

    def _string(self, original, updated):
        lit = self.found.get(id(original))
        if lit is None:  # a piece of a run: the run is written whole
            return updated
        fields = [p for piece in _pieces(updated) for p in getattr(piece, "parts", ()) if _is_field(p)]
        written = [self.module.code_for_node(field) for field in fields]  # with the strings inside translated
        text = self._wanted(lit)
        if text is None and written == lit.fields:
            return updated  # kept as written, byte for byte
        pieces = check_translation(lit, lit.text if text is None else text)
        return _run(pieces, fields, written, lit).with_changes(lpar=updated.lpar, rpar=updated.rpar)

    leave_SimpleString = leave_FormattedString = leave_ConcatenatedString = _string

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """``set_language("en")`` -> the edition's language: the one change the generator makes to code."""
        callee = updated.func.value if isinstance(updated.func, cst.Name) else getattr(updated.func, "attr", None)
        argument = updated.args[0].value if len(updated.args) == 1 else None
        if getattr(callee, "value", callee) == LANGUAGE and getattr(argument, "value", None) == '"en"':
            return updated.with_changes(
                args=[updated.args[0].with_changes(value=argument.with_changes(value=f'"{self.lang}"'))]
            )
        return updated


def _is_field(part) -> bool:
    return isinstance(part, cst.FormattedStringExpression)


def _run(pieces: list[str | int], fields: list, written: list[str], lit: Literal):
    """The new node for a translation of ``lit`` (its checked pieces): one literal, or implicitly concatenated
    literals at the run's indentation, one per line, when the English run spanned lines. The text is escaped so
    the literal means exactly what the translator wrote; a placeholder becomes its field (``written``: its source)."""
    is_f = bool(fields) or "f" in lit.prefix.lower()  # escapes written out: no raw prefix
    text = "".join(f"{{{p}}}" if isinstance(p, int) else _braces(p) for p in pieces)
    lines = _wrap(text, [len(f) for f in written], WRAP - lit.indent) if lit.multiline else [text]
    nodes = []
    for line in lines:
        parts = placeholders(line)
        if is_f:
            body = [
                fields[p] if isinstance(p, int) else cst.FormattedStringText(_escape(p, lit.quote, True)) for p in parts
            ]
            nodes.append(cst.FormattedString(parts=body, start="f" + lit.quote, end=lit.quote))
        else:
            nodes.append(cst.SimpleString(lit.quote + "".join(_escape(p, lit.quote, False) for p in parts) + lit.quote))
    run = nodes[-1]
    for node in reversed(nodes[:-1]):
        between = cst.ParenthesizedWhitespace(last_line=cst.SimpleWhitespace(" " * lit.indent))  # a new line
        run = cst.ConcatenatedString(left=node, right=run, whitespace_between=between)
    return run


def _escape(text: str, quote: str, fstring: bool) -> str:
    """``text`` written between ``quote`` quotes of a (non-raw) literal that means exactly ``text``."""
    out = []
    for ch in text:
        if ch == "\\" or ch == quote[0]:
            out.append("\\" + ch)
        elif ch == "\n" and len(quote) == 3:
            out.append(ch)
        elif ch in LINE_BREAKS or _control(ch):
            out.append(repr(ch)[1:-1])  # \n, \x00, \u2028: written as an escape
        elif fstring and ch in "{}":
            out.append(ch * 2)
        else:
            out.append(ch)
    return "".join(out)


def _wrap(text: str, field_widths: list[int], columns: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``columns`` display columns (a placeholder ``{n}`` counts as wide as its
    field's source), after a space or, in CJK text, after any wide character; never inside a placeholder."""
    tokens = []
    for tok in re.findall(r"\{\d+\}|\S+\s*|\s+", text):
        wide = any(unicodedata.east_asian_width(c) in "WF" for c in tok)
        tokens.extend(
            re.findall(r"[\u3000-\u9fff\uff00-\uffef]\s*|[^\u3000-\u9fff\uff00-\uffef]+", tok) if wide else [tok]
        )
    pieces, current, cols = [], "", 0
    for tok in tokens:
        placeholder = re.fullmatch(r"\{(\d+)\}", tok)
        w = (
            field_widths[int(placeholder.group(1))]
            if placeholder
            else sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in tok)
        )
        if current and cols + w > columns:
            pieces.append(current)
            current, cols = "", 0
        current += tok
        cols += w
    if current:
        pieces.append(current)
    return pieces or [""]
