"""Misread target words by word class: consistent with the alignment counts, and what they measure."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.misreads import CLASSES, misreads_by_class
from attention_core.models.seq2seq import ModelConfig, build_model
from attention_core.models.train import alignment_misses, evaluate
from attention_core.models.trained import LESSON07, load_trained


@functools.cache
def sentences():
    """The first 400 test sentences of lesson 07's data, made when a test first asks: made at import, they cost
    every process that collects this file 1.2 CPU-seconds, `make check`'s two included."""
    return data.make_splits(0).test[:400]


@pytest.fixture(scope="module")
def lesson07():
    model = load_trained(LESSON07)
    return model, misreads_by_class(model, sentences())


def test_classes_are_the_source_word_classes():
    assert set(CLASSES) == set(data.SRC_CLASS)


def test_the_counts_agree_with_the_alignment_accuracy_and_the_misses(lesson07):
    model, mis = lesson07
    ev, misses = evaluate(model, sentences()), alignment_misses(model, sentences())
    words = sum(rec["words"] for rec in mis.values())
    missed = sum(rec["misread"] for rec in mis.values())
    assert words == misses["words"] == sum(n * k for n, k in zip(ev.lengths, ev.sentences, strict=True))
    assert words - missed == sum(ev.align_right)
    assert {c: rec["misread"] for c, rec in mis.items() if rec["misread"]} == misses["by_class"]
    by_offset: dict[int, int] = {}
    for rec in mis.values():
        assert sum(rec["offsets"].values()) == sum(rec["lands_on"].values()) == rec["misread"]
        assert 0 not in rec["offsets"]
        for off, n in rec["offsets"].items():
            by_offset[off] = by_offset.get(off, 0) + n
    assert dict(sorted(by_offset.items())) == misses["by_offset"]


def test_word_counts_follow_the_grammar(lesson07):
    # every sentence has one verb; each noun phrase one determiner and one noun
    _, mis = lesson07
    assert mis["verb"]["words"] == len(sentences())
    assert mis["determiner"]["words"] == mis["noun"]["words"]
    assert mis["preposition"]["words"] == mis["determiner"]["words"] - 2 * len(sentences())


def test_shares_and_weights_are_consistent(lesson07):
    _, mis = lesson07
    for rec in mis.values():
        assert 0 <= rec["right"] <= rec["misread"] <= rec["words"]
        assert rec["share"] == rec["misread"] / rec["words"]
        if rec["misread"]:
            assert 0 <= rec["weight_true"] < rec["weight_looked"] <= 1  # the arg-max outweighs the true position
        else:
            assert np.isnan(rec["weight_true"]) and rec["offsets"] == {}


def test_an_untrained_model_misreads_most_words_of_every_class():
    # Independent of the trained numbers: at random initialisation the weights are nearly uniform, so the arg-max
    # falls on the true position about once in T times.
    model = build_model(ModelConfig(d_emb=4, d_enc=3, d_dec=5, d_att=4, dtype="float64"), seed=0)
    mis = misreads_by_class(model, sentences()[:100])
    for rec in mis.values():
        assert rec["share"] > 0.5


def test_the_baseline_has_no_weights_to_misread():
    with pytest.raises(ValueError, match="weights name positions"):
        misreads_by_class(build_model(ModelConfig(attention=False, d_emb=4, d_enc=3, d_dec=5)), sentences()[:5])
