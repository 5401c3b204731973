"""The Chinese edition is spaced as Chinese technical writing is (the rules of 中文文案排版指北,
github.com/sparanoid/chinese-copywriting-guidelines): every translated text (the PO files of ``locale/zh`` and the
package's ``attention_core.po``) and everything the Chinese notebooks print.

The rules:

1. **No space beside full-width punctuation** (，。、；：？！（）《》【】「」…— and the Chinese quotation marks):
   ``源句：the river``, not ``源句： the river``.
2. **One space between a Chinese character and a Latin letter or a digit**, none missing and, in prose, not two:
   ``Felix 的那本``, ``第 3 课``, ``12 个 token``; **and none between two Chinese characters** (``高于 仅换评分 的``
   comes from a translated name put in a sentence between spaces meant for a Latin one).
3. **Chinese punctuation in Chinese text**: no half-width ``, ; : ? ! ( )`` touching a Chinese character, and in a
   printed output that has Chinese in it, no figure with its range in half-width brackets (``0.9947 (0.9850–0.9995)``
   is ``0.9947（0.9850–0.9995）``).
4. **Bold and italics that render**: CommonMark does not close ``**粗体：**`` before a Chinese character (a closing
   ``**`` after punctuation must be followed by a space or punctuation), so a translation that drops the space
   after ``**先要知道：**`` shows its asterisks; write ``**先要知道**：`` instead.

The exceptions (what is layout, or what a translation keeps as the English writes it):

- Inside code spans, math (``$...$``), link targets, HTML tags and placeholders nothing is checked. A code span, a
  formula or an equation reference (``{0}`` in a Markdown entry, shown as "(7)") counts as a Latin word: one space
  from a Chinese character, none from full-width punctuation. Link text and emphasis are read as the text they show,
  and a space at either edge of a link's text is the author's choice (中文文案排版指北 puts one there); one beside
  full-width punctuation is not.
- The curly quotation marks “ ” ‘ ’ are also English ones: they are Chinese punctuation (rule 1) only where what
  they quote is Chinese or a Chinese character or full-width mark stands across the space; an English title quoted
  in a reference keeps the English spacing.
- In printed output, and in the code strings and package messages that print it, a run of two or more spaces is a
  table's column alignment, spaces at a line's start are indentation, and a space beside a table's ``|`` is the
  table's rule; a line break in a string (a figure label's) is not a space. A placeholder of a code string or a
  message whose value is not known here (``{label}``, ``{0}``) is not checked at its edges: the printed outputs are.
- Display-math entries are not checked; a line break inside a Markdown entry is a space (Markdown shows it as one),
  a blank line between two paragraphs is not, and a glossary term group is read one term a line.
- The article's example sentence is quoted as the article writes it, ``Felix昨天把蓝色笔记本留在会议室`` (and so
  are the labels that shorten it): a quotation keeps its source's spelling (``ARTICLE_SPELLING``).
"""

from __future__ import annotations

import json
import re

import polib
import pytest
from markdown_it import MarkdownIt

from attention_workshop.editions.catalog import MARKDOWN_KINDS
from tests.helpers import ROOT

EDITION = "zh"
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # a Chinese character
FULL = "，。、；：？！（）《》〈〉【】「」『』…—"  # full-width punctuation (the curly quotes apart: see QUOTED)
LATIN = "A-Za-z0-9"
WORD = "\x01"  # what a Markdown entry keeps as written (code, math, an equation reference): a Latin word
UNKNOWN = "\x02"  # a placeholder of a code string or message: its value is not known here
SPACE = " \t\n\u3000"
PARAGRAPH = "\x03"  # a blank line between two paragraphs of a Markdown entry: no space, no character
ARTICLE_SPELLING = re.compile(r"Felix(?=昨天)")  # the article's own sentence, quoted as it is written

FILES = sorted((ROOT / "locale" / EDITION).glob("LC_MESSAGES/**/*.po")) + [
    ROOT / "src" / "attention_core" / "locale" / EDITION / "LC_MESSAGES" / "attention_core.po"
]
NOTEBOOKS = sorted((ROOT / EDITION).glob("**/*.ipynb"))

BESIDE_FULL = re.compile(rf"[{SPACE}]+[{FULL}“”‘’]|[{FULL}“”‘’][{SPACE}]+")
QUOTED = re.compile(r"“[^“”]*”|‘[^‘’]*’")
MISSING = re.compile(rf"[{HAN}][{LATIN}{WORD}]|[{LATIN}{WORD}][{HAN}]")
DOUBLE = re.compile(rf"[{HAN}][{SPACE}]{{2,}}[{LATIN}{WORD}]|[{LATIN}{WORD}][{SPACE}]{{2,}}[{HAN}]")
BETWEEN_HAN = re.compile(rf"[{HAN}] [{HAN}]")
BETWEEN_HAN_MD = re.compile(rf"[{HAN}][ \n][{HAN}]")  # in Markdown a line break shows as a space
LINK_EDGE = "\x04"  # either end of a link's text: a space there is the author's choice
HALF = re.compile(rf"[{HAN}][,;:?!()]|[()][{HAN}]")
RANGE = re.compile(r"\(\s*[-+]?\d[\d.]*\s*[–-]\s*[-+]?\d[\d.]*\s*\)")
HAS_HAN = re.compile(f"[{HAN}]")

_RENDER = MarkdownIt("commonmark")


def markdown_text(text: str) -> str:
    """A Markdown entry as its spacing is read: code, math and equation references one WORD each, link targets
    and tags gone, link text and emphasis as the text they show."""
    text = re.sub(r"(?:\{[\w-]+\})?`[^`]*`", WORD, text)  # a code span or a role ({doc}`...`)
    text = re.sub(r'<span class="aliases">.*?</span></span>', WORD, text, flags=re.S)  # a glossary's alias list: data
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", WORD, text, flags=re.S)
    text = re.sub(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)", rf"{LINK_EDGE}\1{LINK_EDGE}", text)
    text = re.sub(r"<[^<>]+>", "", text)
    text = re.sub(r"\{\d+\}", WORD, text)
    text = re.sub(r"\n[ \t]*\n\s*", PARAGRAPH, text)
    return re.sub(r"\\(.)|\*", r"\1", text)


def plain_text(text: str) -> str:
    """A code string or message as its spacing is read: each placeholder UNKNOWN, tags gone."""
    return re.sub(r"<[^<>]+>", "", re.sub(r"\{[^{}]*\}", UNKNOWN, text))


def _excerpt(text: str, match: re.Match) -> str:
    excerpt = text[max(0, match.start() - 10) : match.end() + 10]
    return excerpt.replace(WORD, "·").replace(UNKNOWN, "{}").replace(LINK_EDGE, "")


def _layout(text: str, match: re.Match) -> bool:
    """Whether the spaces ``match`` found beside full-width punctuation are a printed table's layout."""
    spaces = match.group().strip(FULL + "“”‘’")
    before, after = text[: match.start()], text[match.end() :]
    return (
        len(spaces.replace("\n", "")) >= 2  # column alignment
        or "\n" in spaces  # a line break
        or not before.strip(" ")  # indentation at the start (or trailing spaces at the end)
        or before.endswith("\n")
        or not after.strip(" ")
        or after.startswith("\n")
        or before.endswith("|")  # a table's rule
        or after.startswith("|")
    )


def _quote_is_english(text: str, match: re.Match) -> bool:
    """Whether the space that ``match`` found beside a curly quotation mark is English spacing: the mark quotes no
    Chinese and no Chinese character or full-width mark stands across the space, or only a symbol does (``✗ “``)."""
    mark = match.group().strip(SPACE)
    if mark not in "“”‘’":
        return False
    start = match.start() + match.group().index(mark)
    quote = next((q for q in QUOTED.finditer(text) if q.start() <= start < q.end()), None)
    chinese = quote is not None and HAS_HAN.search(quote.group()) is not None
    before = match.group()[0] in SPACE  # the space is before the mark: what stands across it is before the space
    across = text[match.start() - 1 : match.start()] if before else text[match.end() : match.end() + 1]
    if re.match(rf"[{HAN}{FULL}]", across):
        return False
    return not (chinese and re.match(rf"[{LATIN}{WORD}{UNKNOWN}]", across))


def problems(text: str, markdown: bool, printed: bool = False) -> list[str]:
    """What breaks the rules in ``text``: a Markdown entry (``markdown``), or a code string or message; ``printed``:
    a printed output (its ranges are checked too)."""
    shown = markdown_text(text) if markdown else plain_text(text) if not printed else text
    shown = ARTICLE_SPELLING.sub("Ｆ", shown)  # a stand-in that no rule checks
    found = []
    unlinked = shown.replace(LINK_EDGE, "")  # beside full-width punctuation a link's edge is no excuse
    for match in BESIDE_FULL.finditer(unlinked):
        if (markdown or not _layout(unlinked, match)) and not _quote_is_english(unlinked, match):
            found.append(f"space beside full-width punctuation: {_excerpt(unlinked, match)!r}")
    found += [f"no space between Chinese and Latin: {_excerpt(shown, m)!r}" for m in MISSING.finditer(shown)]
    if markdown:
        found += [f"two spaces between Chinese and Latin: {_excerpt(shown, m)!r}" for m in DOUBLE.finditer(shown)]
    between = BETWEEN_HAN_MD if markdown else BETWEEN_HAN
    found += [f"a space between two Chinese characters: {_excerpt(shown, m)!r}" for m in between.finditer(shown)]
    found += [f"half-width punctuation in Chinese: {_excerpt(shown, m)!r}" for m in HALF.finditer(shown)]
    if printed and HAS_HAN.search(text):
        found += [f"a range in half-width brackets: {_excerpt(shown, m)!r}" for m in RANGE.finditer(shown)]
    if markdown and unrendered_emphasis(text):
        found.append(f"bold or italics that do not render: {text[:60]!r}")
    return found


def unrendered_emphasis(text: str) -> bool:
    """Whether CommonMark leaves an emphasis mark of ``text`` (outside code and math) as a literal asterisk."""
    text = re.sub(r"`[^`]*`|\$\$.*?\$\$|\$[^$\n]+\$|\\\*", "x", text, flags=re.S)
    html = _RENDER.render(text)
    return re.search(r"\*\S|\S\*", re.sub(r"<[^<>]+>", " ", html)) is not None


def entry_problems(path) -> list[str]:
    """Every translated entry of the PO file ``path`` that breaks a rule, with the rule and where."""
    found = []
    for entry in polib.pofile(str(path)):
        if entry.obsolete or not entry.msgstr:
            continue
        kind = (entry.comment or "").split(":")[0].strip()
        if kind == "math":
            continue
        lines = entry.msgstr.splitlines() if kind == "term" else [entry.msgstr]  # a term group: one term a line
        for problem in (p for line in lines for p in problems(line, markdown=kind in MARKDOWN_KINDS)):
            found.append(f"[{entry.msgctxt}] {problem}")
    return found


def printed_text(nb: dict) -> list[tuple[str, str]]:
    """(cell id, text) of every stream and text/plain output of a notebook's code cells."""
    out = []
    for cell in nb["cells"]:
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            stream = output.get("output_type") == "stream"
            text = output.get("text") if stream else output.get("data", {}).get("text/plain")
            if text:
                out.append((cell.get("id", "?"), "".join(text)))
    return out


def output_problems(path) -> list[str]:
    found = []
    for cell, text in printed_text(json.loads(path.read_text(encoding="utf-8"))):
        spoken = HAS_HAN.search(text) is not None
        for line in text.splitlines():
            found += [f"[{cell}] {p}" for p in problems(line, markdown=False, printed=spoken)]
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_each_chinese_translation_is_spaced_as_chinese_is(path):
    found = entry_problems(path)
    assert not found, f"{path.relative_to(ROOT)}: {len(found)} spacing problems:\n" + "\n".join(found)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for p in NOTEBOOKS])
def test_each_chinese_notebook_prints_chinese_spacing(path):
    found = output_problems(path)
    assert not found, f"{path.relative_to(ROOT)}: {len(found)} printed lines break a rule:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("wrong", "right", "markdown", "printed"),
    [
        ("源句： the river", "源句：the river", False, True),  # print's separator after a translated label
        ("改动 “mat” 的嵌入", "改动“mat”的嵌入", True, False),
        ("**先要知道：** 向量", "**先要知道**：向量", True, False),
        ("**先要知道：**向量", "**先要知道**：向量", True, False),  # the asterisks would show
        ("Felix的那本", "Felix 的那本", True, False),
        ("用`softmax`计算", "用 `softmax` 计算", True, False),
        ("见 [05 · 怎样计算“匹配”](05.ipynb) 的评分", "见 [05 · 怎样计算“匹配”](05.ipynb)的评分", True, False),
        ("见  {0}。", "见 {0}。", True, False),
        ("引用于： {doc}`x`。", "引用于：{doc}`x`。", True, False),
        ("d(软读取)/de_1", "软读取对 e_1 的导数", False, False),
        ("注意力 0.9947 (0.9850–0.9995)", "注意力 0.9947（0.9850–0.9995）", False, True),
        ("对 {label} ，你", "对 {label}，你", False, False),
        ("Luong 高于 仅换评分 的有 14 对", "“Luong”高于“仅换评分”的有 14 对", False, True),
        ("它写出 我 喜欢 猫 的时候", "它依次写出“我”“喜欢”“猫”的时候", True, False),
    ],
)
def test_each_rule_finds_what_it_names_and_passes_the_right_spacing(wrong, right, markdown, printed):
    assert problems(wrong, markdown, printed), wrong
    assert not problems(right, markdown, printed), problems(right, markdown, printed)


@pytest.mark.parametrize(
    ("text", "markdown", "printed"),
    [
        ("Chapter XI, “Attention”, in *The Principles*", True, False),  # an English title in a reference
        ("token           哪里？   颜色？", False, True),  # column alignment
        ("  注意力模型：     token 准确率", False, True),
        ("        </s> | （无：结束符）   | -", False, True),  # a table's rule
        ("一个向量，宽度固定；\n各个源位置", False, False),  # a figure label's line break
        ("✗ “没有”得到 0.066", False, True),
        ("由 `attention_core.luong` 在 {doc}`x` 中计算。", True, False),
        ("读取 c_t = Σ α h_j：上下文", False, True),
        ("见 [两份来源](../book/references.md)。见[参考文献](refs.md)第 [2] 条", True, False),  # a link's edges
        ("一个向量，宽度固定；\n各个源位置\n不再被重新读取", False, False),
    ],
)
def test_layout_and_english_quotations_are_not_spacing_problems(text, markdown, printed):
    assert not problems(text, markdown, printed), problems(text, markdown, printed)


if __name__ == "__main__":  # every problem, file by file: python -m tests.lessons.test_chinese_spacing
    for path in FILES:
        for problem in entry_problems(path):
            print(f"{path.relative_to(ROOT)}: {problem}")
    for path in NOTEBOOKS:
        for problem in output_problems(path):
            print(f"{path.relative_to(ROOT)}: {problem}")
