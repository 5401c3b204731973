"""Every translation file is one that translators' tools accept (GNU msgfmt --check), and a file the generator
cannot trust (a syntax error, a wrong encoding, a duplicate entry) is refused in one line naming the file, the line
and the entry."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import polib
import pytest

from attention_workshop import paths
from attention_workshop.editions import catalog, sources
from attention_workshop.editions.units import Unit
from attention_workshop.paths import LOCALE, translations
from tests.helpers import ROOT

PO_FILES = sorted([*LOCALE.rglob("*.po"), *(ROOT / "src" / "attention_core" / "locale").rglob("*.po")])


def msgfmt() -> str:
    """GNU msgfmt (Debian's gettext, installed by .ci/run); under CI its absence is a failure, not a skip."""
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("GNU msgfmt is not installed (Debian package gettext; .ci/run installs it)")
        pytest.skip("GNU msgfmt is not installed (apt-get install gettext)")
    return found


@pytest.mark.parametrize("path", PO_FILES, ids=[p.relative_to(ROOT).as_posix() for p in PO_FILES])
def test_msgfmt_checks_every_translation_file_without_an_error_or_a_warning(path):
    run = subprocess.run(
        [msgfmt(), "--check-format", "--check-header", "-o", os.devnull, str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert run.returncode == 0 and not run.stderr.strip(), run.stderr


def test_the_checker_is_found_under_ci(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="gettext"):
        msgfmt()


@pytest.mark.parametrize("lang", translations())
def test_every_entry_the_code_fills_carries_its_format_flag_and_a_note_where_needed(lang):
    """A text the code fills with ``str.format`` (package messages, settings) or an f-string's placeholders is
    flagged ``python-brace-format``, so msgfmt, Poedit and Weblate check its fields; the language's own name and
    the code folds' words say what to write."""
    flagged = 0
    for source in sources.sources():
        entries = {(e.msgctxt, e.msgid): e for e in catalog.read_po(source.po_path(lang)) if not e.obsolete}
        for unit in source.units():
            entry = entries[(unit.context, unit.msgid)]
            if unit.flag:
                assert unit.flag in entry.flags, f"{source.name} [{unit.context}] {unit.msgid[:60]!r}: no {unit.flag}"
                flagged += 1
            assert entry.comment.startswith(unit.kind)
    assert flagged > 100
    config = catalog.read_po(sources.ConfigSource().po_path(lang))
    fold = config.find("Show code cell {type}", msgctxt="sphinx:nb_code_prompt_show")
    assert "no-python-brace-format" in fold.flags and "{type}" in fold.comment


GOOD = """msgid ""
msgstr ""
"Language: zh\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "cell-1"
msgid "Hello"
msgstr "你好"
"""

BAD = {
    "an unterminated string": (GOOD.replace('msgstr "你好"', 'msgstr "你好'), 8, "cell-1", "syntax error"),
    "a stray line": (GOOD + "garbage\n", 9, "cell-1", "syntax error"),
    "a wrong encoding": (GOOD.replace("你好", "caf\udce9"), 8, None, "not UTF-8"),
    "a duplicate entry": (GOOD + '\nmsgctxt "cell-1"\nmsgid "Hello"\nmsgstr "您好"\n', 10, "cell-1", "duplicate"),
    "another charset": (GOOD.replace("UTF-8", "GB2312"), 1, None, "charset=UTF-8"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_translation_file_is_refused_in_one_line(tmp_path, case):
    text, line, context, problem = BAD[case]
    path = tmp_path / "bad.po"
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    with pytest.raises(catalog.TranslationFileError) as refused:
        catalog.read_po(path)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path}:{line}:") and problem in message
    assert (f"[msgctxt {context!r}]" in message) == (context is not None)


def fake_source(tmp_path, po_text: str, units: list[Unit]):
    po = tmp_path / "page.po"
    po.write_bytes(po_text.encode("utf-8", errors="surrogateescape"))
    source = sources.PageSource.__new__(sources.PageSource)
    source.name, source.context = "book/page.md", "page"
    source.units = lambda: units
    source.po_path = lambda lang: po
    return source, po


def test_status_reports_duplicates_field_mismatches_and_unreadable_files(tmp_path):
    units = [Unit("cell-1", "Hello", "paragraph"), Unit("m", "{n} of {total}", "message", flag="python-brace-format")]
    text = BAD["a duplicate entry"][0] + '\nmsgctxt "m"\nmsgid "{n} of {total}"\nmsgstr "{n} / {count}"\n'
    source, _ = fake_source(tmp_path, text, units)
    status = catalog.status(source, "zh")
    assert status.duplicate == [("cell-1", "Hello", "line 10 of the PO file")]
    assert status.invalid == [
        ("m", "{n} of {total}", "fields ['count', 'n'] in the msgstr, ['n', 'total'] in the msgid")
    ]
    assert status.count() == 2
    report = status.report("zh", source.name)
    assert report[0] == "zh: book/page.md: duplicate: [cell-1] Hello (line 10 of the PO file)"
    source, _ = fake_source(tmp_path, BAD["an unterminated string"][0], units)
    status = catalog.status(source, "zh")
    assert status.count() == 1 and "syntax error" in status.report("zh", source.name)[0]


def test_a_bad_file_is_never_rewritten_by_the_merge(tmp_path):
    source, po = fake_source(tmp_path, BAD["a wrong encoding"][0], [Unit("cell-1", "Hello", "paragraph")])
    before = po.read_bytes()
    with pytest.raises(catalog.TranslationFileError, match="not UTF-8"):
        catalog.update(source, "zh")
    assert po.read_bytes() == before


def test_the_committed_files_read_strictly_and_hold_no_fuzzy_or_empty_entry():
    for path in PO_FILES:
        po = catalog.read_po(path)
        assert not [e.msgid[:40] for e in po if not e.obsolete and ("fuzzy" in e.flags or not e.msgstr)], path
        assert isinstance(po, polib.POFile)


def test_each_edition_is_named_in_its_own_language_once():
    """The language switch names each edition in its own language (中文, Français, never "Chinese"): the names are
    in ``locale/editions.toml``, one per edition, not a translated string a translator could get wrong."""
    names = {code: paths.name(code) for code in paths.editions()}
    assert names[paths.ENGLISH] == "English"
    assert len(set(names.values())) == len(names), names
    for code in paths.translations():
        assert names[code].lower() not in {"english", "chinese", "french", "german"}, names
        assert pathlib.Path(ROOT / code).is_dir() or not paths.complete(code)


def test_a_wrong_edition_list_is_one_clear_error(tmp_path):
    (tmp_path / "xx" / "LC_MESSAGES").mkdir(parents=True)
    cases = {
        '[en]\nname = "English"\nstatus = "source"\n': "translation folders not listed: xx",
        '[en]\nname = "English"\nstatus = "source"\n[xx]\nname = "X"\nstatus = "done"\n': "status must be",
        '[en]\nname = "English"\nstatus = "source"\n[xx]\nstatus = "complete"\n': "needs a name",
        '[xx]\nname = "X"\nstatus = "complete"\n': "the first edition must be [en]",
        '[en\nname = "English"\n': "editions.toml",
        'en = "English"\n': "the first edition must be [en]",  # not a table: was an AttributeError
        '[en]\nname = ["English"]\nstatus = "source"\n': "needs a name",  # a list is no name: was accepted
    }
    for text, message in cases.items():
        listed = tmp_path / "editions.toml"
        listed.write_text(text, encoding="utf-8")
        with pytest.raises(paths.EditionsError, match=re.escape(message)):
            paths._listed(listed)


@pytest.mark.parametrize("code", ["..", ".", "../x", "zh/..", "zh/notebooks", "x", "zh "])
def test_an_edition_code_the_editions_command_refuses_is_refused_by_the_list_too(tmp_path, monkeypatch, capsys, code):
    """One rule (paths.LANGUAGE_CODE) for a code in ``locale/editions.toml`` and for ``--lang``: ``".."`` (with a
    folder ``locale/../LC_MESSAGES`` there) was listed, and ``paths folders`` sent ``../book`` to pytest."""
    from attention_workshop.editions import cli

    locale = tmp_path / "repo" / "locale"
    (locale / code / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    listed = locale / "editions.toml"
    listed.write_text(
        f'[en]\nname = "English"\nstatus = "source"\n["{code}"]\nname = "X"\nstatus = "complete"\n', encoding="utf-8"
    )
    with pytest.raises(paths.EditionsError, match=re.escape(f"[{code!r}] is not a language code")):
        paths._listed(listed)
    assert not paths.LANGUAGE_CODE.fullmatch(code) and cli.LANGUAGE_CODE is paths.LANGUAGE_CODE
    monkeypatch.setattr(paths, "LOCALE", locale)
    assert paths.main(["folders"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("python -m attention_workshop.paths: error: ")
