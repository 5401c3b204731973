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
which does not know the term, indexes only 上下文 and 向量. So for the Chinese edition the Chinese terms and
aliases of its own glossary (``zh/book/glossary.md``: :func:`term_list`) become a jieba user dictionary
(``html_search_options["dict"]``); jieba then indexes each term whole as well as its parts.

**Glossary terms.** Each edition's glossary names the language of every term line: a line in the page's own language
is plain (the first is the term that edition writes), a line in another edition's language is ``{lang}`zh: 注意力```
(shown as ``<span lang="zh-CN">注意力</span>``), and the aliases readers may search with are ``{aliases}`zh: 打分,
注意力分数``` at the end of a definition (shown with a label in the page's language). Every entry carries the
English entry's anchor (``#term-attention``) in every edition (:func:`_glossary_anchors`).
"""

from __future__ import annotations

import html
import pathlib
import re
from typing import NamedTuple

from attention_core import files
from attention_workshop.paths import ENGLISH, ROOT, complete, editions
from attention_workshop.paths import name as edition_name
from attention_workshop.theme import THEME_STRINGS  # the theme's words each edition translates


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


class Term(NamedTuple):
    """One entry of an edition's term list (its ``glossary.md``): the entry's term lines by language, each list in
    the glossary's order (the first is the term that edition's text uses), and the aliases by language: words other
    writing uses, which readers may search with but the book does not write (``{aliases}`zh: 打分, 注意力分数```)."""

    terms: dict[str, list[str]]
    aliases: dict[str, list[str]]

    def preferred(self, language: str) -> str | None:
        """The term this entry's text uses in ``language`` (its first term line in that language), if any."""
        return (self.terms.get(language) or [None])[0]


# A term line in another language than the page's, and the aliases at the end of a definition, name their language:
# {lang}`zh: 注意力` and {aliases}`zh: 打分, 注意力分数` (the roles below render them; CONTRIBUTING.md, "Editions").
MARKED = re.compile(r"^\{lang\}`\s*([A-Za-z][\w-]*)\s*:\s*(.+?)\s*`$")
ALIASES = re.compile(r"\{aliases\}`\s*([A-Za-z][\w-]*)\s*:\s*([^`]+?)\s*`", re.S)


def glossary_file(edition: str = ENGLISH) -> pathlib.Path:
    """An edition's glossary page: ``book/glossary.md`` (English) or ``<edition>/book/glossary.md``."""
    return ROOT / "book" / "glossary.md" if edition == ENGLISH else ROOT / edition / "book" / "glossary.md"


def _split(listed: str) -> list[str]:
    return [word.strip() for word in re.split(r"[,，、]", listed) if word.strip()]


def term_list(edition: str = ENGLISH, glossary: pathlib.Path | None = None) -> list[Term]:
    """The entries of an edition's glossary (``glossary`` instead of its page, if given): a plain term line is in the
    edition's own language, a marked one (``{lang}`zh: 注意力```) in the language it names."""
    glossary = glossary or glossary_file(edition)
    terms, inside, entry, definition = [], False, None, []

    def close():
        if entry is not None:
            text = " ".join(line.strip() for line in definition)
            aliases: dict[str, list[str]] = {}
            for language, listed in ALIASES.findall(text):
                aliases.setdefault(language, []).extend(_split(" ".join(listed.split())))
            terms.append(Term(entry, aliases))

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
            entry = entry if entry is not None else {}
            marked = MARKED.match(line.strip())
            language, term = marked.groups() if marked else (edition, line.strip())
            entry.setdefault(language, []).append(term)
        else:
            definition.append(line)
    close()
    return terms


def glossary_terms(edition: str = "zh", glossary: pathlib.Path | None = None) -> list[str]:
    """Every term and alias of an edition's term list in its own language: jieba's user dictionary for the Chinese
    search."""
    return list(
        dict.fromkeys(
            t
            for term in term_list(edition, glossary)
            for t in [*term.terms.get(edition, []), *term.aliases.get(edition, [])]
        )
    )


def _search_terms(app, config):
    """Give jieba the Chinese edition's glossary terms and aliases before the search index is built
    (config-inited)."""
    if not str(config.html_search_language or "").startswith("zh"):
        return
    edition = config.ae_edition
    glossary = pathlib.Path(app.srcdir) / "book" / "glossary.md"  # this edition's page: its terms and aliases
    folder = pathlib.Path(app.doctreedir)
    folder.mkdir(parents=True, exist_ok=True)
    words = folder / "ae-search-terms.txt"
    files.write_text(words, "".join(f"{t}\n" for t in glossary_terms(edition, glossary) if " " not in t))
    config.html_search_options = {**(config.html_search_options or {}), "dict": str(words)}


def _marked(text: str, role: str, lineno: int, inliner):
    """(language, what follows it) of a role's ``xx: ...`` text, or an error for the page."""
    match = re.fullmatch(r"\s*([A-Za-z][\w-]*)\s*:\s*(.+?)\s*", text, re.S)
    if match is None or match.group(1) not in editions():
        message = inliner.reporter.error(
            f"{{{role}}}`{text}`: write {{{role}}}`<edition>: ...` with an edition of locale/editions.toml "
            f"({', '.join(editions())})",
            line=lineno,
        )
        return None, [inliner.problematic(text, text, message)], [message]
    return (match.group(1), " ".join(match.group(2).split())), [], []


def _language_span(text: str, language: str):
    """Text in ``language``: ``<span lang="zh-CN">`` (docutils writes a ``language-`` class as the ``lang``)."""
    from docutils import nodes

    return nodes.inline(text, text, classes=["ae-lang-term", f"language-{html_lang(language)}"])


def lang_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{lang}`zh: 注意力```: a term (or any words) in another edition's language, shown as the words alone and
    marked with that language for screen readers and search."""
    found, problems, messages = _marked(text, "lang", lineno, inliner)
    if found is None:
        return problems, messages
    language, words = found
    return [_language_span(words, language)], []


def aliases_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{aliases}`zh: 打分, 注意力分数```: the words of another source that readers may search with but the book
    does not write, shown with a label in the page's language ("Chinese aliases: 打分, 注意力分数")."""
    from docutils import nodes

    from attention_core.explorers.site import PAGE

    found, problems, messages = _marked(text, "aliases", lineno, inliner)
    if found is None:
        return problems, messages
    language, listed = found
    env = getattr(inliner.document.settings, "env", None)
    page = env.config.ae_edition if env is not None else ENGLISH
    key = f"aliases_{language}"
    label = PAGE.text(key, page) if key in PAGE.entries else PAGE.text("aliases", page)
    label = label.replace("{language}", edition_name(language))
    joined = PAGE.text("alias_separator", page).join(_split(listed))
    before, _, after = label.partition("{aliases}")
    node = nodes.inline("", "", classes=["ae-aliases"])
    node += nodes.Text(before)
    node += _language_span(joined, language)
    if after:
        node += nodes.Text(after)
    return [node], []


def english_term_ids(docname: str) -> list[str]:
    """The anchor Sphinx gives each entry of the English glossary page ``docname`` (``term-attention``: its first
    term line), in order."""
    from sphinx.util.nodes import _make_id

    path = ROOT / f"{docname}.md"
    if not path.exists():
        return []
    return [
        _make_id(f"term-{term.terms[ENGLISH][0]}") if term.terms.get(ENGLISH) else ""
        for term in term_list(ENGLISH, path)
    ]


def _glossary_anchors(app, doctree):
    """Give every glossary entry, in every edition, the English entry's anchor (``term-attention``) as the first id
    of its first term line, and make every term of the entry (``注意力``, ``attention``) link there (doctree-read),
    and so do the general index's entries, so a term link, an index entry or the language switch carrying
    ``#term-attention`` lands on the same entry in every direction (a Chinese or French term line alone would get
    ``term-0`` or its own words)."""
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.util import logging

    items = [
        item for glossary in doctree.findall(addnodes.glossary) for item in glossary.findall(nodes.definition_list_item)
    ]
    if not items:
        return
    docname = app.env.docname
    entries = [[t for t in item.children if isinstance(t, nodes.term)] for item in items]
    if app.config.ae_edition == ENGLISH:
        wanted = [entry[0]["ids"][0] if entry and entry[0]["ids"] else "" for entry in entries]
    else:
        wanted = english_term_ids(docname)
        if len(wanted) != len(entries):
            logging.getLogger(__name__).warning(
                f"{docname}: {len(entries)} glossary entries but the English has {len(wanted)}: the term anchors "
                "cannot be shared"
            )
            return
    std = app.env.get_domain("std")
    moved: dict[str, str] = {}  # a term line's own id -> its entry's anchor
    for entry, anchor in zip(entries, wanted, strict=True):
        if not entry or not anchor:
            continue
        holder = doctree.ids.get(anchor)
        if holder is not None and holder is not entry[0]:
            holder["ids"].remove(anchor)
            if not holder["ids"]:
                spare = f"term-{app.env.new_serialno('term')}"
                holder["ids"].append(spare)
                doctree.ids[spare] = holder
        if anchor in entry[0]["ids"]:
            entry[0]["ids"].remove(anchor)
        entry[0]["ids"].insert(0, anchor)
        doctree.ids[anchor] = entry[0]
        for term in entry:
            text = term.astext()
            std.objects["term", text] = (docname, anchor)
            std._terms[text.lower()] = (docname, anchor)
            moved.update({own: anchor for own in term["ids"] if own != anchor})
    # the general index's entries for the terms (collected before doctree-read) link to the entry's anchor too
    index = app.env.get_domain("index")
    index.entries[docname] = [
        (kind, value, moved.get(target, target), *rest) for kind, value, target, *rest in index.entries.get(docname, [])
    ]
    for node in doctree.findall(addnodes.index):
        node["entries"] = [
            (kind, value, moved.get(target, target), *rest) for kind, value, target, *rest in node["entries"]
        ]


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
    if edition in editions()[1:] and not complete(edition):  # (a pseudo edition is no listed edition)
        done, total = _completeness(edition)
        note = PAGE.text("in_progress", edition).format(done=done, total=total)
        bar += f'<p class="ae-in-progress" role="note">{html.escape(note)}</p>'
    return bar


_SHARES: dict[str, tuple[int, int]] = {}


def _completeness(edition: str) -> tuple[int, int]:
    """(entries translated, entries in all) of an edition, counted once per build from its translation files."""
    if edition not in _SHARES:
        from attention_workshop.editions.sources import completeness

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
            files.write_text(page, text)


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
            files.write_text(page, new)


def setup(app):
    app.add_config_value("ae_edition", "en", "html")
    app.connect("config-inited", _search_terms)
    app.connect("html-page-context", _switch)
    app.connect("doctree-read", _english_anchors, priority=100)  # before Sphinx's contents list reads the ids
    app.connect("doctree-read", _glossary_anchors)
    app.add_role("lang", lang_role)
    app.add_role("aliases", aliases_role)
    app.connect("build-finished", _switch_on_template_pages)
    app.connect("build-finished", _theme_words)
    app.add_js_file(None, body=CARRY_HASH)
    app.add_css_file("ae-lang.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
