"""Build every edition of the book with warnings as errors: English into OUT/_build/html, each other edition
(generated into <language>/ by attention_workshop.editions) into OUT/_build/html/<language>, with the same page names,
so the language switch links page to page.

    .venv/bin/python -m attention_workshop.build_book [OUT] [--site-url URL]   # OUT: the repository (_build/html)

Then the site is finished for publishing (:func:`attention_workshop.ae_seo.publish`): the Chinese edition loads the
files it shares with the English from the English folders, every page gets its canonical address and every
edition's alternate, the site's root ``sitemap.xml`` and ``robots.txt`` (with the site's public address:
``--site-url``, ``make book SITE_URL=...``, ``AE_SITE_URL`` or ``html: baseurl:`` in ``_config.yml``; without one
the build says in one line what it left out), and every text file a ``.gz`` and ``.br`` copy.

`make book` runs this; the tests' `book_build` fixture runs it into a temporary folder. Exit status non-zero
if either build fails; the log of both builds goes to standard output. Before either starts, every edition's
notebooks are read as the build's reader reads them (:func:`attention_workshop.portable.problems`): a lesson with a
construct half written (a ``<details>`` never closed) is one line on stderr naming the file, cell and line, and
nothing is built.
"""

from __future__ import annotations

import html as html_lib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from attention_core import files
from attention_workshop import ae_seo, portable
from attention_workshop.command import OneLineParser, run
from attention_workshop.paths import ENGLISH, ROOT, editions, notebooks

PROG = "python -m attention_workshop.build_book"


def build(out: pathlib.Path, site_url: str | None = None) -> tuple[int, str]:
    """Build every edition under ``out`` and finish the site (:func:`attention_workshop.ae_seo.publish`, with the
    address ``site_url``, or :func:`~attention_workshop.ae_seo.site_address`'s when None); return (exit status,
    combined log).

    The editions are built at the same time, one Sphinx process each (:class:`Edition`): each is a program
    of its own that uses one core, and a build of the three one after the other left the second core idle (three
    editions: about 40 CPU-seconds, 2 minutes one after the other on a busy two-core machine). Each edition's
    pages go into ``_build/html`` (English) or ``_build/html/<language>`` once all of them are built."""
    html = out / "_build" / "html"
    site_url = ae_seo.site_address(site_url)
    env = {**os.environ, ae_seo.ENV: site_url}  # every edition's build reads the address (ae_seo._settings)
    builds = [(lang, Edition(source(lang), edition_output(out, lang), env=env)) for lang in editions()]
    logs, code = [], 0
    for lang, edition in builds:
        returncode, log = edition.wait()
        logs.append(log)
        code = code or returncode
        built = edition_output(out, lang) / "_build" / "html"
        if lang != ENGLISH and built.exists() and html.exists():
            shutil.rmtree(html / lang, ignore_errors=True)
            shutil.copytree(built, html / lang)
    if code == 0 and html.exists():
        logs.extend(ae_seo.publish(html, site_url))
    return code, "\n".join(logs)


FLAGS = ("-W", "-n", "--keep-going")  # warnings are errors, missing references too; every warning reported


def source(lang: str) -> pathlib.Path:
    """An edition's sources: the repository for English, else its generated folder ``<language>/``."""
    return ROOT if lang == ENGLISH else ROOT / lang


def edition_output(out: pathlib.Path, lang: str) -> pathlib.Path:
    """Where an edition is built: ``out`` itself for English (its pages in ``out/_build/html``), else
    ``out/_build/<language>-edition`` (copied into ``_build/html/<language>`` when built)."""
    return out if lang == ENGLISH else out / "_build" / f"{lang}-edition"


class Edition:
    """Jupyter Book building the edition at ``source`` (its ``_config.yml`` and ``_toc.yml``) into
    ``out/_build/html``, started at once; :meth:`wait` waits for it and gives its exit status and log. Its output
    goes to temporary files, not pipes: a process whose pipe is full stops until it is read, and the others are
    read first."""

    def __init__(self, source: pathlib.Path, out: pathlib.Path, flags=FLAGS, env: dict | None = None):
        self.source, self.out = source, out
        jb = pathlib.Path(sys.executable).parent / "jupyter-book"
        command = [str(jb), "build", str(source), "--path-output", str(out), *flags]
        self.stdout, self.stderr = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(command, stdout=self.stdout, stderr=self.stderr, text=True, env=env)

    def wait(self) -> tuple[int, str]:
        """Wait for the build; complete its ``index.html`` (:func:`complete_redirect`); its exit status and log."""
        code = self.process.wait()
        complete_redirect(self.out / "_build" / "html", self.source)
        log = []
        for stream in (self.stdout, self.stderr):
            stream.seek(0)
            log.append(stream.read())
            stream.close()
        return code, "".join(log)


def yaml_load(path: pathlib.Path) -> dict:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _config(folder: pathlib.Path) -> dict:
    return yaml_load(folder / "_config.yml")


def complete_redirect(html: pathlib.Path, source: pathlib.Path) -> None:
    """Jupyter Book writes an edition's ``index.html`` (in ``html``) as a bare meta refresh to the root page of its
    ``_toc.yml`` (at ``source``); write it as a small page with its language, a title, a link for readers without
    redirects, and an empty inline icon (so the browser neither asks for a missing /favicon.ico nor starts a request
    that the redirect aborts). Written whole every time, from the edition's configuration, never by editing the page
    found: a build with nothing to do leaves the page the last build wrote, which the site's extension had edited
    again (it then kept an edit a clean build does not make)."""
    page = html / "index.html"
    if not page.exists():
        return
    config = _config(source)
    lang = str(config["sphinx"]["config"].get("language", ENGLISH)).replace("_", "-")
    title = html_lib.escape(str(config["title"]).split(" · ")[0])
    root = yaml_load(source / "_toc.yml")["root"]
    target = html_lib.escape(f"{root}.html")
    files.write_text(
        page,
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
        '<link rel="icon" href="data:,">'
        f'<meta http-equiv="Refresh" content="0; url={target}"></head>'
        f'<body><p><a href="{target}">{title}</a></p></body></html>\n',
    )


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument(
        "out", nargs="?", type=pathlib.Path, default=ROOT, help="where _build/html goes (default: here)"
    )
    parser.add_argument(
        "--site-url",
        default=None,
        help="the website's public address (default: AE_SITE_URL, else html: baseurl: in _config.yml)",
    )
    args = parser.parse_args(argv)
    out = args.out.resolve()
    if out.exists() and not out.is_dir():
        parser.error(f"{out} is not a folder")
    try:  # jupyter-book would fail inside both builds, with a traceback each
        (out / "_build").mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=out / "_build").close()
    except OSError as error:
        parser.error(f"{out}: cannot write the build there ({error.strerror or error})")
    try:
        site_url = ae_seo.site_address(args.site_url)
    except ValueError as error:
        parser.error(str(error))
    unreadable = portable.problems(notebooks())  # raised in Sphinx's reader: 88 lines, 3 tracebacks, no file named
    if unreadable:
        for line in unreadable:
            print(f"{PROG}: error: {line}; nothing built", file=sys.stderr)
        return 1
    code, log = build(out, site_url)
    print(log)
    return code


if __name__ == "__main__":
    sys.exit(run(main, PROG))
