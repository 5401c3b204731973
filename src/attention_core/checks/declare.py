"""What a self-check's verdict declares for the website: the check's name, the lesson's arguments of the call and
the starting answer as a reader types it (:func:`declaration`, called by :func:`~.base.self_check` on every call).

Kept apart from :mod:`.site` (which reads declarations back and computes a page's answer boxes) so that the checks'
shared module imports it without a cycle: this module imports only the math and the language setting.
"""

from __future__ import annotations

import inspect
import math
from numbers import Integral, Real

import numpy as np

from ..lang import get_language
from ..toy_sentences import ToySentence, example_sentences

START_LIMIT = 200  # characters of a starting answer the box is filled with; a longer one leaves the box empty


def page_text(value, limit: int = START_LIMIT) -> str | None:
    """``value`` as a reader types it in an answer box, as Python writes it: ``640``, ``0.4151``, ``[4, 5, 6]``,
    ``(12,)``, ``range(4, 8)``, ``'640'``, ``None``, ``nan``; a numpy array as its list, a numpy number as the
    Python number of the same value. ``None`` when nobody could type it (a function, a dictionary, a complex
    number, a hostile object) or when it is longer than ``limit`` characters. Never raises."""
    try:
        parts: list[str] = []
        return "".join(parts) if _typed(value, parts, [0], limit) else None
    except Exception:  # a hostile object: nothing a reader types
        return None


def _typed(value, parts: list[str], used: list[int], limit: int) -> bool:
    """Append the typed form of ``value`` to ``parts`` (``used[0]`` counts its characters); False if untypable."""

    def put(text: str) -> bool:
        used[0] += len(text)
        parts.append(text)
        return used[0] <= limit

    if value is None or isinstance(value, bool | np.bool_):
        return put(repr(None if value is None else bool(value)))
    if isinstance(value, str):
        return put(repr(value))
    if isinstance(value, Integral):
        return put(str(int(value)))
    if isinstance(value, Real) and not isinstance(value, Integral):
        return put(repr(float(value)))
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf" and _typed(value.tolist(), parts, used, limit)
    if isinstance(value, range):
        return put(repr(value))
    if isinstance(value, list | tuple) and type(value) in (list, tuple):
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        if not put(opening):
            return False
        for i, item in enumerate(value):
            if (i and not put(", ")) or not _typed(item, parts, used, limit):
                return False
        return put("," + closing if isinstance(value, tuple) and len(value) == 1 else closing)
    return False


def declaration(decide, given, args: tuple, kwargs: dict) -> dict:
    """What a check's verdict declares for the website (:data:`~.base.EXERCISE_MIME`): ``{"check": name}`` for a
    check of a reader's function; for a value check also ``args``, the lesson's arguments of the call as plain
    data (a sentence as ``{"example": k}``, the edition's k-th example sentence), and ``start``, each answer as a
    reader types it (:func:`page_text`; ``""`` when it cannot be typed). Raises for arguments that do not bind
    or a lesson's argument that is not plain data (:func:`~.base.self_check` then declares nothing)."""
    if given is None:
        return {"check": decide.__name__}
    bound = inspect.signature(decide).bind(*args, **kwargs)
    bound.apply_defaults()
    lesson = set(inspect.signature(given).parameters)
    return {
        "check": decide.__name__,
        "args": {name: _plain(value) for name, value in bound.arguments.items() if name in lesson},
        "start": [page_text(value) or "" for name, value in bound.arguments.items() if name not in lesson],
    }


def _plain(value):
    """A lesson's argument as JSON data; ``TypeError`` for anything else."""
    if isinstance(value, ToySentence):
        sentences = example_sentences(get_language())
        for k, sentence in enumerate(sentences):
            if sentence is value:
                return {"example": k}
        return {"sentence": {"text": value.text, "tokens": list(value.tokens), "X": np.asarray(value.X).tolist()}}
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        x = float(value)
        if not math.isfinite(x):
            raise TypeError("a lesson's argument is not finite")
        return x
    if isinstance(value, np.ndarray | list | tuple):
        return [_plain(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    raise TypeError(f"a lesson's argument of type {type(value).__name__} is not plain data")
