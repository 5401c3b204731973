"""What the figure tests share: the text a figure draws, and a render that proves every glyph exists."""

from __future__ import annotations

import logging
import warnings
from types import SimpleNamespace

import pytest
from matplotlib.text import Text

from attention_core.figures.display import figure_png
from tests.helpers import has_cjk


def _texts(fig) -> list[str]:
    """Every string the figure draws: titles, axis labels, tick labels, legends, annotations."""
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


@pytest.fixture
def figtext(caplog):
    """``figtext.texts(fig)``, ``figtext.has_cjk(s)``, and ``figtext.render_every_glyph(fig)``, which renders the figure
    and fails if matplotlib reports a missing glyph (a CJK character drawn as an empty box)."""

    def render_every_glyph(fig) -> bytes:
        with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, logger="matplotlib"):
            warnings.simplefilter("always")
            png = figure_png(fig)
        assert not [w for w in caught if "missing from font" in str(w.message)]
        assert "does not have a glyph" not in caplog.text  # mathtext ($...$) has no CJK glyphs
        return png

    return SimpleNamespace(texts=_texts, has_cjk=has_cjk, render_every_glyph=render_every_glyph)
