"""The translation models (all decoders): whole-model gradients, weights, greedy decoding."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.gradients import finite_difference
from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq, build_model

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


@pytest.mark.parametrize("attention", [True, False])
def test_greedy_trace_is_greedy_step_by_step_in_bahdanaus_order(attention):
    from attention_core.models.gru import gru_step
    from attention_core.reading import softmax

    model = Seq2Seq(ModelConfig(d_emb=5, d_enc=4, d_dec=6, d_att=5, attention=attention, dtype="float64"), seed=4)
    src = np.array([0, 13, 4, 30, 1, 20, 2, 3])
    tr = model.greedy_trace(src)
    tokens, weights = model.greedy(src[None])
    U, p = src.size + 1, model.params
    assert tr["tokens"].tolist() == tokens[0].tolist()
    assert tr["y_prev"].tolist() == [data.BOS_ID, *tokens[0, :-1].tolist()]
    np.testing.assert_array_equal(tr["s_prev"][1:], tr["state"][:-1])  # s_{t-1} of step t is s of step t - 1
    for t in range(U):
        if attention:
            np.testing.assert_array_equal(tr["weights"][t], weights[0, t])
            np.testing.assert_allclose(softmax(tr["scores"][t]), tr["weights"][t], atol=1e-12)
            np.testing.assert_allclose(tr["weights"][t] @ tr["annotations"], tr["context"][t], atol=1e-12)
        x = np.concatenate([p["tgt_emb"][tr["y_prev"][t]], tr["context"][t]])  # [e_tgt(y_{t-1}); c_t]
        s_new, _ = gru_step((p["dec_W"] @ x + p["dec_b"])[None], tr["s_prev"][t][None], p["dec_U"])
        np.testing.assert_allclose(s_new[0], tr["state"][t], atol=1e-12)  # the update uses c_t, after the read
        logits = p["out_W"] @ np.concatenate([tr["state"][t], tr["context"][t]]) + p["out_b"]
        np.testing.assert_allclose(tr["probs"][t], softmax(logits), atol=1e-12)
        assert int(tr["probs"][t].argmax()) == tr["tokens"][t]
    if not attention:
        assert tr["weights"] is None and tr["scores"] is None
        np.testing.assert_array_equal(tr["context"], np.repeat(tr["context"][:1], U, axis=0))  # always m
    with pytest.raises(ValueError, match="shape"):
        model.greedy_trace(src[None])
