"""The lesson 05 and 08 figures speak the reader's language: Chinese under ``language("zh")``, English unchanged."""

from __future__ import annotations

import logging
import warnings

import numpy as np
from matplotlib.text import Text

from attention_core import TOKENS, worked_example
from attention_core.figures.display import figure_png
from attention_core.figures.scoring import (
    ablation_curves_figure,
    family_weights_figure,
    weights_heatmap_figure,
)
from attention_core.lang import language

GRID = np.linspace(-4, 4, 11)


def texts(fig) -> list[str]:
    """Every string the figure draws: titles, axis labels, tick labels, legends, annotations."""
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def figures():
    flat = worked_example(GRID, nonlinearity=None).weights  # every curve coincides: the note is drawn
    return [
        ablation_curves_figure(GRID, worked_example(GRID).weights, flat, TOKENS),
        family_weights_figure({"dot": np.ones(3) / 3, "additive": np.ones(3) / 3}, ["1", "2", "3"]),
        weights_heatmap_figure([(np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None], "t")], ["a", "b", "c"]),
    ]


def test_every_figure_draws_chinese_under_zh_with_every_glyph(caplog):
    with language("zh"):
        figs = figures()
    for fig in figs:
        drawn = texts(fig)
        assert any(has_cjk(t) for t in drawn), drawn
        assert not any("$" in t for t in drawn if has_cjk(t))  # mathtext would draw CJK as empty boxes
        with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, logger="matplotlib"):
            warnings.simplefilter("always")
            figure_png(fig)
        assert not [w for w in caught if "missing from font" in str(w.message)]
        assert "does not have a glyph" not in caplog.text
    assert "所有位置的曲线重合" in texts(figs[0]) and "权重 αᵢⱼ" in texts(figs[2])


def test_english_text_is_unchanged():
    ablation, family, heatmap = (texts(fig) for fig in figures())
    axis = "reading state s (a chosen value, not a time step)"
    assert {"with tanh", "tanh removed", axis, r"weight $\alpha_j(s)$", "the lines of all positions coincide"} <= set(
        ablation
    )
    assert r"weight $\alpha_j$" in family
    assert {"position read (j)", "position reading (i)", r"weight $\alpha_{ij}$"} <= set(heatmap)
    assert not any(has_cjk(t) for t in ablation + family + heatmap)
