"""The state explorer of the worked example (lessons 05 and 06): one ipywidgets container, one builder.

A slider for the reading state ``s``, and on request (lesson 05) a switch that takes the tanh out of the
scorer. The explorer computes each read with :func:`attention_core.worked_example` and hands it to
:class:`~attention_core.figures.state.StateReadFigure`, which only draws. State lives in the returned widget,
never in module globals. It needs a running kernel (``make lab``); the static website replaces the stored widget
with its live twin (``book/_assets/ae-explorers.js``), which computes the same read in the browser from the
parameters of :mod:`attention_core.explorers.site`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from ..example import S_RANGE, S_STEP, TOKENS, worked_example
from ..figures.display import BlitRenderer, img_tag
from ..figures.state import StateReadFigure
from ..lang import Messages
from .reading import LABEL, readout_table
from .twin import Twin

TEXT = Messages(
    __name__,
    {
        "slider": "state s",
        "switch": "tanh in the scorer",
        "caption": "Read at s = {s:.2f}, {mode}",
        "with": "with tanh",
        "without": "tanh removed (linear scorer)",
        "position": "position",
        "score": "score e_j",
        "weight": "weight α_j",
        "context": "context c = ({c0:.6f}, {c1:.6f})",
        "curves_with": "weights over s (with tanh)",
        "curves_without": "weights over s: flat without tanh",
    },
)
_GRID_POINTS = 401  # states on each precomputed curve


def state_slider(s: float, **layout) -> widgets.FloatSlider:
    """The slider for the reading state ``s`` used by every notebook explorer of the worked example."""
    return widgets.FloatSlider(
        value=s,
        min=S_RANGE[0],
        max=S_RANGE[1],
        step=S_STEP,
        description=TEXT("slider"),
        continuous_update=True,
        readout_format=".2f",
        style=LABEL,
        **layout,
    )


def _readout(read, with_tanh: bool) -> str:
    rows = [(token, f"{read.scores[j]:.4f}", f"{read.weights[j]:.4f}") for j, token in enumerate(TOKENS)]
    c = read.context
    mode = TEXT("with" if with_tanh else "without")
    header = (TEXT("position"), TEXT("score"), TEXT("weight"))
    return readout_table(header, rows, TEXT("caption", s=float(read.s), mode=mode)) + (
        f"<p>{html.escape(TEXT('context', c0=c[0], c1=c[1]))}</p>"
    )


class StateExplorer(Twin, widgets.VBox):
    """A slider for ``s`` (and, with ``tanh_switch``, a tanh on/off switch) over the worked example.

    Every change computes the read with the core and redraws the bars, the context point and the curve marker.
    ``explorer.set_state(s)`` does what dragging the slider does, ``explorer.set_tanh(flag)`` what the switch
    does; ``explorer.read`` is the last read drawn.
    """

    twin_kind = "state"

    def __init__(self, s: float = -1.0, tanh_switch: bool = False):
        self.start, self.tanh_switch = float(s), bool(tanh_switch)
        grid = np.linspace(*S_RANGE, _GRID_POINTS)  # (N,)
        self.curves = {True: worked_example(grid), False: worked_example(grid, nonlinearity=None)}  # one call each
        self.slider = state_slider(s, layout=widgets.Layout(width="28em"))
        self.switch = widgets.Checkbox(value=True, description=TEXT("switch"), indent=False)
        self.figure = StateReadFigure(self.curves[True], TEXT("curves_with"))
        self.renderer = BlitRenderer(self.figure.fig, self.figure.moving_artists(), dpi=80)
        self.image = widgets.HTML()  # an <img> with alt text; an ipywidgets Image cannot carry alt text
        self.table = widgets.HTML()
        controls = widgets.HBox([self.slider, self.switch]) if tanh_switch else self.slider
        super().__init__([controls, self.image, self.table])
        self.slider.observe(lambda change: self._draw(), names="value")
        self.switch.observe(lambda change: self._switch_curves(), names="value")
        self._draw()

    def twin_args(self) -> dict:
        """The first state and whether the tanh switch is shown: the twin starts where this one does."""
        return {"s": self.start, "tanh_switch": self.tanh_switch}

    @property
    def with_tanh(self) -> bool:
        return bool(self.switch.value)

    def _switch_curves(self) -> None:
        title = TEXT("curves_with" if self.with_tanh else "curves_without")
        self.figure.set_curves(self.curves[self.with_tanh], title)
        self.renderer = BlitRenderer(self.figure.fig, self.figure.moving_artists(), dpi=80)  # new background
        self._draw()

    def _draw(self):
        s = float(self.slider.value)
        self.read = worked_example(s, nonlinearity=np.tanh if self.with_tanh else None)
        self.figure.update(self.read)
        self.image.value = img_tag(self.renderer.png(), self.figure.alt_text(self.read))
        self.table.value = _readout(self.read, self.with_tanh)
        return self.read

    def set_state(self, s: float):
        """Move the slider to ``s`` (which redraws) and return the read."""
        if self.slider.value != s:
            self.slider.value = s  # the observer redraws
            return self.read
        return self._draw()

    def set_tanh(self, on: bool):
        """Turn the scorer's tanh on or off (which redraws) and return the read."""
        self.switch.value = bool(on)
        return self.read


def state_explorer(s: float = -1.0, tanh_switch: bool = False) -> StateExplorer:
    """The worked example's explorer: drag ``s``; with ``tanh_switch`` (lesson 05) also take the tanh out."""
    return StateExplorer(s, tanh_switch=tanh_switch)
