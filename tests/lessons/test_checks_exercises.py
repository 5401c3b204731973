"""Each lesson's exercises, in every edition: at least two self-checks, and nothing stored gives an answer away.

A self-check cell (a code cell of the "Exercises" section that calls ``check_...``) is tagged ``exercise-check`` and
``nbval-ignore-output`` and stored without outputs (``attention_workshop.execute`` clears it): the reader runs it,
and its first verdict is a hint, not the edit to make (issue 45 found the stored "Not yet" of three starting
answers naming the change). Every other stored output of the section, and every output before it, is scanned for a
verdict (the checks' own words, in every language) and for the answers' values, except cells folded as solutions
(``hide-cell``, which the reader opens only after trying). Every code cell after a check that prints an answer is
such a folded cell.
"""

from __future__ import annotations

import json
import re

import pytest

from attention_core.checks import base
from attention_core.lang import language
from attention_workshop.execute import EXERCISE_CHECK
from attention_workshop.paths import translations
from tests.helpers import ROOT

# every edition's lessons 01-08: the English, then each generated edition's
LESSONS = [
    *sorted((ROOT / "notebooks").glob("0*.ipynb")),
    *(path for code in translations() for path in sorted((ROOT / code / "notebooks").glob("0*.ipynb"))),
]
CHECK_CALL = re.compile(r"\b(check_\w+)\(")
HTML_TAG = re.compile(r"<[^>]+>")
FOLDED = {"hide-cell", "hide-output"}

# Each exercise whose answer a printed output could show, by lesson: what that output would print (the forms the
# lessons print numbers and lists in). Checked in every output before the end of the exercise section that is not
# a folded solution.
ANSWERS = {
    "01": [r"\b0\.355\b"],  # exercise 3: the tie's weight, when the negation entry is 3
    "02": [r"\[12\]"],  # exercise 2: only h_12 moves
    "03": [r"\[1, 2, 3, 4, 5, 6\]", r"\b640\b(?!\s+64)"],  # exercise 2's forward list; exercise 1's count (not
    # the table's T = 10 row, "640       64", a summary of 32 numbers per direction)
    "04": [r"1\.25\b[^\n]*-0\.75\b"],  # exercise 2: the context (1.25, -0.75)
    "06": [r"\b0\.524\d*", r"\b0\.525\b", r"\b1\.367\d*", r"\b0\.177\d*", r"\b0\.411\d*", r"-1\.45[56]\b", r"-1\.46\b"],
    "07": [r"\b0\.415[12]\d*"],  # exercise 2: the amount
    "08": [r"\[4, 5, 6, 7\]"],  # exercise 5: the window
}


def _section(nb: dict) -> int:
    """The index of the cell that opens the lesson's "Exercises" section (in every edition: the English heading's
    id, ``## Exercises`` in the English)."""
    cells = nb["cells"]
    english = json.loads((ROOT / "notebooks" / _name(nb)).read_text(encoding="utf-8"))["cells"]
    ids = [c.get("id") for c in english if c["cell_type"] == "markdown" and "## Exercises" in "".join(c["source"])]
    assert ids, "the lesson has no '## Exercises' section"
    return next(i for i, c in enumerate(cells) if c.get("id") == ids[0])


def _name(nb: dict) -> str:
    return nb["_path"].name


def _load(path) -> dict:
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["_path"] = path
    return nb


def _output_text(cell: dict) -> str:
    """What a cell's stored outputs show: streams, plain text, and the text of HTML (tags and their attributes, such
    as a figure's width, left out)."""
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            parts.append("".join(out["text"]))
        else:
            data = out.get("data", {})
            parts += ["".join(data.get("text/plain", "")), HTML_TAG.sub(" ", "".join(data.get("text/html", "")))]
    return "\n".join(parts)


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _verdict_words() -> list[str]:
    """What only a stored verdict shows: its marks and the words 'Correct:' and 'Not yet:' in every language."""
    words = ["✓ ", "✗ "]
    for code in ("en", "zh", "fr"):
        with language(code):
            words += [base.TEXT("correct"), base.TEXT("not_yet")]
    return words


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_at_least_two_self_checked_exercises(path):
    nb = _load(path)
    cells = nb["cells"][_section(nb) :]
    called = {name for c in cells if c["cell_type"] == "code" for name in CHECK_CALL.findall("".join(c["source"]))}
    assert len(called) >= 2, f"{path.name} exercises call {sorted(called)}; at least two self-checks expected"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_check_cell_is_stored_unrun_and_tagged(path):
    nb = _load(path)
    cells = nb["cells"][_section(nb) :]
    checks = [c for c in cells if c["cell_type"] == "code" and CHECK_CALL.search("".join(c["source"]))]
    assert checks, f"{path.name}: no self-check cell in the exercises"
    for cell in checks:
        where = f"{path.name} cell {cell.get('id')}"
        assert {EXERCISE_CHECK, "nbval-ignore-output"} <= _tags(cell), f"{where}: tags {sorted(_tags(cell))}"
        assert not cell["outputs"] and cell["execution_count"] is None, f"{where} stores a verdict"
        assert "execution" not in cell["metadata"], f"{where} stores when it ran"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_stored_output_shows_a_verdict_or_an_answer(path):
    nb = _load(path)
    start = _section(nb)
    words = _verdict_words()
    answers = [re.compile(pattern) for pattern in ANSWERS.get(path.name[:2], [])]
    shown = []
    for number, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or FOLDED & _tags(cell):
            continue
        text = _output_text(cell)
        if number >= start:
            shown += [f"cell {cell.get('id')}: a verdict ({w.strip()!r})" for w in words if w in text]
        shown += [f"cell {cell.get('id')}: {m.group()!r}" for pattern in answers for m in pattern.finditer(text)]
    assert not shown, f"{path.relative_to(ROOT)} shows, unfolded:\n" + "\n".join(shown)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_solution_cell_is_folded(path):
    """A code cell of the exercises that is not a check and prints something is a solution: folded like one."""
    nb = _load(path)
    for cell in nb["cells"][_section(nb) :]:
        if cell["cell_type"] != "code" or EXERCISE_CHECK in _tags(cell) or not cell.get("outputs"):
            continue
        hidden = cell["metadata"].get("jupyter", {})
        assert "hide-cell" in _tags(cell) and hidden.get("source_hidden") and hidden.get("outputs_hidden"), (
            f"{path.name} cell {cell.get('id')} prints a solution unfolded"
        )


def test_the_scan_finds_what_issue_45_found():
    """The scan itself, on the stored outputs issue 45 saw (ad168d8): a "Not yet" naming the edit, and lesson 06's
    solution printed unfolded. Each is found."""
    verdict = {
        "cell_type": "code",
        "metadata": {},
        "outputs": [{"output_type": "stream", "text": ["✗ forward states"]}],
    }
    assert any(w in _output_text(verdict) for w in _verdict_words())
    printed = (
        "s = 0.5: scores 0.5245 1.3673 1.3673  weights 0.1771 0.4114 0.4114\n    I: largest weight 0.5851 at s = -1.456"
    )
    assert all(re.search(p, printed) for p in (ANSWERS["06"][0], ANSWERS["06"][2], ANSWERS["06"][5]))
    assert not re.search(ANSWERS["03"][1], "  10             64          640       64       1984")
