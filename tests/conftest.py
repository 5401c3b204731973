"""Shared fixtures: the built website (built once per test session) and a real browser pointed at it."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import pathlib
import shutil
import socketserver
import threading

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def find_chromium() -> str | None:
    """The browser to drive: $CHROMIUM if set, else Debian's chromium (or a chromium on PATH)."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"] if os.path.exists(os.environ["CHROMIUM"]) else None
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _build_module():
    """scripts/build_book.py, imported from its file: the one place that knows how to build both editions."""
    spec = importlib.util.spec_from_file_location("ae_build_book", ROOT / "scripts" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def book_build(tmp_path_factory):
    """Build both editions with warnings as errors into a temporary folder (``scripts/build_book.py``'s
    ``build``): English in ``html``, Chinese in ``html/zh``. Return (exit code, log, html dir)."""
    if not (ROOT / "_vendor" / ".versions").exists():
        pytest.fail("the site's third-party scripts are missing: run `make assets` (make test does it)")
    out = tmp_path_factory.mktemp("book")
    code, log = _build_module().build(out)
    return code, log, out / "_build" / "html"


@pytest.fixture(scope="session")
def site(request):
    """The built site's folder; fails (once) if the build did not pass.

    For quick iteration on the browser tests, ``AE_SITE=_build/html`` uses an existing build instead.
    """
    if os.environ.get("AE_SITE"):
        return pathlib.Path(os.environ["AE_SITE"]).resolve()
    code, log, html = request.getfixturevalue("book_build")
    if code != 0:
        pytest.fail("the book build failed:\n" + log[-6000:])
    return html


@pytest.fixture(scope="session")
def server(site):
    """Serve the built site on 127.0.0.1 at a free port; yield its base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def chromium_browser():
    """Debian's Chromium driven by Playwright. Skips where Chromium is missing, except under CI=true."""
    chromium = find_chromium()
    if chromium is None:
        where = os.environ.get("CHROMIUM") or "/usr/bin/chromium or on PATH"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no Chromium found at {where}; .ci/run installs Debian's chromium")
        pytest.skip(f"no Chromium found at {where} (apt-get install chromium, or set CHROMIUM=/path/to/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageVisit:
    """A page opened in the browser with its console messages, page errors and requests recorded."""

    def __init__(self, browser, base_url: str, width: int = 1280, height: int = 900):
        self.base_url = base_url
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.console, self.errors, self.requests, self.failed = [], [], [], []
        self.page.on("console", lambda m: self.console.append((m.type, m.text)))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))

    def open(self, path: str, settle_ms: int = 500):
        self.page.goto(f"{self.base_url}/{path}", wait_until="load")
        self.page.wait_for_timeout(settle_ms)
        return self.page

    def outside_requests(self) -> list[str]:
        """Requests to anything but this server (data: and same-origin blob: URLs are local)."""
        local = (self.base_url, "data:", f"blob:{self.base_url}")
        return [url for url in self.requests if not url.startswith(local)]

    def console_errors(self) -> list[str]:
        return [text for kind, text in self.console if kind == "error"] + self.errors

    def close(self):
        self.context.close()


@pytest.fixture
def visit(chromium_browser, server):
    """Open pages of the built site: ``page = visit.open("notebooks/06_....html")``."""
    opened = []

    def make(width: int = 1280, height: int = 900) -> PageVisit:
        v = PageVisit(chromium_browser, server, width, height)
        opened.append(v)
        return v

    default = make()
    default.make = make
    yield default
    for v in opened:
        v.close()


class LiveExplorer:
    """Driving a live explorer of the website: open its page, move a range input, read the numbers it shows."""

    @staticmethod
    def open_explorer(visit, path: str, kind: str):
        page = visit.open(path)
        root = page.locator(f'.ae-explorer.ae-x-ready[data-explorer="{kind}"]')
        root.first.wait_for(timeout=10000)
        assert root.count() == 1, f"{path}: expected one {kind} explorer"
        return page, root

    @staticmethod
    def set_range(slider, value: float) -> None:
        """What dragging does: set the native range input's value and fire 'input'."""
        slider.evaluate(
            "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})) }", value
        )

    @staticmethod
    def shown(root) -> dict[str, float]:
        """The numbers the explorer shows as text (its table), keyed by their data-ae-out name."""
        cells = root.locator("[data-ae-out]")
        return {
            cells.nth(i).get_attribute("data-ae-out"): float(cells.nth(i).inner_text()) for i in range(cells.count())
        }

    @staticmethod
    def assert_read_matches(root, weights, context, scores=None) -> None:
        numbers = LiveExplorer.shown(root)
        got_w = [numbers[f"weight-{j}"] for j in range(3)]
        got_c = [numbers["context-0"], numbers["context-1"]]
        # shown to 4 decimals: equal to the core's value rounded to 4 decimals
        np.testing.assert_allclose(got_w, np.round(weights, 4), atol=1e-9)
        np.testing.assert_allclose(got_c, np.round(context, 4), atol=1e-9)
        if scores is not None:
            np.testing.assert_allclose([numbers[f"score-{j}"] for j in range(3)], np.round(scores, 4), atol=1e-9)
        assert numbers["weight-sum"] == 1.0


@pytest.fixture
def live():
    """The :class:`LiveExplorer` helpers (shared by tests/test_explorers.py and tests/test_site_chinese.py)."""
    return LiveExplorer


def assert_halves_see_their_sides(encode, inputs, change, d_fwd: int) -> None:
    """Claim C6 of lesson 03, both ways: in annotations ``[->h_j; <-h_j]`` of a batch ``(N, T, d)``, changing input
    ``x_k`` moves the forward half at every position ``j >= k`` and at no ``j < k``, and the backward half at every
    ``j <= k`` and at no ``j > k``. So each half responds to everything on its side, and only to that.

    ``encode(inputs) -> (N, T, d)``; ``change(inputs, k)`` returns the inputs with position ``k`` changed in every
    row; ``d_fwd`` is the width of the forward half. Raises ``AssertionError`` naming the half, the changed
    position and the positions that moved. An encoder without memory (each state a function of its own input)
    fails the first half of the claim: only position ``k`` moves.
    """
    before = encode(inputs)  # (N, T, d)
    N, T, _ = before.shape
    for k in range(T):
        moved = encode(change(inputs, k)) != before  # (N, T, d): exact comparison, no tolerance
        for half, cols, expected in (
            ("forward", slice(None, d_fwd), list(range(k, T))),
            ("backward", slice(d_fwd, None), list(range(0, k + 1))),
        ):
            for n in range(N):
                got = np.flatnonzero(moved[n, :, cols].any(axis=1)).tolist()
                assert got == expected, (
                    f"changing x_{k} (row {n}) moved the {half} half at positions {got}; expected exactly {expected}"
                )


@pytest.fixture(scope="session")
def halves_see_their_sides():
    """:func:`assert_halves_see_their_sides`, for tests/test_rnn.py and tests/models/test_encoder.py."""
    return assert_halves_see_their_sides
