"""Every page on a phone and a desktop, light and dark: nothing wider than the screen, screenshots to look at.

Each reader-facing page is opened at 390 px (a phone) and 1280 px, in the light and the dark colour scheme
(the theme follows the reader's setting). No element may reach past the right edge of the page unless it sits
inside a box that scrolls (wide equations, tables and code scroll inside their own box, with a visible cue).
Full-page screenshots go to ``_build/screenshots/`` (the CI keeps them as an artifact): look at them.
"""

from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")

# Elements whose right edge passes the viewport, unless an ancestor that scrolls or clips (and itself fits)
# contains them. Skipped: elements not shown (an empty box, hidden) and fixed-position layers such as the
# theme's closed side drawers, which never widen the page.
OVERFLOW = """
() => {
  const vw = document.documentElement.clientWidth;
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 1) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    let fixed = false;
    for (let f = el; f && f !== document.body; f = f.parentElement) {
      if (getComputedStyle(f).position === "fixed") { fixed = true; break; }
    }
    if (fixed) continue;
    let a = el.parentElement, contained = false;
    while (a && a !== document.body) {
      const st = getComputedStyle(a);
      if (/(auto|scroll|hidden|clip)/.test(st.overflowX) && a.getBoundingClientRect().right <= vw + 1) {
        contained = true;
        break;
      }
      a = a.parentElement;
    }
    if (contained) continue;
    const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "");
    found.push(`${name} (right edge ${Math.round(r.right)} px)`);
    if (found.length >= 8) break;
  }
  const s = document.scrollingElement;
  return { page: [s.scrollWidth, s.clientWidth], elements: found };
}
"""


def _pages(site):
    pages = (p.relative_to(site) for p in site.rglob("*.html"))
    return sorted(str(p) for p in pages if not {"_static", "_sources"} & set(p.parts) and p.name != "index.html")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_overflows_and_screenshots_are_saved(site, chromium_browser, server, width, scheme):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for path in _pages(site):
        context = chromium_browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{server}/{path}", wait_until="load")
        page.wait_for_timeout(250)
        theme = page.evaluate("document.documentElement.dataset.theme")
        assert theme == scheme, f"{path}: the theme did not follow the {scheme} colour scheme ({theme})"
        found = page.evaluate(OVERFLOW)
        scroll, client = found["page"]
        if scroll > client + 1:
            problems.append(f"{path} at {width}px {scheme}: the page scrolls sideways ({scroll} > {client})")
        problems += [f"{path} at {width}px {scheme}: {e}" for e in found["elements"]]
        stem = path.removesuffix(".html").replace("/", "__")
        page.screenshot(path=str(SHOTS / f"{stem}-{width}-{scheme}.png"), full_page=True)
        context.close()
    assert not problems, "\n".join(problems)
