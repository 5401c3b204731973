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

from ._validate import as_array, check_nonlinearity, require, shape_str


def _states_and_annotations(s, H, d_s_name: str = "d_s"):
    """Validate ``s`` ((d_s,) or (N, d_s)) and ``H`` ((T, d_h) or (N, T, d_h)); return 2-D ``s`` and a flag."""
    sv = as_array(s, "s", ndims=(1, 2), expected=f"({d_s_name},) or (N, {d_s_name})")
    Hm = as_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
    require(Hm.shape[-2] >= 1, lambda: f"H must hold at least one annotation (T >= 1), got shape {shape_str(Hm.shape)}")
    single = sv.ndim == 1
    s2 = sv[None, :] if single else sv  # (N, d_s)
    if Hm.ndim == 3:
        require(
            not single and Hm.shape[0] == s2.shape[0],
            lambda: (
                f"H of shape {shape_str(Hm.shape)} is batched (N, T, d_h), so s must have shape "
                f"(N, {d_s_name}) with N = {Hm.shape[0]}, got shape {shape_str(sv.shape)}"
            ),
        )
    return s2, Hm, single


def _matrix(W, name: str, rows: int | None, cols: int | None, expected: str) -> np.ndarray:
    Wm = as_array(W, name, ndims=(2,), expected=expected)
    require(
        (rows is None or Wm.shape[0] == rows) and (cols is None or Wm.shape[1] == cols),
        lambda: f"{name} must have shape {expected}, got shape {shape_str(Wm.shape)}",
    )
    return Wm


def _vector(x, name: str, length: int, expected: str) -> np.ndarray:
    xv = as_array(x, name, ndims=(1,), expected=expected)
    require(xv.shape[0] == length, lambda: f"{name} must have shape {expected}, got shape {shape_str(xv.shape)}")
    return xv


def _check_additive(s, H, W_s, W_h, v, b):
    s2, Hm, single = _states_and_annotations(s, H)
    d_s, d_h = s2.shape[1], Hm.shape[-1]
    W_s = as_array(W_s, "W_s", ndims=(2,), expected=f"(d_a, d_s) with d_s = {d_s}")
    d_a = W_s.shape[0]
    W_s = _matrix(W_s, "W_s", None, d_s, f"(d_a, d_s) = (d_a, {d_s}) to match s")
    W_h = _matrix(W_h, "W_h", d_a, d_h, f"(d_a, d_h) = ({d_a}, {d_h}) to match W_s and H")
    v = _vector(v, "v", d_a, f"(d_a,) = ({d_a},)")
    b = _vector(b, "b", d_a, f"(d_a,) = ({d_a},)")
    return s2, Hm, single, W_s, W_h, v, b


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
    nonlinearity : an elementwise function (default ``np.tanh``), or ``None`` for the identity.

    Returns scores ``(T,)`` for one state, ``(N, T)`` for ``N`` states.
    """
    check_nonlinearity(nonlinearity)
    s2, Hm, single, W_s, W_h, v, b = _check_additive(s, H, W_s, W_h, v, b)
    e = additive_scores_kernel(s2, Hm, W_s, W_h, v, b, nonlinearity)  # (N, T)
    return e[0] if single else e


def additive_scores_kernel(s2, Hm, W_s, W_h, v, b, nonlinearity=np.tanh) -> np.ndarray:
    """The math of :func:`additive_scores` for validated arrays, ``s2`` of shape ``(N, d_s)``; returns (N, T).

    For callers that validated their inputs once at their own boundary (the worked example); everyone else
    calls :func:`additive_scores`.
    """
    q = s2 @ W_s.T  # (N, d_s) x (d_s, d_a) -> (N, d_a): W_s s, once per state
    return additive_from_keys_kernel(q, additive_keys_kernel(Hm, W_h, b), v, nonlinearity)[0]


def additive_scores_backward(d_scores, s, H, W_s, W_h, v, b) -> dict[str, np.ndarray]:
    r"""Gradients of a loss through the tanh additive scorer, given ``d_scores = dL/de``.

    With ``a_j = tanh(W_s s + W_h h_j + b)`` and ``e_j = v^T a_j``:
    ``dL/dv = sum_j (dL/de_j) a_j``; ``dz_j = (dL/de_j) v * (1 - a_j^2)``; ``dL/db = sum_j dz_j``;
    ``dL/dW_s = sum_j dz_j s^T``; ``dL/ds = W_s^T sum_j dz_j``; ``dL/dW_h = sum_j dz_j h_j^T``;
    ``dL/dh_j = W_h^T dz_j``. Checked against finite differences; the trained models (lesson 07) call its kernels
    (:func:`additive_keys_kernel`, :func:`additive_from_keys_kernel`, :func:`additive_from_keys_backward_kernel`).

    Returns a dict with keys ``s, H, W_s, W_h, v, b`` holding arrays shaped like the inputs.
    """
    s2, Hm, single, W_s, W_h, v, b = _check_additive(s, H, W_s, W_h, v, b)
    N, T = s2.shape[0], Hm.shape[-2]
    dE = as_array(d_scores, "d_scores", ndims=(1, 2), expected=f"({T},) or ({N}, {T})")
    dE2 = dE[None, :] if dE.ndim == 1 else dE  # (N, T)
    require(dE2.shape == (N, T), lambda: f"d_scores must have shape {(T,) if single else (N, T)}, got {dE.shape}")
    _, a = additive_from_keys_kernel(s2 @ W_s.T, additive_keys_kernel(Hm, W_h, b), v)  # a: (N, T, d_a)
    dv = np.einsum("nt,nta->a", dE2, a)  # (d_a,)
    dz = additive_from_keys_backward_kernel(dE2, a, v)  # (N, T, d_a)
    dq = dz.sum(axis=1)  # (N, d_a): gradient of W_s s for each state
    grads = {
        "v": dv,
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
    return grads


def dot_scores(s, H) -> np.ndarray:
    r"""Luong's dot score, ``e_tj = s^T h_j``; needs ``d_s = d_h`` (lesson 05, lesson 08).

    ``s`` is ``(d,)`` or ``(N, d)``; ``H`` is ``(T, d)`` or ``(N, T, d)``. Returns ``(T,)`` or ``(N, T)``.
    """
    s2, Hm, single = _states_and_annotations(s, H, d_s_name="d")
    require(
        s2.shape[1] == Hm.shape[-1],
        lambda: (
            f"dot scores need s and h_j of the same width: s has shape {shape_str(np.shape(s))} (d_s = "
            f"{s2.shape[1]}) but H has shape {shape_str(Hm.shape)} (d_h = {Hm.shape[-1]})"
        ),
    )
    if Hm.ndim == 2:
        e = s2 @ Hm.T  # (N, d) x (d, T) -> (N, T)
    else:
        e = np.einsum("nd,ntd->nt", s2, Hm)  # (N, d) x (N, T, d) -> (N, T)
    return e[0] if single else e


def general_scores(s, H, W) -> np.ndarray:
    r"""Luong's general (bilinear) score, ``e_tj = s^T W h_j`` with ``W`` of shape ``(d_s, d_h)``.

    Lessons 05 and 08. ``s`` is ``(d_s,)`` or ``(N, d_s)``; ``H`` is ``(T, d_h)`` or ``(N, T, d_h)``.
    Returns ``(T,)`` or ``(N, T)``.
    """
    s2, Hm, single = _states_and_annotations(s, H)
    W = _matrix(W, "W", s2.shape[1], Hm.shape[-1], f"(d_s, d_h) = ({s2.shape[1]}, {Hm.shape[-1]})")
    sW = s2 @ W  # (N, d_s) x (d_s, d_h) -> (N, d_h)
    if Hm.ndim == 2:
        e = sW @ Hm.T  # (N, d_h) x (d_h, T) -> (N, T)
    else:
        e = np.einsum("nd,ntd->nt", sW, Hm)  # (N, T)
    return e[0] if single else e
