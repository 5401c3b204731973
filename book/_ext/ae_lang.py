"""The language switch: every page links to the same page in the other edition (English <-> 中文).

The English book is built into ``_build/html`` and the Chinese one (``zh/``) into ``_build/html/zh``, with the
same page names, so the counterpart of ``notebooks/07_learning_without_labels.html`` is
``zh/notebooks/07_learning_without_labels.html`` and back. The switch is an ordinary link at the top of the
article (reachable with the keyboard, named for screen readers, marked with the other language), and a small
script carries the current ``#section`` across, so a reader lands on the same section where both editions share
the label. Each page also declares its counterpart with ``<link rel="alternate" hreflang=...>``.

Configured per edition in ``_config.yml`` / ``zh/_config.yml``: ``ae_edition`` is ``"en"`` or ``"zh"``.

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

EDITIONS = {
    # this edition -> (folder of the other edition relative to this one's root, its language, link text, name)
    "en": ("zh/", "zh-CN", "中文", "阅读本页的中文版"),
    "zh": ("../", "en", "English", "Read this page in English"),
}
CARRY_HASH = (  # and the search page's ?q=...: the other edition's search page runs the same query
    "document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.ae-lang-switch');"
    "if(a&&location.hash){a.hash=location.hash;}"
    "if(a&&location.search&&/search\\.html$/.test(a.pathname)){a.search=location.search;}});"
)


CJK = re.compile(r"[\u3400-\u9fff]")


def glossary_terms(glossary: pathlib.Path) -> list[str]:
    """The Chinese terms of a glossary page: the unindented term lines of its ``{glossary}`` blocks."""
    terms, inside = [], False
    for line in glossary.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.startswith("```{glossary}")
            continue
        if inside and line.strip() and not line[0].isspace() and CJK.search(line):
            terms.append(line.strip())
    return list(dict.fromkeys(terms))


def _search_terms(app, config):
    """Give jieba the glossary's Chinese terms before the search index is built (config-inited)."""
    if config.ae_edition != "zh" or not str(config.html_search_language or "").startswith("zh"):
        return
    glossary = pathlib.Path(app.confdir) / "book" / "glossary.md"
    if not glossary.exists():
        return
    folder = pathlib.Path(app.doctreedir)
    folder.mkdir(parents=True, exist_ok=True)
    words = folder / "ae-search-terms.txt"
    words.write_text("".join(f"{t}\n" for t in glossary_terms(glossary) if " " not in t), encoding="utf-8")
    config.html_search_options = {**(config.html_search_options or {}), "dict": str(words)}


def counterpart(edition: str, pagename: str) -> str:
    """The URL of ``pagename`` in the other edition, relative to the page itself."""
    folder = EDITIONS[edition][0]
    up = "../" * pagename.count("/")
    return f"{up}{folder}{pagename}.html"


def _link(edition: str, pagename: str) -> str:
    href = counterpart(edition, pagename)
    _, lang, text, name = EDITIONS[edition]
    return (
        f'<p class="ae-lang-switch-bar"><a class="ae-lang-switch" href="{html.escape(href)}" lang="{lang}" '
        f'hreflang="{lang}" aria-label="{html.escape(name)}">{html.escape(text)}</a></p>'
    )


# Pages the theme writes from its own templates (no ``body`` in the context): the switch goes in after the build.
TEMPLATE_PAGES = ("search", "genindex")
ARTICLE_START = re.compile(r'<article class="bd-article"[^>]*>|<div class="bd-article-container">')


def _switch_on_template_pages(app, exception):
    edition = app.config.ae_edition
    if exception is not None or edition not in EDITIONS or getattr(app.builder, "format", "") != "html":
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
    if edition not in EDITIONS or templatename != "page.html":
        return
    href = counterpart(edition, pagename)
    _, lang, _, _ = EDITIONS[edition]
    context["body"] = _link(edition, pagename) + context.get("body", "")
    own = "en" if edition == "en" else "zh-CN"
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" hreflang="{lang}" href="{html.escape(href)}">'
        f'\n<link rel="alternate" hreflang="{own}" href="{html.escape(pagename.rsplit("/", 1)[-1])}.html">'
    )


def setup(app):
    app.add_config_value("ae_edition", "en", "html")
    app.connect("config-inited", _search_terms)
    app.connect("html-page-context", _switch)
    app.connect("build-finished", _switch_on_template_pages)
    app.add_js_file(None, body=CARRY_HASH)
    app.add_css_file("ae-lang.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
