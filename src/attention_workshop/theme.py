"""The theme's fixed words each edition translates (``locale/<language>/LC_MESSAGES/theme.po``): a module of its
own, read by the language switch's extension (``ae_lang``) and by the editions' generator (``editions.sources``)
without either importing the other."""

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
