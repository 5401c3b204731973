"""Self-checks for the exercises of lesson 06: the reader passes an answer and gets a specific verdict.

Each check returns a :class:`CheckResult` whose text says what is right or exactly what is wrong; it never
raises for a wrong answer, only for an answer of the wrong kind (with a message saying what was expected).
The verdicts come from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO
files); the errors for an answer of the wrong kind stay in English, like every ``TypeError`` of the package.
"""

from __future__ import annotations

import numpy as np

from .._validate import answer_numbers
from ..example import S_RANGE, TOKENS, worked_example
from ..lang import Messages
from .base import CheckResult

TEXT = Messages(
    __name__,
    {
        "not_finite": "your answer contains NaN or infinity; every score and weight is a finite number",
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
