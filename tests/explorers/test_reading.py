"""Smoke tests: the lesson 01-04 figures build, and the widgets build and redraw when a control changes."""

import numpy as np
from matplotlib.figure import Figure

from attention_core import H_EXAMPLE, TOKENS
from attention_core.explorers.reading import question_explorer, score_triangle_explorer
from attention_core.figures.reading import (
    TriangleRead,
    WeightBars,
    plot_architecture_sketch,
    plot_direction_halves,
    plot_perturbation_trace,
    plot_soft_vs_hard,
    plot_versus_length,
    plot_weight_panels,
)
from tests.helpers import has_cjk


def test_figures_build():
    figs = [
        plot_weight_panels([("a", ["x", "y"], np.array([0.3, 0.7])), ("b", ["x"], np.array([1.0]))], "t"),
        plot_perturbation_trace(["a", "b", "c"], np.array([1.0, 0.5, 0.2]), "t"),
        plot_direction_halves(["a", "b", "c"], np.zeros(3), np.ones(3), 1, "t"),
        plot_versus_length([1, 2, 3], {"a": np.arange(3), "b": np.ones(3)}, "y", "t", logy=True),
        plot_architecture_sketch(),
        plot_soft_vs_hard(np.linspace(0, 1, 5), np.arange(5), np.ones(5), "x", "y", "t"),
        TriangleRead(H_EXAMPLE, TOKENS, np.ones(3) / 3, H_EXAMPLE.mean(0)).fig,
    ]
    assert all(isinstance(f, Figure) and f.axes for f in figs)


def test_weight_bars_update_in_place_and_on_new_tokens():
    wb = WeightBars(["a", "b"], [0.5, 0.5], "t")
    wb.update(["a", "b"], [0.2, 0.8], "u")
    assert wb.bars[1].get_height() == 0.8
    wb.update(["a", "b", "c"], [0.2, 0.3, 0.5], "v")
    assert len(wb.bars) == 3


def test_question_explorer_redraws():
    w = question_explorer()
    png, text = w.image.value, w.readout.value
    assert w.question.description and w.sentence.description
    w.question.value = w.question.options[1]
    assert w.image.value != png and w.readout.value != text
    assert 'alt="Bar chart of the attention weight' in w.image.value
    w.sentence.value = w.sentence.options[1]
    assert "11 positions" in w.readout.value


def test_triangle_explorer_redraws_and_is_independent():
    a, b = score_triangle_explorer(), score_triangle_explorer()
    png = a.image.value
    assert all(s.description for s in a.sliders)
    a.sliders[0].value = 2.0
    assert a.image.value != png and "0.7870" in a.readout.value
    assert 'alt="Bars of the weights 0.7870' in a.image.value
    assert b.sliders[0].value == 0.0 and "0.3333" in b.readout.value


def test_the_lesson_04_explorer_reads_the_same_triangle_as_the_website():
    from attention_core.explorers.reading import score_triangle_explorer
    from attention_core.explorers.site import site_parameters

    site_H = np.asarray(site_parameters()["score"]["H"])
    np.testing.assert_array_equal(score_triangle_explorer().H, site_H)
    assert np.linalg.matrix_rank(site_H[1:] - site_H[0]) == 2  # a real triangle, not three points on a line


def test_the_question_explorer_follows_the_edition():
    from attention_core.explorers.reading import question_explorer
    from attention_core.lang import language
    from attention_core.toy_sentences import FELIX, FELIX_ZH

    english = question_explorer()
    assert english.sentence.value == FELIX.text and english.question.description == "Question"
    with language("zh"):
        chinese = question_explorer()
    assert chinese.sentence.value == FELIX_ZH.text and chinese.question.description == "问题"
    assert all(has_cjk(name) for name in chinese.question.options)
    assert "会议室" in chinese.readout.value or "蓝色" in chinese.readout.value  # the Chinese tokens are read
    from attention_core.toy_sentences import FELIX_FR

    with language("fr"):
        french = question_explorer()
    assert french.sentence.value == FELIX_FR.text  # the French edition's own sentence
    assert "bureau" in french.readout.value or "bleu" in french.readout.value
