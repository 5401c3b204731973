"""The exercise self-checks accept right answers and explain wrong ones specifically."""

import numpy as np
import pytest

from attention_core import H_EXAMPLE, attend
from attention_core.checks.base import CheckResult
from attention_core.checks.reading import (
    check_context,
    check_query_focus,
    check_rnn_cell,
    check_softmax,
    check_stored_floats,
)
from attention_core.toy_sentences import feature_vector


def good_softmax(e):
    e = np.asarray(e, dtype=float)
    z = np.exp(e - e.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def test_softmax_right():
    r = check_softmax(good_softmax)
    assert r.ok and repr(r).startswith("✓")


def test_softmax_naive_overflow_named():
    r = check_softmax(lambda e: np.exp(e) / np.exp(e).sum(axis=-1, keepdims=True))
    assert not r.ok
    assert "[1000, 1001] contain nan" in r.message and "subtract the maximum" in r.message


def test_softmax_global_normalisation_named():
    r = check_softmax(lambda e: np.exp(e - e.max()) / np.exp(e - e.max()).sum())
    assert not r.ok and "each row" in r.message


def test_softmax_missing_normalisation_and_crash_and_shape():
    r = check_softmax(lambda e: np.exp(e - e.max(axis=-1, keepdims=True)))
    assert "sum to" in r.message
    r = check_softmax(lambda e: 1 / 0)
    assert "ZeroDivisionError" in r.message
    r = check_softmax(lambda e: np.array([1.0]))
    assert "shape" in r.message
    assert not check_softmax("softmax").ok


def test_context_right_and_wrong():
    e = np.array([0.5, -1.0, 2.0])
    _, c = attend(e, H_EXAMPLE)
    assert check_context(c, e).ok
    assert "raw scores" in check_context(e @ H_EXAMPLE, e).message
    assert "plain average" in check_context(H_EXAMPLE.mean(axis=0), e).message
    assert "hard read" in check_context(H_EXAMPLE[2], e).message
    assert "weights instead" in check_context(np.ones(3), e).message
    assert "away from" in check_context(np.zeros(2), e).message


def test_rnn_cell_right_and_wrong():
    assert check_rnn_cell(lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h + b)).ok
    cases = {
        "pre-activation": lambda x, h, Wx, Wh, b: Wx @ x + Wh @ h + b,
        "ignores h_prev": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + b),
        "bias": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h),
        "transposed": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh.T @ h + b),
        "failed": lambda x, h, Wx, Wh, b: np.tanh(Wx.T @ x),
    }
    for words, fn in cases.items():
        r = check_rnn_cell(fn)
        assert not r.ok and words in r.message, (words, r)


def test_stored_floats_right_and_wrong():
    assert check_stored_floats(640, T=40, d_dir=8).ok
    assert "one direction" in check_stored_floats(320, 40, 8).message
    assert "one annotation" in check_stored_floats(16, 40, 8).message
    assert "fixed summary" in check_stored_floats(8, 40, 8).message
    assert not check_stored_floats("many", 40, 8).ok


def test_query_focus_right_and_wrong():
    assert check_query_focus(feature_vector(time=3.0)).ok
    r = check_query_focus(feature_vector(time=1.0))
    assert not r.ok and "spread out" in r.message
    r = check_query_focus(feature_vector(place=3.0))
    assert "highest weight goes to 'meeting room'" in r.message
    assert not check_query_focus(np.ones(2)).ok


def test_several_problems_are_listed():
    r = check_softmax(lambda e: np.exp(e) / np.exp(e).sum())
    assert isinstance(r, CheckResult) and not r.ok
    assert r.message.startswith("3 problems:") and r.message.count("\n- ") == 3


def test_negation_focus_right_and_wrong():
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import QUERIES, feature_vector

    where = QUERIES["where was it left?"]
    right = check_negation_focus(where + feature_vector(negation=3.0))
    assert right.ok and "0.355" in right.message  # the tie: 'not' and 'meeting room' both at 0.355
    assert check_negation_focus(where + feature_vector(negation=5.0)).ok
    none = check_negation_focus(where)
    assert not none.ok and "positive entry" in none.message and "0.027" in none.message
    weak = check_negation_focus(where + feature_vector(negation=1.0))
    assert not weak.ok and "raise" in weak.message
    assert not check_negation_focus([1.0, 2.0]).ok  # wrong length: reported, not raised


def test_moved_states_right_and_wrong():
    from attention_core.checks.reading import check_moved_states

    assert check_moved_states([12], changed=12, T=12).ok
    assert check_moved_states([3, 4, 5], changed=3, T=5).ok
    assert "[1, 2] have not read x_3" in check_moved_states([1, 2, 3], changed=3, T=5).message
    assert "moves too" in check_moved_states([4, 5], changed=3, T=5).message
    wrong = check_moved_states(list(range(1, 13)), changed=12, T=12)
    assert not wrong.ok and "have not read x_12" in wrong.message
    assert "moves too" in check_moved_states([], changed=12, T=12).message
    assert "[4, 5] have read x_3" in check_moved_states([3], changed=3, T=5).message
    with pytest.raises(ValueError, match="between 1 and T"):
        check_moved_states([0, 13], changed=12, T=12)
    with pytest.raises(TypeError, match="list of positions"):
        check_moved_states("all", changed=12, T=12)


def test_moved_halves_right_and_wrong():
    from attention_core.checks.reading import check_moved_halves

    assert check_moved_halves([1, 2, 3, 4, 5, 6], [1], changed=1, T=6).ok
    assert check_moved_halves([5, 6], [1, 2, 3, 4, 5], changed=5, T=6).ok
    swapped = check_moved_halves([1], [1, 2, 3, 4, 5, 6], changed=1, T=6)
    assert not swapped.ok and "2 problems" in swapped.message and "other direction" in swapped.message
    off_by_one = check_moved_halves([2, 3, 4, 5, 6], [1], changed=1, T=6)
    assert not off_by_one.ok and "moves too" in off_by_one.message and "forward" in off_by_one.message
