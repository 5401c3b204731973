"""The committed trained parameters reproduce their recorded figures, and were made with today's recipe."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, evaluate
from attention_core.models.trained import TRAINED_DIR, load_trained, save_trained, trained_record

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_committed.py"


def committed_runs() -> dict[str, TrainConfig]:
    """The recipes of scripts/train_committed.py, by name (the script is the one place that lists them)."""
    spec = importlib.util.spec_from_file_location("train_committed", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RUNS


RUNS = committed_runs()


@pytest.fixture(scope="module")
def test_pairs():
    cfg = TrainConfig()
    return data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test).test


def test_every_recipe_has_committed_parameters_and_nothing_else_is_committed():
    assert (
        sorted(RUNS)
        == sorted(p.stem for p in TRAINED_DIR.glob("*.npz"))
        == sorted(p.stem for p in TRAINED_DIR.glob("*.json"))
    )


@pytest.mark.parametrize("name", sorted(RUNS))
def test_committed_parameters_give_the_recorded_test_counts_exactly(name, test_pairs):
    # Evaluating fixed parameters rounds to the same decisions on every CPU and BLAS kernel: any change of
    # model code, data or parameters that changes a single decoded token fails here.
    record = trained_record(name)
    assert dataclasses.asdict(evaluate(load_trained(name), test_pairs)) == record["test_counts"]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_committed_parameters_were_made_with_their_recipe(name):
    record = trained_record(name)
    recipe = dataclasses.asdict(RUNS[name])
    assert record["model"] == recipe.pop("model")
    assert record["train_config"] == recipe
    assert record["steps"] == len(record["losses"]) == RUNS[name].steps
    assert record["command"] == f"python scripts/train_committed.py --only {name}"


def test_save_and_load_round_trip(tmp_path):
    model = Seq2Seq(ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3), seed=2)
    save_trained("tiny", model, {"note": "test"}, tmp_path)
    loaded = load_trained("tiny", tmp_path)
    assert loaded.cfg == model.cfg
    for key, value in model.params.items():
        np.testing.assert_array_equal(loaded.params[key], value)


def test_unknown_name_says_how_to_make_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="train_committed.py"):
        load_trained("absent", tmp_path)


def test_parameters_that_do_not_match_the_config_are_refused(tmp_path):
    model = Seq2Seq(ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3), seed=2)
    save_trained("tiny", model, {}, tmp_path)
    params = dict(np.load(tmp_path / "tiny.npz"))
    params["att_v"] = np.zeros(5, dtype=np.float32)
    np.savez(tmp_path / "tiny.npz", **params)
    with pytest.raises(ValueError, match="att_v"):
        load_trained("tiny", tmp_path)


def _saved_tiny(folder: Path) -> dict[str, np.ndarray]:
    """Save a tiny model as ``tiny`` in ``folder``; return its parameters as saved."""
    save_trained("tiny", Seq2Seq(ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3), seed=2), {}, folder)
    return dict(np.load(folder / "tiny.npz"))


@pytest.mark.parametrize(
    "bad, error, words",
    [
        (np.float32(np.nan), ValueError, ["NaN or infinite"]),
        (np.float32(np.inf), ValueError, ["NaN or infinite"]),
        (np.complex64(1 + 2j), TypeError, ["complex"]),
    ],
)
def test_non_finite_or_complex_parameters_are_refused_naming_the_file(tmp_path, bad, error, words):
    params = _saved_tiny(tmp_path)
    params["att_v"] = params["att_v"].astype(np.asarray(bad).dtype)
    params["att_v"][1] = bad
    np.savez(tmp_path / "tiny.npz", **params)
    with pytest.raises(error) as info:
        load_trained("tiny", tmp_path)
    message = str(info.value)
    assert "tiny.npz" in message and "att_v" in message, message
    for word in words:
        assert word in message


def _corrupt(path: Path, how: str) -> None:
    if how == "empty":
        path.write_bytes(b"")
    elif how == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif how == "text":
        path.write_text("these are not parameters\n")
    elif how == "not an object":
        path.write_text("[1, 2, 3]\n")
    elif how == "no model":
        path.write_text('{"note": "no model config"}\n')
    elif how == "bad model":
        path.write_text('{"model": {"d_emb": 3, "colour": "blue"}}\n')


@pytest.mark.parametrize(
    "suffix, how",
    [(".npz", "empty"), (".npz", "truncated"), (".npz", "text"), (".json", "empty"), (".json", "truncated"),
     (".json", "text"), (".json", "not an object"), (".json", "no model"), (".json", "bad model")],
)  # fmt: skip
def test_a_corrupt_file_is_named_in_the_error(tmp_path, suffix, how):
    _saved_tiny(tmp_path)
    path = tmp_path / f"tiny{suffix}"
    _corrupt(path, how)
    with pytest.raises(ValueError) as info:
        load_trained("tiny", tmp_path)
    message = str(info.value)
    assert str(path) in message, message
    assert "allow_pickle" not in message and "pickle" not in message, message


@pytest.mark.parametrize("name", ["../tiny", "sub/tiny", "..", ".", "", "tiny.npz", "/tmp/tiny", "a\\b", 7, None])
def test_a_name_that_is_not_a_plain_name_is_refused(tmp_path, name):
    _saved_tiny(tmp_path)
    _saved_tiny(tmp_path / "inner")  # "../tiny" from inner/ would find the one in tmp_path
    with pytest.raises((ValueError, TypeError), match="plain name"):
        load_trained(name, tmp_path / "inner")
    with pytest.raises((ValueError, TypeError), match="plain name"):
        trained_record(name, tmp_path / "inner")
    with pytest.raises((ValueError, TypeError), match="plain name"):
        save_trained(name, Seq2Seq(ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3)), {}, tmp_path / "inner")
