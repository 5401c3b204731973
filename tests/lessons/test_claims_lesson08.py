"""Lesson 08's claims about the three trained designs, each as a check that fails if the claim is false."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.designs import ATTENTION, GENERAL_SCORE, LUONG, named
from attention_core.models.seq2seq import build_model
from attention_core.models.sweep import load_seed_study, runs, spread

SMALL = {"d_emb": 6, "d_enc": 5, "d_dec": 7, "d_att": 4}
DESIGN_NAMES = (ATTENTION, GENERAL_SCORE, LUONG)  # lesson 08's Bahdanau, swapped score and Luong
DESIGNS = {  # the lesson's names -> the registry's designs, small (attention_core.models.designs)
    "Bahdanau": named(ATTENTION).config(**SMALL),
    "swapped score": named(GENERAL_SCORE).config(**SMALL),
    "Luong": named(LUONG).config(**SMALL),
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


# --- claims over seeds, read from results/seed_study.json (models/sweep.py): 14 runs per design and language ---
STUDY = load_seed_study()
BAHDANAU, SWAPPED = ATTENTION, GENERAL_SCORE  # the lesson's names for them (LUONG is "Luong")


def test_one_seed_made_the_swapped_score_look_like_luongs_model():
    # What lesson 08 printed from the committed seed-0 models: the swapped model aligned like Luong's (0.9996 vs
    # 0.9997) and much better than Bahdanau's (0.9796). True for seed 0 ...
    seed0 = {d: next(r for r in runs(STUDY, "svo", d, 0) if r["seed"] == 0)["alignment"] for d in DESIGN_NAMES}
    assert seed0[SWAPPED] - seed0[BAHDANAU] > 0.01 and abs(seed0[LUONG] - seed0[SWAPPED]) < 0.001
    # ... but not a property of the swapped design: over its 14 runs its alignment falls as low as 0.82.
    assert spread(runs(STUDY, "svo", SWAPPED), "alignment")["min"] < 0.85


def test_on_lesson_07s_language_luongs_decoder_aligns_cleanly_in_every_run_bahdanaus_order_does_not():
    # Measured: Luong 0.9995-0.9999; Bahdanau's order with the general score 0.8164-0.9997 (9 of 14 runs at
    # 0.998 or more); with the additive score 0.7861-0.9949 (none above 0.995).
    luong = spread(runs(STUDY, "svo", LUONG), "alignment")
    swapped = [r["alignment"] for r in runs(STUDY, "svo", SWAPPED)]
    additive = spread(runs(STUDY, "svo", BAHDANAU), "alignment")
    assert luong["min"] >= 0.999
    assert additive["max"] < luong["min"] and min(swapped) < luong["min"] - 0.1
    assert sum(a >= 0.998 for a in swapped) >= len(swapped) / 2  # the score helps in most runs, not in all


def test_on_lesson_07s_language_translation_does_not_tell_the_three_designs_apart():
    # token 0.9935-0.9999, exact 0.985-0.9995 for all three; every pair's ranges overlap
    for key in ("token", "exact"):
        ranges = [spread(runs(STUDY, "svo", d), key) for d in DESIGN_NAMES]
        assert all(r["min"] >= (0.99 if key == "token" else 0.98) for r in ranges)
        for a in ranges:
            for b in ranges:
                assert a["min"] <= b["max"], key


def test_on_the_verb_final_language_the_designs_rank_differently():
    # Exact-sequence accuracy over 14 runs: Bahdanau's additive model 0.9405-0.9885, Luong's 0.7810-0.9565, the
    # swapped score 0.6805-0.7670. Where the order mattered for alignment on lesson 07's language, on this one
    # the additive model translates best and the swapped model worst, every run.
    exact = {d: spread(runs(STUDY, "verb_final", d), "exact") for d in DESIGN_NAMES}
    assert exact[BAHDANAU]["min"] > exact[SWAPPED]["max"] and exact[LUONG]["min"] > exact[SWAPPED]["max"]
    assert exact[BAHDANAU]["mean"] > exact[LUONG]["mean"] + 0.05


def test_on_the_verb_final_language_exact_accuracy_separates_the_designs_run_by_run():
    # Lesson 08's conclusion (issue 29): a difference in exact-sequence accuracy, counted over runs paired by
    # training and data seed, between designs that differ in score, order and state. Bahdanau's additive model
    # beats Luong's in 13 of 14 pairs and the swapped score in 14 of 14; Luong's beats the swapped score in 14 of
    # 14. Token accuracy does not separate Luong's from the swapped score (means 0.9610 vs 0.9607; 11 of 14).
    from attention_core.models.sweep import paired_wins

    assert paired_wins(STUDY, "verb_final", BAHDANAU, LUONG, "exact") == (13, 14)
    assert paired_wins(STUDY, "verb_final", BAHDANAU, SWAPPED, "exact") == (14, 14)
    assert paired_wins(STUDY, "verb_final", LUONG, SWAPPED, "exact") == (14, 14)
    token = {d: spread(runs(STUDY, "verb_final", d), "token")["mean"] for d in (LUONG, SWAPPED)}
    assert abs(token[LUONG] - token[SWAPPED]) < 0.001
    assert paired_wins(STUDY, "verb_final", LUONG, SWAPPED, "token")[0] < 14


def test_the_alignment_phrases_of_lesson_08_name_their_band():
    # "virtually every" (0.999 or more) for every run of Luong's decoder; Bahdanau's additive model never reaches it
    # (at most 0.9949, "nearly every"); the swapped score reaches it in 8 of 14 runs.
    from attention_core.models.sweep import alignment_band

    assert all(alignment_band(r["alignment"]) == "virtually every" for r in runs(STUDY, "svo", LUONG))
    assert alignment_band(spread(runs(STUDY, "svo", BAHDANAU), "alignment")["max"]) == "nearly every"
    assert sum(alignment_band(r["alignment"]) == "virtually every" for r in runs(STUDY, "svo", SWAPPED)) == 8
