"""The language of what the package says to a reader: figure text, self-check messages, explorer labels, reports.

One mechanism, standard gettext. The English sentence stays in the code, beside the code that uses it; every
other language comes from a PO translation file (``locale/<language>/LC_MESSAGES/attention_core.po`` inside the
package), whose entries are keyed by the sentence's name (``msgctxt``) and its English text (``msgid``)::

    TEXT = Messages(__name__, {
        "title": "Weights at s = {s:.2f}",
    })
    ax.set_title(TEXT("title", s=s))

When the English of an entry changes, its translation no longer matches and the tests report it as stale
(``tests/lessons/test_translations.py``). Code identifiers, numbers and array shapes never change with the language,
and error messages for programmers (``ValueError``, ``TypeError``) stay English.

**Compiled catalogues.** The PO file is what translators edit; what the package reads is its compiled form, the
``.mo`` file beside it, through the standard library (``gettext.translation``). ``make`` compiles every PO file with
Babel (``pybabel compile``) when it installs the package and again whenever a PO file is newer than its ``.mo``; the
``.mo`` files are build products, not committed. When the ``.mo`` is missing or older than its PO file (a plain
``pip install -e .`` without ``make``, or a PO file just edited or merged by ``attention_workshop.editions``), the
catalogue is compiled in memory from the PO file with the same Babel call (:func:`compile_catalogue`) and read by
the same ``gettext`` class; without Babel, an older ``.mo`` is read with a warning, and with no ``.mo`` the text is
English with a warning. "Older" is by modification time, as in Sphinx's own catalogues (``CatalogInfo.is_outdated``).
Compiling here rather than in a setuptools build step is deliberate: an editable install runs no build step when a
file changes, so a ``.mo`` made at install time would go stale with the first edited translation and the package
would show the old text; compiling the stale case in memory keeps the PO file the one source, costs under a tenth
of a second once per process (the Chinese catalogue, Babel's import included), and needs no build-time dependency.
Untranslated and fuzzy (stale) entries are never compiled: their English is used, and the translation tests report
them.

**A broken translation never breaks the package.** A translation whose ``{placeholders}`` are malformed (a lone
``{`` or ``}``), or are not exactly the English's (a field added or missing), or that cannot be filled with the
values the English takes, is not used: the English is shown instead, with one :class:`TranslationWarning` naming
the PO file, the entry and the problem. A catalogue that cannot be read at all gives one such warning and English.

**One process-wide setting, safe across threads.** ``set_language("zh")`` sets the language for the whole process;
the math never reads it (the import contract in ``pyproject.toml`` forbids this module in the math layer).
``with language("zh"):`` holds a module-level re-entrant lock for its whole block, and :func:`set_language` takes
the same lock, so two threads' ``with`` blocks run one after the other: inside a block the language is the block's
own from start to end, and afterwards it is what it was before. Two consequences, by design: a thread that merely
reads text outside any ``with`` block sees whichever language is set at that moment (another thread's block
included), and a ``with language(...)`` block must not wait for another thread that itself enters
``with language(...)`` or calls :func:`set_language` (that thread waits for the block to end: a deadlock). Nothing
in the package starts threads inside such a block.

Besides English and the languages with a translation file there is a pseudo-language, :data:`PSEUDO`, used by the
tests: it writes every sentence in accented look-alike letters (``Weights`` -> ``Ŵéíĝĥţś``), so that any plain
English a reader would see in a translated edition stands out as text that escaped translation.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import pathlib
import re
import string
import threading
import unicodedata
import warnings

ENGLISH = "en"  # the source language: the text in the code
PSEUDO = "qps"  # the pseudo-language of the completeness tests (as in "qps-ploc")
DOMAIN = "attention_core"  # the package's translation file: locale/<language>/LC_MESSAGES/attention_core.po
LOCALE_DIR = pathlib.Path(__file__).resolve().parent / "locale"

_language = ENGLISH  # the one process-wide setting, written only while holding _LOCK
_LOCK = threading.RLock()  # held by every `with language(...)` block for its whole duration, and by set_language
MESSAGES: list[Messages] = []  # every Messages object created, for the tests and the translation tools


class TranslationWarning(UserWarning):
    """A translation was not used (malformed, other placeholders, unreadable catalogue); the English was shown."""


def languages(localedir: pathlib.Path = LOCALE_DIR, domain: str = DOMAIN) -> tuple[str, ...]:
    """English, every language with a translation file for ``domain``, and the pseudo-language."""
    found = sorted(p.parent.parent.name for p in localedir.glob(f"*/LC_MESSAGES/{domain}.po"))
    return (ENGLISH, *found, PSEUDO)


def _check(code: str) -> str:
    if code not in languages():
        raise ValueError(f"language must be one of {languages()}, got {code!r}")
    return code


def set_language(code: str) -> None:
    """Make ``code`` (``"en"``, ``"zh"``, ...) the language of everything the package writes from now on.

    Process-wide. It waits while another thread is inside a ``with language(...)`` block (see the module's notes)."""
    global _language
    code = _check(code)
    with _LOCK:
        _language = code


def get_language() -> str:
    """The current language code."""
    return _language


@contextlib.contextmanager
def language(code: str):
    """Use ``code`` inside a ``with`` block only, then restore the previous language.

    The block holds the module's lock from start to end: another thread's ``with language(...)`` block or
    :func:`set_language` waits until this block ends, so the language stays this block's own for its whole
    duration. The lock is re-entrant: nested blocks and ``set_language`` in the same thread are fine; waiting inside
    the block for another thread that changes the language is a deadlock."""
    global _language
    code = _check(code)
    with _LOCK:
        previous, _language = _language, code
        try:
            yield
        finally:
            _language = previous


# ------------------------------------------------------------------------------------ compiled catalogues
def catalogue_path(code: str, localedir: pathlib.Path = LOCALE_DIR, domain: str = DOMAIN) -> pathlib.Path:
    """The PO file translators edit for language ``code``; its compiled ``.mo`` sits beside it."""
    return localedir / code / "LC_MESSAGES" / f"{domain}.po"


def compile_catalogue(po: pathlib.Path) -> bytes:
    """The ``.mo`` bytes of PO file ``po``, as ``pybabel compile`` writes them (untranslated and fuzzy entries left
    out). Raises ``babel.messages.pofile.PoFileError`` (with the line) on a syntax error, ``UnicodeError`` on a wrong
    encoding."""
    from babel.messages.mofile import write_mo  # Babel: only needed when no up-to-date .mo exists
    from babel.messages.pofile import read_po

    with open(po, "rb") as source:
        catalog = read_po(source, abort_invalid=True)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    return compiled.getvalue()


def _read_catalogue(po: pathlib.Path, localedir: pathlib.Path, domain: str, code: str) -> gettext.GNUTranslations:
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return gettext.translation(domain, localedir, languages=[code])  # the compiled file, read by the stdlib
    try:
        compiled = compile_catalogue(po)  # no .mo, or an older one: compiled in memory
    except ImportError:
        if not mo.exists():
            raise
        warnings.warn(  # e.g. a wheel installed without Babel: pip gives its files the time they were written
            f"{po}: newer than its .mo, and compiling it needs Babel (make, or pip install Babel); using the .mo",
            TranslationWarning,
            stacklevel=3,
        )
        return gettext.translation(domain, localedir, languages=[code])
    return gettext.GNUTranslations(io.BytesIO(compiled))


class PseudoTranslations(gettext.NullTranslations):
    """Every message in accented look-alike letters, placeholders and markup kept (see :func:`pseudo`)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


@functools.cache
def translations(code: str, localedir: pathlib.Path = LOCALE_DIR, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The translations of ``domain`` into language ``code`` (English: none, the text is the code's own).

    Read once per process from the compiled catalogue (see the module's notes). A catalogue that cannot be read
    gives one :class:`TranslationWarning` naming the file and the problem, and English."""
    if code == PSEUDO:
        return PseudoTranslations()
    po = catalogue_path(code, localedir, domain)
    if not po.exists():
        return gettext.NullTranslations()
    try:
        return _read_catalogue(po, localedir, domain, code)
    except Exception as error:  # a syntax error, a wrong encoding, a damaged .mo, Babel missing: never a traceback
        problem = f"{type(error).__name__}: {error}"
        if isinstance(error, ImportError):
            problem = (
                f"no up-to-date .mo beside it, and compiling one needs Babel (make, or pip install Babel); {problem}"
            )
        warnings.warn(
            f"{po}: cannot read the translations ({problem}); using the English",
            TranslationWarning,
            stacklevel=2,
        )
        return gettext.NullTranslations()


def _fields(text: str) -> set[str]:
    """The names of ``text``'s ``{placeholders}``; ``ValueError`` if its braces are malformed."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _problem(translated: str, english: str) -> str | None:
    """Why ``translated`` cannot stand for ``english`` (its placeholders), or ``None`` if it can."""
    try:
        fields = _fields(translated)
    except ValueError as error:
        return f"malformed placeholders ({error})"
    wanted = _fields(english)
    extra, missing = sorted(fields - wanted), sorted(wanted - fields)
    if extra or missing:
        parts = [f"field {{{name}}} not in the English" for name in extra]
        parts += [f"field {{{name}}} of the English missing" for name in missing]
        return ", ".join(parts)
    return None


class Messages:
    """The reader-facing sentences of one module, in English, translated through ``domain``'s catalogues.

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
        """The sentence ``key`` in the current language, with ``{placeholders}`` filled from ``values``.

        A translation that cannot be filled with ``values`` (a format specification the values do not take) gives
        the English and one :class:`TranslationWarning`; an English that cannot be filled is the caller's error."""
        code = _language  # read once: the language of this whole call
        translated = self.text(key, code)
        english = self.entries[key]
        if translated is english:
            return english.format(**values)  # an error here is the caller's: the values do not fit the English
        try:
            return translated.format(**values)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as error:
            problem = f"cannot be filled ({type(error).__name__}: {error})"
        filled = english.format(**values)
        self._warn(code, key, problem)
        return filled

    def text(self, key: str, code: str) -> str:
        """The sentence ``key`` in language ``code``, placeholders unfilled (the English if the translation's
        placeholders are malformed or not the English's, with one :class:`TranslationWarning`)."""
        try:
            english = self.entries[key]
        except KeyError:
            raise KeyError(f"no message {key!r} in {self.context}") from None
        if code == ENGLISH:
            return english
        translated = translations(code, self.localedir, self.domain).pgettext(self.msgctxt(key), english)
        if translated == english:
            return english
        problem = _problem(translated, english)
        if problem is not None:
            self._warn(code, key, problem)
            return english
        return translated

    def _warn(self, code: str, key: str, problem: str) -> None:
        where = "the pseudo-language" if code == PSEUDO else str(catalogue_path(code, self.localedir, self.domain))
        warnings.warn(
            f"{where}: msgctxt {self.msgctxt(key)!r}, msgid {self.entries[key]!r}: {problem}; using the English",
            TranslationWarning,
            stacklevel=3,
        )

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
