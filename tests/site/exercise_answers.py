"""The exercises' bank as a reader types it in the website's answer boxes, and the Python check's verdict on it, for
the tests that hold the page's checker (book/_assets/ae-checks.js) to the notebook's: under Node
(tests/site/test_checks_js.py) and in the built pages (tests/site/test_site_checks.py).

An answer of the bank (tests/checks/test_exercise_banks.py) is typed as :func:`attention_core.checks.declare.page_text`
writes it (a numpy array as its list, a numpy number as the Python number of the same value); the Python check then
decides the value the notebook's cell would hold for that text (:func:`python_value`), and so does the page. Both
findings are compared as data (each message's book, key and values) and as the verdicts a reader reads at the first,
second and third wrong answer in a row and on request (:func:`differences`). That the typed answer is the same
mistake as the bank's own value is checked too: the same message keys (:func:`same_keys`).
"""

from __future__ import annotations

import math
import types

from attention_core.checks import base
from attention_core.checks.base import Say, feedback
from attention_core.checks.declare import page_text
from attention_core.checks.site import book_of, box, lesson_value, page_parameters, slots
from attention_core.lang import language
from tests.checks.test_exercise_banks import BANKS

# The value exercises: those whose check the website decides (it has a `given`), with their bank.
WEB = {key: bank for key, bank in BANKS.items() if getattr(getattr(bank[0], "check", bank[0]), "given", None)}
BOOKS = sorted({book_of(getattr(called, "check", called)) for called, _, _ in WEB.values()})  # their modules
RELATIVE = 1e-9  # numbers the page computes itself (lesson 01's reads) may differ from numpy's in the last bits

NAMES = {  # what a typed answer may name, as the notebook's cell has it
    "nan": math.nan,
    "inf": math.inf,
    "range": range,
    "float": float,
    "np": types.SimpleNamespace(nan=math.nan, inf=math.inf),
    "math": types.SimpleNamespace(nan=math.nan, inf=math.inf),
}


def python_value(text: str):
    """The value a notebook's cell holds for ``text``, an answer typed as :func:`page_text` writes it."""
    return eval(text, {"__builtins__": {}}, dict(NAMES))  # noqa: S307  (the tests' own texts)


def typed(args: tuple) -> list[str] | None:
    """The bank's answers as typed, one text per slot; ``None`` if one cannot be typed."""
    texts = [page_text(a, limit=10_000) for a in args]
    return None if None in texts else texts


def the_check(key: str):
    called = WEB[key][0]
    return getattr(called, "check", called)


def declared(key: str) -> dict:
    """What the check of exercise ``key`` declares when the bank calls it as its lesson does (in English)."""
    called, right, _ = WEB[key]
    with language("en"):
        return called(*right[0][1]).exercise


def boxes(lang: str) -> dict:
    """Each value exercise's answer box in ``lang``, made from its declaration as the website's build makes it."""
    return {key: box(declared(key), lang) for key in WEB}


def parameters(lang: str) -> dict:
    return page_parameters(BOOKS, lang)


def answers() -> list[tuple[str, str, list[str]]]:
    """Every answer of the value exercises' bank that a reader can type: (exercise, label, texts)."""
    found = []
    for key, (_, right, wrong) in WEB.items():
        for label, args in [*right, *wrong]:
            texts = typed(args)
            if texts is not None:
                found.append((key, label, texts))
    return found


def said(x):
    """A message as data, as the page's ``asData`` writes it: book, key and values (ints and floats as numbers,
    anything else as its ``str``, a message inside as data); text that is the same in every language as text."""
    if x is None:
        return None
    if not isinstance(x, Say):
        return {"text": str(x)}
    values = {}
    for k, v in x.values.items():
        if isinstance(v, Say):
            values[k] = said(v)
        elif isinstance(v, bool):
            values[k] = str(v)
        elif isinstance(v, int | float):
            values[k] = v
        else:
            values[k] = str(v)
    return {"book": x.book.context.rsplit(".", 1)[-1], "key": x.key, "values": values}


def python_side(key: str, texts: list[str], lang: str, declaration: dict | None = None) -> dict:
    """The Python check's finding on the typed answer, called with the lesson's declared arguments (``declaration``,
    by default the bank's call's) in the edition ``lang`` (lesson 01 reads the edition's own sentence), as data, and
    its verdicts as the page says them."""
    decide = the_check(key).decide
    declaration = declared(key) if declaration is None else declaration
    lesson = {k: lesson_value(v, lang) for k, v in declaration["args"].items()}
    with language(lang):
        finding = decide(**dict(zip(slots(decide), map(python_value, texts), strict=True)), **lesson)
        counted = finding.judged and not finding.ok
        verdicts = [_verdict(feedback(finding, n if counted else 0, page=True)) for n in (1, 2, 3)]
        shown = _verdict(feedback(finding, 1 if counted else 0, show_answer=True, page=True))
        data = {
            "ok": finding.ok,
            "judged": finding.judged,
            "passed": said(finding.passed),
            "problems": [{"hint": said(p.hint), "detail": said(p.detail)} for p in finding.problems],
            "answer": said(finding.answer),
        }
    return {"data": data, "verdicts": verdicts, "shown": shown}


def _verdict(result: base.CheckResult) -> dict:
    return {"ok": result.ok, "lead": result.lead, "items": list(result.items), "note": result.note}


def differences(python: dict, page: dict, where: str = "") -> list[str]:
    """Where the page's answer differs from Python's: a path and both sides, one line each (empty: identical)."""
    found: list[str] = []

    def walk(a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            if set(a) != set(b):
                found.append(f"{where}{path}: keys {sorted(a)} != {sorted(b)}")
            for k in set(a) & set(b):
                walk(a[k], b[k], f"{path}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                found.append(f"{where}{path}: {len(a)} items != {len(b)}")
            for k, (x, y) in enumerate(zip(a, b, strict=False)):
                walk(x, y, f"{path}[{k}]")
        elif isinstance(a, float) and isinstance(b, int | float) and not isinstance(b, bool):
            if not math.isclose(a, b, rel_tol=RELATIVE, abs_tol=1e-15):
                found.append(f"{where}{path}: {a!r} != {b!r}")
        elif a != b:
            found.append(f"{where}{path}: {a!r} != {b!r}")

    walk(python["data"], page["data"], "data")
    walk(python["verdicts"], page["verdicts"], "verdicts")
    walk(python["shown"], page["shown"], "shown")
    return found


def keys_of(finding) -> tuple:
    return (finding.ok, finding.judged, tuple(finding.keys()))


def same_keys(key: str, label: str, args: tuple) -> bool:
    """Whether the typed form of a bank answer is the same answer to the check as the bank's own value: the same
    verdict and message keys (only a quotation of a numpy value may read differently)."""
    texts = typed(args)
    called = WEB[key][0]
    return keys_of(called.decide(*args)) == keys_of(called.decide(*(python_value(t) for t in texts)))
