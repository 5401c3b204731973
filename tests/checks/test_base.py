"""The one runner every self-check uses, the one result type, and the hints that grow with the attempts."""

from __future__ import annotations

import html

import numpy as np

from attention_core.checks.base import (
    ATTEMPTS,
    FSI,
    PDI,
    REVEAL_AFTER,
    CheckResult,
    Precision,
    run_reader,
    verdict,
)
from attention_core.checks.reading import check_moved_states, check_softmax
from attention_core.lang import language
from tests.helpers import has_cjk


def test_a_function_not_written_yet_is_reported_as_such():
    def my_answer(x):
        raise NotImplementedError

    result, problem = run_reader(my_answer, 1.0)
    assert result is None and f"{FSI}my_answer{PDI} still raises NotImplementedError" in str(problem)


def test_any_exception_is_reported_with_its_case_and_type():
    result, problem = run_reader(lambda x: 1 / 0, 1.0, case="worked example")
    assert result is None and problem.key == "raised"
    assert str(problem) == (
        f"on the worked example your function raised {FSI}ZeroDivisionError{PDI}: {FSI}division by zero{PDI}"
    )
    assert str(run_reader(lambda: exec("raise ValueError"))[1]) == f"your function raised {FSI}ValueError{PDI}"


def test_numeric_results_become_float_arrays_and_anything_else_is_named():
    result, problem = run_reader(lambda: [1, 2], numeric=True)
    assert problem is None and result.dtype == float and result.tolist() == [1.0, 2.0]
    result, problem = run_reader(lambda: {"a": 1}, numeric=True)
    assert result is None and "{'a': 1}" in str(problem)


def test_overflow_inside_the_readers_code_does_not_warn(recwarn):
    run_reader(lambda: np.exp(np.array([1000.0])), numeric=True)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_something_that_is_not_a_function_is_reported():
    result, problem = run_reader(3.0)
    assert result is None and "expected a function" in str(problem)


def test_verdict_lists_every_problem_or_passes():
    assert verdict([], "fine") == CheckResult(True, "fine")
    assert verdict(["a"], "fine") == CheckResult(False, "a")
    assert verdict(["a", "b"], "fine").message == "2 problems:\n- a\n- b"
    assert repr(CheckResult(False, "x")) == "✗ x" and "Not yet" in CheckResult(False, "x")._repr_html_()


def test_several_problems_are_an_html_list_and_a_readable_text():
    result = CheckResult(False, "2 problems:", ("a <b>", "c"), "a note")
    page = result._repr_html_()
    assert "<ul><li>a &lt;b&gt;</li><li>c</li></ul>" in page and "<p>a note</p>" in page
    assert page.count("<p>") == 2 and "2 problems:" in page
    assert repr(result) == "✗ 2 problems:\n- a <b>\n- c\na note"
    one = CheckResult(True, "fine")._repr_html_()
    assert "<ul>" not in one and "Correct:" in one and html.escape("fine") in one


def test_in_chinese_every_message_and_verdict_word_is_chinese():
    def my_answer(x):
        raise NotImplementedError

    with language("zh"):
        crash = str(run_reader(lambda x: 1 / 0, 1.0, case="算例")[1])
        assert crash == f"算例：你的函数抛出了 {FSI}ZeroDivisionError{PDI}：{FSI}division by zero{PDI}"
        problem = str(run_reader(my_answer, 1.0)[1])
        assert has_cjk(problem) and "my_answer" in problem and "NotImplementedError" in problem
        assert has_cjk(str(run_reader(3.0)[1])) and has_cjk(str(run_reader(lambda: {"a": 1}, numeric=True)[1]))
        assert verdict(["甲", "乙"], "好").message == "2 个问题：\n- 甲\n- 乙"
        assert "还不对" in CheckResult(False, "x")._repr_html_() and "正确" in CheckResult(True, "x")._repr_html_()
    assert "Correct" in CheckResult(True, "x")._repr_html_()  # and back in English after the block
    assert str(run_reader(3.0)[1]) == f"expected a function, got {FSI}float{PDI}"


def naive(e):
    return np.exp(e) / np.exp(e).sum()


def test_the_first_wrong_answer_gets_the_idea_the_second_the_detail_the_third_the_answer():
    first, second, third = (check_moved_states(list(range(1, 13)), changed=12, T=12) for _ in range(3))
    assert "cannot move" in first.message and "[1, 2, 3" not in first.message  # no position named yet
    assert "Wrong answer 1 of 3" in first.note and "The answer" not in first.message
    assert "have not read x_12" in second.message and "[1, 2, 3" in second.message
    assert "Wrong answer 2 of 3" in second.note
    assert third.note == "The answer: [12]" and REVEAL_AFTER == 3


def test_a_right_answer_starts_the_count_again_and_a_malformed_one_is_not_counted():
    check_moved_states([1], changed=12, T=12)
    assert check_moved_states([12], changed=12, T=12).ok
    assert "Wrong answer 1 of 3" in check_moved_states([1], changed=12, T=12).note
    for _ in range(5):
        malformed = check_moved_states("twelve", changed=12, T=12)
        assert not malformed.ok and not malformed.note  # not a try: no count, no answer
    assert "Wrong answer 2 of 3" in check_moved_states([1], changed=12, T=12).note


def test_the_answer_on_request_and_each_check_counts_its_own_attempts():
    asked = check_moved_states([1], changed=12, T=12, show_answer=True)
    assert not asked.ok and asked.note == "The answer: [12]"
    ATTEMPTS.clear()
    check_softmax(naive)
    check_softmax(naive)
    assert "Wrong answer 1 of 3" in check_moved_states([1], changed=12, T=12).note
    assert check_softmax(naive).note.startswith("The answer: z = np.exp")  # its third wrong answer


def test_a_function_not_written_yet_is_not_a_try():
    def my_softmax(scores):
        raise NotImplementedError

    for _ in range(4):
        result = check_softmax(my_softmax)
        assert "NotImplementedError" in result.message and not result.note


def test_each_check_keeps_its_decision_pure():
    """``.decide`` is the verdict as data: the same keys for the same answer, whatever came before."""
    before = check_moved_states.decide(list(range(1, 13)), changed=12, T=12)
    for _ in range(4):
        check_moved_states(list(range(1, 13)), changed=12, T=12)
    after = check_moved_states.decide(list(range(1, 13)), changed=12, T=12)
    assert before == after and before.keys() == ["moved_wrong", "moved_extra"] and before.judged


def test_a_precision_is_half_a_unit_of_the_last_decimal_plus_one_part_in_ten_thousand():
    three = Precision(3)
    assert three.tolerance(0.0) == 0.0005 and abs(three.tolerance(1.0) - 0.0006) < 1e-15
    assert three.accepts(0.525, 0.52449714) and not three.accepts(0.523, 0.52449714)
    assert three.accepts([0.177, 0.411], [0.17712983, 0.41143508]) and not three.accepts([0.18, 0.41], [0.177, 0.411])
