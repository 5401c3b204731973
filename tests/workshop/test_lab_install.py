"""``make lab`` installs a reader's packages only, pyproject.toml's ``lab`` extra (the package with its ``book`` extra,
and JupyterLab), not requirements.txt's build and test toolchain; so every module the package and the lessons import
must come from the standard library or from a distribution that extra installs, or a reader's lesson stops with an
``ImportError`` (``make lab`` in a fresh clone ran lessons 05, 08 and the Chinese 01 with it)."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import sys
import tomllib

from packaging.requirements import Requirement

from attention_workshop.paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised (``Babel>=2.12`` -> ``babel``)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement).group()).lower()


def reader_distributions() -> set[str]:
    """The distributions ``pip install -e '.[lab]'`` asks for by name: the package's own dependencies, its ``lab``
    extra and the extras that extra names of the package itself (``attention-core[book]``)."""
    project = PYPROJECT["project"]
    extras, wanted, names = project["optional-dependencies"], ["lab"], set()
    names |= {_name(r) for r in project["dependencies"]}
    while wanted:
        for requirement in extras[wanted.pop()]:
            own = re.fullmatch(rf"{re.escape(project['name'])}\[([\w,\s-]+)\]", requirement)
            if own:
                wanted += [e.strip() for e in own.group(1).split(",")]
            else:
                names.add(_name(requirement))
    return names


def with_dependencies(names: set[str]) -> set[str]:
    """``names`` and every distribution they require, as installed here (pip installs the same: matplotlib brings
    pillow, JupyterLab brings Jupyter Server and ipykernel); requirements of an extra or for another platform left
    out."""
    out, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(_name(requirement.name))
    return out


def imported(source: str) -> set[str]:
    """The top-level names of the modules ``source`` imports (absolute imports only)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def reader_imports() -> dict[str, set[str]]:
    """Every module name the package (``attention_core``, any module at any depth) and the lessons' code cells
    import -> the files that import it. (``make lab``'s command, ``attention_workshop.lab``, imports only the standard
    library and, once JupyterLab is there, Jupyter Server.)"""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "src" / "attention_core").rglob("*.py")):
        for name in imported(path.read_text(encoding="utf-8")):
            found.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    for path in sorted([*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "book").glob("*.ipynb")]):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))  # magics
        for name in imported(code):
            found.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    return found


def missing(imports: dict[str, set[str]], allowed: set[str]) -> list[str]:
    """The imports no allowed distribution (nor the standard library, nor the book's own packages) provides."""
    provides = importlib.metadata.packages_distributions()  # import name -> the installed distributions with it
    own = {"attention_core", "attention_workshop"}
    problems = []
    for name, where in sorted(imports.items()):
        if name in sys.stdlib_module_names or name in own:
            continue
        if not {_name(d) for d in provides.get(name, [])} & allowed:
            problems.append(f"{name} (imported by {', '.join(sorted(where)[:3])}) is not in the lab extra")
    return problems


def test_the_lab_extra_holds_every_package_the_lessons_need_and_no_toolchain():
    allowed = reader_distributions()
    assert {"numpy", "matplotlib", "ipywidgets", "jupyterlab", "mplfonts", "babel"} <= allowed
    assert not {"jupyter-book", "pytest", "playwright", "ruff", "distributed"} & allowed  # requirements.txt's
    imports = reader_imports()
    assert {"numpy", "matplotlib", "ipywidgets", "attention_core"} <= set(imports)
    assert missing(imports, with_dependencies(allowed)) == []


def test_the_check_names_an_import_the_extra_lacks():
    imports = {"numpy": {"a.py"}, "scipy": {"b.py"}, "json": {"c.py"}, "attention_core": {"d.ipynb"}}
    assert missing(imports, {"numpy"}) == ["scipy (imported by b.py) is not in the lab extra"]
    assert "pillow" in with_dependencies({"matplotlib"})  # installed here: requirements.txt has matplotlib
    assert imported("import a.b\nfrom c.d import e\nfrom . import f\nfrom .g import h\n") == {"a", "c"}
