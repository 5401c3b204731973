"""The command line: ``python -m attention_workshop.editions update|status|generate|execute|renumber [--lang LANG]``.

``--lang`` names a translated edition: a folder ``locale/<lang>/LC_MESSAGES/`` other than the English source's
(:func:`attention_workshop.paths.translations`); without it, every one. ``generate`` builds every file of an
edition in memory, refuses it whole if one translation is more than text (:mod:`.code`), one translation file is
unreadable (:class:`.catalog.TranslationFileError`) or one generated code cell does not parse, and writes the
edition only inside its folder ``<lang>/``; a generated notebook it cannot read (half written) is written again,
with one line saying so. ``execute`` runs the generated notebooks that owe it, read from the files themselves
(:func:`.sources.owed`: no outputs, or a stamp of other code or messages), so nothing is forgotten after a second
``generate`` or a failed execution. ``renumber`` numbers the English's equations (their ``\\tag{n}`` and the
``(n)`` of every reference) in the order of the table of contents; the editions take the numbers when generated.
Every problem is one line naming the file, the entry (msgctxt) and what is
wrong. Exit status: 0 done, 1 a translation problem (or a write or an execution that failed: nothing half-said), 2
a wrong command line.
"""

from __future__ import annotations

import json
import pathlib
import sys

from attention_core import files
from attention_workshop.command import OneLineParser
from attention_workshop.editions import code
from attention_workshop.editions.blocks import BlockError
from attention_workshop.editions.catalog import Status, Translation, TranslationFileError, status, update
from attention_workshop.editions.sources import (
    ConfigSource,
    NotebookSource,
    Source,
    owed,
    read_generated,
    sources,
    stamp,
)
from attention_workshop.paths import ENGLISH, LANGUAGE_CODE, ROOT, EditionsError, complete, translations

PROG = "python -m attention_workshop.editions"


def _parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "status", "generate", "execute", "renumber"))
    parser.add_argument(
        "--lang", action="append", metavar="LANG", help="only this edition (default: every folder of locale/)"
    )
    return parser


def languages(parser: OneLineParser, given: list[str] | None) -> list[str]:
    """The editions to work on: each must be a translated edition (``locale/<lang>/LC_MESSAGES/``), never the
    English source; anything else is a usage error (one line, exit status 2) before any file is read."""
    try:
        known = [lang for lang in translations() if lang != ENGLISH]
    except EditionsError as error:  # locale/editions.toml and the translation folders disagree
        parser.error(str(error))
    choose = f"translated editions: {', '.join(known) or 'none'}"
    for lang in given if given is not None else translations():
        if lang == ENGLISH:
            parser.error(
                f"--lang {lang!r}: English is the source language, edited by hand and never generated; {choose}"
            )
        if not LANGUAGE_CODE.fullmatch(lang):
            parser.error(f"--lang {lang!r}: not a language code (the name of a folder under locale/); {choose}")
        if lang not in known:
            parser.error(
                f"--lang {lang!r}: no translation files (locale/{lang}/LC_MESSAGES/ does not exist; CONTRIBUTING, "
                f"'Adding a language'); {choose}"
            )
    return list(dict.fromkeys(given if given is not None else known))


# ----------------------------------------------------------------------------------------------- problems
def _one_line(text: str, width: int = 60) -> str:
    """``text`` shortened to its first ``width`` characters on one line, quoted."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= width else flat[: width - 1] + "…")


def refused_entries(source: Source, lang: str, translation: Translation | None = None) -> list[str]:
    """One line per translation of a code string or comment of ``source`` that is more than text: it adds, drops
    or repeats a field or breaks a line (:func:`.code.check_translation`)."""
    lines: list[str] = []
    if isinstance(source, NotebookSource):
        translation = translation or source.translation(lang)
        notebook = json.loads(source.path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            if cell["cell_type"] != "code":
                continue
            cell_code = "".join(cell["source"])
            for lit, refused in code.refusals(cell_code, lambda text, c=cell["id"]: translation(c, text)):
                lines.append(f"{source.name}: [{cell['id']}] {_one_line(lit.text)}: refused {refused}")
    return lines


def unreadable_cells(
    source: NotebookSource, lang: str, edition: dict, translation: Translation | None = None
) -> list[str]:
    """One line per code cell of a generated notebook that Python cannot read, naming the entry whose translation
    breaks it (found by translating the cell's entries one at a time)."""
    lines = []
    english = {c["id"]: "".join(c["source"]) for c in json.loads(source.path.read_text(encoding="utf-8"))["cells"]}
    translation = translation or source.translation(lang)
    for cell in edition["cells"]:
        if cell["cell_type"] != "code":
            continue
        error = code.syntax_error("".join(cell["source"]))
        if error is None:
            continue
        where = f"{error.msg} (line {error.lineno})" if error.lineno else str(error)
        lit = code.culprit(english.get(cell["id"], ""), lambda text, c=cell["id"]: translation(c, text), lang)
        entry = f" {_one_line(lit.text)}" if lit is not None else ""
        lines.append(f"{source.name}: [{cell['id']}]{entry}: the generated code does not parse: {where}")
    return lines


# ----------------------------------------------------------------------------------------------- commands
def _print_status(lang: str) -> int:
    """Every problem of the edition's files, one line each, and a total. An edition in progress
    (``locale/editions.toml``) may lack translations: its missing and stale entries are counted, not listed, and
    are no problem; anything else is."""
    in_progress = not complete(lang)
    kinds = tuple(k for k in Status.KINDS if not (in_progress and k in Status.UNFINISHED))
    problems = translated = total = 0
    for source in sources():
        try:
            st = status(source, lang)
            refused = refused_entries(source, lang)
        except TranslationFileError as error:
            print(f"{lang}: {error}")
            problems += 1
            continue
        except BlockError as error:  # the English itself cannot be cut into entries
            print(f"{lang}: {source.name}: {error}")
            problems += 1
            continue
        for line in st.report(lang, source.name, kinds):  # missing, stale, unused, duplicate, invalid; unreadable
            print(line)
        for line in refused:
            print(f"{lang}: {line}")
        problems += st.count(kinds) + len(refused)
        translated, total = translated + st.translated, total + st.total
    if in_progress:
        share = f"{100 * translated / total:.0f} %" if total else "0 %"
        print(f"{lang} (in progress): {translated} of {total} entries translated ({share}); the rest show the English")
    kinds_said = (
        "unused, duplicate, invalid, refused or unreadable"
        if in_progress
        else "missing, stale, unused, refused or unreadable"
    )
    print(f"{lang}: {problems} {kinds_said} entr{'y' if problems == 1 else 'ies'}")
    return problems


def _update(lang: str) -> int:
    problems = 0
    for source in sources():
        try:
            update(source, lang)
        except TranslationFileError as error:  # the file is left as it is
            print(f"{PROG}: {lang}: not merged: {error}", file=sys.stderr)
            problems += 1
        except BlockError as error:  # the English itself cannot be cut into entries: the file is left as it is
            print(f"{PROG}: {lang}: not merged: {source.name}: {error}", file=sys.stderr)
            problems += 1
    return problems


def _targets(source: Source, lang: str) -> list[pathlib.Path]:
    return (
        [source.target(lang), ROOT / lang / "_toc.yml"] if isinstance(source, ConfigSource) else [source.target(lang)]
    )


def outside(lang: str, paths: list[pathlib.Path]) -> list[str]:
    """Why writing ``paths`` could land outside the edition's folder ``ROOT / lang``: the folder is not a real
    folder of that name in the repository (a link elsewhere), or a path leaves it once resolved (``..``, a link)."""
    folder, real = ROOT / lang, ROOT.resolve() / lang
    if folder.resolve() != real:
        return [f"{lang}/ leads to {folder.resolve()}, not to the edition's own folder {real}"]
    return [f"{p} leads outside the edition's folder {lang}/" for p in paths if not p.resolve().is_relative_to(real)]


def generate(lang: str) -> int:
    """Check every translation and build every file of the edition in memory, then write it; see the module's
    docstring. The cheap checks come first (the folder, each entry, each translation file); every cell is parsed
    once they pass."""
    generating = [s for s in sources() if s.generates]
    problems = outside(lang, [p for source in generating for p in _targets(source, lang)])
    translations, made = {}, {}
    for source in generating:
        try:
            translations[source.name] = source.translation(lang)  # an unreadable translation file is named here
        except TranslationFileError as error:
            problems.append(str(error))
            continue
        problems += refused_entries(source, lang, translations[source.name])
    for source in generating if not problems else []:
        translation = translations[source.name]
        try:
            made[source.name] = source.edition(lang, translation)
            if isinstance(source, ConfigSource):
                source.toc(lang, translation)
        except code.TranslationRefused as refused:  # one refused_entries did not see: named by its English
            problems.append(f"{source.name}: {_one_line(refused.msgid)}: refused {refused}")
            continue
        except BlockError as error:  # the English itself cannot be cut into entries
            problems.append(f"{source.name}: {error}")
            continue
        if isinstance(source, NotebookSource):
            problems += unreadable_cells(source, lang, made[source.name], translation)
    if problems:
        for line in problems:
            print(f"{PROG}: {lang} not generated: {line}", file=sys.stderr)
        return 1
    report = []
    for source in generating:
        try:
            what = source.write(lang, made[source.name])
        except OSError as error:
            print(
                f"{PROG}: {lang}: could not write {source.target(lang).relative_to(ROOT)}: {error.strerror or error}",
                file=sys.stderr,
            )
            return 1
        if what != "unchanged":
            said = f"{what} changed" if what in ("text", "code") else what
            report.append(f"{lang}: {source.target(lang).relative_to(ROOT)}: {said}")
    for line in report:  # printed once every file is written: a closed pipe cannot stop the writing halfway
        print(line)
    return 0


def execute(lang: str) -> int:
    """Execute every generated notebook of ``lang`` that owes it (:func:`.sources.owed`: no outputs, or outputs
    computed from other code or other package messages), one at a time with ``attention_workshop.execute``, and
    stamp each right after its execution with what its outputs were computed from. The first failure stops the
    command (that notebook is left as it was and still owed; those executed before it are stamped)."""
    from attention_workshop import execute as executor

    try:
        due = owed(lang)
    except TranslationFileError as error:  # the package's messages, part of what the outputs are computed from
        print(f"{PROG}: {lang}: nothing executed: {error}", file=sys.stderr)
        return 1
    for path, why in due:
        shown = path.relative_to(ROOT).as_posix()
        if read_generated(path)[0] is None:
            print(f"{PROG}: {lang}: {shown} cannot be executed: {why}", file=sys.stderr)
            return 1
        print(f"{lang}: executing {shown}: {why}", flush=True)
        status = executor.main([str(path)])
        if status:
            return status
        stamp(path, lang)
    return 0


def renumber() -> int:
    """Number the English's labelled equations in the order of the table of contents (as the book's build does,
    :func:`attention_workshop.portable.equation_labels`) and write each lesson whose ``\\tag{n}`` or references
    ``[(n)](...#eq-...)`` change (:func:`attention_workshop.portable.renumbered`). Only the English changes: an
    edition's references are placeholders in its translation files, filled from the English when it is generated.
    A reference to no equation, or a label given twice, is one line, and nothing is written."""
    from attention_workshop.build_pdf import toc
    from attention_workshop.editions.markdown import _lines
    from attention_workshop.execute import dumps
    from attention_workshop.portable import PortableError, equation_labels, renumbered

    documents = []  # (path, notebook or None for a page, its Markdown texts)
    for _, name in toc(ROOT):
        path = next(ROOT / f"{name}{suffix}" for suffix in (".ipynb", ".md") if (ROOT / f"{name}{suffix}").exists())
        if path.suffix == ".ipynb":
            nb = json.loads(path.read_text(encoding="utf-8"))
            documents.append((path, nb, ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]))
        else:  # a page: its equations count, its references are MyST roles, which Sphinx numbers
            documents.append((path, None, [path.read_text(encoding="utf-8")]))
    labels = [label for _, _, texts in documents for text in texts for label in equation_labels(text)]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        print(f"{PROG}: not renumbered: equation labels given twice: {', '.join(twice)}", file=sys.stderr)
        return 1
    numbers = {label: n for n, label in enumerate(labels, 1)}
    changed = []
    for path, nb, _ in documents:
        for cell in nb["cells"] if nb is not None else []:
            if cell["cell_type"] != "markdown":
                continue
            try:
                new = renumbered("".join(cell["source"]), numbers)
            except PortableError as error:
                print(f"{PROG}: not renumbered: {path.relative_to(ROOT)}: [{cell['id']}] {error}", file=sys.stderr)
                return 1
            if new != "".join(cell["source"]):
                cell["source"] = _lines(new)
                changed += [(path, nb)] if (path, nb) not in changed else []
    for path, nb in changed:
        files.write_text(path, dumps(nb))
        print(f"{path.relative_to(ROOT)}: equations renumbered")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "renumber":
        if args.lang is not None:
            parser.error("renumber numbers the English's equations (each edition takes them when generated): no --lang")
        return renumber()
    problems = 0
    for lang in languages(parser, args.lang):
        if args.command == "update":
            problems += _update(lang)
        if args.command in ("update", "status"):
            problems += _print_status(lang)
        elif args.command == "generate":
            problems += generate(lang)
        elif args.command == "execute":
            problems += execute(lang)
    return 1 if problems else 0
