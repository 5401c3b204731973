"""The committed trained parameters reproduce their recorded figures, and were made with today's recipe."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, evaluate
from attention_core.models.trained import LESSON07, load_trained, save_trained, trained_record


@pytest.fixture(scope="module")
def lesson07():
    record = trained_record(LESSON07)
    cfg = TrainConfig()
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    return load_trained(LESSON07), record, splits


def test_committed_parameters_give_the_recorded_test_counts_exactly(lesson07):
    # Evaluating fixed parameters rounds to the same decisions on every CPU and BLAS kernel: any change of
    # model code, data or parameters that changes a single decoded token fails here.
    model, record, splits = lesson07
    assert dataclasses.asdict(evaluate(model, splits.test)) == record["test_counts"]


def test_committed_parameters_were_made_with_the_lessons_recipe(lesson07):
    model, record, _ = lesson07
    recipe = dataclasses.asdict(TrainConfig())
    assert record["model"] == recipe.pop("model")
    assert record["train_config"] == recipe
    assert record["steps"] == len(record["losses"]) == TrainConfig().steps
    assert record["command"].startswith("python scripts/train_committed.py")


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
