"""Prose names only files, tests and functions that exist.

Every inline code span of every page and lesson, in every edition, that names a file (``tests/test_x.py``,
``src/attention_workshop/y.py``, ``results/z.json``), a test (``tests/test_x.py::test_name``), a module
(``attention_core.models.train``) or a function or constant of the package (``read_with_query(...)``, ``SCORER``)
must name something that exists, so that a reader who follows a name finds it.

Names are read in four forms: a call (``name(...)``); a constant (``SCORER``, ``ac.H_EXAMPLE``: capitals, digits
and underscores, at least two characters, so the symbols ``H`` and ``X`` of the formulas are not names); a dotted
reference (``ac.attend``, ``attention_core.models.sweep``, ``sweep.figure``, ``np.testing.assert_allclose``); and a
bare snake_case name with an underscore (``read_with_query``, ``check_softmax``). Each must be defined in the
package or by the lesson's own code (a function it defines, a variable it assigns, a name it imports), or be a
name of Python or numpy. A dotted reference on a reader's variable (``batch.align``) is not checked.
"""

from __future__ import annotations

import ast
import builtins
import functools
import json
import re

import numpy
import pytest

from tests.helpers import ROOT

CODE_SPAN = re.compile(r"(?<![`}])`([^`\n]+)`(?!`)")  # not a role's target: {doc}`x`
PATH = re.compile(r"^(?:\.venv/bin/)?((?:[\w.-]+/)+[\w.-]+\.(?:py|json|npz|ipynb|md|yml|cfg|toml|txt))(?:::(\w+))?$")
CALL = re.compile(r"^(?:[\w.]+\.)?([A-Za-z_]\w*)\(.*\)$")
NAME = re.compile(r"^[A-Za-z_][\w.]*$")  # an identifier, or a dotted one
CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]+$")  # a module-level constant: SCORER, H_EXAMPLE, FELIX (not H or X)
SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")  # a function's or a variable's name: read_with_query
PACKAGE_ALIASES = ("ac.", "attention_core.")  # the lessons import the package as ``ac``


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
            if cell["cell_type"] == "code":
                own |= assigned_names(source)
        found.append((str(path.relative_to(ROOT)), text, own))
    return found


def assigned_names(code: str) -> set[str]:
    """The names a code cell defines: functions, classes, assigned variables, parameters, imports."""
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
    return names


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


@functools.cache
def module_members() -> dict[str, set[str]]:
    """Each module of the package by its short name (``sweep``), with the names it defines and its submodules."""
    members: dict[str, set[str]] = {}
    for path in (ROOT / "src").rglob("*.py"):
        parts = [p for p in path.relative_to(ROOT / "src").with_suffix("").parts if p != "__init__"]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        own |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        own |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
        own |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
        members.setdefault(parts[-1], set()).update(own)
        if len(parts) > 1:
            members.setdefault(parts[-2], set()).add(parts[-1])
    return members


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
        if span.startswith(("np.", "numpy.")):
            if not in_numpy(span.split("(")[0]):
                bad.append(span)
            continue
        call = CALL.match(span)
        if call and not span.startswith("plt."):
            if not known(call.group(1), names | own):
                bad.append(span)
            continue
        if NAME.match(span) and not span.endswith("."):
            *prefix, last = span.split(".")
            if prefix and f"{prefix[0]}." not in PACKAGE_ALIASES:
                if prefix[-1] in module_members() and last not in module_members()[prefix[-1]]:
                    bad.append(span)  # sweep.figures: the module exists, the name is not in it
                continue  # otherwise an attribute of a reader's variable (batch.align), not a name of the package
            if (prefix or CONSTANT.match(last) or SNAKE.match(last)) and not known(last, names | own):
                bad.append(span)
    return bad


def known(name: str, names: set[str]) -> bool:
    return name in names or hasattr(builtins, name) or hasattr(numpy, name)


def in_numpy(dotted: str) -> bool:
    """``np.testing.assert_allclose`` names something numpy has."""
    thing = numpy
    for part in dotted.split(".")[1:]:
        if not hasattr(thing, part):
            return False
        thing = getattr(thing, part)
    return True


@pytest.fixture(scope="module")
def names():
    return defined_names()


def test_every_named_file_test_and_function_exists(names):
    problems = [f"{where}: `{span}`" for where, text, own in sources() for span in missing(text, names, own)]
    assert not problems, "the prose names things that do not exist:\n" + "\n".join(sorted(set(problems)))


def test_the_check_catches_a_name_that_does_not_exist(names):
    text = (
        "See `tests/test_models.py`, `src/attention_workshop/editions/`, `load_trained()` and "
        "`attention_core.models.luong_decoder`."
    )
    assert missing(text, names) == ["tests/test_models.py", "attention_core.models.luong_decoder"]
    assert missing("`read_with_query(felix, q)` and `no_such_function(x)`", names) == ["no_such_function(x)"]
    assert missing("`tests/core/test_lang.py::test_pad_counts_display_columns`", names) == []
    nothing = "tests/core/test_lang.py::test_nothing_here"
    assert missing(f"`{nothing}`", names) == [nothing]


def test_the_check_catches_a_constant_or_function_named_without_a_call(names):
    # made-up names in each form the prose uses: a constant, the package's alias, a module's function, numpy
    text = (
        "`H_EXAMPLE` and `FELIX` exist, `H_EXAMPL` and `FELIX_SHORT` do not; `ac.attend` exists, `ac.attend_twice`"
        " does not; `sweep.figure` exists, `sweep.figures` does not; `read_with_query` exists, `read_by_query`"
        " does not; `np.testing.assert_allclose` exists, `np.testing.assert_close` does not;"
        " `ac.H_EXAMPLE` exists, `ac.H_EXAMPLES` does not."
    )
    assert missing(text, names) == [
        "H_EXAMPL", "FELIX_SHORT", "ac.attend_twice", "sweep.figures", "read_by_query", "np.testing.assert_close",
        "ac.H_EXAMPLES",
    ]  # fmt: skip
    # symbols of the formulas, a reader's variable's attribute, role targets and the lesson's own names pass
    ordinary = "`H`, `X`, `W_h`, `s`, `batch.align`, `True`, {doc}`appendix_recompute_everything`, `my_cell`, `h_prev`"
    assert missing(ordinary, names, frozenset({"my_cell", "h_prev"})) == []
    assert missing("`h_prev`", names) == ["h_prev"]  # a snake_case name nothing defines
    assert assigned_names("%matplotlib inline\nimport attention_core as ac\nh_prev, x = 1, 2\ndef f(q): pass") == {
        "ac", "h_prev", "x", "f", "q",
    }  # fmt: skip
