"""Self-checks for the exercises of lesson 06: the reader passes an answer and gets a specific verdict.

Each check returns a :class:`CheckResult` whose text says what is right or exactly what is wrong; it never
raises, whatever the answer (an answer of the wrong kind is quoted and named, see :mod:`.base`). The verdicts
come from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO files).
"""

from __future__ import annotations

import numpy as np

from ..example import S_RANGE, TOKENS, worked_example
from ..lang import Messages
from .base import CheckResult, number, numbers, whole_number

TEXT = Messages(
    __name__,
    {
        "the_state": "the state s",
        "the_scores": "your scores",
        "the_weights": "your weights",
        "your_s": "your state",
        "position_kind": "position must be 1, 2 or 3 (I, like, cats); got {given}",
        "sign_hint": " (check the sign: it is {sign})",
        "score_wrong": "score of position {j} ({token}) is {score:.4f}; e_j(s) = {sign} gives another value{hint}",
        "weights_sum": "your weights sum to {total:.4f}; softmax weights sum to 1",
        "divided_by_sum": "you divided the scores by their sum; softmax divides exp(e_j) by the sum of exp(e_k)",
        "weight_wrong": "scores are right, but the weight of position {j} ({token}) is off",
        "read_ok": "scores and weights at s = {s:g} match the core to within {tol:g}",
        "peak_ok": "position {position} peaks near s = {s_best:.2f}, as you found",
        "peak_mirror": "that is the mirror image: you found the peak of the position on the other end",
        "left": "left",
        "right": "right",
        "peak_wrong": "at s = {s:g} the weight is not at its maximum; look further to the {side}",
    },
)


def check_example_read(s: float, scores, weights, tol: float = 5e-4) -> CheckResult:
    """Check hand-computed scores and weights of the worked example at state ``s`` (each within ``tol``: to 3
    decimals)."""
    s, problem = number(s, TEXT("the_state"))
    if problem is None:
        e, problem = numbers(scores, TEXT("the_scores"), (3,))
    if problem is None:
        w, problem = numbers(weights, TEXT("the_weights"), (3,))
    if problem:
        return CheckResult(False, problem)
    read = worked_example(s)
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
    n, problem = whole_number(position, "position")
    if problem or n not in (1, 2, 3):
        return CheckResult(False, TEXT("position_kind", given=repr(position)))
    position = n
    s_answer, problem = number(answer, TEXT("your_s"))
    if problem:
        return CheckResult(False, problem)
    grid = np.linspace(*S_RANGE, 8001)
    weights = worked_example(grid).weights[:, position - 1]  # (8001,): one call over the grid
    s_best = grid[np.argmax(weights)]
    if abs(s_answer - s_best) <= tol:
        return CheckResult(True, TEXT("peak_ok", position=position, s_best=s_best))
    if abs(s_answer + s_best) <= tol:
        return CheckResult(False, TEXT("peak_mirror"))
    side = TEXT("left") if s_answer > s_best else TEXT("right")
    return CheckResult(False, TEXT("peak_wrong", s=s_answer, side=side))
