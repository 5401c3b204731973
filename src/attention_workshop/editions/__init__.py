"""Every edition but the English one is generated: from the English sources and one translation file per page.

The English notebooks (``notebooks/*.ipynb``) and pages (``book/*.md``) are the one source. A translation is a
gettext PO file per page or lesson, ``locale/<language>/LC_MESSAGES/<path>.po`` (``<path>`` as in the English
book, e.g. ``notebooks/07_learning_without_labels.po``), the format translators and their tools (Poedit,
Weblate, sphinx-intl) know. Its entries are keyed by where the text sits (``msgctxt``) and its English
(``msgid``):

- a markdown cell: the cell's id and its whole text;
- a code cell's string literal (implicitly concatenated pieces together, so an alt text or a caption is one
  entry) and each comment: the cell's id and the text. In an f-string each ``{field}`` becomes a numbered
  placeholder (``{0}``, ``{1}``, ...): the translator moves placeholders but never sees or edits code, and a
  change inside a field (a format) leaves the translation valid. A literal a translation keeps as it is (a
  dictionary key, a file name) is an entry whose ``msgstr`` equals its ``msgid``;
- a page: each section under a heading (context: the heading's anchor) and each glossary entry (context: its
  English term).

The generator changes code in one declared place only: the argument of ``set_language("en")`` becomes the
edition's language. Everything else an edition says differently is a string literal or a comment.

    .venv/bin/python -m attention_workshop.editions update    # merge the English into the PO files (new: empty;
                                                              # changed: fuzzy)
    .venv/bin/python -m attention_workshop.editions status    # list missing, stale and unused entries per file, cell
    .venv/bin/python -m attention_workshop.editions generate  # write zh/ from the English and the PO files

``make editions`` runs all three and executes the Chinese notebooks whose code changed.
``tests/lessons/test_editions.py`` regenerates every edition in memory and compares it with what is committed;
``tests/lessons/test_translations.py`` fails on any missing, stale or unused entry, and on English that escapes a
pseudo-translated edition.
"""
