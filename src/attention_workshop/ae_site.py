"""Local Sphinx extension for the book's website: light pages, live explorers, no dead controls.

- **Math at build time.** Every equation is typeset by MathJax under Node while the page is written
  (``ae_math.js``; MathJax is fetched by ``scripts/fetch_assets.sh``), so a page ships each formula as an inline
  SVG (its size in em, ``_em_sizes``) with its MathML for screen readers, and no MathJax script (1.1 MiB) or font.
- **Live twins where the notebook's explorers were.** A notebook stores no widget: an explorer's output holds its
  twin's declaration and a note, "not running: run this cell" (:mod:`attention_core.explorers.twin`; stored by
  ``attention_workshop.execute``). At build time each such note becomes a note saying that the notebook version
  needs a running kernel (``make lab``) and the live twin the explorer declared (kind and arguments, read from
  the executed notebook in cell order). No widget manager or require.js is loaded.
- **Live explorers.** On pages holding ``<div class="ae-explorer" data-explorer="..." data-args="...">``, adds
  our explorer script (after ``ae-ui.js``, the helpers it shares with the laboratory), its styles
  (``ae-controls.css``, the controls they share, then ``ae-explorers.css``) and, as an inline JSON script, the
  parameters exported by :func:`attention_core.explorers.site.site_parameters` (one source for the numbers; works
  from ``file://`` too). The laboratory of lessons 07 and 08 (``data-explorer="lab"``) also gets
  ``ae-lab.js`` and ``ae-lab.css``; its mathematics (``ae-lab-math.js``, ``lab/*.js``), Worker and numbers
  (:func:`attention_core.explorers.site.lab_data`, written as ``_static/ae-lab-data.js``) load when it comes into
  view. The served ``ae-explorers.js`` gets the parameters' schema version stamped in (``SCHEMA``, one home in
  Python), and the served ``lab/kernels.js`` the lab's matrix product compiled to WebAssembly (``lab/gemm.wat``);
  our scripts are served minified by esbuild (``_slim_scripts``).
- **Light pages.** Drops sphinx-thebe's scripts (no live-kernel button) and duplicated inline scripts, the
  theme's Font Awesome script (1.45 MiB; the icons come from the Font Awesome webfont the theme's stylesheet
  already declares), source maps and assets that no page loads.
- **Figures as files**: the base64 PNGs stored in the notebooks become files under ``_images/``, loaded
  lazily (``loading="lazy"``, with their size reserved), so the HTML is small and paints sooner.
- **Theme weight**: one viewport tag per page, valid ``<summary>`` markup in the code folds, the theme's head
  scripts that wait for the page deferred (``DEFERRED``), the colour theme resolved in the head
  (``_resolved_theme``), one stylesheet per page in place of the ten to thirteen it linked (``_bundle_styles``),
  the theme's tab-stop loop reading every width before it writes (``_theme_tab_stops``), Sphinx's
  documentation_options.js written into each page (``_inline_options``), and a render-blocking link to a mark at
  the end of each page's body, so that Chromium first draws the page once it is parsed (``_render_when_parsed``).
- **Highlighted code with fewer elements** (``plain_formatter``): no span for a token the theme colours as plain
  text, one span for neighbouring tokens coloured alike.
- ``ae-theme-fixes.css`` on every page: dark mode, phones (scroll cues for wide equations and tables); and
  ``ae-site.js``, which gives an equation that scrolls keyboard focus. On the search page, ``ae-search.js``: result
  summaries without the website's controls, and glossary hits titled with their term.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import pathlib
import posixpath
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET

from docutils import nodes
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

HERE = pathlib.Path(__file__).resolve().parent
from attention_workshop.paths import ROOT  # noqa: E402

MATHJAX = ROOT / "_vendor" / "node" / "mathjax"  # the npm package, used by Node at build time only
ESBUILD = ROOT / "_vendor" / "node" / "esbuild" / "esbuild"  # minifies our scripts at build time (make assets)
WABT = ROOT / "_vendor" / "node" / "wabt"  # wat2wasm, run by Node at build time (make assets): compile_wat
GEMM_WAT = ROOT / "book" / "_assets" / "lab" / "gemm.wat"  # the lab's matrix product in WebAssembly (not served)
GEMM_MARK = '"__AE_GEMM_WASM__"'  # in lab/kernels.js: where the served copy gets the compiled bytes (base64)
SCRIPTS = (
    "ae-ui.js",
    "ae-explorers.js",
    "ae-site.js",
    "ae-search.js",
    "ae-lab-math.js",
    "ae-lab-worker.js",
    "ae-lab.js",
)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


# What the site writes around the explorers, in each edition: attention_core.explorers.site.PAGE (the package's
# messages, translated through its PO files like every other sentence a reader sees).
def _edition(app) -> str:
    """The page's edition: its language code, ``ae_edition`` in the edition's ``_config.yml``."""
    return getattr(app.config, "ae_edition", None) or "en"


def _page_text(key: str, edition: str) -> str:
    from attention_core.explorers.site import PAGE

    return PAGE.text(key, edition)


# ---------------------------------------------------------------------------------------------------------
# Math: typeset at build time


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


# ---------------------------------------------------------------------------------------------------------
# Stored ipywidgets: a note and the live twin instead of a control that cannot move


def _declarations(app, docname: str) -> list[dict]:
    """The live twins the notebook's explorers declared in their stored outputs (``attention_core.explorers.twin``),
    in cell order: ``{"kind": ..., "args": {...}}`` each. Read from the executed notebook, never from cell sources."""
    from attention_core.explorers.twin import TWIN_MIME

    cache = app.env._ae_twins = getattr(app.env, "_ae_twins", {})
    if docname not in cache:
        found = []
        try:
            nb = json.loads(pathlib.Path(app.env.doc2path(docname)).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            nb = {}
        for cell in nb.get("cells", []):
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if TWIN_MIME in data:
                    found.append(data[TWIN_MIME])
        cache[docname] = found
    return cache[docname]


def _stored_note(raw) -> str | None:
    """The twin kind named by an explorer's stored note (its ``text/html``, rendered as this raw node), or None."""
    from attention_core.explorers.twin import UNRUN_MARKER

    found = re.match(rf'<div class="ae-explorer-unrun" {UNRUN_MARKER}="([^"]*)">', raw.astext())
    return html.unescape(found.group(1)) if found else None


def _note(target: str, here: bool, edition: str = "en") -> str:
    where = _page_text("below" if here else "above", edition)
    note = _page_text("note", edition).format(target=target, where=where)
    return f'<div class="ae-notebook-note" role="note"><p>{note}</p></div>'


def _needs_js(edition: str) -> str:
    return f"<p>{_page_text('needs_js', edition)}</p>"


INTROS = {"lab": "lab_intro"}  # twins introduced by a paragraph of their own (PAGE); the others by the lesson
ONE_PER_PAGE = ("lab",)  # one twin serves every explorer of this kind on a page, started from all their args


def _twin_markup(twin: dict, placed: dict, edition: str) -> str:
    """The note that replaces a notebook explorer and, the first time its twin is needed, the twin itself.

    Each declaration gets its own twin, started from its ``args`` (``data-args``), except the kinds of
    ``ONE_PER_PAGE``: placed once, where the first explorer of the kind was, and started from the arguments of
    all of them; later ones point back to it. ``placed`` counts the twins of each kind on the page."""
    kind, args = twin["kind"], twin.get("args", {})
    if kind in ONE_PER_PAGE and placed.get(kind):
        return _note(f"ae-live-{kind}", False, edition)
    placed[kind] = placed.get(kind, 0) + 1
    target = f"ae-live-{kind}" if placed[kind] == 1 else f"ae-live-{kind}-{placed[kind]}"
    data = html.escape(json.dumps(args, separators=(",", ":"), allow_nan=False), quote=True)
    intro = f'<p class="ae-explorer-intro">{_page_text(INTROS[kind], edition)}</p>' if kind in INTROS else ""
    div = f'<div class="ae-explorer" id="{target}" data-explorer="{kind}" data-args="{data}">{_needs_js(edition)}</div>'
    return _note(target, True, edition) + intro + div


def _replace_widgets(app, doctree, docname):
    """Replace each explorer's stored note by the site's note and the live twin the explorer declared, the n-th
    note on the page by the n-th declaration of the notebook (doctree-resolved). A stored widget view (a notebook
    executed without ``attention_workshop.execute``), a note whose kind is not its declaration's, or notes and
    declarations that do not pair up are build warnings (errors under ``-W``)."""
    edition = _edition(app)
    twins, placed = _declarations(app, docname), {}
    merged = {}  # kind -> the arguments of all its explorers on the page, in page order
    for twin in twins:
        if twin["kind"] in ONE_PER_PAGE:
            merged.setdefault(twin["kind"], {}).update(twin.get("args", {}))
    twins = [{**t, "args": merged.get(t["kind"], t.get("args", {}))} for t in twins]
    notes = [(raw, kind) for raw in doctree.findall(nodes.raw) if (kind := _stored_note(raw)) is not None]
    if len(notes) != len(twins):
        logger.warning(
            f"{docname}: {len(notes)} stored explorer notes but {len(twins)} twin declarations in the notebook "
            "(execute it with python -m attention_workshop.execute)",
            location=docname,
        )
    for (raw, kind), twin in zip(notes, twins, strict=False):  # unequal counts: warned above
        if kind != twin["kind"]:
            logger.warning(f"{docname}: a stored {kind!r} explorer note where a {twin['kind']!r} twin was declared")
            continue
        markup = nodes.raw("", _twin_markup(twin, placed, edition), format="html")
        raw.replace_self(markup)
        markup["classes"] = []  # replace_self copied the output's classes: no <div class="output text_html"> around it
    for raw in list(doctree.findall(nodes.raw)):
        if raw.astext().startswith(f'<script type="{WIDGET_VIEW}">'):
            logger.warning(
                f"{docname}: a stored widget view (execute the notebook with python -m attention_workshop.execute)",
                location=docname,
            )
            raw.replace_self(nodes.raw("", "", format="html"))


# ---------------------------------------------------------------------------------------------------------
# Scripts and styles of each page


def _tidy_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        name = str(script)
        attrs = getattr(script, "attributes", {})
        body = attrs.get("body", "")
        if "sphinx-thebe" in name or "THEBE_JS_URL" in body or attrs.get("type") == WIDGET_STATE:
            continue
        key = (name, body)
        if key in seen:
            continue
        seen.add(key)
        kept.append(script)
    scripts[:] = kept
    context["css_files"][:] = [c for c in context.get("css_files", []) if "sphinx-thebe" not in str(c)]


EXPLORER_PARTS = {"state": "state", "score": "score", "question": "question"}


def _add_explorers(app, pagename, templatename, context, doctree):
    body = context.get("body", "")
    if 'class="ae-explorer"' not in body:
        return
    from attention_core.explorers.site import site_parameters_json  # imported here: only explorer pages need it

    kinds = set(re.findall(r'<div class="ae-explorer"[^>]*data-explorer="(\w+)"', body))
    parts = tuple(sorted({EXPLORER_PARTS[k] for k in kinds if k in EXPLORER_PARTS}))  # only what the page needs
    app.add_css_file("ae-controls.css")  # the buttons and radio groups the explorers and the lab share
    app.add_css_file("ae-explorers.css")
    edition = _edition(app)  # the labels and lesson 01's sentences of the page's language; the same numbers
    app.add_js_file(None, body=site_parameters_json(parts, edition), type="application/json", id="ae-params")
    app.add_js_file("ae-ui.js", defer="defer")  # the helpers ae-explorers.js and ae-lab.js share
    app.add_js_file("ae-explorers.js", defer="defer")
    if "lab" in kinds:  # the laboratory (lessons 07 and 08): its own scripts, on its pages only
        _add_lab(app)


LAB_SCRIPTS = ("ae-lab.js",)  # (defer) it loads the rest when the laboratory first comes into view


def _add_lab(app):
    """The lab's style and script; its numbers in ``_static/ae-lab-data.js``, written once per build from
    :func:`attention_core.explorers.site.lab_data` without the models' parameters (a file, not inline JSON: about
    0.14 MB, cached by the browser), and each committed model's parameters in a script of its own
    (``ae-lab-model-<name>.js``, 0.30 to 0.35 MB, fetched when the reader first chooses that model). The page loads
    none of them, nor the lab's mathematics (``ae-lab-math.js`` and its parts ``lab/*.js``) nor
    ``ae-lab-worker.js``: ``ae-lab.js`` adds them when the laboratory first comes into view."""
    data = pathlib.Path(app.outdir) / "_static" / "ae-lab-data.js"
    if not getattr(app.builder, "_ae_lab_data", False):
        from attention_core.explorers.site import lab_data_script, lab_model_scripts

        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text(lab_data_script(models_apart=True), encoding="utf-8")
        models = []
        for name, text in lab_model_scripts().items():
            models.append(data.parent / name)
            models[-1].write_text(text, encoding="utf-8")
        app.builder._ae_lab_data = _lab_version(data, models)
    app.add_css_file("ae-lab.css")
    for name in LAB_SCRIPTS:  # the version goes on what ae-lab.js loads (?v=): a new build is not read from a cache
        app.add_js_file(name, defer="defer", **{"data-lab-version": app.builder._ae_lab_data})


def _lab_version(data: pathlib.Path, models: list[pathlib.Path] | tuple = ()) -> str:
    """A short hash of what ``ae-lab.js`` loads later: the lab's data and models, its mathematics and the Worker's
    loop."""
    assets = ROOT / "book" / "_assets"
    files = [
        data,
        *models,
        assets / "ae-lab-math.js",
        assets / "ae-lab-worker.js",
        *sorted((assets / "lab").glob("*.js")),
        GEMM_WAT,
    ]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


def _search_page(app, pagename, templatename, context, doctree):
    """The search page's results: summaries without the website's controls, glossary hits titled with their term
    (``ae-search.js``)."""
    if pagename == "search":
        app.add_js_file("ae-search.js", defer="defer")


# ---------------------------------------------------------------------------------------------------------
# Figures as files: the notebooks store each figure as a base64 PNG inside the page; the page is smaller,
# paints sooner and the browser fetches a figure (once, cacheable) when the reader scrolls near it.

DATA_IMG = re.compile(r'<img ([^>]*?)src="data:image/(png|jpeg|gif);base64,([A-Za-z0-9+/=\s]+)"([^>]*)>')


def _png_size(raw: bytes) -> tuple[int, int] | None:
    if raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR":
        return struct.unpack(">II", raw[16:24])
    return None


def _extract_images(app, pagename, templatename, context, doctree):
    body = context.get("body", "")
    if "data:image/" not in body:
        return
    folder = pathlib.Path(app.outdir) / "_images"
    folder.mkdir(parents=True, exist_ok=True)
    prefix = "../" * pagename.count("/") + "_images/"

    def to_file(match):
        before, kind, data, after = match.groups()
        raw = base64.b64decode(data)
        name = f"ae-{hashlib.sha256(raw).hexdigest()[:20]}.{'jpg' if kind == 'jpeg' else kind}"
        if not (folder / name).exists():
            (folder / name).write_bytes(raw)
        attrs = f'{before}src="{prefix}{name}"{after}'
        size = _png_size(raw)
        if size and "width=" not in attrs:  # the box is reserved before the file arrives: no layout shift
            attrs += f' width="{size[0]}" height="{size[1]}"'
        if "loading=" not in attrs:
            attrs += ' loading="lazy" decoding="async"'
        return f"<img {attrs.strip()}>"

    context["body"] = DATA_IMG.sub(to_file, body)


# ---------------------------------------------------------------------------------------------------------
# After the build: no Font Awesome script, no source maps, no asset that no page loads

FONTAWESOME_TAG = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
# The theme loads Sphinx's search scripts and the whole search index in every page's head (render-blocking)
# for its search-as-you-type option, which this book leaves off: the search page loads its own.
SEARCH_TAGS = re.compile(
    r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>'
)
ICON_RULE = re.compile(r'(?<=})((?:\.fa-[a-z0-9-]+:+before,?)+)\{content:"([^"]*)"\}')
THEME_ICON = re.compile(r'--pst-icon-[a-z-]+:"([^"]*)"')
FONTS = "vendor/fontawesome/webfonts/"
ICON_SUBSET = "fa-solid-900.subset.woff"
UNUSED = (
    "scripts/fontawesome.js",
    "scripts/fontawesome.js.LICENSE.txt",
    "sphinx-thebe.js",
    "sphinx-thebe.css",
    FONTS + "fa-solid-900.woff2",  # replaced by the subset of the icons the pages show
    FONTS + "fa-solid-900.ttf",
    "ae-mathjax2-shim.js",
    "ae-require-config.js",
    "mathjax",  # an earlier build's MathJax scripts
    "mathjax-fonts",  # an earlier build's MathJax fonts (formulas are SVG now)
    "locales",  # the theme's translations: used while building, never by a page
    "images",  # the launch-button logos (the book has no launch buttons)
    "lab/gemm.wat",  # compiled into lab/kernels.js (_slim_scripts)
    "documentation_options.js",  # written into each page (_inline_options)
)


def _codepoints(content: str) -> set[int]:
    """The characters of a CSS ``content`` string (escapes such as ``\\f0c9`` or literal characters)."""
    found = {int(h, 16) for h in re.findall(r"\\([0-9a-fA-F]{1,6})", content)}
    return found | {ord(c) for c in re.sub(r"\\[0-9a-fA-F]{1,6}", "", content)}


def _slim_icons(static: pathlib.Path, used: set[str]) -> None:
    """Keep only the Font Awesome icons the pages show: their CSS rules and a font subset (WOFF) of their glyphs.

    The theme's stylesheet declares about 1,900 icons (85 KB) and a 150 KB solid font for the handful that
    its buttons use (download, full screen, theme switch, search, contents...).
    """
    css_path = static / "styles" / "pydata-sphinx-theme.css"
    ttf = static / FONTS / "fa-solid-900.ttf"
    if not css_path.exists() or not ttf.exists() or ICON_SUBSET in css_path.read_text(encoding="utf-8"):
        return
    from fontTools import subset  # fontTools comes with matplotlib

    css = css_path.read_text(encoding="utf-8")
    glyphs: set[int] = set()

    def keep(match):
        names = re.findall(r"\.(fa-[a-z0-9-]+):", match.group(1))
        if not any(n in used for n in names):
            return ""
        glyphs.update(_codepoints(match.group(2)))
        return match.group(0)

    css = ICON_RULE.sub(keep, css)
    # the icons the theme's own rules draw through custom properties (an admonition's title, an external link)
    for value in THEME_ICON.findall(css):
        glyphs.update(_codepoints(value))
    options = subset.Options()
    options.flavor = "woff"  # zlib-compressed; WOFF2 would need brotli
    font = subset.load_font(str(ttf), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(glyphs))
    subsetter.subset(font)
    subset.save_font(font, str(static / FONTS / ICON_SUBSET), options)
    solid = re.compile(
        r'url\(\.\./vendor/fontawesome/webfonts/fa-solid-900\.woff2\) format\("woff2"\),'
        r'url\(\.\./vendor/fontawesome/webfonts/fa-solid-900\.ttf\) format\("truetype"\)'
    )
    css, n = solid.subn(f'url(../{FONTS}{ICON_SUBSET}) format("woff")', css)
    if n != 1:
        raise RuntimeError("ae_site: the theme's Font Awesome @font-face rule changed; update _slim_icons")
    css_path.write_text(css, encoding="utf-8")


# Reads WebAssembly's text format on stdin and writes the module's bytes (the features of WebAssembly 2.0, SIMD
# among them, are on by default in wabt 1.0.37).
WAT2WASM = r"""
const wabt = require(process.argv[1]);
const text = require("fs").readFileSync(0, "utf8");
wabt().then((w) => {
  const module = w.parseWat("gemm.wat", text);
  module.validate();
  process.stdout.write(Buffer.from(module.toBinary({}).buffer));
});
"""


def compile_wat(text: str) -> bytes:
    """The WebAssembly module of a text in WebAssembly's text format, compiled by wabt's wat2wasm under Node
    (:data:`WABT`)."""
    if not (WABT / "index.js").exists():
        raise RuntimeError(f"wabt for the build is missing at {WABT}: run `make assets`")
    if shutil.which("node") is None:
        raise RuntimeError("Node.js is needed to compile the laboratory's WebAssembly (lab/gemm.wat) with wabt")
    run = subprocess.run(
        ["node", "-e", WAT2WASM, str(WABT / "index.js")], input=text.encode("utf-8"), capture_output=True, check=False
    )
    if run.returncode != 0 or not run.stdout.startswith(b"\0asm"):
        raise RuntimeError(
            f"compiling WebAssembly text with wabt failed:\n{run.stderr.decode(errors='replace')[-3000:]}"
        )
    return run.stdout


def wasm_base64(wat: pathlib.Path) -> str:
    """A .wat file compiled (:func:`compile_wat`), in base64: as the served ``lab/kernels.js`` holds it."""
    return base64.b64encode(compile_wat(wat.read_text(encoding="utf-8"))).decode("ascii")


def _slim_scripts(static: pathlib.Path) -> None:
    """Our scripts as served: minified by esbuild (:data:`ESBUILD`), each file on its own (no bundling: the names
    the page, its parts and the lab's Worker share stay as they are; esbuild parses the scripts, so a ``//`` in a
    string or a template literal is safe). The sources in ``book/_assets`` keep their comments. Minified rather
    than served as written: on lesson 07's page the scripts it loads weigh 27.8 kB gzipped as written, 21.8 kB
    with comment lines and indentation dropped (what this did before) and 17.8 kB minified (99, 75 and 55 kB
    uncompressed); what the lab loads when it comes into view (ae-lab-math.js, its parts and the Worker's loop)
    27.1, 17.9 and 14.0 kB gzipped. Before minifying, the served ``lab/kernels.js`` gets ``lab/gemm.wat`` compiled
    (:func:`compile_wat`, base64) in place of :data:`GEMM_MARK`."""
    paths = [static / name for name in SCRIPTS if (static / name).exists()] + sorted((static / "lab").glob("*.js"))
    explorers = static / "ae-explorers.js"
    if explorers.exists():  # the version of the parameters it reads: one home, in the package
        from attention_core.explorers.site import SCHEMA

        explorers.write_text(explorers.read_text(encoding="utf-8").replace("__AE_SCHEMA__", str(SCHEMA)), "utf-8")
    kernels = static / "lab" / "kernels.js"
    text = kernels.read_text(encoding="utf-8") if kernels.exists() else ""
    if text and not text.startswith(served_head("lab/kernels.js")):  # a build with nothing to do finds it served
        if text.count(GEMM_MARK) != 1:  # the lab's matrix product in WebAssembly, compiled from lab/gemm.wat
            raise RuntimeError(f"ae_site: lab/kernels.js must hold {GEMM_MARK} once, where the compiled gemm.wat goes")
        kernels.write_text(text.replace(GEMM_MARK, f'"{wasm_base64(GEMM_WAT)}"'), encoding="utf-8")
    if not paths:
        return
    if not ESBUILD.exists():
        raise RuntimeError(f"esbuild for the build is missing at {ESBUILD}: run `make assets`")
    command = [str(ESBUILD), *map(str, paths), "--minify", "--charset=utf8", "--log-level=warning"]
    command += [f"--outbase={static}", f"--outdir={static}", "--allow-overwrite"]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0 or run.stderr.strip():
        raise RuntimeError(f"minifying the site's scripts with esbuild failed:\n{run.stderr[-3000:]}")
    for path in paths:
        rel = path.relative_to(static).as_posix()
        path.write_text(served_head(rel) + "\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


def served_head(rel: str) -> str:
    """The first line of one of our scripts as served (``_slim_scripts``)."""
    return f"// {rel}: book/_assets/{rel} in the book's repository (minified by esbuild)"


# Theme weight (issue 33): the theme and Sphinx each write a viewport tag (three per page); one is enough.
VIEWPORT = re.compile(r'\s*<meta name="viewport" content="[^"]*"\s*/?>')
# myst-nb's code folds put <p> in <summary>, which allows phrasing content only: they become <span>s, and the
# stylesheets' selectors for them follow (SUMMARY_CSS).
SUMMARY = re.compile(r"<summary\b[^>]*>.*?</summary>", re.S)
SUMMARY_CSS = (
    (">summary>p.", ">summary>span."),
    ("p.admonition-title~*", ":is(p,summary>span).admonition-title~*"),
)
# Scripts in the head that only act once the page is parsed (each waits for DOMContentLoaded or a click, or is
# used by one that does, in the same order; translations.js, of a translated edition, extends doctools.js's
# Documentation): deferred, so they no longer block the first paint. Not deferred: the search page's scripts, and
# documentation_options.js, which inline scripts of the head extend while the page is parsed: its 13 lines are
# written into the page instead (_inline_options), one request fewer before the first paint (Lighthouse on lesson 07
# as a phone, simulated slow 4G: it listed the file as render-blocking, an estimated saving of 312 ms; now it lists
# only the stylesheet).
DEFERRED = re.compile(
    r'<script((?:\s+[\w-]+="[^"]*")*?\s+src="[^"]*_static/'
    r"(?:doctools|translations|sphinx_highlight|clipboard\.min|copybutton|togglebutton|design-tabs|scripts/sphinx-book-theme)"
    r'\.js(?:\?[^"]*)?")>'
)

OPTIONS_TAG = re.compile(r'<script src="([^"]*_static/documentation_options\.js)(?:\?[^"]*)?"></script>')


def _inline_options(page: pathlib.Path, text: str) -> str:
    """``text`` (the HTML of ``page``) with Sphinx's documentation_options.js written into it, from the file it
    names (each edition's own); unchanged when the page does not load it."""

    def inline(match):
        script = (page.parent / match.group(1)).read_text(encoding="utf-8").strip()
        return f"<script>{script}</script>"

    return OPTIONS_TAG.sub(inline, text, count=1)


# The theme's first script in the head marks the page with the reader's colour mode (light, dark or auto) and, on a
# first visit, the theme "auto" too, which no stylesheet knows; its main script then writes the theme it resolves
# ("light" or "dark") while the page loads, so the style of every element is computed again. On lesson 07 as a
# phone loads it (Chromium, a 412 px viewport, CPU slowed 4x) that took about 0.95 s, in one task of 1.35 s. The head
# script now resolves the theme as the main script will (a mode of auto follows the system's colour scheme), which
# then writes the same value and changes nothing.
THEME_MODE = 'document.documentElement.dataset.theme = localStorage.getItem("theme") || "auto";'
THEME_MODE_RESOLVED = (
    'document.documentElement.dataset.theme = document.documentElement.dataset.mode === "auto" ? '
    '(matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : document.documentElement.dataset.mode;'
)


def _resolved_theme(text: str) -> str:
    return text.replace(THEME_MODE, THEME_MODE_RESOLVED, 1)


# Each page is first drawn once it is parsed (issue 33). Chromium drew a long page while it was still parsing it and
# laid it out again each time the parser went on: in one trace of Chinese lesson 07 with the CPU slowed 4x (as for a
# phone), six tasks of layout work on the growing page, of 44-335 ms each (878 ms in all); Lighthouse counts the part
# of each task beyond 50 ms as blocking time when it comes after the first paint. A render-blocking
# <link rel="expect"> (HTML's "expect" link type) naming a mark at the end of <body> makes the browser wait for the
# mark, so the page is laid out once, before its first paint (in a trace of the same page with the link, one task of
# 964 ms holding a 615 ms layout and the first paint). The reader sees the page later but whole: in Lighthouse on
# that page (mobile, simulated 4x slowdown, 3 runs each, interleaved) the first paint came at 2.0 s instead of 1.4 s
# and the blocking time fell from 220-282 ms to 18-41 ms. With an 8x slowdown (as on a host of about half the speed
# at 4x; 2 runs each) Lighthouse's score showed no clear effect, on that page or on Chinese lesson 05. A browser
# that does not know the link type draws the page as before (Chromium 156 applies it, though its
# relList.supports("expect") is false).
RENDER_WHEN_PARSED = '<link rel="expect" href="#ae-parsed" blocking="render">'
PARSED_MARK = '<span id="ae-parsed" hidden></span>'


def _render_when_parsed(text: str) -> str:
    if PARSED_MARK in text or text.count("</head>") != 1 or text.count("</body>") != 1:
        return text
    text = text.replace("</head>", f"{RENDER_WHEN_PARSED}\n</head>", 1)
    return text.replace("</body>", f"{PARSED_MARK}\n</body>", 1)


def _one_viewport(text: str) -> str:
    first = VIEWPORT.search(text)
    if not first:
        return text
    return text[: first.end()] + VIEWPORT.sub("", text[first.end() :])


def _summary_markup(text: str) -> str:
    def fix(match):
        return re.sub(r"<(/?)p\b", r"<\1span", match.group(0))

    return SUMMARY.sub(fix, text)


def _defer_scripts(text: str) -> str:
    return DEFERRED.sub(lambda m: m.group(0) if "defer" in m.group(1) else f"<script defer{m.group(1)}>", text)


# The theme's tab stops, read before they are written (issue 33). pydata-sphinx-theme gives every code block, output
# or table that scrolls a tab stop (tabindex 0, else -1) when the page has loaded, and again after a resize or after
# elements are added or removed under #main-content (300 ms after the last). It wrote each element's tab index before
# reading the next one's width, and each write made the next read lay the page out again: on lesson 07 with the CPU
# slowed 4x (as for a phone), that handler took 113-136 ms of the main thread once the page had loaded. The build
# rewrites that one loop in the theme's served script to read every width first, then write; the tab stops come out
# the same. A theme whose script no longer has the loop is a build warning (an error in the book's builds), so an
# upgrade is looked at again.
THEME_SCRIPT = "scripts/pydata-sphinx-theme.js"
TAB_STOPS = re.compile(
    r"document\.querySelectorAll\((\[[^\]]*\]\.join\(\", \"\))\)\.forEach\(e=>\{e\.tabIndex="
    r"e\.scrollWidth>e\.clientWidth\|\|e\.scrollHeight>e\.clientHeight\?0:-1\}\)"
)
TAB_STOPS_BATCHED = (
    "(a=>a.map(e=>e.scrollWidth>e.clientWidth||e.scrollHeight>e.clientHeight)"
    ".forEach((w,i)=>{a[i].tabIndex=w?0:-1}))(Array.from(document.querySelectorAll({})))"
)


def _theme_tab_stops(static: pathlib.Path) -> None:
    path = static / THEME_SCRIPT
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if TAB_STOPS_BATCHED.split("{")[0] in text:
        return  # done by this build already (an edition sharing these files)
    new, count = TAB_STOPS.subn(lambda m: TAB_STOPS_BATCHED.replace("{}", m.group(1), 1), text)
    if count != 1:
        found = f"has {count} copies of the theme's tab-stop loop (expected 1)" if text else "is missing"
        names = "TAB_STOPS" if text else "TAB_STOPS and THEME_SCRIPT"
        logger.warning(f"ae_site: _static/{THEME_SCRIPT} {found}; the theme changed: update ae_site.{names}")
        return
    path.write_text(new, encoding="utf-8")


def _summary_css(static: pathlib.Path) -> None:
    for path in static.rglob("*.css"):
        text = path.read_text(encoding="utf-8")
        new = text
        for old, replacement in SUMMARY_CSS:
            if replacement not in new:
                new = new.replace(old, replacement)
        if new != text:
            path.write_text(new, encoding="utf-8")


# One stylesheet per page instead of ten to thirteen (issue 33): every page of an edition links the same stylesheets
# (the theme's, Sphinx's, the extensions' and ours; pages with explorers or the lab a few more, in the same order),
# each a request that must finish before the page is first drawn. A slow phone's network waits for them in turns.
# The build joins them, in the order the fullest page links them, into one file named by its content,
# _static/ae-styles.<hash>.css: the theme's @import is inlined and every relative url(...) rebased to _static/. Each
# page links that file instead, and the separate files are deleted (nothing else names them). Our stylesheets scope
# every rule to the ae- classes, so a page without explorers is styled as before. Measured with Lighthouse (mobile,
# simulated slow 4G, median of 3, interleaved): first contentful paint 3.1 -> 2.6 s on lesson 05, 3.2 -> 2.6 s on 07.
STYLESHEET = re.compile(
    r'<link (?:rel="stylesheet" type="text/css" href="([^"]*_static/[^"]+)" /'
    r'|href="([^"]*_static/[^"]+)" rel="stylesheet" /)>\n?'
)
CSS_URL = re.compile(r"""url\((["']?)([^"')]+)\1\)""")
CSS_IMPORT = re.compile(r'@import "([^"]+)";')


def _css_for_static(static: pathlib.Path, rel: str, joined: set[str]) -> str:
    """The stylesheet ``rel`` (relative to ``static``) as if it sat in ``static`` itself: its relative url(...)s
    rebased, its ``@import "..."``s replaced by the imported files (each rebased the same way). Adds to ``joined``
    every file it read."""
    rel = posixpath.normpath(rel)
    joined.add(rel)
    folder = posixpath.dirname(rel)
    css = (static / rel).read_text(encoding="utf-8")

    def rebased(match):
        url = match.group(2)
        if not folder or url.startswith(("data:", "http:", "https:", "/", "#")):
            return match.group(0)
        return f"url({match.group(1)}{posixpath.normpath(posixpath.join(folder, url))}{match.group(1)})"

    css = CSS_URL.sub(rebased, css)
    return CSS_IMPORT.sub(lambda m: _css_for_static(static, posixpath.join(folder, m.group(1)), joined), css)


def _bundle_styles(out: pathlib.Path) -> str | None:
    """Join the stylesheets the pages of this edition link into one and link it instead (:data:`STYLESHEET`);
    the bundle's name, or None when no page links a stylesheet."""
    static = (out / "_static").resolve()
    pages: dict[pathlib.Path, list[tuple[str, str]]] = {}  # page -> [(href, path under _static)]
    for page in out.rglob("*.html"):
        if "_static" in page.relative_to(out).parts:
            continue
        found = []
        for match in STYLESHEET.finditer(page.read_text(encoding="utf-8")):
            href = match.group(1) or match.group(2)
            target = (page.parent / href.split("?")[0]).resolve()
            if not target.is_relative_to(static):  # another edition's page, bundled by its own build
                found = []
                break
            found.append((href, target.relative_to(static).as_posix()))
        if found:
            pages[page] = found
    if not pages:
        return None
    order = [rel for _, rel in max(pages.values(), key=len)]
    for page, found in pages.items():
        rels = [rel for _, rel in found]
        positions = [order.index(rel) if rel in order else -1 for rel in rels]
        if -1 in positions or positions != sorted(positions):
            raise RuntimeError(
                f"ae_site: {page.relative_to(out)} links stylesheets the fullest page does not, or in "
                f"another order ({', '.join(rels)}); update ae_site._bundle_styles"
            )
    joined: set[str] = set()
    parts = [f"/* {rel} */\n{_css_for_static(static, rel, joined)}" for rel in order]
    text = f"/* ae-styles: {', '.join(order)} (joined by ae_site._bundle_styles) */\n" + "\n".join(parts)
    name = f"ae-styles.{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}.css"
    (static / name).write_text(text, encoding="utf-8")
    for rel in joined:  # no page names them now: each page's stylesheet is the joined one
        (static / rel).unlink()
    for page, found in pages.items():
        href = found[0][0]
        link = f'<link rel="stylesheet" href="{href[: href.index("_static/")]}_static/{name}" />\n'
        first = [True]

        def replace(match, link=link, first=first):
            keep, first[0] = first[0], False
            return link if keep else ""

        page.write_text(STYLESHEET.sub(replace, page.read_text(encoding="utf-8")), encoding="utf-8")
    return name


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    out = pathlib.Path(app.outdir)
    used: set[str] = set()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        slim = FONTAWESOME_TAG.sub("", text)
        if page.name != "search.html" and not app.config.html_theme_options.get("search_as_you_type"):
            slim = SEARCH_TAGS.sub("", slim)
        slim = _resolved_theme(_summary_markup(_one_viewport(slim)))
        if page.name != "search.html":
            slim = _defer_scripts(slim)
        slim = _inline_options(page, slim)
        slim = _render_when_parsed(slim)
        if slim != text:
            page.write_text(slim, encoding="utf-8")
        used.update(re.findall(r"\bfa-[a-z0-9-]+", slim))
    static = out / "_static"
    _summary_css(static)
    _theme_tab_stops(static)
    _slim_icons(static, used)
    _slim_scripts(static)
    for family in ("brands-400", "regular-400"):
        if f"fa-{family.split('-')[0]}" not in used:
            for ext in ("woff2", "ttf"):
                (static / FONTS / f"fa-{family}.{ext}").unlink(missing_ok=True)
    for path in static.rglob("*.map"):
        path.unlink()
    for rel in UNUSED:
        target = static / rel
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()


def _finish_styles(app, exception):
    """After every other build-finished handler (the theme writes its pygments.css in one): the one stylesheet."""
    if exception is None and app.builder.format == "html":
        _bundle_styles(pathlib.Path(app.outdir))


# Highlighted code with fewer elements (issue 33). Pygments wraps every token in a span named by its type, even where
# the colour scheme gives that type the code's own colour, and gives neighbouring tokens of one colour a span each: in
# both of the theme's schemes (pydata-sphinx-theme's a11y-high-contrast light and dark) names (.n), punctuation (.p)
# and whitespace (.w) look exactly like unstyled text, and an f-string's prefix, quotes and braces (.sa, .s2, .si)
# share the operators' colour. Those spans were most of a long lesson's elements, and each is laid out and styled on a
# phone. The formatter below writes no span for a token styled as plain text in both schemes, and gives tokens styled
# alike in both schemes one class (the shortest of theirs), so Pygments joins neighbours into one span. Every
# character keeps its colour in both schemes (tests/site/test_site_extension.py). The schemes are read from the
# theme's options as pydata_sphinx_theme.pygments.overwrite_pygments_css reads them; a scheme Pygments does not know
# leaves every span as it was. The prompt (.gp) keeps its own class: stylesheets select it (not copied with the code);
# so do the classes of a lexer's own token types (myst-nb's ANSI colours in printed output, which myst-nb styles).
KEEP_CLASSES = {"gp"}


def _code_styles(app) -> list[str]:
    options = dict(getattr(app.builder, "theme_options", None) or app.config.html_theme_options or {})
    defaults = app.builder.theme.get_options() if getattr(app.builder, "theme", None) else {}
    return [options.get(key) or defaults.get(key) for key in ("pygments_light_style", "pygments_dark_style")]


def plain_formatter(styles: list[str]):
    """An HtmlFormatter class that writes no span for a token styled like plain text in each of ``styles`` and one
    class for the token types styled alike in each of them."""
    from pygments.formatters import HtmlFormatter
    from pygments.token import STANDARD_TYPES, Text

    try:
        schemes = [HtmlFormatter(style=name) for name in styles]
    except Exception:  # a style Pygments does not have (pydata's fallback then applies): keep every span
        return HtmlFormatter

    def looks(css_class: str) -> tuple[str, ...]:
        """The class's style in each scheme, "" where it is styled as plain text."""
        plain = [scheme.class2style[scheme.ttype2class[Text]][0] for scheme in schemes]
        found = [scheme.class2style.get(css_class, ("",))[0] for scheme in schemes]
        return tuple("" if f == p else f for f, p in zip(found, plain, strict=True))

    standard = set(STANDARD_TYPES.values()) - KEEP_CLASSES - {""}
    shared: dict[tuple[str, ...], str] = {}  # a look -> the shortest class that has it
    for css_class in sorted(standard, key=lambda c: (len(c), c)):
        shared.setdefault(looks(css_class), css_class)

    class PlainTextFormatter(HtmlFormatter):
        def _get_css_classes(self, ttype):
            classes = super()._get_css_classes(ttype)
            if classes not in standard:  # a lexer's own type (myst-nb's ANSI colours, styled by myst-nb): as written
                return classes
            look = looks(classes)
            return "" if look == ("",) * len(schemes) else shared.get(look, classes)

    return PlainTextFormatter


def _init(app):
    app.builder._ae_math_css = {}
    app.builder._ae_math_css_extra = {}
    app.builder._ae_glyphs = {}
    if getattr(app.builder, "highlighter", None) is not None and app.builder.format == "html":
        app.builder.highlighter.formatter = plain_formatter(_code_styles(app))


def setup(app):
    app.add_html_math_renderer("ae_static", (visit_math, None), (visit_displaymath, None))
    app.connect("builder-inited", _init)
    app.connect("doctree-resolved", _replace_widgets)
    app.connect("doctree-resolved", _typeset_page)
    app.connect("html-page-context", _add_explorers)  # priority 500: before _tidy_scripts
    app.connect("html-page-context", _math_css)
    app.connect("html-page-context", _search_page)
    app.connect("html-page-context", _extract_images)
    app.connect("html-page-context", _tidy_scripts, priority=900)
    app.connect("build-finished", _finish)
    app.connect("build-finished", _finish_styles, priority=900)  # after the theme's (500), from the files as served
    app.add_css_file("ae-theme-fixes.css")  # dark mode and phones, on every page
    app.add_js_file("ae-site.js", defer="defer")  # keyboard access to equations that scroll, on every page
    return {"parallel_read_safe": True, "parallel_write_safe": False}
