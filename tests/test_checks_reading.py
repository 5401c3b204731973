"""The exercise self-checks accept right answers and explain wrong ones specifically."""

import numpy as np

from attention_core import H_EXAMPLE, attend
from attention_core.checks_reading import (
    CheckResult,
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
    assert r and r.passed and "passed" in repr(r)


def test_softmax_naive_overflow_named():
    r = check_softmax(lambda e: np.exp(e) / np.exp(e).sum(axis=-1, keepdims=True))
    assert not r
    assert any("[1000, 1001] contain nan" in p and "subtract the maximum" in p for p in r.problems)


def test_softmax_global_normalisation_named():
    r = check_softmax(lambda e: np.exp(e - e.max()) / np.exp(e - e.max()).sum())
    assert not r and any("each row" in p for p in r.problems)


def test_softmax_missing_normalisation_and_crash_and_shape():
    r = check_softmax(lambda e: np.exp(e - e.max(axis=-1, keepdims=True)))
    assert any("sum to" in p for p in r.problems)
    r = check_softmax(lambda e: 1 / 0)
    assert any("ZeroDivisionError" in p for p in r.problems)
    r = check_softmax(lambda e: np.array([1.0]))
    assert any("shape" in p for p in r.problems)
    assert not check_softmax("softmax")


def test_context_right_and_wrong():
    e = np.array([0.5, -1.0, 2.0])
    _, c = attend(e, H_EXAMPLE)
    assert check_context(c, e)
    assert "raw scores" in check_context(e @ H_EXAMPLE, e).problems[0]
    assert "plain average" in check_context(H_EXAMPLE.mean(axis=0), e).problems[0]
    assert "hard read" in check_context(H_EXAMPLE[2], e).problems[0]
    assert "weights instead" in check_context(np.ones(3), e).problems[0]
    assert "away from" in check_context(np.zeros(2), e).problems[0]


def test_rnn_cell_right_and_wrong():
    assert check_rnn_cell(lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h + b))
    cases = {
        "pre-activation": lambda x, h, Wx, Wh, b: Wx @ x + Wh @ h + b,
        "ignores h_prev": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + b),
        "bias": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h),
        "transposed": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh.T @ h + b),
        "failed": lambda x, h, Wx, Wh, b: np.tanh(Wx.T @ x),
    }
    for words, fn in cases.items():
        r = check_rnn_cell(fn)
        assert not r and words in r.problems[0], (words, r)


def test_stored_floats_right_and_wrong():
    assert check_stored_floats(640, T=40, d_dir=8)
    assert "one direction" in check_stored_floats(320, 40, 8).problems[0]
    assert "one annotation" in check_stored_floats(16, 40, 8).problems[0]
    assert "fixed summary" in check_stored_floats(8, 40, 8).problems[0]
    assert not check_stored_floats("many", 40, 8)


def test_query_focus_right_and_wrong():
    assert check_query_focus(feature_vector(time=3.0))
    r = check_query_focus(feature_vector(time=1.0))
    assert not r and "spread out" in r.problems[0]
    r = check_query_focus(feature_vector(place=3.0))
    assert "highest weight goes to 'meeting room'" in r.problems[0]
    assert not check_query_focus(np.ones(2))


def test_result_repr_lists_problems():
    r = CheckResult("x", False, ("a", "b"), 2)
    assert repr(r).splitlines()[1:] == ["  - a", "  - b"]
