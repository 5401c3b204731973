"""The built website in a real browser: typeset math, rendered widgets, no outside request, no console error."""

import pytest

LESSON_06 = "notebooks/06_same_content_different_state.html"


def test_lesson_06_typesets_math_and_renders_its_slider(visit):
    page = visit.open(LESSON_06)
    page.wait_for_selector("mjx-container", timeout=15000)
    assert page.locator("mjx-container").count() > 10
    assert page.locator(".math.notranslate:not(:has(mjx-container))").count() == 0, "some math stayed raw LaTeX"
    slider = page.locator(".widget-slider").first
    slider.wait_for(timeout=15000)
    assert "state s" in page.locator(".widget-label").first.inner_text()
    frame = page.locator(".widget-html img").first
    assert "0.5414" in (frame.get_attribute("alt") or "")
    assert "0.5414" in page.locator(".ae-readout").first.inner_text()
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def _pages(site):
    """Every reader-facing page (not the theme's template fragments under _static/)."""
    pages = (p.relative_to(site) for p in site.rglob("*.html"))
    return sorted(str(p) for p in pages if p.parts[0] not in ("_static", "_sources"))


def test_every_page_is_local_and_error_free(site, visit):
    problems = []
    for path in _pages(site):
        v = visit.make()
        v.open(path, settle_ms=300)
        if v.outside_requests():
            problems.append(f"{path}: requests {v.outside_requests()}")
        if v.console_errors():
            problems.append(f"{path}: console errors {v.console_errors()}")
        if v.failed:
            problems.append(f"{path}: failed requests {v.failed}")
        v.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", ["book/intro.html", LESSON_06])
def test_figures_have_meaningful_alt_text(visit, path):
    page = visit.open(path)
    for img in page.locator("main img").all():
        alt = (img.get_attribute("alt") or "").strip()
        assert len(alt) > 20 and not alt.startswith("<Figure"), f"image without meaningful alt text on {path}"
