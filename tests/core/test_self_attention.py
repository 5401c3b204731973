"""Tests for attention_core.self_attention against an explicit per-position loop and the mask's meaning."""

import numpy as np
import pytest

from attention_core.self_attention import causal_mask, self_attention


def _inputs(seed=0, T=5, d_x=3, d_k=2, d_v=4):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(T, d_x)),
        rng.normal(size=(d_k, d_x)),
        rng.normal(size=(d_k, d_x)),
        rng.normal(size=(d_v, d_x)),
    )


def _reference(X, W_q, W_k, W_v, causal):
    """One position at a time, column vectors, no vectorisation: the independent reference."""
    T = X.shape[0]
    out = np.zeros((T, W_v.shape[0]))
    weights = np.zeros((T, T))
    for i in range(T):
        q = W_q @ X[i]
        visible = range(i + 1) if causal else range(T)
        e = np.array([q @ (W_k @ X[j]) for j in visible])
        a = np.exp(e - e.max())
        a /= a.sum()
        for a_j, j in zip(a, visible, strict=True):
            weights[i, j] = a_j
            out[i] += a_j * (W_v @ X[j])
    return weights, out


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("causal", [False, True])
def test_matches_per_position_reference(seed, causal):
    X, W_q, W_k, W_v = _inputs(seed)
    read = self_attention(X, W_q, W_k, W_v, mask=causal_mask(len(X)) if causal else None)
    weights, out = _reference(X, W_q, W_k, W_v, causal)
    np.testing.assert_allclose(read.weights, weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(read.output, out, rtol=1e-12, atol=1e-12)
    assert read.scores.shape == (5, 5) and read.queries.shape == (5, 2) and read.values.shape == (5, 4)


def test_causal_mask_shape_and_content():
    m = causal_mask(3)
    assert m.dtype == bool
    np.testing.assert_array_equal(m, [[True, False, False], [True, True, False], [True, True, True]])
    np.testing.assert_array_equal(causal_mask(1), [[True]])


def test_causal_read_ignores_the_future():
    X, W_q, W_k, W_v = _inputs(1)
    mask = causal_mask(len(X))
    before = self_attention(X, W_q, W_k, W_v, mask=mask)
    X2 = X.copy()
    X2[-1] += 10.0  # change only the last position
    after = self_attention(X2, W_q, W_k, W_v, mask=mask)
    np.testing.assert_array_equal(before.output[:-1], after.output[:-1])
    assert np.all(before.weights[np.triu_indices(len(X), k=1)] == 0.0)
    np.testing.assert_allclose(before.weights.sum(axis=1), 1.0)
    np.testing.assert_allclose(before.output[0], before.values[0])  # the first position can only read itself


def test_values_do_not_change_weights():
    X, W_q, W_k, W_v = _inputs(2)
    a = self_attention(X, W_q, W_k, W_v)
    b = self_attention(X, W_q, W_k, 2.0 * W_v + 1.0)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert not np.allclose(a.output, b.output)


@pytest.mark.parametrize("T", [0, -1])
def test_causal_mask_rejects_empty(T):
    with pytest.raises(ValueError, match="at least 1"):
        causal_mask(T)


@pytest.mark.parametrize("T", [2.0, True, "3"])
def test_causal_mask_rejects_non_integers(T):
    with pytest.raises(TypeError, match="positive integer"):
        causal_mask(T)


def test_shape_errors_name_the_argument():
    X, W_q, W_k, W_v = _inputs(0)
    with pytest.raises(ValueError, match="W_k"):
        self_attention(X, W_q, W_k[:, :2], W_v)
    with pytest.raises(ValueError, match="same number of rows d_k"):
        self_attention(X, W_q, np.vstack([W_k, W_k]), W_v)
    with pytest.raises(ValueError, match="X must have shape"):
        self_attention(X[0], W_q, W_k, W_v)
    with pytest.raises(ValueError, match="mask must have the shape"):
        self_attention(X, W_q, W_k, W_v, mask=causal_mask(3))
    with pytest.raises(ValueError, match="NaN"):
        self_attention(np.full_like(X, np.nan), W_q, W_k, W_v)


def test_overflowing_projections_are_named():
    X = np.array([[1e200, 1e200]])
    W = np.array([[1e200, 1e200]])
    with pytest.raises(ValueError, match=r"queries, keys or values overflowed float64.*largest \|X\| = 1e\+200"):
        self_attention(X, W, W, W)


def test_overflowing_scores_are_named():
    X = np.array([[1e200], [1e200]])
    with pytest.raises(ValueError, match="dot scores overflowed float64"):
        self_attention(X, [[1e10]], [[1e10]], [[1.0]])


@pytest.mark.parametrize("dtype", [">f8", ">f4", np.float16, np.longdouble])
def test_any_real_float_dtype(dtype):
    X = np.array([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]])
    W = np.array([[1.0, 0.5], [-0.5, 0.25]])
    got = self_attention(X.astype(dtype), W.astype(dtype), W.T.astype(dtype), W.astype(dtype), mask=causal_mask(3))
    want = self_attention(X, W, W.T, W, mask=causal_mask(3))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_masked_X_is_refused():
    X, W_q, W_k, W_v = _inputs(0)
    with pytest.raises(TypeError, match="X is a numpy MaskedArray"):
        self_attention(np.ma.array(X, mask=X > 0), W_q, W_k, W_v)
