"""The one state explorer of the worked example (lessons 05 and 06): slider, optional tanh switch, readout."""

from __future__ import annotations

import numpy as np

from attention_core import worked_example
from attention_core.explorers.state import TEXT, state_explorer
from attention_core.lang import language
from tests.helpers import has_cjk


def test_state_explorer_follows_its_slider_and_owns_its_state():
    a, b = state_explorer(-1.0), state_explorer(-1.0)
    assert a.slider.description == "state s"  # the accessible name
    assert "0.5414" in a.table.value and "(1.392334, -0.607666)" in a.table.value
    a.slider.value = 1.0  # what dragging does
    assert "(0.607666, -1.392334)" in a.table.value
    assert 'alt="At s = 1: bars of height 0.1491' in a.image.value
    np.testing.assert_allclose(a.read.weights, worked_example(1.0).weights)
    assert b.slider.value == -1.0 and "0.5414" in b.table.value.split("<tr>")[2]  # b did not move
    a.set_state(0.5)
    assert a.slider.value == 0.5 and float(a.read.s) == 0.5


def test_lesson_06_shows_no_switch_and_lesson_05_does():
    assert state_explorer(-1.0).children[0].description == "state s"  # the slider alone
    with_switch = state_explorer(-1.0, tanh_switch=True)
    slider, switch = with_switch.children[0].children
    assert switch.description == "tanh in the scorer" and switch.value is True


def test_the_tanh_switch_flattens_the_weights_and_the_curves():
    explorer = state_explorer(2.25, tanh_switch=True)
    with_tanh = explorer.read.weights.copy()
    explorer.set_tanh(False)  # what unticking does
    flat = worked_example(2.25, nonlinearity=None).weights
    np.testing.assert_allclose(explorer.read.weights, flat)
    assert not np.allclose(with_tanh, flat)
    assert "s = 2.25, tanh removed (linear scorer)" in explorer.table.value  # the readout says what is drawn
    assert explorer.figure.ax_curve.get_title() == "weights over s: flat without tanh"
    curve = explorer.figure.lines[0].get_ydata()
    assert np.ptp(curve) < 1e-12  # without tanh the weight of I does not depend on s
    explorer.set_state(-1.0)
    np.testing.assert_allclose(explorer.read.weights, worked_example(-1.0, nonlinearity=None).weights)
    explorer.set_tanh(True)
    np.testing.assert_allclose(explorer.read.weights, worked_example(-1.0).weights)


def test_the_explorer_speaks_chinese_in_the_chinese_edition():
    with language("zh"):
        explorer = state_explorer(-1.0, tanh_switch=True)
        explorer.set_tanh(False)
    slider, switch = explorer.children[0].children
    assert slider.description == TEXT.text("slider", "zh") and switch.description == TEXT.text("switch", "zh")
    assert TEXT.text("without", "zh") in explorer.table.value and "上下文向量 c" in explorer.table.value
    assert has_cjk(switch.description) and has_cjk(TEXT.text("without", "zh"))
