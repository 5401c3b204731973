"""The score gradient of lesson 07 against central finite differences, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import attend, attend_backward, finite_difference, score_gradient


def loss_of_scores(e, H, g):
    _, c = attend(e, H)
    return float(g @ c)  # a loss whose gradient at c is exactly g


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8), st.integers(1, 5))
def test_score_gradient_agrees_with_finite_difference(seed, T, d_h):
    rng = np.random.default_rng(seed)
    e, H, g = rng.normal(size=T), rng.normal(size=(T, d_h)), rng.normal(size=d_h)
    w, _ = attend(e, H)
    analytic = score_gradient(w, H, g)
    numeric = finite_difference(lambda x: loss_of_scores(x, H, g), e)
    scale = max(np.abs(numeric).max(), 1e-3)
    assert np.abs(analytic - numeric).max() / scale < 1e-6
    np.testing.assert_allclose(analytic.sum(), 0.0, atol=1e-12)  # a common shift changes nothing


def test_score_gradient_batched_and_dH():
    rng = np.random.default_rng(7)
    E, H, G = rng.normal(size=(4, 5)), rng.normal(size=(4, 5, 3)), rng.normal(size=(4, 3))
    W, _ = attend(E, H)
    dE, dH = attend_backward(W, H, G)
    for n in range(4):
        np.testing.assert_allclose(dE[n], score_gradient(W[n], H[n], G[n]))
        numeric = finite_difference(lambda x, n=n: float(G[n] @ attend(E[n], x)[1]), H[n])
        np.testing.assert_allclose(dH[n], numeric, rtol=1e-6, atol=1e-9)


def test_finite_difference_of_a_quadratic():
    x = np.array([1.0, -2.0, 3.0])
    np.testing.assert_allclose(finite_difference(lambda z: float(z @ z), x), 2 * x, rtol=1e-8)


@pytest.mark.parametrize(
    "weights, H, g, words",
    [
        ([0.5, 0.5], np.zeros((2, 2)), np.zeros(3), ["g", "(2,)", "(3,)"]),
        ([0.7, 0.7], np.zeros((2, 2)), np.zeros(2), ["weights", "sum to 1"]),
        ([0.5, 0.5], np.zeros((3, 2)), np.zeros(2), ["H", "T = 2"]),
        ([[0.5, 0.5]], np.zeros((2, 2)), np.zeros(2), ["g", "(1, 2)"]),
    ],
)
def test_score_gradient_bad_input(weights, H, g, words):
    with pytest.raises(ValueError) as info:
        score_gradient(weights, H, g)
    for word in words:
        assert word in str(info.value)


def test_finite_difference_bad_input():
    with pytest.raises(TypeError, match="f must be"):
        finite_difference(3.0, [1.0])
    with pytest.raises(ValueError, match="eps"):
        finite_difference(lambda z: 0.0, [1.0], eps=-1)
