"""The package's translations as compiled gettext catalogues (attention_core.lang): the ``.mo`` says what the PO
file says, a stale or missing ``.mo`` is compiled in memory, and a broken translation gives English and one
warning naming the file, the entry and the problem, never a traceback."""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
import warnings

import polib
import pytest

from attention_core import lang
from attention_core.lang import (
    DOMAIN,
    ENGLISH,
    PSEUDO,
    Messages,
    TranslationWarning,
    catalogue_path,
    compile_catalogue,
    languages,
    translations,
)

PACKAGE_LANGUAGES = [code for code in languages() if code not in (ENGLISH, PSEUDO)]


def pybabel_compile(po, mo) -> None:
    """What ``make`` runs for each package catalogue (the Makefile's ``%.mo: %.po`` rule)."""
    command = [sys.executable, "-m", "babel.messages.frontend", "--quiet", "compile", "-i", str(po), "-o", str(mo)]
    subprocess.run(command, check=True)


def write_po(folder, entries: list[polib.POEntry], domain: str = "demo"):
    """A PO file ``<folder>/zz/LC_MESSAGES/<domain>.po`` holding ``entries``; returns its path."""
    path = folder / "zz" / "LC_MESSAGES" / f"{domain}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "zz"}
    for entry in entries:
        po.append(entry)
    po.save(str(path))
    return path


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test reads its catalogues anew (translations() reads a catalogue once per process)."""
    translations.cache_clear()
    yield
    translations.cache_clear()


@pytest.mark.parametrize("code", PACKAGE_LANGUAGES)
def test_the_compiled_catalogue_says_what_the_po_file_says(code, tmp_path):
    po_path = catalogue_path(code)
    mo_path = tmp_path / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    mo_path.parent.mkdir(parents=True)
    pybabel_compile(po_path, mo_path)
    # Read with an independent reader (polib), translated and current entries only: the rest shows its English.
    po = polib.pofile(str(po_path))
    wanted = {(e.msgctxt, e.msgid, e.msgstr) for e in po if e.msgstr and "fuzzy" not in e.flags and not e.obsolete}
    compiled = {(e.msgctxt, e.msgid, e.msgstr) for e in polib.mofile(str(mo_path)) if e.msgid}
    assert compiled == wanted and len(wanted) > 400
    # And through the standard library, as the package reads it: every entry of the PO file.
    catalogue = gettext.translation(DOMAIN, tmp_path, languages=[code])
    for entry in po:
        if entry.obsolete:
            continue
        current = entry.msgstr and "fuzzy" not in entry.flags
        assert catalogue.pgettext(entry.msgctxt, entry.msgid) == (entry.msgstr if current else entry.msgid)
    # The in-memory compilation (no .mo, or a stale one) is the same Babel call: the same entries. (Not the same
    # bytes: Babel stamps the header with the minute it compiles, and two compilations may fall in two minutes.)
    in_memory = tmp_path / "in_memory.mo"
    in_memory.write_bytes(compile_catalogue(po_path))
    assert {(e.msgctxt, e.msgid, e.msgstr) for e in polib.mofile(str(in_memory)) if e.msgid} == compiled


def test_a_fresh_mo_is_read_and_a_stale_or_missing_one_is_compiled_from_the_po(tmp_path, monkeypatch):
    po = write_po(tmp_path, [polib.POEntry(msgctxt="demo:w", msgid="weight", msgstr="Gewicht")])
    text = Messages("demo", {"w": "weight"}, "demo", tmp_path)
    assert text.text("w", "zz") == "Gewicht"  # no .mo: compiled in memory from the PO file
    # A .mo newer than its PO file is what the package reads (here it says something else, to tell them apart),
    # and reading it needs no Babel.
    other = write_po(tmp_path / "other", [polib.POEntry(msgctxt="demo:w", msgid="weight", msgstr="Masse")])
    pybabel_compile(other, po.with_suffix(".mo"))
    os.utime(po, (1_000_000_000, 1_000_000_000))
    translations.cache_clear()
    for module in ("babel", "babel.messages.pofile", "babel.messages.mofile"):
        monkeypatch.setitem(sys.modules, module, None)
    assert text.text("w", "zz") == "Masse"
    # A PO file edited after its .mo was compiled wins: the stale .mo is not read, the PO file is compiled with Babel.
    # Without Babel: the older .mo with one warning, or, with no .mo, English with one warning (never a traceback).
    os.utime(po, None)
    os.utime(po.with_suffix(".mo"), (1_000_000_000, 1_000_000_000))
    translations.cache_clear()
    with pytest.warns(TranslationWarning, match=r"demo\.po: newer than its \.mo, and compiling it needs Babel"):
        assert text.text("w", "zz") == "Masse"
    po.with_suffix(".mo").unlink()
    translations.cache_clear()
    with pytest.warns(TranslationWarning, match=r"demo\.po: cannot read the translations \(no up-to-date \.mo beside"):
        assert text.text("w", "zz") == "weight"
    monkeypatch.undo()
    pybabel_compile(other, po.with_suffix(".mo"))
    os.utime(po.with_suffix(".mo"), (1_000_000_000, 1_000_000_000))
    translations.cache_clear()
    assert text.text("w", "zz") == "Gewicht"  # with Babel: the PO file's own text, not the older .mo's


@pytest.mark.parametrize("code", PACKAGE_LANGUAGES)
def test_the_package_reads_its_catalogues_through_gettext_and_they_are_current(code):
    catalogue = translations(code)  # the compiled .mo if make made it after the last PO edit, else compiled now
    assert isinstance(catalogue, gettext.GNUTranslations)
    for entry in polib.pofile(str(catalogue_path(code))):
        if entry.msgstr and "fuzzy" not in entry.flags and not entry.obsolete:
            assert catalogue.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, entry.msgctxt


ENGLISH_TEXT = {"w": "weight {w:.2f}", "n": "{n} of {total}", "plain": "done"}


@pytest.mark.parametrize(
    ("key", "msgstr", "problem"),
    [
        ("w", "Gewicht {w:.2f", "malformed placeholders (unmatched '{' in format spec)"),
        ("w", "Gewicht } {w:.2f}", "malformed placeholders (Single '}' encountered in format string)"),
        ("w", "Gewicht {w:.2f} {__class__}", "field {__class__} not in the English"),
        ("n", "{n} von", "field {total} of the English missing"),
        ("n", "{n} von {gesamt}", "field {gesamt} not in the English, field {total} of the English missing"),
        ("w", "Gewicht {w:.2q}", "cannot be filled (ValueError: Unknown format code 'q' for object of type 'float')"),
        ("plain", "fertig {", "malformed placeholders (Single '{' encountered in format string)"),
    ],
)
def test_a_malformed_translation_gives_the_english_and_one_warning_naming_file_entry_and_problem(
    key, msgstr, problem, tmp_path, monkeypatch
):
    po = write_po(tmp_path, [polib.POEntry(msgctxt=f"demo:{key}", msgid=ENGLISH_TEXT[key], msgstr=msgstr)])
    text = Messages("demo", ENGLISH_TEXT, "demo", tmp_path)
    values = {"w": 0.5, "n": 2, "total": 3}
    wanted = ENGLISH_TEXT[key].format(**values)
    monkeypatch.setattr(lang, "languages", lambda *args: (ENGLISH, "zz", PSEUDO))  # zz: the test's own catalogue
    with warnings.catch_warnings(record=True) as caught, lang.language("zz"):
        warnings.simplefilter("always")
        got = text(key, **values)
    assert got == wanted
    assert [str(w.message) for w in caught] == [
        f"{po}: msgctxt 'demo:{key}', msgid {ENGLISH_TEXT[key]!r}: {problem}; using the English"
    ]
    assert caught[0].category is TranslationWarning


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'msgctxt "demo:plain"\nmsgid "done"\nmsgstrr "fertig"\n', "PoFileError"),  # a misspelt keyword
        (b'msgctxt "demo:plain"\nmsgid "done"\nmsgstr "fertig \xe4"\n', "UnicodeDecodeError"),  # not UTF-8
    ],
)
def test_an_unreadable_catalogue_gives_english_and_one_warning_naming_the_file(content, problem, tmp_path):
    po = tmp_path / "zz" / "LC_MESSAGES" / "demo.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(b'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + content)
    text = Messages("demo", ENGLISH_TEXT, "demo", tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert text.text("plain", "zz") == "done"
        assert text.text("w", "zz") == "weight {w:.2f}"  # the catalogue is read (and found broken) once
    assert len(caught) == 1 and caught[0].category is TranslationWarning
    message = str(caught[0].message)
    assert message.startswith(f"{po}: cannot read the translations ({problem}") and message.endswith(
        "using the English"
    )
