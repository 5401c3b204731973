"""Interactive explorers for lessons 01 and 04: ipywidgets controls wired to the math and the figures.

Each builder returns one container widget. The figure, the controls and the current results are attributes
of that widget object; nothing is kept in module globals, so two explorers on one page never interfere.
The image is re-rendered to PNG bytes on every change, reusing one matplotlib figure.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from ..example import H_TRIANGLE, SCORE_RANGE, SCORE_STEP, TOKENS
from ..figures.display import figure_png, img_tag
from ..figures.reading import TriangleRead, WeightBars
from ..lang import Messages, get_language
from ..reading import attend
from ..toy_sentences import QUERIES, example_sentences, read_with_query
from .twin import Twin

TEXT = Messages(
    __name__,
    {
        "question": "Question",
        "sentence": "Sentence",
        "title": "“{question}” read over the same tokens",
        "top": "top three of {n} positions (together {share:.3f} of the weight)",
        "token": "token",
        "score": "score",
        "weight": "weight",
        "bars_alt": (
            "Bar chart of the attention weight on each of the {n} tokens of the sentence for the question "
            "{question}; the three largest: {top}."
        ),
        "position": "position",
        "score_j": "score e_j",
        "weight_j": "weight α_j",
        "sums": "sum of weights = {w:.4f}; context c = ({c0:.4f}, {c1:.4f}), whose components sum to {cs:.4f}",
        "triangle_alt": (
            "Bars of the weights {weights} and the context point ({c0:.4f}, {c1:.4f}) drawn among the "
            "annotations {annotations}."
        ),
    },
)
LABEL = {"description_width": "initial"}  # a control's label as wide as its words, in every language (not cut)
BUTTONS = {**LABEL, "button_width": "auto"}  # toggle buttons as wide as their words too
# Lesson 01's two questions, worded for the reader (the query vectors are toy_sentences.QUERIES, by the same names).
QUESTIONS = Messages(
    f"{__name__}.questions",
    {
        "where": "where was it left?",
        "colour": "which colour is Felix's?",
    },
)


def question(name: str) -> str:
    """The wording of lesson 01's question ``name`` (``"where"``, ``"colour"``) in the reader's language."""
    if name not in QUERIES:
        raise ValueError(f"question must be one of {sorted(QUERIES)}, got {name!r}")
    return QUESTIONS(name)


# The website's readout tables (book/_assets/ae-explorers.css, ``.ae-x-table``) as inline styles, since a notebook
# front end (JupyterLab, VS Code, Colab) has none of the website's CSS: tabular figures, the caption above and
# left-aligned in bold, headers left and numbers right, 0.6rem either side of every cell (here the spacing between
# cells, so that a cell needs no style), the colours the front end's own.
_TABLE = (
    "border-collapse:separate;border-spacing:1.2rem 0.15rem;margin:0.5rem 0 0 -0.6rem;text-align:right;"
    "font-variant-numeric:tabular-nums;line-height:1.4;max-width:100%"
)
_CAPTION = "caption-side:top;text-align:left;font-weight:600;white-space:nowrap;padding:0 0.6rem"
_HEAD = "text-align:left"
_ROW_HEAD = "text-align:left;font-weight:normal"


def readout_table(header: tuple[str, ...], rows: list[tuple[str, ...]], caption: str = "") -> str:
    """An explorer's readout as an HTML table styled like the website's: ``header`` names the columns, each row's
    first cell names the row (a token, a position) and the others are its numbers, already formatted. Every text
    is escaped."""
    esc = html.escape
    head = "".join(f'<th style="{_HEAD}">{esc(h)}</th>' for h in header)
    body = "".join(
        f'<tr><th scope="row" style="{_ROW_HEAD}">{esc(row[0])}</th>'
        + "".join(f"<td>{esc(c)}</td>" for c in row[1:])
        + "</tr>"
        for row in rows
    )
    title = f'<caption style="{_CAPTION}">{esc(caption)}</caption>' if caption else ""
    return f'<table class="ae-readout" style="{_TABLE}">{title}<tr>{head}</tr>{body}</table>'


class QuestionExplorer(Twin, widgets.VBox):
    """Lesson 01: pick a question (and a sentence); the same tokens get different weights."""

    twin_kind = "question"

    def __init__(self, sentences=None, queries=None):
        self.lessons = sentences is None and queries is None  # the lesson's sentences and questions
        self.sentences = {s.text: s for s in (sentences or example_sentences(get_language()))}
        self.queries = {question(name): QUERIES[name] for name in QUERIES} if queries is None else dict(queries)
        self.query_ids = {question(name): name for name in QUERIES} if queries is None else {k: k for k in queries}
        self.question = widgets.ToggleButtons(options=list(self.queries), description=TEXT("question"), style=BUTTONS)
        self.sentence = widgets.Dropdown(
            options=list(self.sentences), description=TEXT("sentence"), layout=widgets.Layout(width="auto"), style=LABEL
        )
        self.readout = widgets.HTML()
        read = self._read()
        self.bars = WeightBars(self.sentence_obj.tokens, read.weights, self._title())
        self.image = widgets.HTML()  # an <img> with alt text (an ipywidgets Image cannot carry one)
        self._show(read)
        self.question.observe(self._on_change, names="value")
        self.sentence.observe(self._on_change, names="value")
        super().__init__([self.sentence, self.question, self.image, self.readout])

    @property
    def sentence_obj(self):
        return self.sentences[self.sentence.value]

    def twin_args(self) -> dict:
        """The sentence and question shown; and the sentences and questions themselves if not the lesson's."""
        args = {
            "sentence": list(self.sentences).index(self.sentence.value),
            "question": self.query_ids[self.question.value],
        }
        if not self.lessons:
            args["sentences"] = [
                {"text": s.text, "tokens": list(s.tokens), "X": np.asarray(s.X, dtype=float).tolist()}
                for s in self.sentences.values()
            ]
            args["queries"] = [
                {"id": self.query_ids[label], "name": label, "q": np.asarray(q, dtype=float).tolist()}
                for label, q in self.queries.items()
            ]
        return args

    def _read(self):
        return read_with_query(self.sentence_obj, self.queries[self.question.value])

    def _title(self) -> str:
        return TEXT("title", question=self.question.value)

    def _show(self, read) -> None:
        order = np.argsort(-read.weights)[:3]  # the three largest weights
        rows = [(self.sentence_obj.tokens[j], f"{read.scores[j]:.2f}", f"{read.weights[j]:.3f}") for j in order]
        self.readout.value = (
            f"<b>{html.escape(self.question.value)}</b> — "
            + html.escape(TEXT("top", n=len(read.weights), share=read.weights[order].sum()))
            + readout_table((TEXT("token"), TEXT("score"), TEXT("weight")), rows)
        )
        tokens = self.sentence_obj.tokens
        top = ", ".join(f"{tokens[j]} {read.weights[j]:.3f}" for j in order)
        alt = TEXT("bars_alt", n=len(tokens), question=repr(self.question.value), top=top)
        self.image.value = img_tag(figure_png(self.bars.fig), alt)

    def _on_change(self, _change) -> None:
        read = self._read()
        self.bars.update(self.sentence_obj.tokens, read.weights, self._title())
        self._show(read)


def question_explorer(sentences=None, queries=None) -> QuestionExplorer:
    """Build the lesson-01 explorer: toggle the question or the sentence and watch the weights change."""
    return QuestionExplorer(sentences, queries)


class ScoreTriangleExplorer(Twin, widgets.VBox):
    """Lesson 04: three score sliders; the weights as bars, the context as a point among the ``h_j``."""

    twin_kind = "score"

    def __init__(self, H=None, tokens=None, start=(0.0, 0.0, 0.0)):
        self.H = np.asarray(H_TRIANGLE if H is None else H, dtype=float)  # (T, 2): the website's triangle too
        self.tokens = tuple(tokens or TOKENS)
        if len(self.tokens) != self.H.shape[0] or len(start) != self.H.shape[0]:
            raise ValueError(f"need one token and one start score per row of H {self.H.shape}")
        self.start = tuple(float(e) for e in start)
        self.sliders = [
            widgets.FloatSlider(
                value=float(e0),
                min=SCORE_RANGE[0],
                max=SCORE_RANGE[1],
                step=SCORE_STEP,
                description=f"e_{j + 1} ({tok})",
                readout_format=".1f",
                continuous_update=False,
                style=LABEL,
            )
            for j, (tok, e0) in enumerate(zip(self.tokens, start, strict=True))
        ]
        self.readout = widgets.HTML()
        weights, context = self._read()
        self.figure = TriangleRead(self.H, self.tokens, weights, context)
        self.image = widgets.HTML()  # an <img> with alt text (an ipywidgets Image cannot carry one)
        self._show(weights, context)
        for slider in self.sliders:
            slider.observe(self._on_change, names="value")
        super().__init__([widgets.HBox(self.sliders[:2]), widgets.HBox(self.sliders[2:]), self.image, self.readout])

    @property
    def scores(self) -> np.ndarray:
        return np.array([s.value for s in self.sliders])  # (T,)

    def twin_args(self) -> dict:
        """The annotations ``H (T, 2)``, their tokens and the first scores: the twin starts where this one does."""
        return {"H": self.H.tolist(), "tokens": list(self.tokens), "start": list(self.start)}

    def _read(self):
        return attend(self.scores, self.H)  # (T,), (2,)

    def _show(self, weights, context) -> None:
        rows = [
            (f"h_{j + 1} ({tok})", f"{e:.1f}", f"{w:.4f}")
            for j, (tok, e, w) in enumerate(zip(self.tokens, self.scores, weights, strict=True))
        ]
        self.readout.value = readout_table((TEXT("position"), TEXT("score_j"), TEXT("weight_j")), rows) + TEXT(
            "sums", w=weights.sum(), c0=context[0], c1=context[1], cs=context.sum()
        )
        alt = TEXT(
            "triangle_alt",
            weights=", ".join(f"{w:.4f}" for w in weights),
            c0=context[0],
            c1=context[1],
            annotations=", ".join(f"h_{j + 1} = ({h[0]:g}, {h[1]:g})" for j, h in enumerate(self.H)),
        )
        self.image.value = img_tag(figure_png(self.figure.fig), alt)

    def _on_change(self, _change) -> None:
        weights, context = self._read()
        self.figure.update(weights, context)
        self._show(weights, context)


def score_triangle_explorer(H=None, tokens=None, start=(0.0, 0.0, 0.0)) -> ScoreTriangleExplorer:
    """Build the lesson-04 explorer on the triangle ``H_TRIANGLE`` the website's twin uses (or your ``H`` (3, 2))."""
    return ScoreTriangleExplorer(H, tokens, start)
