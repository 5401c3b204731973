"""What search engines and link previews read, and how the finished site is shipped.

The libraries do their jobs; this module gives them each edition's settings and does what none of them does:

- **Sphinx** writes each page's canonical link (``html_baseurl``: the edition's own address), **sphinxext-opengraph**
  the Open Graph tags (title, type, site name, url, image) and the meta description, **sphinx-sitemap** each
  edition's ``sitemap.xml`` (its pages at its own address). :func:`_settings` (config-inited) sets them per edition
  from the site's public address (:func:`site_address`: ``--site-url``/``make book SITE_URL=...``, which
  ``attention_workshop.build_book`` hands the builds as ``AE_SITE_URL``, else ``html: baseurl:`` in ``_config.yml``):
  the English edition at the address, every other one in its ``<language>/`` folder. Without an address none of
  the absolute links is written and the build says so in one line.
- **Ours, in the Sphinx build**: the description each page gives the library (:func:`description`: the first
  sentences of the page's prose, without the ones holding math, trimmed to about 155 characters, a CJK character
  counting as two: the library's own would quote TeX and headings and cut a word), ``og:locale`` from the edition's
  language (:func:`og_locale`, with CLDR's likely territory: ``fr_FR``, ``zh_CN``; the library writes none), and
  the book's card image ``_static/ae-card.png`` (1200 x 630, drawn at build time from the favicon's three bars and
  the edition's title: :func:`write_card`; one per edition, where the library's social cards would draw one per
  page).
- **Ours, after every edition is built** (:func:`publish`, called by ``attention_workshop.build_book``):
  1. the translated editions load the static files and figures that are byte-identical in English from the
     English folders (``zh/_static/x`` -> ``../_static/x``, the copy deleted: :func:`share_assets`), so that
     switching language downloads only the page;
  2. with the site's public address, every page gets an absolute ``hreflang`` alternate for every edition that has
     it and ``x-default`` (English) (:func:`add_alternates`: sphinx-sitemap writes alternates only for a site whose
     every language, the first included, sits in a folder named by its Sphinx language, and never into pages), and
     ``robots.txt`` names every edition's sitemap;
  3. every text file (HTML, CSS, JS, SVG, JSON, XML, TXT) gets a gzip (``.gz``) and a Brotli (``.br``) copy
     beside it, for servers that send precompressed files (``python -m attention_workshop.serve``).
"""

from __future__ import annotations

import gzip
import html
import os
import pathlib
import posixpath
import re
import unicodedata
from urllib.parse import urlsplit

from attention_core import files
from attention_workshop.paths import ENGLISH, ROOT, editions, translations

ENV = "AE_SITE_URL"  # the site's public address, for a build run without --site-url
CARD = "ae-card.png"  # under _static/: the Open Graph image of every page of the edition
CARD_SIZE = (1200, 630)
DESCRIPTION_LIMIT = 155  # characters a search result shows of a description (a CJK character counts as two)


# ---------------------------------------------------------------------------------------------------------
# The site's public address: one source for the pages, the sitemap and the PDFs (attention_workshop.build_pdf)


def site_address(given: str | None = None) -> str:
    """The website's public address, ending in "/": ``given`` (``--site-url``) if not None, else the environment
    variable ``AE_SITE_URL`` if set, else ``html: baseurl:`` in ``_config.yml`` (one setting for the whole site;
    every edition lives under it); "" if none is set."""
    if given is None:
        given = os.environ.get(ENV) or None
    if given is None:
        import yaml

        config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
        given = str((config.get("html") or {}).get("baseurl") or "")
    given = given.strip()
    if given and not urlsplit(given).scheme.startswith("http"):
        raise ValueError(f"the site's address must be a full http(s) address, not {given!r}")
    return given.rstrip("/") + "/" if given else ""


def edition_address(site_url: str, edition: str) -> str:
    """The address of an edition's folder of the website: the site's, or its ``<language>/`` folder ("" without
    one)."""
    return site_url and site_url.rstrip("/") + "/" + ("" if edition == ENGLISH else f"{edition}/")


# ---------------------------------------------------------------------------------------------------------
# Descriptions: the page's own first sentences


def width(text: str) -> int:
    """The width a search result gives ``text``: a wide (CJK) character counts as two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])\s*")
MATH = "\ufffc"  # stands for a formula while the text is cut into sentences: such sentences are left out


def _join(a: str, b: str) -> str:
    if not a:
        return b
    return a + ("" if unicodedata.east_asian_width(a[-1]) in "WF" else " ") + b


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def trim(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """``text`` in at most ``limit`` (:func:`width`): whole sentences if they fill at least half of it, else cut
    at the last word (or, in CJK text, after the last comma, else at a character) with an ellipsis."""
    text = " ".join(text.split())
    if width(text) <= limit:
        return text
    kept = ""
    for sentence in sentences(text):
        if width(_join(kept, sentence)) > limit:
            break
        kept = _join(kept, sentence)
    if width(kept) >= limit // 2:
        return kept
    used, end = 0, len(text)
    for i, char in enumerate(text):
        used += width(char)
        if used > limit - 1:  # room for the ellipsis
            end = i
            break
    head = text[:end]
    if unicodedata.east_asian_width(head[-1:] or " ") in "WF":
        comma = max(head.rfind(c) for c in "，、；：")
        head = head[: comma + 1] if comma > len(head) // 2 else head
    else:  # a word cut in two goes; in CJK text a word ends at the last CJK character, not at the last space
        whole = re.sub(r"[^\s\u3000-\u9fff\uff00-\uffef]+$", "", head)
        head = whole if whole.strip() else head
    return head.rstrip(" ,;:–—-(，、；：") + "…"


def _prose(node) -> str:
    """The text of a paragraph, each formula replaced by :data:`MATH`."""
    from docutils import nodes

    if isinstance(node, (nodes.math, nodes.math_block)):
        return MATH
    if isinstance(node, nodes.Text):
        return str(node)
    return "".join(_prose(child) for child in node.children)


def description(doctree, limit: int = DESCRIPTION_LIMIT) -> str:
    """A page's description: the sentences of its prose (paragraphs directly in a section, not in a box, a list,
    a table or a cell's output) in order, without those holding a formula, until ``limit`` is filled; trimmed by
    :func:`trim`. "" for a page without such prose."""
    from docutils import nodes

    text = ""
    for paragraph in doctree.findall(nodes.paragraph):
        if not isinstance(paragraph.parent, (nodes.section, nodes.document)):
            continue
        for sentence in sentences(_prose(paragraph)):
            if MATH not in sentence:
                text = _join(text, sentence)
        if width(text) >= limit:
            break
    return trim(text, limit)


def book_title(app) -> str:
    """The edition's title (``title`` in its ``_config.yml``, which Jupyter Book passes as ``html_title``)."""
    return str(app.config.html_title or app.config.project)


def og_locale(language: str | None, edition: str) -> str:
    """Open Graph's ``language_TERRITORY`` for an edition whose Sphinx ``language`` is ``language``: as given where
    it names a territory (``zh_CN``), else with CLDR's likely territory for the language (Babel: ``fr`` ->
    ``fr_FR``, ``en`` -> ``en_US``)."""
    from babel.core import get_global

    code = str(language or edition).replace("-", "_")
    parts = code.split("_")
    if len(parts) > 1 and parts[-1].isupper():
        return f"{parts[0]}_{parts[-1]}"
    likely = get_global("likely_subtags").get(parts[0], "")
    territory = likely.split("_")[-1] if likely.count("_") >= 1 else ""
    return f"{parts[0]}_{territory}" if territory.isupper() else parts[0]


def _description(app, pagename, templatename, context, doctree):
    """Give sphinxext-opengraph the page's description (:func:`description`) as the page's own ``og:description``
    field, and write it as the page's meta description, so the library writes no description of its own (its
    html-page-context handler runs after this one)."""
    if doctree is None or templatename != "page.html":
        return
    text = description(doctree)
    if not text:
        return
    if context.get("meta") is None:
        context["meta"] = {}
    context["meta"]["og:description"] = text
    context["metatags"] = context.get("metatags", "") + f'\n<meta name="description" content="{html.escape(text)}" />'


# ---------------------------------------------------------------------------------------------------------
# The card image (og:image): drawn at build time, per edition (its title in its language)


def write_card(path: pathlib.Path, title: str) -> None:
    """Draw the book's card: the favicon's three bars (book/_assets/favicon.svg, same colours) and the edition's
    title (each part of "A · B" on a line of its own), 1200 x 630 PNG, byte-identical for the same title."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import attention_core.figures  # noqa: F401  (registers the CJK font matplotlib falls back to)

    w, h = CARD_SIZE
    fig = plt.figure(figsize=(w / 100, h / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.axis("off")
    fig.patch.set_facecolor("#1f4e79")
    # the favicon's bars (x, y from the top, height in a 32-unit box), scaled into a 360-unit square on the left
    scale, left, top = 360 / 32, 80, (h - 360) / 2
    for x, y, height, colour in ((5, 18, 9, "#9ecae1"), (13, 8, 19, "#ffffff"), (21, 14, 13, "#9ecae1")):
        ax.add_patch(
            matplotlib.patches.Rectangle(
                (left + x * scale, h - top - (y + height) * scale), 6 * scale, height * scale, color=colour
            )
        )
    lines = [part.strip() for part in title.split(" · ") if part.strip()]
    for i, line in enumerate(lines):
        size = 64 if i == 0 else 40
        y = h / 2 + (len(lines) - 1) * 45 - i * 100
        bold = i == 0 and not any(unicodedata.east_asian_width(c) in "WF" for c in line)  # the CJK font has one weight
        style = {"fontweight": "bold", "fontfamily": "DejaVu Sans"} if bold else {}
        text = ax.text(500, y, line, color="white", fontsize=size, va="center", **style)
        room = w - 500 - 50  # the line is made smaller until it fits beside the bars
        drawn = text.get_window_extent(renderer=fig.canvas.get_renderer()).width
        if drawn > room:
            text.set_fontsize(size * room / drawn)
    path.parent.mkdir(parents=True, exist_ok=True)
    with files.replacing(path, "wb") as out:
        fig.savefig(out, format="png", dpi=100, facecolor=fig.get_facecolor(), metadata={"Software": None})
    plt.close(fig)


def _card(app, exception):
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    write_card(pathlib.Path(app.outdir) / "_static" / CARD, book_title(app))


def _settings(app, config):
    """Each edition's settings for Sphinx's canonical link, sphinxext-opengraph and sphinx-sitemap (config-inited):
    its address (:func:`edition_address`), the card, ``og:locale`` and the summary card for Twitter/X. Without a
    public address Sphinx writes no canonical link, the library no absolute ``og:url`` or ``og:image``, and
    sphinx-sitemap no sitemap (its warning that it has no address is left to :func:`publish`'s one line)."""
    edition = getattr(config, "ae_edition", None) or ENGLISH
    address = edition_address(site_address(), edition)
    config.html_baseurl = address
    config.ogp_site_url = address
    config.ogp_site_name = str(config.html_title or config.project).split(" · ")[0]
    config.ogp_social_cards = {"enable": False}  # one card per edition (write_card), not one per page
    config.ogp_image = f"_static/{CARD}" if address else None
    tags = [_tag("og:locale", og_locale(config.language, edition)), _tag("twitter:card", "summary_large_image", "name")]
    if address:
        tags += [_tag("og:image:width", str(CARD_SIZE[0])), _tag("og:image:height", str(CARD_SIZE[1]))]
    config.ogp_custom_meta_tags = tags
    config.site_url = address
    config.sitemap_url_scheme = "{link}"  # the address is the edition's own folder
    config.sitemap_locales = [None]  # alternates: add_alternates, in the pages
    config.sitemap_excludes = ["search.html", "genindex.html"]
    config.suppress_warnings = [*config.suppress_warnings, "sitemap.configuration"]


def _tag(prop: str, content: str, attr: str = "property") -> str:
    return f'<meta {attr}="{prop}" content="{html.escape(content, quote=True)}" />'


def setup(app):
    app.connect("config-inited", _settings)
    app.connect("html-page-context", _description, priority=400)  # before sphinxext-opengraph's (500)
    app.connect("build-finished", _card)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


# ---------------------------------------------------------------------------------------------------------
# After the build: shared assets, absolute links, sitemap, compressed copies

SHARED = ("_static", "_images")  # the folders whose identical files the translated editions take from English
OTHER_FOLDERS = {"_static", "_images", "_sources", "_pdf", "_sphinx_design_static", "_panels_static"}
ASSET_REF = re.compile(r"""(?<![\w/.])((?:\.\./)*)(_static|_images)/([^"'\s)?#]+)""")
TEXT = (".html", ".css", ".js", ".svg", ".json", ".xml", ".txt")
ALTERNATES = re.compile(r'\n?<link rel="alternate" hreflang="[^"]*" href="https?://[^"]*">')


def edition_root(html_root: pathlib.Path, edition: str) -> pathlib.Path:
    return html_root if edition == ENGLISH else html_root / edition


def pages(html_root: pathlib.Path, edition: str) -> list[str]:
    """The HTML pages of an edition, as paths relative to its folder (``notebooks/05_additive_score.html``),
    without the other editions' folders and the asset folders."""
    root = edition_root(html_root, edition)
    skip = OTHER_FOLDERS | (set(translations()) if edition == ENGLISH else set())
    found = []
    for page in root.rglob("*.html"):
        rel = page.relative_to(root)
        if rel.parts[0] not in skip:
            found.append(rel.as_posix())
    return sorted(found)


def is_book_page(text: str) -> bool:
    """A page of the book (written from page.html: sphinxext-opengraph gave it og:title), not a redirect, search or
    index page."""
    return '<meta property="og:title"' in text


def share_assets(html_root: pathlib.Path) -> tuple[int, int]:
    """Make every translated edition load the files of its ``_static/`` and ``_images/`` that are byte-identical in
    English from the English folders, and delete its copies. Returns (files shared, bytes saved)."""
    count = saved = 0
    for lang in translations():
        root = html_root / lang
        if not root.is_dir():
            continue
        shared: set[str] = set()
        for folder in SHARED:
            for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
                if not path.is_file() or path.suffix in (".gz", ".br"):
                    continue
                rel = path.relative_to(root).as_posix()
                english = html_root / rel
                if english.is_file() and english.read_bytes() == path.read_bytes():
                    shared.add(rel)
        # kept text files of the edition's own folders may point at shared ones too (a stylesheet's url(...))
        texts = [root / p for p in pages(html_root, lang)]
        texts += [
            p for f in SHARED if (root / f).is_dir() for p in (root / f).rglob("*") if p.suffix in (".css", ".js")
        ]
        for path in texts:
            if not path.is_file() or path.relative_to(root).as_posix() in shared:
                continue
            text = path.read_text(encoding="utf-8")
            new = _point_at_english(text, path, root, html_root, shared)
            if new != text:
                files.write_text(path, new)
        for rel in shared:
            path = root / rel
            saved += path.stat().st_size
            path.unlink()
            for ext in (".gz", ".br"):
                path.with_name(path.name + ext).unlink(missing_ok=True)
            count += 1
        for folder in SHARED:
            for sub in sorted((root / folder).rglob("*"), reverse=True) if (root / folder).is_dir() else []:
                if sub.is_dir() and not any(sub.iterdir()):
                    sub.rmdir()
    return count, saved


def _point_at_english(text: str, path: pathlib.Path, root: pathlib.Path, html_root: pathlib.Path, shared) -> str:
    here = path.parent

    def repoint(match):
        target = (here / match.group(0)).resolve()
        try:
            rel = target.relative_to(root.resolve()).as_posix()
        except ValueError:
            return match.group(0)
        if rel not in shared:
            return match.group(0)
        return posixpath.relpath((html_root / rel).as_posix(), here.as_posix())

    return ASSET_REF.sub(repoint, text)


def _alternates(site_url: str, html_root: pathlib.Path, page: str) -> str:
    """The ``hreflang`` links of one page: every edition that has the page, and ``x-default`` (English)."""
    from attention_workshop.ae_lang import html_lang

    tags = ""
    for other in editions():
        if (edition_root(html_root, other) / page).is_file():
            href = html.escape(edition_address(site_url, other) + page)
            tags += f'\n<link rel="alternate" hreflang="{html_lang(other)}" href="{href}">'
    if (html_root / page).is_file():
        tags += f'\n<link rel="alternate" hreflang="x-default" href="{html.escape(site_url + page)}">'
    return tags


def add_alternates(html_root: pathlib.Path, site_url: str) -> dict[str, list[str]]:
    """Write each book page's ``hreflang`` alternates (:func:`_alternates`) into its head, replacing those an
    earlier run wrote; return edition -> its book pages."""
    book: dict[str, list[str]] = {}
    for edition in editions():
        for page in pages(html_root, edition):
            path = edition_root(html_root, edition) / page
            text = path.read_text(encoding="utf-8")
            if not is_book_page(text):
                continue
            book.setdefault(edition, []).append(page)
            head, sep, rest = ALTERNATES.sub("", text).partition("</head>")
            files.write_text(path, head.rstrip("\n ") + _alternates(site_url, html_root, page) + "\n" + sep + rest)
    return book


def robots(site_url: str, html_root: pathlib.Path) -> str:
    """``robots.txt``: every page allowed, and every edition's sitemap (written by sphinx-sitemap) named."""
    maps = [
        edition_address(site_url, e) + "sitemap.xml"
        for e in editions()
        if (edition_root(html_root, e) / "sitemap.xml").is_file()
    ]
    return "User-agent: *\nAllow: /\n\n" + "".join(f"Sitemap: {m}\n" for m in maps)


def compress(html_root: pathlib.Path) -> tuple[int, bool]:
    """Write ``.gz`` (gzip, level 9, no time stamp) and ``.br`` (Brotli, quality 10) beside every text file whose
    copies are missing or older, where the copy is smaller than the file, and remove the copies of a file an
    earlier build wrote and this one did not (a host would still serve them). Returns (text files found, whether
    Brotli was available).

    Brotli's quality 10 rather than its highest, 11: on the built site (6.6 MB of text) 11 took 36 s on a busy
    2-core machine and 10 took 10 s, for 2 % more bytes (1.13 MB instead of 1.11 MB)."""
    try:
        import brotli
    except ImportError:
        brotli = None
    count = 0
    for path in sorted(html_root.rglob("*")):
        if path.suffix in (".gz", ".br") and path.with_suffix("").suffix in TEXT and not path.with_suffix("").exists():
            path.unlink()
            continue
        if not path.is_file() or path.suffix not in TEXT:
            continue
        data = None
        for ext, pack in (
            (".gz", lambda d: gzip.compress(d, 9, mtime=0)),
            (".br", brotli and (lambda d: brotli.compress(d, quality=10))),
        ):
            if pack is None:
                continue
            out = path.with_name(path.name + ext)
            if out.exists() and out.stat().st_mtime >= path.stat().st_mtime:
                continue
            data = path.read_bytes() if data is None else data
            packed = pack(data)
            if len(packed) < len(data):
                files.write_bytes(out, packed)
            else:  # a tiny file grows when compressed: a host would send more, so there is no copy
                out.unlink(missing_ok=True)
        count += 1
    return count, brotli is not None


def publish(html_root: pathlib.Path, site_url: str) -> list[str]:
    """Finish a built site (every edition built): shared assets, the ``hreflang`` alternates and robots.txt (with an
    address), compressed copies. Returns the lines to print."""
    said = []
    count, saved = share_assets(html_root)
    if count:
        said.append(
            f"ae_seo: {count} files the editions share are loaded from the English folders ({saved / 1024:.0f} KiB)"
        )
    for path in (html_root / "robots.txt", html_root / "robots.txt.gz", html_root / "robots.txt.br"):
        path.unlink(missing_ok=True)
    if site_url:
        add_alternates(html_root, site_url)
        files.write_text(html_root / "robots.txt", robots(site_url, html_root))
    else:
        said.append(
            "ae_seo: no site address (html: baseurl: in _config.yml, or make book SITE_URL=https://...): "
            "canonical links, hreflang alternates, og:url, og:image, sitemap.xml and robots.txt are omitted"
        )
    _, has_brotli = compress(html_root)
    if not has_brotli:
        said.append("ae_seo: the brotli package is missing (pip install -r requirements.txt): only .gz copies written")
    return said
