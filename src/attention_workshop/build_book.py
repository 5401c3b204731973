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
import re
import shutil
import subprocess
import sys
import tempfile

from attention_workshop import ae_seo, portable
from attention_workshop.command import OneLineParser, run
from attention_workshop.paths import ROOT, notebooks, translations

PROG = "python -m attention_workshop.build_book"


def build(out: pathlib.Path, site_url: str | None = None) -> tuple[int, str]:
    """Build every edition under ``out`` and finish the site (:func:`attention_workshop.ae_seo.publish`, with the
    address ``site_url``, or :func:`~attention_workshop.ae_seo.site_address`'s when None); return (exit status,
    combined log)."""
    jb = pathlib.Path(sys.executable).parent / "jupyter-book"
    flags = ["-W", "-n", "--keep-going"]
    logs, code = [], 0
    site_url = ae_seo.site_address(site_url)
    env = {**os.environ, ae_seo.ENV: site_url}  # every edition's build reads the address (ae_seo._settings)
    english = subprocess.run(
        [str(jb), "build", str(ROOT), "--path-output", str(out), *flags], capture_output=True, text=True, env=env
    )
    logs.append(english.stdout + english.stderr)
    code = code or english.returncode
    html = out / "_build" / "html"
    _complete_redirect(html / "index.html", "en", _title(ROOT))
    for lang in translations():
        edition_out = out / "_build" / f"{lang}-edition"
        run = subprocess.run(
            [str(jb), "build", str(ROOT / lang), "--path-output", str(edition_out), *flags],
            capture_output=True,
            text=True,
            env=env,
        )
        logs.append(run.stdout + run.stderr)
        code = code or run.returncode
        built = edition_out / "_build" / "html"
        if built.exists() and html.exists():
            shutil.rmtree(html / lang, ignore_errors=True)
            shutil.copytree(built, html / lang)
            _complete_redirect(html / lang / "index.html", _html_lang(lang), _title(ROOT / lang))
    if code == 0 and html.exists():
        logs.extend(ae_seo.publish(html, site_url))
    return code, "\n".join(logs)


def _config(folder: pathlib.Path) -> dict:
    import yaml

    return yaml.safe_load((folder / "_config.yml").read_text(encoding="utf-8"))


def _title(folder: pathlib.Path) -> str:
    return str(_config(folder)["title"]).split(" · ")[0]


def _html_lang(lang: str) -> str:
    return str(_config(ROOT / lang)["sphinx"]["config"].get("language", lang)).replace("_", "-")


REDIRECT = re.compile(r'^\s*<meta http-equiv="Refresh" content="0; url=([^"]+)"\s*/?>\s*$')


def _complete_redirect(page: pathlib.Path, lang: str, title: str) -> None:
    """Jupyter Book writes each edition's index.html as a bare meta refresh; make it a small page with its
    language, a title, a link for readers without redirects, and an empty inline icon (so the browser neither asks
    for a missing /favicon.ico nor starts a request that the redirect aborts)."""
    if not page.exists():
        return
    match = REDIRECT.match(page.read_text(encoding="utf-8"))
    if not match:
        return
    target = html_lib.escape(match.group(1))
    title = html_lib.escape(title)
    page.write_text(
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
        '<link rel="icon" href="data:,">'
        f'<meta http-equiv="Refresh" content="0; url={target}"></head>'
        f'<body><p><a href="{target}">{title}</a></p></body></html>\n',
        encoding="utf-8",
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
