"""Every decimal number a lesson writes in its prose was printed by one of that lesson's code cells, in every
edition (the English lessons and each generated edition, whose numbers come from its own executed cells).

Prose is the markdown of a lesson without its code (fenced code blocks, indented blocks and inline code) and
link addresses, so a number in a solution's code is not counted, but numbers in math ($...$) and in MyST
directives that hold prose (the "In brief" admonition, notes, dropdowns with solutions) are. A prose number
with k decimals matches a printed number that rounds to it at k decimals (0.59 matches a printed 0.5851); signs
are ignored because the prose writes a true minus sign. Printed outputs are the text of stream, text/plain and text/html
outputs, except figures (their alt text and caption are written by hand, not computed) and cells tagged
nbval-ignore-output (widgets and wall-clock timings, which differ between runs).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import ROOT

NOTEBOOKS = sorted(
    [
        *ROOT.glob("book/*.ipynb"),
        *ROOT.glob("notebooks/*.ipynb"),
        *ROOT.glob("*/book/*.ipynb"),
        *ROOT.glob("*/notebooks/*.ipynb"),
    ]
)


DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.]*\d)")
PROSE_DIRECTIVE = re.compile(
    r"^(`{3,})\{(?:admonition|note|tip|important|warning|dropdown)\}[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M
)
FENCED = re.compile(r"^(`{3,}|~{3,}).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`(?:[^`\n]|\n(?!\s*\n))*`")  # may continue on the next line of a paragraph
INDENTED = re.compile(r"^(?: {4}|\t).*$", re.M)
HTML_TAG = re.compile(r"<[^>]+>")
URL = re.compile(r"https?://[^\s)>\]]+")  # link targets such as arXiv ids are addresses, not figures


def prose(nb: dict) -> str:
    """The lesson's markdown with code removed."""
    text = "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    text = PROSE_DIRECTIVE.sub(r"\2", text)  # keep the prose inside admonitions, notes and solutions' dropdowns
    text = FENCED.sub("", text)
    text = INDENTED.sub("", text)
    return URL.sub("", INLINE_CODE.sub("", text))


def _is_figure(output: dict) -> bool:
    data = output.get("data", {})
    return "<figure" in "".join(data.get("text/html", "")) or "".join(data.get("text/plain", "")).startswith("Figure:")


def printed(nb: dict) -> str:
    """The text every code cell printed, except figures and cells whose output is not compared."""
    parts = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream":
                parts.append("".join(out["text"]))
            elif not _is_figure(out):
                data = out.get("data", {})
                parts.append("".join(data.get("text/plain", "")))
                parts.append(HTML_TAG.sub(" ", "".join(data.get("text/html", ""))))
    return "\n".join(parts)


def unprinted_numbers(nb: dict) -> list[str]:
    printed_values = [float(x) for x in re.findall(r"\d+\.\d+|\d+", printed(nb))]
    missing = []
    for number in DECIMAL.findall(prose(nb)):
        k = len(number.split(".")[1])
        if not any(f"{y:.{k}f}" == number for y in printed_values):
            missing.append(number)
    return missing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_prose_numbers_were_printed(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    missing = unprinted_numbers(nb)
    assert not missing, f"{path.relative_to(ROOT)} writes {sorted(set(missing))} in its prose, but no cell printed them"


def test_the_checker_catches_an_unprinted_number():
    def md(text):
        return {"cell_type": "markdown", "source": [text]}

    def out(text):
        return {"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "text": [text]}]}

    nb = {"cells": [md("The weight is 0.5414 and the peak about 0.59 at $s = -1.46$."), out("0.5414 0.5851 -1.456")]}
    assert unprinted_numbers(nb) == []
    nb["cells"][0] = md("The weight is 0.5415; `f(0.123)` in code does not count.")
    assert unprinted_numbers(nb) == ["0.5415"]
    figure = {"output_type": "display_data", "data": {"text/plain": ["Figure: a peak of 0.77"]}}
    nb = {"cells": [md("A peak of 0.77."), {"cell_type": "code", "metadata": {}, "outputs": [figure]}]}
    assert unprinted_numbers(nb) == ["0.77"]  # hand-written alt text does not count as printed
    box = "```{admonition} In brief\n:class: tip\n- weights 0.6652 and 0.2448\n```"
    nb = {"cells": [md(box), out("0.6652 0.2447")]}
    assert unprinted_numbers(nb) == ["0.2448"]  # the numbers of a box are prose
