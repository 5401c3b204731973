"""Every page of every edition, loaded once per setting (``sweep`` in tests/site/conftest.py), checked for
everything a whole-site pass checks: axe and alt text, nothing wider than the screen, the weight budget, no
outside request, no console error, and a language switch that leads to the same page in each other edition.

Settings (``SETTINGS``): every page at 1280 px light and at 390 px (a phone) dark, the pages with explorers at
1280 px dark (the theme follows the reader's setting); 390 px light is not loaded, its layout being 390 px dark's
and its colours 1280 px light's (the comment at ``SETTINGS`` says which setting checks what). Screenshots of every
page loaded go to ``_build/screenshots/``: look at them. They show the whole page at 390 px dark,
and in English at 1280 px light, and the first screen otherwise (``WHOLE_PAGE_SHOTS``). Axe runs every rule
once on every page of every edition, at 1280 px light, and on the pages with explorers in the dark the one rule
whose verdict depends on the colours (colour contrast): its other rules judge names, roles and structure, which
neither the width nor the colour scheme changes. Colour contrast judges each kind of text (its colours, size and
what lies behind it) once per setting and edition, on the first page that shows it (``CONTRAST_SAMPLES``), not
every element of every page again. No axe rule is disabled.

The tests of one setting of one edition form one unit (``xdist_group`` ``sweep-<width>-<scheme>-<edition>``):
under ``make test`` the nine units run on whichever cores are free, each one's pages loaded once, in the process
that runs it. The dearest unit, 1280 px light (axe, the bytes, whole-page screenshots), takes about 35
CPU-seconds; one unit per setting for all editions took up to 165 s of one process.
"""

from __future__ import annotations

import pytest

from attention_workshop.paths import editions
from tests.site.conftest import EXPLORER_PAGES, FIRST, SAMPLES, SETTINGS, _axe, launch, run_async, settle


def unit(width: int, scheme: str, edition: str):
    """The mark that keeps the tests of one setting of one edition in one process (one sweep of its pages)."""
    return pytest.mark.xdist_group(f"sweep-{width}-{scheme}-{edition}")


EVERY_SETTING = [pytest.param(w, s, e, marks=unit(w, s, e), id=f"{w}-{s}-{e}") for w, s in SETTINGS for e in editions()]
AT_FIRST = [pytest.param(e, marks=unit(*FIRST, e), id=e) for e in editions()]  # every edition at 1280 px light
IN_THE_DARK = [pytest.param(e, marks=unit(1280, "dark", e), id=e) for e in editions()]

MiB = 1024 * 1024
PAGE_BUDGET = 1.5 * MiB  # bytes a page transfers with a cold cache (uncompressed, as a plain server sends them)
EXPLORER_PAGE_BUDGET = 2 * MiB  # ... on a page with a live explorer


def test_the_sweep_covers_every_edition(sweep):
    for edition in editions():
        assert len(sweep.of(edition)) >= 14, (edition, sweep.of(edition))
    assert set(EXPLORER_PAGES) <= set(sweep.pages), sorted(set(EXPLORER_PAGES) - set(sweep.pages))


@pytest.mark.parametrize("edition", AT_FIRST)
def test_every_page_passes_axe_and_has_alt_text(sweep, edition):
    problems = []
    for path, load in sweep.at(*FIRST, edition).items():
        problems += [f"{path}: {p}" for p in load.axe + load.alt]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("edition", IN_THE_DARK)
def test_the_pages_with_explorers_keep_their_contrast_in_the_dark(sweep, edition):
    loads = sweep.at(1280, "dark", edition)
    assert all(loads[path].axe_dark is not None for path in EXPLORER_PAGES if path in loads)
    assert any(path in loads for path in EXPLORER_PAGES), f"no page with an explorer in {edition}"
    problems = [f"{path} (dark): {p}" for path, load in loads.items() for p in load.axe_dark or []]
    assert not problems, "\n".join(problems)


def test_each_kind_of_text_is_judged_once_and_a_faint_one_is_caught(server):
    """The sampling of colour contrast (``CONTRAST_SAMPLES``): a second look at a page judges nothing again, and a
    colour too faint to read is still caught, in prose, in a link and in highlighted code."""

    async def run():
        from playwright.async_api import async_playwright

        async with async_playwright() as p:
            browser = await launch(p)
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(f"{server}/notebooks/02_context_without_attention.html", wait_until="load")
            await settle(page)  # the theme's colour transitions end, as in the sweep
            seen: list[str] = []
            clean = await _axe(page, seen, colours_only=True)
            judged, marked = list(seen), await page.locator(SAMPLES).count()
            again = await _axe(page, seen, colours_only=True)
            faint = {}
            for name, css in FAINT.items():
                style = await page.add_style_tag(content=f"{css} {{ color: #e4e4e4 !important; }}")
                faint[name] = await _axe(page, list(judged), colours_only=True)
                await style.evaluate("s => s.remove()")
            await browser.close()
            return clean, judged, marked, again, seen, faint

    clean, judged, marked, again, seen, faint = run_async(run())
    assert clean == [] and again == [] and len(judged) == marked >= 10, (clean, again, len(judged), marked)
    assert seen == judged, "a second look at the same page judged the same kinds of text again"
    for name, found in faint.items():
        assert any(f.startswith("color-contrast") for f in found), (name, found)


FAINT = {  # a rule that makes one kind of text too faint to read, on lesson 02's page
    "prose": "article p",
    "link": "article a.reference",
    "code keyword": ".highlight .k",  # keywords share one class (ae_code.plain_formatter)
    "code name": ".highlight pre",  # a name (Pygments' .n) has no span now: it is the <pre>'s plain text
}


@pytest.mark.parametrize("width,scheme,edition", EVERY_SETTING)
def test_no_page_overflows_and_screenshots_are_saved(sweep, width, scheme, edition):
    problems = []
    for path, load in sweep.at(width, scheme, edition).items():
        if load.theme != scheme:
            problems.append(f"{path}: the theme did not follow the {scheme} colour scheme ({load.theme})")
        scroll, client = load.scroll
        if scroll > client + 1:
            problems.append(f"{path} at {width}px {scheme}: the page scrolls sideways ({scroll} > {client})")
        problems += [f"{path} at {width}px {scheme}: {e}" for e in load.overflow]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("edition", AT_FIRST)
def test_every_page_fits_its_budget_with_a_cold_cache(sweep, edition):
    over = []
    for path, load in sweep.at(*FIRST, edition).items():
        total = sum(size for _, size in load.bytes)
        budget = EXPLORER_PAGE_BUDGET if load.explorer else PAGE_BUDGET
        if total > budget:
            largest = sorted(load.bytes, key=lambda e: -e[1])[:5]
            names = ", ".join(f"{name.rsplit('/', 1)[-1]} {size / 1024:.0f} KiB" for name, size in largest)
            over.append(f"{path}: {total / MiB:.2f} MiB > {budget / MiB:.1f} MiB; largest: {names}")
    assert not over, "\n".join(over)


@pytest.mark.parametrize("width,scheme,edition", EVERY_SETTING)
def test_every_page_is_local_and_error_free(sweep, width, scheme, edition):
    problems = []
    for path, load in sweep.at(width, scheme, edition).items():
        for what, found in (("requests", load.outside), ("console errors", load.errors), ("failed", load.failed)):
            if found:
                problems.append(f"{path} at {width}px {scheme}: {what} {found}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("edition", AT_FIRST)
def test_every_page_has_a_named_focusable_switch_to_its_counterpart(sweep, edition):
    problems = [f"{path}: {p}" for path, load in sweep.at(*FIRST, edition).items() for p in load.switch]
    assert not problems, "\n".join(problems)
