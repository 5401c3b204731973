"""Build both editions of the book with warnings as errors: English into OUT/_build/html, Chinese into
OUT/_build/html/zh (from zh/, same page names, so the language switch links page to page).

    .venv/bin/python scripts/build_book.py [OUT]      # OUT defaults to the repository (so _build/html)

`make book` runs this; the tests' `book_build` fixture runs it into a temporary folder. Exit status non-zero
if either build fails; the log of both builds goes to standard output.
"""

from __future__ import annotations

import pathlib
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
    return code, "\n".join(logs)


def main() -> None:
    out = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    code, log = build(out)
    print(log)
    sys.exit(code)


if __name__ == "__main__":
    main()
