"""make bench's Lighthouse figures: the phone's CPU slowdown calibrated to the host as Lighthouse's docs advise."""

from __future__ import annotations

import pytest

from attention_workshop.bench_lighthouse import DEFAULT_SLOWDOWN, calibrated_slowdown, median_row


@pytest.mark.parametrize(("index", "slowdown"), [(150, 1.0), (800, 2.0), (1300, 3.0), (1533, 4.0), (2000, 6.0)])
def test_the_calculators_anchor_points(index, slowdown):
    assert calibrated_slowdown(index) == pytest.approx(slowdown, abs=0.01)


def test_the_slowdown_grows_with_the_host_and_meets_the_default_at_a_high_end_desktop():
    values = [calibrated_slowdown(i) for i in range(150, 2500, 7)]
    assert all(a < b for a, b in zip(values[:-1], values[1:], strict=True))
    assert calibrated_slowdown(1066) < DEFAULT_SLOWDOWN < calibrated_slowdown(1600)
    assert calibrated_slowdown(149) is None, "a host slower than the phone cannot stand in for it"


def test_medians_leave_out_failed_runs():
    rows = [{"performance": 80, "TBT ms": 500.0}, {"error": "no report"}, {"performance": 94, "TBT ms": 100.0},
            {"performance": 90, "TBT ms": None}]  # fmt: skip
    assert median_row(rows) == {"performance": 90, "TBT ms": 300.0}
    assert median_row([{"error": "x"}]) == {"error": "x"}


def test_the_render_when_parsed_copy_marks_every_page_and_compresses_it_again(tmp_path):
    """make bench audits a copy of the site with render_when_parsed applied; the copy's pages carry the mark and
    their compressed copies are of the marked pages (the server would send the .br copy, not the page)."""
    import brotli

    from attention_workshop import ae_seo, bench_lighthouse, theme_edits

    site = tmp_path / "html"
    site.mkdir()
    (site / "page.html").write_text("<html><head></head><body>" + "<p>x</p>" * 200 + "</body></html>")
    ae_seo.compress(site)
    copy = bench_lighthouse.render_when_parsed_copy(site, tmp_path / "scratch")
    marked = (copy / "page.html").read_text()
    assert theme_edits.PARSED_MARK in marked and theme_edits.PARSED_MARK not in (site / "page.html").read_text()
    assert brotli.decompress((copy / "page.html.br").read_bytes()).decode() == marked
