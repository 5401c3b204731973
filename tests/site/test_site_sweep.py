"""Every page of both editions, loaded once per setting (``sweep`` in tests/site/conftest.py), checked for
everything a whole-site pass checks: axe and alt text, nothing wider than the screen, the weight budget, no
outside request, no console error, and a language switch that leads to the same page in the other edition.

Settings: 1280 px and 390 px (a phone), light and dark (the theme follows the reader's setting). Screenshots of
every page at every setting go to ``_build/screenshots/``: look at them. They show the whole page at 1280 px light
and 390 px dark, and the first screen at 1280 px dark and 390 px light (``WHOLE_PAGE_SHOTS``). Axe runs every rule at
1280 px light, and on the pages with explorers in the dark the one rule whose verdict depends on the colours
(colour contrast). Colour contrast judges each kind of text (its colours, size and what lies behind it) once per
setting, on the first page that shows it (``CONTRAST_SAMPLES``), not every element of every page again. No axe
rule is disabled.

The tests of one setting form one group (``xdist_group``): under ``make test`` the four settings' sweeps run on
whichever cores are free, each setting's pages loaded once, in the process that runs its group.
"""

from __future__ import annotations

import pytest

from tests.site.conftest import EXPLORER_PAGES, FIRST, SAMPLES, SETTINGS, _axe, launch, run_async, settle


def setting(width: int, scheme: str):
    """The mark that keeps the tests of one setting in one process (one sweep of that setting)."""
    return pytest.mark.xdist_group(f"sweep-{width}-{scheme}")


EVERY_SETTING = [pytest.param(w, s, marks=setting(w, s), id=f"{w}-{s}") for w, s in SETTINGS]

MiB = 1024 * 1024
PAGE_BUDGET = 1.5 * MiB  # bytes a page transfers with a cold cache (uncompressed, as a plain server sends them)
EXPLORER_PAGE_BUDGET = 2 * MiB  # ... on a page with a live explorer


@setting(*FIRST)
def test_the_sweep_covers_both_editions(sweep):
    pages = sweep.pages
    chinese = [p for p in pages if p.startswith("zh/")]
    assert set(EXPLORER_PAGES) <= set(pages) and len(chinese) >= 14 and len(pages) >= 28, pages


@setting(*FIRST)
def test_every_page_passes_axe_and_has_alt_text(sweep):
    problems = []
    for path, load in sweep.at(*FIRST).items():
        problems += [f"{path}: {p}" for p in load.axe + load.alt]
    assert not problems, "\n".join(problems)


@setting(1280, "dark")
def test_the_pages_with_explorers_keep_their_contrast_in_the_dark(sweep):
    loads = sweep.at(1280, "dark")
    assert all(loads[path].axe_dark is not None for path in EXPLORER_PAGES)
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


@pytest.mark.parametrize("width,scheme", EVERY_SETTING)
def test_no_page_overflows_and_screenshots_are_saved(sweep, width, scheme):
    problems = []
    for path, load in sweep.at(width, scheme).items():
        if load.theme != scheme:
            problems.append(f"{path}: the theme did not follow the {scheme} colour scheme ({load.theme})")
        scroll, client = load.scroll
        if scroll > client + 1:
            problems.append(f"{path} at {width}px {scheme}: the page scrolls sideways ({scroll} > {client})")
        problems += [f"{path} at {width}px {scheme}: {e}" for e in load.overflow]
    assert not problems, "\n".join(problems)


@setting(*FIRST)
def test_every_page_fits_its_budget_with_a_cold_cache(sweep):
    over = []
    for path, load in sweep.at(*FIRST).items():
        total = sum(size for _, size in load.bytes)
        budget = EXPLORER_PAGE_BUDGET if load.explorer else PAGE_BUDGET
        if total > budget:
            largest = sorted(load.bytes, key=lambda e: -e[1])[:5]
            names = ", ".join(f"{name.rsplit('/', 1)[-1]} {size / 1024:.0f} KiB" for name, size in largest)
            over.append(f"{path}: {total / MiB:.2f} MiB > {budget / MiB:.1f} MiB; largest: {names}")
    assert not over, "\n".join(over)


@pytest.mark.parametrize("width,scheme", EVERY_SETTING)
def test_every_page_is_local_and_error_free(sweep, width, scheme):
    problems = []
    for path, load in sweep.at(width, scheme).items():
        for what, found in (("requests", load.outside), ("console errors", load.errors), ("failed", load.failed)):
            if found:
                problems.append(f"{path} at {width}px {scheme}: {what} {found}")
    assert not problems, "\n".join(problems)


@setting(*FIRST)
def test_every_page_has_a_named_focusable_switch_to_its_counterpart(sweep):
    problems = [f"{path}: {p}" for path, load in sweep.at(*FIRST).items() for p in load.switch]
    assert not problems, "\n".join(problems)
