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

from .reading import softmax
from .scores import additive_scores, dot_scores, general_scores

SCORES = ("dot", "general", "concat")


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


def _array(x, name: str, ndims: tuple[int, ...], expected: str) -> np.ndarray:
    arr = np.asarray(x) if not isinstance(x, str) else np.asarray([x])
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}; expected shape {expected}")
    arr = arr.astype(float)
    if arr.ndim not in ndims or 0 in arr.shape:
        raise ValueError(f"{name} must have shape {expected}, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinite values; expected finite numbers")
    return arr


def _positive_int(x, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        raise TypeError(f"{name} must be a whole number, got {x!r} of type {type(x).__name__}")
    if x < 1:
        raise ValueError(f"{name} must be at least 1, got {x}")
    return int(x)


def _positions(p, name: str, n_states: int | None) -> np.ndarray:
    """``p`` as a float array of shape ``(N,)`` (or ``()`` for one state), finite."""
    if isinstance(p, bool | str) or (isinstance(p, np.ndarray) and p.dtype.kind not in "iuf"):
        raise TypeError(f"{name} must be a number or an array of numbers, got {p!r}")
    try:
        arr = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {p!r}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite, got {p!r}")
    expected = () if n_states is None else (n_states,)
    if arr.shape != expected and not (n_states is not None and arr.ndim == 0):
        raise ValueError(f"{name} must have shape {expected} (one value per state), got shape {arr.shape}")
    return arr if n_states is None else np.broadcast_to(arr, expected)


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
    if not isinstance(score, str) or score not in SCORES:
        raise ValueError(f"score must be one of {SCORES}, got {score!r}")
    if score == "dot":
        if W is not None or v is not None:
            raise ValueError("score='dot' has no parameters: pass neither W nor v")
        return dot_scores(s, H)
    if score == "general":
        if W is None or v is not None:
            raise ValueError("score='general' needs W of shape (d_s, d_h) and no v")
        return general_scores(s, H, W)
    if W is None or v is None:
        raise ValueError("score='concat' needs W of shape (d_a, d_s + d_h) and v of shape (d_a,)")
    d_s = np.shape(s)[-1] if np.ndim(s) >= 1 else 0
    W_arr = np.asarray(W)
    if W_arr.ndim != 2 or W_arr.shape[1] <= d_s:
        raise ValueError(
            f"W must have shape (d_a, d_s + d_h) for score='concat' with d_s = {d_s}, got shape {W_arr.shape}"
        )
    W_s, W_h = W_arr[:, :d_s], W_arr[:, d_s:]  # (d_a, d_s), (d_a, d_h): W [s; h] = W_s s + W_h h
    return additive_scores(s, H, W_s, W_h, v, np.zeros(W_arr.shape[0]))


def global_attention(s, H, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Global attention: softmax over every source position, then the weighted sum.

    .. math:: \alpha_{tj} = \mathrm{softmax}_j\, e_{tj}, \qquad c_t = \sum_{j=1}^{T} \alpha_{tj} h_j

    with ``e_tj`` from :func:`luong_scores`. Lesson 08.
    """
    e = luong_scores(s, H, score, W, v)  # (T,) or (N, T)
    weights = softmax(e)
    return LuongRead(weights, weights @ np.asarray(H, dtype=float), np.ones(e.shape, dtype=bool))


def window_mask(p, T: int, D: int) -> np.ndarray:
    r"""The positions a local read scores: ``[|j - p_t| <= D]`` for ``j = 1..T``.

    ``p`` is one position or ``(N,)`` positions; returns ``(T,)`` or ``(N, T)`` booleans. Raises
    ``ValueError`` when the window holds no source position (``p_t`` too far outside ``[1, T]``).
    """
    T, D = _positive_int(T, "T"), _positive_int(D, "D")
    p_arr = _positions(p, "p", None if np.ndim(p) == 0 else len(np.ravel(p)))
    j = np.arange(1, T + 1)  # (T,)
    mask = np.abs(j - p_arr[..., None]) <= D  # (..., T)
    if not mask.any(axis=-1).all():
        raise ValueError(f"the window |j - p| <= D = {D} around p = {p!r} holds none of the positions 1..{T}")
    return mask


def gaussian_factor(p, T: int, D: int) -> np.ndarray:
    r"""Local-p's Gaussian, centred on the predicted position, for ``j = 1..T``.

    .. math:: g_{tj} = \exp\!\left(-\frac{(j - p_t)^2}{2\sigma^2}\right), \qquad \sigma = \frac{D}{2}

    Lesson 08. ``p`` one position or ``(N,)``; returns ``(T,)`` or ``(N, T)``, equal to 1 at ``j = p_t``.
    """
    T, D = _positive_int(T, "T"), _positive_int(D, "D")
    p_arr = _positions(p, "p", None if np.ndim(p) == 0 else len(np.ravel(p)))
    sigma = D / 2.0
    j = np.arange(1, T + 1)  # (T,)
    return np.exp(-((j - p_arr[..., None]) ** 2) / (2.0 * sigma**2))  # (..., T)


def predicted_position(s, W_p, v_p, T: int):
    r"""Local-p's aligned position, predicted from the state.

    .. math:: p_t = T \cdot \mathrm{sigmoid}\!\left(v_p^\top \tanh(W_p\, s_t)\right) \in (0, T)

    Lesson 08 (Luong's ``S`` is our ``T``). ``s`` ``(d_s,)`` or ``(N, d_s)``, ``W_p`` ``(d_a, d_s)``, ``v_p``
    ``(d_a,)``. Returns a float, or ``(N,)`` positions.
    """
    T = _positive_int(T, "T")
    s_arr = _array(s, "s", (1, 2), "(d_s,) or (N, d_s)")
    d_s = s_arr.shape[-1]
    W_arr = _array(W_p, "W_p", (2,), f"(d_a, d_s) with d_s = {d_s}")
    if W_arr.shape[1] != d_s:
        raise ValueError(f"W_p must have shape (d_a, d_s) = (d_a, {d_s}) to match s, got shape {W_arr.shape}")
    v_arr = _array(v_p, "v_p", (1,), f"(d_a,) = ({W_arr.shape[0]},)")
    if v_arr.shape != (W_arr.shape[0],):
        raise ValueError(f"v_p must have shape (d_a,) = ({W_arr.shape[0]},) to match W_p, got shape {v_arr.shape}")
    u = np.tanh(s_arr @ W_arr.T) @ v_arr  # (..., d_s) x (d_s, d_a) -> (..., d_a) -> (...,)
    p = T / (1.0 + np.exp(-u))  # T * sigmoid(u)
    return float(p) if np.ndim(p) == 0 else p


def _local(s, H, p, D: int, score: str, W, v, gaussian: bool) -> LuongRead:
    e = luong_scores(s, H, score, W, v)  # (T,) or (N, T)
    T = e.shape[-1]
    mask = window_mask(p, T, D)  # (T,) or (N, T)
    if mask.shape != e.shape:
        raise ValueError(f"p must give one position per state: scores have shape {e.shape}, window {mask.shape}")
    weights = softmax(e, mask=mask)  # softmax over the window only; outside it the weight is exactly 0
    if gaussian:
        weights = weights * gaussian_factor(p, T, D)  # (..., T): favour the centre, not renormalised
    return LuongRead(weights, weights @ np.asarray(H, dtype=float), mask, p)


def local_m(s, H, t, D: int, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Local-m attention: window around ``p_t = t``, softmax inside it, no Gaussian.

    .. math::

        \alpha_{tj} = \frac{[\,|j - t| \le D\,] \exp(e_{tj})}{\sum_{k} [\,|k - t| \le D\,] \exp(e_{tk})},
        \qquad c_t = \sum_j \alpha_{tj} h_j

    Lesson 08. ``t`` is the target step (one number, or ``(N,)`` for ``N`` states), ``D`` the half-width.
    """
    return _local(s, H, t, D, score, W, v, gaussian=False)


def local_p(s, H, D: int, W_p, v_p, score: str = "dot", W=None, v=None) -> LuongRead:
    r"""Local-p attention: predicted ``p_t``, softmax over its window, times a Gaussian centred on ``p_t``.

    .. math::

        p_t = T\,\mathrm{sigmoid}(v_p^\top \tanh(W_p s_t)), \qquad
        \alpha_{tj} = \mathrm{softmax}_{|j - p_t| \le D}(e_{tj})\,
            \exp\!\left(-\frac{(j - p_t)^2}{2\sigma^2}\right), \quad \sigma = \frac{D}{2}

    Lesson 08. The weights are not renormalised after the Gaussian (as in Luong et al.), so they sum to at
    most one. Returns a :class:`LuongRead` whose ``position`` is ``p_t``.
    """
    H_arr = np.asarray(H)
    if H_arr.ndim != 2:
        raise ValueError(f"H must have shape (T, d_h), got shape {H_arr.shape}")
    p = predicted_position(s, W_p, v_p, H_arr.shape[0])
    return _local(s, H, p, D, score, W, v, gaussian=True)
