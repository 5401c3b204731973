"""Runs already made, read back instead of trained again: for the test gate only (``AE_RUN_CACHE``).

The test gate executes lesson 07 in every edition (English, Chinese, the pseudo-language), and each execution
trains the same recipe on the same data. On one machine that is bit for bit the same run (the seeds are fixed
and BLAS runs on one thread), so training it again only costs time. With the environment variable
``AE_RUN_CACHE`` naming a folder, :func:`~.train.train` keeps each run it finishes there and, asked for the same
run again, reads it back (parameters, losses, validation checks) and replays its progress through the callback:
the gate trains each recipe once. Unset, as for a reader, nothing is read or written.

Two runs are the same when everything they depend on is: the configuration, the training and validation data,
the package's source, numpy's version, the CPU features numpy uses and the BLAS library (its kernel included:
``OPENBLAS_CORETYPE`` changes it). The key hashes all of them. Processes that ask for the same run at the same
time (the gate spreads the notebooks over the cores) do not both train it: :func:`claim` makes the second wait
for the first and read its run back.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

ENV = "AE_RUN_CACHE"  # the environment variable naming the folder
PACKAGE = Path(__file__).resolve().parents[1]  # attention_core/


def folder() -> Path | None:
    """The cache's folder, or None when the gate did not ask for one."""
    where = os.environ.get(ENV)
    return Path(where) if where else None


def key(cfg, splits) -> str:
    """A run's identity: its configuration, data, the package's source, numpy and the BLAS library."""
    from threadpoolctl import threadpool_info

    h = hashlib.sha256(repr(cfg).encode())
    for part in (splits.train, splits.valid):
        for pair in part:
            h.update(pair.src.tobytes() + b"|" + pair.tgt.tobytes() + b"|" + pair.align.tobytes() + b";")
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(path.read_bytes())
    blas = sorted((i.get("internal_api"), i.get("version"), i.get("architecture")) for i in threadpool_info())
    features = sorted(name for name, on in _cpu_features().items() if on)
    h.update(f"{np.__version__} {blas} {features}".encode())
    return h.hexdigest()[:32]


def _cpu_features() -> dict:
    """The CPU features numpy's own kernels use here (``NPY_DISABLE_CPU_FEATURES`` turns some off)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__
    return dict(__cpu_features__)


@contextlib.contextmanager
def claim(cfg, splits):
    """Hold the run's lock while it is looked up, trained and kept: a process asking for a run another process
    is training waits, then reads it back. Nothing happens without a cache, or where ``fcntl`` is missing."""
    where = folder()
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock; at worst the run is trained twice
        fcntl = None
    if where is None or fcntl is None:
        yield
        return
    where.mkdir(parents=True, exist_ok=True)
    with open(where / f"{key(cfg, splits)}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def load(cfg, splits):
    """``(params, steps, losses, checks)`` of the same run made earlier, or None (no cache, or not made yet)."""
    where = folder()
    if where is None:
        return None
    name = key(cfg, splits)
    record, arrays = where / f"{name}.json", where / f"{name}.npz"
    if not (record.exists() and arrays.exists()):
        return None
    made = json.loads(record.read_text(encoding="utf-8"))
    with np.load(arrays) as saved:
        params = {k: saved[k] for k in saved.files}
    return params, made["steps"], made["losses"], [tuple(c) for c in made["checks"]]


def save(cfg, splits, params: dict, steps: int, losses: list, checks: list) -> None:
    """Keep a finished run (each file written whole, then renamed: processes running side by side see a run
    completely or not at all)."""
    where = folder()
    if where is None:
        return
    where.mkdir(parents=True, exist_ok=True)
    name = key(cfg, splits)
    for suffix, write in (
        (".npz", lambda f: np.savez(f, **params)),
        (".json", lambda f: f.write(json.dumps({"steps": steps, "losses": losses, "checks": checks}).encode())),
    ):
        with tempfile.NamedTemporaryFile(dir=where, delete=False, suffix=suffix) as f:
            write(f)
        os.replace(f.name, where / f"{name}{suffix}")
