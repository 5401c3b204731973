"""The models' boundary: configs, token ids, batches and the command line refuse nonsense with clear errors,
and every training and evaluation entry point runs with BLAS pinned."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from attention_core.models import _blas, data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, alignment_misses, evaluate
from tests.helpers import as_main

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3)


@pytest.mark.parametrize(
    "field, value, error",
    [("d_emb", 0, ValueError), ("d_att", -1, ValueError), ("d_dec", 2.5, TypeError), ("dtype", "int8", ValueError),
     ("attention", 1, TypeError), ("tgt_vocab", 2, ValueError)],
)  # fmt: skip
def test_model_config_refuses_nonsense(field, value, error):
    with pytest.raises(error, match=field):
        ModelConfig(**{field: value})


@pytest.mark.parametrize(
    "field, value",
    [("batch_size", 0), ("lr", 0.0), ("lr", -1.0), ("steps", -5), ("steps", 0), ("clip_norm", 0.0), ("n_train", 0),
     ("seed", -1), ("beta1", 1.0), ("beta2", 1.5), ("lr", float("nan")), ("target_accuracy", 1.5)],
)  # fmt: skip
def test_train_config_refuses_nonsense(field, value):
    with pytest.raises(ValueError, match=field if field not in ("beta1",) else "beta"):
        TrainConfig(**{field: value})


def test_train_config_refuses_a_bool_where_a_number_belongs():
    with pytest.raises(TypeError, match="steps"):
        TrainConfig(steps=True)


def test_init_refuses_a_negative_seed():
    with pytest.raises(ValueError, match="seed"):
        Seq2Seq(TINY, seed=-1)


@pytest.mark.parametrize(
    "src, error, match",
    [(np.array([1, 2, 3]), ValueError, r"\(N, T\)"), (np.zeros((1, 0), dtype=int), ValueError, "N, T >= 1"),
     ([[1, 2, 3]], TypeError, "numpy integer array"), (np.array([[1, 99]]), ValueError, "vocabulary"),
     (np.array([[-1, 2]]), ValueError, "vocabulary"), (np.array([[1.0, 2.0]]), TypeError, "integer token ids")],
)  # fmt: skip
def test_greedy_refuses_bad_source_ids(src, error, match):
    with pytest.raises(error, match=match):
        Seq2Seq(TINY).greedy(src)


def test_forward_refuses_a_batch_whose_targets_do_not_fit():
    pair = data.make_splits(0, 5, 1, 1).train[0]
    batch = data.stack([pair])
    bad = data.Batch(batch.src, batch.tgt_in[:, :-1], batch.tgt_out, batch.align)
    with pytest.raises(ValueError, match="tgt_in"):
        Seq2Seq(TINY).forward(bad)


@pytest.mark.parametrize("pairs", [[], (), "pairs"])
def test_evaluate_refuses_no_pairs(pairs):
    with pytest.raises(ValueError, match="pairs"):
        evaluate(Seq2Seq(TINY), pairs)


def test_alignment_misses_needs_an_attention_model():
    pairs = data.make_splits(0, 5, 1, 1).test
    with pytest.raises(ValueError, match="weights name positions"):
        alignment_misses(Seq2Seq(ModelConfig(attention=False, d_emb=3, d_enc=3, d_dec=4, d_att=3)), pairs)


def test_every_training_and_evaluation_entry_point_pins_blas(monkeypatch):
    from attention_core.models import train as train_module
    from attention_core.models.encoder import RecurrentEncoder

    def blas_threads():
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    seen = []
    real_encode = RecurrentEncoder.encode

    def spy(self, params, src):  # every entry point encodes a batch: record the BLAS threads at that moment
        seen.append(blas_threads())
        return real_encode(self, params, src)

    monkeypatch.setattr(RecurrentEncoder, "encode", spy)
    model = Seq2Seq(TINY)
    splits = data.make_splits(0, 40, 5, 5)
    one = data.stack(splits.test[:1])
    small = TrainConfig(model=TINY, steps=2, n_train=40, n_valid=5, n_test=5, eval_every=1)
    calls = {
        "train": lambda: train_module.train(small, splits),
        "evaluate": lambda: evaluate(model, splits.test),
        "alignment_misses": lambda: alignment_misses(model, splits.test),
        "greedy": lambda: model.greedy(one.src),
        "decoder_reads": lambda: model.decoder_reads(one),
        "encoder_reads": lambda: model.encoder_reads(one.src),
    }
    with threadpool_limits(2):  # a caller that left BLAS at two threads
        for name, call in calls.items():
            seen.clear()
            call()
            assert seen and all(threads == {_blas.BLAS_THREADS} for threads in seen), (name, seen)


@pytest.mark.parametrize("args", [["--seed", "-1"], ["--steps", "-1"], ["--steps", "0"], ["--target", "2"]])
def test_train_cli_refuses_bad_arguments_in_one_line(args, capsys):
    run = as_main("attention_core", "train", *args, capsys=capsys)  # in this process (tests.helpers)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "error:" in run.stderr
