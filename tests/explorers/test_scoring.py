"""Figures and the lesson-05 explorer: they build, update in place and show the numbers the math computes."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from attention_core import TOKENS, worked_example
from attention_core.explorers.scoring import ablation_explorer
from attention_core.figures.scoring import (
    StateWeightsPlot,
    ablation_curves_figure,
    family_weights_figure,
    state_weights_figure,
    weights_heatmap_figure,
)
from attention_core.self_attention import causal_mask

GRID = np.linspace(-4, 4, 11)


def test_state_weights_plot_updates_in_place():
    read = worked_example(-1.0)
    plot = StateWeightsPlot(GRID, worked_example(GRID).weights, -1.0, read.weights, TOKENS, "t")
    assert isinstance(plot.fig, Figure)
    assert [b.get_height() for b in plot.bars] == pytest.approx(read.weights)
    new = worked_example(1.0)
    flat = worked_example(GRID, nonlinearity=None).weights
    plot.update(1.0, new.weights, curves=flat, title="flat")
    assert [b.get_height() for b in plot.bars] == pytest.approx(new.weights)
    assert plot.labels[0].get_text() == f"{new.weights[0]:.4f}"
    np.testing.assert_allclose(plot.lines[2].get_ydata(), flat[:, 2])
    assert plot.title.get_text() == "flat"
    assert list(plot.vline.get_xdata()) == [1.0, 1.0]
    assert plot.note.get_visible()  # the flat curves coincide, and the figure says so
    plot.update(0.0, worked_example(0.0).weights, curves=worked_example(GRID).weights)
    assert not plot.note.get_visible()


def test_figures_build_and_reject_bad_shapes():
    assert isinstance(state_weights_figure(GRID, worked_example(GRID).weights, 0.0, np.ones(3) / 3, TOKENS), Figure)
    fig = ablation_curves_figure(
        GRID, worked_example(GRID).weights, worked_example(GRID, nonlinearity=None).weights, TOKENS
    )
    assert len(fig.axes) == 2
    assert isinstance(family_weights_figure({"dot": np.ones(3) / 3, "general": np.ones(3) / 3}, TOKENS), Figure)
    w = np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None]
    fig = weights_heatmap_figure([(np.ones((3, 3)) / 3, "full"), (w, "causal")], ["a", "b", "c"])
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert len(texts) == 6  # masked cells stay blank
    with pytest.raises(ValueError, match="shape"):
        ablation_curves_figure(GRID, np.ones((5, 3)), np.ones((11, 3)), TOKENS)
    with pytest.raises(ValueError, match="shape"):
        weights_heatmap_figure([(causal_mask(2), "x")], ["a", "b", "c"])
    with pytest.raises(ValueError, match="shape"):
        family_weights_figure({"dot": np.ones(2)}, TOKENS)


def test_ablation_explorer_follows_its_controls():
    box = ablation_explorer(s=-1.0)
    ex = box.explorer
    assert ex.slider.description and ex.switch.description  # accessible names
    assert "0.5414" in ex.readout.value and ex.image.value.startswith('<img src="data:image/png;base64,')
    assert "with tanh: bars of the weights I 0.5414" in ex.image.value  # the frame's alt text
    ex.slider.value = 1.0
    assert "0.5414" in ex.readout.value and "0.1491" in ex.readout.value
    assert [b.get_height() for b in ex.plot.bars] == pytest.approx(worked_example(1.0).weights)
    ex.switch.value = False
    assert "are flat" in ex.image.value
    assert ex.readout.value.count("0.3333") == 3  # tanh removed: the worked example's weights are all 1/3
    np.testing.assert_allclose(ex.plot.lines[0].get_ydata(), 1 / 3)
    other = ablation_explorer(s=2.0)
    assert other.explorer is not ex and ex.slider.value == 1.0  # no shared state between explorers
