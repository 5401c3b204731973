"""Lesson 09's notebook explorer: the encoder's self-attention beside the decoder's cross-attention, computed by the
committed model (state in the widget object), and its website twin, the laboratory's encoder panel."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from attention_core.explorers.encoder import encoder_explorer
from attention_core.explorers.training import DEFAULT_SENTENCE, parse_in
from attention_core.lang import language
from attention_core.models import data
from attention_core.models.trained import LESSON07, LESSON09, LESSON09_NO_POSITIONS, load_trained


def test_the_explorer_shows_what_the_committed_model_reads_layer_by_layer():
    a, b = encoder_explorer(), encoder_explorer(layer=2)
    model = load_trained(LESSON09)
    pair = data.parse(DEFAULT_SENTENCE.split())
    layers = model.encoder_reads(pair.src[None])
    tokens, weights = model.greedy(pair.src[None])
    assert len(a.reads) == len(layers) == 2
    for got, want in zip(a.reads, layers, strict=True):
        np.testing.assert_array_equal(got, want[0])
    np.testing.assert_array_equal(a.cross, weights[0])
    assert a.tokens.tolist() == tokens[0].tolist()
    assert html.escape(" ".join(data.TGT_WORDS[k] for k in tokens[0])) in a.message.value
    best = layers[0][0].argmax(axis=1)
    words = pair.words()[0]
    for i, word in enumerate(words):  # the readout: the word each word reads most in layer 1, and its weight
        row = f"{i + 1} {word}</th><td>{best[i] + 1} {words[best[i]]}</td><td>{layers[0][0][i, best[i]]:.3f}</td>"
        assert row in a.table.value
    assert "Layer 1:" in a.table.value and 'alt="Attention grids for the 12-word sentence' in a.image.value
    assert "(layer 1, where" in a.image.value and "(layer 2, where" in b.image.value
    a.set_layer(2)  # what the menu does
    assert a.layer.value == 2 and "Layer 2:" in a.table.value and b.layer.value == 2
    best = layers[1][0].argmax(axis=1)
    assert f"<td>{best[0] + 1} {words[best[0]]}</td><td>{layers[1][0][0, best[0]]:.3f}</td>" in a.table.value
    a.set_layer(9)
    assert a.layer.value == 2, "clipped to the encoder's layers"
    b.set_layer(1)
    assert a.layer.value == 2, "each explorer keeps its own state"


def test_the_explorer_explains_sentences_outside_the_grammar_and_refuses_bad_arguments():
    explorer = encoder_explorer()
    assert not explorer.set_sentence("the dog sees a cat")
    assert "“dog” (word 2) is not a word of the toy language" in explorer.message.value
    assert explorer.reads is None and explorer.image.value == explorer.table.value == ""
    assert explorer.set_sentence("the river paints the small garden") and len(explorer.reads[0]) == 6
    for kwargs, message in (
        ({"model": LESSON07}, f"{LESSON07} has lesson 07's recurrent encoder, which reads nothing"),
        ({"layer": 3}, "layer must be a whole number from 1 to 2, got 3"),
        ({"layer": True}, "layer must be a whole number from 1 to 2, got True"),
        ({"model": 9}, "model must name a committed model"),
    ):
        with pytest.raises((ValueError, TypeError)) as caught:
            encoder_explorer(**kwargs)
        assert message in str(caught.value) and "\n" not in str(caught.value)


def test_without_positions_copies_of_a_word_read_alike_and_alignment_is_not_counted():
    """The sentence has "this" and "economic" twice: without positions their annotations are equal, so their
    columns are equal in every layer, and the alt text counts no alignment (the copies tie: ModelConfig.aligns)."""
    explorer = encoder_explorer(model=LESSON09_NO_POSITIONS)
    words = explorer.pair.words()[0]
    for word in ("this", "economic"):
        i, j = [k for k, w in enumerate(words) if w == word]
        for grid in explorer.reads:
            np.testing.assert_allclose(grid[:, i], grid[:, j], rtol=1e-12)
            np.testing.assert_allclose(grid[i], grid[j], rtol=1e-12)
    alt = re.search(r'alt="([^"]*)"', explorer.image.value).group(1)
    assert "true source" not in alt and "cross-attention." in alt
    assert "true source word" in encoder_explorer().image.value


def test_the_explorer_speaks_the_editions_language():
    with language("zh"):
        zh = encoder_explorer()
    zh.set_layer(2)  # a callback outside the with block keeps the explorer's language
    assert zh.layer.description == "自注意力层" and "第 2 层：每个源词读取最多的词" in zh.table.value
    assert "编码器的自注意力" in zh.image.value and "模型的译文" in zh.message.value
    with language("fr"):
        fr = encoder_explorer()
    assert fr.layer.options[1][0] == "couche 2 sur 2" and "l’auto-attention de l’encodeur" in fr.image.value


def test_its_twin_is_the_labs_encoder_panel_on_the_models_design():
    """The declaration the build reads: the laboratory, opened on its encoder panel, on this model (whose design
    and language the lab chooses), this sentence and this layer; the lab's data offer the model."""
    from attention_core.explorers.site import lab_data

    explorer = encoder_explorer(sentence="the cat sees a bird", model=LESSON09_NO_POSITIONS, layer=2)
    assert explorer.twin() == {
        "kind": "lab",
        "args": {"sentence": "the cat sees a bird", "model": LESSON09_NO_POSITIONS, "layer": 2, "panel": "encoder"},
    }
    models = {m["name"]: m for m in lab_data()["models"]}
    assert models[LESSON09_NO_POSITIONS]["design"] == "self-attention, no positions"
    assert parse_in("the cat sees a bird".split(), models[LESSON09]["language"]).src.size == 5
