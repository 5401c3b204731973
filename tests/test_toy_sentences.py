"""Tests for the hand-made toy sentences and queries of lessons 01 and 02."""

import numpy as np
import pytest

from attention_core import softmax
from attention_core.toy_sentences import (
    FEATURES,
    FELIX,
    FELIX_NEGATED,
    QUERIES,
    SOURCE_TOKENS,
    feature_vector,
    random_embeddings,
    read_with_query,
    token_vector,
)

WHERE, COLOUR = QUERIES["where was it left?"], QUERIES["which colour is Felix's?"]


def test_sentences_have_one_row_per_token():
    for s in (FELIX, FELIX_NEGATED):
        assert s.X.shape == (len(s.tokens), len(FEATURES))
        assert " ".join(s.tokens) == s.text


def test_different_questions_pick_different_tokens():
    where, colour = read_with_query(FELIX, WHERE), read_with_query(FELIX, COLOUR)
    assert FELIX.tokens[int(np.argmax(where.weights))] == "meeting room"
    assert FELIX.tokens[int(np.argmax(colour.weights))] == "blue"


def test_colour_read_combines_several_positions():
    w = read_with_query(FELIX, COLOUR).weights
    top3 = np.sort(w)[::-1][:3]
    assert top3[0] < 0.6 and top3[1:].sum() > 0.2


def test_negation_barely_enters_the_where_read():
    neg = read_with_query(FELIX_NEGATED, WHERE)
    j_room, j_not = FELIX_NEGATED.tokens.index("meeting room"), FELIX_NEGATED.tokens.index("not")
    assert neg.weights[j_room] > 0.5 and neg.weights[j_not] < 0.05


def test_read_matches_core_formula_and_batches():
    Q = np.stack([WHERE, COLOUR])
    r = read_with_query(FELIX, Q)
    np.testing.assert_allclose(r.weights, softmax(Q @ FELIX.X.T))
    np.testing.assert_allclose(r.context, r.weights @ FELIX.X)


def test_feature_vector_and_errors():
    np.testing.assert_array_equal(feature_vector(time=2.0), 2.0 * token_vector("yesterday"))
    with pytest.raises(ValueError, match="unknown feature"):
        feature_vector(size=1.0)
    with pytest.raises(ValueError, match="no toy vector"):
        token_vector("chair")
    with pytest.raises(ValueError, match="query"):
        read_with_query(FELIX, np.ones(3))
    with pytest.raises(TypeError, match="ToySentence"):
        read_with_query("Felix left", WHERE)


def test_random_embeddings_repeatable_and_shared_rows():
    E = random_embeddings(("a", "b", "a"), 4, seed=1)
    assert E.shape == (3, 4)
    np.testing.assert_array_equal(E[0], E[2])
    np.testing.assert_array_equal(random_embeddings(SOURCE_TOKENS, 5, seed=2), random_embeddings(SOURCE_TOKENS, 5, 2))
    with pytest.raises(TypeError):
        random_embeddings("abc", 4)
