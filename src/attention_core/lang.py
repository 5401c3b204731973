"""The language of what the package says to a reader: figure text, self-check messages, explorer labels, reports.

The book has an English and a Chinese edition (``zh/``). Their notebooks run the same code; the Chinese ones
start with ``set_language("zh")``, after which every sentence the package writes for a reader comes from the
Chinese column of the module's :class:`Catalog`. Code identifiers, numbers and array shapes never change with
the language, and error messages for programmers (``ValueError``, ``TypeError``) stay in English.

Each module that writes for readers keeps its sentences beside the code that uses them::

    TEXT = Catalog({
        "title": {"en": "Weights at s = {s:.2f}", "zh": "s = {s:.2f} 时的读取权重"},
    })
    ax.set_title(TEXT("title", s=s))

A catalog refuses, when its module is imported, an entry that lacks a language or whose languages use different
``{placeholders}``. The choice of language is a :class:`contextvars.ContextVar`, not a module global, so a
caller can also switch for one block only: ``with language("zh"): ...``. Chinese follows ``book/glossary.md``.
"""

from __future__ import annotations

import contextlib
import contextvars
import string

LANGUAGES = ("en", "zh")  # English, Simplified Chinese
_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("attention_core_language", default="en")
CATALOGS: list[Catalog] = []  # every catalog created, for the tests


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


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class Catalog:
    """The reader-facing sentences of one module, each in every language of :data:`LANGUAGES`."""

    def __init__(self, entries: dict[str, dict[str, str]]):
        for key, texts in entries.items():
            if set(texts) != set(LANGUAGES):
                raise ValueError(f"text {key!r} must be given in {LANGUAGES}, got {sorted(texts)}")
            fields = {code: _fields(text) for code, text in texts.items()}
            if len({frozenset(f) for f in fields.values()}) != 1:
                raise ValueError(f"text {key!r} uses different placeholders per language: {fields}")
        self.entries = entries
        CATALOGS.append(self)

    def __call__(self, key: str, **values) -> str:
        """The sentence ``key`` in the current language, with ``{placeholders}`` filled from ``values``."""
        try:
            texts = self.entries[key]
        except KeyError:
            raise KeyError(f"no text {key!r} in this catalog") from None
        return texts[_LANGUAGE.get()].format(**values)
