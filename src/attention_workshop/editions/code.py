"""The translatable text of a code cell: string literals (an f-string's fields numbered) and comments, read with
the tokenizer and written back with a translation in their place."""

from __future__ import annotations

import ast
import dataclasses
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


@dataclasses.dataclass
class Literal:
    """A run of implicitly concatenated string literals (or one comment) in a code cell, with its position."""

    start: int  # offsets into the cell's source
    end: int
    kind: str  # "string" or "comment"
    text: str  # the English as a translator sees it (fields numbered)
    fields: list[str]  # the source of each field "{expr!conv:spec}", in order
    prefix: str = ""  # the string prefix of the first piece (r, f, rf, ...)
    indent: int = 0  # the column where the run starts
    quote: str = '"'  # the quotes of the first piece
    name: bool = False  # used as a name by the code (a subscript key, a compared value): never translated


def _offsets(source: str) -> list[int]:
    starts, total = [0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def _string_tokens(source: str) -> list[tuple[int, int, str, int]]:
    """(start, end, kind, column) of every string literal and comment in ``source``; ``kind`` is "string" or
    "comment". Python 3.12+ splits an f-string into several tokens; they are joined back into one here."""
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
        any_f = any("f" in prefix.lower() for prefix, _, _ in pieces)
        text, fields = "", []
        for prefix, _quote, body in pieces:
            if "f" in prefix.lower():
                piece_text, piece_fields = _fstring_text(body, len(fields))
            else:
                piece_text, piece_fields = (_escape_braces(body) if any_f else body), []
            text += piece_text
            fields += piece_fields
        line = next(n for n in range(len(lines) - 1, -1, -1) if lines[n] <= start) + 1
        name = (line, column) in names
        found.append(Literal(start, end, kind, text, fields, pieces[0][0], column, pieces[0][1], name))
    return found


def _name_positions(source: str) -> set[tuple[int, int]]:
    """(line, column) of the string literals the code uses as names, not as text: subscript keys
    (``sweep["mean"]``), compared values (``name == "dot"``), the language code of ``set_language("en")``, and a
    one-word identifier passed to a function (``position_of("place")``, ``score="general"``), except to ``print``
    and ``pad`` or as a text keyword (``ylabel="microseconds"``). A lesson's code never uses a label as a name
    (CONTRIBUTING), so these are the only literals an edition must keep as they are."""
    tree = None
    for text, mode in ((source, "exec"), (_field_expression(source), "eval")):
        try:
            tree = ast.parse(text, mode=mode)
            break
        except SyntaxError:
            continue
    if tree is None:
        return set()
    split = source.splitlines()
    found = set()

    def mark(node):
        if isinstance(node, ast.Constant | ast.JoinedStr) and (
            isinstance(node, ast.JoinedStr) or isinstance(node.value, str)
        ):
            text = split[node.lineno - 1].encode()[: node.col_offset].decode(errors="replace")
            found.add((node.lineno, len(text)))

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


def _field_expression(field: str) -> str:
    """The expression of a replacement field's inside (``'token':<13`` -> ``'token'``)."""
    depth, quote = 0, None
    for i, ch in enumerate(field):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and (ch == ":" or (ch == "!" and field[i + 1 : i + 2] != "=")):
            return field[:i]
    return field


def _strip_comments(between: str) -> str:
    return re.sub(r"#[^\n]*", "", between).replace("\\\n", "")


def _parse_piece(token: str) -> tuple[str, str, str]:
    """``(prefix, quote, body)`` of one string literal token; ``body`` as written, escapes kept: a translator
    sees and writes the text as it stands between the quotes."""
    prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
    rest = token[len(prefix) :]
    quote = rest[:3] if rest[:3] in ('"""', "'''") else rest[0]
    return prefix, quote, rest[len(quote) : -len(quote)]


def _escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _fstring_text(body: str, first: int) -> tuple[str, list[str]]:
    """An f-string body as translator text: literal text kept (``{{``/``}}`` as written), each replacement field
    ``{expr!conv:spec}`` replaced by ``{n}`` (numbered from ``first``); the fields' sources returned in order."""
    text, fields, i = [], [], 0
    while i < len(body):
        ch = body[i]
        if body.startswith("{{", i) or body.startswith("}}", i):
            text.append(body[i : i + 2])
            i += 2
        elif ch == "{":
            end = _field_end(body, i)
            fields.append(body[i : end + 1])
            text.append("{" + str(first + len(fields) - 1) + "}")
            i = end + 1
        else:
            text.append(ch)
            i += 1
    return "".join(text), fields


def _field_end(body: str, start: int) -> int:
    """Index of the ``}`` closing the replacement field that opens at ``body[start]``."""
    depth, i, quote = 0, start, None
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unclosed replacement field in f-string body {body!r}")


def translatable(lit: Literal) -> bool:
    """Comments (but pragmas) and strings with a letter or prose punctuation (``", "`` too: an edition may use its
    own punctuation) are entries; a literal the code uses as a name is not, nor one of symbols only (``" | "``)."""
    if lit.kind == "comment":
        return bool(lit.text) and not PRAGMA.match("#" + lit.text) and re.search(r"[^\W\d_]", lit.text) is not None
    if lit.name:
        return False
    plain = re.sub(r"\{\d+\}|\\[nt]|\s", "", lit.text)  # what is left besides placeholders and white space
    return re.search(r"[^\W\d_]", plain) is not None or any(ch in PROSE_PUNCTUATION for ch in plain)


def _field_literals(field: str) -> list[tuple[int, int, Literal]]:
    """String literals inside an f-string's field (``{'token':<13}``, ``{'yes' if ok else 'no'}``)."""
    inner = field[1:-1]
    try:
        return [(lit.start + 1, lit.end + 1, lit) for lit in literals(inner) if lit.kind == "string"]
    except (tokenize.TokenError, SyntaxError, IndentationError, ValueError):
        return []


def _code_literals(source: str) -> list[Literal]:
    """Every literal of a code cell and, recursively, the string literals inside f-string fields."""
    out = []
    for lit in literals(source):
        out.append(lit)
        for field in lit.fields:
            out.extend(inner for _, _, inner in _nested(field))
    return out


def _nested(field: str):
    for start, end, lit in _field_literals(field):
        yield start, end, lit
        for sub in lit.fields:
            yield from _nested(sub)


def translate_code(source: str, translate, lang: str) -> str:
    """A code cell's source with its translatable literals and comments translated (``translate(msgid)``
    returns the translation or ``None``) and the edition's language in ``set_language(...)``."""
    out = _translate_code(source, translate)
    return LANGUAGE_CALL.sub(lambda m: f'{m.group(1)}"{lang}"{m.group(2)}', out)


def _translate_code(source: str, translate) -> str:
    edits = []
    for lit in literals(source):
        fields = [_translate_field(f, translate) for f in lit.fields]
        new_text = translate(lit.text) if translatable(lit) else None
        if (new_text is None or new_text == lit.text) and fields == lit.fields:
            continue  # kept as written, byte for byte
        new_text = lit.text if new_text is None else new_text
        if lit.kind == "comment":
            edits.append((lit.start, lit.end, "# " + new_text))
            continue
        edits.append((lit.start, lit.end, _encode(new_text, fields, lit, source)))
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _translate_field(field: str, translate) -> str:
    """A replacement field with the string literals inside it translated."""
    inner = _translate_code(field[1:-1], translate)
    return "{" + inner + "}"


def _encode(text: str, fields: list[str], lit: Literal, source: str) -> str:
    """Python source for the translated ``text`` of ``lit`` (a literal's body as written, escapes kept): one
    literal, or implicitly concatenated pieces at the run's indentation when the English run spanned lines."""
    check_fields(text, len(fields))
    is_f = bool(fields) or "f" in lit.prefix.lower()
    prefix = "".join(c for c in lit.prefix.lower() if c in "rb") + ("f" if is_f else "")
    multiline = "\n" in source[lit.start : lit.end] and len(lit.quote) == 1
    parts = _wrap(text, [len(f) for f in fields], WRAP - lit.indent) if multiline else [text]
    pieces = []
    for part in parts:
        body = _escape_quote(part, lit.quote)
        if is_f:
            body = re.sub(r"(?<!\{)\{(\d+)\}(?!\})", lambda m: fields[int(m.group(1))], body)
        pieces.append(prefix + lit.quote + body + lit.quote)
    return ("\n" + " " * lit.indent).join(pieces)


def check_fields(text: str, n: int) -> None:
    """A translated f-string must use each placeholder {0}..{n-1} exactly once (and no other)."""
    found = sorted(int(m) for m in re.findall(r"(?<!\{)\{(\d+)\}(?!\})", text))
    if found != list(range(n)):
        raise ValueError(f"translation {text!r} must use the placeholders {list(range(n))} once each, has {found}")


def _escape_quote(body: str, quote: str) -> str:
    """``body`` with every unescaped ``quote`` character escaped (a one-character quote only)."""
    if len(quote) != 1:
        return body
    out, escaped = [], False
    for ch in body:
        if ch == quote and not escaped:
            out.append("\\")
        out.append(ch)
        escaped = ch == "\\" and not escaped
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
