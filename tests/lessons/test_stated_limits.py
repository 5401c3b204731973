"""What the book says about things it cannot or does not measure (issue 44's four slips and its meta descriptions).

- **Timings.** A measured time belongs to the machine that executed the page: the lessons draw the timing figures
  of lessons 03 and 04 and state no ratio for them. No sentence of those lessons (prose, alt text or caption) and
  no glossary entry that speaks of measured time or timing may call it proportional or linear in ``T``; the exact
  operation counts may, and the growth the prose states for them ("just under four" for each fourfold ``T``) is
  checked against ``additive_step_multiply_adds``.
- **Untested mechanisms.** Lesson 07 reports that misread determiners and misread verbs are still translated right,
  and offers a reason only as untested (cells 11f88034, a2823aae, vf000007); none of them may call it "a plain
  explanation" or say that the other annotation is what delivers the word.
- **The build's npm tools.** The intro names every tool ``scripts/fetch_assets.sh`` fetches for the build.
- **The made-up language.** Lessons 02 and 07 and the laboratory's compose tab say that the target language is made
  up, and no target word is "chatte" (its second sense in French is vulgar).
- **Meta descriptions.** A page's description is its first sentences (``attention_workshop.ae_seo.description``):
  no lesson's first sentence links to another lesson, so that each describes its own lesson.
"""

from __future__ import annotations

import json
import re

from attention_core.costs import TIMED_LENGTHS, additive_step_multiply_adds
from tests.helpers import ROOT

LESSONS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
TIME_WORDS = re.compile(r"\b(time|times|timing|timings|timed|measured|seconds|microseconds)\b", re.I)
PROPORTION = re.compile(r"proportion|linear", re.I)
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def cells(name: str) -> list[dict]:
    return json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]


def text_of(cell: dict) -> str:
    return "".join(cell["source"])


def timing_claims(text: str) -> list[str]:
    """The sentences of ``text`` that speak of measured time and call it proportional or linear."""
    text = " ".join(text.split())
    return [s for s in SENTENCE.split(text) if TIME_WORDS.search(s) and PROPORTION.search(s)]


def test_no_sentence_calls_a_measured_time_proportional():
    found = []
    for name in ("03_from_summary_to_rereading.ipynb", "04_from_scores_to_weights.ipynb"):
        for cell in cells(name):
            source = text_of(cell)
            if cell["cell_type"] == "code" and "time_" not in source:
                continue  # only the timing cells' alt texts and captions
            found += [f"{name} [{cell.get('id')}]: {s}" for s in timing_claims(source)]
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    found += [f"glossary: {s}" for s in timing_claims(glossary)]
    assert not found, "\n".join(found)


def test_the_timing_check_catches_the_old_wording():
    old = 'alt="Measured time of one scoring call against T; it rises with T, roughly in proportion."'
    assert timing_claims(old)
    assert not timing_claims("The first count is proportional to T. Measured time rises at every point.")


def test_the_counts_grow_as_lesson_04_says():
    # 04 [62c72f02]: "2144 multiply-adds per source position plus 1024, so each fourfold T multiplies them by just
    # under four"
    counts = [additive_step_multiply_adds(T, 32, 64, 32, cache_keys=False) for T in TIMED_LENGTHS]
    assert all(c == 2144 * T + 1024 for c, T in zip(counts, TIMED_LENGTHS, strict=True))
    assert all(3.9 < b / a < 4 for a, b in zip(counts, counts[1:], strict=False))
    prose = next(text_of(c) for c in cells("04_from_scores_to_weights.ipynb") if c.get("id") == "62c72f02")
    assert "2144 multiply-adds per source position plus 1024" in prose and "just under four" in prose


def test_lesson_07_calls_the_misread_mechanisms_untested():
    by_id = {c.get("id"): text_of(c) for c in cells("07_learning_without_labels.ipynb")}
    for cid in ("11f88034", "a2823aae", "vf000007"):
        assert "plain explanation" not in by_id[cid]
        assert re.search(r"untested|nothing here tests|not tested", " ".join(by_id[cid].split())), cid
    assert "why the other annotation serves as well" not in by_id["vf000007"]
    assert "0.26 of their weight on the verb itself" in by_id["vf000007"]


def test_the_intro_names_every_build_tool_npm_fetches():
    script = (ROOT / "scripts" / "fetch_assets.sh").read_text(encoding="utf-8")
    build = script.split('if [ "${1:-}" = lighthouse ]')[1].split("\nfi\n", 1)[1]  # after the Lighthouse branch
    tools = re.findall(r"^[A-Z]+=([a-z@./-]+?)@[\d.]+", build, re.M)
    assert sorted(tools) == ["esbuild", "mathjax", "wabt"], tools
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8").split("## Run it yourself")[1]
    missing = [tool for tool in tools if tool.lower() not in intro.lower()]
    assert not missing, f"the intro's 'Run it yourself' does not name {missing}"


def test_the_target_language_is_said_to_be_made_up():
    from attention_core.explorers.site import LABELS
    from attention_core.models import data

    for name, cid in (("02_context_without_attention.ipynb", "e2c0a001"), ("07_learning_without_labels.ipynb",
                                                                            "3bdb62fa")):  # fmt: skip
        assert "made up" in next(text_of(c) for c in cells(name) if c.get("id") == cid), name
    assert "made up" in LABELS.entries["lab_compose_intro"]
    assert "chatte" not in data.TGT_WORDS and data.TGT_WORDS[data.TGT_WORDS.index("chat")] == "chat"


def test_no_lesson_opens_by_leaning_on_another():
    leaning = []
    for path in LESSONS:
        first = next(c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
        body = [p for p in re.split(r"\n\s*\n", text_of(first)) if p.strip() and not p.lstrip().startswith(("<", "#"))]
        sentence = SENTENCE.split(" ".join(body[0].split()))[0]
        if re.search(r"\]\(0\d_\w+\.ipynb", sentence):
            leaning.append(f"{path.name}: {sentence}")
    assert not leaning, "\n".join(leaning)
