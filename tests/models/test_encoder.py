"""The bidirectional encoder: each half of an annotation sees one side of the sentence."""

from __future__ import annotations

import numpy as np

from attention_core.models import data
from attention_core.models.encoder import encode
from attention_core.models.seq2seq import ModelConfig, Seq2Seq

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3, dtype="float64")


def tiny_batch(length: int = 6, n: int = 2, seed: int = 5) -> data.Batch:
    rng = np.random.default_rng(seed)
    pairs = []
    while len(pairs) < n:
        src, tgt, align = data.sample_sentence(data.Draws(rng))
        if len(src) == length:
            pairs.append(data.encode(src, tgt, align))
    return data.stack(pairs)


def test_forward_half_of_an_annotation_ignores_later_tokens_and_backward_half_earlier_ones():
    model = Seq2Seq(TINY, seed=0)
    src = tiny_batch().src.copy()
    H1, _ = encode(model.params, src)
    src[:, 3] = (src[:, 3] + 1) % TINY.src_vocab  # change the token at position 3
    H2, _ = encode(model.params, src)
    d = TINY.d_enc
    assert np.array_equal(H1[:, :3, :d], H2[:, :3, :d])  # ->h_j for j < 3 unchanged
    assert np.array_equal(H1[:, 4:, d:], H2[:, 4:, d:])  # <-h_j for j > 3 unchanged
    assert not np.allclose(H1[:, 3], H2[:, 3])
