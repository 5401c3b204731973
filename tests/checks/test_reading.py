"""The exercise self-checks accept right answers and explain wrong ones specifically."""

import numpy as np
import pytest

from attention_core import H_EXAMPLE, attend
from attention_core.checks.base import FSI, PDI, CheckResult
from attention_core.checks.reading import (
    check_context,
    check_moved_halves,
    check_moved_states,
    check_query_focus,
    check_rnn_cell,
    check_softmax,
    check_stored_floats,
)
from attention_core.lang import language
from attention_core.toy_sentences import feature_vector
from tests.checks.tries import at_try, in_english_and_chinese
from tests.helpers import NUMBER, has_cjk


def good_softmax(e):
    e = np.asarray(e, dtype=float)
    z = np.exp(e - e.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def test_softmax_right():
    r = check_softmax(good_softmax)
    assert r.ok and repr(r).startswith("✓")


def test_softmax_naive_overflow_named():
    naive = lambda e: np.exp(e) / np.exp(e).sum(axis=-1, keepdims=True)  # noqa: E731
    r = check_softmax(naive)
    assert not r.ok
    assert "[1000, 1001] your weights contain nan" in r.message and "Subtract" not in r.message  # the idea first
    assert "Subtract each row's largest score" in at_try(2, check_softmax, naive).message  # then the edit


def test_softmax_shifted_by_any_score_but_the_largest_is_caught():
    """Issue 45: a softmax that subtracts each row's last score passed, since every input row put its largest last."""
    for k in (0, 1, -1):
        shifted = lambda e, k=k: (z := np.exp(e - e[..., k : k + 1 or None])) / z.sum(axis=-1, keepdims=True)  # noqa: E731
        r = check_softmax(shifted)
        assert not r.ok and "nan or inf" in r.message, (k, r)


def test_softmax_global_normalisation_named():
    r = check_softmax(lambda e: np.exp(e - e.max()) / np.exp(e - e.max()).sum())
    assert not r.ok and "each row" in r.message


def test_softmax_missing_normalisation_and_crash_and_shape():
    r = check_softmax(lambda e: np.exp(e - e.max(axis=-1, keepdims=True)))
    assert "sum to" in r.message
    r = check_softmax(lambda e: 1 / 0)
    assert "ZeroDivisionError" in r.message
    r = check_softmax(lambda e: np.array([1.0]))
    assert "shape" in r.message
    assert not check_softmax("softmax").ok


def test_context_right_and_wrong():
    e = np.array([0.5, -1.0, 2.0])
    _, c = attend(e, H_EXAMPLE)
    assert check_context(c, e).ok
    assert "raw scores" in check_context(e @ H_EXAMPLE, e).message
    assert "plain average" in check_context(H_EXAMPLE.mean(axis=0), e).message
    assert "hard read" in check_context(H_EXAMPLE[2], e).message
    assert "weights instead" in check_context(np.ones(3), e).message
    assert "away from" in check_context(np.zeros(2), e).message


def test_rnn_cell_right_and_wrong():
    assert check_rnn_cell(lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h + b)).ok
    cases = {
        "pre-activation": lambda x, h, Wx, Wh, b: Wx @ x + Wh @ h + b,
        "ignores h_prev": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + b),
        "bias": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h),
        "W_h.T @ h_prev": lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh.T @ h + b),
        "raised": lambda x, h, Wx, Wh, b: np.tanh(Wx.T @ x),
    }
    for words, fn in cases.items():
        r = at_try(2, check_rnn_cell, fn)
        assert not r.ok and words in r.message, (words, r)


def test_stored_floats_right_and_wrong():
    assert check_stored_floats(640, T=40, d_dir=8).ok
    assert "one direction" in check_stored_floats(320, 40, 8).message
    assert "one annotation" in check_stored_floats(16, 40, 8).message
    assert "fixed summary" in check_stored_floats(8, 40, 8).message
    assert not check_stored_floats("many", 40, 8).ok


def test_query_focus_right_and_wrong():
    assert check_query_focus(feature_vector(time=3.0)).ok
    r = check_query_focus(feature_vector(time=1.0))
    assert not r.ok and "spread out" in r.message
    r = check_query_focus(feature_vector(place=3.0))
    assert "highest weight goes to 'meeting room'" in r.message
    assert not check_query_focus(np.ones(2)).ok


def test_several_problems_are_listed():
    """Each kind of problem once, on the first input that shows it: the naive softmax overflows and sums over the
    whole array (it used to list five inputs, three of them for the same overflow)."""
    r = check_softmax(lambda e: np.exp(e) / np.exp(e).sum())
    assert isinstance(r, CheckResult) and not r.ok
    assert r.lead == "2 problems:" and len(r.items) == 2 and r.message.count("\n- ") == 2
    assert "<ul><li>" in r._repr_html_()


def test_negation_focus_right_and_wrong():
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import QUERIES, feature_vector

    where = QUERIES["where"]
    right = check_negation_focus(where + feature_vector(negation=3.0))
    assert right.ok and "0.355" in right.message  # the tie: 'not' and 'meeting room' both at 0.355
    assert check_negation_focus(where + feature_vector(negation=5.0)).ok
    none = at_try(2, check_negation_focus, where)
    assert not none.ok and "positive entry" in none.message and "0.027" in none.message
    weak = check_negation_focus(where + feature_vector(negation=1.0))
    assert not weak.ok and "too small" in weak.message
    assert "lower" not in at_try(2, check_negation_focus, where + feature_vector(negation=1.0)).message
    assert not check_negation_focus([1.0, 2.0]).ok  # wrong length: reported, not raised


def test_negation_focus_needs_the_where_part_at_its_scale():
    """Issue 45: the negation entry plus a tiny multiple of the where? query passed (an absolute tolerance of 1e-6)."""
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import QUERIES

    where = QUERIES["where"]
    for scale in (1e-7, 0.01, 0.5):
        r = check_negation_focus(scale * where + feature_vector(negation=3.0))
        assert not r.ok and 'times `QUERIES["where"]`' in r.message, (scale, r)
    assert check_negation_focus(2 * where + feature_vector(negation=6.0)).ok
    lowered = check_negation_focus(where + feature_vector(place=-2.0, negation=1.0))  # the old hint's edit
    assert not lowered.ok and "Start from the 'where?' query" in lowered.message


def test_moved_states_right_and_wrong():
    from attention_core.checks.reading import check_moved_states

    assert check_moved_states([12], changed=12, T=12).ok
    assert check_moved_states([3, 4, 5], changed=3, T=5).ok
    assert f"{FSI}[1, 2]{PDI} have not read x_3" in at_try(2, check_moved_states, [1, 2, 3], changed=3, T=5).message
    assert "moves too" in at_try(2, check_moved_states, [4, 5], changed=3, T=5).message
    wrong = at_try(1, check_moved_states, list(range(1, 13)), changed=12, T=12)
    assert not wrong.ok and "cannot move" in wrong.message and "[1, 2" not in wrong.message  # no positions yet
    assert "have not read x_12" in at_try(2, check_moved_states, list(range(1, 13)), changed=12, T=12).message
    assert "moves too" in at_try(2, check_moved_states, [], changed=12, T=12).message
    assert f"{FSI}[4, 5]{PDI} have read x_3" in at_try(2, check_moved_states, [3], changed=3, T=5).message
    assert "numbered from 1" in check_moved_states([0, 13], changed=12, T=12).message
    assert f"{FSI}[13]{PDI} lie outside the positions" in check_moved_states([12, 13], changed=12, T=12).message
    assert f"text {FSI}'all'{PDI}" in check_moved_states("all", changed=12, T=12).message


def test_moved_halves_right_and_wrong():
    from attention_core.checks.reading import check_moved_halves

    assert check_moved_halves([1, 2, 3, 4, 5, 6], [1], changed=1, T=6).ok
    assert check_moved_halves([5, 6], [1, 2, 3, 4, 5], changed=5, T=6).ok
    swapped = at_try(1, check_moved_halves, [1], [1, 2, 3, 4, 5, 6], changed=1, T=6)
    assert not swapped.ok and "2 problems" in swapped.message and "other direction" not in swapped.message
    swapped = at_try(2, check_moved_halves, [1], [1, 2, 3, 4, 5, 6], changed=1, T=6)
    assert "other direction" in swapped.message
    off_by_one = at_try(2, check_moved_halves, [2, 3, 4, 5, 6], [1], changed=1, T=6)
    assert not off_by_one.ok and "moves too" in off_by_one.message and "Forward" in off_by_one.message


def _both(check, *args, **kwargs):
    """The check's result in English and in Chinese, at a second wrong answer (the hint and its detail)."""
    return in_english_and_chinese(check, *args, n=2, **kwargs)


def _wrong_answers():
    from attention_core.checks.reading import check_moved_halves, check_moved_states, check_negation_focus
    from attention_core.toy_sentences import QUERIES

    e = np.array([0.5, -1.0, 2.0])
    return [
        (check_softmax, (lambda e: np.exp(e) / np.exp(e).sum(),)),
        (check_softmax, (lambda e: np.exp(e - e.max(axis=-1, keepdims=True)),)),
        (check_softmax, (lambda e: -good_softmax(e),)),
        (check_softmax, (lambda e: np.array([1.0]),)),
        (check_softmax, (lambda e: 1 / 0,)),
        (check_softmax, ("softmax",)),
        (check_context, (e @ H_EXAMPLE, e)),
        (check_context, (H_EXAMPLE.mean(axis=0), e)),
        (check_context, (H_EXAMPLE[2], e)),
        (check_context, (np.ones(3), e)),
        (check_context, (np.zeros(2), e)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: Wx @ x + Wh @ h + b,)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + b),)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h),)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh.T @ h + b),)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.tanh(Wx.T @ x),)),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.zeros(4),)),
        (check_stored_floats, (320, 40, 8)),
        (check_stored_floats, (16, 40, 8)),
        (check_stored_floats, (8, 40, 8)),
        (check_stored_floats, (7, 40, 8)),
        (check_stored_floats, ("many", 40, 8)),
        (check_query_focus, (feature_vector(time=1.0),)),
        (check_query_focus, (feature_vector(place=3.0),)),
        (check_query_focus, (np.ones(2),)),
        (check_negation_focus, (QUERIES["where"],)),
        (check_negation_focus, (QUERIES["where"] + feature_vector(negation=1.0),)),
        (check_moved_states, (list(range(1, 13)), 12, 12)),
        (check_moved_states, ([4, 5], 3, 5)),
        (check_moved_states, ([3], 3, 5)),
        (check_moved_halves, ([1], [1, 2, 3, 4, 5, 6], 1, 6)),
        (check_moved_halves, ([2, 3, 4, 5, 6], [1], 1, 6)),
    ]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_in_chinese_wrong_answers_get_chinese_messages_with_the_same_numbers():
    for check, args in _wrong_answers():
        english, chinese = _both(check, *args)
        assert not english.ok and not chinese.ok, (check.__name__, english)
        assert not has_cjk(english.message), english.message
        assert has_cjk(chinese.message), chinese.message
        assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def test_right_answers_pass_in_chinese_too_with_the_same_numbers():
    from attention_core.checks.reading import check_moved_halves, check_moved_states

    for check, args in [
        (check_softmax, (good_softmax,)),
        (check_context, (attend(np.zeros(3), H_EXAMPLE)[1], np.zeros(3))),
        (check_rnn_cell, (lambda x, h, Wx, Wh, b: np.tanh(Wx @ x + Wh @ h + b),)),
        (check_stored_floats, (640, 40, 8)),
        (check_query_focus, (feature_vector(time=3.0),)),
        (check_moved_states, ([3, 4, 5], 3, 5)),
        (check_moved_halves, ([5, 6], [1, 2, 3, 4, 5], 5, 6)),
    ]:
        english, chinese = _both(check, *args)
        assert english.ok and chinese.ok and has_cjk(chinese.message), chinese.message
        assert NUMBER.findall(english.message) == NUMBER.findall(chinese.message), (english, chinese)


def test_the_english_messages_at_the_first_second_and_third_wrong_answer():
    naive = lambda e: np.exp(e) / np.exp(e).sum()  # noqa: E731
    assert at_try(1, check_softmax, naive).items[1] == (
        "For [[1, 2, 3], [0, 0, 0]] your weights sum to one over the whole array, but each row is a read of its own"
    )
    assert (
        at_try(2, check_softmax, naive)
        .items[1]
        .endswith(
            "each row is a read of its own. Normalise along the last axis (the source positions), with keepdims=True."
        )
    )
    first, second, third = (at_try(n, check_stored_floats, 320, 40, 8) for n in (1, 2, 3))
    assert first.lead == "320 is not right: you counted one direction only"
    assert first.note == (
        "Wrong answer 1 of 3: the answer is shown after 3 wrong answers in a row, or now with show_answer=True."
    )
    assert second.lead == first.lead + ". Each annotation concatenates a forward and a backward state."
    assert third.note == "The answer: 40 x 2 x 8 = 640"


def test_lesson_01_checks_read_the_chinese_sentence():
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import FELIX_NEGATED_ZH, FELIX_ZH, QUERIES

    where = QUERIES["where"]
    with language("zh"):
        # the time token (昨天) is found by its feature; no English token name is needed
        assert check_query_focus(feature_vector(time=3.0), sentence=FELIX_ZH).ok
        spread = check_query_focus(feature_vector(time=1.0), token="昨天", sentence=FELIX_ZH)
        assert (
            not spread.ok and spread.lead == "你的查询给“昨天”的权重是 0.312（需要 >= 0.5）：已经是最高的，但权重太分散"
        )
        elsewhere = check_query_focus(feature_vector(place=3.0), sentence=FELIX_ZH)
        assert not elsewhere.ok and "最高的权重给了“会议室”" in elsewhere.message
        # the negated sentence: 没有 (negation) against 会议室 (place), found by their features
        tie = check_negation_focus(where + feature_vector(negation=3.0), sentence=FELIX_NEGATED_ZH)
        assert tie.ok and tie.message.startswith("“没有”得到 ") and "“会议室”得到 " in tie.message
        weak = check_negation_focus(where + feature_vector(negation=1.0), sentence=FELIX_NEGATED_ZH)
        assert not weak.ok and weak.message.startswith("“没有”得到 0.066，而“会议室”仍然得到 0.491")
        none = at_try(2, check_negation_focus, where, sentence=FELIX_NEGATED_ZH)
        assert not none.ok and "这是“没有”唯一具有的特征" in none.message
    # the same read in English names the Chinese tokens as Python writes them
    weak = check_negation_focus(where + feature_vector(negation=1.0), sentence=FELIX_NEGATED_ZH)
    assert weak.message.startswith("'没有' gets 0.066 but '会议室' still gets 0.491")


def test_lesson_01_checks_read_the_french_sentence():
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import FELIX_FR, FELIX_NEGATED_FR, QUERIES

    where = QUERIES["where"]
    with language("fr"):
        # the time token (hier) is found by its feature, and quoted with « » and no-break spaces
        assert check_query_focus(feature_vector(time=3.0), sentence=FELIX_FR).ok
        spread = check_query_focus(feature_vector(time=1.0), token="hier", sentence=FELIX_FR)
        assert not spread.ok and spread.message.startswith("Votre requête donne à «\u00a0hier\u00a0» le poids 0.254")
        elsewhere = check_query_focus(feature_vector(place=3.0), sentence=FELIX_FR)
        assert not elsewhere.ok and "le poids le plus élevé va à «\u00a0bureau\u00a0»\u00a0:" in elsewhere.message
        # the negated sentence: pas (negation) against bureau (place), not n’, which carries only a little negation
        tie = check_negation_focus(where + feature_vector(negation=3.0), sentence=FELIX_NEGATED_FR)
        assert tie.ok and tie.message.startswith("«\u00a0pas\u00a0» obtient 0.346, «\u00a0bureau\u00a0» 0.346")
        assert tie.message.endswith("la composante negation de la lecture vaut 0.359")  # n’ adds a little
        weak = check_negation_focus(where + feature_vector(negation=1.0), sentence=FELIX_NEGATED_FR)
        assert not weak.ok and weak.message.startswith("«\u00a0pas\u00a0» obtient 0.069, mais «\u00a0bureau\u00a0»")
        none = check_negation_focus(where, sentence=FELIX_NEGATED_FR)
        assert not none.ok and "la seule que possède «\u00a0pas\u00a0»" in none.message
    # the same read in English names the French tokens as Python writes them
    weak = check_negation_focus(where + feature_vector(negation=1.0), sentence=FELIX_NEGATED_FR)
    assert weak.message.startswith("'pas' gets 0.069 but 'bureau' still gets 0.508")


def test_the_moved_state_messages_name_the_direction_not_a_state_before_another():
    """Issue 44: « un état avant h_j » read as "a state before h_j"; the French names the forward RNN instead."""
    with language("fr"):
        wrong = check_moved_states([1, 2, 3], changed=2, T=4).message
        halves = check_moved_halves([1, 2], [2, 3, 4], changed=2, T=4).message
    assert "un état h_j du RNN avant a lu" in wrong and "un état avant" not in wrong
    assert "un état h_j du RNN arrière a lu" in halves and "un état arrière" not in halves


def test_negation_focus_tokens_can_be_named_and_are_checked():
    from attention_core.checks.reading import check_negation_focus
    from attention_core.toy_sentences import FELIX, FELIX_NEGATED, QUERIES

    query = QUERIES["where"] + feature_vector(negation=1.0)
    named = check_negation_focus(query, FELIX_NEGATED, negation_token="not", place_token="meeting room")
    assert check_negation_focus.decide(
        query, FELIX_NEGATED, negation_token="not", place_token="meeting room"
    ) == check_negation_focus.decide(query)
    assert not named.ok
    in_instead = check_negation_focus(query, FELIX_NEGATED, place_token="in")  # 'in' carries a little place
    assert in_instead.ok and in_instead.message.startswith("'not' gets 0.069, 'in' 0.063;")
    assert "is not a token" in check_negation_focus(query, FELIX_NEGATED, negation_token="没有").message
    assert "is not a token" in check_negation_focus(query, FELIX_NEGATED, negation_token="\u202e" * 10**5).message
    no_negation = check_negation_focus(query, FELIX)  # the plain sentence has no negation token
    assert not no_negation.ok and "has the feature 'negation'" in no_negation.message
    with language("zh"):
        assert has_cjk(check_negation_focus(query, FELIX).message)
        assert has_cjk(check_query_focus(query, token="tomorrow").message)
