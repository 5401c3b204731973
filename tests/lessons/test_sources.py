"""The sources are named and the references are cited exactly where book/references.md says.

A lesson cites reference n as ``entry [n]`` or as a link ``[[n]](../book/references.md#references)`` in its
markdown cells. Each
entry of the references page ends with a *Cited in* line listing the pages that cite it; the two must agree in
both directions, and every citation must resolve to an entry.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import ROOT

NOTEBOOKS = ROOT / "notebooks"
REFERENCES = ROOT / "book" / "references.md"
INTRO = ROOT / "book" / "intro.md"

CITATION = re.compile(r"\[\[(\d+)\]\]\(\.\./book/references\.md#references\)|\bentry \[(\d+)\]")
ENTRY = re.compile(r"(?m)^\[(\d+)\] \*\*")
CITED_IN = re.compile(r"\*Cited in:\*([^\n]*(?:\n[^\n]+)*)")
DOC = re.compile(r"\]\(\.\./notebooks/([\w-]+)\.ipynb\)")  # a link to a lesson: [01 · ...](../notebooks/01_....ipynb)

# Citations the references page promises on a page that does not make them yet (for a page whose owner is still
# writing it); the owner removes a pair when the citation lands. Empty now: lesson 07 cites [7] and [8].
PENDING: set[tuple[str, int]] = set()

SECTIONS = {
    "01_reading_on_demand": "一",
    "02_context_without_attention": "二",
    "03_from_summary_to_rereading": "三",
    "04_from_scores_to_weights": "四",
    "05_additive_score": "五",
    "06_same_content_different_state": "六",
    "07_learning_without_labels": "七",
    "08_toward_the_next_structure": "八",
}
# Openings still being written by their owner (none now).
PENDING_OPENINGS: set[str] = set()


def markdown(stem: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def entries() -> dict[int, set[str]]:
    """Reference number -> the notebook stems its *Cited in* line names."""
    text = REFERENCES.read_text(encoding="utf-8")
    starts = [(int(m.group(1)), m.start()) for m in ENTRY.finditer(text)]
    out = {}
    for k, (n, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else len(text)
        block = text[start:end]
        found = CITED_IN.search(block)
        assert found, f"reference [{n}] has no '*Cited in:*' line"
        out[n] = set(DOC.findall(found.group(1)))
    return out


def citations() -> dict[str, set[int]]:
    """Notebook stem -> the reference numbers its markdown cites."""
    out = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        found = CITATION.findall(markdown(path.stem))
        out[path.stem] = {int(a or b) for a, b in found}
    return out


def test_entries_are_numbered_one_to_n():
    numbers = sorted(entries())
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 9


def test_every_cited_in_page_exists():
    for n, stems in entries().items():
        assert stems, f"reference [{n}] is cited nowhere"
        for stem in stems:
            assert (NOTEBOOKS / f"{stem}.ipynb").exists(), f"reference [{n}] names a missing page {stem}"


def test_every_citation_resolves_to_an_entry():
    known = set(entries())
    for stem, cited in citations().items():
        assert cited <= known, f"{stem} cites {sorted(cited - known)}, which the references page does not list"


@pytest.mark.parametrize("n", sorted(entries()))
def test_reference_is_cited_exactly_where_the_page_says(n):
    listed = entries()[n]
    actually = {stem for stem, cited in citations().items() if n in cited}
    missing = {stem for stem in listed - actually if (stem, n) not in PENDING}
    assert not missing, f"references.md says [{n}] is cited in {sorted(missing)}, but it is not"
    extra = actually - listed
    assert not extra, f"[{n}] is cited in {sorted(extra)}, which its *Cited in* line does not name"


def test_pending_citations_are_still_pending():
    # When lesson 07 gains the citation, this fails as a reminder to drop the pair from PENDING.
    cited = citations()
    for stem, n in PENDING:
        assert n not in cited[stem], f"{stem} now cites [{n}]: remove ({stem!r}, {n}) from PENDING"


def test_sources_are_named():
    for page in (INTRO, REFERENCES):
        text = page.read_text(encoding="utf-8")
        assert "Attention：模型怎样决定该看哪里？" in text, page.name
        assert "Attention: how does a model decide where to" in re.sub(r"\s+", " ", text), page.name
        assert "First Principles of LLMs & RL" in text, page.name
    refs = REFERENCES.read_text(encoding="utf-8")
    assert "article 05" in refs and "book excerpt" in refs.lower()


def test_intro_maps_every_section_to_its_lesson():
    rows = [line for line in INTRO.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    for stem, numeral in SECTIONS.items():
        assert any(row.startswith(f"| {numeral} ") and stem in row for row in rows), (numeral, stem)


@pytest.mark.parametrize("stem", sorted(SECTIONS))
def test_lesson_opening_names_its_section(stem):
    if stem in PENDING_OPENINGS:
        pytest.skip("lesson 07's opening is edited by its owner")
    nb = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))
    opening = "".join(nb["cells"][0]["source"])
    assert re.search(f"section {SECTIONS[stem]} of the (source )?article", opening), opening[-300:]


def test_appendix_opening_says_what_it_covers():
    nb = json.loads((NOTEBOOKS / "appendix_recompute_everything.ipynb").read_text(encoding="utf-8"))
    opening = "".join(nb["cells"][0]["source"])
    assert "](../book/references.md#sources)" in opening and "every number in the book" not in opening.lower()
