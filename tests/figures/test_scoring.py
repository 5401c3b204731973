"""The lesson 05 and 08 figures speak the reader's language: Chinese under ``language("zh")``, English unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import TOKENS, worked_example
from attention_core.figures.scoring import (
    ablation_curves_figure,
    family_weights_figure,
    score_label,
    weights_heatmap_figure,
)
from attention_core.lang import language

GRID = np.linspace(-4, 4, 11)


def figures():
    flat = worked_example(GRID, nonlinearity=None).weights  # every curve coincides: the note is drawn
    return [
        ablation_curves_figure(GRID, worked_example(GRID).weights, flat, TOKENS),
        family_weights_figure({"dot": np.ones(3) / 3, "additive": np.ones(3) / 3}, ["1", "2", "3"]),
        weights_heatmap_figure([(np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None], "t")], ["a", "b", "c"]),
    ]


def test_every_figure_draws_chinese_under_zh_with_every_glyph(figtext):
    with language("zh"):
        figs = figures()
    for fig in figs:
        drawn = figtext.texts(fig)
        assert any(figtext.has_cjk(t) for t in drawn), drawn
        assert not any("$" in t for t in drawn if figtext.has_cjk(t))  # mathtext would draw CJK as empty boxes
        figtext.render_every_glyph(fig)
    assert "所有位置的曲线重合" in figtext.texts(figs[0]) and "权重 αᵢⱼ" in figtext.texts(figs[2])


def test_english_text_is_unchanged(figtext):
    ablation, family, heatmap = (figtext.texts(fig) for fig in figures())
    axis = "reading state s (a chosen value, not a time step)"
    assert {"with tanh", "tanh removed", axis, r"weight $\alpha_j(s)$", "the lines of all positions coincide"} <= set(
        ablation
    )
    assert r"weight $\alpha_j$" in family
    assert {"position read (j)", "position reading (i)", r"weight $\alpha_{ij}$"} <= set(heatmap)
    assert not any(figtext.has_cjk(t) for t in ablation + family + heatmap)


@pytest.mark.parametrize(
    "draw, words",
    [
        (lambda: ablation_curves_figure(GRID, np.ones((11, 2)), np.ones((11, 3)), TOKENS), ["curves_tanh", "(11, 3)"]),
        (
            lambda: ablation_curves_figure(GRID, np.ones((11, 3)), np.ones((10, 3)), TOKENS),
            ["curves_linear", "(10, 3)"],
        ),
        (lambda: ablation_curves_figure(np.ones((11, 1)), np.ones((11, 3)), np.ones((11, 3)), TOKENS), ["s_grid"]),
        (lambda: family_weights_figure({"dot": np.ones(2)}, ["1", "2", "3"]), ["weights_by_family['dot']", "(3,)"]),
        (lambda: weights_heatmap_figure([(np.ones((3, 2)), "causal")], ["a", "b", "c"]), ["'causal'", "(3, 3)"]),
    ],
)
def test_a_misshapen_input_is_named(draw, words):
    with pytest.raises(ValueError) as info:
        draw()
    for word in words:
        assert word in str(info.value)


def test_the_score_functions_are_named_in_the_readers_language():
    names = ("dot", "general", "concat", "additive")
    assert [score_label(n) for n in names] == list(names)  # English: the names the code passes
    with language("zh"):
        chinese = [score_label(n) for n in names]
    assert chinese == ["点积（dot）", "一般式（general）", "拼接（concat）", "加法式（additive）"]
    with pytest.raises(ValueError, match="score must be one of"):
        score_label("cosine")
