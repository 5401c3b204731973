"""The PDFs' contents and bookmarks read a heading's text with ``build_pdf.heading_text``: French writes a no-break
space before « : », « ? » and « ; », which the contents must keep (issue 44: the French PDF's contents dropped
it), while a space HTML leaves before punctuation after a formula is dropped as before."""

from __future__ import annotations

from bs4 import BeautifulSoup

from attention_workshop import build_pdf

NBSP, NNBSP = "\u00a0", "\u202f"


def heading(html: str):
    return BeautifulSoup(html, "html.parser").find(["h1", "h2"])


def test_a_french_heading_keeps_its_no_break_spaces():
    for text in (f"Trois étapes{NBSP}: attribuer des scores", f"Pourquoi la softmax{NNBSP}? D’autres pondérations"):
        assert build_pdf.heading_text(heading(f"<h2>{text}</h2>")) == text
    assert build_pdf.heading_text(heading(f"<h2>\n  Ce que   montre{NBSP}:\n la leçon </h2>")) == (
        f"Ce que montre{NBSP}: la leçon"
    )


def test_a_plain_space_before_punctuation_still_goes_and_the_outline_key_collapses_every_space():
    assert build_pdf.heading_text(heading("<h2>The example <em>here</em> , and there ?</h2>")) == (
        "The example here, and there?"
    )
    french = heading(f"<h2>Trois étapes{NBSP}: attribuer</h2>")
    assert build_pdf.heading_text(french, with_math=False) == "Trois étapes : attribuer"  # as finish() reads titles
