"""The committed trained parameters reproduce their recorded figures, and were made with today's recipe."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, TrainResult, evaluate, splits_for, train
from attention_core.models.trained import (
    EVAL_DTYPE,
    LESSON07,
    LIVE_TOLERANCE,
    SNAPSHOT_DIR,
    SNAPSHOT_EVERY,
    TRAINED_DIR,
    VERB_FINAL,
    SnapshotRecorder,
    in_eval_dtype,
    live_differences,
    load_snapshots,
    load_trained,
    save_snapshots,
    save_trained,
    snapshot_sentences,
    trained_config,
    trained_record,
)
from attention_workshop import train_committed

RUNS: dict[str, TrainConfig] = train_committed.RUNS  # the recipes, by name: the script is the one place that lists them


def pairs_of(name: str) -> list:
    """The test set of the committed model ``name``: its recipe's data seed, sizes and target language."""
    return splits_of(RUNS[name]).test


def splits_of(recipe: TrainConfig) -> data.Splits:
    """``splits_for(recipe)``, made once per data seed, sizes and language (what it reads of the recipe): the seven
    recipes share two, each about 0.4 CPU-seconds to make."""
    key = (recipe.data_seed, recipe.n_train, recipe.n_valid, recipe.n_test, recipe.language)
    if key not in SPLITS:
        SPLITS[key] = splits_for(recipe)
    return SPLITS[key]


SPLITS: dict[tuple, data.Splits] = {}


def test_every_recipe_has_committed_parameters_and_nothing_else_is_committed():
    assert (
        sorted(RUNS)
        == sorted(p.stem for p in TRAINED_DIR.glob("*.npz"))
        == sorted(p.stem for p in TRAINED_DIR.glob("*.json"))
    )


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=() if name == LESSON07 else pytest.mark.slow) for name in sorted(RUNS)]
)  # `make check` decodes lesson 07's test set (about 2.5 s); `make test` every model's (about 12 s)
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
    assert record["command"] == f"python -m attention_workshop.train_committed --only {name}"


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
    with pytest.raises(FileNotFoundError, match="attention_workshop.train_committed"):
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


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (lambda record: record.pop("train_config"), "(no 'train_config')"),
        (lambda record: record["train_config"].update(colour="blue"), "unexpected keyword argument 'colour'"),
        (lambda record: record["model"].update(colour="blue"), "unexpected keyword argument 'colour'"),
    ],
)
def test_a_record_whose_training_configuration_is_not_valid_is_named(tmp_path, spoil, says):
    """trained_config raised a KeyError or a TypeError naming neither the file nor the model."""
    record = trained_record(LESSON07)
    spoil(record)
    path = tmp_path / f"{LESSON07}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ValueError) as info:
        trained_config(LESSON07, tmp_path)
    assert str(info.value).startswith(f"{path}: its training configuration is not valid") and says in str(info.value)


@pytest.mark.parametrize("how", ["truncated", "empty", "not a record"])
def test_a_truncated_snapshots_file_is_named(tmp_path, how):
    """A truncated file was a JSONDecodeError naming no file."""
    text = (SNAPSHOT_DIR / f"{LESSON07}.json").read_text(encoding="utf-8")
    path = tmp_path / f"{LESSON07}.json"
    path.write_text({"truncated": text[: len(text) // 2], "empty": "", "not a record": "{}"}[how], encoding="utf-8")
    with pytest.raises(ValueError) as info:
        load_snapshots(LESSON07, tmp_path)
    message = str(info.value)
    assert message.startswith(f"{path} is not ") and f"--only {LESSON07} --snapshots" in message, message


def test_train_committed_replaces_a_committed_file_it_cannot_read(tmp_path, monkeypatch, capsys):
    """A truncated committed .npz made ``train_committed`` end in a traceback after the training, saving nothing."""
    params = _saved_tiny(tmp_path)
    monkeypatch.setattr(train_committed, "TRAINED_DIR", tmp_path)
    assert train_committed.same_as_committed("tiny", params) is True
    (tmp_path / "tiny.npz").write_bytes((tmp_path / "tiny.npz").read_bytes()[:100])
    assert train_committed.same_as_committed("tiny", params) is False
    assert capsys.readouterr().out.startswith("tiny: the committed tiny.npz cannot be read (")
    assert train_committed.same_as_committed("absent", params) is None


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
    (tmp_path / "tiny.json").write_text("{}")  # "../tiny" from inner/ would find these snapshots
    with pytest.raises((ValueError, TypeError), match="plain name"):
        load_snapshots(name, tmp_path / "inner")
    with pytest.raises((ValueError, TypeError), match="plain name"):
        save_snapshots(name, {}, tmp_path / "inner")


def test_live_differences_compare_a_run_with_the_committed_parameters():
    # A "run" whose model is the committed parameters in float32 and whose first loss is the recorded one: every
    # figure lies within LIVE_TOLERANCE (the float32 counts equal the float64 ones here); the first loss of a run
    # with another initialisation seed does not.
    record = trained_record(LESSON07)
    splits = splits_of(trained_config(LESSON07))
    same = TrainResult(load_trained(LESSON07, dtype="float32"), 1000, record["losses"], [], splits)
    diffs = live_differences(same)
    assert set(diffs) == set(LIVE_TOLERANCE)
    assert all(abs(mine - committed) <= LIVE_TOLERANCE[k] for k, (mine, committed) in diffs.items())
    assert diffs["token"][0] == diffs["token"][1] and diffs["first_loss"][0] == diffs["first_loss"][1]
    other_seed = Seq2Seq(ModelConfig(), seed=1).forward(data.stack(list(splits.train[:1])))[0]
    first_seed0 = Seq2Seq(ModelConfig(), seed=0).forward(data.stack(list(splits.train[:1])))[0]
    assert abs(other_seed - first_seed0) > 100 * LIVE_TOLERANCE["first_loss"]


def test_live_differences_refuse_a_run_evaluated_on_another_test_set():
    # The committed side is the record's test counts, not evaluated again: a run whose test set is not the
    # recipe's (here its first 50 sentences) cannot be compared with them.
    record = trained_record(LESSON07)
    splits = splits_for(trained_config(LESSON07))
    cut = dataclasses.replace(splits, test=splits.test[:50])
    run = TrainResult(load_trained(LESSON07, dtype="float32"), 1000, record["losses"], [], cut)
    with pytest.raises(ValueError, match="live_differences: the run was not evaluated on the test set of"):
        live_differences(run)


# ---------------------------------------------------------------------------------------------------------
# Snapshots of the committed lesson-07 run (src/attention_workshop/train_committed.py --snapshots)


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

    plain = train(cfg, splits)
    watched = train(cfg, splits, snapshot=hook, snapshot_every=10)
    assert seen == [0, 10, 20, 25]
    assert watched.losses == plain.losses
    for key, value in plain.model.params.items():
        np.testing.assert_array_equal(watched.model.params[key], value)
    with pytest.raises(TypeError, match="snapshot"):
        train(cfg, splits, snapshot="not a function")


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


@pytest.fixture(scope="module")
def test_pairs():
    return pairs_of(LESSON07)


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
