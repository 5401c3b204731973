"""What re-reading costs: stored numbers and per-step scoring work as the source grows (lessons 03 and 04).

Counting is exact and deterministic; the timing helper measures wall-clock time and is therefore only for
figures (never for printed text that the notebook tests compare).
"""

from __future__ import annotations

import time

import numpy as np

from ._validate import integer
from .scores import additive_scores


def stored_floats(T: int, d_h: int) -> dict[str, int]:
    """Numbers the decoder can draw on: the fixed summary ``c = h_T`` versus all annotations ``h_1..h_T``.

    ``d_h`` is the annotation width (for a bidirectional encoder, both directions together). Returns
    ``{"fixed_summary": d_h, "annotations": T * d_h, "context_per_step": d_h}``: the read itself stays
    ``d_h`` wide in both designs; what grows with ``T`` is what is kept to be read (lesson 03).
    """
    T, d_h = integer(T, "T"), integer(d_h, "d_h")
    return {"fixed_summary": d_h, "annotations": T * d_h, "context_per_step": d_h}


def additive_step_multiply_adds(T: int, d_s: int, d_h: int, d_a: int, cache_keys: bool = True) -> int:
    r"""Multiply-adds of one decoder step of additive attention, scoring and reading included.

    Per step: ``W_s s`` costs ``d_a d_s``; each of the ``T`` scores ``v^T tanh(. + W_h h_j + b)`` costs ``d_a``
    for the dot product with ``v`` (plus ``d_a d_h`` for ``W_h h_j`` unless those keys were computed once per
    sentence, ``cache_keys=True``); the read ``sum_j alpha_j h_j`` costs ``T d_h``. Additions of the bias and
    the tanh and exp evaluations are not counted. Every term but the first grows linearly with ``T``.
    """
    T, d_s, d_h, d_a = (integer(n, k) for n, k in ((T, "T"), (d_s, "d_s"), (d_h, "d_h"), (d_a, "d_a")))
    per_position = d_a + (0 if cache_keys else d_a * d_h)
    return d_a * d_s + T * per_position + T * d_h


def time_additive_scores(T_values, d_s: int = 32, d_h: int = 64, d_a: int = 32, repeats: int = 15, seed: int = 0):
    """Median wall-clock seconds of one :func:`attention_core.additive_scores` call for each ``T``.

    Random (seeded) state, annotations and parameters; ``time.perf_counter`` around ``repeats`` calls, median
    taken. The values depend on the machine and its load: show them in a figure, never print them in a cell
    whose output is checked. Returns an array ``(len(T_values),)`` of seconds.
    """
    Ts, repeats = [integer(T, "T_values entry") for T in T_values], integer(repeats, "repeats")
    rng = np.random.default_rng(seed)
    W_s = rng.normal(size=(d_a, d_s))  # (d_a, d_s)
    W_h = rng.normal(size=(d_a, d_h))  # (d_a, d_h)
    v, b = rng.normal(size=d_a), np.zeros(d_a)  # (d_a,), (d_a,)
    s = rng.normal(size=d_s)  # (d_s,)
    medians = []
    for T in Ts:  # one measurement per length: the loop is the experiment
        H = rng.normal(size=(T, d_h))  # (T, d_h)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            additive_scores(s, H, W_s, W_h, v, b)
            times.append(time.perf_counter() - start)
        medians.append(float(np.median(times)))
    return np.array(medians)  # (len(T_values),)
