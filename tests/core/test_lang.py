"""The language of what the package writes for a reader: one process-wide setting, safe across threads, gettext
translations (their catalogues: tests/core/test_lang_catalogues.py)."""

from __future__ import annotations

import re
import threading
import time

import polib
import pytest

from attention_core.lang import (
    ENGLISH,
    PSEUDO,
    Messages,
    TranslationWarning,
    get_language,
    language,
    languages,
    pad,
    pseudo,
    set_language,
    width,
)


def test_the_setting_is_process_wide_and_checked():
    assert get_language() == ENGLISH
    with language("zh"):
        assert get_language() == "zh"
    assert get_language() == ENGLISH
    set_language("zh")
    try:
        assert get_language() == "zh"
    finally:
        set_language(ENGLISH)
    with pytest.raises(ValueError, match="language must be one of"):
        set_language("de")  # no translation file for German


def test_two_threads_in_language_blocks_never_see_each_others_language_and_leave_the_one_before():
    before = get_language()
    rounds, barrier = 200, threading.Barrier(2, timeout=60)
    inside, seen, failures = [], [], []  # which blocks are open now; every language seen; what went wrong

    def worker(code):
        try:
            for _ in range(rounds):
                barrier.wait()  # both threads try to enter their block at the same moment
                with language(code):
                    inside.append(code)
                    for _ in range(5):  # the whole block long, the language is this block's own
                        seen.append(get_language())
                        if get_language() != code or inside != [code]:
                            failures.append((code, get_language(), list(inside)))
                        time.sleep(0)  # let the other thread run
                    inside.remove(code)
        except Exception as error:  # reported below, in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(code,)) for code in ("zh", PSEUDO)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []
    assert sorted(set(seen)) == sorted({"zh", PSEUDO}) and len(seen) == 2 * rounds * 5
    assert get_language() == before


def test_set_language_waits_for_another_threads_block_to_end():
    done = threading.Event()

    def other():
        set_language("zh")
        done.set()

    with language(PSEUDO):
        thread = threading.Thread(target=other)
        thread.start()
        assert not done.wait(0.2)  # blocked by the open block
        assert get_language() == PSEUDO
        set_language(PSEUDO)  # the lock is re-entrant: the block's own thread may still set the language
    thread.join(timeout=10)
    try:
        assert done.is_set() and get_language() == "zh"  # then it ran, after the block had restored English
    finally:
        set_language(ENGLISH)


def test_languages_are_english_the_translation_files_and_the_pseudo_language():
    assert languages() == (ENGLISH, "fr", "zh", PSEUDO)


def test_a_message_is_english_in_code_and_translated_from_a_po_file(tmp_path):
    folder = tmp_path / "zz" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = polib.POFile()
    po.append(polib.POEntry(msgctxt="demo:w", msgid="weight {w:.2f}", msgstr="Gewicht {w:.2f}"))
    po.append(polib.POEntry(msgctxt="demo:bad", msgid="sum {s}", msgstr="Summe {t}"))  # wrong placeholder
    po.append(polib.POEntry(msgctxt="demo:stale", msgid="old", msgstr="alt", flags=["fuzzy"]))
    po.save(str(folder / "demo.po"))
    text = Messages("demo", {"w": "weight {w:.2f}", "bad": "sum {s}", "stale": "old"}, "demo", tmp_path)
    assert text("w", w=0.5) == "weight 0.50"
    assert text.text("w", "zz").format(w=0.5) == "Gewicht 0.50"
    with pytest.warns(TranslationWarning, match=r"demo\.po: msgctxt 'demo:bad', msgid 'sum \{s\}': field \{t\}"):
        assert text.text("bad", "zz") == "sum {s}"  # a translation with other placeholders is not used
    assert text.text("stale", "zz") == "old"  # a stale (fuzzy) translation is not used either
    with pytest.raises(KeyError, match="no message"):
        text("missing")


def test_messages_must_be_english_strings():
    with pytest.raises(TypeError, match="English str"):
        Messages("demo", {"w": {"en": "weight", "zh": "权重"}})


def test_the_package_speaks_chinese_from_its_po_file():
    from attention_core.checks.base import TEXT

    assert TEXT("not_yet") == "Not yet:"
    with language("zh"):
        assert TEXT("not_yet") == "还不对："


def test_the_pseudo_language_replaces_letters_but_keeps_placeholders_markup_code_and_math():
    out = pseudo("Weights at s = {s:.2f}: <b>bold</b> `attend` $\\alpha_j$ and &nbsp; more")
    assert "{s:.2f}" in out and "<b>" in out and "`attend`" in out and "$\\alpha_j$" in out and "&nbsp;" in out
    assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}|<[^>]*>|`[^`]*`|\$[^$]*\$|&\w+;", "", out))
    with language(PSEUDO):
        from attention_core.checks.base import TEXT

        assert TEXT("problems", n=3) == "3 " + pseudo("problems:")


def test_pad_counts_display_columns():
    assert width("会议室") == 6 and width("room") == 4 and width("Felix的那本") == 11
    assert pad("会议室", 8) == "会议室  " and pad("room", 8, ">") == "    room" and pad("ab", 6, "^") == "  ab  "
    assert pad("toolong", 3) == "toolong"
    with pytest.raises(ValueError, match="align"):
        pad("x", 3, "=")
