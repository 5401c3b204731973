"""The Chinese edition of the website (``_build/html/zh``) beside the English one, in a real browser.

Both editions are built by ``attention_workshop.build_book`` (the ``book_build`` fixture). Every page declares its
language; every page has a language switch that is a keyboard-focusable, named link to the same page in the other
edition (and carries the ``#section``); the Chinese explorers show the article's numbers with Chinese labels;
Chinese pages request nothing outside the site and log no console error; the Chinese search finds the lessons
for 注意力, 上下文向量 and 评分函数. (Every Chinese page at 1280 and 390 px, its screenshots in ``_build/screenshots``,
nothing past its right edge and no console error: the sweep, tests/site/test_site_sweep.py.)
"""

from __future__ import annotations

import json
import pathlib
import re
import urllib.parse

import numpy as np
import pytest

import attention_core as ac
from attention_core.example import H_TRIANGLE
from attention_core.lang import language
from attention_core.toy_sentences import FELIX_NEGATED_ZH, FELIX_ZH, QUERIES, read_with_query
from attention_workshop.ae_lang import html_lang
from tests.site.conftest import SEARCH_FINISHED, edition_of, reader_pages, settle

ZH_01 = "zh/notebooks/01_reading_on_demand.html"
ZH_04 = "zh/notebooks/04_from_scores_to_weights.html"
ZH_05 = "zh/notebooks/05_additive_score.html"
ZH_06 = "zh/notebooks/06_same_content_different_state.html"
ZH_07 = "zh/notebooks/07_learning_without_labels.html"
SEARCH_TERMS = ("注意力", "上下文向量", "评分函数")
# Latin words an explorer may show in Chinese: the running example's tokens, symbols and code names.
LATIN_OK = {"like", "cats", "tanh", "softmax", "token", "H_TRIANGLE", "H_EXAMPLE", "Felix"}


def _chinese_pages(site):
    return [p for p in reader_pages(site) if p.startswith("zh/")]


def _counterpart(path: str) -> str:
    return path.removeprefix("zh/") if path.startswith("zh/") else f"zh/{path}"


def _english_words(text: str) -> set[str]:
    """Latin words of two letters or more that are not tokens, symbols or code names (untranslated text)."""
    return {w for w in re.findall(r"[A-Za-z_]{2,}", text) if w not in LATIN_OK}


# ---------------------------------------------------------------------------------------------------------
# Language attributes and the switch


def test_every_page_declares_its_language(site):
    pages = reader_pages(site)
    assert len(_chinese_pages(site)) >= 14 and len(pages) >= 2 * 14, f"expected both editions, found {pages}"
    wrong = []
    for path in pages:
        head = (pathlib.Path(site) / path).read_text(encoding="utf-8")[:2000]
        lang = re.search(r'<html[^>]*\blang="([^"]+)"', head)
        want = html_lang(edition_of(path))  # each edition's own: en, zh-CN, fr, ... (its _config.yml)
        if not lang or lang.group(1) != want:
            wrong.append(f"{path}: <html lang={lang.group(1) if lang else None!r}>, expected {want!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "start,anchor",
    [
        ("zh/notebooks/05_additive_score.html", "shared-scorer"),
        ("notebooks/05_additive_score.html", "shared-scorer"),
        ("zh/notebooks/04_from_scores_to_weights.html", "equation-eq-softmax"),
    ],
)
def test_switch_lands_on_the_same_section(visit, server, start, anchor):
    page = visit.open(f"{start}#{anchor}")
    other = "en" if start.startswith("zh/") else "zh"  # one switch per other edition: the counterpart's
    switch = page.locator(f'a.ae-lang-switch[hreflang="{html_lang(other)}"]')
    switch.focus()
    with page.expect_navigation(wait_until="load"):
        page.keyboard.press("Enter")  # the keyboard follows the link
    settle(page)
    assert page.url == f"{server}/{_counterpart(start)}#{anchor}"
    target = page.locator(f"[id='{anchor}']")
    assert target.count() == 1, f"{anchor} is missing from {_counterpart(start)}"
    top = target.evaluate("e => e.getBoundingClientRect().top")
    assert -5 <= top < 900, f"the page did not scroll to #{anchor} (its top is at {top} px)"
    assert visit.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# The Chinese explorers: the same numbers, Chinese labels


def all_text(root) -> str:
    """Everything the explorer says: its text (SVG labels and menu options included) and its aria labels."""
    return root.evaluate(
        """el => {
          const parts = [];
          const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          while (walk.nextNode()) parts.push(walk.currentNode.data);
          for (const e of el.querySelectorAll("[aria-label]")) parts.push(e.getAttribute("aria-label"));
          return parts.join(" ");
        }"""
    )


@pytest.mark.parametrize("path", [ZH_05, ZH_06])
def test_chinese_state_explorer_gives_the_articles_numbers(visit, path, live):
    page, root = live.open_explorer(visit, path, "state")
    slider = root.get_by_label("读取状态 s", exact=True)
    assert slider.count() == 1 and float(slider.input_value()) == ac.STATE_A
    assert [live.shown(root)[f"weight-{j}"] for j in range(3)] == [0.5414, 0.3095, 0.1491]  # the article's numbers
    ref = ac.worked_example(ac.STATE_A)
    assert tuple(np.round(ref.context, 6)) == (1.392334, -0.607666)  # c_A
    live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
    for s in (ac.STATE_B, -3.5, 0.0, 2.25):
        live.set_range(slider, s)
        ref = ac.worked_example(s)
        live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
    root.get_by_role("button", name="状态 A（s = −1）", exact=True).click()
    assert [live.shown(root)[f"weight-{j}"] for j in range(3)] == [0.5414, 0.3095, 0.1491]
    root.get_by_role("button", name="状态 B（s = 1）", exact=True).focus()
    page.keyboard.press("Enter")
    assert float(slider.input_value()) == ac.STATE_B
    root.get_by_role("button", name="重置", exact=True).click()
    assert float(slider.input_value()) == ac.STATE_A
    # Chinese labels: table headers, axis labels, live region; no untranslated English words
    headers = root.locator("th[scope=col]").all_inner_texts()
    assert headers == ["位置", "分数 ej(s)", "权重 αj"], headers
    labels = root.locator("svg.ae-x-curves text").evaluate_all("els => els.map(e => e.textContent)")
    assert "状态 s →" in labels and "权重 α" in labels
    spoken = root.locator("[aria-live=polite]").inner_text()
    assert (
        spoken.startswith("s = -1.00 时的读取")
        and "权重 I 0.5414" in spoken
        and "上下文向量 (1.3923, -0.6077)" in spoken
    )
    assert "上下文向量 c = (1.3923, -0.6077)；权重之和为 1.0000" in root.locator("tfoot").inner_text()
    assert not _english_words(all_text(root)), _english_words(all_text(root))
    if path == ZH_05:
        switch = root.get_by_label("评分函数有 tanh", exact=True)
        switch.uncheck()
        ref = ac.worked_example(2.25, nonlinearity=None)
        live.set_range(slider, 2.25)
        live.assert_read_matches(root, ref.weights, ref.context, ref.scores)
        assert "无 tanh" in root.locator("caption").inner_text()
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_chinese_score_explorer_equals_softmax(visit, live):
    page, root = live.open_explorer(visit, ZH_04, "score")
    sliders = [root.get_by_label(f"分数 e{j + 1}（{token}）", exact=True) for j, token in enumerate(ac.TOKENS)]
    assert all(s.count() == 1 for s in sliders)
    live.assert_read_matches(root, np.full(3, 1 / 3), H_TRIANGLE.mean(axis=0))
    for scores in ([2.0, -1.0, 0.5], [3.7, 3.6, -2.2]):
        for slider, e in zip(sliders, scores, strict=True):
            live.set_range(slider, e)
        weights, context = ac.attend(np.array(scores), H_TRIANGLE)
        live.assert_read_matches(root, weights, context, scores)
    choose = root.get_by_label("注释向量", exact=True)
    assert choose.locator("option").all_inner_texts() == ["一个三角形：H_TRIANGLE", "贯穿示例：H_EXAMPLE（三点共线）"]
    choose.select_option("1")
    root.get_by_role("button", name="重置", exact=True).click()
    live.assert_read_matches(root, np.full(3, 1 / 3), ac.H_EXAMPLE.mean(axis=0))
    assert root.locator("figcaption").first.inner_text() == "权重 α = softmax(e)"
    assert not _english_words(all_text(root)), _english_words(all_text(root))
    assert visit.outside_requests() == []
    assert visit.console_errors() == []


def test_chinese_question_explorer_reads_the_chinese_sentence(visit, live):
    page, root = live.open_explorer(visit, ZH_01, "question")
    from attention_core.explorers.reading import question

    names = list(QUERIES)
    with language("zh"):
        labels = {name: question(name) for name in names}  # the questions as the Chinese page asks them
    sentence = root.get_by_label("句子", exact=True)
    assert sentence.locator("option").all_inner_texts() == [FELIX_ZH.text, FELIX_NEGATED_ZH.text]
    assert FELIX_ZH.text == "Felix昨天把蓝色笔记本留在会议室"
    for name in names:
        root.get_by_label(labels[name], exact=True).check()
        ref = read_with_query(FELIX_ZH, QUERIES[name])
        numbers = live.shown(root)
        T = len(FELIX_ZH.tokens)
        np.testing.assert_allclose([numbers[f"weight-{j}"] for j in range(T)], np.round(ref.weights, 4), atol=1e-9)
        top = np.argsort(-ref.weights, kind="stable")[:3]
        listed = root.locator('[data-ae-text="top"]').inner_text()
        assert listed == "，".join(f"{FELIX_ZH.tokens[j]} {ref.weights[j]:.4f}" for j in top)
    sentence.select_option("1")
    ref = read_with_query(FELIX_NEGATED_ZH, QUERIES[names[-1]])
    T = len(FELIX_NEGATED_ZH.tokens)
    np.testing.assert_allclose([live.shown(root)[f"weight-{j}"] for j in range(T)], np.round(ref.weights, 4), atol=1e-9)
    assert root.locator("legend").inner_text() == "问题"
    assert root.locator(".ae-x-top strong").inner_text().startswith(f"{T} 个位置中权重最大的 3 个")
    assert not _english_words(all_text(root)), _english_words(all_text(root))
    assert visit.console_errors() == []


@pytest.mark.parametrize("path,kind", [(ZH_01, "question"), (ZH_04, "score"), (ZH_05, "state"), (ZH_06, "state")])
def test_chinese_notes_replace_the_stored_widgets(visit, path, kind):
    page = visit.open(path)
    note = page.locator(".ae-notebook-note")
    assert note.count() == 1
    text = note.inner_text()
    assert "make lab" in text and "运行中的内核" in text and "实时探索器" in text, text
    assert note.locator("a").get_attribute("href") == f"#ae-live-{kind}"
    assert page.locator(f"#ae-live-{kind}.ae-x-ready").count() == 1
    assert page.locator(".widget-slider, .jupyter-widgets, script[type*='jupyter.widget']").count() == 0


# A test here loaded lesson 06 at 390 and 1280 px for two screenshots, no sideways scroll and no console error: the
# sweep (tests/site/test_site_sweep.py) loads every Chinese page at both widths for the same facts, and saves the
# page's first screen at 1280 px and the whole page, explorers included, at 390 px.


# ---------------------------------------------------------------------------------------------------------
# Chinese search


def _index(site) -> dict:
    text = (pathlib.Path(site) / "zh" / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1 : text.rindex(")")])


@pytest.mark.parametrize("term", SEARCH_TERMS)
def test_chinese_search_index_maps_each_term_to_lessons(site, term):
    """The search page looks a Chinese query up as one word (it does not split it), so the index must hold
    each term whole: the glossary's terms are given to jieba as a user dictionary (attention_workshop.ae_lang)."""
    index = _index(site)
    docs = set()
    for kind in ("terms", "titleterms"):
        found = index[kind].get(term)
        docs |= {found} if isinstance(found, int) else set(found or ())
    names = {index["docnames"][i] for i in docs}
    lessons = {n for n in names if n.startswith("notebooks/")}
    assert len(lessons) >= 3, f"{term} maps to {sorted(names)}"
    if term != "注意力":
        assert "notebooks/04_from_scores_to_weights" in names or "notebooks/05_additive_score" in names


@pytest.mark.parametrize("term", SEARCH_TERMS)
def test_chinese_search_page_lists_lessons(visit, term):
    page = visit.open(f"zh/search.html?q={urllib.parse.quote(term)}")
    results = page.locator("#search-results li")
    results.first.wait_for(timeout=10000)
    page.wait_for_function(SEARCH_FINISHED, timeout=30000)  # results arrive one by one; count them once all are in
    links = page.locator("#search-results li a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert sum("notebooks/" in (h or "") for h in links) >= 3, links
    assert visit.outside_requests() == []
    assert visit.console_errors() == []
