"""Parameters for the website's live explorers, exported from the core so that the numbers have one source.

The static site has no Python kernel. Its explorers (``book/_assets/ae-explorers.js``) recompute
``e_j(s) = v^T tanh(W_s s + W_h h_j + b)``, the softmax and the weighted sum in the browser, from the dictionary
that :func:`site_parameters` returns. The book's Sphinx extension (``book/_ext/ae_site.py``) writes it into
every page that holds an explorer at build time, and the browser tests check that the page shows the numbers
that :func:`attention_core.worked_example` and :func:`attention_core.softmax` compute.
"""

from __future__ import annotations

import copy
import functools
import json

import numpy as np

from .._validate import integer, require
from ..example import (
    B_EXAMPLE,
    H_EXAMPLE,
    H_TRIANGLE,
    S_RANGE,
    S_STEP,
    SCORE_RANGE,
    SCORE_STEP,
    STATE_A,
    STATE_B,
    TOKENS,
    V_EXAMPLE,
    W_H_EXAMPLE,
    W_S_EXAMPLE,
)
from ..lang import Messages, language, languages
from ..toy_sentences import FEATURES, QUERIES, example_sentences
from .reading import question

SCHEMA = 3  # bumped when the dictionary's layout changes; the script checks it
SCORE_START = (0.0, 0.0, 0.0)  # the score explorer's first scores: equal, so equal weights
CURVE_POINTS = 161  # states on each drawn weight curve over S_RANGE (a step of 0.05)
QUESTION_TOP = 3  # lesson 01's explorer lists the three largest weights, as the notebook's does
ALIGNMENT_LENGTHS = (6, 9, 12, 27)  # lesson 07's explorer: the first test sentence of each source length

# Every word the website's explorers show, in each edition (the one place for these labels: the script fills the
# {placeholders}; "_1" after a letter becomes a subscript). Terms follow book/glossary.md.
LABELS = Messages(
    __name__,
    {
        # lessons 05 and 06: the state explorer
        "state_slider": "Reading state s",
        "tanh_switch": "tanh in the scorer",
        "state_button": "State {name} (s = {s})",
        "reset": "Reset",
        "jump": "Jump to a state",
        "state_bars": "Weights α_j at the current s",
        "state_plane": "Context c = Σ α_j h_j (diamond) beside h_1, h_2, h_3",
        "state_curves": "Weights over s; the vertical line is the current s",
        "state_score": "score e_j(s)",
        "state_title_tanh": "Read at s = {s}, with tanh",
        "state_title_linear": "Read at s = {s}, tanh removed",
        "curves_x": "state s →",
        "curves_y": "weight α",
        # the table of a read (lessons 04 to 06) and its live summary
        "position": "position",
        "weight_j": "weight α_j",
        "table_foot": "context c = ({c0}, {c1}); weights sum to {sum}",
        "live": "{title}: weights {weights}; context ({c0}, {c1}).",
        "list_sep": ", ",
        # lesson 04: the score explorer
        "score_slider": "score e_{j} ({token})",
        "annotations": "Annotations",
        "scores_group": "Scores",
        "score_bars": "Weights α = softmax(e)",
        "score_plane": "Context c = Σ α_j h_j (diamond) in the hull of h_1, h_2, h_3",
        "score_score": "score e_j",
        "score_title": "Read of the scores ({scores})",
        "triangle": "a triangle: H_TRIANGLE",
        "running": "the running example: H_EXAMPLE (on one line)",
        # lesson 01: the question explorer
        "sentence": "Sentence",
        "question": "Question",
        "question_bars": (
            "Weight α_j on each token (bars to scale from 0 to 1; the three largest in bold, in the second colour)"
        ),
        "token": "token",
        "question_caption": "“{question}” read over “{sentence}”",
        "top_head": "Top {k} of {n} positions: ",
        "top_rest": "{list} (together {sum} of the weight)",
        "question_live": "Question “{question}”: the three largest weights are {list}.",
        # lesson 07: the alignment explorer
        "al_option": "{n} source words: {words}",
        "al_select": "Test sentence",
        "al_outputs": "Words the model produced (choose one):",
        "al_sources": "Source words, with the weight output word {t} “{word}” puts on each:",
        "al_summary": "Output word {t} “{word}” reads most from source word {j} “{src}” (weight {w})",
        "al_truth": "; the reference word’s true source is word {k} “{ks}”.",
        "al_end": "; it is the end symbol, past the reference.",
        # any explorer
        "missing": "This live explorer could not start: its parameters are missing from the page.",
    },
)


# What the website writes around its explorers (book/_ext/ae_site.py): the note that replaces a notebook widget,
# the line shown without JavaScript, and the introduction of lesson 07's explorer. May hold HTML.
PAGE = Messages(
    f"{__name__}.page",
    {
        # the language switch on every page links to the other editions, each named in its own language
        "language_name": "English",
        "read_in": "Read this page in English",
        "needs_js": "This live explorer needs JavaScript in your browser.",
        "note": (
            "<strong>Notebook explorer.</strong> In the notebook this cell shows controls that recompute with "
            "Python, so they need a running kernel: run <code>make lab</code> and open this lesson. On this "
            'page, use the <a href="#ae-live-{kind}">live explorer {where}</a>: it computes the same read in '
            "your browser."
        ),
        "below": "just below",
        "above": "earlier on this page",
        "alignment_intro": (
            "<strong>Live explorer: runs in your browser on this page.</strong> The trained model above, reading "
            "four test sentences: move through the words it produces (hover, tap, or focus the list and use the "
            "arrow keys) to light up the source positions each one reads, with the weights as numbers. The reads "
            "were computed when the site was built, from the committed parameters; nothing on this page trains. "
            "A square outline marks the true source position of the reference word."
        ),
        # the book as a PDF (scripts/build_pdf.py): the link on every page, and what the PDF writes itself
        "pdf_link": "This book as a PDF",
        "pdf_contents": "Contents",
        "pdf_about": (
            "Printed from the book’s website, where the lessons’ live explorers run in your browser. The lessons "
            "also run as notebooks on your own machine: <code>make lab</code>."
        ),
        "pdf_explorer": (
            "<strong>Live explorer.</strong> On the book’s website, this place holds a live explorer that recomputes "
            "as you move its controls: {url}."
        ),
        "pdf_widget": (
            "<strong>Notebook explorer.</strong> In the notebook this cell shows controls that recompute with Python "
            "(run <code>make lab</code> and open this lesson); on the book’s website, this lesson’s page has a live "
            "explorer that computes the same read in your browser: {url}."
        ),
    },
)


def labels(lang: str = "en") -> dict[str, str]:
    """The explorers' labels in ``lang`` (``"en"``, ``"zh"``, ...), unfilled (the script fills the placeholders)."""
    if lang not in languages():
        raise ValueError(f"language must be one of {languages()}, got {lang!r}")
    return LABELS.table(lang)


def _floats(a) -> list:
    """A numpy array (any shape) as nested lists of Python floats, for JSON."""
    return np.asarray(a, dtype=float).tolist()


def site_parameters(parts: tuple[str, ...] | None = None, lang: str = "en") -> dict:
    """The explorers' parameters as a JSON-able dictionary (lists of floats, strings and numbers).

    ``state``: the worked example of lesson 06 (``H`` as rows ``(T, d_h)``, ``W_s (d_a, d_s)``, ``W_h (d_a,
    d_h)``, ``v (d_a,)``, ``b (d_a,)``), the slider's range, step and start, and the two states A and B.
    ``score``: lesson 04's read of three scores over the triangle ``H_TRIANGLE (T, d_h)``.
    ``question``: lesson 01's toy sentences (tokens and hand-made feature rows ``X (T, F)``) and the two
    questions as query vectors ``q (F,)``; the page computes ``e_j = q^T x_j`` and the softmax.
    ``alignment``: lesson 07's committed trained model decoding test sentences greedily (see
    :func:`alignment_examples`).

    ``parts`` names the sections a page needs (e.g. ``("state",)``); ``None`` gives all of them. ``lang`` is the
    page's edition: it chooses the ``labels`` (every word the explorers show) and lesson 01's sentences and
    questions (the Chinese edition reads FELIX_ZH); the numbers do not depend on it.
    """
    sections = {
        "state": _state,
        "score": _score,
        "question": lambda: _question(lang),
        "alignment": alignment_examples,
    }
    unknown = set(parts or ()) - set(sections)
    if unknown:
        raise ValueError(f"unknown explorer sections {sorted(unknown)}; known: {sorted(sections)}")
    chosen = sections if parts is None else {k: sections[k] for k in parts}
    text = labels(lang)
    with language(lang):
        made = {k: make() for k, make in chosen.items()}
    return {"schema": SCHEMA, "lang": lang, "labels": text, "tokens": list(TOKENS), **made}


def _state() -> dict:
    """Lessons 05 and 06: the worked example's scorer and the state slider."""
    return {
        "H": _floats(H_EXAMPLE),  # (T, d_h) = (3, 2)
        "W_s": _floats(W_S_EXAMPLE),  # (d_a, d_s) = (2, 1)
        "W_h": _floats(W_H_EXAMPLE),  # (d_a, d_h) = (2, 2)
        "v": _floats(V_EXAMPLE),  # (d_a,)
        "b": _floats(B_EXAMPLE),  # (d_a,)
        "s_range": list(map(float, S_RANGE)),
        "s_step": S_STEP,
        "s_start": float(STATE_A),
        "marks": {"A": float(STATE_A), "B": float(STATE_B)},
        "curve_points": CURVE_POINTS,
    }


def _score() -> dict:
    """Lesson 04: three score sliders over the triangle of annotations, or the running example's (the notebook
    explorer's default, whose three points lie on one line)."""
    return {
        "H": _floats(H_TRIANGLE),  # (T, d_h) = (3, 2)
        "annotations": [
            {"name": LABELS("triangle"), "H": _floats(H_TRIANGLE)},
            {"name": LABELS("running"), "H": _floats(H_EXAMPLE)},
        ],
        "e_range": list(SCORE_RANGE),
        "e_step": SCORE_STEP,
        "e_start": list(SCORE_START),
    }


def _question(lang: str) -> dict:
    """Lesson 01: the toy sentences and the two questions, in the page's language ``lang``."""
    return {
        "features": list(FEATURES),
        "sentences": [
            {"text": s.text, "tokens": list(s.tokens), "X": _floats(s.X)}  # X: (T, F)
            for s in example_sentences(lang)
        ],
        "queries": [{"id": name, "name": question(name), "q": _floats(q)} for name, q in QUERIES.items()],  # q: (F,)
        "top": QUESTION_TOP,
    }


def alignment_examples(lengths: tuple[int, ...] = ALIGNMENT_LENGTHS) -> dict:
    """Lesson 07's alignments for the website: what the committed trained model reads at each output step.

    For the first test sentence of each source length in ``lengths`` (seed-0 splits, as in the lesson), the
    source words, the words the model produces greedily (ending with the end symbol), the weights ``alpha (U,
    T)`` it read with at each of its ``U`` steps over the ``T`` source positions, and the true source position
    of each target word of the reference translation. Nothing is trained here: the parameters are the
    committed ones (:func:`attention_core.models.trained.load_trained`), and the page only looks rows up.
    Computed once per ``lengths``; each call returns a fresh copy, so a caller's edit never reaches a later
    export.
    """
    return copy.deepcopy(_alignment_examples(tuple(integer(n, "lengths entry") for n in lengths)))


@functools.lru_cache(maxsize=1)
def _alignment_examples(lengths: tuple[int, ...]) -> dict:
    from ..models import data  # imported here: only the lesson-07 explorer needs the model
    from ..models.trained import LESSON07, load_trained

    splits = data.make_splits(seed=0)
    by_length = {}
    for p in splits.test:  # the first test sentence of each length
        by_length.setdefault(len(p.src), p)
    missing = sorted(set(lengths) - set(by_length))
    require(not missing, lambda: f"lengths {missing} have no test sentence; the lengths are {sorted(by_length)}")
    model = load_trained(LESSON07)
    examples = []
    for length in lengths:
        pair = by_length[length]
        tokens, weights = model.greedy(pair.src[None])  # (1, U), (1, U, T)
        src_words, tgt_words = pair.words()
        examples.append(
            {
                "source": list(src_words),  # T words
                "output": [data.TGT_WORDS[i] for i in tokens[0]],  # U words, the last the end symbol
                "weights": _floats(weights[0]),  # (U, T): row t = the read of output step t
                "reference": list(tgt_words),
                "true_source": [int(j) for j in pair.align],  # true source position of each reference word
            }
        )
    return {"model": LESSON07, "examples": examples}


def site_parameters_json(parts: tuple[str, ...] | None = None, lang: str = "en") -> str:
    """:func:`site_parameters` as compact JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(site_parameters(parts, lang), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
