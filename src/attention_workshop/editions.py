"""Every edition but the English one is generated: from the English sources and one translation file per page.

The English notebooks (``notebooks/*.ipynb``) and pages (``book/*.md``) are the one source. A translation is a
gettext PO file per page or lesson, ``locale/<language>/LC_MESSAGES/<path>.po`` (``<path>`` as in the English
book, e.g. ``notebooks/07_learning_without_labels.po``), the format translators and their tools (Poedit,
Weblate, sphinx-intl) know. Its entries are keyed by where the text sits (``msgctxt``) and its English
(``msgid``):

- a markdown cell: the cell's id and its whole text;
- a code cell's string literal (implicitly concatenated pieces together, so an alt text or a caption is one
  entry) and each comment: the cell's id and the text. In an f-string each ``{field}`` becomes a numbered
  placeholder (``{0}``, ``{1}``, ...): the translator moves placeholders but never sees or edits code, and a
  change inside a field (a format) leaves the translation valid. A literal a translation keeps as it is (a
  dictionary key, a file name) is an entry whose ``msgstr`` equals its ``msgid``;
- a page: each section under a heading (context: the heading's anchor) and each glossary entry (context: its
  English term).

The generator changes code in one declared place only: the argument of ``set_language("en")`` becomes the
edition's language. Everything else an edition says differently is a string literal or a comment.

    .venv/bin/python -m attention_workshop.editions update    # merge the English into the PO files (new: empty;
                                                              # changed: fuzzy)
    .venv/bin/python -m attention_workshop.editions status    # list missing, stale and unused entries per file, cell
    .venv/bin/python -m attention_workshop.editions generate  # write zh/ from the English and the PO files

``make editions`` runs all three and executes the Chinese notebooks whose code changed.
``tests/lessons/test_editions.py`` regenerates every edition in memory and compares it with what is committed;
``tests/lessons/test_translations.py`` fails on any missing, stale or unused entry, and on English that escapes a
pseudo-translated edition.
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import io
import json
import os
import pathlib
import re
import sys
import tokenize
import unicodedata

import polib

from attention_workshop.paths import LOCALE, ROOT, translations

LANGUAGE_CALL = re.compile(r'(\bset_language\(\s*)"en"(\s*\))')  # the one declared code substitution
TEXT_CALLS = {"print", "pad"}  # a one-word string passed to these is text (a header), not a name
TEXT_KEYWORDS = {"alt", "caption", "title", "suptitle", "label", "xlabel", "ylabel", "description"}
PROSE_PUNCTUATION = ",.;:!?()'\"“”‘’"  # written differently by other languages (，。；：！？（）)
PRAGMA = re.compile(r"#\s*(noqa|NBVAL_|fmt:|type:|pragma)")
WRAP = 100  # display columns of a regenerated, translated multi-line string literal


# ----------------------------------------------------------------------------------------------- units
@dataclasses.dataclass(frozen=True)
class Unit:
    """One translatable piece of an English source: where it sits, its English, what kind of text it is."""

    context: str  # msgctxt: a cell id, or a page section's anchor
    msgid: str  # the English (an f-string's fields as {0}, {1}, ...)
    kind: str  # "markdown", "string", "comment", "section", "term"
    note: str = ""  # for the translator: what the placeholders stand for


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


def notebook_units(nb: dict) -> list[Unit]:
    """The translatable units of an English notebook, in order."""
    units = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            if source.strip():
                units.append(Unit(cell["id"], source, "markdown"))
            continue
        if cell["cell_type"] != "code":
            continue
        for lit in _code_literals(source):
            if translatable(lit):
                note = "; ".join(f"{{{n}}} = {f[1:-1]}" for n, f in enumerate(lit.fields))
                units.append(Unit(cell["id"], lit.text, lit.kind, note))
    return _unique(units)


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


def _unique(units: list[Unit]) -> list[Unit]:
    seen, out = set(), []
    for u in units:
        if (u.context, u.msgid) not in seen:
            seen.add((u.context, u.msgid))
            out.append(u)
    return out


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


# ----------------------------------------------------------------------------------------------- catalogs
def load_po(path: pathlib.Path, lang: str = "") -> polib.POFile:
    return polib.pofile(str(path), wrapwidth=0) if path.exists() else new_po(path.stem, lang)


def new_po(name: str, lang: str) -> polib.POFile:
    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"attention-executable {name}",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    return po


class Translation:
    """The translations of one English source into one language: ``(context, msgid) -> msgstr``."""

    def __init__(self, po: polib.POFile | None = None, mapping=None):
        self.table = (
            dict(mapping)
            if mapping is not None
            else {(e.msgctxt, e.msgid): e.msgstr for e in po if e.msgstr and not e.obsolete and "fuzzy" not in e.flags}
        )

    def __call__(self, context: str, msgid: str) -> str | None:
        return self.table.get((context, msgid))


@dataclasses.dataclass
class Status:
    missing: list[tuple[str, str]]  # (context, English): no translation
    stale: list[tuple[str, str]]  # (context, English): the translation was made from other English (fuzzy)
    unused: list[tuple[str, str]]  # (context, English): an entry no English text has any more

    def count(self) -> int:
        return len(self.missing) + len(self.stale) + len(self.unused)


class Source:
    """One English source and its translation file per language; ``edition`` writes the translated copy."""

    name: str  # the source's path relative to the repository (what the reports name)
    generates = True  # whether the edition has a file made from this source (the package's messages have none)

    def units(self) -> list[Unit]:
        raise NotImplementedError

    def po_path(self, lang: str) -> pathlib.Path:
        return LOCALE / lang / "LC_MESSAGES" / pathlib.Path(self.name).with_suffix(".po")

    def translation(self, lang: str) -> Translation:
        return Translation(load_po(self.po_path(lang), lang))

    def edition(self, lang: str, translation: Translation | None = None):
        """The translated copy (a notebook dict, a page's text, ...), or ``None`` if there is none to write."""
        return None

    def target(self, lang: str) -> pathlib.Path:
        return ROOT / lang / self.name

    def write(self, lang: str) -> str:
        """Write the edition; return "unchanged", "text" or "code" (executed code changed: run it again)."""
        new = self.edition(lang)
        if new is None:
            return "unchanged"
        target = self.target(lang)
        if target.exists() and target.read_text(encoding="utf-8") == new:
            return "unchanged"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(new, encoding="utf-8")
        return "text"


class NotebookSource(Source):
    def __init__(self, path: pathlib.Path):
        self.path, self.name = path, path.relative_to(ROOT).as_posix()

    def units(self) -> list[Unit]:
        return notebook_units(json.loads(self.path.read_text(encoding="utf-8")))

    def edition(self, lang: str, translation: Translation | None = None) -> dict:
        nb = json.loads(self.path.read_text(encoding="utf-8"))
        return translate_notebook(nb, translation or self.translation(lang), lang)

    def write(self, lang: str) -> str:
        target, new = self.target(lang), self.edition(lang)
        old = json.loads(target.read_text(encoding="utf-8")) if target.exists() else None
        if old is not None and same_sources(old, new):
            return "unchanged"
        old_code = {c["id"]: c for c in (old or {"cells": []})["cells"] if c["cell_type"] == "code"}
        new_code = [c for c in new["cells"] if c["cell_type"] == "code"]
        code_same = (
            old is not None
            and len(old_code) == len(new_code)
            and all(c["id"] in old_code and old_code[c["id"]]["source"] == c["source"] for c in new_code)
        )
        if code_same:  # only markdown changed: keep the executed outputs
            for cell in new_code:
                done = old_code[cell["id"]]
                cell["outputs"], cell["execution_count"], cell["metadata"] = (
                    done["outputs"],
                    done["execution_count"],
                    done["metadata"],
                )
            if "widgets" in old["metadata"]:
                new["metadata"]["widgets"] = old["metadata"]["widgets"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(new, sort_keys=True, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return "text" if code_same else "code"


class PageSource(Source):
    def __init__(self, path: pathlib.Path):
        self.path, self.name = path, path.relative_to(ROOT).as_posix()

    def units(self) -> list[Unit]:
        return page_units(self.path.read_text(encoding="utf-8"))

    def edition(self, lang: str, translation: Translation | None = None) -> str:
        return translate_page(self.path.read_text(encoding="utf-8"), translation or self.translation(lang))


class ConfigSource(Source):
    """The book's ``_config.yml`` and ``_toc.yml``: the title, the part captions, the words of the code folds,
    and two settings a translator chooses (Sphinx's ``language`` code and the search index's language)."""

    name = "_config.yml"
    SETTINGS = {  # sphinx.config key -> the English value a translation replaces
        "language": "en",
        "html_search_language": "en",
        "nb_code_prompt_show": "Show code cell {type}",
        "nb_code_prompt_hide": "Hide code cell {type}",
    }
    PATHS = ("favicon", "html_static_path")  # relative paths, one folder deeper in an edition

    def _english(self):
        import yaml

        return (
            yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")),
            yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")),
        )

    def units(self) -> list[Unit]:
        config, toc = self._english()
        sphinx = config["sphinx"]["config"]
        units = [Unit("title", config["title"], "setting"), Unit("author", config["author"], "setting")]
        units += [Unit(f"sphinx:{key}", sphinx.get(key, english), "setting") for key, english in self.SETTINGS.items()]
        units += [Unit("toc:caption", part["caption"], "caption") for part in toc["parts"]]
        return _unique(units)

    def edition(self, lang: str, translation: Translation | None = None, folder: pathlib.Path | None = None) -> str:
        import yaml

        translation = translation or self.translation(lang)
        config, _ = self._english()
        config["title"] = translation("title", config["title"]) or config["title"]
        config["author"] = translation("author", config["author"]) or config["author"]
        config["exclude_patterns"] = ["_build/*", "**.ipynb_checkpoints"]
        sphinx = config["sphinx"]["config"]
        for key, english in self.SETTINGS.items():
            value = translation(f"sphinx:{key}", sphinx.get(key, english))
            if value is not None:
                sphinx[key] = value
        sphinx["ae_edition"] = lang
        _rebase(config, self.PATHS, os.path.relpath(ROOT, folder or ROOT / lang).replace(os.sep, "/") + "/")
        return self._header(lang, "_config.yml") + yaml.safe_dump(
            config, sort_keys=False, allow_unicode=True, width=120
        )

    def toc(self, lang: str, translation: Translation | None = None) -> str:
        import yaml

        translation = translation or self.translation(lang)
        _, toc = self._english()
        for part in toc["parts"]:
            part["caption"] = translation("toc:caption", part["caption"]) or part["caption"]
        return self._header(lang, "_toc.yml") + yaml.safe_dump(toc, sort_keys=False, allow_unicode=True, width=120)

    def _header(self, lang: str, name: str) -> str:
        return (
            f"# Generated by src/attention_workshop/editions.py from ../{name} and "
            f"{self.po_path(lang).relative_to(ROOT)}: do not edit; run `make editions`.\n"
        )

    def write(self, lang: str) -> str:
        changed = "unchanged"
        for target, text in ((self.target(lang), self.edition(lang)), (ROOT / lang / "_toc.yml", self.toc(lang))):
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                changed = "text"
        return changed


def _rebase(node, keys: tuple[str, ...], up: str) -> None:
    """Prefix ``up`` (``../``) to the relative paths under ``keys``: an edition lives in a folder below the English."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys:
                node[key] = _up(value, up)
            else:
                _rebase(value, keys, up)


def _up(value, up: str):
    if isinstance(value, str):
        return up + value
    if isinstance(value, list):
        return [_up(v, up) for v in value]
    if isinstance(value, dict):
        return {k: _up(v, up) for k, v in value.items()}
    return value


class PackageSource(Source):
    """The sentences ``attention_core`` writes for readers (every :class:`attention_core.lang.Messages`): their
    translation ships with the package, so it has no edition to write."""

    name = "src/attention_core (package messages)"
    generates = False

    def units(self) -> list[Unit]:
        import importlib
        import pkgutil

        import attention_core
        from attention_core.lang import DOMAIN, LOCALE_DIR, MESSAGES

        for module in pkgutil.walk_packages(attention_core.__path__, "attention_core."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)
        ours = [
            m
            for m in MESSAGES
            if m.domain == DOMAIN and m.localedir == LOCALE_DIR and m.context.startswith("attention_core")
        ]
        return _unique([Unit(m.msgctxt(key), text, "message") for m in ours for key, text in m.entries.items()])

    def po_path(self, lang: str) -> pathlib.Path:
        from attention_core.lang import DOMAIN, LOCALE_DIR

        return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class ThemeSource(Source):
    """The theme's fixed words (``ae_lang.THEME_STRINGS``), put into every page by the build."""

    name = "src/attention_workshop/ae_lang.py (theme strings)"
    generates = False

    def units(self) -> list[Unit]:
        from attention_workshop.ae_lang import THEME_STRINGS

        return [Unit("theme", text, "theme") for text in THEME_STRINGS]

    def po_path(self, lang: str) -> pathlib.Path:
        return LOCALE / lang / "LC_MESSAGES" / "theme.po"


def sources() -> list[Source]:
    found: list[Source] = [
        NotebookSource(p) for p in sorted([*ROOT.glob("book/*.ipynb"), *ROOT.glob("notebooks/*.ipynb")])
    ]
    found += [PageSource(p) for p in sorted(ROOT.glob("book/*.md"))]
    return [*found, ConfigSource(), ThemeSource(), PackageSource()]


def status(source: Source, lang: str) -> Status:
    """What the translation file of ``source`` lacks: missing, stale and unused entries."""
    units = source.units()
    po = load_po(source.po_path(lang), lang)
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    wanted = {(u.context, u.msgid) for u in units}
    missing, stale = [], []
    for u in units:
        entry = entries.get((u.context, u.msgid))
        if entry is None or not entry.msgstr:
            missing.append((u.context, u.msgid))
        elif "fuzzy" in entry.flags:
            stale.append((u.context, u.msgid))
    unused = [key for key in entries if key not in wanted]
    return Status(missing, stale, unused)


def update(source: Source, lang: str) -> Status:
    """Merge the English of ``source`` into its PO file, as gettext's msgmerge does: a new text gets an empty
    entry, a changed text keeps its old translation marked fuzzy (stale) with the previous English beside it, and
    an entry no text uses any more is dropped."""
    units = source.units()
    target = source.po_path(lang)
    old = load_po(target, lang)
    by_key = {(e.msgctxt, e.msgid): e for e in old if not e.obsolete}
    wanted = {(u.context, u.msgid) for u in units}
    leftovers: dict[str, list[polib.POEntry]] = {}
    for e in old:
        if not e.obsolete and (e.msgctxt, e.msgid) not in wanted and e.msgstr:
            leftovers.setdefault(e.msgctxt, []).append(e)
    po = new_po(pathlib.Path(source.name).stem, lang)
    po.metadata = old.metadata or po.metadata
    for u in units:
        entry = by_key.get((u.context, u.msgid))
        if entry is None:  # new English, or changed English at the same place: carried over as stale
            previous = _closest(u.msgid, leftovers.get(u.context, []))
            entry = polib.POEntry(msgctxt=u.context, msgid=u.msgid, msgstr=previous.msgstr if previous else "")
            if previous is not None:
                entry.flags = ["fuzzy"]
                entry.previous_msgid = previous.msgid
                leftovers[u.context].remove(previous)
        entry = copy.copy(entry)
        entry.comment = u.kind + (f": {u.note}" if u.note else "")
        entry.occurrences = [(source.name, u.context)] if " " not in source.name else []
        po.append(entry)
    target.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(target))
    return status(source, lang)


def _closest(text: str, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    if not candidates:
        return None
    import difflib

    return max(candidates, key=lambda e: difflib.SequenceMatcher(None, e.msgid, text).ratio())


# ----------------------------------------------------------------------------------------------- generation
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


def translate_notebook(nb: dict, translation: Translation, lang: str) -> dict:
    """The edition of an English notebook in ``lang``: same cells, ids, tags and metadata; translated text;
    no outputs (the edition is executed afterwards)."""
    out = copy.deepcopy(nb)
    for cell in out["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            new = translation(cell["id"], source) if source.strip() else None
            cell["source"] = _lines(new if new is not None else source)
        elif cell["cell_type"] == "code":
            cell["source"] = _lines(translate_code(source, lambda text, c=cell["id"]: translation(c, text), lang))
            cell["outputs"], cell["execution_count"] = [], None
            cell["metadata"].pop("execution", None)
    out["metadata"].pop("widgets", None)
    return out


def translate_page(text: str, translation: Translation) -> str:
    out = []
    for context, _, body in page_sections(text):
        new = translation(context, body)
        out.append(new if new is not None else body)
    return "".join(out)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def same_sources(a: dict, b: dict) -> bool:
    """Two notebooks have the same cells (type, id, source, tags), whatever their outputs."""

    def shape(nb):
        return [
            (c["cell_type"], c.get("id"), "".join(c["source"]), sorted(c.get("metadata", {}).get("tags", [])))
            for c in nb["cells"]
        ]

    return shape(a) == shape(b)


# ----------------------------------------------------------------------------------------------- pseudo edition
def pseudo_text(text: str) -> str:
    from attention_core.lang import pseudo

    return pseudo(text)


ROLE = re.compile(r"\{(\w+)\}`([^`]*)`")
LINK = re.compile(r"(\[[^\]]*\])(\([^)]*\))")
MATH = re.compile(r"\$\$?[^$]+\$\$?")
CODE = re.compile(r"`[^`]*`")


def pseudo_inline(text: str) -> str:
    """A line of markdown in the pseudo-language: text replaced, syntax, math, code, link targets and cross-reference
    targets kept (a ``{ref}``'s own text and a ``{term}``'s term are text too)."""
    parts, last = [], 0
    pattern = re.compile(f"{ROLE.pattern}|{LINK.pattern}|{MATH.pattern}|{CODE.pattern}")
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


def pseudo_markdown(text: str) -> str:
    """A markdown cell or page section in the pseudo-language (see :func:`pseudo_inline`): code blocks, display
    math, labels and directive options are kept as they are; a directive's argument and body are text. The lines
    of a paragraph are translated together, so inline math or code that wraps a line stays whole."""
    out, code, math, directives, paragraph = [], None, False, [], []
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\n")
        end = line[len(bare) :]
        fence = re.match(r"^(\s*)(`{3,}|~{3,}|:{3,})(\{[\w-]+\})?(.*)$", bare)
        display = bare.strip() == "$$" or (bare.strip().startswith("$$") and not bare.strip().endswith("$$"))
        kept = re.match(r"^\(\S+\)=\s*$", bare) or re.match(r"^\s*:[\w-]+:", bare) or bare.startswith("    ")
        if code is None and not math and not fence and not display and not kept and bare.strip():
            paragraph.append(line)
            continue
        if paragraph:
            out.append(pseudo_inline("".join(paragraph)))
            paragraph = []
        if code is not None:
            out.append(line)
            if bare.strip() == code:
                code = None
        elif math:
            out.append(line)
            math = not bare.strip().startswith("$$")
        elif fence and directives and bare.strip() == directives[-1]:
            directives.pop()  # the end of a directive
            out.append(line)
        elif fence and fence.group(3):
            directives.append(fence.group(2))
            out.append(fence.group(1) + fence.group(2) + fence.group(3) + pseudo_inline(fence.group(4)) + end)
        elif fence:
            code = fence.group(2)  # a code block
            out.append(line)
        elif display:
            math = True
            out.append(line)
        else:
            out.append(line)  # a label, a directive option, an indented code block, a blank line
    if paragraph:
        out.append(pseudo_inline("".join(paragraph)))
    return "".join(out)


def pseudo_translation(source: Source) -> Translation:
    """Every unit of ``source`` in the pseudo-language: nothing a reader sees is left in English, so any English
    the pseudo edition shows escaped the translation mechanism."""
    table = {}
    for unit in source.units():
        if unit.kind in ("markdown", "section", "term"):
            text = pseudo_markdown(unit.msgid)
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
            (folder / "_config.yml").write_text(source.edition(PSEUDO, translation, folder), encoding="utf-8")
            (folder / "_toc.yml").write_text(source.toc(PSEUDO, translation), encoding="utf-8")
            continue
        target = folder / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        made = source.edition(PSEUDO, translation)
        if isinstance(made, dict):
            target.write_text(json.dumps(made, ensure_ascii=False, indent=1), encoding="utf-8")
            notebooks.append(target)
        else:
            target.write_text(made, encoding="utf-8")
    return notebooks


# ----------------------------------------------------------------------------------------------- command line
def _print_status(lang: str) -> int:
    problems = 0
    for source in sources():
        st = status(source, lang)
        for name in ("missing", "stale", "unused"):
            for context, msgid in getattr(st, name):
                first = msgid.strip().splitlines()[0] if msgid.strip() else msgid
                print(f"{lang}: {source.name}: {name}: [{context}] {first[:90]}")
        problems += st.count()
    print(f"{lang}: {problems} missing, stale or unused entr{'y' if problems == 1 else 'ies'}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "status", "generate"))
    parser.add_argument("--lang", action="append", help="only this language (default: every language in locale/)")
    args = parser.parse_args(argv)
    problems = 0
    for lang in args.lang or translations():
        if args.command == "update":
            for source in sources():
                update(source, lang)
        if args.command in ("update", "status"):
            problems += _print_status(lang)
            continue
        changed = []
        for source in sources():
            what = source.write(lang)
            if what != "unchanged":
                print(f"{lang}: {source.target(lang).relative_to(ROOT)}: {what} changed")
            if what == "code":
                changed.append(source.target(lang).relative_to(ROOT).as_posix())
        (ROOT / "_build").mkdir(exist_ok=True)
        (ROOT / "_build" / f"editions-{lang}-to-execute.txt").write_text("".join(f"{p}\n" for p in changed))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
