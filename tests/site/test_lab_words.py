"""A reader's words in the laboratory, under Node: the page's parser (``lab/data.js``) looks words up in objects
without a prototype, so "constructor" or "__proto__" is an unknown word as in :func:`attention_core.models.data.parse`
(not a word "that cannot stand here"); and ``AEUI.readersWord`` (``ae-ui.js``), which quotes a reader's word in
every message, isolates its direction (U+2068 ... U+2069) and shortens it past ``WORD_MAX`` characters."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

from attention_core.models import data
from tests.helpers import ROOT

ASSETS = ROOT / "book" / "_assets"
DRIVER = pathlib.Path(__file__).parent / "lab" / "words_node.js"
OBJECTS_OWN = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__"]
FSI, PDI = "\u2068", "\u2069"


def grammar() -> dict:
    classes = ("determiner", "adjective", "noun", "verb", "preposition")
    groups = (data.DETERMINERS, data.ADJECTIVES, data.NOUNS, data.VERBS, data.PREPOSITIONS)
    return {
        "groups": {cls: [list(pair) for pair in group] for cls, group in zip(classes, groups, strict=True)},
        "src_words": list(data.SRC_WORDS),
        "tgt_words": list(data.TGT_WORDS),
        **{"max_adj": data.MAX_ADJ, "max_pp": data.MAX_PP, "max_len": data.MAX_LEN},
        **{"bos_id": data.BOS_ID, "eos_id": data.EOS_ID, "languages": list(data.LANGUAGES)},
    }


SENTENCES = [
    *([word] for word in OBJECTS_OWN),
    *(["the", word] for word in OBJECTS_OWN),
    *("the cat sees a".split() + [word] for word in OBJECTS_OWN),
    "the big constructor".split(),
    "the cat sees a bird".split(),
]
LONG = "w" * 1_000_000
TEXTS = {
    "bird": f"{FSI}bird{PDI}",
    "\u200fbird": f"{FSI}\u200fbird{PDI}",  # a right-to-left mark stays, inside the isolation
    "\u202ebird\u2069x": f"{FSI}birdx{PDI}",  # an override and a stray PDI (which would end the isolation) go
    "ab" * 16: f"{FSI}{'ab' * 16}{PDI}",  # 32 characters: whole
    "ab" * 16 + "c": f"{FSI}{('ab' * 16)[:31]}…{PDI}",  # 33: cut to 31 and …
    LONG: f"{FSI}{'w' * 31}…{PDI}",
    "😀" * 40: f"{FSI}{'😀' * 31}…{PDI}",  # characters, not UTF-16 units: no half of a pair
    "": f"{FSI}{PDI}",
}


@pytest.fixture(scope="module")
def results() -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    job = {"assets": str(ASSETS), "grammar": grammar(), "sentences": SENTENCES, "texts": list(TEXTS)}
    run = subprocess.run([node, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_a_word_that_is_a_name_of_every_object_is_an_unknown_word_as_in_python(results):
    for words, got, following in zip(SENTENCES, results["parsed"], results["next"], strict=True):
        try:
            data.parse(words)
        except data.SentenceError as err:
            want = {"kind": err.kind, "position": err.position, "word": err.word, "allowed": list(err.allowed)}
            assert got == {"error": want}, words
            if err.kind == "unknown":
                assert following == {"error": want}, words
            continue
        assert "error" not in got, words
    assert sum(r.get("error", {}).get("kind") == "unknown" for r in results["parsed"]) == 3 * len(OBJECTS_OWN) + 1


def test_a_readers_word_is_isolated_and_shortened(results):
    assert results["max"] == 32
    assert results["quoted"] == list(TEXTS.values())
