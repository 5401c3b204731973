"""Lesson 07's claims about the model, each as a check that fails if the claim is false."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, evaluate, train
from attention_core.models.trained import load_trained

SMALL = ModelConfig(d_emb=8, d_enc=8, d_dec=16, d_att=8, dtype="float64")


def batch_of(length: int, n: int = 3, seed: int = 4) -> data.Batch:
    splits = data.make_splits(seed, 400, 1, 1)
    return data.stack([p for p in splits.train if len(p.src) == length][:n])


@pytest.mark.parametrize("step", [0, 2, 5])
def test_the_read_of_a_step_is_made_before_its_state_update(step):
    # Bahdanau's order: c_t is read with s_{t-1}. Changing the input y_step changes s_{step+1} and later states,
    # so c_1 .. c_{step+1} must stay exactly as they were and c_{step+2} must change.
    model = Seq2Seq(SMALL, seed=1)
    batch = batch_of(8)
    _, before = model.decoder_reads(batch)
    tgt_in = batch.tgt_in.copy()
    tgt_in[:, step] = (tgt_in[:, step] + 1 - 2) % (SMALL.tgt_vocab - 2) + 2  # another word, never a symbol
    _, after = model.decoder_reads(data.Batch(batch.src, tgt_in, batch.tgt_out, batch.align))
    np.testing.assert_array_equal(before[:, : step + 1], after[:, : step + 1])
    assert np.abs(before[:, step + 1] - after[:, step + 1]).max() > 1e-6


@pytest.mark.parametrize("attention", [True, False])
def test_training_never_sees_the_alignment_labels(attention):
    model = Seq2Seq(ModelConfig(attention=attention, d_emb=4, d_enc=4, d_dec=5, d_att=4, dtype="float64"), seed=2)
    batch = batch_of(7)
    rng = np.random.default_rng(0)
    scrambled = data.Batch(batch.src, batch.tgt_in, batch.tgt_out, rng.permuted(batch.align, axis=1))
    assert not np.array_equal(scrambled.align, batch.align)
    loss, grads = model.loss_and_grads(batch)
    loss_s, grads_s = model.loss_and_grads(scrambled)
    assert loss == loss_s
    for key in grads:
        np.testing.assert_array_equal(grads[key], grads_s[key])


def test_the_baselines_summary_is_what_every_step_reads():
    model = Seq2Seq(ModelConfig(attention=False, d_emb=4, d_enc=4, d_dec=5, d_att=4), seed=0)
    batch = batch_of(9)
    weights, contexts = model.decoder_reads(batch)
    assert weights is None
    first = contexts[:, :1, :]
    np.testing.assert_array_equal(contexts, np.broadcast_to(first, contexts.shape))


@pytest.mark.slow  # retrains a model (about 5 s): in `make test`, not in `make check`
def test_a_retrained_fixed_summary_baseline_loses_accuracy_with_source_length():
    # A small, short run of the lesson's baseline (not read from results/length_sweep.json): its token accuracy
    # on short sources must clearly beat its accuracy on long ones.
    cfg = TrainConfig(
        model=ModelConfig(attention=False), steps=300, n_train=6000, n_valid=100, n_test=600, eval_every=0
    )
    result = train(cfg)
    ev = evaluate(result.model, result.splits.test)
    short, middle, long = ev.token_accuracy(1, 10), ev.token_accuracy(11, 20), ev.token_accuracy(21, 30)
    assert short > middle > long
    assert short - long >= 0.15, (short, middle, long)  # measured here: 0.37, 0.15, 0.10


def test_the_committed_model_crosses_the_diagonal_where_the_grammar_reorders():
    model = load_trained()
    splits = data.make_splits(0)
    moved = right = 0
    for batch in data.length_batches(splits.test[:600], 256):
        weights, _ = model.decoder_reads(batch)
        T = batch.src.shape[1]
        looked = weights[:, :T, :].argmax(axis=2)  # (N, T)
        reordered = batch.align != np.arange(T)
        moved += int(reordered.sum())
        right += int((looked == batch.align)[reordered].sum())
    assert moved > 1000 and right / moved >= 0.95
