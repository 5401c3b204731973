"""What every exercise self-check shares: its result type and the one way it runs a reader's function.

A self-check never raises for a wrong answer. It returns a :class:`CheckResult` whose message says what is
right or exactly what is wrong; a reader's function that raises, is not written yet (``NotImplementedError``)
or returns something that is not numbers is reported the same way, by :func:`run_reader`.

Every message a check shows a reader comes from a :class:`~attention_core.lang.Messages`, so it is Chinese after
``set_language("zh")``; the exception text of the reader's own code is quoted as Python wrote it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..lang import Messages

TEXT = Messages(
    __name__,
    {
        "correct": "Correct:",
        "not_yet": "Not yet:",
        "problems": "{n} problems:",
        "not_a_function": "expected a function, got {kind}",
        # ``case`` is a phrase the caller translated ("worked example" / "算例"); the message follows it directly
        "where": "on the {case} ",
        "the_function": "the function",
        "not_implemented": "Your function {name} still raises NotImplementedError: replace its body with an answer.",
        "raised": "{where}your function raised {error}: {detail}",
        "not_numbers": "{where}it returned {kind}, which is not an array of numbers",
    },
)


@dataclass(frozen=True)
class CheckResult:
    """The verdict of a self-check: ``ok`` and a message meant for the reader."""

    ok: bool
    message: str

    def __repr__(self) -> str:
        return ("✓ " if self.ok else "✗ ") + self.message

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        verdict = TEXT("correct") if self.ok else TEXT("not_yet")
        return f'<p style="color:{colour}"><strong>{verdict}</strong> {html.escape(self.message)}</p>'


def verdict(problems: list[str], passed: str) -> CheckResult:
    """One verdict from a list of problems: ``passed`` if there are none, else every problem on its own line."""
    if not problems:
        return CheckResult(True, passed)
    if len(problems) == 1:
        return CheckResult(False, problems[0])
    return CheckResult(False, TEXT("problems", n=len(problems)) + "\n" + "\n".join(f"- {p}" for p in problems))


def run_reader(fn: Callable, *args, case: str | None = None, numeric: bool = False):
    """Call the reader's ``fn(*args)``; return ``(result, None)``, or ``(None, message)`` saying what went wrong.

    ``case`` names the input in the message ("on the worked example"), already in the reader's language; with
    ``numeric`` the result is returned as a float array, and anything that is not numbers is reported.
    """
    if not callable(fn):
        return None, TEXT("not_a_function", kind=type(fn).__name__)
    where = TEXT("where", case=case) if case else ""
    try:
        with np.errstate(all="ignore"):  # a naive exp overflows; the check reports it, numpy need not warn
            out = fn(*args)
    except NotImplementedError:
        name = getattr(fn, "__name__", None)
        if name is None:
            name = TEXT("the_function")
        return None, TEXT("not_implemented", name=name)
    except Exception as exc:  # the reader's code may fail in any way: report it instead of crashing the lesson
        return None, TEXT("raised", where=where, error=type(exc).__name__, detail=exc)
    if not numeric:
        return out, None
    try:
        return np.asarray(out, dtype=float), None
    except (TypeError, ValueError):
        return None, TEXT("not_numbers", where=where, kind=type(out).__name__)
