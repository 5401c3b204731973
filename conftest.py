"""Two test speeds for the whole suite (tests/ and the notebooks): `make check` and `make test`.

`make test` runs everything. `make check` (the inner loop, about a minute) deselects two markers:

- ``site``: tests that need the built book, a browser or the site's fetched assets (every test in a
  ``tests/site/test_site_*.py`` file, and any test using the ``book_build``, ``site``, ``server``,
  ``chromium_browser``, ``visit`` or ``sweep`` fixture, is marked automatically);
- ``slow``: tests that retrain a full model or scan the whole site (marked by hand with ``@pytest.mark.slow``).

The notebooks are validated only by `make test` (`--nbval`), spread with the rest over the machine's cores
(pytest-xdist, one notebook or test file per process). Lesson 07 trains its recipe live in every edition:
``AE_RUN_CACHE`` lets the notebooks' kernels (and the pseudo edition's execution) read back a run this machine
already made from the same code and data instead of training it again (attention_core/models/run_cache.py);
tests written in Python always train (tests/conftest.py).
"""

from __future__ import annotations

import os
import pathlib

import pytest

SITE_FIXTURES = {"book_build", "site", "server", "chromium_browser", "visit", "sweep"}
RUN_CACHE = pathlib.Path(__file__).resolve().parent / "_build" / "run-cache"


def pytest_configure(config):
    os.environ.setdefault("AE_RUN_CACHE", str(RUN_CACHE))  # inherited by the kernels the notebooks run in
    config.addinivalue_line("markers", "slow: retrains a full model or scans the whole site; not in `make check`")
    config.addinivalue_line("markers", "site: needs the built book or a browser; not in `make check`")


def pytest_collection_modifyitems(config, items):
    for item in items:
        in_site_file = item.path.name.startswith("test_site_")
        if in_site_file or SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.site)
