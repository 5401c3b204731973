"""The laboratory's mathematics, part by part: each JavaScript part of ``book/_assets/lab/`` against its Python
twin of :mod:`attention_core.models` on random inputs, forward and backward, in float64 on both sides.

- ``lab/gru.js`` against :func:`~attention_core.models.gru.gru_step` and ``gru_step_backward``;
- ``lab/encoder.js``'s ``RecurrentEncoder`` against :class:`~attention_core.models.encoder.RecurrentEncoder`: the
  annotations, every gradient, the summary ``m = [->h_T; <-h_1]`` and its backward;
- ``lab/positions.js``: the sinusoidal table and the learned positions (forward, backward) against
  :mod:`~attention_core.models.positions`;
- ``lab/attention_layer.js``: :class:`~attention_core.models.attention_layer.SelfAttentionLayer`, separate or tied
  keys and values, with and without the causal mask: the output, the weights, ``dL/dZ`` and every gradient;
- ``lab/attention_encoder.js``: :class:`~attention_core.models.attention_encoder.SelfAttentionEncoder` with each kind
  of positions, tied and not: the annotations, each layer's weights, every gradient, the mean summary and its
  backward;
- ``lab/scorers.js``: each score (additive, general, the fixed summary) against its class of
  :mod:`~attention_core.models.scorers`: the keys, every step's read, its backward and the sums over steps;
- ``lab/orders.js``: each order (Bahdanau's, Luong's) with each score against its class of
  :mod:`~attention_core.models.orders`: the steps, their backward and the order's sums;
- the registries: ``SCORES`` of ``lab/scorers.js``, ``ORDERS`` of ``lab/orders.js``, ``ENCODERS`` of
  ``lab/seq2seq.js`` and ``POSITIONS`` of ``lab/positions.js`` hold the names of
  :data:`~attention_core.models.scorers.SCORES`, :data:`~attention_core.models.orders.ORDERS`,
  :data:`~attention_core.models.seq2seq.ENCODERS` and :data:`~attention_core.models.positions.POSITIONS`, in their
  order, each for a class of that name whose parameters have the Python twin's names, order and shapes.

The cases are the registries' own: every score of ``SCORES`` (and the fixed summary), every order with every score,
every kind of positions in the self-attention encoder, so a part added in Python is compared with its JavaScript
twin, and fails here until it has one. The negative control: each case again with its part's backward pass (its
forward, for the sinusoidal table, which has none) made wrong by about 1 % in one number (``sabotage`` in
``tests/site/lab/parts_node.js``) must fail. The whole model, end to end, on
committed parameters: ``tests/site/test_lab_math.py``; a score added end to end: ``tests/site/test_lab_added_score.py``.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from attention_core.models.attention_layer import SelfAttentionLayer
from attention_core.models.gru import gru_step, gru_step_backward, init_gru
from attention_core.models.orders import ORDERS
from attention_core.models.positions import POSITIONS
from attention_core.models.scorers import SCORES, FixedSummary, Source
from attention_core.models.seq2seq import ENCODERS, ModelConfig, decoder_parts, encoder_part
from tests.helpers import ROOT, gemm_wasm

ASSETS = ROOT / "book" / "_assets"
DRIVER = pathlib.Path(__file__).parent / "lab" / "parts_node.js"
RTOL = 1e-10  # float64 on both sides: measured about 1e-15
CFG = dict(d_emb=5, d_enc=4, d_dec=6, d_att=7, src_vocab=9, tgt_vocab=8, layers=2, d_ff=7, dtype="float64")
N, T, U = 3, 5, 4


def b64(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode("ascii")


def unb64(text: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def tm(a: np.ndarray) -> np.ndarray:
    """(N, U, ...) -> time-major (U, N, ...), as the JavaScript parts keep the steps."""
    return np.ascontiguousarray(np.swapaxes(a, 0, 1))


def config(order="bahdanau", score="additive", attention=True, **encoder) -> ModelConfig:
    return ModelConfig(attention=attention, order=order, score=score, **CFG, **encoder)


def cfg_json(cfg: ModelConfig) -> dict:
    return {k: v for k, v in dataclasses.asdict(cfg).items() if k != "dtype"}


def rel(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300))


# ---------------------------------------------------------------------------------------------------------
# The Python side of each part, on inputs drawn from a seeded generator


def gru_case(seed: int):
    rng = np.random.default_rng(seed)
    d = 6
    xp, h = rng.standard_normal((N, 3 * d)), rng.standard_normal((N, d))
    U_ = rng.standard_normal((3 * d, d)) / np.sqrt(d)
    dh = rng.standard_normal((N, d))
    h_new, cache = gru_step(xp, h, U_)
    dxp, dh_prev, dU = gru_step_backward(dh, cache, U_)
    task = {"part": "gru", "N": N, "d": d, "xp": b64(xp), "h": b64(h), "U": b64(U_), "dh": b64(dh)}
    return task, {"h": h_new, "dxp": dxp, "dh": dh_prev, "dU": dU}


def encoder_case(seed: int, **fields):
    """The encoder ``fields`` choose (lesson 07's recurrent one by default), as ``encoder_part`` makes it: the
    annotations, each layer's weights (self-attention), every gradient, the summary and its backward."""
    rng = np.random.default_rng(seed)
    cfg = config(**fields)
    encoder = encoder_part(cfg)
    p = encoder.init(rng, cfg.src_vocab, np.dtype("float64"))
    for k in p:
        p[k] = p[k] + 0.1 * rng.standard_normal(p[k].shape)  # biases not zero: their gradients count too
    src = rng.integers(cfg.src_vocab, size=(N, T))
    H, cache = encoder.encode(p, src)
    dH, dm = rng.standard_normal(H.shape), rng.standard_normal((N, H.shape[2]))
    g = encoder.backward(p, dH, cache)
    weights = getattr(cache, "weights", [])
    task = {
        "part": "encoder", "config": cfg_json(cfg), "N": N, "T": T, "src": src.reshape(-1).tolist(),
        "params": {k: b64(v) for k, v in p.items()}, "dH": b64(dH), "dm": b64(dm),
    }  # fmt: skip
    want = {
        "H": H, "weights": np.stack(weights) if weights else None, "m": encoder.summary(H),
        "dHm": encoder.summary_backward(dm, T), "grads": g,
    }  # fmt: skip
    return task, want


def positions_case(name: str, seed: int):
    """A positions part alone: ``P`` (T, d) and, from a random ``dL/dP``, its parameters' gradients."""
    rng = np.random.default_rng(seed)
    d = 8
    part = POSITIONS[name](d)
    p = part.init(rng, np.dtype("float64"))
    dP = rng.standard_normal((T, d))
    P = part.forward(p, T, np.float64)
    task = {"part": "positions", "name": name, "d": d, "T": T, "params": {k: b64(v) for k, v in p.items()}}
    return {**task, "dP": b64(dP)}, {"P": P, "grads": part.backward(p, dP)}


def layer_case(seed: int, tied: bool, causal: bool):
    """One self-attention layer: its output, weights, ``dL/dZ`` and every gradient from a random ``dL/dz''``."""
    rng = np.random.default_rng(seed)
    d, d_ff = 8, 7
    layer = SelfAttentionLayer(2, d, d_ff, tied, causal)
    p = layer.init(rng, np.dtype("float64"))
    for k in p:
        p[k] = p[k] + 0.1 * rng.standard_normal(p[k].shape)  # biases not zero
    Z, d_out = rng.standard_normal((N, T, d)), rng.standard_normal((N, T, d))
    out, A, cache = layer.forward(p, Z)
    dZ, g = layer.backward(p, d_out, cache)
    task = {
        "part": "layer", "d": d, "d_ff": d_ff, "tied": tied, "causal": causal, "N": N, "T": T,
        "params": {k: b64(v) for k, v in p.items()}, "Z": b64(Z), "dOut": b64(d_out),
    }  # fmt: skip
    return task, {"out": out, "weights": A, "dZ": dZ, "grads": g}


def score_case(name: str, seed: int):
    rng = np.random.default_rng(seed)
    cfg = config(score="additive" if name == "none" else name, attention=name != "none")
    scorer = FixedSummary(cfg) if name == "none" else SCORES[name](cfg)
    p = scorer.init(rng, np.dtype("float64"))
    for k in p:
        p[k] = p[k] + 0.1 * rng.standard_normal(p[k].shape)  # biases not zero
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    H, m = rng.standard_normal((N, T, d_h)), rng.standard_normal((N, d_h))
    S, G = rng.standard_normal((N, U, d_s)), rng.standard_normal((N, U, d_h))
    source = Source(H, scorer.keys(p, H), m, scorer.tape(H, U))
    reads = [scorer.read(p, t, S[:, t], source) for t in range(U)]
    d_source = source.zeros()
    dS, grads = np.zeros_like(S), [None] * U
    for t in reversed(range(U)):
        d_s_t, grads[t] = scorer.read_backward(p, G[:, t], S[:, t], source, d_source, reads[t])
        dS[:, t] = d_s_t
    weights = None if reads[0].alpha is None else np.stack([r.alpha for r in reads], axis=1)
    g = scorer.backward(p, source, d_source, S, weights, G, grads)
    task = {
        "part": "score", "config": cfg_json(cfg), "N": N, "T": T, "U": U,
        "params": {k: b64(v) for k, v in p.items()}, "H": b64(H), "m": b64(m), "S": b64(tm(S)), "G": b64(tm(G)),
    }  # fmt: skip
    want = {
        "keys": source.K, "weights": None if weights is None else tm(weights),
        "contexts": tm(np.stack([r.c for r in reads], axis=1)), "dS": tm(dS), "dH": d_source.H, "dm": d_source.m,
        "grads": g,
    }  # fmt: skip
    return task, want


def order_case(order_name: str, score: str, seed: int):
    rng = np.random.default_rng(seed)
    cfg = config(order_name, "additive" if score == "none" else score, attention=score != "none")
    order, scorer = decoder_parts(cfg)
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    dt = np.dtype("float64")
    p = {f"dec_{k}": v for k, v in init_gru(rng, cfg.d_emb + order.feed_width, d_s, dt).items()}
    p.update(scorer.init(rng, dt))
    p.update(order.init(rng, dt))
    for k in p:
        p[k] = p[k] + 0.1 * rng.standard_normal(p[k].shape)  # biases not zero
    H, m = rng.standard_normal((N, T, d_h)), rng.standard_normal((N, d_h))
    s0, Xe = np.tanh(rng.standard_normal((N, d_s))), rng.standard_normal((N, U, 3 * d_s))
    dO = rng.standard_normal((N, U, order.out_width))
    source = Source(H, scorer.keys(p, H), m, scorer.tape(H, U))
    carry, caches = order.start(s0), []
    O, states = np.empty((N, U, order.out_width)), np.empty((N, U, d_s))
    for t in range(U):
        carry, O[:, t], cache = order.step(p, t, Xe[:, t], carry, scorer, source)
        states[:, t] = carry[0]
        caches.append(cache)
    d_carry = tuple(np.zeros_like(x) for x in order.start(s0))
    d_source = source.zeros()
    dXp, gC, dU = np.empty((N, U, 3 * d_s)), np.empty((N, U, d_h)), np.zeros_like(p["dec_U"])
    read_grads, pre_grads = [None] * U, [None] * U
    for t in reversed(range(U)):
        d_carry, grad = order.step_backward(p, dO[:, t], d_carry, scorer, source, d_source, caches[t])
        dXp[:, t], gC[:, t], read_grads[t], pre_grads[t] = grad.d_xp, grad.g_c, grad.read, grad.d_pre
        dU += grad.d_U
    S_q = np.stack([c.query for c in caches], axis=1)
    weights = None if caches[0].read.alpha is None else np.stack([c.read.alpha for c in caches], axis=1)
    g = {"dec_U": dU, **scorer.backward(p, source, d_source, S_q, weights, gC, read_grads)}
    g.update(order.backward(p, caches, pre_grads))
    task = {
        "part": "order", "config": cfg_json(cfg), "N": N, "T": T, "U": U,
        "params": {k: b64(v) for k, v in p.items()}, "H": b64(H), "m": b64(m), "s0": b64(s0),
        "XE": b64(tm(Xe)), "dO": b64(tm(dO)),
    }  # fmt: skip
    want = {
        "outputs": tm(O), "states": tm(states), "weights": None if weights is None else tm(weights),
        "dXp": tm(dXp), "gC": tm(gC), "ds0": d_carry[0], "dH": d_source.H, "dm": d_source.m, "grads": g,
    }  # fmt: skip
    return task, want


def registry_case():
    """The registries as the package has them: for each name of SCORES, ORDERS, ENCODERS (each made by
    ``encoder_part`` for a config naming it) and POSITIONS (for the encoder's width), in order, the class's own name
    and the names and shapes of its parameters, in the order its ``init`` draws them."""
    cfg, rng, dt = config(), np.random.default_rng(0), np.dtype("float64")
    made = {
        "scores": {key: cls(cfg).init(rng, dt) for key, cls in SCORES.items()},
        "orders": {key: cls(cfg).init(rng, dt) for key, cls in ORDERS.items()},
        "encoders": {key: encoder_part(config(encoder=key)).init(rng, cfg.src_vocab, dt) for key in ENCODERS},
        "positions": {key: cls(2 * cfg.d_enc).init(rng, dt) for key, cls in POSITIONS.items()},
    }
    classes = {"scores": SCORES, "orders": ORDERS, "encoders": ENCODERS, "positions": POSITIONS}
    want = {
        kind: [
            {"key": key, "name": classes[kind][key].name, "params": {k: list(v.shape) for k, v in params.items()}}
            for key, params in made[kind].items()
        ]
        for kind in made
    }
    return {"part": "registry", "config": cfg_json(cfg)}, want


def cases() -> dict:
    """Every case, from the registries as they are when called: each score alone (and the fixed summary), each
    order with each score (and Bahdanau's with the fixed summary); the recurrent encoder; the positions with
    parameters or a table (none adds nothing: the encoder's case without positions covers it); the self-attention
    layer as lesson 09's encoder has it and with tied values and the causal mask; the self-attention encoder with
    each kind of positions, tied with the learned ones."""
    scores = [*SCORES, "none"]
    pairs = [(o, s) for o in ORDERS for s in SCORES] + [("bahdanau", "none")]
    encoders = [(kind, kind == "learned") for kind in POSITIONS]
    return {
        "gru": lambda: gru_case(1),
        "encoder": lambda: encoder_case(2),
        **{f"score {name}": (lambda name=name: score_case(name, 3)) for name in scores},
        **{f"order {o} + {s}": (lambda o=o, s=s: order_case(o, s, 4)) for o, s in pairs},
        **{f"positions {k}": (lambda k=k: positions_case(k, 5)) for k in POSITIONS if k != "none"},
        "layer": lambda: layer_case(6, tied=False, causal=False),
        "layer tied causal": lambda: layer_case(6, tied=True, causal=True),
        **{
            f"self_attention {k}{' tied' if tied else ''}": (
                lambda k=k, tied=tied: encoder_case(7, encoder="self_attention", positions=k, tied=tied)
            )
            for k, tied in encoders
        },
    }


def owner(case: str) -> str:
    """The part a case is of: "gru", "encoder" (the recurrent one), a score's name or an order's, a positions'
    name, "layer" or "self_attention" (the encoder without recurrence)."""
    return case.split()[1] if case.startswith(("score ", "order ", "positions ")) else case.split()[0]


CASES = cases()


def compare(got: dict, want: dict) -> dict[str, float]:
    """The relative error of every output the case names (gradients by parameter); infinite, under the name of
    the message, when the JavaScript threw."""
    if "error" in got:
        return {f"JavaScript error: {got['error']}": float("inf")}
    errors = {}
    for key, value in want.items():
        if value is None:
            assert got[key] is None, key
        elif key == "grads":
            assert set(got["grads"]) >= set(value), sorted(set(value) - set(got["grads"]))
            for name, g in value.items():
                errors[f"d{name}"] = rel(unb64(got["grads"][name], g.shape), g)
        else:
            errors[key] = rel(unb64(got[key], np.shape(value)), value)
    return errors


def run_node(tasks: list[dict], assets: pathlib.Path = ASSETS, driver: pathlib.Path = DRIVER) -> list[dict]:
    """The tasks' results from the parts of ``assets`` (``book/_assets``, or a copy with a part added), under Node,
    by ``driver`` (this file's, ``lab/parts_node.js``, or ``tests/site/lab_node.js``, the whole model's)."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    job = {"assets": str(assets), "tasks": tasks, "wasm": gemm_wasm()}
    run = subprocess.run([node, str(driver)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def run_cases(made: dict, assets: pathlib.Path = ASSETS) -> tuple[dict, dict, tuple]:
    """Every case of ``made`` (name -> (task, want)) as it is, then again with its own part's backward made wrong,
    and the registries, in one Node run: ``(errors by case, errors by (case, part), (got, want) registries)``."""
    tasks = [task for task, _ in made.values()]
    spoiled = [(name, owner(name)) for name in made]
    tasks += [{**made[name][0], "sabotage": part} for name, part in spoiled]
    registry = registry_case()
    out = run_node([*tasks, registry[0]], assets)
    honest = {name: compare(got, want) for (name, (_, want)), got in zip(made.items(), out, strict=False)}
    broken = {key: compare(got, made[key[0]][1]) for key, got in zip(spoiled, out[len(made) : -1], strict=True)}
    return honest, broken, (out[-1], registry[1])


@pytest.fixture(scope="module")
def results():
    return run_cases({name: make() for name, make in CASES.items()})


@pytest.mark.parametrize("case", list(CASES))
def test_each_part_computes_what_its_python_twin_computes(results, case):
    errors = results[0][case]
    worst = max(errors, key=errors.get)
    assert errors[worst] <= RTOL, f"{case}: {worst} relative error {errors[worst]:.1e} > {RTOL:.0e}"


@pytest.mark.parametrize("case", list(CASES))
def test_a_wrong_gradient_in_a_part_fails_that_parts_test(results, case):
    """The negative control: the part's backward made wrong by about 1 % in one number fails its own case."""
    errors = results[1][case, owner(case)]
    assert max(errors.values()) > 1e3 * RTOL, f"{case}: a wrong {owner(case)} backward went unseen ({errors})"


def test_the_javascript_registries_are_the_packages(results):
    """``SCORES``, ``ORDERS``, ``ENCODERS`` and ``POSITIONS`` of the JavaScript parts name the package's scores,
    orders, encoders and positions, in their order, each a class of that name with the Python twin's parameters
    (names, order, shapes): a part added on one side only fails here."""
    got, want = results[2]
    for kind in ("scores", "orders", "encoders", "positions"):
        assert [e["key"] for e in got[kind]] == [e["key"] for e in want[kind]], f"{kind}: other names"
        for g, w in zip(got[kind], want[kind], strict=True):
            assert g["name"] == w["name"] == w["key"], (kind, g, w)
            assert list(g["params"].items()) == list(w["params"].items()), f"{kind} {w['key']}: other parameters"
