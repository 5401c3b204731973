"""Two read operators that lesson 04 compares with the softmax read: raw-score weighting and the hard read.

The soft read of :func:`attention_core.attend` normalises scores with softmax, so the context is a convex
combination of the annotations. Changing the normalisation changes the operator; these are the two contrasts
the article names. Shapes: ``T`` source positions, ``d_h`` annotation width, ``N`` reads at once.
"""

from __future__ import annotations

import numpy as np

from ._validate import hard_weights_args, read_args
from .reading import weighted_read


def raw_score_read(scores, H) -> np.ndarray:
    r"""Weighted sum with the raw scores as weights, no normalisation.

    .. math:: \tilde c_t = \sum_{j=1}^{T} e_{tj}\, h_j

    Lesson 04. Computable, but a different read: weights may be negative, their total is arbitrary, and adding
    the same constant to every score changes the result. ``scores`` ``(T,)`` or ``(N, T)``; ``H`` ``(T, d_h)``
    or ``(N, T, d_h)``. Returns ``(d_h,)`` or ``(N, d_h)``.
    """
    e, Hm = read_args(scores, H)
    return weighted_read(e, Hm)  # (T,) x (T, d_h) -> (d_h,)  or  (N, T) -> (N, d_h)


def hard_weights(scores) -> np.ndarray:
    r"""One-hot weights on the highest score: ``alpha_j = 1`` if ``j = argmax_k e_k`` else 0 (ties: first).

    ``scores`` ``(T,)`` or ``(N, T)``; returns an array of the same shape (lesson 04).
    """
    e = hard_weights_args(scores)
    pick = np.argmax(e, axis=-1)  # () or (N,): index of the chosen position
    return (np.arange(e.shape[-1]) == pick[..., None]).astype(float)  # (..., T) one-hot


def hard_read(scores, H) -> np.ndarray:
    r"""Hard selection: read only the annotation with the highest score.

    .. math:: c_t = h_{j^*}, \qquad j^* = \arg\max_j e_{tj}

    Lesson 04. Piecewise constant in the scores: away from a tie a small change of a score changes nothing
    (zero gradient), and at a tie the read jumps. ``scores`` ``(T,)`` or ``(N, T)``; ``H`` ``(T, d_h)`` or
    ``(N, T, d_h)``. Returns ``(d_h,)`` or ``(N, d_h)``.
    """
    e, Hm = read_args(scores, H)
    return weighted_read(hard_weights(e), Hm)  # one-hot (..., T) -> (..., d_h)
