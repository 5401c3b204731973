r"""One layer of an encoder without recurrence: every position issues its own request (lesson 09).

The article's section 八 asks three questions; this layer is built so that each can be switched on its own. Every
position ``i`` of the sentence reads every position ``j`` (itself included) with the scaled dot product of
Vaswani et al. (2017), then adds what it read to what it held, then passes through a small layer of its own:

    q_i = W_q z_i,   k_j = W_k z_j,   v_j = W_v z_j          separate projections; with ``tied``: v_j = k_j,
                                                             the vector matched is the one read back
    e_ij = q_i^T k_j / sqrt(d)                               lesson 05's dot score, scaled
    alpha_ij = softmax_j(e_ij)                               (``causal``: only j <= i is read)
    z'_i  = z_i  + sum_j alpha_ij v_j                        the read, added to the input (a residual connection)
    z''_i = z'_i + W_2 relu(W_1 z'_i + b_1) + b_2            the position-wise layer, the same at every position

Without the division by ``sqrt(d)`` and the residual, the read is lesson 08's
:func:`attention_core.self_attention.self_attention` (the tests hold the two equal). Each piece has its backward
beside its forward. Shapes: ``N`` batch, ``T`` positions, ``d`` the encoder's width (queries, keys and values have
it too), ``d_ff`` the width inside the position-wise layer. Parameters are passed in as the model's dict ``p``,
never held by a part; the layer's names start with ``sa<l>_`` (``l`` = 1, 2, ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..reading import softmax_rows_kernel


class ReadCache(NamedTuple):
    Z: np.ndarray  # (N, T, d) the inputs
    Q: np.ndarray  # (N, T, d) queries
    K: np.ndarray  # (N, T, d) keys
    V: np.ndarray  # (N, T, d) values (K itself when tied)
    A: np.ndarray  # (N, T, T) weights alpha_ij, row i the position that reads


def read_forward(Z, W_q, W_k, W_v, causal: bool = False) -> tuple[np.ndarray, ReadCache]:
    """Every position's read ``y_i = sum_j alpha_ij v_j`` ``(N, T, d)``; ``W_v`` None ties the values to the keys."""
    d = W_q.shape[0]
    Q = Z @ W_q.T  # (N, T, d) x (d, d) -> (N, T, d)
    K = Z @ W_k.T  # (N, T, d)
    V = K if W_v is None else Z @ W_v.T  # (N, T, d)
    E = Q @ K.transpose(0, 2, 1) / np.sqrt(d)  # (N, T, d) x (N, d, T) -> (N, T, T): e_ij
    if causal:
        E = np.where(np.tri(E.shape[1], dtype=bool), E, -np.inf)  # row i sees j <= i
    A = softmax_rows_kernel(E)  # (N, T, T), each row sums to 1
    return A @ V, ReadCache(Z, Q, K, V, A)  # (N, T, T) x (N, T, d) -> (N, T, d)


def read_backward(d_Y, cache: ReadCache, W_q, W_k, W_v) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``dL/dZ`` ``(N, T, d)`` and the projections' gradients (``W_v``'s only when untied) from ``dL/dY``."""
    Z, Q, K, V, A = cache
    d = W_q.shape[0]
    d_A = d_Y @ V.transpose(0, 2, 1)  # (N, T, d) x (N, d, T) -> (N, T, T)
    d_V = A.transpose(0, 2, 1) @ d_Y  # (N, T, T) x (N, T, d) -> (N, T, d)
    d_E = A * (d_A - (d_A * A).sum(axis=2, keepdims=True)) / np.sqrt(d)  # softmax's Jacobian, then the scale
    d_Q = d_E @ K  # (N, T, T) x (N, T, d) -> (N, T, d)
    d_K = d_E.transpose(0, 2, 1) @ Q  # (N, T, d)
    if W_v is None:  # tied: the keys were also read back
        d_K = d_K + d_V
    flat = Z.reshape(-1, Z.shape[2])  # (N T, d)
    grads = {"W_q": d_Q.reshape(-1, d).T @ flat, "W_k": d_K.reshape(-1, d).T @ flat}  # (d, d) each
    d_Z = d_Q @ W_q + d_K @ W_k  # (N, T, d)
    if W_v is not None:
        grads["W_v"] = d_V.reshape(-1, d).T @ flat
        d_Z += d_V @ W_v
    return d_Z, grads


class FeedCache(NamedTuple):
    Z: np.ndarray  # (N, T, d) the inputs
    pre: np.ndarray  # (N, T, d_ff) W_1 z + b_1
    R: np.ndarray  # (N, T, d_ff) relu(pre)


def position_wise_forward(Z, W_1, b_1, W_2, b_2) -> tuple[np.ndarray, FeedCache]:
    """``W_2 relu(W_1 z_i + b_1) + b_2`` at every position ``(N, T, d)``."""
    pre = Z @ W_1.T + b_1  # (N, T, d) x (d, d_ff) -> (N, T, d_ff)
    R = np.maximum(pre, 0.0)  # (N, T, d_ff)
    return R @ W_2.T + b_2, FeedCache(Z, pre, R)  # (N, T, d_ff) x (d_ff, d) -> (N, T, d)


def position_wise_backward(d_Y, cache: FeedCache, W_1, W_2) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``dL/dZ`` and the layer's gradients from ``dL/dY`` ``(N, T, d)``."""
    Z, pre, R = cache
    d_R = d_Y @ W_2  # (N, T, d) x (d, d_ff) -> (N, T, d_ff)
    d_pre = d_R * (pre > 0)  # relu passes the gradient where it passed the input
    flat_y, flat_pre = d_Y.reshape(-1, d_Y.shape[2]), d_pre.reshape(-1, d_pre.shape[2])
    grads = {
        "W_2": flat_y.T @ R.reshape(-1, R.shape[2]),  # (d, d_ff)
        "b_2": flat_y.sum(axis=0),
        "W_1": flat_pre.T @ Z.reshape(-1, Z.shape[2]),  # (d_ff, d)
        "b_1": flat_pre.sum(axis=0),
    }
    return d_pre @ W_1, grads  # (N, T, d_ff) x (d_ff, d) -> (N, T, d)


class LayerCache(NamedTuple):
    read: ReadCache
    feed: FeedCache


class SelfAttentionLayer:
    """Layer ``index`` (1, 2, ...) of the encoder: the read with its residual, then the position-wise layer with
    its residual. ``tied``: the values are the keys (no ``W_v``); ``causal``: position ``i`` reads ``j <= i``."""

    def __init__(self, index: int, d: int, d_ff: int, tied: bool = False, causal: bool = False):
        self.index, self.d, self.d_ff, self.tied, self.causal = index, d, d_ff, tied, causal
        self.prefix = f"sa{index}_"
        projections = ("W_q", "W_k") if tied else ("W_q", "W_k", "W_v")
        self.params = tuple(self.prefix + n for n in (*projections, "W_1", "b_1", "W_2", "b_2"))

    def init(self, rng: np.random.Generator, dtype) -> dict[str, np.ndarray]:
        d, f, pre = self.d, self.d_ff, self.prefix
        p = {pre + n: (rng.standard_normal((d, d)) / np.sqrt(d)).astype(dtype) for n in ("W_q", "W_k", "W_v")}
        if self.tied:
            del p[pre + "W_v"]
        p[pre + "W_1"] = (rng.standard_normal((f, d)) / np.sqrt(d)).astype(dtype)
        p[pre + "b_1"] = np.zeros(f, dtype=dtype)
        p[pre + "W_2"] = (rng.standard_normal((d, f)) * (0.5 / np.sqrt(f))).astype(dtype)  # a small first update
        p[pre + "b_2"] = np.zeros(d, dtype=dtype)
        return p

    def _get(self, p: dict, name: str):
        return p.get(self.prefix + name)

    def forward(self, p: dict, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray, LayerCache]:
        """``(z'' (N, T, d), the weights alpha (N, T, T), cache)`` from the inputs ``Z`` ``(N, T, d)``."""
        g = self._get
        Y, read = read_forward(Z, g(p, "W_q"), g(p, "W_k"), g(p, "W_v"), self.causal)
        Z1 = Z + Y  # the residual connection around the read
        F, feed = position_wise_forward(Z1, g(p, "W_1"), g(p, "b_1"), g(p, "W_2"), g(p, "b_2"))
        return Z1 + F, read.A, LayerCache(read, feed)  # and around the position-wise layer

    def backward(self, p: dict, d_out: np.ndarray, cache: LayerCache) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """``dL/dZ`` ``(N, T, d)`` and the layer's gradients, by name, from ``dL/dz''``."""
        g = self._get
        d_Z1, grads = position_wise_backward(d_out, cache.feed, g(p, "W_1"), g(p, "W_2"))
        d_Z1 = d_Z1 + d_out  # the residual
        d_Z, read_grads = read_backward(d_Z1, cache.read, g(p, "W_q"), g(p, "W_k"), g(p, "W_v"))
        grads.update(read_grads)
        return d_Z + d_Z1, {self.prefix + n: v for n, v in grads.items()}
