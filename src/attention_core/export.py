"""Parameters for the website's live explorers, exported from the core so that the numbers have one source.

The static site has no Python kernel. Its explorers (``book/_assets/ae-explorers.js``) recompute
``e_j(s) = v^T tanh(W_s s + W_h h_j + b)``, the softmax and the weighted sum in the browser, from the dictionary
that :func:`site_parameters` returns. The book's Sphinx extension (``book/_ext/ae_site.py``) writes it into
every page that holds an explorer at build time, and the browser tests check that the page shows the numbers
that :func:`attention_core.worked_example` and :func:`attention_core.softmax` compute.
"""

from __future__ import annotations

import json

import numpy as np

from .example import (
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
from .toy_sentences import FEATURES, FELIX, FELIX_NEGATED, QUERIES

SCHEMA = 2  # bumped when the dictionary's layout changes; the script checks it
SCORE_START = (0.0, 0.0, 0.0)  # the score explorer's first scores: equal, so equal weights
CURVE_POINTS = 161  # states on each drawn weight curve over S_RANGE (a step of 0.05)
QUESTION_TOP = 3  # lesson 01's explorer lists the three largest weights, as the notebook's does


def _floats(a) -> list:
    """A numpy array (any shape) as nested lists of Python floats, for JSON."""
    return np.asarray(a, dtype=float).tolist()


def site_parameters() -> dict:
    """The explorers' parameters as a JSON-able dictionary (lists of floats, strings and numbers).

    ``state``: the worked example of lesson 06 (``H`` as rows ``(T, d_h)``, ``W_s (d_a, d_s)``, ``W_h (d_a,
    d_h)``, ``v (d_a,)``, ``b (d_a,)``), the slider's range, step and start, and the two states A and B.
    ``score``: lesson 04's read of three scores over the triangle ``H_TRIANGLE (T, d_h)``.
    ``question``: lesson 01's toy sentences (tokens and hand-made feature rows ``X (T, F)``) and the two
    questions as query vectors ``q (F,)``; the page computes ``e_j = q^T x_j`` and the softmax.
    """
    return {
        "schema": SCHEMA,
        "tokens": list(TOKENS),
        "state": {
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
        },
        "score": {
            "H": _floats(H_TRIANGLE),  # (T, d_h) = (3, 2)
            "e_range": list(SCORE_RANGE),
            "e_step": SCORE_STEP,
            "e_start": list(SCORE_START),
        },
        "question": {
            "features": list(FEATURES),
            "sentences": [
                {"text": s.text, "tokens": list(s.tokens), "X": _floats(s.X)}  # X: (T, F)
                for s in (FELIX, FELIX_NEGATED)
            ],
            "queries": [{"name": name, "q": _floats(q)} for name, q in QUERIES.items()],  # q: (F,)
            "top": QUESTION_TOP,
        },
    }


def site_parameters_json() -> str:
    """:func:`site_parameters` as compact JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(site_parameters(), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
