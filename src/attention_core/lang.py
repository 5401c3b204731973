"""The language of what the package says to a reader: figure text, self-check messages, explorer labels, reports.

The book has an English and a Chinese edition (``zh/``). Their notebooks run the same code; the Chinese ones
start with ``set_language("zh")``, after which every sentence the package writes for a reader comes from the
Chinese column of one catalog (:data:`TEXT`, in ``lang_text.py``). Code identifiers, numbers and array shapes
never change with the language.

The choice is held in a :class:`contextvars.ContextVar`, not a module global, so a caller can also switch for
one block only::

    with language("zh"):
        fig = state_read_figure(...)

``tests/test_lang.py`` checks that both columns have the same keys and the same ``{placeholders}``.
"""

from __future__ import annotations

import contextlib
import contextvars

from .lang_text import TEXT

LANGUAGES = ("en", "zh")  # English, Simplified Chinese
_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("attention_core_language", default="en")


def _check(code: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {code!r}")
    return code


def set_language(code: str) -> None:
    """Make ``code`` (``"en"`` or ``"zh"``) the language of everything the package writes from now on."""
    _LANGUAGE.set(_check(code))


def get_language() -> str:
    """The current language code."""
    return _LANGUAGE.get()


@contextlib.contextmanager
def language(code: str):
    """Use ``code`` inside a ``with`` block only."""
    token = _LANGUAGE.set(_check(code))
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def tr(key: str, **values) -> str:
    """The sentence ``key`` in the current language, with ``{placeholders}`` filled from ``values``."""
    try:
        entry = TEXT[key]
    except KeyError:
        raise KeyError(f"no text {key!r} in attention_core.lang_text.TEXT") from None
    return entry[_LANGUAGE.get()].format(**values)
