"""Lesson Markdown written to read cleanly in a notebook client, turned into the MyST the website is built from.

A lesson's Markdown cells are written for readers in JupyterLab, VS Code, Colab and GitHub, which render
CommonMark and know nothing of MyST's roles, directives and labels. So the lessons hold only CommonMark and a
few HTML blocks (``details``, a ``div``, an ``a id``); the tests render them with markdown-it-py's CommonMark
renderer, and ``tests/lab`` reads lesson 05 in a real JupyterLab (the other clients are not tested). The book's
build (``nb_custom_formats`` in ``_config.yml`` names :func:`read`) turns each into the MyST construct the website
always had:

==========================================================  ===========================================
In the lesson (portable)                                    On the website (MyST)
==========================================================  ===========================================
``<details>`` / ``<summary>Solution</summary>`` ...         ```` ```{dropdown} Solution ````: a solution
``</details>``                                              folded in every client
``<div class="admonition tip">`` /                          ```` ```{admonition} In brief ```` with
``<p class="admonition-title">In brief</p>`` ... ``</div>``  ``:class: tip`` (no title: ```` ```{tip} ````)
``<a id="shared-scorer"></a>`` on a line of its own         ``(shared-scorer)=``, a label
``<a id="eq-score"></a>`` before ``$$ ... \\tag{3} $$``      ``$$ ... $$ (eq-score)``: numbered by Sphinx
``[(3)](#eq-score)`` or ``[(3)](04_....ipynb#eq-score)``    ``{eq}`eq-score```: Sphinx's number
``[text](04_....ipynb#label)``                              ``[text](#label)``: MyST finds the label
==========================================================  ===========================================

Links to a lesson or a page (``[Lesson 04](04_from_scores_to_weights.ipynb)``) and to a label of the same lesson
(``[the shared scorer](#shared-scorer)``) are MyST already and stay as they are. In a notebook client the
``\\tag{n}`` numbers the equation and ``(n)`` in the text refers to it; ``python -m attention_workshop.editions
renumber`` writes each ``n`` as the book numbers it (:func:`equation_labels`, :func:`renumbered`), and
``tests/lessons/test_portable_markdown.py`` checks that each ``n`` is the number Sphinx gives the equation and that no
MyST syntax is left in a lesson.

A construct half written (a ``<details>`` never closed, an equation anchor without its ``\\tag``) is an error
naming the line, never a page built from it. The build checks every lesson with :func:`problems` before Sphinx
reads any: raised inside Sphinx's reader, the same error came out of a build as 88 lines with three tracebacks
(one per edition) that never named the file.
"""

from __future__ import annotations

import pathlib
import re

import nbformat

__all__ = ["PortableError", "equation_labels", "problems", "read", "renumbered", "to_myst"]


class PortableError(ValueError):
    """A lesson's portable Markdown is malformed (the message names the line)."""


_ANCHOR = re.compile(r'^<a id="([\w.:-]+)"></a>[ \t]*$')
_TAG = re.compile(r"^\\tag\{(\d+)\}[ \t]*$")
_DETAILS = re.compile(r"^<details>[ \t]*$")
_SUMMARY = re.compile(r"^<summary>(.*)</summary>[ \t]*$")
_ADMONITION = re.compile(r'^<div class="admonition ([\w-]+)">[ \t]*$')
_TITLE = re.compile(r'^<p class="admonition-title">(.*)</p>[ \t]*$')
# A link whose text is "(n)" and whose target ends in "#eq-...": a reference to a numbered equation.
_CODE_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(?!\{)")
CODE_SPAN = re.compile(r"(`+)[^`]*?\1")
EQUATION_LINK = re.compile(r"(?<!!)\[\((\d+)\)\]\((?:[\w./-]+\.(?:ipynb|md))?#(eq-[\w.:-]+)\)")
# A link into another lesson or page at a label: MyST resolves the label itself, wherever it is.
_LABEL_LINK = re.compile(
    r"(?<!!)(\[[^\]\n]*(?:\[[^\]\n]*\][^\]\n]*)*\])\((?:\.\./)?(?:notebooks/|book/)?[\w.-]+\.(?:ipynb|md)#([\w.:-]+)\)"
)


def _fence(body: list[str]) -> str:
    """Backticks enough to hold ``body``'s own fences: one more than its longest."""
    longest = max((len(m.group()) for line in body if (m := re.match(r"\s*(`{3,})", line))), default=2)
    return "`" * max(3, longest + 1)


def _close(lines: list[str], start: int, closing: str, opened: str, offset: int) -> int:
    """The index of the line ``closing`` that ends the block opened at ``start``, after a blank line."""
    depth = 0
    for k in range(start + 1, len(lines)):
        line = lines[k].rstrip()
        if line == opened.rstrip() or (opened.startswith("<div") and _ADMONITION.match(line)):
            depth += 1
        elif line == closing:
            if depth == 0:
                return k
            depth -= 1
    raise PortableError(f"line {offset + start + 1}: {lines[start].strip()!r} is never closed by {closing!r}")


def _blank_around(lines: list[str], first: int, last: int, what: str, where: int) -> list[str]:
    """The body between ``first`` and ``last``, without the one blank line CommonMark needs on each side."""
    body = lines[first:last]
    if not body or body[0].strip() or body[-1].strip() or len(body) < 3:
        raise PortableError(
            f"line {where}: the body of {what} must start and end with a blank line (CommonMark ends an HTML "
            "block at the first blank line; without it the Markdown inside is not rendered)"
        )
    return body[1:-1]


def _lines_to_myst(lines: list[str], offset: int = 0) -> list[str]:
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k].rstrip("\n")
        where = offset + k + 1
        if _DETAILS.match(line):
            summary = _SUMMARY.match(lines[k + 1].rstrip("\n")) if k + 1 < len(lines) else None
            if summary is None:
                raise PortableError(f"line {where}: <details> must be followed by <summary>title</summary>")
            end = _close(lines, k, "</details>", "<details>", offset)
            body = _lines_to_myst(_blank_around(lines, k + 2, end, "<details>", where), offset + k + 3)
            fence = _fence(body)
            out += [f"{fence}{{dropdown}} {summary.group(1).strip()}", *body, fence]
            k = end + 1
            continue
        admonition = _ADMONITION.match(line)
        if admonition:
            title = _TITLE.match(lines[k + 1].rstrip("\n")) if k + 1 < len(lines) else None
            end = _close(lines, k, "</div>", line, offset)
            body = _lines_to_myst(
                _blank_around(lines, k + (2 if title else 1), end, "<div>", where), offset + k + (3 if title else 2)
            )
            fence = _fence(body)
            if title:
                head = [f"{fence}{{admonition}} {title.group(1).strip()}", f":class: {admonition.group(1)}"]
            else:
                head = [f"{fence}{{{admonition.group(1)}}}"]
            out += [*head, *body, fence]
            k = end + 1
            continue
        anchor = _ANCHOR.match(line)
        if anchor:
            label = anchor.group(1)
            after = k + 1
            while after < len(lines) and not lines[after].strip():
                after += 1
            if label.startswith("eq-"):
                if after >= len(lines) or lines[after].strip() != "$$":
                    raise PortableError(f"line {where}: the equation anchor {label!r} must stand before a $$ block")
                end = next((j for j in range(after + 1, len(lines)) if lines[j].strip() == "$$"), None)
                if end is None or not _TAG.match(lines[end - 1].strip()):
                    raise PortableError(f"line {where}: the equation {label!r} must end with \\tag{{n}} before $$")
                out += [line.rstrip() for line in lines[after : end - 1]] + [f"$$ ({label})"]
                k = end + 1
                continue
            out.append(f"({label})=")
            k += 1
            continue
        fence = _CODE_FENCE.match(line)
        if fence:  # a code block: kept as written, links and anchors included
            end = next((j for j in range(k + 1, len(lines)) if lines[j].strip() == fence.group(1)), len(lines) - 1)
            out += [x.rstrip("\n") for x in lines[k : end + 1]]
            k = end + 1
            continue
        out.append(_inline(line))
        k += 1
    return out


def _inline(line: str) -> str:
    """A line's references to equations as ``{eq}`` roles and its links to labels elsewhere as ``#label``; code
    spans as written."""
    out, pos = [], 0
    for match in CODE_SPAN.finditer(line):
        out.append(_links(line[pos : match.start()]))
        out.append(match.group())
        pos = match.end()
    out.append(_links(line[pos:]))
    return "".join(out)


def _links(text: str) -> str:
    text = EQUATION_LINK.sub(lambda m: f"{{eq}}`{m.group(2)}`", text)
    return _LABEL_LINK.sub(lambda m: f"{m.group(1)}(#{m.group(2)})", text)


# ---------------------------------------------------------------------------------------------------------
# Equation numbers: the book numbers its labelled equations in the order of the table of contents


_MYST_EQUATION = re.compile(r"^\$\$ \(([\w.:-]+)\)\s*$")


def _outside_fences(lines: list[str]):
    """``(index, line)`` of each line of ``lines`` outside a fenced code block (what a code block holds is code)."""
    fence = None
    for k, line in enumerate(lines):
        if fence is not None:
            fence = None if line.strip() == fence else fence
            continue
        opened = _CODE_FENCE.match(line)
        if opened:
            fence = opened.group(1)
            continue
        yield k, line


def equation_labels(markdown: str) -> list[str]:
    """The labels of the numbered equations of one Markdown text, in order: a lesson's ``<a id="eq-...">`` before
    its ``$$`` block, a page's MyST ``$$ (label)``. The book numbers them in this order, page after page."""
    found = []
    for _, line in _outside_fences(markdown.split("\n")):
        anchor, myst = _ANCHOR.match(line), _MYST_EQUATION.match(line)
        if anchor and anchor.group(1).startswith("eq-"):
            found.append(anchor.group(1))
        elif myst:
            found.append(myst.group(1))
    return found


def renumbered(markdown: str, numbers: dict[str, int]) -> str:
    """``markdown`` with the ``\\tag{n}`` of each labelled equation and the ``(n)`` of each reference
    ``[(n)](...#eq-...)`` (outside code) set to ``numbers[label]``. A reference to a label ``numbers`` lacks is a
    :class:`PortableError` naming the line."""
    lines, pending = markdown.split("\n"), None

    def number(match: re.Match, k: int) -> str:
        label = match.group(2)
        if label not in numbers:
            raise PortableError(f"line {k + 1}: {match.group()} links to {label}, which no equation of the book has")
        return match.group().replace(f"[({match.group(1)})]", f"[({numbers[label]})]", 1)

    for k, line in _outside_fences(lines):
        anchor = _ANCHOR.match(line)
        if anchor and anchor.group(1).startswith("eq-"):
            pending = anchor.group(1)
        elif pending and _TAG.match(line.strip()):
            lines[k] = re.sub(r"\\tag\{\d+\}", lambda _, n=numbers[pending]: f"\\tag{{{n}}}", line)
            pending = None
        else:
            code = [m.span() for m in CODE_SPAN.finditer(line)]
            lines[k] = EQUATION_LINK.sub(
                lambda m, k=k, code=code: m.group() if any(a <= m.start() < b for a, b in code) else number(m, k),
                line,
            )
    return "\n".join(lines)


def to_myst(markdown: str) -> str:
    """The MyST the website is built from, for one Markdown cell of a lesson (:class:`PortableError` if malformed)."""
    return "\n".join(_lines_to_myst(markdown.split("\n")))


def read(text: str) -> nbformat.NotebookNode:
    """A lesson as the website's build reads it: each Markdown cell through :func:`to_myst` (myst-nb's reader for
    ``.ipynb``, named in ``_config.yml``'s ``nb_custom_formats``)."""
    notebook = nbformat.reads(text, as_version=4)
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "markdown":
            try:
                cell.source = to_myst(cell.source)
            except PortableError as error:
                raise PortableError(f"cell {number} ({cell.get('id', '?')}), {error}") from None
    return notebook


def problems(paths: list[pathlib.Path]) -> list[str]:
    """One line for each notebook of ``paths`` that :func:`read` refuses or that is no notebook at all, naming the
    file, the cell and the line (``notebooks/05_additive_score.ipynb: cell 12 (a1b2), line 3: '<details>' is never
    closed by '</details>'``); nothing for the notebooks it reads."""
    found = []
    for path in paths:
        try:
            read(pathlib.Path(path).read_text(encoding="utf-8"))
        except PortableError as error:
            found.append(f"{path}: {error}")
        except (OSError, UnicodeError, ValueError, nbformat.reader.NotJSONError) as error:
            found.append(f"{path}: not a readable notebook ({type(error).__name__})")
    return found
