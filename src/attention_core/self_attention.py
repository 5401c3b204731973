"""Self-attention: every position issues its own request (lesson 08, *Toward the next structure*).

One organisation of the soft read, not its starting point. Each position ``i`` of a sequence ``x_1..x_T``
forms a query ``q_i = W_q x_i`` (what it is looking for), every position forms a key ``k_j = W_k x_j`` (what
it is matched by) and a value ``v_j = W_v x_j`` (what is read back). The score is the dot score of lesson 05
and the read is :func:`attention_core.attend`; nothing else is new.

Column-vector convention as in :mod:`attention_core.scores`: ``W_q, W_k`` are ``(d_k, d_x)`` and ``W_v`` is
``(d_v, d_x)``; in code the ``T`` positions are stored as rows, so ``W_q x_i`` becomes ``X @ W_q.T``.
Shapes: ``T`` positions, ``d_x`` input width, ``d_k`` query/key width, ``d_v`` value width.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import as_array, require, shape_str
from .reading import attend
from .scores import dot_scores


class SelfAttentionRead(NamedTuple):
    """Everything one self-attention read computes, one row per position."""

    queries: np.ndarray  # (T, d_k): q_i = W_q x_i
    keys: np.ndarray  # (T, d_k): k_j = W_k x_j
    values: np.ndarray  # (T, d_v): v_j = W_v x_j
    scores: np.ndarray  # (T, T): e_ij = q_i^T k_j (row i asks, column j answers)
    weights: np.ndarray  # (T, T): alpha_ij, each row sums to 1; 0 where the mask hides j from i
    output: np.ndarray  # (T, d_v): o_i = sum_j alpha_ij v_j


def causal_mask(T: int) -> np.ndarray:
    r"""The causal mask of an autoregressive model: position ``i`` may read position ``j`` only if ``j <= i``.

    .. math:: M_{ij} = [\, j \le i \,]

    Returns a boolean ``(T, T)`` lower-triangular array (diagonal included), ready for
    ``softmax(scores, mask=...)`` and ``attend(scores, V, mask=...)``: ``False`` hides a future position.
    """
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise TypeError(f"T must be a positive integer (the number of positions), got {T!r}")
    require(T >= 1, f"T must be at least 1 (a mask over no positions hides nothing), got {T}")
    return np.tril(np.ones((T, T), dtype=bool))  # (T, T)


def self_attention(X, W_q, W_k, W_v, mask=None) -> SelfAttentionRead:
    r"""Self-attention read of a sequence: every position queries every (visible) position.

    .. math:: q_i = W_q x_i,\quad k_j = W_k x_j,\quad v_j = W_v x_j,\quad
              e_{ij} = q_i^\top k_j,\quad \alpha_{ij} = \mathrm{softmax}_j(e_{ij}),\quad
              o_i = \sum_j \alpha_{ij} v_j

    Lesson 08 (*Toward the next structure*). The Transformer of Vaswani et al. (2017) also divides the scores
    by ``sqrt(d_k)`` and runs several such reads in parallel; this function keeps only the read itself.

    Parameters
    ----------
    X : ``(T, d_x)``, the positions ``x_1..x_T`` as rows.
    W_q, W_k : ``(d_k, d_x)``.  W_v : ``(d_v, d_x)``.
    mask : optional boolean ``(T, T)``; ``mask[i, j] = False`` hides position ``j`` from position ``i``
        (for example :func:`causal_mask`). Every row must leave at least one position visible.

    Returns a :class:`SelfAttentionRead`.
    """
    Xm = as_array(X, "X", ndims=(2,), expected="(T, d_x)")
    T, d_x = Xm.shape
    require(T >= 1, f"X must hold at least one position (T >= 1), got shape {shape_str(Xm.shape)}")
    mats = {}
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        expected = f"({'d_v' if name == 'W_v' else 'd_k'}, d_x) with d_x = {d_x} to match X"
        Wm = as_array(W, name, ndims=(2,), expected=expected)
        require(Wm.shape[1] == d_x, f"{name} must have shape {expected}, got shape {shape_str(Wm.shape)}")
        mats[name] = Wm
    require(
        mats["W_q"].shape[0] == mats["W_k"].shape[0],
        f"W_q and W_k must have the same number of rows d_k (queries and keys are compared by a dot "
        f"product), got shapes {shape_str(mats['W_q'].shape)} and {shape_str(mats['W_k'].shape)}",
    )
    Q = Xm @ mats["W_q"].T  # (T, d_x) x (d_x, d_k) -> (T, d_k)
    K = Xm @ mats["W_k"].T  # (T, d_x) x (d_x, d_k) -> (T, d_k)
    V = Xm @ mats["W_v"].T  # (T, d_x) x (d_x, d_v) -> (T, d_v)
    scores = dot_scores(Q, K)  # (T, d_k) x (T, d_k) -> (T, T): each query against every key
    weights, output = attend(scores, V, mask=mask)  # (T, T), (T, d_v)
    return SelfAttentionRead(Q, K, V, scores, weights, output)
