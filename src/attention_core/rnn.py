"""A plain tanh recurrent cell, run over a sequence, and a bidirectional encoder (lessons 02 and 03).

This is the schematic recurrence of lesson 02, ``h_j = f_enc(h_{j-1}, e_src(x_j))``, with the simplest choice
of ``f_enc``. It is not an LSTM (which also carries a separate cell state) and not a GRU (whose gates decide
how much of the old state to keep); the gated GRU used by the trained models lives in ``attention_core.models``.

Shapes: ``T`` source positions, ``d_e`` embedding width, ``d_h`` state width of one direction, ``B`` batch.
A sequence is ``(T, d_e)`` or a batch of sequences ``(B, T, d_e)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._numerics import finite_result
from ._validate import init_rnn_args, rnn_cell_args, run_rnn_args


class RNNParams(NamedTuple):
    """Weights of one tanh cell, in the article's column-vector convention (``W_x e`` is ``(d_h,)``)."""

    W_x: np.ndarray  # (d_h, d_e): input weights
    W_h: np.ndarray  # (d_h, d_h): recurrent weights
    b: np.ndarray  # (d_h,): bias


def init_rnn(d_e: int, d_h: int, seed: int = 0, scale: float = 0.5) -> RNNParams:
    """Random but reproducible weights for a tanh cell: entries drawn from ``N(0, scale^2 / fan_in)``.

    ``d_e`` embedding width, ``d_h`` state width, ``seed`` for ``np.random.default_rng``. The weights are
    untrained; lessons 02 and 03 use them to show how information flows, not what a trained encoder knows.
    """
    d_e, d_h, scale = init_rnn_args(d_e, d_h, scale)
    rng = np.random.default_rng(seed)
    W_x = rng.normal(0.0, scale / np.sqrt(d_e), size=(d_h, d_e))  # (d_h, d_e)
    W_h = rng.normal(0.0, scale / np.sqrt(d_h), size=(d_h, d_h))  # (d_h, d_h)
    b = np.zeros(d_h)  # (d_h,)
    return RNNParams(W_x, W_h, b)


def rnn_cell(x, h_prev, params) -> np.ndarray:
    r"""One step of the tanh cell: the new state from the previous state and the current embedding.

    .. math:: h_j = \tanh\left(W_x\, e(x_j) + W_h\, h_{j-1} + b\right)

    The simplest instance of lesson 02's ``h_j = f_enc(h_{j-1}, e_src(x_j))``.

    Parameters
    ----------
    x : embedding ``e(x_j)``, ``(d_e,)`` or ``(B, d_e)``.
    h_prev : previous state ``h_{j-1}``, ``(d_h,)`` or ``(B, d_h)`` (same leading shape as ``x``).
    params : :class:`RNNParams`.

    Returns the new state, shaped like ``h_prev``.
    """
    x, h_prev, W_x, W_h, b = rnn_cell_args(x, h_prev, params)
    return _step(x, h_prev, W_x, W_h, b)


def _step(x: np.ndarray, h: np.ndarray, W_x: np.ndarray, W_h: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cell's formula for validated arrays. A pre-activation that overflowed is refused, not saturated:
    tanh would turn ``1e309 - 1e309`` (computed as inf, true value 0) into a finite, wrong 1."""
    with np.errstate(over="ignore", invalid="ignore"):
        z = x @ W_x.T + h @ W_h.T + b  # (..., d_e)x(d_e, d_h) + (..., d_h)x(d_h, d_h) -> (..., d_h)
    finite_result(z, "the pre-activation W_x x + W_h h_prev + b", x=x, h_prev=h, W_x=W_x, W_h=W_h, b=b)
    return np.tanh(z)


def run_rnn(X, params, h0=None, reverse: bool = False) -> np.ndarray:
    r"""Run the tanh cell over a sequence and return every state ``h_1 .. h_T``.

    .. math:: h_j = \tanh\left(W_x\, e(x_j) + W_h\, h_{j-1} + b\right), \qquad j = 1, \ldots, T

    Lesson 02 keeps only the last state as the summary ``c = h_T``; lesson 03 keeps them all.

    Parameters
    ----------
    X : embeddings ``e(x_1) .. e(x_T)`` as rows, ``(T, d_e)``, or a batch ``(B, T, d_e)``.
    params : :class:`RNNParams`.
    h0 : initial state ``(d_h,)`` or ``(B, d_h)``; zeros by default.
    reverse : read the sequence from ``x_T`` back to ``x_1`` (the backward direction of lesson 03). The
        returned states are still indexed by position: row ``j`` is the state after reading ``x_T .. x_j``.

    Returns states ``(T, d_h)`` or ``(B, T, d_h)``.
    """
    Xm, h, W_x, W_h, b = run_rnn_args(X, params, h0)  # h: (d_h,) or (B, d_h), zeros unless h0 is given
    T, d_h = Xm.shape[-2], W_x.shape[0]
    states = np.empty(Xm.shape[:-2] + (T, d_h))  # (T, d_h) or (B, T, d_h)
    order = range(T - 1, -1, -1) if reverse else range(T)
    for j in order:  # sequential by definition: h_j needs h_{j-1}
        h = _step(Xm[..., j, :], h, W_x, W_h, b)  # (..., d_h)
        states[..., j, :] = h
    return states


def bidirectional_encode(X, forward, backward) -> np.ndarray:
    r"""Annotations of a bidirectional encoder: forward and backward states concatenated per position.

    .. math:: h_j = \left[\overrightarrow{h}_j ;\; \overleftarrow{h}_j\right]

    ``forward`` reads ``x_1 .. x_j``; ``backward`` reads ``x_T .. x_j``; so ``h_j`` can carry information
    from both sides of position ``j`` (lesson 03, after Bahdanau et al. 2014, Section 3.2).

    Parameters
    ----------
    X : ``(T, d_e)`` or ``(B, T, d_e)``.
    forward, backward : :class:`RNNParams` of the two directions (same ``d_e``; widths may differ).

    Returns annotations ``(T, d_fwd + d_bwd)`` or ``(B, T, d_fwd + d_bwd)``: the forward half first.
    """
    fwd = run_rnn(X, forward)  # (..., T, d_fwd)
    bwd = run_rnn(X, backward, reverse=True)  # (..., T, d_bwd)
    return np.concatenate([fwd, bwd], axis=-1)  # (..., T, d_fwd + d_bwd)
