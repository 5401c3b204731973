"""Two test speeds for the whole suite (tests/ and the notebooks): `make check` and `make test`.

`make test` runs everything. `make check` (the inner loop, about a minute) deselects two markers:

- ``site``: tests that need the built book, a browser or the site's fetched assets (every test in a
  ``tests/site/test_site_*.py`` file, and any test using the ``book_build``, ``site``, ``server``,
  ``chromium_browser``, ``tabs``, ``visit`` or ``sweep`` fixture, is marked automatically);
- ``slow``: tests that retrain a full model or scan the whole site (marked by hand with ``@pytest.mark.slow``).

The notebooks are validated only by `make test` (`--nbval`), spread with the rest over the machine's cores by
pytest-xdist (``--dist loadgroup --no-loadscope-reorder``): a test file or notebook is one unit of work, run whole
by one process (a notebook's cells share one kernel), except tests marked with an ``xdist_group``, which go with
their group (the browser sweep: one group per setting, tests/site/test_site_sweep.py). The longest units are
handed out first (``LONGEST_FIRST``, from the durations `make test` prints), so that none starts last.

Lesson 07 trains its recipe live in every edition. Under the gate every notebook kernel (nbval's and the pseudo
edition's) starts with ``tests/kernel_startup.py`` as an IPython startup file (``IPYTHONDIR`` points at a folder
under ``_build`` that holds it, ``PYTHONPATH`` at the repository), which makes ``train`` read back a run this
machine already made from the same code and data (``AE_RUN_CACHE``, tests/run_cache.py) instead of training it
again; the reader's ``train`` knows nothing of it, and tests written in Python always train (tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.helpers import ROOT

# Units of work measured to take longest (seconds on a 2-core machine, `make test --durations`), in the order
# they are handed out; every other unit follows in the order collected. The first needs the book's build and the
# second does not, so the second core works while the first builds.
LONGEST_FIRST = (
    "sweep-1280-light",  # axe on every page: about 70 s after the build (20 s)
    "tests/lessons/test_pseudo_edition.py",  # executes and builds the pseudo-language edition: about 55 s
    "tests/site/test_site_lab.py",  # about 65 s
    "tests/site/test_site_pdf.py",  # prints both PDFs: about 55 s
    "sweep-1280-dark",
    "sweep-390-light",
    "sweep-390-dark",
    "notebooks/07_learning_without_labels.ipynb",
    "zh/notebooks/07_learning_without_labels.ipynb",
    "tests/models/test_seed_study.py",
)
SITE_FIXTURES = {"book_build", "site", "server", "chromium_browser", "tabs", "visit", "sweep"}
RUN_CACHE = ROOT / "_build" / "run-cache"
KERNEL_PROFILE = ROOT / "_build" / "ipython"  # IPYTHONDIR of the gate's kernels: runs tests/kernel_startup.py


def pytest_configure(config):
    install_kernel_startup()
    config.addinivalue_line("markers", "slow: retrains a full model or scans the whole site; not in `make check`")
    config.addinivalue_line("markers", "site: needs the built book or a browser; not in `make check`")


def install_kernel_startup() -> None:
    """Every kernel started from here on (inheriting this environment) reads back runs already made."""
    startup = KERNEL_PROFILE / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    source, target = ROOT / "tests" / "kernel_startup.py", startup / "00-run-cache.py"
    if not target.exists() or target.read_bytes() != source.read_bytes():  # xdist's workers configure too
        shutil.copyfile(source, target)
    os.environ.setdefault("AE_RUN_CACHE", str(RUN_CACHE))
    os.environ["IPYTHONDIR"] = str(KERNEL_PROFILE)
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))


def pytest_collection_modifyitems(config, items):
    for item in items:
        in_site_file = item.path.name.startswith("test_site_")
        if in_site_file or SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.site)
    rank = {unit: i for i, unit in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(unit_of(item), len(rank)))  # stable: the rest keep their order


def unit_of(item) -> str:
    """The unit of work an item belongs to: its ``xdist_group``, else its file (relative to the repository)."""
    group = item.get_closest_marker("xdist_group")
    if group is not None:
        return group.args[0] if group.args else group.kwargs.get("name", "default")
    return item.path.relative_to(ROOT).as_posix()


@pytest.hookimpl(optionalhook=True)  # pytest -p no:xdist still runs
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadgroup``: a test in an ``xdist_group`` goes with its group, every other with its file."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class GroupOrFile(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.rfind("@") > nodeid.rfind("]"):  # xdist appends "@group" to a grouped test's id
                return nodeid.split("@")[-1]
            return nodeid.split("::", 1)[0]

    return GroupOrFile(config, log)
