"""The package's layers, enforced with import-linter (contracts in pyproject.toml, [tool.importlinter])."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

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
