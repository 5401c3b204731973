"""Figures for lessons 01-04. Each function takes computed arrays and returns a ``matplotlib.figure.Figure``.

Nothing here computes attention: the notebooks and widgets call the math and pass the results in. Figures
are made with ``matplotlib.figure.Figure`` (never ``pyplot``), so nothing is displayed until the lesson calls
``attention_core.figures.display.show_figure`` with alt text and a caption.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Polygon

from .._validate import matrix, one_of
from ..lang import Messages
from ..toy_sentences import FEATURES

# Chinese text never uses $...$: matplotlib's mathtext has no CJK glyphs, so its symbols are Unicode (sₜ₋₁, hⱼ).
TEXT = Messages(
    __name__,
    {
        "weight": "weight α_j",
        "position": "position j (token)",
        "forward": "forward half  →h_j",
        "backward": "backward half  ←h_j",
        "change_norm": "norm of the change",
        "source_length": "source length T",
        "sketch_fixed": "fixed summary: c = h_T for every step",
        "sketch_reread": "re-reading: a new c_t at every step",
        "sketch_fixed_note": "one vector, fixed width;\nthe source positions\nare not revisited",
        "sketch_reread_note": "weights from $s_{{t-1}}$\nover every $h_j$",
        "sketch_title": "Architecture sketch, not a trained alignment",
        "triangle_weights": "weights α_j = softmax(e)_j",
        "component": "component {k}",
        "hull": "c = Σ α_j h_j (★) stays in the hull of the h_j",
        "soft": "soft read (softmax weights)",
        "hard": "hard read (argmax)",
    },
)

# Lesson 01's hand-made features (toy_sentences.FEATURES) as a reader names them, for the headers of its tables; the
# code, and the keywords of feature_vector(place=3.0), keep the English names.
FEATURE_LABELS = Messages(
    f"{__name__}.features",
    {
        "person": "person",
        "action": "action",
        "object": "object",
        "colour": "colour",
        "place": "place",
        "time": "time",
        "negation": "negation",
    },
)


def feature_label(name: str) -> str:
    """Lesson 01's feature ``name`` (one of :data:`attention_core.toy_sentences.FEATURES`) in the reader's
    language. Only the label changes: ``feature_vector`` and ``FEATURES`` keep the English names."""
    return FEATURE_LABELS(one_of(name, "feature", FEATURES))


BAR_COLOUR = "#3b6ea8"
ACCENT = "#c2552d"
GREY = "#8a8a8a"


def _bars(ax, tokens: Sequence[str], weights, title: str, ymax: float = 1.0, colour: str = BAR_COLOUR):
    x = np.arange(len(tokens))  # (T,)
    bars = ax.bar(x, weights, color=colour)
    ax.set_xticks(x, tokens, rotation=40, ha="right")
    ax.set_ylim(0, ymax)
    ax.set_ylabel(TEXT("weight"))
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return bars


class WeightBars:
    """A figure of attention weights over tokens whose bars can be updated in place (used by the widgets)."""

    def __init__(self, tokens: Sequence[str], weights, title: str, figsize=(7.0, 3.2)):
        self.fig = Figure(figsize=figsize, layout="constrained")
        self.ax = self.fig.add_subplot()
        self.tokens = tuple(tokens)
        self.bars = _bars(self.ax, self.tokens, weights, title)

    def update(self, tokens: Sequence[str], weights, title: str) -> Figure:
        """Redraw for new weights; rebuilds the axes only when the token list changed."""
        if tuple(tokens) != self.tokens:
            self.ax.clear()
            self.tokens = tuple(tokens)
            self.bars = _bars(self.ax, self.tokens, weights, title)
        else:
            for bar, w in zip(self.bars, weights, strict=True):
                bar.set_height(float(w))
            self.ax.set_title(title, fontsize=10)
        return self.fig


def plot_weight_panels(panels: Sequence[tuple[str, Sequence[str], np.ndarray]], suptitle: str = "") -> Figure:
    """One bar chart of weights per panel, stacked top to bottom; ``panels`` holds ``(title, tokens, weights (T,))``.

    Stacked, not side by side: the figure stays 5.2 in (520 CSS px) wide, so on a 390 px phone its 10 pt labels
    still read at about 10 CSS px.
    """
    fig = Figure(figsize=(5.2, 3.0 * len(panels) + 0.4), layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, (title, tokens, weights) in zip(axes, panels, strict=True):
        _bars(ax, tokens, weights, title)
    if suptitle:
        fig.suptitle(suptitle, fontsize=11)
    return fig


def plot_perturbation_trace(tokens: Sequence[str], diff_norms, title: str) -> Figure:
    """``||h_j - h'_j||`` at each position after changing only the first input (lesson 02)."""
    fig = Figure(figsize=(7.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(1, len(tokens) + 1)  # (T,): positions 1..T
    ax.plot(x, diff_norms, "o-", color=ACCENT)
    # "position token", slanted: twelve words side by side overlap once the text is large enough for a phone
    ax.set_xticks(x, [f"{j} {t}" for j, t in zip(x, tokens, strict=True)], rotation=35, ha="right")
    ax.set_xlabel(TEXT("position"))
    ax.set_ylabel("‖h_j − h′_j‖")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    return fig


def plot_direction_halves(tokens: Sequence[str], forward_change, backward_change, changed: int, title: str) -> Figure:
    """Change of the forward and backward halves of every annotation after editing one input (lesson 03)."""
    fig = Figure(figsize=(7.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(tokens))  # (T,)
    ax.bar(x - 0.2, forward_change, width=0.4, color=BAR_COLOUR, label=TEXT("forward"))
    ax.bar(x + 0.2, backward_change, width=0.4, color=ACCENT, label=TEXT("backward"))
    ax.set_xticks(x, [f"{t}*" if j == changed else t for j, t in enumerate(tokens)], rotation=30, ha="right")
    ax.set_ylabel(TEXT("change_norm"))
    ax.set_title(title, fontsize=10)
    ax.legend(frameon=False, fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_versus_length(
    T_values, series: dict[str, np.ndarray], ylabel: str, title: str, logy: bool = False, loglog: bool = False
) -> Figure:
    """Curves against the source length ``T`` (stored numbers, multiply-adds, or measured seconds); ``loglog``
    draws both axes logarithmic, where growth in proportion to ``T`` is a straight line."""
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    styles = ["o-", "s--", "^-."]
    for k, (label, values) in enumerate(series.items()):
        ax.plot(T_values, values, styles[k % len(styles)], label=label)
    ax.set_xlabel(TEXT("source_length"))
    ax.set_ylabel(ylabel)
    if logy or loglog:
        ax.set_yscale("log")
    if loglog:
        ax.set_xscale("log", base=2)
    ax.set_title(title, fontsize=10)
    ax.legend(frameon=False, fontsize=9)
    ax.grid(alpha=0.3)
    return fig


def _box(ax, xy, text, colour="#e8eef6", width=1.3, height=0.55):
    x, y = xy
    ax.add_patch(
        FancyBboxPatch((x - width / 2, y - height / 2), width, height, boxstyle="round,pad=0.05", fc=colour, ec="#333")
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=11)


def _arrow(ax, start, end, colour="#333", style="-|>", lw=1.0):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=10, color=colour, lw=lw))


def plot_architecture_sketch(source=("I", "like", "cats"), target=("我", "喜欢", "猫")) -> Figure:
    """Two schematic encoder-decoders: one fixed summary ``c = h_T`` versus a context ``c_t`` per step.

    The target tokens are Chinese characters, drawn with the CJK font :mod:`attention_core.figures` registers.

    Lesson 03. A drawing of data flow only: no numbers are computed, and it is not a trained alignment.
    """
    fig = Figure(figsize=(5.4, 7.6), layout="constrained")  # stacked: 540 CSS px wide; 11 pt reads 9.3 px on a phone
    axes = fig.subplots(2, 1)
    T, U = len(source), len(target)
    for ax, title in zip(axes, (TEXT("sketch_fixed"), TEXT("sketch_reread")), strict=True):
        ax.set_xlim(-0.8, max(T, U) * 1.6 + 0.9)
        ax.set_ylim(-0.6, 4.4)
        ax.axis("off")
        ax.set_title(title, fontsize=11)
        for j, tok in enumerate(source):
            x = j * 1.6
            ax.text(x, -0.3, tok, ha="center", fontsize=11)
            _box(ax, (x, 0.6), f"$h_{j + 1}$")
            _arrow(ax, (x, -0.1), (x, 0.3))
            if j:
                _arrow(ax, (x - 0.95, 0.6), (x - 0.65, 0.6))
        for t, tok in enumerate(target):
            x = t * 1.6
            _box(ax, (x, 3.2), f"$s_{t + 1}$", colour="#f6e8e1")
            ax.text(x, 4.0, tok, ha="center", fontsize=11)
            _arrow(ax, (x, 3.5), (x, 3.8))
            if t:
                _arrow(ax, (x - 0.95, 3.2), (x - 0.65, 3.2))
    left, right = axes
    last = (T - 1) * 1.6
    _box(left, (last + 1.45, 1.9), "$c = h_T$", colour="#fff4c2", width=1.0)
    _arrow(left, (last + 0.65, 0.75), (last + 1.3, 1.65))
    for t in range(U):
        _arrow(left, (last + 1.2, 2.05), (t * 1.6 + 0.2, 2.92), colour=GREY)
    left.text(-0.6, 1.9, TEXT("sketch_fixed_note"), fontsize=11, va="center")
    for t in range(U):
        xt = t * 1.6
        _box(right, (xt + 0.55, 2.05), f"$c_{t + 1}$", colour="#fff4c2", width=0.7, height=0.45)
        _arrow(right, (xt + 0.55, 2.3), (xt + 0.25, 2.92), colour=ACCENT)
        if t:  # the previous decoder state decides the weights of this read
            _arrow(right, (xt - 1.3, 2.92), (xt + 0.3, 2.3), colour=ACCENT, style="-|>", lw=0.8)
        for j in range(T):
            _arrow(right, (j * 1.6, 0.9), (xt + 0.5, 1.8), colour=GREY, style="-", lw=0.6)
    right.text(last + 0.75, 1.25, TEXT("sketch_reread_note"), fontsize=11, color=ACCENT)
    fig.suptitle(TEXT("sketch_title"), fontsize=11, color="#555")
    return fig


class TriangleRead:
    """Weights as bars beside the annotations ``h_j`` as points and the context ``c`` inside their hull.

    Lesson 04. ``H`` is ``(T, 2)`` (two-dimensional annotations, so they can be drawn); ``update`` moves the
    bars and the context point without rebuilding the figure.
    """

    def __init__(self, H, tokens: Sequence[str], weights, context, title: str = ""):
        H = matrix(H, "H", None, 2, "(T, 2) to be drawn in the plane")  # (T, 2)
        self.fig = Figure(figsize=(9.0, 3.6), layout="constrained")
        ax_w, ax_c = self.fig.subplots(1, 2, width_ratios=[1, 1.2])
        labels = [f"h_{j + 1} ({t})" for j, t in enumerate(tokens)]
        self.bars = _bars(ax_w, labels, weights, TEXT("triangle_weights"))
        ax_c.add_patch(Polygon(H, closed=True, fc="#e8eef6", ec=BAR_COLOUR, lw=1.0))
        ax_c.plot(H[:, 0], H[:, 1], "o", color=BAR_COLOUR)
        for j, (x, y) in enumerate(H):
            ax_c.annotate(labels[j], (x, y), textcoords="offset points", xytext=(6, 6), fontsize=9)
        (self.point,) = ax_c.plot([context[0]], [context[1]], "*", ms=14, color=ACCENT)
        pad = 0.6
        ax_c.set_xlim(H[:, 0].min() - pad, H[:, 0].max() + pad + 0.8)
        ax_c.set_ylim(H[:, 1].min() - pad, H[:, 1].max() + pad)
        ax_c.set_aspect("equal")
        ax_c.axhline(0, color=GREY, lw=0.5)
        ax_c.axvline(0, color=GREY, lw=0.5)
        ax_c.set_xlabel(TEXT("component", k=1))
        ax_c.set_ylabel(TEXT("component", k=2))
        self.ax_c = ax_c
        ax_c.set_title(title or TEXT("hull"), fontsize=10)

    def update(self, weights, context) -> Figure:
        for bar, w in zip(self.bars, weights, strict=True):
            bar.set_height(float(w))
        self.point.set_data([context[0]], [context[1]])
        return self.fig


def plot_soft_vs_hard(sweep, soft, hard, xlabel: str, ylabel: str, title: str) -> Figure:
    """One component of the soft read and of the hard (argmax) read as one score sweeps (lesson 04)."""
    fig = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(sweep, soft, "-", color=BAR_COLOUR, lw=2, label=TEXT("soft"))
    ax.plot(sweep, hard, "-", color=ACCENT, lw=2, drawstyle="steps-post", label=TEXT("hard"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(frameon=False, fontsize=9)
    ax.grid(alpha=0.3)
    return fig
