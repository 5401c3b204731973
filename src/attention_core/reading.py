"""Reading: turning scores into weights and weights into a context vector (lesson 04).

Shapes used below: ``T`` source positions, ``d_h`` annotation width, ``N`` decoder states (queries) read at
once. A single read takes scores ``(T,)``; ``N`` reads at once take ``(N, T)``.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, require, shape_str


def softmax(scores, axis: int = -1, mask=None) -> np.ndarray:
    r"""Normalise scores into weights that are positive and sum to one along ``axis``.

    .. math:: \alpha_{tj} = \frac{\exp(e_{tj})}{\sum_{k=1}^{T} \exp(e_{tk})}

    Derived in lesson 04 (*From scores to weights*). The article's condition is T >= 1 and finite scores;
    ``-inf`` is accepted and means "never read this position", like a ``False`` in ``mask``.

    Parameters
    ----------
    scores : array of any rank >= 1, the scores ``e`` (for example ``(T,)`` or ``(N, T)``).
    axis : the axis holding the source positions ``j``.
    mask : optional boolean array of the same shape as ``scores``; ``False`` marks a position that may not be
        read. A masked position gets weight exactly 0.

    Raises ``ValueError`` for NaN or ``+inf`` scores, for a row with no readable position (T = 0, or every
    position masked), and for a mask of the wrong shape; ``TypeError`` for a non-numeric dtype.
    """
    e = as_array(scores, "scores", ndims=tuple(range(1, 33)), expected="(..., T) with T >= 1", allow_inf=True)
    require(
        not np.isposinf(e).any(), lambda: f"scores (shape {shape_str(e.shape)}) contains +inf; expected finite scores"
    )
    if not -e.ndim <= axis < e.ndim:
        raise ValueError(f"axis={axis} is out of range for scores of shape {shape_str(e.shape)}")
    readable = np.isfinite(e)  # -inf means "never read"
    if mask is not None:
        m = np.asarray(mask)
        if m.dtype != bool:
            raise TypeError(f"mask must be a boolean array of shape {shape_str(e.shape)}, got dtype {m.dtype}")
        require(
            m.shape == e.shape,
            lambda: f"mask must have the shape of scores {shape_str(e.shape)}, got shape {shape_str(m.shape)}",
        )
        readable = readable & m
    require(
        e.shape[axis] >= 1 and readable.any(axis=axis).all(),
        lambda: (
            f"softmax needs at least one readable position in every row along axis {axis}; scores has shape "
            f"{shape_str(e.shape)} and some row is empty or fully masked (the article requires T >= 1)"
        ),
    )
    shifted = np.where(readable, e, -np.inf)  # (..., T)
    top = shifted.max(axis=axis, keepdims=True)  # (..., 1): subtracting it keeps exp() <= 1
    with np.errstate(over="ignore", under="ignore"):
        z = np.exp(shifted - top)  # (..., T), masked entries are exp(-inf) = 0 exactly
    return z / z.sum(axis=axis, keepdims=True)


def softmax_rows_kernel(e: np.ndarray) -> np.ndarray:
    """:func:`softmax` over the last axis for finite scores already validated, with no mask."""
    z = np.exp(e - e.max(axis=-1, keepdims=True))  # (..., T), every entry in (0, 1]
    return z / z.sum(axis=-1, keepdims=True)


def check_scores_and_H(scores, H, *, scores_name: str = "scores"):
    """Validate a pair (scores, H) for a read and return them as arrays.

    ``scores`` is ``(T,)`` or ``(N, T)``; ``H`` is ``(T, d_h)`` shared by all reads, or ``(N, T, d_h)`` with
    one set of annotations per read.
    """
    e = as_array(scores, scores_name, ndims=(1, 2), expected="(T,) or (N, T)", allow_inf=True)
    Hm = as_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
    T = e.shape[-1]
    if Hm.ndim == 2:
        require(
            Hm.shape[0] == T,
            lambda: (
                f"H must have shape (T, d_h) with T = {T} rows to match {scores_name} of shape "
                f"{shape_str(e.shape)}, got shape {shape_str(Hm.shape)}"
            ),
        )
    else:
        require(
            e.ndim == 2 and Hm.shape[:2] == e.shape,
            lambda: (
                f"H of shape {shape_str(Hm.shape)} is batched (N, T, d_h), so {scores_name} must have shape "
                f"(N, T) = {shape_str(Hm.shape[:2])}, got shape {shape_str(e.shape)}"
            ),
        )
    return e, Hm


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
    e, Hm = check_scores_and_H(scores, H)
    weights = softmax(e, axis=-1, mask=mask)  # (T,) or (N, T)
    return weights, weighted_read(weights, Hm)
