"""Fixtures of the JupyterLab tests: ``make lab``'s command serving a copy of the lessons, and a headless browser.

The tests drive a real JupyterLab (the version ``make lab`` installs, ``jupyterlab>=4,<5``) as a reader does, so
they are slow (a kernel per edition, Run All, a browser): they run only when asked for by marker,
``.venv/bin/python -m pytest tests/lab -m lab`` (``make lab-test``, which installs JupyterLab first), and are
skipped otherwise; they are marked ``site`` too, so that ``make check`` leaves them out.

JupyterLab serves a copy of the repository's lessons in a temporary folder (``notebooks/`` and each edition's, such
as ``zh/notebooks/``, the pages they link to), so nothing a test saves reaches the checkout; the copy's original
bytes are kept to compare with. JupyterLab's settings for the run (a short autosave interval, every cell attached
to the page, no news prompt) are in a temporary settings folder (``JUPYTERLAB_SETTINGS_DIR``), its workspaces and
runtime files too: nothing in the user's home is read or written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from attention_workshop import chromium as browsers
from attention_workshop.paths import ENGLISH, editions
from tests.helpers import ROOT

HERE = pathlib.Path(__file__).parent
AUTOSAVE_SECONDS = 2  # JupyterLab's default is 120
START_TIMEOUT = 90  # seconds for JupyterLab to answer
# What the copy holds, relative to the repository: every edition's lessons and the pages they link to.
COPIED = ("README.md", "book", "notebooks") + tuple(
    f"{edition}/{folder}" for edition in editions() if edition != ENGLISH for folder in ("book", "notebooks")
)
SETTINGS = {  # JupyterLab settings of the test run: plugin id -> values
    "@jupyterlab/docmanager-extension:plugin": {"autosave": True, "autosaveInterval": AUTOSAVE_SECONDS},
    # every cell in the page (the default attaches cells as they scroll into view; the tests read them all)
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "lab: drives a real JupyterLab in a browser (make lab-test: pytest tests/lab -m lab)"
    )


def asked_for(config) -> bool:
    """Whether the run selects the lab marker by name (``-m lab``)."""
    return (config.getoption("markexpr") or "").strip() == "lab"


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="drives JupyterLab: run `pytest tests/lab -m lab` (make lab-test)")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.lab)
            item.add_marker(pytest.mark.site)  # needs a browser: not in make check
            if not asked_for(config):
                item.add_marker(skip)


@dataclasses.dataclass
class Lab:
    """A running ``python -m attention_workshop.lab`` and what it serves."""

    root: pathlib.Path  # the copy JupyterLab serves
    originals: dict[str, bytes]  # path relative to root -> its bytes when copied
    port: int
    token: str
    log: pathlib.Path  # the command's output: its guide, then JupyterLab's log
    autosave: int = AUTOSAVE_SECONDS  # JupyterLab's autosave interval in this run, seconds

    def url(self, path: str) -> str:
        return f"http://localhost:{self.port}/lab/tree/{path}?token={self.token}"

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def copy_lessons(target: pathlib.Path) -> dict[str, bytes]:
    """Copy what JupyterLab serves into ``target``; return every copied notebook's bytes."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "_build"))
        elif source.exists():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / name)
    return {p.relative_to(target).as_posix(): p.read_bytes() for p in target.rglob("*.ipynb")}


def write_settings(folder: pathlib.Path) -> None:
    for plugin, values in SETTINGS.items():
        package, name = plugin.rsplit(":", 1)
        path = folder / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """``python -m attention_workshop.lab --no-browser`` on a free port, serving a copy of the lessons; stopped
    (with its kernels) at the end of the run."""
    pytest.importorskip("jupyterlab", reason="JupyterLab is not installed: make lab-test installs it")
    base = tmp_path_factory.mktemp("lab")
    root, settings = base / "repository", base / "settings"
    root.mkdir()
    originals = copy_lessons(root)
    write_settings(settings)
    env = dict(
        os.environ,
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        PYTHONUNBUFFERED="1",
    )
    port, log = free_port(), base / "lab.log"
    command = [sys.executable, "-m", "attention_workshop.lab", "--no-browser", "--port", str(port), "--root", str(root)]
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=base)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        token = None
        while time.monotonic() < deadline and process.poll() is None:
            found = re.search(r"token=([0-9a-f]+)", log.read_text(encoding="utf-8", errors="replace"))
            token = found.group(1) if found else None
            if token and answers(f"http://localhost:{port}/api/status?token={token}"):
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"JupyterLab did not start in {START_TIMEOUT} s:\n{log.read_text(encoding='utf-8')[-3000:]}")
        yield Lab(root, originals, port, token, log)
    finally:
        process.send_signal(signal.SIGTERM)  # JupyterLab shuts its kernels down
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def lab_browser():
    """Debian's Chromium driven by Playwright (as the site's tests drive it)."""
    chromium = browsers.find_chromium()
    if chromium is None:
        pytest.skip("no Chromium found (apt-get install chromium-headless-shell, or set CHROMIUM=/path/to/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=browsers.CHROMIUM_ARGS)
        yield browser
        with contextlib.suppress(Exception):
            browser.close()
