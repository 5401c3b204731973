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
