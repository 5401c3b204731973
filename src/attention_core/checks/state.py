"""Self-checks for the exercises of lesson 06: the reader passes an answer and gets a specific verdict.

Each check returns a :class:`CheckResult` whose text says what is right or exactly what is wrong; it never
raises for a wrong answer, only for an answer of the wrong kind (with a message saying what was expected).
The verdicts come from the module's :class:`~attention_core.lang.Catalog` (English and Chinese); the errors for
an answer of the wrong kind stay in English, like every ``TypeError`` of the package.
"""

from __future__ import annotations

import numpy as np

from .._validate import answer_numbers
from ..example import S_RANGE, TOKENS, worked_example
from ..lang import Catalog
from .base import CheckResult

TEXT = Catalog(
    {
        "not_finite": {
            "en": "your answer contains NaN or infinity; every score and weight is a finite number",
            "zh": "你的答案里有 NaN 或无穷大；每个分数和权重都应当是有限的数",
        },
        "sign_hint": {"en": " (check the sign: it is {sign})", "zh": "（检查一下符号：应为 {sign}）"},
        "score_wrong": {
            "en": "score of position {j} ({token}) is {score:.4f}; e_j(s) = {sign} gives another value{hint}",
            "zh": "位置 {j}（{token}）的分数是 {score:.4f}；按 e_j(s) = {sign} 算出的是另一个值{hint}",
        },
        "weights_sum": {
            "en": "your weights sum to {total:.4f}; softmax weights sum to 1",
            "zh": "你的权重之和是 {total:.4f}；softmax 权重之和应为 1",
        },
        "divided_by_sum": {
            "en": "you divided the scores by their sum; softmax divides exp(e_j) by the sum of exp(e_k)",
            "zh": "你是用分数除以它们的和；softmax 是用 exp(e_j) 除以所有 exp(e_k) 的和",
        },
        "weight_wrong": {
            "en": "scores are right, but the weight of position {j} ({token}) is off",
            "zh": "分数都对，但位置 {j}（{token}）的权重不对",
        },
        "read_ok": {
            "en": "scores and weights at s = {s:g} match the core to within {tol:g}",
            "zh": "s = {s:g} 时的分数和权重与核心实现一致，误差在 {tol:g} 以内",
        },
        "peak_ok": {
            "en": "position {position} peaks near s = {s_best:.2f}, as you found",
            "zh": "位置 {position} 的权重在 s = {s_best:.2f} 附近达到最大，和你找到的一样",
        },
        "peak_mirror": {
            "en": "that is the mirror image: you found the peak of the position on the other end",
            "zh": "这是镜像：你找到的是另一端那个位置的峰值",
        },
        "left": {"en": "left", "zh": "左"},
        "right": {"en": "right", "zh": "右"},
        "peak_wrong": {
            "en": "at s = {s:g} the weight is not at its maximum; look further to the {side}",
            "zh": "在 s = {s:g} 处权重还没有达到最大；再往{side}边找找",
        },
    }
)


def check_example_read(s: float, scores, weights, tol: float = 5e-4) -> CheckResult:
    """Check hand-computed scores and weights of the worked example at state ``s`` (to about 3 decimals)."""
    e, w = (
        answer_numbers(x, name, 3, "three numbers, one per position (I, like, cats)")
        for x, name in ((scores, "scores"), (weights, "weights"))
    )
    read = worked_example(float(s))
    if not np.isfinite(e).all() or not np.isfinite(w).all():
        return CheckResult(False, TEXT("not_finite"))
    for j, token in enumerate(TOKENS):
        if abs(e[j] - read.scores[j]) > tol:
            sign = "tanh(s + h_j1) - tanh(s + h_j2)"
            hint = TEXT("sign_hint", sign=sign) if abs(e[j] + read.scores[j]) <= tol else ""
            return CheckResult(False, TEXT("score_wrong", j=j + 1, token=token, score=e[j], sign=sign, hint=hint))
    if abs(w.sum() - 1) > 3 * tol:
        return CheckResult(False, TEXT("weights_sum", total=w.sum()))
    raw = read.scores / read.scores.sum()
    if np.allclose(w, raw, atol=tol) and not np.allclose(w, read.weights, atol=tol):
        return CheckResult(False, TEXT("divided_by_sum"))
    for j, token in enumerate(TOKENS):
        if abs(w[j] - read.weights[j]) > tol:
            return CheckResult(False, TEXT("weight_wrong", j=j + 1, token=token))
    return CheckResult(True, TEXT("read_ok", s=s, tol=tol))


def check_peak_state(answer: float, position: int = 1, tol: float = 0.02) -> CheckResult:
    """Check the state ``s`` in the lesson's range at which ``position`` (1, 2 or 3) gets its largest weight."""
    if position not in (1, 2, 3):
        raise ValueError(f"position must be 1, 2 or 3, got {position!r}")
    try:
        s_answer = float(answer)
    except (TypeError, ValueError):
        raise TypeError(f"answer must be a number (a state s), got {answer!r}") from None
    grid = np.linspace(*S_RANGE, 8001)
    weights = worked_example(grid).weights[:, position - 1]  # (8001,): one call over the grid
    s_best = grid[np.argmax(weights)]
    if abs(s_answer - s_best) <= tol:
        return CheckResult(True, TEXT("peak_ok", position=position, s_best=s_best))
    if abs(s_answer + s_best) <= tol:
        return CheckResult(False, TEXT("peak_mirror"))
    side = TEXT("left") if s_answer > s_best else TEXT("right")
    return CheckResult(False, TEXT("peak_wrong", s=s_answer, side=side))
