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
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
import zlib
from pathlib import Path

import numpy as np

from .._validate import plain_name, real_array, require, shape_str
from .seq2seq import ModelConfig, Seq2Seq, build_model

TRAINED_DIR = Path(__file__).resolve().parent / "trained"
LESSON07 = "lesson07_attention_seed0"  # the attention model of lesson 07 (TrainConfig defaults, seed 0)
LESSON08_SWAPPED = "lesson08_general_score_seed0"  # lesson 08: Bahdanau's decoder with Luong's general score
LESSON08_LUONG = "lesson08_luong_seed0"  # lesson 08: the same recipe with Luong's decoder order


def save_trained(name: str, model: Seq2Seq, record: dict, folder: Path = TRAINED_DIR) -> tuple[Path, Path]:
    """Write ``model``'s parameters to ``<folder>/<name>.npz`` and ``record`` (plus the model config) as JSON."""
    folder = Path(folder)
    npz, meta = folder / f"{plain_name(name)}.npz", folder / f"{name}.json"
    folder.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(npz, **model.params)
    full = {"model": dataclasses.asdict(model.cfg), **record}
    meta.write_text(json.dumps(full, indent=1) + "\n")
    return npz, meta


def trained_record(name: str = LESSON07, folder: Path = TRAINED_DIR) -> dict:
    """The JSON record saved beside the parameters ``name``: command, seeds, configuration, losses, counts."""
    meta = Path(folder) / f"{plain_name(name)}.json"
    if not meta.exists():
        known = sorted(p.stem for p in Path(folder).glob("*.json"))
        raise FileNotFoundError(
            f"no trained parameters named {name!r} in {folder} (have: {known}); "
            "`.venv/bin/python scripts/train_committed.py` makes them"
        )
    try:
        record = json.loads(meta.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{meta} is not a readable JSON record of trained parameters: {exc}") from None
    require(
        isinstance(record, dict) and isinstance(record.get("model"), dict),
        lambda: f'{meta} must hold a JSON object with the model\'s config under "model"',
    )
    return record


def load_trained(name: str = LESSON07, folder: Path = TRAINED_DIR) -> Seq2Seq:
    """The committed model ``name``, ready for :func:`~.train.evaluate`, ``greedy`` and ``decoder_reads``.

    Every error names the file at fault: a record or parameters file that is empty, truncated or not what it
    should be, a parameter of the wrong shape, or one that is not finite or not real.
    """
    record = trained_record(name, folder)
    meta, npz = Path(folder) / f"{name}.json", Path(folder) / f"{name}.npz"
    try:
        model = build_model(ModelConfig(**record["model"]))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{meta}: its model config is not valid: {exc}") from None
    if not zipfile.is_zipfile(npz):
        raise ValueError(f"{npz} is not an .npz file of parameters: empty, truncated or another kind of file")
    try:
        with np.load(npz, allow_pickle=False) as saved:
            loaded = {key: saved[key] for key in saved.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise ValueError(f"{npz} is not a readable .npz file of parameters: {exc}") from None
    own = model.params  # the config's shapes and dtype, which the loaded parameters must have
    try:
        real = {
            key: real_array(value, f"parameter {key}", expected=shape_str(value.shape)) for key, value in loaded.items()
        }
        model.params = {key: value.astype(own[key].dtype) if key in own else value for key, value in real.items()}
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{npz} does not match its config {meta.name}: {exc}") from None
    return model
