"""results/length_sweep.json is what scripts/length_experiment.py produces: retrain one point and compare.

The retrained point is the attention model with seed 0 (the model lesson 07 uses); it takes about 15 s on two
cores and is marked slow (`make test` runs it, `make check` does not). With BLAS pinned to one thread the run
is bit-for-bit repeatable on one machine; the tolerance TOL allows for the different rounding of other CPUs and
BLAS kernels, which training amplifies (measured spread of the seed-0 run: 0.0013 token, 0.0015 exact).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from attention_core.models.sweep import load_length_sweep

ROOT = Path(__file__).resolve().parents[2]
SWEEP = load_length_sweep()
TOL = 0.01  # absolute tolerance on every accuracy (a share between 0 and 1)


def load_script():
    spec = importlib.util.spec_from_file_location("length_experiment", ROOT / "scripts" / "length_experiment.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sweep_file_is_complete():
    labels = {r["model"] for r in SWEEP["runs"]}
    assert labels == {"attention", "fixed summary"}
    assert len(SWEEP["runs"]) == 2 * len(SWEEP["seeds"])
    assert SWEEP["lengths"][0] >= 1 and SWEEP["lengths"][-1] == 30
    for run in SWEEP["runs"]:
        assert len(run["per_length"]["token"]) == len(SWEEP["lengths"])
        assert set(run["buckets"]) == {"1-10", "11-20", "21-30"}


def test_sweep_supports_the_lesson_claims():
    att, base = SWEEP["mean"]["attention"]["buckets"], SWEEP["mean"]["fixed summary"]["buckets"]
    assert att["21-30"]["token"] >= 0.95
    assert att["21-30"]["token"] - base["21-30"]["token"] >= 0.40
    # The lesson's model (seed 0) aligns >= 95% of target words; the seed-1 run does not (it reads determiners
    # one position early, which the lesson shows), so only seed 0 is held to that figure.
    lesson_run = next(r for r in SWEEP["runs"] if r["model"] == "attention" and r["seed"] == 0)
    assert lesson_run["alignment"] >= 0.95


@pytest.mark.slow
def test_one_point_of_the_sweep_reproduces():
    script = load_script()
    stored = next(r for r in SWEEP["runs"] if r["model"] == "attention" and r["seed"] == 0)
    fresh = script.run_point("attention", 0)
    assert fresh["steps"] == stored["steps"]
    for key in ("token", "exact", "alignment"):
        assert fresh[key] == pytest.approx(stored[key], abs=TOL), key
    for bucket, values in stored["buckets"].items():
        for key in ("token", "exact"):
            assert fresh["buckets"][bucket][key] == pytest.approx(values[key], abs=TOL), (bucket, key)


def test_missing_sweep_file_says_how_to_make_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="scripts/length_experiment.py"):
        load_length_sweep(tmp_path / "absent.json")
