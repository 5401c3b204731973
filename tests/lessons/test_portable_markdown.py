"""Every lesson of every edition is portable Markdown, for notebook clients that render CommonMark (JupyterLab,
VS Code, Colab, GitHub), and still builds the website (``attention_workshop.portable``).

Each Markdown cell is rendered by markdown-it-py's CommonMark renderer, standing in for those clients (each renders
CommonMark, with extensions of its own; ``tests/lab`` reads lesson 05 in a real JupyterLab): no MyST role, label
line, directive fence, directive option or equation label may be left in what a reader sees, and every
solution is folded (inside a closed ``<details>``; a solution's code cell collapsed). The ``\\tag{n}`` a lesson
writes on an equation is the number the book gives it (the labelled equations of the table of contents, counted
in order), and each ``(n)`` a lesson links to an equation is that equation's tag.
"""

from __future__ import annotations

import html
import json
import re

import nbformat
import polib
import pytest
import yaml
from markdown_it import MarkdownIt

from attention_workshop import portable
from attention_workshop.paths import ENGLISH, LOCALE, editions
from tests.helpers import ROOT

COMMONMARK = MarkdownIt("commonmark")


def _folder(edition: str):
    return ROOT if edition == ENGLISH else ROOT / edition


LESSONS = [
    (e, p)
    for e in editions()
    for p in sorted([*(_folder(e) / "notebooks").glob("*.ipynb"), *(_folder(e) / "book").glob("*.ipynb")])
]
IDS = [str(p.relative_to(ROOT)) for _, p in LESSONS]

# What MyST syntax looks like once a CommonMark client has rendered it (found in the HTML it gives).
LEFTOVERS = {
    "a role ({name}`...`)": re.compile(r"\{[a-z][\w-]*(?::[\w-]+)?\}<code>"),
    "a label line ((name)=)": re.compile(r"<p>\([\w.:-]+\)=\s*(?:</p>|\n)", re.M),
    "a directive fence (```{name})": re.compile(r'<code class="language-\{'),
    "a colon fence (:::)": re.compile(r"(?:^|<p>):::", re.M),
    "a directive option (:name: value)": re.compile(r"(?:^|<p>|\n):[a-z][\w-]*:(?:\s|$)", re.M),
    "an equation label ($$ (name))": re.compile(r"\$\$\s*\([\w.:-]+\)"),
    "a substitution ({{ name }})": re.compile(r"\{\{\s*\w+\s*\}\}"),
}


def _without_code(rendered: str) -> str:
    return re.sub(r"<pre><code(?! class=\"language-\{).*?</code></pre>", "", rendered, flags=re.S)


def leftovers(markdown: str) -> list[str]:
    """The kinds of MyST syntax a CommonMark reader would see in ``markdown``."""
    rendered = _without_code(COMMONMARK.render(markdown))
    return [what for what, pattern in LEFTOVERS.items() if pattern.search(rendered)]


def _solution_titles(edition: str) -> set[str]:
    """The word "Solution" and its translation in the edition (the ``<summary>`` of every exercise's answer)."""
    if edition == ENGLISH:
        return {"Solution"}
    titles = set()
    for path in (LOCALE / edition / "LC_MESSAGES" / "notebooks").glob("*.po"):
        titles |= {e.msgstr for e in polib.pofile(str(path)) if e.msgid == "Solution" and e.msgstr}
    return titles


def unfolded_solutions(markdown: str, titles: set[str]) -> list[str]:
    """Where ``markdown`` shows a solution a reader has not opened: a solution's title outside a ``<summary>``,
    or a ``<details>`` that starts open."""
    problems = []
    if re.search(r"<details\s+open", markdown):
        problems.append("a <details> that starts open")
    rendered = COMMONMARK.render(markdown)
    if 'class="language-{dropdown}"' in rendered:
        problems.append("a {dropdown} shown as an open code block")
    text = re.sub(r"<summary>.*?</summary>", "", rendered)
    for title in titles:
        if re.search(rf"(?:^|>|\s){re.escape(html.escape(title))}(?:\s|<|:|$)", _without_code(text), re.M):
            problems.append(f"{title!r} outside a folded <details>")
    depth = 0
    for line in markdown.split("\n"):
        depth += line.strip() == "<details>"
        depth -= line.strip() == "</details>"
        if depth < 0:
            problems.append("</details> without <details>")
    if depth:
        problems.append("a <details> never closed")
    return problems


@pytest.mark.parametrize(("edition", "path"), LESSONS, ids=IDS)
def test_lesson_reads_cleanly_in_a_notebook_client(edition, path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    titles = _solution_titles(edition)
    assert titles, f"{edition}: no translation of 'Solution' found"
    problems = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            problems += [f"[{cell['id']}] {what}" for what in leftovers(source)]
            problems += [f"[{cell['id']}] {what}" for what in unfolded_solutions(source, titles)]
            try:
                portable.to_myst(source)
            except portable.PortableError as error:
                problems.append(f"[{cell['id']}] {error}")
        elif "hide-cell" in cell["metadata"].get("tags", []):  # a folded cell on the website: collapsed locally
            hidden = cell["metadata"].get("jupyter", {})
            if not (hidden.get("source_hidden") and hidden.get("outputs_hidden")):
                problems.append(f"[{cell['id']}] a folded cell whose source and outputs are not collapsed")
        elif "hide-input" in cell["metadata"].get("tags", []):
            if not cell["metadata"].get("jupyter", {}).get("source_hidden"):
                problems.append(f"[{cell['id']}] a hidden input that is not collapsed")
    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# Equation numbers: the tag a lesson writes is the book's number


def _toc_documents(edition: str) -> list:
    toc = yaml.safe_load((_folder(edition) / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    out = []
    for name in files:
        for suffix in (".ipynb", ".md"):
            if (_folder(edition) / (name + suffix)).exists():
                out.append(_folder(edition) / (name + suffix))
    return out


def _markdown_of(path) -> str:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return path.read_text(encoding="utf-8")


_PORTABLE_EQUATION = re.compile(r'^<a id="(eq-[\w.:-]+)"></a>\s*\n\s*\n\$\$\n(?:.*\n)*?\\tag\{(\d+)\}\n\$\$', re.M)
_MYST_EQUATION = re.compile(r"^\$\$ \(([\w.:-]+)\)\s*$", re.M)


def equation_tags(edition: str) -> dict[str, tuple[int, int]]:
    """Each labelled equation of the edition: its label -> (the tag it is written with, or 0 on a MyST page; its
    number, counting the labelled equations of the table of contents in order as the book numbers them)."""
    found, count = {}, 0
    for path in _toc_documents(edition):
        text = _markdown_of(path)
        if path.suffix == ".ipynb":
            equations = [(m.start(), m.group(1), int(m.group(2))) for m in _PORTABLE_EQUATION.finditer(text)]
        else:
            equations = [(m.start(), m.group(1), 0) for m in _MYST_EQUATION.finditer(text)]
        for _, label, tag in sorted(equations):
            count += 1
            found[label] = (tag, count)
    return found


@pytest.mark.parametrize("edition", editions())
def test_equation_tags_are_the_books_numbers(edition):
    tags = equation_tags(edition)
    assert len(tags) > 20, f"{edition}: only {len(tags)} labelled equations found"
    wrong = {label: t for label, t in tags.items() if t[0] and t[0] != t[1]}
    assert not wrong, f"{edition}: label -> (tag written, number in the book): {wrong}"
    anchors = sum(_markdown_of(p).count('<a id="eq-') for p in _toc_documents(edition))
    assert anchors == sum(1 for t, _ in tags.values() if t), f"{edition}: an equation anchor without its \\tag"


@pytest.mark.parametrize("edition", editions())
def test_equation_references_name_the_tag(edition):
    tags = equation_tags(edition)
    wrong = []
    for path in _toc_documents(edition):
        if path.suffix != ".ipynb":
            continue
        for match in re.finditer(r"\[\((\d+)\)\]\(([\w./-]*)#(eq-[\w.:-]+)\)", _markdown_of(path)):
            shown, where, label = int(match.group(1)), match.group(2), match.group(3)
            if label not in tags or tags[label][1] != shown:
                wrong.append(f"{path.name}: ({shown}) links to {label} (number {tags.get(label, (0, None))[1]})")
            elif where and not (path.parent / where).exists():
                wrong.append(f"{path.name}: ({shown}) links to a missing file {where}")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------------------------------------------------
# The checks and the reader catch what they are for


MYST_CELL = """(shared-scorer)=
## One scorer

The weights follow {eq}`eq-softmax` (see {doc}`04_from_scores_to_weights`).

$$
a = 1
$$ (eq-one)

```{admonition} In brief
:class: tip
Text.
```
"""


def test_the_check_finds_each_kind_of_myst_syntax():
    assert set(leftovers(MYST_CELL)) == {
        "a role ({name}`...`)",
        "a label line ((name)=)",
        "a directive fence (```{name})",
        "an equation label ($$ (name))",
    }
    assert leftovers(":::{note}\nText\n:::\n") == ["a colon fence (:::)"]
    assert leftovers("```{note}\n:class: tip\nText\n```") == ["a directive fence (```{name})"]
    assert leftovers("Some text\n:class: tip\n") == ["a directive option (:name: value)"]
    assert leftovers("Code: `{eq}` and\n\n```python\n{doc}`x`\n```\n") == []


def test_the_check_finds_a_solution_shown_open():
    titles = {"Solution"}
    assert unfolded_solutions("```{dropdown} Solution\nThe answer.\n```", titles)
    assert unfolded_solutions("**Solution:** the answer is 3.", titles)
    assert unfolded_solutions("<details open>\n<summary>Solution</summary>\n\nThe answer.\n\n</details>", titles)
    assert unfolded_solutions("<details>\n<summary>Solution</summary>\n\nThe answer.\n", titles)
    assert not unfolded_solutions("<details>\n<summary>Solution</summary>\n\nThe answer.\n\n</details>", titles)


PORTABLE_CELL = """<a id="shared-scorer"></a>
## One scorer

The weights follow [(8)](04_from_scores_to_weights.ipynb#eq-softmax) and [(3)](#eq-one) (see
[04 · From scores to weights](04_from_scores_to_weights.ipynb), [the part](05_additive_score.ipynb#shared-scorer)
and [[8]](../book/references.md#references)); code `[(3)](#eq-one)` stays.

<a id="eq-one"></a>

$$
a = 1
\\tag{3}
$$

<div class="admonition tip">
<p class="admonition-title">In brief</p>

Text.

</div>

<div class="admonition note">

A note.

</div>

<details>
<summary>Solution</summary>

```python
x = 1
```

</details>
"""

MYST_FROM_PORTABLE = """(shared-scorer)=
## One scorer

The weights follow {eq}`eq-softmax` and {eq}`eq-one` (see
[04 · From scores to weights](04_from_scores_to_weights.ipynb), [the part](#shared-scorer)
and [[8]](#references)); code `[(3)](#eq-one)` stays.

$$
a = 1
$$ (eq-one)

```{admonition} In brief
:class: tip
Text.
```

```{note}
A note.
```

````{dropdown} Solution
```python
x = 1
```
````
"""


def test_the_reader_gives_the_websites_myst():
    assert portable.to_myst(PORTABLE_CELL) == MYST_FROM_PORTABLE
    assert not leftovers(PORTABLE_CELL)
    assert not unfolded_solutions(PORTABLE_CELL, {"Solution"})


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ("<details>\n<summary>Solution</summary>\n\nThe answer.\n", "never closed"),
        ("<details>\nThe answer.\n</details>", "must be followed by <summary>"),
        ("<details>\n<summary>Solution</summary>\nThe answer.\n</details>", "blank line"),
        ('<a id="eq-one"></a>\n\n$$\na = 1\n$$', "must end with \\tag{n}"),
        ('<a id="eq-one"></a>\n\nText.', "must stand before a $$ block"),
        ('<div class="admonition tip">\n\nText.\n', "never closed"),
    ],
)
def test_a_half_written_construct_is_an_error_naming_its_line(broken, message):
    with pytest.raises(portable.PortableError, match=re.escape(message)) as error:
        portable.to_myst(broken)
    assert str(error.value).startswith("line 1:")


def test_the_reader_names_the_cell_of_an_error():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("Fine."), nbformat.v4.new_markdown_cell("<details>\nNo summary.")]
    notebook.cells[1].id = "broken-cell"
    with pytest.raises(portable.PortableError, match=r"^cell 2 \(broken-cell\), line 1: "):
        portable.read(nbformat.writes(notebook))


def test_the_book_reads_lessons_through_the_reader():
    for edition in editions():
        config = yaml.safe_load((_folder(edition) / "_config.yml").read_text(encoding="utf-8"))
        assert config["sphinx"]["config"]["nb_custom_formats"] == {".ipynb": "attention_workshop.portable.read"}


def test_problems_name_the_file_the_cell_and_the_line(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("Fine."), nbformat.v4.new_markdown_cell(PORTABLE_CELL)]
    fine, broken, not_json = tmp_path / "fine.ipynb", tmp_path / "broken.ipynb", tmp_path / "text.ipynb"
    fine.write_text(nbformat.writes(notebook), encoding="utf-8")
    notebook.cells[1] = nbformat.v4.new_markdown_cell("Text.\n\n<details>\n<summary>Solution</summary>\n\nOpen.\n")
    notebook.cells[1].id = "unclosed"
    broken.write_text(nbformat.writes(notebook), encoding="utf-8")
    not_json.write_text("not a notebook", encoding="utf-8")
    assert portable.problems([fine, broken, not_json]) == [
        f"{broken}: cell 2 (unclosed), line 3: '<details>' is never closed by '</details>'",
        f"{not_json}: not a readable notebook (NotJSONError)",
    ]
    assert portable.problems([fine]) == []
