"""A lesson reads prose -> equation -> result: the plotting plumbing is folded.

Every code cell whose last statement is a ``show_figure(...)`` call only draws and captions a figure, so it is
tagged ``hide-input`` (Jupyter Book folds its code and keeps the figure), in both editions, unless ALLOW lists it
with the reason it stays open. A cell that teaches an API call and then plots its result is split instead: the
call in a visible cell, the drawing in a folded one.
"""

from __future__ import annotations

import ast
import json
import pathlib

import pytest

from tests.helpers import ROOT

LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "zh" / "notebooks").glob("*.ipynb"))

# (lesson file name, a line of the cell) -> why the figure's code stays visible. Empty today: every figure cell
# is plumbing. A new entry needs a reason a reader can check.
ALLOW: dict[tuple[str, str], str] = {}


def cells(path: pathlib.Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def ends_with_show_figure(code: str) -> bool:
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return False
    last = body[-1] if body else None
    return (
        isinstance(last, ast.Expr)
        and isinstance(last.value, ast.Call)
        and isinstance(last.value.func, ast.Name)
        and last.value.func.id == "show_figure"
    )


def allowed(path: pathlib.Path, code: str) -> bool:
    return any(name == path.name and line in code for name, line in ALLOW)


def label(path: pathlib.Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", LESSONS, ids=label)
def test_figure_cells_fold_their_code(path):
    unfolded = [
        k
        for k, cell in enumerate(cells(path))
        if cell["cell_type"] == "code"
        and ends_with_show_figure(source(cell))
        and "hide-input" not in tags(cell)
        and not allowed(path, source(cell))
    ]
    assert not unfolded, f"{label(path)}: cells {unfolded} only draw a figure; tag them hide-input"


def test_every_allowance_names_a_figure_cell_and_a_reason():
    for (name, line), reason in ALLOW.items():
        assert reason.strip(), (name, line)
        found = [
            c
            for p in LESSONS
            if p.name == name
            for c in cells(p)
            if c["cell_type"] == "code" and line in source(c) and ends_with_show_figure(source(c))
        ]
        assert found, f"ALLOW entry {(name, line)} matches no figure cell: remove it"


def test_the_lessons_fold_figures_at_all():
    """The rule above is not vacuous: each edition folds the same figure cells, and there are many."""
    folded = {label(p): [k for k, c in enumerate(cells(p)) if "hide-input" in tags(c)] for p in LESSONS}
    english = {k: v for k, v in folded.items() if not k.startswith("zh")}
    assert sum(map(len, english.values())) >= 15
    for name, found in english.items():
        assert folded["zh/" + name] == found, name


STORED = sorted((ROOT / "notebooks").glob("*.ipynb")) + [ROOT / "book" / "argument.ipynb"]


@pytest.mark.parametrize("path", STORED, ids=label)
def test_no_stored_output_is_a_warning(path):
    """A reader never sees a library's warning under a cell: lesson 09's figure once stored matplotlib's
    "constrained_layout not applied because axes sizes collapsed to zero" (the figure drawn at nothing)."""
    for cell in cells(path):
        for output in cell.get("outputs", []):
            text = "".join(output.get("text", ""))
            assert output.get("name") != "stderr", f"{label(path)} {cell.get('id')}: {text[:200]}"
            assert "Warning:" not in text, f"{label(path)} {cell.get('id')}: {text[:200]}"
