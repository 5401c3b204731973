"""The self-checks' website side: what a verdict declares (attention_core.checks.declare), the text a reader types for
a value, and the answer box a declaration becomes for an edition (attention_core.checks.site)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_core.checks.base import EXERCISE_MIME, CheckResult
from attention_core.checks.declare import page_text
from attention_core.checks.luong import check_local_m_window
from attention_core.checks.reading import check_negation_focus, check_query_focus, check_softmax
from attention_core.checks.site import PAGE, Undeclared, box, checks, page_parameters, slots
from attention_core.checks.state import check_example_read, check_peak_state
from attention_core.lang import language, languages
from attention_core.toy_sentences import FELIX, FELIX_NEGATED_ZH, FELIX_ZH, example_sentences, feature_vector


def test_a_verdict_declares_its_check_the_lessons_arguments_and_the_starting_answer():
    result = check_local_m_window([4, 5, 6, 7, 8], t=6, T=7, D=2)
    args, start = {"t": 6, "T": 7, "D": 2}, ["[4, 5, 6, 7, 8]"]
    assert result.exercise == {"check": "check_local_m_window", "args": args, "start": start}
    bundle = result._repr_mimebundle_()
    assert bundle[EXERCISE_MIME] == result.exercise and bundle["text/plain"] == repr(result)
    assert json.loads(json.dumps(bundle[EXERCISE_MIME])) == result.exercise  # plain JSON
    assert result == CheckResult(result.ok, result.lead, result.items, result.note)  # not part of the verdict
    assert check_softmax(lambda e: e).exercise == {"check": "check_softmax"}  # a function: its name only
    read = check_example_read(0.5, scores=[0.0, 0.0, 0.0], weights=np.zeros(3)).exercise
    assert read["args"] == {"s": 0.5} and read["start"] == ["[0.0, 0.0, 0.0]", "[0.0, 0.0, 0.0]"]


def test_a_declaration_is_the_same_in_every_edition():
    """Lesson 01 passes the edition's own sentence: it is declared as the edition's example, not by its words."""
    english = check_query_focus(feature_vector(place=1.0), sentence=FELIX).exercise
    with language("zh"):
        chinese = check_query_focus(feature_vector(place=1.0), sentence=example_sentences("zh")[0]).exercise
        negated = check_negation_focus(feature_vector(place=1.0), sentence=FELIX_NEGATED_ZH).exercise
    assert english == chinese and english["args"]["sentence"] == {"example": 0}
    assert negated["args"]["sentence"] == {"example": 1}
    assert check_query_focus(feature_vector(time=3.0), sentence=FELIX_ZH).exercise["args"]["sentence"]["sentence"][
        "tokens"
    ] == list(FELIX_ZH.tokens)  # not this edition's example: declared whole


def test_a_call_that_cannot_be_declared_declares_nothing_and_still_gets_its_verdict():
    class Hostile:
        def __index__(self):
            raise RuntimeError

    result = check_peak_state(-1.46, position=Hostile())
    assert not result.ok and result.exercise is None


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (640, "640"),
        (640.0, "640.0"),
        (np.int64(3), "3"),
        (np.float32(0.5), "0.5"),
        (np.array([1.25, -0.75]), "[1.25, -0.75]"),
        (np.ones((1, 2)), "[[1.0, 1.0]]"),
        ((12,), "(12,)"),
        ([], "[]"),
        (range(4, 8), "range(4, 8)"),
        ("640", "'640'"),
        (None, "None"),
        (True, "True"),
        (float("nan"), "nan"),
        (-float("inf"), "-inf"),
    ],
)
def test_a_value_is_typed_as_python_writes_it(value, text):
    assert page_text(value) == text


def test_what_nobody_types_has_no_text():
    class Hostile:
        def __repr__(self):
            raise RuntimeError

    for value in (lambda x: x, {"a": 1}, 1 + 2j, Hostile(), np.array(["a"]), list(range(1000)), [Hostile()]):
        assert page_text(value) is None


def test_every_value_check_has_a_label_for_each_answer_in_every_language():
    values = {name: check for name, check in checks().items() if check.given is not None}
    assert len(values) >= 10
    for name, check in values.items():
        for slot in slots(check.decide):
            key = f"label_{name.removeprefix('check_')}_{slot}"
            assert key in PAGE.entries, key
            for code in languages():
                assert PAGE.text(key, code).strip(), (key, code)


def test_a_box_is_the_checks_numbers_for_the_edition():
    declared = check_query_focus(feature_vector(place=1.0), sentence=FELIX).exercise
    english, chinese = box(declared, "en"), box(declared, "zh")
    assert english["check"] == chinese["check"] == "check_query_focus" and english["book"] == "reading"
    assert english["given"]["tokens"] == list(FELIX.tokens) and chinese["given"]["tokens"] == list(FELIX_ZH.tokens)
    label = english["slots"][0]["label"]
    assert label.startswith("Your query: 7 numbers") and "person, action" in label
    assert chinese["slots"][0]["label"].startswith("你的查询")
    assert english["start"] == ["[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]"]
    peak = box(check_peak_state(0.0).exercise, "fr")
    precision = {"decimals": 2, "rtol": 1e-4}
    assert peak["given"] == {"position": 1, "s_best": pytest.approx(-1.455418), "precision": precision}
    assert json.loads(json.dumps(peak, allow_nan=False)) == peak
    assert box({"check": "check_softmax"}, "en") is None  # a function exercise: a note, not a box


@pytest.mark.parametrize(
    "declared",
    [
        {"check": "check_nothing"},
        "check_peak_state",
        {"check": "check_peak_state", "args": {"position": 4}, "start": ["0.0"]},
        {"check": "check_peak_state", "args": {"position": 1}, "start": []},
        {"check": "check_peak_state", "args": {"where": 1}, "start": ["0.0"]},
    ],
)
def test_a_declaration_the_website_cannot_use_is_one_line(declared):
    with pytest.raises(Undeclared) as caught:
        box(declared, "en")
    assert "\n" not in str(caught.value) and str(caught.value)


def test_a_page_holds_the_messages_its_boxes_say_in_its_language():
    params = page_parameters({"luong"}, "fr")
    assert set(params["messages"]) == {"base", "site", "luong"} and params["lang"] == "fr"
    assert params["messages"]["site"]["show"] == "Afficher la réponse"
    assert params["reveal_after"] == 3
