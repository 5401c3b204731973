"""Figures for lesson 07: score pushes, alignment heatmaps, training curves and accuracy against length.

Every function takes arrays (or plain lists) and returns a :class:`matplotlib.figure.Figure`; nothing here
computes model math or displays anything. Show a figure with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure


def score_push_figure(scores, d_scores, tokens: Sequence[str], step: float = 1.0) -> Figure:
    """Arrows showing which way one gradient-descent step moves each score: from ``e_j`` to ``e_j - step dL/de_j``.

    ``scores`` and ``d_scores`` are ``(T,)``; ``tokens`` labels the ``T`` source positions.
    """
    e, d = np.asarray(scores, dtype=float), np.asarray(d_scores, dtype=float)
    fig = Figure(figsize=(6.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(e.size)
    ax.scatter(x, e, color="0.2", zorder=3, label="score $e_{tj}$ now")
    for j in range(e.size):
        end = e[j] - step * d[j]
        color = "tab:blue" if end > e[j] else "tab:red"
        ax.annotate("", xy=(j, end), xytext=(j, e[j]), arrowprops={"arrowstyle": "->", "color": color, "lw": 2})
        ax.text(j + 0.08, end, f"{-d[j]:+.3f}", color=color, va="center", fontsize=9)
    ends = e - step * d  # (T,): where the arrows point
    lo, hi = min(e.min(), ends.min()), max(e.max(), ends.max())
    pad = 0.15 * (hi - lo if hi > lo else 1.0)
    ax.set_ylim(lo - pad, hi + pad)  # annotate() does not rescale the axes, so make room for every arrow
    ax.set_xticks(x, list(tokens))
    ax.set_xlim(-0.5, e.size - 0.2)
    ax.set_xlabel("source position $j$")
    ax.set_ylabel("score")
    ax.set_title(r"One descent step on the scores: $e_{tj} \to e_{tj} - \partial\mathcal{L}/\partial e_{tj}$")
    ax.legend(loc="best", fontsize=8)
    return fig


def alignment_heatmap(weights, src_words: Sequence[str], tgt_words: Sequence[str], true_align=None, title=None):
    """Attention weights as a grid: source tokens along x, target tokens down y (Bahdanau et al. 2015, Fig. 3).

    ``weights`` ``(U, T)`` with one row per target token; ``true_align`` ``(U,)`` (optional) marks the true
    source position of each target token with an outlined square.
    """
    w = np.asarray(weights, dtype=float)
    U, T = w.shape
    fig = Figure(figsize=(0.28 * T + 2.0, 0.28 * U + 1.6), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(w, cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
    if true_align is not None:
        for i, j in enumerate(np.asarray(true_align)):
            ax.add_patch(_square(j, i))
    ax.set_xticks(np.arange(T), list(src_words), rotation=90, fontsize=8)
    ax.set_yticks(np.arange(U), list(tgt_words), fontsize=8)
    ax.xaxis.tick_top()
    ax.set_xlabel("source token $x_j$")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("target token $y_t$")
    if title:
        ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.6, label=r"weight $\alpha_{tj}$")
    return fig


def _square(j, i):
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="tab:orange", lw=1.2)


def loss_curve(losses: Sequence[float], window: int = 25) -> Figure:
    """Training loss per step and its moving average over ``window`` steps."""
    y = np.asarray(losses, dtype=float)
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(np.arange(1, y.size + 1), y, color="0.75", lw=0.8, label="loss of each step")
    if y.size >= window:
        avg = np.convolve(y, np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, y.size + 1), avg, color="tab:blue", label=f"mean of last {window} steps")
    ax.set_xlabel("optimiser step")
    ax.set_ylabel("mean token cross-entropy")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    return fig


def accuracy_vs_length(lengths: Sequence[int], curves: dict[str, dict[str, Sequence[float]]]) -> Figure:
    """Two panels, token and exact-sequence accuracy, against source length; one line per model.

    ``curves[name] = {"token": [...], "exact": [...]}`` with one value per entry of ``lengths``.
    """
    fig = Figure(figsize=(8.0, 3.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    styles = ["-o", "--s", ":^", "-.v"]
    for ax, key, label in zip(axes, ("token", "exact"), ("token accuracy", "exact-sequence accuracy"), strict=True):
        for k, (name, curve) in enumerate(curves.items()):
            ax.plot(lengths, curve[key], styles[k % len(styles)], ms=3, label=name)
        ax.set_xlabel("source length (tokens)")
        ax.set_title(label, fontsize=10)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share correct on the test set")
    axes[0].legend(fontsize=8, loc="lower left")
    return fig
