"""Self-checks for the exercises of lesson 07 (*Learning where to look without labels*).

Each check runs the reader's answer against the core and returns the book's shared
:class:`~attention_core.checks.base.CheckResult` (see :mod:`.base`: the first wrong answer a hint, the second its
detail, the third the answer). A wrong answer never raises; an exception inside the reader's function is reported
as a failed check. Every message, the names of the cases included, comes from the module's
:class:`~attention_core.lang.Messages`.

The decision rule of exercise 07.2, :func:`check_steepest_push` (the website decides in the page with the same rule,
``book/_assets/ae-checks.js``, from the numbers of :func:`steepest_push_given`): a whole position 1, 2
or 3 and a finite amount. The wrong position (``push_other_position``) is said first; then an amount within
:data:`PUSH_PRECISION` of the exact ``-dL/de_j`` (4 decimals: half a unit of the fourth decimal plus one part in ten
thousand, so 0.4151 and 0.4152, the amount computed from the lesson's printed weights, pass, and 0.4150 does not)
is right; its negation is a sign slip (``push_sign``); within ten times the precision it is close
(``push_close``); else it is off (``push_amount``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, STATE_A, worked_example
from ..gradients import score_gradient
from ..lang import Messages
from ..reading import attend
from .base import (
    CLOSE,
    Finding,
    Precision,
    Problem,
    Say,
    failure,
    malformed,
    number,
    quote,
    right,
    run_reader,
    self_check,
    whole_number,
    wrong,
)

TEXT = Messages(
    __name__,
    {
        # check_score_gradient: where the answer failed, then what is wrong there
        "worked_example": "the worked example",
        "random_case": "random case {k} (T = {T}, d_h = {d_h})",
        "tied_case": "a read whose two largest weights are equal (T = {T}, d_h = {d_h})",
        "failed": "On {where}: {failure}",
        "shape": "On {where}: expected one number per source position, shape {want}, got shape {got}.",
        "sign": "On {where}: your gradients point the wrong way.",
        "sign_detail": "The sign is flipped; dL/de_j = + alpha_j g^T (h_j - c).",
        "no_alpha": "On {where}: a position with little weight gets as large a gradient as the others.",
        "no_alpha_detail": "The factor alpha_j is missing.",
        "no_c": "On {where}: your gradients do not sum to zero: each h_j is measured on its own.",
        "no_c_detail": "c is not subtracted; use g^T (h_j - c), not g^T h_j.",
        "not_zero_sum": (
            "On {where}: your gradients sum to {total:.6f}, but they must sum to 0: "
            "raising every score by the same amount does not change the weights."
        ),
        "position_off": "On {where}: at position {j} your gradient is not alpha_j g^T (h_j - c).",
        "position_off_detail": "You give {got:.6f}, expected {want:.6f}.",
        "gradient_ok": "dL/de_j = alpha_j g^T (h_j - c) on the worked example and on three random reads",
        # check_steepest_push
        "push_position_kind": "position must be 1, 2 or 3 (I, like, cats); got {position}.",
        "the_amount": "amount",
        "push_other_position": (
            "Not position {position}. A descent step moves e_j by -dL/de_j; look for the "
            "most negative dL/de_j, i.e. the annotation that moves c against g."
        ),
        "push_sign": "Right position; check the sign of your amount: a descent step moves e_j by -dL/de_j.",
        "push_sign_detail": "The push is -dL/de_j, which is positive here.",
        "push_close": "Right position; {amount} is close, but not the amount to 4 decimals.",
        "push_close_detail": "Round only at the end, from the weights the lesson prints or from exact ones.",
        "push_amount": (
            "Right position; the amount {amount:.4f} is off. Compute alpha_j g^T (h_j - c) "
            "at state A and flip its sign."
        ),
        "push_ok": "one descent step raises the score of position {position} most, by {amount:.4f}",
        "push_answer": "position {position}, amount {amount:.4f}",
    },
)


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


def _cases():
    """(name, weights, H, g): the worked example at state A (its largest weight first), two random reads, and a
    read whose two largest weights are tied in the middle."""
    rng = np.random.default_rng(7)
    cases = [(TEXT("worked_example"), worked_example(STATE_A).weights, H_EXAMPLE, np.array([0.0, 1.0]))]
    for k, (T, d) in enumerate(((4, 3), (6, 5)), 1):
        H = rng.standard_normal((T, d))
        w, _ = attend(rng.standard_normal(T), H)
        cases.append((TEXT("random_case", k=k, T=T, d_h=d), w, H, rng.standard_normal(d)))
    H = rng.standard_normal((5, 3))
    w, _ = attend(np.array([0.0, 1.5, 1.5, -1.0, 0.5]), H)
    cases.append((TEXT("tied_case", T=5, d_h=3), w, H, rng.standard_normal(3)))
    return cases


@self_check
def check_score_gradient(fn: Callable) -> Finding:
    """Check ``fn(weights, H, g) -> dL/de`` against ``alpha_j g^T (h_j - c)`` (lesson 07).

    ``weights`` ``(T,)``, ``H`` ``(T, d_h)``, ``g = dL/dc`` ``(d_h,)``; ``fn`` must return ``(T,)``.
    """
    answer = "c = weights @ H; return weights * ((H - c) @ g)"
    for where, w, H, g in _cases():
        want = score_gradient(w, H, g)  # (T,)
        got, err = run_reader(fn, w.copy(), H.copy(), g.copy(), numeric=True)
        if err:
            return failure(_say("failed", where=where, failure=err), answer)
        if got.shape != want.shape:
            return wrong(Problem(_say("shape", where=where, want=want.shape, got=got.shape)), answer=answer)
        if np.allclose(got, want, **CLOSE):
            continue
        c = w @ H  # (d_h,)
        for slip, key in ((-want, "sign"), ((H - c) @ g, "no_alpha"), (w * (H @ g), "no_c")):
            if np.allclose(got, slip, **CLOSE):
                return wrong(Problem(_say(key, where=where), _say(f"{key}_detail")), answer=answer)
        if not np.isclose(got.sum(), 0.0, **CLOSE):
            return wrong(Problem(_say("not_zero_sum", where=where, total=float(got.sum()))), answer=answer)
        j = int(np.argmax(np.abs(got - want)))
        detail = _say("position_off_detail", got=float(got[j]), want=float(want[j]))
        return wrong(Problem(_say("position_off", where=where, j=j + 1), detail), answer=answer)
    return right(_say("gradient_ok"), answer)


def steepest_push_answer(g=(1.0, 1.0)) -> tuple[int, float]:
    """For the worked example at state A and ``g = dL/dc``: the position (1-based) whose score one descent step
    raises most, and the amount ``-dL/de_j`` for it."""
    d = score_gradient(worked_example(STATE_A).weights, H_EXAMPLE, np.asarray(g, dtype=float))  # (3,)
    j = int(np.argmin(d))
    return j + 1, float(-d[j])


# Exercise 07.2's amount, to 4 decimals: the exact 0.41512 rounded (0.4151), or computed from the weights the
# lesson prints to 4 decimals (0.41518, so 0.4152), both pass; 0.4150 is 1.2e-4 away and does not.
PUSH_PRECISION = Precision(4)


def steepest_push_given() -> tuple[dict | None, Say | None]:
    """What :func:`check_steepest_push` decides with: the position whose score one descent step raises most, the
    amount (:func:`steepest_push_answer`) and the precision. The exercise takes no argument of the lesson's."""
    position, amount = steepest_push_answer()
    return {"position": position, "amount": amount, "precision": PUSH_PRECISION}, None


@self_check(given=steepest_push_given)
def check_steepest_push(position: int, amount: float) -> Finding:
    """Check the answer to exercise 2: ``position`` (1, 2 or 3) and ``amount = -dL/de_j`` to 4 decimals
    (:data:`PUSH_PRECISION`)."""
    g, _ = steepest_push_given()
    want_j, want_amount, precision = g["position"], g["amount"], g["precision"]
    answer = _say("push_answer", position=want_j, amount=want_amount)
    j, problem = whole_number(position, "position")
    if problem or j not in (1, 2, 3):
        return malformed(_say("push_position_kind", position=quote(position)), answer)
    amount, problem = number(amount, TEXT("the_amount"))
    if problem:
        return malformed(problem, answer)
    if j != want_j:
        return wrong(Problem(_say("push_other_position", position=j)), answer=answer)
    if precision.accepts(amount, want_amount):
        return right(_say("push_ok", position=want_j, amount=want_amount), answer)
    if precision.accepts(-amount, want_amount):
        return wrong(Problem(_say("push_sign"), _say("push_sign_detail")), answer=answer)
    if abs(amount - want_amount) <= 10 * precision.tolerance(want_amount):
        return wrong(Problem(_say("push_close", amount=amount), _say("push_close_detail")), answer=answer)
    return wrong(Problem(_say("push_amount", amount=amount)), answer=answer)
