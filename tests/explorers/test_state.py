"""The lesson-06 figure and explorer: what is drawn is what the core computes, and each explorer owns its state."""

import numpy as np

from attention_core import worked_example
from attention_core.explorers.state import state_explorer
from attention_core.figures.state import StateReadFigure, weight_curves_figure


def test_weight_curves_figure_draws_one_curve_per_position():
    grid = np.linspace(-4, 4, 11)
    fig = weight_curves_figure(grid, worked_example(grid).weights, marks=[("A", -1.0)])
    (ax,) = fig.axes
    assert len(ax.get_lines()) == 3 + 1  # three curves and the mark
    np.testing.assert_allclose(ax.get_lines()[2].get_ydata(), worked_example(grid).weights[:, 2])
    assert "not a time step" in ax.get_xlabel()


def test_state_read_figure_draws_the_read():
    figure = StateReadFigure(-1.0)
    read = figure.update(1.0)
    np.testing.assert_allclose([bar.get_height() for bar in figure.bars], worked_example(1.0).weights)
    x, y = figure.point.get_data()
    np.testing.assert_allclose([x[0], y[0]], worked_example(1.0).context)
    assert figure.marker.get_xdata()[0] == 1.0
    assert "0.1491, 0.3095, 0.5414" in figure.alt_text(read)
    flat = StateReadFigure(0.0, nonlinearity=None).update(0.0)
    np.testing.assert_allclose(flat.weights, 1 / 3)


def test_state_explorer_follows_its_slider_and_owns_its_state():
    a, b = state_explorer(-1.0), state_explorer(-1.0)
    assert a.slider.description == "state s"  # the accessible name
    assert "0.5414" in a.table.value and "(1.392334, -0.607666)" in a.table.value
    a.slider.value = 1.0  # what dragging does
    assert "(0.607666, -1.392334)" in a.table.value
    assert 'alt="At s = 1: bars of height 0.1491' in a.image.value
    np.testing.assert_allclose(a.read.weights, worked_example(1.0).weights)
    assert b.slider.value == -1.0 and "0.5414" in b.table.value.split("<tr>")[2]  # b did not move
    a.set_state(0.5)
    assert a.slider.value == 0.5 and float(a.read.s) == 0.5
