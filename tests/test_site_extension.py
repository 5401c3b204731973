"""The book's Sphinx extension (book/_ext/ae_site.py) in isolation: stored widgets shown as text, math TeX."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ae_site():
    spec = importlib.util.spec_from_file_location("ae_site", ROOT / "book" / "_ext" / "ae_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_finished_progress_bar_becomes_its_text(ae_site):
    state = {  # what tqdm.auto stores for a finished bar: HBox(HTML label, FloatProgress, HTML counter)
        "box": {"model_name": "HBoxModel", "state": {"children": ["IPY_MODEL_a", "IPY_MODEL_b", "IPY_MODEL_c"]}},
        "a": {"model_name": "HTMLModel", "state": {"value": "attention:\u2007100%"}},
        "b": {"model_name": "FloatProgressModel", "state": {"value": 1000.0, "max": 1000.0}},
        "c": {"model_name": "HTMLModel", "state": {"value": "\u20071000/1000\u2007[loss=0.006]"}},
    }
    assert ae_site._widget_text(state, "box") == "attention: 100% 1000/1000 [loss=0.006]"
    assert ae_site._widget_text(state, "missing") == ""


def test_display_math_is_wrapped_as_mathjax_expects(ae_site):
    from docutils import nodes

    one = nodes.math_block("a = b", "a = b", nowrap=False)
    two = nodes.math_block("a = b\n\nc = d", "a = b\n\nc = d", nowrap=False)
    split = nodes.math_block(r"a &= b \\ c &= d", r"a &= b \\ c &= d", nowrap=False)
    raw = nodes.math_block(r"\begin{align}x\end{align}", r"\begin{align}x\end{align}", nowrap=True)
    assert ae_site._display_tex(one) == "a = b"
    assert ae_site._display_tex(two) == r"\begin{aligned}a = b\\c = d\end{aligned}"
    assert ae_site._display_tex(split) == r"\begin{split}a &= b \\ c &= d\end{split}"
    assert ae_site._display_tex(raw) == r"\begin{align}x\end{align}"


def test_typesetting_gives_markup_and_a_stylesheet(ae_site):
    if not (ae_site.MATHJAX / "es5" / "node-main.js").exists():
        pytest.fail("MathJax for the build is missing: run `make assets`")
    markup, css = ae_site._typeset([(r"\alpha_j", False), (r"e_j = v^\top h_j", True)], "_static/fonts")
    assert len(markup) == 2 and all(m.startswith("<mjx-container") for m in markup)
    assert 'display="true"' in markup[1] and "<math" in markup[1], "display math with hidden MathML for readers"
    assert "_static/fonts/MathJax_Main-Regular.woff" in css
