"""Lesson 07's claims about the model, each as a check that fails if the claim is false."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.sweep import figure, load_seed_study, runs, spread
from attention_core.models.train import Evaluation, TrainConfig, evaluate, train
from attention_core.models.trained import load_trained, trained_record

SMALL = ModelConfig(d_emb=8, d_enc=8, d_dec=16, d_att=8, dtype="float64")


def batch_of(length: int, n: int = 3, seed: int = 4) -> data.Batch:
    splits = data.make_splits(seed, 400, 1, 1)
    return data.stack([p for p in splits.train if len(p.src) == length][:n])


@pytest.mark.parametrize("step", [0, 2, 5])
def test_the_read_of_a_step_is_made_before_its_state_update(step):
    # Bahdanau's order: c_t is read with s_{t-1}. Changing the input y_step changes s_{step+1} and later states,
    # so c_1 .. c_{step+1} must stay exactly as they were and c_{step+2} must change.
    model = Seq2Seq(SMALL, seed=1)
    batch = batch_of(8)
    _, before = model.decoder_reads(batch)
    tgt_in = batch.tgt_in.copy()
    tgt_in[:, step] = (tgt_in[:, step] + 1 - 2) % (SMALL.tgt_vocab - 2) + 2  # another word, never a symbol
    _, after = model.decoder_reads(data.Batch(batch.src, tgt_in, batch.tgt_out, batch.align))
    np.testing.assert_array_equal(before[:, : step + 1], after[:, : step + 1])
    assert np.abs(before[:, step + 1] - after[:, step + 1]).max() > 1e-6


@pytest.mark.parametrize("attention", [True, False])
def test_training_never_sees_the_alignment_labels(attention):
    model = Seq2Seq(ModelConfig(attention=attention, d_emb=4, d_enc=4, d_dec=5, d_att=4, dtype="float64"), seed=2)
    batch = batch_of(7)
    rng = np.random.default_rng(0)
    scrambled = data.Batch(batch.src, batch.tgt_in, batch.tgt_out, rng.permuted(batch.align, axis=1))
    assert not np.array_equal(scrambled.align, batch.align)
    loss, grads = model.loss_and_grads(batch)
    loss_s, grads_s = model.loss_and_grads(scrambled)
    assert loss == loss_s
    for key in grads:
        np.testing.assert_array_equal(grads[key], grads_s[key])


def test_the_baselines_summary_is_what_every_step_reads():
    model = Seq2Seq(ModelConfig(attention=False, d_emb=4, d_enc=4, d_dec=5, d_att=4), seed=0)
    batch = batch_of(9)
    weights, contexts = model.decoder_reads(batch)
    assert weights is None
    first = contexts[:, :1, :]
    np.testing.assert_array_equal(contexts, np.broadcast_to(first, contexts.shape))


FIXED_SUMMARY_LONG_BOUND = 0.25  # token accuracy at 21-30 tokens after retrain_recipe(); see the test below


def retrain_recipe(attention: bool) -> TrainConfig:
    return TrainConfig(
        model=ModelConfig(attention=attention), steps=300, n_train=6000, n_valid=100, n_test=600, eval_every=0
    )


@pytest.mark.slow  # retrains a model (about 13 s on two busy cores): in `make test`, not in `make check`
def test_a_retrained_fixed_summary_baseline_loses_accuracy_with_source_length():
    # A small, short run of the lesson's baseline (not read from results/seed_study.json): its token accuracy
    # on short sources must clearly beat its accuracy on long ones, and on long sources it must stay low in
    # absolute terms. The decline alone cannot tell the designs apart: after the same 300 steps an attending
    # model also declines (measured: 0.91, 0.76, 0.48), but at 21-30 tokens it is far above the bound
    # (0.48 vs 0.25), where the fixed summary stays far below it (0.10).
    result = train(retrain_recipe(attention=False))
    ev = evaluate(result.model, result.splits.test)
    short, middle, long = ev.token_accuracy(1, 10), ev.token_accuracy(11, 20), ev.token_accuracy(21, 30)
    assert short > middle > long
    assert short - long >= 0.15, (short, middle, long)  # measured here: 0.37, 0.15, 0.10
    assert long < FIXED_SUMMARY_LONG_BOUND, (short, middle, long)


def test_the_committed_model_crosses_the_diagonal_where_the_grammar_reorders():
    model = load_trained()
    splits = data.make_splits(0)
    moved = right = 0
    for batch in data.length_batches(splits.test[:600], 256):
        weights, _ = model.decoder_reads(batch)
        T = batch.src.shape[1]
        looked = weights[:, :T, :].argmax(axis=2)  # (N, T)
        reordered = batch.align != np.arange(T)
        moved += int(reordered.sum())
        right += int((looked == batch.align)[reordered].sum())
    assert moved > 1000 and right / moved >= 0.95


# --- claims over seeds, read from results/seed_study.json (models/sweep.py) ------------------------------------
STUDY = load_seed_study()
LANGUAGES = ("svo", "verb_final")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_attention_models_worst_run_beats_the_fixed_summarys_best_on_long_sentences(language):
    # 14 runs each (10 training seeds, 4 more data seeds). Measured, 21-30 tokens: svo attention token
    # 0.9888-0.9998 vs fixed summary 0.2281-0.2451; verb-final 0.9822-0.9974 vs 0.1882-0.2081.
    attention, fixed = runs(STUDY, language, "attention"), runs(STUDY, language, "fixed summary")
    for key in ("token", "exact"):
        assert spread(attention, key, 21, 30)["min"] > spread(fixed, key, 21, 30)["max"] + 0.5, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_fixed_summary_loses_accuracy_with_length_in_every_run_and_attention_barely_does(language):
    for run in runs(STUDY, language, "fixed summary"):
        short, middle, long = (figure(run, "token", lo, hi) for lo, hi in ((1, 10), (11, 20), (21, 30)))
        assert short > middle > long and short - long > 0.4, (run["seed"], run["data_seed"])
        assert figure(run, "exact", 21, 30) == 0.0
    for run in runs(STUDY, language, "attention"):
        assert figure(run, "token", 21, 30) >= 0.98


def test_alignments_are_learned_without_labels_and_differ_between_seeds():
    # Lesson 07's language: every attention run reads at least 78% of target words from their true position
    # (a uniform read would hit about 1 in 17), and the runs range over 0.79-0.99.
    alignment = spread(runs(STUDY, "svo", "attention"), "alignment")
    assert alignment["min"] >= 0.78 and alignment["max"] - alignment["min"] >= 0.15, alignment


def test_determiners_are_the_misread_class_and_mostly_look_one_position_early():
    # Lesson 07 (cells 11f88034, a2823aae) reports an association, and offers a reason it does not test: a
    # neighbouring annotation may carry the determiner. What is measured over 14 runs (the
    # lesson's language, misreads_by_class): in every run determiners are the most misread class, at least 6x any
    # other (2%-90% of them against at most 0.7% of any other class); misread determiners are still predicted
    # right (98%-100%); in 11 of 14 runs most of them look exactly one position early, at the verb or preposition
    # before them; and in the run that misreads most (90% of determiners, training seed 1) the determiner itself
    # keeps 3% of the weight while 7,622 of its 7,623 misread determiners are translated right. Whether the
    # annotation of the word before carries the determiner (its backward half read it one step earlier) is not
    # tested here or in the lesson, which says so.
    chosen = runs(STUDY, "svo", "attention")
    one_early = 0
    for run in chosen:
        mis = run["misreads"]
        det = mis["determiner"]
        others = max(rec["share"] for cls, rec in mis.items() if cls != "determiner")
        assert det["share"] >= 6 * others and others <= 0.01, (run["seed"], run["data_seed"])
        assert det["right"] >= 0.97 * det["misread"]
        one_early += det["offsets"].get("-1", 0) > det["misread"] / 2
    assert one_early >= 10
    worst = max(chosen, key=lambda r: r["misreads"]["determiner"]["share"])["misreads"]["determiner"]
    assert worst["share"] > 0.8 and worst["weight_true"] < 0.05 and worst["right"] >= 0.999 * worst["misread"]
    assert worst["offsets"]["-1"] > worst["misread"] / 2


# --- lesson 07's verb-final section and its alignment phrases (issue 29) ---------------------------------------
def test_where_the_verbs_largest_weight_falls_on_the_verb_final_language():
    # Lesson 07 (cells vf000006-7) no longer says a decoder "reads the one it needs, wherever it is". It says the
    # committed verb-final model puts the largest weight elsewhere for 156 of 2,000 verbs (mostly one position
    # after the verb) and translates all of them right; that lesson 07's additive decoder misreads at most 0.302
    # of the verbs in any run and more than half in none; and that the general-score decoder (Bahdanau's order)
    # misreads more than half of the verbs in 13 of 14 runs, nearly always looking at a determiner, and still
    # translates most of those verbs right.
    from attention_core.models.misreads import misreads_by_class
    from attention_core.models.trained import VERB_FINAL

    verbs = misreads_by_class(load_trained(VERB_FINAL), data.make_splits(0, language="verb_final").test)["verb"]
    assert (verbs["misread"], verbs["words"], verbs["right"]) == (156, 2000, 156)
    # issue 44: a misread verb still keeps on average 0.26 of its weight on the verb itself (printed in vf000006),
    # so the lesson cannot say that the other annotation is what delivers it, and it does not
    assert round(verbs["weight_true"], 2) == 0.26
    assert verbs["offsets"].get(1, 0) > verbs["misread"] / 2
    additive = [figure(r, "verb_misread") for r in runs(STUDY, "verb_final", "attention")]
    assert max(additive) < 0.31 and sum(s > 0.5 for s in additive) == 0
    general = runs(STUDY, "verb_final", "general score")
    most = [r for r in general if figure(r, "verb_misread") > 0.5]
    assert len(most) == 13 and len(general) == 14
    misread = sum(r["misreads"]["verb"]["misread"] for r in most)
    assert sum(r["misreads"]["verb"]["lands_on"].get("determiner", 0) for r in most) >= 0.9 * misread
    assert sum(r["misreads"]["verb"]["right"] for r in most) >= 0.9 * misread


def test_the_alignment_phrases_of_lesson_07_and_the_argument_page_name_their_band():
    # "nearly every target word" (lesson 07) is the committed model's 0.9796; the argument page's "most target
    # words ... in every run" is the seed study's lowest run, 0.7861; neither is "virtually every".
    from attention_core.models.sweep import alignment_band

    # The committed model's recorded test counts: what it decodes on lesson 07's test set (checked to the token by
    # tests/models/test_trained.py's test_committed_parameters_give_the_recorded_test_counts_exactly; decoding the
    # 2,000 sentences again here took 2.6 s).
    ev = Evaluation(**trained_record()["test_counts"])
    assert alignment_band(ev.alignment_accuracy()) == "nearly every"
    align = spread(runs(STUDY, "svo", "attention"), "alignment")
    assert alignment_band(align["min"]) == "most" and alignment_band(align["max"]) == "nearly every"
