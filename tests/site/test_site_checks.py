"""The exercises on the website: an answer box after every check cell of a value exercise, a note after every
check cell of a function exercise, in every edition; the boxes give the notebook's verdicts on the whole bank; a
reader uses them with the keyboard and a screen reader.

- The build reads each check cell's declaration from the executed notebook (its metadata, written by
  ``attention_workshop.execute``), never the cell's source: every check cell of every edition declares its check,
  and the page has its box (or note) right after that cell.
- The whole bank (tests/checks/test_exercise_banks.py) of the value exercises, as a reader types it, goes through the
  page's checker with each lesson's own box and messages (one page load per edition: the other lessons are fetched,
  tests/site/js/checks_bank.js) and through the Python check called with that lesson's declared arguments in that
  edition: identical findings (keys and values) and identical verdicts at the first, second and third wrong answer
  and on request.
- A box is driven by the keyboard (its fields are labelled, Enter checks, the button shows the answer); its verdict
  is an aria-live region that describes every field, and a field the page cannot read is marked invalid; axe finds
  nothing serious inside a box with a verdict, in both colour schemes.

Under the gate the site is built once for every browser test; ``AE_SITE=_build/html`` reuses a build.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from attention_core.checks.site import EXERCISE_KEY
from attention_workshop.execute import EXERCISE_CHECK
from attention_workshop.paths import ENGLISH, ROOT, editions
from tests.site.conftest import CHECKS_BANK, SHOTS, axe_in, settle
from tests.site.exercise_answers import WEB, answers, differences, python_side, the_check

LESSON_06 = "notebooks/06_same_content_different_state.html"
LESSON_08 = "notebooks/08_toward_the_next_structure.html"
BOX = re.compile(r'<div class="ae-exercise" id="[^"]*" data-book="\w+" data-box="([^"]*)">')
NOTE = 'class="ae-exercise-note"'


def folder(edition: str) -> str:
    return "" if edition == ENGLISH else f"{edition}/"


def lessons(edition: str) -> dict[str, pathlib.Path]:
    """Each lesson notebook of an edition by its number ("06")."""
    return {p.name[:2]: p for p in sorted((ROOT / folder(edition) / "notebooks").glob("0*.ipynb"))}


def check_cells(notebook: pathlib.Path) -> list[dict]:
    """The check cells of a lesson, in order, each as its metadata."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    return [c["metadata"] for c in nb["cells"] if EXERCISE_CHECK in c.get("metadata", {}).get("tags", [])]


def declaration(edition: str, key: str) -> dict:
    """The declaration of exercise ``key``'s check in the edition's lesson (its notebook's metadata)."""
    name = the_check(key).__name__
    found = [m[EXERCISE_KEY] for m in check_cells(lessons(edition)[key[:2]]) if m[EXERCISE_KEY]["check"] == name]
    assert len(found) == 1, (edition, key, found)
    return found[0]


@pytest.mark.parametrize("edition", editions())
def test_every_check_cell_has_its_box_or_note_after_it(site, edition):
    for number, notebook in lessons(edition).items():
        cells = check_cells(notebook)
        assert cells, f"{notebook.name}: no check cell"
        assert all(EXERCISE_KEY in m for m in cells), f"{notebook.name}: a check cell declares nothing"
        page = (pathlib.Path(site) / folder(edition) / "notebooks" / notebook.with_suffix(".html").name).read_text()
        boxes = [json.loads(re.sub("&quot;", '"', b).replace("&amp;", "&")) for b in BOX.findall(page)]
        values = [m[EXERCISE_KEY]["check"] for m in cells if "args" in m[EXERCISE_KEY]]
        assert [b["check"] for b in boxes] == values, (edition, number)
        assert page.count(NOTE) == len(cells) - len(values), (edition, number)
        for b, m in zip(boxes, [m for m in cells if "args" in m[EXERCISE_KEY]], strict=True):
            assert b["start"] == m[EXERCISE_KEY]["start"], (edition, number, b["check"])  # the cell's own answer
        if values:
            assert 'id="ae-checks"' in page and "ae-checks.js" in page, (edition, number)


def test_the_declarations_are_the_lessons_calls_as_the_bank_makes_them():
    """The bank checks the exercises the lessons set: each value exercise's declared arguments are the bank's."""
    from tests.site.exercise_answers import declared

    for key in WEB:
        for edition in editions():
            assert declaration(edition, key)["args"] == declared(key)["args"], (edition, key)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("edition", editions())
def test_the_pages_give_the_notebooks_verdicts_on_the_whole_bank(visit, edition):
    cases = answers()
    base = visit.base_url + "/" + folder(edition) + "notebooks/"
    pages = {key[:2]: base + lessons(edition)[key[:2]].with_suffix(".html").name for key in WEB}
    page = visit.open(folder(edition) + LESSON_06)
    page.wait_for_function("() => !!self.AEChecks")
    checks = {key: declaration(edition, key)["check"] for key in WEB}
    tasks = [{"page": pages[key[:2]], "check": checks[key], "texts": texts} for key, _, texts in cases]
    got = page.evaluate(CHECKS_BANK, {"pages": sorted(set(pages.values())), "tasks": tasks})
    found = []
    for (key, label, texts), result in zip(cases, got["results"], strict=True):
        where = f"{edition} {key} {label!r} {texts}: "
        if "error" in result:
            found.append(where + result["error"])
            continue
        python = python_side(key, texts, edition, declaration(edition, key))
        found += differences(python, result, where)
    print(f"{edition}: {len(cases)} answers of the bank compared, {len(found)} differences")
    assert len(cases) == sum(len(r) + len(w) for _, r, w in WEB.values())
    assert not found, "\n".join(found[:20])
    assert visit.console_errors() == []


def test_a_box_is_used_with_the_keyboard_and_read_by_a_screen_reader(visit):
    page = visit.open(LESSON_08)
    root = page.locator(".ae-exercise.ae-ex-ready")
    root.first.wait_for()
    box = root.filter(has=page.get_by_label("The positions local-m scores, as a list"))
    field = box.get_by_label("The positions local-m scores, as a list")
    verdict = box.locator("[aria-live=polite]")
    assert field.input_value() == "[4, 5, 6, 7, 8]"  # the cell's own starting answer
    assert field.get_attribute("aria-describedby").split()[-1] == verdict.get_attribute("id")
    assert verdict.get_attribute("role") == "status"
    field.focus()
    field.press("Enter")  # the form's submit: the first wrong answer, a hint
    assert verdict.inner_text().startswith("Not yet: Some of your positions do not exist in a source of 7 positions.")
    assert "Wrong answer 1 of 3" in verdict.inner_text() and "[4, 5, 6, 7]" not in verdict.inner_text()
    field.press("Enter")
    assert "the window is clipped to the source, 1..7" in verdict.inner_text()
    field.press("Enter")
    assert "The answer: [4, 5, 6, 7]" in verdict.inner_text()
    field.fill("")
    field.press("Enter")  # not read: marked invalid, not counted
    assert field.get_attribute("aria-invalid") == "true" and "A box is empty" in verdict.inner_text()
    field.fill("[4, 5, 6")
    field.press("Enter")
    assert "it cannot read \u2068[4, 5, 6\u2069" in verdict.inner_text()
    field.fill("4, 5, 6, 7")  # a bare tuple, as Python reads it
    field.press("Enter")
    assert verdict.inner_text().startswith("Correct: Local-m at t = 6 with D = 2 reads positions [4, 5, 6, 7]")
    assert field.get_attribute("aria-invalid") is None
    show = box.get_by_role("button", name="Show the answer")
    show.focus()
    page.keyboard.press("Enter")
    assert "The answer: [4, 5, 6, 7]" not in verdict.inner_text()  # right: nothing more to show
    field.fill("[4, 5, 6, 7, 8]")
    show.focus()
    page.keyboard.press("Space")  # on request: the verdict and the answer at once
    assert "The answer: [4, 5, 6, 7]" in verdict.inner_text()
    assert visit.console_errors() == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_box_with_a_verdict_has_no_serious_axe_violation(visit, scheme):
    for width in (1280, 390):
        tab = visit.make(width=width)
        tab.page.emulate_media(color_scheme=scheme)
        page = tab.open(LESSON_06)
        box = page.locator(".ae-exercise.ae-ex-ready").first
        box.wait_for()
        box.locator("input").first.fill("[0.5, 1.4, 'x']")
        box.locator("input").first.press("Enter")
        settle(page)
        box.scroll_into_view_if_needed()
        assert axe_in(page, ".ae-exercise", []) == [], (width, scheme)
        SHOTS.mkdir(parents=True, exist_ok=True)
        box.screenshot(path=str(SHOTS / f"answer-box-06-{width}-{scheme}.png"))
        overflow = page.evaluate("(e) => e.scrollWidth - e.clientWidth", box.element_handle())
        assert overflow <= 1, (width, scheme, overflow)


def test_a_chinese_box_says_the_chinese_verdict(visit):
    page = visit.open("zh/" + LESSON_06)
    box = page.locator(".ae-exercise.ae-ex-ready").nth(1)  # exercise 2: the peak
    field = box.locator("input")
    field.fill("1.46")
    field.press("Enter")
    text = box.locator("[aria-live=polite]").inner_text()
    assert text.startswith("还不对：") and "答错 1/3 次" in text, text
    box.get_by_role("button", name="显示答案").click()
    assert "-1.46" in box.locator("[aria-live=polite]").inner_text()
