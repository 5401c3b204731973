"""A site the world can find and a slow phone can open: the libraries that write what search engines and link previews
read (Sphinx's canonical link, sphinxext-opengraph, sphinx-sitemap) with the settings ``attention_workshop.ae_seo``
gives each edition, what ae_seo adds (descriptions, og:locale, hreflang alternates, robots.txt, compressed copies),
the stylesheet bundle of ``attention_workshop.theme_edits`` and the compressed server ``attention_workshop.serve``.

On the built site (``book_build``, built without a public address unless ``_config.yml`` or ``AE_SITE_URL`` gives
one): every page of the book has a description in its own language and Open Graph tags with its edition's
``og:locale`` (``fr_FR``, ``zh_CN``), a phone's viewport and valid ``<summary>`` markup; the translated editions keep
no file identical to an English one and every asset their pages name exists; every text file (but a tiny one that
would grow) has smaller ``.gz`` and ``.br`` copies that unpack to it; on a copy finished with an address, every
page has absolute alternates for every edition and ``x-default``, and robots.txt names every edition's sitemap. A
one-page book built with an address (``tests/site/theme_book``) gets the canonical link, absolute ``og:url`` and
``og:image`` and a sitemap. The description's trimming and the server's choice of encoding are tested without a
build.
"""

from __future__ import annotations

import gzip
import html
import pathlib
import re
import shutil
import threading
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from attention_workshop import ae_seo, build_pdf, serve
from attention_workshop.ae_lang import html_lang
from attention_workshop.paths import ENGLISH, editions, translations
from attention_workshop.paths import name as edition_name

SITE_URL = "https://example.org/attention-executable/"
CJK = re.compile(r"[\u3400-\u9fff]")
CJK_LANGUAGES = ("zh", "ja", "ko")  # languages written in the characters CJK matches (an edition's html lang)
OG_LOCALES = {"en": "en_US", "zh": "zh_CN", "fr": "fr_FR"}  # Open Graph's language_TERRITORY of each edition


def _meta(text: str, name: str) -> str | None:
    match = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"(?: /)?>', text)
    return html.unescape(match.group(1)) if match else None


def _book_pages(site: pathlib.Path, edition: str) -> dict[str, str]:
    root = ae_seo.edition_root(site, edition)
    found = {}
    for page in ae_seo.pages(site, edition):
        text = (root / page).read_text(encoding="utf-8")
        if ae_seo.is_book_page(text):
            found[page] = text
    return found


def _html_pages(site: pathlib.Path):
    """(edition, page, its folder's root, its text) for every page of every edition with a head (no redirect)."""
    for edition in editions():
        root = ae_seo.edition_root(site, edition)
        for page in ae_seo.pages(site, edition):
            text = (root / page).read_text(encoding="utf-8")
            if "<head>" in text and 'http-equiv="Refresh"' not in text:
                yield edition, page, root, text


# ---------------------------------------------------------------------------------------------------------
# Without a build


def test_a_description_is_trimmed_at_a_sentence_or_a_word():
    short = "Attention scores every source position."
    assert ae_seo.trim(short) == short
    sentences = "One two three four five six seven eight nine ten. " * 6
    trimmed = ae_seo.trim(sentences)
    assert trimmed.endswith(".") and ae_seo.width(trimmed) <= ae_seo.DESCRIPTION_LIMIT
    assert ae_seo.width(trimmed) >= ae_seo.DESCRIPTION_LIMIT // 2
    one_long = "word " * 80
    cut = ae_seo.trim(one_long)
    assert cut.endswith("…") and cut[:-1] == cut[:-1].rstrip() and "wor…" not in cut
    assert ae_seo.width(cut) <= ae_seo.DESCRIPTION_LIMIT


def test_a_cjk_character_counts_as_two():
    chinese = "注意力让解码器在每一步重新阅读整个源句，并按相关程度分配权重。" * 6
    trimmed = ae_seo.trim(chinese)
    assert ae_seo.width(trimmed) <= ae_seo.DESCRIPTION_LIMIT
    assert len(trimmed) <= ae_seo.DESCRIPTION_LIMIT // 2 + 1
    assert trimmed.endswith("。")  # whole sentences when they fill at least half the room


def test_the_pdfs_and_the_pages_read_one_address():
    assert build_pdf.site_address is ae_seo.site_address
    assert ae_seo.site_address("https://a.example/b") == "https://a.example/b/"
    assert ae_seo.edition_address("https://a.example/b/", "zh") == "https://a.example/b/zh/"
    with pytest.raises(ValueError):
        ae_seo.site_address("a.example/b")


def test_the_stylesheets_are_joined_into_one_with_their_addresses_rebased(tmp_path):
    """theme_edits.bundle_styles on a small site: two pages link three stylesheets (one in a subfolder, with an
    @import and url()s), one of them a subset in the same order; each page then links one file holding every
    rule in that order, each url() naming the same file from _static/, minified (ae_assets.minify_css) under a first
    line naming what was joined, with no joined file's @charset left in it, and the joined files are gone. Pages that
    link the same stylesheets in another order stop the build with one line."""
    from attention_workshop import theme_edits

    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "basic.css").write_text("p { margin: 0; }", encoding="utf-8")
    (static / "styles" / "theme.css").write_text(
        '@import "../basic.css";\n.x { background: url("../img/a.png"); } .y { src: url(data:font/woff2;base64,AA); }',
        encoding="utf-8",
    )
    (static / "a.css").write_text('@charset "UTF-8";\n.a { background: url(img/b.png); }', encoding="utf-8")
    (static / "b.css").write_text(".ae-b { color: red; }", encoding="utf-8")
    (tmp_path / "book").mkdir()
    links = {
        "theme": '<link href="../_static/styles/theme.css?digest=1" rel="stylesheet" />',
        "a": '<link rel="stylesheet" type="text/css" href="../_static/a.css?v=2" />',
        "b": '<link rel="stylesheet" type="text/css" href="../_static/b.css?v=3" />',
    }
    full = tmp_path / "book" / "full.html"
    full.write_text(f"<head>{links['theme']}\n{links['a']}\n{links['b']}\n</head><p>x</p>", encoding="utf-8")
    part = tmp_path / "book" / "part.html"
    part.write_text(f"<head>{links['theme']}\n{links['b']}\n</head><p>y</p>", encoding="utf-8")
    name = theme_edits.bundle_styles(tmp_path)
    assert name and re.fullmatch(r"ae-styles\.[0-9a-f]{8}\.css", name)
    for page in (full, part):
        text = page.read_text(encoding="utf-8")
        assert re.findall(r"<link[^>]*>", text) == [f'<link rel="stylesheet" href="../_static/{name}" />'], text
    bundle = (static / name).read_text(encoding="utf-8")
    head, body = bundle.split("\n", 1)
    assert head == "/* ae-styles: styles/theme.css, a.css, b.css (joined by theme_edits.bundle_styles) */"
    assert body.index("p{margin:0}") < body.index(".x{") < body.index(".a{") < body.index(".ae-b{color:red}")
    assert "@import" not in bundle and "@charset" not in bundle and "/*" not in body and " " not in body
    assert "url(img/a.png)" in bundle and "url(img/b.png)" in bundle and "url(data:font/woff2;base64,AA)" in bundle
    assert sorted(p.name for p in static.rglob("*.css")) == [name], "the joined files are left beside the bundle"
    part.write_text(f"<head>{links['b']}\n{links['a']}\n</head>", encoding="utf-8")
    full.write_text(f"<head>{links['a']}\n{links['b']}\n</head>", encoding="utf-8")
    with pytest.raises(RuntimeError, match="in another order"):
        theme_edits.bundle_styles(tmp_path)


def test_an_incremental_build_links_every_page_to_one_bundle(tmp_path):
    """theme_edits.bundle_styles after an incremental build: Sphinx copies the stylesheets back and writes some pages
    again, which link them, while the others link the last build's bundle. With the same stylesheets the bundle is
    the same; with no page written it is left as it is (and the stylesheets written again go); with a stylesheet
    changed every page links the new bundle and the old one is gone (no page links a second bundle)."""
    from attention_workshop import theme_edits

    static = tmp_path / "_static"
    (tmp_path / "book").mkdir()
    static.mkdir()
    links = (
        '<link rel="stylesheet" type="text/css" href="../_static/a.css?v=1" />\n'
        '<link rel="stylesheet" type="text/css" href="../_static/b.css?v=2" />\n'
    )
    pages = [tmp_path / "book" / "one.html", tmp_path / "book" / "two.html"]

    def written(*written_pages, a=".a { color: red; }"):
        (static / "a.css").write_text(a, encoding="utf-8")
        (static / "b.css").write_text(".ae-b { color: blue; }", encoding="utf-8")
        for page in written_pages:
            page.write_text(f"<head>{links}</head><p>{page.stem}</p>", encoding="utf-8")

    def linked():
        return {page.name: re.findall(r"<link[^>]*>", page.read_text(encoding="utf-8")) for page in pages}

    written(*pages)
    name = theme_edits.bundle_styles(tmp_path)
    clean = linked()
    assert clean == {page.name: [f'<link rel="stylesheet" href="../_static/{name}" />'] for page in pages}
    written(pages[0])
    assert theme_edits.bundle_styles(tmp_path) == name
    assert linked() == clean and sorted(p.name for p in static.iterdir()) == [name]
    written()  # a build that wrote no page, though its build-finished handlers wrote stylesheets (pygments.css)
    assert theme_edits.bundle_styles(tmp_path) == name, "a build that wrote no page"
    assert linked() == clean and sorted(p.name for p in static.iterdir()) == [name]
    written(pages[0], a=".a { color: green; }")
    changed = theme_edits.bundle_styles(tmp_path)
    assert changed != name
    assert linked() == {page.name: [f'<link rel="stylesheet" href="../_static/{changed}" />'] for page in pages}
    assert sorted(p.name for p in static.iterdir()) == [changed], "an earlier build's bundle is left"


def test_every_page_links_one_stylesheet_the_same_in_every_edition(site):
    """Every page of every edition links one stylesheet, _static/ae-styles.<hash>.css, the English edition's (the
    translations load it from the English folders), and every file its url()s name exists (the icon fonts the
    build removes as unused aside)."""
    names = set()
    for edition, page, root, text in _html_pages(site):
        found = re.findall(r'<link[^>]*rel="stylesheet"[^>]*>', text)
        assert len(found) == 1, f"{edition}/{page}: {found}"
        href = re.search(r'href="([^"]+)"', found[0]).group(1)
        target = ((root / page).parent / href).resolve()
        assert target.is_file() and target.parent == (site / "_static").resolve(), f"{edition}/{page}: {href}"
        names.add(target.name)
    assert len(names) == 1, names
    bundle = (site / "_static" / names.pop()).read_text(encoding="utf-8")
    for url in re.findall(r"url\([\"']?([^\"')]+)", bundle):
        if url.startswith(("data:", "http", "#", "/")) or re.search(r"fa-(regular|brands)-400", url):
            continue
        assert (site / "_static" / url.split("?")[0].split("#")[0]).is_file(), url


def test_accept_encoding_is_read_with_its_weights():
    assert serve.accepted("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert serve.accepted("br;q=0, gzip;q=0.5") == {"gzip"}
    assert serve.accepted("") == set()


@pytest.fixture
def served(tmp_path):
    body = ("<!DOCTYPE html><title>x</title>" + "attention " * 500).encode()
    (tmp_path / "page.html").write_bytes(body)
    (tmp_path / "plain.html").write_bytes(body)
    ae_seo.compress(tmp_path)
    (tmp_path / "plain.html.gz").unlink()
    (tmp_path / "plain.html.br").unlink()
    httpd = serve.server(tmp_path, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", body
    httpd.shutdown()
    httpd.server_close()


def _get(url: str, encoding: str | None):
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers, response.read()


def test_the_server_sends_the_precompressed_copy_the_browser_accepts(served):
    import brotli

    base, body = served
    headers, data = _get(base + "page.html", "gzip, deflate, br")
    assert headers["Content-Encoding"] == "br" and brotli.decompress(data) == body
    assert headers["Content-Type"].startswith("text/html") and "Accept-Encoding" in headers["Vary"]
    headers, data = _get(base + "page.html", "gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == body
    headers, data = _get(base + "page.html", None)
    assert headers.get("Content-Encoding") is None and data == body
    headers, data = _get(base + "plain.html", "br, gzip")  # no copies: the file as it is
    assert headers.get("Content-Encoding") is None and data == body


# ---------------------------------------------------------------------------------------------------------
# On the built site


def test_every_page_has_a_description_and_open_graph_in_its_language(site):
    """In each edition's language: a translation's description is not the English page's, it is written in Chinese
    characters in an edition whose language writes them (zh) and holds none in one that does not (en, fr, ...)."""
    english = _book_pages(site, ENGLISH)
    names = re.compile("|".join(re.escape(edition_name(e)) for e in editions()))  # may be quoted in any edition
    for edition in editions():
        found = _book_pages(site, edition)
        writes_cjk = html_lang(edition).split("-")[0] in CJK_LANGUAGES
        assert len(found) >= 10, f"{edition}: {len(found)} book pages"
        for page, text in found.items():
            where = f"{edition}/{page}"
            description = _meta(text, "description")
            assert description and ae_seo.width(description) <= ae_seo.DESCRIPTION_LIMIT, where
            assert _meta(text, "og:description") == description, where
            assert _meta(text, "og:title"), where
            assert _meta(text, "og:locale") == OG_LOCALES.get(edition, ae_seo.og_locale(None, edition)), where
            if writes_cjk:
                assert len(CJK.findall(description)) >= 10, (where, description)
            else:
                assert not CJK.search(names.sub("", description)), (where, description)
            if edition != ENGLISH and page in english:
                assert description != _meta(english[page], "description"), (where, "the English description")
            assert not re.search(r'<link rel="alternate" hreflang="[^"]*" href="(?!https?://)', text), where


def test_without_an_address_the_absolute_links_are_left_out_in_one_line(book_build, site):
    code, log, _ = book_build
    if ae_seo.site_address():
        pytest.skip("this build has a public address")
    assert log.count("no site address") == 1, log[-2000:]
    for edition in editions():
        for page, text in _book_pages(site, edition).items():
            assert 'rel="canonical"' not in text and not re.search(r'content="https?://', text), page
            assert "og:image" not in text and 'hreflang="x-default"' not in text, page
            assert (_meta(text, "og:url") or page) == page, "without an address og:url is the page's own path"
    assert not list(site.rglob("sitemap.xml")) and not (site / "robots.txt").exists()


def test_a_phone_viewport_and_no_paragraph_in_a_summary(site):
    """Every viewport tag of a page (Sphinx's and the themes', left as they are: identical in effect) gives a phone
    the device's width at scale 1; a code fold's summary holds no paragraph (theme_edits.summary)."""
    for edition, page, _, text in _html_pages(site):
        tags = re.findall(r'<meta name="viewport" content="([^"]*)"', text)
        assert tags and all(re.fullmatch(r"width=device-width, initial-scale=1(\.0)?", c) for c in tags), (page, tags)
        for summary in re.findall(r"<summary\b.*?</summary>", text, re.S):
            assert not re.search(r"<p\b", summary), f"{edition}/{page}: {summary[:200]}"


def test_the_editions_share_their_identical_assets(site):
    """No file of a translated edition's _static/ or _images/ is a copy of the English one, and every asset its
    pages and stylesheets name exists (the browser sweep checks the requests themselves)."""
    for lang in translations():
        root = site / lang
        for folder in ae_seo.SHARED:
            for path in (root / folder).rglob("*") if (root / folder).is_dir() else []:
                if path.is_file() and path.suffix not in (".gz", ".br"):
                    english = site / path.relative_to(root)
                    assert not (english.is_file() and english.read_bytes() == path.read_bytes()), path
        assert not (root / "_static" / "styles" / "theme.css").exists(), "the theme's stylesheet is shared"
        for page in ae_seo.pages(site, lang):
            text = (root / page).read_text(encoding="utf-8")
            for match in ae_seo.ASSET_REF.finditer(text):
                target = ((root / page).parent / match.group(0)).resolve()
                assert target.is_file(), f"{lang}/{page} names {match.group(0)}, which is missing"
        pages_text = (root / "notebooks" / "05_additive_score.html").read_text(encoding="utf-8")
        assert '"../../_static/ae-styles.' in pages_text  # the one stylesheet (theme_edits.bundle_styles), shared


def test_every_text_file_has_compressed_copies(site):
    import brotli

    count = 0
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in ae_seo.TEXT:
            data = path.read_bytes()
            gz, br = path.with_name(path.name + ".gz"), path.with_name(path.name + ".br")
            if len(data) < 200:  # a file this small may grow when compressed: then it has no copy
                assert all(c.stat().st_size < len(data) for c in (gz, br) if c.exists()), path
                continue
            assert gz.is_file() and br.is_file(), path
            assert gz.stat().st_size < len(data) and br.stat().st_size < len(data), path
            if count % 7 == 0 or path.suffix == ".html":  # every page, a sample of the rest
                assert gzip.decompress(gz.read_bytes()) == data, gz
                assert brotli.decompress(br.read_bytes()) == data, br
            count += 1
    assert count > 50


def test_with_an_address_every_page_declares_its_editions(site, tmp_path):
    copy = tmp_path / "html"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("*.gz", "*.br", "*.png", "*.woff*", "*.pdf"))
    book = ae_seo.add_alternates(copy, SITE_URL)
    from attention_workshop.ae_lang import html_lang

    for edition in editions():
        assert book.get(edition), edition
        for page in book[edition]:
            text = (ae_seo.edition_root(copy, edition) / page).read_text(encoding="utf-8")
            alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">', text))
            assert alternates == {
                **{html_lang(e): ae_seo.edition_address(SITE_URL, e) + page for e in editions()},
                "x-default": SITE_URL + page,
            }, (edition, page)
    # a second run replaces the links instead of adding more
    ae_seo.add_alternates(copy, SITE_URL)
    again = (copy / "notebooks" / "05_additive_score.html").read_text(encoding="utf-8")
    assert again.count('hreflang="x-default"') == 1
    for edition in editions():  # sphinx-sitemap writes one per edition when the build has an address
        (ae_seo.edition_root(copy, edition) / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    sitemaps = re.findall(r"^Sitemap: (\S+)$", ae_seo.robots(SITE_URL, copy), re.M)
    assert sitemaps == [ae_seo.edition_address(SITE_URL, e) + "sitemap.xml" for e in editions()]


@pytest.fixture(scope="module")
def addressed_book(tmp_path_factory) -> pathlib.Path:
    """The one-page book of tests/site/theme_book built with the book's SEO settings (ae_seo, sphinxext-opengraph,
    sphinx-sitemap) and a public address."""
    import os
    import subprocess
    import sys

    from tests.helpers import ROOT

    out = tmp_path_factory.mktemp("addressed")
    book = ROOT / "tests" / "site" / "theme_book"
    config = out / "_config.yml"
    text = (book / "_config.yml").read_text(encoding="utf-8")
    extensions = "    - sphinxext.opengraph\n    - sphinx_sitemap\n    - attention_workshop.ae_seo\n"
    config.write_text(text.replace("    - sphinx_design\n", "    - sphinx_design\n" + extensions), encoding="utf-8")
    jb = pathlib.Path(sys.executable).parent / "jupyter-book"
    run = subprocess.run(
        [str(jb), "build", str(book), "--config", str(config), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True,
        text=True,
        env={**os.environ, ae_seo.ENV: SITE_URL},
        check=False,
    )
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    return out / "_build" / "html"


def test_with_an_address_the_libraries_write_the_absolute_links_and_the_sitemap(addressed_book):
    text = (addressed_book / "page.html").read_text(encoding="utf-8")
    assert re.findall(r'<link rel="canonical" href="([^"]*)"', text) == [SITE_URL + "page.html"]
    assert _meta(text, "og:url") == SITE_URL + "page.html"
    assert _meta(text, "og:image") == SITE_URL + "_static/" + ae_seo.CARD
    assert (_meta(text, "og:image:width"), _meta(text, "og:image:height")) == tuple(map(str, ae_seo.CARD_SIZE))
    assert _meta(text, "og:locale") == "en_US" and _meta(text, "description") == _meta(text, "og:description")
    assert text.count('name="description"') == 1, "one description: ae_seo's, not the library's too"
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = [u.text for u in ET.parse(addressed_book / "sitemap.xml").getroot().findall("s:url/s:loc", ns)]
    assert urls == [SITE_URL + "page.html"], urls  # no search or index page


def test_og_locale_names_the_territory():
    assert [ae_seo.og_locale(lang, code) for lang, code in (("en", "en"), ("zh_CN", "zh"), ("fr", "fr"))] == [
        "en_US",
        "zh_CN",
        "fr_FR",
    ]
    assert ae_seo.og_locale("de-AT", "de") == "de_AT"


def test_the_card_image_is_a_png_of_open_graphs_size(site):
    from PIL import Image

    for edition in editions():
        card = ae_seo.edition_root(site, edition) / "_static" / ae_seo.CARD
        if not card.exists():  # identical to the English card: shared
            card = site / "_static" / ae_seo.CARD
        with Image.open(card) as image:
            assert image.format == "PNG" and image.size == ae_seo.CARD_SIZE


def test_a_file_that_would_grow_gets_no_compressed_copy(tmp_path):
    (tmp_path / "tiny.css").write_text("a{}")
    (tmp_path / "big.css").write_text("a { color: red; }\n" * 200)
    ae_seo.compress(tmp_path)
    assert not (tmp_path / "tiny.css.gz").exists() and not (tmp_path / "tiny.css.br").exists()
    assert (tmp_path / "big.css.gz").stat().st_size < (tmp_path / "big.css").stat().st_size


def test_a_file_the_build_no_longer_writes_loses_its_compressed_copies(tmp_path):
    """A rebuild into the same folder: the copies of a file the new build removed are removed too (a host would
    still serve them); a file's own copies, and a .gz that is not one of ours, stay."""
    (tmp_path / "gone.js").write_text("var x = 1;\n" * 200)
    (tmp_path / "kept.js").write_text("var y = 2;\n" * 200)
    (tmp_path / "data.tar.gz").write_bytes(b"not ours")
    ae_seo.compress(tmp_path)
    (tmp_path / "gone.js").unlink()
    ae_seo.compress(tmp_path)
    assert not list(tmp_path.glob("gone.js*"))
    assert (tmp_path / "kept.js.gz").exists() and (tmp_path / "kept.js.br").exists()
    assert (tmp_path / "data.tar.gz").read_bytes() == b"not ours"
