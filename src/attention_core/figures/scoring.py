"""Figures for the scoring lessons (05 *How early attention computes a match*, 08 *Toward the next structure*).

Every function takes arrays that the math computed and returns a :class:`matplotlib.figure.Figure` (never
pyplot, so nothing is displayed by accident). Show one with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from .._validate import matrix, one_of, vector, weight_curves_args
from ..lang import Messages

# Chinese text never uses $...$ (matplotlib's mathtext has no CJK glyphs): its symbols are Unicode (αⱼ).
# English braces inside $...$ are doubled ({{ij}}) because the catalog formats every sentence.
TEXT = Messages(
    __name__,
    {
        "coincide": "the lines of all positions coincide",
        "weight": r"weight $\alpha_j$",
        "weight_s": r"weight $\alpha_j(s)$",
        "state_axis": "reading state s (a chosen value, not a time step)",
        "with_tanh": "with tanh",
        "without_tanh": "tanh removed",
        "position_read": "position read (j)",
        "position_reading": "position reading (i)",
        "weight_ij": r"weight $\alpha_{{ij}}$",
    },
)

# The score functions of lessons 05 and 08 as a reader names them, for the rows of their tables; the code keeps the
# English names (ac.dot_scores, luong.global_attention(s, H, "general")).
SCORE_LABELS = Messages(
    f"{__name__}.scores",
    {"dot": "dot", "general": "general", "concat": "concat", "additive": "additive"},
)


def score_label(name: str) -> str:
    """The score function ``name`` (``"dot"``, ``"general"``, ``"concat"`` or ``"additive"``) in the reader's
    language; the name the code passes (``luong.global_attention(s, H, "dot")``) stays English."""
    return SCORE_LABELS(one_of(name, "score", tuple(SCORE_LABELS.entries)))


WEIGHT_TICKS = np.linspace(0.0, 1.0, 5)  # a colour bar of weights: 0, 0.25, 0.5, 0.75, 1
WEIGHT_TICKS.flags.writeable = False  # shared by every figure: read-only, as the package's other constants
_COLOURS = ("#1b6ca8", "#d1495b", "#2e8b57", "#8c6bb1", "#e08e0b")  # one per source position


def _colour(j: int) -> str:
    return _COLOURS[j % len(_COLOURS)]


def _coincide(curves: np.ndarray) -> bool:
    """True when every position's curve is the same line (then only the last one drawn is visible)."""
    return bool(np.allclose(curves, curves[:, :1], atol=1e-9))


def ablation_curves_figure(s_grid, curves_tanh, curves_linear, tokens: Sequence[str]) -> Figure:
    """Weight curves over the state with the tanh scorer (left) and with tanh removed (right), same axes."""
    s_grid, curves_tanh, curves_linear = weight_curves_args(s_grid, tokens, curves_tanh, curves_linear)
    fig = Figure(figsize=(8.4, 3.1), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    names = (TEXT("with_tanh"), TEXT("without_tanh"))
    for ax, curves, name in zip(axes, (curves_tanh, curves_linear), names, strict=True):
        for j, t in enumerate(tokens):
            ax.plot(s_grid, curves[:, j], color=_colour(j), label=t, linestyle="-" if j != 1 else "--")
        ax.set_title(name, fontsize=11)
        if _coincide(curves):  # under the flat line at 1/3, hanging down: broken in two lines it stays under it
            ax.text(0.5, 0.27, TEXT("coincide"), transform=ax.transAxes, ha="center", va="top")
        ax.set_xlim(s_grid[0], s_grid[-1])
    fig.supxlabel(TEXT("state_axis"))  # one label under both panels: it never overlaps at phone-sized text
    axes[0].set_ylim(0, 1)
    axes[0].set_ylabel(TEXT("weight_s"))
    axes[0].legend(loc="upper center", ncol=len(tokens), fontsize=9, frameon=False)
    return fig


def family_weights_figure(weights_by_family: dict[str, np.ndarray], position_labels: Sequence[str]) -> Figure:
    """Grouped bars: the weights each score family gives the same positions for the same state."""
    T = len(position_labels)
    weights_by_family = {
        name: vector(w, f"weights_by_family[{name!r}]", T, f"({T},): one weight per position label")
        for name, w in weights_by_family.items()
    }
    names = list(weights_by_family)
    fig = Figure(figsize=(7.0, 3.0), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / len(names)
    x = np.arange(T)
    hatches = ("", "//", "..", "xx")
    for k, name in enumerate(names):
        ax.bar(
            x + (k - (len(names) - 1) / 2) * width,
            weights_by_family[name],
            width,
            label=name,
            color=_colour(k),
            hatch=hatches[k % len(hatches)],
            edgecolor="white",
        )
    ax.set_xticks(x, list(position_labels))
    ax.set_ylim(0, 1)
    ax.set_ylabel(TEXT("weight"))
    ax.legend(fontsize=9, frameon=False)
    return fig


def weights_heatmap_figure(panels: Sequence[tuple[np.ndarray, str]], labels: Sequence[str]) -> Figure:
    """One heatmap per ``(weights, title)`` panel: row ``i`` is the reading position, column ``j`` the read one.

    Every cell is annotated with its weight to two decimals; an exactly zero weight (a masked position) is
    left blank and grey so that the mask's shape is visible.
    """
    T = len(labels)
    fig = Figure(figsize=(3.3 * len(panels) + 0.6, 3.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(panels)))
    image = None
    for ax, (weights, title) in zip(axes, panels, strict=True):
        weights = matrix(weights, f"the weights of panel {title!r}", T, T, f"({T}, {T}): one row per label")
        cmap = matplotlib.colormaps["Blues"].with_extremes(bad="0.8")  # masked (exactly zero) cells in grey
        image = ax.imshow(np.ma.masked_equal(weights, 0.0), vmin=0, vmax=1, cmap=cmap)
        for i in range(T):
            for j in range(T):
                if weights[i, j] != 0.0:
                    colour = "white" if weights[i, j] > 0.6 else "black"
                    ax.text(j, i, f"{weights[i, j]:.2f}", ha="center", va="center", fontsize=8, color=colour)
        ax.set_xticks(range(T), list(labels))
        ax.set_yticks(range(T), list(labels))
        ax.set_xlabel(TEXT("position_read"))
        ax.set_ylabel(TEXT("position_reading"))
        ax.set_title(title, fontsize=11)
    # Ticks fixed: left to its locator, the bar had 6 ticks on its first draw and 5 on the next, and the label, placed
    # for the first, ended 12 px past the right edge of the PNG (200 dpi).
    fig.colorbar(image, ax=list(axes), shrink=0.8, label=TEXT("weight_ij"), ticks=WEIGHT_TICKS)
    return fig
