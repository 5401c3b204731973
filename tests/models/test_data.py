"""The synthetic language pair: word-for-word translation, noun-phrase reordering, splits and batches."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data


def test_grammar_translates_word_for_word_with_known_alignment():
    rng = np.random.default_rng(0)
    lengths = []
    for _ in range(500):
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        lengths.append(len(src))
        assert sorted(align) == list(range(len(src)))  # every source word is used exactly once
        assert tgt == [data.TRANSLATE[src[j]] for j in align]
    assert min(lengths) >= 5 and max(lengths) == data.MAX_LEN


def test_noun_phrases_put_the_noun_first_and_the_adjectives_after_it_in_reverse():
    # Source NP: DET ADJ_1 .. ADJ_k NOUN at positions p .. p + k + 1. Target: DET NOUN ADJ_k .. ADJ_1, so the
    # target's alignment inside the phrase must read p, p + k + 1, p + k, ..., p + 1.
    rng = np.random.default_rng(1)
    determiners = {t for _, t in data.DETERMINERS}
    adjectives = {t for _, t in data.ADJECTIVES}
    phrases_with_adjectives = 0
    for _ in range(300):
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        for i, word in enumerate(tgt):
            if word not in determiners:
                continue
            k = 0
            while i + 2 + k < len(tgt) and tgt[i + 2 + k] in adjectives:
                k += 1
            p = align[i]
            assert align[i : i + 2 + k] == [p, p + k + 1, *range(p + k, p, -1)], (src, tgt, align)
            assert src[p + k + 1] in {s for s, _ in data.NOUNS}
            phrases_with_adjectives += k > 0
    assert phrases_with_adjectives > 100  # the rule was exercised, not only the adjective-free phrases


def test_the_article_example_phrase():
    src = ["the", "european", "economic", "area", "sees", "a", "cat"]
    align = [0, 3, 2, 1, 4, 5, 6]
    assert [data.TRANSLATE[src[j]] for j in align][:4] == ["la", "zone", "economique", "europeenne"]


def test_splits_are_seeded_disjoint_and_batches_have_one_length():
    a, b = data.make_splits(7, 300, 50, 100), data.make_splits(7, 300, 50, 100)
    assert all(np.array_equal(p.src, q.src) for p, q in zip(a.train, b.train, strict=True))
    keys = [{tuple(p.src) for p in part} for part in (a.train, a.valid, a.test)]
    assert not (keys[0] & keys[1]) and not (keys[0] & keys[2]) and not (keys[1] & keys[2])
    for batch in data.length_batches(a.train, 32, np.random.default_rng(0)):
        N, T = batch.src.shape
        assert N <= 32 and batch.tgt_in.shape == batch.tgt_out.shape == (N, T + 1)
        assert np.all(batch.tgt_in[:, 0] == data.BOS_ID) and np.all(batch.tgt_out[:, -1] == data.EOS_ID)
        assert np.array_equal(batch.tgt_in[:, 1:], batch.tgt_out[:, :-1])  # past targets, shifted by one
    with pytest.raises(ValueError, match="one source length"):
        data.stack([a.train[0], next(p for p in a.train if len(p.src) != len(a.train[0].src))])
