"""What re-reading costs: stored numbers and per-step scoring work as the source grows (lessons 03 and 04).

Counting is exact and deterministic, the same on every machine: print and draw the counts. The timing helpers
measure wall-clock time, so they are only for figures (never for printed text that the notebook tests compare),
and they are built so that the trend the text states, time rising with ``T``, survives a busy machine; a lesson
asserts :func:`rises_with_length` on the times before drawing them.
"""

from __future__ import annotations

import time

import numpy as np
from threadpoolctl import threadpool_limits

from ._validate import integer
from .reading import attend
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


TIMED_LENGTHS = (256, 1024, 4096, 16384)  # source lengths for the timing figures: 4x more work per point
RISE_RATIO = 1.5  # each timed point must take at least this many times the previous one (the work grows 4x)


def time_additive_scores(T_values=TIMED_LENGTHS, d_s=32, d_h=64, d_a=32, repeats=5, rounds=5, seed=0):
    """Wall-clock seconds of one :func:`attention_core.additive_scores` call (one state, all ``T`` annotations)
    for each ``T``: the work of :func:`additive_step_multiply_adds` with ``cache_keys=False``, minus the read.

    Measured so that its trend survives a busy machine: the lengths are timed in ``rounds`` interleaved passes
    (a burst of load hits every length, not one), each pass takes the median of ``repeats`` calls, and the result
    is the smallest median over the passes (load only ever adds time); BLAS runs on one thread, since a second
    thread waiting for a busy core adds a scheduler slice (about 8 ms) to a call. With :data:`TIMED_LENGTHS`
    each point does 4x the work of the one before it, far above that noise; :func:`rises_with_length` states the
    check. The values depend on the machine: draw them, never print them in a cell whose output is compared.
    Returns ``(len(T_values),)`` seconds.
    """
    rng = np.random.default_rng(seed)
    W_s, W_h = rng.normal(size=(d_a, d_s)), rng.normal(size=(d_a, d_h))  # (d_a, d_s), (d_a, d_h)
    v, b, s = rng.normal(size=d_a), np.zeros(d_a), rng.normal(size=d_s)  # (d_a,), (d_a,), (d_s,)
    return _time_per_length(lambda H: additive_scores(s, H, W_s, W_h, v, b), T_values, d_h, repeats, rounds, rng)


def time_attention_step(T_values=TIMED_LENGTHS, d_s=32, d_h=64, d_a=32, repeats=5, rounds=5, seed=0):
    """Wall-clock seconds of one decoder step of global soft attention for each ``T``: additive scores for all
    ``T`` annotations, softmax, weighted read (:func:`attention_core.attend`); the work of
    :func:`additive_step_multiply_adds` with ``cache_keys=False``. Measured as :func:`time_additive_scores`."""
    rng = np.random.default_rng(seed)
    W_s, W_h = rng.normal(size=(d_a, d_s)), rng.normal(size=(d_a, d_h))  # (d_a, d_s), (d_a, d_h)
    v, b, s = rng.normal(size=d_a), np.zeros(d_a), rng.normal(size=d_s)  # (d_a,), (d_a,), (d_s,)
    return _time_per_length(
        lambda H: attend(additive_scores(s, H, W_s, W_h, v, b), H), T_values, d_h, repeats, rounds, rng
    )


def _time_per_length(call, T_values, d_h, repeats, rounds, rng) -> np.ndarray:
    """Smallest over ``rounds`` interleaved passes of the median of ``repeats`` timed ``call(H)``, per length."""
    Ts = [integer(T, "T_values entry") for T in T_values]
    repeats, rounds, d_h = integer(repeats, "repeats"), integer(rounds, "rounds"), integer(d_h, "d_h")
    inputs = [rng.normal(size=(T, d_h)) for T in Ts]  # (T, d_h) annotations per length
    best = np.full(len(Ts), np.inf)
    with threadpool_limits(1):  # a BLAS thread waiting for a busy core costs a whole scheduler slice (~8 ms)
        for _ in range(rounds):  # interleaved: every pass visits every length
            for i, H in enumerate(inputs):
                times = []
                for _ in range(repeats):
                    start = time.perf_counter()
                    call(H)
                    times.append(time.perf_counter() - start)
                best[i] = min(best[i], float(np.median(times)))
    return best  # (len(T_values),)


def rises_with_length(seconds, min_ratio: float = RISE_RATIO) -> bool:
    """True when every timed point takes at least ``min_ratio`` times as long as the point before it.

    The check a lesson asserts before drawing a timing figure, and the tests assert on the same call: with the
    lengths of :data:`TIMED_LENGTHS` the work grows 4x from point to point, so a ratio under 1.5 means noise
    swamped the measurement, and the figure would contradict the text.
    """
    t = np.asarray(seconds, dtype=float)  # (K,)
    return bool(t.ndim == 1 and t.size >= 2 and np.all(t > 0) and np.all(t[1:] >= min_ratio * t[:-1]))
