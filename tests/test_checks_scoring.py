"""The exercise self-checks of lessons 05 and 08 accept right answers and name the mistake in wrong ones."""

import numpy as np
import pytest

from attention_core.checks_scoring import check_additive_score, check_causal_mask, check_linear_ablation


def right_score(s, h, W_s, W_h, v, b):
    return float(v @ np.tanh(W_s @ s + W_h @ h + b))


def test_additive_right_answer(capsys):
    assert check_additive_score(right_score) is True
    assert capsys.readouterr().out.startswith("Correct.")


def test_additive_accepts_length_one_array():
    assert check_additive_score(lambda s, h, W_s, W_h, v, b: np.atleast_1d(right_score(s, h, W_s, W_h, v, b)))


def _assert_rejected(check, fn, capsys, *phrases):
    assert check(fn) is False
    out = capsys.readouterr().out
    assert out.startswith("Not yet.")
    for phrase in phrases:
        assert phrase in out, out


def test_additive_wrong_answers(capsys):
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: v @ (W_s @ s + W_h @ h + b), capsys, "tanh")
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s @ s + W_h @ h), capsys, "bias")
    _assert_rejected(
        check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(v @ (W_s @ s + W_h @ h + b)), capsys, "after the dot"
    )
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: np.tanh(W_s @ s + W_h @ h + b), capsys, "v?")
    _assert_rejected(
        check_additive_score, lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s.T @ s + W_h @ h + b), capsys, "W_s @ s"
    )
    _assert_rejected(check_additive_score, lambda s, h, W_s, W_h, v, b: 0.0, capsys, "expected")


def test_unanswered_is_reported_not_raised(capsys):
    def my_score(s, h, W_s, W_h, v, b):
        raise NotImplementedError

    _assert_rejected(check_additive_score, my_score, capsys, "NotImplementedError")


def right_ablation(H, W_h, v):
    e = H @ W_h.T @ v
    z = np.exp(e - e.max())
    return z / z.sum()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the naive wrong answer overflows on purpose
def test_ablation_right_and_wrong(capsys):
    assert check_linear_ablation(right_ablation) is True
    capsys.readouterr()
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: H @ W_h.T @ v, capsys, "softmax")
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v), capsys)
    _assert_rejected(
        check_linear_ablation, lambda H, W_h, v: np.exp(H @ W_h.T @ v) / np.exp(H @ W_h.T @ v).sum(), capsys, "subtract"
    )
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: np.ones(3) / 3, capsys, "shape")
    _assert_rejected(check_linear_ablation, lambda H, W_h, v: right_ablation(H, W_h, -v), capsys, "expected")


def test_causal_mask_right_and_wrong(capsys):
    assert check_causal_mask(lambda T: np.tril(np.ones((T, T), dtype=bool))) is True
    capsys.readouterr()
    _assert_rejected(check_causal_mask, lambda T: np.tril(np.ones((T, T))), capsys, "dtype")
    _assert_rejected(check_causal_mask, lambda T: np.triu(np.ones((T, T), dtype=bool)), capsys, "transposed")
    _assert_rejected(check_causal_mask, lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1), capsys, "diagonal")
    _assert_rejected(check_causal_mask, lambda T: ~np.tril(np.ones((T, T), dtype=bool)), capsys, "swapped")
    _assert_rejected(check_causal_mask, lambda T: np.ones((T, T + 1), dtype=bool), capsys, "shape")
