"""How a loss gradient at the context vector reaches the scores (lesson 07), and a finite-difference check.

Shapes: ``T`` source positions, ``d_h`` annotation width, ``N`` reads at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._validate import as_array, require, shape_str
from .reading import check_scores_and_H, weighted_read


def attend_backward(weights, H, g) -> tuple[np.ndarray, np.ndarray]:
    r"""Back-propagate ``g = dL/dc`` through a soft read ``c = sum_j alpha_j h_j``, ``alpha = softmax(e)``.

    .. math:: \frac{\partial \mathcal L}{\partial e_{j}} = \alpha_{j}\, g^\top (h_j - c), \qquad
              \frac{\partial \mathcal L}{\partial h_j} = \alpha_j\, g

    Lesson 07 (*Learning where to look without labels*) derives the first from
    ``dc/de_j = alpha_j (h_j - c)``. Shapes: ``weights`` ``(T,)`` or ``(N, T)``; ``H`` ``(T, d_h)`` or
    ``(N, T, d_h)``; ``g`` ``(d_h,)`` or ``(N, d_h)``. Returns ``(d_scores, d_H)`` with the shapes of
    ``weights`` and ``H`` (when ``H`` is shared by ``N`` reads, ``d_H`` sums over the reads).
    """
    a, Hm = check_scores_and_H(weights, H, scores_name="weights")
    require(
        bool((a >= 0).all()) and np.allclose(a.sum(axis=-1), 1.0, atol=1e-6),
        lambda: (
            f"weights (shape {shape_str(a.shape)}) must be non-negative and sum to 1 along the last axis, "
            "as softmax returns them"
        ),
    )
    d_h = Hm.shape[-1]
    gv = as_array(g, "g", ndims=(a.ndim,), expected=f"({d_h},)" if a.ndim == 1 else f"({a.shape[0]}, {d_h})")
    require(
        gv.shape == a.shape[:-1] + (d_h,),
        lambda: (
            f"g must have shape {shape_str(a.shape[:-1] + (d_h,))} (one d_h-vector per read), "
            f"got shape {shape_str(gv.shape)}"
        ),
    )
    return attend_backward_kernel(a, Hm, gv, weighted_read(a, Hm))


def attend_backward_kernel(a: np.ndarray, Hm: np.ndarray, gv: np.ndarray, c: np.ndarray):
    """The math of :func:`attend_backward` for validated arrays, given the context ``c`` of the read.

    ``dL/de_j = alpha_j g^T (h_j - c)``, computed as written: subtracting ``c`` before the product keeps the
    digits when every ``h_j`` is large and close to ``c``. Shapes as in :func:`attend_backward`.
    """
    if Hm.ndim == 3:
        diff = Hm - c[:, None, :]  # (N, T, d_h) - (N, 1, d_h): h_j - c for each read
        d_H = a[:, :, None] * gv[:, None, :]  # (N, T, d_h)
    elif a.ndim == 2:
        diff = Hm[None] - c[:, None, :]  # (N, T, d_h): H shared, one c per read
        d_H = a.T @ gv  # (T, N) x (N, d_h) -> (T, d_h): summed over the reads
    else:
        diff = Hm - c  # (T, d_h)
        d_H = np.outer(a, gv)  # (T, d_h)
    d_e = a * (diff @ gv[..., :, None])[..., 0]  # (..., T, d_h) x (..., d_h, 1) -> (..., T): alpha_j g^T (h_j - c)
    return d_e, d_H


def score_gradient(weights, H, g) -> np.ndarray:
    r"""``dL/de_j = alpha_j g^T (h_j - c)`` for an upstream gradient ``g = dL/dc`` (lesson 07).

    Shapes: ``weights`` ``(T,)`` or ``(N, T)``; ``H`` ``(T, d_h)`` or ``(N, T, d_h)``; ``g`` ``(d_h,)`` or
    ``(N, d_h)``. Returns an array shaped like ``weights``. The entries sum to zero: raising every score by
    the same amount changes nothing.
    """
    return attend_backward(weights, H, g)[0]


def finite_difference(f: Callable[[np.ndarray], float], x, eps: float = 1e-6) -> np.ndarray:
    r"""Central finite-difference gradient of a scalar function ``f`` at ``x``.

    .. math:: \partial f / \partial x_i \approx (f(x + \varepsilon u_i) - f(x - \varepsilon u_i)) / (2\varepsilon)

    The independent reference against which :func:`score_gradient` and the models' back-propagation are
    checked (lesson 07, the appendix, and the tests). ``x`` is any float array; returns an array of its shape.
    """
    if not callable(f):
        raise TypeError(f"f must be a function of one array returning a number, got {type(f)}")
    x0 = as_array(x, "x", ndims=tuple(range(0, 33)), expected="any shape").astype(np.float64)
    if not (isinstance(eps, (int, float)) and np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a positive finite number, got {eps!r}")
    grad = np.zeros_like(x0)
    flat, gflat = x0.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):  # one pair of evaluations per coordinate: this loop is the method itself
        old = flat[i]
        flat[i] = old + eps
        up = float(f(x0))
        flat[i] = old - eps
        down = float(f(x0))
        flat[i] = old
        gflat[i] = (up - down) / (2 * eps)
    return grad
