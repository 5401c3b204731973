"""The website's live explorers (book/_assets/ae-explorers.js) in a real browser.

The numbers a reader sees must be the core's: the state explorer of lessons 05 and 06 against
:func:`attention_core.worked_example`, the score explorer of lesson 04 against :func:`attention_core.softmax` and
:func:`attention_core.attend` over ``H_TRIANGLE``, the question explorer of lesson 01 against
:func:`attention_core.toy_sentences.read_with_query`. That every explorer starts and fits the screen, at 1280 px
and on a phone, in both editions, is checked by the sweep (tests/site/test_site_sweep.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from attention_core.example import H_TRIANGLE
from attention_core.toy_sentences import FELIX, FELIX_NEGATED, QUERIES, read_with_query

LESSON_01 = "notebooks/01_reading_on_demand.html"
LESSON_04 = "notebooks/04_from_scores_to_weights.html"
LESSON_05 = "notebooks/05_additive_score.html"
LESSON_06 = "notebooks/06_same_content_different_state.html"
STATE_PAGES = [LESSON_05, LESSON_06]


@pytest.mark.parametrize("path", STATE_PAGES)
def test_state_explorer_shows_the_cores_read(visit, path, live):
    page, root = live.open_explorer(visit, path, "state")
    slider = root.locator('input[type="range"]')
    assert float(slider.input_value()) == ac.STATE_A
    for s in (ac.STATE_A, ac.STATE_B, -3.5, 0.0, 2.25):
        live.set_range(slider, s)
        ref = ac.worked_example(s)
        live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
        assert root.locator("output").first.inner_text() == f"{s:.2f}"
    live.set_range(slider, ac.STATE_A)
    assert [live.shown(root)[f"weight-{j}"] for j in range(3)] == [0.5414, 0.3095, 0.1491]  # the article's numbers
    assert "0.5414" in root.locator("[aria-live=polite]").inner_text()
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_state_slider_is_named_and_steps_with_the_keyboard(visit, live):
    page, root = live.open_explorer(visit, LESSON_06, "state")
    slider = root.get_by_label("Reading state s")
    assert slider.count() == 1, "the slider's <label for> gives it an accessible name"
    slider.focus()
    for _ in range(40):  # step 0.05: from s = -1 to s = 1
        page.keyboard.press("ArrowRight")
    assert float(slider.input_value()) == pytest.approx(ac.STATE_B)
    ref = ac.worked_example(ac.STATE_B)
    live.assert_read_matches(root, ref.weights, ref.context, ref.scores)


def test_tanh_switch_flattens_the_weights(visit, live):
    page, root = live.open_explorer(visit, LESSON_05, "state")
    switch = root.get_by_label("tanh in the scorer")
    assert switch.is_checked()
    switch.focus()
    page.keyboard.press("Space")  # a native checkbox: the keyboard toggles it
    assert not switch.is_checked()
    slider = root.locator('input[type="range"]')
    seen = []
    for s in (-4.0, -1.0, 0.0, 1.0, 3.3):
        live.set_range(slider, s)
        ref = ac.worked_example(s, nonlinearity=None)
        live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
        seen.append(tuple(live.shown(root)[f"weight-{j}"] for j in range(3)))
    assert len(set(seen)) == 1, f"without tanh the weights must not depend on s, got {seen}"
    switch.click()
    live.set_range(slider, ac.STATE_A)
    ref = ac.worked_example(ac.STATE_A)
    live.assert_read_matches(root, ref.weights, ref.context)
    assert visit.console_errors() == []


def test_state_explorer_without_switch_on_lesson_06(visit, live):
    page, root = live.open_explorer(visit, LESSON_06, "state")
    assert root.locator('input[type="checkbox"]').count() == 0


def test_score_explorer_matches_softmax(visit, live):
    page, root = live.open_explorer(visit, LESSON_04, "score")
    sliders = [root.get_by_label(f"score e{j + 1} ({token})", exact=True) for j, token in enumerate(ac.TOKENS)]
    assert all(s.count() == 1 for s in sliders)
    live.assert_read_matches(root, np.full(3, 1 / 3), H_TRIANGLE.mean(axis=0))
    for scores in ([0.0, 0.0, 0.0], [2.0, -1.0, 0.5], [-4.0, 4.0, 0.0], [3.7, 3.6, -2.2], [1.0, 1.0, 4.0]):
        for slider, e in zip(sliders, scores, strict=True):
            live.set_range(slider, e)
        weights, context = ac.attend(np.array(scores), H_TRIANGLE)
        np.testing.assert_allclose(weights, ac.softmax(np.array(scores)))
        live.assert_read_matches(root, weights, context, scores)
    sliders[0].focus()
    page.keyboard.press("ArrowLeft")  # step 0.1 by keyboard
    weights, context = ac.attend(np.array([0.9, 1.0, 4.0]), H_TRIANGLE)
    live.assert_read_matches(root, weights, context)
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_state_buttons_snap_to_a_and_b_and_reset(visit, live):
    page, root = live.open_explorer(visit, LESSON_05, "state")
    slider = root.locator('input[type="range"]')
    switch = root.get_by_label("tanh in the scorer")
    root.get_by_role("button", name="State B (s = 1)").click()  # pointer
    assert float(slider.input_value()) == ac.STATE_B
    ref = ac.worked_example(ac.STATE_B)
    live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
    switch.uncheck()
    live.set_range(slider, 3.0)
    button_a = root.get_by_role("button", name="State A (s = −1)")
    button_a.focus()
    page.keyboard.press("Enter")  # keyboard
    assert float(slider.input_value()) == ac.STATE_A
    ref = ac.worked_example(ac.STATE_A, nonlinearity=None)  # A keeps the switch as it is
    live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
    root.get_by_role("button", name="Reset").focus()
    page.keyboard.press("Space")
    assert float(slider.input_value()) == ac.STATE_A and switch.is_checked()
    assert [live.shown(root)[f"weight-{j}"] for j in range(3)] == [0.5414, 0.3095, 0.1491]
    assert visit.console_errors() == []


def test_state_curves_have_axis_labels_and_a_legend(visit, live):
    page, root = live.open_explorer(visit, LESSON_06, "state")
    curves = root.locator("svg.ae-x-curves")
    labels = curves.locator("text").evaluate_all("els => els.map(e => e.textContent)")
    assert "state s →" in labels and "weight α" in labels and "A" in labels and "B" in labels
    legend = root.locator(".ae-x-legend li").all_inner_texts()
    assert legend == [f"α{j + 1} ({t})" for j, t in enumerate(ac.TOKENS)]


def _question_shown(root, sentence, query, live):
    ref = read_with_query(sentence, query)
    numbers = live.shown(root)
    T = len(sentence.tokens)
    np.testing.assert_allclose([numbers[f"weight-{j}"] for j in range(T)], np.round(ref.weights, 4), atol=1e-9)
    np.testing.assert_allclose([numbers[f"score-{j}"] for j in range(T)], np.round(ref.scores, 4), atol=1e-9)
    top = np.argsort(-ref.weights, kind="stable")[:3]
    assert numbers["top-sum"] == round(float(ref.weights[top].sum()), 4)
    listed = root.locator('[data-ae-text="top"]').inner_text()
    assert listed == ", ".join(f"{sentence.tokens[j]} {ref.weights[j]:.4f}" for j in top)
    assert root.locator(".ae-x-qbars .ae-x-bar").count() == T


def test_question_explorer_matches_read_with_query(visit, live):
    page, root = live.open_explorer(visit, LESSON_01, "question")
    from attention_core.explorers.reading import question

    names = list(QUERIES)
    where, colour = (root.get_by_label(question(n), exact=True) for n in names)  # as the page asks them
    assert where.is_checked()
    _question_shown(root, FELIX, QUERIES[names[0]], live)
    colour.click()  # pointer
    _question_shown(root, FELIX, QUERIES[names[1]], live)
    colour.focus()
    page.keyboard.press("ArrowLeft")  # keyboard: arrow keys move between the radio buttons
    assert where.is_checked()
    _question_shown(root, FELIX, QUERIES[names[0]], live)
    sentence = root.get_by_label("Sentence")
    sentence.focus()
    page.keyboard.press("ArrowDown")  # keyboard on the menu
    assert sentence.input_value() == "1"
    _question_shown(root, FELIX_NEGATED, QUERIES[names[0]], live)
    sentence.select_option("0")
    colour.check()
    _question_shown(root, FELIX, QUERIES[names[1]], live)
    assert "meeting room" not in root.locator('[data-ae-text="top"]').inner_text().split(",")[0]
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_score_explorer_offers_the_notebooks_annotations(visit, live):
    page, root = live.open_explorer(visit, LESSON_04, "score")
    sliders = [root.get_by_label(f"score e{j + 1} ({token})", exact=True) for j, token in enumerate(ac.TOKENS)]
    choose = root.get_by_label("Annotations")
    choose.select_option("1")  # the running example, as score_triangle_explorer() in the notebook
    for scores in ([0.0, 0.0, 0.0], [2.0, -1.0, 0.5]):
        for slider, e in zip(sliders, scores, strict=True):
            live.set_range(slider, e)
        weights, context = ac.attend(np.array(scores), ac.H_EXAMPLE)
        live.assert_read_matches(root, weights, context, scores)
    root.get_by_role("button", name="Reset").click()
    live.assert_read_matches(root, np.full(3, 1 / 3), ac.H_EXAMPLE.mean(axis=0))
    choose.select_option("0")
    live.assert_read_matches(root, np.full(3, 1 / 3), H_TRIANGLE.mean(axis=0))
    assert visit.console_errors() == []
