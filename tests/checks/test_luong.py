"""The lesson-08 Luong self-checks accept right answers and name the mistake in wrong ones."""

import numpy as np
import pytest

from attention_core.checks.luong import check_gaussian, check_local_m_window


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
        (lambda p, T, D: _gauss(p, T, D, start=0), "start at 0"),
        (lambda p, T, D: _gauss(p, T, D, sign=1.0), "negative"),
        (lambda p, T, D: _gauss(p, T, D)[:-1], "shape"),
        (lambda p, T, D: np.ones(T), "expected"),
    ],
)
def test_wrong_gaussians_are_named(answer, named):
    result = check_gaussian(answer)
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
    assert "from 0" in check_local_m_window([0, 1, 2, 3, 4]).message
    assert "both ends" in check_local_m_window([2, 3, 4]).message
    wrong = check_local_m_window([1, 2, 3, 4, 6])
    assert not wrong.ok and "missing [5]" in wrong.message.lower() and "[6]" in wrong.message
    clipped = check_local_m_window([4, 5, 6, 7, 8], t=6, T=7, D=2)
    assert not clipped.ok and "[8]" in clipped.message and "clipped" in clipped.message
    assert check_local_m_window([4, 5, 6, 7], t=6, T=7, D=2).ok
    with pytest.raises(TypeError, match="whole positions"):
        check_local_m_window("three")
