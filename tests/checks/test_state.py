"""The lesson-06 self-checks accept right answers and explain wrong ones."""

import numpy as np

from attention_core import worked_example
from attention_core.checks.base import FSI, PDI
from attention_core.checks.state import check_example_read, check_peak_state
from tests.checks.tries import at_try, in_english_and_chinese
from tests.helpers import NUMBER, has_cjk


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
    assert not result.ok and "divided by their sum" in result.message and "exp" not in result.message
    detail = at_try(2, check_example_read, -1.0, read.scores, read.scores / read.scores.sum())
    assert "exp(e_j) by the sum of exp(e_k)" in detail.message


def test_weights_not_summing_to_one():
    read = worked_example(-1.0)
    result = check_example_read(-1.0, read.scores, read.weights * 2)
    assert not result.ok and "sum to" in result.message


def test_nan_and_wrong_kind():
    assert not check_example_read(0.0, [np.nan, 0, 0], [1, 0, 0]).ok
    assert (
        f"Your scores: expected 3 numbers, got {FSI}[1, 2]{PDI}" in check_example_read(0.0, [1, 2], [1, 2, 3]).message
    )
    assert f"Your weights: got the text {FSI}'abc'{PDI}" in check_example_read(0.0, [1, 2, 3], "abc").message


def test_peak_state():
    grid = np.linspace(-4, 4, 8001)
    s_best = grid[np.argmax(worked_example(grid).weights[:, 0])]
    assert check_peak_state(s_best).ok
    mirror = check_peak_state(-s_best)
    assert not mirror.ok and "mirror" in mirror.message
    assert "right" in check_peak_state(s_best - 1).message
    assert f"Your state: got the text {FSI}'left'{PDI}" in check_peak_state("left").message
    assert "✓" in repr(check_peak_state(s_best))


def test_peak_state_at_two_decimals():
    """The peak of position 1 is at -1.4554: to two decimals -1.46 (and the lesson's printed -1.456); -1.45, -1.44
    and -1.47 are near it but wrong at that precision, and the detail says which side to look on."""
    for right in (-1.46, -1.456, -1.455, -1.4554):
        assert check_peak_state(right).ok, right
    for close, side in ((-1.45, "left"), (-1.44, "left"), (-1.47, "right")):
        first = at_try(1, check_peak_state, close)
        assert not first.ok and "not at it to two decimals" in first.message and side not in first.lead
        assert f"further to the {side}" in at_try(2, check_peak_state, close).message
    assert at_try(3, check_peak_state, -1.45).note == "The answer: s = -1.46 (the peak is at s = -1.4554)"


def test_scores_and_weights_at_three_decimals_from_the_printed_four():
    """0.525 is 0.5245 (the lesson's printed four decimals) rounded half up: within half a unit of the third decimal
    plus one part in ten thousand of 0.5245, so it passes; 0.523 does not."""
    weights = [0.177, 0.411, 0.411]
    assert check_example_read(0.5, [0.525, 1.367, 1.367], weights).ok
    assert not check_example_read(0.5, [0.523, 1.367, 1.367], weights).ok


def _both(check, *args, **kwargs):
    return in_english_and_chinese(check, *args, n=2, **kwargs)  # the hint and its detail


def test_in_chinese_every_verdict_is_chinese_with_the_same_numbers():
    read = worked_example(0.5)
    grid = np.linspace(-4, 4, 8001)
    s_best = grid[np.argmax(worked_example(grid).weights[:, 0])]
    cases = [
        (check_example_read, (0.5, -read.scores, read.weights), False),
        (check_example_read, (0.5, read.scores + 1, read.weights), False),
        (check_example_read, (0.5, read.scores, read.weights * 2), False),
        (check_example_read, (0.5, read.scores, read.scores / read.scores.sum()), False),
        (check_example_read, (0.5, read.scores, read.weights[[1, 0, 2]]), False),
        (check_example_read, (0.0, [np.nan, 0, 0], [1, 0, 0]), False),
        (check_example_read, (0.5, read.scores, read.weights), True),
        (check_peak_state, (s_best,), True),
        (check_peak_state, (-s_best,), False),
        (check_peak_state, (s_best - 1,), False),
        (check_peak_state, (s_best + 1,), False),
    ]
    for check, args, ok in cases:
        english, chinese = _both(check, *args)
        assert english.ok is ok and chinese.ok is ok, english
        assert not has_cjk(english.message) and has_cjk(chinese.message), chinese.message
        assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def test_the_lesson_06_messages_in_both_languages():
    english, chinese = in_english_and_chinese(
        check_example_read, 0.5, [-0.5245, -1.3673, -1.3673], [0.4114, 0.2943, 0.2943]
    )
    assert english.lead == (
        "Score of position 1 (I) is -0.5245; e_j(s) = tanh(s + h_j1) - tanh(s + h_j2) gives another value "
        "(check the sign: it is tanh(s + h_j1) - tanh(s + h_j2))"
    )
    assert chinese.lead == (
        "位置 1（I）的分数是 -0.5245；按 e_j(s) = tanh(s + h_j1) - tanh(s + h_j2) 算出的是另一个值"
        "（检查一下符号：应为 tanh(s + h_j1) - tanh(s + h_j2)）"
    )
    assert english.note.startswith("Wrong answer 1 of 3") and chinese.note.startswith("答错 1/3 次")
    english, chinese = in_english_and_chinese(check_peak_state, 0.0, position=1)
    assert english.lead.endswith("to the left") and chinese.lead.endswith("再往左边找找")
