"""Prose names only files, tests and functions that exist.

Every inline code span of every page and lesson, in every edition, that names a file (``tests/test_x.py``,
``scripts/y.py``, ``results/z.json``), a test (``tests/test_x.py::test_name``), a module
(``attention_core.models.train``) or a function or constant of the package (``read_with_query(...)``, ``SCORER``)
must name something that exists, so that a reader who follows a name finds it.
"""

from __future__ import annotations

import ast
import builtins
import json
import re

import numpy
import pytest

from tests.helpers import ROOT

CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
PATH = re.compile(r"^(?:\.venv/bin/)?((?:[\w.-]+/)+[\w.-]+\.(?:py|json|npz|ipynb|md|yml|cfg|toml|txt))(?:::(\w+))?$")
CALL = re.compile(r"^(?:[\w.]+\.)?([A-Za-z_]\w*)\(.*\)$")
NAME = re.compile(r"^[A-Za-z_][\w.]*$")


def sources() -> list[tuple[str, str, set[str]]]:
    """(where, markdown, names its own code defines) of every page and every lesson, in every edition."""
    found = []
    for path in sorted([*ROOT.glob("book/*.md"), *ROOT.glob("*/book/*.md")]):
        found.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"), set()))
    for path in sorted([*ROOT.glob("**/notebooks/*.ipynb"), *ROOT.glob("**/book/*.ipynb")]):
        if "_build" in path.parts or ".venv" in path.parts:
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        own = set()  # a reader's function the lesson writes (my_softmax) is named by the lesson itself
        for cell in cells:
            source = "".join(cell["source"])
            own |= set(re.findall(r"^\s*def (\w+)", source, re.M))  # in code cells and in solutions' code
        found.append((str(path.relative_to(ROOT)), text, own))
    return found


def defined_names() -> set[str]:
    """Every function, class and module-level name defined in the package, and the package's module names."""
    names = set()
    for path in (ROOT / "src").rglob("*.py"):
        parts = path.relative_to(ROOT / "src").with_suffix("").parts
        names.add(".".join(p for p in parts if p != "__init__"))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def functions_of(path) -> set[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def missing(text: str, names: set[str], own: frozenset[str] = frozenset()) -> list[str]:
    """The code spans of ``text`` that name something that does not exist."""
    bad = []
    for span in CODE_SPAN.findall(text):
        span = span.strip()
        path = PATH.match(span)
        if path:
            target = ROOT / path.group(1)
            if not target.exists() and not (ROOT / "src" / path.group(1)).exists():
                bad.append(span)
            elif path.group(2) and path.group(2) not in functions_of(path.group(1)):
                bad.append(span)
            continue
        if span.startswith("attention_core."):
            module = span.split("(")[0]
            if module not in names and module.rsplit(".", 1)[-1] not in names:
                bad.append(span)
            continue
        call = CALL.match(span)
        if call and not span.startswith(("np.", "numpy.", "plt.")):
            name = call.group(1)
            if name not in names | own and not hasattr(builtins, name) and not hasattr(numpy, name):
                bad.append(span)
    return bad


@pytest.fixture(scope="module")
def names():
    return defined_names()


def test_every_named_file_test_and_function_exists(names):
    problems = [f"{where}: `{span}`" for where, text, own in sources() for span in missing(text, names, own)]
    assert not problems, "the prose names things that do not exist:\n" + "\n".join(sorted(set(problems)))


def test_the_check_catches_a_name_that_does_not_exist(names):
    text = (
        "See `tests/test_models.py`, `scripts/editions.py`, `load_trained()` and `attention_core.models.luong_decoder`."
    )
    assert missing(text, names) == ["tests/test_models.py", "attention_core.models.luong_decoder"]
    assert missing("`read_with_query(felix, q)` and `no_such_function(x)`", names) == ["no_such_function(x)"]
    assert missing("`tests/core/test_lang.py::test_pad_counts_display_columns`", names) == []
    nothing = "tests/core/test_lang.py::test_nothing_here"
    assert missing(f"`{nothing}`", names) == [nothing]
