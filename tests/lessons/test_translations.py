"""Every translation file is complete and current: no missing, stale or unused entry (attention_workshop.editions).

A missing entry is English with no translation; a stale one was translated from English that has changed since
(gettext's "fuzzy", made by ``make editions``); an unused one translates English that no longer exists. Each is
listed by file and by cell (or section, or message name), with the English it concerns.
"""

from __future__ import annotations

import re

import pytest

from attention_workshop.editions import catalog, sources
from attention_workshop.editions import code as code_text
from attention_workshop.paths import translations

CASES = [(lang, source) for lang in translations() for source in sources.sources()]


@pytest.mark.parametrize(("lang", "source"), CASES, ids=[f"{lang}:{s.name}" for lang, s in CASES])
def test_every_entry_is_translated_current_and_used(lang, source):
    status = catalog.status(source, lang)
    report = [
        f"{kind} [{context}] {msgid.strip().splitlines()[0][:100] if msgid.strip() else repr(msgid)}"
        for kind in ("missing", "stale", "unused")
        for context, msgid in getattr(status, kind)
    ]
    assert not report, f"{source.po_path(lang)}: run `make editions`, then translate:\n" + "\n".join(report)


@pytest.mark.parametrize("lang", translations())
def test_translated_fstrings_keep_their_placeholders(lang):
    for source in sources.sources():
        if not isinstance(source, sources.NotebookSource):
            continue
        translation = source.translation(lang)
        for unit in source.units():
            text = translation(unit.context, unit.msgid)
            if text is not None and unit.kind == "string":
                code_text.check_fields(text, len(re.findall(r"(?<!\{)\{(\d+)\}(?!\})", unit.msgid)))
