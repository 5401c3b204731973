"""Self-checks for the exercises of lesson 07 (*Learning where to look without labels*).

Each check runs the reader's answer against the core and returns the book's shared
:class:`~attention_core.checks.state.CheckResult`: ``ok`` and a message that says what, specifically, is off.
A wrong answer never raises; an exception inside the reader's function is reported as a failed check.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, STATE_A, worked_example
from ..gradients import score_gradient
from ..reading import attend
from .base import CheckResult, run_reader


def _cases():
    """(weights, H, g) triples: the worked example at state A, and two random reads."""
    rng = np.random.default_rng(7)
    cases = [(worked_example(STATE_A).weights, H_EXAMPLE, np.array([0.0, 1.0]))]
    for T, d in ((4, 3), (6, 5)):
        H = rng.standard_normal((T, d))
        w, _ = attend(rng.standard_normal(T), H)
        cases.append((w, H, rng.standard_normal(d)))
    return cases


def check_score_gradient(fn: Callable) -> CheckResult:
    """Check ``fn(weights, H, g) -> dL/de`` against ``alpha_j g^T (h_j - c)`` (lesson 07).

    ``weights`` ``(T,)``, ``H`` ``(T, d_h)``, ``g = dL/dc`` ``(d_h,)``; ``fn`` must return ``(T,)``.
    """
    for k, (w, H, g) in enumerate(_cases()):
        where = "the worked example" if k == 0 else f"random case {k} (T = {H.shape[0]}, d_h = {H.shape[1]})"
        want = score_gradient(w, H, g)  # (T,)
        got, failure = run_reader(fn, w.copy(), H.copy(), g.copy(), numeric=True)
        if failure:
            return CheckResult(False, f"On {where}: {failure}.")
        if got.shape != want.shape:
            return CheckResult(False, f"On {where}: expected one number per source position, shape {want.shape}, "
                                 f"got shape {got.shape}.")  # fmt: skip
        if np.allclose(got, want, atol=1e-8):
            continue
        c = w @ H  # (d_h,)
        if np.allclose(got, -want, atol=1e-8):
            return CheckResult(False, f"On {where}: the sign is flipped; dL/de_j = + alpha_j g^T (h_j - c).")
        if np.allclose(got, (H - c) @ g, atol=1e-8):
            return CheckResult(False, f"On {where}: the factor alpha_j is missing; a position with little weight "
                                 "must get a small gradient.")  # fmt: skip
        if np.allclose(got, w * (H @ g), atol=1e-8):
            return CheckResult(False, f"On {where}: c is not subtracted; use g^T (h_j - c), not g^T h_j. "
                                 "Without it the gradients do not sum to zero.")  # fmt: skip
        if not np.isclose(got.sum(), 0.0, atol=1e-8):
            return CheckResult(False, f"On {where}: your gradients sum to {got.sum():.6f}, but they must sum to 0: "
                                 "raising every score by the same amount does not change the weights.")  # fmt: skip
        j = int(np.argmax(np.abs(got - want)))
        return CheckResult(False, f"On {where}: at position {j + 1} you give {got[j]:.6f}, expected {want[j]:.6f}.")
    return CheckResult(True, "dL/de_j = alpha_j g^T (h_j - c) on the worked example and on two random reads")


def steepest_push_answer(g=(1.0, 1.0)) -> tuple[int, float]:
    """For the worked example at state A and ``g = dL/dc``: the position (1-based) whose score one descent step
    raises most, and the amount ``-dL/de_j`` for it."""
    d = score_gradient(worked_example(STATE_A).weights, H_EXAMPLE, np.asarray(g, dtype=float))  # (3,)
    j = int(np.argmin(d))
    return j + 1, float(-d[j])


def check_steepest_push(position: int, amount: float) -> CheckResult:
    """Check the answer to exercise 2: ``position`` (1, 2 or 3) and ``amount = -dL/de_j`` to 4 decimals."""
    want_j, want_amount = steepest_push_answer()
    if position not in (1, 2, 3):
        return CheckResult(False, f"position must be 1, 2 or 3 (I, like, cats); got {position!r}.")
    if position != want_j:
        return CheckResult(False, f"Not position {position}. A descent step moves e_j by -dL/de_j; look for the "
                             "most negative dL/de_j, i.e. the annotation that moves c against g.")  # fmt: skip
    if abs(amount) == abs(round(want_amount, 4)) and np.sign(amount) != np.sign(want_amount):
        return CheckResult(False, "Right position, wrong sign: the push is -dL/de_j, which is positive here.")
    if abs(amount - want_amount) > 5e-5:
        return CheckResult(False, f"Right position; the amount {amount:.4f} is off. Compute alpha_j g^T (h_j - c) "
                             "at state A and flip its sign.")  # fmt: skip
    return CheckResult(True, f"one descent step raises the score of position {want_j} most, by {want_amount:.4f}")
