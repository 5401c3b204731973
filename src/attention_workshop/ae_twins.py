"""Sphinx extension: the live twins that stand where the notebooks' explorers were, and what they need on a page.

A notebook stores no widget: an explorer's output holds its twin's declaration and a note, "not running: run this
cell" (:mod:`attention_core.explorers.twin`; stored by ``attention_workshop.execute``). At build time each such
note becomes a note saying that the notebook version needs a running kernel (``make lab``) and the live twin the
explorer declared (kind and arguments, read from the executed notebook in cell order): ``_replace_widgets``. No
widget manager or require.js is loaded.

On a page holding ``<div class="ae-explorer" data-explorer="..." data-args="...">``, ``_add_explorers`` adds the
explorer script (after ``ae-ui.js``, the helpers it shares with the laboratory), its styles (``ae-controls.css``,
the controls they share, then ``ae-explorers.css``) and, as an inline JSON script, the parameters exported by
:func:`attention_core.explorers.site.site_parameters` (one source for the numbers, their layout version
``SCHEMA`` among them; works from ``file://`` too). The laboratory of lessons 07 to 09 (``data-explorer="lab"``)
also gets ``ae-lab.js`` and ``ae-lab.css``; its mathematics (``ae-lab-math.js``, ``lab/*.js``), Worker and numbers
(:func:`attention_core.explorers.site.lab_data`, written as ``_static/ae-lab-data.js``) load when it comes into
view (``_add_lab``).

An exercise's check cell is a twin's place too: its metadata holds what its self-check declared
(:mod:`attention_core.checks.declare`, kept there by ``attention_workshop.execute``), and after the cell
``_place_exercises`` puts an answer box (``<div class="ae-exercise" data-box="...">``, the check's numbers for the
page's edition) or, for a check of a reader's function, a note saying how to run it in the notebook. A page with a
box gets ``ae-checks.js``, its styles and, inline, the messages its boxes say
(:func:`attention_core.checks.site.page_parameters`, ``#ae-checks``): ``_add_exercises``.
"""

from __future__ import annotations

import hashlib
import html
import json
import pathlib
import re

from docutils import nodes
from sphinx.util import logging

from attention_core import files
from attention_workshop.execute import WIDGET_VIEW
from attention_workshop.paths import ROOT

logger = logging.getLogger(__name__)


# What the site writes around the explorers, in each edition: attention_core.explorers.site.PAGE (the package's
# messages, translated through its PO files like every other sentence a reader sees).
def _edition(app) -> str:
    """The page's edition: its language code, ``ae_edition`` in the edition's ``_config.yml``."""
    return getattr(app.config, "ae_edition", None) or "en"


def _page_text(key: str, edition: str) -> str:
    from attention_core.explorers.site import PAGE

    return PAGE.text(key, edition)


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


def _place_exercises(app, doctree, docname):
    """After each check cell whose metadata declares its check (``attention_core.checks.site.EXERCISE_KEY``): the
    answer box of a value check, or the note of a check of a reader's function (doctree-resolved). A declaration
    the website cannot use is a build warning (an error under ``-W``) naming the page and the check."""
    from attention_core.checks.site import EXERCISE_KEY, PAGE, Undeclared, box

    edition = _edition(app)
    cells = [
        node
        for node in doctree.findall(nodes.container)
        if node.get("nb_element") == "cell_code" and EXERCISE_KEY in (node.get("cell_metadata") or {})
    ]
    for n, cell in enumerate(cells, 1):
        try:
            made = box(cell["cell_metadata"][EXERCISE_KEY], edition)
        except Undeclared as error:
            logger.warning(f"{docname}: an exercise's declaration: {error}", location=docname)
            continue
        if made is None:
            markup = f'<div class="ae-exercise-note" role="note"><p>{PAGE.text("function_note", edition)}</p></div>'
        else:
            data = html.escape(json.dumps(made, separators=(",", ":"), allow_nan=False, ensure_ascii=False), quote=True)
            needs = html.escape(PAGE.text("needs_js", edition))
            markup = (
                f'<div class="ae-exercise" id="ae-exercise-{n}" data-book="{made["book"]}" data-box="{data}">'
                f"<p>{needs}</p></div>"
            )
        cell.parent.insert(cell.parent.index(cell) + 1, nodes.raw("", markup, format="html"))


def _add_exercises(app, pagename, templatename, context, doctree):
    """A page with answer boxes: ``ae-checks.js`` and the messages its boxes say (``#ae-checks``); their styles are
    every page's (:data:`STYLES`)."""
    body = context.get("body", "")
    if 'class="ae-exercise"' not in body:
        return
    from attention_core.checks.site import page_parameters

    books = set(re.findall(r'<div class="ae-exercise" [^>]*data-book="(\w+)"', body))
    text = json.dumps(page_parameters(books, _edition(app)), separators=(",", ":"), allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")  # safe inside <script>
    app.add_js_file(None, body=text, type="application/json", id="ae-checks")
    app.add_js_file("ae-checks.js", defer="defer")


EXPLORER_PARTS = {"state": "state", "score": "score", "question": "question"}


def _add_explorers(app, pagename, templatename, context, doctree):
    body = context.get("body", "")
    if 'class="ae-explorer"' not in body:
        return
    from attention_core.explorers.site import site_parameters_json  # imported here: only explorer pages need it

    kinds = set(re.findall(r'<div class="ae-explorer"[^>]*data-explorer="(\w+)"', body))
    parts = tuple(sorted({EXPLORER_PARTS[k] for k in kinds if k in EXPLORER_PARTS}))  # only what the page needs
    edition = _edition(app)  # the labels and lesson 01's sentences of the page's language; the same numbers
    app.add_js_file(None, body=site_parameters_json(parts, edition), type="application/json", id="ae-params")
    app.add_js_file("ae-ui.js", defer="defer")  # the helpers ae-explorers.js and ae-lab.js share
    app.add_js_file("ae-explorers.js", defer="defer")
    if "lab" in kinds:  # the laboratory (lessons 07 to 09): its own scripts, on its pages only
        _add_lab(app)


LAB_SCRIPTS = ("ae-lab.js",)  # (defer) it loads the rest when the laboratory first comes into view


def _add_lab(app):
    """The lab's script (its style is every page's: :data:`STYLES`); its numbers in ``_static/ae-lab-data.js``,
    written once per build from :func:`attention_core.explorers.site.lab_data` without the models' parameters (a
    file, not inline JSON: about 0.14 MB, cached by the browser), and each committed model's parameters in a script
    of its own (``ae-lab-model-<name>.js``, 0.30 to 0.35 MB, fetched when the reader first chooses that model). The
    page loads none of them, nor the lab's mathematics (``ae-lab-math.js`` and its parts ``lab/*.js``) nor
    ``ae-lab-worker.js``: ``ae-lab.js`` adds them when the laboratory first comes into view."""
    data = pathlib.Path(app.outdir) / "_static" / "ae-lab-data.js"
    if not getattr(app.builder, "_ae_lab_data", False):
        from attention_core.explorers.site import lab_data_script, lab_model_scripts

        data.parent.mkdir(parents=True, exist_ok=True)
        files.write_text(data, lab_data_script(models_apart=True))
        models = []
        for name, text in lab_model_scripts().items():
            models.append(data.parent / name)
            files.write_text(models[-1], text)
        app.builder._ae_lab_data = _lab_version(data, models)
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
    ]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


STYLES = (  # on every page, after the theme's and the other extensions' (priority 500), in this order
    "ae-controls.css",  # the buttons and radio groups the explorers, the lab and the answer boxes share
    "ae-explorers.css",
    "ae-lab.css",
    "ae-checks.css",  # the answer boxes, and the note where a page has none
)


def setup(app):
    # Every page links the same stylesheets, these included, though only the pages with explorers, the lab or answer
    # boxes use them: the build joins every page's stylesheets into one file (theme_edits.bundle_styles), which
    # must be the same whatever pages an incremental build writes. Each rule is scoped to the ae- classes.
    for name in STYLES:
        app.add_css_file(name, priority=600)
    app.connect("doctree-resolved", _replace_widgets)
    app.connect("doctree-resolved", _place_exercises)
    app.connect("html-page-context", _add_explorers)  # priority 500: before ae_assets' tidying (900)
    app.connect("html-page-context", _add_exercises)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
