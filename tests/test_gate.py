"""The gate's machinery in the root conftest.py, tried on small test folders run by a pytest of their own.

- Units of work: under ``--dist loadgroup`` the tests of one ``xdist_group`` run on one pytest-xdist worker, and a
  file without marks (a notebook, for nbval) stays whole on one worker, with xdist's own scheduler.
- Durations: the units go out longest first by the stored seconds (``--unit-durations``, tests/durations.json), the
  longest one that needs the book's build first, then units that do not need it until their seconds cover the
  build's, the unlisted ones after them in the order collected; a missing or unreadable file gives one line of
  warning and the order collected; ``--record-durations`` writes what a run measured, with the build's seconds,
  and keeps the files it did not run that still exist; every unit of the gate is in tests/durations.json.

The folders are made under ``_build`` so that the root conftest.py applies to them as it does to the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

import pytest

from tests.helpers import ROOT

GROUPED = """
import os, pathlib, time, pytest

@pytest.mark.xdist_group("pair")
@pytest.mark.parametrize("i", range(3))
def test_grouped(i):
    time.sleep(0.2)
    with open(os.environ["GATE_LOG"], "a") as log:
        log.write(f"{pathlib.Path(__file__).name} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""
PLAIN = GROUPED.replace('@pytest.mark.xdist_group("pair")\n', "").replace("test_grouped", "test_plain")
NEEDS_BUILD = """
import pytest

@pytest.fixture
def site():  # the name of the fixture that gives the built book
    return None

def test_one(site):
    pass
"""


BUILDS = """
import pytest

@pytest.fixture
def site(note_build_seconds):  # as tests/site/conftest.py's book_build tells the seconds its build took
    note_build_seconds(3.5)

def test_one(site):
    pass
"""


def _folder(files: dict[str, str]):
    (ROOT / "_build").mkdir(exist_ok=True)
    folder = tempfile.mkdtemp(prefix="gate-", dir=ROOT / "_build")
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
    return folder


def _pytest(folder: str, *args: str, log: str | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}  # not the outer run's
    if log is not None:
        env["GATE_LOG"] = log
    # without the plugins these small folders do not use: hypothesis's and nbval's cost about 0.9 of the 1.4
    # CPU-seconds a pytest takes to start (one each for the controller and every xdist worker)
    plugins = ["-p", "no:randomly", "-p", "no:hypothesispytest", "-p", "no:nbval"]
    command = [sys.executable, "-m", "pytest", os.path.relpath(folder, ROOT), *plugins, *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def _files_in_order(run: subprocess.CompletedProcess) -> list[str]:
    """The test files of a ``--collect-only -q`` run, in the order their tests were collected (each once)."""
    ids = [line.split("::")[0] for line in run.stdout.splitlines() if "::" in line]
    return [os.path.basename(path) for path in dict.fromkeys(ids)]


@pytest.fixture(scope="module")
def spread():
    """Two grouped files and two plain ones run on two workers, with one whose fixture notes the build's seconds,
    recording their durations (the folder's name, the workers each file's tests ran on, the durations file before
    and after, the run)."""
    grouped = {"test_grouped_a.py": GROUPED, "test_grouped_b.py": GROUPED}
    folder = _folder(grouped | {"test_plain_c.py": PLAIN, "test_plain_d.py": PLAIN, "test_builds.py": BUILDS})
    unit = os.path.relpath(folder, ROOT) + "/test_plain_c.py"
    before = {"units": {"tests/test_gate.py": 7.0, "sweep-gone": 8.0, "_build/gone/test_gone.py": 9.0, unit: 100.0}}
    stored, log = os.path.join(folder, "durations.json"), os.path.join(folder, "workers.log")
    with open(stored, "w", encoding="utf-8") as f:
        json.dump(before, f)
    run = _pytest(folder, "-n", "2", "--dist", "loadgroup", "--record-durations", "--unit-durations", stored, log=log)
    workers: dict[str, set[str]] = {}
    with open(log, encoding="utf-8") as f:
        for line in f:
            name, worker = line.split()
            workers.setdefault(name, set()).add(worker)
    with open(stored, encoding="utf-8") as f:
        after = json.load(f)
    yield os.path.relpath(folder, ROOT), workers, before, after, run
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow  # a real pytest-xdist run: a controller and two workers (about 5 CPU-seconds)
def test_a_group_runs_on_one_worker_and_a_file_without_marks_stays_whole(spread):
    _, workers, _, _, run = spread
    assert run.returncode == 0, run.stdout + run.stderr
    assert set(workers) == {"test_grouped_a.py", "test_grouped_b.py", "test_plain_c.py", "test_plain_d.py"}
    assert workers["test_grouped_a.py"] == workers["test_grouped_b.py"], "the group 'pair' ran on two workers"
    assert all(len(ran_on) == 1 for ran_on in workers.values()), f"a unit was split between workers: {workers}"
    assert set().union(*workers.values()) == {"gw0", "gw1"}, "both workers had work (else the test proves nothing)"


@pytest.mark.slow  # a real pytest-xdist run: a controller and two workers (about 5 CPU-seconds)
def test_recorded_durations_replace_what_the_run_measured_and_keep_the_rest(spread):
    folder, _, _, after, run = spread
    assert run.returncode == 0, run.stdout + run.stderr
    units = after["units"]
    assert after["note"].startswith("Seconds each unit of work")
    for unit in ("pair", f"{folder}/test_plain_c.py", f"{folder}/test_plain_d.py"):
        assert unit in units, unit
    assert 0.55 <= units[f"{folder}/test_plain_c.py"] < 100, "measured again (three tests of 0.2 s, to 0.1 s)"
    assert units["pair"] >= 1.15, "a group sums the tests of both its files (six of 0.2 s)"
    assert units["tests/test_gate.py"] == 7.0, "a file the run did not run keeps its number"
    assert "_build/gone/test_gone.py" not in units, "a file that no longer exists is dropped"
    assert "sweep-gone" not in units, "a group the run did not run is dropped"
    assert after["build"] == 3.5, "the seconds the book's build took (note_build_seconds)"
    assert list(units.values()) == sorted(units.values(), reverse=True), "longest first"


def test_units_go_out_longest_first_the_longest_needing_the_build_first():
    folder = _folder(
        {name: PLAIN for name in ("test_a.py", "test_b.py", "test_d.py", "test_e.py")} | {"test_c.py": NEEDS_BUILD}
    )
    try:
        stored = os.path.join(folder, "durations.json")
        unit = os.path.relpath(folder, ROOT)
        seconds = {f"{unit}/test_{name}.py": s for name, s in (("a", 9.0), ("b", 5.0), ("c", 3.0), ("e", 1.0))}
        with open(stored, "w", encoding="utf-8") as f:
            json.dump({"note": "", "units": seconds}, f)
        run = _pytest(folder, "--collect-only", "-q", "--unit-durations", stored)
        assert run.returncode == 0, run.stdout + run.stderr
        # test_c needs the build: it goes first, the longest of the others second, test_d (not listed) last
        assert _files_in_order(run) == ["test_c.py", "test_a.py", "test_b.py", "test_e.py", "test_d.py"]
        assert "warning" not in run.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_while_one_process_builds_the_others_get_units_that_do_not_need_the_build():
    """x needs the build and goes first; a and f do not (9 + 4 s cover the build's 12 s), then y, which needs it;
    the unlisted z last. (The order as collected is checked end to end above.)"""
    from conftest import hand_out_order

    needs_build = {"x": True, "y": True, "a": False, "f": False, "e": False, "z": False}
    seconds = {"x": 10.0, "y": 6.0, "a": 9.0, "f": 4.0, "e": 1.0}
    assert hand_out_order(needs_build, seconds, build=12.0) == ["x", "a", "f", "y", "e", "z"]
    assert hand_out_order(needs_build, seconds) == ["x", "a", "y", "f", "e", "z"], "at least one, unknown build"
    assert hand_out_order(needs_build, seconds, build=12.0, workers=3) == ["x", "a", "f", "e", "y", "z"]


@pytest.mark.parametrize("content", [None, '{"units": {"tests/x.py": 1'], ids=["missing", "cut-short"])
def test_a_missing_or_unreadable_durations_file_leaves_the_order_collected(content):
    folder = _folder({"test_b.py": PLAIN, "test_a.py": PLAIN, "test_c.py": NEEDS_BUILD})
    try:
        stored = os.path.join(folder, "durations.json")
        if content is not None:
            with open(stored, "w", encoding="utf-8") as f:
                f.write(content)
        run = _pytest(folder, "--collect-only", "-q", "--unit-durations", stored)
        assert run.returncode == 0, run.stdout + run.stderr
        warnings = [line for line in run.stdout.splitlines() if "warning" in line]
        assert len(warnings) == 1 and "durations.json" in warnings[0], run.stdout
        assert _files_in_order(run) == ["test_a.py", "test_b.py", "test_c.py"]  # as collected: by name
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_stored_durations_are_readable_and_name_units_that_exist():
    stored = json.loads((ROOT / "tests" / "durations.json").read_text(encoding="utf-8"))
    assert stored["note"] and stored["units"]
    for unit, seconds in stored["units"].items():
        assert seconds >= 0, unit
        assert "/" not in unit or (ROOT / unit).exists(), f"{unit}: no such file (make durations drops it)"


def gate_notebooks() -> set[str]:
    """Every notebook of every edition (``locale/editions.toml``): each is a unit of the gate."""
    from attention_workshop.paths import ENGLISH, editions

    folders = [ROOT / ("" if code == ENGLISH else code) / part for code in editions() for part in ("book", "notebooks")]
    return {path.relative_to(ROOT).as_posix() for folder in folders for path in folder.glob("*.ipynb")}


def test_every_unit_of_the_gate_has_measured_seconds(collected_units, request):
    """The units go out longest first by their stored seconds, and a unit the file does not list goes after all
    those it lists, in the order collected: so every unit of the gate (each test file or ``xdist_group``, each
    notebook of every edition) must be in tests/durations.json. The gate's own session knows its units; run
    alone, this test has only its own file to look at and skips."""
    if not gate_notebooks() <= set(collected_units) or "tests/test_gate.py" not in collected_units:
        pytest.skip("the gate's units are those of the gate's own run: make test (or make durations)")
    if request.config.getoption("--record-durations"):
        pytest.skip("make durations writes every unit's seconds at the end of this run; the next run checks them")
    stored = json.loads((ROOT / "tests" / "durations.json").read_text(encoding="utf-8"))["units"]
    missing = [unit for unit in collected_units if unit not in stored]
    assert not missing, f"{len(missing)} units of the gate have no seconds in tests/durations.json: {missing}"
