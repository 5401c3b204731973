"""The JavaScript the site tests run in the pages lives in tests/site/js/, one function a file, loaded by
``js(name)`` in tests/site/conftest.py; none is left in a Python string there. No browser needed."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess

import pytest

from tests.helpers import ROOT

SITE = ROOT / "tests" / "site"
FILES = sorted((SITE / "js").glob("*.js"))


def _loaded() -> set[str]:
    """The names conftest.py passes to ``js``."""
    return set(re.findall(r'\bjs\("(\w+)"\)', (SITE / "conftest.py").read_text(encoding="utf-8")))


def test_every_program_is_loaded_and_every_one_loaded_exists():
    assert {path.stem for path in FILES} == _loaded()


def test_no_javascript_is_left_in_a_string_of_the_conftest():
    tree = ast.parse((SITE / "conftest.py").read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    strings = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]
    assert not [s for s in strings if "=>" in s or "document." in s or "function(" in s]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (the README lists it)")
def test_each_file_is_one_function_playwright_can_call():
    """Playwright evaluates the text and calls it if it is a function: each file, comments and all, must be one
    expression whose value is a function."""
    check = (
        "const sources = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(sources.map((src) => {"
        "  try { return typeof (0, eval)('(' + src + '\\n)'); } catch (e) { return String(e); }"
        "})));"
    )
    sources = [path.read_text(encoding="utf-8") for path in FILES]
    run = subprocess.run(["node", "-e", check], input=json.dumps(sources), capture_output=True, text=True, check=True)
    kinds = dict(zip((path.name for path in FILES), json.loads(run.stdout), strict=True))
    assert kinds == {path.name: "function" for path in FILES}, json.dumps(kinds, indent=1)
