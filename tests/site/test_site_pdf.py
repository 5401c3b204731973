"""The book as a PDF, one per edition (``scripts/build_pdf.py``; issue 20), printed by Chromium from the built site.

Each PDF opens and holds every page of its edition's ``_toc.yml`` in order (the outline's chapters, each starting
on the page its line in the contents names); its page count is in :data:`PAGES`; it embeds every font it uses by
name (``pdffonts``: no anonymous Type 3 glyphs; the Chinese edition Noto Sans CJK SC), draws no missing glyph (no
``.notdef`` in any text it shows, no U+FFFD in its text) and carries the worked example's digits as text. Its
links land inside the document: every link with a destination resolves, a link to a lesson lands on the lesson's
first page, a link to an equation on the page that shows the equation's number. Explorers are notes naming their
website page; the site links every page to its edition's PDF. A few pages are rendered with ``pdftoppm`` into
``_build/screenshots/pdf/`` (kept by CI with the other screenshots) for a look.

The PDFs are printed once per session from the ``site`` fixture's build (about a minute); ``AE_PDF=_build/pdf``
reads PDFs printed already (``make book``) instead, with ``AE_SITE=_build/html``.
"""

from __future__ import annotations

import html
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from tests.helpers import ROOT, script

EDITIONS = ("en", "zh")
PAGES = range(90, 136)  # both editions: 111 and 104 pages when this was written
SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots")) / "pdf"
EXAMPLE_DIGITS = ("0.5414", "0.3095", "0.1491", "1.392334")  # lesson 06's weights and read (A)


def _poppler(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is missing (apt-get install poppler-utils)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {message}; .ci/run installs it")
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def pdfs(site, chromium_browser) -> dict[str, pathlib.Path]:
    """Each edition's PDF, printed from the built site (``site`` is OUT/_build/html; the PDFs go to OUT/_build/pdf)."""
    build_pdf = script("build_pdf")
    if os.environ.get("AE_PDF"):
        folder = pathlib.Path(os.environ["AE_PDF"]).resolve()
        return {e: folder / build_pdf._lang().pdf_name(e) for e in EDITIONS}
    paths = build_pdf.build(pathlib.Path(site).resolve().parents[1], browser=chromium_browser)
    return dict(zip(build_pdf._lang().editions(), paths, strict=True))


def _reader(path: pathlib.Path):
    import pypdf

    return pypdf.PdfReader(str(path))


def _text(pdf: pathlib.Path, page: int | None = None, layout: bool = False) -> str:
    where = ["-f", str(page), "-l", str(page)] if page else []
    args = [_poppler("pdftotext"), *where, *(["-layout"] if layout else []), str(pdf), "-"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def _flat(text: str) -> str:
    """Text with every run of white space as one space (a title may wrap in the PDF)."""
    return " ".join(text.split())


def _chapters(site: pathlib.Path, edition: str) -> list[tuple[str, str]]:
    """(key in the PDF, first heading) of every page of the edition's table of contents, in order."""
    build_pdf = script("build_pdf")
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


def shown_strings(data: bytes):
    """(font resource name, bytes) of every string a text-showing operator (Tj, TJ, ', ") shows, in order: the
    content stream parsed by pikepdf (qpdf's parser; pypdf's was about five times slower here)."""
    import pikepdf

    scratch = pikepdf.new()  # a stream needs a document to belong to
    font = None
    for operands, op in pikepdf.parse_content_stream(pikepdf.Stream(scratch, data)):
        op = str(op)
        if op == "Tf":
            font = str(operands[0])
        elif op in ("Tj", "TJ", "'", '"'):
            shown = operands[0] if op == "TJ" else operands[-1:]
            yield from ((font, bytes(s)) for s in shown if isinstance(s, pikepdf.String))


def notdef_glyphs(pdf: pathlib.Path) -> list[int]:
    """The pages (1-based) that show a missing glyph: glyph 0 (``.notdef``) of a CID font, or a Type 3 code
    drawn with the glyph ``/g0``, in any text the page or a form on it draws."""
    reader = _reader(pdf)
    found = set()

    def fonts_of(resources) -> dict:
        kinds = {}
        for name, ref in (resources.get("/Font") or {}).items() if resources else ():
            font = ref.get_object()
            if font["/Subtype"] == "/Type0":
                kinds[name] = None  # two bytes per glyph id (Identity-H)
            elif font["/Subtype"] == "/Type3":
                names, code = {}, 0
                for item in font["/Encoding"].get_object().get("/Differences", []):
                    if isinstance(item, int) or hasattr(item, "as_numeric"):
                        code = int(item)
                    else:
                        names[code], code = str(item), code + 1
                kinds[name] = names
        return kinds

    def scan(contents, resources, number):
        kinds = fonts_of(resources)
        for font, data in shown_strings(contents.get_data()):
            if font not in kinds:
                continue
            names = kinds[font]
            if names is None and 0 in (int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)):
                found.add(number)
            elif names is not None and any(names.get(b) == "/g0" for b in data):
                found.add(number)
        for ref in (resources.get("/XObject") or {}).values() if resources else ():
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                scan(form, form.get("/Resources"), number)

    for number, page in enumerate(reader.pages, start=1):
        scan(page.get_contents(), page["/Resources"], number)
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
    folder = pathlib.Path(site) if edition == "en" else pathlib.Path(site) / edition
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
def test_explorers_are_notes_naming_their_website_page(pdfs, edition):
    text = _flat(_text(pdfs[edition]))
    prefix = "" if edition == "en" else "zh/"
    for lesson in (
        "01_reading_on_demand",
        "04_from_scores_to_weights",
        "05_additive_score",
        "07_learning_without_labels",
    ):
        assert f"{prefix}notebooks/{lesson}.html" in text, f"no note names the explorer's page of {lesson}"
    for website_only in ("needs JavaScript", "需要浏览器启用 JavaScript", "just below", "紧接在下方"):
        assert website_only not in text, f"the website's explorer text {website_only!r} is in the PDF"


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_page_of_the_site_links_to_its_editions_pdf(pdfs, site, edition):
    folder = pathlib.Path(site) if edition == "en" else pathlib.Path(site) / edition
    name = pdfs[edition].name
    assert (folder / name).read_bytes() == pdfs[edition].read_bytes(), "the site serves the printed PDF"
    pages = [p for p in folder.rglob("*.html") if not {"_static", "_sources", "zh"} & set(p.relative_to(folder).parts)]
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
