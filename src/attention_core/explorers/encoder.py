"""Lesson 09's notebook explorer: what an encoder without recurrence reads, beside what its decoder reads.

``encoder_explorer()`` translates a sentence of the toy language with a committed model whose encoder is made of
self-attention layers (lesson 09's by default) and shows, for the layer chosen, the encoder's self-attention grid
(:meth:`~attention_core.models.seq2seq.Seq2Seq.encoder_reads`: every source word reads every source word) beside
the decoder's cross-attention grid for the same sentence (:meth:`~attention_core.models.seq2seq.Seq2Seq.greedy`'s
weights, the true source words outlined); the figure is
:func:`~attention_core.figures.encoder.encoder_reads_figure`. Below it, for each source word, the word it reads
most in that layer.

State lives in the returned widget, never in module globals. It needs a running kernel (``make lab``); the
website's twin is a panel of the laboratory ("Inside the encoder", ``book/_assets/ae-lab.js``), computed in the
browser from :func:`attention_core.explorers.site.lab_data`.

The figures and the other explorers' helpers are imported where they are used: the package's sentences are
catalogued in the order their modules are first imported (``python -m attention_workshop.editions update``), and
importing them here, first among the explorers, would move most of ``attention_core.po`` for nothing.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..lang import Messages, get_language, language
from .twin import Twin

TEXT = Messages(
    __name__,
    {
        "sentence": "sentence",
        "layer": "self-attention layer",
        "layer_option": "layer {l} of {L}",
        "model_says": "The model’s translation: {words}",
        "reference": "Reference (the grammar’s): {words}",
        "word": "source word",
        "reads_most": "reads most",
        "weight": "its weight α_ij",
        "table_caption": "Layer {l}: the word each source word reads most",
    },
)


class EncoderExplorer(Twin, widgets.VBox):
    """Type a sentence of the toy language and choose a layer; see what the encoder's self-attention reads beside
    what the decoder's cross-attention reads, for a committed model whose encoder has no recurrence.

    ``model`` names a committed model (:mod:`attention_core.models.trained`; lesson 09's by default): its target
    language gives the reference translation and the true alignment. ``explorer.set_sentence(text)`` does what
    typing does (it returns False and explains when the sentence is outside the grammar),
    ``explorer.set_layer(l)`` what the menu does (``l`` from 1). ``explorer.reads`` holds each layer's ``(T, T)``
    weights, ``explorer.cross`` the decoder's ``(U, T)``, ``explorer.tokens`` its greedy output.
    """

    twin_kind = "lab"  # the laboratory's "Inside the encoder" panel

    def __init__(self, sentence: str | None = None, model: str | None = None, layer: int = 1):
        from ..models.trained import LESSON09, load_trained, trained_config
        from .reading import LABEL
        from .training import DEFAULT_SENTENCE

        sentence = DEFAULT_SENTENCE if sentence is None else sentence
        self.start, self.lang = sentence, get_language()
        self.name = LESSON09 if model is None else model
        if not isinstance(self.name, str):
            raise TypeError(f"model must name a committed model (a str such as {LESSON09!r}), got {self.name!r}")
        self.model = load_trained(self.name)
        if self.model.cfg.encoder != "self_attention":
            raise ValueError(
                f"{self.name} has lesson 07's recurrent encoder, which reads nothing: choose a model whose encoder is "
                f"made of self-attention layers, such as {LESSON09!r}"
            )
        self.language = trained_config(self.name).language
        layers = self.model.cfg.layers
        if not isinstance(layer, int) or isinstance(layer, bool) or not 1 <= layer <= layers:
            raise ValueError(f"layer must be a whole number from 1 to {layers}, got {layer!r}")
        self.first_layer = layer
        self.text = widgets.Text(
            value=sentence,
            description=TEXT("sentence"),
            continuous_update=False,
            layout=widgets.Layout(width="95%"),
            style=LABEL,
        )
        self.layer = widgets.Dropdown(
            options=[(TEXT("layer_option", l=k, L=layers), k) for k in range(1, layers + 1)],
            value=layer,
            description=TEXT("layer"),
            style=LABEL,
        )
        self.message = widgets.HTML()
        self.image = widgets.HTML()  # an <img> with alt text
        self.table = widgets.HTML()
        self.pair = self.reads = self.cross = self.tokens = None
        super().__init__([self.text, self.layer, self.message, self.image, self.table])
        self.text.observe(lambda change: self.set_sentence(change["new"]), names="value")
        self.layer.observe(lambda change: self._draw(), names="value")
        self.set_sentence(sentence)

    def set_sentence(self, text: str) -> bool:
        from ..models import data
        from .training import parse_in, sentence_message

        if self.text.value != text:
            self.text.value = text  # the observer comes back here
            return self.pair is not None
        words = text.lower().split()
        with language(self.lang):
            try:
                self.pair = parse_in(words, self.language)
            except data.SentenceError as err:
                self.pair = self.reads = self.cross = self.tokens = None
                self.message.value = f"<p><b>{html.escape(sentence_message(err, words))}</b></p>"
                self.image.value = self.table.value = ""
                return False
            src = self.pair.src[None]  # (1, T)
            self.reads = [a[0] for a in self.model.encoder_reads(src)]  # one (T, T) per layer
            tokens, weights = self.model.greedy(src)  # (1, T + 1), (1, T + 1, T)
            self.tokens, self.cross = tokens[0], weights[0]
            out = " ".join(data.TGT_WORDS[k] for k in self.tokens)
            ref = " ".join([*self.pair.words()[1], data.EOS])
            self.message.value = (
                f"<p>{html.escape(TEXT('model_says', words=out))}<br>{html.escape(TEXT('reference', words=ref))}</p>"
            )
        self._draw()
        return True

    def set_layer(self, layer: int) -> None:
        """Show layer ``layer`` (1-based; clipped to the encoder's layers)."""
        self.layer.value = int(min(max(int(layer), 1), self.model.cfg.layers))

    def twin_args(self) -> dict:
        """The sentence, the committed model and the layer the laboratory's encoder panel starts from (and that
        panel opens first)."""
        return {"sentence": self.start, "model": self.name, "layer": self.first_layer, "panel": "encoder"}

    def _draw(self) -> None:
        from ..figures.display import figure_png, img_tag
        from ..figures.encoder import encoder_reads_alt, encoder_reads_figure
        from ..models import data
        from .reading import readout_table

        if self.reads is None:
            return
        layer = self.layer.value
        source = list(self.pair.words()[0])
        output = [data.TGT_WORDS[k] for k in self.tokens]
        args = (self.reads, self.cross, source, output, self.pair.align, [layer])
        # the alt text counts the reference words read most from their true source word only where the weights
        # name positions (ModelConfig.aligns): without positions, copies of a word tie
        counted = (*args[:4], self.pair.align if self.model.cfg.aligns else None, [layer])
        with language(self.lang):
            fig = encoder_reads_figure(*args)
            self.image.value = img_tag(figure_png(fig, dpi=80), encoder_reads_alt(*counted))
            grid = self.reads[layer - 1]
            best = grid.argmax(axis=1)
            rows = [
                (f"{i + 1} {word}", f"{best[i] + 1} {source[best[i]]}", f"{grid[i, best[i]]:.3f}")
                for i, word in enumerate(source)
            ]
            header = (TEXT("word"), TEXT("reads_most"), TEXT("weight"))
            self.table.value = readout_table(header, rows, TEXT("table_caption", l=layer))


def encoder_explorer(sentence: str | None = None, model: str | None = None, layer: int = 1) -> EncoderExplorer:
    """Lesson 09: translate ``sentence`` (lesson 07's 12-word example by default) with a committed model whose
    encoder is made of self-attention layers (``model``, a name of :mod:`attention_core.models.trained`; lesson 09's
    by default) and see what its encoder's layer ``layer`` reads beside what its decoder reads."""
    return EncoderExplorer(sentence, model, layer)
