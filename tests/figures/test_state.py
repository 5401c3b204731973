"""The lesson 05-06 figures speak the reader's language: Chinese under ``language("zh")``, English unchanged."""

from __future__ import annotations

import numpy as np

from attention_core import worked_example
from attention_core.figures.state import StateReadFigure, weight_curves_figure
from attention_core.lang import language

GRID = np.linspace(-4, 4, 11)


def figures():
    curves = weight_curves_figure(GRID, worked_example(GRID).weights, marks=[("A", -1.0)])
    return curves, StateReadFigure(worked_example(GRID))


def test_the_figures_and_the_alt_text_are_chinese_under_zh(figtext):
    with language("zh"):
        curves, panels = figures()
        alt = panels.alt_text(panels.update(worked_example(1.0)))
    assert "位置 1：I" in figtext.texts(curves) and "各源位置的注意力权重随 s 的变化" in figtext.texts(curves)
    assert "权重（总和为 1）" in figtext.texts(panels.fig)
    for fig in (curves, panels.fig):
        figtext.render_every_glyph(fig)
    assert figtext.has_cjk(alt) and "0.1491、0.3095、0.5414" in alt  # the same numbers, in the same order


def test_english_text_is_unchanged(figtext):
    curves, panels = figures()
    assert {
        "Attention weight of each source position against s",
        "position 1: I",
        "reading state s (chosen, not a time step)",
        "weight α_j(s)",
    } <= set(figtext.texts(curves))
    assert {
        "weight α_j",
        "weights (sum to 1)",
        "context c = Σ α_j h_j (★)",
        "reading state s",
        "weights over s",
    } <= set(figtext.texts(panels.fig))
    assert not any(figtext.has_cjk(t) for t in figtext.texts(curves) + figtext.texts(panels.fig))
    read = panels.update(worked_example(1.0))
    assert panels.alt_text(read) == (
        "At s = 1: bars of height 0.1491, 0.3095, 0.5414 for I, like, cats; the context point at (0.6077, -1.3923) "
        "inside the triangle of h_1 = (2, 0), h_2 = (1, -1), h_3 = (0, -2); and the three weight curves over s "
        "from -4 to 4 with a marker at s."
    )
    assert "mine" in figtext.texts(
        weight_curves_figure(GRID, worked_example(GRID).weights, title="mine")
    )  # a caller's title


def test_weight_curves_figure_draws_one_curve_per_position():
    fig = weight_curves_figure(GRID, worked_example(GRID).weights, marks=[("A", -1.0)])
    (ax,) = fig.axes
    assert len(ax.get_lines()) == 3 + 1  # three curves and the mark
    np.testing.assert_allclose(ax.get_lines()[2].get_ydata(), worked_example(GRID).weights[:, 2])
    assert "not a time step" in ax.get_xlabel()


def test_state_read_figure_draws_the_read_it_is_given():
    figure = StateReadFigure(worked_example(GRID))
    read = figure.update(worked_example(1.0))
    np.testing.assert_allclose([bar.get_height() for bar in figure.bars], worked_example(1.0).weights)
    x, y = figure.point.get_data()
    np.testing.assert_allclose([x[0], y[0]], worked_example(1.0).context)
    assert figure.marker.get_xdata()[0] == 1.0
    assert "0.1491, 0.3095, 0.5414" in figure.alt_text(read)
    flat = worked_example(0.0, nonlinearity=None)
    assert figure.update(flat) is flat  # the figure draws what it is handed; it computes nothing


def test_set_curves_replaces_the_curves_and_the_context_trace():
    figure = StateReadFigure(worked_example(GRID))
    linear = worked_example(GRID, nonlinearity=None)
    figure.set_curves(linear, "flat")
    np.testing.assert_allclose(figure.lines[1].get_ydata(), linear.weights[:, 1])
    np.testing.assert_allclose(np.column_stack(figure.trace.get_data()), linear.context)
    assert figure.ax_curve.get_title() == "flat"
