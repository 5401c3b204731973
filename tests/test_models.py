"""Tests of the trainable models: gradients against central finite differences, the grammar, training."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.gradients import finite_difference
from attention_core.models import data
from attention_core.models.encoder import encode
from attention_core.models.gru import gru_step, gru_step_backward
from attention_core.models.seq2seq import ModelConfig, Seq2Seq, build_model
from attention_core.models.train import (
    TrainConfig,
    clip_global_norm,
    evaluate,
    learning_rate,
    strip_eos,
    train,
)

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3, dtype="float64")


def rel_error(a, b) -> float:
    """Relative error of two gradient tensors: ||a - b|| / (||a|| + ||b||)."""
    den = np.linalg.norm(a) + np.linalg.norm(b)
    return float(np.linalg.norm(a - b) / den) if den > 0 else 0.0


def tiny_batch(length: int = 6, n: int = 2, seed: int = 5) -> data.Batch:
    rng = np.random.default_rng(seed)
    pairs = []
    while len(pairs) < n:
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        if len(src) == length:
            pairs.append(data.encode(src, tgt, align))
    return data.stack(pairs)


def test_gru_step_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    N, d = 3, 4
    xp, h, U = rng.standard_normal((N, 3 * d)), rng.standard_normal((N, d)), rng.standard_normal((3 * d, d))
    w = rng.standard_normal((N, d))  # loss = sum(w * h')

    def loss(xp_, h_, U_):
        return float((w * gru_step(xp_, h_, U_)[0]).sum())

    _, cache = gru_step(xp, h, U)
    d_xp, d_h, d_U = gru_step_backward(w, cache, U)
    assert rel_error(d_xp, finite_difference(lambda x: loss(x, h, U), xp)) < 1e-7
    assert rel_error(d_h, finite_difference(lambda x: loss(xp, x, U), h)) < 1e-7
    assert rel_error(d_U, finite_difference(lambda x: loss(xp, h, x), U)) < 1e-7


def test_gru_state_is_a_gated_mix_of_old_state_and_candidate():
    rng = np.random.default_rng(1)
    h = rng.uniform(-1, 1, (5, 3))
    h_new, cache = gru_step(rng.standard_normal((5, 9)), h, rng.standard_normal((9, 3)))
    lo, hi = np.minimum(h, cache.n), np.maximum(h, cache.n)
    assert np.all((lo - 1e-12 <= h_new) & (h_new <= hi + 1e-12))


@pytest.mark.parametrize(
    "attention, order, score",
    [(True, "bahdanau", "additive"), (False, "bahdanau", "additive"), (True, "bahdanau", "general"),
     (True, "luong", "general")],
    ids=["attention", "fixed-summary", "bahdanau-general", "luong"],
)  # fmt: skip
def test_whole_model_gradient_matches_finite_differences_for_every_parameter(attention, order, score):
    """Back-propagation vs central finite differences on a tiny float64 model, every parameter tensor."""
    model = build_model(dataclasses.replace(TINY, attention=attention, order=order, score=score), seed=3)
    batch = tiny_batch()
    _, grads = model.loss_and_grads(batch)
    assert set(grads) == set(model.params)
    errors = {}
    for name, value in model.params.items():

        def loss_at(x, name=name):
            old = model.params[name]
            model.params[name] = x
            try:
                return model.forward(batch)[0]
            finally:
                model.params[name] = old

        fd = finite_difference(loss_at, value.copy(), eps=1e-5)
        assert grads[name].shape == value.shape
        errors[name] = rel_error(grads[name], fd)
    worst = max(errors, key=errors.get)
    assert errors[worst] < 1e-5, f"{worst}: relative error {errors[worst]:.2e}"
    if attention and score == "additive":
        assert {"att_W_s", "att_W_h", "att_v", "att_b"} <= set(errors)  # the scorer phi is part of theta
    if score == "general":
        assert "att_W" in errors  # the general score's W_a
    if order == "luong":
        assert {"att_W_c", "att_b_c"} <= set(errors)  # the attentional state


def test_forward_half_of_an_annotation_ignores_later_tokens_and_backward_half_earlier_ones():
    model = Seq2Seq(TINY, seed=0)
    src = tiny_batch().src.copy()
    H1, _ = encode(model.params, src)
    src[:, 3] = (src[:, 3] + 1) % TINY.src_vocab  # change the token at position 3
    H2, _ = encode(model.params, src)
    d = TINY.d_enc
    assert np.array_equal(H1[:, :3, :d], H2[:, :3, :d])  # ->h_j for j < 3 unchanged
    assert np.array_equal(H1[:, 4:, d:], H2[:, 4:, d:])  # <-h_j for j > 3 unchanged
    assert not np.allclose(H1[:, 3], H2[:, 3])


def test_attention_weights_are_distributions_over_source_positions():
    model = Seq2Seq(TINY, seed=0)
    batch = tiny_batch()
    _, probs, weights, _ = model.forward(batch)
    N, U = batch.tgt_out.shape
    assert weights.shape == (N, U, batch.src.shape[1])
    assert np.all(weights > 0) and np.allclose(weights.sum(axis=2), 1.0)
    assert np.allclose(probs.sum(axis=2), 1.0)


def test_greedy_decoding_agrees_with_teacher_forcing_on_its_own_outputs():
    """Feeding the greedy tokens back as 'past targets' must reproduce the same arg-max at every step."""
    model = Seq2Seq(dataclasses.replace(TINY, dtype="float32"), seed=1)
    batch = tiny_batch()
    tokens, greedy_weights = model.greedy(batch.src)
    forced = data.Batch(
        batch.src, np.concatenate([np.zeros((len(tokens), 1), int), tokens[:, :-1]], axis=1), tokens, batch.align
    )
    _, probs, weights, _ = model.forward(forced)
    assert np.array_equal(probs.argmax(axis=2), tokens)
    assert np.allclose(weights, greedy_weights, atol=1e-6)


# --- the synthetic language pair ---------------------------------------------------------------------------
def test_grammar_translates_word_for_word_with_known_alignment():
    rng = np.random.default_rng(0)
    lengths = []
    for _ in range(500):
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        lengths.append(len(src))
        assert sorted(align) == list(range(len(src)))  # every source word is used exactly once
        assert tgt == [data.TRANSLATE[src[j]] for j in align]
    assert min(lengths) >= 5 and max(lengths) == data.MAX_LEN


def test_adjectives_follow_their_noun_in_reverse_order():
    rng = np.random.default_rng(1)
    nouns = {t for _, t in data.NOUNS}
    adjectives = {t for _, t in data.ADJECTIVES}
    for _ in range(300):
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        for i, word in enumerate(tgt):
            if word in adjectives:
                assert tgt[i - 1] in nouns | adjectives  # an adjective comes after a noun or another adjective
                if tgt[i - 1] in adjectives:
                    assert align[i] == align[i - 1] - 1  # ...and in reverse source order
                else:
                    assert align[i] == align[i - 1] - 1  # the last adjective sits just before the noun


def test_the_article_example_phrase():
    src = ["the", "european", "economic", "area", "sees", "a", "cat"]
    align = [0, 3, 2, 1, 4, 5, 6]
    assert [data.TRANSLATE[src[j]] for j in align][:4] == ["la", "zone", "economique", "europeenne"]


def test_splits_are_seeded_disjoint_and_batches_have_one_length():
    a, b = data.make_splits(7, 300, 50, 100), data.make_splits(7, 300, 50, 100)
    assert all(np.array_equal(p.src, q.src) for p, q in zip(a.train, b.train, strict=True))
    keys = [{tuple(p.src) for p in part} for part in (a.train, a.valid, a.test)]
    assert not (keys[0] & keys[1]) and not (keys[0] & keys[2]) and not (keys[1] & keys[2])
    for batch in data.length_batches(a.train, 32, np.random.default_rng(0)):
        N, T = batch.src.shape
        assert N <= 32 and batch.tgt_in.shape == batch.tgt_out.shape == (N, T + 1)
        assert np.all(batch.tgt_in[:, 0] == data.BOS_ID) and np.all(batch.tgt_out[:, -1] == data.EOS_ID)
        assert np.array_equal(batch.tgt_in[:, 1:], batch.tgt_out[:, :-1])  # past targets, shifted by one
    with pytest.raises(ValueError, match="one source length"):
        data.stack([a.train[0], next(p for p in a.train if len(p.src) != len(a.train[0].src))])


# --- training machinery ------------------------------------------------------------------------------------
def test_learning_rate_warms_up_then_decays_by_step():
    cfg = TrainConfig(steps=200, warmup_steps=10, lr=1e-2, lr_end=1e-4)
    lrs = [learning_rate(cfg, k) for k in range(200)]
    assert lrs[9] == pytest.approx(1e-2) and lrs[-1] == pytest.approx(1e-4)
    assert all(x < y for x, y in zip(lrs[:10], lrs[1:10], strict=False))
    assert all(x > y for x, y in zip(lrs[10:], lrs[11:], strict=False))


def test_clip_global_norm_rescales_all_gradients_together():
    grads = {"a": np.array([3.0]), "b": np.array([4.0])}
    assert clip_global_norm(grads, 1.0) == pytest.approx(5.0)
    assert np.allclose([grads["a"][0], grads["b"][0]], [0.6, 0.8])


def test_strip_eos_blanks_everything_after_the_first_end_symbol():
    e = data.EOS_ID
    out = strip_eos(np.array([[5, e, 7, e], [5, 6, 7, 8]]))
    assert out.tolist() == [[5, e, -1, -1], [5, 6, 7, 8]]


def test_training_smoke_is_deterministic_and_lowers_the_loss():
    cfg = TrainConfig(n_train=1500, n_valid=50, n_test=100, steps=80, eval_every=0, warmup_steps=10)
    r1, r2 = train(cfg, progress=False), train(cfg, progress=False)
    assert r1.losses == r2.losses  # same seeds, pinned threads: identical losses
    assert np.mean(r1.losses[-10:]) < 0.8 * np.mean(r1.losses[:10])
    ev = evaluate(r1.model, r1.splits.test)
    assert 0.0 <= ev.token_accuracy() <= 1.0 and sum(ev.sentences) == 100
