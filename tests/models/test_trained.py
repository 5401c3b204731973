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
