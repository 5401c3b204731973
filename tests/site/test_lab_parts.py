"""The laboratory's mathematics, part by part: each JavaScript part of ``book/_assets/lab/`` against its Python
twin of :mod:`attention_core.models` on random inputs, forward and backward, in float64 on both sides.

- ``lab/gru.js`` against :func:`~attention_core.models.gru.gru_step` and ``gru_step_backward``;
- ``lab/encoder.js`` against :func:`~attention_core.models.encoder.encode` and ``encode_backward``;
- ``lab/scorers.js``: each score (additive, general, the fixed summary) against its class of
  :mod:`~attention_core.models.scorers`: the keys, every step's read, its backward and the sums over steps;
- ``lab/orders.js``: each order (Bahdanau's, Luong's) with each score against its class of
  :mod:`~attention_core.models.orders`: the steps, their backward and the order's sums;
- the registries: ``SCORES`` of ``lab/scorers.js`` and ``ORDERS`` of ``lab/orders.js`` hold the names of
  :data:`~attention_core.models.scorers.SCORES` and :data:`~attention_core.models.orders.ORDERS`, in their order,
  each for a class of that name whose parameters have the Python twin's names, order and shapes.

The cases are the registries' own: every score of ``SCORES`` (and the fixed summary), every order with every score,
so a part added in Python is compared with its JavaScript twin, and fails here until it has one. The negative
control: the same comparisons with one part's backward pass made wrong by about 1 % in one number (``sabotage`` in
``tests/site/lab/parts_node.js``) must fail, that part's own test first among them. The whole model, end to end, on
committed parameters: ``tests/site/test_lab_math.py``; a score added end to end: ``tests/site/test_lab_added_score.py``.
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

from attention_core.models.encoder import encode, encode_backward, init_encoder
from attention_core.models.gru import gru_step, gru_step_backward, init_gru
from attention_core.models.orders import ORDERS
from attention_core.models.scorers import SCORES, FixedSummary, Source
from attention_core.models.seq2seq import ModelConfig, decoder_parts
from tests.helpers import ROOT, gemm_wasm

ASSETS = ROOT / "book" / "_assets"
DRIVER = pathlib.Path(__file__).parent / "lab" / "parts_node.js"
RTOL = 1e-10  # float64 on both sides: measured about 1e-15
CFG = dict(d_emb=5, d_enc=4, d_dec=6, d_att=7, src_vocab=9, tgt_vocab=8, dtype="float64")
N, T, U = 3, 5, 4


def b64(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode("ascii")


def unb64(text: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def tm(a: np.ndarray) -> np.ndarray:
    """(N, U, ...) -> time-major (U, N, ...), as the JavaScript parts keep the steps."""
    return np.ascontiguousarray(np.swapaxes(a, 0, 1))


def config(order="bahdanau", score="additive", attention=True) -> ModelConfig:
    return ModelConfig(attention=attention, order=order, score=score, **CFG)


def cfg_json(cfg: ModelConfig) -> dict:
    return {
        k: getattr(cfg, k)
        for k in ("attention", "order", "score", "d_emb", "d_enc", "d_dec", "d_att", "src_vocab", "tgt_vocab")
    }


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


def encoder_case(seed: int):
    rng = np.random.default_rng(seed)
    cfg = config()
    p = init_encoder(rng, cfg.src_vocab, cfg.d_emb, cfg.d_enc, np.float64)
    for k in p:
        if k.endswith("_b"):
            p[k] = rng.standard_normal(p[k].shape)  # biases not zero: their gradients count too
    src = rng.integers(cfg.src_vocab, size=(N, T))
    H, cache = encode(p, src)
    dH = rng.standard_normal(H.shape)
    g = encode_backward(p, dH, cache)
    task = {
        "part": "encoder", "config": cfg_json(cfg), "N": N, "T": T, "src": src.reshape(-1).tolist(),
        "params": {k: b64(v) for k, v in p.items()}, "dH": b64(dH),
    }  # fmt: skip
    return task, {"H": H, "grads": g}


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
    """The registries as the package has them: for each name of SCORES and ORDERS, in order, the class's own name
    and the names and shapes of its parameters, in the order its ``init`` draws them."""
    cfg, rng, dt = config(), np.random.default_rng(0), np.dtype("float64")
    want = {
        kind: [
            {"key": key, "name": cls.name, "params": {k: list(v.shape) for k, v in cls(cfg).init(rng, dt).items()}}
            for key, cls in registry.items()
        ]
        for kind, registry in (("scores", SCORES), ("orders", ORDERS))
    }
    return {"part": "registry", "config": cfg_json(cfg)}, want


def cases() -> dict:
    """Every case, from the registries as they are when called: each score alone (and the fixed summary), each
    order with each score (and Bahdanau's with the fixed summary)."""
    scores = [*SCORES, "none"]
    pairs = [(o, s) for o in ORDERS for s in SCORES] + [("bahdanau", "none")]
    return {
        "gru": lambda: gru_case(1),
        "encoder": lambda: encoder_case(2),
        **{f"score {name}": (lambda name=name: score_case(name, 3)) for name in scores},
        **{f"order {o} + {s}": (lambda o=o, s=s: order_case(o, s, 4)) for o, s in pairs},
    }


def owner(case: str) -> str:
    """The part a case is of: "gru", "encoder", a score's name or an order's."""
    return case.split()[1] if case.startswith(("score ", "order ")) else case


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
    """Every case of ``made`` (name -> (task, want)) as it is, then again with each part's backward made wrong in
    turn, and the registries, in one Node run: ``(errors by case, errors by (case, part), (got, want) registries)``."""
    tasks = [task for task, _ in made.values()]
    spoiled = [(name, part) for name in made for part in sorted({owner(n) for n in made})]
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
    """``SCORES`` and ``ORDERS`` of the JavaScript parts name the package's scores and orders, in their order, each a
    class of that name with the Python twin's parameters (names, order, shapes): a score or an order added on one
    side only fails here."""
    got, want = results[2]
    for kind in ("scores", "orders"):
        assert [e["key"] for e in got[kind]] == [e["key"] for e in want[kind]], f"{kind}: other names"
        for g, w in zip(got[kind], want[kind], strict=True):
            assert g["name"] == w["name"] == w["key"], (kind, g, w)
            assert list(g["params"].items()) == list(w["params"].items()), f"{kind} {w['key']}: other parameters"
