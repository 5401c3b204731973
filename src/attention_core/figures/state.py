"""Figures for the worked example (lessons 05 and 06). Functions take results and return matplotlib figures.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot, so nothing is drawn twice in a
notebook; display them with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..example import H_EXAMPLE, S_RANGE, TOKENS
from ..lang import Messages

TEXT = Messages(
    __name__,
    {
        "curves_title": "Attention weight of each source position against s",
        "position": "position {j}: {token}",
        "state_axis": "reading state s (chosen, not a time step)",
        "state": "reading state s",
        "weight": "weight α_j",
        "weight_s": "weight α_j(s)",
        "bars_title": "weights (sum to 1)",
        "context_title": "context c = Σ α_j h_j (★)",
        "curves_panel": "weights over s",
        "alt": (
            "At s = {s:g}: bars of height {w0:.4f}, {w1:.4f}, {w2:.4f} for I, like, cats; "
            "the context point at ({c0:.4f}, {c1:.4f}) inside the triangle of h_1 = (2, 0), "
            "h_2 = (1, -1), h_3 = (0, -2); and the three weight curves over s from -4 to 4 with a marker at s."
        ),
    },
)

COLORS = ("#1f77b4", "#d62728", "#2ca02c")  # one colour per source position, the same in every figure


def weight_curves_figure(s_values, weights, *, marks=(), title=None):
    """Curves ``alpha_j(s)`` for the three source positions; ``weights`` is ``(N, 3)`` for ``s_values (N,)``.

    ``marks`` lists states to mark with a vertical line (e.g. the article's A and B); ``title`` defaults to
    one in the reader's language.
    """
    if title is None:
        title = TEXT("curves_title")
    fig = Figure(figsize=(7.0, 3.6), layout="constrained")
    ax = fig.add_subplot()
    for j, token in enumerate(TOKENS):
        ax.plot(s_values, weights[:, j], color=COLORS[j], lw=2, label=TEXT("position", j=j + 1, token=token))
    for label, s in marks:
        ax.axvline(s, color="0.4", ls="--", lw=1)
        ax.text(s, 1.0, f" {label}", va="top", ha="left", color="0.25")
    ax.set(xlabel=TEXT("state_axis"), ylabel=TEXT("weight_s"), ylim=(0, 1.02), title=title)
    ax.legend(loc="center left", frameon=False)
    ax.grid(alpha=0.3)
    return fig


class StateReadFigure:
    """Three panels for one reading state: weights as bars, the context point among h_1..h_3, and the curves.

    It draws results and computes none: ``curve`` is the read of the worked example over a grid of states
    (an :class:`~attention_core.example.ExampleRead` with ``s`` of shape ``(N,)``), ``update(read)`` moves the
    bars, the point and the marker to one computed read, and ``set_curves(curve, title)`` swaps the curves (the
    explorer's tanh switch). Built once, so that a widget can redraw quickly.
    """

    def __init__(self, curve, title: str | None = None):
        self.fig = Figure(figsize=(10.5, 3.4), layout="constrained")
        ax_bar, ax_plane, self.ax_curve = self.fig.subplots(1, 3, width_ratios=[1, 1.1, 1.5])
        self.bars = ax_bar.bar(range(3), np.zeros(3), color=COLORS, tick_label=list(TOKENS))
        self.bar_labels = [ax_bar.text(j, 0, "", ha="center", va="bottom") for j in range(3)]
        ax_bar.set(ylim=(0, 1.12), ylabel=TEXT("weight"), title=TEXT("bars_title"))
        tri = np.vstack([H_EXAMPLE, H_EXAMPLE[:1]])  # (4, 2): closed triangle h_1 h_2 h_3 h_1
        ax_plane.fill(tri[:, 0], tri[:, 1], color="0.92", zorder=0)
        ax_plane.plot(tri[:, 0], tri[:, 1], color="0.6", lw=1, zorder=1)
        for j, token in enumerate(TOKENS):
            h = H_EXAMPLE[j]
            ax_plane.scatter(*h, color=COLORS[j], s=60, zorder=3)
            ax_plane.annotate(f"h_{j + 1} ({token})", h, xytext=(6, 4), textcoords="offset points")
        (self.trace,) = ax_plane.plot([], [], color="0.5", lw=1, ls=":", zorder=2)  # c(s) over the grid
        (self.point,) = ax_plane.plot([], [], "k*", ms=14, zorder=4)
        ax_plane.set(xlim=(-0.6, 3.0), ylim=(-2.5, 0.7), aspect="equal", title=TEXT("context_title"))
        self.lines = [self.ax_curve.plot([], [], color=COLORS[j], lw=2, label=TOKENS[j])[0] for j in range(3)]
        self.marker = self.ax_curve.axvline(0, color="k", lw=1)
        self.ax_curve.set(xlabel=TEXT("state"), ylabel="α_j(s)", xlim=S_RANGE, ylim=(0, 1.02))
        self.ax_curve.legend(loc="center left", frameon=False, fontsize="small")
        self.ax_curve.grid(alpha=0.3)
        self.set_curves(curve, title)

    def set_curves(self, curve, title: str | None = None) -> None:
        """Draw the weight curves and the context trace of ``curve`` (a read over a grid of states)."""
        for j, line in enumerate(self.lines):
            line.set_data(curve.s, curve.weights[:, j])
        self.trace.set_data(curve.context[:, 0], curve.context[:, 1])
        self.ax_curve.set_title(TEXT("curves_panel") if title is None else title)

    def update(self, read):
        """Move the bars, the context point and the marker to ``read`` (one state); return ``read``."""
        for bar, label, w in zip(self.bars, self.bar_labels, read.weights, strict=True):
            bar.set_height(w)
            label.set_y(w + 0.01)
            label.set_text(f"{w:.4f}")
        self.point.set_data([read.context[0]], [read.context[1]])
        s = float(read.s)
        self.marker.set_xdata([s, s])
        return read

    def moving_artists(self) -> list:
        """The artists that :meth:`update` changes: bars, their value labels, the context point, the marker."""
        return [*self.bars, *self.bar_labels, self.point, self.marker]

    def alt_text(self, read) -> str:
        """A description of what the three panels show for ``read``, for screen readers."""
        w, c = read.weights, read.context
        return TEXT("alt", s=float(read.s), w0=w[0], w1=w[1], w2=w[2], c0=c[0], c1=c[1])
