"""Lesson 07's notebook explorers: the decoder stepper and the snapshot scrubber (state in the widget objects)."""

from __future__ import annotations

import numpy as np

from attention_core.explorers.training import decoder_stepper, learning_snapshots
from attention_core.lang import language
from attention_core.models import data
from attention_core.models.trained import load_snapshots, load_trained


def test_stepper_shows_the_committed_models_trace_step_by_step():
    a, b = decoder_stepper(), decoder_stepper()
    model = load_trained()
    pair = data.parse(a.text.value.split())
    ref = model.greedy_trace(pair.src)
    assert a.trace["tokens"].tolist() == ref["tokens"].tolist() and a.slider.max == len(ref["tokens"])
    a.set_step(4)  # what the slider does
    t = 3
    for j in range(pair.src.size):
        assert f"<td>{ref['scores'][t, j]:.3f}</td><td>{ref['weights'][t, j]:.3f}</td>" in a.table.value
    assert f"the model writes “{data.TGT_WORDS[ref['tokens'][t]]}”" in a.table.value
    assert 'alt="Decoder step 4: bars of the weights' in a.image.value
    a.next.click()  # the buttons step too
    assert a.slider.value == 5 and b.slider.value == 1, "each explorer keeps its own state"
    a.set_step(99)
    assert a.slider.value == len(ref["tokens"])


def test_stepper_explains_sentences_outside_the_grammar():
    stepper = decoder_stepper()
    assert not stepper.set_sentence("the dog sees a cat")
    assert "“dog” (word 2) is not a word of the toy language" in stepper.message.value
    assert "cat, house" in stepper.message.value and stepper.trace is None and stepper.table.value == ""
    assert not stepper.set_sentence("the cat sees")
    assert "after word 3 “sees” the grammar needs a determiner (the, a, every, this)" in stepper.message.value
    assert stepper.set_sentence("the river paints the small garden")
    assert stepper.slider.max == 7 and "la riviere peint la jardin petite" in stepper.message.value


def test_stepper_speaks_chinese_in_the_chinese_edition():
    with language("zh"):
        stepper = decoder_stepper()
    stepper.set_step(2)  # a callback outside the with block keeps the explorer's language
    assert stepper.slider.description == "步 t" and "读取权重 α_tj" in stepper.table.value
    assert "模型写出" in stepper.table.value
    stepper.set_sentence("the dog sees a cat")
    assert "不是玩具语言中的词" in stepper.message.value


def test_snapshot_scrubber_replays_the_committed_snapshots():
    snaps = load_snapshots()
    a, b = learning_snapshots(), learning_snapshots(0)
    assert a.slider.value == len(snaps["steps"]) - 1
    a.set_snapshot(5)
    step = snaps["steps"][5]
    assert f"Step {step}:" in a.readout.value and f"{snaps['valid_token'][5]:.3f}" in a.readout.value
    want = np.array(snaps["weights"][5][2]).reshape(a.figure.shape) / 1000
    np.testing.assert_allclose(a.figure.im.get_array(), want)
    assert a.figure.shape == (28, 27) and b.figure.shape == (7, 6)
    assert b.slider.value == len(snaps["steps"]) - 1, "each explorer keeps its own state"
    a.set_sentence(1)
    assert a.figure.shape == (13, 12) and a.slider.value == 5
    a.set_snapshot(0)
    assert "Step 0: the initial parameters" in a.readout.value
    assert "&lt;/s&gt;" in a.readout.value.split("Greedy translation:")[1] or "</s>" not in a.readout.value
    with language("zh"):
        zh = learning_snapshots(0)
    zh.set_snapshot(3)
    assert "验证集 token 准确率" in zh.readout.value and zh.sentence.description == "测试句子"


def test_stepper_steps_through_any_committed_attention_model_in_its_language():
    """Lesson 08's explorer: a committed model by name; its target language gives the reference and the true
    alignment (parse_in equals the splits' pairs of that language), and the lab opens on that model."""
    import pytest

    from attention_core.explorers.training import parse_in
    from attention_core.models.trained import LESSON08_LUONG, VERB_FINAL, VERB_FINAL_BASELINE

    for p in data.make_splits(seed=1, n_train=1, n_valid=1, n_test=300, language="verb_final").test:
        got = parse_in(p.words()[0], "verb_final")
        assert got.tgt.tolist() == p.tgt.tolist() and got.align.tolist() == p.align.tolist()
    with pytest.raises(ValueError, match="language must be one of"):
        parse_in(["the", "cat", "sees", "a", "bird"], "sov")
    stepper = decoder_stepper(model=VERB_FINAL)
    assert stepper.twin()["args"] == {"sentence": stepper.start, "model": VERB_FINAL}
    pair = parse_in(stepper.start.split(), "verb_final")
    ref = load_trained(VERB_FINAL).greedy_trace(pair.src)
    assert stepper.trace["tokens"].tolist() == ref["tokens"].tolist()
    assert stepper.pair.align.tolist() == pair.align.tolist() and pair.align.tolist()[-1] == 4  # the verb, last
    assert decoder_stepper(model=LESSON08_LUONG).language == "svo"
    with pytest.raises(ValueError, match="fixed summary"):
        decoder_stepper(model=VERB_FINAL_BASELINE)
