"""Figures for lesson 09: what an encoder without recurrence reads, beside what the decoder reads.

For one sentence, :func:`encoder_reads_figure` draws each chosen self-attention layer of the encoder (a row is the
source word that reads, a column a source word it reads: ``alpha_ij``, each row summing to 1) beside the
decoder's cross-attention over the encoder's output (a row per output word: ``alpha_tj``, lesson 07's alignment
grid, the true source word outlined). :func:`encoder_reads_alt` and :func:`encoder_reads_caption` give its alt text
and caption. Arrays in, a :class:`matplotlib.figure.Figure` out; the weights come from
``Seq2Seq.encoder_reads`` and ``Seq2Seq.greedy`` (``attention_core.explorers.encoder`` computes them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from .._validate import encoder_reads_args
from ..lang import Messages
from .training import HEATMAP_CELL, HEATMAP_FONT, _alignment_grid, _weight_bar

# Chinese text never uses $...$ (mathtext has no CJK glyphs): its symbols are Unicode (αᵢⱼ). English braces inside
# $...$ are doubled ({{ij}}) because the catalogue formats every sentence.
TEXT = Messages(
    __name__,
    {
        # the titles on two lines: a short sentence's grid is narrow
        "self_title": "encoder, layer {layer}\nself-attention $\\alpha_{{ij}}$",
        "cross_title": "decoder\ncross-attention $\\alpha_{{tj}}$",
        "reading_word": "word that reads $x_i$",
        "read_word": "word read $x_j$",
        "layer_alt": "layer {layer}, where {own} of the {T} words read most from themselves",
        "list_sep": "; ",
        "alt": (
            "Attention grids for the {T}-word sentence “{sentence}”: the encoder’s self-attention, a {T} by {T} grid "
            "for each layer shown ({layers}), beside the decoder’s {U} by {T} cross-attention, in which {right} of "
            "the {words} reference words read most from their true source word (outlined)."
        ),
        "alt_no_truth": (
            "Attention grids for the {T}-word sentence “{sentence}”: the encoder’s self-attention, a {T} by {T} grid "
            "for each layer shown ({layers}), beside the decoder’s {U} by {T} cross-attention."
        ),
        "caption": (
            "What a model whose encoder has no recurrence reads for one sentence. Left, each self-attention layer "
            "of the encoder: a row is the source word that reads, a column a source word it reads, and each row "
            "sums to 1. Right, the decoder’s cross-attention over the encoder’s output, one row per output word "
            "(outlined: the true source word). Fixed: the committed parameters and the sentence; what varies from "
            "grid to grid is the layer."
        ),
    },
)


def encoder_reads_figure(
    encoder: Sequence[np.ndarray],
    cross: np.ndarray,
    source: Sequence[str],
    output: Sequence[str],
    true_align=None,
    layers: Sequence[int] | None = None,
) -> Figure:
    """The encoder's self-attention grids beside the decoder's cross-attention grid, for one sentence.

    ``encoder``: one ``(T, T)`` array of weights per layer (``Seq2Seq.encoder_reads``' arrays for one sentence),
    row ``i`` the word that reads; ``cross`` ``(U, T)``: the decoder's weights, one row per word of ``output``;
    ``source`` the ``T`` source words; ``true_align`` ``(U',)`` (optional) the true source position of each
    reference word, outlined; ``layers`` the layers to draw (1-based; all by default). Every grid shares the
    source words along x and one weight scale from 0 to 1.
    """
    grids, cross, source, output, true_align, chosen = encoder_reads_args(
        encoder, cross, source, output, true_align, layers
    )
    T, U = len(source), len(output)
    # One grid above the other, as lesson 07's two languages (figures.training.language_heatmaps): side by side, a
    # 12-word sentence's three grids made a figure 12 in wide, which show_figure's phone-size text then crushed to
    # nothing. Cells of HEATMAP_CELL in, larger for a short sentence so that each grid is at least as tall as its
    # labels; each grid as tall as its rows.
    cell = max(HEATMAP_CELL, 2.4 / max(T, U))
    rows = [T] * len(chosen) + [U]
    height = sum(cell * n + 1.9 for n in rows) + 0.6
    fig = Figure(figsize=(cell * T + 1.6, height), layout="compressed")
    axes = np.atleast_1d(fig.subplots(len(rows), 1, gridspec_kw={"height_ratios": [cell * n + 1.9 for n in rows]}))
    for ax, layer in zip(axes, chosen, strict=False):
        im = ax.imshow(grids[layer - 1], cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
        ax.set_xticks(np.arange(T), source, rotation=90, fontsize=HEATMAP_FONT)
        ax.set_yticks(np.arange(T), source, fontsize=HEATMAP_FONT)
        ax.xaxis.tick_top()
        ax.set_xlabel(TEXT("read_word"), fontsize=HEATMAP_FONT)
        ax.xaxis.set_label_position("top")
        ax.set_ylabel(TEXT("reading_word"), fontsize=HEATMAP_FONT)
        ax.set_title(TEXT("self_title", layer=layer), fontsize=HEATMAP_FONT)
    im = _alignment_grid(axes[-1], cross, source, output, true_align, TEXT("cross_title"))
    _weight_bar(fig, im, list(axes))
    return fig


def encoder_reads_alt(
    encoder: Sequence[np.ndarray],
    cross: np.ndarray,
    source: Sequence[str],
    output: Sequence[str],
    true_align=None,
    layers: Sequence[int] | None = None,
) -> str:
    """The alt text of :func:`encoder_reads_figure` for the same arguments: the sentence, each layer shown with how
    many words read most from themselves, and how many reference words read most from their true source word."""
    grids, cross, source, output, true_align, chosen = encoder_reads_args(
        encoder, cross, source, output, true_align, layers
    )
    T, U = len(source), len(output)
    shown = [
        TEXT("layer_alt", layer=layer, own=int((grids[layer - 1].argmax(axis=1) == np.arange(T)).sum()), T=T)
        for layer in chosen
    ]
    words = {"T": T, "U": U, "sentence": " ".join(source), "layers": TEXT("list_sep").join(shown)}
    if true_align is None:
        return TEXT("alt_no_truth", **words)
    right = int((cross[: true_align.size].argmax(axis=1) == true_align).sum())
    return TEXT("alt", **words, right=right, words=int(true_align.size))


def encoder_reads_caption() -> str:
    """The caption of :func:`encoder_reads_figure`: what each grid is, what is fixed and what varies."""
    return TEXT("caption")
