"""Fixtures of the website's tests: the built site (built once per run and shared by pytest-xdist's processes),
a local server, Debian's Chromium, and one sweep of every page of every edition at each of three settings (at
1280 px dark, the pages with explorers only).

The sweep (:class:`Sweep`) opens each reader-facing page of every edition once per setting, one edition at a time:
at 1280 px light and 390 px dark every page, at 1280 px dark the pages with explorers (``SETTINGS``). It collects
everything the whole-site checks need from that one load: the theme it shows, what reaches past the right edge, a
screenshot, the requests it made and the errors it logged; at 1280 px light also the bytes a first visit (a cold
cache) transfers, an axe scan, the alt text of its figures and its language switch; at 1280 px dark the colour
contrast of the pages with explorers. The screenshots show the whole page at 390 px dark and, in English, at
1280 px light, the first screen otherwise (``WHOLE_PAGE_SHOTS``). The tests in ``test_site_sweep.py`` assert on
what it collected, so no page is loaded twice for the same setting.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

import numpy as np
import pytest

from attention_workshop import build_book
from attention_workshop import chromium as browsers
from attention_workshop.paths import ENGLISH, editions, translations
from tests.helpers import ROOT

SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))
# The settings a page is loaded at. Each width once in each colour scheme would be four; two of them repeat the
# others' facts. 390 px light: the width lays a page out, the colour scheme colours it, so its layout (nothing
# past the right edge) is 390 px dark's and its theme, requests and errors 1280 px light's; a page loaded in the
# light at 390 px showed nothing that those two did not. 1280 px dark loads the pages with explorers only, for
# their colour contrast in the dark (axe's one rule that reads the colours): the other pages' dark theme, requests
# and errors are 390 px dark's and their layout at 1280 px is 1280 px light's.
SETTINGS = ((1280, "light"), (1280, "dark"), (390, "dark"))
FIRST = (1280, "light")  # the setting that also measures bytes, runs axe, reads alt text and the language switch
# The settings whose screenshots show the whole page, and the editions they show it for: one per width and one per
# colour scheme, the phone's in every edition (where a translation's longer words and another script wrap
# differently), the desktop's in English (the other editions' desktop pages lay out the same blocks, wider than
# any of their lines: their first screens are kept). A full-page screenshot costs processor time in proportion to
# its pixels (at 1280 px 0.5-1.5 CPU-seconds a page, about 12 per edition; at 390 px 0.3-0.7), and the other
# settings would show the same layouts in the same colours again: there a screenshot shows the page's first
# screen. Colour contrast in the dark is axe's to judge (every explorer page at 1280 px).
WHOLE_PAGE_SHOTS = {(1280, "light"): (ENGLISH,), (390, "dark"): tuple(editions())}
EXPLORER_LESSONS = (
    "notebooks/01_reading_on_demand.html",
    "notebooks/04_from_scores_to_weights.html",
    "notebooks/05_additive_score.html",
    "notebooks/06_same_content_different_state.html",
    "notebooks/07_learning_without_labels.html",
)
# The lessons with explorers in every edition (locale/editions.toml): colour contrast in the dark too.
EXPLORER_PAGES = tuple(
    ("" if edition == ENGLISH else f"{edition}/") + path for edition in editions() for path in EXPLORER_LESSONS
)
ONLY = {(1280, "dark"): EXPLORER_PAGES}  # a setting that loads some pages only: those (every page otherwise)
AXE_IMPACTS = ("serious", "critical")
JS = pathlib.Path(__file__).parent / "js"  # the JavaScript the tests run in the pages, one program a file


def js(name: str) -> str:
    """The program in ``tests/site/js/<name>.js``: a function, which Playwright's ``evaluate`` and
    ``wait_for_function`` call with their argument (``page.evaluate(js("settled"), SETTLE_LIMIT_MS)``)."""
    return (JS / f"{name}.js").read_text(encoding="utf-8")


# Sphinx's search page shows its results one by one and writes its summary line after the last one.
SEARCH_FINISHED = js("search_finished")
# A loaded page is settled when what its first layout asked for has arrived and nothing is moving any more: a frame
# is drawn (the layout requests the fonts it uses), those fonts have loaded, the CSS transitions and animations
# that end by themselves are taken to their end (the theme fades its buttons' colours in as a page loads: about
# 0.25 s to wait for, with the same colours at the end) and two more frames are drawn. A fixed pause waited half a
# second on every page whether or not anything was left to happen. (Not taken to their end: animations driven by
# scrolling and endless ones. A tab that draws no frames, a background one, settles after ``SETTLE_LIMIT_MS``.)
SETTLE_LIMIT_MS = 2000
_SETTLED = js("settled")  # its argument: SETTLE_LIMIT_MS (a call without it would not wait)


def settle(page):
    """Wait until ``page`` has settled (tests/site/js/settled.js); from Playwright's asynchronous API, await what it
    returns."""
    return page.evaluate(_SETTLED, SETTLE_LIMIT_MS)


THEME = js("theme")  # the colour scheme the theme chose
CLEAR_STORAGE = js("clear_storage")  # what a tab handed back forgets
SET_RANGE = js("set_range")  # what dragging a range input does
IMAGE_ALTS = js("image_alts")  # each image's address and alt text
LANGUAGE_SWITCH = js("language_switch")  # the switch focused: holds it?, its tab index, address, language, visible?


@pytest.fixture(scope="session")
def book_build(tmp_path_factory, note_build_seconds):
    """Every edition built with warnings as errors (``attention_workshop.build_book``'s ``build``): English in
    ``html``, each other edition in ``html/<language>``. Returns (exit code, log, html dir).

    Built once per run: under pytest-xdist every process asks for it, the first builds it into a folder all of
    them share (the run's temporary root) while the others wait on a lock, then read the same result. The seconds
    it took go to ``make durations`` (``note_build_seconds``, the root conftest.py): while one process builds,
    the others are handed units that do not need the build."""
    from filelock import FileLock

    if not (ROOT / "_vendor" / ".versions").exists():
        pytest.fail("the site's third-party scripts are missing: run `make assets` (make test does it)")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's root under xdist
    out, done = shared / "book", shared / "book.json"
    with FileLock(str(shared / "book.lock")):
        if not done.exists():
            out.mkdir(exist_ok=True)
            start = time.monotonic()
            code, log = build_book.build(out)
            note_build_seconds(time.monotonic() - start)
            done.write_text(json.dumps([code, log]), encoding="utf-8")
    code, log = json.loads(done.read_text(encoding="utf-8"))
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
    """Serve the built site on 127.0.0.1 at a free port; yield its base URL.

    The server is a process of its own (Python's ``http.server``, threaded): served from a thread of the test's
    process, it shared the interpreter with Playwright's event handling, and on a busy two-core machine a page of
    the sweep waited more than two minutes for the network to go quiet."""
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site), str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"the site's server did not start on port {port}") from None
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def chromium_browser():
    """Debian's Chromium driven by Playwright. Skips where Chromium is missing, except under CI=true."""
    chromium = browsers.find_chromium()
    if chromium is None:
        where = os.environ.get("CHROMIUM") or "/usr/bin/chromium-headless-shell, /usr/bin/chromium or on PATH"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no Chromium found at {where}; .ci/run installs Debian's chromium-headless-shell")
        install = "apt-get install chromium-headless-shell, or set CHROMIUM=/path/to/chromium"
        pytest.skip(f"no Chromium found at {where} ({install})")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=browsers.CHROMIUM_ARGS)
        yield browser
        browser.close()


def eventually(locator, predicate: str, timeout_ms: int = 3000) -> bool:
    """Whether ``predicate`` (a JavaScript function of the element) holds for ``locator``'s element within
    ``timeout_ms``: for what follows a reader's action a frame or an animation later (a scroll, a style)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.page.wait_for_function(predicate, arg=locator.element_handle(), timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


class PageVisit:
    """A page opened in the browser with its console messages, page errors and requests recorded.

    The tab comes from the run's :class:`Tabs` and goes back to it when the test ends: opening a new tab starts a
    new renderer process, which costs more processor time than loading the page in it."""

    def __init__(self, tabs: Tabs, base_url: str, width: int = 1280, height: int = 900):
        self.base_url, self.tabs = base_url, tabs
        self.page = tabs.take(width, height)
        self.console, self.errors, self.requests, self.failed = [], [], [], []
        self._listeners = (
            ("console", lambda m: self.console.append((m.type, m.text))),
            ("pageerror", lambda e: self.errors.append(str(e))),
            ("request", lambda r: self.requests.append(r.url)),
            ("requestfailed", lambda r: self.failed.append(r.url)),
        )
        for event, listener in self._listeners:
            self.page.on(event, listener)

    def open(self, path: str):
        """Load ``path`` and wait until the page has settled (:func:`settle`)."""
        self.page.bring_to_front()  # a tab behind another draws no frames (scroll-driven styles, animations)
        self.page.goto(f"{self.base_url}/{path}", wait_until="load")
        settle(self.page)
        return self.page

    def outside_requests(self) -> list[str]:
        """Requests to anything but this server (data: and same-origin blob: URLs are local)."""
        local = (self.base_url, "data:", f"blob:{self.base_url}")
        return [url for url in self.requests if not url.startswith(local)]

    def console_errors(self) -> list[str]:
        return [text for kind, text in self.console if kind == "error"] + self.errors

    def close(self):
        for event, listener in self._listeners:
            self.page.remove_listener(event, listener)
        self.tabs.give(self.page)


class Tabs:
    """The browser tabs the tests open pages in, kept for the whole run (one browser context, so one HTTP cache,
    as a reader's browser has). A tab handed back is cleared of what the last test left: the page's storage,
    an emulated colour scheme, the viewport; it is then parked on about:blank."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.free: list = []

    def take(self, width: int, height: int):
        page = self.free.pop() if self.free else self.context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(color_scheme="light")
        return page

    def give(self, page) -> None:
        try:
            if page.url.startswith("http"):
                page.evaluate(CLEAR_STORAGE)
            page.goto("about:blank")
        except Exception:  # noqa: BLE001  (a tab a test broke is closed, not reused)
            page.close()
            return
        self.free.append(page)


@pytest.fixture(scope="session")
def tabs(chromium_browser):
    """The run's :class:`Tabs`."""
    yield Tabs(chromium_browser)


@pytest.fixture
def visit(tabs, server):
    """Open pages of the built site: ``page = visit.open("notebooks/06_....html")``; ``visit.make(width=390)``
    gives another tab at another size."""
    opened = []

    def make(width: int = 1280, height: int = 900) -> PageVisit:
        v = PageVisit(tabs, server, width, height)
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
        slider.evaluate(SET_RANGE, value)

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
    """The :class:`LiveExplorer` helpers (tests/site/test_explorers.py and tests/site/test_site_chinese.py)."""
    return LiveExplorer


def reader_pages(site) -> list[str]:
    """Every reader-facing page of every edition: not the theme's fragments under ``_static/``, the sources, the
    PDF printer's working page (``_pdf/print.html``, written when a test prints the PDFs into the site), or an
    edition's ``index.html`` (it only redirects to the intro)."""
    pages = (p.relative_to(site) for p in pathlib.Path(site).rglob("*.html"))
    return sorted(
        str(p) for p in pages if not {"_static", "_sources", "_pdf"} & set(p.parts) and p.name != "index.html"
    )


OVERFLOW = js("overflow")  # what reaches past the right edge, outside a box that scrolls or clips
USED = js("used")  # every file the page used, those read from the browser's cache included
IMAGES = js("images")


@dataclasses.dataclass
class Load:
    """What one load of one page at one setting showed."""

    path: str
    theme: str | None  # the colour scheme the theme chose
    scroll: tuple[int, int]  # the page's scroll width and client width
    overflow: list[str]  # elements reaching past the right edge outside a box that scrolls
    outside: list[str]  # requests to anything but the local server
    errors: list[str]  # console errors and uncaught page errors
    failed: list[str]  # requests that failed or were answered with an error status
    bytes: list[tuple[str, int]] | None = None  # (url, bytes) a cold cache transfers, lazy figures included
    explorer: bool = False  # the page holds a live explorer (a larger budget)
    axe: list[str] | None = None  # serious or critical axe violations
    axe_dark: list[str] | None = None
    alt: list[str] | None = None  # figures without meaningful alt text
    switch: list[str] | None = None  # problems of the language switch


# The one axe rule whose verdict depends on the colour scheme; the others judge names, roles and structure.
COLOURS = "color-contrast"
# Colour contrast judges every element that holds text, one by one: thousands per page (highlighted code alone is
# some 1,500 spans on lesson 07, in 6-8 colours), most of them the same few colours on the same few backgrounds, page
# after page. It was about three quarters of axe's time. So it judges each kind of text once per setting instead:
# on the first page that shows it, one element of each kind is marked (CONTRAST_SAMPLES) and colour contrast runs
# on the marked elements. A kind is everything axe's verdict reads from the element and its ancestors: the
# text's colour, size, weight and shadow, and along the ancestors each background (colour, image, the
# ::before/::after boxes), opacity, filter, blend mode, transform and positioning. Two elements of one kind get
# the same verdict; the kinds seen are kept per setting (``seen``) as short hashes. Axe's colour-contrast rule is
# configured to look at the marked elements only (its ``selector``), so the other rules still see every element.
CONTRAST_SAMPLES = js("contrast_samples")
SAMPLES = "[data-ae-contrast-sample]"


# Axe put into the page once, its colour-contrast rule set to look at the marked elements only.
AXE_READY = js("axe_ready")
AXE_SAMPLED = js("axe_sampled")
AXE_RUN = js("axe_run")


async def _axe(page, seen: list[str], colours_only: bool = False) -> list[str]:
    """Serious or critical axe violations of the page: every rule, or (``colours_only``) colour contrast alone.
    Colour contrast judges the kinds of text not yet in ``seen`` (which it extends; ``CONTRAST_SAMPLES``): its
    rule is set to look at the marked elements only, so one run of axe does all. Only violations are collected:
    axe then skips recording the nodes that pass. (:func:`axe_in` is the same for Playwright's synchronous API.)"""
    seen += await page.evaluate(CONTRAST_SAMPLES, [seen, "body"])
    if not await page.evaluate(AXE_READY):
        await page.evaluate(_axe_source())
        await page.evaluate(AXE_SAMPLED, SAMPLES)
    options = {"resultTypes": ["violations"]}
    if colours_only:
        options["runOnly"] = {"type": "rule", "values": [COLOURS]}
    return serious(await page.evaluate(AXE_RUN, ["body", options]))


def axe_in(page, within: str, seen: list[str], **options) -> list[str]:
    """:func:`_axe` with every rule inside the element ``within``, from Playwright's synchronous API; ``options``
    go to ``axe.run``."""
    seen += page.evaluate(CONTRAST_SAMPLES, [seen, within])
    if not page.evaluate(AXE_READY):
        page.evaluate(_axe_source())
        page.evaluate(AXE_SAMPLED, SAMPLES)
    return serious(page.evaluate(AXE_RUN, [within, {"resultTypes": ["violations"], **options}]))


def serious(violations: list[dict]) -> list[str]:
    """The serious and critical ones of axe's ``violations``, one line each."""
    found = []
    for x in violations:
        if x["impact"] in AXE_IMPACTS:
            targets = [", ".join(node["target"]) for node in x["nodes"][:3]]
            found.append(f"{x['id']} ({x['impact']}, {len(x['nodes'])} nodes: {targets}): {x['help']}")
    return found


def _axe_source() -> str:
    """axe-core's script, as the axe-playwright-python package ships it."""
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


async def _bad_alt(page) -> list[str]:
    bad = []
    for src, alt in await page.locator("main img").evaluate_all(IMAGE_ALTS):
        alt = alt.strip()
        if len(alt) < 20 or alt.startswith("<Figure") or alt.lower() in ("image", "png", "figure"):
            bad.append(f"image {src[-50:]!r} has alt text {alt!r}")
    return bad


def _bytes_on_disk(site, server: str, urls: list[str]) -> list[tuple[str, int]]:
    """Each of the site's files among ``urls`` once, with its size on disk: what a plain server sends for it."""
    local = [url for url in dict.fromkeys(urls) if url.startswith(server)]
    paths = [urllib.parse.unquote(url.removeprefix(server + "/").split("?")[0]) for url in local]
    files = [(url, pathlib.Path(site) / path) for url, path in zip(local, paths, strict=True)]
    return [(url, path.stat().st_size) for url, path in files if path.is_file()]


def edition_of(path: str) -> str:
    """The edition a page of the built site belongs to: its first folder if that is a translation's, else English."""
    first = path.split("/", 1)[0]
    return first if "/" in path and first in translations() else ENGLISH


def counterpart(path: str, other: str) -> str:
    """The same page of the built site in the ``other`` edition (``zh/notebooks/05_x.html`` -> ``fr/...``)."""
    edition = edition_of(path)
    name = path if edition == ENGLISH else path.removeprefix(f"{edition}/")
    return name if other == ENGLISH else f"{other}/{name}"


async def _switch(page, site, path: str) -> list[str]:
    """The language switch: one link per other edition (``locale/editions.toml``), each named in that edition's
    language, marked with it, reached by the keyboard, to the same page in that edition."""
    from attention_core.explorers.site import PAGE
    from attention_workshop.ae_lang import html_lang

    problems = []
    here = edition_of(path)
    for other in editions():
        if other == here:
            continue
        name = PAGE.text("read_in", other)
        link = page.get_by_role("link", name=name, exact=True)
        if await link.count() != 1:
            problems.append(f"{await link.count()} links named {name!r}")
            continue
        # focused in the page (an <a href> in the tab order: the keyboard reaches it), and read in the same call
        focused, tab_index, href, lang, visible = await link.evaluate(LANGUAGE_SWITCH)
        if not focused or tab_index < 0 or not visible:
            problems.append(f"the switch to {other} is not keyboard-focusable and visible")
        if lang != html_lang(other):
            problems.append(f"the switch to {other} is not marked with its language ({html_lang(other)})")
        rel = urllib.parse.unquote(urllib.parse.urlparse(href).path).lstrip("/")
        expected = counterpart(path, other)
        if rel != expected or not (pathlib.Path(site) / rel).is_file():
            problems.append(f"the switch to {other} goes to {rel}, expected the existing page {expected}")
    switches = await page.locator("a.ae-lang-switch").count()
    if switches != len(editions()) - 1:
        problems.append(f"{switches} switch links, expected one per other edition ({len(editions()) - 1})")
    return problems


EXPLORERS_FIT = js("explorers_fit")
EXPLORERS_READY = js("explorers_ready")
CHECKS_BANK = js("checks_bank")  # the answer boxes' checker on a list of answers (test_site_checks.py)
LAB_WORKER_STEP = js("lab_worker_step")  # the step the lab's training Worker says it is at (test_site_lab.py)


class _Recorder:
    """What the page in one tab logs and requests, started afresh for each page it opens."""

    def __init__(self, page):
        self.clear()
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.console.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.failed.append(r.url))
        page.on("response", lambda r: self.failed.append(f"{r.url} ({r.status})") if r.status >= 400 else None)

    def clear(self):
        self.console, self.requests, self.failed = [], [], []


async def launch(playwright):
    """Debian's Chromium, as the book drives it (attention_workshop.chromium), from Playwright's asynchronous API."""
    return await playwright.chromium.launch(executable_path=browsers.find_chromium(), args=browsers.CHROMIUM_ARGS)


def run_async(coroutine):
    """Run ``coroutine`` to its end in a thread of its own and return its result (or raise its error here): the
    test's thread may already run Playwright's synchronous API, whose event loop ``asyncio.run`` cannot share."""
    outcome: dict = {}

    def run():
        try:
            outcome["result"] = asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


class Sweep:
    """Every reader-facing page of one edition, loaded once per setting (at a setting in ``ONLY``, the pages it
    names); ``sweep.at(width, scheme, edition)`` -> ``{path: Load}``.

    A setting of an edition is one browser context (the viewport and the colour scheme) with ``PARALLEL`` tabs that
    take the pages in turn, driven by Playwright's asynchronous API in a thread of its own. A reader's browser keeps
    its cache from page to page, and so does every setting. The bytes a first visit transfers are still what the
    first setting measures: the browser's resource timing lists every file a page uses, those read from the cache
    included (``USED``), and a first visit transfers each of them whole, as the plain server sends the file on
    disk. Switching the cache off for that setting instead cost about 18 CPU-seconds of loading and compiling the
    same scripts again, and listed no file the cached pages did not (compared on every page of both editions).
    One context per setting and edition rather than one per page: a new context starts a new renderer and costs
    about three times the processor time of the page itself. One setting of one edition is one unit of the gate
    (tests/site/test_site_sweep.py): at 1280 px light, the dearest, about 35 CPU-seconds; all of one setting's
    editions in one unit took 120-165 s of one process."""

    PARALLEL = 2

    def __init__(self, site, server: str):
        self.site, self.server = site, server
        self.pages = reader_pages(site)
        self.loads: dict[tuple[int, str, str], dict[str, Load]] = {}

    def of(self, edition: str) -> list[str]:
        """The reader-facing pages of ``edition``."""
        return [path for path in self.pages if edition_of(path) == edition]

    def at(self, width: int, scheme: str, edition: str) -> dict[str, Load]:
        if (width, scheme, edition) not in self.loads:
            SHOTS.mkdir(parents=True, exist_ok=True)
            pages = [path for path in self.of(edition) if path in ONLY.get((width, scheme), self.pages)]
            self.loads[width, scheme, edition] = run_async(self._sweep(width, scheme, pages))
        return self.loads[width, scheme, edition]

    async def _sweep(self, width: int, scheme: str, pages: list[str]) -> dict[str, Load]:
        from playwright.async_api import async_playwright

        queue, loads, kinds = list(pages), [], []  # kinds: the kinds of text colour contrast has judged
        async with async_playwright() as p:
            browser = await launch(p)
            context = await browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)

            async def tab():
                page = await context.new_page()
                recorder = _Recorder(page)
                while queue:
                    path = queue.pop(0)
                    await page.goto("about:blank")
                    recorder.clear()
                    loads.append(await self._load(page, recorder, path, width, scheme, kinds))
                await page.close()

            await asyncio.gather(*(tab() for _ in range(self.PARALLEL)))
            await context.close()
            await browser.close()
        return {load.path: load for load in sorted(loads, key=lambda load: load.path)}

    async def _load(self, page, recorder: _Recorder, path: str, width: int, scheme: str, kinds: list) -> Load:
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        await page.goto(f"{self.server}/{path}", wait_until="load", timeout=LOAD_TIMEOUT_MS)
        first = (width, scheme) == FIRST
        if first or path in EXPLORER_PAGES:
            # A quiet network: what the page fetches on load is then in its resource timing (the budget counts it).
            # On a busy machine one of the two tabs has waited minutes for a font the other tab was fetching (they
            # share an HTTP cache): after QUIET_MS the page is judged as it stands; settle waits for its fonts.
            with contextlib.suppress(PlaywrightTimeout):
                await page.wait_for_load_state("networkidle", timeout=QUIET_MS)
        await page.wait_for_function(EXPLORERS_READY, timeout=LOAD_TIMEOUT_MS)  # every live explorer has drawn
        await settle(page)  # fonts requested by the first layout; the explorers draw after load
        found = await page.evaluate(OVERFLOW)
        local = (self.server, "data:", f"blob:{self.server}")
        load = Load(
            path=path,
            theme=await page.evaluate(THEME),
            scroll=tuple(found["page"]),
            overflow=found["elements"] + await page.evaluate(EXPLORERS_FIT),
            outside=[url for url in recorder.requests if not url.startswith(local)],
            errors=list(recorder.console),  # copies: what axe fetches later (it re-reads stylesheets) is not the page's
            failed=list(recorder.failed),
            explorer=await page.locator(".ae-explorer").count() > 0,
        )
        if first:
            used = await page.evaluate(USED) + await page.evaluate(IMAGES)  # lazy figures below the fold too
            load.bytes = _bytes_on_disk(self.site, self.server, used)
            load.axe, load.alt = await _axe(page, kinds), await _bad_alt(page)
            load.switch = await _switch(page, self.site, path)
        if (width, scheme) == (1280, "dark") and path in EXPLORER_PAGES:
            load.axe_dark = await _axe(page, kinds, colours_only=True)
        stem = path.removesuffix(".html").replace("/", "__")
        whole = edition_of(path) in WHOLE_PAGE_SHOTS.get((width, scheme), ())
        await page.screenshot(path=str(SHOTS / f"{stem}-{width}-{scheme}.jpg"), full_page=whole, quality=80)
        return load


# How long the sweep waits for a page to load, go quiet and draw its explorers. The sweep judges what a page shows,
# not how fast (make bench times pages); on a two-core machine busy with the rest of the gate a page has taken more
# than Playwright's default 30 s to go quiet, and one such page failed every test of its setting.
LOAD_TIMEOUT_MS = 120_000
QUIET_MS = 15_000  # how long a page of the sweep may take to go quiet before it is judged as it stands


@pytest.fixture(scope="session")
def sweep(site, server, chromium_browser) -> Sweep:  # chromium_browser: skipped or failed as the other tests
    """The one pass over every page at each setting (:class:`Sweep`); each setting is loaded when first asked."""
    return Sweep(site, server)
