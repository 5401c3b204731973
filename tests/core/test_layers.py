"""The package's layers, enforced with import-linter (contracts in pyproject.toml, [tool.importlinter]), and its
import graph, which has no cycle (built with grimp, the library import-linter uses)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import grimp

from tests.helpers import ROOT

LINT = pathlib.Path(sys.executable).parent / "lint-imports"


def run_contracts(src: pathlib.Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [str(LINT), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=src.parent, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_the_layer_contracts_hold():
    run = run_contracts(ROOT / "src")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_a_math_module_importing_a_figure_breaks_a_contract(tmp_path):
    copy = tmp_path / "src"
    for package in ("attention_core", "attention_workshop"):
        shutil.copytree(ROOT / "src" / package, copy / package, ignore=shutil.ignore_patterns("*.npz"))
    reading = copy / "attention_core" / "reading.py"
    reading.write_text(reading.read_text() + "\nfrom .figures import state as _drawing  # noqa\n")
    run = run_contracts(copy)
    assert run.returncode != 0 and "BROKEN" in run.stdout


NOT_MATH = {"attention_core.lang", "attention_core.__main__"}  # the reader's language and the command line
FORBIDDEN_IN_MATH = (
    "attention_core.lang",
    "attention_core.figures",
    "attention_core.explorers",
    "attention_core.checks",
    "matplotlib",
    "ipywidgets",
)


def math_modules(graph) -> list[str]:
    """The math layer by pattern: every module at the top of the package and everything in ``models/`` (a new
    math module is covered the moment it exists), except the reader's language and the command line."""
    top = {m for m in graph.find_children("attention_core") if not graph.find_children(m)}
    present = "attention_core.models" in graph.modules
    models = graph.find_descendants("attention_core.models") | {"attention_core.models"} if present else set()
    return sorted((top | models) - NOT_MATH)


def forbidden_chains(graph) -> list[str]:
    chains = []
    for module in math_modules(graph):
        for forbidden in FORBIDDEN_IN_MATH:
            inside = forbidden in graph.modules and forbidden.startswith("attention_core")
            targets = {forbidden} | (graph.find_descendants(forbidden) if inside else set())
            for target in targets & graph.modules:
                chain = graph.find_shortest_chain(importer=module, imported=target)
                if chain:
                    chains.append(" -> ".join(chain))
    return chains


def test_the_math_never_reads_the_language_nor_draws():
    import grimp

    graph = grimp.build_graph("attention_core", include_external_packages=True)
    assert {"attention_core.reading", "attention_core.toy_sentences", "attention_core.models.train"} <= set(
        math_modules(graph)
    )
    chains = forbidden_chains(graph)
    assert not chains, "the math imports what it must not:\n" + "\n".join(chains)


def test_a_new_math_module_reading_the_language_is_caught():
    import grimp

    graph = grimp.ImportGraph()
    for name in ("attention_core", "attention_core.lang", "attention_core.reading", "attention_core.brand_new"):
        graph.add_module(name)
    graph.add_import(importer="attention_core.brand_new", imported="attention_core.reading")
    assert forbidden_chains(graph) == []
    graph.add_import(importer="attention_core.reading", imported="attention_core.lang")
    assert forbidden_chains(graph) == [
        "attention_core.brand_new -> attention_core.reading -> attention_core.lang",
        "attention_core.reading -> attention_core.lang",
    ]


def import_cycles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every direct import ``a -> b`` of ``graph`` that lies on a cycle: ``b`` leads back to ``a``."""
    return sorted(
        (a, b)
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    )


def test_the_package_import_graph_has_no_cycle():
    # Every import counts, also one inside a function (the way the old decoder modules imported each other).
    graph = grimp.build_graph("attention_core", cache_dir=None)
    assert "attention_core.models.seq2seq" in graph.modules
    assert import_cycles(graph) == []


def test_the_workshop_import_graph_has_no_cycle_and_the_product_never_imports_it():
    graph = grimp.build_graph("attention_core", "attention_workshop", cache_dir=None)
    assert {"attention_workshop.build_pdf", "attention_workshop.editions"} <= graph.modules
    assert import_cycles(graph) == []
    upward = [
        (product, tool)
        for product in graph.find_descendants("attention_core") | {"attention_core"}
        for tool in graph.find_descendants("attention_workshop") | {"attention_workshop"}
        if graph.chain_exists(importer=product, imported=tool)
    ]
    assert upward == []


def test_the_product_importing_its_workshop_breaks_a_contract(tmp_path):
    copy = tmp_path / "src"
    for package in ("attention_core", "attention_workshop"):
        shutil.copytree(ROOT / "src" / package, copy / package, ignore=shutil.ignore_patterns("*.npz"))
    lang = copy / "attention_core" / "lang.py"
    lang.write_text(lang.read_text() + "\nfrom attention_workshop import paths as _paths  # noqa\n")
    run = run_contracts(copy)
    assert run.returncode != 0 and "The product never imports its workshop" in run.stdout


def test_an_import_cycle_is_found():
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d"), ("p.e", "p.a")]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a")]
