"""Luong's reads (attention_core.luong) against formulas written out independently, and their properties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import additive_scores, softmax
from attention_core.luong import (
    gaussian_factor,
    global_attention,
    local_m,
    local_p,
    luong_scores,
    predicted_position,
    window_mask,
)

RNG = np.random.default_rng(2015)
T, D_S, D_A = 9, 3, 4
H = RNG.normal(size=(T, D_S))
S = RNG.normal(size=D_S)
W_GEN = RNG.normal(size=(D_S, D_S))
W_CAT, V_CAT = RNG.normal(size=(D_A, 2 * D_S)), RNG.normal(size=D_A)
W_P, V_P = RNG.normal(size=(D_A, D_S)), RNG.normal(size=D_A)


def by_hand_softmax(e):
    z = np.exp(e - e.max())
    return z / z.sum()


def test_three_global_scores_match_their_formulas():
    dot = np.array([S @ h for h in H])
    general = np.array([S @ W_GEN @ h for h in H])
    concat = np.array([V_CAT @ np.tanh(W_CAT @ np.concatenate([S, h])) for h in H])
    np.testing.assert_allclose(luong_scores(S, H, "dot"), dot, rtol=1e-12)
    np.testing.assert_allclose(luong_scores(S, H, "general", W=W_GEN), general, rtol=1e-12)
    np.testing.assert_allclose(luong_scores(S, H, "concat", W=W_CAT, v=V_CAT), concat, rtol=1e-12)


def test_concat_is_the_additive_score_without_bias():
    e = luong_scores(S, H, "concat", W=W_CAT, v=V_CAT)
    np.testing.assert_allclose(e, additive_scores(S, H, W_CAT[:, :D_S], W_CAT[:, D_S:], V_CAT, np.zeros(D_A)))


@pytest.mark.parametrize(
    ("score", "kw"), [("dot", {}), ("general", {"W": W_GEN}), ("concat", {"W": W_CAT, "v": V_CAT})]
)
def test_global_read_is_softmax_over_every_position(score, kw):
    read = global_attention(S, H, score, **kw)
    e = luong_scores(S, H, score, **kw)
    np.testing.assert_allclose(read.weights, by_hand_softmax(e), rtol=1e-12)
    np.testing.assert_allclose(read.context, read.weights @ H, rtol=1e-12)
    assert read.window.all() and read.position is None and (read.weights > 0).all()


def test_global_reads_batch_like_single_states():
    states = RNG.normal(size=(5, D_S))
    batch = global_attention(states, H, "general", W=W_GEN)
    for n, s in enumerate(states):
        np.testing.assert_allclose(batch.weights[n], global_attention(s, H, "general", W=W_GEN).weights)


def test_local_m_window_is_centred_on_t_and_has_no_gaussian():
    t, D = 4, 2
    read = local_m(S, H, t=t, D=D)
    j = np.arange(1, T + 1)
    inside = np.abs(j - t) <= D
    np.testing.assert_array_equal(read.window, inside)
    assert np.all(read.weights[~inside] == 0.0)
    # no Gaussian: the weights are the global dot weights renormalised over the window, and sum to one
    e = luong_scores(S, H, "dot")
    np.testing.assert_allclose(read.weights[inside], by_hand_softmax(e[inside]), rtol=1e-12)
    assert read.weights.sum() == pytest.approx(1.0)


def test_local_m_clips_at_the_edges():
    read = local_m(S, H, t=1, D=2)
    np.testing.assert_array_equal(np.flatnonzero(read.window) + 1, [1, 2, 3])


def test_predicted_position_formula_and_range():
    p = predicted_position(S, W_P, V_P, T)
    assert p == pytest.approx(T / (1 + np.exp(-(V_P @ np.tanh(W_P @ S)))), rel=1e-12)
    ps = predicted_position(RNG.normal(size=(50, D_S)) * 5, W_P, V_P, T)
    assert ps.shape == (50,) and np.all((ps > 0) & (ps < T))


def test_gaussian_has_sigma_half_the_window():
    g = gaussian_factor(4.0, T, 2)  # sigma = 1
    assert g[3] == 1.0  # j = 4 = p
    assert g[1] == pytest.approx(np.exp(-2.0)) and g[5] == pytest.approx(np.exp(-2.0))  # |j - p| = D = 2 sigma
    assert g[2] == pytest.approx(np.exp(-0.5))


def test_local_p_is_window_softmax_times_gaussian_not_renormalised():
    D = 2
    read = local_p(S, H, D, W_P, V_P)
    p = predicted_position(S, W_P, V_P, T)
    assert read.position == pytest.approx(p)
    j = np.arange(1, T + 1)
    inside = np.abs(j - p) <= D
    e = luong_scores(S, H, "dot")
    expected = np.zeros(T)
    expected[inside] = by_hand_softmax(e[inside]) * np.exp(-((j[inside] - p) ** 2) / (2 * (D / 2) ** 2))
    np.testing.assert_allclose(read.weights, expected, rtol=1e-12)
    np.testing.assert_allclose(read.context, expected @ H, rtol=1e-12)
    assert read.weights.sum() < 1.0


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), t=st.integers(1, T), D=st.integers(1, 4))
def test_local_m_equals_the_global_read_restricted_to_its_window(seed, t, D):
    rng = np.random.default_rng(seed)
    s, Hr = rng.normal(size=D_S), rng.normal(size=(T, D_S))
    read = local_m(s, Hr, t=t, D=D, score="general", W=W_GEN)
    g = global_attention(s, Hr, "general", W=W_GEN).weights
    inside = read.window
    np.testing.assert_allclose(read.weights[inside], g[inside] / g[inside].sum(), rtol=1e-10)
    assert np.all(read.weights[~inside] == 0.0)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), D=st.integers(1, 4))
def test_local_p_weights_never_exceed_the_window_softmax(seed, D):
    rng = np.random.default_rng(seed)
    s = rng.normal(size=D_S) * 3
    read = local_p(s, H, D, W_P, V_P)
    inside_softmax = softmax(luong_scores(s, H, "dot"), mask=read.window)
    assert np.all(read.weights <= inside_softmax + 1e-15)
    assert 0 < read.weights.sum() <= 1.0


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: luong_scores(S, H, "cosine"), ValueError, "score"),
        (lambda: luong_scores(S, H, "general"), ValueError, "W"),
        (lambda: luong_scores(S, H, "concat", W=W_CAT), ValueError, "v"),
        (lambda: luong_scores(S, H, "dot", W=W_GEN), ValueError, "dot"),
        (lambda: luong_scores(S, H, "concat", W=np.ones((D_A, 2)), v=V_CAT), ValueError, "W"),
        (lambda: local_m(S, H, t=3, D=0), ValueError, "D"),
        (lambda: local_m(S, H, t=3, D=1.5), TypeError, "D"),
        (lambda: local_m(S, H, t=np.nan, D=1), ValueError, "^t "),
        (lambda: local_m(S, H, t="3", D=1), TypeError, "^t "),
        (lambda: local_m(S, H, t=40, D=2), ValueError, "window"),
        (lambda: window_mask(2, True, 1), TypeError, "T"),
        (lambda: predicted_position(S, W_P[:, :2], V_P, T), ValueError, "W_p"),
        (lambda: predicted_position(S, W_P, V_P[:2], T), ValueError, "v_p"),
        (lambda: predicted_position(["a", "b", "c"], W_P, V_P, T), TypeError, "s"),
        (lambda: predicted_position(S, W_P, V_P, 0), ValueError, "T"),
        (lambda: local_p(S, H[0], 2, W_P, V_P), ValueError, "H"),
    ],
)
def test_bad_input_names_the_argument(call, error, names):
    with pytest.raises(error, match=names):
        call()


def test_an_overflow_inside_tanh_gives_the_true_position():
    # W_p s = 1e400 - 1e400 = 0 exactly, so tanh(W_p s) = 0, v_p^T 0 = 0 and p_t = T sigmoid(0) = T / 2
    s, H4, W_p, v_p = np.array([1e200, 1e200]), np.ones((4, 2)), np.array([[1e200, -1e200]]), np.ones(1)
    assert predicted_position(s, W_p, v_p, 4) == 2.0
    assert local_p(s, H4, 1, W_p, v_p).position == 2.0
    # a true W_p s beyond the float range saturates tanh at +-1, as it should: p_t = T sigmoid(+-v_p)
    assert predicted_position(np.array([1e200]), np.array([[1e200]]), np.ones(1), 4) == pytest.approx(
        4 / (1 + np.exp(-1))
    )
    assert predicted_position(np.array([1e200]), np.array([[-1e200]]), np.ones(1), 4) == pytest.approx(
        4 / (1 + np.exp(1))
    )
    # a huge v_p gives p_t at the edge of (0, T), not NaN
    assert predicted_position(S, W_P, V_P * 1e308, T) in (0.0, float(T))


RAGGED = [[1.0, 2.0], [3.0]]


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: luong_scores(RAGGED, H, "dot"), "s"),
        (lambda: luong_scores(S, RAGGED, "dot"), "H"),
        (lambda: luong_scores(S, H, "general", W=RAGGED), "W"),
        (lambda: luong_scores(S, H, "concat", W=RAGGED, v=V_CAT), "W"),
        (lambda: luong_scores(S, H, "concat", W=W_CAT, v=RAGGED), "v"),
        (lambda: global_attention(S, RAGGED), "H"),
        (lambda: window_mask(RAGGED, T, 1), "p"),
        (lambda: gaussian_factor(RAGGED, T, 1), "p"),
        (lambda: local_m(S, H, t=RAGGED, D=1), "t"),
        (lambda: local_m(S, RAGGED, t=2, D=1), "H"),
        (lambda: predicted_position(S, RAGGED, V_P, T), "W_p"),
        (lambda: local_p(S, RAGGED, 2, W_P, V_P), "H"),
        (lambda: local_p(S, H, 2, W_P, RAGGED), "v_p"),
    ],
)
def test_ragged_input_names_the_argument(call, name):
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    message = str(info.value)
    assert message.startswith(f"{name} ") and "inhomogeneous" not in message, message


@pytest.mark.parametrize(
    ("score", "kw"), [("dot", {}), ("general", {"W": W_GEN}), ("concat", {"W": W_CAT, "v": V_CAT})]
)
def test_float32_reads_stay_float32(score, kw):
    s32, H32 = S.astype(np.float32), H.astype(np.float32)
    kw32 = {k: a.astype(np.float32) for k, a in kw.items()}
    for read in (
        global_attention(s32, H32, score, **kw32),
        local_m(s32, H32, 4, 2, score, **kw32),
        local_p(s32, H32, 2, W_P.astype(np.float32), V_P.astype(np.float32), score, **kw32),
    ):
        assert read.weights.dtype == np.float32 and read.context.dtype == np.float32
        np.testing.assert_allclose(read.context, global_attention(S, H, score, **kw).context, atol=1.0)
