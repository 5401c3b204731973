"""The test gate's run cache: runs already made, read back instead of trained again (``AE_RUN_CACHE``).

The gate executes lesson 07 in every edition (English, Chinese, the pseudo-language), and each execution trains
the same recipe on the same data. On one machine that is bit for bit the same run (the seeds are fixed and BLAS
runs on one thread), so training it again only costs time. The reader's :func:`attention_core.models.train.train`
knows nothing of this: under the gate every notebook kernel runs :mod:`tests.kernel_startup` (an IPython startup
file, installed by the root ``conftest.py``), which calls :func:`install`. That wraps ``train`` so that it keeps
each run it finishes in the folder ``AE_RUN_CACHE`` names and, asked for the same run again, reads it back
(parameters, losses, validation checks) and replays its progress through the callback: the gate trains each
recipe once.

Two runs are the same when everything they depend on is: the configuration, the training and validation data,
the package's source, numpy's version, the CPU features numpy uses and the BLAS library (its kernel included:
``OPENBLAS_CORETYPE`` changes it). The key hashes all of them. Processes that ask for the same run at the same
time (the gate spreads the notebooks over the cores) do not both train it: :func:`claim` (a ``filelock``) makes
the second wait for the first and read its run back. An entry that cannot be read (cut short, corrupt, of
another layout) is a miss: the run is trained again and the entry written anew.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from filelock import FileLock

import attention_core
from attention_core.models import train as train_module
from attention_core.models.seq2seq import build_model

ENV = "AE_RUN_CACHE"  # the environment variable naming the folder
PACKAGE = Path(attention_core.__file__).resolve().parent  # attention_core/


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
    from numpy._core._multiarray_umath import __cpu_features__

    return dict(__cpu_features__)


@contextlib.contextmanager
def claim(where: Path, name: str):
    """Hold the run's lock while it is looked up, trained and kept: a process asking for a run another process
    is training waits, then reads it back."""
    where.mkdir(parents=True, exist_ok=True)
    with FileLock(where / f"{name}.lock"):
        yield


def load(where: Path, name: str):
    """``(params, steps, losses, checks)`` of the run kept as ``name``, or None: not made yet, or unreadable."""
    record, arrays = where / f"{name}.json", where / f"{name}.npz"
    if not (record.exists() and arrays.exists()):
        return None
    try:
        made = json.loads(record.read_text(encoding="utf-8"))
        with np.load(arrays) as saved:
            params = {k: saved[k] for k in saved.files}
        return params, int(made["steps"]), list(made["losses"]), [tuple(c) for c in made["checks"]]
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile):  # cut short or corrupt: a miss
        return None


def save(where: Path, name: str, params: dict, steps: int, losses: list, checks: list) -> None:
    """Keep a finished run (each file written whole, then renamed: processes running side by side see a run
    completely or not at all)."""
    for suffix, write in (
        (".npz", lambda f: np.savez(f, **params)),
        (".json", lambda f: f.write(json.dumps({"steps": steps, "losses": losses, "checks": checks}).encode())),
    ):
        with tempfile.NamedTemporaryFile(dir=where, delete=False, suffix=suffix) as f:
            write(f)
        os.replace(f.name, where / f"{name}{suffix}")


def replayed(cfg, splits, params: dict, steps: int, losses: list, checks: list, callback):
    """A run read back: the same model, losses and checks, its progress replayed through ``callback``."""
    model = build_model(cfg.model, seed=cfg.seed)
    model.params = params
    if callback is not None:
        at = dict(checks)
        for step, loss in enumerate(losses, start=1):
            callback(step, loss, at.get(step))
    return train_module.TrainResult(model, steps, list(losses), list(checks), splits)


def cached(train):
    """``train`` that reads back a run already made (with ``AE_RUN_CACHE`` set and no ``snapshot``)."""

    @functools.wraps(train)
    def train_or_read_back(cfg=None, splits=None, callback=None, snapshot=None, snapshot_every=20):
        cfg = train_module.TrainConfig() if cfg is None else cfg
        where = folder()
        if where is None or snapshot is not None or not isinstance(cfg, train_module.TrainConfig):
            return train(cfg, splits, callback, snapshot, snapshot_every)
        splits = train_module.splits_for(cfg) if splits is None else splits
        name = key(cfg, splits)
        with claim(where, name):
            made = load(where, name)
            if made is not None:
                return replayed(cfg, splits, *made, callback)
            result = train(cfg, splits, callback, None, snapshot_every)
            save(where, name, result.model.params, result.steps, result.losses, result.checks)
            return result

    train_or_read_back.gate_cache = True
    return train_or_read_back


def install() -> None:
    """Make ``attention_core.models.train.train`` read back runs already made (once; for the gate's kernels)."""
    if not getattr(train_module.train, "gate_cache", False):
        train_module.train = cached(train_module.train)
