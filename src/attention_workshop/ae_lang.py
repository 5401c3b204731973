"""The language switch: every page links to the same page in every other edition (English, 中文, ...).

The English book is built into ``_build/html`` and each other edition (generated into ``<language>/`` by
``src/attention_workshop/editions/``) into ``_build/html/<language>``, with the same page names, so the counterpart of
``notebooks/07_learning_without_labels.html`` is ``zh/notebooks/07_learning_without_labels.html`` and back. The
switch is an ordinary link per edition at the top of the article, named in that edition's language (reachable
with the keyboard, named for screen readers, marked with its language), and a small script carries the current
``#section`` across: every edition has the English section anchors (:func:`_english_anchors`), so a reader lands on
the same section. Each page also declares its counterparts with absolute ``<link rel="alternate" hreflang=...>``
links when the site has a public address (``attention_workshop.ae_seo``).

Configured per edition in its ``_config.yml``: ``ae_edition`` is the edition's language code.

**Chinese search.** Sphinx splits Chinese text into words with jieba when it writes the search index, but the
search page does not split the reader's query: a query such as 上下文向量 is looked up as one word, and jieba,
which does not know the term, indexes only 上下文 and 向量. So for the Chinese edition the glossary's Chinese
terms (``book/glossary.md``, the book's one list of term pairs) become a jieba user dictionary
(``html_search_options["dict"]``); jieba then indexes each term whole as well as its parts.
"""

from __future__ import annotations

import html
import pathlib
import re
from typing import NamedTuple

from attention_workshop.paths import ENGLISH, ROOT, complete, editions
from attention_workshop.paths import name as edition_name


def html_lang(edition: str) -> str:
    """The HTML ``lang`` of an edition: its Sphinx ``language`` (``zh_CN``) written as a BCP 47 tag (``zh-CN``)."""
    config_file = ROOT / edition / "_config.yml"
    if edition == ENGLISH or not config_file.exists():
        return "en" if edition == ENGLISH else edition
    import yaml

    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    return str(config["sphinx"]["config"].get("language", edition)).replace("_", "-")


CARRY_HASH = (  # and the search page's ?q=...: the other edition's search page runs the same query
    "document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.ae-lang-switch');"
    "if(a&&location.hash){a.hash=location.hash;}"
    "if(a&&location.search&&/search\\.html$/.test(a.pathname)){a.search=location.search;}});"
)


CJK = re.compile(r"[\u3400-\u9fff]")


class Term(NamedTuple):
    """One entry of the book's term list (``book/glossary.md``): its English terms, its Chinese terms (the first is
    the one the book uses) and the Chinese aliases other writing uses, which readers may search for but the book
    does not write (listed in the entry as "Chinese aliases: ...")."""

    english: list[str]
    chinese: list[str]
    aliases: list[str]


ALIASES = re.compile(r"Chinese aliases: (.+?)\.\s*$", re.S)


def term_list(glossary: pathlib.Path = ROOT / "book" / "glossary.md") -> list[Term]:
    """The entries of the English glossary, the book's one list of terms."""
    terms, inside, entry, definition = [], False, None, []

    def close():
        if entry is not None:
            text = " ".join(line.strip() for line in definition)
            match = ALIASES.search(text)
            aliases = [re.sub(r"\s*\(.*?\)", "", a).strip() for a in match.group(1).split(",")] if match else []
            terms.append(Term(entry[0], entry[1], aliases))

    for line in glossary.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            close()
            entry, definition, inside = None, [], line.startswith("```{glossary}")
            continue
        if not inside or not line.strip():
            continue
        if not line[0].isspace():
            if definition:
                close()
                entry, definition = None, []
            entry = entry or ([], [])
            entry[1 if CJK.search(line) else 0].append(line.strip())
        else:
            definition.append(line)
    return terms


def glossary_terms(glossary: pathlib.Path = ROOT / "book" / "glossary.md") -> list[str]:
    """Every Chinese term and alias of the term list: jieba's user dictionary for the Chinese search."""
    return list(dict.fromkeys(t for term in term_list(glossary) for t in [*term.chinese, *term.aliases]))


def _search_terms(app, config):
    """Give jieba the glossary's Chinese terms before the search index is built (config-inited)."""
    if not str(config.html_search_language or "").startswith("zh"):
        return
    glossary = ROOT / "book" / "glossary.md"  # the English page holds the term list, Chinese terms and aliases
    folder = pathlib.Path(app.doctreedir)
    folder.mkdir(parents=True, exist_ok=True)
    words = folder / "ae-search-terms.txt"
    words.write_text("".join(f"{t}\n" for t in glossary_terms(glossary) if " " not in t), encoding="utf-8")
    config.html_search_options = {**(config.html_search_options or {}), "dict": str(words)}


def counterpart(edition: str, other: str, pagename: str) -> str:
    """The URL of ``pagename`` in the ``other`` edition, relative to the page in ``edition``."""
    up = "../" * pagename.count("/") + ("" if edition == ENGLISH else "../")
    folder = "" if other == ENGLISH else f"{other}/"
    return f"{up}{folder}{pagename}.html"


def pdf_name(edition: str) -> str:
    """The file name of an edition's PDF (``build_pdf`` prints it and puts it in the edition's folder)."""
    return "attention-executable.pdf" if edition == ENGLISH else f"attention-executable-{edition}.pdf"


def _link(edition: str, pagename: str) -> str:
    """One link per other edition, each named in its own language (``locale/editions.toml``), the link to this
    edition's PDF, named in this edition's language, and, in an edition whose translation is in progress, a note
    saying how much of it is translated (in its own language)."""
    from attention_core.explorers.site import PAGE

    links = []
    for other in editions():
        if other == edition:
            continue
        lang = html_lang(other)
        links.append(
            f'<a class="ae-lang-switch" href="{html.escape(counterpart(edition, other, pagename))}" lang="{lang}" '
            f'hreflang="{lang}" aria-label="{html.escape(PAGE.text("read_in", other))}">'
            f"{html.escape(edition_name(other))}</a>"
        )
    pdf = "../" * pagename.count("/") + pdf_name(edition)
    links.append(
        f'<a class="ae-pdf-link" href="{html.escape(pdf)}" type="application/pdf">'
        f"{html.escape(PAGE.text('pdf_link', edition))}</a>"
    )
    bar = f'<p class="ae-lang-switch-bar">{" ".join(links)}</p>'
    if edition != ENGLISH and not complete(edition):
        done, total = _completeness(edition)
        note = PAGE.text("in_progress", edition).format(done=done, total=total)
        bar += f'<p class="ae-in-progress" role="note">{html.escape(note)}</p>'
    return bar


_SHARES: dict[str, tuple[int, int]] = {}


def _completeness(edition: str) -> tuple[int, int]:
    """(entries translated, entries in all) of an edition, counted once per build from its translation files."""
    if edition not in _SHARES:
        from attention_workshop.editions.catalog import completeness

        _SHARES[edition] = completeness(edition)
    return _SHARES[edition]


# Pages the theme writes from its own templates (no ``body`` in the context): the switch goes in after the build.
TEMPLATE_PAGES = ("search", "genindex")
ARTICLE_START = re.compile(r'<article class="bd-article"[^>]*>|<div class="bd-article-container">')


def _switch_on_template_pages(app, exception):
    edition = app.config.ae_edition
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    for name in TEMPLATE_PAGES:
        page = pathlib.Path(app.outdir) / f"{name}.html"
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        if "ae-lang-switch" in text.split("</head>", 1)[-1]:
            continue
        match = ARTICLE_START.search(text)
        if match:
            text = text[: match.end()] + _link(edition, name) + text[match.end() :]
            page.write_text(text, encoding="utf-8")


def _switch(app, pagename, templatename, context, doctree):
    edition = app.config.ae_edition
    if templatename != "page.html":
        return
    context["body"] = _link(edition, pagename) + context.get("body", "")
    # the page's <link rel="alternate" hreflang=...> declarations are absolute, so they are written once the site's
    # address is known: attention_workshop.ae_seo.publish


HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```+|~~~+|:::+)")


def english_headings(docname: str) -> list[str]:
    """The section titles of the English source of ``docname``, in order (markdown headings outside fenced
    blocks and directives, in a page or in a notebook's markdown cells)."""
    import json

    path = ROOT / f"{docname}.md"
    if path.exists():
        texts = [path.read_text(encoding="utf-8")]
    else:
        path = ROOT / f"{docname}.ipynb"
        if not path.exists():
            return []
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    titles = []
    for text in texts:
        fence = None
        for line in text.splitlines():
            match = FENCE.match(line)
            if match and fence is None:
                fence = match.group(1)
            elif fence is not None and line.strip() == fence:
                fence = None
            elif fence is None and (heading := HEADING.match(line)):
                titles.append(heading.group(2))
    return titles


def section_id(title: str) -> str:
    """The id docutils gives a section with this markdown title (inline markup and math delimiters dropped)."""
    from docutils import nodes

    text = re.sub(r"\{[a-z]+\}`([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", title)  # {role}`text <target>` -> text
    text = re.sub(r"[`*$]|\\\(|\\\)", "", text)
    return nodes.make_id(nodes.fully_normalize_name(text))


def _english_anchors(app, doctree):
    """Give every section of a translated page the id of its English counterpart as its first id (doctree-read,
    before the contents list is collected), so that the page's contents list and heading links use it and a link
    or the language switch carrying ``#section`` lands on the same section in every direction."""
    if app.config.ae_edition == ENGLISH:
        return
    from docutils import nodes
    from sphinx.util import logging

    docname = app.env.docname
    titles = english_headings(docname)
    sections = list(doctree.findall(nodes.section))
    if len(titles) != len(sections):
        logging.getLogger(__name__).warning(
            f"{docname}: {len(sections)} sections but the English has {len(titles)}: the anchors cannot be shared"
        )
        return
    wanted = [section_id(t) for t in titles]
    for section, anchor in zip(sections, wanted, strict=True):
        if anchor and wanted.count(anchor) == 1:
            # first, so the page's contents list, the heading's own link and the switch all use the English id;
            # the edition's own ids (its title's, a label's) stay as further anchors
            if anchor in section["ids"]:
                section["ids"].remove(anchor)
            section["ids"].insert(0, anchor)
            doctree.ids[anchor] = section


# The words the theme (sphinx-book-theme, pydata-sphinx-theme) and Sphinx write on every page that their own
# translations leave English or write in another variety (the book theme's zh_CN says 列印 where mainland readers
# expect 打印). Each edition translates them in locale/<language>/LC_MESSAGES/theme.po (``editions`` keeps that file in
# step with this list); the build puts the translation into every page of the edition.
THEME_STRINGS = (
    "Search this book...",
    "Color mode",
    "System Settings",
    "Light",
    "Dark",
    "Main",
    "Page",
    "Toggle primary sidebar",
    "Toggle secondary sidebar",
    "Toggle hidden content",
    "Link to this heading",
    "Link to this equation",
    "Print to PDF",
    "Download this page",
    "Back to top",
    "Contents",
    "© Copyright 2026.",
    # the pydata theme's own words, which it has no Chinese catalog for (its search page's sentence differs from
    # Sphinx's by a line break, so Sphinx's translation does not reach it either)
    "Skip to main content",
    "Site navigation",
    "Version warning",
    "Please activate JavaScript to enable the search functionality.",
)


def _theme_translation(lang: str) -> dict[str, str]:
    import polib

    from attention_core.lang import PSEUDO, pseudo

    if lang == PSEUDO:
        return {text: pseudo(text) for text in THEME_STRINGS}

    path = ROOT / "locale" / lang / "LC_MESSAGES" / "theme.po"
    if not path.exists():
        return {}
    return {e.msgid: e.msgstr for e in polib.pofile(str(path)) if e.msgstr and "fuzzy" not in e.flags}


def _translated_page(text: str, table: dict[str, str]) -> str:
    """``text`` with each shown string of ``table``, where it stands whole as an attribute value or as an element's
    text, replaced by its translation. A translation is text: inserted as it is (a backslash or ``\\1`` is no
    regular-expression replacement) and HTML-escaped (``&``, ``<b>`` show as written)."""
    for shown, translated in table.items():
        for quote in ('"', "'"):
            text = text.replace(f"={quote}{shown}{quote}", f"={quote}{html.escape(translated)}{quote}")
        element_text = html.escape(translated, quote=False)
        text = re.sub(
            rf">(\s*){re.escape(html.escape(shown, quote=False))}(\s*)<",
            lambda m, t=element_text: f">{m.group(1)}{t}{m.group(2)}<",
            text,
        )
    return text


def _theme_words(app, exception):
    """Write the edition's words for the theme's fixed strings into every page (build-finished): the English, or
    what the theme's or Sphinx's own catalog made of it, becomes the edition's translation."""
    edition = app.config.ae_edition
    if exception is not None or edition == ENGLISH or getattr(app.builder, "format", "") != "html":
        return
    from sphinx.locale import get_translation

    catalogs = [get_translation(name) for name in ("sphinx", "booktheme")]
    table = {}
    for english, translated in _theme_translation(edition).items():
        for shown in {english, *(str(catalog(english)) for catalog in catalogs)}:
            table[shown] = translated
    for page in pathlib.Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = _translated_page(text, table)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app):
    app.add_config_value("ae_edition", "en", "html")
    app.connect("config-inited", _search_terms)
    app.connect("html-page-context", _switch)
    app.connect("doctree-read", _english_anchors, priority=100)  # before Sphinx's contents list reads the ids
    app.connect("build-finished", _switch_on_template_pages)
    app.connect("build-finished", _theme_words)
    app.add_js_file(None, body=CARRY_HASH)
    app.add_css_file("ae-lang.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
