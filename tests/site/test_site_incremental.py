"""An incremental build equals a clean one (issue 42): `make book` builds again only what changed, and what it
serves then must be what a build from nothing serves.

The test builds a small book (the English edition's intro, glossary and lesson 01 with its explorers, copied with
the site's assets into a temporary folder) as ``attention_workshop.build_book`` builds an edition (its ``Edition``):
once from nothing; then in another folder once with a sentence added to the intro, again with the sentence taken
out (an incremental build: only the intro and the pages that list it are written again), and once more with
nothing changed. After each of the last two, the site must hold the same files with the same bytes as the clean
one. Each defect it found made a site that differed from a clean one: the search
index without the glossary's index entries, pages rebuilt with a second stylesheet (the separate files joined
into ``ae-styles.<hash>.css`` copied back and linked again), scripts minified a second time (other names for the
same variables), and an ``index.html`` edited twice. Where each is handled: the index entries by
``attention_workshop.ae_assets._index_pages_read_again`` (sphinx-doc/sphinx#12599), the stylesheets by
``attention_workshop.theme_edits.bundle_styles`` with every page linking the same ones (``ae_twins.STYLES``), the
scripts by ``ae_assets._slim_scripts``, which minifies from the sources.
"""

from __future__ import annotations

import filecmp
import json
import pathlib
import shutil

import yaml

from attention_workshop.build_book import Edition
from tests.helpers import ROOT

PAGES = ["book/glossary", "notebooks/01_reading_on_demand"]  # besides the root page (the intro); 01 has explorers
FLAGS = ("--keep-going",)  # the small book links to lessons it leaves out: those warnings are expected here
ADDED = "\n\nA sentence added for one build, then taken out again.\n"


def small_book(folder: pathlib.Path) -> pathlib.Path:
    """The English edition's configuration, its ``book/`` folder (pages and the site's assets) and one lesson in
    ``folder``, with a table of contents of the intro, the glossary and that lesson."""
    folder.mkdir()
    shutil.copy(ROOT / "_config.yml", folder / "_config.yml")
    shutil.copytree(ROOT / "book", folder / "book")
    (folder / "notebooks").mkdir()
    for page in PAGES:
        if page.startswith("notebooks/"):
            shutil.copy(ROOT / f"{page}.ipynb", folder / f"{page}.ipynb")
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    small = {"format": toc["format"], "root": toc["root"], "chapters": [{"file": page} for page in PAGES]}
    (folder / "_toc.yml").write_text(yaml.safe_dump(small), encoding="utf-8")
    return folder


def built(source: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    code, log = Edition(source, out, FLAGS).wait()
    assert code == 0, log[-4000:]
    return out / "_build" / "html"


def search_index(path: pathlib.Path) -> dict:
    """The search index Sphinx writes (``Search.setIndex({...})``), without its words that lead to no page: Sphinx
    keeps a word that only a page's earlier text had, with an empty list, and a search for it finds nothing
    either way."""
    text = path.read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    for words in ("terms", "titleterms"):
        index[words] = {word: pages for word, pages in index[words].items() if pages != []}
    return index


def same(a: pathlib.Path, b: pathlib.Path) -> bool:
    if a.name == "searchindex.js":
        return search_index(a) == search_index(b)
    return filecmp.cmp(a, b, shallow=False)


def differences(a: pathlib.Path, b: pathlib.Path) -> list[str]:
    """The files of two site folders that are in one only or differ, relative to the folders."""
    files = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()}
    others = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    found = [f"only in the incremental build: {name}" for name in sorted(others - files)]
    found += [f"only in the clean build: {name}" for name in sorted(files - others)]
    found += [f"differs: {name}" for name in sorted(files & others) if not same(a / name, b / name)]
    return found


def test_an_incremental_build_equals_a_clean_one(tmp_path):
    source = small_book(tmp_path / "book")
    clean = built(source, tmp_path / "clean")
    intro = source / "book" / "intro.md"
    text = intro.read_text(encoding="utf-8")
    intro.write_text(text + ADDED, encoding="utf-8")
    changed = built(source, tmp_path / "incremental")
    assert "A sentence added for one build" in (changed / "book" / "intro.html").read_text(encoding="utf-8")
    intro.write_text(text, encoding="utf-8")
    again = built(source, tmp_path / "incremental")
    assert differences(clean, again) == [], "a build that wrote the changed pages again"
    assert differences(clean, built(source, tmp_path / "incremental")) == [], "a build with nothing to do"
