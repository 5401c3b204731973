"""Every edition but the English one is generated: from the English sources and one translation file per page.

The English notebooks (``notebooks/*.ipynb``) and pages (``book/*.md``) are the one source. A translation is a
gettext PO file per page or lesson, ``locale/<language>/LC_MESSAGES/<path>.po`` (``<path>`` as in the English
book, e.g. ``notebooks/07_learning_without_labels.po``), the format translators and their tools (Poedit,
Weblate, sphinx-intl) know. Its entries are keyed by where the text sits (``msgctxt``) and its English
(``msgid``):

- Markdown (a notebook's markdown cells, a page ``book/*.md``): one entry per block, cut much as Sphinx's gettext
  builder cuts a page (:mod:`.blocks`: a heading, a paragraph, a list item, a table cell, a directive's title, an
  ``alt`` or ``caption``, a glossary term group and its definition; also a display-math line with words in
  ``\\text{...}`` and a code block's comment). Its context is the cell's id, or the page's name: a block keeps its
  entry when its cell moves or a neighbouring block changes, and a block without a translation stays English on
  its own. A reference to a numbered equation is a placeholder ``{0}``, ``{1}``, ... in the msgid, filled from the
  English at generation (:mod:`.markdown`), so renumbering the equations changes no entry;
- a code cell's string literal (implicitly concatenated pieces together, so an alt text or a caption is one
  entry) and each comment: the cell's id and the text (:mod:`.code`). In an f-string each ``{field}`` becomes a
  numbered placeholder (``{0}``, ``{1}``, ...): the translator moves placeholders but never sees or edits code, and
  a change inside a field (a format) leaves the translation valid. A translation is data: it keeps exactly the
  English's placeholders, adds no field and no line break, and every generated cell must parse before anything is
  written. A literal a translation keeps as it is (a dictionary key, a file name) is an entry whose ``msgstr``
  equals its ``msgid``.

The English is merged into the files as GNU ``msgmerge`` does (:mod:`.catalog`, with Babel's ``Catalog.update``):
changed text becomes a fuzzy entry with its previous English (``#|``), removed text an obsolete one (``#~``) that
comes back, fuzzy, when similar text reappears. The parts: :mod:`.blocks` and :mod:`.markdown` (Markdown),
:mod:`.code` (code cells), :mod:`.units` (what an entry is), :mod:`.catalog` (PO files: reading, checking,
merging), :mod:`.sources` (each English source and the copy it generates), :mod:`.pseudo` (the pseudo-language
edition), :mod:`.cli` (the command line).

The generator changes code in one declared place only: the argument of ``set_language("en")`` becomes the
edition's language. Everything else an edition says differently is a string literal or a comment.

    .venv/bin/python -m attention_workshop.editions update    # merge the English into the PO files (new: empty;
                                                              # changed: fuzzy)
    .venv/bin/python -m attention_workshop.editions status    # list missing, stale, unused, duplicate and invalid
                                                              # entries per file, cell
    .venv/bin/python -m attention_workshop.editions generate  # write zh/ from the English and the PO files
                                                              # (--lang zh: one edition; default: all)
    .venv/bin/python -m attention_workshop.editions execute   # execute the generated notebooks that owe it (no
                                                              # outputs, or a stamp of other code or messages)
    .venv/bin/python -m attention_workshop.editions renumber  # number the English's equations in the order of
                                                              # the table of contents (tags and references)

``make editions`` runs update, generate and execute.
``tests/lessons/test_editions.py`` regenerates every edition in memory and compares it with what is committed;
``tests/lessons/test_translations.py`` fails on any missing, stale, unused, duplicate or invalid entry;
``tests/lessons/test_pseudo_edition.py`` on English that escapes a pseudo-translated edition.
"""
