"""Counts of stored numbers and multiply-adds (exact), and the timing helper (only its shape and sign)."""

import numpy as np
import pytest

from attention_core.costs import additive_step_multiply_adds, stored_floats, time_additive_scores


def test_stored_floats():
    assert stored_floats(10, 8) == {"fixed_summary": 8, "annotations": 80, "context_per_step": 8}


def test_multiply_adds_linear_in_T():
    counts = [additive_step_multiply_adds(T, 4, 6, 5) for T in (1, 2, 3)]
    assert counts[1] - counts[0] == counts[2] - counts[1] == 5 + 6
    assert additive_step_multiply_adds(1, 4, 6, 5, cache_keys=False) == 5 * 4 + 5 + 5 * 6 + 6


def test_timing_shape():
    t = time_additive_scores([2, 4], d_s=2, d_h=2, d_a=2, repeats=3)
    assert t.shape == (2,) and np.all(t > 0)


def test_errors():
    with pytest.raises(ValueError, match="T"):
        stored_floats(0, 3)
    with pytest.raises(TypeError, match="d_a"):
        additive_step_multiply_adds(3, 2, 2, 1.5)


@pytest.mark.parametrize("T", [0, -2])
def test_counts_refuse_non_positive_sizes_with_the_name(T):
    with pytest.raises(ValueError, match=r"T must be a positive integer \(at least 1\)"):
        stored_floats(T, 3)


@pytest.mark.parametrize("T", [True, 2.0, "3", None])
def test_counts_refuse_non_integers_with_the_name(T):
    with pytest.raises(TypeError, match="T must be a positive integer"):
        stored_floats(T, 3)
    assert stored_floats(np.int64(2), 3)["annotations"] == 6
