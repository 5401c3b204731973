"""What every exercise self-check shares: its result type and the one way it runs a reader's function.

A self-check never raises for a wrong answer. It returns a :class:`CheckResult` whose message says what is
right or exactly what is wrong; a reader's function that raises, is not written yet (``NotImplementedError``)
or returns something that is not numbers is reported the same way, by :func:`run_reader`.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CheckResult:
    """The verdict of a self-check: ``ok`` and a message meant for the reader."""

    ok: bool
    message: str

    def __repr__(self) -> str:
        return ("✓ " if self.ok else "✗ ") + self.message

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#b42318"
        verdict = "Correct" if self.ok else "Not yet"
        return f'<p style="color:{colour}"><strong>{verdict}:</strong> {html.escape(self.message)}</p>'


def verdict(problems: list[str], passed: str) -> CheckResult:
    """One verdict from a list of problems: ``passed`` if there are none, else every problem on its own line."""
    if not problems:
        return CheckResult(True, passed)
    if len(problems) == 1:
        return CheckResult(False, problems[0])
    return CheckResult(False, f"{len(problems)} problems:\n" + "\n".join(f"- {p}" for p in problems))


def run_reader(fn: Callable, *args, case: str | None = None, numeric: bool = False):
    """Call the reader's ``fn(*args)``; return ``(result, None)``, or ``(None, message)`` saying what went wrong.

    ``case`` names the input in the message ("on the worked example"); with ``numeric`` the result is returned
    as a float array, and anything that is not numbers is reported.
    """
    if not callable(fn):
        return None, f"expected a function, got {type(fn).__name__}"
    where = f"on the {case} " if case else ""
    try:
        with np.errstate(all="ignore"):  # a naive exp overflows; the check reports it, numpy need not warn
            out = fn(*args)
    except NotImplementedError:
        name = getattr(fn, "__name__", "the function")
        return None, f"Your function {name} still raises NotImplementedError: replace its body with an answer."
    except Exception as exc:  # the reader's code may fail in any way: report it instead of crashing the lesson
        return None, f"{where}your function raised {type(exc).__name__}: {exc}"
    if not numeric:
        return out, None
    try:
        return np.asarray(out, dtype=float), None
    except (TypeError, ValueError):
        return None, f"{where}it returned {type(out).__name__}, which is not an array of numbers"
