"""Finite input gives finite output: the float-range rescue that the formulas call, kept out of their bodies.

A formula evaluated on finite numbers can still overflow on the way: ``1e308 * 10 - 1e308 * 10`` is NaN in
floating point while its true value is 0, and ``tanh`` turns an overflowed ``inf`` into a finite, wrong 1. The
helpers here compute such a formula again, only where it overflowed, in exact rational arithmetic, and round
the result once, so that only a result whose true value is beyond the float range is infinite (refused by
:func:`finite_result` with a ``ValueError`` naming the inputs and their sizes, or saturating a ``tanh``). The
helpers hold no attention math of their own: they take the formula, or its kernel, as an argument.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


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
    """``out = kernel(*arrays)`` as the formula computed it, if finite; else an intermediate overflowed, and the
    kernel is computed again exactly on the arrays (:func:`exact`) and rounded once: infinite only where the true
    value is. The kernel must take every number it uses from ``arrays`` and only add, subtract and multiply
    (``@``, ``einsum``), as a product such as ``s^T W h`` does."""
    if np.isfinite(out).all():
        return out
    return rounded(kernel(*(exact(x) for x in arrays.values())), out.dtype)


def finite_multilinear(kernel, what: str, **arrays: np.ndarray) -> np.ndarray:
    """``kernel(*arrays)``, kept finite by :func:`rescued` where an intermediate overflowed; a result that is
    itself beyond the float range raises, naming the arrays."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = kernel(*arrays.values())
    return finite_result(rescued(out, kernel, **arrays), what, **arrays)


def matmul_in_range(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x @ y`` with no overflow on the way: ``inf`` only where the true value is beyond the float range.

    For the argument of a saturating function (``tanh``, a sigmoid), which turns that ``inf`` into its limit:
    ``tanh(W_p s)`` with ``W_p s = 1e400 - 1e400`` is ``tanh(0) = 0``, not ``tanh(nan)``. If ``x @ y`` is not
    finite, it is computed again exactly (:func:`exact`) and rounded once.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        out = x @ y
    return out if np.isfinite(out).all() else rounded(exact(x) @ exact(y), out.dtype)


def additive_in_range(formula, s2, Hm, W_s, W_h, b, nonlinearity):
    """``formula(q, K, f)`` for the additive scorer's ``q = W_s s`` ``(N, d_a)`` and ``K = W_h h_j + b``
    ``(..., T, d_a)`` (the keys of :func:`attention_core.scores.additive_keys_kernel`), kept in range.

    If ``q``, ``K`` or the formula's first result overflowed (``1e308 * 10 - 1e308 * 10`` is NaN, its true value
    0), the pre-activation ``z_tj = W_s s_t + W_h h_j + b`` is computed again exactly (:func:`exact`) and
    rounded once, and the formula gets ``q = 0`` and ``K = z`` ``(N, T, d_a)``: a true ``|z|`` beyond the float
    range saturates ``tanh`` at +-1, as it should. What is still beyond the float range (a huge ``v``, or no
    tanh) stays infinite for the caller to refuse with :func:`finite_result`.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        q = s2 @ W_s.T  # (N, d_s) x (d_s, d_a) -> (N, d_a)
        K = Hm @ W_h.T + b  # (..., T, d_h) x (d_h, d_a) -> (..., T, d_a)
        out = formula(q, K, nonlinearity)
    if np.isfinite(q).all() and np.isfinite(K).all() and np.isfinite(out[0]).all():
        return out
    z = (exact(s2) @ exact(W_s.T))[:, None, :] + exact(Hm) @ exact(W_h.T) + exact(b)  # (N, T, d_a), exact
    z = rounded(z, q.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return formula(np.zeros_like(q), z, nonlinearity)


def exact(x: np.ndarray) -> np.ndarray:
    """``x`` as an object array of exact rationals (every float is one): sums and products of them are exact.

    The rescue of an overflow: rescaling by powers of two would not do when terms cancel, since a product of
    mantissas that should cancel leaves a rounding error (``m*m - m*m`` under a fused multiply-add is about
    1e-17, not 0) and, scaled back by ``2**1330``, that error overflows. Slow (Python objects), so used only
    where the float computation overflowed.
    """
    return _to_fraction(x)


def rounded(values, dtype) -> np.ndarray:
    """Exact values rounded once to floats of ``dtype``: ``+-inf`` where beyond its range."""
    with np.errstate(over="ignore"):  # a float64 value beyond float32's range becomes inf, as it should
        return np.asarray(_to_float(values), dtype=np.float64).astype(dtype)


def _fraction_to_float(value: Fraction) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


_to_fraction = np.frompyfunc(lambda a: Fraction(float(a)), 1, 1)
_to_float = np.frompyfunc(_fraction_to_float, 1, 1)


def zero_sum(d_scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Score gradients of a softmax read made to sum to zero along the last axis, as they do exactly.

    Removing ``alpha_j`` times the computed sum restores the digits that the context ``c`` lost when every
    ``h_j`` shares a large common part (``H + 1e10``: relative error 2e-3 -> 4e-14).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # a sum beyond the float range is reported by the caller
        return d_scores - weights * d_scores.sum(axis=-1, keepdims=True)
