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
the second wait for the first and read its run back. Each entry's two files are written whole, then renamed
(:mod:`attention_core.files`). An entry that cannot be used is a miss, whatever is wrong with it (an empty or cut
``.npz``, a record cut short or of another layout, parameters with NaN, of another shape, dtype or name, losses
that do not match its steps): the run is trained again, the entry written anew, and one line on stderr names the
file that was skipped, what was wrong with it and ``AE_RUN_CACHE``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
from filelock import FileLock

from attention_core import files
from attention_core.models import train as train_module
from attention_core.models.seq2seq import build_model

ENV = "AE_RUN_CACHE"  # the environment variable naming the folder


def folder() -> Path | None:
    """The cache's folder, or None when the gate did not ask for one."""
    where = os.environ.get(ENV)
    return Path(where) if where else None


def key(cfg, splits) -> str:
    """A run's identity: its configuration, its data, and the code that trains it (the package's source, numpy,
    the BLAS library and the CPU features numpy uses: :func:`attention_workshop.seed_study.fingerprint`, which
    keys the seed study's kept runs too; imported here, not when a kernel starts)."""
    from attention_workshop.seed_study import fingerprint

    h = hashlib.sha256(repr(cfg).encode())
    for part in (splits.train, splits.valid):
        for pair in part:
            h.update(pair.src.tobytes() + b"|" + pair.tgt.tobytes() + b"|" + pair.align.tobytes() + b";")
    h.update(fingerprint().encode())
    return h.hexdigest()[:32]


@contextlib.contextmanager
def claim(where: Path, name: str):
    """Hold the run's lock while it is looked up, trained and kept: a process asking for a run another process
    is training waits, then reads it back."""
    where.mkdir(parents=True, exist_ok=True)
    with FileLock(where / f"{name}.lock"):
        yield


def load(where: Path, name: str, cfg=None):
    """``(params, steps, losses, checks)`` of the run kept as ``name``, or None: not made yet, or not usable (then
    :func:`skipped` says so). With ``cfg``, the parameters must be a model of ``cfg.model``'s: the same names,
    shapes and dtype, and finite values (the model's own check of assigned parameters)."""
    record, arrays = where / f"{name}.json", where / f"{name}.npz"
    if not (record.exists() or arrays.exists()):
        return None
    try:
        made = json.loads(record.read_text(encoding="utf-8"))
        steps, losses, checks = int(made["steps"]), list(made["losses"]), [tuple(c) for c in made["checks"]]
        if len(losses) != steps or not all(isinstance(x, float) and math.isfinite(x) for x in losses):
            raise ValueError(f"{len(losses)} losses for {steps} steps, or a loss that is not a finite number")
    except Exception as error:  # missing, cut short, not JSON, another layout
        return skipped(record, error)
    try:
        with np.load(arrays) as saved:
            params = {k: saved[k] for k in saved.files}
        if cfg is not None:
            build_model(cfg.model, seed=cfg.seed).params = params
    except Exception as error:  # missing, empty, cut short, NaN, another shape, dtype or model
        return skipped(arrays, error)
    return params, steps, losses, checks


def skipped(path: Path, error: Exception) -> None:
    """A miss: one line on stderr naming the entry's file that could not be used and why."""
    why = f"{type(error).__name__}: {error}".splitlines()[0]
    print(f"tests/run_cache.py: skipped {path} ({ENV}): {why}; the run is trained again", file=sys.stderr)


def save(where: Path, name: str, params: dict, steps: int, losses: list, checks: list) -> None:
    """Keep a finished run (each file written whole, then renamed: processes running side by side see a run
    completely or not at all)."""
    with files.replacing(where / f"{name}.npz", "wb") as f:
        np.savez(f, **params)
    files.write_text(where / f"{name}.json", json.dumps({"steps": steps, "losses": losses, "checks": checks}))


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
            made = load(where, name, cfg)
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
