"""Interactive explorer for lesson 05 (*How early attention computes a match*): the tanh ablation.

The builder wires ipywidgets controls to the math (:func:`attention_core.worked_example`) and to a
:class:`~attention_core.figures.scoring.StateWeightsPlot`. All state lives in the explorer object that the
builder creates; the module holds no mutable globals.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from ..example import S_RANGE, TOKENS, worked_example
from ..figures.display import figure_png, img_tag
from ..figures.scoring import StateWeightsPlot
from .state import state_slider

_GRID_POINTS = 1001  # states on the curve, s in S_RANGE


class _AblationExplorer:
    """State of one explorer: precomputed curves for both scorers, the figure, and the controls."""

    def __init__(self, s: float):
        self.grid = np.linspace(*S_RANGE, _GRID_POINTS)  # (N,)
        self.curves = {
            True: worked_example(self.grid).weights,  # (N, 3) with tanh
            False: worked_example(self.grid, nonlinearity=None).weights,  # (N, 3) tanh removed
        }
        self.slider = state_slider(s, style={"description_width": "initial"})
        self.switch = widgets.Checkbox(value=True, description="tanh in the scorer", indent=False)
        read = worked_example(s)
        self.plot = StateWeightsPlot(self.grid, self.curves[True], s, read.weights, TOKENS, self._title(True))
        self.image = widgets.HTML(value=self._frame(s, True, read))  # an <img> with alt text
        self.readout = widgets.HTML(value=self._readout(s, True, read))
        self.slider.observe(self._redraw, names="value")
        self.switch.observe(self._redraw, names="value")
        self.box = widgets.VBox([widgets.HBox([self.slider, self.switch]), self.image, self.readout])

    @staticmethod
    def _title(with_tanh: bool) -> str:
        return "additive scorer with tanh" if with_tanh else "tanh removed (linear scorer)"

    @staticmethod
    def _readout(s: float, with_tanh: bool, read) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(t)}</td><td>{e:.4f}</td><td>{a:.4f}</td></tr>"
            for t, e, a in zip(TOKENS, read.scores, read.weights, strict=True)
        )
        c1, c2 = read.context
        return (
            f"<p>s = {s:.2f}, {'with' if with_tanh else 'without'} tanh</p>"
            "<table><thead><tr><th>position</th><th>score e_j</th><th>weight α_j</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><p>context c = ({c1:.4f}, {c2:.4f})</p>"
        )

    def _frame(self, s: float, with_tanh: bool, read) -> str:
        weights = ", ".join(f"{t} {a:.4f}" for t, a in zip(TOKENS, read.weights, strict=True))
        shape = "move with s" if with_tanh else "are flat: the weights do not depend on s"
        alt = (
            f"At s = {s:.2f}, {'with' if with_tanh else 'without'} tanh: bars of the weights {weights}; beside "
            f"them the three weight curves over s from -4 to 4, which {shape}, with a marker at s."
        )
        return img_tag(figure_png(self.plot.fig), alt)

    def _redraw(self, _change=None) -> None:
        s, with_tanh = float(self.slider.value), bool(self.switch.value)
        read = worked_example(s, nonlinearity=np.tanh if with_tanh else None)
        self.plot.update(s, read.weights, curves=self.curves[with_tanh], title=self._title(with_tanh))
        self.image.value = self._frame(s, with_tanh, read)
        self.readout.value = self._readout(s, with_tanh, read)


def ablation_explorer(s: float = -1.0) -> widgets.VBox:
    """Slider for the state ``s`` and a tanh on/off switch over the worked example of lesson 06.

    Shows the three weights at ``s`` (bars with values) and the weight curves over ``s`` in [-4, 4] with a
    marker at the current state. With tanh the curves move; without it they are flat.
    """
    explorer = _AblationExplorer(float(s))
    box = explorer.box
    box.explorer = explorer  # keep the state reachable from the widget (and from tests)
    return box
