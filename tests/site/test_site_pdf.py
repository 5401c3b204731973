"""The book as a PDF, one per edition (``build_pdf``; issue 20), printed by Chromium from the built site.

Each PDF opens and holds every page of its edition's ``_toc.yml`` in order (the outline's chapters, each starting
on the page its line in the contents names); its page count is in :data:`PAGES`; it embeds every font it uses by
name (``pdffonts``: no anonymous Type 3 glyphs; the Chinese edition Noto Sans CJK SC), draws no missing glyph (no
``.notdef`` in any text it shows, no U+FFFD in its text) and carries the worked example's digits as text. Its
links land inside the document: every link with a destination resolves, a link to a lesson lands on the lesson's
first page, a link to an equation on the page that shows the equation's number, and every line of the contents
(issue 29) prints the page its link lands on, the page that shows the heading, next to the link's destination.
Explorers are notes linking to their website page by its full address, given on the title page too; the site links
every page to its edition's PDF. Bookmarks keep a heading's inline math as text; no page is blank; the title, author
and language are set. A few pages are rendered with ``pdftoppm`` into ``_build/screenshots/pdf/`` (kept by CI with the
other screenshots) for a look.

Each edition's PDF is printed once per session from the ``site`` fixture's build, with the site's address
:data:`SITE_URL`, by the process that runs that edition's tests: the tests of one edition are one unit of the gate
(``xdist_group`` ``pdf-<edition>``: about 20 CPU-seconds of printing and 6 of reading), so the editions are
printed and read on whichever cores are free. ``AE_PDF=_build/pdf`` reads PDFs printed already (``make book``)
instead, with ``AE_SITE=_build/html`` (their address is the one their title page gives). Each PDF's text is
extracted once (``pdftotext``, whole, split at its page breaks; ``-layout`` and ``-bbox`` likewise) and every
check reads its pages from there: page by page, the contents and blank-page checks ran ``pdftotext`` some 200
times on each PDF.
"""

from __future__ import annotations

import functools
import html
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from attention_workshop import build_pdf
from attention_workshop.ae_lang import pdf_name
from attention_workshop.paths import ENGLISH, editions, translations
from tests.helpers import ROOT


def pdf_unit(edition: str):
    """The mark that keeps the tests of one edition's PDF in one process, which prints it once."""
    return pytest.mark.xdist_group(f"pdf-{edition}")


EDITIONS = [pytest.param(e, marks=pdf_unit(e), id=e) for e in editions()]
PAGES = range(100, 161)  # every edition: 130 (English), 121 (Chinese) and 135 pages (French) when this was written
SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots")) / "pdf"
EXAMPLE_DIGITS = ("0.5414", "0.3095", "0.1491", "1.392334")  # lesson 06's weights and read (A)
SITE_URL = "https://example.org/attention-executable/"  # the address the session's print gives the site
MATH_BOOKMARKS = 2  # headings with inline math, per edition (the appendix's): each keeps its formula as text


def _poppler(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is missing (apt-get install poppler-utils)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {message}; .ci/run installs it")
        pytest.skip(message)
    return found


class Printed:
    """Each edition's PDF, printed from the built site when a test first asks for it (``site`` is OUT/_build/html;
    the PDFs go to OUT/_build/pdf), or read from ``AE_PDF``."""

    def __init__(self, site, browser):
        self.site, self.browser, self.paths = pathlib.Path(site).resolve(), browser, {}

    def __getitem__(self, edition: str) -> pathlib.Path:
        if edition not in self.paths:
            if os.environ.get("AE_PDF"):
                self.paths[edition] = pathlib.Path(os.environ["AE_PDF"]).resolve() / pdf_name(edition)
            else:
                out = self.site.parents[1]
                self.paths[edition] = build_pdf.build_edition(self.browser, out, edition, SITE_URL)
        return self.paths[edition]


@pytest.fixture(scope="session")
def pdfs(site, chromium_browser) -> Printed:
    """Each edition's PDF (``pdfs[edition]``), printed once per session, by the process that first asks for it."""
    return Printed(site, chromium_browser)


def _uris(pdf: pathlib.Path, pages: range | None = None) -> list[str]:
    """The addresses the PDF's links leave for, page by page (all pages, or ``pages``, 1-based)."""
    import pikepdf

    found = []
    with pikepdf.open(str(pdf)) as doc:
        for number, page in enumerate(doc.pages, start=1):
            if pages is not None and number not in pages:
                continue
            for annot in page.get("/Annots") or []:
                action = annot.get("/A")
                if annot.get("/Subtype") == "/Link" and action is not None and "/URI" in action:
                    found.append(str(action.URI))
    return found


def address(pdfs, edition: str) -> str:
    """The edition's web address as its PDF's title page gives it (the session's print: :data:`SITE_URL`, and its
    ``<edition>/`` folder for every other edition); skips for a PDF printed without a site address (``AE_PDF``, no
    ``html: baseurl:``)."""
    pdf = pdfs[edition]
    home = [uri for uri in _uris(pdf, range(1, 2)) if uri.startswith(("http://", "https://"))]
    if not home:
        if os.environ.get("AE_PDF"):
            pytest.skip(f"{pdf.name} was printed without the site's address (html: baseurl: in _config.yml)")
        pytest.fail(f"{pdf.name}: the title page gives no web address")
    if not os.environ.get("AE_PDF"):
        assert home[0] == SITE_URL + ("" if edition == ENGLISH else f"{edition}/"), home
    return home[0]


def _reader(path: pathlib.Path):
    import pypdf

    return pypdf.PdfReader(str(path))


@functools.cache
def _pages(pdf: pathlib.Path, *flags: str) -> tuple[str, ...]:
    """What ``pdftotext`` with ``flags`` writes for each page of ``pdf``, read once: its whole output cut at the
    page breaks (form feeds) it writes after each page, the same text it writes for that page alone."""
    out = subprocess.run([_poppler("pdftotext"), *flags, str(pdf), "-"], capture_output=True, text=True, check=True)
    return tuple(out.stdout.split("\f")[:-1])


def _text(pdf: pathlib.Path, page: int | None = None, layout: bool = False) -> str:
    """The text of ``pdf``'s page ``page`` (1-based), or of every page, as ``pdftotext`` extracts it."""
    pages = _pages(pdf, *(["-layout"] if layout else []))
    return pages[page - 1] + "\f" if page else "".join(f"{text}\f" for text in pages)


def _flat(text: str) -> str:
    """Text with every run of white space as one space (a title may wrap in the PDF)."""
    return " ".join(text.split())


def _chapters(site: pathlib.Path, edition: str) -> list[tuple[str, str]]:
    """(key in the PDF, first heading) of every page of the edition's table of contents, in order."""
    folder = site if edition == "en" else site / edition
    found = []
    for _, docname in build_pdf.toc(ROOT if edition == "en" else ROOT / edition):
        page = (folder / f"{docname}.html").read_text(encoding="utf-8").split('<article class="bd-article"', 1)[1]
        h1 = re.search(r"<h1>(.*?)<a class=\"headerlink\"", page, re.S).group(1)
        found.append((build_pdf.key_of(docname), _flat(html.unescape(re.sub(r"<[^>]+>", "", h1)))))
    return found


def _destinations(reader) -> dict[str, int]:
    """The page (1-based) of every named destination."""
    return {k.lstrip("/"): reader.get_destination_page_number(v) + 1 for k, v in reader.named_destinations.items()}


def _outline(reader) -> list[tuple[str, int]]:
    return [
        (_flat(e.title), reader.get_destination_page_number(e) + 1) for e in reader.outline if not isinstance(e, list)
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_toc_page_is_a_chapter_in_order(pdfs, site, edition):
    reader = _reader(pdfs[edition])
    assert len(reader.pages) in PAGES, f"{pdfs[edition].name}: {len(reader.pages)} pages, expected {PAGES}"
    chapters = _chapters(pathlib.Path(site), edition)
    outline = _outline(reader)
    titles = [title for title, _ in outline]
    assert titles[2:] == [title for _, title in chapters], "the outline: title page, contents, then the toc's pages"
    starts = [page for _, page in outline[2:]]
    assert starts == sorted(starts) and len(set(starts)) == len(starts), f"chapters out of order: {outline}"
    for (key, title), start in zip(chapters, starts, strict=True):
        assert title in _flat(_text(pdfs[edition], start)), f"{title!r} is not on page {start}, where {key} starts"


@pytest.mark.parametrize("edition", EDITIONS)
def test_contents_give_each_chapters_page(pdfs, site, edition):
    reader = _reader(pdfs[edition])
    dests = _destinations(reader)
    chapters = _chapters(pathlib.Path(site), edition)
    first = min(dests[key] for key, _ in chapters)
    contents = "\n".join(_text(pdfs[edition], page, layout=True) for page in range(2, first))
    for key, title in chapters:
        line = re.search(re.escape(title) + r"\s+(\d+)\s*$", contents, re.M)
        assert line, f"the contents have no line for {title!r}"
        assert int(line.group(1)) == dests[key], (
            f"the contents give page {line.group(1)} for {title!r}, not {dests[key]}"
        )


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_font_is_embedded_by_name(pdfs, edition):
    listing = subprocess.run(
        [_poppler("pdffonts"), str(pdfs[edition])], capture_output=True, text=True, check=True
    ).stdout
    rows = listing.splitlines()[2:]
    assert rows, "pdffonts lists no font"
    names = []
    for row in rows:
        emb, sub, uni = row.split()[-5:-2]
        assert (emb, uni) == ("yes", "yes"), f"a font not embedded or without Unicode map: {row}"
        assert "Type 3" not in row, f"glyphs drawn as an anonymous Type 3 font: {row}"
        names.append(row.split()[0].split("+")[-1])
    assert {"MathJax_Main-Regular", "MathJax_Math-Italic", "LiberationSans"} <= set(names), names
    assert "NotoSansCJKsc-Regular" in names, "the Chinese text needs Noto Sans CJK SC, embedded"


SHOWING = "Tf Tj TJ ' \""  # the operators that choose a font or show text


def shown_strings(content):
    """(font resource name, bytes) of every string a text-showing operator (Tj, TJ, ', ") shows in ``content`` (a
    pikepdf page or form XObject), in order: its content stream parsed by pikepdf (qpdf's parser; pypdf's was about
    five times slower here), which hands back only the operators in :data:`SHOWING` (every operator took 2.5
    CPU-seconds on the French PDF, these 1.0)."""
    import pikepdf

    font = None
    for operands, op in pikepdf.parse_content_stream(content, SHOWING):
        op = str(op)
        if op == "Tf":
            font = str(operands[0])
        else:
            shown = operands[0] if op == "TJ" else operands[-1:]
            yield from ((font, bytes(s)) for s in shown if isinstance(s, pikepdf.String))


def notdef_glyphs(pdf: pathlib.Path) -> list[int]:
    """The pages (1-based) that show a missing glyph: glyph 0 (``.notdef``) of a CID font, or a Type 3 code
    drawn with the glyph ``/g0``, in any text the page or a form on it draws. The PDF is read with pikepdf alone
    (with pypdf fetching each page's contents it took four times as long)."""
    import pikepdf

    found = set()

    def fonts_of(resources) -> dict:
        kinds = {}
        for name, font in (resources.get("/Font") or {}).items() if resources else ():
            if font["/Subtype"] == "/Type0":
                kinds[name] = None  # two bytes per glyph id (Identity-H)
            elif font["/Subtype"] == "/Type3":
                names, code = {}, 0
                for item in font["/Encoding"].get("/Differences", []):
                    if isinstance(item, int):
                        code = item
                    else:
                        names[code], code = str(item), code + 1
                kinds[name] = names
        return kinds

    def scan(content, resources, number):
        kinds = fonts_of(resources)
        for font, data in shown_strings(content):
            if font not in kinds:
                continue
            names = kinds[font]
            if names is None and 0 in (int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)):
                found.add(number)
            elif names is not None and any(names.get(b) == "/g0" for b in data):
                found.add(number)
        for form in (resources.get("/XObject") or {}).values() if resources else ():
            if form.get("/Subtype") == "/Form":
                scan(form, form.get("/Resources"), number)

    with pikepdf.open(str(pdf)) as doc:
        for number, page in enumerate(doc.pages, start=1):
            scan(page, page.obj.get("/Resources"), number)
    return sorted(found)


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_missing_glyph_and_the_worked_example_is_text(pdfs, edition):
    text = _text(pdfs[edition])
    assert "\ufffd" not in text, "replacement characters in the text"
    for digits in EXAMPLE_DIGITS:
        assert digits in text, f"{digits} is not extractable text"
    assert notdef_glyphs(pdfs[edition]) == [], "pages showing a missing glyph (a box instead of a character)"


def test_the_missing_glyph_check_sees_a_missing_glyph(chromium_browser, tmp_path):
    """The check above can fail: a character no font has (U+0378, unassigned) prints as glyph 0."""
    page = chromium_browser.new_page()
    page.set_content("<p style=\"font-family:'Liberation Sans'\">a\u0378b</p><p>fine</p>")
    page.pdf(path=str(tmp_path / "tofu.pdf"))
    page.set_content("<p style=\"font-family:'Liberation Sans'\">ab</p>")
    page.pdf(path=str(tmp_path / "fine.pdf"))
    page.close()
    assert notdef_glyphs(tmp_path / "tofu.pdf") == [1]
    assert notdef_glyphs(tmp_path / "fine.pdf") == []


def test_the_formulas_of_every_page_are_typeset_for_print_each_in_its_place():
    """``build_pdf.print_formulas`` typesets the formulas of all of an edition's pages together and must hand each
    back to its page and its place: each formula, in order, between the same text as before, as MathJax's font
    glyphs (``mjx-c``, no SVG) with the MathML it had; a page without formulas gives no stylesheet."""
    from bs4 import BeautifulSoup

    from attention_workshop import ae_math

    def page(*formulas: tuple[str, bool]) -> str:
        markup, _ = ae_math._typeset(list(formulas))  # the website's formulas: SVG with MathML beside it
        return (
            "<article>" + "".join(f"<p>before {i}</p>{m}<p>after {i}</p>" for i, m in enumerate(markup)) + "</article>"
        )

    pages = [page((r"s_{t-1}", False), (r"\alpha_{tj} = \frac{e^{a}}{\sum_k e^{b}}", True)), page((r"h_j", False))]
    articles = [BeautifulSoup(p, "html.parser").find("article") for p in pages]
    sources = [[str(c.find("math")) for c in a.find_all("mjx-container")] for a in articles]
    css = build_pdf.print_formulas(articles)
    assert "mjx-c" in css and "@font-face" in css
    for article, mathml in zip(articles, sources, strict=True):
        containers = article.find_all("mjx-container")
        assert [str(c.find("math")) for c in containers] == mathml  # each formula in its own place, in order
        assert all(c.find("mjx-c") is not None and c.find("svg") is None for c in containers)
        for i, container in enumerate(containers):  # in its place: between the texts it had either side
            assert container.find_previous_sibling("p").get_text() == f"before {i}"
            assert container.find_next_sibling("p").get_text() == f"after {i}"
        texts = [p.get_text() for p in article.find_all("p")]
        assert texts == [f"{w} {i}" for i in range(len(mathml)) for w in ("before", "after")]
    assert build_pdf.print_formulas([BeautifulSoup("<article><p>none</p></article>", "html.parser")]) == ""


@pytest.mark.parametrize("edition", EDITIONS)
def test_links_land_inside_the_document(pdfs, site, edition):
    reader = _reader(pdfs[edition])
    dests = _destinations(reader)
    internal, outside = [], []
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            if "/Dest" in annot:
                internal.append(str(annot["/Dest"]).lstrip("/"))
            else:
                outside.append(str(annot["/A"].get("/URI", "")))
    assert len(internal) >= 300, f"only {len(internal)} links inside the document"
    assert not [d for d in internal if d not in dests], "links to destinations that do not exist"
    assert all(uri.startswith(("http://", "https://", "mailto:")) for uri in outside), (
        f"links out of the PDF: {outside}"
    )
    # a link to a lesson lands on its first page; a link to an equation on the page showing its number
    chapter_start = {key: dests[key] for key, _ in _chapters(pathlib.Path(site), edition)}
    linked_lessons = {d for d in internal if d in chapter_start}
    assert len(linked_lessons) >= 8, f"links to only {sorted(linked_lessons)}"
    folder = pathlib.Path(site) if edition == ENGLISH else pathlib.Path(site) / edition
    equations = 0
    for target in sorted({d for d in internal if "--equation-" in d}):
        key, anchor = target.split("--", 1)
        page_html = (folder / f"{key.replace('-', '/', 1)}.html").read_text(encoding="utf-8")
        number = re.search(rf'<span class="eqno">\((\d+)\)<a class="headerlink" href="#{re.escape(anchor)}"', page_html)
        assert number, f"{target}: no numbered equation {anchor} on the website's page"
        assert f"({number.group(1)})" in _text(pdfs[edition], dests[target]), f"{target}: not on page {dests[target]}"
        equations += 1
    assert equations >= 10, f"only {equations} equations are linked"


@pytest.mark.parametrize("edition", EDITIONS)
def test_explorers_are_notes_linking_to_their_website_page(pdfs, edition):
    """Every note that stands for an explorer, and every mention of the book's website the PDF writes itself, gives
    the page's full address: the note's text ends in it and links to it; the title page names the edition's address."""
    from attention_core.explorers.site import PAGE

    text = _flat(_text(pdfs[edition]))
    home = address(pdfs, edition)
    uris = _uris(pdfs[edition])
    # an address may wrap at its hyphen (attention-|executable): pdftotext's default mode then drops the hyphen as
    # a word broken across lines, its layout mode keeps what is printed
    printed = _flat(_text(pdfs[edition], layout=True)).replace(" ", "")
    for lesson in (
        "01_reading_on_demand",
        "04_from_scores_to_weights",
        "05_additive_score",
        "07_learning_without_labels",
    ):
        url = f"{home}notebooks/{lesson}.html"
        assert url in uris, f"no note links to the explorer's page of {lesson}: {url}"
        assert url in printed, f"no note writes the address of {lesson}'s page: {url}"
    # each note (its bold label opens it) comes with one link to a page of the site
    # a note opens with its label and the first words after it (the label alone also occurs in the lessons' text)
    openings = [re.sub(r"<[^>]+>|\s", "", PAGE.text(key, edition))[:20] for key in ("pdf_explorer", "pdf_widget")]
    notes = sum(text.replace(" ", "").count(opening) for opening in openings)
    to_pages = [uri for uri in uris if uri.startswith(home) and uri.endswith(".html")]
    assert notes >= 7 and len(to_pages) >= notes, f"{notes} explorer notes, {len(to_pages)} links to the site's pages"
    assert home in _flat(_text(pdfs[edition], 1)).replace(" ", ""), "the title page does not write the site's address"
    for website_only in ("needs JavaScript", "需要浏览器启用 JavaScript", "just below", "紧接在下方"):
        assert website_only not in text, f"the website's explorer text {website_only!r} is in the PDF"


def test_the_sites_address_is_one_setting():
    """``html: baseurl:`` in ``_config.yml`` is the site's address (Sphinx's ``html_baseurl``); ``--site-url`` /
    ``SITE_URL`` overrides it; it ends in "/", and the Chinese edition lives in its ``zh/`` folder. Without one the
    notes give the page's path in the site."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert "baseurl" in config["html"], "_config.yml has no html: baseurl: (the site's public address)"
    configured = str(config["html"]["baseurl"] or "")
    assert build_pdf.site_address() == (configured.rstrip("/") + "/" if configured else "")
    assert build_pdf.site_address("https://a.example/b") == "https://a.example/b/"
    assert build_pdf.site_address("") == ""
    with pytest.raises(ValueError):
        build_pdf.site_address("a.example/b")
    assert build_pdf.edition_address("https://a.example/b/", "zh") == "https://a.example/b/zh/"
    note = build_pdf.explorer_note("zh", "notebooks/05_additive_score", "https://a.example/b/")
    assert 'href="https://a.example/b/zh/notebooks/05_additive_score.html"' in note
    assert "<code>notebooks/05_additive_score.html</code>" in build_pdf.explorer_note(
        "en", "notebooks/05_additive_score", ""
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_page_of_the_site_links_to_its_editions_pdf(pdfs, site, edition):
    folder = pathlib.Path(site) if edition == ENGLISH else pathlib.Path(site) / edition
    name = pdfs[edition].name
    assert (folder / name).read_bytes() == pdfs[edition].read_bytes(), "the site serves the printed PDF"
    skip = {"_static", "_sources", *translations()}  # the English folder holds the other editions' folders
    pages = [p for p in folder.rglob("*.html") if not skip & set(p.relative_to(folder).parts)]
    assert len(pages) >= 14
    for page in pages:
        if page.name == "index.html":  # the redirect to the intro
            continue
        links = re.findall(r'<a class="ae-pdf-link" href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert len(links) == 1, f"{page}: {len(links)} links to the PDF"
        assert (page.parent / links[0]).resolve() == (folder / name).resolve(), f"{page}: the PDF link is {links[0]}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_pages_rendered_for_a_look(pdfs, site, edition):
    """The title page, the first contents page, lesson 06's first page (math, code, outputs) and the page of its
    figure, as PNG files under _build/screenshots/pdf/ (look at them); each has ink on it."""
    from PIL import Image

    dests = _destinations(_reader(pdfs[edition]))
    lesson = dests["notebooks-06_same_content_different_state"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, number in (("title", 1), ("contents", 2), ("lesson06", lesson), ("lesson06-page4", lesson + 3)):
        stem = SHOTS / f"{edition}-{label}"
        subprocess.run(
            [_poppler("pdftoppm"), "-r", "70", "-png", "-singlefile", "-f", str(number), "-l", str(number)]
            + [str(pdfs[edition]), str(stem)],
            check=True,
        )
        image = Image.open(f"{stem}.png").convert("L")
        dark = sum(image.histogram()[:128]) / (image.width * image.height)
        assert dark > 0.002, f"{stem}.png is almost blank"


def _words(pdf: pathlib.Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """(word, xMin, yMin, xMax, yMax) of every word ``pdftotext -bbox`` finds on ``page``, in points from the top
    left corner."""
    return _bboxes(pdf)[page - 1]


@functools.cache
def _bboxes(pdf: pathlib.Path) -> list[list[tuple[str, float, float, float, float]]]:
    """:func:`_words` of every page, from one run of ``pdftotext -bbox``."""
    out = subprocess.run(
        [_poppler("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
    return [
        [(html.unescape(w), float(a), float(b), float(c), float(d)) for a, b, c, d, w in re.findall(pattern, page)]
        for page in re.findall(r"<page\b[^>]*>(.*?)</page>", out, re.S)
    ]


def contents_lines(pdf: pathlib.Path, contents_first: str = "book/intro") -> list[tuple[str, int, str]]:
    """(text, printed page number, destination) of every line of the contents: each link on the pages before the
    first chapter (``contents_first``), read as the words inside its rectangle."""
    import pikepdf

    lines = []
    with pikepdf.open(str(pdf)) as doc:
        first = _dest_positions(doc)[build_pdf.key_of(contents_first)][0]  # the first chapter's page
        for number in range(2, first):
            page = doc.pages[number - 1]
            height = float(page.mediabox[3])
            words = _words(pdf, number)
            for annot in page.get("/Annots") or []:
                if annot.get("/Subtype") != "/Link" or "/Dest" not in annot:
                    continue
                x0, y0, x1, y1 = (float(v) for v in annot.Rect)
                top, bottom = height - y1, height - y0
                inside = [w for w, a, b, c, d in words if x0 <= (a + c) / 2 <= x1 and top <= (b + d) / 2 <= bottom]
                text = " ".join(inside)
                found = re.fullmatch(r"(.+?)\s*(\d+)", text)
                assert found, f"contents page {number}: a link reads {text!r}, not a title and a page number"
                lines.append((found.group(1), int(found.group(2)), str(annot.Dest).lstrip("/")))
    return lines


@pdf_unit("fr")  # in the process that prints the French PDF: another would print it at the same time
def test_the_french_contents_and_title_page_keep_french_typography(pdfs):
    """Issue 44: the French PDF's contents dropped the space French writes before « : » and « ? » (a heading's text
    lost its no-break space, ``build_pdf.heading_text``), and its title page wrote straight apostrophes."""
    pdf = pdfs["fr"]
    lines = [text for text, _, _ in contents_lines(pdf)]
    for mark in (":", "?"):
        found = [text for text in lines if mark in text]
        assert found, f"no line of the French contents has {mark!r}"
        glued = [text for text in found if re.search(rf"\w{re.escape(mark)}", text)]
        assert not glued, f"no space before {mark!r} in {glued}"
    title = _text(pdf, 1)
    assert "d’Attention" in title and "'" not in title, title


def _dest_positions(doc) -> dict[str, tuple[int, float]]:
    """(page, top in points from the page's top) of every named destination of a pikepdf document."""
    pages = {page.objgen: number for number, page in enumerate(doc.pages, start=1)}
    found = {}
    for name, dest in doc.Root.Dests.items():
        page = pages[dest[0].objgen]
        height = float(doc.pages[page - 1].mediabox[3])
        found[name.lstrip("/")] = (page, height - float(dest[3]))
    return found


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_contents_line_lands_on_its_heading(pdfs, edition):
    """Each line of the contents (chapters and sections) prints the page its link lands on, and there, just below
    the link's destination, is the heading's first word: a section's anchor is its heading, so a heading pushed to
    the next page with what follows it takes its number and its link along (four lines were one page short)."""
    import pikepdf

    lines = contents_lines(pdfs[edition])
    assert len(lines) >= 60, f"only {len(lines)} lines in the contents"
    with pikepdf.open(str(pdfs[edition])) as doc:
        positions = _dest_positions(doc)
    wrong = []
    for text, printed, dest in lines:
        page, top = positions[dest]
        # The heading's first word, or the Chinese characters it starts with: Chinese has no spaces, so its first
        # "word" runs on to a formula that the PDF sets apart ("第六课：曲线的斜率、s" is printed "…斜率、" "s").
        first = re.match(r"[\u3400-\u9fff]+|\S+", text).group(0)
        below = [
            b for w, _, b, _, _ in _words(pdfs[edition], page) if w.startswith(first) and top - 2 <= b <= top + 100
        ]
        if printed != page or not below:
            wrong.append(
                f"{text!r}: printed {printed}, lands on page {page} at {top:.0f} pt, heading there: {bool(below)}"
            )
    assert not wrong, "\n".join(wrong)


# A heading with a formula in it (headings do not nest): the pages :func:`test_bookmarks_keep_inline_math` parses.
MATH_HEADING = re.compile(r"<h[1-6]\b(?:(?!</h[1-6]>).)*?<mjx-container", re.S)


def _bookmarks(reader) -> list[str]:
    """The title of every bookmark, at every level, in order."""
    found = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append(item.title)

    walk(reader.outline)
    return found


@pytest.mark.parametrize("edition", EDITIONS)
def test_bookmarks_keep_inline_math(pdfs, site, edition):
    """A heading's inline math stays in its bookmark as text (Chromium leaves it out: "The worked example at  and
    "); no bookmark has a gap, a space before punctuation or a loose end where a formula was."""
    from bs4 import BeautifulSoup

    titles = _bookmarks(_reader(pdfs[edition]))
    assert len(titles) >= 60, f"only {len(titles)} bookmarks"
    for title in titles:
        assert title == title.strip() and "  " not in title, f"a gap in the bookmark {title!r}"
        assert not re.search(r" [,.;:!?，。；：、]| and$", title), f"a formula is missing in {title!r}"
    folder = pathlib.Path(site) if edition == ENGLISH else pathlib.Path(site) / edition
    expected = []
    for _, docname in build_pdf.toc(ROOT if edition == "en" else ROOT / edition):
        page = (folder / f"{docname}.html").read_text(encoding="utf-8")
        if not MATH_HEADING.search(page):  # parsing every page took three quarters of the test's time
            continue
        article = BeautifulSoup(page, "html.parser").article
        for heading in article.find_all(["h1", "h2", "h3", "h4", "h5", "h6"]):
            if heading.find("mjx-container"):
                for link in heading.select("a.headerlink"):
                    link.decompose()
                expected.append(build_pdf.heading_text(heading))
    assert len(expected) == MATH_BOOKMARKS, expected
    for title in expected:
        assert re.search(r"s = (−1|1|0\.5)", title), f"{title!r} lost its formula"
        assert title in titles, f"no bookmark {title!r} in {[t for t in titles if t[:6] == title[:6]]}"


def blank_pages(pdf: pathlib.Path, footer: str) -> list[int]:
    """The pages (1-based) that show nothing but the running footer (``footer`` and the page number): no other
    text and no image."""
    import pikepdf

    blank = []
    with pikepdf.open(str(pdf)) as doc:
        for number, page in enumerate(doc.pages, start=1):
            text = _flat(_text(pdf, number)).replace(footer, "").replace(str(number), "").strip()
            if not text and not pikepdf.Page(page).get_images():
                blank.append(number)
    return blank


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_blank_page(pdfs, site, edition):
    """No page is blank, and the notation's table starts on the notation's first page (the theme kept every table
    whole, so the table nearly a page tall went to the next page and left that one empty below the heading)."""
    from bs4 import BeautifulSoup

    reader = _reader(pdfs[edition])
    footer = str(reader.metadata.title).split(" · ")[0]
    assert blank_pages(pdfs[edition], footer) == []
    folder = pathlib.Path(site) if edition == ENGLISH else pathlib.Path(site) / edition
    table = BeautifulSoup((folder / "book" / "notation.html").read_text(encoding="utf-8"), "html.parser").table
    meaning = table.find("tbody").find("tr").find_all("td")[-1].find(string=True).strip()[:12]
    start = _destinations(reader)["book-notation"]
    assert meaning.replace(" ", "") in _text(pdfs[edition], start).replace(" ", "").replace("\n", ""), (
        f"the notation's table does not start on its page {start} ({meaning!r})"
    )


def test_the_blank_page_check_sees_a_blank_page(chromium_browser, tmp_path):
    """The check above can fail: a page with nothing but its footer is blank; a page with an image is not."""
    page = chromium_browser.new_page()
    import base64
    import io

    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(png, format="PNG")
    pixel = "data:image/png;base64," + base64.b64encode(png.getvalue()).decode("ascii")
    page.set_content(
        "<p style='break-after:page'>one</p><div style='break-after:page'></div>"
        f"<img src='{pixel}' style='width:5px;break-after:page'><p>four</p>"
    )
    footer = "<div style='font-size:8px;width:100%'><span>The footer</span> <span class='pageNumber'></span></div>"
    page.pdf(path=str(tmp_path / "blank.pdf"), display_header_footer=True, footer_template=footer)
    page.close()
    assert blank_pages(tmp_path / "blank.pdf", "The footer") == [2]


@pytest.mark.parametrize("edition", EDITIONS)
def test_title_author_and_language_are_set(pdfs, edition):
    """The document information and its XMP metadata give the edition's title and author (``_config.yml``) and
    the catalog its language."""
    import pikepdf
    import yaml

    config = yaml.safe_load((ROOT / ("" if edition == "en" else edition) / "_config.yml").read_text(encoding="utf-8"))
    lang = build_pdf.language(config, edition)
    assert lang == {"en": "en", "zh": "zh-CN"}.get(edition, edition)
    with pikepdf.open(str(pdfs[edition])) as doc:
        assert str(doc.docinfo["/Title"]) == config["title"]
        assert str(doc.docinfo["/Author"]) == config["author"] != ""
        assert str(doc.docinfo["/Creator"]) == "Chromium", "Chromium's own entries are kept"
        assert str(doc.Root.Lang) == lang
        meta = doc.open_metadata()
        assert meta["dc:title"] == config["title"]
        assert meta["dc:creator"] == [config["author"]]
        assert set(meta["dc:language"]) == {lang}
