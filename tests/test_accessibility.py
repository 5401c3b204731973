"""Accessibility of every reader-facing page of the built site: an axe-core scan in Chromium.

No serious or critical violation on any page of either edition (and, for the pages with live explorers, in the
dark theme too), and every image in a page's main content has meaningful alt text. No axe rule is disabled.
"""

from __future__ import annotations

IMPACTS = ("serious", "critical")
EXPLORER_LESSONS = (
    "notebooks/01_reading_on_demand.html",
    "notebooks/04_from_scores_to_weights.html",
    "notebooks/05_additive_score.html",
    "notebooks/06_same_content_different_state.html",
    "notebooks/07_learning_without_labels.html",
)
EXPLORER_PAGES = EXPLORER_LESSONS + tuple(f"zh/{path}" for path in EXPLORER_LESSONS)  # both editions


def _pages(site):
    """Every reader-facing page (not the theme's template fragments under _static/ or the sources)."""
    pages = (p.relative_to(site) for p in site.rglob("*.html"))
    return sorted(str(p) for p in pages if not {"_static", "_sources"} & set(p.parts))


def _serious(axe, page, label: str) -> list[str]:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the explorers draw once the page has loaded
    found = []
    for x in axe.run(page).response["violations"]:
        if x["impact"] in IMPACTS:
            targets = [", ".join(node["target"]) for node in x["nodes"][:3]]
            found.append(f"{label}: {x['id']} ({x['impact']}, {len(x['nodes'])} nodes: {targets}): {x['help']}")
    return found


def _bad_alt(page, label: str) -> list[str]:
    bad = []
    for img in page.locator("main img").all():
        alt = (img.get_attribute("alt") or "").strip()
        if len(alt) < 20 or alt.startswith("<Figure") or alt.lower() in ("image", "png", "figure"):
            bad.append(f"{label}: image {(img.get_attribute('src') or '')[:50]!r} has alt text {alt!r}")
    return bad


def test_every_page_passes_axe_and_has_alt_text(site, visit):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    pages = _pages(site)
    assert set(EXPLORER_PAGES) <= set(pages) and len(pages) >= 8, f"expected the whole book, found {pages}"
    problems = []
    for path in pages:
        v = visit.make()
        page = v.open(path, settle_ms=200)
        problems += _serious(axe, page, path) + _bad_alt(page, path)
        if path in EXPLORER_PAGES:
            page.emulate_media(color_scheme="dark")  # the theme follows the reader's setting (default_mode: auto)
            page.reload(wait_until="load")
            problems += _serious(axe, page, f"{path} (dark)")
        v.close()
    assert not problems, "\n".join(problems)
