"""Sphinx extension: the website's highlighted code with fewer elements (:func:`plain_formatter`), every character
in the colours the theme's two schemes give it (``tests/site/test_site_extension.py``)."""

from __future__ import annotations

# Highlighted code with fewer elements. Pygments wraps every token in a span named by its type, even where
# the colour scheme gives that type the code's own colour, and gives neighbouring tokens of one colour a span each: in
# both of the theme's schemes (pydata-sphinx-theme's a11y-high-contrast light and dark) names (.n), punctuation (.p)
# and whitespace (.w) look exactly like unstyled text, and an f-string's prefix, quotes and braces (.sa, .s2, .si)
# share the operators' colour. Those spans were most of a long lesson's elements, and each is laid out and styled on a
# phone. The formatter below writes no span for a token styled as plain text in both schemes, and gives tokens styled
# alike in both schemes one class (the shortest of theirs), so Pygments joins neighbours into one span. Every
# character keeps its colour in both schemes (tests/site/test_site_extension.py). The schemes are read from the
# theme's options as pydata_sphinx_theme.pygments.overwrite_pygments_css reads them; a scheme Pygments does not know
# leaves every span as it was. The prompt (.gp) keeps its own class: stylesheets select it (not copied with the code);
# so do the classes of a lexer's own token types (myst-nb's ANSI colours in printed output, which myst-nb styles).
KEEP_CLASSES = {"gp"}


def _code_styles(app) -> list[str]:
    options = dict(getattr(app.builder, "theme_options", None) or app.config.html_theme_options or {})
    defaults = app.builder.theme.get_options() if getattr(app.builder, "theme", None) else {}
    return [options.get(key) or defaults.get(key) for key in ("pygments_light_style", "pygments_dark_style")]


def plain_formatter(styles: list[str]):
    """An HtmlFormatter class that writes no span for a token styled like plain text in each of ``styles`` and one
    class for the token types styled alike in each of them."""
    from pygments.formatters import HtmlFormatter
    from pygments.token import STANDARD_TYPES, Text

    try:
        schemes = [HtmlFormatter(style=name) for name in styles]
    except Exception:  # a style Pygments does not have (pydata's fallback then applies): keep every span
        return HtmlFormatter

    def looks(css_class: str) -> tuple[str, ...]:
        """The class's style in each scheme, "" where it is styled as plain text."""
        plain = [scheme.class2style[scheme.ttype2class[Text]][0] for scheme in schemes]
        found = [scheme.class2style.get(css_class, ("",))[0] for scheme in schemes]
        return tuple("" if f == p else f for f, p in zip(found, plain, strict=True))

    standard = set(STANDARD_TYPES.values()) - KEEP_CLASSES - {""}
    shared: dict[tuple[str, ...], str] = {}  # a look -> the shortest class that has it
    for css_class in sorted(standard, key=lambda c: (len(c), c)):
        shared.setdefault(looks(css_class), css_class)

    class PlainTextFormatter(HtmlFormatter):
        def _get_css_classes(self, ttype):
            classes = super()._get_css_classes(ttype)
            if classes not in standard:  # a lexer's own type (myst-nb's ANSI colours, styled by myst-nb): as written
                return classes
            look = looks(classes)
            return "" if look == ("",) * len(schemes) else shared.get(look, classes)

    return PlainTextFormatter


def _init(app):
    if getattr(app.builder, "highlighter", None) is not None and app.builder.format == "html":
        app.builder.highlighter.formatter = plain_formatter(_code_styles(app))


def setup(app):
    app.connect("builder-inited", _init)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
