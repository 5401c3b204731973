"""Tests for the tanh RNN cell, the sequence runner and the bidirectional encoder."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.rnn import RNNParams, bidirectional_encode, init_rnn, rnn_cell, run_rnn


def test_cell_matches_formula():
    rng = np.random.default_rng(0)
    p = init_rnn(3, 4, seed=1)
    x, h = rng.normal(size=3), rng.normal(size=4)
    want = np.tanh(p.W_x @ x + p.W_h @ h + p.b)
    np.testing.assert_allclose(rnn_cell(x, h, p), want)


def test_cell_batches_like_single_calls():
    rng = np.random.default_rng(1)
    p = init_rnn(3, 4, seed=2)
    X, Hs = rng.normal(size=(5, 3)), rng.normal(size=(5, 4))
    batched = rnn_cell(X, Hs, p)
    for i in range(5):
        np.testing.assert_allclose(batched[i], rnn_cell(X[i], Hs[i], p))


def test_run_rnn_is_repeated_cell():
    rng = np.random.default_rng(2)
    p = init_rnn(3, 4, seed=3)
    X = rng.normal(size=(6, 3))
    states = run_rnn(X, p)
    h = np.zeros(4)
    for j in range(6):
        h = rnn_cell(X[j], h, p)
        np.testing.assert_allclose(states[j], h)


def test_run_rnn_batch_and_h0():
    rng = np.random.default_rng(3)
    p = init_rnn(2, 3, seed=4)
    X = rng.normal(size=(4, 5, 2))
    h0 = rng.normal(size=(4, 3))
    batched = run_rnn(X, p, h0=h0)
    assert batched.shape == (4, 5, 3)
    for b in range(4):
        np.testing.assert_allclose(batched[b], run_rnn(X[b], p, h0=h0[b]))


def test_reverse_reads_from_the_end():
    rng = np.random.default_rng(4)
    p = init_rnn(2, 3, seed=5)
    X = rng.normal(size=(5, 2))
    backward = run_rnn(X, p, reverse=True)
    np.testing.assert_allclose(backward[::-1], run_rnn(X[::-1], p))


def test_first_input_reaches_last_state():
    p = init_rnn(4, 6, seed=0)
    X = np.random.default_rng(5).normal(size=(8, 4))
    X2 = X.copy()
    X2[0] += 1.0
    assert np.linalg.norm(run_rnn(X, p)[-1] - run_rnn(X2, p)[-1]) > 0


def _shift(X, k):
    """The inputs with the embedding at position k moved by one in every coordinate (every row of a batch)."""
    X2 = X.copy()
    X2[..., k, :] += 1.0
    return X2


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000))
def test_bidirectional_halves_see_all_of_their_side_and_only_it(seed, halves_see_their_sides):
    """Editing x_k moves the forward halves at every position >= k and the backward halves at every position <= k."""
    f, b = init_rnn(3, 4, seed=seed), init_rnn(3, 5, seed=seed + 1)
    X = np.random.default_rng(seed).normal(size=(2, 7, 3))  # (N, T, d_e)
    assert bidirectional_encode(X, f, b).shape == (2, 7, 9)
    halves_see_their_sides(lambda X: bidirectional_encode(X, f, b), X, _shift, d_fwd=4)


def _memoryless(X, f, b):
    """A fake encoder with no memory: each 'state' is tanh(W_x x_j), a function of its own input only."""
    return np.concatenate([np.tanh(X @ f.W_x.T), np.tanh(X @ b.W_x.T)], axis=-1)


@pytest.mark.parametrize(
    "fake, half",
    [
        (_memoryless, "forward"),  # sees its own position only: the forward half misses the later positions
        (lambda X, f, b: np.concatenate([run_rnn(X, f), run_rnn(X, b)], axis=-1), "backward"),  # two forward RNNs
        (lambda X, f, b: np.concatenate([run_rnn(X, f, reverse=True), run_rnn(X, b)], axis=-1), "forward"),  # swapped
    ],
)
def test_the_check_fails_an_encoder_that_does_not_see_both_sides(fake, half, halves_see_their_sides):
    # The check of C6 can fail: a memoryless encoder passes "each half ignores the other side" (the old test)
    # but not "each half responds to its whole side"; neither do two forward halves or swapped halves.
    f, b = init_rnn(3, 4, seed=1), init_rnn(3, 4, seed=2)
    X = np.random.default_rng(0).normal(size=(2, 7, 3))
    with pytest.raises(AssertionError, match=f"moved the {half} half"):
        halves_see_their_sides(lambda X: fake(X, f, b), X, _shift, d_fwd=4)


def test_states_bounded_by_tanh():
    X = np.random.default_rng(6).normal(scale=10, size=(5, 3))
    assert np.all(np.abs(run_rnn(X, init_rnn(3, 4, scale=5.0))) <= 1)


def test_init_is_reproducible():
    a, b = init_rnn(3, 4, seed=9), init_rnn(3, 4, seed=9)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    "call, exc, words",
    [
        (lambda p: rnn_cell(np.zeros(2), np.zeros(4), p), ValueError, ["x", "d_e = 3", "(2,)"]),
        (lambda p: rnn_cell(np.zeros(3), np.zeros(5), p), ValueError, ["h_prev", "d_h = 4", "(5,)"]),
        (lambda p: rnn_cell(np.zeros((2, 3)), np.zeros((3, 4)), p), ValueError, ["batch shape"]),
        (lambda p: run_rnn(np.zeros((0, 3)), p), ValueError, ["T >= 1"]),
        (lambda p: run_rnn(np.zeros(3), p), ValueError, ["X", "(T, d_e)", "(3,)"]),
        (lambda p: run_rnn(np.zeros((2, 3)), p, h0=np.zeros(3)), ValueError, ["h0", "(4,)"]),
        (lambda p: run_rnn([["a", "b", "c"]], p), TypeError, ["X", "real numbers"]),
        (lambda p: run_rnn(np.full((2, 3), np.nan), p), ValueError, ["X", "NaN"]),
        (lambda p: run_rnn(np.zeros((2, 3)), (p.W_x, np.zeros((4, 3)), p.b)), ValueError, ["W_h", "(4, 4)"]),
        (lambda p: run_rnn(np.zeros((2, 3)), "params"), TypeError, ["RNNParams"]),
        (lambda p: init_rnn(0, 4), ValueError, ["d_e"]),
        (lambda p: init_rnn(3, 2.5), TypeError, ["d_h"]),
    ],
)
def test_errors_name_argument_and_shape(call, exc, words):
    p = init_rnn(3, 4)
    with pytest.raises(exc) as info:
        call(p)
    for w in words:
        assert w in str(info.value)


def test_params_is_namedtuple():
    p = init_rnn(3, 4)
    assert isinstance(p, RNNParams) and p.W_x.shape == (4, 3) and p.W_h.shape == (4, 4) and p.b.shape == (4,)


def test_an_overflowing_pre_activation_is_refused_not_saturated():
    cancelling = (np.array([[10.0, -10.0]]), np.zeros((1, 1)), np.zeros(1))  # 1e309 - 1e309: true value 0
    with pytest.raises(
        ValueError, match=r"pre-activation W_x x \+ W_h h_prev \+ b overflowed float64.*\|x\| = 1e\+308"
    ):
        run_rnn([[1e308, 1e308]], cancelling)
    with pytest.raises(ValueError, match="pre-activation W_x x"):
        rnn_cell([1e308, 1e308], [0.0], cancelling)


@pytest.mark.parametrize("dtype", [">f8", ">f4", np.float16, np.longdouble])
def test_any_real_float_dtype(dtype):
    p = init_rnn(2, 3, seed=1)
    X = np.array([[0.5, -1.0], [2.0, 0.25]])
    np.testing.assert_allclose(run_rnn(X.astype(dtype), p), run_rnn(X, p), rtol=1e-6, atol=1e-6)


def test_scale_must_be_a_positive_finite_number():
    with pytest.raises(ValueError, match="scale must be a positive finite number"):
        init_rnn(2, 2, scale=np.inf)
    with pytest.raises(TypeError, match="scale"):
        init_rnn(2, 2, scale=True)
