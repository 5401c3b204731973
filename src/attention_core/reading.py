"""Reading: turning scores into weights and weights into a context vector (lesson 04).

Shapes used below: ``T`` source positions, ``d_h`` annotation width, ``N`` decoder states (queries) read at
once. A single read takes scores ``(T,)``; ``N`` reads at once take ``(N, T)``.
"""

from __future__ import annotations

import numpy as np

from ._numerics import finite_result
from ._validate import attend_args, softmax_args

__all__ = ["attend", "softmax", "softmax_rows_kernel", "weighted_read"]


def softmax(scores, axis: int = -1, mask=None) -> np.ndarray:
    r"""Normalise scores into weights that are positive and sum to one along ``axis``.

    .. math:: \alpha_{tj} = \frac{\exp(e_{tj})}{\sum_{k=1}^{T} \exp(e_{tk})}

    Derived in lesson 04 (*From scores to weights*). The article's condition is T >= 1 and finite scores;
    ``-inf`` is accepted and means "never read this position", like a ``False`` in ``mask``.

    Parameters
    ----------
    scores : array of any rank >= 1, the scores ``e`` (for example ``(T,)`` or ``(N, T)``).
    axis : the one integer axis holding the source positions ``j``.
    mask : optional boolean array of the same shape as ``scores``; ``False`` marks a position that may not be
        read. A masked position gets weight exactly 0.

    Raises ``ValueError`` for NaN or ``+inf`` scores, for a row with no readable position (T = 0, or every
    position masked), for a mask of the wrong shape and an axis out of range; ``TypeError`` for a non-numeric
    dtype, a masked array, a non-boolean mask or an axis that is not one integer.
    """
    e, axis, readable = softmax_args(scores, axis, mask)
    return _masked_softmax(e, axis, readable)


def _masked_softmax(e: np.ndarray, axis: int, readable: np.ndarray) -> np.ndarray:
    """Softmax along ``axis`` where unreadable positions (masked, or ``-inf``) get weight exactly 0."""
    shifted = np.moveaxis(np.where(readable, e, -np.inf), axis, -1)  # (..., T) with T last
    with np.errstate(over="ignore"):  # e_j - max e rounding to -inf is harmless: its weight is exp(-inf) = 0
        return np.moveaxis(softmax_rows_kernel(shifted), -1, axis)


def softmax_rows_kernel(e: np.ndarray) -> np.ndarray:
    """:func:`softmax` over the last axis for scores already validated, with no mask.

    Subtracting the row maximum keeps every ``exp`` in (0, 1], so finite scores always give finite weights.
    """
    z = np.exp(e - e.max(axis=-1, keepdims=True))  # (..., T), every entry in [0, 1]
    return z / z.sum(axis=-1, keepdims=True)


def weighted_read(weights: np.ndarray, H: np.ndarray) -> np.ndarray:
    """Context ``c = sum_j alpha_j h_j`` for already validated arrays (see :func:`attend`)."""
    if H.ndim == 2:
        return weights @ H  # (T,) x (T, d_h) -> (d_h,)   or   (N, T) x (T, d_h) -> (N, d_h)
    return np.einsum("nt,ntd->nd", weights, H)  # (N, T) x (N, T, d_h) -> (N, d_h)


def attend(scores, H, mask=None) -> tuple[np.ndarray, np.ndarray]:
    r"""Soft attention read: weights from scores, then the weighted sum of the annotations.

    .. math:: \alpha_{tj} = \mathrm{softmax}_j(e_{tj}), \qquad c_t = \sum_{j=1}^{T} \alpha_{tj} h_j

    Derived in lesson 04 (*From scores to weights*); the worked example is lesson 06.

    Parameters
    ----------
    scores : ``(T,)`` for one read or ``(N, T)`` for ``N`` reads.
    H : annotations ``h_1..h_T`` as rows, ``(T, d_h)``, or ``(N, T, d_h)`` for one set per read.
    mask : optional boolean array shaped like ``scores``; ``False`` positions get weight 0.

    Returns ``(weights, context)`` with shapes ``(T,)`` and ``(d_h,)``, or ``(N, T)`` and ``(N, d_h)``.
    """
    e, Hm, readable = attend_args(scores, H, mask)
    weights = _masked_softmax(e, -1, readable)  # (T,) or (N, T)
    return weights, finite_result(weighted_read(weights, Hm), "the context c = sum_j alpha_j h_j", H=Hm)
