"""Print each edition of the built website to one PDF, offline, with Chromium: ``attention-executable.pdf``
(English) and ``attention-executable-<language>.pdf`` (``-zh``: 中文) in OUT/_build/pdf, and a copy of each in its
edition's folder of the website, where every page links to it (``src/attention_workshop/ae_lang.py``).

    .venv/bin/python -m attention_workshop.build_pdf [OUT] [--site-url URL]   # OUT defaults to the repository

`make book` runs it after ``src/attention_workshop/build_book.py``, which it reads from: OUT/_build/html (English) and
OUT/_build/html/<language>. It prints an edition again only when what its PDF is made from changed since its last
print (:func:`inputs_digest`: the edition's built pages, the print's style, code and fonts, the site's address; a
`make book` with nothing changed prints nothing), and the editions that changed at the same time, one process and
one Chromium each (about 20 CPU-seconds an edition).

Every page of ``_toc.yml``, in its order, becomes a chapter: the page's article as the website shows it (math
typeset at build time, figures, code and outputs, exercise solutions opened), after a title page and a table of
contents with page numbers. Links between pages, sections and equations become links inside
the PDF; the outline (bookmarks) follows the headings, inline math kept as text. A live explorer, which needs a
browser, becomes a note naming the website page that holds it by its full address, and the title page gives the
edition's address: the site's public address is ``html: baseurl:`` in ``_config.yml`` (Sphinx's ``html_baseurl``),
overridden by ``--site-url`` (``make book SITE_URL=...``) or the environment variable ``AE_SITE_URL``
(:func:`attention_workshop.ae_seo.site_address`, which the website's canonical links and sitemap read too). Without one
the build says so once and the notes give the page's path in the site
(``notebooks/06_same_content_different_state.html``).
The document's title, author (``_config.yml``'s ``author``) and language are set in the PDF.

How: one HTML file per edition (``_pdf/print.html`` inside the edition's folder, so the site's stylesheets and
figures resolve; deleted afterwards), its formulas typeset again in MathJax's fonts (:func:`print_formulas`),
printed by Chromium (Playwright's ``page.pdf``, with ``outline`` and ``tagged``), twice: the first print tells on
which page each chapter and section starts (``pypdf`` reads the PDF's link destinations), the second writes those
numbers into the contents. A section's anchor is its heading (not the ``<section>``, whose top can stay at the foot
of a page when the heading moves on to the next one with what follows it), so a contents number and a link land on
the page that shows the heading.
"""

from __future__ import annotations

import html as html_lib
import os
import pathlib
import posixpath
import re
import shutil
import subprocess
import sys
import time
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from attention_core import files
from attention_workshop import ae_lang
from attention_workshop import chromium as browsers  # how the book runs Chromium: one place
from attention_workshop.ae_seo import edition_address, site_address  # noqa: F401  (the one source of the address)
from attention_workshop.command import OneLineParser, run
from attention_workshop.paths import ENGLISH, ROOT, editions

PRINT_CSS = ROOT / "book" / "_pdf" / "ae-print.css"
PAGE_FOLDER = "_pdf"  # the print file's folder inside an edition's site folder: one level down, like every page


class Chapter(NamedTuple):
    """One page of the table of contents, ready to print."""

    docname: str  # book/intro, notebooks/06_same_content_different_state
    key: str  # its id in the print file: book-intro, notebooks-06_same_content_different_state
    part: str | None  # the caption of the part it opens (None inside a part, or before the first)
    title: str  # its first heading
    sections: list[tuple[str, str]]  # (id in the print file, title) of its second-level headings
    titles: dict[str, str]  # a heading's text as Chromium's outline may have it (outline_key) -> its whole text
    body: str  # the article's HTML, with ids, links and image paths rewritten for the print file


def toc(edition_root: pathlib.Path) -> list[tuple[str | None, str]]:
    """(part caption, docname) for every page of ``_toc.yml`` in order; the caption only on a part's first page."""
    import yaml

    data = yaml.safe_load((edition_root / "_toc.yml").read_text(encoding="utf-8"))
    pages: list[tuple[str | None, str]] = [(None, data["root"])]
    for part in data.get("parts", []):
        for i, chapter in enumerate(part.get("chapters", [])):
            pages.append((part.get("caption") if i == 0 else None, chapter["file"]))
    return pages


def key_of(docname: str) -> str:
    return docname.replace("/", "-")


def _page_text(key: str, edition: str) -> str:
    from attention_core.explorers.site import PAGE

    return PAGE.text(key, edition)


def explorer_note(edition: str, docname: str, site_url: str, key: str = "pdf_explorer") -> str:
    """The note that stands for a live explorer (``pdf_explorer``) or for a notebook widget (``pdf_widget``): it
    names the website page that holds the live explorer, by its full address when the site has one."""
    path = ("" if edition == ENGLISH else f"{edition}/") + f"{docname}.html"
    if site_url:
        url = site_url.rstrip("/") + "/" + path
        where = f'<a href="{html_lib.escape(url)}">{html_lib.escape(url)}</a>'
    else:
        where = f"<code>{html_lib.escape(path)}</code>"
    return f'<div class="ae-pdf-explorer" role="note"><p>{_page_text(key, edition).format(url=where)}</p></div>'


# A MathML operator written with spaces around it in a title (a relation or a binary operator after an operand).
SPACED_OPERATORS = set("=≠<>≤≥≈∼≡∝+×·∗→←↦∈∉⊂⊆")


def math_text(container) -> str:
    """The text of an inline formula typeset by MathJax (``mjx-container``), read from its assistive MathML:
    ``s = −1``. Operators in :data:`SPACED_OPERATORS` get a space either side unless they open the formula or follow
    another operator (a sign: ``−1``)."""
    math = container.find("math")
    if math is None:
        return ""
    out: list[str] = []
    previous = None
    for leaf in math.find_all(["mi", "mn", "mo", "mtext", "ms"]):
        text = leaf.get_text()
        if leaf.name == "mo" and text in SPACED_OPERATORS and previous not in (None, "mo"):
            out.append(f" {text} ")
        else:
            out.append(text)
        previous = leaf.name
    return " ".join("".join(out).split())


def heading_text(heading, with_math: bool = True) -> str:
    """A heading's text on one line, each inline formula as :func:`math_text` (or left out, ``with_math=False``,
    as Chromium's outline leaves it out: MathJax draws its glyphs with CSS, which the outline does not read).
    Only ASCII whitespace is collapsed, and only a plain space before punctuation dropped: the no-break space
    French writes before « : », « ? » and « ; » stays (the outline's keys, ``with_math=False``, collapse every
    kind of space, as :func:`finish` reads Chromium's titles)."""
    parts = []
    for piece in heading.descendants:
        if isinstance(piece, str) and not piece.find_parent("mjx-container"):
            parts.append(str(piece))
        elif getattr(piece, "name", None) == "mjx-container" and with_math:
            parts.append(math_text(piece))
    if not with_math:
        return " ".join("".join(parts).split())
    text = re.sub(r"[ \t\n\r\f\v]+", " ", "".join(parts)).strip(" ")
    return re.sub(r" (?=[,.;:!?，。；：、）)])", "", text)


def anchor_headings(article) -> None:
    """Give each section's id, and those of the empty anchors (``<span id>``) before its heading, to the heading:
    a link or a contents line then lands where the heading is drawn. The ``<section>`` starts where the page is
    left: with its heading pushed to the next page (a heading stays with what follows it), its top is the foot of
    the previous page."""
    for section in article.find_all("section", id=True):
        anchors = []
        for child in section.children:
            if getattr(child, "name", None) is None:
                if str(child).strip():
                    break
                continue
            if child.name == "span" and child.get("id") and not child.contents:
                anchors.append(child)
                continue
            if child.name in ("h1", "h2", "h3", "h4", "h5", "h6") and not child.get("id"):
                child["id"] = section["id"]
                del section["id"]
                for anchor in reversed(anchors):
                    child.insert(0, anchor.extract())
            break


def _has_class(element, name: str) -> bool:
    return element is not None and name in (element.get("class") or [])


def article_of(site: pathlib.Path, docname: str):
    """The article of one built page (``<article class="bd-article">``), parsed."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup((site / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")
    article = page.find("article", class_="bd-article")
    if article is None:
        raise RuntimeError(f"{docname}.html has no <article class='bd-article'>: was the site built?")
    return article


def chapter(article, docname: str, part: str | None, docnames: set[str], edition: str, site_url: str) -> Chapter:
    """One built page's ``article`` (from :func:`article_of`, whose formulas :func:`print_formulas` has already
    typeset), changed in place to be part of one document: every id prefixed by the page's key, links to pages of
    the book turned into links inside the document, figures loaded eagerly from the print file's folder, explorers
    replaced by a note, folded code and solutions opened, the website's controls (answer boxes included) removed.
    Returns it as a :class:`Chapter`."""
    from bs4 import BeautifulSoup

    key, folder = key_of(docname), posixpath.dirname(docname)
    for gone in article.select("p.ae-lang-switch-bar, a.headerlink, script, svg.ae-glyphs"):
        gone.decompose()
    # explorers: a notebook widget's note names the website page; the live twin the build put just after that note
    # goes with it; any other live explorer (written in a lesson, or added after a cell with its introduction)
    # becomes a note of its own
    for live in article.select("div.ae-explorer"):
        before = live.find_previous_sibling()
        if _has_class(before, "ae-notebook-note"):
            live.decompose()
            continue
        if _has_class(before, "ae-explorer-intro"):
            before.decompose()
        live.replace_with(BeautifulSoup(explorer_note(edition, docname, site_url), "html.parser"))
    for old in article.select("div.ae-notebook-note"):
        old.replace_with(BeautifulSoup(explorer_note(edition, docname, site_url, "pdf_widget"), "html.parser"))
    for box in article.select("div.ae-exercise"):  # an answer box needs the page's script; paper has the cell above
        box.decompose()
    # folded content: a hidden cell's code is shown; a dropdown (an exercise's solution) is opened
    for details in article.find_all("details"):
        classes = details.get("class") or []
        if "hide" in classes and "above-input" in classes:
            summary = details.find("summary")
            if summary is not None:
                summary.decompose()
            details.name = "div"
            details["class"] = ["ae-pdf-unfolded"]
        else:
            details["open"] = ""

    for element in article.find_all(id=True):
        element["id"] = f"{key}--{element['id']}"
    anchor_headings(article)
    for link in article.find_all("a", href=True):
        link["href"] = _link(link["href"], key, folder, docnames, edition, site_url)
        if not link["href"]:  # a page outside the PDF (the index, the search page) and no site address
            link.unwrap()
    for img in article.find_all("img", src=True):
        src = img["src"]
        if not urlsplit(src).scheme:
            img["src"] = posixpath.relpath(posixpath.normpath(posixpath.join(folder, src)), PAGE_FOLDER)
        for lazy in ("loading", "decoding"):
            img.attrs.pop(lazy, None)

    title_tag = article.find("h1")
    title = heading_text(title_tag) if title_tag else docname
    sections = [(h["id"], heading_text(h)) for h in article.find_all("h2") if h.get("id")]
    titles = {
        outline_key(heading_text(h, with_math=False)): heading_text(h)
        for h in article.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])
    }
    return Chapter(docname, key, part, title, sections, titles, article.decode_contents())


def outline_key(text: str) -> str:
    """A heading's text without its white space: how a bookmark Chromium wrote is matched with its heading.
    Chromium's outline leaves out a heading's inline math ("The worked example at  and ") and, where the printed
    heading wraps onto a second line, the space at the break ("calculent unecorrespondance" in the French
    edition)."""
    return "".join(text.split())


def print_formulas(articles: list) -> str:
    """Every formula of the ``articles`` (one edition's pages) typeset again from its MathML for print
    (``ae_math.print_math``) and put back in its place: the website draws a formula as an SVG, which Chromium prints
    as outlines, each glyph stored again wherever it occurs and none of it text; in MathJax's fonts a formula is
    text, and each glyph is stored once. All the formulas go to MathJax in one run, and its output is parsed once.
    Returns the stylesheet (its fonts made TrueType later, by :func:`math_fonts`). On one machine (2026-12-07),
    reading and preparing the English edition's 15 pages (:func:`article_of`, this function, :func:`chapter`) took
    6.9 s with one MathJax run per page and one parse per formula, and 4.2 s as done here."""
    from bs4 import BeautifulSoup

    from attention_workshop import ae_math

    containers = [container for article in articles for container in article.find_all("mjx-container")]
    if not containers:
        return ""
    items = []
    for container in containers:
        mathml = container.find("math")
        if mathml is None:
            raise RuntimeError(f"a formula without its MathML: {str(container)[:120]}")
        items.append((str(mathml), container.get("display") == "true"))
    markup, css = ae_math.print_math(items)
    if len(markup) != len(containers):
        raise RuntimeError(f"MathJax typeset {len(markup)} of {len(containers)} formulas")
    wrapped = BeautifulSoup("".join(f"<ae-typeset>{m}</ae-typeset>" for m in markup), "html.parser")
    for container, typeset in zip(containers, wrapped.find_all("ae-typeset", recursive=False), strict=True):
        container.replace_with(*list(typeset.contents))
    return css


def _link(href: str, key: str, folder: str, docnames: set[str], edition: str, site_url: str) -> str:
    """``href`` (relative to the page ``key`` in ``folder``) as a link in the print file: ``#<key>--<id>`` inside the
    book, unchanged outside the site, the page's web address for a page of the site that is not in the PDF (or ""
    when no site address is set)."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return href  # another site, or mailto:
    if not parts.path:
        return f"#{key}--{parts.fragment}" if parts.fragment else f"#{key}"
    target = posixpath.normpath(posixpath.join(folder, unquote(parts.path)))
    name = target.removesuffix(".html")
    if target.endswith(".html") and name in docnames:
        other = key_of(name)
        return f"#{other}--{parts.fragment}" if parts.fragment else f"#{other}"
    if site_url and not target.startswith(".."):
        prefix = "" if edition == ENGLISH else f"{edition}/"
        return site_url.rstrip("/") + "/" + prefix + target + (f"#{parts.fragment}" if parts.fragment else "")
    return ""


def _stylesheets(site: pathlib.Path, docname: str) -> list[str]:
    """The site's stylesheets, as the root page links them, relative to the print file's folder."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup((site / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")
    folder = posixpath.dirname(docname)
    found = []
    for link in page.find_all("link", rel="stylesheet"):
        path = posixpath.normpath(posixpath.join(folder, link["href"].split("?")[0]))
        found.append(posixpath.relpath(path, PAGE_FOLDER))
    return found


def language(config: dict, edition: str) -> str:
    """The edition's language tag (``en``, ``zh-CN``): Sphinx's ``language`` in its ``_config.yml``."""
    return str(config.get("sphinx", {}).get("config", {}).get("language", edition)).replace("_", "-")


PLACEHOLDER = "000"  # a contents line's page number on the first print: as wide as the numbers that replace it


def document(
    edition: str, config: dict, chapters: list[Chapter], css: list[str], styles: str, site_url: str = ""
) -> str:
    """The print file: a title page (with the edition's web address when the site has one), the contents (each
    line's page number a placeholder as wide as three digits, filled in the loaded page once the first print has
    found it: ``NUMBERS``), then every chapter on a new page. ``css``: the site's stylesheets; ``styles``: the fonts
    and MathJax's rules, before the print style."""
    lang = language(config, edition)
    home = edition_address(site_url, edition)
    title, _, subtitle = str(config["title"]).partition(" · ")
    esc = html_lib.escape

    contents = []
    for ch in chapters:
        if ch.part:
            contents.append(f'<li class="ae-pdf-toc-part">{esc(ch.part)}</li>')
        sub = "".join(
            f'<li><a href="#{sid}"><span>{esc(text)}</span><span class="ae-pdf-page">{PLACEHOLDER}</span></a></li>'
            for sid, text in ch.sections
        )
        contents.append(
            f'<li class="ae-pdf-toc-chapter"><a href="#{ch.key}"><span>{esc(ch.title)}</span>'
            f'<span class="ae-pdf-page">{PLACEHOLDER}</span></a>' + (f"<ul>{sub}</ul>" if sub else "") + "</li>"
        )
    body = []
    for ch in chapters:
        kicker = f'<p class="ae-pdf-part">{esc(ch.part)}</p>' if ch.part else ""
        body.append(f'<section class="ae-pdf-chapter" id="{ch.key}">{kicker}{ch.body}</section>')
    links = "".join(f'<link rel="stylesheet" href="{esc(path)}">' for path in css)
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}" data-theme="light"><head><meta charset="utf-8">'
        f"<title>{esc(str(config['title']))}</title>{links}"
        f"<style>{styles}</style><style>{PRINT_CSS.read_text(encoding='utf-8')}</style></head>"
        '<body><main class="bd-main"><div class="bd-content"><div class="bd-article-container">'
        '<article class="bd-article">'
        f'<section class="ae-pdf-title"><h1>{esc(title)}</h1>'
        + (f'<p class="ae-pdf-subtitle">{esc(subtitle)}</p>' if subtitle else "")
        + f'<p class="ae-pdf-author">{esc(str(config.get("author", "")))}</p>'
        f'<p class="ae-pdf-about">{_page_text("pdf_about", edition)}</p>'
        + (f'<p class="ae-pdf-site"><a href="{esc(home)}">{esc(home)}</a></p>' if home else "")
        + f'<p class="ae-pdf-copyright">© {esc(str(config.get("copyright", "")))}</p></section>'
        f'<nav class="ae-pdf-toc" id="ae-pdf-contents"><h1>{esc(_page_text("pdf_contents", edition))}</h1>'
        f"<ul>{''.join(contents)}</ul></nav>" + "".join(body) + "</article></div></div></main></body></html>"
    )


# ---------------------------------------------------------------------------------------------------------
# Fonts: Chromium's PDF backend embeds a font with TrueType outlines as a named, subset CID font, but draws the
# glyphs of a font with CFF outlines (MathJax's fonts, Noto Sans CJK) as anonymous Type 3 procedures, which some
# readers render without anti-aliasing. So the print file gets TrueType copies: MathJax's fonts converted, and
# Noto Sans CJK SC (Debian's fonts-noto-cjk) subset to the characters the edition uses, then converted.

CJK_FAMILY = "AE Noto Sans CJK SC"  # the name the print style asks for (book/_pdf/ae-print.css)
FONT_URL = re.compile(r'url\("([^"]+\.woff)"\)')


def truetype(font):
    """``font`` (a fontTools TTFont with CFF outlines) rewritten with TrueType outlines: each cubic curve
    approximated by quadratic ones within 1 font unit (fontTools' cu2qu)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    outlines = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        outlines[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    for name in order:  # the left side bearing of a TrueType glyph is its xMin
        glyf[name].recalcBounds(glyf)
        font["hmtx"][name] = (font["hmtx"][name][0], getattr(glyf[name], "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")  # version 1.0; its counts are recomputed when the font is saved
    maxp.tableVersion, maxp.numGlyphs, maxp.maxZones = 0x00010000, len(order), 1
    for field in (
        "maxPoints maxContours maxCompositePoints maxCompositeContours maxTwilightPoints maxStorage maxFunctionDefs "
        "maxInstructionDefs maxStackElements maxSizeOfInstructions maxComponentElements maxComponentDepth"
    ).split():
        setattr(maxp, field, 0)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    font["head"].glyphDataFormat = 0
    font.sfntVersion, font.flavor = "\x00\x01\x00\x00", None
    return font


def math_fonts(math_css: str, folder: pathlib.Path) -> str:
    """``math_css`` with each MathJax font it loads (``ae_math.PRINT_FONTS``, from the npm package fetched for the
    build) replaced by a TrueType copy in ``folder``."""
    from fontTools.ttLib import TTFont

    def convert(match):
        source = (folder / match.group(1)).resolve()
        target = folder / (source.stem + ".ttf")
        if not target.exists():
            truetype(TTFont(str(source))).save(str(target))
        return f'url("{target.name}")'

    return FONT_URL.sub(convert, math_css)


def _cjk_font_file(style: str) -> tuple[str, int] | None:
    """Noto Sans CJK SC's file and index in its collection, as fontconfig finds it (None if missing)."""
    try:
        found = subprocess.run(
            ["fc-match", "--format=%{family}|%{file}|%{index}", f"Noto Sans CJK SC:style={style}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    family, file, index = found.split("|")
    return (file, int(index)) if "Noto Sans CJK SC" in family else None


def _cjk(text: str, style: str):
    """Noto Sans CJK SC (``style`` Regular or Bold) subset to the characters of ``text`` from U+2E80 on (CJK, its
    punctuation and full-width forms), with TrueType outlines; None if ``text`` has none."""
    from fontTools import subset

    wanted = sorted({ord(c) for c in text if ord(c) >= 0x2E80})
    if not wanted:
        return None
    found = _cjk_font_file(style)
    if found is None:
        raise RuntimeError("Noto Sans CJK SC is missing (apt-get install fonts-noto-cjk)")
    options = subset.Options()
    options.font_number, options.layout_features, options.name_IDs = found[1], ["*"], ["*"]
    font = subset.load_font(found[0], options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    return truetype(font)


def cjk_fonts(text: str, folder: pathlib.Path) -> str:
    """@font-face rules of Noto Sans CJK SC, regular and bold, for the CJK characters of ``text``: TrueType files
    written into ``folder``; "" without CJK text."""
    rules = []
    for style, weight in (("Regular", 400), ("Bold", 700)):
        font = _cjk(text, style)
        if font is None:
            return ""
        name = f"noto-sans-cjk-sc-{weight}.ttf"
        font.save(str(folder / name))
        rules.append(f'@font-face{{font-family:"{CJK_FAMILY}";font-weight:{weight};src:url("{name}")}}')
    return "\n".join(rules)


FOOTER_FAMILY = "AE Footer"


def footer_font(title: str) -> str:
    """An @font-face rule of the few CJK glyphs of the running title, inside the rule (a data: URL); "" for a title
    without CJK. Chromium's footer is its own document that waits for no font: it draws with a web font only if
    the page has loaded the very same one, so the print file declares it too and loads it before printing."""
    import base64
    import io

    font = _cjk(title, "Regular")
    if font is None:
        return ""
    data = io.BytesIO()
    font.save(data)
    encoded = base64.b64encode(data.getvalue()).decode("ascii")
    return f'@font-face{{font-family:"{FOOTER_FAMILY}";src:url(data:font/ttf;base64,{encoded})}}'


def _footer(title: str, face: str) -> str:
    """Chromium's footer template: the book's title and the page number."""
    family = f"'Liberation Sans','{FOOTER_FAMILY}',sans-serif"
    return (
        f"<style>{face}</style>"
        f'<div style="font-family:{family};font-size:7.5pt;color:#555;width:100%;margin:0 17mm;'
        'display:flex;justify-content:space-between">'
        f'<span>{html_lib.escape(title)}</span><span class="pageNumber"></span></div>'
    )


# Boxes that scroll sideways on the website; on paper a box wider than the column is scaled down to fit.
FIT_WIDE = """
() => {
  const fitted = [];
  const boxes = [
    ['div.math > mjx-container[display="true"]', 'mjx-math'],
    ['.pst-scrollable-table-container', 'table'],
    ['.cell_output .output.text_html', 'table'],
    ['.cell_output .output.text_html', 'figure'],
    ['mjx-container:not([display="true"])', 'mjx-math'],
  ];
  for (const [box, inner] of boxes) {
    for (const el of document.querySelectorAll(box)) {
      const child = el.querySelector(':scope > ' + inner) || el.querySelector(inner);
      if (!child) continue;
      const room = el.closest('td, th, li, dd, p, div.math, .cell_output, .pst-scrollable-table-container') || el;
      const width = Math.max(room.clientWidth, 1);
      if (child.scrollWidth > width + 1) {
        child.style.zoom = (width / child.scrollWidth * 0.98).toFixed(3);
        fitted.push(box);
      }
    }
  }
  return fitted.length;
}
"""
READY = """
async () => {
  await document.fonts.ready;
  await Promise.all([...document.images].map((img) => img.complete ? null : new Promise((ok) => {
    img.addEventListener('load', ok); img.addEventListener('error', ok);
  })));
  return [...document.images].filter((img) => !img.naturalWidth).map((img) => img.getAttribute('src'));
}
"""


# The contents' page numbers, written into the loaded print file: {anchor: page}.
NUMBERS = """
(numbers) => {
  for (const link of document.querySelectorAll('.ae-pdf-toc a[href^="#"]')) {
    const page = numbers[link.getAttribute('href').slice(1)];
    if (page !== undefined) link.querySelector('.ae-pdf-page').textContent = String(page);
  }
}
"""


def _open(browser, html_file: pathlib.Path):
    """The print file loaded in a new tab, its fonts and figures in, its wide boxes fitted to the page."""
    page = browser.new_page()
    failed: list[str] = []  # a stylesheet, a font (MathJax's glyphs) or a figure that did not load
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(html_file.as_uri(), wait_until="load")
    missing = page.evaluate(READY)
    if missing or failed:
        page.close()
        raise RuntimeError(f"{html_file}: not loaded: {sorted(set(failed + missing))[:8]}")
    page.evaluate(FIT_WIDE)
    page.evaluate(f"document.fonts.load('10px \\'{FOOTER_FAMILY}\\'', document.title)")
    return page


def _print(page, pdf: pathlib.Path, footer: str, final: bool = True) -> None:
    """Print the loaded print file. A print that only finds where each anchor lands (``final=False``) skips the
    outline and the tags (the structure screen readers need), which cost about a quarter of a print."""
    page.pdf(
        path=str(pdf),
        prefer_css_page_size=True,
        print_background=True,
        display_header_footer=True,
        header_template="<span></span>",
        footer_template=footer,
        outline=final,
        tagged=final,
    )


def destinations(pdf: pathlib.Path) -> dict[str, int]:
    """The page (1-based) of every link destination of ``pdf``, by name (an element's id)."""
    import pypdf

    reader = pypdf.PdfReader(str(pdf))
    return {
        name.lstrip("/"): reader.get_destination_page_number(d) + 1 for name, d in reader.named_destinations.items()
    }


def finish(pdf: pathlib.Path, title: str, author: str, lang: str, titles: dict[str, str]) -> int:
    """Set the PDF's title, author and language (the document information and its XMP metadata, and the catalog's
    ``/Lang``), and give each bookmark its heading's whole text: Chromium leaves a formula out of a bookmark's
    title ("The worked example at  and ") and drops the space where a printed heading wraps, so each title equal to
    a heading's text without its math, white space aside (:func:`outline_key`), becomes the heading's text with it
    (``titles``). Returns how many titles were completed. The figures are written with their palettes again
    (:func:`index_figures`)."""
    import pikepdf

    completed = 0
    with pikepdf.open(str(pdf), allow_overwriting_input=True) as doc:
        index_figures(doc)
        outlines = doc.Root.get("/Outlines")
        stack = [outlines.get("/First")] if outlines is not None else []
        while stack:
            item = stack.pop()
            if item is None:
                continue
            found = titles.get(outline_key(str(item.get("/Title", ""))))
            if found is not None and found != str(item.get("/Title", "")):
                item.Title = pikepdf.String(found)
                completed += 1
            stack += [item.get("/Next"), item.get("/First")]
        doc.Root.Lang = pikepdf.String(lang)
        with doc.open_metadata(set_pikepdf_as_editor=False) as meta:  # XMP, and the document information from it
            meta.load_from_docinfo(doc.docinfo)  # Chromium's: the producer, the creator and the dates
            meta["dc:title"] = title
            meta["dc:creator"] = [author]
            meta["dc:language"] = [lang]
        doc.save(str(pdf))
    return completed


def _png_rows(index, width: int) -> bytes:
    """The compressed rows of a one-channel 8-bit image (``index``, a 2-D uint8 array), as a PNG holds them: zlib
    data of rows each led by its PNG filter byte, which is what a PDF's ``/FlateDecode`` with ``/Predictor 15``
    reads (PDF 32000-1 7.4.4.4). Pillow chooses the filters (``optimize``)."""
    import io
    import struct

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(index, "L").save(buffer, "PNG", optimize=True)
    png, pos, rows = buffer.getvalue(), 8, []
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        if kind == b"IDAT":
            rows.append(png[pos + 8 : pos + 8 + length])
        pos += 12 + length
    return b"".join(rows)


def index_figures(doc) -> tuple[int, int]:
    """Give the PDF's figures (``doc``, open in pikepdf) their palettes again, losslessly; return the bytes of the
    images rewritten, before and after.

    The site's figures are palette PNGs (at most 256 colours: ``attention_core.figures.display.figure_png`` with
    ``palette``), but Chromium writes each as 8-bit RGB deflated row by row. Each RGB image of at most 256 colours is
    written again as an ``/Indexed`` image over the same colour space, its indices deflated with PNG's row filters
    (:func:`_png_rows`), when that is smaller: every pixel decodes to the same colour, so a page renders to the same
    pixels (pdftoppm at 80 and 150 dpi, byte for byte). Measured on the English PDF after lesson 09: its 21 figures
    1.65 -> 1.00 MB, the PDF 4.32 -> 3.61 MB after :func:`compact`, 3.2 CPU-seconds (user+sys)."""
    import numpy as np
    import pikepdf

    before = after = 0
    for image in doc.objects:
        if not isinstance(image, pikepdf.Stream) or image.get("/Subtype") != "/Image":
            continue
        space = image.get("/ColorSpace")
        rgb = space == "/DeviceRGB" or (
            isinstance(space, pikepdf.Array) and space[0] == "/ICCBased" and int(space[1].get("/N", 0)) == 3
        )
        plain = image.get("/Filter") == "/FlateDecode" and "/DecodeParms" not in image and "/Decode" not in image
        if not (rgb and plain and int(image.get("/BitsPerComponent", 0)) == 8):
            continue
        width, height = int(image.Width), int(image.Height)
        pixels = np.frombuffer(image.read_bytes(), dtype=np.uint8)
        if pixels.size != width * height * 3:
            continue
        pixels = pixels.reshape(-1, 3).astype(np.uint32)
        colours, index = np.unique(pixels[:, 0] << 16 | pixels[:, 1] << 8 | pixels[:, 2], return_inverse=True)
        if len(colours) > 256:
            continue
        rows = _png_rows(index.astype(np.uint8).reshape(height, width), width)
        old = len(image.read_raw_bytes())
        if len(rows) >= old:
            continue
        lookup = np.stack([colours >> 16, colours >> 8 & 255, colours & 255], axis=1).astype(np.uint8).tobytes()
        parms = pikepdf.Dictionary(Predictor=15, Colors=1, BitsPerComponent=8, Columns=width)
        image.write(rows, filter=pikepdf.Name.FlateDecode, decode_parms=parms)
        image.ColorSpace = pikepdf.Array([pikepdf.Name.Indexed, space, len(colours) - 1, pikepdf.String(lookup)])
        before, after = before + old, after + len(rows)
    return before, after


def compact(pdf: pathlib.Path) -> None:
    """Rewrite ``pdf`` with its objects in compressed object streams (Debian's qpdf): Chromium writes every
    structure element of the tagged PDF (the outline and screen readers need them) as a plain object, and these
    are about a third of the file. Skipped, with a note, where qpdf is missing."""
    qpdf = shutil.which("qpdf")
    if qpdf is None:
        print(f"{pdf.name}: qpdf not found (apt-get install qpdf): the PDF is left uncompacted, about 40% larger")
        return
    tmp = pdf.with_suffix(".tmp.pdf")
    subprocess.run(
        [qpdf, "--object-streams=generate", "--recompress-flate", "--compression-level=9", str(pdf), str(tmp)],
        check=True,
    )
    tmp.replace(pdf)


def build_edition(browser, out: pathlib.Path, edition: str, site_url: str = "") -> pathlib.Path:
    """Print one edition from its built site folder; return the PDF's path (in OUT/_build/pdf)."""
    import yaml

    source = ROOT if edition == ENGLISH else ROOT / edition
    html_root = out / "_build" / "html"
    site = html_root if edition == ENGLISH else html_root / edition
    config = yaml.safe_load((source / "_config.yml").read_text(encoding="utf-8"))
    pages = toc(source)
    docnames = {d for _, d in pages}
    articles = [article_of(site, d) for _, d in pages]
    math_css = print_formulas(articles)
    chapters = [chapter(a, d, part, docnames, edition, site_url) for a, (part, d) in zip(articles, pages, strict=True)]
    css = _stylesheets(site, pages[0][1])
    folder = site / PAGE_FOLDER
    folder.mkdir(exist_ok=True)
    print_file = folder / "print.html"
    pdf_dir = out / "_build" / "pdf"
    pdf_dir.mkdir(parents=True, exist_ok=True)
    pdf = pdf_dir / ae_lang.pdf_name(edition)
    title = str(config["title"]).split(" · ")[0]
    face = footer_font(title)
    footer = _footer(title, face)
    try:
        styles = cjk_fonts(document(edition, config, chapters, css, "", site_url), folder)
        styles += "\n" + math_fonts(math_css, folder) + "\n" + face
        files.write_text(print_file, document(edition, config, chapters, css, styles, site_url))
        wanted = {ch.key for ch in chapters} | {sid for ch in chapters for sid, _ in ch.sections}
        page = _open(browser, print_file)
        try:
            numbers: dict[str, int] = {}
            for _ in range(3):  # the numbers settle on the second print (their placeholders have the same width)
                page.evaluate(NUMBERS, numbers)
                _print(page, pdf, footer, final=bool(numbers))
                found = destinations(pdf)
                if wanted - set(found):
                    raise RuntimeError(f"{pdf.name}: no destination for {sorted(wanted - set(found))[:5]}")
                known = {k: found[k] for k in wanted}
                if known == numbers:
                    break
                numbers = known
            else:
                raise RuntimeError(f"{pdf.name}: the page numbers of the contents did not settle")
        finally:
            page.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    titles = {k: v for ch in chapters for k, v in ch.titles.items()}
    finish(pdf, str(config["title"]), str(config.get("author", "")), language(config, edition), titles)
    compact(pdf)
    shutil.copyfile(pdf, site / pdf.name)  # the website links to it from every page
    return pdf


def build(out: pathlib.Path, site_url: str | None = None, browser=None) -> list[pathlib.Path]:
    """Print every edition built under ``out`` (by ``build_book``) with ``browser`` (a Playwright Chromium); return
    the PDFs' paths. ``site_url``: the website's address (None: ``_config.yml``'s, :func:`site_address`)."""
    site_url = site_address(site_url)
    if not site_url:
        print(
            "build_pdf: no site address (html: baseurl: in _config.yml, or make book SITE_URL=https://...): "
            "the PDFs name the website's pages by their paths in the site, not by full addresses"
        )
    return [build_edition(browser, out, edition, site_url) for edition in editions()]


# What a PDF is printed from besides its edition's built pages and the files they load: the print's style and
# fonts, the code that makes the print file (the workshop's and the package's: the notes' texts, the formulas'
# MathJax), the translations of those texts, the versions of the fetched MathJax and its fonts.
PRINT_INPUTS = (
    ROOT / "book" / "_pdf",
    ROOT / "src" / "attention_workshop",
    ROOT / "src" / "attention_core",
    ROOT / "_vendor" / ".versions",
)
SKIPPED_SUFFIXES = (".mo", ".pyc")  # compiled copies of files that are read whole
LOCAL_REFERENCE = re.compile(r'(?:<link[^>]*\shref|<img[^>]*\ssrc)="(?![a-z]+:|/|#)([^"?#]+)')  # a page's own files
CSS_REFERENCE = re.compile(r"""url\((["']?)(?![a-z]+:|/|#)([^"')?#]+)""")


def printed_from(site: pathlib.Path, source: pathlib.Path) -> list[pathlib.Path]:
    """The files of the built site (its edition folder ``site``) an edition's print reads: the page of every entry
    of its ``_toc.yml`` (``source``), the stylesheets and figures those pages load, and the fonts and images the
    stylesheets load. Not the scripts (the print file has none), nor what a build leaves in ``_static`` that no
    page loads."""
    found: dict[pathlib.Path, None] = {}
    pages = [site / f"{docname}.html" for _, docname in toc(source)]
    queue = list(pages)
    while queue:
        path = queue.pop()
        if path in found or not path.is_file():
            continue
        found[path] = None
        if path.suffix in (".html", ".css"):
            text = path.read_text(encoding="utf-8", errors="replace")
            refs = (
                LOCAL_REFERENCE.findall(text) if path.suffix == ".html" else [m[1] for m in CSS_REFERENCE.findall(text)]
            )
            queue += [(path.parent / unquote(ref)).resolve() for ref in refs if not ref.endswith(".js")]
    return sorted(found)


def _files(folder: pathlib.Path):
    """Every file under ``folder`` (or ``folder`` itself), in a fixed order, but compiled copies."""
    paths = [folder] if folder.is_file() else sorted(folder.rglob("*"))
    return [p for p in paths if p.is_file() and not p.name.endswith(SKIPPED_SUFFIXES) and "__pycache__" not in p.parts]


def inputs_digest(out: pathlib.Path, edition: str, site_url: str) -> str:
    """A digest of everything ``edition``'s PDF is printed from: the files of its built site the print reads
    (:func:`printed_from`), its configuration and contents, :data:`PRINT_INPUTS` and the site's address. Equal
    digests, equal prints: `make book` prints an edition again only when its digest changed (about 0.2 s for all
    three against 20 CPU-seconds of printing each)."""
    import hashlib

    html = out / "_build" / "html"
    source = ROOT if edition == ENGLISH else ROOT / edition
    site = html if edition == ENGLISH else html / edition
    paths = printed_from(site.resolve(), source) + [source / "_config.yml", source / "_toc.yml"]
    paths += [path for folder in PRINT_INPUTS if folder.exists() for path in _files(folder)]
    digest = hashlib.sha256(f"{edition}\n{site_url}\n".encode())
    for path in paths:
        name = path.relative_to(html.resolve()) if path.is_relative_to(html.resolve()) else path.relative_to(ROOT)
        digest.update(f"{name}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _digest_file(out: pathlib.Path, edition: str) -> pathlib.Path:
    return out / "_build" / "pdf" / f"{ae_lang.pdf_name(edition)}.inputs"


def print_edition(out: pathlib.Path, edition: str, site_url: str) -> pathlib.Path:
    """Print one edition with a Chromium of its own (one process per edition: :func:`print_changed`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browsers.find_chromium(), args=browsers.CHROMIUM_ARGS)
        try:
            return build_edition(browser, out, edition, site_url)
        finally:
            browser.close()


def print_changed(out: pathlib.Path, site_url: str, printer=print_edition) -> list[tuple[pathlib.Path, bool]]:
    """Print each edition whose inputs changed since its PDF was printed (:func:`inputs_digest`), the editions at
    the same time (``printer(out, edition, site_url)`` in a process of its own each: :func:`print_edition`), and
    put every PDF into its edition's folder of the site (``build_book`` wrote the folders again). Returns each
    PDF's path and whether it was printed now."""
    from concurrent.futures import ProcessPoolExecutor

    digests = {edition: inputs_digest(out, edition, site_url) for edition in editions()}
    pdfs = {edition: out / "_build" / "pdf" / ae_lang.pdf_name(edition) for edition in editions()}
    todo = [
        e
        for e in editions()
        if not pdfs[e].exists()
        or not _digest_file(out, e).exists()
        or _digest_file(out, e).read_text(encoding="utf-8").strip() != digests[e]
    ]
    for edition in todo:  # a print stopped half-way (a kill, a full disk) must not look finished to the next build
        _digest_file(out, edition).unlink(missing_ok=True)
    if todo:
        with ProcessPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as pool:
            jobs = {edition: pool.submit(printer, out, edition, site_url) for edition in todo}
            for edition, job in jobs.items():
                job.result()  # an edition that failed raises here, and its digest is not kept
                files.write_text(_digest_file(out, edition), digests[edition] + "\n")
    html = out / "_build" / "html"
    for edition, pdf in pdfs.items():
        site = html if edition == ENGLISH else html / edition
        if not (site / pdf.name).exists() or (site / pdf.name).read_bytes() != pdf.read_bytes():
            files.write_bytes(site / pdf.name, pdf.read_bytes())
    return [(pdfs[e], e in todo) for e in editions()]


def main() -> None:
    parser = OneLineParser(prog="python -m attention_workshop.build_pdf", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default=str(ROOT), help="the folder holding _build/html (default: repo)")
    parser.add_argument(
        "--site-url",
        default=os.environ.get("AE_SITE_URL") or None,
        help="the website's public address (default: html: baseurl: in _config.yml)",
    )
    args = parser.parse_args()
    html = pathlib.Path(args.out).resolve() / "_build" / "html"
    if browsers.find_chromium() is None:  # make book has built the website: only the print needs a browser
        print(
            "build_pdf: the PDFs were not printed: they need Chromium (apt-get install chromium-headless-shell, "
            "or set CHROMIUM=/path/to/chromium, then run make book again)"
        )
        return
    if not (html / "index.html").is_file():
        parser.error(f"no built site at {html}: run `make book` (or build_book) first")
    start = time.perf_counter()
    out = pathlib.Path(args.out).resolve()
    try:
        site_url = site_address(args.site_url)
    except ValueError as error:
        parser.error(str(error))
    if not (out / "_build" / "html").is_dir():
        parser.error(f"no built site in {out / '_build' / 'html'} (python -m attention_workshop.build_book first)")
    if not site_url:
        print(
            "build_pdf: no site address (html: baseurl: in _config.yml, or make book SITE_URL=https://...): "
            "the PDFs name the website's pages by their paths in the site, not by full addresses"
        )
    for pdf, printed in print_changed(out, site_url):
        status = "printed" if printed else "unchanged since its last print (its pages, the print's code and style)"
        print(f"{pdf.relative_to(out)}: {pdf.stat().st_size / 1e6:.1f} MB, {status}")
    print(f"in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.build_pdf"))
