"""The exercise self-checks of lessons 05 and 08 accept right answers and name the mistake in wrong ones."""

import numpy as np
import pytest

from attention_core.checks.base import FSI, PDI
from attention_core.checks.scoring import check_additive_score, check_causal_mask, check_linear_ablation
from attention_core.lang import language
from tests.checks.tries import at_try, in_english_and_chinese
from tests.helpers import NUMBER, has_cjk


def right_score(s, h, W_s, W_h, v, b):
    return float(v @ np.tanh(W_s @ s + W_h @ h + b))


def test_additive_right_answer():
    result = check_additive_score(right_score)
    assert result.ok is True and repr(result).startswith("✓")


def test_additive_accepts_length_one_array():
    assert check_additive_score(lambda s, h, W_s, W_h, v, b: np.atleast_1d(right_score(s, h, W_s, W_h, v, b))).ok


def _assert_rejected(check, fn, *phrases):
    result = at_try(2, check, fn)  # the hint and its detail
    assert result.ok is False
    out = result.message
    assert "Not yet" in result._repr_html_()
    for phrase in phrases:
        assert phrase in out, out


def test_additive_wrong_answers():
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: v @ (W_s @ s + W_h @ h + b), "tanh")
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s @ s + W_h @ h), "bias")
    _assert_rejected(
        check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(v @ (W_s @ s + W_h @ h + b)), "then take the dot"
    )
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(W_s @ s + W_h @ h + b), "v?")
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s.T @ s + W_h @ h + b), "W_s @ s")
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: 0.0, "expected")


def test_unanswered_is_reported_not_raised():
    def my_score(s, h, W_s, W_h, v, b):
        raise NotImplementedError

    _assert_rejected(check_additive_score, my_score, "NotImplementedError")


def right_ablation(H, W_h, v):
    e = H @ W_h.T @ v
    z = np.exp(e - e.max())
    return z / z.sum()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the naive wrong answer overflows on purpose
def test_ablation_right_and_wrong():
    assert check_linear_ablation(right_ablation).ok is True
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: H @ W_h.T @ v, "softmax")
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v))
    _assert_rejected(
        check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v) / np.exp(H @ W_h.T @ v).sum(), "Subtract"
    )
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: np.ones(3) / 3, "shape")
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: right_ablation(H, W_h, -v), "expected")


def test_causal_mask_right_and_wrong():
    assert check_causal_mask(lambda T: np.tril(np.ones((T, T), dtype=bool))).ok is True
    _assert_rejected(check_causal_mask, lambda T: np.tril(np.ones((T, T))), "dtype")
    _assert_rejected(check_causal_mask, lambda T: np.triu(np.ones((T, T), dtype=bool)), "transposed")
    _assert_rejected(check_causal_mask, lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1), "diagonal")
    _assert_rejected(check_causal_mask, lambda T: ~np.tril(np.ones((T, T), dtype=bool)), "hidden positions")
    _assert_rejected(check_causal_mask, lambda T: np.ones((T, T + 1), dtype=bool), "shape")


def _todo(*args):
    raise NotImplementedError


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(
    ("check", "fn"),
    [
        (check_additive_score, lambda s, h, W_s, W_h, v, b: v @ (W_s @ s + W_h @ h + b)),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s @ s + W_h @ h)),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(v @ (W_s @ s + W_h @ h + b))),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: np.sum(np.tanh(W_s @ s + W_h @ h + b))),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(W_s @ s + W_h @ h + b)),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s.T @ s + W_h @ h + b)),
        (check_additive_score, lambda s, h, W_s, W_h, v, b: 0.0),
        (check_additive_score, _todo),
        (check_linear_ablation, lambda H, W_h, v: H @ W_h.T @ v),
        (check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v)),
        (check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v) / np.exp(H @ W_h.T @ v).sum()),
        (check_linear_ablation, lambda H, W_h, v: np.ones(3) / 3),
        (check_linear_ablation, lambda H, W_h, v: right_ablation(H, W_h, -v)),
        (check_linear_ablation, lambda H, W_h, v: 1 / 0),
        (check_causal_mask, lambda T: np.tril(np.ones((T, T)))),
        (check_causal_mask, lambda T: np.triu(np.ones((T, T), dtype=bool))),
        (check_causal_mask, lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1)),
        (check_causal_mask, lambda T: ~np.tril(np.ones((T, T), dtype=bool))),
        (check_causal_mask, lambda T: np.ones((T, T + 1), dtype=bool)),
        (check_causal_mask, lambda T: np.eye(T, dtype=bool)),
        (check_causal_mask, lambda T: "mask"),
        (check_causal_mask, _todo),
    ],
)
def test_in_chinese_wrong_answers_get_chinese_messages_with_the_same_numbers(check, fn):
    english, chinese = in_english_and_chinese(check, fn, n=2)
    with language("zh"):
        assert "还不对" in chinese._repr_html_()
    assert not english.ok and not chinese.ok
    assert not has_cjk(english.message) and has_cjk(chinese.message), chinese.message
    assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def wrong_only_with_one_hidden_unit(s, h, W_s, W_h, v, b):
    if len(v) == 1:
        return float(v @ (W_s @ s + W_h @ h + b))  # no tanh
    return right_score(s, h, W_s, W_h, v, b)


def test_in_chinese_right_answers_pass_and_cases_keep_their_lower_case_symbols():
    with language("zh"):
        for check, fn in [
            (check_additive_score, right_score),
            (check_linear_ablation, right_ablation),
            (check_causal_mask, lambda T: np.tril(np.ones((T, T), dtype=bool))),
        ]:
            result = check(fn)
            assert result.ok and has_cjk(result.message), result.message
        # a message that starts with a case such as "d_a = 1 ..." is not capitalised in Chinese
        no_tanh_on_one_unit = at_try(1, check_additive_score, wrong_only_with_one_hidden_unit)
        assert no_tanh_on_one_unit.lead == "d_a = 1 的例子：你的分数对 s 和 h 是线性的；缺了非线性。"
    assert at_try(1, check_additive_score, wrong_only_with_one_hidden_unit).lead == (
        "On the case with d_a = 1: your score is linear in s and h; the nonlinearity is missing."
    )
    assert check_additive_score(_todo).message == (
        f"Your function {FSI}_todo{PDI} still raises NotImplementedError: replace its body with an answer."
    )
