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


OTHER = dataclasses.replace(TINY, d_dec=5)  # another configuration: every decoder shape differs


@pytest.mark.parametrize("order", ["bahdanau", "luong"])
def test_another_configurations_params_are_refused_naming_the_parameter(order):
    kind = {"order": order, "score": "general"} if order == "luong" else {}
    model = build_model(dataclasses.replace(TINY, **kind))
    other = build_model(dataclasses.replace(OTHER, **kind))
    with pytest.raises(ValueError) as info:
        model.params = other.params
    message = str(info.value)
    assert "params['" in message and "shape" in message and "d_dec" in message, message
    batch = tiny_batch()
    model.forward(batch)  # the model kept its own parameters


@pytest.mark.parametrize(
    "change, error, words",
    [
        (lambda p: p.pop("out_b"), ValueError, ["out_b", "missing"]),
        (lambda p: p.update(extra=np.zeros(2)), ValueError, ["extra", "not a parameter"]),
        (lambda p: p.update(out_b=p["out_b"].astype(np.float32)), TypeError, ["out_b", "float32", "float64"]),
        (lambda p: p.update(out_b=np.full_like(p["out_b"], np.nan)), ValueError, ["out_b", "NaN"]),
        (lambda p: p.update(out_b=list(p["out_b"])), TypeError, ["out_b", "array"]),
    ],
)
def test_assigned_params_are_checked(change, error, words):
    model = Seq2Seq(TINY)
    params = dict(Seq2Seq(TINY, seed=1).params)
    change(params)
    with pytest.raises(error) as info:
        model.params = params
    for word in words:
        assert word in str(info.value)


def test_same_configurations_params_are_accepted_as_they_are():
    model, other = Seq2Seq(TINY), Seq2Seq(TINY, seed=1)
    model.params = other.params
    assert model.params is other.params
    batch = tiny_batch()
    assert model.forward(batch)[0] == other.forward(batch)[0]
