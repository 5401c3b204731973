"""Lesson 07's notebook explorers: the decoder step by step, and the committed training run replayed.

``decoder_stepper()`` translates a sentence of the toy language with the committed model and walks through its
greedy decoding one step at a time, in the order of the lesson's equations: the scores with ``s_{t-1}``, the
weights, the read ``c_t``, the state update with ``c_t``, the next-word distribution
(:meth:`~attention_core.models.seq2seq.Seq2Seq.greedy_trace` computes every quantity; the figure is
:func:`~attention_core.figures.training.decoder_step_figure`). ``learning_snapshots()`` scrubs (or plays) through
the snapshots that ``attention_workshop.train_committed --snapshots`` recorded while it trained the committed parameters
(:class:`~attention_core.figures.training.SnapshotFigure`).

State lives in the returned widget, never in module globals. Both need a running kernel (``make lab``); the
website's lesson 07 has a live twin of each in its laboratory (``book/_assets/ae-lab.js``), computed in the
browser from :func:`attention_core.explorers.site.lab_data`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from ..figures.display import BlitRenderer, figure_png, img_tag
from ..figures.training import TEXT as FIGURE_TEXT
from ..figures.training import SnapshotFigure, decoder_step_figure
from ..lang import Messages, get_language, language
from .reading import LABEL, readout_table
from .site import LABELS  # the laboratory's sentences (grammar messages, class names) in both languages
from .twin import Twin

TEXT = Messages(
    __name__,
    {
        "sentence": "sentence",
        "step": "step t",
        "prev": "◀ previous step",
        "next": "next step ▶",
        "model_says": "The model’s translation: {words}",
        "reference": "Reference (the grammar’s): {words}",
        "position": "source word",
        "score": "score e_tj",
        "weight": "weight α_tj",
        "word": "next word",
        "probability": "probability",
        "order": (
            "Step {t} of {U}: scores with s_(t−1), weights, the read c_t, then the state update s_t = "
            "GRU(s_(t−1), [e_tgt(“{prev}”); c_t]), then p(y_t | y_<t, x): the model writes “{word}”."
        ),
        "snapshot_sentence": "test sentence",
        "snapshot_step": "training step",
        "snapshot_option": "{n} words: {words}",
        "snapshot_figures": (
            "Step {step}: training loss {loss:.3f} (mean of the {window} steps before); validation token accuracy "
            "{token:.3f}; alignment accuracy {align:.3f}. Greedy translation: {words}"
        ),
        "snapshot_start": "Step 0: the initial parameters, before any update. Greedy translation: {words}",
    },
)
DEFAULT_SENTENCE = "this green economic bird sees the city behind this economic big cat"  # lesson 07's 12-word example


def sentence_message(err, words: list[str]) -> str:
    """A reader's message for a :class:`~attention_core.models.data.SentenceError` raised on ``words``: which
    word, and what the grammar allows there (the website's sentences, :data:`~.site.LABELS`)."""
    from ..models import data

    groups = {
        "determiner": data.DETERMINERS,
        "adjective": data.ADJECTIVES,
        "noun": data.NOUNS,
        "verb": data.VERBS,
        "preposition": data.PREPOSITIONS,
    }
    parts = [
        LABELS("lab_end_of_sentence")
        if cls == data.END
        else f"{LABELS('lab_class_' + cls)} ({', '.join(s for s, _ in groups[cls])})"  # the toy words, Latin
        for cls in err.allowed
    ]
    values = {"word": err.word, "k": err.position + 1, "allowed": LABELS("lab_or").join(parts)}
    values.update(max_adj=data.MAX_ADJ, max_pp=data.MAX_PP, max_len=data.MAX_LEN, last="")
    if err.kind == "unfinished":
        values.update(k=err.position, last=words[-1])
    return LABELS("lab_err_" + err.kind, **values)


def parse_in(words: list[str], language: str = "svo"):
    """:func:`~attention_core.models.data.parse` with the target in ``language``'s order (one of
    :data:`~attention_core.models.data.LANGUAGES`): the same source ids, the target words and the true alignment
    of that language (as :func:`~attention_core.models.data.make_splits` makes them for its sentences)."""
    from ..models import data

    pair = data.parse(words)
    if language == "svo":
        return pair
    if language not in data.LANGUAGES:
        raise ValueError(f"language must be one of {data.LANGUAGES}, got {language!r}")
    words = list(words)
    chunks, start, k = [], 0, 0  # the target's words of each source phrase, in source order (svo keeps them so)
    while start < len(words):
        end = start + 1
        if data.SRC_CLASS_OF[words[start]] == "determiner":
            end = next(j for j in range(start, len(words)) if data.SRC_CLASS_OF[words[j]] == "noun") + 1
        chunks.append(pair.align[k : k + end - start].tolist())
        k, start = k + end - start, end
    align = [j for q in data._phrase_order(len(chunks), language) for j in chunks[q]]
    return data.encode(words, [data.TRANSLATE[words[j]] for j in align], align)


class DecoderStepper(Twin, widgets.VBox):
    """Type a sentence of the toy language; step through a committed model's greedy decoding of it.

    ``model`` names a committed model (:mod:`attention_core.models.trained`; lesson 07's by default): its target
    language gives the reference translation and the true alignment. ``stepper.set_sentence(text)`` does what
    typing does (it returns False and explains when the sentence is outside the grammar), ``stepper.set_step(t)``
    what the slider does (``t`` from 1). ``stepper.trace`` holds every quantity of every step
    (:meth:`Seq2Seq.greedy_trace`), ``stepper.pair`` the parsed sentence.
    """

    twin_kind = "lab"  # the laboratory's "Step through the decoder" panel

    def __init__(self, sentence: str = DEFAULT_SENTENCE, model=None):
        self.start = sentence
        from ..models.trained import LESSON07, load_trained, trained_config

        self.lang = get_language()
        self.name = model if isinstance(model, str) else LESSON07
        self.language = trained_config(self.name).language if isinstance(model, str) or model is None else "svo"
        self.model = load_trained(self.name) if isinstance(model, str) or model is None else model
        if not self.model.cfg.attention:
            raise ValueError(f"{self.name} is the fixed summary: it reads no weights to step through")
        self.text = widgets.Text(
            value=sentence,
            description=TEXT("sentence"),
            continuous_update=False,
            layout=widgets.Layout(width="95%"),
            style=LABEL,
        )
        self.message = widgets.HTML()
        self.slider = widgets.IntSlider(
            value=1, min=1, max=1, description=TEXT("step"), continuous_update=True, style=LABEL
        )
        self.prev = widgets.Button(description=TEXT("prev"))
        self.next = widgets.Button(description=TEXT("next"))
        self.image = widgets.HTML()  # an <img> with alt text
        self.table = widgets.HTML()
        self.pair, self.trace = None, None
        self._frames, self._layout = {}, None
        super().__init__(
            [self.text, self.message, widgets.HBox([self.prev, self.slider, self.next]), self.image, self.table]
        )
        self.text.observe(lambda change: self.set_sentence(change["new"]), names="value")
        self.slider.observe(lambda change: self._draw(), names="value")
        self.prev.on_click(lambda _: self.set_step(self.slider.value - 1))
        self.next.on_click(lambda _: self.set_step(self.slider.value + 1))
        self.set_sentence(sentence)

    def set_sentence(self, text: str) -> bool:
        from ..models import data

        if self.text.value != text:
            self.text.value = text  # the observer comes back here
            return self.pair is not None
        words = text.lower().split()
        with language(self.lang):
            try:
                self.pair = parse_in(words, self.language)
            except data.SentenceError as err:
                self.pair, self.trace = None, None
                self.message.value = f"<p><b>{html.escape(sentence_message(err, words))}</b></p>"
                self.image.value = self.table.value = ""
                return False
            self.trace = self.model.greedy_trace(self.pair.src)
            self._frames, self._layout = {}, None  # this sentence's rendered steps, and its figures' layout
            out = " ".join(data.TGT_WORDS[k] for k in self.trace["tokens"])
            ref = " ".join([*self.pair.words()[1], data.EOS])
            self.message.value = (
                f"<p>{html.escape(TEXT('model_says', words=out))}<br>{html.escape(TEXT('reference', words=ref))}</p>"
            )
        self.slider.max = len(self.trace["tokens"])
        if self.slider.value != 1:
            self.slider.value = 1  # the observer draws
        else:
            self._draw()
        return True

    def twin_args(self) -> dict:
        """The sentence the stepper starts from (the laboratory composes it) and, if not lesson 07's, the committed
        model it decodes with (the laboratory opens on that model's design and language)."""
        from ..models.trained import LESSON07

        return {"sentence": self.start} | ({} if self.name == LESSON07 else {"model": self.name})

    def set_step(self, t: int) -> None:
        """Show step ``t`` (1-based; clipped to the decoded length)."""
        self.slider.value = int(np.clip(t, 1, self.slider.max))

    def _frame(self, t: int, fig, alt: str) -> str:
        """Step ``t``'s figure as an ``<img>``, rendered once per sentence and step. The sentence's first rendered
        step is laid out by its figure's layout engine; its other steps keep that layout (the boxes it gives them
        differ by under half a pixel) instead of computing it again, a third of a frame's time."""
        if t not in self._frames:
            if self._layout is None:
                png = figure_png(fig, dpi=80)  # lays the figure out, then draws it
                self._layout = [a.get_position() for a in fig.axes], [x.get_position() for x in fig.texts]
            else:
                fig.set_layout_engine("none")
                for artist, box in zip(fig.axes, self._layout[0], strict=True):
                    artist.set_position(box)
                for text, position in zip(fig.texts, self._layout[1], strict=True):  # the title above the panels
                    text.set_position(position)
                png = figure_png(fig, dpi=80)
            self._frames[t] = img_tag(png, alt)
        return self._frames[t]

    def _draw(self) -> None:
        from ..models import data

        if self.trace is None:
            return
        t = self.slider.value - 1
        tr, (src, _) = self.trace, self.pair.words()
        with language(self.lang):
            fig = None if t in self._frames else decoder_step_figure(tr, t, src, data.TGT_WORDS)
            w, p = tr["weights"][t], tr["probs"][t]
            j, k = int(w.argmax()), int(p.argmax())
            alt = FIGURE_TEXT(
                "step_alt", t=t + 1, T=len(src), src=src[j], w=f"{w[j]:.3f}", word=data.TGT_WORDS[k], p=f"{p[k]:.4f}"
            )
            self.image.value = self._frame(t, fig, alt)
            rows = [(f"{j + 1} {word}", f"{tr['scores'][t, j]:.3f}", f"{w[j]:.3f}") for j, word in enumerate(src)]
            top = np.argsort(-p, kind="stable")[:5]
            words = [(data.TGT_WORDS[i], f"{p[i]:.4f}") for i in top]
            order = TEXT(
                "order", t=t + 1, U=len(tr["tokens"]), prev=data.TGT_WORDS[tr["y_prev"][t]], word=data.TGT_WORDS[k]
            )
            self.table.value = (
                f"<p>{html.escape(order)}</p>"
                + readout_table((TEXT("position"), TEXT("score"), TEXT("weight")), rows)
                + readout_table((TEXT("word"), TEXT("probability")), words)
            )


def decoder_stepper(sentence: str = DEFAULT_SENTENCE, model: str | None = None) -> DecoderStepper:
    """Lessons 07 and 08: translate ``sentence`` with a committed model (``model``, a name of
    :mod:`attention_core.models.trained`; lesson 07's by default) and step through its decoder."""
    return DecoderStepper(sentence, model)


class SnapshotExplorer(Twin, widgets.VBox):
    """Scrub or play through the committed run's snapshots: the weights it reads, its loss and its accuracy.

    ``explorer.set_snapshot(k)`` does what the slider does (``k`` indexes the snapshots, every
    ``SNAPSHOT_EVERY`` steps from 0), ``explorer.set_sentence(i)`` what the menu does.
    """

    WINDOW = 20  # steps in the mean loss the readout prints

    twin_kind = "lab"  # the laboratory's "Watch it learn" panel

    def __init__(self, sentence: int = 2, snaps: dict | None = None):
        self.start = int(sentence)
        from ..models.trained import LESSON07, load_snapshots, trained_record

        self.lang = get_language()
        if snaps is None:
            snaps = {**load_snapshots(LESSON07), "losses": trained_record(LESSON07)["losses"]}
        self.snaps = snaps
        last = len(snaps["steps"]) - 1
        options = [
            (TEXT("snapshot_option", n=len(s["source"]), words=" ".join(s["source"])), i)
            for i, s in enumerate(snaps["sentences"])
        ]
        self.sentence = widgets.Dropdown(
            options=options,
            value=sentence,
            description=TEXT("snapshot_sentence"),
            layout=widgets.Layout(width="95%"),
            style=LABEL,
        )
        self.slider = widgets.IntSlider(
            value=last,
            min=0,
            max=last,
            description=TEXT("snapshot_step"),
            readout=False,
            continuous_update=True,
            style=LABEL,
        )
        self.step_label = widgets.Label()
        self.play = widgets.Play(value=last, min=0, max=last, interval=250)
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.image = widgets.HTML()
        self.readout = widgets.HTML()
        super().__init__(
            [self.sentence, widgets.HBox([self.play, self.slider, self.step_label]), self.readout, self.image]
        )
        self._figure()
        self.sentence.observe(lambda change: self._figure(), names="value")
        self.slider.observe(lambda change: self._draw(), names="value")

    def _figure(self) -> None:
        with language(self.lang):
            self.figure = SnapshotFigure(self.snaps, self.sentence.value, window=self.WINDOW)
            self.figure.update(self.slider.value)
            self.renderer = BlitRenderer(self.figure.fig, self.figure.moving_artists(), dpi=80)
        self._draw()

    def _draw(self) -> None:
        from ..models import data

        k, s = self.slider.value, self.snaps
        step = s["steps"][k]
        tokens = s["outputs"][k][self.sentence.value]
        end = tokens.index(data.EOS_ID) + 1 if data.EOS_ID in tokens else len(tokens)  # nothing after the end symbol
        words = " ".join(data.TGT_WORDS[i] for i in tokens[:end])
        with language(self.lang):
            self.figure.update(k)
            self.image.value = img_tag(self.renderer.png(), self.figure.alt_text(k))
            recent = s["losses"][max(0, step - self.WINDOW) : step]
            if recent:
                text = TEXT(
                    "snapshot_figures",
                    step=step,
                    loss=float(np.mean(recent)),
                    window=len(recent),
                    token=s["valid_token"][k],
                    align=s["valid_alignment"][k],
                    words=words,
                )
            else:
                text = TEXT("snapshot_start", words=words)
        self.step_label.value = str(step)
        self.readout.value = f"<p>{html.escape(text)}</p>"

    def twin_args(self) -> dict:
        """The snapshot sentence shown first (its index): the laboratory's replay starts on it."""
        return {"snapshot_sentence": self.start}

    def set_snapshot(self, k: int) -> None:
        self.slider.value = int(np.clip(k, 0, self.slider.max))

    def set_sentence(self, i: int) -> None:
        self.sentence.value = int(i)


def learning_snapshots(sentence: int = 2) -> SnapshotExplorer:
    """Lesson 07: replay how the committed run learned where to look (sentence 0, 1 or 2: 6, 12, 27 words)."""
    return SnapshotExplorer(sentence)
