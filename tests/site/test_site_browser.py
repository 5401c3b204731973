"""The built website in a real browser: typeset math, no dead controls, no outside request, no console error."""

import collections

import pytest

from tests.site.conftest import SEARCH_FINISHED, eventually, reader_pages, settle

LESSON_06 = "notebooks/06_same_content_different_state.html"
# Pages whose notebook shows an ipywidgets explorer: the site shows a note and a live twin instead.
NOTEBOOK_EXPLORERS = {
    "notebooks/01_reading_on_demand.html": "question",
    "notebooks/04_from_scores_to_weights.html": "score",
    "notebooks/05_additive_score.html": "state",
    "notebooks/06_same_content_different_state.html": "state",
}


def test_lesson_06_math_is_typeset_in_the_page(visit):
    page = visit.open(LESSON_06)
    assert page.locator("mjx-container").count() > 10
    assert page.locator(".math.notranslate:not(:has(mjx-container))").count() == 0, "some math stayed raw LaTeX"
    assert page.locator("script[src*='mathjax'], script[src*='tex-chtml']").count() == 0, "math is typeset at build"
    numbered = page.locator("div.math:has(span.eqno) mjx-container[display='true']")
    assert numbered.count() >= 2
    glyphs = page.evaluate(
        """() => {
          const uses = [...document.querySelectorAll('mjx-container svg use')];
          const ids = [...document.querySelectorAll('svg.ae-glyphs [id]')].map((e) => e.id);
          const missing = uses.map((u) => u.getAttribute('href'))
            .filter((h) => !document.getElementById(h.slice(1))?.closest('svg.ae-glyphs'));
          return {uses: uses.length, ids: ids.length, unique: new Set(ids).size, missing,
                  drawn: uses.filter((u) => u.getBBox().width > 0).length,
                  fonts: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /mathjax/i.test(n))};
        }"""
    )
    assert glyphs["uses"] > 100 and glyphs["missing"] == [], f"glyphs drawn from no outline: {glyphs['missing'][:5]}"
    assert glyphs["unique"] == glyphs["ids"], "an outline's id is given twice"
    assert glyphs["drawn"] == glyphs["uses"], "a glyph drawn from its outline has no size"
    assert glyphs["fonts"] == [], f"math loads MathJax files: {glyphs['fonts']}"
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_every_formula_gives_screen_readers_its_mathml(visit):
    """Each formula's hidden MathML is laid out as plain inline boxes (ae-theme-fixes.css, to cost less), and
    Chromium's accessibility tree still exposes it as MathML: one math node per formula outside a closed fold, and
    as many identifiers, operators, subscripts and fractions as that MathML holds."""
    page = visit.open("notebooks/07_learning_without_labels.html")
    counts = page.evaluate(
        """() => {
          const shown = [...document.querySelectorAll('mjx-assistive-mml > math')]
            .filter((m) => !m.closest('details:not([open])'));
          const count = (tag) => shown.reduce((n, m) => n + m.querySelectorAll(tag).length, 0);
          return {math: shown.length, mi: count('mi'), mo: count('mo'), msub: count('msub'), mfrac: count('mfrac'),
                  display: getComputedStyle(shown[0].querySelector('mi')).display};
        }"""
    )
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    roles = collections.Counter(n.get("role", {}).get("value") for n in tree if not n.get("ignored"))
    exposed = {"math": "MathMLMath", "mi": "MathMLIdentifier", "mo": "MathMLOperator", "msub": "MathMLSub",
               "mfrac": "MathMLFraction"}  # fmt: skip
    assert counts.pop("display") == "inline", "the hidden MathML is laid out as MathML again"
    assert counts["math"] > 50 and counts["mfrac"] > 0
    assert {tag: roles[role] for tag, role in exposed.items()} == counts


def test_code_that_scrolls_takes_a_tab_stop(visit):
    """The theme gives a code block or output that scrolls a tab stop and takes it from the others; the build makes
    its loop read every width before writing (theme_edits.tab_stops), with the same result."""
    v = visit.make(width=390)
    page = v.open("notebooks/07_learning_without_labels.html")
    page.wait_for_function("document.querySelector('pre')?.hasAttribute('tabindex')")
    stops = page.evaluate(
        """() => [...document.querySelectorAll('pre, .cell_output > .output')].map((e) =>
          [e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight, e.tabIndex])"""
    )
    assert any(wide for wide, _ in stops) and not all(wide for wide, _ in stops)
    assert all(tab == (0 if wide else -1) for wide, tab in stops), stops
    served = page.evaluate("() => fetch(document.querySelector('script[src*=\"pydata-sphinx-theme.js\"]').src)"
                           ".then((r) => r.text())")  # fmt: skip
    assert "(a=>a.map(e=>e.scrollWidth>e.clientWidth" in served and "{e.tabIndex=e.scrollWidth" not in served
    assert v.console_errors() == []


@pytest.mark.parametrize("path,kind", sorted(NOTEBOOK_EXPLORERS.items()))
def test_no_stored_widget_only_a_note_and_the_live_twin(visit, path, kind):
    page = visit.open(path)
    dead = page.locator(".widget-slider, .jupyter-widgets, .widget-subarea, [class*='jupyter-widget']")
    assert dead.count() == 0, f"{path} shows a stored ipywidget"
    assert page.locator("script[type*='jupyter.widget']").count() == 0, "widget state or views left in the page"
    assert page.locator("script[src*='embed-amd'], script[src*='require']").count() == 0, "widget manager loaded"
    note = page.locator(".ae-notebook-note")
    assert note.count() == 1
    assert "make lab" in note.inner_text() and "running kernel" in note.inner_text()
    target = note.locator("a").get_attribute("href")
    assert target == f"#ae-live-{kind}"
    twin = page.locator(f"{target}.ae-explorer.ae-x-ready[data-explorer='{kind}']")
    assert twin.count() == 1, f"the note's link must reach the live {kind} explorer"
    assert visit.console_errors() == []


def test_no_page_shows_a_stored_widget(site, visit):
    for path in reader_pages(site):
        text = (site / path).read_text()
        assert "application/vnd.jupyter.widget" not in text, f"{path} holds stored widget state or views"


def test_pages_load_no_font_awesome_script_and_no_source_map(site, visit):
    for path in reader_pages(site):
        assert "fontawesome.js" not in (site / path).read_text(), path
    assert not list(site.rglob("*.map")), "source maps are copied into the site"
    page = visit.open("notebooks/05_additive_score.html")
    icon = page.locator(".theme-switch-button i").first
    font = icon.evaluate("el => getComputedStyle(el, '::before').fontFamily")
    assert "Font Awesome" in font, "the theme's icons come from its webfont"


def test_search_page_finds_a_lesson(visit):
    page = visit.open("search.html?q=softmax")
    page.locator("#search-results li").first.wait_for(timeout=10000)
    page.wait_for_function(SEARCH_FINISHED, timeout=30000)  # results arrive one by one; count them once all are in
    assert page.locator("#search-results li").count() >= 3
    assert visit.console_errors() == []


def test_equations_that_scroll_take_keyboard_focus(visit):
    v = visit.make(width=390)
    page = v.open("notebooks/05_additive_score.html")
    boxes = page.locator('div.math > mjx-container[display="true"]')
    wide = boxes.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1).length")
    focusable = page.locator('div.math > mjx-container[display="true"][tabindex="0"]')
    assert wide >= 1 and focusable.count() == wide
    focusable.first.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # the focused box scrolls with the keyboard
    assert eventually(focusable.first, "e => e.scrollLeft > 0"), "the focused box does not scroll with the keyboard"


def test_figures_follow_the_dark_scheme(chromium_browser, server):
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    page.goto(f"{server}/notebooks/03_from_summary_to_rereading.html", wait_until="load")
    img = page.locator("figure.ae-figure img").first
    style = img.evaluate("e => { const s = getComputedStyle(e); return [s.filter, s.backgroundColor]; }")
    assert "invert" in style[0], "figures drawn dark-on-white are shown light-on-dark"
    assert style[1] in ("rgba(0, 0, 0, 0)", "transparent"), f"no light card behind a figure: {style[1]}"
    context.close()


def test_a_table_that_scrolls_fades_at_the_edge_where_more_hides(visit):
    v = visit.make(width=390)
    page = v.open("zh/notebooks/08_toward_the_next_structure.html")  # (the notation table fits a phone)
    box = page.locator(".pst-scrollable-table-container").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "expected lesson 08's Chinese table to scroll at 390 px"
    fade = "e => getComputedStyle(e).getPropertyValue('--ae-fade-right')"
    assert box.evaluate(fade) == "48px"  # the right edge fades: more of the table is there
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    assert eventually(box, f"e => ({fade})(e) === '0px'"), "scrolled to the end, the right edge still fades"


def test_a_settled_page_has_its_transitions_at_their_end(visit):
    """``settle`` (how every test waits for a loaded page): a colour fading in over ten seconds already shows its
    final colour, so the checks and screenshots that follow see the page as a reader sees it once it is still."""
    page = visit.open("notebooks/05_additive_score.html")
    fading = "getComputedStyle(document.querySelector('article p')).color"
    page.add_style_tag(content="article p { transition: color 10s linear; }")
    page.evaluate(fading)  # (read once: the transition starts from this colour)
    page.evaluate("document.querySelector('article p').style.color = 'rgb(255, 0, 0)'")
    assert page.evaluate(fading) != "rgb(255, 0, 0)", "the colour should still be fading"
    settle(page)
    assert page.evaluate(fading) == "rgb(255, 0, 0)"


# Every value the page's <html data-theme> is given while it loads, in order, as read when the observer is called
# (after the script that wrote it: two writes in one script would show as the second twice).
THEME_WRITES = """
window.__aeThemes = [];
new MutationObserver((records) => records.forEach((r) => {
  if (r.target === document.documentElement) window.__aeThemes.push(document.documentElement.dataset.theme);
})).observe(document, {attributes: true, attributeFilter: ['data-theme'], subtree: true});
"""


@pytest.mark.parametrize(
    "scheme,stored,theme",
    [("light", None, "light"), ("dark", None, "dark"), ("light", "dark", "dark"), ("dark", "auto", "dark")],
)
def test_the_colour_theme_is_resolved_once_in_the_head(chromium_browser, server, scheme, stored, theme):
    """The head's first script gives the page the theme the theme's main script resolves (theme_edits.theme_mode),
    so the main script writes the same value again: no page is styled twice as it loads (a first visit used to get
    the theme "auto" first, then the resolved one, and a phone computed every element's style a second time)."""
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{server}/book/notation.html", wait_until="load")
    # None: a first visit
    page.evaluate("(m) => { localStorage.clear(); if (m) localStorage.setItem('mode', m); }", stored)
    page.add_init_script(THEME_WRITES)
    page.goto(f"{server}/{LESSON_06}", wait_until="load")
    writes = page.evaluate("window.__aeThemes")
    assert writes and set(writes) == {theme}, writes
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    context.close()
