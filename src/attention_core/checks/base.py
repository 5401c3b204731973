"""What every exercise self-check shares: its result type, the one way it runs a reader's function, and the one way
it reads a reader's answer.

A self-check never raises, whatever the reader gives it. It returns a :class:`CheckResult` whose message says what
is right or exactly what is wrong. A reader's function that raises, is not written yet (``NotImplementedError``),
forgets its ``return`` or returns something that is not finite numbers is reported by :func:`run_reader`; an answer
given as a value (a number, a position, a list of positions, a vector) is read by :func:`number`,
:func:`whole_number`, :func:`positions` or :func:`numbers`, which quote what the reader gave when it is not of the
kind asked for: a string, ``None``, NaN or infinity, a fraction where a position is asked, a repeated position, the
wrong count or shape. None of them says what the right answer is.

Every message a check shows a reader comes from a :class:`~attention_core.lang.Messages`, so it is Chinese after
``set_language("zh")``; the exception text of the reader's own code is quoted as Python wrote it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Real

import numpy as np

from ..lang import Messages

# How close a reader's computed numbers must be to the core's. A float32 answer carries about 7 significant
# digits, so 1e-5 relative (1e-6 absolute, for numbers near 0) accepts float32 and float64 alike, while every
# slip a check diagnoses (a missing tanh, a missing factor, a flipped sign) is off by more than 1e-3.
CLOSE = {"rtol": 1e-5, "atol": 1e-6}
SHOWN = 60  # characters of a reader's answer quoted in a message

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
        "returned_none": "{where}your function returned None: did it forget its return statement?",
        "not_numbers": "{where}it returned {given}, which is not a number or an array of numbers",
        "not_finite_result": "{where}it returned {given}, which contains NaN or infinity",
        # what a reader's answer (a value, not a function) can be instead of what was asked; {name} is how the
        # check calls the answer ("your answer", "position", ...), {given} what the reader gave, quoted
        "answer_none": "{name}: got None; put your answer in its place",
        "answer_text": "{name}: got the text {given}; write numbers, not text in quotes",
        "answer_not_number": "{name}: expected a number, got {given}",
        "answer_not_finite": "{name}: {given} holds NaN or infinity; every number must be finite",
        "answer_not_whole": "{name}: {given} is not a whole number",
        "answer_not_list": "{name}: expected a list of whole numbers such as [1, 2], got {given}",
        "answer_repeated": "{name}: {repeated} appears more than once",
        "answer_count": "{name}: expected {count} numbers, got {given}",
        "answer_shape": "{name}: expected shape {want}, got {given} of shape {got}",
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


def given(value) -> str:
    """What the reader gave, as a short quotation for a message (arrays printed like lists, cut after SHOWN)."""
    if isinstance(value, np.ndarray):
        try:
            text = np.array2string(value, precision=6, separator=", ", threshold=20)
        except Exception:  # an array of objects whose repr fails
            text = f"array of {value.dtype}"
    else:
        try:
            text = repr(value)
        except Exception:  # a reader's object whose __repr__ raises
            text = type(value).__name__
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _real(value) -> bool:
    """A single real number: int, float or a numpy scalar or 0-d array of one (never a bool or a string)."""
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "iuf"
    return isinstance(value, Real)


def number(value, name: str) -> tuple[float | None, str | None]:
    """``(x, None)`` for a finite real number ``value``; else ``(None, message)`` quoting what was given."""
    if value is None:
        return None, TEXT("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, TEXT("answer_text", name=name, given=given(value))
    if not _real(value):
        return None, TEXT("answer_not_number", name=name, given=given(value))
    x = float(value)
    if not np.isfinite(x):
        return None, TEXT("answer_not_finite", name=name, given=given(value))
    return x, None


def whole_number(value, name: str) -> tuple[int | None, str | None]:
    """``(n, None)`` for a whole number (an int, or a float with nothing after the point); else a message."""
    x, problem = number(value, name)
    if problem:
        return None, problem
    if x != round(x):
        return None, TEXT("answer_not_whole", name=name, given=given(value))
    return int(round(x)), None


def positions(value, name: str) -> tuple[list[int] | None, str | None]:
    """``(sorted positions, None)`` for a list, tuple, range or 1-D array of distinct whole numbers; else a message.

    The range of the positions is the caller's to judge (a check may diagnose positions counted from 0)."""
    if value is None:
        return None, TEXT("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, TEXT("answer_text", name=name, given=given(value))
    if isinstance(value, np.ndarray):
        items = list(value) if value.ndim == 1 else None
    elif isinstance(value, list | tuple | range):
        items = list(value)
    else:
        items = None
    if items is None:
        return None, TEXT("answer_not_list", name=name, given=given(value))
    got = []
    for item in items:
        if isinstance(item, str | bytes):
            return None, TEXT("answer_text", name=name, given=given(item))
        if not _real(item):
            return None, TEXT("answer_not_list", name=name, given=given(value))
        n, problem = whole_number(item, name)
        if problem:
            return None, problem
        got.append(n)
    repeated = sorted({n for n in got if got.count(n) > 1})
    if repeated:
        return None, TEXT("answer_repeated", name=name, repeated=repeated)
    return sorted(got), None


def numbers(value, name: str, shape: tuple[int, ...]) -> tuple[np.ndarray | None, str | None]:
    """``(float array, None)`` for finite real numbers of ``shape`` (a list, tuple or array); else a message.

    A vector may be given as a list or as an array of shape ``(n,)``; a row ``(1, n)`` or a column ``(n, 1)`` is
    refused with its shape, so that the reader learns what was asked."""
    if value is None:
        return None, TEXT("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, TEXT("answer_text", name=name, given=given(value))
    try:
        arr = np.asarray(value)
    except Exception:  # ragged lists, objects numpy cannot hold
        return None, TEXT("answer_not_number", name=name, given=given(value))
    if arr.dtype.kind not in "iuf":
        if arr.dtype.kind in "US":
            return None, TEXT("answer_text", name=name, given=given(value))
        return None, TEXT("answer_not_number", name=name, given=given(value))
    if arr.shape != shape:
        if arr.ndim == 1 and len(shape) == 1:
            return None, TEXT("answer_count", name=name, count=shape[0], given=given(value))
        return None, TEXT("answer_shape", name=name, want=shape, given=given(value), got=arr.shape)
    arr = arr.astype(float)
    if not np.isfinite(arr).all():
        return None, TEXT("answer_not_finite", name=name, given=given(value))
    return arr, None


def run_reader(fn: Callable, *args, case: str | None = None, numeric: bool = False, finite: bool = True):
    """Call the reader's ``fn(*args)``; return ``(result, None)``, or ``(None, message)`` saying what went wrong.

    ``case`` names the input in the message ("on the worked example"), already in the reader's language. With
    ``numeric`` the result is returned as a float array; ``None``, text, booleans and anything else that is not an
    array of real numbers is reported, and so is NaN or infinity unless ``finite`` is False (a check that names the
    cause of an overflow reports it itself).
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
    if out is None:
        return None, TEXT("returned_none", where=where)
    if not numeric:
        return out, None
    try:
        arr = np.asarray(out)
    except Exception:  # ragged lists, objects numpy cannot hold
        arr = None
    if arr is None or arr.dtype.kind not in "iuf" or isinstance(out, str | bytes):
        return None, TEXT("not_numbers", where=where, given=given(out))
    arr = arr.astype(float)
    if finite and not np.isfinite(arr).all():
        return None, TEXT("not_finite_result", where=where, given=given(out))
    return arr, None
