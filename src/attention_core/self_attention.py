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

from ._numerics import finite_result
from ._validate import integer, self_attention_args
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
    T = integer(T, "T (the number of positions)")
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
    Xm, W_q, W_k, W_v = self_attention_args(X, W_q, W_k, W_v)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below, naming X and the W
        Q = Xm @ W_q.T  # (T, d_x) x (d_x, d_k) -> (T, d_k)
        K = Xm @ W_k.T  # (T, d_x) x (d_x, d_k) -> (T, d_k)
        V = Xm @ W_v.T  # (T, d_x) x (d_x, d_v) -> (T, d_v)
    finite_result(np.concatenate([Q, K, V], axis=1), "queries, keys or values", X=Xm, W_q=W_q, W_k=W_k, W_v=W_v)
    scores = dot_scores(Q, K)  # (T, d_k) x (T, d_k) -> (T, T): each query against every key
    weights, output = attend(scores, V, mask=mask)  # (T, T), (T, d_v)
    return SelfAttentionRead(Q, K, V, scores, weights, output)
