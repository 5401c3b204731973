"""The lesson-06 self-checks accept right answers and explain wrong ones."""

import numpy as np

from attention_core import worked_example
from attention_core.checks.state import check_example_read, check_peak_state
from attention_core.lang import language
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
    assert not result.ok and "exp" in result.message


def test_weights_not_summing_to_one():
    read = worked_example(-1.0)
    result = check_example_read(-1.0, read.scores, read.weights * 2)
    assert not result.ok and "sum to" in result.message


def test_nan_and_wrong_kind():
    assert not check_example_read(0.0, [np.nan, 0, 0], [1, 0, 0]).ok
    assert "your scores: expected 3 numbers, got [1, 2]" in check_example_read(0.0, [1, 2], [1, 2, 3]).message
    assert "your weights: got the text 'abc'" in check_example_read(0.0, [1, 2, 3], "abc").message


def test_peak_state():
    grid = np.linspace(-4, 4, 8001)
    s_best = grid[np.argmax(worked_example(grid).weights[:, 0])]
    assert check_peak_state(s_best).ok
    mirror = check_peak_state(-s_best)
    assert not mirror.ok and "mirror" in mirror.message
    assert "right" in check_peak_state(s_best - 1).message
    assert "your state: got the text 'left'" in check_peak_state("left").message
    assert "✓" in repr(check_peak_state(s_best))


def _both(check, *args, **kwargs):
    english = check(*args, **kwargs)
    with language("zh"):
        chinese = check(*args, **kwargs)
    return english, chinese


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
    english, chinese = _both(check_example_read, 0.5, [-0.5245, -1.3673, -1.3673], [0.4114, 0.2943, 0.2943])
    assert english.message == (
        "score of position 1 (I) is -0.5245; e_j(s) = tanh(s + h_j1) - tanh(s + h_j2) gives another value "
        "(check the sign: it is tanh(s + h_j1) - tanh(s + h_j2))"
    )
    assert chinese.message == (
        "位置 1（I）的分数是 -0.5245；按 e_j(s) = tanh(s + h_j1) - tanh(s + h_j2) 算出的是另一个值"
        "（检查一下符号：应为 tanh(s + h_j1) - tanh(s + h_j2)）"
    )
    english, chinese = _both(check_peak_state, 0.0, position=1)
    assert english.message.endswith("to the left") and chinese.message.endswith("再往左边找找")
