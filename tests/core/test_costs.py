"""Counts of stored numbers and multiply-adds (exact), and the timing helpers: shape, and the trend the lessons draw."""

import numpy as np
import pytest

from attention_core.costs import (
    TIMED_LENGTHS,
    additive_step_multiply_adds,
    rises_with_length,
    stored_floats,
    time_additive_scores,
    time_attention_step,
)


def test_stored_floats():
    assert stored_floats(10, 8) == {"fixed_summary": 8, "annotations": 80, "context_per_step": 8}


def test_multiply_adds_linear_in_T():
    counts = [additive_step_multiply_adds(T, 4, 6, 5) for T in (1, 2, 3)]
    assert counts[1] - counts[0] == counts[2] - counts[1] == 5 + 6
    assert additive_step_multiply_adds(1, 4, 6, 5, cache_keys=False) == 5 * 4 + 5 + 5 * 6 + 6


def test_timing_shape():
    for timer in (time_additive_scores, time_attention_step):
        t = timer([2, 4], d_s=2, d_h=2, d_a=2, repeats=3, rounds=2)
        assert t.shape == (2,) and np.all(t > 0)


@pytest.mark.parametrize("timer", [time_additive_scores, time_attention_step])
def test_the_lessons_timing_figures_rise_with_the_source_length(timer):
    # The call lessons 03 and 04 draw (defaults: T = 256, 1024, 4096, 16384, 5 rounds of 5 calls), and the check
    # they assert before drawing: every point at least 1.5x the one before (the work grows 4x per point; measured
    # here, on a loaded 2-core machine: 2.4x to 10x). About 0.3 s.
    seconds = timer()
    assert seconds.shape == (len(TIMED_LENGTHS),)
    assert rises_with_length(seconds), (TIMED_LENGTHS, seconds)


def test_the_rise_check_refuses_flat_falling_and_noisy_curves():
    assert rises_with_length([1.0, 2.0, 4.0, 8.0])
    assert not rises_with_length([1.0, 1.2, 1.4, 1.6])  # flat: under 1.5x per point
    assert not rises_with_length([8.0, 4.0, 2.0, 1.0])
    # what lesson 04's stored figure drew at T = 10, 40, 160, 640, 2560 (microseconds): noise, falling at the end
    assert not rises_with_length([30.0, 37.0, 62.0, 7998.0, 650.0])
    assert not rises_with_length([1.0]) and not rises_with_length([0.0, 1.0]) and not rises_with_length([[1.0, 2.0]])


def test_the_step_count_behind_the_step_timing_grows_with_T():
    # time_attention_step does the work additive_step_multiply_adds counts with cache_keys=False: exact on every
    # machine, and rising with T by d_a d_h + d_a + d_h per position.
    counts = [additive_step_multiply_adds(T, 32, 64, 32, cache_keys=False) for T in TIMED_LENGTHS]
    assert counts == [32 * 32 + T * (32 * 64 + 32 + 64) for T in TIMED_LENGTHS]
    assert rises_with_length(counts, min_ratio=3.9)


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
