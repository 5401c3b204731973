"""The language switch: every page links to the same page in the other edition (English <-> 中文).

The English book is built into ``_build/html`` and the Chinese one (``zh/``) into ``_build/html/zh``, with the
same page names, so the counterpart of ``notebooks/07_learning_without_labels.html`` is
``zh/notebooks/07_learning_without_labels.html`` and back. The switch is an ordinary link at the top of the
article (reachable with the keyboard, named for screen readers, marked with the other language), and a small
script carries the current ``#section`` across, so a reader lands on the same section where both editions share
the label. Each page also declares its counterpart with ``<link rel="alternate" hreflang=...>``.

Configured per edition in ``_config.yml`` / ``zh/_config.yml``: ``ae_edition`` is ``"en"`` or ``"zh"``.
"""

from __future__ import annotations

import html

EDITIONS = {
    # this edition -> (folder of the other edition relative to this one's root, its language, link text, name)
    "en": ("zh/", "zh-CN", "中文", "阅读本页的中文版"),
    "zh": ("../", "en", "English", "Read this page in English"),
}
CARRY_HASH = (
    "document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.ae-lang-switch');"
    "if(a&&location.hash){a.hash=location.hash;}});"
)


def counterpart(edition: str, pagename: str) -> str:
    """The URL of ``pagename`` in the other edition, relative to the page itself."""
    folder = EDITIONS[edition][0]
    up = "../" * pagename.count("/")
    return f"{up}{folder}{pagename}.html"


def _switch(app, pagename, templatename, context, doctree):
    edition = app.config.ae_edition
    if edition not in EDITIONS or templatename != "page.html":
        return
    href = counterpart(edition, pagename)
    _, lang, text, name = EDITIONS[edition]
    link = (
        f'<p class="ae-lang-switch-bar"><a class="ae-lang-switch" href="{html.escape(href)}" lang="{lang}" '
        f'hreflang="{lang}" aria-label="{html.escape(name)}">{html.escape(text)}</a></p>'
    )
    context["body"] = link + context.get("body", "")
    own = "en" if edition == "en" else "zh-CN"
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" hreflang="{lang}" href="{html.escape(href)}">'
        f'\n<link rel="alternate" hreflang="{own}" href="{html.escape(pagename.rsplit("/", 1)[-1])}.html">'
    )


def setup(app):
    app.add_config_value("ae_edition", "en", "html")
    app.connect("html-page-context", _switch)
    app.add_js_file(None, body=CARRY_HASH)
    app.add_css_file("ae-lang.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
