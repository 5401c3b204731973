"""Lesson 09's self-checks (attention_core.checks.encoder): the numbers their decisions read (their ``given``), the
lesson arguments no lesson means, and the answer boxes the website makes of them. Right and wrong answers: the
bank (test_exercise_banks.py, exercises 09.1 and 09.2); the page's twins: tests/site/test_checks_js.py."""

import numpy as np
import pytest

from attention_core.checks.base import ATTEMPTS
from attention_core.checks.encoder import (
    KEYS,
    ORDER,
    QUERY,
    check_permuted_rows,
    check_scaled_weights,
    permuted_rows_given,
    scaled_weights_given,
)
from attention_core.checks.site import Undeclared, box
from attention_core.reading import softmax


def test_the_scaled_weights_numbers_are_the_lessons_read():
    g, problem = scaled_weights_given()
    assert problem is None and g["d"] == 2
    np.testing.assert_array_equal(g["raw"], [1.0, 2.0, 3.0])  # q^T k_j for q = (1, 2) and the three keys
    np.testing.assert_allclose(g["scores"], np.array([1.0, 2.0, 3.0]) / np.sqrt(2.0), rtol=1e-15)
    np.testing.assert_allclose(g["weights"], softmax(g["scores"]), rtol=1e-15)
    np.testing.assert_allclose(g["unscaled"], softmax(g["raw"]), rtol=1e-15)
    np.testing.assert_allclose(g["by_d"], softmax(g["raw"] / 2), rtol=1e-15)
    assert check_scaled_weights(g["weights"]).ok and not check_scaled_weights(g["unscaled"]).ok


def test_the_permuted_rows_numbers_are_the_order_and_its_inverse():
    g, problem = permuted_rows_given()
    assert problem is None and g == {"order": [3, 1, 5, 2, 4], "T": 5, "inverse": [2, 4, 1, 5, 3]}
    assert [g["order"][j - 1] for j in g["inverse"]] == [1, 2, 3, 4, 5]  # the inverse undoes the order
    assert check_permuted_rows(list(ORDER)).ok


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: check_scaled_weights([0.2, 0.3, 0.5], q=[1.0, 2.0, 3.0]), "the keys K"),
        (lambda: check_scaled_weights([0.2, 0.3, 0.5], K=np.ones(3)), "one key per row"),
        (lambda: check_scaled_weights([0.2, 0.3, 0.5], q=[np.nan, 1.0]), "finite numbers"),
        (lambda: check_scaled_weights([0.2, 0.3, 0.5], K="keys"), "the keys K"),
        (lambda: check_permuted_rows([1, 2], order=[1, 1]), "each of the positions 1..T once"),
        (lambda: check_permuted_rows([1, 2], order=[2, 3]), "each of the positions 1..T once"),
        (lambda: check_permuted_rows([], order=[]), "each of the positions 1..T once"),
        (lambda: check_permuted_rows([1], order=None), "each of the positions 1..T once"),
    ],
)
def test_lesson_arguments_no_lesson_means_are_one_line_and_no_try(call, named):
    ATTEMPTS.clear()
    result = call()
    assert (
        not result.ok
        and named in result.message
        and "\n" not in result.message
        and "Wrong answer" not in result.message
    )


def test_each_check_is_an_answer_box_with_the_packages_numbers():
    weights = box(check_scaled_weights(softmax(np.array([1.0, 2.0, 3.0]))).exercise, "fr")
    assert weights["book"] == "encoder" and [s["name"] for s in weights["slots"]] == ["answer"]
    assert weights["slots"][0]["label"].startswith("Vos poids")
    assert weights["given"]["q"] == QUERY.tolist() and weights["given"]["K"] == KEYS.tolist()
    assert weights["given"]["close"] == {"rtol": 1e-5, "atol": 1e-6}
    rows = box(check_permuted_rows([1, 2, 3, 4, 5]).exercise, "zh")
    assert rows["start"] == ["[1, 2, 3, 4, 5]"] and rows["given"]["inverse"] == [2, 4, 1, 5, 3]
    with pytest.raises(Undeclared, match="once"):
        box({"check": "check_permuted_rows", "args": {"order": [1, 1]}, "start": ["[1, 1]"]}, "en")
