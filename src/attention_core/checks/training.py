"""Self-checks for the exercises of lesson 07 (*Learning where to look without labels*).

Each check runs the reader's answer against the core and returns the book's shared
:class:`~attention_core.checks.state.CheckResult`: ``ok`` and a message that says what, specifically, is off.
A wrong answer never raises; an exception inside the reader's function is reported as a failed check. Every
message, the names of the cases included, comes from the module's :class:`~attention_core.lang.Messages`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, STATE_A, worked_example
from ..gradients import score_gradient
from ..lang import Messages
from ..reading import attend
from .base import CLOSE, CheckResult, number, run_reader, whole_number

TEXT = Messages(
    __name__,
    {
        # check_score_gradient: where the answer failed, then what is wrong there
        "worked_example": "the worked example",
        "random_case": "random case {k} (T = {T}, d_h = {d_h})",
        "failed": "On {where}: {failure}.",
        "shape": "On {where}: expected one number per source position, shape {want}, got shape {got}.",
        "sign": "On {where}: the sign is flipped; dL/de_j = + alpha_j g^T (h_j - c).",
        "no_alpha": (
            "On {where}: the factor alpha_j is missing; a position with little weight must get a small gradient."
        ),
        "no_c": (
            "On {where}: c is not subtracted; use g^T (h_j - c), not g^T h_j. "
            "Without it the gradients do not sum to zero."
        ),
        "not_zero_sum": (
            "On {where}: your gradients sum to {total:.6f}, but they must sum to 0: "
            "raising every score by the same amount does not change the weights."
        ),
        "position_off": "On {where}: at position {j} you give {got:.6f}, expected {want:.6f}.",
        "gradient_ok": "dL/de_j = alpha_j g^T (h_j - c) on the worked example and on two random reads",
        # check_steepest_push
        "push_position_kind": "position must be 1, 2 or 3 (I, like, cats); got {position}.",
        "the_amount": "amount",
        "push_other_position": (
            "Not position {position}. A descent step moves e_j by -dL/de_j; look for the "
            "most negative dL/de_j, i.e. the annotation that moves c against g."
        ),
        "push_sign": "Right position, wrong sign: the push is -dL/de_j, which is positive here.",
        "push_amount": (
            "Right position; the amount {amount:.4f} is off. Compute alpha_j g^T (h_j - c) "
            "at state A and flip its sign."
        ),
        "push_ok": "one descent step raises the score of position {position} most, by {amount:.4f}",
    },
)


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
        where = TEXT("worked_example") if k == 0 else TEXT("random_case", k=k, T=H.shape[0], d_h=H.shape[1])
        want = score_gradient(w, H, g)  # (T,)
        got, failure = run_reader(fn, w.copy(), H.copy(), g.copy(), numeric=True)
        if failure:
            return CheckResult(False, TEXT("failed", where=where, failure=failure))
        if got.shape != want.shape:
            return CheckResult(False, TEXT("shape", where=where, want=want.shape, got=got.shape))
        if np.allclose(got, want, **CLOSE):
            continue
        c = w @ H  # (d_h,)
        if np.allclose(got, -want, **CLOSE):
            return CheckResult(False, TEXT("sign", where=where))
        if np.allclose(got, (H - c) @ g, **CLOSE):
            return CheckResult(False, TEXT("no_alpha", where=where))
        if np.allclose(got, w * (H @ g), **CLOSE):
            return CheckResult(False, TEXT("no_c", where=where))
        if not np.isclose(got.sum(), 0.0, **CLOSE):
            return CheckResult(False, TEXT("not_zero_sum", where=where, total=got.sum()))
        j = int(np.argmax(np.abs(got - want)))
        return CheckResult(False, TEXT("position_off", where=where, j=j + 1, got=got[j], want=want[j]))
    return CheckResult(True, TEXT("gradient_ok"))


def steepest_push_answer(g=(1.0, 1.0)) -> tuple[int, float]:
    """For the worked example at state A and ``g = dL/dc``: the position (1-based) whose score one descent step
    raises most, and the amount ``-dL/de_j`` for it."""
    d = score_gradient(worked_example(STATE_A).weights, H_EXAMPLE, np.asarray(g, dtype=float))  # (3,)
    j = int(np.argmin(d))
    return j + 1, float(-d[j])


# An amount to 4 decimals is right if it is within this of the exact one: the exact amount rounded, or the amount
# computed from the weights the lesson prints to 4 decimals (0.4152 where the exact amount is 0.41512).
PUSH_TOLERANCE = 1.5e-4


def check_steepest_push(position: int, amount: float) -> CheckResult:
    """Check the answer to exercise 2: ``position`` (1, 2 or 3) and ``amount = -dL/de_j`` to 4 decimals."""
    want_j, want_amount = steepest_push_answer()
    j, problem = whole_number(position, "position")
    if problem or j not in (1, 2, 3):
        return CheckResult(False, TEXT("push_position_kind", position=repr(position)))
    amount, problem = number(amount, TEXT("the_amount"))
    if problem:
        return CheckResult(False, problem)
    if j != want_j:
        return CheckResult(False, TEXT("push_other_position", position=j))
    if abs(-amount - want_amount) <= PUSH_TOLERANCE:
        return CheckResult(False, TEXT("push_sign"))
    if abs(amount - want_amount) > PUSH_TOLERANCE:
        return CheckResult(False, TEXT("push_amount", amount=amount))
    return CheckResult(True, TEXT("push_ok", position=want_j, amount=want_amount))
