"""Every figure of every edition keeps its text inside its canvas: no title, axis label, tick label, legend,
colour-bar label or annotation is cut by the edge of the image the website and the PDFs show.

Each figure is drawn as its page draws it, in every edition: from the edition's own notebook, the test runs the
first code cell (its imports and ``set_language``), the cells that compute the figures' data (``DATA_CELLS``) and
every figure cell (a cell that calls ``show_figure``, found in the English notebooks), with ``show_figure``
replaced by one that keeps the figure as ``show_figure`` renders it (``figures.display.fitted``). So the words are
the edition's own, and a new translation or a new figure cell is tested once the edition is generated. What a
lesson computes slowly is given instead: the measured timings of lessons 03 and 04 (fixed seconds that rise as
measured ones do) and lesson 07's live training run, committed model and seed study (``given_07``).

Each figure is then drawn at the size and resolution of its stored PNG (``DPI``) and checked by
``tests.helpers.outside_canvas``: every text drawn must stay inside the figure's box, and the image's outermost rows
and columns must hold no ink. The notebook explorers' figures are checked in ``tests/explorers/test_canvas.py``.

Time: the 60 figures (20 per edition) take 23 to 30 CPU seconds (user + sys of ``/usr/bin/time .venv/bin/python -m
pytest tests/figures/test_canvas.py -p no:randomly``, two runs on a two-core machine at a load of 10): each
notebook's data is computed once per edition, lesson 07's data sets once for all editions. The whole file is
``slow``: `make test` draws every figure, `make check` none (the English 20 alone took 8 worker-seconds of it).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import types
from unittest import mock

import numpy as np
import pytest

from attention_core import costs
from attention_core.figures import display
from attention_core.figures.display import CSS_DPI, DPI, fitted
from attention_core.lang import language
from attention_core.models import data
from attention_workshop.paths import ENGLISH, editions
from tests.helpers import ROOT, outside_canvas

pytestmark = pytest.mark.slow  # every figure of every edition is drawn by `make test` only (the docstring says why)

# The cells that compute each page's figure data, besides its first code cell (run in the notebook's order with its
# figure cells). A page with a figure cell that is not listed here runs its first cell and its figure cells only.
DATA_CELLS = {
    "book/argument": [],
    "notebooks/01_reading_on_demand": ["c68706e7", "49b9eadb"],
    "notebooks/02_context_without_attention": ["294e50aa"],
    "notebooks/03_from_summary_to_rereading": ["c3277e51", "d725862d"],
    "notebooks/04_from_scores_to_weights": ["28144d9b"],
    "notebooks/05_additive_score": ["a67fa9bb", "b910bf5e", "8f7d72f9"],
    "notebooks/06_same_content_different_state": ["f441ad58"],
    "notebooks/07_learning_without_labels": [
        "6b122da7",  # the data sets
        "42efae64",  # the worked example's scores and their gradient
        "99b621ec",  # the 12-token test sentence
        "336cfaf7",  # its greedy translation
        "c1a9519b",  # the 27-token test sentence, translated
        "vf000002",  # a source sentence in both target languages
    ],
    "notebooks/08_toward_the_next_structure": ["02198f69", "26a57cb9"],
    "notebooks/09_attention_without_recurrence": [],  # its figure cell loads the committed model itself
}
MEASURED = np.array([2.1e-5, 6.4e-5, 2.6e-4, 1.1e-3])  # seconds, like a timing of costs.TIMED_LENGTHS


def given_07() -> dict:
    """What lesson 07 computes slowly, as its later cells read it: the live run (cell 83e055b4; the committed run's
    losses, made by the same recipe), the committed model (ab86a399) and the seed study (1fd2e5bc)."""
    from attention_core.models.sweep import load_seed_study
    from attention_core.models.trained import load_trained, trained_record

    return {
        "result": types.SimpleNamespace(losses=trained_record()["losses"]),
        "model": load_trained(),
        "study": load_seed_study(),
    }


GIVEN = {"notebooks/07_learning_without_labels": given_07}


def code_cells(edition: str, page: str) -> dict[str, str]:
    """The code cells of ``page`` (``notebooks/07_learning_without_labels``) in ``edition``: id -> source, in order."""
    folder = ROOT if edition == ENGLISH else ROOT / edition
    cells = json.loads((folder / f"{page}.ipynb").read_text(encoding="utf-8"))["cells"]
    return {cell["id"]: "".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"}


def figure_cells(page: str) -> list[str]:
    """The cells of the English ``page`` that show a figure."""
    return [cell for cell, source in code_cells(ENGLISH, page).items() if re.search(r"\bshow_figure\(", source)]


PAGES = sorted(
    p.relative_to(ROOT).with_suffix("").as_posix() for d in ("book", "notebooks") for p in (ROOT / d).glob("*.ipynb")
)
FIGURES = {page: figure_cells(page) for page in PAGES if figure_cells(page)}


MAKE_SPLITS = data.make_splits


@functools.cache
def make_splits(*args, **kwargs):
    """Lesson 07's data sets, made once for every edition (the same seeds give the same sets)."""
    return MAKE_SPLITS(*args, **kwargs)


@functools.cache
def page_figures(edition: str, page: str) -> dict[str, object]:
    """Run ``page``'s first code cell, data cells and figure cells in ``edition``; return each figure cell's figure
    as ``show_figure`` renders it."""
    cells = code_cells(edition, page)
    wanted = {next(iter(cells)), *DATA_CELLS.get(page, []), *FIGURES[page]}
    missing = sorted(wanted - set(cells))
    assert not missing, f"{edition}/{page} has no code cell {missing} (tests/figures/test_canvas.py DATA_CELLS)"
    shown, namespace = {}, {}

    def show_figure(fig, alt, caption, **kwargs):
        assert alt.strip() and caption.strip(), f"{edition}/{page}:{cell}: a figure without alt text or caption"
        shown[cell] = fitted(fig)

    patches = (
        mock.patch.object(display, "show_figure", show_figure),
        mock.patch.object(costs, "time_additive_scores", lambda *args, **kwargs: MEASURED),
        mock.patch.object(costs, "time_attention_step", lambda *args, **kwargs: 2 * MEASURED),
        mock.patch.object(data, "make_splits", make_splits),
    )
    with language(edition), contextlib.redirect_stdout(io.StringIO()), contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        for number, cell in enumerate(c for c in cells if c in wanted):
            exec(compile(cells[cell], f"{edition}/{page}:{cell}", "exec"), namespace)
            if number == 0:
                namespace.update(GIVEN.get(page, dict)())
    return shown


CASES = [
    pytest.param(edition, page, cell, id=f"{edition}-{page.split('/')[1][:8]}-{cell}")
    for edition in editions()
    for page, cells in FIGURES.items()
    for cell in cells
]


@pytest.mark.parametrize(("edition", "page", "cell"), CASES)
def test_every_figure_keeps_its_text_inside_the_canvas(edition, page, cell):
    problems = outside_canvas(page_figures(edition, page)[cell], DPI)  # as show_figure renders it
    assert not problems, f"{edition}: {page}, cell {cell}: " + "; ".join(problems)


def test_every_stored_figure_is_drawn():
    """The figure cells found are those whose stored output is a figure (its drawn words in the output's metadata)."""
    stored = {}
    for page in PAGES:
        cells = json.loads((ROOT / f"{page}.ipynb").read_text(encoding="utf-8"))["cells"]
        found = [c["id"] for c in cells if any("attention_core" in o.get("metadata", {}) for o in c.get("outputs", []))]
        if found:
            stored[page] = found
    assert stored == FIGURES
    assert set(FIGURES) <= set(DATA_CELLS), "list the cells computing their figures' data in DATA_CELLS"


def test_the_check_sees_text_beyond_each_edge_and_ink_on_the_edge():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title("a title far too long for a figure three inches wide, cut at both sides")
    ax.set_ylabel("fits")
    problems = outside_canvas(fig, CSS_DPI)
    assert problems[0].startswith("'a title far too long") and "crosses the left by" in problems[0]
    assert "and the right by" in problems[0]
    assert "ink on the left edge of the image" in problems[1] and "ink on the right edge" in problems[2]
    ax.set_title("short")
    assert outside_canvas(fig, CSS_DPI) == []
