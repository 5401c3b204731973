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


# ------------------------------------------------------------------------------ holes found by probing


def _square_sum(x):
    return float((x**2).sum())


@pytest.mark.parametrize(
    "layout",
    [
        lambda x: x.T.copy().T,  # transposed view (Fortran order)
        np.asfortranarray,
        lambda x: np.repeat(np.repeat(x, 2, axis=0), 2, axis=1)[::2, ::2],  # non-contiguous view
        lambda x: np.ascontiguousarray(x[::-1])[::-1],  # negative strides
        lambda x: x.astype(">f8"),
        lambda x: x.astype(np.float32),
    ],
)
def test_finite_difference_works_for_every_memory_layout(layout):
    x = np.arange(6.0).reshape(2, 3)
    xv = layout(x)
    xv.setflags(write=False)  # and it never writes into x
    np.testing.assert_allclose(finite_difference(_square_sum, xv), 2 * x, atol=1e-6)


def test_finite_difference_of_the_issue_example_is_not_zero():
    x = np.arange(6.0).reshape(2, 3).T
    np.testing.assert_allclose(finite_difference(_square_sum, x), 2 * x, atol=1e-6)


@pytest.mark.parametrize(
    "eps, error, words",
    [
        (True, TypeError, ["eps", "bool"]),
        ("1e-6", TypeError, ["eps"]),
        (1e308, ValueError, ["eps", "[1e-12, 1]", "1e+308"]),
        (1e-320, ValueError, ["eps", "[1e-12, 1]"]),
        (0.0, ValueError, ["eps"]),
        (np.nan, ValueError, ["eps"]),
    ],
)
def test_finite_difference_refuses_bad_eps(eps, error, words):
    with pytest.raises(error) as info:
        finite_difference(_square_sum, [1.0, 2.0], eps=eps)
    for word in words:
        assert word in str(info.value)


def test_finite_difference_accepts_numpy_scalar_eps():
    np.testing.assert_allclose(finite_difference(_square_sum, [1.0], eps=np.float32(1e-3)), [2.0], rtol=1e-9)
    np.testing.assert_allclose(finite_difference(_square_sum, [1.0], eps=np.float64(1e-4)), [2.0], rtol=1e-9)


def test_finite_difference_refuses_a_step_lost_next_to_large_x():
    with pytest.raises(ValueError, match="eps = 1e-12 is lost in rounding"):
        finite_difference(_square_sum, [1e6], eps=1e-12)


@pytest.mark.parametrize(
    "f, error, words",
    [
        (lambda x: float("nan"), ValueError, ["f returned nan"]),
        (lambda x: np.inf if x[0] > 1 else 0.0, ValueError, ["f returned inf"]),
        (lambda x: x * 2, TypeError, ["f must return a single number", "(2,)"]),
        (lambda x: "loss", TypeError, ["f must return a single number", "str"]),
    ],
)
def test_finite_difference_checks_what_f_returns(f, error, words):
    with pytest.raises(error) as info:
        finite_difference(f, [1.0, 2.0])
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("shift", [1e10, -3e12])
def test_score_gradient_keeps_its_digits_when_every_annotation_is_large(shift):
    rng = np.random.default_rng(11)
    e, H, g = rng.normal(size=6), rng.normal(size=(6, 3)), rng.normal(size=3)
    w, _ = attend(e, H)
    Hs = H + shift
    exact = score_gradient(w, Hs - shift, g)  # Hs - shift is exact; the gradient ignores a common shift
    np.testing.assert_allclose(score_gradient(w, Hs, g), exact, rtol=1e-9, atol=1e-12 * np.abs(exact).max())


def test_score_gradient_of_huge_annotations_is_computed_or_refused():
    np.testing.assert_allclose(score_gradient([0.5, 0.5], [[1e308, 1e308], [1e308, 1e308]], [1e10, -1e10]), 0.0)
    np.testing.assert_allclose(score_gradient([0.5, 0.5], [[1e308], [-1e308]], [1e-300]), [5e7, -5e7], rtol=1e-12)
    with pytest.raises(ValueError, match=r"score gradients dL/de overflowed float64.*largest \|H\| = 1e\+308"):
        score_gradient([0.5, 0.5], [[1e308], [-1e308]], [10.0])


def test_terms_that_cancel_inside_an_overflowing_gradient_give_the_true_value():
    # g^T (h_1 - c) = 0.5e400 - 0.5e400 = 0: was "score gradients dL/de overflowed"
    np.testing.assert_array_equal(score_gradient([0.5, 0.5], [[1e200, 1e200], [0.0, 0.0]], [1e200, -1e200]), [0, 0])
