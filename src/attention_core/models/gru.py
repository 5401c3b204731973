"""The gated recurrent unit (GRU) of Cho et al. 2014, as Bahdanau et al. 2015 use it (Appendix A).

One step maps the previous state ``h`` and an input ``x`` to the next state:

    z = sigmoid(W_z x + U_z h + b_z)            update gate
    r = sigmoid(W_r x + U_r h + b_r)            reset gate
    n = tanh(W_n x + U_n (r * h) + b_n)         candidate state
    h' = (1 - z) * h + z * n

The three gates are stacked: ``W`` is ``(3d, d_in)``, ``U`` is ``(3d, d)``, ``b`` is ``(3d,)``, rows in the
order ``z, r, n``. The input part ``W x + b`` does not depend on the previous state, so callers compute it for
every time step at once (one matrix product) and pass it to :func:`gru_step` as ``xp``. Shapes: ``N`` batch,
``d`` state width, ``d_in`` input width. Lesson 07 uses these cells inside the encoder and the decoder.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Logistic function ``1 / (1 + exp(-x))``, written with tanh so it never overflows."""
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class GRUCache(NamedTuple):
    """What the backward pass of one step needs."""

    h: np.ndarray  # (N, d) previous state
    z: np.ndarray  # (N, d) update gate
    r: np.ndarray  # (N, d) reset gate
    rh: np.ndarray  # (N, d) r * h
    n: np.ndarray  # (N, d) candidate state


def gru_step(xp: np.ndarray, h: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, GRUCache]:
    """One GRU step from the input projection ``xp = W x + b`` ``(N, 3d)`` and the state ``h`` ``(N, d)``.

    Returns the new state ``(N, d)`` and the cache for :func:`gru_step_backward`.
    """
    d = h.shape[1]
    zr = sigmoid(xp[:, : 2 * d] + h @ U[: 2 * d].T)  # (N, 2d): (N, d) x (d, 2d)
    z, r = zr[:, :d], zr[:, d:]  # (N, d) each
    rh = r * h  # (N, d)
    n = np.tanh(xp[:, 2 * d :] + rh @ U[2 * d :].T)  # (N, d): (N, d) x (d, d)
    return (1.0 - z) * h + z * n, GRUCache(h, z, r, rh, n)


def gru_step_backward(dh_new: np.ndarray, cache: GRUCache, U: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Back-propagate ``dL/dh'`` ``(N, d)`` through one step.

    Returns ``(dxp, dh, dU)``: the gradient for the input projection ``(N, 3d)`` (from which the caller gets
    ``dW = dxp^T x`` and ``db = sum dxp``), for the previous state ``(N, d)``, and for ``U`` ``(3d, d)``.
    """
    h, z, r, rh, n = cache
    d = h.shape[1]
    dn_pre = dh_new * z * (1.0 - n * n)  # (N, d): through h' = ... + z n, then tanh
    dz_pre = dh_new * (n - h) * z * (1.0 - z)  # (N, d): through h' = (1 - z) h + z n, then sigmoid
    drh = dn_pre @ U[2 * d :]  # (N, d) x (d, d) -> (N, d)
    dr_pre = drh * h * r * (1.0 - r)  # (N, d)
    dzr = np.concatenate([dz_pre, dr_pre], axis=1)  # (N, 2d)
    dh = dh_new * (1.0 - z) + drh * r + dzr @ U[: 2 * d]  # (N, d)
    dU = np.concatenate([dzr.T @ h, dn_pre.T @ rh], axis=0)  # (3d, d)
    return np.concatenate([dzr, dn_pre], axis=1), dh, dU


def gru_sequence(Xp: np.ndarray, h0: np.ndarray, U: np.ndarray, reverse: bool = False):
    """Run :func:`gru_step` over time. ``Xp`` is ``(N, T, 3d)``; returns states ``(N, T, d)`` and caches.

    With ``reverse=True`` the cell reads positions ``T, ..., 1`` and state ``t`` is stored at index ``t`` (so
    ``states[:, j]`` is always the state after reading position ``j``).
    """
    N, T, _ = Xp.shape
    states = np.empty((N, T, h0.shape[1]), dtype=Xp.dtype)  # (N, T, d)
    caches: list[GRUCache | None] = [None] * T
    h = h0
    for j in reversed(range(T)) if reverse else range(T):  # the recurrence is sequential in time
        h, caches[j] = gru_step(Xp[:, j], h, U)
        states[:, j] = h
    return states, caches


def gru_sequence_backward(dstates: np.ndarray, caches, U: np.ndarray, reverse: bool = False):
    """Backward of :func:`gru_sequence`: ``dstates`` ``(N, T, d)`` -> ``(dXp (N, T, 3d), dh0 (N, d), dU)``."""
    N, T, d = dstates.shape
    dXp = np.empty((N, T, 3 * d), dtype=dstates.dtype)
    dU = np.zeros_like(U)
    dh = np.zeros((N, d), dtype=dstates.dtype)
    for j in range(T) if reverse else reversed(range(T)):
        dXp[:, j], dh, dU_j = gru_step_backward(dh + dstates[:, j], caches[j], U)
        dU += dU_j
    return dXp, dh, dU


def init_gru(rng: np.random.Generator, d_in: int, d: int, dtype=np.float32) -> dict[str, np.ndarray]:
    """Parameters ``W (3d, d_in)``, ``U (3d, d)``, ``b (3d,)``: scaled normal weights, zero biases."""
    return {
        "W": (rng.standard_normal((3 * d, d_in)) / np.sqrt(d_in)).astype(dtype),
        "U": (rng.standard_normal((3 * d, d)) / np.sqrt(d)).astype(dtype),
        "b": np.zeros(3 * d, dtype=dtype),
    }
