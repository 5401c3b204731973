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


def test_the_figures_get_their_palettes_back_and_decode_to_the_same_pixels():
    """build_pdf.index_figures on a PDF holding what Chromium writes for a figure (8-bit RGB, deflated, no
    predictor) and for a photograph-like image (more than 256 colours): the figure becomes an /Indexed image, smaller,
    whose pixels decode to the same colours; the other is left as it was."""
    import zlib

    import numpy as np
    import pikepdf

    rng = np.random.default_rng(0)
    figure = rng.choice(np.array([[255, 255, 255], [31, 119, 180], [255, 127, 14], [0, 0, 0]], np.uint8), (60, 80))
    figure[20:40] = [44, 160, 44]  # a flat band: what a plot mostly is
    photo = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    doc = pikepdf.new()
    images = []
    for pixels in (figure, photo):
        height, width, _ = pixels.shape
        image = pikepdf.Stream(doc, zlib.compress(pixels.tobytes()))
        image.Type, image.Subtype, image.Filter = pikepdf.Name.XObject, pikepdf.Name.Image, pikepdf.Name.FlateDecode
        image.Width, image.Height, image.BitsPerComponent = width, height, 8
        image.ColorSpace = pikepdf.Name.DeviceRGB
        images.append(doc.make_indirect(image))
    raw = [len(image.read_raw_bytes()) for image in images]
    photo_bytes = images[1].read_raw_bytes()
    before, after = build_pdf.index_figures(doc)
    assert before == raw[0] and after == len(images[0].read_raw_bytes()) < raw[0]
    assert images[0].ColorSpace[0] == "/Indexed" and images[0].ColorSpace[1] == "/DeviceRGB"
    decoded = np.asarray(pikepdf.PdfImage(images[0]).as_pil_image().convert("RGB"))
    assert np.array_equal(decoded, figure), "the indexed figure decodes to other colours"
    assert images[1].ColorSpace == "/DeviceRGB" and images[1].read_raw_bytes() == photo_bytes
