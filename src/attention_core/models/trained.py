"""Committed trained parameters: the models whose figures the book prints (lesson 07, the website).

Training amplifies the last bit of every float: the same seed and recipe give bit-identical runs on one machine
but slightly different models on another CPU or BLAS kernel (lesson 07's recipe gave test token accuracy
0.9978-0.9991 under five kernels). Evaluating one fixed set of parameters, on the other hand, gives the same
counts everywhere. So every figure the book prints about a trained model comes from parameters trained once
and committed here, beside a record of how they were made::

    trained/<name>.npz    the parameters, by name (float32)
    trained/<name>.json   the command, seeds and configuration, the training losses and validation checks,
                          and the test-set counts the parameters gave when they were saved

``scripts/train_committed.py`` writes both; ``tests/test_trained.py`` checks that loading and evaluating the
parameters reproduces the recorded counts exactly.

With ``--snapshots`` the same script also writes ``trained/snapshots/<name>.json``: what the model read at every
``SNAPSHOT_EVERY``-th step of that very run (:class:`SnapshotRecorder`), for lesson 07's "watch it learn"
scrubber. The snapshots are taken by the run that made the parameters, so they end exactly where the committed
parameters are.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from . import data
from .seq2seq import ModelConfig, Seq2Seq, build_model
from .train import evaluate

TRAINED_DIR = Path(__file__).resolve().parent / "trained"
SNAPSHOT_DIR = TRAINED_DIR / "snapshots"
SNAPSHOT_EVERY = 20  # optimiser steps between two snapshots of a committed run
SNAPSHOT_LENGTHS = (6, 12, 27)  # snapshot sentences: the first test sentence of each of these source lengths
SNAPSHOT_DIGITS = 3  # weights are stored as integers in units of 10**-SNAPSHOT_DIGITS
LESSON07 = "lesson07_attention_seed0"  # the attention model of lesson 07 (TrainConfig defaults, seed 0)
LESSON08_SWAPPED = "lesson08_general_score_seed0"  # lesson 08: Bahdanau's decoder with Luong's general score
LESSON08_LUONG = "lesson08_luong_seed0"  # lesson 08: the same recipe with Luong's decoder order


def save_trained(name: str, model: Seq2Seq, record: dict, folder: Path = TRAINED_DIR) -> tuple[Path, Path]:
    """Write ``model``'s parameters to ``<folder>/<name>.npz`` and ``record`` (plus the model config) as JSON."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    npz, meta = folder / f"{name}.npz", folder / f"{name}.json"
    np.savez_compressed(npz, **model.params)
    full = {"model": dataclasses.asdict(model.cfg), **record}
    meta.write_text(json.dumps(full, indent=1) + "\n")
    return npz, meta


def trained_record(name: str = LESSON07, folder: Path = TRAINED_DIR) -> dict:
    """The JSON record saved beside the parameters ``name``: command, seeds, configuration, losses, counts."""
    meta = Path(folder) / f"{name}.json"
    if not meta.exists():
        known = sorted(p.stem for p in Path(folder).glob("*.json"))
        raise FileNotFoundError(
            f"no trained parameters named {name!r} in {folder} (have: {known}); "
            "`.venv/bin/python scripts/train_committed.py` makes them"
        )
    return json.loads(meta.read_text())


def load_trained(name: str = LESSON07, folder: Path = TRAINED_DIR) -> Seq2Seq:
    """The committed model ``name``, ready for :func:`~.train.evaluate`, ``greedy`` and ``decoder_reads``."""
    record = trained_record(name, folder)
    model = build_model(ModelConfig(**record["model"]))
    with np.load(Path(folder) / f"{name}.npz") as saved:
        missing = set(model.params) ^ set(saved.files)
        if missing:
            raise ValueError(f"{name}.npz does not match its config: parameters {sorted(missing)} differ")
        for key in model.params:
            if saved[key].shape != model.params[key].shape:
                raise ValueError(
                    f"{name}.npz: parameter {key} has shape {saved[key].shape}, the config needs "
                    f"{model.params[key].shape}"
                )
            model.params[key] = saved[key].astype(model.params[key].dtype)
    return model


def snapshot_sentences(test: list[data.Pair], lengths: tuple[int, ...] = SNAPSHOT_LENGTHS) -> list[data.Pair]:
    """The sentences whose reads the snapshots record: the first test sentence of each source length."""
    found = []
    for length in lengths:
        pair = next((p for p in test if len(p.src) == length), None)
        if pair is None:
            raise ValueError(f"no test sentence of source length {length}")
        found.append(pair)
    return found


class SnapshotRecorder:
    """A ``snapshot(step, model)`` hook for :func:`~.train.train`: what the model reads as it learns.

    At every call it records, for each of ``sentences``: the teacher-forced attention weights ``alpha (U, T)``
    over the reference translation (rows: the reference words and the end symbol; stored as integers in units
    of ``10**-digits``) and the greedy translation's token ids; and, over ``valid``, the greedy token accuracy
    and the teacher-forced alignment accuracy. Nothing is changed in the model. ``record()`` gives the JSON
    dictionary that :func:`save_snapshots` writes.
    """

    def __init__(self, sentences: list[data.Pair], valid: list[data.Pair], digits: int = SNAPSHOT_DIGITS):
        self.sentences, self.valid, self.digits = list(sentences), list(valid), digits
        self.steps: list[int] = []
        self.valid_token: list[float] = []
        self.valid_alignment: list[float] = []
        self.weights: list[list[list[int]]] = []  # [snapshot][sentence] -> U * T integers, row by row
        self.outputs: list[list[list[int]]] = []  # [snapshot][sentence] -> greedy token ids

    def __call__(self, step: int, model: Seq2Seq) -> None:
        scale = 10**self.digits
        weights, outputs = [], []
        for pair in self.sentences:
            batch = data.stack([pair])
            alpha, _ = model.decoder_reads(batch)  # (1, U, T) teacher-forced
            weights.append([int(x) for x in np.rint(alpha[0] * scale).astype(np.int64).ravel()])
            tokens, _ = model.greedy(batch.src)  # (1, T + 1)
            outputs.append([int(k) for k in tokens[0]])
        ev = evaluate(model, self.valid)
        self.steps.append(int(step))
        self.valid_token.append(round(ev.token_accuracy(), 6))
        self.valid_alignment.append(round(ev.alignment_accuracy(), 6))
        self.weights.append(weights)
        self.outputs.append(outputs)

    def record(self, name: str, command: str) -> dict:
        return {
            "model": name,
            "command": command,
            "digits": self.digits,
            "sentences": [
                {"source": p.words()[0], "reference": p.words()[1], "true_source": [int(j) for j in p.align]}
                for p in self.sentences
            ],
            "steps": self.steps,
            "valid_token": self.valid_token,
            "valid_alignment": self.valid_alignment,
            "weights": self.weights,
            "outputs": self.outputs,
        }


def save_snapshots(name: str, record: dict, folder: Path = SNAPSHOT_DIR) -> Path:
    """Write a :class:`SnapshotRecorder` record as compact JSON to ``<folder>/<name>.json``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    return path


def load_snapshots(name: str = LESSON07, folder: Path = SNAPSHOT_DIR) -> dict:
    """The committed snapshots of the run that made ``name`` (see :class:`SnapshotRecorder`)."""
    path = Path(folder) / f"{name}.json"
    if not path.exists():
        raise FileNotFoundError(
            f"no snapshots of {name!r} in {folder}: "
            f"`.venv/bin/python scripts/train_committed.py --only {name} --snapshots` makes them"
        )
    return json.loads(path.read_text())
