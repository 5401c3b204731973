"""The reading path: each lesson says what to know first and how long it takes; the intro offers a short route.

Every lesson's "In brief" box opens with two items, in both editions:

    - **Know first:** <links to the earlier lessons or sections the lesson builds on, with what is needed>
    - **Reading time:** about N minutes

N is ``reading_minutes`` of the number of words (whitespace-separated tokens) of all the English notebook's
markdown cells: 200 words a minute, in steps of 5 minutes, at least 5. Lesson 01 has no earlier lesson, so its
"Know first" item names what it assumes in words; every other one links at least one earlier lesson or section,
and never a later lesson. The Chinese box states the same N (same cell id, the same two items first).

The argument page (``book/argument.ipynb``) is the short route: the intro offers it with its reading time by the
same rule, in both editions, and no code cell with visible input sits between two of its markdown cells (a folded
``hide-input`` cell that draws a figure may).
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from attention_workshop.paths import translations
from tests.helpers import ROOT, reading_minutes
from tests.lessons.test_lessons_layout import ends_with_show_figure, tags

LESSONS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
ARGUMENT = ROOT / "book" / "argument.ipynb"
BOX = "in-brief"  # the cell id of the "In brief" admonition, the same in every edition
LINK = re.compile(r"\{(?:doc|ref)\}`([^`]+)`|\]\(([^)]+)\)")  # {doc}`x`, {ref}`x`, [text](x)
LESSON_NUMBER = re.compile(r"(?:^|/)(0\d)_\w+$")
KNOW_FIRST = re.compile(r"^\*\*Know first:\*\*\s*(.*)$", re.S)
READING_TIME = re.compile(r"^\*\*Reading time:\*\* about (\d+) minutes$")


def cells(path: pathlib.Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def text(cell: dict) -> str:
    return "".join(cell["source"])


def words(path: pathlib.Path) -> int:
    """The whitespace-separated tokens a reader sees in the markdown cells of the notebook at ``path``: without
    HTML tags (a solution's ``<details>``, an anchor) and link addresses."""
    visible = [
        re.sub(r"\]\([^)\s]*\)", "]", re.sub(r"<[^>\n]+>", " ", text(c)))
        for c in cells(path)
        if c["cell_type"] == "markdown"
    ]
    return sum(len(v.split()) for v in visible)


def box_items(path: pathlib.Path) -> list[str]:
    """The list items of the lesson's "In brief" box, each with its continuation lines joined by a space."""
    box = [c for c in cells(path) if c.get("id") == BOX]
    assert len(box) == 1, f"{path.name}: one cell with id {BOX!r}"
    items: list[str] = []
    for line in text(box[0]).splitlines():
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif items and line.startswith(" ") and line.strip():
            items[-1] += " " + line.strip()
    return items


def label(path: pathlib.Path) -> str:
    return path.name


def zh(path: pathlib.Path) -> pathlib.Path:
    return ROOT / "zh" / path.relative_to(ROOT)


def test_reading_minutes_is_200_words_a_minute_in_steps_of_five():
    assert [reading_minutes(w) for w in (0, 900, 1499, 1501, 2000, 4270)] == [5, 5, 5, 10, 10, 20]


@pytest.mark.parametrize("path", LESSONS, ids=label)
def test_the_lesson_box_opens_with_what_to_know_first_and_the_reading_time(path):
    items = box_items(path)
    assert len(items) >= 2, f"{path.name}: the In brief box has no list"
    know = KNOW_FIRST.match(items[0])
    assert know, f"{path.name}: the box's first item is not '**Know first:** ...': {items[0]!r}"
    assert len(know.group(1).split()) >= 3, f"{path.name}: the Know first item says nothing: {items[0]!r}"
    links = [a or b for a, b in LINK.findall(know.group(1))]
    number = int(LESSON_NUMBER.search(path.stem).group(1))
    if number > 1:
        assert links, f"{path.name}: Know first links no earlier lesson or section: {items[0]!r}"
    for target in links:
        other = LESSON_NUMBER.search(target.split("#")[0].removesuffix(".ipynb"))
        assert not other or int(other.group(1)) < number, f"{path.name}: Know first links a later lesson: {target}"
    minutes = READING_TIME.match(items[1])
    assert minutes, f"{path.name}: the box's second item is not '**Reading time:** about N minutes': {items[1]!r}"
    want = reading_minutes(words(path))
    assert int(minutes.group(1)) == want, f"{path.name}: {words(path)} words read in about {want} minutes"


@pytest.mark.parametrize(("lang", "path"), [(lang, p) for lang in translations() for p in LESSONS], ids=str)
def test_each_edition_box_states_the_same_reading_time_and_links(lang, path):
    english, translated = box_items(path), box_items(ROOT / lang / path.relative_to(ROOT))
    assert len(translated) >= 2 and len(english) >= 2
    assert re.findall(r"\d+", translated[1]) == [str(reading_minutes(words(path)))], translated[1]
    targets = [a or b for a, b in LINK.findall(translated[0])]
    assert targets == [a or b for a, b in LINK.findall(english[0])], f"{lang}: Know first links other pages"


@pytest.mark.parametrize("intro", ["book/intro.md", *(f"{lang}/book/intro.md" for lang in translations())])
def test_the_intro_offers_the_argument_page_as_the_short_route_with_its_reading_time(intro):
    want = reading_minutes(words(ARGUMENT))
    paragraphs = re.split(r"\n\s*\n", (ROOT / intro).read_text(encoding="utf-8"))
    offers = [p for p in paragraphs if "](argument.ipynb)" in p and re.search(r"\d+\s*(?:minutes|分钟)", p)]
    assert offers, f"{intro}: no paragraph offers a link to argument.ipynb with a reading time"
    stated = [int(n) for p in offers for n in re.findall(r"(\d+)\s*(?:minutes|分钟)", p)]
    assert want in stated, f"{intro}: the argument page ({words(ARGUMENT)} words) reads in about {want} minutes"


def is_figure(cell: dict) -> bool:
    """The cell only draws a figure: its last statement is show_figure(...), or its stored output is an image (an
    edition whose book pages are executed at build time stores no outputs)."""
    if ends_with_show_figure(text(cell)):
        return True
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if any(k.startswith("image/") for k in data) or "<img" in "".join(data.get("text/html", "")):
            return True
    return False


@pytest.mark.parametrize(
    "path",
    [ARGUMENT, *(ROOT / lang / ARGUMENT.relative_to(ROOT) for lang in translations())],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_argument_page_has_no_visible_code_in_the_middle_of_its_text(path):
    kinds = [c["cell_type"] for c in cells(path)]
    first, last = kinds.index("markdown"), len(kinds) - 1 - kinds[::-1].index("markdown")
    inside = [(i, c) for i, c in enumerate(cells(path)) if c["cell_type"] == "code" and first < i < last]
    shown = [
        f"cell {i}: {text(c).splitlines()[0] if text(c) else ''}"
        for i, c in inside
        if not ({"remove-cell", "remove-input"} & set(tags(c)) or ("hide-input" in tags(c) and is_figure(c)))
    ]
    assert not shown, f"{path.relative_to(ROOT)}: code shown between markdown cells:\n" + "\n".join(shown)


def test_the_checks_catch_a_missing_line_and_visible_code():
    assert reading_minutes(2499) == 10 and reading_minutes(2501) == 15
    assert not KNOW_FIRST.match("**Computes:** one read")
    assert not READING_TIME.match("**Reading time:** a few minutes")
    assert LINK.findall("{doc}`02_context_without_attention` and [the notation](../book/notation.md)") == [
        ("02_context_without_attention", ""),
        ("", "../book/notation.md"),
    ]
    drawn = {"cell_type": "code", "source": ["x = 1"], "outputs": [{"data": {"image/png": ""}}]}
    shown = {"cell_type": "code", "source": ["show_figure(fig, alt='a')"], "outputs": []}
    printed = {"cell_type": "code", "source": ["print(0.5)"], "outputs": [{"text": "0.5"}]}
    assert is_figure(drawn) and is_figure(shown) and not is_figure(printed)
