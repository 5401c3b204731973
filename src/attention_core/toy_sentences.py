"""Hand-made toy sentences and queries for lessons 01 and 02 (not trained embeddings, not a language model).

Lesson 01 reads the sentence "Felix left the blue notebook in the meeting room yesterday" with two different
questions. Each token gets a small vector whose axes we named ourselves (:data:`FEATURES`), so that a reader can
see why a score comes out high: the dot product of a query with a token counts the features they share. A
trained model learns its own, unnamed axes; these are labelled only to make the arithmetic readable.

The Chinese edition reads the article's own sentence "Felix昨天把蓝色笔记本留在会议室" instead (:data:`FELIX_ZH`,
negated: :data:`FELIX_NEGATED_ZH`; :func:`example_sentences` picks a language's pair). Its tokens
get vectors on the same named axes, chosen to mean what the English tokens mean: 昨天 (yesterday) is
*time*, 蓝色 (blue) is *colour* with a little *object*, 笔记本 (notebook) is *object*, 会议室 (meeting room)
is *place*, 没有 (did not) is *negation*, and the function word 把 (which marks the object before the
verb) is the zero vector, like "the". Chinese has no separate word for "in" here: 留在 (left in) is
one token, so it is *action* plus the 0.3 *place* that "in" carries in English. The Chinese sentence
has 7 tokens (8 negated) instead of 9 (11), so its weights differ from the English ones; the
questions keep the same query vectors and pick the same kind of token.

The French edition reads a French sentence of its own, "Félix a laissé le carnet bleu au bureau hier"
(:data:`FELIX_FR`, negated: :data:`FELIX_NEGATED_FR`), with the same roles on the same axes: Félix is
*person*, carnet (notebook) *object*, bleu (blue) *colour* with a little *object*, bureau (the office)
*place*, hier (yesterday) *time*. French writes the past with an auxiliary: the participle laissé (left)
is the *action*, and the auxiliary a gets the 0.2 *action* of the English "did". au (à + le, "at the")
carries the 0.3 *place* of "in", and le (the) is the zero vector. French negation has two words around
the verb, ne ... pas: pas carries the *negation*, and n’ (ne, elided, with the typographic apostrophe) a
little of it (0.3), since spoken French often drops it. The French sentence has 9 tokens (11 negated), as the
English one does, and every token of the original is still in the negated sentence.

:data:`QUERIES` holds the two questions by name (``"where"``, ``"colour"``); their wording, in the
reader's language, belongs to the lesson and its explorer. This module never reads the reader's language:
a caller names the language it wants.

Lesson 02 uses the translation pair "I like cats" -> "我 喜欢 猫" and a twelve-token sentence (:data:`LONG_TOKENS`),
lesson 03 "the cat on the mat sleeps" (:data:`MAT_TOKENS`), all with random (seeded) embeddings. The tokens are data
the lessons compute with (their embeddings are drawn by token), so every edition reads the same ones.

Shapes: ``T`` tokens, ``F`` = ``len(FEATURES)`` named features, ``d_e`` embedding width.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from ._validate import feature_names, one_of, random_embeddings_args, read_only, read_with_query_args, require
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
    # The Chinese edition's sentence (Felix昨天把蓝色笔记本留在会议室), on the same axes as the English words.
    "昨天": {"time": 1.0},  # yesterday
    "没有": {"negation": 1.0},  # did not: the negation
    "把": {},  # marks the object before the verb; a function word, the zero vector like "the"
    "蓝色": {"colour": 1.0, "object": 0.3},  # blue
    "笔记本": {"object": 1.0},  # notebook
    "留在": {"action": 1.0, "place": 0.3},  # left in: the action, plus the little place that "in" carries
    "会议室": {"place": 1.0},  # meeting room
    # The French edition's sentence (Félix a laissé le carnet bleu au bureau hier), on the same axes.
    "Félix": {"person": 1.0},
    "a": {"action": 0.2},  # the auxiliary of the past tense (has), a little action like "did"
    "laissé": {"action": 1.0},  # left (the participle): the action
    "le": {},  # the: a function word, the zero vector
    "carnet": {"object": 1.0},  # notebook
    "bleu": {"colour": 1.0, "object": 0.3},  # blue
    "au": {"place": 0.3},  # at the (à + le): the little place that "in" carries
    "bureau": {"place": 1.0},  # the office: the place
    "hier": {"time": 1.0},  # yesterday
    "n’": {"negation": 0.3},  # ne, elided: the first half of ne ... pas, a little negation (often dropped in speech)
    "pas": {"negation": 1.0},  # not: the word that carries the negation
}


class ToySentence(NamedTuple):
    """A sentence as tokens and one hand-made feature vector per token."""

    text: str
    tokens: tuple[str, ...]  # T labels
    X: np.ndarray  # (T, F): one row per token

    def position_of(self, feature: str) -> int:
        """The position (0-based) of the token that carries the most of ``feature`` (first on a tie), e.g.
        ``"place"``: "meeting room" in :data:`FELIX`, "会议室" in :data:`FELIX_ZH`, "bureau" in :data:`FELIX_FR`."""
        column = self.X[:, FEATURES.index(one_of(feature, "feature", FEATURES))]  # (T,)
        require(np.any(column > 0), f"no token of {self.text!r} carries the feature {feature!r}")
        return int(np.argmax(column))


class QueryRead(NamedTuple):
    """One read of a toy sentence with one query: dot scores, softmax weights and the context vector."""

    scores: np.ndarray  # (T,)
    weights: np.ndarray  # (T,)
    context: np.ndarray  # (F,)


def token_vector(token: str) -> np.ndarray:
    """The hand-made feature vector ``(F,)`` of one token of the toy sentences (a new, writable array)."""
    feats = _TOKEN_FEATURES[one_of(token, "token", _TOKEN_FEATURES)]
    return np.array([feats.get(f, 0.0) for f in FEATURES])  # (F,)


def feature_vector(**weights: float) -> np.ndarray:
    """Build an ``(F,)`` vector from named features, e.g. ``feature_vector(place=3.0, action=1.0)``.

    Use it to write your own query in the lesson-01 exercises. Unknown feature names raise ``ValueError``.
    """
    weights = feature_names(weights, FEATURES)
    return np.array([float(weights.get(f, 0.0)) for f in FEATURES])  # (F,)


def make_sentence(text: str, tokens: tuple[str, ...]) -> ToySentence:
    """Stack the token vectors of ``tokens`` into a :class:`ToySentence` with ``X`` of shape ``(T, F)``.

    ``X`` is read-only, like the sentences the lessons share: ``FELIX.X[0, 0] = 9`` raises instead of changing
    every later read (copy it to edit: ``FELIX.X.copy()``).
    """
    X = read_only([token_vector(t) for t in tokens])  # (T, F)
    return ToySentence(text, tuple(tokens), X)


FELIX = make_sentence(
    "Felix left the blue notebook in the meeting room yesterday",
    ("Felix", "left", "the", "blue", "notebook", "in", "the", "meeting room", "yesterday"),
)
FELIX_NEGATED = make_sentence(
    "Felix did not leave the blue notebook in the meeting room yesterday",
    ("Felix", "did", "not", "leave", "the", "blue", "notebook", "in", "the", "meeting room", "yesterday"),
)

FELIX_ZH = make_sentence(
    "Felix昨天把蓝色笔记本留在会议室",
    ("Felix", "昨天", "把", "蓝色", "笔记本", "留在", "会议室"),
)
FELIX_NEGATED_ZH = make_sentence(
    "Felix昨天没有把蓝色笔记本留在会议室",
    ("Felix", "昨天", "没有", "把", "蓝色", "笔记本", "留在", "会议室"),
)


FELIX_FR = make_sentence(
    "Félix a laissé le carnet bleu au bureau hier",
    ("Félix", "a", "laissé", "le", "carnet", "bleu", "au", "bureau", "hier"),
)
FELIX_NEGATED_FR = make_sentence(
    "Félix n’a pas laissé le carnet bleu au bureau hier",
    ("Félix", "n’", "a", "pas", "laissé", "le", "carnet", "bleu", "au", "bureau", "hier"),
)


EXAMPLES = MappingProxyType(  # lesson 01's sentence and its negation, by language
    {"en": (FELIX, FELIX_NEGATED), "zh": (FELIX_ZH, FELIX_NEGATED_ZH), "fr": (FELIX_FR, FELIX_NEGATED_FR)}
)


def example_sentences(language: str) -> tuple[ToySentence, ToySentence]:
    """Lesson 01's sentence and its negation in ``language`` (``"en"``, ``"zh"``, ``"fr"``); English for any other
    language code (a new edition reads the English sentence until its own is added here)."""
    if not isinstance(language, str):
        raise TypeError(f"language must be a language code such as 'en', got {type(language).__name__}")
    return EXAMPLES.get(language, EXAMPLES["en"])


# The two questions of lesson 01, written as query vectors over the same named features. The sizes (3, 2,
# 1.5, ...) are chosen by hand so that the readout is visible; they are not fitted to anything. Read-only, like
# the sentences: a caller's edit would change lesson 01's reads and the website's export.
QUERIES: Mapping[str, np.ndarray] = MappingProxyType(
    {
        "where": read_only(feature_vector(place=3.0, action=1.5, object=1.0)),  # where was it left?
        "colour": read_only(feature_vector(colour=2.5, object=1.5, person=1.5)),  # which colour is Felix's?
    }
)


def read_with_query(sentence: ToySentence, query) -> QueryRead:
    r"""Read a toy sentence with one query: dot scores, softmax weights, weighted sum of the token vectors.

    .. math:: e_j = q^\top x_j, \qquad \alpha_j = \mathrm{softmax}_j(e_j), \qquad c = \sum_j \alpha_j x_j

    Lesson 01. ``query`` is ``(F,)``, or ``(N, F)`` for ``N`` queries at once (then every result gains a
    leading ``N`` axis).
    """
    X, q = read_with_query_args(sentence, query, ToySentence, FEATURES)
    scores = dot_scores(q, X)  # (T,) or (N, T): e_j = q^T x_j
    weights, context = attend(scores, X)  # (T,) and (F,), or (N, T) and (N, F)
    return QueryRead(scores, weights, context)


SOURCE_TOKENS = ("I", "like", "cats")  # lesson 02's source sentence
TARGET_TOKENS = ("我", "喜欢", "猫")  # its translation, one target token per step
LONG_TOKENS = ("the", "cat", "that", "my", "neighbour", "feeds", "every", "morning", "sleeps", "on", "our", "porch")
MAT_TOKENS = ("the", "cat", "on", "the", "mat", "sleeps")  # lesson 03's sentence for the two directions


def random_embeddings(tokens, d_e: int, seed: int = 0) -> np.ndarray:
    """Seeded random embeddings ``(T, d_e)``, one per token; a repeated token gets the same row.

    Stands in for the embedding lookup ``e_src`` of lesson 02. The vectors are random, not trained: they let
    the recurrence run, nothing more.
    """
    tokens, d_e = random_embeddings_args(tokens, d_e)
    vocab = sorted(set(tokens))
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(len(vocab), d_e))  # (V, d_e): one row per distinct token
    return table[[vocab.index(t) for t in tokens]]  # (T, d_e)
