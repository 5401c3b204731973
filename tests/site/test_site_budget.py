"""The website's weight on disk: each edition of the built site (English in ``_build/html``, each other edition in
``_build/html/<code>``: locale/editions.toml) stays under 12 MB, and no page loads the heavy scripts the site
used to ship.

What each page transfers in a browser with an empty cache (1.5 MiB, or 2 MiB with a live explorer) is measured
by the sweep (tests/site/test_site_sweep.py). ``make bench`` prints the same figures with first paint and
input-to-repaint times (timings are not tested: shared machines are noisy).
"""

from __future__ import annotations

import pathlib

from attention_workshop.paths import translations
from tests.site.conftest import reader_pages

SITE_BUDGET = 12_000_000  # bytes on disk of one edition: _build/html without the others' folders, each of those


def test_built_site_is_small(site):
    """Each edition within the budget the issue set for the (then English-only) site. The precompressed copies
    (``.gz``, ``.br`` beside a text file: ae_seo.compress) are not counted: they are the same files in another
    encoding, and a host sends one of the three; each is smaller than its original."""
    root = pathlib.Path(site)
    copies = [p for p in root.rglob("*") if p.is_file() and p.suffix in (".gz", ".br")]
    assert all(p.stat().st_size < p.with_suffix("").stat().st_size for p in copies)
    files = [p for p in root.rglob("*") if p.is_file() and p.suffix not in (".gz", ".br")]
    others = translations()
    editions = {
        "English (_build/html without " + ", ".join(f"{c}/" for c in others) + ")": [
            p for p in files if p.relative_to(root).parts[0] not in others
        ]
    }
    for code in others:
        editions[f"{code} (_build/html/{code})"] = [p for p in files if p.relative_to(root).parts[0] == code]
        assert editions[f"{code} (_build/html/{code})"], f"the {code} edition is missing from the site"
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
    for path in reader_pages(site):
        html = (pathlib.Path(site) / path).read_text()
        for name in ("fontawesome.js", "tex-chtml.js", "tex-svg.js", "embed-amd.js", "require.min.js"):
            assert name not in html, f"{path} loads {name}"


def test_code_blocks_wrap_only_the_tokens_that_are_coloured(site):
    """Names, punctuation and whitespace are written as plain text in the highlighted code (ae_code.plain_formatter:
    both of the theme's schemes colour them as plain text), so a long lesson lays out fewer elements."""
    import re

    plain = re.compile(r'<span class="(?:n|p|w)">')
    for path in reader_pages(site):
        html = (pathlib.Path(site) / path).read_text()
        found = plain.findall(html)
        assert not found, f"{path} wraps {len(found)} plain tokens in spans (ae_code.plain_formatter not used?)"
    lesson = (pathlib.Path(site) / "notebooks" / "07_learning_without_labels.html").read_text()
    assert '<div class="highlight' in lesson and '<span class="o">' in lesson, "lesson 07's code is highlighted"


def test_each_page_carries_its_editions_documentation_options(site):
    """Sphinx's documentation_options.js is written into each page (theme_edits.options: one request fewer
    before the first paint), with its own edition's language, ahead of the inline scripts that extend it."""
    import re

    languages = {"": "en", **{code: code for code in translations()}}
    languages["zh"] = "zh-CN"  # Sphinx writes the language tag (zh_CN in zh/_config.yml)
    for path in reader_pages(site):
        html = (pathlib.Path(site) / path).read_text()
        edition = path.split("/")[0] if path.split("/")[0] in languages else ""
        assert "documentation_options.js" not in html, f"{path} still loads documentation_options.js"
        found = re.search(r"<script>const DOCUMENTATION_OPTIONS = \{(.*?)\};</script>", html, re.S)
        assert found, f"{path} does not define DOCUMENTATION_OPTIONS"
        assert f"LANGUAGE: '{languages[edition]}'" in found.group(1), (path, found.group(1))
        assert html.index(found.group(0)) < html.index("DOCUMENTATION_OPTIONS.pagename"), path
    for edition in languages:
        left = pathlib.Path(site) / edition / "_static" / "documentation_options.js"
        assert not left.exists(), f"{left.relative_to(site)} is left behind: no page loads it"


def test_no_page_waits_to_be_parsed_before_it_is_drawn(site):
    """render_when_parsed (theme_edits) is off by default: no page asks the browser to wait for the end of its body
    before its first paint (make bench measures Lighthouse with and without it)."""
    from attention_workshop.theme_edits import PARSED_MARK, RENDER_WHEN_PARSED

    for path in reader_pages(site):
        html = (pathlib.Path(site) / path).read_text()
        assert RENDER_WHEN_PARSED not in html and PARSED_MARK not in html, path
