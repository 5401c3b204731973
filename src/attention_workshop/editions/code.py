"""The translatable text of a code cell: string literals (an f-string's fields numbered) and comments, read with
the tokenizer and written back with a translation in their place.

A translation is data, never code. What a translator reads and writes for a string literal is the text the literal
means (its escapes decoded), in the one grammar of Python's ``str.format``: ``{0}``, ``{1}``, ... stand for the
English f-string's fields in order, ``{{`` and ``}}`` for braces. A translation may use exactly the placeholders of
its English, each once, and nothing else in braces; it has a line break only where the English has one, and a
comment never has one (:func:`check_translation`, :class:`TranslationRefused`). The generator writes the
translated text back with its backslashes, quotes and braces escaped, so the new literal means exactly that text
(:func:`_escape`). The fields of an f-string are found by one scanner, :func:`_scan_field`, which reads the
characters themselves: no step depends on how a Python version tokenizes f-strings (3.12 splits them into parts).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import re
import tokenize
import unicodedata

LANGUAGE_CALL = re.compile(r'(\bset_language\(\s*)"en"(\s*\))')  # the one declared code substitution
TEXT_CALLS = {"print", "pad"}  # a one-word string passed to these is text (a header), not a name
TEXT_KEYWORDS = {"alt", "caption", "title", "suptitle", "label", "xlabel", "ylabel", "description"}
PROSE_PUNCTUATION = ",.;:!?()'\"“”‘’"  # written differently by other languages (，。；：！？（）)
PRAGMA = re.compile(r"#\s*(noqa|NBVAL_|fmt:|type:|pragma)")
WRAP = 100  # display columns of a regenerated, translated multi-line string literal
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # where str.splitlines (so a notebook) cuts a line


class TranslationRefused(ValueError):
    """A translation that is not text for its English: it adds, drops or repeats a field, or breaks a line the
    English does not. ``field`` is the offending piece of the translation, as written."""

    def __init__(self, msgid: str, field: str, problem: str):
        self.msgid, self.field, self.problem = msgid, field, problem
        super().__init__(f"{field!r}: {problem}" if field else problem)


@dataclasses.dataclass(frozen=True)
class Literal:
    """A run of implicitly concatenated string literals (or one comment) in a code cell, with its position."""

    start: int  # offsets into the cell's source
    end: int
    kind: str  # "string", "comment" or "bytes" (never translated)
    text: str  # what a translator reads: a string's meaning, braces doubled, fields as {0}, {1}, ...
    fields: list[str]  # the source of each field "{expr!conv:spec}", in order
    prefix: str = ""  # the string prefix of the first piece (r, f, rf, ...)
    indent: int = 0  # the column where the run starts
    quote: str = '"'  # the quotes of the first piece
    name: bool = False  # used as a name by the code (a subscript key, a compared value): never translated
    enclosing: str = ""  # the quotes of the f-strings whose field holds this literal ("" at the top of a cell)


def _offsets(source: str) -> list[int]:
    starts, total = [0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def _string_tokens(source: str) -> list[tuple[int, int, str, int]]:
    """(start, end, kind, column) of every string literal and comment in ``source``; ``kind`` is "string" or
    "comment". Only where a literal starts and ends is taken from the tokenizer: from Python 3.12 it splits an
    f-string into several tokens, which are joined back into one here; what is inside is read by
    :func:`_fstring_parts`."""
    lines = _offsets(source)
    found, fstring = [], None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        start = lines[tok.start[0] - 1] + tok.start[1]
        end = lines[tok.end[0] - 1] + tok.end[1]
        name = tokenize.tok_name[tok.type]
        if name == "FSTRING_START":
            fstring = fstring or (start, tok.start[1], 0)
            fstring = (fstring[0], fstring[1], fstring[2] + 1)
        elif name == "FSTRING_END":
            depth = fstring[2] - 1
            if depth == 0:
                found.append((fstring[0], end, "string", fstring[1]))
                fstring = None
            else:
                fstring = (fstring[0], fstring[1], depth)
        elif fstring is not None:
            continue
        elif tok.type == tokenize.STRING:
            found.append((start, end, "string", tok.start[1]))
        elif tok.type == tokenize.COMMENT:
            found.append((start, end, "comment", tok.start[1]))
    return found


_BLANK = re.compile(r"\s*")


def literals(source: str) -> list[Literal]:
    """Every comment and every run of implicitly concatenated string literals in a code cell, in order."""
    return list(_literals(source))


@functools.lru_cache(maxsize=4096)  # a cell is read to list its entries, check them, translate and guard it
def _literals(source: str) -> tuple[Literal, ...]:
    runs: list[list[tuple[int, int, str, int]]] = []
    for tok in _string_tokens(source):
        previous = runs[-1][-1] if runs else None
        joined = (
            previous is not None
            and tok[2] == previous[2] == "string"
            and _BLANK.fullmatch(_strip_comments(source[previous[1] : tok[0]]))
        )
        if joined:
            runs[-1].append(tok)
        else:
            runs.append([tok])
    found, names, lines = [], _name_positions(source), _offsets(source)
    for run in runs:
        start, end, kind, column = run[0][0], run[-1][1], run[0][2], run[0][3]
        if kind == "comment":
            text = source[start:end]
            found.append(Literal(start, end, kind, text[1:].strip(), [], indent=column))
            continue
        pieces = [_parse_piece(source[s:e]) for s, e, _, _ in run]
        if any("b" in prefix.lower() for prefix, _, _ in pieces):
            found.append(Literal(start, end, "bytes", source[start:end], [], pieces[0][0], column, pieces[0][1]))
            continue
        text, fields = "", []
        for prefix, quote, body in pieces:
            if "f" in prefix.lower():
                for part in _fstring_parts(body, raw="r" in prefix.lower()):
                    if part.startswith("{") and not part.startswith("{{"):
                        text += "{" + str(len(fields)) + "}"
                        fields.append(part)
                    else:
                        text += _decode(part, raw="r" in prefix.lower(), fstring=True)
            else:
                text += _braces(ast.literal_eval(prefix + quote + body + quote))
        line = next(n for n in range(len(lines) - 1, -1, -1) if lines[n] <= start) + 1
        name = (line, column) in names
        found.append(Literal(start, end, kind, text, fields, pieces[0][0], column, pieces[0][1], name))
    return tuple(found)


def _name_positions(source: str) -> set[tuple[int, int]]:
    """(line, column) of the string literals the code uses as names, not as text: subscript keys
    (``sweep["mean"]``), compared values (``name == "dot"``), the language code of ``set_language("en")``, and a
    one-word identifier passed to a function (``position_of("place")``, ``score="general"``), except to ``print``
    and ``pad`` or as a text keyword (``ylabel="microseconds"``). A lesson's code never uses a label as a name
    (CONTRIBUTING), so these are the only literals an edition must keep as they are. ``source`` is a cell, or the
    expression of an f-string's field (read in parentheses: it may start with a space)."""
    tree = None
    for text, mode in ((source, "exec"), (f"({source}\n)", "eval")):
        try:
            tree = ast.parse(text, mode=mode)
            break
        except SyntaxError:
            continue
    if tree is None:
        return set()
    shift = 1 if mode == "eval" else 0  # the opening parenthesis
    split = text.splitlines()
    found = set()

    def mark(node):
        if isinstance(node, ast.Constant | ast.JoinedStr) and (
            isinstance(node, ast.JoinedStr) or isinstance(node.value, str)
        ):
            before = split[node.lineno - 1].encode()[: node.col_offset].decode(errors="replace")
            found.add((node.lineno, len(before) - (shift if node.lineno == 1 else 0)))

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            mark(node.slice)
            if isinstance(node.slice, ast.Tuple):
                for element in node.slice.elts:
                    mark(element)
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                mark(operand)
        elif isinstance(node, ast.Call):
            callee = getattr(node.func, "id", getattr(node.func, "attr", ""))
            for argument in node.args:
                if callee == "set_language" or (callee not in TEXT_CALLS and _identifier(argument)):
                    mark(argument)
            for keyword in node.keywords:
                if keyword.arg not in TEXT_KEYWORDS and _identifier(keyword.value):
                    mark(keyword.value)
    return found


def _identifier(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier()


def _strip_comments(between: str) -> str:
    return re.sub(r"#[^\n]*", "", between).replace("\\\n", "")


def _parse_piece(token: str) -> tuple[str, str, str]:
    """``(prefix, quote, body)`` of one string literal token, ``body`` as written between the quotes."""
    prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
    rest = token[len(prefix) :]
    quote = rest[:3] if rest[:3] in ('"""', "'''") else rest[0]
    return prefix, quote, rest[len(quote) : -len(quote)]


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


# ----------------------------------------------------------------------------------------------- f-string fields
def _fstring_parts(body: str, raw: bool = False) -> list[str]:
    """An f-string body (or a format spec) cut into its literal text and its replacement fields, as written: a
    piece that starts with one ``{`` is a field ``{expr!conv:spec}``; ``{{`` and ``}}`` are text. In a non-raw
    body ``\\N{NAME}`` is text (a named character), not a field."""
    parts, text, i = [], [], 0
    while i < len(body):
        if not raw and body.startswith("\\N{", i):
            end = body.index("}", i)
            text.append(body[i : end + 1])
            i = end + 1
        elif not raw and body.startswith("\\\\", i):
            text.append("\\\\")
            i += 2
        elif body.startswith("{{", i) or body.startswith("}}", i):
            text.append(body[i : i + 2])
            i += 2
        elif body[i] == "{":
            if text:
                parts.append("".join(text))
                text = []
            end, _ = _scan_field(body, i)
            parts.append(body[i : end + 1])
            i = end + 1
        else:
            text.append(body[i])
            i += 1
    if text:
        parts.append("".join(text))
    return parts


def _scan_field(body: str, start: int) -> tuple[int, int]:
    """The one scanner of a replacement field: for the field that opens at ``body[start]`` (a ``{``), the index of
    the ``}`` that closes it and the index where its expression ends (at its ``!conversion``, its ``:spec`` or its
    closing brace). Brackets and string literals inside the expression are skipped whole; the spec may hold fields
    of its own (``{x:>{width}}``)."""
    depth, i, expression_end = 0, start + 1, None
    while i < len(body):
        ch = body[i]
        if expression_end is None:
            if ch in "'\"":
                i = _string_end(body, i)
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}" and depth:
                depth -= 1
            elif ch == "}":
                return i, i
            elif depth == 0 and (ch == ":" or (ch == "!" and body[i + 1 : i + 2] != "=")):
                expression_end = i
        elif ch == "{":
            i = _scan_field(body, i)[0]
        elif ch == "}":
            return i, expression_end
        i += 1
    raise ValueError(f"unclosed replacement field in f-string body {body!r}")


def _string_end(text: str, start: int) -> int:
    """The index just after the string literal whose opening quote is at ``text[start]``."""
    quote = text[start : start + 3] if text[start : start + 3] in ('"""', "'''") else text[start]
    i = start + len(quote)
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text.startswith(quote, i):
            return i + len(quote)
        else:
            i += 1
    raise ValueError(f"unclosed string literal in {text!r}")


def _split_field(field: str) -> tuple[str, str]:
    """A field ``{expr!conv:spec}`` as its expression and the rest (``!conv:spec``, without the braces)."""
    end, expression_end = _scan_field(field, 0)
    return field[1:expression_end], field[expression_end:end]


_ESCAPE = re.compile(
    r"\\(N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|\r\n|[^{}])|\{\{|\}\}", re.S
)
_SIMPLE = {"\n": "", "\r\n": "", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n"}
_SIMPLE |= {"r": "\r", "t": "\t", "v": "\v"}


def _decode(part: str, raw: bool, fstring: bool) -> str:
    """The translator's text of a literal part of an f-string, as written in the source: its escapes decoded as
    Python decodes them (an unknown escape keeps its backslash), its braces written ``{{`` and ``}}``."""
    if raw:
        return part

    def one(match):
        escape = match.group(1)
        if escape is None:
            return match.group(0)  # {{ or }}: already a brace in the translator's grammar
        if escape[0] == "N":
            return _braces(unicodedata.lookup(escape[2:-1]))
        if escape[0] in "xuU":
            return _braces(chr(int(escape[1:], 16)))
        if escape[0] in "01234567":
            return _braces(chr(int(escape, 8)))
        return _SIMPLE.get(escape, "\\" + escape)

    return _ESCAPE.sub(one, part)


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


def _field_literals(field: str) -> list[Literal]:
    """String literals inside an f-string's field: in its expression (``{'yes' if ok else 'no'}``) and in the
    fields of its format spec (``{x:>{width}}``)."""
    expression, rest = _split_field(field)
    try:
        found = [lit for lit in literals(expression) if lit.kind == "string"]
    except (tokenize.TokenError, SyntaxError, ValueError):
        found = []
    for part in _fstring_parts(rest, raw=True):
        if part.startswith("{") and not part.startswith("{{"):
            found += _field_literals(part)
    return found


def _code_literals(source: str) -> list[Literal]:
    """Every literal of a code cell and, recursively, the string literals inside f-string fields (each knowing
    the quotes of the f-strings around it)."""
    out = []
    for lit in literals(source):
        out.append(lit)
        out.extend(_nested(lit, ""))
    return out


def _nested(lit: Literal, enclosing: str):
    for field in lit.fields:
        for inner in _field_literals(field):
            inner = dataclasses.replace(inner, enclosing=enclosing + lit.quote[0])
            yield inner
            yield from _nested(inner, inner.enclosing)


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
    out = _translate_code(source, translate, "")
    return LANGUAGE_CALL.sub(lambda m: f'{m.group(1)}"{lang}"{m.group(2)}', out)


def _translate_code(source: str, translate, enclosing: str) -> str:
    edits = []
    for lit in literals(source):
        lit = dataclasses.replace(lit, enclosing=enclosing)
        fields = [_translate_field(f, translate, enclosing + lit.quote[0]) for f in lit.fields]
        new_text = translate(lit.text) if translatable(lit) else None
        if (new_text is None or new_text == lit.text) and fields == lit.fields:
            continue  # kept as written, byte for byte
        new_text = lit.text if new_text is None else new_text
        pieces = check_translation(lit, new_text)
        if lit.kind == "comment":
            edits.append((lit.start, lit.end, "# " + new_text))
            continue
        edits.append((lit.start, lit.end, _encode(pieces, fields, lit, source)))
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _translate_field(field: str, translate, enclosing: str) -> str:
    """A replacement field with the string literals inside it translated."""
    expression, rest = _split_field(field)
    spec = "".join(
        _translate_field(part, translate, enclosing) if part.startswith("{") and not part.startswith("{{") else part
        for part in _fstring_parts(rest, raw=True)
    )
    return "{" + _translate_code(expression, translate, enclosing) + spec + "}"


def _encode(pieces: list[str | int], fields: list[str], lit: Literal, source: str) -> str:
    """Python source for a translation of ``lit`` (its checked pieces): one literal, or implicitly concatenated
    pieces at the run's indentation when the English run spanned lines. The text is escaped so the literal means
    exactly what the translator wrote; a placeholder becomes its field's source."""
    is_f = bool(fields) or "f" in lit.prefix.lower()
    prefix = "f" if is_f else ""  # escapes written out: no raw prefix
    multiline = "\n" in source[lit.start : lit.end] and len(lit.quote) == 1
    text = "".join(f"{{{p}}}" if isinstance(p, int) else _braces(p) for p in pieces)
    parts = _wrap(text, [len(f) for f in fields], WRAP - lit.indent) if multiline else [text]
    out = []
    for part in parts:
        body = "".join(fields[p] if isinstance(p, int) else _escape(p, lit.quote, is_f) for p in placeholders(part))
        out.append(prefix + lit.quote + body + lit.quote)
    return ("\n" + " " * lit.indent).join(out)


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
