"""The laboratory's training Worker (``book/_assets/ae-lab-worker.js``) under Node: its validation checks, run in a
second Worker (the checker) as the page runs them, report what the trainer's own checks report.

One short run (seed 0, 40 steps, a check every 20) twice, by ``tests/site/lab/worker_node.js``: once with the checks
in the trainer's loop, once with the trainer sending a copy of its parameters to the checker over a MessageChannel
at each check and training on. The checker must answer every check, with the accuracy the trainer's own check gives
at that step; the trainer must report none itself and still take every step.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from attention_core.explorers import site
from attention_core.models.seq2seq import ModelConfig
from tests.helpers import ROOT

DRIVER = pathlib.Path(__file__).parent / "lab" / "worker_node.js"
STEPS, EVERY = 40, 20


@pytest.fixture(scope="module")
def runs() -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    data = site.lab_data()
    recipe = dict(data["recipe"], seed=0, steps=STEPS, eval_every=EVERY, n_train=400, n_valid=100, n_test=50)
    config = dataclasses.asdict(ModelConfig())
    del config["dtype"]
    job = {
        "assets": str(ROOT / "book" / "_assets"),
        "grammar": {**data["grammar"], "language": "svo"},
        "config": config,
        "recipe": recipe,
        "watch": data["examples"][0],
    }
    run = subprocess.run([node, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_the_trainer_checks_in_its_own_loop_without_a_checker(runs):
    inline = runs["inline"]
    assert [(c["from"], c["type"], c["step"]) for c in inline["valid"]] == [
        ("trainer", "progress", step) for step in range(EVERY, STEPS + 1, EVERY)
    ]
    assert inline["steps"] == STEPS


def test_the_checker_answers_every_check_with_the_trainers_accuracy(runs):
    inline, checked = runs["inline"], runs["checked"]
    assert [(c["from"], c["type"]) for c in checked["valid"]] == [("checker", "valid")] * (STEPS // EVERY)
    assert checked["progressWithValid"] == 0, "the trainer checked in its own loop although a checker was there"
    assert checked["steps"] == STEPS
    assert [(c["step"], c["valid"]) for c in checked["valid"]] == [(c["step"], c["valid"]) for c in inline["valid"]]
    assert all(0 < c["valid"] <= 1 for c in checked["valid"])
    seconds = [c["seconds"] for c in checked["valid"]]
    assert seconds == sorted(seconds) and seconds[0] > 0, seconds
