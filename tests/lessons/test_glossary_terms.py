"""The glossary is the book's term list (book/glossary.md): each Chinese text uses the term it names first, never
an alias it lists only for readers who search with another source's words ("Chinese aliases: ...")."""

from __future__ import annotations

import re

import polib
import pytest

from attention_workshop import ae_lang
from tests.helpers import ROOT

TERMS = ae_lang.term_list()
QUOTED = re.compile(r"“[^”]*”|「[^」]*」")  # a word named in quotation marks is mentioned, not used


def chinese_texts() -> list[tuple[str, str, str]]:
    files = sorted((ROOT / "locale" / "zh").glob("LC_MESSAGES/**/*.po"))
    files += sorted((ROOT / "src" / "attention_core" / "locale" / "zh").glob("LC_MESSAGES/*.po"))
    return [
        (str(f.relative_to(ROOT)), e.msgctxt or "", e.msgstr)
        for f in files
        if f.name != "glossary.po"  # the glossary lists the aliases
        for e in polib.pofile(str(f))
        if e.msgstr
    ]


def test_the_term_list_has_the_aliases_readers_search_for():
    aliases = {a for t in TERMS for a in t.aliases}
    assert {"源表示", "掩码", "加性注意力", "词元", "注意力分数", "打分"} <= aliases
    preferred = {t.chinese[0] for t in TERMS if t.chinese}
    assert not aliases & preferred and len(TERMS) >= 50


@pytest.mark.parametrize("term", [t for t in TERMS if t.aliases], ids=lambda t: t.english[0])
def test_the_chinese_edition_uses_the_preferred_term_not_an_alias(term):
    found = []
    for name, context, text in chinese_texts():
        bare = QUOTED.sub("", text)
        for alias in term.aliases:
            if alias in bare:
                found.append(f"{name} [{context}]: {alias}")
    preferred = term.chinese[0] if term.chinese else term.english[0]
    assert not found, f"use {preferred} (book/glossary.md), not an alias:\n" + "\n".join(found)
