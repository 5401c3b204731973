"""The committed trained parameters reproduce their recorded figures, and were made with today's recipe."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, TrainResult, evaluate, splits_for
from attention_core.models.trained import (
    EVAL_DTYPE,
    LESSON07,
    LIVE_TOLERANCE,
    TRAINED_DIR,
    VERB_FINAL,
    in_eval_dtype,
    live_differences,
    load_trained,
    save_trained,
    trained_config,
    trained_record,
)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_committed.py"


def committed_runs() -> dict[str, TrainConfig]:
    """The recipes of scripts/train_committed.py, by name (the script is the one place that lists them)."""
    spec = importlib.util.spec_from_file_location("train_committed", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RUNS


RUNS = committed_runs()


@functools.cache
def pairs_of(name: str) -> list:
    """The test set of the committed model ``name``: its recipe's data seed, sizes and target language."""
    return splits_for(RUNS[name]).test


def test_every_recipe_has_committed_parameters_and_nothing_else_is_committed():
    assert (
        sorted(RUNS)
        == sorted(p.stem for p in TRAINED_DIR.glob("*.npz"))
        == sorted(p.stem for p in TRAINED_DIR.glob("*.json"))
    )


@pytest.mark.parametrize("name", sorted(RUNS))
def test_committed_parameters_give_the_recorded_test_counts_exactly(name):
    # Evaluated in float64, fixed parameters give the same decisions on every CPU and BLAS kernel (their margins
    # are checked in test_margins.py): any change of model code, data or parameters that changes a single decoded
    # token fails here.
    record = trained_record(name)
    model = load_trained(name)
    assert model.cfg.dtype == record["eval_dtype"] == EVAL_DTYPE
    assert dataclasses.asdict(evaluate(model, pairs_of(name))) == record["test_counts"]


def test_the_float64_evaluation_gives_the_float32_counts_of_lesson_07s_model():
    # The records were made in float64; the lessons printed lesson 07's figures in float32 before: same counts.
    float32 = dataclasses.asdict(evaluate(load_trained(LESSON07, dtype="float32"), pairs_of(LESSON07)))
    assert float32 == trained_record(LESSON07)["test_counts"]


def test_trained_config_is_the_recipe_and_gives_the_test_set():
    for name, recipe in RUNS.items():
        assert trained_config(name) == recipe
    assert trained_config(VERB_FINAL).language == "verb_final" and trained_config(LESSON07).language == "svo"


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
    as_saved, for_the_book = load_trained("tiny", tmp_path, dtype="float32"), load_trained("tiny", tmp_path)
    assert as_saved.cfg == model.cfg
    assert for_the_book.cfg == dataclasses.replace(model.cfg, dtype="float64")  # EVAL_DTYPE, an exact cast
    for key, value in model.params.items():
        np.testing.assert_array_equal(as_saved.params[key], value)
        assert for_the_book.params[key].dtype == np.float64
        np.testing.assert_array_equal(for_the_book.params[key], value)
    copy = in_eval_dtype(model)
    assert copy.cfg == for_the_book.cfg and all(np.array_equal(copy.params[k], v) for k, v in model.params.items())


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


def test_live_differences_compare_a_run_with_the_committed_parameters():
    # A "run" whose model is the committed parameters in float32 and whose first loss is the recorded one: every
    # figure lies within LIVE_TOLERANCE (the float32 counts equal the float64 ones here); the first loss of a run
    # with another initialisation seed does not.
    record = trained_record(LESSON07)
    splits = splits_for(trained_config(LESSON07))
    same = TrainResult(load_trained(LESSON07, dtype="float32"), 1000, record["losses"], [], splits)
    diffs = live_differences(same)
    assert set(diffs) == set(LIVE_TOLERANCE)
    assert all(abs(mine - committed) <= LIVE_TOLERANCE[k] for k, (mine, committed) in diffs.items())
    assert diffs["token"][0] == diffs["token"][1] and diffs["first_loss"][0] == diffs["first_loss"][1]
    other_seed = Seq2Seq(ModelConfig(), seed=1).forward(data.stack(list(splits.train[:1])))[0]
    first_seed0 = Seq2Seq(ModelConfig(), seed=0).forward(data.stack(list(splits.train[:1])))[0]
    assert abs(other_seed - first_seed0) > 100 * LIVE_TOLERANCE["first_loss"]
