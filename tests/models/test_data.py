"""The synthetic language pair: word-for-word translation, noun-phrase reordering, splits and batches."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3, dtype="float64")


def rel_error(a, b) -> float:
    """Relative error of two gradient tensors: ||a - b|| / (||a|| + ||b||)."""
    den = np.linalg.norm(a) + np.linalg.norm(b)
    return float(np.linalg.norm(a - b) / den) if den > 0 else 0.0


def tiny_batch(length: int = 6, n: int = 2, seed: int = 5) -> data.Batch:
    rng = np.random.default_rng(seed)
    pairs = []
    while len(pairs) < n:
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        if len(src) == length:
            pairs.append(data.encode(src, tgt, align))
    return data.stack(pairs)


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
