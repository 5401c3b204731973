"""Self-checks for the exercises of lesson 06: the reader passes an answer and gets a specific verdict.

Each check is a pure decision on the answer (its ``.decide``, see :mod:`.base`), made into a verdict whose hints
grow with the attempts; it never raises, whatever the answer (an answer of the wrong kind is quoted and named). The
verdicts come from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO files).

The decision rules (the website decides in the page with the same rules, ``book/_assets/ae-checks.js``, from the
numbers each check's ``given`` function returns):

- 06.1 :func:`check_example_read`: a state, three scores and three weights, all finite; each score, then each
  weight, must be within :data:`EXAMPLE_PRECISION` of the worked example's (3 decimals: half a unit of the third
  decimal plus one part in ten thousand, so 0.525, rounded from the printed 0.5245, passes, and 0.52 does not).
  Else the first score that is off (``score_wrong``, with ``sign_hint`` when its negation is within the precision),
  weights that do not sum to 1 (``weights_sum``, to three times the precision), weights that are the scores over
  their sum (``divided_by_sum``), or the first weight that is off (``weight_wrong``).
- 06.2 :func:`check_peak_state`: a finite number within :data:`PEAK_PRECISION` of the state where the position's
  weight peaks (2 decimals: -1.46 and -1.455 pass for position 1, whose peak is at -1.4554; -1.45 and -1.47 do
  not); else its mirror image (``peak_mirror``), a value near the peak (``peak_close``: within ten times the
  precision), or the side to look on (``peak_wrong``).
"""

from __future__ import annotations

import functools

import numpy as np

from ..example import S_RANGE, TOKENS, worked_example
from ..lang import Messages
from .base import Finding, Precision, Problem, Say, fmt, malformed, number, numbers, quote, right, self_check, wrong
from .base import whole_number as _whole_number

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
        "divided_by_sum": "your weights are not softmax weights: they are the scores divided by their sum",
        "divided_by_sum_detail": "Softmax divides exp(e_j) by the sum of exp(e_k).",
        "weight_wrong": "scores are right, but the weight of position {j} ({token}) is off",
        "weight_wrong_detail": "alpha_j = exp(e_j) / (exp(e_1) + exp(e_2) + exp(e_3)), to 3 decimals.",
        "read_ok": "scores and weights at s = {s:g} match the core to 3 decimals",
        "read_answer": "scores {scores}, weights {weights}",
        "peak_ok": "position {position} peaks near s = {s_best:.2f}, as you found",
        "peak_mirror": "that is the mirror image: you found the peak of the position on the other end",
        "left": "left",
        "right": "right",
        "peak_wrong": "at s = {s:g} the weight is not at its maximum; look further to the {side}",
        "peak_close": "s = {s:g} is near the peak, but not at it to two decimals: look more closely around it",
        "peak_close_detail": "The peak lies further to the {side}.",
        "peak_answer": "s = {rounded:.2f} (the peak is at s = {s_best:.4f})",
    },
)

EXAMPLE_PRECISION = Precision(3)  # exercise 06.1: each score and weight to 3 decimals
PEAK_PRECISION = Precision(2)  # exercise 06.2: the state to 2 decimals


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


def example_read_given(s: float) -> tuple[dict | None, Say | None]:
    """What :func:`check_example_read` decides with: the state ``s``, the worked example's scores and weights there
    ``(3,)`` each, the tokens and the precision; or ``(None, problem)`` when ``s`` is not a finite number."""
    s, problem = number(s, TEXT("the_state"))
    if problem:
        return None, problem
    read = worked_example(s)
    return {
        "s": s,
        "scores": read.scores,  # (3,)
        "weights": read.weights,  # (3,)
        "tokens": TOKENS,
        "precision": EXAMPLE_PRECISION,
    }, None


@self_check(given=example_read_given)
def check_example_read(s: float, scores, weights) -> Finding:
    """Check hand-computed scores and weights of the worked example at state ``s``, each to 3 decimals
    (:data:`EXAMPLE_PRECISION`)."""
    g, problem = example_read_given(s)
    if problem:
        return malformed(problem)
    want_e, want_w = g["scores"], g["weights"]
    answer = _say("read_answer", scores=fmt(np.round(want_e, 3)), weights=fmt(np.round(want_w, 3)))
    e, problem = numbers(scores, TEXT("the_scores"), (3,))
    if problem is None:
        w, problem = numbers(weights, TEXT("the_weights"), (3,))
    if problem:
        return malformed(problem, answer)
    precision = g["precision"]
    close = precision.accepts
    for j, token in enumerate(g["tokens"]):
        if not close(e[j], want_e[j]):
            sign = "tanh(s + h_j1) - tanh(s + h_j2)"
            hint = TEXT("sign_hint", sign=sign) if close(-e[j], want_e[j]) else ""
            said = _say("score_wrong", j=j + 1, token=token, score=float(e[j]), sign=sign, hint=hint)
            return wrong(Problem(said), answer=answer)
    if abs(w.sum() - 1) > 3 * precision.tolerance(1.0):
        return wrong(Problem(_say("weights_sum", total=float(w.sum()))), answer=answer)
    raw = want_e / want_e.sum()
    if close(w, raw) and not close(w, want_w):
        return wrong(Problem(_say("divided_by_sum"), _say("divided_by_sum_detail")), answer=answer)
    for j, token in enumerate(g["tokens"]):
        if not close(w[j], want_w[j]):
            return wrong(
                Problem(_say("weight_wrong", j=j + 1, token=token), _say("weight_wrong_detail")), answer=answer
            )
    return right(_say("read_ok", s=g["s"]), answer)


@functools.cache
def peak_state(position: int) -> float:
    """The state ``s`` in the lesson's range at which ``position`` (1, 2 or 3) gets its largest weight, to about
    1e-6: the best of 8,001 states, then of 2,001 states around it."""
    grid = np.linspace(*S_RANGE, 8001)  # (8001,): steps of 0.001
    best = grid[np.argmax(worked_example(grid).weights[:, position - 1])]
    fine = np.linspace(best - 0.001, best + 0.001, 2001)  # (2001,): steps of 1e-6
    return float(fine[np.argmax(worked_example(fine).weights[:, position - 1])])


def peak_given(position: int = 1) -> tuple[dict | None, Say | None]:
    """What :func:`check_peak_state` decides with: the position (1, 2 or 3), the state ``s_best`` where its weight
    peaks (:func:`peak_state`) and the precision; or ``(None, problem)`` for another position."""
    n, problem = _whole_number(position, "position")
    if problem or n not in (1, 2, 3):
        return None, _say("position_kind", given=quote(position))
    return {"position": n, "s_best": peak_state(n), "precision": PEAK_PRECISION}, None


@self_check(given=peak_given)
def check_peak_state(answer: float, position: int = 1) -> Finding:
    """Check the state ``s`` in the lesson's range at which ``position`` (1, 2 or 3) gets its largest weight, to two
    decimals (:data:`PEAK_PRECISION`)."""
    g, problem = peak_given(position)
    if problem:
        return malformed(problem)
    n, s_best, precision = g["position"], g["s_best"], g["precision"]
    the_answer = _say("peak_answer", rounded=round(s_best, 2), s_best=s_best)
    s_answer, problem = number(answer, TEXT("your_s"))
    if problem:
        return malformed(problem, the_answer)
    if precision.accepts(s_answer, s_best):
        return right(_say("peak_ok", position=n, s_best=s_best), the_answer)
    if precision.accepts(-s_answer, s_best) and abs(s_best) > precision.tolerance(s_best):
        return wrong(Problem(_say("peak_mirror")), answer=the_answer)
    side = TEXT("left") if s_answer > s_best else TEXT("right")
    if abs(s_answer - s_best) <= 10 * precision.tolerance(s_best):
        return wrong(Problem(_say("peak_close", s=s_answer), _say("peak_close_detail", side=side)), answer=the_answer)
    return wrong(Problem(_say("peak_wrong", s=s_answer, side=side)), answer=the_answer)
