"""Two test speeds for the whole suite (tests/ and the notebooks): `make check` and `make test`.

`make test` runs everything. `make check` (the inner loop, a few minutes) deselects two markers:

- ``site``: tests that need the built book, a browser or the site's fetched assets (every test in a
  ``tests/site/test_site_*.py`` file, and any test using the ``book_build``, ``site``, ``server``,
  ``chromium_browser``, ``tabs``, ``visit`` or ``sweep`` fixture, is marked automatically), except the
  laboratory's Node tests that compile ``lab/gemm.wat`` with the fetched wabt (``tests/site/test_lab_kernels.py``,
  ``test_lab_parts.py``, ``test_lab_math.py`` and ``test_lab_added_score.py``), which run in `make check` (it
  fetches the assets too);
- ``slow``: tests that retrain a full model or scan the whole site (marked by hand with ``@pytest.mark.slow``).

The notebooks are validated only by `make test` (`--nbval`), spread with the rest over the machine's cores by
pytest-xdist's ``--dist loadgroup`` (with ``--no-loadscope-reorder``): a test file or notebook is one unit of work,
run whole by one process (a notebook's cells share one kernel), except tests marked with an ``xdist_group``, which
go with their group (the browser sweep: one group per setting, tests/site/test_site_sweep.py). Every other test gets
its file as its ``xdist_group`` at collection, so xdist's own scheduler keeps the file together (pytest below
9.2, which still sees the group xdist writes into a test's id: requirements.txt). The units are
handed out longest first by the seconds stored in ``tests/durations.json`` (``make durations`` measures them:
``--record-durations``); a unit the file does not list follows those it lists, in the order collected; a missing
or unreadable file gives one line of warning and the order collected. One exception to longest first: the
longest unit that needs the book's build goes first and the longest that does not goes second, so the second core
works while the first builds.

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
BUILD_FIXTURES = {"book_build", "site"}  # a test using one of these makes the book's build or waits for it
DURATIONS = "tests/durations.json"  # relative to the repository
DURATIONS_NOTE = (
    "Seconds each unit of work (a test file, a notebook or an xdist_group) took in the last run that ran it: the sum"
    " of its tests' setup, call and teardown on one pytest-xdist worker. The root conftest.py hands the units out"
    " longest first by these numbers. Written by `make durations` (the gate with --record-durations); a unit that"
    " run did not run keeps its number, a file that no longer exists is dropped."
)
RUN_CACHE = ROOT / "_build" / "run-cache"
KERNEL_PROFILE = ROOT / "_build" / "ipython"  # IPYTHONDIR of the gate's kernels: runs tests/kernel_startup.py
SECONDS = pytest.StashKey[dict]()  # unit -> stored seconds
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
    config.addinivalue_line("markers", "slow: retrains a full model or scans the whole site; not in `make check`")
    config.addinivalue_line("markers", "site: needs the built book or a browser; not in `make check`")
    path = config.rootpath / config.getoption("unit_durations")
    config.stash[SECONDS], config.stash[PROBLEM] = read_durations(path)
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
        if item.path.name.startswith("test_site_") or SITE_FIXTURES & fixtures:
            item.add_marker(pytest.mark.site)
        unit = unit_of(item)
        units.append(unit)
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(unit))  # --dist loadgroup keeps the file or notebook together
        if config.getoption("record_durations"):
            item.user_properties.append(("unit", unit))  # reaches xdist's controller with each report
        needs_build[unit] = needs_build.get(unit, False) or bool(BUILD_FIXTURES & fixtures)
    position = {unit: i for i, unit in enumerate(hand_out_order(needs_build, config.stash[SECONDS]))}
    order = sorted(range(len(items)), key=lambda i: position[units[i]])  # stable: a unit's tests keep their order
    items[:] = [items[i] for i in order]


def unit_of(item) -> str:
    """The unit of work an item belongs to: its ``xdist_group``, else its file (relative to the repository)."""
    group = item.get_closest_marker("xdist_group")
    if group is not None:
        return group.args[0] if group.args else group.kwargs.get("name", "default")
    return item.path.relative_to(item.config.rootpath).as_posix()


def hand_out_order(needs_build: dict[str, bool], seconds: dict[str, float]) -> list[str]:
    """The units (``needs_build``: each unit in the order collected -> whether it needs the book's build) in the
    order they are handed out: those ``seconds`` lists, longest first, then the others in the order collected.
    Except that the longest listed unit that needs the build goes first and the longest that does not goes second,
    so that a second process has work while the first builds the book."""
    listed = sorted((unit for unit in needs_build if unit in seconds), key=lambda unit: -seconds[unit])
    first = next((unit for unit in listed if needs_build[unit]), None)
    second = next((unit for unit in listed if not needs_build[unit]), None)
    if first is not None and second is not None:
        listed = [first, second, *(unit for unit in listed if unit not in (first, second))]
    return listed + [unit for unit in needs_build if unit not in seconds]


def read_durations(path: pathlib.Path) -> tuple[dict[str, float], str]:
    """The seconds per unit stored in ``path`` (``{"note": ..., "units": {unit: seconds}}``), and why they could not
    be read ("" if they could; then the seconds are empty)."""
    name = os.path.relpath(path)
    try:
        units = json.loads(path.read_text(encoding="utf-8"))["units"]
        seconds = {str(unit): float(s) for unit, s in units.items()}
        if not all(math.isfinite(s) and s >= 0 for s in seconds.values()):
            raise ValueError("a unit's seconds are negative or not finite")
    except FileNotFoundError:
        return {}, f"{name} does not exist"
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
        return {}, f"{name} could not be read ({type(error).__name__}: {error})"
    return seconds, ""


class DurationRecorder:
    """``--record-durations``: sums each unit's test durations as the reports arrive (from every xdist worker) and
    writes them into the durations file when the session ends, keeping the units this run did not run."""

    def __init__(self, path: pathlib.Path, root: pathlib.Path):
        self.path, self.root, self.seconds = path, root, {}

    def pytest_runtest_logreport(self, report):
        unit = dict(report.user_properties).get("unit")
        if unit is not None:
            self.seconds[unit] = self.seconds.get(unit, 0.0) + report.duration

    def pytest_sessionfinish(self, session):
        if not self.seconds:
            return
        kept = {
            unit: s
            for unit, s in read_durations(self.path)[0].items()
            if unit not in self.seconds and ("/" not in unit or (self.root / unit).exists())
        }
        units = kept | {unit: round(s, 1) for unit, s in self.seconds.items()}
        ordered = dict(sorted(units.items(), key=lambda pair: (-pair[1], pair[0])))
        text = json.dumps({"note": DURATIONS_NOTE, "units": ordered}, indent=1, ensure_ascii=False) + "\n"
        files.write_text(self.path, text)
