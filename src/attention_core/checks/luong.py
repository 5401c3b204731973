"""Self-checks for the Luong exercises of lesson 08: run the reader's answer and say what is wrong.

Each check returns a :class:`~attention_core.checks.state.CheckResult`. A function that still raises
``NotImplementedError`` is reported as "not answered yet", so the exercise cell can run before it is solved.
Every message comes from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO files).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..lang import Messages
from ..luong import gaussian_factor, window_mask
from .base import CLOSE, CheckResult, positions, run_reader
from .scoring import _report

TEXT = Messages(
    __name__,
    {
        # check_gaussian: a message starts with its case ("On the case p = 4.0, ..."; Chinese: "p = 4.0, ... 的例子：")
        "case": "case p = {p}, T = {T}, D = {D}",
        "shape": "on the {case}: you returned shape {shape}; expected ({T},), one per j = 1..{T}.",
        "above_one": "on the {case}: some factors exceed 1: the exponent must be negative, -(j - p)^2.",
        "from_zero": "on the {case}: your positions start at 0; the lesson numbers them j = 1..T.",
        "sigma_D": "sigma is D / 2, not D: your bump is twice as wide",
        "sigma_narrow": "too narrow",
        "hint": "on the {case}: {hint}.",
        "no_two": "on the {case}: the denominator is missing its factor 2: 2 sigma^2.",
        "gaussian_wrong": "on the {case}: you returned {got}, expected {want}.",
        "gaussian_ok": "Your factor is exp(-(j - p)^2 / (2 sigma^2)) with sigma = D / 2, as in local-p.",
        # check_local_m_window
        "window_ok": "Local-m at t = {t} with D = {D} reads positions {positions}, each without a Gaussian.",
        "window_from_zero": "you counted positions from 0; the lesson numbers them 1..T.",
        "window_ends": "the window is |j - t| <= D: from t - D to t + D, both ends included, within 1..{T}.",
        "window_outside": "position(s) {positions} do not exist: the window is clipped to the source, 1..{T}.",
        "window_missing": "missing {positions}",
        "window_extra": "not in the window: {positions}",
        "window_separator": "; ",
        "window_wrong": "{parts}. The window is |j - {t}| <= {D}.",
        "your_window": "your window",
    },
)

_CASES = ((4.0, 9, 2), (3.2155, 7, 2), (1.0, 5, 1), (6.5, 12, 4))  # (p_t, T, D)


def check_gaussian(fn: Callable) -> CheckResult:
    r"""Check ``fn(p, T, D)`` returns local-p's factor ``exp(-(j - p)^2 / (2 sigma^2))``, ``sigma = D / 2``.

    ``j`` runs over the source positions ``1..T``; the answer is an array of shape ``(T,)``.
    """
    for p, T, D in _CASES:
        case = TEXT("case", p=p, T=T, D=D)
        result, failure = run_reader(fn, p, T, D, case=case, numeric=True)
        if failure:
            return _report(False, failure)
        g = result
        expected = gaussian_factor(p, T, D)
        if g.shape != (T,):
            return _report(False, TEXT("shape", case=case, shape=g.shape, T=T))
        if np.allclose(g, expected, **CLOSE):
            continue
        j = np.arange(1, T + 1)
        if np.any(g > 1 + CLOSE["rtol"]):
            return _report(False, TEXT("above_one", case=case))
        if np.allclose(g, np.exp(-((j - 1 - p) ** 2) / (2 * (D / 2) ** 2)), **CLOSE):
            return _report(False, TEXT("from_zero", case=case))
        for wrong_sigma, hint in ((D, "sigma_D"), (D / 4, "sigma_narrow")):
            if np.allclose(g, np.exp(-((j - p) ** 2) / (2 * wrong_sigma**2)), **CLOSE):
                return _report(False, TEXT("hint", case=case, hint=TEXT(hint)))
        if np.allclose(g, np.exp(-((j - p) ** 2) / (D / 2) ** 2), **CLOSE):
            return _report(False, TEXT("no_two", case=case))
        return _report(False, TEXT("gaussian_wrong", case=case, got=np.round(g, 4), want=np.round(expected, 4)))
    return _report(True, TEXT("gaussian_ok"))


def check_local_m_window(answer, t: int = 3, T: int = 7, D: int = 2) -> CheckResult:
    """Check a list of the positions (numbered from 1) that local-m reads at step ``t`` with half-width ``D``."""
    got, problem = positions(answer, TEXT("your_window"))
    if problem:
        return _report(False, problem)
    expected = [int(j) for j in np.flatnonzero(window_mask(t, T, D)) + 1]
    if got == expected:
        return _report(True, TEXT("window_ok", t=t, D=D, positions=expected))
    if got == [j - 1 for j in expected]:
        return _report(False, TEXT("window_from_zero"))
    if len(got) == len(expected) + 2 or len(got) == D + 1:
        return _report(False, TEXT("window_ends", T=T))
    outside = sorted(j for j in got if not 1 <= j <= T)
    if outside:
        return _report(False, TEXT("window_outside", positions=outside, T=T))
    missing, extra = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
    parts = ([TEXT("window_missing", positions=missing)] if missing else []) + (
        [TEXT("window_extra", positions=extra)] if extra else []
    )
    return _report(False, TEXT("window_wrong", parts=TEXT("window_separator").join(parts), t=t, D=D))
