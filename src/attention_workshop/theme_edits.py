"""Every edit the book makes to what the pinned theme (sphinx-book-theme 1.3.0 on pydata-sphinx-theme 0.17.1, with
Sphinx 7.4 and myst-nb) writes, in one place: one function per edit, each with a detector, ``find_<edit>(page,
static)``, that counts its target in a page as the theme wrote it and in its served files (``_static``).

A theme upgrade can move a target (a tag written otherwise, a minified loop rewritten), and the edit would then do
nothing, silently: ``tests/site/test_theme_edits.py`` builds a one-page book with the installed theme and no edit,
checks that every detector finds what ``EXPECTED`` says, and that after the edits it finds what they leave. The
build applies them to each page (:func:`edit_page`), then to the served files (:func:`edit_static`), then joins the
stylesheets (:func:`bundle_styles`); ``ae_theme_edits`` (a Sphinx setting) lists the edits a build applies,
:data:`DEFAULT` unless set: every edit but ``render_when_parsed``, which delays the first paint to lower a
blocking-time figure (``python -m attention_workshop.bench_lighthouse`` measures the site with and without it).
Each edit's comment says why it is kept. Dropped: a second and third viewport tag (Sphinx's and both themes'
layouts each write one, identical in effect: removing them changed nothing a reader or Lighthouse sees).
"""

from __future__ import annotations

import hashlib
import pathlib
import posixpath
import re

from sphinx.util import logging

from attention_core import files
from attention_workshop.ae_assets import minify_css

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------------------
# summary: myst-nb's code folds put <p> in <summary>, which allows phrasing content only: they become <span>s, and
# the stylesheets' selectors for them follow (SUMMARY_CSS: myst-nb's mystnb.css and the theme's admonition rule).
SUMMARY = re.compile(r"<summary\b[^>]*>.*?</summary>", re.S)
SUMMARY_CSS = (
    (">summary>p.", ">summary>span."),
    ("p.admonition-title~*", ":is(p,summary>span).admonition-title~*"),
)


def find_summary(page: str, static: pathlib.Path) -> int:
    """The code folds' summaries holding a paragraph, and the stylesheets' selectors of them."""
    folds = sum(1 for s in SUMMARY.findall(page) if re.search(r"<p\b", s))
    css = "".join(path.read_text(encoding="utf-8") for path in static.rglob("*.css"))
    return folds + sum(1 for old, _ in SUMMARY_CSS if old in css)


def summary(text: str) -> str:
    return SUMMARY.sub(lambda m: re.sub(r"<(/?)p\b", r"<\1span", m.group(0)), text)


def summary_css(static: pathlib.Path) -> None:
    for path in static.rglob("*.css"):
        text = path.read_text(encoding="utf-8")
        new = text
        for old, replacement in SUMMARY_CSS:
            if replacement not in new:
                new = new.replace(old, replacement)
        if new != text:
            files.write_text(path, new)


# ---------------------------------------------------------------------------------------------------------
# search_scripts: the theme loads Sphinx's search scripts and the whole search index in every page's head
# (render-blocking) for its search-as-you-type option, which this book leaves off: the search page loads its own.
SEARCH_TAGS = re.compile(
    r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>'
)


def find_search_scripts(page: str, static: pathlib.Path) -> int:
    return len(SEARCH_TAGS.findall(page))


def search_scripts(text: str) -> str:
    return SEARCH_TAGS.sub("", text)


# ---------------------------------------------------------------------------------------------------------
# defer: scripts in the head that only act once the page is parsed (each waits for DOMContentLoaded or a click, or
# is used by one that does, in the same order; translations.js, of a translated edition, extends doctools.js's
# Documentation): deferred, so they no longer block the first paint. Not deferred: the search page's scripts, and
# documentation_options.js, which inline scripts of the head extend while the page is parsed (``options``).
DEFERRED = re.compile(
    r'<script((?:\s+[\w-]+="[^"]*")*?\s+src="[^"]*_static/'
    r"(?:doctools|translations|sphinx_highlight|clipboard\.min|copybutton|togglebutton|design-tabs|scripts/sphinx-book-theme)"
    r'\.js(?:\?[^"]*)?")>'
)


def find_defer(page: str, static: pathlib.Path) -> int:
    return sum(1 for m in DEFERRED.finditer(page) if "defer" not in m.group(1))


def defer(text: str) -> str:
    return DEFERRED.sub(lambda m: m.group(0) if "defer" in m.group(1) else f"<script defer{m.group(1)}>", text)


# ---------------------------------------------------------------------------------------------------------
# options: documentation_options.js (13 lines) written into each page, one request fewer before the first paint
# (Lighthouse on lesson 07 as a phone, simulated slow 4G, listed the file as render-blocking, an estimated saving of
# 312 ms; now it lists only the stylesheet).
OPTIONS_TAG = re.compile(r'<script src="([^"]*_static/documentation_options\.js)(?:\?[^"]*)?"></script>')


def find_options(page: str, static: pathlib.Path) -> int:
    return len(OPTIONS_TAG.findall(page))


def options(text: str, page: pathlib.Path) -> str:
    """``text`` (the HTML of ``page``) with the documentation_options.js it names (its edition's own) written in."""

    def inline(match):
        script = (page.parent / match.group(1)).read_text(encoding="utf-8").strip()
        return f"<script>{script}</script>"

    return OPTIONS_TAG.sub(inline, text, count=1)


# ---------------------------------------------------------------------------------------------------------
# theme_mode: the theme's first script in the head marks the page with the reader's colour mode (light, dark or auto)
# and, on a first visit, the theme "auto" too, which no stylesheet knows; its main script then writes the theme it
# resolves ("light" or "dark") while the page loads, so the style of every element is computed again. On lesson 07
# as a phone loads it (Chromium, a 412 px viewport, CPU slowed 4x) that took about 0.95 s, in one task of 1.35 s.
# The head script now resolves the theme as the main script will (a mode of auto follows the system's colour
# scheme), which then writes the same value and changes nothing.
THEME_MODE = 'document.documentElement.dataset.theme = localStorage.getItem("theme") || "auto";'
THEME_MODE_RESOLVED = (
    'document.documentElement.dataset.theme = document.documentElement.dataset.mode === "auto" ? '
    '(matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : document.documentElement.dataset.mode;'
)


def find_theme_mode(page: str, static: pathlib.Path) -> int:
    return page.count(THEME_MODE)


def theme_mode(text: str) -> str:
    return text.replace(THEME_MODE, THEME_MODE_RESOLVED, 1)


# ---------------------------------------------------------------------------------------------------------
# render_when_parsed (off by default): Chromium draws a long page while it is still parsing it and lays it out again
# each time the parser goes on: in one trace of Chinese lesson 07 with the CPU slowed 4x, six tasks of layout work of
# 44-335 ms each; Lighthouse counts the part of each task beyond 50 ms after the first paint as blocking time. A
# render-blocking <link rel="expect"> (HTML's "expect" link type) naming a mark at the end of <body> makes Chromium
# wait for the mark, so the page is laid out once, before its first paint. The reader sees the page later: the
# blocking time falls, the first paint comes later (the figures with and without it: bench_lighthouse). Only
# Chromium applies it (156 does, though its relList.supports("expect") is false).
RENDER_WHEN_PARSED = '<link rel="expect" href="#ae-parsed" blocking="render">'
PARSED_MARK = '<span id="ae-parsed" hidden></span>'


def find_render_when_parsed(page: str, static: pathlib.Path) -> int:
    """1 where the page has one head and one body to mark, else 0."""
    return int(page.count("</head>") == 1 and page.count("</body>") == 1)


def render_when_parsed(text: str) -> str:
    if PARSED_MARK in text or text.count("</head>") != 1 or text.count("</body>") != 1:
        return text
    text = text.replace("</head>", f"{RENDER_WHEN_PARSED}\n</head>", 1)
    return text.replace("</body>", f"{PARSED_MARK}\n</body>", 1)


# ---------------------------------------------------------------------------------------------------------
# icons: the theme's Font Awesome script (1.45 MiB, icons as inline SVG) is dropped: the icons come from the Font
# Awesome webfont its stylesheet already declares, cut to the icons the pages show (the stylesheet declares about
# 1,900 icons, 85 KB, and a 150 KB solid font for the handful its buttons use).
FONTAWESOME_TAG = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
ICON_RULE = re.compile(r'(?<=})((?:\.fa-[a-z0-9-]+:+before,?)+)\{content:"([^"]*)"\}')
THEME_ICON = re.compile(r'--pst-icon-[a-z-]+:"([^"]*)"')
THEME_CSS = "styles/pydata-sphinx-theme.css"
FONTS = "vendor/fontawesome/webfonts/"
ICON_SUBSET = "fa-solid-900.subset.woff"
SOLID_FONT = re.compile(
    r'url\(\.\./vendor/fontawesome/webfonts/fa-solid-900\.woff2\) format\("woff2"\),'
    r'url\(\.\./vendor/fontawesome/webfonts/fa-solid-900\.ttf\) format\("truetype"\)'
)
ICON_FILES = (  # what no page loads once the icons come from the subset font
    "scripts/fontawesome.js",
    "scripts/fontawesome.js.LICENSE.txt",
    FONTS + "fa-solid-900.woff2",
    FONTS + "fa-solid-900.ttf",
)


def find_icons(page: str, static: pathlib.Path) -> int:
    """The Font Awesome script tag in the page, and the solid font's @font-face rule in the theme's stylesheet."""
    css = static / THEME_CSS
    rule = len(SOLID_FONT.findall(css.read_text(encoding="utf-8"))) if css.exists() else 0
    return len(FONTAWESOME_TAG.findall(page)) + rule


def icons_tag(text: str) -> str:
    return FONTAWESOME_TAG.sub("", text)


def _codepoints(content: str) -> set[int]:
    """The characters of a CSS ``content`` string (escapes such as ``\\f0c9`` or literal characters)."""
    found = {int(h, 16) for h in re.findall(r"\\([0-9a-fA-F]{1,6})", content)}
    return found | {ord(c) for c in re.sub(r"\\[0-9a-fA-F]{1,6}", "", content)}


def icons(static: pathlib.Path, used: set[str]) -> None:
    """Keep only the Font Awesome icons the pages show (``used``: their class names): their CSS rules and a font
    subset (WOFF) of their glyphs; the regular and brands fonts go when no page shows one of their icons."""
    css_path = static / THEME_CSS
    ttf = static / FONTS / "fa-solid-900.ttf"
    if css_path.exists() and ttf.exists() and ICON_SUBSET not in css_path.read_text(encoding="utf-8"):
        _subset_icons(css_path, ttf, used)
    for rel in ICON_FILES:
        (static / rel).unlink(missing_ok=True)
    for family in ("brands-400", "regular-400"):
        if f"fa-{family.split('-')[0]}" not in used:
            for ext in ("woff2", "ttf"):
                (static / FONTS / f"fa-{family}.{ext}").unlink(missing_ok=True)


def _subset_icons(css_path: pathlib.Path, ttf: pathlib.Path, used: set[str]) -> None:
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
    subset.save_font(font, str(ttf.parent / ICON_SUBSET), options)
    css, n = SOLID_FONT.subn(f'url(../{FONTS}{ICON_SUBSET}) format("woff")', css)
    if n != 1:
        raise RuntimeError("theme_edits: the theme's Font Awesome @font-face rule changed; update SOLID_FONT")
    files.write_text(css_path, css)


# ---------------------------------------------------------------------------------------------------------
# tab_stops: pydata-sphinx-theme gives every code block, output or table that scrolls a tab stop (tabindex 0, else
# -1) when the page has loaded, and again after a resize or after elements are added or removed under #main-content.
# It wrote each element's tab index before reading the next one's width, and each write made the next read lay the
# page out again: on lesson 07 with the CPU slowed 4x, that handler took 113-136 ms of the main thread once the page
# had loaded. The build rewrites that one loop of the theme's minified script to read every width first, then
# write; the tab stops come out the same (tests/site/test_site_browser.py).
THEME_SCRIPT = "scripts/pydata-sphinx-theme.js"
TAB_STOPS = re.compile(
    r"document\.querySelectorAll\((\[[^\]]*\]\.join\(\", \"\))\)\.forEach\(e=>\{e\.tabIndex="
    r"e\.scrollWidth>e\.clientWidth\|\|e\.scrollHeight>e\.clientHeight\?0:-1\}\)"
)
TAB_STOPS_BATCHED = (
    "(a=>a.map(e=>e.scrollWidth>e.clientWidth||e.scrollHeight>e.clientHeight)"
    ".forEach((w,i)=>{a[i].tabIndex=w?0:-1}))(Array.from(document.querySelectorAll({})))"
)


def find_tab_stops(page: str, static: pathlib.Path) -> int:
    path = static / THEME_SCRIPT
    return len(TAB_STOPS.findall(path.read_text(encoding="utf-8"))) if path.exists() else 0


def tab_stops(static: pathlib.Path) -> None:
    path = static / THEME_SCRIPT
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if TAB_STOPS_BATCHED.split("{")[0] in text:
        return  # done by this build already (an edition sharing these files)
    new, count = TAB_STOPS.subn(lambda m: TAB_STOPS_BATCHED.replace("{}", m.group(1), 1), text)
    if count != 1:
        found = f"has {count} copies of the theme's tab-stop loop (expected 1)" if text else "is missing"
        logger.warning(f"theme_edits: _static/{THEME_SCRIPT} {found}; the theme changed: update theme_edits.TAB_STOPS")
        return
    files.write_text(path, new)


# ---------------------------------------------------------------------------------------------------------
# styles: one stylesheet per page instead of ten to thirteen. Every page of an edition links the same stylesheets
# (the theme's, Sphinx's, the extensions' and ours: ae_twins adds the explorers', the lab's and the answer boxes' to
# every page, not only to the pages that show them), each a request that must finish before the page is first drawn.
# The build joins them, in the order the pages link them, into one file named by its content,
# _static/ae-styles.<hash>.css: the theme's @import is inlined and every relative url(...) rebased to _static/. Each
# page links that file instead, and the separate files are deleted (nothing else names them). Our stylesheets scope
# every rule to the ae- classes, so a page without explorers is styled as before. Measured with Lighthouse (mobile,
# simulated slow 4G, median of 3, interleaved): first contentful paint 3.1 -> 2.6 s on lesson 05, 3.2 -> 2.6 s on 07.
# An incremental build writes only some pages: since each page links the same stylesheets, any one of them gives
# the same bundle, the pages it did not write are linked to that bundle too, and no other ae-styles file is kept.
STYLESHEET = re.compile(
    r'<link (?:rel="stylesheet" type="text/css" href="([^"]*_static/[^"]+)" /'
    r'|href="([^"]*_static/[^"]+)" rel="stylesheet" /)>\n?'
)
BUNDLE = re.compile(r'<link rel="stylesheet" href="([^"]*_static/)(ae-styles\.[0-9a-f]{8}\.css)" />')
BUNDLE_HEAD = re.compile(r"/\* ae-styles: (.*) \(joined by theme_edits\.bundle_styles\) \*/")  # what it joined
CSS_URL = re.compile(r"""url\((["']?)([^"')]+)\1\)""")
CSS_IMPORT = re.compile(r'@import "([^"]+)";')
# A joined file's own @charset (two of the theme's): valid only as a file's first rule, so ignored by a browser
# inside the bundle, and refused by esbuild there; the bundle is UTF-8, as the pages that link it are.
CSS_CHARSET = re.compile(r'@charset "[^"]*";\n?')


def find_styles(page: str, static: pathlib.Path) -> int:
    return len(STYLESHEET.findall(page))


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
    css = CSS_CHARSET.sub("", css)
    return CSS_IMPORT.sub(lambda m: _css_for_static(static, posixpath.join(folder, m.group(1)), joined), css)


def _links(page: pathlib.Path, static: pathlib.Path, pattern: re.Pattern) -> list[tuple[str, str]] | None:
    """The stylesheets ``page`` links that ``pattern`` matches: (href, path under ``static``) each; None when one of
    them is not in ``static`` (another edition's page, bundled by its own build)."""
    found = []
    for match in pattern.finditer(page.read_text(encoding="utf-8")):
        href = "".join(match.group(i) for i in range(1, (match.lastindex or 0) + 1) if match.group(i))
        target = (page.parent / href.split("?")[0]).resolve()
        if not target.is_relative_to(static):
            return None
        found.append((href, target.relative_to(static).as_posix()))
    return found


def bundle_styles(out: pathlib.Path) -> str | None:
    """Join the stylesheets the pages of this edition link into one and link it instead (:data:`STYLESHEET`);
    the bundle's name, or None when no page links a stylesheet.

    The pages this build wrote link the separate stylesheets; each page links the same ones (a page may link
    fewer, in the same order), so the bundle is the same whatever pages a build writes. The pages it did not write
    link an earlier build's bundle (:data:`BUNDLE`): they are linked to this one, and every other bundle is deleted.
    A build that wrote no page leaves the bundle it finds, and deletes what it joined again (:data:`BUNDLE_HEAD`)."""
    static = (out / "_static").resolve()
    html = [page for page in out.rglob("*.html") if "_static" not in page.relative_to(out).parts]
    pages = {page: found for page in html if (found := _links(page, static, STYLESHEET))}
    bundled = {page: found for page in html if (found := _links(page, static, BUNDLE))}
    if not pages:
        names = {rel for found in bundled.values() for _, rel in found}
        if len(names) != 1 or not (static / (name := names.pop())).is_file():
            return None
        # Written again by build-finished handlers though no page was (the theme's pygments.css, myst-nb's
        # stylesheet): no page links them, as after the build that made the bundle.
        head = BUNDLE_HEAD.match((static / name).read_text(encoding="utf-8"))
        joined: set[str] = set()
        for rel in head.group(1).split(", ") if head else ():
            if (static / rel).is_file():
                _css_for_static(static, rel, joined)
        for rel in joined:
            (static / rel).unlink()
        return name
    order = [rel for _, rel in max(pages.values(), key=len)]
    for page, found in pages.items():
        rels = [rel for _, rel in found]
        positions = [order.index(rel) if rel in order else -1 for rel in rels]
        if -1 in positions or positions != sorted(positions):
            raise RuntimeError(
                f"theme_edits: {page.relative_to(out)} links stylesheets the fullest page does not, or in "
                f"another order ({', '.join(rels)}); update theme_edits.bundle_styles"
            )
    joined: set[str] = set()
    parts = [f"/* {rel} */\n{_css_for_static(static, rel, joined)}" for rel in order]
    # Minified after the other edits (summary_css, icons), so their detectors read the stylesheets as written; the
    # first line, what was joined, is kept for a build that writes no page (BUNDLE_HEAD).
    text = f"/* ae-styles: {', '.join(order)} (joined by theme_edits.bundle_styles) */\n" + minify_css("\n".join(parts))
    name = f"ae-styles.{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}.css"
    files.write_text(static / name, text)
    for rel in joined:  # no page names them now: each page's stylesheet is the joined one
        (static / rel).unlink()
    for old in static.glob("ae-styles.*.css"):  # an earlier build's bundle: its pages are linked to this one below
        if old.name != name:
            old.unlink()
    for page, found in {**bundled, **pages}.items():
        href = found[0][0]
        link = f'<link rel="stylesheet" href="{href[: href.index("_static/")]}_static/{name}" />'
        if page in pages:  # the first stylesheet's link becomes the bundle's, the others go
            first = [True]

            def replace(match, link=link, first=first):
                keep, first[0] = first[0], False
                return f"{link}\n" if keep else ""

            text = page.read_text(encoding="utf-8")
            new = STYLESHEET.sub(replace, text)
        else:
            text = page.read_text(encoding="utf-8")
            new = BUNDLE.sub(lambda match, link=link: link, text)
        if new != text:
            files.write_text(page, new)
    return name


# ---------------------------------------------------------------------------------------------------------
# The edits, their detectors and what each detector finds in the theme's output with no edit: on a page of the book
# (a lesson with a code fold; not the search page) and in the served files. ``tests/site/test_theme_edits.py``.

DETECTORS = {
    "summary": find_summary,
    "search_scripts": find_search_scripts,
    "defer": find_defer,
    "options": find_options,
    "theme_mode": find_theme_mode,
    "render_when_parsed": find_render_when_parsed,
    "icons": find_icons,
    "tab_stops": find_tab_stops,
    "styles": find_styles,
}
EXPECTED = {  # edit -> what its detector finds in the theme's output: on a page with one code fold, and its files
    "summary": 3,  # the fold's summary, and the two selectors of SUMMARY_CSS in the stylesheets
    "search_scripts": 3,  # searchtools.js, language_data.js, searchindex.js
    "defer": 7,  # doctools, sphinx_highlight, clipboard.min, copybutton, togglebutton, design-tabs, sphinx-book-theme
    "options": 1,
    "theme_mode": 1,
    "render_when_parsed": 1,
    "icons": 2,  # the script tag, and the solid font's @font-face rule
    "tab_stops": 1,
    "styles": 2,  # at least two stylesheets to join (nine on that page)
}
AT_LEAST = {"styles"}  # a detector that may find more than EXPECTED; the others must find exactly that many
EDITS = tuple(DETECTORS)
DEFAULT = tuple(edit for edit in EDITS if edit != "render_when_parsed")


def edit_page(text: str, page: pathlib.Path, edits: tuple[str, ...]) -> str:
    """A page as served: ``text`` (the HTML of ``page``) with each of ``edits`` that acts on pages applied."""
    search = page.name == "search.html"
    steps = (
        ("icons", icons_tag),
        ("search_scripts", None if search else search_scripts),
        ("summary", summary),
        ("theme_mode", theme_mode),
        ("defer", None if search else defer),
        ("options", lambda t: options(t, page)),
        ("render_when_parsed", render_when_parsed),
    )
    for name, step in steps:
        if name in edits and step is not None:
            text = step(text)
    return text


def edit_static(static: pathlib.Path, used: set[str], edits: tuple[str, ...]) -> None:
    """The served files' edits: the stylesheets' summary selectors, the tab-stop loop, the icons (``used``: the
    icon classes the pages name); documentation_options.js goes once it is written into every page."""
    if "summary" in edits:
        summary_css(static)
    if "tab_stops" in edits:
        tab_stops(static)
    if "icons" in edits:
        icons(static, used)
    if "options" in edits:
        (static / "documentation_options.js").unlink(missing_ok=True)


def chosen(app) -> tuple[str, ...]:
    """The edits this build applies: ``ae_theme_edits``, else :data:`DEFAULT`. An unknown name stops the build with
    one line."""
    edits = app.config.ae_theme_edits
    edits = DEFAULT if edits is None else tuple(edits)
    unknown = [e for e in edits if e not in EDITS]
    if unknown:
        raise ValueError(f"ae_theme_edits: unknown edit {unknown[0]!r}; the edits are {', '.join(EDITS)}")
    if app.config.html_theme_options.get("search_as_you_type"):  # then every page needs the search scripts
        edits = tuple(e for e in edits if e != "search_scripts")
    return edits


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    edits = chosen(app)
    out = pathlib.Path(app.outdir)
    used: set[str] = set()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = edit_page(text, page, edits)
        if new != text:
            files.write_text(page, new)
        used.update(re.findall(r"\bfa-[a-z0-9-]+", new))
    edit_static(out / "_static", used, edits)


def _finish_styles(app, exception):
    """After every other build-finished handler (the theme writes its pygments.css in one): the one stylesheet."""
    if exception is None and app.builder.format == "html" and "styles" in chosen(app):
        bundle_styles(pathlib.Path(app.outdir))


def _check(app, config):
    chosen(app)  # an unknown edit stops the build before it starts


def setup(app):
    app.add_config_value("ae_theme_edits", None, "html")
    app.connect("config-inited", _check)
    app.connect("build-finished", _finish)
    app.connect("build-finished", _finish_styles, priority=900)  # after the theme's (500), from the files as served
    return {"parallel_read_safe": True, "parallel_write_safe": True}
