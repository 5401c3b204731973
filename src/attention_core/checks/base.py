"""What every exercise self-check shares: its verdict, the one way it runs a reader's function, the one way it reads
a reader's answer, the one way it quotes what the reader gave, and the hints that grow with the attempts.

**A check never raises, never hangs, never floods**, whatever the reader gives it. Every conversion of the reader's
value (``float``, ``int``, ``len``, iteration, ``numpy.asarray``, ``repr``, ``str``) happens inside a guard, and a
check that meets something no guard foresaw still answers with one line (:func:`self_check` holds the last net).
A reader's function runs under a time limit (:data:`TIME_LIMIT`, see :func:`call_with_limit`); what a message
quotes of the reader's value or of an exception's text is cut to :data:`SHOWN` characters and isolated for
bidirectional text (:func:`quote`).

**A check is a decision and its feedback.** Each check is a pure decision on the answer, ``decide(answer, ...) ->``
:class:`Finding` (the check's ``.decide`` attribute), whose messages are :class:`Say` objects: a module's
:class:`~attention_core.lang.Messages`, a key and its values, so that another implementation (the website's) can
mirror the decision key for key and show the same sentences in its own language. :func:`self_check` turns a
decision into the :class:`CheckResult` a reader sees, and that depends on how many wrong answers in a row the
check has seen (:data:`ATTEMPTS`, one count per check for the process, i.e. the notebook's kernel):

- the first wrong answer gets each problem's *hint*, which says where the answer fails and points at the idea to
  look at, never the edit to make nor the right value;
- from the second wrong answer on, each problem's *detail* follows its hint (the exact term or positions, the value
  expected on the failing case);
- the answer itself is shown after :data:`REVEAL_AFTER` wrong answers in a row, or at once when the check is called
  with ``show_answer=True``; until then each verdict says how many tries are left.

An answer of the wrong kind (text, ``None``, a function still raising ``NotImplementedError``) is named, quoted,
and not counted as a try. Every message a check shows a reader comes from a :class:`~attention_core.lang.Messages`,
so it is Chinese after ``set_language("zh")``; the text of the reader's own exceptions is quoted as Python wrote it.

**A check declares its website twin.** A check whose answer is a value (a number, positions, a small vector) names
the numbers its decision needs with ``@self_check(given=...)``: a function of the lesson's own arguments (``T``,
``position``, the sentence...) that returns them, which ``decide`` itself calls. Its verdict then carries, as one
more output type (:data:`EXERCISE_MIME`), the lesson's arguments and the starting answer it was called with;
``attention_workshop.execute`` keeps that in the check cell's metadata (:mod:`.declare`), and the website's build
puts an answer box there whose script (``book/_assets/ae-checks.js``) mirrors ``decide`` key for key (:mod:`.site`).
A check of a reader's function declares only its name: the website says to run it in the notebook.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import html
import math
import reprlib
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from ..lang import Messages
from .declare import declaration

# How close a reader's computed numbers must be to the core's. A float32 answer carries about 7 significant
# digits, so 1e-5 relative (1e-6 absolute, for numbers near 0) accepts float32 and float64 alike, while every
# slip a check diagnoses (a missing tanh, a missing factor, a flipped sign) is off by more than 1e-3.
CLOSE = {"rtol": 1e-5, "atol": 1e-6}
SHOWN = 60  # characters of a reader's value or exception text quoted in a message (the page's quotes use the same)
MAX_ITEMS = 1_000_000  # positions read from one answer; more is refused before it is listed (range(10**12) ...)
TIME_LIMIT = 5.0  # seconds a reader's function may run on one case before the check reports it as too slow
REVEAL_AFTER = 3  # wrong answers in a row after which a check shows the answer
FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE, around every quotation
EXERCISE_MIME = "application/vnd.attention-core.exercise+json"  # a verdict's declaration of its check (.site)
CHECKS: dict[str, Callable] = {}  # every self-check by its name, as @self_check made it (.site finds them here)

TEXT = Messages(
    __name__,
    {
        "correct": "Correct:",
        "not_yet": "Not yet:",
        "problems": "{n} problems:",
        # a hint, then its detail (shown from the second wrong answer on): two sentences side by side; "then_stop"
        # when the first is not yet closed by a full stop, a question mark or an exclamation mark
        "then": "{first} {second}",
        "then_stop": "{first}. {second}",
        "tries_left": (
            "Wrong answer {n} of {of}: the answer is shown after {of} wrong answers in a row, "
            "or now with show_answer=True."
        ),
        # the same note under an answer box of the website, whose button asks for the answer
        "tries_left_page": (
            "Wrong answer {n} of {of}: the answer is shown after {of} wrong answers in a row, "
            "or now with the button “Show the answer”."
        ),
        "the_answer": "The answer: {answer}",
        "not_a_function": "expected a function, got {kind}",
        # ``case`` is a phrase the caller translated ("worked example" / "算例"); the message follows it directly
        "where": "on the {case} ",
        "the_function": "the function",
        "not_implemented": "Your function {name} still raises NotImplementedError: replace its body with an answer.",
        "raised": "{where}your function raised {error}: {detail}",
        "raised_bare": "{where}your function raised {error}",
        "exited": "{where}your function called exit ({detail}); return a value instead",
        "too_slow": "{where}your function was stopped after {seconds:g} s; the cases here take milliseconds",
        "too_slow_thread": (
            "{where}your function had not returned after {seconds:g} s; the cases here take milliseconds "
            "(it goes on running in the background until it ends: restart the kernel to stop it)"
        ),
        "returned_none": "{where}your function returned None: did it forget its return statement?",
        "not_numbers": "{where}it returned {given}, which is not a number or an array of numbers",
        "not_finite_result": "{where}it returned {given}, which contains NaN or infinity",
        "check_failed": "the check could not read your answer ({error}: {detail}); give plain numbers or a function",
        # what a reader's answer (a value, not a function) can be instead of what was asked; {name} is how the
        # check calls the answer ("your answer", "position", ...), {given} what the reader gave, quoted
        "answer_none": "{name}: got None; put your answer in its place",
        "answer_text": "{name}: got the text {given}; write numbers, not text in quotes",
        "answer_not_number": "{name}: expected a number, got {given}",
        "answer_not_finite": "{name}: {given} holds NaN or infinity; every number must be finite",
        "answer_too_large": "{name}: {given} is too large to be one of the numbers asked for",
        "answer_not_whole": "{name}: {given} is not a whole number",
        "answer_not_list": "{name}: expected a list of whole numbers such as [1, 2], got {given}",
        "answer_too_long": "{name}: {count} numbers is far more than asked for",
        "answer_repeated": "{name}: {repeated} appears more than once",
        "answer_count": "{name}: expected {count} numbers, got {given}",
        "answer_shape": "{name}: expected shape {want}, got {given} of shape {got}",
    },
)


# ------------------------------------------------------------------------------------ the verdict
@dataclass(frozen=True)
class CheckResult:
    """The verdict of a self-check: ``ok``, its first line ``lead``, the problems as ``items`` when there are several,
    and a ``note`` (how many tries are left, or the answer). ``message`` is all of it as text. ``exercise`` is the
    check's declaration for the website (:func:`self_check`), shown to no reader and not compared."""

    ok: bool
    lead: str
    items: tuple[str, ...] = ()
    note: str = ""
    exercise: dict | None = field(default=None, compare=False, repr=False)

    @property
    def message(self) -> str:
        lines = [self.lead, *(f"- {item}" for item in self.items)]
        return "\n".join(lines + ([self.note] if self.note else []))

    def __repr__(self) -> str:
        return ("✓ " if self.ok else "✗ ") + self.message

    def _repr_html_(self) -> str:
        """The verdict in a notebook: its word and first line, the problems as a list, the note in a paragraph."""
        colour = "#1a7f37" if self.ok else "#b42318"
        word = TEXT("correct") if self.ok else TEXT("not_yet")
        parts = [f"<p><strong>{html.escape(word)}</strong> {html.escape(self.lead)}</p>"]
        if self.items:
            parts.append("<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in self.items) + "</ul>")
        if self.note:
            parts.append(f"<p>{html.escape(self.note)}</p>")
        return f'<div class="ae-check" style="color:{colour}">{"".join(parts)}</div>'

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """The verdict as text and HTML, and the check's declaration (:data:`EXERCISE_MIME`), which no front end
        shows and ``attention_workshop.execute`` keeps in the cell's metadata for the website's build."""
        bundle = {"text/plain": repr(self), "text/html": self._repr_html_()}
        if self.exercise is not None:
            bundle[EXERCISE_MIME] = self.exercise
        return bundle


@dataclass(frozen=True)
class Say:
    """One message by key: a module's :class:`~attention_core.lang.Messages`, the key and its values (a value may
    itself be a :class:`Say`, said first). ``str()`` says it in the current language."""

    book: Messages
    key: str
    values: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.book(self.key, **{k: str(v) if isinstance(v, Say) else v for k, v in self.values.items()})


_STOPS = ".?!。？！"  # what closes a sentence, in the languages of the book


def both(first, second) -> Say:
    """Two sentences side by side (a hint and its detail): a full stop between them when the first has none."""
    said = str(first)
    return Say(TEXT, "then" if said.rstrip()[-1:] in _STOPS else "then_stop", {"first": said, "second": second})


@dataclass(frozen=True)
class Problem:
    """What is wrong: a ``hint`` for the first wrong answer, and a ``detail`` added from the second on."""

    hint: Say
    detail: Say | str | None = None  # a Say, or text that is the same in every language (numbers, code)


@dataclass(frozen=True)
class Finding:
    """A check's decision on one answer: ``passed`` (a right answer's message) or ``problems``; ``answer``, the
    right answer as a message (shown on request or after :data:`REVEAL_AFTER` wrong answers); ``judged`` is False
    when the answer was not of the kind asked for (a form problem, not a try)."""

    passed: Say | None = None
    problems: tuple[Problem, ...] = ()
    answer: Say | str | None = None  # a Say, or text that is the same in every language (code, positions)
    judged: bool = True

    @property
    def ok(self) -> bool:
        return self.passed is not None and not self.problems

    def keys(self) -> list[str]:
        """The keys of what it says (the passed message or each hint, then each detail): what a twin must match."""
        if self.ok:
            return [self.passed.key]
        return [p.hint.key for p in self.problems] + [p.detail.key for p in self.problems if isinstance(p.detail, Say)]


def right(passed: Say, answer: Say | str | None = None) -> Finding:
    return Finding(passed=passed, answer=answer)


def wrong(*problems: Problem, answer: Say | str | None = None) -> Finding:
    return Finding(problems=problems, answer=answer)


def malformed(problem: Say, answer: Say | str | None = None) -> Finding:
    """An answer of the wrong kind: named, not counted as a try."""
    return Finding(problems=(Problem(problem),), answer=answer, judged=False)


def failure(said: Say, answer: Say | str | None = None) -> Finding:
    """The reader's function did not give an answer on a case (it is not written yet, raised, ran too long or
    returned something that is not numbers: :func:`run_reader` said which; ``said`` puts it in context). A bug to
    fix, not a wrong answer: not counted as a try."""
    return Finding(problems=(Problem(said),), answer=answer, judged=False)


class Attempts:
    """How many wrong answers in a row each check has seen in this process (a notebook's kernel), by check name.

    One object for the package (:data:`ATTEMPTS`): the hints of a check grow with its count, a right answer sets
    it back to zero, and so does :meth:`clear` (the tests call it so that each starts from a first attempt)."""

    def __init__(self):
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def record(self, name: str, finding: Finding) -> int:
        """Count ``finding`` for check ``name``; return the number of this wrong answer (0 when right or unjudged)."""
        with self._lock:
            if finding.ok:
                self._counts.pop(name, None)
                return 0
            if not finding.judged:
                return 0
            self._counts[name] = self._counts.get(name, 0) + 1
            return self._counts[name]

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


ATTEMPTS = Attempts()


def feedback(finding: Finding, tries: int, show_answer: bool = False, page: bool = False) -> CheckResult:
    """The verdict a reader sees for ``finding`` at wrong answer number ``tries`` (0: not counted); with ``page``, as
    the website's answer box says it (its note names the box's button instead of ``show_answer=True``)."""
    if finding.ok:
        return CheckResult(True, _capitalised(str(finding.passed)))
    texts = []
    for problem in finding.problems:
        text = str(problem.hint)
        if problem.detail is not None and tries >= 2:
            text = str(both(text, problem.detail))
        texts.append(text)
    if show_answer or (tries >= REVEAL_AFTER and finding.answer is not None):
        note = TEXT("the_answer", answer=str(finding.answer)) if finding.answer is not None else ""
    elif tries:
        note = TEXT("tries_left_page" if page else "tries_left", n=tries, of=REVEAL_AFTER)
    else:
        note = ""
    texts = [_capitalised(text) for text in texts]
    if len(texts) == 1:
        return CheckResult(False, texts[0], note=note)
    return CheckResult(False, TEXT("problems", n=len(texts)), tuple(texts), note)


def _capitalised(text: str) -> str:
    """``text`` with its first letter upper-case when it starts with a lower-case word of two letters or more
    (``on the ...`` -> ``On the ...``), not when it starts with a symbol (``d_a = 1``, ``dL/de_j``, ``s = 0.5``)
    or in a script without case."""
    word = text.split(" ", 1)[0].rstrip(",:;")
    return text[0].upper() + text[1:] if len(word) > 1 and word.isalpha() and word.islower() else text


def verdict(problems: list[str], passed: str) -> CheckResult:
    """One verdict from a list of problems already said: ``passed`` if there are none, else the problems listed."""
    if not problems:
        return CheckResult(True, passed)
    if len(problems) == 1:
        return CheckResult(False, problems[0])
    return CheckResult(False, TEXT("problems", n=len(problems)), tuple(problems))


def self_check(decide: Callable[..., Finding] | None = None, *, given: Callable | None = None):
    """The check a reader calls, made from the pure decision ``decide`` (kept as the check's ``.decide``).

    The check takes ``decide``'s arguments and ``show_answer=False``; it runs ``decide`` with numpy's warnings off,
    counts the attempt (:data:`ATTEMPTS`) and returns the :class:`CheckResult` for it (:func:`feedback`). Anything
    ``decide`` raises (a case no guard foresaw) becomes one line naming the error: the last net, never a traceback.

    ``given`` (written ``@self_check(given=...)``) marks a check of a value answer that the website can decide in
    the page: a function of the lesson's arguments of ``decide`` (its parameter names are theirs; ``decide``'s
    other parameters are the reader's answers) returning ``(numbers, None)``, the numbers the decision needs, or
    ``(None, problem)`` for arguments a lesson cannot mean. ``decide`` calls it; the website's build calls it too
    (:mod:`.site`), so the page decides with the same numbers. Every check is kept in :data:`CHECKS` by name, and
    its verdict carries its declaration (:attr:`CheckResult.exercise`)."""
    if decide is None:
        return functools.partial(self_check, given=given)

    @functools.wraps(decide)
    def check(*args, show_answer: bool = False, **kwargs) -> CheckResult:
        try:
            with np.errstate(all="ignore"):
                finding = decide(*args, **kwargs)
        except Exception as error:  # the last net: a reader's value that defeated every guard
            finding = malformed(Say(TEXT, "check_failed", {"error": _name_of(error), "detail": _detail(error)}))
        result = feedback(finding, ATTEMPTS.record(decide.__name__, finding), bool(show_answer))
        return dataclasses.replace(result, exercise=_declared(decide, given, args, kwargs))

    check.decide = decide
    check.given = given
    CHECKS[decide.__name__] = check
    return check


def _declared(decide: Callable, given: Callable | None, args: tuple, kwargs: dict) -> dict | None:
    """The check's declaration for the website (:func:`.declare.declaration`), or ``None`` if the call cannot be
    declared (arguments that do not bind, a lesson's argument that is not plain data): never an exception."""
    try:
        return declaration(decide, given, args, kwargs)
    except Exception:  # a declaration is for the website's build: the reader's verdict never depends on it
        return None


# ------------------------------------------------------------------------------------ quoting
class _Short(reprlib.Repr):
    """:mod:`reprlib` with every size bounded: a list shows its first 8 items, an object whose ``__repr__`` raises is
    named by its type, huge integers are never written out (Python refuses to write one of more than 4,300 digits),
    and nothing is longer than 4 x :data:`SHOWN` characters before :func:`_cut` keeps the first :data:`SHOWN`."""

    def __init__(self):
        super().__init__()
        self.maxstring = self.maxother = self.maxlong = 4 * SHOWN
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdict = self.maxarray = 8
        self.maxlevel = 3

    def repr_int(self, x, level):
        if x.bit_length() > 4000:  # about 1,200 digits: its size says enough
            digits = int(x.bit_length() * math.log10(2)) + 1
            return f"{'-' if x < 0 else ''}10**{digits - 1}"
        return super().repr_int(x, level)

    def repr_ndarray(self, x, level):
        return np.array2string(x, precision=6, separator=", ", threshold=20, edgeitems=3)

    def repr_instance(self, x, level):
        try:
            return super().repr_instance(x, level)
        except Exception:  # reprlib's own fallback reads x.__class__, which a hostile object may not allow
            return f"<{type(x).__name__}>"


_SHORT = _Short()
# Characters that would act on the text around a quotation instead of showing (bidi embeddings, overrides and
# isolates, marks, zero-width joiners, line and paragraph separators): written as escapes.
_CONTROL = {"Cc", "Cf", "Zl", "Zp"}


def _cut(text: str) -> str:
    """``text`` on one line, its control and format characters escaped, cut to :data:`SHOWN` characters."""
    import unicodedata

    text = " ".join(text[: 4 * SHOWN].split())
    text = "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _CONTROL and ch != " " else ch for ch in text[: 2 * SHOWN]
    )
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _isolated(text: str) -> str:
    return FSI + text + PDI


def quote(value) -> str:
    """What the reader gave, as a quotation for a message: :func:`repr`-like, at most :data:`SHOWN` characters,
    control and bidi characters written as escapes, between U+2068 and U+2069 (FIRST STRONG ISOLATE, POP
    DIRECTIONAL ISOLATE) so that right-to-left text inside cannot reorder the message around it. Never raises."""
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    if not isinstance(text, str):  # a hostile repr_* path cannot return anything else, but a quote must be text
        text = f"<{type(value).__name__}>"
    return _isolated(_cut(text))


def quote_text(text: str) -> str:
    """A piece of text the reader's code wrote (an exception's message), cut and isolated like :func:`quote`."""
    return _isolated(_cut(text))


def _name_of(error: BaseException) -> str:
    return quote_text(type(error).__name__)


def _detail(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # an exception whose __str__ raises
        text = ""
    if not isinstance(text, str):
        text = ""
    return quote_text(text)


# ------------------------------------------------------------------------------------ reading a reader's value
def _real(value) -> bool:
    """A single real number: int, float or a numpy scalar or 0-d array of one (never a bool or a string)."""
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "iuf"
    return isinstance(value, Real)


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


def _number(value, name: str) -> tuple[float | None, Say | None]:
    if value is None:
        return None, _say("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, _say("answer_text", name=name, given=quote(value))
    if not _real(value):
        return None, _say("answer_not_number", name=name, given=quote(value))
    try:
        x = float(value)
    except OverflowError:  # an int beyond the largest float
        return None, _say("answer_too_large", name=name, given=quote(value))
    except Exception:  # a Real whose __float__ raises
        return None, _say("answer_not_number", name=name, given=quote(value))
    if not isinstance(x, float) or not math.isfinite(x):
        return None, _say("answer_not_finite", name=name, given=quote(value))
    return x, None


def _guarded(reader):
    """``reader`` with every unforeseen exception turned into the ``answer_not_number`` message."""

    @functools.wraps(reader)
    def read(value, name: str, *args):
        try:
            return reader(value, name, *args)
        except Exception:  # an object whose isinstance, len, iteration or conversion raises
            return None, _say("answer_not_number", name=name, given=quote(value))

    return read


number = _guarded(_number)
number.__doc__ = "``(x, None)`` for a finite real number ``value``; else ``(None, message)`` quoting what was given."


@_guarded
def whole_number(value, name: str) -> tuple[int | None, Say | None]:
    """``(n, None)`` for a whole number (an int, or a float with nothing after the point); else a message."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        if abs(int(value)) > 2**53:  # no position or count asked for is this large, and it is exact as an int
            return None, _say("answer_too_large", name=name, given=quote(value))
        return int(value), None
    x, problem = _number(value, name)
    if problem:
        return None, problem
    if x != round(x):
        return None, _say("answer_not_whole", name=name, given=quote(value))
    if abs(x) > 2**53:
        return None, _say("answer_too_large", name=name, given=quote(value))
    return int(round(x)), None


@_guarded
def positions(value, name: str) -> tuple[list[int] | None, Say | None]:
    """``(sorted positions, None)`` for a list, tuple, range or 1-D array of distinct whole numbers; else a message.

    Linear in the number of positions (20,000 take about 20 ms); more than :data:`MAX_ITEMS` are refused before
    they are listed. The range of the positions is the caller's to judge (a check may diagnose positions counted
    from 0)."""
    if value is None:
        return None, _say("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, _say("answer_text", name=name, given=quote(value))
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            return None, _say("answer_not_list", name=name, given=quote(value))
    elif not isinstance(value, list | tuple | range):
        return None, _say("answer_not_list", name=name, given=quote(value))
    count = len(value)
    if count > MAX_ITEMS:
        return None, _say("answer_too_long", name=name, count=count)
    got = []
    for item in list(value):
        if isinstance(item, str | bytes):
            return None, _say("answer_text", name=name, given=quote(item))
        if not _real(item):
            return None, _say("answer_not_list", name=name, given=quote(value))
        n, problem = whole_number(item, name)
        if problem:
            return None, problem
        got.append(n)
    repeated = sorted(n for n, times in Counter(got).items() if times > 1)
    if repeated:
        return None, _say("answer_repeated", name=name, repeated=quote(repeated))
    return sorted(got), None


@_guarded
def numbers(value, name: str, shape: tuple[int, ...]) -> tuple[np.ndarray | None, Say | None]:
    """``(float array, None)`` for finite real numbers of ``shape`` (a list, tuple or array); else a message.

    A vector may be given as a list or as an array of shape ``(n,)``; a row ``(1, n)`` or a column ``(n, 1)`` is
    refused with its shape, so that the reader learns what was asked."""
    if value is None:
        return None, _say("answer_none", name=name)
    if isinstance(value, str | bytes):
        return None, _say("answer_text", name=name, given=quote(value))
    arr, problem = _array(value)
    if problem is not None:
        return None, _say("answer_not_number", name=name, given=quote(value))
    if arr.dtype.kind not in "iuf":
        if arr.dtype.kind in "US":
            return None, _say("answer_text", name=name, given=quote(value))
        if arr.dtype.kind == "O" and _has_huge_int(arr):
            return None, _say("answer_too_large", name=name, given=quote(value))
        return None, _say("answer_not_number", name=name, given=quote(value))
    if arr.shape != shape:
        if arr.ndim == 1 and len(shape) == 1:
            return None, _say("answer_count", name=name, count=shape[0], given=quote(value))
        return None, _say("answer_shape", name=name, want=shape, given=quote(value), got=arr.shape)
    arr = arr.astype(float)
    if not np.isfinite(arr).all():
        return None, _say("answer_not_finite", name=name, given=quote(value))
    return arr, None


def _array(value) -> tuple[np.ndarray | None, str | None]:
    """``numpy.asarray(value)``, or ``(None, why)`` when numpy cannot hold it (ragged lists, a hostile
    ``__array__``); never raises."""
    try:
        arr = np.asarray(value)
    except Exception as error:
        return None, type(error).__name__
    if not isinstance(arr, np.ndarray):
        return None, "not an array"
    return arr, None


def _has_huge_int(arr: np.ndarray) -> bool:
    """Whether an object array holds an int too large for a float (numpy keeps 10**400 as a Python object)."""
    return arr.size <= 1000 and any(isinstance(x, int) and x.bit_length() > 1023 for x in arr.flat)


# ------------------------------------------------------------------------------------ running a reader's function
class TooSlow(BaseException):
    """Raised inside a reader's function when :data:`TIME_LIMIT` runs out: a ``BaseException``, so that a reader's
    ``except Exception`` does not swallow it."""


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _alarm(seconds: float):
    """Raise :class:`TooSlow` in this (the main) thread after ``seconds``, then every 0.2 s until the block ends
    (a reader's bare ``except:`` may swallow one). The previous handler and timer are put back afterwards."""

    def ring(signum, frame):
        raise TooSlow

    previous = signal.signal(signal.SIGALRM, ring)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, seconds, 0.2)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)  # None: set outside Python
        if old_delay:  # someone else's timer: give it back what is left of it
            left = max(old_delay - (time.monotonic() - start), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, old_interval)


def call_with_limit(fn: Callable, *args):
    """``fn(*args)`` stopped after :data:`TIME_LIMIT` seconds; returns ``(value, how)`` where ``how`` is ``None``
    when it returned, ``"stopped"`` when it was interrupted and ``"running"`` when it could not be.

    In the main thread of a POSIX system (a notebook's kernel on Linux or macOS) ``signal.setitimer`` interrupts
    the function (in pure Python at once; inside one long numpy call when that call returns). Elsewhere (Windows,
    which has no ``setitimer``, or a check called from another thread) the function runs in a daemon thread that
    the check waits for at most :data:`TIME_LIMIT`: if it has not returned, the check reports it and the thread goes
    on until the function ends (Python cannot stop a thread; restarting the kernel does). An exception the
    function raises is raised again here."""
    if _can_interrupt():
        try:
            with _alarm(TIME_LIMIT):
                with np.errstate(all="ignore"):  # a naive exp overflows; the check reports it, numpy need not warn
                    return fn(*args), None
        except TooSlow:
            return None, "stopped"
    box: dict = {}

    def run():
        try:
            with np.errstate(all="ignore"):
                box["value"] = fn(*args)
        except BaseException as error:  # handed back to the caller's thread below
            box["error"] = error

    worker = threading.Thread(target=run, daemon=True, name="attention_core self-check")
    worker.start()
    worker.join(TIME_LIMIT)
    if worker.is_alive():
        return None, "running"
    if "error" in box:
        raise box["error"]
    return box["value"], None


def run_reader(fn: Callable, *args, case: str | None = None, numeric: bool = False, finite: bool = True):
    """Call the reader's ``fn(*args)``; return ``(result, None)``, or ``(None, message)`` saying what went wrong.

    ``case`` names the input in the message ("on the worked example"), already in the reader's language. With
    ``numeric`` the result is returned as a float array; ``None``, text, booleans and anything else that is not an
    array of real numbers is reported, and so is NaN or infinity unless ``finite`` is False (a check that names the
    cause of an overflow reports it itself). The call and the conversion of its result run under
    :func:`call_with_limit`. The message is a :class:`Say`; a result whose form is wrong, a function not written
    yet, an exception or a function too slow are all reported here, so a check need only say what is wrong with a
    result of the right form.
    """
    if not _callable(fn):
        return None, _say("not_a_function", kind=quote_text(type(fn).__name__))
    where = Say(TEXT, "where", {"case": case}) if case else ""

    def call():
        out = fn(*args)
        return out, (_as_numbers(out) if numeric and out is not None else None)

    try:
        result, how = call_with_limit(call)
    except NotImplementedError:
        return None, _say("not_implemented", name=_function_name(fn))
    except SystemExit as error:  # sys.exit() or exit() inside the reader's code must not end the kernel
        return None, _say("exited", where=where, detail=_detail(error))
    except Exception as error:  # the reader's code may fail in any way: report it instead of crashing the lesson
        detail = _detail(error)
        if detail == quote_text(""):  # no message, or one whose __str__ raises
            return None, _say("raised_bare", where=where, error=_name_of(error))
        return None, _say("raised", where=where, error=_name_of(error), detail=detail)
    if how is not None:
        return None, _say("too_slow" if how == "stopped" else "too_slow_thread", where=where, seconds=TIME_LIMIT)
    out, arr = result
    if out is None:
        return None, _say("returned_none", where=where)
    if not numeric:
        return out, None
    if arr is None:
        return None, _say("not_numbers", where=where, given=quote(out))
    if finite and not np.isfinite(arr).all():
        return None, _say("not_finite_result", where=where, given=quote(out))
    return arr, None


def _callable(fn) -> bool:
    try:
        return callable(fn)
    except Exception:
        return False


def _function_name(fn) -> str:
    try:
        name = getattr(fn, "__name__", None)
    except Exception:
        name = None
    return quote_text(name) if isinstance(name, str) else str(_say("the_function"))


def _as_numbers(out) -> np.ndarray | None:
    """``out`` as a float array if it is a number or an array of real numbers (not text, booleans or objects);
    ``None`` for anything else, whatever it does when asked (a hostile ``__class__``)."""
    try:
        if isinstance(out, str | bytes):
            return None
        arr, problem = _array(out)
        if problem is not None or arr.dtype.kind not in "iuf":
            return None
        return arr.astype(float)
    except Exception:
        return None


def fmt(x, cut: bool = True) -> str:
    """Numbers as a message prints them (4 decimals, arrays as lists, on one line): the reader's cut to
    :data:`SHOWN` characters, the check's own (``cut=False``: an expected value, a few numbers) whole."""
    try:
        text = np.array2string(
            np.asarray(x, dtype=float), precision=4, separator=", ", suppress_small=True, threshold=20, edgeitems=3
        )
    except Exception:  # not numbers after all: quoted as given
        return quote(x)
    return _cut(text) if cut else " ".join(text.split())


@dataclass(frozen=True)
class Precision:
    """How close a number given "to ``decimals`` decimals" must be to the exact value: half a unit of its last
    decimal (what rounding the exact value costs), plus ``rtol`` of the value (what rounding the lesson's printed
    figures on the way costs: a value rounded from a figure printed with one decimal more, or computed from
    printed inputs). An exercise states the rule in its text; :meth:`tolerance` is the one place it is computed."""

    decimals: int
    rtol: float = 1e-4  # one part in ten thousand

    def tolerance(self, exact):
        return 0.5 * 10.0**-self.decimals + self.rtol * np.abs(exact)

    def accepts(self, got, exact) -> bool:
        """Whether every number of ``got`` is within :meth:`tolerance` of its exact value."""
        got, exact = np.asarray(got, dtype=float), np.asarray(exact, dtype=float)
        return bool(np.all(np.abs(got - exact) <= self.tolerance(exact)))
