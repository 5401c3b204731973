"""The lesson-06 self-checks accept right answers and explain wrong ones."""

import numpy as np
import pytest

from attention_core import worked_example
from attention_core.checks.state import check_example_read, check_peak_state


def test_right_answer_passes():
    read = worked_example(0.0)
    result = check_example_read(0.0, read.scores, read.weights)
    assert result.ok and "match" in result.message


def test_wrong_sign_is_named():
    read = worked_example(0.5)
    result = check_example_read(0.5, -read.scores, read.weights)
    assert not result.ok and "sign" in result.message and "position 1" in result.message


def test_dividing_by_the_sum_is_named():
    read = worked_example(-1.0)
    result = check_example_read(-1.0, read.scores, read.scores / read.scores.sum())
    assert not result.ok and "exp" in result.message


def test_weights_not_summing_to_one():
    read = worked_example(-1.0)
    result = check_example_read(-1.0, read.scores, read.weights * 2)
    assert not result.ok and "sum to" in result.message


def test_nan_and_wrong_kind():
    assert not check_example_read(0.0, [np.nan, 0, 0], [1, 0, 0]).ok
    with pytest.raises(TypeError, match="three numbers"):
        check_example_read(0.0, [1, 2], [1, 2, 3])


def test_peak_state():
    grid = np.linspace(-4, 4, 8001)
    s_best = grid[np.argmax(worked_example(grid).weights[:, 0])]
    assert check_peak_state(s_best).ok
    mirror = check_peak_state(-s_best)
    assert not mirror.ok and "mirror" in mirror.message
    assert "right" in check_peak_state(s_best - 1).message
    with pytest.raises(TypeError, match="number"):
        check_peak_state("left")
    assert "✓" in repr(check_peak_state(s_best))
