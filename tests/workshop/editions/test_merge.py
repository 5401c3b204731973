"""The English merged into the translation files the way GNU msgmerge does it (editions.catalog.merge, on Babel's
Catalog.update), tried on copies of a lesson and its translation file in a temporary folder."""

from __future__ import annotations

import json
import shutil

import polib
import pytest

from attention_workshop.editions import blocks, catalog, markdown, sources
from attention_workshop.editions.units import Unit
from attention_workshop.paths import translations
from tests.helpers import ROOT

LANG = translations()[0]
LESSON = ROOT / "notebooks" / "04_from_scores_to_weights.ipynb"


@pytest.fixture
def lesson(tmp_path):
    """A copy of lesson 04 and of its translation file, and a source that reads them."""
    english = tmp_path / "notebooks" / LESSON.name
    english.parent.mkdir()
    shutil.copy(LESSON, english)
    po = tmp_path / "lesson.po"
    shutil.copy(sources.NotebookSource(LESSON).po_path(LANG), po)
    kept = polib.pofile(str(po), wrapwidth=0)  # without the obsolete entries the repository's file keeps: the tests
    for entry in [e for e in kept if e.obsolete]:  # count the ones their own edits make
        kept.remove(entry)
    kept.save(str(po))
    source = sources.NotebookSource.__new__(sources.NotebookSource)
    source.path, source.name = english, "notebooks/" + LESSON.name
    source.po_path = lambda lang: po
    return source


def edit_markdown(source, change) -> tuple[str, str, str]:
    """Apply ``change(cell_text) -> new text`` to the first markdown cell it changes; return (cell id, old, new)."""
    nb = json.loads(source.path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        old = "".join(cell["source"])
        new = change(old) if cell["cell_type"] == "markdown" else old
        if new != old:
            cell["source"] = new.splitlines(keepends=True)
            source.path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            return cell["id"], old, new
    raise AssertionError("nothing changed")


def markdown_cells(nb: dict) -> dict[str, str]:
    return {c["id"]: "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"}


def test_one_changed_sentence_makes_one_entry_fuzzy_and_one_block_english(lesson):
    before = markdown_cells(lesson.edition(LANG))
    sentence = "Softmax makes the scores into reading weights:"
    cell, old, new = edit_markdown(
        lesson, lambda text: text.replace(sentence, "Softmax turns the scores into weights:")
    )
    assert catalog.status(lesson, LANG).count() == 2  # before the merge: the new English missing, the old unused

    status = catalog.update(lesson, LANG)
    assert status.stale == [(cell, "**Normalise.** Softmax turns the scores into weights:")]
    assert not status.missing and not status.unused and status.count() == 1
    entry = next(e for e in polib.pofile(str(lesson.po_path(LANG))) if e.msgid.endswith("into weights:"))
    assert entry.flags == ["fuzzy"] and entry.previous_msgid == "**Normalise.** " + sentence
    assert entry.msgstr  # the old translation, to confirm or correct

    after = markdown_cells(lesson.edition(LANG))
    assert {k for k in before if before[k] != after[k]} == {cell}  # one cell differs
    english = [
        b.text for b in blocks.blocks(after[cell]) if b.text not in {x.text for x in blocks.blocks(before[cell])}
    ]
    assert english == ["**Normalise.** Softmax turns the scores into weights:"]  # one block, in English
    assert len(blocks.blocks(after[cell])) == len(blocks.blocks(before[cell]))


def test_a_renamed_heading_keeps_its_translation_as_a_fuzzy_entry(lesson):
    old_heading = "Three steps: score, normalise, combine"
    cell, _, _ = edit_markdown(
        lesson, lambda text: text.replace(f"## {old_heading}", "## The three steps: score, normalise, combine")
    )
    translated = catalog.Translation(catalog.read_po(lesson.po_path(LANG)))(cell, old_heading)
    status = catalog.update(lesson, LANG)
    assert status.stale == [(cell, "The three steps: score, normalise, combine")] and status.count() == 1
    po = polib.pofile(str(lesson.po_path(LANG)))
    entry = po.find("The three steps: score, normalise, combine", msgctxt=cell)
    assert entry.msgstr == translated and entry.previous_msgid == old_heading and "fuzzy" in entry.flags
    assert not [e for e in po if e.obsolete]  # matched, so not obsolete as well


def test_removed_english_becomes_obsolete_and_comes_back_translated(lesson):
    paragraph = (
        "Every $\\alpha_{tj}$ is positive and they add up to one, as long as there is a position to read and no "
        "score is\ninfinite."
    )
    original = lesson.path.read_text(encoding="utf-8")
    cell, _, _ = edit_markdown(lesson, lambda text: text.replace(paragraph + "\n\n", ""))
    translated = catalog.Translation(catalog.read_po(lesson.po_path(LANG)))(cell, paragraph)
    assert translated
    status = catalog.update(lesson, LANG)
    assert status.count() == 0 and status.obsolete == 1
    text = lesson.po_path(LANG).read_text(encoding="utf-8")
    assert f'#~ msgctxt "{cell}"' in text and "#~ msgid" in text
    lesson.path.write_text(original, encoding="utf-8")  # the paragraph is back
    status = catalog.update(lesson, LANG)
    assert status.count() == 0 and status.obsolete == 0
    assert catalog.Translation(catalog.read_po(lesson.po_path(LANG)))(cell, paragraph) == translated


def test_the_merge_keeps_a_translators_comments_and_unwrapped_lines(lesson):
    path = lesson.po_path(LANG)
    po = polib.pofile(str(path), wrapwidth=0)
    po[0].tcomment = "checked against the glossary"
    po.save(str(path))
    catalog.update(lesson, LANG)
    assert polib.pofile(str(path))[0].tcomment == "checked against the glossary"
    assert catalog.update(lesson, LANG).count() == 0
    again = path.read_text(encoding="utf-8")
    catalog.update(lesson, LANG)
    assert path.read_text(encoding="utf-8") == again  # a merge with nothing new changes nothing
    longest = max(len(line) for line in again.splitlines())
    assert longest > 200  # entries are not wrapped: one entry's change stays in its lines


def test_line_breaks_at_the_ends_follow_the_msgid():
    """GNU msgfmt refuses an entry whose msgid ends with a line break and whose msgstr does not (lesson 07 had
    one): the merge writes the msgstr's ends like the msgid's, and status reports a hand-made one."""
    old = polib.POFile()
    old.append(polib.POEntry(msgctxt="c", msgid="Two lines\n", msgstr="两行"))
    old.append(polib.POEntry(msgctxt="c", msgid="One line", msgstr="一行\n"))
    units = [Unit("c", "Two lines\n", "string"), Unit("c", "One line", "string")]
    merged = catalog.merge(old, units, "x.ipynb", LANG)
    assert [(e.msgid, e.msgstr) for e in merged] == [("Two lines\n", "两行\n"), ("One line", "一行")]
    assert catalog.check_entry(units[0], "两行") is not None
    assert catalog.check_entry(units[0], "两行\n") is None


def test_the_header_is_complete_and_kept():
    merged = catalog.merge(polib.POFile(), [Unit("c", "Text", "paragraph")], "book/page.md", "zh")
    for field in (
        "Project-Id-Version", "PO-Revision-Date", "Last-Translator", "Language-Team", "Language", "MIME-Version",
        "Content-Type", "Content-Transfer-Encoding", "Plural-Forms",
    ):  # fmt: skip
        assert merged.metadata.get(field), field
    assert merged.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    merged.metadata["Last-Translator"] = "Someone <someone@example.org>"
    again = catalog.merge(merged, [Unit("c", "Text", "paragraph")], "book/page.md", "zh")
    assert again.metadata["Last-Translator"] == "Someone <someone@example.org>"


# ----------------------------------------------------------------------------------------------- equation references
def test_an_equation_reference_is_a_placeholder_of_its_entry_and_comes_back_from_the_english():
    text = (
        "By [(8)](04_x.ipynb#eq-softmax), `[(3)](#eq-one)` and $h_{12}$, then [(9)](#eq-context) and [(8)](#eq-softmax)"
    )
    msgid, references = markdown.with_placeholders(text)
    assert msgid == "By {0}, `[(3)](#eq-one)` and $h_{12}$, then {1} and {2}"  # code and math stay as they are
    assert references == ["[(8)](04_x.ipynb#eq-softmax)", "[(9)](#eq-context)", "[(8)](#eq-softmax)"]
    assert markdown.restored("Puis {1}, {2} et {0} ; $h_{12}$.", references) == (
        "Puis [(9)](#eq-context), [(8)](#eq-softmax) et [(8)](04_x.ipynb#eq-softmax) ; $h_{12}$."
    )
    assert markdown.placeholder_problem("{2} {0} {1}, $x_{7}$", msgid) is None
    for wrong, problem in {
        "{0} {1}": "equation placeholders {0}, {1}: the msgid has {0}, {1}, {2}, each once",
        "{0} {1} {2} {3}": "the msgid has {0}, {1}, {2}, each once",
        "{0} {0} {1} {2}": "equation placeholders {0}, {0}, {1}, {2}:",
        "{0} {1} [(9)](#eq-context)": "[(9)](#eq-context) written out",
    }.items():
        assert problem in markdown.placeholder_problem(wrong, msgid), wrong
    with pytest.raises(blocks.BlockError, match=r"'\{1\}' in the prose of"):
        markdown.with_placeholders("A set {1} beside [(8)](#eq-softmax).")


def test_an_entry_written_with_the_references_takes_the_placeholders_of_the_same_references():
    """The migration a merge applies to an entry written before the placeholders (catalog._migrate): each
    reference of the msgstr, in whatever order, becomes the placeholder of the same equation in the msgid."""
    msgid = "[(8)](#eq-softmax) and [(9)](#eq-context), then [(8)](#eq-softmax) again."
    assert markdown.migrated(msgid, "d'abord [(9)](#eq-context), puis [(8)](#eq-softmax) et [(8)](#eq-softmax)") == (
        "{0} and {1}, then {2} again.",
        "d'abord {1}, puis {0} et {2}",
    )
    assert markdown.migrated("{0} and {1}.", "{1} et {0}.") == ("{0} and {1}.", "{1} et {0}.")  # today's form
    unknown = "seulement [(7)](#eq-score)"  # not the msgid's: kept, and reported as invalid by status
    assert markdown.migrated(msgid, unknown) == ("{0} and {1}, then {2} again.", unknown)
    assert "written out" in markdown.placeholder_problem(unknown, "{0} and {1}, then {2} again.")


def test_no_entry_holds_an_equation_tag_or_reference():
    """A lesson writes ``\\tag{n}`` alone on the line before an equation's closing ``$$`` (the portable reader
    refuses anything else), and only a math line with words is an entry: no msgid holds a tag. Every reference is a
    placeholder. So no number the book computes is in a translation file."""
    from attention_workshop.portable import EQUATION_LINK

    for source in sources.sources():
        for unit in source.units():
            assert "\\tag" not in unit.msgid and not EQUATION_LINK.search(unit.msgid), (source.name, unit.context)


def test_a_translation_is_parsed_once_for_each_content_and_again_when_its_file_changes(tmp_path, monkeypatch):
    """catalog.load_translation keeps a parsed file by its bytes: the same bytes (in any copy) are parsed once, a
    file rewritten with other translations gives those, and a file that fails its check is refused every time."""
    po = polib.POFile(wrapwidth=0)
    catalog.complete_header(po, "lesson", "zh")
    po.append(polib.POEntry(msgctxt="c", msgid="Hello", msgstr="你好"))
    first, second = tmp_path / "a.po", tmp_path / "b.po"
    po.save(str(first))
    shutil.copy(first, second)
    parsed = []
    monkeypatch.setattr(catalog, "_PARSED", {})
    parse = catalog.parse_po
    monkeypatch.setattr(catalog, "parse_po", lambda path, data, *a: parsed.append(path) or parse(path, data, *a))
    assert catalog.load_translation(first)("c", "Hello") == "你好"
    assert catalog.load_translation(second)("c", "Hello") == "你好"
    assert parsed == [first]  # the copy's bytes were parsed already
    po[0].msgstr = "您好"
    po.save(str(second))
    assert catalog.load_translation(second)("c", "Hello") == "您好" and parsed == [first, second]
    second.write_text(second.read_text(encoding="utf-8") + 'msgid "broken\n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(catalog.TranslationFileError, match="b.po"):
            catalog.load_translation(second)
    with pytest.raises(TypeError):
        catalog.load_translation(first).table["c", "Hello"] = "changed"  # one object serves every caller
