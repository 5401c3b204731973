"""Every edit of the theme's output (``attention_workshop.theme_edits``) finds its target in what the installed theme
writes, and removes it.

A one-page book (``tests/site/theme_book``: a lesson with a folded code cell) is built with the installed
sphinx-book-theme and pydata-sphinx-theme and none of the book's own extensions. Each edit's detector must find its
target there as often as ``theme_edits.EXPECTED`` says (so a theme upgrade that moves a target fails here, naming the
edit), and on the same output after the edits it must find only what the edit leaves.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from attention_workshop import theme_edits
from tests.helpers import ROOT

pytestmark = pytest.mark.site  # a build, though a small one (about 2 CPU-seconds)

BOOK = ROOT / "tests" / "site" / "theme_book"
AFTER = {  # what each detector finds once every edit is applied
    "summary": 0,
    "search_scripts": 0,
    "defer": 0,
    "options": 0,
    "theme_mode": 0,
    "render_when_parsed": 1,  # its detector counts the page's one head and one body, which stay
    "icons": 0,
    "tab_stops": 0,
    "styles": 0,  # the one link left is the bundle's, which it does not count
}


@pytest.fixture(scope="module")
def theme_output(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("theme")
    jb = pathlib.Path(sys.executable).parent / "jupyter-book"
    run = subprocess.run(
        [str(jb), "build", str(BOOK), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    return out / "_build" / "html"


def test_every_edit_has_a_detector_and_a_count():
    assert set(theme_edits.DETECTORS) == set(theme_edits.EXPECTED) == set(AFTER) == set(theme_edits.EDITS)
    assert set(theme_edits.DEFAULT) == set(theme_edits.EDITS) - {"render_when_parsed"}, "render_when_parsed is off"


@pytest.mark.parametrize("edit", theme_edits.EDITS)
def test_each_detector_finds_its_target_in_the_themes_output(theme_output, edit):
    page = (theme_output / "page.html").read_text(encoding="utf-8")
    found = theme_edits.DETECTORS[edit](page, theme_output / "_static")
    want = theme_edits.EXPECTED[edit]
    if edit in theme_edits.AT_LEAST:
        assert found >= want, (
            f"{edit}: the theme's output has {found} targets, fewer than {want}: did the theme move it?"
        )
    else:
        assert found == want, f"{edit}: the theme's output has {found} targets, not {want}: did the theme move it?"


def test_after_the_edits_each_detector_finds_what_its_edit_leaves(theme_output, tmp_path):
    site = tmp_path / "html"
    shutil.copytree(theme_output, site)
    used: set[str] = set()
    for path in site.glob("*.html"):
        text = theme_edits.edit_page(path.read_text(encoding="utf-8"), path, theme_edits.EDITS)
        path.write_text(text, encoding="utf-8")
        used.update(re.findall(r"\bfa-[a-z0-9-]+", text))
    theme_edits.edit_static(site / "_static", used, theme_edits.EDITS)
    assert theme_edits.bundle_styles(site)
    page = (site / "page.html").read_text(encoding="utf-8")
    found = {edit: detect(page, site / "_static") for edit, detect in theme_edits.DETECTORS.items()}
    assert found == AFTER
    assert theme_edits.RENDER_WHEN_PARSED in page and theme_edits.PARSED_MARK in page
    assert (site / "_static" / theme_edits.FONTS / theme_edits.ICON_SUBSET).is_file()
    assert len(re.findall(r'<link rel="stylesheet" href="_static/ae-styles\.[0-9a-f]{8}\.css" />', page)) == 1


def test_an_unknown_edit_is_one_line():
    import types

    app = types.SimpleNamespace(config=types.SimpleNamespace(ae_theme_edits=["summary", "nope"], html_theme_options={}))
    with pytest.raises(ValueError, match="ae_theme_edits: unknown edit 'nope'; the edits are summary, "):
        theme_edits.chosen(app)
    app.config.ae_theme_edits = None
    assert theme_edits.chosen(app) == theme_edits.DEFAULT
