"""The one runner every self-check uses, and the one result type."""

from __future__ import annotations

import numpy as np

from attention_core.checks.base import CheckResult, run_reader, verdict
from attention_core.lang import language
from tests.helpers import has_cjk


def test_a_function_not_written_yet_is_reported_as_such():
    def my_answer(x):
        raise NotImplementedError

    result, problem = run_reader(my_answer, 1.0)
    assert result is None and "my_answer still raises NotImplementedError" in problem


def test_any_exception_is_reported_with_its_case_and_type():
    result, problem = run_reader(lambda x: 1 / 0, 1.0, case="worked example")
    assert result is None
    assert problem == "on the worked example your function raised ZeroDivisionError: division by zero"


def test_numeric_results_become_float_arrays_and_anything_else_is_named():
    result, problem = run_reader(lambda: [1, 2], numeric=True)
    assert problem is None and result.dtype == float and result.tolist() == [1.0, 2.0]
    result, problem = run_reader(lambda: {"a": 1}, numeric=True)
    assert result is None and "{'a': 1}" in problem


def test_overflow_inside_the_readers_code_does_not_warn(recwarn):
    run_reader(lambda: np.exp(np.array([1000.0])), numeric=True)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_something_that_is_not_a_function_is_reported():
    result, problem = run_reader(3.0)
    assert result is None and "expected a function" in problem


def test_verdict_lists_every_problem_or_passes():
    assert verdict([], "fine") == CheckResult(True, "fine")
    assert verdict(["a"], "fine") == CheckResult(False, "a")
    assert verdict(["a", "b"], "fine").message == "2 problems:\n- a\n- b"
    assert repr(CheckResult(False, "x")) == "✗ x" and "Not yet" in CheckResult(False, "x")._repr_html_()


def test_in_chinese_every_message_and_verdict_word_is_chinese():
    def my_answer(x):
        raise NotImplementedError

    with language("zh"):
        crash = run_reader(lambda x: 1 / 0, 1.0, case="算例")[1]
        assert crash == "算例：你的函数抛出了 ZeroDivisionError：division by zero"
        problem = run_reader(my_answer, 1.0)[1]
        assert has_cjk(problem) and "my_answer" in problem and "NotImplementedError" in problem
        assert has_cjk(run_reader(3.0)[1]) and has_cjk(run_reader(lambda: {"a": 1}, numeric=True)[1])
        assert verdict(["甲", "乙"], "好").message == "2 个问题：\n- 甲\n- 乙"
        assert "还不对" in CheckResult(False, "x")._repr_html_() and "正确" in CheckResult(True, "x")._repr_html_()
    assert "Correct" in CheckResult(True, "x")._repr_html_()  # and back in English after the block
    assert run_reader(3.0)[1] == "expected a function, got float"
