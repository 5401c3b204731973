"""Each lesson's exercises: at least two self-checks, and the lesson never runs one on the right answer.

A self-check cell in a lesson demonstrates the feedback with a deliberately wrong starting answer, so its
printed verdict is a ✗; a ✓ printed in a lesson would mean the lesson ran the check on the solution.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import ROOT

LESSONS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
CHECK_CALL = re.compile(r"\b(check_\w+)\(")


def _exercise_code_cells(nb: dict) -> list[dict]:
    cells = nb["cells"]
    start = next(
        (i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and "## Exercises" in "".join(c["source"])),
        None,
    )
    assert start is not None, "the lesson has no '## Exercises' section"
    return [c for c in cells[start:] if c["cell_type"] == "code"]


def _output_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            parts.append("".join(out["text"]))
        else:
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_at_least_two_self_checked_exercises(path):
    cells = _exercise_code_cells(json.loads(path.read_text(encoding="utf-8")))
    called = {name for c in cells for name in CHECK_CALL.findall("".join(c["source"]))}
    assert len(called) >= 2, f"{path.name} exercises call {sorted(called)}; at least two self-checks expected"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_self_checks_are_demonstrated_with_wrong_answers(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or not CHECK_CALL.search("".join(cell["source"])):
            continue
        if "import" in "".join(cell["source"]) and not cell.get("outputs"):
            continue  # an import cell that names a check
        text = _output_text(cell)
        assert "✓" not in text, f"{path.name} runs a self-check on a right answer:\n{''.join(cell['source'])}"
        assert "✗" in text, f"{path.name} has a self-check cell without feedback:\n{''.join(cell['source'])}"
