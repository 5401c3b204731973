"""Luong et al. (2015) reads: global attention with three scores, and local attention (lesson 08).

Luong, Pham and Manning score with the decoder state *after* the recurrent update, ``s_t`` (their ``h_t``),
against the annotations ``h_j`` (their ``h̄_s``). This module computes the reads only; the order in which a
decoder forms ``s_t`` and uses ``c_t`` is a property of the model, not of these functions.

- **Global**: every source position is scored, with ``dot`` ``s_t^T h_j``, ``general`` ``s_t^T W h_j`` or
  ``concat`` ``v^T tanh(W [s_t; h_j])``, and the weights are the softmax over all ``T`` positions.
- **Local-m** (monotonic): the aligned position is ``p_t = t``; only positions with ``|j - p_t| <= D`` are
  scored and the softmax runs over that window. No Gaussian factor.
- **Local-p** (predictive): the aligned position is predicted from the state,
  ``p_t = T sigmoid(v_p^T tanh(W_p s_t))`` (Luong's ``S`` is our ``T``), the softmax runs over the window
  ``|j - p_t| <= D``, and each weight is then multiplied by ``exp(-(j - p_t)^2 / (2 sigma^2))`` with
  ``sigma = D / 2``. The Gaussian belongs to local-p only; as in the paper the product is not renormalised,
  so local-p weights sum to less than one.

Positions are numbered ``j = 1..T`` as in the lessons. Shapes: ``T`` source positions, ``d_h`` annotation
width, ``d_s`` state width, ``d_a`` width of the concat scorer and of ``W_p``, ``N`` states at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._numerics import matmul_in_range
from ._validate import (
    LUONG_SCORES,
    gaussian_factor_args,
    local_m_args,
    local_p_args,
    luong_scores_args,
    predicted_position_args,
    window_args,
)
from .reading import softmax, weighted_read
from .scores import additive_scores, dot_scores, general_scores

SCORES = LUONG_SCORES  # ("dot", "general", "concat")


@dataclass(frozen=True)
class LuongRead:
    """One Luong read: ``weights`` ``(T,)`` or ``(N, T)``, ``context`` ``(d_h,)`` or ``(N, d_h)``.

    ``position`` is ``p_t`` (``None`` for global attention) and ``window`` the boolean mask of the positions
    that were scored (all ``True`` for global attention).
    """

    weights: np.ndarray
    context: np.ndarray
    window: np.ndarray
    position: np.ndarray | float | None = None


def luong_scores(s, H, score: str = "dot", W=None, v=None) -> np.ndarray:
    r"""Luong's three score functions, one number per (state, source position).

    .. math::

        e_{tj} = \begin{cases}
            s_t^\top h_j & \text{dot} \\
            s_t^\top W h_j & \text{general}, \quad W \in \mathbb{R}^{d_s \times d_h} \\
            v^\top \tanh\!\left(W [s_t; h_j]\right) & \text{concat}, \quad
                W \in \mathbb{R}^{d_a \times (d_s + d_h)},\ v \in \mathbb{R}^{d_a}
        \end{cases}

    Lesson 08. Concat splits ``W`` into the column blocks ``[W_s | W_h]`` and is the additive score of lesson 05
    without the bias. ``s`` ``(d_s,)`` or ``(N, d_s)``; ``H`` ``(T, d_h)``. Returns ``(T,)`` or ``(N, T)``.
    """
    s, H, W, v = luong_scores_args(s, H, score, W, v)
    if score == "dot":
        return dot_scores(s, H)
    if score == "general":
        return general_scores(s, H, W)
    d_s = s.shape[-1]
    return additive_scores(s, H, W[:, :d_s], W[:, d_s:], v, np.zeros_like(v))  # W [s; h] = W_s s + W_h h, no bias


def global_attention(s, H, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Global attention: softmax over every source position, then the weighted sum.

    .. math:: \alpha_{tj} = \mathrm{softmax}_j\, e_{tj}, \qquad c_t = \sum_{j=1}^{T} \alpha_{tj} h_j

    with ``e_tj`` from :func:`luong_scores`. Lesson 08.
    """
    s, H, W, v = luong_scores_args(s, H, score, W, v)
    weights = softmax(luong_scores(s, H, score, W, v))  # (T,) or (N, T)
    return LuongRead(weights, weighted_read(weights, H), np.ones(weights.shape, dtype=bool))


def window_mask(p, T: int, D: int) -> np.ndarray:
    r"""The positions a local read scores: ``[|j - p_t| <= D]`` for ``j = 1..T``.

    ``p`` is one position or ``(N,)`` positions; returns ``(T,)`` or ``(N, T)`` booleans. Raises
    ``ValueError`` when the window holds no source position (``p_t`` too far outside ``[1, T]``).
    """
    p, T, D = window_args(p, T, D)
    j = np.arange(1, T + 1)  # (T,)
    return np.abs(j - p[..., None]) <= D  # (..., T)


def gaussian_factor(p, T: int, D: int) -> np.ndarray:
    r"""Local-p's Gaussian, centred on the predicted position, for ``j = 1..T``.

    .. math:: g_{tj} = \exp\!\left(-\frac{(j - p_t)^2}{2\sigma^2}\right), \qquad \sigma = \frac{D}{2}

    Lesson 08. ``p`` one position or ``(N,)``; returns ``(T,)`` or ``(N, T)``, equal to 1 at ``j = p_t``.
    """
    p, T, D = gaussian_factor_args(p, T, D)
    sigma = D / 2.0
    j = np.arange(1, T + 1, dtype=p.dtype)  # (T,)
    return np.exp(-((j - p[..., None]) ** 2) / (2.0 * sigma**2))  # (..., T)


def predicted_position(s, W_p, v_p, T: int):
    r"""Local-p's aligned position, predicted from the state.

    .. math:: p_t = T \cdot \mathrm{sigmoid}\!\left(v_p^\top \tanh(W_p\, s_t)\right) \in (0, T)

    Lesson 08 (Luong's ``S`` is our ``T``). ``s`` ``(d_s,)`` or ``(N, d_s)``, ``W_p`` ``(d_a, d_s)``, ``v_p``
    ``(d_a,)``. Returns a float, or ``(N,)`` positions.
    """
    s, W_p, v_p, T = predicted_position_args(s, W_p, v_p, T)
    p = _predicted_position(s, W_p, v_p, T)
    return float(p) if p.ndim == 0 else p


def _predicted_position(s: np.ndarray, W_p: np.ndarray, v_p: np.ndarray, T: int) -> np.ndarray:
    """``p_t = T sigmoid(v_p^T tanh(W_p s_t))`` for validated arrays; ``()`` or ``(N,)``, in the dtype of ``s``.

    The products are formed by :func:`matmul_in_range`: ``W_p s = 1e400 - 1e400`` is 0 there, not NaN, and a
    true value beyond the float range saturates tanh or the sigmoid at its limit.
    """
    a = np.tanh(matmul_in_range(s, W_p.T))  # (..., d_s) x (d_s, d_a) -> (..., d_a): tanh(W_p s_t)
    u = matmul_in_range(a, v_p)  # (..., d_a) x (d_a,) -> (...,): v_p^T tanh(W_p s_t)
    with np.errstate(over="ignore"):  # exp(-u) = inf for u << 0 gives p_t = 0, the sigmoid's limit
        return T / (1.0 + np.exp(-u))  # T * sigmoid(u)


def local_m(s, H, t, D: int, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Local-m attention: window around ``p_t = t``, softmax inside it, no Gaussian.

    .. math::

        \alpha_{tj} = \frac{[\,|j - t| \le D\,] \exp(e_{tj})}{\sum_{k} [\,|k - t| \le D\,] \exp(e_{tk})},
        \qquad c_t = \sum_j \alpha_{tj} h_j

    Lesson 08. ``t`` is the target step (one number, or ``(N,)`` for ``N`` states), ``D`` the half-width.
    """
    s, H, W, v, t, D = local_m_args(s, H, t, D, score, W, v)
    window = window_mask(t, H.shape[0], D)  # (T,) or (N, T): |j - t| <= D
    weights = softmax(luong_scores(s, H, score, W, v), mask=window)  # softmax over the window; 0 outside it
    return LuongRead(weights, weighted_read(weights, H), window, float(t) if t.ndim == 0 else t)


def local_p(s, H, D: int, W_p, v_p, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Local-p attention: predicted ``p_t``, softmax over its window, times a Gaussian centred on ``p_t``.

    .. math::

        p_t = T\,\mathrm{sigmoid}(v_p^\top \tanh(W_p s_t)), \qquad
        \alpha_{tj} = \mathrm{softmax}_{|j - p_t| \le D}(e_{tj})\,
            \exp\!\left(-\frac{(j - p_t)^2}{2\sigma^2}\right), \quad \sigma = \frac{D}{2}

    Lesson 08. The weights are not renormalised after the Gaussian (as in Luong et al.), so they sum to at
    most one. Returns a :class:`LuongRead` whose ``position`` is ``p_t``.
    """
    s, H, W, v, D, W_p, v_p = local_p_args(s, H, D, W_p, v_p, score, W, v)
    T = H.shape[0]
    p = _predicted_position(s, W_p, v_p, T)  # () or (N,): p_t in [0, T]
    window = window_mask(p, T, D)  # (T,) or (N, T): |j - p_t| <= D
    weights = softmax(luong_scores(s, H, score, W, v), mask=window)  # softmax over the window; 0 outside it
    weights = weights * gaussian_factor(p, T, D)  # (..., T): favour the centre, not renormalised
    return LuongRead(weights, weighted_read(weights, H), window, float(p) if p.ndim == 0 else p)
