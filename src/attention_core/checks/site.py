"""The website's side of the self-checks: what a page needs to check an exercise's answer without a kernel.

A lesson's check cell runs a self-check; its verdict carries the check's *declaration* (:mod:`.declare`, kept
by ``attention_workshop.execute`` in the cell's metadata under :data:`EXERCISE_KEY`): the check's name and, for a
check of a value answer (``@self_check(given=...)``, :mod:`.base`), the lesson's arguments of the call and the
starting answer as a reader would type it. The declaration is the same in every edition (lesson 01's sentence is
declared as "the edition's example sentence k", not by its words), so the editions' generator copies it with the
cell. The website's build (``attention_workshop.ae_twins``) reads it, never the cell's source, and puts after the
cell either an answer box (:func:`box`: the check's ``given`` numbers computed for the page's edition, its slots and
their labels) or, for a check of a reader's function, a note that says how to run it in the notebook.

The page decides with ``book/_assets/ae-checks.js``, whose functions mirror each value check's ``decide`` key for key
from the same ``given`` numbers, and says the verdict with the package's own messages in the page's language
(:func:`page_parameters`: the tables of the check modules, :data:`PAGE` for the box's own words), as
:func:`~.base.feedback` does, hints growing with the attempts (counted per box) and the answer on request.
``tests/site/test_checks_js.py`` compares the two on random answers under Node, and
``tests/site/test_site_checks.py`` on every answer of the exercises' bank in Chromium, in every edition.

The reader types an answer as Python writes it: numbers, ``nan`` and ``inf``, ``+ - * /`` and ``**``, parentheses,
lists and tuples (``[4, 5]``, ``4, 5``), ``range(...)``, quoted text, ``None``, ``True``, ``False``. Each value keeps
its Python type, so a quotation in a message is the one the notebook writes for the same text.
:func:`~.declare.page_text` is the text a reader types for a value (the boxes' starting answers, the tests' bank
answers).
"""

from __future__ import annotations

import importlib
import inspect

import numpy as np

from ..lang import Messages, language
from ..toy_sentences import FEATURES, ToySentence, example_sentences
from . import base
from .base import CHECKS, Precision

EXERCISE_KEY = "exercise"  # the key of a check cell's metadata that holds its declaration
SCHEMA = 1  # the layout of page_parameters() and box(): bumped when it changes; the page checks it
MODULES = ("reading", "scoring", "state", "training", "luong", "encoder")  # the check modules, in lesson order

# The answer box's own words, and each value check's slots (``label_<check without check_>_<slot>``: one label for
# each of the reader's answers, the parameters of ``decide`` that its ``given`` does not take).
PAGE = Messages(
    __name__,
    {
        "title": "Check your answer on this page",
        "intro": "Type it as in the notebook's cell: numbers, a list such as [1, 2.5], or + - * /.",
        "check": "Check",
        "show": "Show the answer",
        "needs_js": "This answer box needs JavaScript in your browser; the notebook's cell checks the same answer.",
        # an answer the page cannot read (the box that holds it is marked invalid and described by the verdict)
        "empty": "A box is empty: type your answer in it first.",
        "unreadable": (
            "The page reads numbers, + - * /, lists such as [1, 2.5], None and quoted text; it cannot read {given}."
        ),
        "function_note": (
            "<strong>Checked in the notebook.</strong> This exercise asks for a function, which only Python can "
            "run: run <code>make lab</code>, open this lesson, write your function in the cell above and run it. "
            "Its check says what is wrong, with a hint first, more detail at the second try, and the answer at the "
            "third or on request (<code>show_answer=True</code>)."
        ),
        "label_query_focus_query": "Your query: 7 numbers, one per feature, in the order {features}",
        "label_negation_focus_query": "Your query: 7 numbers, one per feature, in the order {features}",
        "label_moved_states_answer": "The positions j whose state h_j moves, as a list",
        "label_moved_halves_forward": "The positions whose forward half moves, as a list",
        "label_moved_halves_backward": "The positions whose backward half moves, as a list",
        "label_stored_floats_answer": "How many numbers the decoder keeps (a whole number, or a product)",
        "label_context_my_context": "Your context c: its 2 components, as a list",
        "label_example_read_scores": "Your scores e_1, e_2, e_3 at s = {s}, to 3 decimals, as a list",
        "label_example_read_weights": "Your weights α_1, α_2, α_3, to 3 decimals, as a list",
        "label_peak_state_answer": "Your state s, to two decimals",
        "label_steepest_push_position": "The position j (1, 2 or 3)",
        "label_steepest_push_amount": "The amount −dL/de_j, to 4 decimals",
        "label_local_m_window_answer": "The positions local-m scores, as a list",
        "label_scaled_weights_answer": "Your weights α_1, α_2, α_3, to 6 decimals, as a list",
        "label_permuted_rows_answer": "For each new position k = 1..5, the old position, as a list",
    },
)


# ------------------------------------------------------------------------------------ a check's declaration
def slots(decide) -> list[str]:
    """The reader's answers of a value check: the parameters of ``decide`` that its ``given`` does not take."""
    given = CHECKS[decide.__name__].given
    lesson = set(inspect.signature(given).parameters)
    return [name for name in inspect.signature(decide).parameters if name not in lesson]


def lesson_value(value, lang: str):
    """A declared argument as the check's ``given`` takes it, in the edition ``lang``."""
    if isinstance(value, dict) and set(value) == {"example"}:
        return example_sentences(lang)[value["example"]]
    if isinstance(value, dict) and set(value) == {"sentence"}:
        s = value["sentence"]
        return ToySentence(s["text"], tuple(s["tokens"]), np.asarray(s["X"], dtype=float))
    return value


def checks() -> dict:
    """Every self-check of the package by name (:data:`~.base.CHECKS`, its modules imported)."""
    for name in MODULES:
        importlib.import_module(f"{__package__}.{name}")
    return dict(CHECKS)


def book_of(check) -> str:
    """The short name of the module whose messages a check says (``reading`` for ``checks.reading``)."""
    return check.decide.__module__.rsplit(".", 1)[-1]


class Undeclared(ValueError):
    """A check cell's declaration the website cannot use: one line saying why."""


def box(declared: dict, lang: str) -> dict | None:
    """The answer box of a check cell's ``declared`` (:func:`.declare.declaration`) in edition ``lang``, as the page's
    script reads it (``data-box``), or ``None`` for a check of a reader's function. ``check``: its name; ``book``:
    the module whose messages it says; ``slots``: each answer's name and its label (:data:`PAGE`'s
    ``label_<check>_<slot>`` in ``lang``, filled with the lesson's arguments and the features' names); ``start``:
    the answers the cell starts from; ``given``: the numbers its decision needs, computed by the check's own
    ``given`` in ``lang``.
    :class:`Undeclared` for an unknown check, a declaration of the wrong form or arguments the check refuses."""
    every = checks()
    if not isinstance(declared, dict) or declared.get("check") not in every:
        raise Undeclared(f"no self-check named {declared.get('check') if isinstance(declared, dict) else declared!r}")
    check = every[declared["check"]]
    if check.given is None:
        return None
    args, start = declared.get("args"), declared.get("start")
    names = slots(check.decide)
    if not isinstance(args, dict) or not isinstance(start, list) or len(start) != len(names):
        raise Undeclared(f"{declared['check']}: a declaration needs its args and one starting answer per slot")
    with language(lang):
        try:
            given, problem = check.given(**{k: lesson_value(v, lang) for k, v in args.items()})
        except Exception as error:
            raise Undeclared(f"{declared['check']}: its arguments {args} cannot be read ({error})") from None
        if problem is not None:
            raise Undeclared(f"{declared['check']}: {problem}")
    short = declared["check"].removeprefix("check_")
    values = {**args, "features": ", ".join(FEATURES)}  # what a label may name: the lesson's arguments, the features
    with language(lang):
        labels = [PAGE(f"label_{short}_{name}", **values) for name in names]
    return {
        "schema": SCHEMA,
        "check": declared["check"],
        "book": book_of(check),
        "slots": [{"name": name, "label": label} for name, label in zip(names, labels, strict=True)],
        "start": [text if isinstance(text, str) else "" for text in start],
        "given": jsonable(given),
    }


def jsonable(value):
    """``value`` as JSON data: arrays and tuples as lists, numpy numbers as Python numbers, a
    :class:`~.base.Precision` as its ``decimals`` and ``rtol``."""
    if isinstance(value, Precision):
        return {"decimals": value.decimals, "rtol": value.rtol}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def page_parameters(books: set[str] | list[str], lang: str) -> dict:
    """What a page with answer boxes holds once (``<script id="ae-checks">``): the layout version, the edition,
    :data:`~.base.REVEAL_AFTER` and the messages its boxes say, by book (``base``, :data:`PAGE` as ``site``, and each
    check module of ``books``), unfilled, in ``lang``: the script fills them as Python's ``str.format`` does."""
    tables = {"base": base.TEXT.table(lang), "site": PAGE.table(lang)}
    for book in sorted(books):
        tables[book] = importlib.import_module(f"{__package__}.{book}").TEXT.table(lang)
    return {"schema": SCHEMA, "lang": lang, "reveal_after": base.REVEAL_AFTER, "messages": tables}
