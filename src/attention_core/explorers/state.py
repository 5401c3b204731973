"""Interactive explorers for the worked example (lesson 06). Each builder returns one ipywidgets container.

State lives in the returned widget (its controls and a per-widget figure), never in module globals. They need
a running kernel (``make lab``). The static website has none: its build replaces each stored widget with a
note and the page's live explorer (``book/_assets/ae-explorers.js``), which computes the same read in the
browser from :mod:`attention_core.explorers.site`.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from ..example import S_RANGE, S_STEP, TOKENS
from ..figures.display import BlitRenderer, img_tag
from ..figures.state import StateReadFigure


def _readout(read) -> str:
    rows = "".join(
        f"<tr><td>{token}</td><td>{read.scores[j]:.4f}</td><td>{read.weights[j]:.4f}</td></tr>"
        for j, token in enumerate(TOKENS)
    )
    c = read.context
    return (
        f'<table class="ae-readout"><caption>Read at s = {float(read.s):.2f}</caption>'
        f"<tr><th>position</th><th>score e_j</th><th>weight α_j</th></tr>{rows}</table>"
        f"<p>context c = ({c[0]:.6f}, {c[1]:.6f})</p>"
    )


def state_slider(s: float, **layout) -> widgets.FloatSlider:
    """The slider for the reading state ``s`` used by every notebook explorer of the worked example."""
    return widgets.FloatSlider(
        value=s,
        min=S_RANGE[0],
        max=S_RANGE[1],
        step=S_STEP,
        description="state s",
        continuous_update=True,
        readout_format=".2f",
        **layout,
    )


class StateExplorer(widgets.VBox):
    """A slider for the reading state ``s`` that redraws the weights, the context point and the curve marker.

    ``explorer.set_state(s)`` does what dragging the slider does; ``explorer.read`` is the last read drawn.
    """

    def __init__(self, s: float = -1.0, nonlinearity=np.tanh):
        self.slider = state_slider(s, layout=widgets.Layout(width="28em"))
        self.figure = StateReadFigure(s, nonlinearity=nonlinearity)
        self.renderer = BlitRenderer(self.figure.fig, self.figure.moving_artists(), dpi=80)
        self.image = widgets.HTML()  # an <img> with alt text; an ipywidgets Image cannot carry alt text
        self.table = widgets.HTML()
        super().__init__([self.slider, self.image, self.table])
        self.slider.observe(self._on_change, names="value")
        self.set_state(s)

    def _on_change(self, change):
        self.set_state(change["new"])

    def set_state(self, s: float):
        """Redraw for state ``s`` (also moves the slider) and return the read."""
        if self.slider.value != s:
            self.slider.value = s  # triggers _on_change, which redraws
            return self.read
        self.read = self.figure.update(s)
        self.image.value = img_tag(self.renderer.png(), self.figure.alt_text(self.read))
        self.table.value = _readout(self.read)
        return self.read


def state_explorer(s: float = -1.0) -> StateExplorer:
    """The lesson-06 explorer: drag ``s`` and watch the same three annotations be read differently."""
    return StateExplorer(s)
