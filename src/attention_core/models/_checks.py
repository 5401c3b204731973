"""Boundary checks of the models, and the one place where BLAS is pinned.

The models validate what a caller hands them once, at the public entry points (``forward``, ``greedy``,
``evaluate``, the configs); their time loops then call the core's kernels without checking again.

BLAS: float32 matrix products give different last bits with different thread counts, and training amplifies
them, so every training and evaluation entry point runs with BLAS pinned to :data:`BLAS_THREADS` threads
through :func:`pinned_blas`. It is also the fast setting for these small matrices (evaluation of the
lesson-07 test set took 18 s with two threads and 2 s with one).
"""

from __future__ import annotations

import functools
import numbers

import numpy as np

BLAS_THREADS = 1  # threads for BLAS in training and evaluation; one thread is reproducible and fastest here


def pinned_blas(fn):
    """Run ``fn`` with BLAS limited to :data:`BLAS_THREADS` threads (about 0.3 ms per call to set and restore)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(BLAS_THREADS):
            return fn(*args, **kwargs)

    return wrapper


def check_count(value, name: str, minimum: int = 1) -> int:
    """An integer ``>= minimum`` (not a bool); ``ValueError``/``TypeError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return int(value)


def check_number(value, name: str, *, low: float, high: float = np.inf, low_open: bool = True) -> float:
    """A real number in ``(low, high]`` (or ``[low, high]`` with ``low_open=False``), naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    x = float(value)
    above = x > low if low_open else x >= low
    if not (np.isfinite(x) and above and x <= high):
        interval = f"{'(' if low_open else '['}{low}, {high}{']' if np.isfinite(high) else ')'}"
        raise ValueError(f"{name} must be a finite number in {interval}, got {value!r}")
    return x


def check_token_ids(ids, name: str, vocab: int) -> np.ndarray:
    """A 2-D integer array ``(N, T)`` with ``N, T >= 1`` and every id in ``[0, vocab)``."""
    if isinstance(ids, np.ma.MaskedArray) or not isinstance(ids, np.ndarray):
        raise TypeError(f"{name} must be a numpy integer array of shape (N, T), got {type(ids).__name__}")
    if ids.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer token ids, got dtype {ids.dtype} with shape {ids.shape}")
    if ids.ndim != 2 or ids.shape[0] < 1 or ids.shape[1] < 1:
        raise ValueError(f"{name} must have shape (N, T) with N, T >= 1 (one row per sentence), got {ids.shape}")
    if ids.min() < 0 or ids.max() >= vocab:
        raise ValueError(f"{name} holds ids from {ids.min()} to {ids.max()}; the vocabulary has ids 0 to {vocab - 1}")
    return ids


def check_batch(batch, src_vocab: int, tgt_vocab: int) -> None:
    """A :class:`~attention_core.models.data.Batch` whose arrays agree in shape and stay in the vocabularies."""
    src = check_token_ids(batch.src, "batch.src", src_vocab)
    N, T = src.shape
    for name in ("tgt_in", "tgt_out"):
        arr = check_token_ids(getattr(batch, name), f"batch.{name}", tgt_vocab)
        if arr.shape != (N, T + 1):
            raise ValueError(f"batch.{name} must have shape (N, T + 1) = {(N, T + 1)}, got {arr.shape}")
