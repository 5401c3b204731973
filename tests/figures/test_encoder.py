"""Lesson 09's figure: the encoder's self-attention grids beside the decoder's cross-attention grid, for one
sentence (``attention_core.figures.encoder``), with its alt text and caption, in every language."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.figures.encoder import encoder_reads_alt, encoder_reads_caption, encoder_reads_figure
from attention_core.lang import language
from tests.figures.test_training import square_cells, true_cells

SOURCE = ["the", "cat", "sees", "a", "bird"]
OUTPUT = ["la", "chat", "voit", "une", "pie", "</s>"]
ALIGN = [0, 1, 2, 3, 4]


def grids():
    """Two layers of (T, T) weights, each row summing to 1, and a (U, T) cross-attention: layer 1 reads the word
    before (itself for the first), the rest spread evenly, more the later the row (so that a column's largest
    weight is not its row's), layer 2 reads itself; the decoder reads the true source of four words of five."""
    T = len(SOURCE)
    spread = 0.02 * (np.arange(T)[:, None] + 1)  # (T, 1): each row's weight on every word it does not read most
    before, itself = np.repeat(spread, T, axis=1), np.eye(T)
    before[np.arange(T), np.maximum(np.arange(T) - 1, 0)] = 1.0 - (T - 1) * spread[:, 0]
    cross = np.full((len(OUTPUT), T), 0.1 / (T - 1))
    for t, j in enumerate([0, 1, 2, 4, 4, 0]):
        cross[t, j] = 0.9
    return [before, itself], cross


def test_each_chosen_layer_and_the_cross_attention_are_drawn_over_the_same_source(figtext):
    encoder, cross = grids()
    fig = encoder_reads_figure(encoder, cross, SOURCE, OUTPUT, ALIGN)
    panels = [ax for ax in fig.axes if ax.get_images() and ax.get_title()]
    assert [ax.get_title() for ax in panels] == [
        "encoder, layer 1\nself-attention $\\alpha_{ij}$",
        "encoder, layer 2\nself-attention $\\alpha_{ij}$",
        "decoder\ncross-attention $\\alpha_{tj}$",
    ]
    for ax, want in zip(panels, [*encoder, cross], strict=True):
        np.testing.assert_array_equal(ax.get_images()[0].get_array(), want)
        assert [t.get_text() for t in ax.get_xticklabels()] == SOURCE
    assert [t.get_text() for t in panels[0].get_yticklabels()] == SOURCE
    assert [t.get_text() for t in panels[2].get_yticklabels()] == OUTPUT
    assert (panels[0].get_xlabel(), panels[0].get_ylabel()) == ("word read $x_j$", "word that reads $x_i$")
    assert not panels[0].patches and square_cells(panels[2].patches) == true_cells(ALIGN)
    assert r"weight $\alpha_{tj}$" in figtext.texts(fig)  # one shared colour bar
    one = encoder_reads_figure(encoder, cross, SOURCE, OUTPUT, ALIGN, layers=[2])
    shown = [ax for ax in one.axes if ax.get_images() and ax.get_title()]
    assert len(shown) == 2 and shown[0].get_title().startswith("encoder, layer 2")
    np.testing.assert_array_equal(shown[0].get_images()[0].get_array(), encoder[1])


def test_the_alt_text_counts_what_the_grids_show():
    encoder, cross = grids()
    alt = encoder_reads_alt(encoder, cross, SOURCE, OUTPUT, ALIGN)
    assert alt == (
        "Attention grids for the 5-word sentence “the cat sees a bird”: the encoder’s self-attention, a 5 by 5 grid "
        "for each layer shown (layer 1, where 1 of the 5 words read most from themselves; layer 2, where 5 of the 5 "
        "words read most from themselves), beside the decoder’s 6 by 5 cross-attention, in which 4 of the 5 "
        "reference words read most from their true source word (outlined)."
    )
    no_truth = encoder_reads_alt(encoder, cross, SOURCE, OUTPUT, None, layers=[1])
    assert "layer 1, where 1 of the 5" in no_truth and "true source" not in no_truth and "layer 2" not in no_truth
    assert "Fixed: the committed parameters and the sentence" in encoder_reads_caption()


@pytest.mark.parametrize("lang", ["zh", "fr"])
def test_the_figure_and_its_texts_speak_the_editions_language(figtext, lang):
    encoder, cross = grids()
    with language(lang):
        fig = encoder_reads_figure(encoder, cross, SOURCE, OUTPUT, ALIGN)
        alt, caption = encoder_reads_alt(encoder, cross, SOURCE, OUTPUT, ALIGN), encoder_reads_caption()
    drawn = figtext.texts(fig)
    english = {"encoder", "decoder", "self-attention", "cross-attention", "word read", "that reads", "weight"}
    assert not [t for t in drawn for word in english if word in t], drawn
    assert not [w for w in ("sentence", "grid", "layer", "Fixed") if w in alt + caption]
    if lang == "zh":
        assert {"编码器第 1 层\n自注意力 αᵢⱼ", "解码器\n交叉注意力 αₜⱼ"} <= set(drawn)
        assert not any("$" in t for t in drawn if figtext.has_cjk(t))  # mathtext would draw CJK as empty boxes
        assert "5 个参考词里有 4 个" in alt and "，" in caption and "," not in caption
    else:
        assert "encodeur, couche 1\nauto-attention $\\alpha_{ij}$" in drawn
        assert "«\u00a0the cat sees a bird\u00a0»\u00a0:" in alt and "4 des 5 mots de référence" in alt
        # a no-break space before ":" and a narrow one before ";", as every French message of the package
        assert " :" not in caption.replace("\u00a0:", "") and "\u202f;" in caption
    figtext.render_every_glyph(fig)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"encoder": [np.eye(4)]}, "encoder[0] must have shape (T, T) = (5, 5) for 5 source words, got shape (4, 4)"),
        ({"encoder": np.eye(5)}, "encoder must be a sequence of (T, T) arrays, one per layer"),
        ({"encoder": []}, "encoder must hold the weights of one layer at least"),
        ({"cross": np.ones((6, 4))}, "cross must have shape (U, T) = (6, 5) for 6 output and 5 source words"),
        ({"encoder": [np.full((5, 5), np.nan)]}, "encoder[0] (shape (5, 5)) contains NaN or infinite values"),
        ({"source": "the cat sees a bird"}, "source and output must be sequences of words (str)"),
        ({"output": [1, 2, 3, 4, 5, 6]}, "source and output must hold words (str)"),
        ({"layers": [3]}, "layers must name layers 1 to 2, got [3]"),
        ({"layers": [0]}, "a layer must be"),
        ({"true_align": [0, 1, 5]}, "true_align must be source positions 0..4, at most one per output word (6)"),
    ],
)
def test_bad_input_gets_one_line_naming_it(change, message):
    encoder, cross = grids()
    args = {"encoder": encoder, "cross": cross, "source": SOURCE, "output": OUTPUT, "true_align": ALIGN}
    args.update(change)
    for draw in (encoder_reads_figure, encoder_reads_alt):
        with pytest.raises((ValueError, TypeError)) as caught:
            draw(**args)
        assert message in str(caught.value) and "\n" not in str(caught.value)
