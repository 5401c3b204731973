"""Lesson 07's laboratory (book/_assets/ae-lab*.js) in a real browser: its mechanics on the English page, its words
on the English and the Chinese page (``ONCE``: every edition's page runs the same scripts on the same data).

The reader composes a sentence and the page translates it with the committed model: the translation, the
alignment matrix and the step-through trace must be the package's (``Seq2Seq.greedy_trace``); sentences outside
the grammar get a message naming the word and what the grammar allows there. The snapshot scrubber replays the
committed run (``trained/snapshots/``). A short training run in the page's Worker runs, stops, resumes and ends
with accuracies by source length, for the attention model and the fixed-summary baseline. The lab's scripts load
on lesson 07's pages only; the page makes no outside request and logs no error; at 390 and 1280 px, light and
dark (each pair of edition, width and scheme once: ``PANEL_SETTINGS``), nothing overflows the page and screenshots
of every panel are saved; axe finds no serious or critical violation in any panel at three of those settings (each
width, colour scheme and edition scanned: what axe judges depends on the colours, the layout and the text, not on
how they are paired; the sweep also scans every edition's whole lesson-07 page at 1280 px light); every control is
reached by the keyboard with a visible focus ring. The screenshots (the heatmap of a run paused mid-training
among them) are saved in ``_build/screenshots/`` to look at. (The parity of the mathematics itself:
``tests/site/test_lab_math.py``.)
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from attention_core.models import data
from attention_core.models.trained import load_snapshots, load_trained
from attention_workshop.paths import ENGLISH, editions
from tests.helpers import ROOT
from tests.site.conftest import LAB_WORKER_STEP, axe_in, edition_of, eventually, settle

SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))
LESSON_07 = "notebooks/07_learning_without_labels.html"
PATHS = [LESSON_07, f"zh/{LESSON_07}"]
# Each edition's tests are one unit of the gate (``xdist_group`` ``lab-<edition>``): the two go to whichever cores
# are free (one file of both took 120 s of one process); the tests of neither stay a unit of the file's name.
EDITIONS = [pytest.param(p, marks=pytest.mark.xdist_group(f"lab-{edition_of(p)}"), id=p) for p in PATHS]
# The lab's mechanics (its numbers, its panels, its Worker, the keyboard) are tested on the English page only: every
# edition's page runs the same scripts on the same data (test_every_edition_serves_the_same_lab), and only the words
# differ. The words are each edition's: test_the_lab_speaks_its_editions_language, and the messages that
# test_sentences_outside_the_grammar_are_explained and test_the_replay_and_the_products_say_what_they_are read.
ONCE = EDITIONS[:1]
LAB = '.ae-explorer.ae-lab-open[data-explorer="lab"]'  # the laboratory, its data loaded (it came into view)
PLACE = '.ae-explorer[data-explorer="lab"]'  # where it is, before and after
# lesson 09's encoder panel: a sentence with two words twice ("this", "economic")
ENCODER_SENTENCE = "this green economic bird sees the city behind this economic big cat"


def come_to(page):
    """Scroll to the lab, as a reader does: its data load then, and it opens."""
    page.locator(PLACE).scroll_into_view_if_needed()
    root = page.locator(LAB)
    root.wait_for(timeout=30000)
    return root


def open_lab(visit, path=LESSON_07, width=1280, scheme="light"):
    v = visit.make(width=width, height=900) if (width, scheme) != (1280, "light") else visit
    if scheme != "light":
        v.page.emulate_media(color_scheme=scheme)
    page = v.open(path)
    return v, page, come_to(page)


def tab(root, i):
    root.locator('[role="tab"]').nth(i).click()
    return root.locator('[role="tabpanel"]').nth(i)


def compose(root, text: str):
    box = root.locator('input[type="text"]')
    box.fill(text)  # types the whole sentence: an 'input' event
    return box


def stop_button(panel):
    """The train panel's pause / resume button (the name it had when it was the only one)."""
    return panel.locator(".ae-buttons button").nth(1)


def end_button(panel):
    """The train panel's stop button: the run ends."""
    return panel.locator(".ae-buttons button").nth(2)


def choose(root, design=None, language=None):
    """The design and the language above the panels (values: the seed study's design names, data.LANGUAGES)."""
    if design is not None:
        root.locator(".ae-lab-chooser select").nth(0).select_option(design)
    if language is not None:
        root.locator(".ae-lab-chooser select").nth(1).select_option(language)


def wait_steps(page, n: int) -> None:
    """Until the page's training run has reported ``n`` steps."""
    page.wait_for_function(f"() => (document.querySelector('{LAB}').aeLab.run.step || 0) >= {n}", timeout=60000)


def shown(key: str, path: str, field: str = r"[\d.]+") -> str:
    """A regular expression of the text the page at ``path`` shows for its label ``key`` (in the page's language),
    each of its fields matched by ``field`` (a number unless told)."""
    from attention_core.explorers.site import LABELS

    return field.join(map(re.escape, re.split(r"\{\w+\}", LABELS.text(key, edition_of(path)))))


def paused(path: str) -> re.Pattern:
    """The status the page shows once its Worker has answered a pause (``lab_train_paused`` in the page's
    language, each of its figures a number): from then on nothing moves until Resume."""
    return re.compile("^" + shown("lab_train_paused", path) + "$")


def at_step(status: str) -> int:
    """The step a paused run's status names: its first number (``lab_train_paused``, in every language)."""
    return int(re.search(r"\d+", status).group(0))


def page_decoded(root) -> dict:
    """What the page decoded for the composed sentence: tokens (U,) and weights (U, T)."""
    return root.evaluate("el => el.aeLab.decoded")


@pytest.fixture(scope="module")
def model():
    return load_trained()


# ---------------------------------------------------------------------------------------------------------
# Where the lab is


LESSON_08 = "notebooks/08_toward_the_next_structure.html"


def test_lab_scripts_load_on_the_lab_lessons_only(site):
    """Lesson 07's pages hold the laboratory, and lessons 08's and 09's once their notebooks hold a lab explorer
    (lesson 09's page, once it exists), in every edition; no other page loads the lab's scripts."""
    lessons = [LESSON_07]
    for later in [LESSON_08, *sorted(str(p.relative_to(site)) for p in pathlib.Path(site).glob("notebooks/09_*.html"))]:
        if 'data-explorer="lab"' in (pathlib.Path(site) / later).read_text(encoding="utf-8"):
            lessons.append(later)
    lab_pages = {lesson if e == ENGLISH else f"{e}/{lesson}" for e in editions() for lesson in lessons}
    for page in sorted(pathlib.Path(site).rglob("*.html")):
        if {"_static", "_sources"} & set(page.relative_to(site).parts):
            continue
        html = page.read_text(encoding="utf-8")
        rel = str(page.relative_to(site))
        loads = re.findall(r'src="[^"]*_static/(ae-lab[\w.-]*\.js)', html)
        if rel in lab_pages:
            assert loads == ["ae-lab.js"], rel  # the mathematics, the Worker and the data: when the lab is seen
            tag = re.search(r"<script[^>]*ae-lab\.js[^>]*>", html).group(0)
            assert re.search(r'data-lab-version="[0-9a-f]{8}"', tag), tag
            assert 'data-explorer="lab"' in html
        else:
            assert not loads, f"{rel} loads the lab"  # (its styles are in every page's one stylesheet, ae-styles)


def test_every_edition_serves_the_same_lab(site):
    """Every edition's lesson-07 page loads the site's one ``_static/ae-lab.js`` at one version, which loads
    the lab's mathematics, Worker and data from beside itself: the mechanics tested on the English page are every
    edition's, and only the words, carried by the page itself, differ."""
    script, versions = (pathlib.Path(site) / "_static" / "ae-lab.js").resolve(), set()
    for edition in editions():
        page = pathlib.Path(site) / ("" if edition == ENGLISH else edition) / LESSON_07
        (src,) = re.findall(r'<script[^>]*src="([^"]*ae-lab\.js)\?v=([0-9a-f]+)"', page.read_text(encoding="utf-8"))
        assert (page.parent / src[0]).resolve() == script, f"{edition}: the lab is {src[0]}"
        versions.add(src[1])
    assert len(versions) == 1, versions


@pytest.mark.parametrize("path", ONCE)
def test_the_lab_data_load_when_the_lab_comes_into_view(chromium_browser, server, path):
    """The page loads without the lab's numbers (about 0.5 MB) and mathematics: the lab shows its title and is
    marked drawn; they arrive when the reader scrolls near it, and then it opens."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{server}/{path}", wait_until="load")
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=5000)
    place = page.locator(PLACE)
    assert "ae-x-ready" in place.get_attribute("class") and place.get_attribute("aria-busy") == "true"
    lazy = ("ae-lab-data.js", "ae-lab-math.js", "ae-lab-worker.js", "_static/lab/")
    assert not [u for u in requests if any(name in u for name in lazy)], "the lab loaded before it was in view"
    come_to(page)
    assert len([u for u in requests if "ae-lab-data.js" in u]) == 1
    parts = re.search(r"var AE_LAB_PARTS = (\[.*?\]);", (ROOT / "book/_assets/ae-lab-math.js").read_text()).group(1)
    assert len([u for u in requests if "_static/lab/" in u]) == len(json.loads(parts)), "each part of the mathematics"
    version = page.locator('script[src*="ae-lab.js"]').get_attribute("data-lab-version")
    loaded = [u for u in requests if any(name in u for name in lazy)]
    assert all(u.endswith(f"?v={version}") for u in loaded), loaded
    assert page.locator(PLACE).get_attribute("aria-busy") is None
    context.close()


# Where the page's copy of the mathematics and a Worker's copy, made as the lab makes its Workers (from
# AELabMath.source(), in a Blob), run their matrix products.
PRODUCTS = """async () => {
  const page = AELabMath.parts.kernels.engine();
  const source = AELabMath.source() + "postMessage(M.parts.kernels.engine());";
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  const inWorker = await new Promise((done) => { worker.onmessage = (e) => done(e.data); });
  worker.terminate();
  return [page, inWorker];
}"""


@pytest.mark.parametrize("where", ["http", "file"])
def test_the_lab_runs_its_products_in_webassembly(chromium_browser, server, site, where):
    """The served part lab/wasm.js carries lab/gemm.wat compiled, and Chromium runs the matrix products of the page
    and of its Workers in WebAssembly (the same numbers as the JavaScript products: test_lab_kernels.py), over
    http and from a file."""
    served = (pathlib.Path(site) / "_static" / "lab" / "wasm.js").read_text(encoding="utf-8")
    assert '"AGFzbQ' in served  # base64 of the module's magic number
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    url = f"{server}/{LESSON_07}" if where == "http" else (pathlib.Path(site) / LESSON_07).resolve().as_uri()
    page.goto(url, wait_until="load")
    come_to(page)
    assert page.evaluate(PRODUCTS) == ["webassembly", "webassembly"]
    context.close()


# ---------------------------------------------------------------------------------------------------------
# Compose


@pytest.mark.parametrize("path", ONCE)
def test_compose_translates_like_the_package(visit, path, model):
    v, page, root = open_lab(visit, path)
    panel = tab(root, 0)
    sentences = [p for p in data.make_splits(seed=5, n_train=10, n_valid=10, n_test=40).test if len(p.src) >= 5][:6]
    for pair in sentences:
        src, tgt = pair.words()
        compose(root, " ".join(src))
        tokens, weights = model.greedy(pair.src[None])  # the book's float32 model
        got = page_decoded(root)
        assert got["tokens"] == tokens[0].tolist()
        np.testing.assert_allclose(np.array(got["weights"]), weights[0], atol=1e-5)
        out = panel.locator(".ae-lab-line-out").inner_text()
        assert " ".join(data.TGT_WORDS[k] for k in tokens[0]) in " ".join(out.split())
        reference = panel.locator(".ae-lab-result p").nth(1).inner_text()
        assert " ".join(tgt) in reference, "the grammar's reference translation"
        grid = panel.locator(".ae-lab-grid")
        assert grid.get_attribute("data-truth") == str(len(tgt)), "one outlined cell per reference word"
        assert (grid.get_attribute("data-rows"), grid.get_attribute("data-cols")) == (str(len(tgt) + 1), str(len(src)))
    # the weights as text: focus the grid and move with the keyboard
    grid = panel.locator(".ae-lab-grid")
    grid.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    readout = panel.locator(".ae-lab-readout").inner_text()
    assert f"{weights[0, 1, 2]:.3f}" in readout, readout
    assert grid.get_attribute("data-cursor") == "1,2", "the cursor is drawn where the keys moved it"
    # pointer and touch: the cell under the pointer (or the finger) is read out too
    x0, y0, cw, ch = (float(x) for x in grid.get_attribute("data-geom").split(","))
    panel.locator(".ae-lab-canvas").hover(position={"x": x0 + 3.5 * cw, "y": y0 + 0.5 * ch})
    assert grid.get_attribute("data-cursor") == "0,3"
    assert f"{weights[0, 0, 3]:.3f}" in panel.locator(".ae-lab-readout").inner_text()
    assert v.outside_requests() == [] and v.console_errors() == []


FSI, PDI = "\u2068", "\u2069"  # a reader's word in a message: isolated (AEUI.readersWord, ae-ui.js)


def test_a_readers_word_is_an_unknown_word_isolated_and_shortened(visit):
    """ "constructor" and "__proto__" were "words that cannot stand here" (found on Object's prototype); a
    right-to-left mark reversed the whole message; a 1 MB word was quoted whole."""
    v, page, root = open_lab(visit)
    message = tab(root, 0).locator(".ae-lab-message")
    for typed in ("constructor", "the __proto__", "the cat sees a toString"):
        compose(root, typed)
        word = typed.split()[-1]
        assert f"“{FSI}{word.lower()}{PDI}” (word " in message.inner_text(), typed
        assert "not a word of the toy language" in message.inner_text(), typed
    compose(root, "the \u200fcat sees a bird")
    assert f"“{FSI}\u200fcat{PDI}”" in message.inner_text()
    compose(root, "the cat sees a " + "w" * 1_000_000)
    text = message.inner_text()
    assert f"“{FSI}{'w' * 31}…{PDI}”" in text and len(text) < 400, len(text)
    compose(root, "the cat sees " + "\u202e" + "w" * 40)  # an override is dropped; the word is cut
    assert f"“{FSI}{'w' * 31}…{PDI}”" in message.inner_text()
    assert v.console_errors() == []


@pytest.mark.parametrize("path", EDITIONS)
def test_sentences_outside_the_grammar_are_explained(visit, path):
    v, page, root = open_lab(visit, path)
    panel = tab(root, 0)
    zh = path.startswith("zh/")
    message = panel.locator(".ae-lab-message")
    compose(root, "the dog sees a cat")
    text = message.inner_text()
    assert f"“{FSI}dog{PDI}”" in text and ("不是玩具语言中的词" if zh else "not a word of the toy language") in text
    assert "cat" in text and "red" in text, "it names what is allowed there (nouns and adjectives)"
    assert panel.locator(".ae-lab-grid").is_hidden()
    assert root.locator('input[type="text"]').get_attribute("aria-invalid") == "true"
    compose(root, "cat sees the bird")
    assert f"“{FSI}cat{PDI}”" in message.inner_text() and "the, a, every, this" in message.inner_text()
    compose(root, "the big big cat sees a bird")
    assert f"“{FSI}big{PDI}”" in message.inner_text()
    compose(root, "the cat sees")
    assert ("句子还没有结束" if zh else "not finished") in message.inner_text()
    compose(root, "the cat sees a bird")
    assert panel.locator(".ae-lab-grid").is_visible()
    assert root.locator('input[type="text"]').get_attribute("aria-invalid") is None
    assert v.console_errors() == []


def test_sentences_can_be_built_word_by_word_with_the_keyboard(visit):
    v, page, root = open_lab(visit)
    panel = tab(root, 0)
    panel.get_by_role("button", name="Clear").click()
    menu = panel.get_by_label("Next word (only what the grammar allows)")
    words = [o for o in menu.locator("option").all_inner_texts()]
    assert words == [d for d, _ in data.DETERMINERS]
    add = panel.get_by_role("button", name="Add", exact=True)
    for key in ("Home", "End", "Home", "Home", "End"):  # the first determiner, the last noun (after the
        menu.focus()  # adjectives), the first verb, the first determiner, the last noun
        page.keyboard.press(key)
        add.focus()
        page.keyboard.press("Enter")
    typed = root.locator('input[type="text"]').input_value().split()
    assert len(typed) == 5 and data.parse(typed).src.size == 5
    assert panel.locator(".ae-lab-grid").is_visible()
    groups = menu.locator("optgroup").evaluate_all("els => els.map(e => e.label)")
    assert groups == ["a preposition"], "after a complete sentence only a preposition may follow"
    panel.get_by_role("button", name="Remove the last word").click()
    assert len(root.locator('input[type="text"]').input_value().split()) == 4
    assert v.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# Step through the decoder


@pytest.mark.parametrize("path", ONCE)
def test_step_through_shows_the_packages_decoder_step(visit, path, model):
    v, page, root = open_lab(visit, path)
    pair = next(p for p in data.make_splits(seed=0).test if len(p.src) == 12)
    compose(root, " ".join(pair.words()[0]))
    ref = model.greedy_trace(pair.src)
    panel = tab(root, 1)
    slider = panel.locator('input[type="range"]')
    assert slider.get_attribute("max") == str(len(ref["tokens"]))
    next_button = panel.locator(".ae-lab-stepper button").nth(1)
    for t in range(4):
        if t:
            next_button.focus()
            page.keyboard.press("Enter")  # the keyboard steps
        shown = {
            k: float(x)
            for k, x in panel.locator("[data-ae-out]").evaluate_all(
                "els => els.map(e => [e.getAttribute('data-ae-out'), e.textContent])"
            )
        }
        for j in range(pair.src.size):
            assert abs(shown[f"score-{j}"] - ref["scores"][t, j]) <= 0.5e-3 + 1e-6
            assert abs(shown[f"weight-{j}"] - ref["weights"][t, j]) <= 0.5e-3 + 1e-6
        assert abs(shown["prob-0"] - ref["probs"][t].max()) <= 0.5e-4 + 1e-6
        head = panel.locator(".ae-lab-stephead").inner_text()
        assert f"“{data.TGT_WORDS[ref['y_prev'][t]]}”" in head and f"“{data.TGT_WORDS[ref['tokens'][t]]}”" in head
        assert panel.locator(".ae-lab-top li").first.inner_text().startswith(data.TGT_WORDS[ref["tokens"][t]])
    slider.focus()
    page.keyboard.press("End")  # the range input: Home / End / arrows
    assert panel.locator(".ae-lab-value").inner_text().startswith(f"{len(ref['tokens'])} /")
    strip = panel.locator(".ae-lab-strip").first  # s_{t-1} as a strip of 64 components, read with the keyboard
    strip.focus()
    page.keyboard.press("ArrowRight")
    assert f"{ref['s_prev'][-1][1]:.3f}" in strip.locator("xpath=..").locator(".ae-lab-readout").inner_text()
    assert v.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# Watch it learn


@pytest.mark.parametrize("path", ONCE)
def test_snapshot_scrubber_replays_the_committed_run(visit, path):
    import inspect

    from attention_core.explorers.training import learning_snapshots

    snaps = load_snapshots()
    v, page, root = open_lab(visit, path)
    panel = tab(root, 2)
    # the replay starts on the sentence the notebook's explorer starts on (the twin's declared arguments)
    i = inspect.signature(learning_snapshots).parameters["sentence"].default
    assert panel.locator("select").first.input_value() == str(i)
    scrub = panel.locator('input[type="range"]')
    assert int(scrub.get_attribute("max")) == len(snaps["steps"]) - 1
    scrub.focus()
    page.keyboard.press("Home")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    k = 5
    step = snaps["steps"][k]
    figures = panel.locator(".ae-lab-figures").inner_text()
    assert str(step) in figures and f"{snaps['valid_token'][k]:.3f}" in figures
    assert f"{snaps['valid_alignment'][k]:.3f}" in figures
    tokens = snaps["outputs"][k][i]
    tokens = tokens[: tokens.index(data.EOS_ID) + 1] if data.EOS_ID in tokens else tokens  # up to the end symbol
    words = " ".join(data.TGT_WORDS[w] for w in tokens)
    assert words in panel.locator(".ae-lab-line-out").inner_text()
    grid = panel.locator(".ae-lab-grid")
    grid.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    T = len(snaps["sentences"][i]["source"])
    want = snaps["weights"][k][i][1 * T + 1] / 10 ** snaps["digits"]
    assert f"{want:.3f}" in panel.locator(".ae-lab-readout").inner_text()
    menu = panel.locator("select")
    menu.select_option("2")  # the 27-word sentence
    grid = panel.locator(".ae-lab-grid")
    assert (grid.get_attribute("data-rows"), grid.get_attribute("data-cols")) == ("28", "27")
    play = panel.locator(".ae-lab-play")
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    assert eventually(scrub, "e => Number(e.value) >= 2", timeout_ms=10000), "playing does not move the scrubber"
    play.click()
    assert play.get_attribute("aria-pressed") == "false" and int(scrub.input_value()) >= 2
    assert panel.locator(".ae-lab-marker").count() == 2
    assert v.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# Train it yourself


def _wait_trained(root, model: str, timeout=180_000):
    root.page.wait_for_function(
        f"() => document.querySelector('{LAB}').getAttribute('data-ae-trained') === '{model}'", timeout=timeout
    )


@pytest.mark.parametrize("path", ONCE)
def test_training_in_the_page_runs_stops_resumes_and_reports(visit, path):
    v, page, root = open_lab(visit, path)
    panel = tab(root, 3)
    steps = panel.locator('input[type="number"]').nth(1)
    steps.fill("20")  # the fewest the lab runs
    panel.locator('input[type="number"]').nth(0).fill("3")
    status = panel.locator(".ae-lab-status")
    panel.locator(".ae-lab-primary").click()
    wait_steps(page, 5)
    stop = stop_button(panel)
    stop.click()  # stop
    expect(status).to_have_text(paused(path), timeout=60_000)  # the Worker's answer (a fixed 400 ms failed loaded)
    step = at_step(status.inner_text())  # read before the Worker is asked: its answer writes the status
    assert page.evaluate(LAB_WORKER_STEP, LAB) == step, "nothing moves while stopped"
    # the page stays usable while the Worker trains: another panel answers at once
    stop.click()  # resume
    tab(root, 0)
    compose(root, "the cat sees a bird")
    assert root.locator(".ae-lab-grid").first.is_visible()
    panel = tab(root, 3)
    _wait_trained(root, "attention|svo")
    rows = panel.locator(".ae-lab-table tbody tr")
    assert rows.count() == 3
    for i in range(3):
        cell = panel.locator(f'[data-ae-out="attention|svo-{i}"]').inner_text()
        token, exact = (float(x) for x in cell.split(" / "))
        assert 0.0 <= exact <= token <= 1.0
        study = panel.locator(f'[data-ae-study="attention|svo-{i}"]').inner_text()  # the seed study's range
        assert re.fullmatch(r"[\d.]+\s?[(（][\d.]+–[\d.]+[)）] / [\d.]+\s?[(（][\d.]+–[\d.]+[)）]", study), study
    assert panel.locator(".ae-lab-grid").is_visible(), "the attention model's weights are drawn"
    loss = panel.locator(".ae-lab-chart polyline").first.get_attribute("points")
    assert len(loss.split()) == 20, "one point per step on the loss curve"
    # the fixed-summary baseline: no weights to draw, its column beside the attention model's
    choose(root, "fixed summary")
    steps.fill("20")
    panel.locator(".ae-lab-primary").click()
    _wait_trained(root, "fixed summary|svo")
    assert panel.locator(".ae-lab-grid").is_hidden()
    assert panel.locator('[data-ae-out="fixed summary|svo-0"]').count() == 1
    assert panel.locator('[data-ae-out="attention|svo-0"]').count() == 1
    assert v.outside_requests() == [] and v.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# Phones, dark mode, accessibility, keyboard; screenshots during training

OVERFLOW = """
root => {
  const vw = document.documentElement.clientWidth;
  const bad = [];
  for (const el of root.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= vw + 1) continue;
    let inside = false;
    for (let a = el.parentElement; a && a !== root.parentElement; a = a.parentElement) {
      if (/(auto|scroll|hidden)/.test(getComputedStyle(a).overflowX) && a.getBoundingClientRect().right <= vw + 1) {
        inside = true;
        break;
      }
    }
    if (!inside) bad.push(el.tagName + "." + el.getAttribute("class") + " right " + Math.round(r.right));
  }
  const s = document.scrollingElement;
  return { bad: bad.slice(0, 5), page: [s.scrollWidth, s.clientWidth] };
}
"""


def _axe_serious(page, label: str, seen: list[str]) -> list[str]:
    """Axe inside the lab; colour contrast judges each kind of text once per page (``seen``: the kinds judged)."""
    # preload off: axe would fetch the theme's stylesheets itself and ask for an @import at the wrong path
    return [f"{label}: {problem}" for problem in axe_in(page, "#ae-live-lab", seen, preload=False)]


# The settings the panels are looked at in: each pair of edition, width and colour scheme once (four, not all
# eight: what overflows depends on the width and the edition's words, not on the colours; the theme followed, and
# what axe's colour contrast judges, on the scheme). Axe runs at three of them, so that each width, each scheme and
# each edition is scanned.
PANEL_SETTINGS = [
    pytest.param(path, width, scheme, axe, marks=pytest.mark.xdist_group(f"lab-{edition_of(path)}"),
                 id=f"{path}-{width}-{scheme}")
    for path, width, scheme, axe in ((PATHS[0], 1280, "light", True), (PATHS[0], 390, "dark", True),
                                     (PATHS[1], 1280, "dark", False), (PATHS[1], 390, "light", True))
]  # fmt: skip


@pytest.mark.parametrize("path,width,scheme,axe", PANEL_SETTINGS)
def test_every_panel_fits_passes_axe_and_is_screenshot(visit, path, width, scheme, axe):
    SHOTS.mkdir(parents=True, exist_ok=True)
    v, page, root = open_lab(visit, path, width, scheme)
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    problems, kinds = [], []  # kinds: the kinds of text axe's colour contrast has judged on this page
    for i, name in enumerate(("compose", "step", "watch", "train", "encoder")):
        if name == "encoder":  # lesson 09's designs have it: the lab on lesson 09's committed model
            choose(root, "self-attention", "svo")
            tab(root, 0)
            compose(root, ENCODER_SENTENCE)
        panel = tab(root, i)
        if name == "train":
            panel.locator('input[type="number"]').nth(1).fill("40")
            panel.locator(".ae-lab-primary").click()
            page.wait_for_function(
                "() => document.querySelectorAll('#ae-live-lab .ae-lab-chart polyline')[0]"
                ".getAttribute('points').split(' ').length >= 6",
                timeout=60000,
            )
            # paused mid-run: the chart and the heatmap as training left them, and the Worker no longer competes
            # with the measuring and the screenshot for the processor
            stop_button(panel).click()
        settle(page)
        found = root.evaluate(OVERFLOW)
        problems += [f"{name}: {b}" for b in found["bad"]]
        if found["page"][0] > found["page"][1] + 1:
            problems.append(f"{name}: the page scrolls sideways {found['page']}")
        if axe:
            problems += _axe_serious(page, f"{path} {width}px {scheme} {name}", kinds)
        stem = ("zh-" if path.startswith("zh/") else "") + f"lab-{name}-{width}-{scheme}"
        root.scroll_into_view_if_needed()
        target = panel.locator(".ae-lab-gridbox").first if name != "step" else panel
        target.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{stem}.png"))
    assert not problems, "\n".join(problems)
    assert v.outside_requests() == [] and v.console_errors() == []


@pytest.mark.parametrize("path", ONCE)
def test_every_control_is_reached_by_the_keyboard_with_a_visible_focus(visit, path):
    v, page, root = open_lab(visit, path)
    choose(root, "self-attention", "svo")  # a design with every panel, the encoder's included (lesson 09)
    compose(root, ENCODER_SENTENCE)
    missed = []
    for i in range(5):
        panel = tab(root, i)
        root.locator('[role="tab"]').nth(i).focus()
        controls = panel.locator("button:not([disabled]), input, select, [tabindex='0']").evaluate_all(
            """els => els.filter(e => e.offsetParent !== null).map((e, k) => {
                 e.dataset.aeK = String(k); return [String(k), e.type === 'radio', e.id || e.className]; })"""
        )
        reached, rings = set(), []
        for _ in range(60):
            page.keyboard.press("Tab")
            info = page.evaluate(
                """() => { const e = document.activeElement; const s = getComputedStyle(e);
                   return [e.dataset.aeK || null, !!e.closest('#ae-live-lab [role=tabpanel]:not([hidden])'),
                           s.outlineStyle, parseFloat(s.outlineWidth)]; }"""
            )
            if not info[1]:
                break
            reached.add(info[0])
            rings.append(info[2] != "none" and info[3] >= 2)
        radios = {k for k, radio, _ in controls if radio}
        names = {k: name for k, _, name in controls}
        missed += [f"panel {i}: {names[k]}" for k in sorted(set(names) - radios - reached)]
        if radios and not radios & reached:
            missed.append(f"panel {i}: the model radios")
        assert rings and all(rings), f"panel {i}: a focused control shows no focus ring"
    assert not missed, missed
    # the tabs themselves: arrow keys move between them
    root.locator('[role="tab"]').first.focus()
    page.keyboard.press("ArrowRight")
    assert root.locator('[role="tab"]').nth(1).get_attribute("aria-selected") == "true"
    assert v.console_errors() == []


def test_the_lab_works_from_a_file_url(chromium_browser, site):
    """Opened as a file (the README's first way of reading the site): the lab starts and its Worker trains (it
    reports its steps; a whole run to its report is the http tests' job, the same code from here on)."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((pathlib.Path(site) / LESSON_07).resolve().as_uri(), wait_until="load")
    root = come_to(page)
    panel = tab(root, 3)
    panel.locator('input[type="number"]').nth(1).fill("20")
    panel.locator(".ae-lab-primary").click()
    wait_steps(page, 3)
    stop_button(panel).click()
    assert errors == []
    context.close()


# ---------------------------------------------------------------------------------------------------------
# Every design, both languages (lessons 07 and 08)


def test_the_pages_verb_final_language_is_the_packages():
    """The page's target languages (ae-lab-math.js over lab/data.js): its parser gives, for 300 test sentences,
    the verb-final translation and true alignment of data.make_splits(language="verb_final"); its sampler and its
    splits put every sentence in that order (the verb last); lesson 07's language is left as it is."""
    import json
    import shutil
    import subprocess

    from attention_core.explorers.site import lab_data

    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node is needed")
        pytest.skip("no Node")
    grammar = lab_data()["grammar"]
    svo = data.make_splits(seed=3, n_train=1, n_valid=1, n_test=300)
    vf = data.make_splits(seed=3, n_train=1, n_valid=1, n_test=300, language="verb_final")
    script = """
      const math = require("./book/_assets/ae-lab-math.js");
      const M = math.assemble(math.PARTS.map((n) => require("./book/_assets/lab/" + n + ".js")));
      const inp = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const out = {};
      for (const lang of ["svo", "verb_final"]) {
        const G = Object.assign({}, inp.G, { language: lang });
        out[lang] = inp.sentences.map((w) => {
          const r = M.parse(G, w);
          return [r.pair.words.tgt, Array.from(r.pair.align)];
        });
        const rng = new M.Rng(5);
        out[lang + "_sampled"] = Array.from({ length: 50 }, () => M.sampleSentence(G, rng));
        out[lang + "_splits"] = M.makeSplits(G, 1, 50, 5, 5).train.map((p) => [p.words.src, Array.from(p.align)]);
      }
      console.log(JSON.stringify(out));
    """
    given = {"G": grammar, "sentences": [p.words()[0] for p in svo.test]}
    run = subprocess.run([node, "-e", script], input=json.dumps(given), capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["verb_final"] == [[list(p.words()[1]), p.align.tolist()] for p in vf.test]
    assert out["svo"] == [[list(p.words()[1]), p.align.tolist()] for p in svo.test]
    verbs = {w for w, _ in data.VERBS}
    for s in out["verb_final_sampled"]:
        assert s["src"][s["align"][-1]] in verbs and sorted(s["align"]) == list(range(len(s["src"])))
    for src, align in out["verb_final_splits"]:
        assert src[align[-1]] in verbs
    assert any(src[align[-1]] not in verbs for src, align in out["svo_splits"])


COMMITTED = {  # the committed models of lessons 07 to 09: (design, language) -> name (attention_core.models.trained)
    ("attention", "svo"): "lesson07_attention_seed0",
    ("general score", "svo"): "lesson08_general_score_seed0",
    ("Luong", "svo"): "lesson08_luong_seed0",
    ("attention", "verb_final"): "lesson07_verb_final_attention_seed0",
    ("fixed summary", "verb_final"): "lesson07_verb_final_fixed_summary_seed0",
    ("self-attention", "svo"): "lesson09_self_attention_seed0",
    ("self-attention, no positions", "svo"): "lesson09_no_positions_seed0",
}


@pytest.mark.parametrize("path", ONCE)
def test_every_committed_model_composes_and_steps_like_the_package(visit, path):
    """Chosen by design and language, each committed model translates a typed sentence as the package does (the
    same tokens, the weights of the attention models within 1e-5), with the reference and the true alignment of
    its language, and the step-through shows the steps of its design, in its order."""
    from attention_core.explorers.training import parse_in
    from attention_core.models.trained import trained_config

    v, page, root = open_lab(visit, path)
    text = "the small cat sees a bird near the old house with a green car"
    for (design, language), name in COMMITTED.items():
        choose(root, design, language)
        panel = tab(root, 0)
        compose(root, text)
        assert root.get_attribute("data-ae-model") == name
        model = load_trained(name)
        assert trained_config(name).language == language
        pair = parse_in(text.split(), language)
        ref = model.greedy_trace(pair.src)
        got = page_decoded(root)
        assert got["tokens"] == ref["tokens"].tolist(), name
        reference = " ".join([*pair.words()[1], data.EOS])
        assert reference in panel.inner_text(), name
        if model.cfg.attention:
            np.testing.assert_allclose(np.array(got["weights"]), ref["weights"], atol=1e-5, err_msg=name)
            grid = panel.locator(".ae-lab-grid")
            assert grid.get_attribute("data-truth") == str(len(pair.align)), name
        else:
            assert got["weights"] is None and panel.locator(".ae-lab-gridbox").first.is_hidden()
        step = tab(root, 1)
        heads = step.locator(".ae-lab-h").all_inner_texts()
        if not model.cfg.attention:
            assert len(heads) == 3 and step.locator(".ae-lab-cards").count() == 0, heads
        elif model.cfg.order == "luong":
            assert len(heads) == 5 and step.locator(".ae-lab-eq").nth(1).inner_text().startswith("e"), heads
            assert (
                "W" in step.locator(".ae-lab-eq").nth(1).inner_text()
                and "tanh" not in step.locator(".ae-lab-eq").nth(1).inner_text()
            )
        else:
            assert len(heads) == 5 and step.locator(".ae-lab-eq").first.inner_text().startswith("e"), heads
        assert ("tanh" in step.locator(".ae-lab-eq").first.inner_text()) == (
            model.cfg.score == "additive" and model.cfg.order == "bahdanau" and model.cfg.attention
        )
        step.locator(".ae-lab-stepper button").nth(1).click()  # step 2
        probs = ref["probs"][1]
        assert f"{probs.max():.4f}" in step.locator(".ae-lab-top").inner_text(), name
    assert v.console_errors() == []


@pytest.mark.parametrize("path", ONCE)
def test_a_design_without_a_committed_model_is_trained_then_composed(visit, path):
    """Luong's order with the additive score has no committed model: Compose says to train one first (never
    "translated below"), with a button to the training tab; a run of it in the page trains on the chosen language
    (here verb-final) and Compose and Step then use the reader's model, which translates below."""
    from attention_core.explorers.site import labels

    text = labels("zh" if path.startswith("zh/") else "en")
    v, page, root = open_lab(visit, path)
    choose(root, "Luong, additive score", "verb_final")
    compose(root, "the cat sees a bird")
    assert root.get_attribute("data-ae-model") == "" and page_decoded(root) is None
    message = root.locator(".ae-lab-message").inner_text()
    assert message == text["lab_ok_untrained"].format(n=5, train=text["lab_tab_train"]), message
    root.locator(".ae-lab-result .ae-lab-gotrain").click()
    assert root.locator('[role="tab"]').nth(3).get_attribute("aria-selected") == "true"
    panel = tab(root, 3)
    panel.locator('input[type="number"]').nth(1).fill("20")
    panel.locator(".ae-lab-primary").click()
    _wait_trained(root, "Luong, additive score|verb_final")
    assert root.get_attribute("data-ae-model") == "yours"
    assert panel.locator('[data-ae-out="Luong, additive score|verb_final-0"]').count() == 1
    assert panel.locator("[data-ae-study]").count() == 0, "the seed study has no run of this design"
    tab(root, 0)
    assert root.locator(".ae-lab-message").inner_text() == text["lab_ok"].format(n=5)
    decoded = page_decoded(root)
    assert len(decoded["tokens"]) == 6 and len(decoded["weights"]) == 6
    assert root.locator(".ae-lab-grid").first.is_visible()
    assert v.console_errors() == []


def test_a_score_added_end_to_end_is_offered_in_the_menu_and_trains_in_the_page(chromium_browser, server):
    """The score of tests/site/added_score.py (one Python class, one JavaScript object, one label, its design in the
    registry) reaches the built page as the build would bring it, with nothing else changed: the lab's data exported
    with it registered, its label among the page's labels and its object in lab/scorers.js (the page's and its
    Workers' copy). The menu offers it under its parts' names; a run of it trains in the page, and Compose and
    Step then use it, the step panel showing its own formula from the registry."""
    from attention_core.explorers.site import lab_data_script, labels
    from tests.site import added_score

    with added_score.added() as design:
        data_js = lab_data_script(models_apart=True)  # as attention_workshop.ae_site writes _static/ae-lab-data.js
        label = labels("en")[added_score.LABEL[0]]
        (score_tex,) = dict(design.formulas)["scores"]
    scorers_js = added_score.scorers_js()

    def with_label(route):
        html = route.fetch().text()
        head, params, tail = re.split(r'(?<=<script id="ae-params" type="application/json">)(.*?)(?=</script>)', html,
                                      maxsplit=1, flags=re.S)[:3]  # fmt: skip
        params = json.loads(params)
        params["labels"][added_score.LABEL[0]] = label
        text = json.dumps(params, separators=(",", ":"))
        route.fulfill(body=head + text.replace("<", "\\u003c").replace("&", "\\u0026") + tail,
                      content_type="text/html; charset=utf-8")  # fmt: skip

    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(f"**/{LESSON_07}", with_label)
    page.route("**/_static/ae-lab-data.js*", lambda r: r.fulfill(body=data_js, content_type="text/javascript"))
    page.route("**/_static/lab/scorers.js*", lambda r: r.fulfill(body=scorers_js, content_type="text/javascript"))
    page.goto(f"{server}/{LESSON_07}", wait_until="load")
    root = come_to(page)
    menu = root.locator(".ae-lab-chooser select").nth(0)
    offered = dict(zip(menu.locator("option").evaluate_all("os => os.map((o) => o.value)"),
                       menu.locator("option").all_inner_texts(), strict=True))  # fmt: skip
    assert offered[design.name] == f"Bahdanau, {label}", offered
    choose(root, design.name, "svo")
    compose(root, "the cat sees a bird")
    assert root.get_attribute("data-ae-model") == "" and page_decoded(root) is None
    panel = tab(root, 3)
    panel.locator('input[type="number"]').nth(1).fill("20")
    panel.locator(".ae-lab-primary").click()
    _wait_trained(root, f"{design.name}|svo", timeout=120_000)
    assert root.get_attribute("data-ae-model") == "yours"
    step = tab(root, 1)
    assert step.locator(".ae-lab-h").count() == 5
    assert step.locator(".ae-lab-eq").first.get_attribute("data-tex") == score_tex
    assert step.locator(".ae-lab-eq").first.inner_text().startswith("etj = ds−1/2 st−1⊤")
    tab(root, 0)
    decoded = page_decoded(root)
    assert len(decoded["tokens"]) == 6 and len(decoded["weights"]) == 6
    assert errors == []
    context.close()


@pytest.mark.parametrize("path", ONCE)
def test_pause_resume_and_stop_behave_in_every_state(visit, path):
    """Pause and Resume share a button; Stop ends the run. Before a run neither is offered; while it runs, both;
    paused, Resume and Stop; during the final evaluation only Stop (a pause would never be answered); done or
    stopped, neither, and Train starts a new run."""
    v, page, root = open_lab(visit, path)
    panel = tab(root, 3)
    pause, stop = stop_button(panel), end_button(panel)

    def state():
        return root.get_attribute("data-ae-train-state")

    assert pause.is_disabled() and stop.is_disabled()
    panel.locator('input[type="number"]').nth(1).fill("40")
    panel.locator(".ae-lab-primary").click()
    wait_steps(page, 3)
    assert state() == "running" and pause.is_enabled() and stop.is_enabled()
    pause.click()
    assert state() == "paused" and pause.get_attribute("aria-pressed") == "true"
    status = panel.locator(".ae-lab-status")
    expect(status).to_have_text(paused(path), timeout=60_000)  # the Worker has answered
    step = at_step(status.inner_text())  # read before the Worker is asked: its answer writes the status
    assert page.evaluate(LAB_WORKER_STEP, LAB) == step, "a paused run moves"
    pause.click()  # resume
    assert state() == "running" and pause.get_attribute("aria-pressed") == "false"
    stop.click()
    assert state() == "stopped" and pause.is_disabled() and stop.is_disabled()
    # a stopped run has no Worker left to move it (and the page reads no message of a stopped run)
    assert page.evaluate(f"() => document.querySelector('{LAB}').aeLab.worker") is None, "a stopped run moves"
    # a run to its final evaluation: Pause gives way there, and Stop ends it
    panel.locator('input[type="number"]').nth(1).fill("20")
    panel.locator(".ae-lab-primary").click()
    page.wait_for_function(
        f"() => ['evaluating', 'done'].includes(document.querySelector('{LAB}').getAttribute('data-ae-train-state'))",
        timeout=120000,
    )
    if state() == "evaluating":
        assert pause.is_disabled() and stop.is_enabled()
        stop.click()
        assert state() == "stopped" and pause.inner_text() == stop_button(panel).inner_text()
    else:
        assert pause.is_disabled() and stop.is_disabled()
    assert v.console_errors() == []


# ---------------------------------------------------------------------------------------------------------
# What a first-time reader could not tell (issue 46): which run the replay is, where the products run


@pytest.mark.parametrize("path", EDITIONS)
def test_the_replay_and_the_products_say_what_they_are(visit, path):
    """ "Watch it learn" says it replays lesson 07's committed run (its design and language), and, when another
    design or language is chosen, that no run of it was recorded and where to train it; the training panel says
    that the products run in WebAssembly with SIMD (here they do)."""
    from attention_core.explorers.site import labels

    text = labels("zh" if path.startswith("zh/") else "en")
    v, page, root = open_lab(visit, path)
    watch = tab(root, 2)
    run = {"design": text["lab_design_additive_bahdanau"], "language": text["lab_language_svo"]}
    assert watch.locator(".ae-lab-watchnote").inner_text().strip() == text["lab_watch_replays"].format(**run)
    assert root.get_attribute("data-ae-replay") == "same" and watch.locator(".ae-lab-gotrain").count() == 0
    choose(root, "attention", "verb_final")  # lesson 08's page opens on the verb-final language
    note = watch.locator(".ae-lab-watchnote").inner_text()
    other = {"design": text["lab_design_additive_bahdanau"], "language": text["lab_language_verb_final"]}
    assert text["lab_watch_replays"].format(**run) in note and root.get_attribute("data-ae-replay") == "other"
    assert text["lab_watch_yours"].format(**other, train=text["lab_tab_train"]) in note
    watch.locator(".ae-lab-gotrain").click()
    assert root.locator('[role="tab"]').nth(3).get_attribute("aria-selected") == "true"
    engine = root.locator(".ae-lab-engine")
    assert engine.get_attribute("data-ae-engine") == "webassembly" and engine.inner_text() == text["lab_engine_wasm"]
    assert v.console_errors() == []


@pytest.mark.parametrize("path", EDITIONS[1:])  # the English words: the mechanics' tests read them (``ONCE``)
def test_the_lab_speaks_its_editions_language(visit, path):
    """The words of the lab in a translated edition, where the English page's tests check the mechanics (``ONCE``):
    a translated sentence's message; the message of a design without a committed model; the encoder panel's tab and
    its note without positions; a paused run's status; and the seed study's cells beside a finished run (a mean
    and its range, in the edition's brackets)."""
    from attention_core.explorers.site import labels

    text = labels(edition_of(path))
    v, page, root = open_lab(visit, path)
    message = root.locator(".ae-lab-message")
    compose(root, "the cat sees a bird")
    assert message.inner_text() == text["lab_ok"].format(n=5)
    choose(root, "Luong, additive score", "verb_final")
    assert message.inner_text() == text["lab_ok_untrained"].format(n=5, train=text["lab_tab_train"])
    choose(root, "self-attention, no positions", "svo")
    compose(root, ENCODER_SENTENCE)
    encoder = root.locator('[role="tab"]').nth(4)
    assert encoder.inner_text() == text["lab_tab_encoder"]
    note = tab(root, 4).locator(".ae-lab-encself .ae-lab-note")
    assert note.inner_text() == text["lab_encoder_no_positions"]
    choose(root, "attention", "svo")
    panel = tab(root, 3)
    panel.locator('input[type="number"]').nth(1).fill("20")  # the fewest the lab runs
    panel.locator(".ae-lab-primary").click()
    wait_steps(page, 3)
    stop_button(panel).click()  # pause
    expect(panel.locator(".ae-lab-status")).to_have_text(paused(path), timeout=60_000)
    stop_button(panel).click()  # resume
    _wait_trained(root, "attention|svo")
    cell = shown("lab_token_exact", path, field=shown("lab_range", path))  # "0.912 (0.88–0.95) / ..."
    for i in range(3):
        study = panel.locator(f'[data-ae-study="attention|svo-{i}"]').inner_text()
        assert re.fullmatch(cell, study), (study, cell)
    assert v.outside_requests() == [] and v.console_errors() == []


def test_without_webassembly_the_lab_says_its_products_run_in_javascript(chromium_browser, server):
    """A browser without WebAssembly (here removed from the page before its scripts run): the products run in
    JavaScript, and the training panel says so."""
    from attention_core.explorers.site import labels

    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("delete window.WebAssembly;")
    page = context.new_page()
    page.goto(f"{server}/{LESSON_07}", wait_until="load")
    root = come_to(page)
    engine = root.locator(".ae-lab-engine")
    assert engine.get_attribute("data-ae-engine") == "javascript"
    assert engine.inner_text() == labels("en")["lab_engine_js"]
    context.close()


# ---------------------------------------------------------------------------------------------------------
# Lesson 09: the encoder without recurrence, its self-attention beside the decoder's cross-attention


def encoder_grids(root):
    """The encoder panel's two grids: the self-attention of the layer shown, the cross-attention."""
    return root.locator(".ae-lab-encself .ae-lab-grid"), root.locator(".ae-lab-enccross .ae-lab-grid")


@pytest.mark.parametrize("path", ONCE)
def test_the_encoder_panel_shows_the_packages_self_attention_beside_the_cross_attention(visit, path):
    """Lesson 07's recurrent encoder has no encoder panel; lesson 09's designs do: every layer's self-attention
    weights computed in the page are the package's (Seq2Seq.encoder_reads, within 1e-9), a cell read with the
    keyboard gives the package's number, the layer menu switches the grid, and beside it the decoder's
    cross-attention grid for the same sentence. Without positions the page says that copies of a word read
    alike, and their columns are equal. A run of these designs starts with the committed recipe's budget of steps.
    A recurrent design hides the panel again, and its runs start with the page's budget."""
    from attention_core.explorers.site import lab_data, labels

    text = labels("zh" if path.startswith("zh/") else "en")
    v, page, root = open_lab(visit, path)
    tabs = root.locator('[role="tab"]')
    assert tabs.count() == 5 and tabs.nth(4).is_hidden(), "lesson 07's recurrent encoder reads nothing"
    pair = data.parse(ENCODER_SENTENCE.split())
    T = pair.src.size
    for design, name in (("self-attention", "lesson09_self_attention_seed0"),
                         ("self-attention, no positions", "lesson09_no_positions_seed0")):  # fmt: skip
        choose(root, design, "svo")
        tab(root, 0)
        compose(root, ENCODER_SENTENCE)
        assert tabs.nth(4).is_visible() and tabs.nth(4).inner_text() == text["lab_tab_encoder"]
        panel = tab(root, 4)
        assert root.get_attribute("data-ae-model") == name
        model = load_trained(name)
        layers = [a[0] for a in model.encoder_reads(pair.src[None])]
        got = root.evaluate("el => el.aeLab.encoded.layers")
        assert len(got) == len(layers) == 2
        for page_layer, want in zip(got, layers, strict=True):
            np.testing.assert_allclose(np.array(page_layer).reshape(T, T), want, atol=1e-9, err_msg=name)
        self_grid, cross_grid = encoder_grids(root)
        assert (self_grid.get_attribute("data-rows"), self_grid.get_attribute("data-cols")) == (str(T), str(T))
        assert (cross_grid.get_attribute("data-rows"), cross_grid.get_attribute("data-cols")) == (str(T + 1), str(T))
        assert cross_grid.get_attribute("data-truth") == str(T)
        panel.locator("select").select_option("1")  # (the layer chosen stays chosen from design to design)
        assert root.get_attribute("data-ae-layer") == "1"
        self_grid.focus()
        for key in ("PageUp", "Home", "ArrowDown", "ArrowRight"):  # to row 1, column 1 wherever the cursor was
            page.keyboard.press(key)
        readout = panel.locator(".ae-lab-encself .ae-lab-readout").inner_text()
        assert f"{layers[0][1, 1]:.3f}" in readout and "green" in readout, readout
        panel.locator("select").select_option("2")
        assert root.get_attribute("data-ae-layer") == "2"
        self_grid.focus()
        assert f"{layers[1][1, 1]:.3f}" in panel.locator(".ae-lab-encself .ae-lab-readout").inner_text()
        note = panel.locator(".ae-lab-encself .ae-lab-note")
        if design == "self-attention, no positions":
            assert note.is_visible() and note.inner_text() == text["lab_encoder_no_positions"]
            for word in ("this", "economic"):  # the copies' columns are equal in every row
                i, j = [k for k, w in enumerate(ENCODER_SENTENCE.split()) if w == word]
                np.testing.assert_allclose(layers[1][:, i], layers[1][:, j], rtol=1e-12)
        else:
            assert note.is_hidden()
        tokens, weights = model.greedy(pair.src[None])
        assert page_decoded(root)["tokens"] == tokens[0].tolist()
        np.testing.assert_allclose(np.array(page_decoded(root)["weights"]), weights[0], atol=1e-9)
        budget = root.locator(".ae-lab-panel").nth(3).locator('input[type="number"]').nth(1)
        assert budget.input_value() == str(lab_data()["designs"][design]["steps"]) == "1000"  # the whole recipe's
    choose(root, "attention", "svo")
    assert tabs.nth(4).is_hidden() and tabs.nth(0).get_attribute("aria-selected") == "true"
    assert budget.input_value() == str(lab_data()["recipe"]["steps"]) == "600"
    assert v.console_errors() == []


def test_the_lab_opens_where_lesson_09s_explorers_start(chromium_browser, server):
    """Lesson 09's notebook explorers declare the lab's twin (a stepper and the encoder explorer on lesson 09's
    committed model): the page merges their arguments (attention_workshop.ae_twins) and the lab opens on that
    model's design and language, on its encoder panel, at the layer and sentence declared. Here lesson 07's page is
    given those arguments, as lesson 09's page will carry them."""
    from attention_core.explorers.encoder import encoder_explorer
    from attention_core.explorers.training import decoder_stepper
    from attention_core.models.trained import LESSON09

    args = {**decoder_stepper(model=LESSON09).twin_args(), **encoder_explorer(layer=2).twin_args()}
    data_args = json.dumps(args, separators=(",", ":")).replace("&", "&amp;").replace('"', "&quot;")

    def with_args(route):
        html = route.fetch().text()
        html = re.sub(r'(<div class="ae-explorer" id="ae-live-lab" data-explorer="lab" data-args=")[^"]*"',
                      lambda m: m.group(1) + data_args + '"', html, count=1)  # fmt: skip
        route.fulfill(body=html, content_type="text/html; charset=utf-8")

    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route(f"**/{LESSON_07}", with_args)
    page.goto(f"{server}/{LESSON_07}", wait_until="load")
    root = come_to(page)
    page.wait_for_function(f"() => document.querySelector('{LAB}').getAttribute('data-ae-model') === '{LESSON09}'")
    assert root.get_attribute("data-ae-design") == "self-attention" and root.get_attribute("data-ae-language") == "svo"
    assert root.locator('[role="tab"]').nth(4).get_attribute("aria-selected") == "true"
    page.wait_for_function(f"() => document.querySelector('{LAB}').getAttribute('data-ae-layer') === '2'")
    assert root.locator('input[type="text"]').input_value() == args["sentence"]
    assert encoder_grids(root)[0].get_attribute("data-rows") == str(len(args["sentence"].split()))
    context.close()
