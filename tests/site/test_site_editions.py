"""Every edition keeps the reader's place when the language switch is followed, in every direction.

The switch carries ``#section`` to the same page of another edition (``attention_workshop.ae_lang``); that lands
only if the section has the same id there. A translated heading gets a different id from docutils (a Chinese
heading gets ``id1``, a French one its French words), so each translated section takes its English
counterpart's id as its first id: the one its contents list, its heading link and the switch use. Here every
heading anchor of every page of every edition is looked up in the counterpart page of every other edition.
"""

from __future__ import annotations

import re

from attention_workshop.paths import ENGLISH, editions
from tests.site.conftest import reader_pages

SECTION = re.compile(r'<section id="([^"]+)"')
ANY_ID = re.compile(r'\bid="([^"]+)"')


def _page(site, edition: str, name: str):
    return site / name if edition == ENGLISH else site / edition / name


def test_every_heading_anchor_lands_in_every_other_edition(site):
    names = [p for p in reader_pages(site) if not any(p.startswith(f"{e}/") for e in editions() if e != ENGLISH)]
    assert len(names) >= 14, names
    missing, walked = [], 0
    for name in names:
        for edition in editions():
            here = _page(site, edition, name)
            if not here.exists():
                missing.append(f"{edition}: {name} is missing")
                continue
            anchors = SECTION.findall(here.read_text(encoding="utf-8"))
            for other in editions():
                if other == edition:
                    continue
                there = _page(site, other, name)
                if not there.exists():
                    continue
                ids = set(ANY_ID.findall(there.read_text(encoding="utf-8")))
                walked += len(anchors)
                missing += [f"{edition} -> {other}: {name}#{a}" for a in anchors if a not in ids]
    assert walked > 150, f"only {walked} anchors walked"
    assert not missing, f"{len(missing)} of {walked} anchors do not land:\n" + "\n".join(missing[:40])


def test_a_translated_section_uses_the_english_id_first(site):
    """The contents list of a translated page links the English ids (``#id5`` would not survive the switch)."""
    for edition in editions():
        if edition == ENGLISH:
            continue
        for name in ("notebooks/05_additive_score.html", "notebooks/07_learning_without_labels.html"):
            english = SECTION.findall(_page(site, ENGLISH, name).read_text(encoding="utf-8"))
            translated = SECTION.findall(_page(site, edition, name).read_text(encoding="utf-8"))
            assert translated == english, f"{edition}/{name}: {translated} != {english}"


# ---------------------------------------------------------------------------------------------------------
# Glossary terms: each entry has the English entry's anchor (#term-attention) in every edition


GLOSSARY_LIST = re.compile(r'<dl class="[^"]*\bglossary\b[^"]*">(.*?)</dl>', re.S)
TERM_OR_DEFINITION = re.compile(r'<dt id="([^"]+)"|<dd\b')
TERM_LINK = re.compile(r'href="[^"#]*glossary\.html#([^"]+)"')


def glossary_entries(page) -> list[str]:
    """The anchor of each entry of a glossary page, in order: the first id of its first term line."""
    anchors, fresh = [], True
    for block in GLOSSARY_LIST.findall(page.read_text(encoding="utf-8")):
        for match in TERM_OR_DEFINITION.finditer(block):
            if match.group(1) is None:
                fresh = True
            elif fresh:
                anchors.append(match.group(1))
                fresh = False
    return anchors


def test_every_glossary_entry_has_the_english_anchor_in_every_edition(site):
    """A term line in Chinese or French alone would get ``term-0`` or its own words: each entry takes the English
    entry's anchor (``attention_workshop.ae_lang._glossary_anchors``), so the switch carrying ``#term-attention``
    lands on the same entry in every direction."""
    english = glossary_entries(_page(site, ENGLISH, "book/glossary.html"))
    assert len(english) >= 50 and "term-attention" in english and "term-context-vector" in english
    assert len(set(english)) == len(english)
    for edition in editions():
        assert glossary_entries(_page(site, edition, "book/glossary.html")) == english, edition


def test_every_term_link_lands_on_an_entry_in_every_edition(site):
    """Each link to a glossary term (the general index's, a {term} role's), in every edition, names an entry's
    anchor, which every other edition's glossary has too."""
    entries = set(glossary_entries(_page(site, ENGLISH, "book/glossary.html")))
    names = list(dict.fromkeys(["genindex.html", *reader_pages(site)]))
    walked, stray = 0, []
    for edition in editions():
        for name in names:
            if any(name.startswith(f"{e}/") for e in editions() if e != ENGLISH):
                continue
            page = _page(site, edition, name)
            if not page.exists():
                continue
            for anchor in TERM_LINK.findall(page.read_text(encoding="utf-8")):
                walked += 1
                if anchor not in entries:
                    stray.append(f"{edition}: {name} -> #{anchor}")
    assert walked >= 100, f"only {walked} term links"
    assert not stray, f"{len(stray)} of {walked} term links name no entry's anchor:\n" + "\n".join(stray[:40])


def test_a_term_in_another_language_is_marked_with_its_language(site):
    """``{lang}`zh: 注意力``` is ``<span lang="zh-CN">``; ``{aliases}`zh: ...``` is labelled (the English page's
    label checked here); no role is left unrendered in any edition."""
    english = _page(site, ENGLISH, "book/glossary.html").read_text(encoding="utf-8")
    assert '<span class="ae-lang-term" lang="zh-CN">注意力</span>' in english
    assert 'Chinese aliases: <span class="ae-lang-term" lang="zh-CN">打分, 注意力分数</span>' in english
    for edition in editions():
        text = _page(site, edition, "book/glossary.html").read_text(encoding="utf-8")
        assert "{lang}" not in text and "{aliases}" not in text and "ae-lang-term" in text, edition
        if edition != ENGLISH:
            assert 'lang="en">context vector</span>' in text, edition
