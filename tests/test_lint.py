"""ruff lint and format check run as part of the tests, so style is never a review topic."""

import pathlib
import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT

# zh/ is generated from the English sources (attention_workshop.editions): its code is the English code, its strings
# translated.
TARGETS = [p for p in ("src", "tests", "notebooks") if (ROOT / p).exists()]


def _ruff():
    exe = pathlib.Path(sys.executable).parent / "ruff"
    found = str(exe) if exe.exists() else shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed; `make test` installs it from requirements.txt")
    return found


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff(args):
    run = subprocess.run([_ruff(), *args, *TARGETS], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
