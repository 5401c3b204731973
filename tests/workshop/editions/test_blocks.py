"""Markdown cut into translatable blocks the way Sphinx's gettext builder cuts it (editions.blocks), and written back
with translations block by block."""

from __future__ import annotations

import json

import pytest

from attention_workshop.editions import blocks, markdown, sources
from tests.helpers import ROOT

SAMPLE = """(a-label)=
# A heading

A first paragraph that runs
over two lines with $x_{t}$ math.

- an item
  that continues
- **second** item

| Column | Other |
| --- | --- |
| $T$ | a cell with \\| a pipe |

```{admonition} A title
:class: tip
Inside the box.
```

$$
y = \\text{the same for every } j
$$ (eq-y)

```python
x = 1  # a comment
y = "# not a comment"
```

<dl class="glossary">
<dt><a id="term-term-one"></a>term one · <span lang="zh">术语一</span></dt>
<dd>

Its definition, which
continues here.

</dd>
</dl>
"""


def test_a_page_is_cut_into_blocks_of_each_kind_and_the_rest_is_not_text():
    found = [(b.kind, b.text) for b in blocks.blocks(SAMPLE)]
    assert found == [
        ("heading", "A heading"),
        ("paragraph", "A first paragraph that runs\nover two lines with $x_{t}$ math."),
        ("item", "an item\nthat continues"),
        ("item", "**second** item"),
        ("cell", "Column"),
        ("cell", "Other"),
        ("cell", "a cell with \\| a pipe"),
        ("title", "A title"),
        ("paragraph", "Inside the box."),
        ("math", "y = \\text{the same for every } j"),
        ("comment", "a comment"),
        ("term", 'term one · <span lang="zh">术语一</span>'),
        ("definition", "Its definition, which\ncontinues here."),
    ]  # the label, the option, the math's symbols, the code, the cell "$T$" and the HTML's tags are not text


def test_translations_replace_their_blocks_and_nothing_else():
    table = {
        "A heading": "一个标题",
        "A first paragraph that runs\nover two lines with $x_{t}$ math.": "第一段，带有 $x_{t}$。",
        "an item\nthat continues": "一项\n接着写",
        "a cell with \\| a pipe": "带 | 竖线的格子",
        "A title": "标题",
        "y = \\text{the same for every } j": "y = \\text{对每个 } j \\text{ 都相同}",
        "a comment": "注释",
        'term one · <span lang="zh">术语一</span>': '术语一 · <span lang="en">term one</span>',
        "Its definition, which\ncontinues here.": "它的定义。",
    }
    out = blocks.replace(SAMPLE, lambda b: table.get(b.text))
    assert out == (
        SAMPLE.replace("# A heading", "# 一个标题")
        .replace("A first paragraph that runs\nover two lines with $x_{t}$ math.", "第一段，带有 $x_{t}$。")
        .replace("- an item\n  that continues", "- 一项\n  接着写")
        .replace("a cell with \\| a pipe", "带 \\| 竖线的格子")  # a cell's pipe is escaped
        .replace("{admonition} A title", "{admonition} 标题")
        .replace("\\text{the same for every } j", "\\text{对每个 } j \\text{ 都相同}")
        .replace("# a comment", "# 注释")
        .replace('term one · <span lang="zh">术语一</span>', '术语一 · <span lang="en">term one</span>')
        .replace("Its definition, which\ncontinues here.", "它的定义。")
    )
    assert blocks.replace(SAMPLE, lambda b: None) == SAMPLE
    assert blocks.replace(SAMPLE, lambda b: b.text) == SAMPLE


def test_a_translation_in_more_lines_keeps_the_block_indentation():
    text = "- one line\n- next\n"
    assert (
        blocks.replace(text, lambda b: {"one line": "第一行\n第二行\n\n新段"}.get(b.text))
        == "- 第一行\n  第二行\n\n  新段\n- next\n"
    )
    assert (
        blocks.replace("# Title\n", lambda b: {"Title": "两\n行"}.get(b.text)) == "# 两 行\n"
    )  # a heading stays one line


def every_markdown():
    for path in sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("book/*.ipynb")]):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                yield f"{path.name}:{cell['id']}", "".join(cell["source"])
    for path in sorted(ROOT.glob("book/*.md")):
        yield path.name, path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("where", "text"), list(every_markdown()), ids=[w for w, _ in every_markdown()])
def test_every_source_is_cut_where_the_parser_puts_its_blocks(where, text):
    """Each block's lines are where MyST's parser put them: its own text written back gives the source byte for
    byte, and a changed text written back is cut again into the same blocks, each with the new text."""
    assert blocks.replace(text, lambda b: b.text) == text
    marked = blocks.replace(text, lambda b: "Zz " + b.text)
    assert [(b.kind, b.text) for b in blocks.blocks(marked)] == [(b.kind, "Zz " + b.text) for b in blocks.blocks(text)]


def test_a_cells_msgctxt_does_not_move_with_the_cell_or_its_neighbours():
    """Units of a markdown cell are keyed by the cell's id: moving the cell or changing another block of it leaves
    every other unit's key as it was; two identical blocks of one cell are one entry."""
    text = "First paragraph.\n\nSecond paragraph.\n\nFirst paragraph.\n"
    units = markdown.markdown_units(text, "cell-1")
    assert [(u.context, u.msgid) for u in units] == [
        ("cell-1", "First paragraph."),
        ("cell-1", "Second paragraph."),
        ("cell-1", "First paragraph."),
    ]
    assert len({(u.context, u.msgid) for u in units}) == 2  # one entry for both
    changed = markdown.markdown_units(text.replace("Second", "The second"), "cell-1")
    assert {(u.context, u.msgid) for u in units} - {(u.context, u.msgid) for u in changed} == {
        ("cell-1", "Second paragraph.")
    }
    nb = {
        "cells": [
            {"cell_type": "markdown", "id": "b", "source": ["B text."]},
            {"cell_type": "markdown", "id": "a", "source": ["A text."]},
        ]
    }
    moved = {"cells": nb["cells"][::-1]}
    assert set(sources.notebook_units(nb)) == set(sources.notebook_units(moved))


def test_a_pages_units_are_keyed_by_the_page_not_by_a_heading():
    page = sources.PageSource(ROOT / "book" / "glossary.md")
    units = page.units()
    assert {u.context for u in units} == {"glossary"}
    assert ("glossary", 'context vector · <span lang="zh">上下文向量</span>') in {(u.context, u.msgid) for u in units}
    assert all(u.line > 0 for u in units)  # for reports: the page's line
