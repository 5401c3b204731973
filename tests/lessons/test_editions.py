"""Every edition but the English one is generated (``editions``), and what is committed is what generates.

The English notebooks and pages are the one source; an edition is their copy with the text of its translation
files (``locale/<language>/LC_MESSAGES/*.po``). These tests regenerate each edition in memory and compare it with
the committed one, so an edition edited by hand, or one not regenerated after an English or a translation change,
fails here with the command that mends it (``make editions``).
"""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from attention_workshop.editions import blocks, catalog, cli, sources
from attention_workshop.editions import code as code_text
from attention_workshop.paths import translations
from tests.helpers import ROOT

LANGUAGES = translations()
SOURCES = sources.sources()
CASES = [(lang, source) for lang in LANGUAGES for source in SOURCES if source.generates]
MEND = "the committed edition is not what the English and its translation files generate: run `make editions`"


@pytest.mark.parametrize(("lang", "source"), CASES, ids=[f"{lang}:{s.name}" for lang, s in CASES])
def test_the_committed_edition_is_the_generated_one(lang, source):
    target = source.target(lang)
    assert target.exists(), f"{target.relative_to(ROOT)} is missing: {MEND}"
    if isinstance(source, sources.NotebookSource):
        committed = json.loads(target.read_text(encoding="utf-8"))
        assert sources.same_sources(committed, source.edition(lang)), f"{target.relative_to(ROOT)}: {MEND}"
    elif isinstance(source, sources.ConfigSource):
        assert target.read_text(encoding="utf-8") == source.edition(lang), MEND
        assert (ROOT / lang / "_toc.yml").read_text(encoding="utf-8") == source.toc(lang), MEND
    else:
        assert target.read_text(encoding="utf-8") == source.edition(lang), f"{target.relative_to(ROOT)}: {MEND}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_edition_holds_only_generated_files(lang):
    generated = {source.target(lang) for source in SOURCES if source.generates}
    generated.add(ROOT / lang / "_toc.yml")
    present = {p for p in (ROOT / lang).rglob("*") if p.is_file() and "_build" not in p.parts}
    assert present == generated, (
        f"hand-made files in {lang}/: {sorted(str(p.relative_to(ROOT)) for p in present - generated)}"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generated_code_differs_from_the_english_only_in_strings_comments_and_the_language(lang):
    """The code of an edition is the English code: only string literals, comments and the language code of
    ``set_language`` may differ (the generator never edits code)."""
    for source in SOURCES:
        if not isinstance(source, sources.NotebookSource):
            continue
        english = json.loads(source.path.read_text(encoding="utf-8"))
        for a, b in zip(english["cells"], source.edition(lang)["cells"], strict=True):
            assert (a["cell_type"], a["id"], a["metadata"].get("tags")) == (
                b["cell_type"],
                b["id"],
                b["metadata"].get("tags"),
            )
            if a["cell_type"] == "code":
                assert _code_shape("".join(a["source"])) == _code_shape("".join(b["source"])), (
                    f"{source.name} {a['id']}"
                )


def _code_shape(source: str) -> str:
    """The code of a cell with its text taken out: every string literal becomes one placeholder, and an f-string
    the multiset of its fields (a translation may move them), so comments, text and the order of fields do not
    count. Read from the syntax tree, not from tokens, so every Python version gives the same shape (from 3.12 the
    tokenizer splits an f-string into parts)."""
    import ast

    class Shape(ast.NodeTransformer):
        def visit_Constant(self, node):
            return ast.Constant("<str>") if isinstance(node.value, str) else node

        def visit_JoinedStr(self, node):
            fields = sorted(ast.dump(self.visit(v)) for v in node.values if isinstance(v, ast.FormattedValue))
            return ast.Constant("<f-string " + " | ".join(fields) + ">")

    return ast.dump(Shape().visit(ast.parse(source)))


def test_a_changed_english_sentence_is_reported_stale(tmp_path):
    """Change one English sentence, run the update command: the translation of that sentence is reported stale,
    by file and cell, and the other entries stay valid."""
    english = ROOT / "notebooks" / "04_from_scores_to_weights.ipynb"
    nb = json.loads(english.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "markdown" and "".join(c["source"]).strip())
    cell["source"] = ["".join(cell["source"]).replace(".", ", really.", 1)]
    changed = tmp_path / "notebooks" / english.name
    changed.parent.mkdir()
    changed.write_text(json.dumps(nb), encoding="utf-8")
    po = tmp_path / "copy.po"
    shutil.copy(sources.NotebookSource(english).po_path(LANGUAGES[0]), po)

    source = sources.NotebookSource.__new__(sources.NotebookSource)
    source.path, source.name = changed, "notebooks/" + english.name
    source.po_path = lambda lang: po
    entry = next((cell["id"], b.text) for b in blocks.blocks("".join(cell["source"])) if ", really." in b.text)
    before = catalog.status(source, LANGUAGES[0])
    assert entry in before.missing and before.unused  # not yet merged: the old English is unused
    after = catalog.update(source, LANGUAGES[0])
    assert entry in after.stale and entry not in after.missing and not after.unused


def test_the_generator_keeps_code_and_translates_only_text():
    code = (
        'print(f"{name:>8}: most weight on h_{j + 1}", sweep["mean"], pad("token", 9))  # a comment\n'
        'set_language("en")\n'
        'x = load("lesson07", kind="additive", alt="two bars "\n'
        '         "side by side")\n'
    )
    found = {lit.text: code_text.translatable(lit) for lit in code_text._code_literals(code)}
    assert found == {
        "{0}: most weight on h_{1}": True,  # an f-string: its fields become placeholders
        "mean": False,  # a subscript key is a name
        "token": True,  # a header passed to pad is text
        "a comment": True,
        "en": False,  # the language code: replaced, not translated
        "lesson07": False,  # a one-word argument is a name
        "additive": False,
        "two bars side by side": True,  # implicitly concatenated pieces: one entry
    }
    table = {
        "{0}: most weight on h_{1}": "{0}：权重最大的是 h_{1}",
        "token": "词元",
        "a comment": "注释",
        "two bars side by side": "并排的两个柱子",
    }
    out = code_text.translate_code(code, table.get, "zh")
    assert out == (
        'print(f"{name:>8}：权重最大的是 h_{j + 1}", sweep["mean"], pad("词元", 9))  # 注释\n'
        'set_language("zh")\n'
        'x = load("lesson07", kind="additive", alt="并排的两个柱子")\n'
    )
    assert (
        code_text.translate_code(code, lambda text: None, "en") == code
    )  # nothing translated: the code, byte for byte
    with pytest.raises(code_text.TranslationRefused, match="missing"):
        code_text.translate_code(code, {"{0}: most weight on h_{1}": "{0} only"}.get, "zh")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_is_text_and_every_generated_code_cell_parses(lang):
    """The guard of ``editions generate``, on the committed translations: no code string or comment translation
    is refused (``cli.refused_entries``) and Python reads every code cell of the generated edition."""
    for source in SOURCES:
        if isinstance(source, sources.NotebookSource):
            assert not cli.refused_entries(source, lang)
            assert not cli.unreadable_cells(source, lang, source.edition(lang))


def test_pages_cut_into_blocks_that_write_back_exactly():
    for path in sorted((ROOT / "book").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert blocks.replace(text, lambda b: b.text) == text, path.name
    glossary = sources.PageSource(ROOT / "book" / "glossary.md").units()
    assert any(u.kind == "term" and u.msgid == "context vector\n{lang}`zh: 上下文向量`" for u in glossary)


def test_the_edition_folder_is_named_for_its_translation_files():
    assert sorted(LANGUAGES) == sorted(p.name for p in (ROOT / "locale").iterdir() if p.is_dir())
    for lang in LANGUAGES:
        assert pathlib.Path(ROOT / lang / "_config.yml").exists()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_generated_code_is_the_committed_code_byte_for_byte(lang):
    """Every code cell the generator writes (``editions.code``, on LibCST's syntax tree) is, byte for byte, the code
    committed in the edition, which was written before by a generator that read and spliced the cells with
    Python's tokenizer: the same strings found, translated, escaped and wrapped the same way."""
    differ = []
    for source in SOURCES:
        if isinstance(source, sources.NotebookSource):
            committed = json.loads(source.target(lang).read_text(encoding="utf-8"))["cells"]
            made = source.edition(lang)["cells"]
            differ += [
                f"{source.name} [{a['id']}]"
                for a, b in zip(committed, made, strict=True)
                if a["cell_type"] == "code" and "".join(a["source"]) != "".join(b["source"])
            ]
    assert not differ, f"{lang}: generated code differs from the committed: {differ}"


def test_a_cell_python_cannot_read_is_one_line_naming_it():
    with pytest.raises(blocks.BlockError, match=r"line 1: not Python the generator can read"):
        code_text.literals('print("unclosed)\n')
