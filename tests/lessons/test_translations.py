"""Every translation file is complete and current: no missing, stale, unused, duplicate or invalid entry
(attention_workshop.editions.catalog.status).

A missing entry is English with no translation; a stale one was translated from English that has changed since
(gettext's "fuzzy", made by ``make editions``, with the previous English beside it); an unused one translates English
that no longer exists (run ``make editions``: it becomes obsolete, ``#~``); a duplicate repeats an entry's msgctxt
and msgid; an invalid one has other fields than its English (``python-brace-format``) or line breaks at its ends
unlike its English's. Each is listed by file and by cell (a page's line, a message's name), with the first words of
the English it concerns. Obsolete entries are kept for English that may come back and are no problem.

An edition whose translation is in progress (``locale/editions.toml``) may lack entries (each shows the English):
its missing and stale entries are no failure, everything else is; its share translated is reported.
"""

from __future__ import annotations

import pytest

from attention_workshop.editions import catalog, sources
from attention_workshop.editions.catalog import Status
from attention_workshop.paths import complete, translations

CASES = [(lang, source) for lang in translations() for source in sources.sources()]


@pytest.mark.parametrize(("lang", "source"), CASES, ids=[f"{lang}:{s.name}" for lang, s in CASES])
def test_every_entry_is_translated_current_used_and_valid(lang, source):
    status = catalog.status(source, lang)
    kinds = Status.KINDS if complete(lang) else tuple(k for k in Status.KINDS if k not in Status.UNFINISHED)
    report = status.report(lang, source.name, kinds)
    assert not report, f"{source.po_path(lang)}: run `make editions`, then translate:\n" + "\n".join(report)


def test_an_edition_in_progress_may_lack_entries_but_no_other_kind(tmp_path):
    status = Status(missing=[("c", "a")], stale=[("c", "b")], total=3)
    unfinished = tuple(k for k in Status.KINDS if k not in Status.UNFINISHED)
    assert status.report("fr", "x", unfinished) == [] and status.translated == 1
    assert len(status.report("fr", "x")) == 2
    status.invalid.append(("c", "d", "fields differ"))
    assert status.report("fr", "x", unfinished) == ["fr: x: invalid: [c] d (fields differ)"]


PROSE_KINDS = ("paragraph", "heading", "item", "title", "caption", "alt", "definition", "cell", "message", "string")
# What a translation may keep as the English writes it: code, math, addresses, link targets, markup.
NOT_WORDS = r"\$\$.*?\$\$|\$[^$\n]+\$|`[^`]*`|\]\([^)]*\)|https?://\S+|<[^>]+>|\{[^{}]*\}"


# Copies that are right (a name, a word French writes the same way). Empty today: the French lesson 01 once kept
# "Felix left ... (original)" and has a French sentence of its own now (toy_sentences.FELIX_FR); lesson 09's word-order
# probe takes its source sentences from the package (data.WORD_ORDER_PROBE), not from literals an edition translates.
SAME_IN_BOTH: set[tuple[str, str, str]] = set()


def copied_english(lang: str) -> list[str]:
    """Entries of ``lang`` whose translation is the English itself although the English has three or more words:
    English a reader would meet in that edition (a name, a symbol or a code label may stay as it is)."""
    import re

    found = []
    for source in sources.sources():
        path = source.po_path(lang)
        if not path.exists():
            continue
        for entry in catalog.read_po(path):
            if entry.obsolete or not entry.msgstr or entry.msgstr != entry.msgid:
                continue
            if not (entry.comment or "").startswith(PROSE_KINDS) or (lang, entry.msgctxt, entry.msgid) in SAME_IN_BOTH:
                continue
            words = re.findall(r"[A-Za-z]{2,}", re.sub(NOT_WORDS, " ", entry.msgid, flags=re.S))
            if len(words) >= 3:
                found.append(f"{path.relative_to(path.parents[2])}: [{entry.msgctxt}] {entry.msgid[:70]!r}")
    return found


@pytest.mark.parametrize("lang", translations())
def test_no_translation_is_a_copy_of_the_english(lang):
    copied = copied_english(lang)
    assert not copied, f"{lang}: {len(copied)} entries keep their English:\n" + "\n".join(copied[:30])
