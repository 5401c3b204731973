"""The book's Sphinx extensions in isolation: math typeset (attention_workshop.ae_math), stored explorers become twins
(ae_twins), highlighted code (ae_code), the theme's tab-stop loop and the render mark (theme_edits)."""

from __future__ import annotations

import pathlib
import re

import pytest


@pytest.fixture(scope="module")
def ae_math():
    from attention_workshop import ae_math

    return ae_math


@pytest.fixture(scope="module")
def ae_twins():
    from attention_workshop import ae_twins

    return ae_twins


@pytest.fixture(scope="module")
def theme_edits():
    from attention_workshop import theme_edits

    return theme_edits


def test_display_math_is_wrapped_as_mathjax_expects(ae_math):
    from docutils import nodes

    one = nodes.math_block("a = b", "a = b", nowrap=False)
    two = nodes.math_block("a = b\n\nc = d", "a = b\n\nc = d", nowrap=False)
    split = nodes.math_block(r"a &= b \\ c &= d", r"a &= b \\ c &= d", nowrap=False)
    raw = nodes.math_block(r"\begin{align}x\end{align}", r"\begin{align}x\end{align}", nowrap=True)
    assert ae_math._display_tex(one) == "a = b"
    assert ae_math._display_tex(two) == r"\begin{aligned}a = b\\c = d\end{aligned}"
    assert ae_math._display_tex(split) == r"\begin{split}a &= b \\ c &= d\end{split}"
    assert ae_math._display_tex(raw) == r"\begin{align}x\end{align}"


def test_typesetting_gives_markup_and_a_stylesheet(ae_math):
    if not (ae_math.MATHJAX / "es5" / "node-main.js").exists():
        pytest.fail("MathJax for the build is missing: run `make assets`")
    markup, css = ae_math._typeset([(r"\alpha_j", False), (r"e_j = v^\top h_j", True)])
    assert len(markup) == 2 and all(m.startswith("<mjx-container") for m in markup)
    assert all("<svg" in m and "<path" in m and "<use" not in m for m in markup), "each glyph a path of its own"
    assert 'display="true"' in markup[1] and "<math" in markup[1], "display math with hidden MathML for readers"
    assert not re.search(r"[0-9]ex\b", "".join(markup)), "sizes in em, not in the browser's ex"
    assert "url(" not in css, "no font to load"


def test_formula_sizes_are_given_in_em(ae_math):
    """MathJax's ex is 0.442 em: a box of 10 ex by 2 ex lowered 1 ex is 4.42 em by 0.884 em lowered 0.442 em; other
    numbers (the viewBox, a path) are left as they are."""
    svg = '<svg style="vertical-align: -1ex;" width="10ex" height="2ex" viewBox="0 -750 4420 884"><path d="M1 2ex"/>'
    assert ae_math._em_sizes(svg) == (
        '<svg style="vertical-align: -0.442em;" width="4.42em" height="0.884em" viewBox="0 -750 4420 884">'
        '<path d="M1 2ex"/>'
    )


# Formulas of every kind the lessons typeset: scripts, fractions, roots, stretchy delimiters, aligned rows, a box,
# accents, text in the Chinese and French editions' letters, a brace drawn in parts, a table with rules.
FORMULAS = [
    (r"e_{ij} = v_a^\top \tanh(W_a s_{i-1} + U_a h_j)", False),
    (r"\alpha_{ij} = \frac{\exp(e_{ij})}{\sum_{k=1}^{T_x} \exp(e_{ik})}", True),
    (
        r"\begin{aligned} c_i &= \sum_j \alpha_{ij} h_j \\ \hat{y} &= \sqrt{\tfrac{1}{d}}\,\left(\frac{a}{b}\right)^2"
        r"\end{aligned}",
        True,
    ),
    (r"\boxed{s = -1} \quad \text{分数} \quad \bar{h} \le \tilde{x}", True),
    (r"\left\lVert \mathbf{W} \right\rVert_2 \approx 0.5245", False),
    (r"e = \underbrace{v^\top W_s s_{t-1} + v^\top b}_{\kappa_t:\ \text{le même}}", True),
    (r"x + \begin{array}{c|c} a & b \\ \hline c & \left[\begin{matrix} 1 \\ 2 \end{matrix}\right]\end{array}", True),
]


def test_flattened_formulas_draw_the_same_pixels(ae_math, chromium_browser):
    """``_flat_svg`` drops MathJax's groups and moves their transforms onto the paths, and ``_shared_glyphs`` draws
    each path from one outline per page: every formula above, drawn
    by Chromium at four times the size, has the same pixels as MathJax's own markup, within anti-aliasing: at most
    0.05 % of the pixels differ by more than 2 grey levels of 255, and none by more than 128 (today: 13 pixels of
    444,768 by up to 8 in the fraction, 7 by up to 40 where the parts of the brace meet; a three-row stretched bracket,
    tried earlier, differed in 129 pixels by up to 65). A flattening that loses one transform (the scripts' scale) is
    caught by the same comparison: thousands of pixels, by 255."""
    import io

    from PIL import Image, ImageChops

    raw, css = ae_math._mathjax(FORMULAS)
    flat = [ae_math._em_sizes(ae_math._flat_svg(m)) for m in raw]
    for markup in flat[:2]:  # no table, no text: nothing but paths and rectangles is left
        assert "<g" not in markup.split("<mjx-assistive-mml")[0], "a group that only moves is left"
    shared, glyphs = ae_math._shared_glyphs(flat)
    broken = [m.replace("matrix(0.707 0 0 -0.707", "matrix(1 0 0 -1") for m in shared]

    page = chromium_browser.new_page(device_scale_factor=4)
    try:

        def shots(markup, glyphs=""):
            body = "".join(f'<div class="f" style="display:inline-block;padding:4px">{m}</div><br>' for m in markup)
            page.set_content(f"<style>{css} body{{font:20px sans-serif}}</style>{glyphs}{body}")
            return [Image.open(io.BytesIO(e.screenshot())).convert("L") for e in page.locator("div.f").all()]

        def same_drawing(a, b) -> tuple[bool, str]:
            if a.size != b.size:
                return False, f"size {a.size} -> {b.size}"
            counts = ImageChops.difference(a, b).histogram()
            largest, off = max(i for i, n in enumerate(counts) if n), sum(counts[3:])
            return largest <= 128 and off <= 0.0005 * a.size[0] * a.size[1], f"{off} pixels off, by up to {largest}"

        reference = shots([ae_math._em_sizes(m) for m in raw])
        for tex, a, b in zip(FORMULAS, reference, shots(shared, glyphs), strict=True):
            same, how = same_drawing(a, b)
            assert same, f"{tex[0]!r} is drawn differently once flattened: {how}"
        seen = [not same_drawing(a, b)[0] for a, b in zip(reference, shots(broken, glyphs), strict=True)]
        assert sum(seen) >= 3, "the comparison cannot see a lost transform"
    finally:
        page.close()


def test_a_page_writes_each_glyph_outline_once(ae_math):
    """Three formulas sharing glyphs: each outline is defined once, every glyph is a <use> of a defined outline (but
    the empty one, which is left out), and two outlines of one character (a bracket in two sizes) get two ids."""
    markup, _ = ae_math._typeset([(r"a + a_a", False), (r"\left(\frac{a}{b}\right)", True), (r"\exp(a)", False)])
    shared, glyphs = ae_math._shared_glyphs(markup)
    outlines = re.findall(r'<path id="([^"]*)" d="([^"]*)"', glyphs)
    ids = [i for i, _ in outlines]
    assert glyphs.startswith('<svg class="ae-glyphs" aria-hidden="true" style="display:none">')
    assert len(ids) == len(set(ids)) and len({d for _, d in outlines}) == len(outlines), "an outline written twice"
    uses = re.findall(r'<use data-c="([^"]*)" href="#([^"]*)"', "".join(shared))
    empty = sum(m.count('d=""') for m in markup)
    assert empty == 1, "exp( has an invisible function application, drawn by an empty path"
    assert "<path" not in "".join(shared) and len(uses) == sum(m.count("<path") for m in markup) - empty
    assert {href for _, href in uses} == set(ids), "an outline no glyph uses, or a glyph without its outline"
    assert {"ae-g-28", "ae-g-28-1"} <= set(ids), "the two sizes of ( share an id"
    assert ae_math._shared_glyphs([]) == ([], "")


def _explorer_page(ae_twins, tmp_path, outputs):
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


def test_a_stored_explorer_becomes_the_twin_it_declared(ae_twins, tmp_path):
    import html
    import json
    import re

    twins = [
        ("state", {"kind": "state", "args": {"s": 2.0, "tanh_switch": False}}),
        ("state", {"kind": "state", "args": {"s": -1, "tanh_switch": True}}),  # -1 as a JupyterLab save writes -1.0
        ("lab", {"kind": "lab", "args": {"snapshot_sentence": 1}}),
        ("lab", {"kind": "lab", "args": {"sentence": "the cat sees a dog"}}),
    ]
    app, doc = _explorer_page(ae_twins, tmp_path, twins)
    ae_twins._replace_widgets(app, doc, "lesson")
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


def test_a_note_without_its_declaration_or_a_stored_widget_view_is_a_build_warning(ae_twins, tmp_path, caplog):
    import logging

    from docutils import nodes

    from attention_workshop.execute import WIDGET_VIEW

    app, doc = _explorer_page(ae_twins, tmp_path, [("state", {"kind": "lab", "args": {}}), ("state", None)])
    view = f'<script type="{WIDGET_VIEW}">{{"model_id": "ab"}}</script>'
    doc += nodes.raw("", view, format="html")
    with caplog.at_level(logging.WARNING):
        ae_twins._replace_widgets(app, doc, "lesson")
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "2 stored explorer notes but 1 twin declarations" in warned
    assert "a stored 'state' explorer note where a 'lab' twin was declared" in warned
    assert "a stored widget view" in warned
    assert WIDGET_VIEW not in "".join(n.astext() for n in doc.children)


THEME_CODE_STYLES = ["a11y-high-contrast-light", "a11y-high-contrast-dark"]  # pydata-sphinx-theme's two schemes


def _styled_characters(markup: str, schemes) -> list[tuple[str, tuple[str, ...]]]:
    """Each character of highlighted code with the style each scheme gives it: its span's class's style, or the
    code's own (plain text's) style outside a span or for a class the scheme does not style."""
    from html.parser import HTMLParser

    from pygments.token import Text

    out: list[tuple[str, tuple[str, ...]]] = []

    def style_of(classes: str) -> tuple[str, ...]:
        styles = []
        for scheme in schemes:
            plain = scheme.class2style[scheme.ttype2class[Text]][0]
            found = [scheme.class2style[c][0] for c in classes.split() if c in scheme.class2style]
            styles.append(found[-1] if found else plain)
        return tuple(styles)

    class Walk(HTMLParser):
        stack = [""]

        def handle_starttag(self, tag, attrs):
            if tag == "span":
                self.stack.append(dict(attrs).get("class", ""))

        def handle_endtag(self, tag):
            if tag == "span":
                self.stack.pop()

        def handle_data(self, data):
            out.extend((ch, style_of(self.stack[-1])) for ch in data)

    Walk(convert_charrefs=True).feed(markup)
    return out


def _lesson_code() -> str:
    import json

    from attention_workshop.paths import ROOT

    cells = []
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                cells.append("".join(cell["source"]))
    return "\n\n".join(cells)


def test_code_without_spans_for_plain_tokens_looks_the_same():
    """The website's code blocks leave names, punctuation and whitespace unwrapped where both of the theme's colour
    schemes style them as plain text, and join neighbouring tokens both schemes colour alike: every character of
    every lesson's code keeps its colour in both schemes, with fewer elements to lay out."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Name

    from attention_workshop.ae_code import plain_formatter

    code, lexer = _lesson_code(), get_lexer_by_name("ipython3")
    schemes = [HtmlFormatter(style=name) for name in THEME_CODE_STYLES]
    theirs = highlight(code, lexer, HtmlFormatter())
    plain = plain_formatter(THEME_CODE_STYLES)
    ours = highlight(code, lexer, plain())
    assert _styled_characters(ours, schemes) == _styled_characters(theirs, schemes)
    assert ours.count("<span") < 0.6 * theirs.count("<span"), (ours.count("<span"), theirs.count("<span"))

    class DropsBuiltins(plain):  # negative control: a formatter that also unwraps print, len, ... (coloured)
        def _get_css_classes(self, ttype):
            return "" if ttype is Name.Builtin else super()._get_css_classes(ttype)

    wrong = highlight(code, lexer, DropsBuiltins())
    assert _styled_characters(wrong, schemes) != _styled_characters(theirs, schemes)
    assert plain_formatter(["no-such-style", THEME_CODE_STYLES[1]]) is HtmlFormatter, "unknown: keep all"
    coloured = highlight("\x1b[31mred\x1b[0m and plain\n", get_lexer_by_name("myst-ansi"), plain())
    assert '<span class=" -Color -Color-Red">red</span>' in coloured, "printed ANSI colours keep myst-nb's classes"
    prompt = highlight(">>> x = 1\n", get_lexer_by_name("pycon"), plain())
    assert '<span class="gp">&gt;&gt;&gt; </span>' in prompt, "a prompt keeps the class that stops it being copied"


def test_the_theme_gives_its_code_the_schemes_the_test_checks():
    """The schemes above are the theme's (pydata-sphinx-theme's theme.conf) and the book does not override them."""
    import configparser

    import pydata_sphinx_theme
    import yaml

    from attention_workshop.paths import ROOT

    conf = configparser.ConfigParser()
    conf.read(pathlib.Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "theme.conf")
    assert [conf["options"][f"pygments_{s}_style"] for s in ("light", "dark")] == THEME_CODE_STYLES
    options = (yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("sphinx") or {}).get("config")
    assert not {"pygments_light_style", "pygments_dark_style"} & set(((options or {}).get("html_theme_options")) or {})


def test_a_page_is_marked_to_be_drawn_once_parsed_and_only_once(theme_edits):
    page = "<html><head><title>t</title></head><body><p>x</p></body></html>"
    once = theme_edits.render_when_parsed(page)
    assert once.index(theme_edits.RENDER_WHEN_PARSED) < once.index("</head>")
    assert once.index(theme_edits.PARSED_MARK) < once.index("</body>") and once.index("<p>x</p>") < once.index(
        theme_edits.PARSED_MARK
    )
    assert theme_edits.render_when_parsed(once) == once  # a build with nothing to do runs it again on the served page
    odd = "<html><head></head><body><script>'</body>'</script></body></html>"  # not sure where the body ends
    assert theme_edits.render_when_parsed(odd) == odd


def test_the_themes_tab_stop_loop_reads_before_it_writes(theme_edits, tmp_path, caplog):
    """_theme_tab_stops rewrites the installed theme's one loop (once, however many editions run it), and a theme
    whose script no longer has that loop, or that no longer has that script, is a build warning naming what to
    update."""
    import pydata_sphinx_theme

    theme = pathlib.Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    served = tmp_path / theme_edits.THEME_SCRIPT
    served.parent.mkdir(parents=True)
    served.write_text((theme / theme_edits.THEME_SCRIPT).read_text(encoding="utf-8"), encoding="utf-8")
    theme_edits.tab_stops(tmp_path)
    once = served.read_text(encoding="utf-8")
    assert "{e.tabIndex=e.scrollWidth" not in once and once.count("(a=>a.map(e=>e.scrollWidth>e.clientWidth") == 1
    theme_edits.tab_stops(tmp_path)
    assert served.read_text(encoding="utf-8") == once and not caplog.records
    served.write_text("document.querySelectorAll('pre').forEach(e=>{e.tabIndex=0})", encoding="utf-8")
    theme_edits.tab_stops(tmp_path)
    served.unlink()
    theme_edits.tab_stops(tmp_path)
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 2 and all("update theme_edits.TAB_STOPS" in w for w in warned), warned
    assert "0 copies" in warned[0] and "is missing" in warned[1]
