"""Local Sphinx extension for the book's website.

- Drops sphinx-thebe's scripts (the book has no live-kernel button; Jupyter Book emits them twice, which
  raises "Identifier 'THEBE_JS_URL' has already been declared") and removes duplicated inline scripts.
- Adds two small scripts of ours for the stored-widget renderer: a require.js path so that it loads its icon
  fonts from ``_static/`` (served by the book, not a CDN), and a shim for the MathJax 2 call it makes.
- On pages holding a live explorer (``<div class="ae-explorer" ...>`` in a markdown cell), adds our explorer
  script and style, and the parameters exported by :func:`attention_core.export.site_parameters` as an inline
  JSON script, so the browser computes with the core's numbers (one source) and works from ``file://`` too.
  Pages with stored ipywidgets get the same script: it gives the widgets' slider handles and frames the
  accessible names and alt text that the stored-widget renderer leaves out.
- Adds ``ae-theme-fixes.css`` to every page: text contrast of cell outputs in the theme's dark mode.
"""

from __future__ import annotations


def _tidy_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        name = str(script)
        body = getattr(script, "attributes", {}).get("body", "")
        if "sphinx-thebe" in name or "THEBE_JS_URL" in body:
            continue
        key = (name, body)
        if key in seen:
            continue
        seen.add(key)
        kept.append(script)
    scripts[:] = kept


def _add_explorers(app, pagename, templatename, context, doctree):
    body = context.get("body", "")
    explorers = 'class="ae-explorer"' in body
    if explorers:
        from attention_core.export import site_parameters_json  # imported here: only explorer pages need it

        app.add_css_file("ae-explorers.css")
        app.add_js_file(None, body=site_parameters_json(), type="application/json", id="ae-params")
    if explorers or "application/vnd.jupyter.widget-view+json" in body:
        # the script also names the stored ipywidgets' slider handles and frames for assistive technology
        app.add_js_file("ae-explorers.js", defer="defer")


def setup(app):
    app.connect("html-page-context", _add_explorers)  # priority 500: before _tidy_scripts
    app.add_css_file("ae-theme-fixes.css")  # dark-mode contrast of cell outputs, on every page
    app.add_js_file("ae-require-config.js", priority=450)  # before the widget manager's require.js
    app.add_js_file("ae-mathjax2-shim.js", priority=600, defer="defer")  # after MathJax itself
    app.connect("html-page-context", _tidy_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
