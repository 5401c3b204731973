"""The lesson 01-04 figures speak the reader's language: Chinese under ``language("zh")``, English unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import H_EXAMPLE, TOKENS
from attention_core.figures.reading import (
    TriangleRead,
    WeightBars,
    feature_label,
    plot_architecture_sketch,
    plot_direction_halves,
    plot_perturbation_trace,
    plot_soft_vs_hard,
    plot_versus_length,
)
from attention_core.lang import language
from attention_core.toy_sentences import FEATURES


def figures():
    """Each figure with the text it draws itself (the callers' titles here are neutral)."""
    return [
        WeightBars(["a", "b"], [0.5, 0.5], "t").fig,
        plot_perturbation_trace(["a", "b", "c"], np.array([1.0, 0.5, 0.2]), "t"),
        plot_direction_halves(["a", "b", "c"], np.zeros(3), np.ones(3), 1, "t"),
        plot_versus_length([1, 2, 3], {"a": np.arange(3)}, "y", "t"),
        plot_architecture_sketch(),
        TriangleRead(H_EXAMPLE, TOKENS, np.ones(3) / 3, H_EXAMPLE.mean(0)).fig,
        plot_soft_vs_hard(np.linspace(0, 1, 5), np.arange(5), np.ones(5), "x", "y", "t"),
    ]


def test_every_figure_draws_chinese_under_zh_with_every_glyph(figtext):
    with language("zh"):
        figs = figures()
    for fig in figs:
        assert any(figtext.has_cjk(t) for t in figtext.texts(fig)), figtext.texts(fig)
        figtext.render_every_glyph(fig)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: WeightBars(["a"], [1.0], "t").fig, ["weight α_j"]),
        (lambda: plot_perturbation_trace(["a"], [1.0], "t"), ["position j (token)", "‖h_j − h′_j‖"]),
        (
            lambda: plot_direction_halves(["a"], [0.0], [1.0], 0, "t"),
            ["forward half  →h_j", "backward half  ←h_j", "norm of the change"],
        ),
        (lambda: plot_versus_length([1], {"a": [1.0]}, "y", "t"), ["source length T"]),
        (
            plot_architecture_sketch,
            [
                "fixed summary: c = h_T for every step",
                "re-reading: a new c_t at every step",
                "one vector, fixed width;\nthe source positions\nare not revisited",
                "weights from $s_{t-1}$\nover every $h_j$",
                "Architecture sketch, not a trained alignment",
                "我",
            ],
        ),
        (
            lambda: TriangleRead(H_EXAMPLE, TOKENS, np.ones(3) / 3, H_EXAMPLE.mean(0)).fig,
            [
                "weights α_j = softmax(e)_j",
                "component 1",
                "component 2",
                "c = Σ α_j h_j (★) stays in the hull of the h_j",
            ],
        ),
        (
            lambda: plot_soft_vs_hard([0, 1], [0, 1], [0, 1], "x", "y", "t"),
            ["soft read (softmax weights)", "hard read (argmax)"],
        ),
    ],
)
def test_english_text_is_unchanged(make, expected, figtext):
    drawn = figtext.texts(make())
    assert all(text in drawn for text in expected), drawn
    data = {"我", "喜欢", "猫"}  # the sketch's Chinese target sentence is data, the same in both editions
    assert not any(figtext.has_cjk(t) for t in drawn if t not in data)


def test_the_chinese_sketch_keeps_its_symbols_and_its_tokens(figtext):
    with language("zh"):
        drawn = figtext.texts(plot_architecture_sketch())
    assert "固定摘要：每一步都用 c = h_T" in drawn and "由 sₜ₋₁ 决定\n每个 hⱼ 的权重" in drawn
    assert {"我", "喜欢", "猫", "I", "like", "cats"} <= set(drawn)  # tokens are data, not translated


@pytest.mark.parametrize("H", [np.ones((3, 3)), np.ones(3), [[1.0, 2.0], [3.0]]])
def test_triangle_read_names_H(H):
    with pytest.raises(
        (ValueError, TypeError), match=r"^H must have shape \(T, 2\) to be drawn in the plane|^H must be"
    ):
        TriangleRead(H, TOKENS, np.ones(3) / 3, np.zeros(2))


def test_lesson_01s_features_are_named_in_the_readers_language():
    assert [feature_label(f) for f in FEATURES] == list(FEATURES)  # English: the code's own names
    with language("zh"):
        chinese = [feature_label(f) for f in FEATURES]
    assert chinese == ["人物", "动作", "物品", "颜色", "地点", "时间", "否定"]
    with pytest.raises(ValueError, match="feature must be one of"):
        feature_label("size")
