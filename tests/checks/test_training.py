"""The lesson-07 self-checks accept right answers and name the mistake in wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.checks.training import check_score_gradient, check_steepest_push, steepest_push_answer
from attention_core.gradients import score_gradient
from attention_core.lang import language
from tests.checks.tries import at_try, in_english_and_chinese
from tests.helpers import NUMBER, has_cjk


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
    result = at_try(2, check_score_gradient, fn)  # the hint and its detail
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
        ((3, -round(amount, 4)), "check the sign"),
        ((3, amount + 0.01), "is off"),
        ((3, 0.4150), "close, but not the amount to 4 decimals"),
        ((4, amount), "must be 1, 2 or 3"),
    ]:
        result = check_steepest_push(*answer)
        assert not result.ok and message in result.message, result.message
    for right in (0.4151, 0.4152, 0.41518, np.float32(amount)):  # rounded, or from the weights printed to 4 decimals
        assert check_steepest_push(3, right).ok, right


def _todo(w, H, g):
    raise NotImplementedError


@pytest.mark.parametrize(
    ("check", "args"),
    [
        (check_score_gradient, (lambda w, H, g: -right(w, H, g),)),
        (check_score_gradient, (lambda w, H, g: (H - w @ H) @ g,)),
        (check_score_gradient, (lambda w, H, g: w * (H @ g),)),
        (check_score_gradient, (lambda w, H, g: right(w, H, g)[:-1],)),
        (check_score_gradient, (lambda w, H, g: right(w, H, g) + 0.1,)),
        (check_score_gradient, (lambda w, H, g: right(w, H, g)[np.r_[1, 0, 2 : len(w)]],)),
        (check_score_gradient, (lambda w, H, g: np.zeros_like(w),)),
        (check_score_gradient, (lambda w, H, g: right(w, H, g) if len(w) == 3 else np.zeros_like(w),)),
        (check_score_gradient, (_todo,)),
        (check_score_gradient, (lambda w, H, g: 1 / 0,)),
        (check_steepest_push, (1, 0.0)),
        (check_steepest_push, (3, -round(steepest_push_answer()[1], 4))),
        (check_steepest_push, (3, 0.5)),
        (check_steepest_push, (4, 0.5)),
    ],
)
def test_in_chinese_wrong_answers_get_chinese_messages_with_the_same_numbers(check, args):
    english, chinese = in_english_and_chinese(check, *args, n=2)
    assert not english.ok and not chinese.ok
    assert not has_cjk(english.message) and has_cjk(chinese.message), chinese.message
    assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def test_in_chinese_right_answers_pass_and_english_is_unchanged():
    j, amount = steepest_push_answer()
    with language("zh"):
        assert check_score_gradient(right).ok and has_cjk(check_score_gradient(right).message)
        push = check_steepest_push(j, round(amount, 4))
        assert push.ok and push.message == f"梯度下降的一步使位置 3 的分数上升得最多，上升了 {amount:.4f}"
        assert at_try(2, check_score_gradient, lambda w, H, g: np.zeros_like(w)).lead == (
            "算例：在位置 1 上，你的梯度不是 alpha_j g^T (h_j - c)。你给出的是 0.000000，应为 0.328996。"
        )
    first = at_try(1, check_score_gradient, lambda w, H, g: np.zeros_like(w))
    assert first.lead == "On the worked example: at position 1 your gradient is not alpha_j g^T (h_j - c)."
    assert at_try(2, check_score_gradient, lambda w, H, g: np.zeros_like(w)).lead == (
        first.lead + " You give 0.000000, expected 0.328996."
    )
