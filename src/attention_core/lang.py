"""The language of what the package says to a reader: figure text, self-check messages, explorer labels, reports.

One mechanism, standard gettext. The English sentence stays in the code, beside the code that uses it; every
other language comes from a PO translation file (``locale/<language>/LC_MESSAGES/attention_core.po`` inside the
package), whose entries are keyed by the sentence's name (``msgctxt``) and its English text (``msgid``)::

    TEXT = Messages(__name__, {
        "title": "Weights at s = {s:.2f}",
    })
    ax.set_title(TEXT("title", s=s))

When the English of an entry changes, its translation no longer matches and the tests report it as stale
(``tests/lessons/test_translations.py``). The language is one plain, process-wide setting: ``set_language("zh")``; the
math never reads it (the import contract in ``pyproject.toml`` forbids this module in the math layer). Code
identifiers, numbers and array shapes never change with the language, and error messages for programmers
(``ValueError``, ``TypeError``) stay English.

Besides English and the languages with a translation file there is a pseudo-language, :data:`PSEUDO`, used by the
tests: it writes every sentence in accented look-alike letters (``Weights`` -> ``Ŵéíĝĥţś``), so that any plain
English a reader would see in a translated edition stands out as text that escaped translation.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import pathlib
import re
import string
import unicodedata

ENGLISH = "en"  # the source language: the text in the code
PSEUDO = "qps"  # the pseudo-language of the completeness tests (as in "qps-ploc")
DOMAIN = "attention_core"  # the package's translation file: locale/<language>/LC_MESSAGES/attention_core.po
LOCALE_DIR = pathlib.Path(__file__).resolve().parent / "locale"

_language = ENGLISH  # the one process-wide setting
MESSAGES: list[Messages] = []  # every Messages object created, for the tests and the translation tools


def languages(localedir: pathlib.Path = LOCALE_DIR, domain: str = DOMAIN) -> tuple[str, ...]:
    """English, every language with a translation file for ``domain``, and the pseudo-language."""
    found = sorted(p.parent.parent.name for p in localedir.glob(f"*/LC_MESSAGES/{domain}.po"))
    return (ENGLISH, *found, PSEUDO)


def _check(code: str) -> str:
    if code not in languages():
        raise ValueError(f"language must be one of {languages()}, got {code!r}")
    return code


def set_language(code: str) -> None:
    """Make ``code`` (``"en"``, ``"zh"``, ...) the language of everything the package writes from now on."""
    global _language
    _language = _check(code)


def get_language() -> str:
    """The current language code."""
    return _language


@contextlib.contextmanager
def language(code: str):
    """Use ``code`` inside a ``with`` block only, then restore the previous language."""
    global _language
    previous, _language = _language, _check(code)
    try:
        yield
    finally:
        _language = previous


# ----------------------------------------------------------------------------------------------- PO files
class POTranslations(gettext.NullTranslations):
    """Python's gettext interface (``gettext``, ``pgettext``) over the entries of one PO file.

    PO is the translators' text format; Python's own ``gettext.translation`` reads only the compiled ``.mo``
    form, so the entries are read with ``polib``. Untranslated and fuzzy (stale) entries are left out: their
    English is used instead, and the translation tests report them.
    """

    def __init__(self, path: pathlib.Path):
        super().__init__()
        import polib  # the standard PO reader; only needed when a translation is used

        self.path = path
        self.entries = {
            (e.msgctxt, e.msgid): e.msgstr
            for e in polib.pofile(str(path))
            if e.msgstr and not e.obsolete and "fuzzy" not in e.flags
        }

    def gettext(self, message: str) -> str:
        return self.entries.get((None, message), message)

    def pgettext(self, context: str, message: str) -> str:
        return self.entries.get((context, message), message)


class PseudoTranslations(gettext.NullTranslations):
    """Every message in accented look-alike letters, placeholders and markup kept (see :func:`pseudo`)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


@functools.cache
def translations(code: str, localedir: pathlib.Path = LOCALE_DIR, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The translations of ``domain`` into language ``code`` (English: none, the text is the code's own)."""
    if code == PSEUDO:
        return PseudoTranslations()
    path = localedir / code / "LC_MESSAGES" / f"{domain}.po"
    return POTranslations(path) if path.exists() else gettext.NullTranslations()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class Messages:
    """The reader-facing sentences of one module, in English, translated through ``domain``'s PO files.

    ``context`` names the module (``__name__``); an entry's ``msgctxt`` in the PO file is ``context:key``.
    """

    def __init__(self, context: str, entries: dict[str, str], domain: str = DOMAIN, localedir=LOCALE_DIR):
        for key, text in entries.items():
            if not isinstance(text, str):
                raise TypeError(f"message {key!r} of {context} must be an English str, got {type(text).__name__}")
        self.context, self.entries, self.domain, self.localedir = context, dict(entries), domain, localedir
        MESSAGES.append(self)

    def msgctxt(self, key: str) -> str:
        return f"{self.context}:{key}"

    def __call__(self, key: str, **values) -> str:
        """The sentence ``key`` in the current language, with ``{placeholders}`` filled from ``values``."""
        return self.text(key, _language).format(**values)

    def text(self, key: str, code: str) -> str:
        """The sentence ``key`` in language ``code``, placeholders unfilled."""
        try:
            english = self.entries[key]
        except KeyError:
            raise KeyError(f"no message {key!r} in {self.context}") from None
        if code == ENGLISH:
            return english
        translated = translations(code, self.localedir, self.domain).pgettext(self.msgctxt(key), english)
        return translated if _fields(translated) == _fields(english) else english

    def table(self, code: str) -> dict[str, str]:
        """Every sentence in language ``code``, by key (for the website's exported labels)."""
        return {key: self.text(key, code) for key in self.entries}


# ------------------------------------------------------------------------------------ the pseudo-language
_PLAIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ACCENTED = "ÅƁĊĐÉƑĜĤÎĴĶĹḾŃÖṔǪŔŠŢÜṼŴẊÝŽåƀċđéƒĝĥîĵķĺḿńöṕǫŕšţüṽŵẋýž"
_PSEUDO_MAP = str.maketrans(_PLAIN, _ACCENTED)
# Kept as they are: {placeholders}, <markup>, &entities;, `code`, $math$, and escapes such as \n.
_PROTECTED = re.compile(r"\{[^{}]*\}|<[^<>]*>|&\w+;|`[^`]*`|\$[^$]*\$|\\.")


def pseudo(text: str) -> str:
    """``text`` with every Latin letter outside placeholders, markup, code and math replaced by a look-alike."""
    out, last = [], 0
    for match in _PROTECTED.finditer(text):
        out.append(text[last : match.start()].translate(_PSEUDO_MAP))
        out.append(match.group())
        last = match.end()
    out.append(text[last:].translate(_PSEUDO_MAP))
    return "".join(out)


# ------------------------------------------------------------------------------------ display width
def width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width display: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in str(text))


def pad(text, columns: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``columns`` display columns (``"<"`` left, ``">"`` right, ``"^"`` centre).

    Python's ``f"{text:<13}"`` counts characters; a Chinese character shows two columns wide, so tables that mix
    Chinese and Latin text line up only when padded by :func:`width`, as here. Longer text is not cut."""
    text = str(text)
    gap = max(columns - width(text), 0)
    if align == "<":
        return text + " " * gap
    if align == ">":
        return " " * gap + text
    if align == "^":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    raise ValueError(f"align must be '<', '>' or '^', got {align!r}")
