"""Self-checks for the exercises of lesson 06: the reader passes an answer and gets a specific verdict.

Each check returns a :class:`CheckResult` whose text says what is right or exactly what is wrong; it never
raises for a wrong answer, only for an answer of the wrong kind (with a message saying what was expected).
"""

from __future__ import annotations

import numpy as np

from ..example import S_RANGE, TOKENS, worked_example
from .base import CheckResult


def _three_numbers(answer, name: str) -> np.ndarray:
    arr = np.asarray(answer, dtype=float) if not isinstance(answer, str) else None
    if arr is None or arr.shape != (3,):
        raise TypeError(f"{name} must be three numbers, one per position (I, like, cats); got {answer!r}")
    return arr


def check_example_read(s: float, scores, weights, tol: float = 5e-4) -> CheckResult:
    """Check hand-computed scores and weights of the worked example at state ``s`` (to about 3 decimals)."""
    e, w = _three_numbers(scores, "scores"), _three_numbers(weights, "weights")
    read = worked_example(float(s))
    if not np.isfinite(e).all() or not np.isfinite(w).all():
        return CheckResult(False, "your answer contains NaN or infinity; every score and weight is a finite number")
    for j, token in enumerate(TOKENS):
        if abs(e[j] - read.scores[j]) > tol:
            sign = "tanh(s + h_j1) - tanh(s + h_j2)"
            hint = " (check the sign: it is " + sign + ")" if abs(e[j] + read.scores[j]) <= tol else ""
            return CheckResult(
                False, f"score of position {j + 1} ({token}) is {e[j]:.4f}; e_j(s) = {sign} gives another value{hint}"
            )
    if abs(w.sum() - 1) > 3 * tol:
        return CheckResult(False, f"your weights sum to {w.sum():.4f}; softmax weights sum to 1")
    raw = read.scores / read.scores.sum()
    if np.allclose(w, raw, atol=tol) and not np.allclose(w, read.weights, atol=tol):
        return CheckResult(
            False, "you divided the scores by their sum; softmax divides exp(e_j) by the sum of exp(e_k)"
        )
    for j, token in enumerate(TOKENS):
        if abs(w[j] - read.weights[j]) > tol:
            return CheckResult(False, f"scores are right, but the weight of position {j + 1} ({token}) is off")
    return CheckResult(True, f"scores and weights at s = {s:g} match the core to within {tol:g}")


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
        return CheckResult(True, f"position {position} peaks near s = {s_best:.2f}, as you found")
    if abs(s_answer + s_best) <= tol:
        return CheckResult(False, "that is the mirror image: you found the peak of the position on the other end")
    side = "left" if s_answer > s_best else "right"
    return CheckResult(False, f"at s = {s_answer:g} the weight is not at its maximum; look further to the {side}")
