"""The website's weight budget, in a real browser with an empty cache (issue 12).

Every reader-facing page transfers at most 1.5 MiB (uncompressed, as served from a plain local server), or
2 MiB on a page with a live explorer, counting the page and everything it loads until the network is idle
(fonts included) plus the figures it loads lazily as the reader scrolls (all of them: the budget is for
reading the whole page); each edition of the built site (English in ``_build/html``, Chinese in ``_build/html/zh``)
stays under 12 MB. ``make bench`` prints the same figures with first
paint and input-to-repaint times (timings are not tested: shared machines are noisy).
"""

from __future__ import annotations

import pathlib

MiB = 1024 * 1024
PAGE_BUDGET = 1.5 * MiB
EXPLORER_PAGE_BUDGET = 2 * MiB
SITE_BUDGET = 12_000_000  # bytes on disk of one edition: _build/html without zh/, and _build/html/zh

TRANSFERRED = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  return [nav, ...resources].map((e) => [e.name, e.encodedBodySize || 0]);
}
"""
IMAGES = "() => [...document.images].map((i) => i.src)"


def lazy_bytes(site, server: str, loaded: set[str], sources: list[str]) -> list[tuple[str, int]]:
    """The images of a page not fetched yet (loading="lazy", below the fold), with their size on disk."""
    local = [src for src in dict.fromkeys(sources) if src.startswith(server) and src not in loaded]
    files = [(src, pathlib.Path(site) / src.removeprefix(server + "/").split("?")[0]) for src in local]
    return [(src, path.stat().st_size) for src, path in files if path.is_file()]


def _pages(site):
    pages = (p.relative_to(site) for p in site.rglob("*.html"))
    return sorted(str(p) for p in pages if not {"_static", "_sources"} & set(p.parts))


def test_every_page_fits_its_budget_with_a_cold_cache(site, chromium_browser, server):
    over, seen = [], {}
    for path in _pages(site):
        context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})  # an empty cache
        page = context.new_page()
        page.goto(f"{server}/{path}", wait_until="load")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(200)  # fonts requested by the first layout
        entries = page.evaluate(TRANSFERRED)
        entries += lazy_bytes(site, server, {name for name, _ in entries}, page.evaluate(IMAGES))
        total = sum(size for _, size in entries)
        explorer = page.locator(".ae-explorer").count() > 0
        budget = EXPLORER_PAGE_BUDGET if explorer else PAGE_BUDGET
        seen[path] = total
        if total > budget:
            largest = sorted(entries, key=lambda e: -e[1])[:5]
            names = ", ".join(f"{name.removeprefix(server)} {size / 1024:.0f} KiB" for name, size in largest)
            over.append(f"{path}: {total / MiB:.2f} MiB > {budget / MiB:.1f} MiB; largest: {names}")
        context.close()
    assert len(seen) >= 10, f"expected the whole book, measured {sorted(seen)}"
    assert not over, "\n".join(over)


def test_built_site_is_small(site):
    """Each edition within the budget the issue set for the (then English-only) site."""
    root = pathlib.Path(site)
    files = [p for p in root.rglob("*") if p.is_file()]
    editions = {
        "English (_build/html without zh/)": [p for p in files if p.relative_to(root).parts[0] != "zh"],
        "Chinese (_build/html/zh)": [p for p in files if p.relative_to(root).parts[0] == "zh"],
    }
    assert editions["Chinese (_build/html/zh)"], "the Chinese edition is missing from the site"
    for name, chosen in editions.items():
        total = sum(p.stat().st_size for p in chosen)
        largest = sorted(chosen, key=lambda p: -p.stat().st_size)[:5]
        names = ", ".join(f"{p.relative_to(root)} {p.stat().st_size / 1e6:.1f} MB" for p in largest)
        assert total <= SITE_BUDGET, (
            f"the {name} edition holds {total / 1e6:.1f} MB > {SITE_BUDGET / 1e6:.0f} MB; {names}"
        )
    assert not list(root.rglob("*.map")), "source maps are never loaded by a page"


def test_no_page_loads_a_heavy_script(site):
    """The scripts that made pages heavy stay out: Font Awesome's, MathJax's and the widget manager's."""
    for path in _pages(site):
        html = (pathlib.Path(site) / path).read_text()
        for name in ("fontawesome.js", "tex-chtml.js", "embed-amd.js", "require.min.js"):
            assert name not in html, f"{path} loads {name}"
