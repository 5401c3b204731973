"""The editions command line protects the sources (attention_workshop.editions.cli, issue 27 item 5).

``--lang`` must name a translated edition (``locale/<lang>/LC_MESSAGES/``), never the English source; a translation
that is more than text, an unreadable translation file or a generated cell Python cannot read stops ``generate``
before it writes anything; nothing is ever written outside the edition's folder. Every bad input is one line on
stderr with exit status 2 (the command line) or 1 (a translation). The generator runs in-process on a copy of the
repository's sources in a temporary folder (``paths.ROOT`` and its copies patched), so "nothing written" is checked
on every file of that folder and its parent.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import sys

import polib
import pytest

from attention_core import files
from attention_workshop import paths
from attention_workshop.editions import cli, code, sources
from tests.helpers import ROOT

PROG = "python -m attention_workshop.editions"
COPIED = ("notebooks", "book", "locale", "zh", "fr", "_config.yml", "_toc.yml")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> pathlib.Path:
    """One copy of the sources, translations and edition per test file (and of the package's messages)."""
    copy = tmp_path_factory.mktemp("pristine") / "repo"
    copy.mkdir()
    for name in COPIED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"))
        else:
            shutil.copy2(ROOT / name, copy / name)
    package = sources.PackageSource()
    shutil.copy2(package.po_path("zh"), copy / "package.po")
    return copy


def _take_for_the_repository(copy: pathlib.Path, monkeypatch) -> pathlib.Path:
    """Every ``ROOT`` and ``LOCALE`` of the workshop's loaded modules points at ``copy``, and the package's
    messages (which live in ``src/attention_core``) at its ``package.po``: nothing reaches the real files."""
    real_root, real_locale = paths.ROOT, paths.LOCALE
    for name, module in list(sys.modules.items()):
        if name.startswith("attention_workshop"):
            if getattr(module, "ROOT", None) == real_root:
                monkeypatch.setattr(module, "ROOT", copy)
            if getattr(module, "LOCALE", None) == real_locale:
                monkeypatch.setattr(module, "LOCALE", copy / "locale")
    monkeypatch.setattr(sources.PackageSource, "po_path", lambda self, lang: copy / "package.po")
    return copy


@pytest.fixture
def repo(pristine, tmp_path, monkeypatch) -> pathlib.Path:
    """A copy of :func:`pristine` of this test's own, taken for the repository."""
    shutil.copytree(pristine, tmp_path / "repo", symlinks=True)
    return _take_for_the_repository(tmp_path / "repo", monkeypatch)


@pytest.fixture
def shared(pristine, monkeypatch) -> pathlib.Path:
    """:func:`pristine` itself taken for the repository, for a test that must write nothing (and checks it)."""
    return _take_for_the_repository(pristine, monkeypatch)


def snapshot(folder: pathlib.Path) -> dict[str, str]:
    """Every file under ``folder`` (and every link) with a hash of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[str(path)] = "link to " + os.readlink(path)
        elif path.is_file():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def one_line(text: str) -> str:
    assert text.count("\n") == 1 and text.endswith("\n"), text
    return text.rstrip("\n")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``main(argv)``: its exit status (an argument error's too), stdout and stderr."""
    try:
        status = cli.main(argv)
    except SystemExit as stop:
        status = stop.code
    out = capsys.readouterr()
    return status, out.out, out.err


# ----------------------------------------------------------------------------------------------- --lang
BAD_LANGUAGES = {
    ".": "not a language code",
    "": "not a language code",
    "en": "English is the source language",
    "../x": "not a language code",
    "zh/..": "not a language code",
    "de": "locale/de/LC_MESSAGES/ does not exist",
    "zh/notebooks": "not a language code",
    "/tmp/x": "not a language code",
}


@pytest.mark.parametrize("command", ["generate", "update", "status"])
@pytest.mark.parametrize("lang", list(BAD_LANGUAGES))
def test_a_bad_language_is_one_line_status_2_and_nothing_written(shared, capsys, command, lang):
    repo = shared
    before = snapshot(repo.parent)
    status, out, err = run([command, "--lang", lang], capsys)
    assert status == 2 and out == ""
    line = one_line(err)
    assert line.startswith(f"{PROG}: error: --lang {lang!r}: ") and BAD_LANGUAGES[lang] in line, line
    assert line.endswith(f"translated editions: {', '.join(cli.translations())}")
    assert snapshot(repo.parent) == before


def test_a_locale_folder_for_english_is_refused(repo, capsys):
    (repo / "locale" / "en" / "LC_MESSAGES").mkdir(parents=True)
    before = snapshot(repo.parent)
    status, _, err = run(["generate"], capsys)
    assert status == 2 and "English is the source language" in one_line(err)
    assert snapshot(repo.parent) == before


def test_generate_writes_only_inside_the_edition_folder(repo, capsys):
    for path in (repo / "zh").rglob("*.md"):
        path.write_text("edited by hand\n", encoding="utf-8")  # to be regenerated
    before = snapshot(repo.parent)
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    assert (status, err) == (0, ""), err
    after = snapshot(repo.parent)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    assert changed and all(
        pathlib.Path(p).is_relative_to(repo / "zh") or pathlib.Path(p).is_relative_to(repo / "_build") for p in changed
    ), changed
    assert all(line.startswith("zh: zh/") for line in out.splitlines()), out


def test_an_edition_folder_that_leads_elsewhere_is_refused(repo, capsys):
    shutil.rmtree(repo / "zh")
    (repo / "zh").symlink_to(repo / "notebooks", target_is_directory=True)
    before = snapshot(repo.parent)
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    assert status == 1 and out == ""
    line = one_line(err)
    assert line.startswith(f"{PROG}: zh not generated: zh/ leads to ") and "not to the edition's own folder" in line
    assert snapshot(repo.parent) == before


# ----------------------------------------------------------------------------------------------- bad translations
def _an_fstring_entry(repo: pathlib.Path) -> tuple[sources.NotebookSource, str, str, int]:
    """(source, msgctxt, msgid, number of fields) of the first translated f-string entry with two fields."""
    for source in sources.sources():
        if not isinstance(source, sources.NotebookSource):
            continue
        translation = source.translation("zh")
        for unit in source.units():
            fields = unit.msgid.count("{") - 2 * unit.msgid.count("{{")
            if unit.kind == "string" and fields == 2 and translation(unit.context, unit.msgid):
                return source, unit.context, unit.msgid, fields
    raise AssertionError("no translated f-string with two fields")  # pragma: no cover


def _a_comment_entry(repo: pathlib.Path) -> tuple[sources.NotebookSource, str, str]:
    for source in sources.sources():
        if isinstance(source, sources.NotebookSource):
            translation = source.translation("zh")
            for unit in source.units():
                if unit.kind == "comment" and translation(unit.context, unit.msgid):
                    return source, unit.context, unit.msgid
    raise AssertionError("no translated comment")


def _set_msgstr(path: pathlib.Path, context: str, msgid: str, msgstr: str) -> None:
    po = polib.pofile(str(path), wrapwidth=0)
    entry = next(e for e in po if e.msgctxt == context and e.msgid == msgid and not e.obsolete)
    entry.msgstr = msgstr
    po.save(str(path))


BAD_FSTRINGS = {  # a translation of an f-string with fields {0} and {1} -> the offending field
    "{0} {1} {__import__('os').system('touch x')}": "{__import__('os').system('touch x')}",
    "{0} {1} }": "}",
    "{0} {1} {": "{",
    "{1} 只有一个": "{0}",
    "{0} {0} {1}": "{0}",
    "{0!r} {1}": "{0!r}",
    "{0:>8} {1}": "{0:>8}",
    "{0}\n{1}": "\n",
}


@pytest.mark.parametrize("translation", list(BAD_FSTRINGS))
def test_a_translation_that_is_code_stops_generate_in_one_line(repo, capsys, translation):
    source, context, msgid, _ = _an_fstring_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, translation)
    before = snapshot(repo.parent)
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    assert status == 1 and out == ""
    line = one_line(err)
    assert line.startswith(f"{PROG}: zh not generated: {source.name}: [{context}] "), line
    assert f"refused {BAD_FSTRINGS[translation]!r}: " in line, line
    assert snapshot(repo.parent) == before


def test_status_lists_a_refused_translation(repo, capsys):
    source, context, msgid, _ = _an_fstring_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, "{0} {1} {x}")
    status, out, _ = run(["status", "--lang", "zh"], capsys)
    assert status == 1
    assert f"zh: {source.name}: [{context}] {cli._one_line(msgid)}: refused '{{x}}': not a placeholder" in out


def test_a_comment_with_a_line_break_stops_generate(repo, capsys):
    source, context, msgid = _a_comment_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, "注释\nimport os")
    before = snapshot(repo.parent)
    status, _, err = run(["generate", "--lang", "zh"], capsys)
    line = one_line(err)
    assert status == 1 and f"{source.name}: [{context}] " in line and "a comment is one line" in line
    assert snapshot(repo.parent) == before


def test_a_broken_translation_file_stops_generate_in_one_line(repo, capsys):
    source, *_ = _an_fstring_entry(repo)
    po = source.po_path("zh")
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgctxt "x"\nmsgid "unterminated\n', encoding="utf-8")
    broken = po.read_bytes()
    before = snapshot(repo.parent)
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    line = one_line(err)
    assert status == 1 and out == "" and line.startswith(f"{PROG}: zh not generated: locale/zh/LC_MESSAGES/")
    assert snapshot(repo.parent) == before
    status, out, _ = run(["update", "--lang", "zh"], capsys)
    assert status == 1 and po.read_bytes() == broken  # update leaves a file it cannot read as it is


NOT_A_FILE = {  # how a translation file is replaced -> what its line says
    "folder": "is a folder (or another kind of file), not a translation file",
    "dangling link": "a link to ",  # ... which does not exist (or loops)
    "looping link": "which does not exist (or loops)",
    "file for its folder": "cannot be there: locale/zh/LC_MESSAGES/notebooks is a file, not a folder",
}


def _not_a_file(po: pathlib.Path, kind: str) -> None:
    po.unlink()
    if kind == "folder":
        po.mkdir()
    elif kind == "dangling link":
        po.symlink_to(po.parent / "elsewhere.po")  # update would have written the merged file there
    elif kind == "file for its folder":  # every lesson's translation file read as absent: an English edition
        shutil.rmtree(po.parent)
        po.parent.write_text("not a folder\n", encoding="utf-8")
    else:
        po.symlink_to(po)


def _inner_loop(command: str, kind: str) -> tuple:
    """`make check` reads each kind of file through generate (the command that writes an edition) and a folder
    through update (which merges every other file); the other pairs, the same reading of the file by other
    commands, are `make test`'s (``slow``: about 0.45 CPU-seconds each)."""
    return () if command == "generate" or (command, kind) == ("update", "folder") else (pytest.mark.slow,)


@pytest.mark.parametrize(
    "command, kind",
    [pytest.param(c, k, marks=_inner_loop(c, k)) for k in NOT_A_FILE for c in ("update", "status", "generate")],
)
def test_a_translation_file_that_is_a_folder_or_a_broken_link_is_one_line_and_nothing_is_written(
    repo, capsys, kind, command
):
    """Neither a traceback (a folder) nor an absent file (a link to nowhere): status would call every entry
    missing, generate would write an English edition and update would write the merged file where the link
    leads."""
    from attention_workshop.command import run as run_command

    po = repo / "locale" / "zh" / "LC_MESSAGES" / "notebooks" / "05_additive_score.po"
    _not_a_file(po, kind)
    before = snapshot(repo.parent)
    status = run_command(lambda: cli.main([command, "--lang", "zh"]), PROG)
    out, err = capsys.readouterr()
    said = [line for line in (out + err).splitlines() if "05_additive_score" in line]
    assert status == 1 and len(said) == (2 if command == "update" else 1), out + err  # update: not merged, status
    assert all("locale/zh/LC_MESSAGES/notebooks/05_additive_score.po: " in line for line in said)
    assert all(NOT_A_FILE[kind] in line for line in said)
    assert "Traceback" not in err
    if command != "update":  # update merges every other file
        assert snapshot(repo.parent) == before
    assert not (po.parent / "elsewhere.po").exists()


def test_a_generated_cell_python_cannot_read_stops_generate(repo, capsys, monkeypatch):
    """The last guard, whatever let the code through: every generated cell is parsed before anything is
    written. Here the writer forgets to escape quotes."""
    source, context, msgid, fields = _an_fstring_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, " ".join(f"{{{n}}}" for n in range(fields)) + ' "引号')
    monkeypatch.setattr(code, "_escape", lambda text, quote, fstring: text)
    before = snapshot(repo.parent)
    status, _, err = run(["generate", "--lang", "zh"], capsys)
    line = one_line(err)
    assert status == 1 and f"zh not generated: {source.name}: [{context}] '" in line, line
    assert "the generated code does not parse: " in line and "(line " in line
    assert snapshot(repo.parent) == before


def test_a_full_disk_while_writing_is_one_line_and_status_1(repo, capsys, monkeypatch):
    for path in (repo / "zh").rglob("*.md"):
        path.unlink()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "write_text", full)
    status, _, err = run(["generate", "--lang", "zh"], capsys)
    assert status == 1 and one_line(err).startswith(f"{PROG}: zh: could not write zh/")
    assert "No space left on device" in err


# ----------------------------------------------------------------------------------------------- output
class FailingOutput(io.StringIO):
    """A stdout whose every write fails as a closed pipe or a full disk does."""

    def __init__(self, error: OSError):
        super().__init__()
        self.error = error

    def write(self, text):
        raise self.error

    def fileno(self):
        raise io.UnsupportedOperation("no file descriptor")


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (BrokenPipeError(errno.EPIPE, "Broken pipe"), ""),  # the reader stopped reading: quiet (command.run)
        (OSError(errno.ENOSPC, "No space left on device"), f"{PROG}: error: could not write the output: "),
    ],
)
def test_a_closed_pipe_or_a_full_disk_on_the_output_is_one_line_at_most_and_every_file_written(
    repo, capsys, monkeypatch, error, expected
):
    from attention_workshop.command import run as run_command

    pages = sorted((repo / "zh").rglob("*.md"))
    for path in pages:
        path.write_text("edited by hand\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", FailingOutput(error))
    status = run_command(lambda: cli.main(["generate", "--lang", "zh"]), PROG)
    err = capsys.readouterr().err
    assert status == 1 and (err == "" if not expected else one_line(err).startswith(expected)), err
    assert all(path.read_text(encoding="utf-8") != "edited by hand\n" for path in pages)  # written before the report


def test_without_lang_every_translated_edition():
    assert "en" not in cli.translations()
    assert cli.languages(cli._parser(), None) == cli.translations() != []


def test_an_edition_in_progress_reports_its_share_and_shows_english_where_untranslated(repo, capsys):
    """Missing entries fail a complete edition; an edition in progress reports how much is translated, lands, and
    shows the English block in place of each missing one."""
    po_path = repo / "locale" / "zh" / "LC_MESSAGES" / "notebooks" / "05_additive_score.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    emptied = [e for e in po if not e.obsolete and e.comment == "paragraph"][:3]  # no equation placeholder
    for entry in emptied:
        entry.msgstr = ""
    po.save(str(po_path))
    status, out, _ = run(["status", "--lang", "zh"], capsys)
    assert status == 1 and out.count(": missing: ") == 3
    listed = repo / "locale" / "editions.toml"
    listed.write_text(listed.read_text(encoding="utf-8").replace('status = "complete"', 'status = "in progress"', 1))
    assert not paths.complete("zh")
    status, out, _ = run(["status", "--lang", "zh"], capsys)
    assert status == 0 and ": missing: " not in out, out
    share = [line for line in out.splitlines() if line.startswith("zh (in progress): ")]
    assert share and " entries translated (" in share[0], out
    assert run(["generate", "--lang", "zh"], capsys)[0] == 0
    generated = (repo / "zh" / "notebooks" / "05_additive_score.ipynb").read_text(encoding="utf-8")
    assert all(e.msgid.split("\n")[0].replace('"', '\\"') in generated for e in emptied)


def test_every_page_of_an_edition_in_progress_says_how_much_is_translated(monkeypatch):
    from attention_workshop import ae_lang

    monkeypatch.setattr(ae_lang, "complete", lambda code: code != "zh")
    monkeypatch.setattr(ae_lang, "_completeness", lambda code: (1234, 1920))
    bar = ae_lang._link("zh", "notebooks/05_additive_score")
    assert 'class="ae-in-progress" role="note"' in bar and "1234" in bar and "1920" in bar
    assert "ae-in-progress" not in ae_lang._link("en", "notebooks/05_additive_score")


# ----------------------------------------------------------------------------------------------- what is owed
def _owed(lang: str = "zh") -> dict[str, str]:
    return {path.relative_to(paths.ROOT).as_posix(): why for path, why in sources.owed(lang)}


def _executed_by_hand(monkeypatch) -> list[str]:
    """``attention_workshop.execute.main`` replaced by one that gives every code cell an execution count (what a
    real execution leaves), so ``execute`` runs in a second; the notebooks it was given, in order."""
    from attention_workshop import execute as executor

    done = []

    def execute(argv):
        path = pathlib.Path(argv[0])
        nb = json.loads(path.read_text(encoding="utf-8"))
        for n, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
            cell["execution_count"] = n + 1
        path.write_text(executor.dumps(nb), encoding="utf-8")
        done.append(path.relative_to(paths.ROOT).as_posix())
        return 0

    monkeypatch.setattr(executor, "main", execute)
    return done


def test_a_second_generate_forgets_no_notebook_that_owes_an_execution(repo, capsys, monkeypatch):
    """A changed code string: ``generate`` writes its notebook without outputs. A second ``generate`` (after a
    failed or skipped execution, here with a changed paragraph too) changes nothing of what is owed: it is read
    from the notebook itself. ``execute`` runs it, stamps it, and it is owed no more, until the package's messages
    it prints change."""
    assert _owed() == {}  # the committed edition: executed, each notebook stamped with what it was executed from
    source, context, msgid, _ = _an_fstring_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, "{1} 与 {0}")
    target = source.target("zh").relative_to(repo).as_posix()
    assert run(["generate", "--lang", "zh"], capsys)[:2] == (0, f"zh: {target}: code changed\n")
    assert _owed() == {target: "it has no outputs (generated with new code, not executed since)"}

    translated = source.translation("zh")
    paragraph = next(u for u in source.units() if u.kind == "paragraph" and translated(u.context, u.msgid))
    _set_msgstr(source.po_path("zh"), paragraph.context, paragraph.msgid, "改过的段落。")
    assert run(["generate", "--lang", "zh"], capsys)[:2] == (0, f"zh: {target}: text changed\n")
    assert run(["generate", "--lang", "zh"], capsys)[:2] == (0, "")
    assert list(_owed()) == [target]

    executed = _executed_by_hand(monkeypatch)
    status, out, _ = run(["execute", "--lang", "zh"], capsys)
    assert (status, executed) == (0, [target]) and out.startswith(f"zh: executing {target}: it has no outputs")
    assert _owed() == {} and run(["execute", "--lang", "zh"], capsys)[:2] == (0, "") and executed == [target]

    package = repo / "package.po"  # the package's messages, printed by every lesson's code
    po = polib.pofile(str(package), wrapwidth=0)
    entry = next(e for e in po if e.msgstr and not e.obsolete and "fuzzy" not in e.flags)
    entry.msgstr += "。"
    po.save(str(package))
    assert set(_owed().values()) == {"its code or the package's messages changed since it was executed"}
    assert len(_owed()) == sum(isinstance(s, sources.NotebookSource) for s in sources.sources())


def test_a_failed_execution_stops_and_leaves_the_notebook_owed(repo, capsys, monkeypatch):
    from attention_workshop import execute as executor

    source, context, msgid, _ = _an_fstring_entry(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, "{1} 与 {0}")
    assert run(["generate", "--lang", "zh"], capsys)[0] == 0
    monkeypatch.setattr(executor, "main", lambda argv: 1)  # a cell failed: execute said so and wrote nothing
    assert run(["execute", "--lang", "zh"], capsys)[0] == 1
    assert list(_owed()) == [source.target("zh").relative_to(repo).as_posix()]


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda data: data[: len(data) // 2], "not JSON: "),  # a write cut short
        (lambda data: b"", "not JSON: "),
        (lambda data: b"\xff" + data, "not UTF-8: "),
        (lambda data: b'{"cells": 3}', "not a notebook: "),
    ],
)
def test_a_half_written_generated_notebook_is_generated_again_in_one_line(repo, capsys, damage, problem):
    """A generated notebook is a product: one that cannot be read is written again from the English and its
    translation (no outputs, so it is owed an execution), with one line saying so; nothing else changes."""
    source = next(s for s in sources.sources() if isinstance(s, sources.NotebookSource))
    target = source.target("zh")
    target.write_bytes(damage(target.read_bytes()))
    before = {p: h for p, h in snapshot(repo).items() if p != str(target)}
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    shown = target.relative_to(repo).as_posix()
    assert status == 0 and err == "" and one_line(out).startswith(f"zh: {shown}: unreadable ({problem}"), out
    assert out.rstrip().endswith("): regenerated")
    assert sources.same_sources(json.loads(target.read_text(encoding="utf-8")), source.edition("zh"))
    assert {p: h for p, h in snapshot(repo).items() if p != str(target)} == before
    assert _owed() == {shown: "it has no outputs (generated with new code, not executed since)"}


# ----------------------------------------------------------------------------------------------- equation numbers
REFERENCE = re.compile(r"\[\((\d+)\)\]\([\w./-]*#(eq-[\w.:-]+)\)")
TAGGED = re.compile(r'<a id="(eq-[\w.:-]+)"></a>\s*\$\$\n(?:.*\n)*?\\tag\{(\d+)\}\n\$\$')


def _numbers(folder: pathlib.Path) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Every notebook's equation references (label -> the numbers shown, in order) and tags (label -> tag)."""
    shown, tags = {}, {}
    for path in sorted([*folder.glob("notebooks/*.ipynb"), *folder.glob("book/*.ipynb")]):
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        for match in REFERENCE.finditer(text):
            shown.setdefault(f"{path.name}:{match.group(2)}", []).append(int(match.group(1)))
        tags |= {label: int(tag) for label, tag in TAGGED.findall(text)}
    return shown, tags


@pytest.mark.slow  # the whole book through update, renumber, update, status and generate (about 6 CPU-s)
def test_an_equation_added_early_turns_no_entry_fuzzy_and_every_edition_follows(repo, capsys):
    """A labelled equation added before the first one of the book: ``renumber`` moves every later tag and reference
    of the English by one; ``update`` then leaves every translation file byte for byte as it was (no entry fuzzy,
    none new), and ``generate`` writes every edition with the English's new numbers."""
    from attention_workshop.execute import dumps

    assert run(["update"], capsys)[0] == 0  # the files as update writes them, before anything changes
    shown_before, tags_before = _numbers(repo)
    assert len(tags_before) > 20 and sum(map(len, shown_before.values())) > 80
    lesson = repo / "notebooks" / "01_reading_on_demand.ipynb"
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if '<a id="eq-toy-read"></a>' in "".join(c["source"]))
    added = '<a id="eq-added"></a>\n\n$$\na = b\n\\tag{1}\n$$\n\n<a id="eq-toy-read"></a>'
    cell["source"] = "".join(cell["source"]).replace('<a id="eq-toy-read"></a>', added).splitlines(keepends=True)
    lesson.write_text(dumps(nb), encoding="utf-8")
    translations = {p: p.read_bytes() for p in [*(repo / "locale").rglob("*.po"), repo / "package.po"]}

    status, out, err = run(["renumber"], capsys)
    assert status == 0 and err == "" and "notebooks/08_toward_the_next_structure.ipynb: equations renumbered" in out
    expected = {label: tag + 1 for label, tag in tags_before.items()} | {"eq-added": 1}
    assert _numbers(repo)[1] == expected
    assert run(["update"], capsys)[0] == 0
    changed = [str(p.relative_to(repo)) for p, data in translations.items() if p.read_bytes() != data]
    assert changed == [], f"renumbering changed translation files: {changed}"
    status, out, _ = run(["status"], capsys)
    assert status == 0 and out.count(": 0 missing, stale, unused") == 2, out
    assert run(["generate"], capsys)[0] == 0
    for edition in (repo, repo / "zh", repo / "fr"):
        shown, tags = _numbers(edition)
        assert tags == expected, edition
        assert {key: [expected[key.split(":")[1]]] * len(n) for key, n in shown_before.items()} == shown, edition


def test_renumber_refuses_a_reference_to_no_equation_and_writes_nothing(repo, capsys):
    lesson = repo / "notebooks" / "04_from_scores_to_weights.ipynb"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("#eq-softmax)", "#eq-softmaxx)", 1), encoding="utf-8")
    before = snapshot(repo)
    status, out, err = run(["renumber"], capsys)
    assert status == 1 and out == "" and snapshot(repo) == before
    assert one_line(err).startswith(f"{PROG}: not renumbered: notebooks/04_from_scores_to_weights.ipynb: [")
    assert "links to eq-softmaxx, which no equation of the book has" in err
    assert run(["renumber", "--lang", "zh"], capsys)[0] == 2


def _an_entry_with_equations(repo: pathlib.Path) -> tuple[sources.NotebookSource, str, str]:
    for source in sources.sources():
        if isinstance(source, sources.NotebookSource):
            for unit in source.units():
                if "{1}" in unit.msgid and unit.kind == "paragraph":
                    return source, unit.context, unit.msgid
    raise AssertionError("no paragraph with two equation references")  # pragma: no cover


@pytest.mark.parametrize("translation", ["只有 {0}", "{0} {1} {1}", "{0} {1} {7}", "{0} [(8)](#eq-softmax) {1}"])
def test_a_translation_with_other_equation_placeholders_is_invalid_and_stops_generate(repo, capsys, translation):
    source, context, msgid = _an_entry_with_equations(repo)
    _set_msgstr(source.po_path("zh"), context, msgid, translation)
    status, out, _ = run(["status", "--lang", "zh"], capsys)
    assert status == 1 and f"zh: {source.name}: invalid: [{context}] " in out
    before = snapshot(repo.parent)
    status, out, err = run(["generate", "--lang", "zh"], capsys)
    line = one_line(err)
    assert status == 1 and out == "" and line.startswith(f"{PROG}: zh not generated: {source.name}: "), line
    assert "refused " in line and ("equation placeholders" in line or "written out" in line), line
    assert snapshot(repo.parent) == before


def test_english_prose_that_reads_as_a_placeholder_is_one_line_naming_the_cell(repo, capsys):
    lesson = repo / "notebooks" / "04_from_scores_to_weights.ipynb"
    text = lesson.read_text(encoding="utf-8").replace("*soft attention*.", "*soft attention* {2}.", 1)
    lesson.write_text(text, encoding="utf-8")
    before, po = snapshot(repo.parent), lesson.parents[1] / "locale" / "zh" / "LC_MESSAGES" / "notebooks"
    for command in ("status", "generate", "update"):
        status, out, err = run([command, "--lang", "zh"], capsys)
        line = out.splitlines()[0] if command == "status" else one_line(err)
        assert status == 1 and "notebooks/04_from_scores_to_weights.ipynb: [a5482fd1] '{2}' in the prose" in line
        if command == "generate":
            assert snapshot(repo.parent) == before
    assert snapshot(po) == {p: h for p, h in before.items() if p.startswith(str(po))}  # its file left as it was


def test_execute_with_an_unreadable_package_translation_is_one_line(repo, capsys):
    (repo / "package.po").write_text('msgid "unterminated\n', encoding="utf-8")
    status, out, err = run(["execute", "--lang", "zh"], capsys)
    assert status == 1 and out == "" and one_line(err).startswith(f"{PROG}: zh: nothing executed: package.po:")
