"""The package's layers, enforced with import-linter (contracts in pyproject.toml, [tool.importlinter]), and its
import graph, which has no cycle (built with grimp, the library import-linter uses)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import grimp

ROOT = pathlib.Path(__file__).resolve().parents[1]
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
    shutil.copytree(ROOT / "src" / "attention_core", copy / "attention_core", ignore=shutil.ignore_patterns("*.npz"))
    reading = copy / "attention_core" / "reading.py"
    reading.write_text(reading.read_text() + "\nfrom .figures import state as _drawing  # noqa\n")
    run = run_contracts(copy)
    assert run.returncode != 0 and "BROKEN" in run.stdout


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


def test_an_import_cycle_is_found():
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d"), ("p.e", "p.a")]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a")]
