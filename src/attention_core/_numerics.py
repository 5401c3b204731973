"""Finite input gives finite output: the float-range rescue that the formulas call, kept out of their bodies.

A formula evaluated on finite numbers can still overflow on the way: ``1e308 * 10 - 1e308 * 10`` is NaN in
floating point while its true value is 0, and ``tanh`` turns an overflowed ``inf`` into a finite, wrong 1. The
helpers here compute such a formula again on power-of-two-normalised arrays (scaling by a power of two is
exact) and scale the result back, so that only a result whose true value is beyond the float range is
refused, with a ``ValueError`` naming the inputs and their sizes. The helpers hold no attention math of their
own: they take the formula, or its kernel, as an argument.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def normalised(x: np.ndarray) -> tuple[np.ndarray, int]:
    """``x = m * 2**E`` with ``max |m|`` in [0.5, 1): an exact rescaling that keeps products of huge entries
    finite; a kernel linear in ``x`` is then computed on ``m`` and multiplied back by ``2**E``."""
    top = np.abs(x).max() if x.size else 0.0
    E = int(np.frexp(top)[1]) if top > 0 else 0
    return np.ldexp(x, -E), E


def finite_result(result: np.ndarray, what: str, **inputs: np.ndarray) -> np.ndarray:
    """Return ``result`` if finite; else finite inputs overflowed the float range: name them and their sizes."""
    if not np.isfinite(result).all():
        sizes = ", ".join(f"largest |{k}| = {np.abs(v).max():.3g}" for k, v in inputs.items() if np.size(v))
        hint = "; pass float64 arrays" if result.dtype == np.float32 else ""
        raise ValueError(
            f"{what} overflowed {result.dtype} for these finite inputs ({sizes}): rescale {', '.join(inputs)}{hint}"
        )
    return result


def rescued(out: np.ndarray, kernel, **arrays: np.ndarray) -> np.ndarray:
    """``out = kernel(*arrays)`` as the formula computed it, if finite; else, for a kernel linear in each array
    (a product of them, such as ``s^T W h``), an intermediate overflowed: the kernel is computed again on the
    normalised arrays and scaled back by ``2**(E_1 + E_2 + ...)``, infinite only where the true value is."""
    if np.isfinite(out).all():
        return out
    parts = [normalised(x) for x in arrays.values()]
    with np.errstate(over="ignore", invalid="ignore"):
        return np.ldexp(kernel(*(m for m, _ in parts)), sum(E for _, E in parts))


def finite_multilinear(kernel, what: str, **arrays: np.ndarray) -> np.ndarray:
    """``kernel(*arrays)`` for a kernel linear in each array, kept finite by :func:`rescued`; a result that is
    itself beyond the float range raises, naming the arrays."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = kernel(*arrays.values())
    return finite_result(rescued(out, kernel, **arrays), what, **arrays)


def matmul_in_range(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x @ y`` (``x`` ``(..., k)``, ``y`` ``(k,)`` or ``(k, m)``) with no overflow on the way: ``inf`` only where
    the true value is beyond the float range.

    For the argument of a saturating function (``tanh``, a sigmoid), which turns that ``inf`` into its limit:
    ``tanh(W_p s)`` with ``W_p s = 1e400 - 1e400`` is ``tanh(0) = 0``, not ``tanh(nan)``. If ``x @ y`` is not
    finite, every entry is computed again exactly, in rational arithmetic, and rounded once. Rescaling by powers
    of two would not do here: a product of mantissas that should cancel leaves a rounding error (``m*m - m*m``
    under a fused multiply-add is about 1e-17, not 0), and scaled back by ``2**1330`` that error overflows.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        out = x @ y
    if np.isfinite(out).all():
        return out
    rows = [[Fraction(float(a)) for a in row] for row in x.reshape(-1, x.shape[-1])]  # (M, k), exact
    cols = [[Fraction(float(b)) for b in col] for col in y.reshape(y.shape[0], -1).T]  # (m, k), exact
    exact = np.array([[_rounded(sum(a * b for a, b in zip(r, c, strict=True))) for c in cols] for r in rows])
    with np.errstate(over="ignore"):  # a float64 value beyond float32's range becomes inf, as it should
        return exact.astype(out.dtype).reshape(out.shape)  # (M, m) -> the shape of x @ y


def _rounded(value: Fraction) -> float:
    """An exact value rounded to the nearest float64, or ``+-inf`` beyond its range."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def additive_in_range(formula, s2, Hm, W_s, W_h, b, nonlinearity):
    """``formula(q, K, f)`` for the additive scorer's ``q = W_s s`` ``(N, d_a)`` and ``K = W_h h_j + b``
    ``(..., T, d_a)`` (the keys of :func:`attention_core.scores.additive_keys_kernel`), kept in range.

    If ``q``, ``K`` or the formula's first result overflowed (``1e308 * 10 - 1e308 * 10`` is NaN, its true value
    0), the pre-activation is computed again from power-of-two-normalised arrays, ``z = 2**E (q' + k')``,
    without overflow: the formula gets ``q'``, ``k'`` and ``f(2**E z')`` instead, so a true ``|z|`` beyond the
    float range saturates ``tanh`` at +-1, as it should. What is still beyond the float range (a huge ``v``, or
    no tanh) stays infinite for the caller to refuse with :func:`finite_result`.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        q, K = (
            s2 @ W_s.T,
            Hm @ W_h.T + b,
        )  # (N, d_s) x (d_s, d_a) -> (N, d_a); (..., T, d_h) x (d_h, d_a) -> (..., T, d_a)
        out = formula(q, K, nonlinearity)
        if np.isfinite(q).all() and np.isfinite(K).all() and np.isfinite(out[0]).all():
            return out
        (sn, Es), (Wsn, Ews), (Hn, Eh), (Whn, Ewh), (bn, Eb) = map(normalised, (s2, W_s, Hm, W_h, b))
        E = max(Es + Ews, Eh + Ewh, Eb)  # every part of z / 2**E is at most d_s + d_h + 1 in size
        q = np.ldexp(sn @ Wsn.T, Es + Ews - E)  # (N, d_a): W_s s / 2**E
        K = np.ldexp(Hn @ Whn.T, Eh + Ewh - E) + np.ldexp(bn, Eb - E)  # (..., T, d_a): (W_h h_j + b) / 2**E
        f = nonlinearity or (lambda z: z)
        return formula(q, K, lambda z: f(np.ldexp(z, E)))


def zero_sum(d_scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Score gradients of a softmax read made to sum to zero along the last axis, as they do exactly.

    Removing ``alpha_j`` times the computed sum restores the digits that the context ``c`` lost when every
    ``h_j`` shares a large common part (``H + 1e10``: relative error 2e-3 -> 4e-14).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # a sum beyond the float range is reported by the caller
        return d_scores - weights * d_scores.sum(axis=-1, keepdims=True)
