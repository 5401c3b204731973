"""Lesson 07's laboratory computes with a second implementation of ``attention_core.models`` in JavaScript
(``book/_assets/ae-lab-math.js`` and its parts, ``book/_assets/lab/``). Here it runs under Node, on the numbers
the website exports (:func:`attention_core.explorers.site.lab_data`), against the package, end to end (each part
alone: ``tests/site/test_lab_parts.py``):

- greedy translations and alignment matrices of the committed model on 240 test sentences, one by one (as the
  page's "compose" decodes) and in length batches (as its evaluation does): the same tokens, weights within 1e-5
  of the package's float32 model (the book's numbers) and within 1e-9 of the same parameters in float64;
- lesson 09's committed models (the self-attention encoder, with and without positions), from the numbers the page
  loads, on 120 test sentences: the same greedy translations, cross-attention weights and each encoder layer's
  self-attention weights as the package's (``Seq2Seq.greedy``, ``Seq2Seq.encoder_reads``) within 1e-9, and the
  same evaluation counts (alignment not counted without positions);
- the step-through trace (s_{t-1}, e_tj, alpha_tj, c_t, s_t, probabilities) against ``Seq2Seq.greedy_trace``;
- on one fixed batch, the loss and every parameter gradient of every design the page offers (the fixed-summary
  baseline, attention with each score in each order, and lesson 09's self-attention encoders), in float64 on both
  sides, to a relative error of 1e-10, and the step-through trace of each design;
- the optimiser: three steps of clipping, Adam and the learning-rate schedule, and the schedule itself;
- evaluation counts (token, exact, alignment) equal to ``train.evaluate``'s;
- the toy language: the page's parser gives ``data.parse``'s translation, alignment and errors; its sampler
  makes sentences of the same grammar with the same length distribution; its initialisation follows the rules.

One Node process runs every task (about 5 s). Node is needed (``make book`` needs it too); without it the tests
are skipped, except under ``CI=true``.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from attention_core.explorers.site import lab_data
from attention_core.models import data, designs
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import Adam, TrainConfig, clip_global_norm, evaluate, learning_rate
from attention_core.models.trained import LESSON09, LESSON09_NO_POSITIONS, load_trained
from tests.helpers import ROOT, gemm_wasm

ASSETS = ROOT / "book" / "_assets"  # ae-lab-math.js and lab/
DRIVER = pathlib.Path(__file__).with_name("lab_node.js")
GRAD_RTOL = 1e-10  # float64 on both sides: measured about 1e-13
WEIGHT_ATOL = 1e-5  # the page's float64 decoding against the package's float32 model


def b64(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode("ascii")


def unb64(text: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def params64(model: Seq2Seq) -> dict:
    return {k: b64(v) for k, v in model.params.items()}


def pair_json(p: data.Pair) -> dict:
    return {"src": p.src.tolist(), "tgt": p.tgt.tolist(), "align": p.align.tolist()}


def float64_model(model: Seq2Seq) -> Seq2Seq:
    out = Seq2Seq(ModelConfig(**{**model.cfg.__dict__, "dtype": "float64"}))
    out.params = {k: v.astype(np.float64) for k, v in model.params.items()}
    return out


@pytest.fixture(scope="module")
def lab():
    return lab_data()


@pytest.fixture(scope="module")
def splits():
    return data.make_splits(seed=0)


@pytest.fixture(scope="module")
def sample(splits):
    """240 test sentences: every source length present, the rest in test-set order."""
    by_length = {}
    for p in splits.test:
        by_length.setdefault(len(p.src), p)
    chosen = list(by_length.values())
    taken = {id(p) for p in chosen}
    return chosen + [p for p in splits.test if id(p) not in taken][: 240 - len(chosen)]


def grad_batch(splits):
    return [p for p in splits.train if len(p.src) == 11][:8]


@pytest.fixture(scope="module")
def node_results(lab, splits, sample):
    """Run every task in one Node process; return their results by name."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    grammar, cfg = lab["grammar"], lab["model"]["config"]
    committed64 = float64_model(load_trained())
    baseline = Seq2Seq(ModelConfig(attention=False, dtype="float64"), seed=3)
    batch = [pair_json(p) for p in grad_batch(splits)]
    recipe = {**lab["recipe"], "steps": 300}
    train_batches = [batch_json(b) for b in _train_batches(splits)]
    mutated = _mutations(splits)
    sentences = [p.src.tolist() for p in sample]
    tasks = {
        "greedy": {"kind": "greedy", "model": lab["model"], "config": cfg, "sentences": sentences},
        "trace": {
            "kind": "greedy",
            "model": lab["model"],
            "config": cfg,
            "sentences": [p.src.tolist() for p in sample[:6]],
            "trace": True,
        },
        "trace_baseline": {
            "kind": "greedy",
            "params": {k: b64(v) for k, v in baseline.params.items()},
            "config": {**cfg, "attention": False},
            "sentences": [p.src.tolist() for p in sample[:2]],
            "trace": True,
        },
        "decode": {"kind": "decode", "model": lab["model"]},
        "decode_wrong_shape": {"kind": "decode", "model": _wrong_shape(lab["model"])},
        "decode_missing": {"kind": "decode", "model": _missing(lab["model"], "att_v")},
        "evaluate": {"kind": "evaluate", "model": lab["model"], "config": cfg, "pairs": [pair_json(p) for p in sample]},
        "grads": {"kind": "grads", "config": cfg, "params": params64(committed64), "batch": batch},
        "grads_baseline": {
            "kind": "grads",
            "config": {**cfg, "attention": False},
            "params": params64(baseline),
            "batch": batch,
        },
        "train_steps": {
            "kind": "train_steps",
            "config": cfg,
            "recipe": recipe,
            "params": {k: b64(v) for k, v in Seq2Seq(ModelConfig(dtype="float64"), seed=5).params.items()},
            "batches": train_batches,
        },
        "schedule": {"kind": "schedule", "recipe": recipe, "steps": list(range(0, 300, 7)) + [299]},
        "parse": {"kind": "parse", "sentences": [p.words()[0] for p in splits.test[:2000]] + [m for m in mutated]},
        "next": {"kind": "next", "prefixes": [p.words()[0][:k] for p in splits.test[:300] for k in (0, 1, 3, 6)]},
        "sample": {"kind": "sample", "seed": 7, "n_train": 4000, "n_valid": 100, "n_test": 100, "batch_size": 32},
        "init": {"kind": "init", "config": cfg, "seed": 11},
        "train_run": {
            "kind": "train_run",
            "config": cfg,
            "data_seed": 0,
            "recipe": {**lab["recipe"], "n_train": 600, "n_valid": 10, "steps": 40, "warmup_steps": 2, "seed": 1},
            "steps": 40,
        },
    }
    for name in DESIGNS:  # every design the page offers with a score, from a random start
        model = design(name)
        tasks[f"grads {name}"] = {
            "kind": "grads",
            "config": config_of(model),
            "params": params64(model),
            "batch": batch,
        }
        tasks[f"trace {name}"] = {
            "kind": "greedy",
            "params": params64(model),
            "config": config_of(model),
            "sentences": [p.src.tolist() for p in sample[:2]],
            "trace": True,
        }
        tasks[f"init {name}"] = {"kind": "init", "config": config_of(model), "seed": 2}
    for name in LESSON09_MODELS:  # lesson 09's committed models, as the page loads them
        export = {"config": committed_config(lab, name), "arrays": lab["arrays"][name]}
        sentences = [p.src.tolist() for p in sample[:LESSON09_SENTENCES]]
        tasks[f"greedy {name}"] = {
            "kind": "greedy",
            "model": export,
            "config": export["config"],
            "sentences": sentences,
        }
        tasks[f"reads {name}"] = {"kind": "encoder_reads", "model": export, "config": export["config"],
                                  "sentences": sentences}  # fmt: skip
        tasks[f"evaluate {name}"] = {"kind": "evaluate", "model": export, "config": export["config"],
                                     "pairs": [pair_json(p) for p in sample[:LESSON09_SENTENCES]]}  # fmt: skip
    for task in tasks.values():
        task["grammar"] = grammar
    job = {"assets": str(ASSETS), "tasks": list(tasks.values()), "wasm": gemm_wasm()}
    run = subprocess.run([node, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    return {name: r["result"] for name, r in zip(tasks, out, strict=True)}


def _wrong_shape(model: dict) -> dict:
    """The export with ``dec_U`` announced transposed: the same numbers, another shape."""
    out = {**model, "arrays": dict(model["arrays"])}
    out["arrays"]["dec_U"] = {**model["arrays"]["dec_U"], "shape": model["arrays"]["dec_U"]["shape"][::-1]}
    return out


def _missing(model: dict, name: str) -> dict:
    return {**model, "arrays": {k: v for k, v in model["arrays"].items() if k != name}}


# Every design the page offers with a score (attention_core.models.designs), by name, from a random start; lesson
# 07's is checked on its committed model above, and the fixed summary as "grads_baseline" and "trace_baseline".
DESIGNS = [d.name for d in designs.where(lab=True) if d.score is not None and d.name != designs.ATTENTION]
LESSON09_MODELS = (LESSON09, LESSON09_NO_POSITIONS)  # lesson 09's committed models (the self-attention encoder)
LESSON09_SENTENCES = 120  # of the sample: one of every source length first


def design(name: str) -> Seq2Seq:
    return Seq2Seq(designs.named(name).config(dtype="float64"), seed=7)


def committed_config(lab: dict, name: str) -> dict:
    """The config the page reads for committed model ``name`` (lab_data's ``models``)."""
    return next(m["config"] for m in lab["models"] if m["name"] == name)


def config_of(model: Seq2Seq) -> dict:
    return {k: v for k, v in model.cfg.__dict__.items() if k != "dtype"}


def _train_batches(splits) -> list[data.Batch]:
    """Three training batches of the package's batch construction (one source length each)."""
    return data.length_batches(splits.train[:400], 32, np.random.default_rng(4))[:3]


def batch_json(b: data.Batch) -> list[dict]:
    return [
        {"src": b.src[n].tolist(), "tgt": b.tgt_out[n, :-1].tolist(), "align": b.align[n].tolist()}
        for n in range(b.src.shape[0])
    ]


def _mutations(splits) -> list[list[str]]:
    """Sentences near the grammar: a word replaced, dropped or repeated, an unknown word, an unfinished end."""
    rng = np.random.default_rng(0)
    out = []
    for p in splits.test[2000 - 400 :]:
        words = p.words()[0]
        k = int(rng.integers(len(words)))
        kind = int(rng.integers(5))
        if kind == 0:
            words = words[:k] + [data.SRC_WORDS[int(rng.integers(len(data.SRC_WORDS)))]] + words[k + 1 :]
        elif kind == 1:
            words = words[:k] + words[k + 1 :]
        elif kind == 2:
            words = words[: k + 1] + words[k:]
        elif kind == 3:
            words = words[:k] + ["dog"] + words[k + 1 :]
        else:
            words = words[:k]
        out.append(words)
    out += [[], "the cat sees a bird".split() + "near a cat".split() * 6]
    out += ["the cat sees a red big old small cat".split()]
    return out


# ---------------------------------------------------------------------------------------------------------
# Decoding


def test_greedy_translations_and_weights_are_the_packages(node_results, sample):
    model = load_trained()
    model64 = float64_model(model)
    worst32 = worst64 = 0.0
    for pair, got in zip(sample, node_results["greedy"], strict=True):
        tokens, weights = model.greedy(pair.src[None])  # (1, U), (1, U, T): the book's float32 model
        assert got["tokens"] == tokens[0].tolist(), f"another translation of {' '.join(pair.words()[0])}"
        page = unb64(got["weights"], weights.shape[1:])
        worst32 = max(worst32, float(np.abs(page - weights[0]).max()))
        _, weights64 = model64.greedy(pair.src[None])
        worst64 = max(worst64, float(np.abs(page - weights64[0]).max()))
    assert worst32 <= WEIGHT_ATOL, worst32
    assert worst64 <= 1e-9, worst64
    print(f"\n{len(sample)} sentences: max weight difference {worst32:.2e} (float32 package), {worst64:.2e} (float64)")


@pytest.mark.parametrize("name", ["trace", "trace_baseline"])
def test_step_through_trace_is_the_packages(node_results, sample, name):
    if name == "trace":
        model = float64_model(load_trained())
    else:
        model = Seq2Seq(ModelConfig(attention=False, dtype="float64"), seed=3)
    for pair, got in zip(sample, node_results[name], strict=False):
        ref = model.greedy_trace(pair.src)
        trace = got["trace"]
        assert trace["tokens"] == ref["tokens"].tolist() and trace["y_prev"] == ref["y_prev"].tolist()
        for key in ("s_prev", "scores", "weights", "context", "state", "probs", "annotations"):
            if ref[key] is None:
                assert trace[key] is None, key
            else:
                np.testing.assert_allclose(np.array(trace[key]), ref[key], atol=1e-9, err_msg=key)


def test_the_page_reads_the_export_by_name_and_shape(node_results, lab):
    """Every parameter of the export, checked against the shape the page's model gives it; a wrong shape or a
    missing parameter stops the page with a message naming it."""
    assert node_results["decode"]["names"] == list(lab["model"]["arrays"])
    assert node_results["decode_wrong_shape"] == {"error": "parameter dec_U: shape [64,192], expected [192,64]"}
    assert node_results["decode_missing"] == {"error": "parameter att_v: shape missing, expected [64]"}


def test_evaluation_counts_are_the_packages(node_results, sample):
    ev = evaluate(load_trained(), sample)
    got = node_results["evaluate"]
    for key in ("lengths", "sentences", "tokens", "tokens_right", "exact_right", "align_right"):
        assert got[key] == getattr(ev, key), key


# ---------------------------------------------------------------------------------------------------------
# Training


@pytest.mark.parametrize("name", ["grads", "grads_baseline"])
def test_loss_and_every_gradient_are_the_packages(node_results, splits, name):
    if name == "grads":
        model = float64_model(load_trained())
    else:
        model = Seq2Seq(ModelConfig(attention=False, dtype="float64"), seed=3)
    loss, grads = model.loss_and_grads(data.stack(grad_batch(splits)))
    got = node_results[name]
    assert abs(got["loss"] - loss) <= GRAD_RTOL * abs(loss)
    assert set(got["grads"]) == set(grads)
    worst = 0.0
    for key, g in grads.items():
        page = unb64(got["grads"][key], g.shape)
        rel = float(np.linalg.norm(page - g) / np.linalg.norm(g))
        assert rel <= GRAD_RTOL, f"{key}: relative error {rel:.1e}"
        worst = max(worst, rel)
    print(f"\n{name}: loss relative error {abs(got['loss'] - loss) / loss:.1e}, worst gradient {worst:.1e}")


def test_optimiser_steps_are_the_packages(node_results, lab, splits):
    recipe = lab["recipe"]
    cfg = TrainConfig(**{k: recipe[k] for k in ("batch_size", "lr", "lr_end", "warmup_steps", "clip_norm")}, steps=300)
    model = Seq2Seq(ModelConfig(dtype="float64"), seed=5)
    opt = Adam(model.params, recipe["beta1"], recipe["beta2"], recipe["adam_eps"])
    got = node_results["train_steps"]
    for step, batch in enumerate(_train_batches(splits)):
        loss, grads = model.loss_and_grads(batch)
        norm = clip_global_norm(grads, cfg.clip_norm)
        opt.update(model.params, grads, learning_rate(cfg, step))
        assert got["losses"][step] == pytest.approx(loss, rel=GRAD_RTOL)
        assert got["norms"][step] == pytest.approx(norm, rel=GRAD_RTOL)
        assert got["lrs"][step] == pytest.approx(learning_rate(cfg, step), rel=1e-14)
    for key, value in model.params.items():
        page = unb64(got["params"][key], value.shape)
        np.testing.assert_allclose(page, value, rtol=1e-9, atol=1e-12, err_msg=key)


def test_learning_rate_schedule_is_the_packages(node_results, lab):
    cfg = TrainConfig(lr=lab["recipe"]["lr"], lr_end=lab["recipe"]["lr_end"], steps=300)
    steps = list(range(0, 300, 7)) + [299]
    np.testing.assert_allclose(node_results["schedule"], [learning_rate(cfg, s) for s in steps], rtol=1e-14)


def test_a_short_run_in_the_page_lowers_the_loss(node_results):
    losses = node_results["train_run"]["losses"]
    assert len(losses) == 40 and all(np.isfinite(losses))
    assert np.mean(losses[-8:]) < 0.95 * np.mean(losses[:8]), losses  # the package: 3.70 -> about 3.3 by step 40


def test_initialisation_follows_the_rules(node_results, lab):
    got = node_results["init"]
    ref = Seq2Seq(ModelConfig(), seed=0).params
    assert {k: list(v) for k, v in got["shapes"].items()} == {k: list(v.shape) for k, v in ref.items()}
    cfg = lab["model"]["config"]
    d_h = 2 * cfg["d_enc"]
    fan_in = {"init_W": d_h, "out_W": cfg["d_dec"] + d_h, "att_v": cfg["d_att"]}
    for key, stats in got["stats"].items():
        if key.endswith("_b"):
            assert stats["std"] == 0 and stats["mean"] == 0, key
            continue
        if key.endswith("emb"):
            expected = 0.5
        elif key in fan_in:
            expected = 1 / np.sqrt(fan_in[key])
        else:
            expected = 1 / np.sqrt(ref[key].shape[1])  # N(0, 1) / sqrt(fan_in) for W (3d, d_in), U (3d, d)
        assert stats["std"] == pytest.approx(expected, rel=0.08 if stats["size"] > 2000 else 0.25), key


# ---------------------------------------------------------------------------------------------------------
# The toy language


def test_parser_gives_the_grammars_translation_and_errors(node_results, splits):
    sentences = [p.words()[0] for p in splits.test[:2000]] + _mutations(splits)
    for words, got in zip(sentences, node_results["parse"], strict=True):
        try:
            pair = data.parse(words)
        except data.SentenceError as err:
            assert got.get("error") == {
                "kind": err.kind,
                "position": err.position,
                "word": err.word,
                "allowed": list(err.allowed),
            }, " ".join(words)
            continue
        assert "error" not in got, (words, got)
        assert (got["src"], got["tgt"], got["align"]) == (pair.src.tolist(), pair.tgt.tolist(), pair.align.tolist())


def test_next_word_classes_are_the_grammars(node_results, splits):
    prefixes = [p.words()[0][:k] for p in splits.test[:300] for k in (0, 1, 3, 6)]
    for words, got in zip(prefixes, node_results["next"], strict=True):
        assert got["allowed"] == list(data.next_classes(words)), words


def test_sampler_makes_the_same_language(node_results):
    train, valid, test = node_results["sample"]["splits"]
    everything = train + valid + test
    assert (len(train), len(valid), len(test)) == (4000, 100, 100)
    assert len({" ".join(w) for w in everything}) == len(everything), "sentences are distinct"
    for words in everything:
        data.parse(words)  # raises unless the sentence is in the grammar
    js_lengths = np.bincount([len(w) for w in everything], minlength=31)
    ref = data.make_splits(seed=7, n_train=4000, n_valid=100, n_test=100)
    py_lengths = np.bincount([len(p.src) for p in ref.train + ref.valid + ref.test], minlength=31)
    tv = 0.5 * np.abs(js_lengths / js_lengths.sum() - py_lengths / py_lengths.sum()).sum()
    assert js_lengths[:5].sum() == 0 and tv < 0.05, f"length distributions differ (total variation {tv:.3f})"
    per_length = {}
    for n, length in node_results["sample"]["batch_sizes"]:  # the batches of one shuffled pass over train
        per_length.setdefault(length, []).append(n)
    assert {k: sum(v) for k, v in per_length.items()} == {
        k: int(c) for k, c in enumerate(np.bincount([len(w) for w in train])) if c
    }, "every training sentence in exactly one batch of its own length"
    assert all(sum(n != 32 for n in sizes) <= 1 for sizes in per_length.values()), "batches of 32, one rest per length"


# ---------------------------------------------------------------------------------------------------------
# Every design of lessons 07 to 09


@pytest.mark.parametrize("name", DESIGNS)
def test_every_design_has_the_packages_gradients_and_trace(node_results, splits, sample, name):
    model = design(name)
    loss, grads = model.loss_and_grads(data.stack(grad_batch(splits)))
    got = node_results[f"grads {name}"]
    assert abs(got["loss"] - loss) <= GRAD_RTOL * abs(loss)
    assert list(got["grads"]) == list(grads), "the same parameters, in the package's order"
    for key, g in grads.items():
        rel = float(np.linalg.norm(unb64(got["grads"][key], g.shape) - g) / np.linalg.norm(g))
        assert rel <= GRAD_RTOL, f"{name}, {key}: relative error {rel:.1e}"
    for pair, got in zip(sample, node_results[f"trace {name}"], strict=False):
        ref, trace = model.greedy_trace(pair.src), got["trace"]
        assert trace["tokens"] == ref["tokens"].tolist()
        for key in ("s_prev", "scores", "weights", "context", "state", "probs"):
            np.testing.assert_allclose(np.array(trace[key]), ref[key], atol=1e-9, err_msg=key)
    shapes = node_results[f"init {name}"]["shapes"]
    assert {k: list(v) for k, v in shapes.items()} == {k: list(v.shape) for k, v in model.params.items()}


@pytest.mark.parametrize("name", LESSON09_MODELS)
def test_lesson_09s_committed_models_translate_and_read_as_the_package(node_results, sample, name):
    """From the numbers the page loads: the same greedy translations, cross-attention weights and self-attention
    weights of every encoder layer as the package's model, and the same evaluation counts."""
    model = load_trained(name)  # float64, the committed float32 numbers cast exactly
    assert model.cfg.encoder == "self_attention"
    pairs = sample[:LESSON09_SENTENCES]
    worst = 0.0
    for pair, got, reads in zip(pairs, node_results[f"greedy {name}"], node_results[f"reads {name}"], strict=True):
        tokens, weights = model.greedy(pair.src[None])
        assert got["tokens"] == tokens[0].tolist(), f"{name}: another translation of {' '.join(pair.words()[0])}"
        worst = max(worst, float(np.abs(unb64(got["weights"], weights.shape[1:]) - weights[0]).max()))
        layers = model.encoder_reads(pair.src[None])
        assert len(reads) == len(layers) == model.cfg.layers
        for layer, (page, want) in enumerate(zip(reads, layers, strict=True), start=1):
            np.testing.assert_allclose(unb64(page, want.shape), want, atol=1e-9, err_msg=f"{name} layer {layer}")
    assert worst <= 1e-9, worst
    ev, got = evaluate(model, pairs), node_results[f"evaluate {name}"]
    for key in ("lengths", "sentences", "tokens", "tokens_right", "exact_right", "align_right"):
        assert got[key] == getattr(ev, key), key
    assert (sum(ev.align_right) > 0) == model.cfg.aligns, "alignment counted only where the weights name positions"
