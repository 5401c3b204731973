"""Lesson 09's encoder without recurrence, part by part: each backward against central finite differences, the
read against lesson 08's self_attention and a loop written position by position, the positions against what
Vaswani et al.'s table must satisfy, and the encoder's symmetry under a permutation when it has no positions."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models.attention_encoder import SelfAttentionEncoder
from attention_core.models.attention_layer import (
    SelfAttentionLayer,
    position_wise_backward,
    position_wise_forward,
    read_backward,
    read_forward,
)
from attention_core.models.data import MAX_LEN
from attention_core.models.positions import POSITIONS, sinusoidal
from attention_core.self_attention import causal_mask, self_attention

RNG = np.random.default_rng(9)
N, T, D, D_FF, V, D_E = 2, 5, 4, 6, 7, 3


def numeric_gradient(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences of the scalar ``f()`` with respect to every entry of ``x`` (changed in place)."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f()
        x[i] = old - eps
        down = f()
        x[i] = old
        grad[i] = (up - down) / (2 * eps)
    return grad


def projection(rng=RNG):
    return rng.standard_normal((D, D)) / np.sqrt(D)


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("causal", [False, True])
def test_the_reads_backward_is_its_finite_difference(tied, causal):
    Z = RNG.standard_normal((N, T, D))
    W_q, W_k = projection(), projection()
    W_v = None if tied else projection()
    G = RNG.standard_normal((N, T, D))  # dL/dY for L = sum(G * Y)

    def loss():
        return float((read_forward(Z, W_q, W_k, W_v, causal)[0] * G).sum())

    d_Z, grads = read_backward(G, read_forward(Z, W_q, W_k, W_v, causal)[1], W_q, W_k, W_v)
    np.testing.assert_allclose(d_Z, numeric_gradient(loss, Z), atol=1e-8)
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        if W is None:
            assert name not in grads
            continue
        np.testing.assert_allclose(grads[name], numeric_gradient(loss, W), atol=1e-8)


def test_the_position_wise_backward_is_its_finite_difference():
    Z = RNG.standard_normal((N, T, D))
    W_1, b_1 = RNG.standard_normal((D_FF, D)), RNG.standard_normal(D_FF) * 0.3
    W_2, b_2 = RNG.standard_normal((D, D_FF)), RNG.standard_normal(D)
    G = RNG.standard_normal((N, T, D))

    def loss():
        return float((position_wise_forward(Z, W_1, b_1, W_2, b_2)[0] * G).sum())

    d_Z, grads = position_wise_backward(G, position_wise_forward(Z, W_1, b_1, W_2, b_2)[1], W_1, W_2)
    np.testing.assert_allclose(d_Z, numeric_gradient(loss, Z), atol=1e-7)
    for name, x in (("W_1", W_1), ("b_1", b_1), ("W_2", W_2), ("b_2", b_2)):
        np.testing.assert_allclose(grads[name], numeric_gradient(loss, x), atol=1e-7)


@pytest.mark.parametrize("causal", [False, True])
def test_the_read_is_lesson_08s_self_attention_with_the_scale_folded_into_the_queries(causal):
    # e_ij = q_i^T k_j / sqrt(d): the same as lesson 08's unscaled read with W_q / sqrt(d). An independent
    # implementation (the math layer's, sentence by sentence, through attention_core.attend).
    Z = RNG.standard_normal((N, T, D))
    W_q, W_k, W_v = projection(), projection(), projection()
    Y, cache = read_forward(Z, W_q, W_k, W_v, causal)
    for n in range(N):
        ref = self_attention(Z[n], W_q / np.sqrt(D), W_k, W_v, mask=causal_mask(T) if causal else None)
        np.testing.assert_allclose(Y[n], ref.output, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(cache.A[n], ref.weights, rtol=1e-12, atol=1e-12)


def test_the_read_is_a_loop_over_positions_written_out():
    Z = RNG.standard_normal((N, T, D))
    W_q, W_k = projection(), projection()
    Y, _ = read_forward(Z, W_q, W_k, None)  # tied: v_j = k_j
    for n in range(N):
        for i in range(T):
            q = W_q @ Z[n, i]
            keys = [W_k @ Z[n, j] for j in range(T)]
            e = np.array([q @ k / np.sqrt(D) for k in keys])
            w = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
            np.testing.assert_allclose(Y[n, i], sum(w[j] * keys[j] for j in range(T)), rtol=1e-12, atol=1e-12)


def test_a_causal_read_never_looks_ahead():
    Z = RNG.standard_normal((1, T, D))
    W_q, W_k, W_v = projection(), projection(), projection()
    Y, cache = read_forward(Z, W_q, W_k, W_v, causal=True)
    assert np.all(np.triu(cache.A[0], k=1) == 0.0)
    changed = Z.copy()
    changed[0, -1] += 5.0  # the last position changes: no earlier read may move
    np.testing.assert_array_equal(read_forward(changed, W_q, W_k, W_v, causal=True)[0][0, :-1], Y[0, :-1])


@pytest.mark.parametrize("tied", [False, True])
def test_a_layers_backward_is_its_finite_difference(tied):
    layer = SelfAttentionLayer(1, D, D_FF, tied=tied)
    p = layer.init(np.random.default_rng(3), np.float64)
    assert set(p) == set(layer.params) and ("sa1_W_v" in p) != tied
    Z = RNG.standard_normal((N, T, D))
    G = RNG.standard_normal((N, T, D))

    def loss():
        return float((layer.forward(p, Z)[0] * G).sum())

    d_Z, grads = layer.backward(p, G, layer.forward(p, Z)[2])
    np.testing.assert_allclose(d_Z, numeric_gradient(loss, Z), atol=1e-7)
    assert set(grads) == set(p)
    for name in p:
        np.testing.assert_allclose(grads[name], numeric_gradient(loss, p[name]), atol=1e-7, err_msg=name)


def encoder(positions: str, tied: bool = False, layers: int = 2) -> tuple[SelfAttentionEncoder, dict]:
    enc = SelfAttentionEncoder(D_E, D, layers, D_FF, positions, tied)
    return enc, enc.init(np.random.default_rng(4), V, np.float64)


@pytest.mark.parametrize("positions", sorted(POSITIONS))
def test_the_encoders_backward_is_its_finite_difference(positions):
    enc, p = encoder(positions, tied=positions == "learned")
    src = RNG.integers(0, V, size=(N, T))
    G = RNG.standard_normal((N, T, D))

    def loss():
        H = enc.encode(p, src)[0]
        return float((H * G).sum() + (enc.summary(H) * G[:, 0]).sum())  # the summary's path too

    H, cache = enc.encode(p, src)
    grads = enc.backward(p, G + enc.summary_backward(G[:, 0], T), cache)
    assert set(grads) == set(p)
    for name in p:
        np.testing.assert_allclose(grads[name], numeric_gradient(loss, p[name]), atol=1e-7, err_msg=name)


def test_without_positions_the_encoder_only_permutes_its_annotations_when_the_words_move():
    # A set, not a sequence: the annotations of a permuted sentence are the annotations permuted. With positions
    # they are not. What recurrence supplied without being asked (lesson 09).
    src = RNG.integers(0, V, size=(1, T))
    order = np.array([3, 0, 4, 1, 2])
    for positions, symmetric in (("none", True), ("sinusoidal", False), ("learned", False)):
        enc, p = encoder(positions)
        H, H_moved = enc.encode(p, src)[0], enc.encode(p, src[:, order])[0]
        assert np.allclose(H_moved, H[:, order], atol=1e-12) == symmetric, positions


def test_the_sinusoidal_table_is_vaswanis():
    P = sinusoidal(MAX_LEN, 8)
    np.testing.assert_allclose(P[0], [0, 1, 0, 1, 0, 1, 0, 1])  # position 1: sin 0, cos 0
    np.testing.assert_allclose(P[3, 2], np.sin(3 / 10000 ** (2 / 8)))
    np.testing.assert_allclose(P[3, 7], np.cos(3 / 10000 ** (6 / 8)))
    # Each pair of columns turns by a fixed angle per position, so P_{j+k} is a fixed rotation of P_j for every j:
    # one linear map per offset k (the property Vaswani et al. chose it for).
    k = 5
    M, *_ = np.linalg.lstsq(P[:-k], P[k:], rcond=None)  # (8, 8)
    np.testing.assert_allclose(P[:-k] @ M, P[k:], atol=1e-10)


def test_learned_positions_get_gradient_only_on_the_rows_a_sentence_used():
    enc, p = encoder("learned")
    src = RNG.integers(0, V, size=(N, T))
    H, cache = enc.encode(p, src)
    grads = enc.backward(p, RNG.standard_normal(H.shape), cache)
    assert grads["pos_emb"].shape == (MAX_LEN, D)
    assert np.all(grads["pos_emb"][T:] == 0) and np.all(np.abs(grads["pos_emb"][:T]).sum(axis=1) > 0)
