"""Self-checks for the Luong exercises of lesson 08: run the reader's answer and say what is wrong.

Each check returns a :class:`~attention_core.checks.base.CheckResult` (see :mod:`.base`: the first wrong answer a
hint, the second its detail, the third the answer). A function that still raises ``NotImplementedError`` is reported
as "not answered yet", so the exercise cell can run before it is solved. Every message comes from the module's
:class:`~attention_core.lang.Messages` (English, translated by its PO files).

The decision rule of exercise 08.5, :func:`check_local_m_window` (the website decides in the page with the same rule,
``book/_assets/ae-checks.js``, from the numbers of :func:`local_m_window_given`): distinct whole positions;
right when they are exactly ``max(1, t - D) .. min(T, t + D)``. Else, in this order: every position one less
(``window_from_zero``); two more or ``D + 1`` positions (``window_ends``); positions outside ``1..T``
(``window_outside``); the missing and the extra positions (``window_wrong``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..lang import Messages
from ..luong import gaussian_factor, window_mask
from .base import (
    CLOSE,
    Finding,
    Problem,
    Say,
    failure,
    fmt,
    malformed,
    positions,
    quote,
    right,
    run_reader,
    self_check,
    wrong,
)

TEXT = Messages(
    __name__,
    {
        # check_gaussian: a message starts with its case ("On the case p = 4.0, ..."; Chinese: "p = 4.0, ... 的例子：")
        "case": "case p = {p}, T = {T}, D = {D}",
        "shape": "on the {case}: you returned shape {shape}; expected ({T},), one per j = 1..{T}.",
        "above_one": "on the {case}: some factors exceed 1.",
        "above_one_detail": "The exponent must be negative, -(j - p)^2.",
        "from_zero": "on the {case}: your bump is one position off.",
        "from_zero_detail": "Your positions start at 0; the lesson numbers them j = 1..T.",
        "sigma_D": "on the {case}: your bump is twice as wide as local-p's.",
        "sigma_D_detail": "Sigma is D / 2, not D.",
        "sigma_narrow": "on the {case}: your bump is too narrow.",
        "sigma_narrow_detail": "Sigma is D / 2.",
        "no_two": "on the {case}: your bump is narrower than local-p's.",
        "no_two_detail": "The denominator is missing its factor 2: 2 sigma^2.",
        "gaussian_wrong": "on the {case}: your factor is not exp(-(j - p)^2 / (2 sigma^2)) with sigma = D / 2.",
        "gaussian_wrong_detail": "You returned {got}, expected {want}.",
        "gaussian_ok": "Your factor is exp(-(j - p)^2 / (2 sigma^2)) with sigma = D / 2, as in local-p.",
        # check_local_m_window
        "window_ok": "Local-m at t = {t} with D = {D} reads positions {positions}, each without a Gaussian.",
        "window_from_zero": "your window is one position off: how does the lesson number the positions?",
        "window_from_zero_detail": "You counted positions from 0; the lesson numbers them 1..T.",
        "window_ends": "look at the window's two ends.",
        "window_ends_detail": "The window is |j - t| <= D: from t - D to t + D, both ends included, within 1..{T}.",
        "window_outside": "some of your positions do not exist in a source of {T} positions.",
        "window_outside_detail": "Position(s) {positions} do not exist: the window is clipped to the source, 1..{T}.",
        "window_missing": "Missing: {positions}",
        "window_extra": "Not in the window: {positions}",
        "window_separator": "; ",
        "window_wrong": "your list is not the positions j with |j - {t}| <= {D} in 1..{T}.",
        "window_wrong_detail": "{parts}.",
        "your_window": "your window",
    },
)

# (p_t, T, D): the peak inside, between two positions (a tie: 6.5 in 1..12), on the first and on the last position
_CASES = ((4.0, 9, 2), (3.2155, 7, 2), (1.0, 5, 1), (6.5, 12, 4), (5.0, 5, 2))


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


@self_check
def check_gaussian(fn: Callable) -> Finding:
    r"""Check ``fn(p, T, D)`` returns local-p's factor ``exp(-(j - p)^2 / (2 sigma^2))``, ``sigma = D / 2``.

    ``j`` runs over the source positions ``1..T``; the answer is an array of shape ``(T,)``.
    """
    answer = "j = np.arange(1, T + 1); return np.exp(-((j - p) ** 2) / (2 * (D / 2) ** 2))"
    for p, T, D in _CASES:
        case = TEXT("case", p=p, T=T, D=D)
        g, err = run_reader(fn, p, T, D, case=case, numeric=True)
        if err:
            return failure(err, answer)
        expected = gaussian_factor(p, T, D)
        if g.shape != (T,):
            return wrong(Problem(_say("shape", case=case, shape=g.shape, T=T)), answer=answer)
        if np.allclose(g, expected, **CLOSE):
            continue
        j = np.arange(1, T + 1)
        if np.any(g > 1 + CLOSE["rtol"]):
            return wrong(Problem(_say("above_one", case=case), _say("above_one_detail")), answer=answer)
        slips = {
            "from_zero": np.exp(-((j - 1 - p) ** 2) / (2 * (D / 2) ** 2)),
            "sigma_D": np.exp(-((j - p) ** 2) / (2 * D**2)),
            "sigma_narrow": np.exp(-((j - p) ** 2) / (2 * (D / 4) ** 2)),
            "no_two": np.exp(-((j - p) ** 2) / (D / 2) ** 2),
        }
        for key, slip in slips.items():
            if np.allclose(g, slip, **CLOSE):
                return wrong(Problem(_say(key, case=case), _say(f"{key}_detail")), answer=answer)
        detail = _say("gaussian_wrong_detail", got=fmt(g), want=fmt(expected, cut=False))
        return wrong(Problem(_say("gaussian_wrong", case=case), detail), answer=answer)
    return right(_say("gaussian_ok"), answer)


def local_m_window_given(t: int = 3, T: int = 7, D: int = 2) -> tuple[dict | None, Say | None]:
    """What :func:`check_local_m_window` decides with: ``t``, ``T``, ``D`` and the positions local-m reads,
    ``max(1, t - D) .. min(T, t + D)`` (:func:`attention_core.luong.window_mask`)."""
    expected = [int(j) for j in np.flatnonzero(window_mask(t, T, D)) + 1]
    return {"t": int(t), "T": int(T), "D": int(D), "expected": expected}, None


@self_check(given=local_m_window_given)
def check_local_m_window(answer, t: int = 3, T: int = 7, D: int = 2) -> Finding:
    """Check a list of the positions (numbered from 1) that local-m reads at step ``t`` with half-width ``D``."""
    g, _ = local_m_window_given(t, T, D)
    t, T, D, expected = g["t"], g["T"], g["D"], g["expected"]
    the_answer = str(expected)
    got, problem = positions(answer, TEXT("your_window"))
    if problem:
        return malformed(problem, the_answer)
    if got == expected:
        return right(_say("window_ok", t=t, D=D, positions=expected), the_answer)
    if got == [j - 1 for j in expected]:
        return wrong(Problem(_say("window_from_zero"), _say("window_from_zero_detail")), answer=the_answer)
    if len(got) == len(expected) + 2 or len(got) == D + 1:
        return wrong(Problem(_say("window_ends"), _say("window_ends_detail", T=T)), answer=the_answer)
    outside = sorted(j for j in got if not 1 <= j <= T)
    if outside:
        detail = _say("window_outside_detail", positions=quote(outside), T=T)
        return wrong(Problem(_say("window_outside", T=T), detail), answer=the_answer)
    missing, extra = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
    parts = ([TEXT("window_missing", positions=quote(missing))] if missing else []) + (
        [TEXT("window_extra", positions=quote(extra))] if extra else []
    )
    detail = _say("window_wrong_detail", parts=TEXT("window_separator").join(parts))
    return wrong(Problem(_say("window_wrong", t=t, D=D, T=T), detail), answer=the_answer)
