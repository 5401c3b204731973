"""Every translation file is complete and current: no missing, stale, unused, duplicate or invalid entry
(attention_workshop.editions.catalog.status).

A missing entry is English with no translation; a stale one was translated from English that has changed since
(gettext's "fuzzy", made by ``make editions``, with the previous English beside it); an unused one translates English
that no longer exists (run ``make editions``: it becomes obsolete, ``#~``); a duplicate repeats an entry's msgctxt
and msgid; an invalid one has other fields than its English (``python-brace-format``) or line breaks at its ends
unlike its English's. Each is listed by file and by cell (a page's line, a message's name), with the first words of
the English it concerns. Obsolete entries are kept for English that may come back and are no problem.
"""

from __future__ import annotations

import pytest

from attention_workshop.editions import catalog, sources
from attention_workshop.paths import translations

CASES = [(lang, source) for lang in translations() for source in sources.sources()]


@pytest.mark.parametrize(("lang", "source"), CASES, ids=[f"{lang}:{s.name}" for lang, s in CASES])
def test_every_entry_is_translated_current_used_and_valid(lang, source):
    status = catalog.status(source, lang)
    report = status.report(lang, source.name)
    assert not report, f"{source.po_path(lang)}: run `make editions`, then translate:\n" + "\n".join(report)
