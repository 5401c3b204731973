"""The bidirectional encoder: each half of an annotation sees one side of the sentence."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.encoder import encode
from attention_core.models.gru import gru_step
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


def _another_token(src, k):
    """The sentences with the token at position k replaced by another source word (every row)."""
    changed = src.copy()
    changed[:, k] = (changed[:, k] + 1) % TINY.src_vocab
    return changed


def test_each_half_of_an_annotation_responds_to_its_whole_side_and_only_to_it(halves_see_their_sides):
    # ->h_j reads x_1..x_j and <-h_j reads x_j..x_T: changing x_k moves ->h_j exactly for j >= k and <-h_j exactly
    # for j <= k (claim C6 of lesson 03, for the trained models' GRU encoder).
    model = Seq2Seq(TINY, seed=0)
    src = tiny_batch(length=8).src  # (2, 8)
    halves_see_their_sides(lambda ids: encode(model.params, ids)[0], src, _another_token, d_fwd=TINY.d_enc)


def _memoryless_encode(params, src):
    """A stand-in without memory: the encoder's GRU cells run from a zero state at every position, so each half of
    h_j is a function of x_j alone. Same parameters, same shapes as :func:`encode`."""
    X = params["src_emb"][src]  # (N, T, d_e)
    N, T, _ = X.shape
    halves = []
    for direction in ("fw", "bw"):
        W, U, b = (params[f"enc_{direction}_{k}"] for k in "WUb")
        Xp = (X @ W.T + b).reshape(N * T, -1)  # (N T, 3 d_enc)
        h, _ = gru_step(Xp, np.zeros((N * T, U.shape[1])), U)  # (N T, d_enc): one step from zero, no history
        halves.append(h.reshape(N, T, -1))
    return np.concatenate(halves, axis=2)  # (N, T, 2 d_enc)


def test_the_check_fails_an_encoder_whose_states_see_only_their_own_token(halves_see_their_sides):
    # The old form of this test ("changing x_k leaves ->h_j for j < k and <-h_j for j > k") passes a memoryless
    # encoder too; the check above does not.
    model = Seq2Seq(TINY, seed=0)
    src = tiny_batch(length=8).src
    H1, H2 = _memoryless_encode(model.params, src), _memoryless_encode(model.params, _another_token(src, 3))
    d = TINY.d_enc
    assert np.array_equal(H1[:, :3, :d], H2[:, :3, :d]) and np.array_equal(H1[:, 4:, d:], H2[:, 4:, d:])  # one way: ok
    with pytest.raises(AssertionError, match="moved the forward half at positions"):
        halves_see_their_sides(lambda ids: _memoryless_encode(model.params, ids), src, _another_token, TINY.d_enc)
