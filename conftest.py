"""Two test speeds for the whole suite (tests/ and the notebooks): `make check` and `make test`.

`make test` runs everything. `make check` (the inner loop: 3,536 tests in 57-59 s on two quiet cores, 104-110
CPU-seconds, user + sys of `/usr/bin/time make check`; down from 2 min 48 s, and from 357 CPU-seconds before the
first of these changes, 173 after it, by commands run in-process, work shared within a file, nothing made at a
module's import and the ``slow`` tests below) deselects two markers:

- ``site``: tests that need the built book, a browser, Node.js or the site's fetched assets: every test in a
  ``tests/site/test_site_*.py`` file or in one of the laboratory's Node tests (``tests/site/test_lab_*.py``:
  kernels, parts, math and the Worker, which run the page's JavaScript under Node) or in the answer boxes' Node
  test (``tests/site/test_checks_js.py``), and any test using the
  ``book_build``, ``site``, ``server``, ``chromium_browser``, ``tabs``, ``visit`` or ``sweep`` fixture, is marked
  automatically. So `make check` needs Python alone: no Node, npm or wabt, and no `make assets`;
- ``slow`` (marked by hand with ``@pytest.mark.slow``, each with its reason beside it): tests that retrain a full
  model or scan the whole site; tests whose subject is a real process, where `make check` keeps one of a kind or
  checks the same answer in-process (every command's ``--help`` into a closed pipe or a full disk,
  tests/workshop/test_commands.py, beside the one printer `make check` runs, and an unreachable Dask scheduler;
  training into a full disk or a closed pipe, tests/core/test_cli.py; a kernel that dies,
  tests/workshop/editions/test_stored_form.py; a real pytest-xdist run, tests/test_gate.py; a writer killed inside
  its write, tests/core/test_files.py, but the translation files' writer); and what `make check` checks once,
  repeated for every edition, model or variant: each committed model's test counts but lesson 07's
  (tests/models/test_trained.py), the gradient of the models' combinations beyond each score, order, the baseline
  and the encoder without recurrence once (tests/models/test_seq2seq.py), the renumbered book through every
  edition and a translation file that is a folder or a broken link read by every command, not only by generate
  and update (tests/workshop/editions/test_cli.py); a sweep of every figure and explorer of every edition, each
  kept inside its canvas (tests/figures/test_canvas.py, tests/explorers/test_canvas.py); the mutations of three
  knobs (tests/checks/test_mutations.py); and the run cache the gate's notebooks read (tests/test_run_cache.py).

The notebooks are validated only by `make test` (`--nbval`), spread with the rest over the machine's cores by
pytest-xdist's ``--dist loadgroup`` (with ``--no-loadscope-reorder``): a test file or notebook is one unit of work,
run whole by one process (a notebook's cells share one kernel), except tests marked with an ``xdist_group``, which go
with their group (the browser sweep: one group per setting and edition, tests/site/test_site_sweep.py; each edition's
PDF; the laboratory of each edition tests/site/test_site_lab.py opens, English and Chinese). Every other test gets its
file as its ``xdist_group`` at collection, so xdist's own scheduler keeps the file together (pytest below 9.2, which
still sees the group xdist writes into a test's id: requirements.txt). The units are handed out longest first by the
seconds stored in ``tests/durations.json`` (``make durations`` measures them: ``--record-durations``;
tests/test_gate.py fails when a unit of the gate is missing there); a unit the file does not list follows those it
lists, in the order collected; a missing or unreadable file gives one line of warning and the order collected. One
exception to longest first: the longest unit that needs the book's build goes first, then units that do not need it,
longest first, until their seconds cover the build's (stored too): the other cores work while the first builds,
instead of waiting for the build in a unit that needs it.

Lesson 07 trains its recipe live in every edition. Under the gate every notebook kernel (nbval's and the pseudo
edition's) starts with ``tests/kernel_startup.py`` as an IPython startup file (``IPYTHONDIR`` points at a folder
under ``_build`` that holds it, ``PYTHONPATH`` at the repository), which makes ``train`` read back a run this
machine already made from the same code and data (``AE_RUN_CACHE``, tests/run_cache.py) instead of training it
again; the reader's ``train`` knows nothing of it, and tests written in Python always train (tests/conftest.py).
"""

from __future__ import annotations

import json
import math
import os
import pathlib

import pytest

from attention_core import files
from tests.helpers import ROOT

SITE_FIXTURES = {"book_build", "site", "server", "chromium_browser", "tabs", "visit", "sweep"}
SITE_FILES = ("test_site_", "test_lab_", "test_checks_js")  # the browser tests, the lab's and the boxes' Node tests
BUILD_FIXTURES = {"book_build", "site"}  # a test using one of these makes the book's build or waits for it
DURATIONS = "tests/durations.json"  # relative to the repository
DURATIONS_NOTE = (
    "Seconds each unit of work (a test file, a notebook or an xdist_group) took in the last run that ran it: the sum"
    " of its tests' setup, call and teardown on one pytest-xdist worker; build: the seconds the book's build took"
    " (inside the setup of the first test that needed it). The root conftest.py hands the units out longest first by"
    " these numbers. Written by `make durations` (the gate with --record-durations); a test file or notebook that run"
    " did not run keeps its number while it exists, a group it did not run is dropped."
)
RUN_CACHE = ROOT / "_build" / "run-cache"
KERNEL_PROFILE = ROOT / "_build" / "ipython"  # IPYTHONDIR of the gate's kernels: runs tests/kernel_startup.py
SECONDS = pytest.StashKey[dict]()  # unit -> stored seconds
BUILD = pytest.StashKey[float]()  # the stored seconds of the book's build (0 when unknown)
BUILT = pytest.StashKey[float]()  # the seconds the book's build took in this process, until a report carries them
UNITS = pytest.StashKey[list]()  # the units this session collected, in the order collected (tests/test_gate.py)
PROBLEM = pytest.StashKey[str]()  # why the stored seconds could not be read ("" when they could)


def pytest_addoption(parser):
    group = parser.getgroup("units", "the gate's units of work (root conftest.py)")
    group.addoption(
        "--unit-durations",
        default=DURATIONS,
        metavar="PATH",
        help="the seconds per unit of work the units are handed out by, longest first (default: %(default)s)",
    )
    group.addoption(
        "--record-durations",
        action="store_true",
        help="write each unit's measured seconds into the --unit-durations file (make durations)",
    )


def pytest_configure(config):
    install_kernel_startup()
    config.addinivalue_line(
        "markers",
        "slow: retrains a full model, scans the whole site, runs a real process `make check` has one of, or repeats"
        " for every edition, model or variant what `make check` checks once, or sweeps every figure of every edition;"
        " not in `make check`",
    )
    config.addinivalue_line("markers", "site: needs the built book or a browser; not in `make check`")
    path = config.rootpath / config.getoption("unit_durations")
    config.stash[SECONDS], config.stash[BUILD], config.stash[PROBLEM] = read_durations(path)
    if config.getoption("record_durations") and not hasattr(config, "workerinput"):  # xdist's controller, or alone
        config.pluginmanager.register(DurationRecorder(path, config.rootpath), "unit-durations-recorder")


@pytest.hookimpl(trylast=True)  # after the terminal's header
def pytest_sessionstart(session):
    problem = session.config.stash[PROBLEM]
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    if problem and terminal is not None and not hasattr(session.config, "workerinput"):
        terminal.write_line(f"warning: {problem}; the units of work go out in the order collected (make durations)")


def install_kernel_startup() -> None:
    """Every kernel started from here on (inheriting this environment) reads back runs already made."""
    startup = KERNEL_PROFILE / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    source, target = ROOT / "tests" / "kernel_startup.py", startup / "00-run-cache.py"
    if not target.exists() or target.read_bytes() != source.read_bytes():  # xdist's workers configure too
        files.write_bytes(target, source.read_bytes())  # whole: a kernel starting meanwhile reads the old or the new
    os.environ.setdefault("AE_RUN_CACHE", str(RUN_CACHE))
    os.environ["IPYTHONDIR"] = str(KERNEL_PROFILE)
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker, and before xdist's worker reads xdist_group marks
def pytest_collection_modifyitems(config, items):
    needs_build: dict[str, bool] = {}  # every unit, in the order collected -> whether one of its tests needs the build
    units = []  # each item's unit
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.name.startswith(SITE_FILES) or SITE_FIXTURES & fixtures:
            item.add_marker(pytest.mark.site)
        unit = unit_of(item)
        units.append(unit)
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(unit))  # --dist loadgroup keeps the file or notebook together
        if config.getoption("record_durations"):
            item.user_properties.append(("unit", unit))  # reaches xdist's controller with each report
        needs_build[unit] = needs_build.get(unit, False) or bool(BUILD_FIXTURES & fixtures)
    config.stash[UNITS] = list(needs_build)
    workers = getattr(config, "workerinput", {}).get("workercount", 2)
    order = hand_out_order(needs_build, config.stash[SECONDS], config.stash[BUILD], workers)
    position = {unit: i for i, unit in enumerate(order)}
    order = sorted(range(len(items)), key=lambda i: position[units[i]])  # stable: a unit's tests keep their order
    items[:] = [items[i] for i in order]


@pytest.fixture(scope="session")
def collected_units(request) -> list[str]:
    """The units of work this session collected, in the order collected (tests/test_gate.py checks that each has
    its seconds in tests/durations.json)."""
    return request.config.stash[UNITS]


def unit_of(item) -> str:
    """The unit of work an item belongs to: its ``xdist_group``, else its file (relative to the repository)."""
    group = item.get_closest_marker("xdist_group")
    if group is not None:
        return group.args[0] if group.args else group.kwargs.get("name", "default")
    return item.path.relative_to(item.config.rootpath).as_posix()


def hand_out_order(
    needs_build: dict[str, bool], seconds: dict[str, float], build: float = 0.0, workers: int = 2
) -> list[str]:
    """The units (``needs_build``: each unit in the order collected -> whether it needs the book's build) in the
    order they are handed out: those ``seconds`` lists, longest first, then the others in the order collected.
    Except that the longest listed unit that needs the build goes first, and then, longest first, units that do
    not need it until their seconds cover what the other ``workers`` - 1 processes do while the first builds the
    book (``build``: its seconds; at least one such unit): a process handed a unit that needs the build would wait
    for it, idle."""
    listed = sorted((unit for unit in needs_build if unit in seconds), key=lambda unit: -seconds[unit])
    first = next((unit for unit in listed if needs_build[unit]), None)
    if first is not None:
        meanwhile, covered = [], 0.0
        for unit in listed:
            if not needs_build[unit] and (not meanwhile or covered < build * (workers - 1)):
                meanwhile.append(unit)
                covered += seconds[unit]
        listed = [first, *meanwhile, *(unit for unit in listed if unit != first and unit not in meanwhile)]
    return listed + [unit for unit in needs_build if unit not in seconds]


def read_durations(path: pathlib.Path) -> tuple[dict[str, float], float, str]:
    """The seconds per unit stored in ``path`` (``{"note": ..., "build": seconds, "units": {unit: seconds}}``), the
    seconds of the book's build (0 if not stored), and why they could not be read ("" if they could; then the
    seconds are empty)."""
    name = os.path.relpath(path)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        seconds = {str(unit): float(s) for unit, s in stored["units"].items()}
        build = float(stored.get("build", 0.0))
        if not all(math.isfinite(s) and s >= 0 for s in [*seconds.values(), build]):
            raise ValueError("a unit's seconds are negative or not finite")
    except FileNotFoundError:
        return {}, 0.0, f"{name} does not exist"
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
        return {}, 0.0, f"{name} could not be read ({type(error).__name__}: {error})"
    return seconds, build, ""


@pytest.fixture(scope="session")
def note_build_seconds(request):
    """``note(seconds)``: the book's build took that long in this process (tests/site/conftest.py's ``book_build``);
    the report of the test whose setup built it carries the figure to ``--record-durations``."""

    def note(seconds: float) -> None:
        request.config.stash[BUILT] = seconds

    return note


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    built = item.config.stash.get(BUILT, None)
    if built is not None and call.when == "setup":
        report.user_properties.append(("book build", built))
        del item.config.stash[BUILT]
    return report


class DurationRecorder:
    """``--record-durations``: sums each unit's test durations as the reports arrive (from every xdist worker) and
    writes them into the durations file when the session ends, with the seconds of the book's build. A test file
    or notebook this run did not run keeps its number if it still exists; a group (``xdist_group``) it did not run
    is dropped: groups are named in the test files, and a run that did not run one cannot tell whether it still
    exists (tests/test_gate.py then names every unit of the gate the file lacks: run `make durations`)."""

    def __init__(self, path: pathlib.Path, root: pathlib.Path):
        self.path, self.root, self.seconds, self.build = path, root, {}, None

    def pytest_runtest_logreport(self, report):
        properties = dict(report.user_properties)
        unit = properties.get("unit")
        if unit is not None:
            self.seconds[unit] = self.seconds.get(unit, 0.0) + report.duration
        if "book build" in properties:
            self.build = properties["book build"]

    def pytest_sessionfinish(self, session):
        if not self.seconds:
            return
        stored, build, _ = read_durations(self.path)
        kept = {
            unit: s
            for unit, s in stored.items()
            if unit not in self.seconds and "/" in unit and (self.root / unit).exists()
        }
        units = kept | {unit: round(s, 1) for unit, s in self.seconds.items()}
        ordered = dict(sorted(units.items(), key=lambda pair: (-pair[1], pair[0])))
        build = round(self.build, 1) if self.build is not None else build
        text = json.dumps({"note": DURATIONS_NOTE, "build": build, "units": ordered}, indent=1, ensure_ascii=False)
        files.write_text(self.path, text + "\n")
