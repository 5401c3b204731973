"""The lesson-08 Luong self-checks accept right answers and name the mistake in wrong ones."""

import numpy as np
import pytest

from attention_core.checks.base import FSI, PDI
from attention_core.checks.luong import check_gaussian, check_local_m_window
from attention_core.lang import language
from tests.checks.tries import at_try, in_english_and_chinese
from tests.helpers import NUMBER, has_cjk


def _gauss(p, T, D, sigma=None, start=1, sign=-1.0, two=2.0):
    j = np.arange(start, T + start)
    sigma = D / 2 if sigma is None else sigma
    return np.exp(sign * (j - p) ** 2 / (two * sigma**2))


def test_right_gaussian_passes():
    result = check_gaussian(_gauss)
    assert result.ok and "D / 2" in result.message


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        (lambda p, T, D: _gauss(p, T, D, sigma=D), "twice as wide"),
        (lambda p, T, D: _gauss(p, T, D, two=1.0), "factor 2"),
        (lambda p, T, D: _gauss(p, T, D, start=0), "one position off"),
        (lambda p, T, D: _gauss(p, T, D, sign=1.0), "negative"),
        (lambda p, T, D: _gauss(p, T, D)[:-1], "shape"),
        (lambda p, T, D: np.ones(T), "expected"),
    ],
)
def test_wrong_gaussians_are_named(answer, named):
    result = at_try(2, check_gaussian, answer)  # the hint and its detail
    assert not result.ok and named in result.message


def test_unanswered_and_raising_functions_are_reported():
    def todo(p, T, D):
        raise NotImplementedError

    def broken(p, T, D):
        return 1 / 0

    assert "NotImplementedError" in check_gaussian(todo).message and not check_gaussian(todo).ok
    assert "ZeroDivisionError" in check_gaussian(broken).message


def test_local_m_window_right_and_wrong():
    assert check_local_m_window([1, 2, 3, 4, 5]).ok
    assert check_local_m_window(np.array([5, 4, 3, 2, 1])).ok  # order does not matter
    assert check_local_m_window([4, 5, 6], t=5, T=6, D=1).ok
    assert "from 0" in at_try(2, check_local_m_window, [0, 1, 2, 3, 4]).message
    assert "both ends" in at_try(2, check_local_m_window, [2, 3, 4]).message
    wrong = at_try(2, check_local_m_window, [1, 2, 3, 4, 6])
    assert not wrong.ok and f"Missing: {FSI}[5]{PDI}" in wrong.message and f"{FSI}[6]{PDI}" in wrong.message
    clipped = at_try(1, check_local_m_window, [4, 5, 6, 7, 8], t=6, T=7, D=2)
    assert not clipped.ok and "[8]" not in clipped.message and "do not exist" in clipped.message  # the hint
    clipped = at_try(2, check_local_m_window, [4, 5, 6, 7, 8], t=6, T=7, D=2)
    assert f"{FSI}[8]{PDI}" in clipped.message and "clipped" in clipped.message  # the detail
    assert check_local_m_window([4, 5, 6, 7], t=6, T=7, D=2).ok
    for answer, words in (
        ("three", f"text {FSI}'three'{PDI}"),
        ([4, 4, 5, 6], f"{FSI}[4]{PDI} appears more than once"),
        ([4.5], "4.5"),
    ):
        r = check_local_m_window(answer, t=6, T=7, D=2)
        assert not r.ok and words in r.message, r


def _todo(p, T, D):
    raise NotImplementedError


@pytest.mark.parametrize(
    ("check", "args"),
    [
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D, sigma=D),)),
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D, sigma=D / 4),)),
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D, two=1.0),)),
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D, start=0),)),
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D, sign=1.0),)),
        (check_gaussian, (lambda p, T, D: _gauss(p, T, D)[:-1],)),
        (check_gaussian, (lambda p, T, D: np.ones(T),)),
        (check_gaussian, (_todo,)),
        (check_gaussian, (lambda p, T, D: 1 / 0,)),
        (check_local_m_window, ([0, 1, 2, 3, 4],)),
        (check_local_m_window, ([2, 3, 4],)),
        (check_local_m_window, ([1, 2, 3, 4, 6],)),
        (check_local_m_window, ([4, 5, 6, 7, 8], 6, 7, 2)),
    ],
)
def test_in_chinese_wrong_answers_get_chinese_messages_with_the_same_numbers(check, args):
    english, chinese = in_english_and_chinese(check, *args, n=2)
    assert not english.ok and not chinese.ok
    assert not has_cjk(english.message) and has_cjk(chinese.message), chinese.message
    assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def test_in_chinese_right_answers_pass_and_english_is_unchanged():
    with language("zh"):
        assert check_gaussian(_gauss).ok and has_cjk(check_gaussian(_gauss).message)
        window = check_local_m_window([1, 2, 3, 4, 5])
        assert (
            window.ok
            and window.message == "local-m 在 t = 3、D = 2 时读取位置 [1, 2, 3, 4, 5]，每个位置都不乘高斯因子。"
        )
        wide = at_try(2, check_gaussian, lambda p, T, D: _gauss(p, T, D, sigma=D))
        assert wide.lead == "p = 4.0，T = 9，D = 2 的例子：你的峰宽是 local-p 的两倍。sigma 是 D / 2，不是 D。"
    assert at_try(1, check_gaussian, lambda p, T, D: _gauss(p, T, D, sigma=D)).lead == (
        "On the case p = 4.0, T = 9, D = 2: your bump is twice as wide as local-p's."
    )
    assert at_try(2, check_local_m_window, [4, 5, 6, 7, 8], t=6, T=7, D=2).lead == (
        f"Some of your positions do not exist in a source of 7 positions. Position(s) {FSI}[8]{PDI} do not exist: "
        "the window is clipped to the source, 1..7."
    )
