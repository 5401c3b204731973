"""The committed trained parameters reproduce their recorded figures, and were made with today's recipe."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, evaluate, train
from attention_core.models.trained import (
    LESSON07,
    SNAPSHOT_DIR,
    SNAPSHOT_EVERY,
    TRAINED_DIR,
    SnapshotRecorder,
    load_snapshots,
    load_trained,
    save_trained,
    snapshot_sentences,
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


# ---------------------------------------------------------------------------------------------------------
# Snapshots of the committed lesson-07 run (scripts/train_committed.py --snapshots)


def test_a_snapshot_hook_sees_the_steps_and_changes_nothing():
    cfg = TrainConfig(
        model=ModelConfig(d_emb=4, d_enc=4, d_dec=6, d_att=5), n_train=400, n_valid=20, n_test=20, steps=25,
        eval_every=10, warmup_steps=5,
    )  # fmt: skip
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    seen = []

    def hook(step, model):
        seen.append(step)
        model.greedy(data.stack([splits.valid[0]]).src)  # evaluating is allowed

    plain = train(cfg, splits, progress=False)
    watched = train(cfg, splits, progress=False, snapshot=hook, snapshot_every=10)
    assert seen == [0, 10, 20, 25]
    assert watched.losses == plain.losses
    for key, value in plain.model.params.items():
        np.testing.assert_array_equal(watched.model.params[key], value)
    with pytest.raises(TypeError, match="snapshot"):
        train(cfg, splits, progress=False, snapshot="not a function")


def test_snapshot_recorder_stores_rounded_reads_and_validation_figures():
    cfg = TrainConfig(model=ModelConfig(d_emb=4, d_enc=4, d_dec=6, d_att=5), n_train=300, n_valid=30, n_test=200)
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    sentences = snapshot_sentences(splits.test, (6, 8))
    recorder = SnapshotRecorder(sentences, splits.valid)
    model = Seq2Seq(cfg.model, seed=1)
    recorder(0, model)
    record = recorder.record("tiny", "a command")
    weights, _ = model.decoder_reads(data.stack([sentences[1]]))  # (1, U, T)
    np.testing.assert_array_equal(record["weights"][0][1], np.rint(weights[0] * 1000).ravel())
    assert record["steps"] == [0] and len(record["outputs"][0][0]) == 7
    ev = evaluate(model, splits.valid)
    assert record["valid_token"] == [round(ev.token_accuracy(), 6)]
    assert record["valid_alignment"] == [round(ev.alignment_accuracy(), 6)]
    assert record["sentences"][0]["source"] == sentences[0].words()[0]


def test_committed_snapshots_end_at_the_committed_parameters(test_pairs):
    """The snapshots come from the run that made the committed parameters: its validation checks agree with the
    run's record, and the last snapshot is what the committed model reads."""
    snaps, record = load_snapshots(LESSON07), trained_record(LESSON07)
    assert snaps["steps"] == list(range(0, RUNS[LESSON07].steps + 1, SNAPSHOT_EVERY))
    checks = dict(zip(snaps["steps"], snaps["valid_token"], strict=True))
    assert all(checks[step] == acc for step, acc in record["checks"]), "not the committed run's validation checks"
    model = load_trained(LESSON07)
    for i, pair in enumerate(snapshot_sentences(test_pairs)):
        assert snaps["sentences"][i]["source"] == pair.words()[0]
        weights, _ = model.decoder_reads(data.stack([pair]))
        got = np.array(snaps["weights"][-1][i]).reshape(weights.shape[1:]) / 10 ** snaps["digits"]
        np.testing.assert_allclose(got, weights[0], atol=0.5e-3 + 1e-7)
        tokens, _ = model.greedy(pair.src[None])
        assert snaps["outputs"][-1][i] == tokens[0].tolist()
    size = (SNAPSHOT_DIR / f"{LESSON07}.json").stat().st_size
    assert size < 160_000, f"the snapshot file should stay small for the website, it has {size} bytes"
