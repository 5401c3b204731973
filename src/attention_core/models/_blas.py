"""The one place where BLAS is pinned for training and evaluation.

float32 matrix products give different last bits with different thread counts, and training amplifies them,
so every training and evaluation entry point runs with BLAS pinned to :data:`BLAS_THREADS` threads through
:func:`pinned_blas`. It is also the fast setting for these small matrices (evaluation of the lesson-07 test
set took 18 s with two threads and 2 s with one). The models' argument validation is in
:mod:`attention_core._validate`, with the rest of the package's.
"""

from __future__ import annotations

import functools

BLAS_THREADS = 1  # threads for BLAS in training and evaluation; one thread is reproducible and fastest here


def pinned_blas(fn):
    """Run ``fn`` with BLAS limited to :data:`BLAS_THREADS` threads (about 0.3 ms per call to set and restore)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(BLAS_THREADS):
            return fn(*args, **kwargs)

    return wrapper
