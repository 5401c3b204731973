"""The notebook explorers' figures keep their text inside their canvas in every edition, in each state that changes
their words or their layout (the figures of the lessons and pages: tests/figures/test_canvas.py).

Each explorer is built as its lesson builds it, under the edition's language, and its figure checked
(``tests.helpers.outside_canvas``) at the resolution the explorer renders it: 100 dpi where it renders the whole
figure (``figure_png``), 80 dpi where a ``BlitRenderer`` redraws only what moves (its animated artists drawn too).
The decoder steppers make a new figure each step in the first step's layout: their first and last steps are drawn.

Time: the six explorers, 13 states each edition (39 figures), take 16 to 20 CPU seconds (user + sys of ``/usr/bin/time
.venv/bin/python -m pytest tests/explorers/test_canvas.py -p no:randomly``, two runs on a two-core machine at a load
of 10). The whole file is ``slow``: `make test` checks every edition, `make check` none (the English edition alone
took 3.4 worker-seconds of it).
"""

from __future__ import annotations

from unittest import mock

import pytest

from attention_core.figures.display import CSS_DPI
from attention_core.lang import language
from attention_workshop.paths import editions
from tests.helpers import outside_canvas

pytestmark = pytest.mark.slow  # every edition is checked by `make test` only (the docstring says why)

BLIT_DPI = 80  # the explorers that redraw only what moves (figures.display.BlitRenderer)


def explorer_states(name: str):
    """Yield ``(state, fig, dpi)`` for each state of the explorer ``name`` that changes its figure's words or layout.
    An explorer redraws one figure from state to state: check each before asking for the next."""
    from attention_core import STATE_A
    from attention_core.explorers import training
    from attention_core.explorers.reading import question_explorer, score_triangle_explorer
    from attention_core.explorers.state import state_explorer
    from attention_core.models.trained import VERB_FINAL

    if name == "question (01)":
        explorer = question_explorer()
        for sentence in explorer.sentence.options:
            for question in explorer.question.options:
                explorer.sentence.value, explorer.question.value = sentence, question
                yield f"{sentence} / {question}", explorer.bars.fig, CSS_DPI
    elif name == "score triangle (04)":
        yield "", score_triangle_explorer().figure.fig, CSS_DPI
    elif name == "state (05, 06)":
        explorer = state_explorer(s=STATE_A, tanh_switch=True)
        yield "with tanh", explorer.figure.fig, BLIT_DPI
        explorer.set_tanh(False)  # another title, in the layout made for the first
        yield "without tanh", explorer.figure.fig, BLIT_DPI
    elif name == "learning snapshots (07)":
        explorer = training.learning_snapshots()
        yield "the 27-word sentence", explorer.figure.fig, BLIT_DPI  # the widest figure
        explorer.sentence.value = 0
        yield "the 6-word sentence", explorer.figure.fig, BLIT_DPI  # the narrowest
    else:  # the decoder steppers of lessons 07 and 08
        drawn, draw = [], training.decoder_step_figure

        def recorded(*args, **kwargs):
            drawn.append(draw(*args, **kwargs))
            return drawn[-1]

        with mock.patch.object(training, "decoder_step_figure", recorded):
            explorer = training.decoder_stepper(model=VERB_FINAL if "08" in name else None)
            yield "step 1", drawn[-1], BLIT_DPI
            explorer.set_step(explorer.slider.max)  # the end symbol's step, in the first step's layout
            yield f"step {explorer.slider.max}", drawn[-1], BLIT_DPI


EXPLORERS = [
    "question (01)",
    "score triangle (04)",
    "state (05, 06)",
    "learning snapshots (07)",
    "decoder stepper (07)",
    "decoder stepper (08)",
]


@pytest.mark.parametrize("edition", editions())
@pytest.mark.parametrize("name", EXPLORERS)
def test_every_explorer_figure_keeps_its_text_inside_the_canvas(edition, name):
    with language(edition):
        problems = [f"{state}: {p}" for state, fig, dpi in explorer_states(name) for p in outside_canvas(fig, dpi)]
    assert not problems, f"{edition}: the {name} explorer: " + "; ".join(problems)
