"""The lesson-07 figures: return matplotlib Figures (never pyplot), labelled, with room for what they draw."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

import attention_core as ac
from attention_core.figures.training import accuracy_vs_length, alignment_heatmap, loss_curve, score_push_figure


def test_score_push_figure_keeps_every_arrow_inside_the_axes():
    read = ac.worked_example(ac.STATE_A)
    d = ac.score_gradient(read.weights, ac.H_EXAMPLE, np.array([-1.0, 0.0]))
    fig = score_push_figure(read.scores, d, ac.TOKENS)
    assert isinstance(fig, Figure)
    lo, hi = fig.axes[0].get_ylim()
    ends = read.scores - d
    assert lo < min(read.scores.min(), ends.min()) and hi > max(read.scores.max(), ends.max())
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == list(ac.TOKENS)


def test_alignment_heatmap_puts_source_on_x_and_target_on_y():
    w = np.full((4, 3), 1 / 3)
    fig = alignment_heatmap(w, ["a", "b", "c"], ["w", "x", "y", "z"], true_align=[0, 2, 1])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["w", "x", "y", "z"]
    assert len(ax.patches) == 3  # one outlined square per aligned target token


def test_curves_return_figures():
    assert isinstance(loss_curve(np.linspace(3, 0.1, 60)), Figure)
    fig = accuracy_vs_length([5, 6], {"m": {"token": [1.0, 0.9], "exact": [1.0, 0.5]}})
    assert len(fig.axes) == 2
