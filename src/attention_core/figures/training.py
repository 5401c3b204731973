"""Figures for lesson 07: score pushes, alignment heatmaps (one language or two side by side), training curves and
accuracy against length.

Every function takes arrays (or plain lists) and returns a :class:`matplotlib.figure.Figure`; nothing here
computes model math or displays anything. Show a figure with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from ..lang import Catalog

# Chinese text never uses $...$ (matplotlib's mathtext has no CJK glyphs): its symbols are Unicode (eₜⱼ, αₜⱼ).
# English braces inside $...$ are doubled ({{tj}}) because the catalog formats every sentence.
TEXT = Catalog(
    {
        "score_now": {"en": "score $e_{{tj}}$ now", "zh": "当前分数 eₜⱼ"},
        "source_position": {"en": "source position $j$", "zh": "源位置 j"},
        "score": {"en": "score", "zh": "分数"},
        "push_title": {
            "en": r"One descent step on the scores: $e_{{tj}} \to e_{{tj}} - \partial\mathcal{{L}}/\partial e_{{tj}}$",
            "zh": "对分数做一步梯度下降：eₜⱼ → eₜⱼ − ∂ℒ/∂eₜⱼ",
        },
        "source_token": {"en": "source token $x_j$", "zh": "源 token xⱼ"},
        "target_token": {"en": "target token $y_t$", "zh": "目标 token yₜ"},
        "weight": {"en": r"weight $\alpha_{{tj}}$", "zh": "权重 αₜⱼ"},
        "step_loss": {"en": "loss of each step", "zh": "每一步的损失"},
        "mean_loss": {"en": "mean of last {window} steps", "zh": "最近 {window} 步的平均"},
        "optimiser_step": {"en": "optimiser step", "zh": "优化步数"},
        "cross_entropy": {"en": "mean token cross-entropy", "zh": "token 平均交叉熵"},
        "token_accuracy": {"en": "token accuracy", "zh": "token 准确率"},
        "exact_accuracy": {"en": "exact-sequence accuracy", "zh": "整句准确率"},
        "source_length": {"en": "source length (tokens)", "zh": "源序列长度（token 数）"},
        "share_correct": {"en": "share correct on the test set", "zh": "测试集上的正确比例"},
        "language_svo": {"en": "lesson 07's target language", "zh": "第七课的目标语言"},
        "language_verb_final": {"en": "verb-final target language", "zh": "动词居末的目标语言"},
    }
)


def score_push_figure(scores, d_scores, tokens: Sequence[str], step: float = 1.0) -> Figure:
    """Arrows showing which way one gradient-descent step moves each score: from ``e_j`` to ``e_j - step dL/de_j``.

    ``scores`` and ``d_scores`` are ``(T,)``; ``tokens`` labels the ``T`` source positions.
    """
    e, d = np.asarray(scores, dtype=float), np.asarray(d_scores, dtype=float)
    fig = Figure(figsize=(6.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(e.size)
    ax.scatter(x, e, color="0.2", zorder=3, label=TEXT("score_now"))
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
    ax.set_xlabel(TEXT("source_position"))
    ax.set_ylabel(TEXT("score"))
    ax.set_title(TEXT("push_title"))
    ax.legend(loc="best", fontsize=8)
    return fig


def alignment_heatmap(weights, src_words: Sequence[str], tgt_words: Sequence[str], true_align=None, title=None):
    """Attention weights as a grid: source tokens along x, target tokens down y (Bahdanau et al. 2015, Fig. 3).

    ``weights`` ``(U, T)`` with one row per target token; ``true_align`` ``(U,)`` (optional) marks the true
    source position of each target token with an outlined square.
    """
    U, T = np.shape(weights)
    # Cells of 0.2 in and 12 pt text: a 27-column grid is 7 in (700 CSS px) wide, so on a 390 px phone every
    # label still reads at about 9.3 CSS px; the colour bar lies under the grid instead of widening it.
    fig = Figure(figsize=(HEATMAP_CELL * T + 1.6, HEATMAP_CELL * U + 2.0), layout="constrained")
    ax = fig.add_subplot()
    im = _alignment_grid(ax, weights, src_words, tgt_words, true_align, title)
    _weight_bar(fig, im, ax)
    return fig


def language_heatmaps(src_words: Sequence[str], panels: dict[str, tuple]) -> Figure:
    """One source sentence translated into each target language, its attention grids side by side (lesson 07).

    ``panels[language] = (weights (U, T), tgt_words (U,), true_align (T,) or None)`` for ``language`` in
    ``("svo", "verb_final")`` (the keys of ``attention_core.models.data.LANGUAGES``), drawn left to right in
    that order, titled with the language. Same source along x in every grid, so a reordering that stays near
    the diagonal on the left and jumps across the sentence on the right shows at a glance.
    """
    names = list(panels)
    U, T = np.shape(panels[names[0]][0])
    fig = Figure(figsize=(len(names) * (HEATMAP_CELL * T + 1.4) + 0.4, HEATMAP_CELL * U + 2.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(names)))
    for ax, name in zip(axes, names, strict=True):
        weights, tgt_words, true_align = panels[name]
        im = _alignment_grid(ax, weights, src_words, tgt_words, true_align, TEXT(f"language_{name}"))
    _weight_bar(fig, im, list(axes))
    return fig


def _alignment_grid(ax, weights, src_words, tgt_words, true_align, title):
    """Draw one grid of weights ``(U, T)`` on ``ax`` with its labels and true-alignment squares."""
    w = np.asarray(weights, dtype=float)
    U, T = w.shape
    im = ax.imshow(w, cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
    if true_align is not None:
        for i, j in enumerate(np.asarray(true_align)):
            ax.add_patch(_square(j, i))
    ax.set_xticks(np.arange(T), list(src_words), rotation=90, fontsize=HEATMAP_FONT)
    ax.set_yticks(np.arange(U), list(tgt_words), fontsize=HEATMAP_FONT)
    ax.xaxis.tick_top()
    ax.set_xlabel(TEXT("source_token"), fontsize=HEATMAP_FONT)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel(TEXT("target_token"), fontsize=HEATMAP_FONT)
    if title:
        ax.set_title(title, fontsize=HEATMAP_FONT)
    return im


def _weight_bar(fig, im, ax) -> None:
    bar = fig.colorbar(im, ax=ax, location="bottom", shrink=0.6, aspect=30)
    bar.set_label(TEXT("weight"), fontsize=HEATMAP_FONT)
    bar.ax.tick_params(labelsize=HEATMAP_FONT)


HEATMAP_CELL = 0.2  # inches per grid cell
HEATMAP_FONT = 12  # points: every label of the alignment grid


def _square(j, i):
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="tab:orange", lw=1.2)


def loss_curve(losses: Sequence[float], window: int = 25) -> Figure:
    """Training loss per step and its moving average over ``window`` steps."""
    y = np.asarray(losses, dtype=float)
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(np.arange(1, y.size + 1), y, color="0.75", lw=0.8, label=TEXT("step_loss"))
    if y.size >= window:
        avg = np.convolve(y, np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, y.size + 1), avg, color="tab:blue", label=TEXT("mean_loss", window=window))
    ax.set_xlabel(TEXT("optimiser_step"))
    ax.set_ylabel(TEXT("cross_entropy"))
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
    for ax, key, label in zip(axes, ("token", "exact"), (TEXT("token_accuracy"), TEXT("exact_accuracy")), strict=True):
        for k, (name, curve) in enumerate(curves.items()):
            ax.plot(lengths, curve[key], styles[k % len(styles)], ms=3, label=name)
        ax.set_xlabel(TEXT("source_length"))
        ax.set_title(label, fontsize=10)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(TEXT("share_correct"))
    axes[0].legend(fontsize=8, loc="lower left")
    return fig
