"""The translation model, every combination of decoder parts: whole-model gradients, weights, greedy decoding."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.gradients import finite_difference
from attention_core.models import data
from attention_core.models.attention_encoder import SelfAttentionEncoder
from attention_core.models.encoder import RecurrentEncoder
from attention_core.models.orders import ORDERS
from attention_core.models.scorers import SCORES, AttentionScore, FixedSummary
from attention_core.models.seq2seq import ModelConfig, Seq2Seq, build_model
from attention_core.scores import dot_scores_kernel

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


def worst_gradient_error(model: Seq2Seq, batch: data.Batch) -> tuple[str, float]:
    """Back-propagation vs central finite differences for every parameter tensor: the worst relative error."""
    errors = dict(gradient_errors(model, batch))
    worst = max(errors, key=errors.get)
    return worst, errors[worst]


def gradient_errors(model: Seq2Seq, batch: data.Batch):
    """Yield ``(name, relative error)`` of back-propagation vs central finite differences, parameter tensor by
    tensor (a caller looking for one wrong tensor can stop at the first)."""
    _, grads = model.loss_and_grads(batch)
    assert list(grads) == list(model.params)  # every parameter, by name, nothing else
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
        yield name, rel_error(grads[name], fd)


# Every registered combination of parts: each order with each score, and with no score (the baseline). A score
# added to SCORES (or an order added to ORDERS) is checked here without another line of test.
VARIANTS = {f"{order}-{score}": {"order": order, "score": score} for order in ORDERS for score in SCORES}
VARIANTS |= {f"{order}-none": {"order": order, "attention": False} for order in ORDERS}
# Lesson 09's encoder without recurrence, with each kind of positions, tied or not, under lesson 07's decoder.
VARIANTS |= {
    f"self_attention-{positions}{'-tied' if tied else ''}": {
        "encoder": "self_attention", "positions": positions, "tied": tied, "d_ff": 5,
    }
    for positions in ("sinusoidal", "learned", "none")
    for tied in (False, True)
}  # fmt: skip


# `make check` checks each score, each order, the baseline and the encoder without recurrence once (about 0.8
# CPU-seconds a variant); their other combinations, and the other self-attention variants, are `make test`'s
# (``slow``).
INNER_LOOP = {"bahdanau-additive", "bahdanau-general", "bahdanau-none", "luong-additive", "self_attention-sinusoidal"}


@pytest.mark.parametrize(
    "variant", [pytest.param(v, marks=() if v in INNER_LOOP else pytest.mark.slow) for v in sorted(VARIANTS)]
)
def test_whole_model_gradient_matches_finite_differences_for_every_parameter(variant):
    """Back-propagation vs central finite differences on a tiny float64 model, every parameter tensor."""
    model = build_model(dataclasses.replace(TINY, **VARIANTS[variant]), seed=3)
    rng = np.random.default_rng(0)
    part_params = set(model.scorer.init(rng, np.float64)) | set(model.order.init(rng, np.float64))
    assert part_params <= set(model.params)  # the parts' own parameters are part of theta
    worst, error = worst_gradient_error(model, tiny_batch())
    assert error < 1e-5, f"{variant}, {worst}: relative error {error:.2e}"


def test_the_parts_are_what_the_config_names():
    assert {name: type(build_model(dataclasses.replace(TINY, **kw)).scorer) for name, kw in VARIANTS.items()} == {
        **{f"{o}-{s}": SCORES[s] for o in ORDERS for s in SCORES},
        **{f"{o}-none": FixedSummary for o in ORDERS},
        **{name: SCORES["additive"] for name in VARIANTS if name.startswith("self_attention")},
    }
    encoders = {name: type(build_model(dataclasses.replace(TINY, **kw)).encoder) for name, kw in VARIANTS.items()}
    assert {name for name, part in encoders.items() if part is SelfAttentionEncoder} == {
        name for name in VARIANTS if name.startswith("self_attention")
    }
    assert set(encoders.values()) == {RecurrentEncoder, SelfAttentionEncoder}
    assert {type(build_model(dataclasses.replace(TINY, order=o)).order) for o in ORDERS} == set(ORDERS.values())
    assert "att_W_c" in build_model(dataclasses.replace(TINY, order="luong")).params  # Luong's W_c
    assert "att_W_c" not in build_model(TINY).params


class DotScore(AttentionScore):
    """Luong's dot score ``e_tj = s^T h_j`` (needs ``d_s = d_h``): a score the package does not ship.

    Adding a score that trains is this one class plus its entry in SCORES; the test below does both.
    """

    name = "dot"

    def init(self, rng, dt):
        return {}  # no parameters

    def keys(self, p, H):
        return H  # k_j = h_j

    def scores(self, p, s, K):
        return dot_scores_kernel(s, K), None  # e_tj = s^T h_j: (N, T)

    def scores_backward(self, p, d_e, s, K, act, d_K):
        d_K += d_e[:, :, None] * s[:, None, :]  # dL/dk_j += (dL/de_tj) s: (N, T, d_h)
        return (d_e[:, None, :] @ K)[:, 0, :], None  # dL/ds = sum_j (dL/de_tj) k_j

    def sums_backward(self, p, source, d_source, S, grads):
        d_source.H += d_source.K  # k_j = h_j: dL/dh_j += dL/dk_j
        return {}  # no parameters


class DotScoreWithAWrongGradient(DotScore):
    name = "dot-wrong"

    def scores_backward(self, p, d_e, s, K, act, d_K):
        d_s, d_q = super().scores_backward(p, d_e, s, K, act, d_K)
        return 0.5 * d_s, d_q  # half of dL/ds: what the finite differences must catch


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_a_new_score_is_one_class_and_its_registry_entry(order, monkeypatch):
    monkeypatch.setitem(SCORES, "dot", DotScore)
    monkeypatch.setitem(SCORES, "dot-wrong", DotScoreWithAWrongGradient)
    square = dataclasses.replace(TINY, d_dec=2 * TINY.d_enc, order=order)  # the dot score needs d_s = d_h
    worst, error = worst_gradient_error(build_model(dataclasses.replace(square, score="dot"), seed=3), tiny_batch())
    assert error < 1e-5, f"{worst}: relative error {error:.2e}"
    wrong = build_model(dataclasses.replace(square, score="dot-wrong"), seed=3)
    assert any(error > 1e-3 for _, error in gradient_errors(wrong, tiny_batch()))  # the check can fail


@pytest.mark.parametrize(
    "field, value",
    [("order", "transformer"), ("score", "dot"), ("score", "none"), ("encoder", "lstm"), ("positions", "rotary")],
)
def test_model_config_refuses_parts_that_are_not_registered(field, value):
    with pytest.raises(ValueError, match=field):
        ModelConfig(**{field: value})


def test_attention_weights_are_distributions_over_source_positions():
    model = Seq2Seq(TINY, seed=0)
    batch = tiny_batch()
    _, probs, weights, _ = model.forward(batch)
    N, U = batch.tgt_out.shape
    assert weights.shape == (N, U, batch.src.shape[1])
    assert np.all(weights > 0) and np.allclose(weights.sum(axis=2), 1.0)
    assert np.allclose(probs.sum(axis=2), 1.0)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_greedy_decoding_agrees_with_teacher_forcing_on_its_own_outputs(variant):
    """Feeding the greedy tokens back as 'past targets' must reproduce the same arg-max at every step."""
    model = Seq2Seq(dataclasses.replace(TINY, **VARIANTS[variant]), seed=1)
    batch = tiny_batch()
    tokens, greedy_weights = model.greedy(batch.src)
    forced = data.Batch(
        batch.src, np.concatenate([np.zeros((len(tokens), 1), int), tokens[:, :-1]], axis=1), tokens, batch.align
    )
    _, probs, weights, _ = model.forward(forced)
    assert np.array_equal(probs.argmax(axis=2), tokens)
    if model.cfg.attention:
        np.testing.assert_allclose(weights, greedy_weights, atol=1e-12)  # the same step, in float64
    else:
        assert weights is None and greedy_weights is None


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


def test_scorer_names_the_additive_scores_parameters():
    from attention_core.models.seq2seq import SCORER

    model = Seq2Seq(ModelConfig(score="additive"))
    assert set(SCORER) == {name for name in model.params if name.startswith("att_")} and len(SCORER) == 4


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
