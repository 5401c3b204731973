"""Build both editions of the book with warnings as errors: English into OUT/_build/html, Chinese into
OUT/_build/html/zh (from zh/, same page names, so the language switch links page to page).

    .venv/bin/python scripts/build_book.py [OUT]      # OUT defaults to the repository (so _build/html)

`make book` runs this; the tests' `book_build` fixture runs it into a temporary folder. Exit status non-zero
if either build fails; the log of both builds goes to standard output.
"""

from __future__ import annotations

import html as html_lib
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def build(out: pathlib.Path) -> tuple[int, str]:
    """Build both editions under ``out``; return (exit status, combined log)."""
    jb = pathlib.Path(sys.executable).parent / "jupyter-book"
    flags = ["-W", "-n", "--keep-going"]
    logs, code = [], 0
    english = subprocess.run(
        [str(jb), "build", str(ROOT), "--path-output", str(out), *flags], capture_output=True, text=True
    )
    logs.append(english.stdout + english.stderr)
    code = code or english.returncode
    zh_out = out / "_build" / "zh-edition"
    chinese = subprocess.run(
        [str(jb), "build", str(ROOT / "zh"), "--path-output", str(zh_out), *flags], capture_output=True, text=True
    )
    logs.append(chinese.stdout + chinese.stderr)
    code = code or chinese.returncode
    html, zh_html = out / "_build" / "html", zh_out / "_build" / "html"
    if zh_html.exists() and html.exists():
        shutil.rmtree(html / "zh", ignore_errors=True)
        shutil.copytree(zh_html, html / "zh")
    for page, lang in ((html / "index.html", "en"), (html / "zh" / "index.html", "zh-CN")):
        _complete_redirect(page, lang)
    return code, "\n".join(logs)


REDIRECT = re.compile(r'^\s*<meta http-equiv="Refresh" content="0; url=([^"]+)"\s*/?>\s*$')


def _complete_redirect(page: pathlib.Path, lang: str) -> None:
    """Jupyter Book writes each edition's index.html as a bare meta refresh; make it a small page with its
    language, a title, a link for readers without redirects, and an empty inline icon (so the browser neither asks
    for a missing /favicon.ico nor starts a request that the redirect aborts)."""
    if not page.exists():
        return
    match = REDIRECT.match(page.read_text(encoding="utf-8"))
    if not match:
        return
    target = html_lib.escape(match.group(1))
    title = "可执行的注意力" if lang.startswith("zh") else "Attention, executable"
    page.write_text(
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
        '<link rel="icon" href="data:,">'
        f'<meta http-equiv="Refresh" content="0; url={target}"></head>'
        f'<body><p><a href="{target}">{title}</a></p></body></html>\n',
        encoding="utf-8",
    )


def main() -> None:
    out = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    code, log = build(out)
    print(log)
    sys.exit(code)


if __name__ == "__main__":
    main()
