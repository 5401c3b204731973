"""The Chinese edition (zh/) and the English one never drift apart.

Each English page has a Chinese counterpart at the same path under zh/. For a lesson pair this test requires:
the same cells in the same order (type and tags); code cells equal once string literals and comments are set
aside (the Chinese notebook may differ only in what it says, plus its one `set_language("zh")` line); the same
equation labels, section labels and cross-references in the markdown; and, in the stored outputs, the same
figures and the same numbers printed by every cell. For the narrative pages (book/*.md) the labels and
cross-references must match. An English change without its Chinese counterpart fails here.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import string
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
ZH = ROOT / "zh"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PAGES = sorted((ROOT / "book").glob("*.md"))

LABEL = re.compile(r"^\(([\w-]+)\)=\s*$", re.M)  # (section-label)=
EQ_LABEL = re.compile(r"^\$\$\s*\(([\w-]+)\)\s*$", re.M)  # $$ (eq-label)
XREF = re.compile(r"\{(doc|ref|eq|numref)\}`(?:[^`<]*<)?([^`>]+)>?`")  # {doc}`x`, {ref}`text <x>`
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")

# The one declared difference: lesson 01 reads the article's own Chinese example sentence in the Chinese edition
# (Felix昨天把蓝色笔记本留在会议室), so it uses the Chinese toy sentences; cells that read them print other numbers.
SUBSTITUTIONS = {"01_reading_on_demand.ipynb": {"FELIX_ZH": "FELIX", "FELIX_NEGATED_ZH": "FELIX_NEGATED"}}


def code_shape(source: str, substitutions: dict[str, str] | None = None) -> list[str]:
    """The tokens of a code cell with every string literal and comment replaced by a placeholder.

    ``substitutions`` maps a Chinese-edition identifier to the English one it stands for."""
    substitutions = substitutions or {}
    lines = []
    for line in source.splitlines():  # the Chinese edition's language line and its import are not compared
        if "set_language(" in line:
            continue
        line = re.sub(r",\s*set_language\b|\bset_language\s*,\s*", "", line)  # merged into another import
        if not re.fullmatch(r"\s*from [\w.]+ import set_language\s*(#.*)?", line):
            lines.append(line)
    shape = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):  # cell magics and the like: compare the text
        return lines
    for tok in tokens:
        if tok.type == tokenize.COMMENT or tok.type in (tokenize.NL, tokenize.NEWLINE):
            continue
        if tok.type == tokenize.STRING or tok.type in _FSTRING_TYPES:
            if not shape or shape[-1] != "<str>":
                shape.append("<str>")
            if tok.type == tokenize.STRING:
                shape.extend(_fstring_fields(tok.string, substitutions))
            continue
        shape.append(substitutions.get(tok.string, tok.string) if tok.type == tokenize.NAME else tok.string)
    return shape


def _fstring_fields(literal: str, substitutions: dict[str, str]) -> list:
    """The replacement fields ``{expr!conv:spec}`` of an f-string literal, each expression compared as code.

    The literal text around the fields may differ between editions; the expressions (string literals inside them
    aside), conversions and format specs may not."""
    prefix = literal[: len(literal) - len(literal.lstrip("rRbBuUfF"))]
    if "f" not in prefix.lower():
        return []
    body = literal[len(prefix) :].strip("'\"")
    try:
        parsed = list(string.Formatter().parse(body))
    except ValueError:
        return [body]
    return [(code_shape(name, substitutions), conv, spec) for _, name, spec, conv in parsed if name is not None]


_FSTRING_TYPES = {
    getattr(tokenize, name) for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(tokenize, name)
}


def markdown_refs(text: str) -> dict[str, list]:
    return {
        "labels": sorted(LABEL.findall(text)),
        "equations": sorted(EQ_LABEL.findall(text)),
        "xrefs": sorted(XREF.findall(text)),
        "display math": text.count("$$"),
    }


def printed_numbers(cell: dict) -> list[str]:
    text = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            text.append("".join(out["text"]))
        elif "data" in out and not _is_figure(out):
            text.append("".join(out["data"].get("text/plain", "")))
    return NUMBER.findall("\n".join(text))


def _is_figure(out: dict) -> bool:
    data = out.get("data", {})
    return "<figure" in "".join(data.get("text/html", "")) or "".join(data.get("text/plain", "")).startswith("Figure")


def figures(cell: dict) -> int:
    return sum(_is_figure(out) for out in cell.get("outputs", []) if "data" in out)


def _pair(path: pathlib.Path) -> tuple[dict, dict]:
    zh = ZH / path.relative_to(ROOT)
    assert zh.exists(), f"{path.relative_to(ROOT)} has no Chinese counterpart at {zh.relative_to(ROOT)}"
    return json.loads(path.read_text(encoding="utf-8")), json.loads(zh.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_pairs_have_the_same_cells_code_and_labels(path):
    en, zh = _pair(path)
    assert len(en["cells"]) == len(zh["cells"]), "different numbers of cells"
    for k, (a, b) in enumerate(zip(en["cells"], zh["cells"], strict=True)):
        where = f"{path.name} cell {k}"
        assert a["cell_type"] == b["cell_type"], where
        assert sorted(a.get("metadata", {}).get("tags", [])) == sorted(b.get("metadata", {}).get("tags", [])), where
        if a["cell_type"] == "code":
            subs = SUBSTITUTIONS.get(path.name, {})
            assert code_shape("".join(a["source"])) == code_shape("".join(b["source"]), subs), f"{where}: code differs"
        else:
            assert markdown_refs("".join(a["source"])) == markdown_refs("".join(b["source"])), where
    first = next(c for c in zh["cells"] if c["cell_type"] == "code")
    assert 'set_language("zh")' in "".join(first["source"]), "the Chinese notebook must speak Chinese first"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_pairs_print_the_same_numbers_and_figures(path):
    en, zh = _pair(path)
    for k, (a, b) in enumerate(zip(en["cells"], zh["cells"], strict=True)):
        if a["cell_type"] != "code" or "nbval-ignore-output" in a.get("metadata", {}).get("tags", []):
            continue
        assert figures(a) == figures(b), f"{path.name} cell {k}: figures differ"
        if any(name in "".join(b["source"]) for name in SUBSTITUTIONS.get(path.name, {})):
            continue  # the declared Chinese example sentence: other tokens, other weights
        assert printed_numbers(a) == printed_numbers(b), f"{path.name} cell {k}: printed numbers differ"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_page_pairs_have_the_same_labels_and_references(path):
    zh = ZH / path.relative_to(ROOT)
    assert zh.exists(), f"{path.relative_to(ROOT)} has no Chinese counterpart"
    assert markdown_refs(path.read_text(encoding="utf-8")) == markdown_refs(zh.read_text(encoding="utf-8"))


def test_the_chinese_edition_has_nothing_the_english_lacks():
    english = {p.relative_to(ROOT) for p in NOTEBOOKS + PAGES}
    chinese = {p.relative_to(ZH) for p in [*ZH.glob("notebooks/*.ipynb"), *ZH.glob("book/*.md")]}
    assert chinese == english
