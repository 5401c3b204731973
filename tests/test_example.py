"""The worked example of lesson 06 must give the article's printed digits, and the CLI must print them."""

import subprocess
import sys

import numpy as np
import pytest

from attention_core import H_EXAMPLE, worked_example
from attention_core.__main__ import main


def test_state_A_matches_the_article():
    read = worked_example(-1.0)
    assert [f"{x:.4f}" for x in read.scores] == ["1.5232", "0.9640", "0.2335"]
    assert [f"{x:.4f}" for x in read.weights] == ["0.5414", "0.3095", "0.1491"]
    assert [f"{x:.6f}" for x in read.context] == ["1.392334", "-0.607666"]


def test_state_B_is_the_mirror_image():
    a, b = worked_example(-1.0), worked_example(1.0)
    np.testing.assert_allclose(b.scores, a.scores[::-1], rtol=1e-12)
    np.testing.assert_allclose(b.weights, a.weights[::-1], rtol=1e-12)
    assert [f"{x:.6f}" for x in b.context] == ["0.607666", "-1.392334"]


def test_expanded_formula():
    s = np.linspace(-4, 4, 9)
    expected = np.tanh(s[:, None] + H_EXAMPLE[:, 0]) - np.tanh(s[:, None] + H_EXAMPLE[:, 1])
    np.testing.assert_allclose(worked_example(s).scores, expected)


def test_curve_shapes_and_ablation_is_flat():
    curve = worked_example(np.linspace(-4, 4, 1001))
    assert curve.weights.shape == (1001, 3) and curve.context.shape == (1001, 2)
    flat = worked_example(np.linspace(-4, 4, 1001), nonlinearity=None)
    assert np.ptp(flat.weights, axis=0).max() < 1e-12


def test_bad_state():
    with pytest.raises(ValueError, match=r"s must have shape \(\) for one state or \(N,\)"):
        worked_example(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        worked_example(float("nan"))


def test_cli_prints_the_article_numbers(capsys):
    assert main(["example", "--s", "-1", "1"]) == 0
    out = capsys.readouterr().out
    for text in ["1.5232", "0.9640", "0.2335", "0.5414", "0.3095", "0.1491", "(1.392334, -0.607666)"]:
        assert text in out
    assert "(0.607666, -1.392334)" in out


@pytest.mark.parametrize("bad", ["abc", "nan", "inf"])
def test_cli_rejects_bad_s_with_one_line(bad):
    run = subprocess.run(
        [sys.executable, "-m", "attention_core", "example", "--s", bad], capture_output=True, text=True
    )
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "--s" in run.stderr
