"""The book builds with warnings as errors, lists every lesson, and serves its third-party scripts itself."""

import json
import re

from attention_workshop.execute import EXERCISE_CHECK
from tests.helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_build_has_no_warnings(book_build):
    code, log, _ = book_build
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert code == 0 and not warnings, "\n".join(warnings) or log[-4000:]


def test_every_notebook_is_in_the_toc():
    toc = (ROOT / "_toc.yml").read_text()
    missing = [nb.stem for nb in NOTEBOOKS if f"notebooks/{nb.stem}" not in toc]
    assert not missing, f"notebooks missing from _toc.yml: {missing}"


def test_notebooks_are_committed_executed_without_errors():
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] != "code" or not "".join(cell["source"]).strip():
                continue
            if EXERCISE_CHECK in cell["metadata"].get("tags", []):  # stored unrun, so no verdict is shown before a try
                assert not cell.get("outputs") and cell.get("execution_count") is None, f"{path.name}: a check ran"
                continue
            assert cell.get("execution_count"), f"{path.name}: a code cell was not executed"
            assert all(o.get("output_type") != "error" for o in cell.get("outputs", [])), f"{path.name}: error"


def test_no_notebook_edits_sys_path_or_shows_default_figure_text():
    for path in NOTEBOOKS:
        text = path.read_text()
        assert "sys.path" not in text, f"{path.name} edits sys.path; import the installed package"
        assert "<Figure size" not in text, f"{path.name} shows a figure without alt text; use show_figure"


def test_pages_load_no_third_party_script_from_a_cdn(site):
    for page in (p for p in site.rglob("*.html") if p.relative_to(site).parts[0] != "_static"):
        html = page.read_text()
        sources = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html) + re.findall(r'<link[^>]*\shref="([^"]+)"', html)
        remote = [s for s in sources if s.startswith(("http:", "https:", "//"))]
        assert not remote, f"{page.relative_to(site)} loads {remote}"


def test_equation_numbers_on_the_site_are_the_tags_the_lessons_write(site):
    """A notebook client shows the ``\\tag{n}`` a lesson writes (``attention_workshop.portable``); the website shows
    Sphinx's number for the same label: the two agree on every page of every edition."""
    from attention_workshop.paths import ENGLISH, editions
    from tests.lessons.test_portable_markdown import equation_tags

    for edition in editions():
        html_root = site if edition == ENGLISH else site / edition
        shown = {}
        for page in html_root.glob("*/*.html"):
            text = page.read_text(encoding="utf-8")
            for m in re.finditer(r'id="equation-([\w.:-]+)">\s*<span class="eqno">\((\d+)\)', text):
                shown[m.group(1)] = int(m.group(2))
        tags = equation_tags(edition)
        assert set(shown) == set(tags), f"{edition}: labels on the site and in the sources differ"
        wrong = {
            label: (tag or number, shown[label])
            for label, (tag, number) in tags.items()
            if (tag or number) != shown[label]
        }
        assert not wrong, f"{edition}: label -> (tag in the lesson, number on the site): {wrong}"
