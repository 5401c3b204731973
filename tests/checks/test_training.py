"""The lesson-07 self-checks accept right answers and name the mistake in wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.checks.training import check_score_gradient, check_steepest_push, steepest_push_answer
from attention_core.gradients import score_gradient


def right(w, H, g):
    c = w @ H
    return w * ((H - c) @ g)


@pytest.mark.parametrize("fn", [right, score_gradient], ids=["by-hand", "core"])
def test_score_gradient_check_accepts_right_answers(fn):
    result = check_score_gradient(fn)
    assert result.ok, result.message


@pytest.mark.parametrize(
    ("fn", "message"),
    [
        (lambda w, H, g: -right(w, H, g), "sign is flipped"),
        (lambda w, H, g: (H - w @ H) @ g, "factor alpha_j is missing"),
        (lambda w, H, g: w * (H @ g), "c is not subtracted"),
        (lambda w, H, g: right(w, H, g)[:-1], "one number per source position"),
        (lambda w, H, g: right(w, H, g) + 0.1, "must sum to 0"),
        (lambda w, H, g: right(w, H, g)[np.r_[1, 0, 2 : len(w)]], "at position 1"),
    ],
    ids=["sign", "no-alpha", "no-c", "shape", "shifted", "other"],
)
def test_score_gradient_check_names_the_mistake(fn, message):
    result = check_score_gradient(fn)
    assert not result.ok and message in result.message, result.message


def test_score_gradient_check_reports_a_crash_instead_of_raising():
    result = check_score_gradient(lambda w, H, g: undefined_name)  # noqa: F821
    assert not result.ok and "NameError" in result.message


def test_steepest_push_check():
    j, amount = steepest_push_answer()
    assert j == 3 and amount > 0
    assert check_steepest_push(3, round(amount, 4)).ok
    for answer, message in [
        ((1, amount), "Not position 1"),
        ((3, -round(amount, 4)), "wrong sign"),
        ((3, amount + 0.01), "is off"),
        ((4, amount), "must be 1, 2 or 3"),
    ]:
        result = check_steepest_push(*answer)
        assert not result.ok and message in result.message, result.message
