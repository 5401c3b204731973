"""A score added end to end (``tests/site/added_score.py``: one Python class, one JavaScript object, one label and
its design in the registry), under Node: the two registries name it, its JavaScript object computes what its
Python class computes in each order (the cases of ``tests/site/test_lab_parts.py``, with their negative controls),
the whole model with it trains in the page's code as in numpy (three optimiser steps: the same losses, gradient
norms and parameters), and the laboratory's data offer it, with its label and its formula. The page's menu and a
run in the page: ``tests/site/test_site_lab.py``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.explorers.site import lab_data, labels
from attention_core.models import data
from attention_core.models.seq2seq import Seq2Seq
from attention_core.models.train import Adam, TrainConfig, clip_global_norm, learning_rate
from tests.site import added_score
from tests.site.test_lab_math import DRIVER, _train_batches, b64, batch_json, unb64
from tests.site.test_lab_parts import RTOL, cases, owner, run_cases, run_node


@pytest.fixture(scope="module")
def design():
    with added_score.added() as design:
        yield design


@pytest.fixture(scope="module")
def assets(tmp_path_factory, design):
    return added_score.assets_with_it(tmp_path_factory.mktemp("assets"))


@pytest.fixture(scope="module")
def parts(design, assets):
    """The cases of the score (alone, and in each order), honest and spoiled, and the registries: one Node run."""
    made = {name: make() for name, make in cases().items() if name.split()[-1] == design.score}
    assert sorted(made) == ["order bahdanau + scaled", "order luong + scaled", "score scaled"]
    return run_cases(made, assets)


def test_both_registries_name_it_in_the_same_place(parts):
    got, want = parts[2]
    assert [e["key"] for e in got["scores"]] == [e["key"] for e in want["scores"]] == ["additive", "general", "scaled"]
    assert got == want


def test_its_javascript_object_computes_what_its_python_class_computes(parts):
    for case, errors in parts[0].items():
        worst = max(errors, key=errors.get)
        assert errors[worst] <= RTOL, f"{case}: {worst} relative error {errors[worst]:.1e}"
        spoiled = parts[1][case, owner(case)]
        assert max(spoiled.values()) > 1e3 * RTOL, f"{case}: a wrong {owner(case)} backward went unseen"


def test_the_model_with_it_trains_in_the_page_as_in_numpy(design, assets):
    """Three optimiser steps of the page's code (loss, every gradient, clipping, Adam, the schedule) from the same
    float64 parameters on the same batches as the package's: the same losses, norms and parameters."""
    cfg = design.config(dtype="float64")
    model = Seq2Seq(cfg, seed=5)
    recipe = {**lab_data()["recipe"], "steps": 300}
    batches = _train_batches(data.make_splits(seed=0))
    task = {
        "kind": "train_steps",
        "config": {k: v for k, v in dataclasses.asdict(cfg).items() if k != "dtype"},
        "recipe": recipe,
        "params": {k: b64(v) for k, v in model.params.items()},
        "batches": [batch_json(b) for b in batches],
        "grammar": lab_data()["grammar"],
    }
    (got,) = run_node([task], assets, DRIVER)
    got = got["result"]
    tc = TrainConfig(**{k: recipe[k] for k in ("batch_size", "lr", "lr_end", "warmup_steps", "clip_norm")}, steps=300)
    opt = Adam(model.params, recipe["beta1"], recipe["beta2"], recipe["adam_eps"])
    for step, batch in enumerate(batches):
        loss, grads = model.loss_and_grads(batch)
        assert set(grads) >= {"att_W"} and "att_v" not in grads
        norm = clip_global_norm(grads, tc.clip_norm)
        opt.update(model.params, grads, learning_rate(tc, step))
        assert got["losses"][step] == pytest.approx(loss, rel=1e-10)
        assert got["norms"][step] == pytest.approx(norm, rel=1e-10)
    assert got["losses"][-1] < got["losses"][0]
    for key, value in model.params.items():
        np.testing.assert_allclose(unb64(got["params"][key], value.shape), value, rtol=1e-9, atol=1e-12, err_msg=key)


def test_the_laboratorys_data_offer_it_with_its_label_and_formula(design):
    offered = lab_data()["designs"]
    assert list(offered)[-1] == design.name
    got = offered[design.name]
    assert got["config"] == {"attention": True, "order": "bahdanau", "score": "scaled"}
    assert got["labels"] == {"menu": None, "order": "lab_order_bahdanau", "score": added_score.LABEL[0], "encoder": []}
    assert labels("en")[added_score.LABEL[0]] == added_score.LABEL[1]
    scores = got["step"]["sections"][0]
    assert (
        scores["head"] == "lab_h_scores" and scores["items"][0]["tex"] == r"e_{tj} = d_s^{-1/2}\, s_{t-1}^\top W_a h_j"
    )
