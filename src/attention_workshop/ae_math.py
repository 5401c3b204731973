"""Sphinx extension: every formula typeset at build time, so a page ships each one as an inline SVG with its MathML
for screen readers, and no MathJax script (1.1 MiB) or font.

MathJax runs under Node while the pages are written (``ae_math.js``; MathJax is fetched by
``scripts/fetch_assets.sh``): one run per page (``_typeset_page``), each formula's SVG given its size in em
(``_em_sizes``), its paths taken out of MathJax's nested groups (``_flat_svg``) and each glyph's outline written
once per page and drawn with ``<use>`` (``_shared_glyphs``). ``html_math_renderer: ae_static`` in ``_config.yml``
selects this renderer. :func:`print_math` typesets the website's formulas again for the PDFs
(``attention_workshop.build_pdf``).
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import xml.etree.ElementTree as ET

from docutils import nodes
from sphinx.util.math import get_node_equation_number

from attention_workshop.paths import ROOT

HERE = pathlib.Path(__file__).resolve().parent
MATHJAX = ROOT / "_vendor" / "node" / "mathjax"  # the npm package, used by Node at build time only


def _display_tex(node) -> str:
    """The TeX of a display-math node, wrapped as sphinx.ext.mathjax would hand it to MathJax."""
    text = node.astext()
    if node.get("nowrap"):
        return text
    parts = [p for p in text.split("\n\n") if p.strip()]
    parts = [r"\begin{split}" + p + r"\end{split}" if r"\\" in p else p for p in parts]
    if len(parts) > 1:
        return r"\begin{aligned}" + r"\\".join(parts) + r"\end{aligned}"
    return parts[0] if parts else ""


def _typeset(items: list[tuple[str, bool]]) -> tuple[list[str], str]:
    """Typeset ``(tex, display)`` items with MathJax under Node; return their markup (sized in em, its paths out
    of their groups) and the stylesheet."""
    markup, css = _mathjax(items)
    return [_em_sizes(_flat_svg(m)) for m in markup], css


def _mathjax(items: list[tuple[str, bool]], output: str = "svg", font_url: str = "") -> tuple[list[str], str]:
    """MathJax's own markup of ``(tex, display)`` items (``output="svg"``), or of ``(mathml, display)`` items as
    CommonHTML with its fonts at ``font_url`` (``output="chtml"``, for the PDFs), typeset under Node, and its
    stylesheet."""
    if not (MATHJAX / "es5" / "node-main.js").exists():
        raise RuntimeError(f"MathJax for the build is missing at {MATHJAX}: run `make assets`")
    source = "tex" if output == "svg" else "mml"
    job = {
        "mathjax": str(MATHJAX),
        "output": output,
        "fontURL": font_url,
        "items": [{source: text, "display": display} for text, display in items],
    }
    run = subprocess.run(
        ["node", str(HERE / "ae_math.js")], input=json.dumps(job), capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        raise RuntimeError(f"typesetting math with Node failed:\n{run.stderr[-3000:]}")
    out = json.loads(run.stdout)
    return out["html"], out["css"]


PRINT_FONTS = MATHJAX / "es5" / "output" / "chtml" / "fonts" / "woff-v2"  # MathJax's fonts, for the PDFs only


def print_math(items: list[tuple[str, bool]]) -> tuple[list[str], str]:
    """The website's formulas, given by their MathML, typeset again for print (``_mathjax``'s ``chtml``): the
    markup of each and the stylesheet, which loads MathJax's fonts from ``PRINT_FONTS``."""
    return _mathjax(items, "chtml", str(PRINT_FONTS))


# MathJax nests a glyph's path in one <g> per MathML node (a subscript's path sits four or five groups deep), most
# with a transform. A browser lays out and styles every group: about 900 elements on lesson 05's page, for nothing
# the reader sees. ``_flat_svg`` gives each path and rectangle the product of the transforms above it and drops the
# groups that only move. A group that does more (a colour, a table's node, whose lines MathJax's stylesheet selects
# as its children) stays, with its children flattened inside it; an error's node is kept whole, and so is a nested
# <svg> (moved by a group of its own: it takes no transform).
SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)  # written back as <svg xmlns="...">, not <ns0:svg>
_SVG = re.compile(r"<svg\b.*</svg>", re.S)
_MOVE = re.compile(r"(translate|scale|matrix)\(([^)]*)\)")
_PLAIN_GROUP = {"transform", "data-mml-node", "data-mjx-texclass", "data-c"}  # data-c: a glyph drawn in parts
_WHOLE_NODES = {"merror"}  # MathJax's stylesheet selects this group's child groups: kept whole
_KEPT_NODES = {"mtable"}  # and this group's lines and frame: kept, its content flattened inside it
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_SHAPES = {"path", "rect", "line", "text"}  # what MathJax draws with; each takes a transform of its own


def _matrix(transform: str) -> tuple[float, ...]:
    """An SVG ``transform`` list as (a, b, c, d, e, f); only the translate, scale and matrix that MathJax writes."""
    total = IDENTITY
    rest = _MOVE.sub("", transform).strip(" ,")
    if rest:
        raise ValueError(f"a transform MathJax does not write: {transform!r}")
    for kind, args in _MOVE.findall(transform):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip())]
        if kind == "translate":
            m = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif kind == "scale":
            m = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        else:
            m = tuple(v)
        total = _times(total, m)
    return total


def _times(p: tuple[float, ...], q: tuple[float, ...]) -> tuple[float, ...]:
    """The transform that applies ``q`` first, then ``p``."""
    a, b, c, d, e, f = p
    A, B, C, D, E, F = q
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def _as_attribute(m: tuple[float, ...]) -> str | None:
    if max(abs(x - y) for x, y in zip(m, IDENTITY, strict=True)) < 1e-9:
        return None
    return "matrix(" + " ".join(f"{round(x, 4):g}" for x in m) + ")"


def _flatten(group: ET.Element, above: tuple[float, ...], out: ET.Element) -> None:
    """Append ``group``'s content to ``out``, each element moved by ``above`` and the group's own transform."""
    here = _times(above, _matrix(group.get("transform", "")))
    for child in list(group):
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "g" and child.get("data-mml-node") not in _WHOLE_NODES:
            if set(child.attrib) <= _PLAIN_GROUP and child.get("data-mml-node") not in _KEPT_NODES:
                _flatten(child, here, out)
                continue
            own = _times(here, _matrix(child.attrib.pop("transform", "")))
            moved = ET.SubElement(out, child.tag, child.attrib)
            _flatten(child, IDENTITY, moved)
        elif tag in _SHAPES:
            moved, own = child, _times(here, _matrix(child.attrib.pop("transform", "")))
            out.append(moved)
        elif _as_attribute(here) is None:
            moved, own = child, here
            out.append(moved)
        else:  # an error's group, or a nested <svg> (a stretched glyph), which takes no transform: moved as a unit
            moved, own = ET.SubElement(out, f"{{{SVG_NS}}}g"), here
            moved.append(child)
        matrix = _as_attribute(own)
        if matrix:
            moved.set("transform", matrix)


def _flat_svg(markup: str) -> str:
    """MathJax's markup of one formula with its <svg>'s paths out of their groups (see above); the outer group's
    colours move to the <svg>. Everything else, the MathML beside it included, is left as it is."""
    found = _SVG.search(markup)
    if not found:
        return markup
    svg = ET.fromstring(found.group(0))
    (top,) = list(svg)  # <g stroke="currentColor" fill="currentColor" stroke-width="0" transform="scale(1,-1)">
    paints = {k: v for k, v in top.attrib.items() if k != "transform"}
    svg.remove(top)
    svg.attrib.update(paints)
    _flatten(top, IDENTITY, svg)
    flat = ET.tostring(svg, encoding="unicode", short_empty_elements=False)
    return markup[: found.start()] + flat + markup[found.end() :]


# A page draws the same glyphs again and again (lesson 05: 570 paths, 64 different ones): each glyph's outline is
# written once per page, in a hidden <svg> at the top of the article (``GLYPHS``), and every formula draws it with
# <use>. Written inline, the outlines came to 1.7 MB of the English edition's HTML; drawn with <use>, a page
# lays out as fast (measured in Chromium on lesson 05).
GLYPHS = '<svg class="ae-glyphs" aria-hidden="true" style="display:none"><defs>{}</defs></svg>'
_PATH = re.compile(r'<path data-c="([^"]*)" d="([^"]*)"([^>]*)></path>')


def _shared_glyphs(markup: list[str]) -> tuple[list[str], str]:
    """A page's formulas with each glyph's path drawn by ``<use>`` of one definition, and the definitions
    (``GLYPHS``; "" without any). A glyph's id is ``ae-g`` and its character code, with a number for a second
    outline of the same character (a larger size of a bracket). A glyph with no outline (U+2061, the invisible
    function application MathJax puts after "exp") is left out: it draws nothing."""
    ids: dict[str, str] = {}

    def use(found: re.Match) -> str:
        code, outline = found.group(1), found.group(2)
        if not outline:
            return ""
        if outline not in ids:
            taken = sum(1 for name in ids.values() if name.split("-")[2] == code)
            ids[outline] = f"ae-g-{code}" + (f"-{taken}" if taken else "")
        return f'<use data-c="{code}" href="#{ids[outline]}"{found.group(3)}></use>'

    shared = [_PATH.sub(use, m) for m in markup]
    if not ids:
        return shared, ""
    defs = "".join(f'<path id="{name}" d="{outline}"></path>' for outline, name in ids.items())
    return shared, GLYPHS.format(defs)


# MathJax's SVG output states a formula's width, height and baseline in ex, taking an ex to be the x-height of its
# own font: 0.442 em. A browser's ex is the x-height of the text around the formula (larger in the theme's sans-serif
# and different again in a fallback font), so the same formula would be drawn at another size in each; in em, it is
# drawn at the size MathJax computed, in every font.
MATHJAX_EX = 0.442  # em per ex (MathJax's TeX font: x_height)
_EX = re.compile(r'((?:width|height)="|vertical-align: |min-width: )(-?[0-9.]+)ex\b')


def _em_sizes(markup: str) -> str:
    """MathJax's SVG markup with every ex length of the formula's box (``width``, ``height``, ``vertical-align``,
    ``min-width``) given in em."""
    return _EX.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * MATHJAX_EX:.4g}em", markup)


def _typeset_page(app, doctree, docname):
    """Typeset all of a page's math in one Node run before the page is written (doctree-resolved)."""
    if getattr(app.builder, "format", "") != "html" or not hasattr(app.builder, "_ae_math_css"):
        return
    found = [n for n in doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))]
    if not found:
        return
    items = [(_display_tex(n), True) if isinstance(n, nodes.math_block) else (n.astext(), False) for n in found]
    markup, css = _typeset(items)
    markup, glyphs = _shared_glyphs(markup)
    for n, m in zip(found, markup, strict=True):
        n["ae_html"] = m
    app.builder._ae_math_css[docname] = css
    app.builder._ae_glyphs[docname] = glyphs


def _markup(self, node, display: bool) -> str:
    if "ae_html" not in node:  # math outside the page's own doctree (e.g. a title in the navigation)
        tex = _display_tex(node) if display else node.astext()
        markup, css = _typeset([(tex, display)])
        self.builder._ae_math_css_extra.setdefault(self.builder.current_docname, []).append(css)
        return markup[0]
    return node["ae_html"]


def visit_math(self, node):
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    self.body.append(_markup(self, node, False))
    self.body.append("</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    self.body.append(_markup(self, node, True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _math_css(app, pagename, templatename, context, doctree):
    glyphs = app.builder._ae_glyphs.pop(pagename, "")
    if glyphs and "body" in context:
        context["body"] = glyphs + context["body"]
    css = [app.builder._ae_math_css.pop(pagename, "")] + app.builder._ae_math_css_extra.pop(pagename, [])
    css = "\n".join(c for c in css if c)
    if css:
        context["metatags"] = context.get("metatags", "") + f'\n<style id="ae-math-css">{css}</style>'


def _init(app):
    app.builder._ae_math_css = {}
    app.builder._ae_math_css_extra = {}
    app.builder._ae_glyphs = {}


def setup(app):
    app.add_html_math_renderer("ae_static", (visit_math, None), (visit_displaymath, None))
    app.connect("builder-inited", _init)
    app.connect("doctree-resolved", _typeset_page)
    app.connect("html-page-context", _math_css)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
