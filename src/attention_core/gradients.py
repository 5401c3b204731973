"""How a loss gradient at the context vector reaches the scores (lesson 07), and a finite-difference check.

Shapes: ``T`` source positions, ``d_h`` annotation width, ``N`` reads at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._numerics import finite_result, rescued, zero_sum
from ._validate import attend_backward_args, finite_difference_args, scalar_output
from .reading import weighted_read


def attend_backward(weights, H, g) -> tuple[np.ndarray, np.ndarray]:
    r"""Back-propagate ``g = dL/dc`` through a soft read ``c = sum_j alpha_j h_j``, ``alpha = softmax(e)``.

    .. math:: \frac{\partial \mathcal L}{\partial e_{j}} = \alpha_{j}\, g^\top (h_j - c), \qquad
              \frac{\partial \mathcal L}{\partial h_j} = \alpha_j\, g

    Lesson 07 (*Learning where to look without labels*) derives the first from
    ``dc/de_j = alpha_j (h_j - c)``. Shapes: ``weights`` ``(T,)`` or ``(N, T)``; ``H`` ``(T, d_h)`` or
    ``(N, T, d_h)``; ``g`` ``(d_h,)`` or ``(N, d_h)``. Returns ``(d_scores, d_H)`` with the shapes of
    ``weights`` and ``H`` (when ``H`` is shared by ``N`` reads, ``d_H`` sums over the reads).
    """
    a, Hm, gv = attend_backward_args(weights, H, g)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is rescued or reported below
        d_e, d_H = attend_backward_kernel(a, Hm, gv, weighted_read(a, Hm))  # alpha_j g^T (h_j - c), alpha_j g
    d_e = rescued(d_e, lambda a, H, g: attend_backward_kernel(a, H, g, weighted_read(a, H))[0], a=a, H=Hm, g=gv)
    d_e = zero_sum(d_e, a)  # sum_j dL/de_j = 0 exactly; restores the digits c lost to a large common part of H
    finite_result(d_H, "the gradient dL/dH", g=gv)
    return finite_result(d_e, "the score gradients dL/de", H=Hm, g=gv), d_H


def attend_backward_kernel(a: np.ndarray, Hm: np.ndarray, gv: np.ndarray, c: np.ndarray):
    """The math of :func:`attend_backward` for validated arrays, given the context ``c`` of the read.

    ``dL/de_j`` as :func:`score_gradient_kernel` computes it, and ``dL/dh_j = alpha_j g``. Shapes as in
    :func:`attend_backward`.
    """
    if Hm.ndim == 3:
        d_H = a[:, :, None] * gv[:, None, :]  # (N, T, d_h)
    elif a.ndim == 2:
        d_H = a.T @ gv  # (T, N) x (N, d_h) -> (T, d_h): summed over the reads
    else:
        d_H = np.outer(a, gv)  # (T, d_h)
    return score_gradient_kernel(a, Hm, gv, c), d_H


def score_gradient_kernel(a: np.ndarray, Hm: np.ndarray, gv: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``dL/de_j = alpha_j g^T (h_j - c)`` for validated arrays: the half of :func:`attend_backward_kernel` that
    a decoder's time loop needs (the models sum ``dL/dH`` over all steps at once, after the loop).

    Computed as written: subtracting ``c`` before the product keeps the digits when every ``h_j`` is large and
    close to ``c``. Shapes as in :func:`attend_backward`.
    """
    if Hm.ndim == 3:
        diff = Hm - c[:, None, :]  # (N, T, d_h) - (N, 1, d_h): h_j - c for each read
    elif a.ndim == 2:
        diff = Hm[None] - c[:, None, :]  # (N, T, d_h): H shared, one c per read
    else:
        diff = Hm - c  # (T, d_h)
    return a * (diff @ gv[..., :, None])[..., 0]  # (..., T, d_h) x (..., d_h, 1) -> (..., T): alpha_j g^T (h_j - c)


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
    checked (lesson 07, the appendix, and the tests). ``x`` is any real array, in any memory layout (it is
    copied, never written); ``f`` must return one finite number; ``eps`` is a number in [1e-12, 1]. Returns a
    float64 array of the shape of ``x``.
    """
    x0, eps = finite_difference_args(f, x, eps)  # x0: a fresh C-ordered copy, perturbed in place below
    grad = np.zeros_like(x0)
    flat, gflat = x0.reshape(-1), grad.reshape(-1)  # views: writes into flat reach x0
    for i in range(flat.size):  # one pair of evaluations per coordinate: this loop is the method itself
        old = flat[i]
        flat[i] = old + eps
        up = scalar_output(f(x0), "f")
        flat[i] = old - eps
        down = scalar_output(f(x0), "f")
        flat[i] = old
        gflat[i] = (up - down) / (2 * eps)
    return grad
