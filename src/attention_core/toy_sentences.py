"""Hand-made toy sentences and queries for lessons 01 and 02 (not trained embeddings, not a language model).

Lesson 01 reads the sentence "Felix left the blue notebook in the meeting room yesterday" with two different
questions. Each token gets a small vector whose axes we named ourselves (:data:`FEATURES`), so that a reader can
see why a score comes out high: the dot product of a query with a token counts the features they share. A
trained model learns its own, unnamed axes; these are labelled only to make the arithmetic readable.

Lesson 02 uses the translation pair "I like cats" -> "我 喜欢 猫" with random (seeded) embeddings.

Shapes: ``T`` tokens, ``F`` = ``len(FEATURES)`` named features, ``d_e`` embedding width.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import as_array, require, shape_str
from .reading import attend
from .scores import dot_scores

FEATURES = ("person", "action", "object", "colour", "place", "time", "negation")  # the F = 7 named axes

# Each token lists only its non-zero features; every unlisted feature is 0. Hand-chosen, not learned.
_TOKEN_FEATURES: dict[str, dict[str, float]] = {
    "Felix": {"person": 1.0},
    "left": {"action": 1.0},
    "leave": {"action": 1.0},
    "did": {"action": 0.2},
    "not": {"negation": 1.0},
    "the": {},  # a function word: the zero vector
    "blue": {"colour": 1.0, "object": 0.3},
    "notebook": {"object": 1.0},
    "in": {"place": 0.3},
    "meeting room": {"place": 1.0},  # kept as one token to keep the example short
    "yesterday": {"time": 1.0},
}


class ToySentence(NamedTuple):
    """A sentence as tokens and one hand-made feature vector per token."""

    text: str
    tokens: tuple[str, ...]  # T labels
    X: np.ndarray  # (T, F): one row per token


class QueryRead(NamedTuple):
    """One read of a toy sentence with one query: dot scores, softmax weights and the context vector."""

    scores: np.ndarray  # (T,)
    weights: np.ndarray  # (T,)
    context: np.ndarray  # (F,)


def token_vector(token: str) -> np.ndarray:
    """The hand-made feature vector ``(F,)`` of one token of the toy sentences."""
    if not isinstance(token, str):
        raise TypeError(f"token must be a str, got {type(token).__name__}")
    if token not in _TOKEN_FEATURES:
        raise ValueError(f"token {token!r} has no toy vector; known tokens: {sorted(_TOKEN_FEATURES)}")
    feats = _TOKEN_FEATURES[token]
    return np.array([feats.get(f, 0.0) for f in FEATURES])  # (F,)


def feature_vector(**weights: float) -> np.ndarray:
    """Build an ``(F,)`` vector from named features, e.g. ``feature_vector(place=3.0, action=1.0)``.

    Use it to write your own query in the lesson-01 exercises. Unknown feature names raise ``ValueError``.
    """
    unknown = sorted(set(weights) - set(FEATURES))
    require(not unknown, f"unknown feature name(s) {unknown}; the features are {list(FEATURES)}")
    return np.array([float(weights.get(f, 0.0)) for f in FEATURES])  # (F,)


def make_sentence(text: str, tokens: tuple[str, ...]) -> ToySentence:
    """Stack the token vectors of ``tokens`` into a :class:`ToySentence` with ``X`` of shape ``(T, F)``."""
    X = np.stack([token_vector(t) for t in tokens])  # (T, F)
    return ToySentence(text, tuple(tokens), X)


FELIX = make_sentence(
    "Felix left the blue notebook in the meeting room yesterday",
    ("Felix", "left", "the", "blue", "notebook", "in", "the", "meeting room", "yesterday"),
)
FELIX_NEGATED = make_sentence(
    "Felix did not leave the blue notebook in the meeting room yesterday",
    ("Felix", "did", "not", "leave", "the", "blue", "notebook", "in", "the", "meeting room", "yesterday"),
)

# The two questions of lesson 01, written as query vectors over the same named features. The sizes (3, 2,
# 1.5, ...) are chosen by hand so that the readout is visible; they are not fitted to anything.
QUERIES: dict[str, np.ndarray] = {
    "where was it left?": feature_vector(place=3.0, action=1.5, object=1.0),  # (F,)
    "which colour is Felix's?": feature_vector(colour=2.5, object=1.5, person=1.5),  # (F,)
}


def read_with_query(sentence: ToySentence, query) -> QueryRead:
    r"""Read a toy sentence with one query: dot scores, softmax weights, weighted sum of the token vectors.

    .. math:: e_j = q^\top x_j, \qquad \alpha_j = \mathrm{softmax}_j(e_j), \qquad c = \sum_j \alpha_j x_j

    Lesson 01. ``query`` is ``(F,)``, or ``(N, F)`` for ``N`` queries at once (then every result gains a
    leading ``N`` axis).
    """
    if not isinstance(sentence, ToySentence):
        raise TypeError(f"sentence must be a ToySentence such as FELIX, got {type(sentence).__name__}")
    q = as_array(query, "query", ndims=(1, 2), expected=f"(F,) or (N, F) with F = {len(FEATURES)}")
    require(
        q.shape[-1] == len(FEATURES),
        f"query must have last axis F = {len(FEATURES)} (one entry per feature {FEATURES}), got {shape_str(q.shape)}",
    )
    scores = dot_scores(q, sentence.X)  # (T,) or (N, T): e_j = q^T x_j
    weights, context = attend(scores, sentence.X)  # (T,) and (F,), or (N, T) and (N, F)
    return QueryRead(scores, weights, context)


SOURCE_TOKENS = ("I", "like", "cats")  # lesson 02's source sentence
TARGET_TOKENS = ("我", "喜欢", "猫")  # its translation, one target token per step


def random_embeddings(tokens, d_e: int, seed: int = 0) -> np.ndarray:
    """Seeded random embeddings ``(T, d_e)``, one per token; a repeated token gets the same row.

    Stands in for the embedding lookup ``e_src`` of lesson 02. The vectors are random, not trained: they let
    the recurrence run, nothing more.
    """
    if isinstance(tokens, str) or not all(isinstance(t, str) for t in tokens):
        raise TypeError("tokens must be a sequence of str, e.g. ('I', 'like', 'cats')")
    require(len(tokens) >= 1, "tokens must hold at least one token (T >= 1)")
    vocab = sorted(set(tokens))
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(len(vocab), d_e))  # (V, d_e): one row per distinct token
    return table[[vocab.index(t) for t in tokens]]  # (T, d_e)
