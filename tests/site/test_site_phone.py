"""Reading the website on a phone, 390 px wide, in both editions (issue 20, item 5; the lab's "Back to top" in English).

- A long inline formula (an exercise's solution in lessons 04 and 06) scrolls inside its own box to its last digit
  instead of being cut off; a formula that fits gets no scroll bar (its glyphs overhang their box by a few pixels).
- A Chinese table keeps room for a few characters in every cell (lesson 08's labels were one character per line).
- The notation table fits the screen: each row is the symbol and its shape, then the meaning across the width.
- The search field's text starts after its magnifier, on the search page and in the search dialog.
- Search results summarise a page's text without the language switch, the PDF link, the print-only contents or
  an explorer's no-JavaScript line; a glossary hit is titled with its term and summarised by its definition.

Screenshots of each case go to ``_build/screenshots/phone/`` (kept by CI with the other screenshots).
"""

from __future__ import annotations

import os
import pathlib
import re

import pytest

from tests.helpers import ROOT
from tests.site.conftest import eventually, settle

SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots")) / "phone"
PHONE = 390
EDITIONS = ("", "zh/")

# Formulas in the exercise solutions that are wider than a phone's column, by a number only their end shows.
# The solutions whose numbers once sat in inline formulas wider than a phone (issue 29): now display math.
SOLUTION_NUMBERS = {
    "notebooks/04_from_scores_to_weights.html": ["−34"],  # (5/4, −3/4): a fraction reads as its digits
    "notebooks/06_same_content_different_state.html": ["0.5245", "1.3673"],
}


def _shot(page, name: str, locator=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    (locator or page).screenshot(path=str(SHOTS / f"{name}.png"))


def _open(visit, path: str, width: int = PHONE):
    v = visit.make(width=width, height=844)
    page = v.open(path)
    return v, page


# The inline formulas of a page: [text, box width, formula width, overflow-x, tabindex, class ae-scrolls].
FORMULAS = """
(root) => [...(root || document).querySelectorAll('span.math')].map((box) => [
  box.textContent, box.clientWidth, box.querySelector('mjx-container > svg').getBoundingClientRect().width,
  getComputedStyle(box).overflowX, box.getAttribute('tabindex'), box.classList.contains('ae-scrolls'),
])
"""


# Display formulas of a page: [text, box width, formula width].
DISPLAYS = """
() => [...document.querySelectorAll('div.math > mjx-container[display="true"]')].map((box) => [
  box.textContent, box.clientWidth, box.querySelector(':scope > svg').getBoundingClientRect().width,
])
"""


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", sorted(SOLUTION_NUMBERS))
def test_a_solutions_numbers_read_whole_on_a_phone(visit, edition, path):
    """On a 390 px phone, nothing in the solutions reads wrong before scrolling: every inline formula fits its
    line, and the numbers that once sat in too-wide inline formulas are display formulas that fit the column."""
    v, page = _open(visit, edition + path)
    page.evaluate("document.querySelectorAll('details.sd-dropdown').forEach((d) => { d.open = true; })")
    settle(page)
    for text, width, formula, *_ in page.evaluate(FORMULAS, None):
        assert formula <= width + 2, f"{text!r} is wider than its line on a phone ({formula:.0f} > {width} px)"
    shown = {number: False for number in SOLUTION_NUMBERS[path]}
    for text, width, formula in page.evaluate(DISPLAYS):
        for number in shown:
            if number in text:
                assert formula <= width + 2, f"{text!r} is wider than a phone's column"
                shown[number] = True
    assert all(shown.values()), f"expected display formulas showing {shown} in {path}"
    _shot(
        page,
        f"{edition.strip('/') or 'en'}-{path.split('/')[1][:2]}-solution",
        page.locator("details.sd-dropdown").first,
    )
    v.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_long_inline_formula_scrolls_to_its_end(visit, edition):
    """No inline formula of the book is wider than a phone today; one made that wide (its formula stretched to
    800 px) must scroll inside its box, by keyboard too, to its end (ae-site.js)."""
    v, page = _open(visit, edition + "notebooks/04_from_scores_to_weights.html")
    box = page.locator("span.math").first
    box.evaluate("(e) => { e.querySelector('mjx-container > svg').style.width = '800px'; }")
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    assert eventually(box, "(e) => e.classList.contains('ae-scrolls')"), "a too-wide formula is not marked to scroll"
    text, width, formula, overflow, tabindex, scrolls = page.evaluate(FORMULAS, None)[0]
    assert formula > width and overflow in ("auto", "scroll") and scrolls and tabindex == "0", (text, overflow)
    box.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # the focused formula scrolls with the keyboard
    assert eventually(box, "(e) => e.scrollLeft > 0"), f"{text!r} does not scroll with the keyboard"
    box.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    right = box.evaluate(
        "(e) => e.querySelector('mjx-container > svg').getBoundingClientRect().right - e.getBoundingClientRect().right"
    )
    assert right <= 1.5, f"{text!r}: its end stays {right:.0f} px out of view"
    box.evaluate("(e) => { e.querySelector('mjx-container > svg').style.width = ''; }")
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    assert eventually(box, "(e) => !e.classList.contains('ae-scrolls') && !e.hasAttribute('tabindex')")
    v.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_inline_formula_scrolls_on_a_wide_screen(visit, edition):
    v, page = _open(visit, edition + "notebooks/06_same_content_different_state.html", width=1280)
    page.evaluate("document.querySelectorAll('details.sd-dropdown').forEach((d) => { d.open = true; })")
    settle(page)
    formulas = page.evaluate(FORMULAS, None)
    assert len(formulas) > 20
    assert [f[0] for f in formulas if f[3] != "hidden" or f[5]] == [], "formulas with a scroll bar at 1280 px"
    v.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_table_cell_has_room_for_a_few_characters(visit, edition):
    v, page = _open(visit, edition + "notebooks/08_toward_the_next_structure.html")
    cells = page.evaluate(
        """() => [...document.querySelectorAll('article table :is(td, th)')].map((c) => {
          const s = getComputedStyle(c);
          return [c.textContent.trim(), c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
                  parseFloat(s.fontSize)];
        })"""
    )
    assert len(cells) >= 9
    narrow = [(text, round(width)) for text, width, font in cells if len(text) >= 3 and width < 3 * font]
    assert not narrow, f"cells narrower than three characters: {narrow}"
    table = page.locator("article table").first
    table.scroll_into_view_if_needed()
    _shot(page, f"{edition.strip('/') or 'en'}-08-table", table)
    v.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_notation_table_fits_a_phone(visit, edition):
    v, page = _open(visit, edition + "book/notation.html")
    box = page.locator(".pst-scrollable-table-container").first
    assert box.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), "the notation table scrolls sideways"
    rows = page.evaluate(
        """() => [...document.querySelectorAll('article table tr')].map((tr) => {
          const [symbol, shape, meaning] = [...tr.children].map((c) => c.getBoundingClientRect());
          return [tr.textContent.trim().slice(0, 30), symbol.top, shape.top, meaning.top, meaning.width];
        })"""
    )
    assert len(rows) >= 20
    column = box.evaluate("(e) => e.clientWidth")
    for text, symbol_top, shape_top, meaning_top, meaning_width in rows:
        assert abs(symbol_top - shape_top) < 1, f"{text}: the symbol and its shape share a line"
        assert meaning_top > symbol_top and meaning_width >= column - 2, f"{text}: the meaning spans the width"
    clipped = page.evaluate(FORMULAS, None)
    assert not [f[0] for f in clipped if f[5]], "a formula in the notation needs scrolling"
    _shot(page, f"{edition.strip('/') or 'en'}-notation", page)
    v.close()
    # a wide screen keeps the table: three columns, one row per symbol
    v, page = _open(visit, edition + "book/notation.html", width=1280)
    tops = page.evaluate("() => [...document.querySelector('article tbody tr').children].map((c) => c.offsetTop)")
    assert len(set(tops)) == 1 and len(tops) == 3
    v.close()


SEARCH_ICON = """
(form) => {
  const input = form.querySelector('input[name="q"]');
  const icon = form.querySelector('.fa-magnifying-glass');
  const s = getComputedStyle(input);
  const textStart = input.getBoundingClientRect().left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft);
  return [icon.getBoundingClientRect().right, textStart];
}
"""


@pytest.mark.parametrize("edition", EDITIONS)
def test_search_text_starts_after_the_magnifier(visit, edition):
    v, page = _open(visit, edition + "search.html")
    form = page.locator("form.bd-search").filter(has=page.locator("input:visible")).first
    form.locator("input").fill("attention")
    icon_right, text_start = form.evaluate(SEARCH_ICON)
    assert icon_right <= text_start, f"the magnifier ends at {icon_right} px, the text starts at {text_start} px"
    _shot(page, f"{edition.strip('/') or 'en'}-search-field", form)
    v.close()
    v, page = _open(visit, edition + "notebooks/04_from_scores_to_weights.html")
    page.locator("button.search-button").first.click()  # the search dialog of every page
    dialog = page.locator("#pst-search-dialog form.bd-search")
    dialog.locator("input").wait_for(state="visible")
    icon_right, text_start = dialog.evaluate(SEARCH_ICON)
    assert icon_right <= text_start, "in the search dialog, the magnifier covers the text"
    v.close()


# What the website writes around a page's text, which a search summary must not quote.
CONTROLS = {
    "": ["This book as a PDF", "needs JavaScript", "Contents"],
    "zh/": ["本书的 PDF 版", "需要浏览器启用 JavaScript", "目录"],
}
QUERIES = {"": ["context vector", "softmax"], "zh/": ["上下文向量", "注意力"]}


def _results(page, timeout_ms: int = 15000) -> list[tuple[str, str, str]]:
    """(title, link, summary) of every result, once each page's summary has been fetched."""
    page.locator("#search-results li").first.wait_for(timeout=timeout_ms)
    page.wait_for_function(
        """() => { const items = [...document.querySelectorAll('#search-results li')];
                   const status = document.querySelector('#search-results p.search-summary');
                   return status && status.textContent !== '' && items.length > 0
                     && items.every((li) => li.querySelector('p.context') || li.querySelector('span')); }""",
        timeout=timeout_ms,
    )
    return page.evaluate(
        """() => [...document.querySelectorAll('#search-results li')].map((li) => [
          li.querySelector('a').textContent, li.querySelector('a').getAttribute('href'),
          (li.querySelector('p.context') || {textContent: ''}).textContent])"""
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_search_summaries_quote_only_the_page_text(visit, edition):
    v = visit.make(width=PHONE, height=844)
    for query in QUERIES[edition]:
        page = v.open(f"{edition}search.html?q={query}")
        results = _results(page)
        assert len(results) >= 8, f"{query}: {len(results)} results"
        for title, link, summary in results:
            quoted = [c for c in CONTROLS[edition] if c in summary]
            assert not quoted, f"{query}: the summary of {title} ({link}) quotes {quoted}: {summary[:200]!r}"
        glossary = [(title, link, summary) for title, link, summary in results if "#term-" in link]
        assert glossary, f"{query}: no glossary hit"
        titles = [title for title, _, _ in glossary]
        assert len(set(titles)) == len(titles), f"{query}: glossary hits share a title: {titles}"
        for title, _, summary in glossary:
            term = re.sub(r"\s*\(.*\)$", "", title)
            assert term and term.lower() in summary.lower(), f"{title}: not titled with its term"
            assert len(summary) > len(term) + 20, f"{title}: the summary is not the term's definition: {summary!r}"
    _shot(page, f"{edition.strip('/') or 'en'}-search-results", page)
    v.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_figures_get_the_column_their_text_is_sized_for(visit, edition):
    """Figure text is sized so that it reads at 9 CSS px or more once a figure is shrunk into a phone's column
    of ``PHONE_WIDTH`` px (attention_core/figures/display.py); on a 390 px screen every wide figure of lesson 07
    (the grids with the smallest text) must be shown at least that wide."""
    from attention_core.figures.display import PHONE_WIDTH

    v, page = _open(visit, edition + "notebooks/07_learning_without_labels.html")
    shown = page.locator("figure.ae-figure img").evaluate_all(
        "els => els.map(e => [Number(e.getAttribute('width')), e.getBoundingClientRect().width])"
    )
    wide = [width for natural, width in shown if natural > PHONE]
    assert len(wide) >= 4, shown
    assert min(wide) >= PHONE_WIDTH - 1, f"figures shown {min(wide):.0f} px wide, their text is sized for {PHONE_WIDTH}"
    v.close()


# ---------------------------------------------------------------------------------------------------------
# The laboratory on a phone (issue 31, item 5)

LAB_PAGE = "notebooks/07_learning_without_labels.html"
LAB_OPEN = '.ae-explorer.ae-lab-open[data-explorer="lab"]'
LONG = (  # 27 words, the longest of lesson 07's examples and punctuation at the end
    "the old quiet cat sees a small quiet red house near the cold river under this green big car with every old"
    " cold city behind a bird."
)


def _lab(visit, edition):
    v, page = _open(visit, f"{edition}{LAB_PAGE}")
    page.locator('.ae-explorer[data-explorer="lab"]').scroll_into_view_if_needed()
    root = page.locator(LAB_OPEN)
    root.wait_for(timeout=30000)
    return v, page, root


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_27_word_grid_reads_whole_on_a_phone(visit, edition):
    """At 390 px the grid of a 27-word sentence is wider than the column: its box scrolls sideways (a swipe
    scrolls it; the page does not), a line says so, the row labels stay in view, and the keys keep the cursor's
    cell on screen to the last column. The readout names the row once; a shorter sentence shrinks the boxes; an
    empty field is not an error; a full stop is stripped, with a note."""
    v, page, root = _lab(visit, edition)
    box = root.locator('input[type="text"]')
    box.fill(LONG)
    message = root.locator(".ae-lab-message")
    assert "ae-lab-error" not in (message.get_attribute("class") or "") and box.get_attribute("aria-invalid") is None
    assert len(message.inner_text()) > 0 and root.locator(".ae-lab-grid").first.get_attribute("data-cols") == "27"
    grid = root.locator(".ae-lab-grid").first
    wide = grid.evaluate("g => [g.scrollWidth, g.clientWidth, getComputedStyle(g).overflowX]")
    assert wide[0] > wide[1] and wide[2] == "auto", wide
    assert root.locator(".ae-lab-scrollcue").first.is_visible()
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth + 1")
    # by keys: End goes to the last column, and the box scrolls so that the cell is in view, beside the labels
    grid.focus()
    page.keyboard.press("End")
    settle(page)
    seen = grid.evaluate(
        """g => { const cur = g.getAttribute('data-cursor').split(',').map(Number);
                  const geom = g.getAttribute('data-geom').split(',').map(Number);
                  const cells = g.querySelector('.ae-lab-canvas').getBoundingClientRect();
                  const labels = g.querySelector('.ae-lab-rowcanvas').getBoundingClientRect();
                  const box = g.getBoundingClientRect();
                  const left = cells.left + geom[2] * cur[1], right = left + geom[2];
                  return [cur[1], left >= labels.right - 1, right <= box.right + 1, labels.left >= box.left - 1]; }"""
    )
    assert seen == [26, True, True, True], seen
    readout = root.locator(".ae-lab-readout").first.inner_text()
    assert re.search(r"Output word 1 “la”|第 1 个输出词“la”", readout) and not re.search(r"“1 ", readout), readout
    page.keyboard.press("Home")
    settle(page)
    assert grid.evaluate("g => g.scrollLeft") == 0
    _shot(page, f"{edition.strip('/') or 'en'}-lab-grid-27", root.locator(".ae-lab-gridbox").first)
    # by touch: a swipe scrolls the box (touch-action lets the browser pan it), a tap reads a cell
    touch = root.locator(".ae-lab-canvas").first.evaluate("c => getComputedStyle(c).touchAction")
    assert touch in ("manipulation", "pan-x pan-y pinch-zoom"), touch  # what the browser pans with a finger
    width = grid.evaluate("g => g.scrollWidth")
    box.fill("the cat sees a bird")
    assert grid.evaluate("g => g.scrollWidth") < width and grid.evaluate("g => g.scrollWidth <= g.clientWidth")
    assert root.locator(".ae-lab-scrollcue").first.is_hidden()
    box.fill("")
    assert "ae-lab-error" not in (message.get_attribute("class") or "") and box.get_attribute("aria-invalid") is None
    box.fill("the cat sees a bird.")
    assert box.get_attribute("aria-invalid") is None and root.locator(".ae-lab-grid").first.is_visible()
    assert message.inner_text() != "" and ("Punctuation" in message.inner_text() or "标点" in message.inner_text())
    assert v.console_errors() == []


@pytest.mark.parametrize("edition", EDITIONS[:1])
def test_back_to_top_gives_way_to_the_lab_results(visit, edition):
    """The theme's "Back to top" pill, fixed over the page, hides while the lab's results table is on screen. On the
    English page: every edition's runs the same scripts and styles (test_site_lab.py's
    test_every_edition_serves_the_same_lab), and a training run to its table in each cost 4-5 s loaded."""
    v, page, root = _lab(visit, edition)
    root.locator('[role="tab"]').nth(3).click()
    root.locator('input[type="number"]').nth(1).fill("20")
    root.locator(".ae-lab-primary").click()
    page.wait_for_function(
        f"() => document.querySelector('{LAB_OPEN}').getAttribute('data-ae-train-state') === 'done'", timeout=180000
    )
    table = root.locator(".ae-lab-table")
    table.scroll_into_view_if_needed()
    page.mouse.wheel(0, -40)  # scrolling up is what shows the pill
    settle(page)
    pill = page.locator("#pst-back-to-top")
    covered = page.evaluate(
        """() => { const p = document.querySelector('#pst-back-to-top'); if (!p) return false;
                   const s = getComputedStyle(p); if (s.display === 'none' || s.visibility === 'hidden') return false;
                   const a = p.getBoundingClientRect();
                   const b = document.querySelector('.ae-lab-table').getBoundingClientRect();
                   return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }"""
    )
    assert not covered
    assert page.evaluate("() => document.documentElement.classList.contains('ae-lab-results-in-view')")
    _shot(page, f"{edition.strip('/') or 'en'}-lab-results")
    assert pill.count() <= 1 and v.console_errors() == []
