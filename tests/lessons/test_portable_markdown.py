"""Every lesson and every book page of every edition is portable Markdown, for the clients that render CommonMark
(JupyterLab, VS Code, Colab, GitHub), and still builds the website (``attention_workshop.portable``).

Each Markdown cell, and each page (``book/*.md``, which the lessons link to), is rendered by markdown-it-py's
CommonMark renderer, standing in for those clients (each renders CommonMark, with extensions of its own;
``tests/lab`` reads lesson 05 in a real JupyterLab): no MyST role, label line, directive fence, directive option or
equation label may be left in what a reader sees, and every solution is folded (inside a closed ``<details>``; a
solution's code cell collapsed). Every link of a lesson or page reaches a file of its edition, and its ``#anchor``
an element of that file with that id (an ``<a id="...">``): a heading's own anchor counts only where GitHub's
(lower case, punctuation dropped) and JupyterLab's (the heading's text, spaces as hyphens) are the same. The
``\\tag{n}`` a lesson writes on an equation is the number the book gives it (the labelled equations of the table of
contents, counted in order), and each ``(n)`` a lesson links to an equation is that equation's tag.
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

from attention_core.explorers.site import PAGE
from attention_workshop import ae_lang, portable
from attention_workshop.paths import ENGLISH, LOCALE, editions
from attention_workshop.paths import name as edition_name
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
PAGES = [(e, p) for e in editions() for p in sorted((_folder(e) / "book").glob("*.md"))]
PAGE_IDS = [str(p.relative_to(ROOT)) for _, p in PAGES]

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


@pytest.mark.parametrize(("edition", "path"), PAGES, ids=PAGE_IDS)
def test_page_reads_cleanly_in_a_markdown_client(edition, path):
    source = path.read_text(encoding="utf-8")
    problems = leftovers(source)
    try:
        portable.to_myst(source)
    except portable.PortableError as error:
        problems.append(str(error))
    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# Links: every target a file of the edition, every anchor an id in it


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def jupyterlab_anchor(heading: str) -> str:
    """The id JupyterLab gives a rendered heading (``createHeaderId``): its text, spaces as hyphens."""
    return heading.replace(" ", "-")


def anchors(path) -> set[str]:
    """The anchors a CommonMark client finds in a lesson or page: every ``id`` its HTML writes, and each heading's
    own anchor where GitHub's and JupyterLab's agree."""
    rendered = COMMONMARK.render(_markdown_of(path))
    found = set(re.findall(r'\bid="([^"]+)"', rendered))
    for heading in re.findall(r"<h[1-6]>(.*?)</h[1-6]>", rendered):
        text = html.unescape(re.sub(r"<[^>]+>", "", heading))
        if github_anchor(text) == jupyterlab_anchor(text):
            found.add(github_anchor(text))
    return found


def links(path) -> list[str]:
    """The targets of every link a CommonMark client shows in a lesson or page (Markdown links and ``<a href>``),
    except web addresses."""
    rendered = _without_code(COMMONMARK.render(_markdown_of(path)))
    targets = [html.unescape(t) for t in re.findall(r'<a\s[^>]*?href="([^"]*)"', rendered)]
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


def broken_links(edition: str, path) -> list[str]:
    """Each link of ``path`` whose file is missing or whose anchor that file does not have. The edition's PDF
    (``ae_lang.pdf_name``), which the build prints beside the site, is the one target no checkout holds."""
    problems = []
    for target in links(path):
        where, _, anchor = target.partition("#")
        file = (path.parent / where).resolve() if where else path
        if where and file == (_folder(edition) / ae_lang.pdf_name(edition)).resolve():
            continue
        if not file.is_file():
            problems.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(file):
            problems.append(f"{target}: {file.relative_to(ROOT)} has no anchor {anchor!r}")
    return problems


@pytest.mark.parametrize(("edition", "path"), LESSONS + PAGES, ids=IDS + PAGE_IDS)
def test_every_link_reaches_its_file_and_anchor(edition, path):
    problems = broken_links(edition, path)
    assert not problems, f"{path.relative_to(ROOT)}: {len(problems)} broken links:\n" + "\n".join(problems)


def test_the_lessons_link_the_pages_anchors_that_github_and_jupyterlab_both_find():
    assert github_anchor("The two sources") == "the-two-sources" != jupyterlab_anchor("The two sources")
    assert "sources" in anchors(ROOT / "book" / "references.md")  # <a id="sources"></a>
    assert "the-two-sources" not in anchors(ROOT / "book" / "references.md")
    linked = [t for _, p in LESSONS for t in links(p) if "../book/" in t]
    assert len(linked) >= 26 and any(t.endswith("references.md#sources") for t in linked)


@pytest.mark.parametrize("edition", editions())
def test_each_glossary_entry_has_the_websites_anchor_and_aliases_label(edition):
    """A glossary entry's ``<a id>`` is the anchor the website gives it (the English entry's ``term-...``, in every
    edition), and the label a page writes before a term's aliases is the one the website shows there."""
    page = (_folder(edition) / "book" / "glossary.md").read_text(encoding="utf-8")
    written = re.findall(r'^<dt><a id="([^"]+)"></a>', page, re.M)
    assert written == ae_lang.english_term_ids("book/glossary") and len(written) >= 50
    wrong = []
    for label, language, after in re.findall(
        r'<span class="aliases">([^<]*)<span lang="([^"]+)">[^<]*</span>([^<]*)', page
    ):
        key = f"aliases_{language}"
        shown = PAGE.text(key, edition) if key in PAGE.entries else PAGE.text("aliases", edition)
        before, _, end = shown.replace("{language}", edition_name(language)).partition("{aliases}")
        if (label, after) != (before, end):
            wrong.append(f"{label!r}...{after!r} where the website shows {before!r}...{end!r}")
    assert not wrong and "aliases" in page, f"{edition}: " + "; ".join(wrong)


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
        ('<dl class="glossary">\n<dt>score</dt>\n<dd>\n\nA number.\n\n</dd>\n', "never closed by '</dl>'"),
    ],
)
def test_a_half_written_construct_is_an_error_naming_its_line(broken, message):
    with pytest.raises(portable.PortableError, match=re.escape(message)) as error:
        portable.to_myst(broken)
    assert str(error.value).startswith("line 1:")


PORTABLE_GLOSSARY = """<a id="glossary"></a>
# Glossary

<dl class="glossary">
<dt><a id="term-score"></a>score · <span lang="zh">评分</span> · <span lang="zh">分数</span></dt>
<dd>

A real number, [(7)](../notebooks/04_from_scores_to_weights.ipynb#eq-score) in
[04 · From scores to weights](../notebooks/04_from_scores_to_weights.ipynb).
<span class="aliases">Chinese aliases: <span lang="zh">打分, 注意力分数</span></span>.

</dd>
<dt><a id="term-softmax"></a>softmax</dt>
<dd>

Positive weights.

</dd>
</dl>
"""

MYST_GLOSSARY = """(glossary)=
# Glossary

```{glossary}
score
{lang}`zh: 评分`
{lang}`zh: 分数`
  A real number, {eq}`eq-score` in
  [04 · From scores to weights](../notebooks/04_from_scores_to_weights.ipynb).
  {aliases}`zh: 打分, 注意力分数`.

softmax
  Positive weights.
```
"""


def test_the_reader_gives_a_pages_glossary_as_mysts():
    assert portable.to_myst(PORTABLE_GLOSSARY) == MYST_GLOSSARY
    assert not leftovers(PORTABLE_GLOSSARY)
    rendered = COMMONMARK.render(PORTABLE_GLOSSARY)  # a definition's Markdown is rendered, its link a link
    assert '<dd>\n<p>A real number, <a href="../notebooks/04_from_scores_to_weights.ipynb#eq-score">(7)</a>' in rendered


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ('<dl class="glossary">\n<dt>score</dt>\n</dl>', "line 3: the last terms of the glossary have no <dd>"),
        ('<dl class="glossary">\n<dt>score</dt>\n<dd>\n\nA number.\n</dl>', "line 3: '<dd>' is never closed"),
        ('<dl class="glossary">\n<dt>score · <b>note</b></dt>\n<dd>\n\nA.\n\n</dd>\n</dl>', "line 2: '<b>note</b>' is"),
        ('<dl class="glossary">\n<p>score</p>\n</dl>', "line 2: a glossary holds <dt>terms</dt> lines"),
        ('<dl class="glossary">\n<dt>score</dt>\n<dd>\nA number.\n</dd>\n</dl>', "line 3: the body of <dd> must"),
    ],
)
def test_a_half_written_glossary_is_an_error_naming_its_line(broken, message):
    with pytest.raises(portable.PortableError, match=f"^{re.escape(message)}"):
        portable.to_myst(broken)


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
