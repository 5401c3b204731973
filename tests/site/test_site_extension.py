"""The book's Sphinx extension (attention_workshop.ae_site) in isolation: stored explorers become twins, math TeX."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def ae_site():
    from attention_workshop import ae_site

    return ae_site


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


def _explorer_page(ae_site, tmp_path, outputs):
    """A doctree with one stored explorer note per ``(kind shown by the note, declaration or None)``, its notebook on
    disk, and a stand-in for the Sphinx app that finds it (the build reads the notebook, not the cells' sources)."""
    import json
    import types

    from docutils import nodes

    from attention_core.explorers.twin import TWIN_MIME, unrun_note

    cells = []
    doc = nodes.document(None, None)
    for kind, twin in outputs:
        note = unrun_note(kind)
        data = {mime: [text] for mime, text in note.items()}
        if twin is not None:
            data[TWIN_MIME] = twin
        cells.append({"cell_type": "code", "source": "state_explorer(s=0.0, tanh_switch=True)", "outputs": [
            {"output_type": "execute_result", "data": data}]})  # fmt: skip
        doc += nodes.raw("", note["text/html"], format="html", classes=["output", "text_html"])  # as myst-nb renders
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}}), encoding="utf-8")
    env = types.SimpleNamespace(doc2path=lambda docname: path)
    app = types.SimpleNamespace(env=env, config=types.SimpleNamespace(ae_edition="en"))
    return app, doc


def test_a_stored_explorer_becomes_the_twin_it_declared(ae_site, tmp_path):
    import html
    import json
    import re

    twins = [
        ("state", {"kind": "state", "args": {"s": 2.0, "tanh_switch": False}}),
        ("state", {"kind": "state", "args": {"s": -1, "tanh_switch": True}}),  # -1 as a JupyterLab save writes -1.0
        ("lab", {"kind": "lab", "args": {"snapshot_sentence": 1}}),
        ("lab", {"kind": "lab", "args": {"sentence": "the cat sees a dog"}}),
    ]
    app, doc = _explorer_page(ae_site, tmp_path, twins)
    ae_site._replace_widgets(app, doc, "lesson")
    page = "".join(n.astext() for n in doc.children)
    divs = re.findall(r'<div class="ae-explorer" id="([\w-]+)" data-explorer="(\w+)" data-args="([^"]*)"', page)
    args = [(i, k, json.loads(html.unescape(a))) for i, k, a in divs]
    # the arguments the explorers declared, not the source of their cells (which says s=0.0, tanh_switch=True)
    assert args[0] == ("ae-live-state", "state", {"s": 2.0, "tanh_switch": False})
    assert args[1] == ("ae-live-state-2", "state", {"s": -1.0, "tanh_switch": True})
    # one laboratory per page, where its first explorer was, started from both explorers' arguments
    assert args[2] == ("ae-live-lab", "lab", {"snapshot_sentence": 1, "sentence": "the cat sees a dog"})
    assert len(args) == 3
    notes = re.findall(r'<div class="ae-notebook-note" role="note"><p>(.*?)</p></div>', page)
    assert len(notes) == 4 and all("make lab" in n for n in notes)
    targets = re.findall(r'href="#([\w-]+)"', " ".join(notes))
    assert targets == ["ae-live-state", "ae-live-state-2", "ae-live-lab", "ae-live-lab"]
    assert "just below" in notes[2] and "earlier on this page" in notes[3]
    assert "ae-explorer-unrun" not in page and "not running" not in page  # the notebook's note is replaced
    assert all(not n.get("classes") for n in doc.children), "the markup stands alone, as the widget view's did"


def test_a_note_without_its_declaration_or_a_stored_widget_view_is_a_build_warning(ae_site, tmp_path, caplog):
    import logging

    from docutils import nodes

    app, doc = _explorer_page(ae_site, tmp_path, [("state", {"kind": "lab", "args": {}}), ("state", None)])
    view = f'<script type="{ae_site.WIDGET_VIEW}">{{"model_id": "ab"}}</script>'
    doc += nodes.raw("", view, format="html")
    with caplog.at_level(logging.WARNING):
        ae_site._replace_widgets(app, doc, "lesson")
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "2 stored explorer notes but 1 twin declarations" in warned
    assert "a stored 'state' explorer note where a 'lab' twin was declared" in warned
    assert "a stored widget view" in warned
    assert ae_site.WIDGET_VIEW not in "".join(n.astext() for n in doc.children)
