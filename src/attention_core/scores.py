"""Score functions: how a decoder state ``s`` and an annotation ``h_j`` are compared (lessons 05 and 08).

Column-vector convention as in the article: a single state is a column vector, ``W_s`` is ``(d_a, d_s)``,
``W_h`` is ``(d_a, d_h)``, ``v`` and ``b`` are ``(d_a,)``. In code a batch of ``N`` states is stored as rows,
``s`` of shape ``(N, d_s)``, so ``W_s s`` becomes ``s @ W_s.T``.

Shapes: ``T`` source positions, ``d_h`` annotation width, ``d_s`` state width, ``d_a`` scorer width, ``N``
states scored at once. ``H`` is ``(T, d_h)`` (shared by every state) or ``(N, T, d_h)`` (one per state).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._numerics import additive_in_range, finite_multilinear, finite_result
from ._validate import additive_args, additive_backward_args, dot_args, general_args, guarded_nonlinearity


def additive_keys_kernel(H: np.ndarray, W_h: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The state-free part of the additive score, ``k_j = W_h h_j + b``, for validated arrays.

    ``H`` ``(T, d_h)`` or ``(N, T, d_h)`` -> ``(T, d_a)`` or ``(N, T, d_a)``. It does not depend on the decoder
    state, so a decoder computes it once per sentence and reuses it at every target step (lesson 07's model).
    """
    return H @ W_h.T + b  # (..., T, d_h) x (d_h, d_a) -> (..., T, d_a)


def additive_from_keys_kernel(q: np.ndarray, K: np.ndarray, v: np.ndarray, nonlinearity=np.tanh):
    """Scores ``e_tj = v^T f(q_t + k_j)`` from queries ``q = W_s s`` ``(N, d_a)`` and keys ``K`` (validated).

    ``K`` is ``(T, d_a)`` or ``(N, T, d_a)``. Returns ``(e (N, T), a (N, T, d_a))``: the scores and the
    activations ``a = f(q + k_j)``, which the backward pass reuses instead of recomputing them.
    """
    pre = q[:, None, :] + K  # (N, 1, d_a) + (..., T, d_a) -> (N, T, d_a)
    a = pre if nonlinearity is None else nonlinearity(pre)  # (N, T, d_a)
    return a @ v, a  # (N, T, d_a) x (d_a,) -> (N, T)


def additive_from_keys_backward_kernel(d_scores: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``dL/dz_tj = (dL/de_tj) v * (1 - a_tj^2)`` through ``e = v^T tanh(z)``; ``(N, T)``, ``(N, T, d_a)``.

    ``dL/dq_t = sum_j dz_tj`` and ``dL/dk_j = sum_t dz_tj``; ``dL/dv`` is ``sum (dL/de) a``.
    """
    return d_scores[:, :, None] * v * (1.0 - a * a)  # (N, T, d_a)


def additive_scores_kernel(s2, Hm, W_s, W_h, v, b, nonlinearity=np.tanh) -> np.ndarray:
    """The math of :func:`additive_scores` for validated arrays, ``s2`` of shape ``(N, d_s)``; returns (N, T).

    For callers that validated their inputs once at their own boundary (the worked example); everyone else
    calls :func:`additive_scores`.
    """
    q = s2 @ W_s.T  # (N, d_s) x (d_s, d_a) -> (N, d_a): W_s s, once per state
    return additive_from_keys_kernel(q, additive_keys_kernel(Hm, W_h, b), v, nonlinearity)[0]


def _additive_forward(s2, Hm, W_s, W_h, v, b, nonlinearity):
    """``(e, a)`` of the additive scorer for validated arrays: ``e_tj = v^T f(q_t + k_j)`` with ``q_t = W_s s_t``
    and ``k_j = W_h h_j + b``, and the activations ``a = f(q_t + k_j)``.

    Finite for finite input, or a ``ValueError`` naming the inputs: :func:`additive_in_range` forms ``q`` and
    ``k_j`` so that an overflow on the way (``1e308 * 10 - 1e308 * 10``, true value 0) does not change them.
    """
    e, a = additive_in_range(lambda q, K, f: additive_from_keys_kernel(q, K, v, f), s2, Hm, W_s, W_h, b, nonlinearity)
    return finite_result(e, "additive scores", s=s2, H=Hm, W_s=W_s, W_h=W_h, v=v, b=b), a


def additive_scores(s, H, W_s, W_h, v, b, nonlinearity: Callable | None = np.tanh) -> np.ndarray:
    r"""Bahdanau's additive score, one number per (state, source position).

    .. math:: e_{tj} = v^\top \tanh\!\left(W_s s_{t-1} + W_h h_j + b\right)

    Derived in lesson 05 (*How early attention computes a match*). ``nonlinearity=None`` is the lesson's
    linear ablation ``e_tj = v^T W_s s + v^T b + v^T W_h h_j``, whose weights no longer depend on ``s``.

    Parameters
    ----------
    s : decoder state ``(d_s,)`` or ``N`` states ``(N, d_s)``.
    H : annotations ``(T, d_h)``, or ``(N, T, d_h)`` with one set per state.
    W_s : ``(d_a, d_s)``.  W_h : ``(d_a, d_h)``.  v, b : ``(d_a,)``.
    nonlinearity : an elementwise function (default ``np.tanh``), or ``None`` for the identity. What a
        function of your own returns is checked: the input's shape, finite where its input is finite.

    Returns scores ``(T,)`` for one state, ``(N, T)`` for ``N`` states.
    """
    s2, Hm, W_s, W_h, v, b, single = additive_args(s, H, W_s, W_h, v, b)
    e, _ = _additive_forward(s2, Hm, W_s, W_h, v, b, guarded_nonlinearity(nonlinearity))  # (N, T)
    return e[0] if single else e


def additive_scores_backward(d_scores, s, H, W_s, W_h, v, b) -> dict[str, np.ndarray]:
    r"""Gradients of a loss through the tanh additive scorer, given ``d_scores = dL/de``.

    With ``a_j = tanh(W_s s + W_h h_j + b)`` and ``e_j = v^T a_j``:
    ``dL/dv = sum_j (dL/de_j) a_j``; ``dz_j = (dL/de_j) v * (1 - a_j^2)``; ``dL/db = sum_j dz_j``;
    ``dL/dW_s = sum_j dz_j s^T``; ``dL/ds = W_s^T sum_j dz_j``; ``dL/dW_h = sum_j dz_j h_j^T``;
    ``dL/dh_j = W_h^T dz_j``. Checked against finite differences in the tests. It is built from the kernels
    (:func:`additive_keys_kernel`, :func:`additive_from_keys_kernel`, :func:`additive_from_keys_backward_kernel`)
    that the translation model of lesson 07 calls directly, after checking each batch at its own boundary.

    Returns a dict with keys ``s, H, W_s, W_h, v, b`` holding arrays shaped like the inputs.
    """
    dE, s2, Hm, W_s, W_h, v, b, single = additive_backward_args(d_scores, s, H, W_s, W_h, v, b)
    _, a = _additive_forward(s2, Hm, W_s, W_h, v, b, np.tanh)  # a: (N, T, d_a)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below, naming the inputs
        dz = additive_from_keys_backward_kernel(dE, a, v)  # (N, T, d_a)
        dq = dz.sum(axis=1)  # (N, d_a): gradient of W_s s for each state
        grads = {
            "v": np.einsum("nt,nta->a", dE, a),  # (d_a,)
            "b": dq.sum(axis=0),  # (d_a,)
            "W_s": dq.T @ s2,  # (d_a, N) x (N, d_s) -> (d_a, d_s)
            "s": (dq @ W_s)[0] if single else dq @ W_s,  # (N, d_a) x (d_a, d_s) -> (N, d_s)
        }
        if Hm.ndim == 2:
            dz_pos = dz.sum(axis=0)  # (T, d_a): H is shared across the N states
            grads["W_h"] = dz_pos.T @ Hm  # (d_a, T) x (T, d_h) -> (d_a, d_h)
            grads["H"] = dz_pos @ W_h  # (T, d_a) x (d_a, d_h) -> (T, d_h)
        else:
            # (N*T, d_a)^T x (N*T, d_h) -> (d_a, d_h): one matrix product (an einsum here is ~10x slower)
            grads["W_h"] = dz.reshape(-1, dz.shape[-1]).T @ Hm.reshape(-1, Hm.shape[-1])
            grads["H"] = dz @ W_h  # (N, T, d_a) x (d_a, d_h) -> (N, T, d_h)
    for name, grad in grads.items():
        finite_result(grad, f"the gradient dL/d{name}", d_scores=dE, s=s2, H=Hm, W_s=W_s, W_h=W_h, v=v)
    return grads


def dot_scores_kernel(s2: np.ndarray, Hm: np.ndarray) -> np.ndarray:
    if Hm.ndim == 2:
        return s2 @ Hm.T  # (N, d) x (d, T) -> (N, T)
    return np.einsum("nd,ntd->nt", s2, Hm)  # (N, d) x (N, T, d) -> (N, T)


def dot_scores(s, H) -> np.ndarray:
    r"""Luong's dot score, ``e_tj = s^T h_j``; needs ``d_s = d_h`` (lesson 05, lesson 08).

    ``s`` is ``(d,)`` or ``(N, d)``; ``H`` is ``(T, d)`` or ``(N, T, d)``. Returns ``(T,)`` or ``(N, T)``.
    """
    s2, Hm, single = dot_args(s, H)
    e = finite_multilinear(dot_scores_kernel, "dot scores", s=s2, H=Hm)  # (N, T)
    return e[0] if single else e


def _general_kernel(s2: np.ndarray, W: np.ndarray, Hm: np.ndarray) -> np.ndarray:
    return dot_scores_kernel(s2 @ W, Hm)  # (N, d_s) x (d_s, d_h) -> (N, d_h), then against every h_j -> (N, T)


def general_scores(s, H, W) -> np.ndarray:
    r"""Luong's general (bilinear) score, ``e_tj = s^T W h_j`` with ``W`` of shape ``(d_s, d_h)``.

    Lessons 05 and 08. ``s`` is ``(d_s,)`` or ``(N, d_s)``; ``H`` is ``(T, d_h)`` or ``(N, T, d_h)``.
    Returns ``(T,)`` or ``(N, T)``.
    """
    s2, Hm, W, single = general_args(s, H, W)
    e = finite_multilinear(_general_kernel, "general scores", s=s2, W=W, H=Hm)  # (N, T)
    return e[0] if single else e
