"""Lesson 08's claims about the three trained designs, each as a check that fails if the claim is false."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, build_model
from attention_core.models.train import evaluate
from attention_core.models.trained import LESSON07, LESSON08_LUONG, LESSON08_SWAPPED, load_trained

SMALL = {"d_emb": 6, "d_enc": 5, "d_dec": 7, "d_att": 4}
DESIGNS = {
    "Bahdanau": ModelConfig(**SMALL),
    "swapped score": ModelConfig(score="general", **SMALL),
    "Luong": ModelConfig(order="luong", score="general", **SMALL),
}


def batch_of(length: int = 8) -> data.Batch:
    splits = data.make_splits(3, 300, 1, 1)
    return data.stack([p for p in splits.train if len(p.src) == length][:3])


@pytest.mark.parametrize("name, reads_with_new_state", [("Bahdanau", False), ("swapped score", False), ("Luong", True)])
def test_which_state_reads_is_the_decoder_order_not_the_score(name, reads_with_new_state):
    model = build_model(DESIGNS[name], seed=2)
    batch = batch_of()
    tgt_in = batch.tgt_in.copy()
    tgt_in[:, 3] = (tgt_in[:, 3] - 1) % (model.cfg.tgt_vocab - 2) + 2  # y_3, the input of step 4: changes s_4
    _, before = model.decoder_reads(batch)
    _, after = model.decoder_reads(data.Batch(batch.src, tgt_in, batch.tgt_out, batch.align))
    np.testing.assert_array_equal(before[:, :3], after[:, :3])  # c_1..c_3 never depend on y_3
    moved = np.abs(before[:, 3] - after[:, 3]).max() > 1e-7  # c_4 reads with s_4 only in Luong's order
    assert moved == reads_with_new_state


@pytest.mark.slow  # evaluates three committed models on 2,000 sentences
def test_the_score_not_the_order_buys_the_cleaner_alignment_on_this_task():
    test = data.make_splits(0).test
    saved = {"Bahdanau": LESSON07, "swapped": LESSON08_SWAPPED, "Luong": LESSON08_LUONG}
    align = {name: evaluate(load_trained(path), test).alignment_accuracy() for name, path in saved.items()}
    assert align["swapped"] - align["Bahdanau"] > 0.01
    assert abs(align["Luong"] - align["swapped"]) < 0.001
