"""Sphinx extension: what each page carries beside its text, and the served files slimmed once the build is done.

- **Scripts and styles of each page** (``_tidy_scripts``): no sphinx-thebe (no live-kernel button), no widget state,
  no inline script twice; the site's own stylesheet ``ae-theme-fixes.css`` (dark mode, phones: scroll cues for wide
  equations and tables) and ``ae-site.js`` (keyboard focus for an equation that scrolls) on every page; on the search
  page ``ae-search.js`` (result summaries without the website's controls, glossary hits titled with their term).
- **Figures as files** (``_extract_images``): the base64 PNGs stored in the notebooks become files under
  ``_images/``, loaded lazily with their size reserved, so the HTML is small and paints sooner.
- **The search index whole after an incremental build** (``_index_pages_read_again``): the pages holding index
  entries (the glossary's terms) are read again whenever a build reads any page.
- **Our scripts minified** by esbuild (``_slim_scripts``), and nothing served that no page loads (``UNUSED``,
  source maps).
"""

from __future__ import annotations

import base64
import hashlib
import pathlib
import re
import shutil
import struct
import subprocess

from attention_core import files
from attention_workshop.paths import ROOT

ESBUILD = ROOT / "_vendor" / "node" / "esbuild" / "esbuild"  # minifies our scripts at build time (make assets)
SCRIPTS = (
    "ae-ui.js",
    "ae-explorers.js",
    "ae-checks.js",
    "ae-site.js",
    "ae-search.js",
    "ae-lab-math.js",
    "ae-lab-worker.js",
    "ae-lab.js",
)
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
UNUSED = (  # what the build copies and no page loads
    "sphinx-thebe.js",
    "sphinx-thebe.css",
    "ae-mathjax2-shim.js",
    "ae-require-config.js",
    "mathjax",  # an earlier build's MathJax scripts
    "mathjax-fonts",  # an earlier build's MathJax fonts (formulas are SVG now)
    "locales",  # the theme's translations: used while building, never by a page
    "images",  # the launch-button logos (the book has no launch buttons)
    "lab/gemm.wat",  # the text lab/wasm.js is compiled from (attention_workshop.gemm_wasm)
)


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


def _search_page(app, pagename, templatename, context, doctree):
    """The search page's results: summaries without the website's controls, glossary hits titled with their term
    (``ae-search.js``)."""
    if pagename == "search":
        app.add_js_file("ae-search.js", defer="defer")


def _index_pages_read_again(app, env, added, changed, removed):
    """The pages holding index entries (the glossary: each term is one), read again by every build that reads a page.

    Sphinx 7.4 writes the search index from the index it loads from the last build's ``searchindex.js`` and the
    pages it writes, but loading keeps no index entries (``IndexBuilder.load``): the pages a build does not write
    lose theirs. An incremental build then served a search index without the glossary's entries (175 in the English
    edition, the only page with any), so a search for a term no longer led to its definition (sphinx-doc/sphinx#12599,
    open, no fix or workaround given there; ``tests/site/test_site_incremental.py``). A page read again is written
    again and gives its entries back; the glossary is one short page. A build that reads no page writes none and keeps
    the index it has (unless a page's HTML was deleted from the output: it is written again, and the glossary's
    entries would then be lost)."""
    if not (added or changed or removed):
        return []
    entries = env.get_domain("index").entries
    return sorted(doc for doc, found in entries.items() if found and doc in env.found_docs and doc not in removed)


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
            files.write_bytes(folder / name, raw)
        attrs = f'{before}src="{prefix}{name}"{after}'
        size = _png_size(raw)
        if size and "width=" not in attrs:  # the box is reserved before the file arrives: no layout shift
            attrs += f' width="{size[0]}" height="{size[1]}"'
        if "loading=" not in attrs:
            attrs += ' loading="lazy" decoding="async"'
        return f"<img {attrs.strip()}>"

    context["body"] = DATA_IMG.sub(to_file, body)


def _slim_scripts(static: pathlib.Path, sources: pathlib.Path) -> None:
    """Our scripts as served: each minified by esbuild (:data:`ESBUILD`) from its source in ``sources`` (the book's
    ``html_static_path``, ``book/_assets``) into ``static``, on its own (no bundling: the names the page, its parts and
    the lab's Worker share stay as they are; esbuild parses the scripts, so a ``//`` in a string or a template literal
    is safe). The sources keep their comments. Minified rather than served as written: on lesson 07's page the scripts
    it loads weigh 27.8 kB gzipped as written, 21.8 kB with comment lines and indentation dropped (what this did
    before) and 17.8 kB minified (99, 75 and 55 kB uncompressed); what the lab loads when it comes into view
    (ae-lab-math.js, its parts and the Worker's loop) 27.1, 17.9 and 14.0 kB gzipped. Nothing else changes: no
    placeholder is stamped into a served script.

    Always from the sources, never from what ``static`` holds: a build with no page to write copies no static file,
    so ``static`` then still holds the last build's minified scripts, and minifying those again gave other names to
    the same variables (``tests/site/test_site_incremental.py``). What is served is a function of the sources."""
    paths = [sources / name for name in SCRIPTS if (sources / name).exists()] + sorted((sources / "lab").glob("*.js"))
    if not paths:
        return
    if not ESBUILD.exists():
        raise RuntimeError(f"esbuild for the build is missing at {ESBUILD}: run `make assets`")
    command = [str(ESBUILD), *map(str, paths), "--minify", "--charset=utf8", "--log-level=warning"]
    command += [f"--outbase={sources}", f"--outdir={static}", "--allow-overwrite"]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0 or run.stderr.strip():
        raise RuntimeError(f"minifying the site's scripts with esbuild failed:\n{run.stderr[-3000:]}")
    for path in paths:
        rel = path.relative_to(sources).as_posix()
        served = static / rel
        files.write_text(served, served_head(rel) + "\n" + served.read_text(encoding="utf-8"))


def minify_css(text: str) -> str:
    """``text`` (a stylesheet) minified by esbuild (:data:`ESBUILD`), read from its standard input: comments and
    white space dropped, colours and numbers written short, nothing bundled (a ``url(...)`` is left as written).
    The joined stylesheet (``theme_edits.bundle_styles``, after lesson 09) weighed 490.0 kB as joined, 455.2 kB
    minified (77.4 and 68.4 kB gzipped): most of it is the theme's stylesheet, minified already. A stylesheet esbuild
    warns about (a rule it cannot parse, a misplaced ``@charset``) stops the build with esbuild's words."""
    if not ESBUILD.exists():
        raise RuntimeError(f"esbuild for the build is missing at {ESBUILD}: run `make assets`")
    command = [str(ESBUILD), "--loader=css", "--minify", "--charset=utf8", "--log-level=warning"]
    run = subprocess.run(command, input=text, capture_output=True, text=True, encoding="utf-8", check=False)
    if run.returncode != 0 or run.stderr.strip():
        raise RuntimeError(f"minifying the site's stylesheet with esbuild failed:\n{run.stderr[-3000:]}")
    return run.stdout


def served_head(rel: str) -> str:
    """The first line of one of our scripts as served (``_slim_scripts``)."""
    return f"// {rel}: book/_assets/{rel} in the book's repository (minified by esbuild)"


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = pathlib.Path(app.outdir) / "_static"
    for folder in app.config.html_static_path:  # the book's: book/_assets
        _slim_scripts(static, pathlib.Path(app.confdir, folder))
    for path in static.rglob("*.map"):
        path.unlink()
    for rel in UNUSED:
        target = static / rel
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()


def setup(app):
    app.connect("env-get-outdated", _index_pages_read_again)
    app.connect("html-page-context", _search_page)
    app.connect("html-page-context", _extract_images)
    app.connect("html-page-context", _tidy_scripts, priority=900)  # after the twins' scripts are added (500)
    app.connect("build-finished", _finish)
    app.add_css_file("ae-theme-fixes.css")  # dark mode and phones, on every page
    app.add_js_file("ae-site.js", defer="defer")  # keyboard access to equations that scroll, on every page
    return {"parallel_read_safe": True, "parallel_write_safe": False}
