"""Two test speeds for the whole suite (tests/ and the notebooks): `make check` and `make test`.

`make test` runs everything. `make check` (the inner loop, about a minute) deselects two markers:

- ``site``: tests that need the built book, a browser or the site's fetched assets (every test in a
  ``tests/test_site_*.py`` file, and any test using the ``book_build``, ``site``, ``server``,
  ``chromium_browser`` or ``visit`` fixture, is marked automatically);
- ``slow``: tests that retrain a full model or scan the whole site (marked by hand with ``@pytest.mark.slow``).

The notebooks are validated only by `make test` (`--nbval`).
"""

from __future__ import annotations

import pytest

SITE_FIXTURES = {"book_build", "site", "server", "chromium_browser", "visit"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: retrains a full model or scans the whole site; not in `make check`")
    config.addinivalue_line("markers", "site: needs the built book or a browser; not in `make check`")


def pytest_collection_modifyitems(config, items):
    for item in items:
        in_site_file = item.path.name.startswith("test_site_")
        if in_site_file or SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.site)
