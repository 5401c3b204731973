"""Show a matplotlib figure in a notebook as an accessible HTML figure: image, alt text and caption.

A figure returned by :mod:`attention_core.figures.state` is displayed with :func:`show_figure`. The output carries
``text/html`` (``<figure>`` with ``<img alt=...>`` and ``<figcaption>``), which the book renders, and a
``text/plain`` fallback that is the alt text itself, so no output ever reads ``<Figure size 640x480 ...>``.
The PNG bytes are embedded as a data URI; the notebook tests replace them with a placeholder before comparing
(``tests/nbval_sanitize.cfg``), so only the alt text and caption are compared as text.

Figures are rendered at twice their CSS size (``DPI`` = 2 x ``CSS_DPI``) and the ``<img>`` states that CSS size
in ``width``/``height``, so phones and high-density screens get sharp text while the layout box stays the size the
figure was drawn for (one inch of figure = 100 CSS px).
"""

from __future__ import annotations

import base64
import functools
import html
import io
import re
import struct

import numpy as np

from ..lang import Messages

TEXT = Messages(
    __name__,
    {
        "plain": "Figure: {alt}",  # the text/plain fallback: the alt text itself
    },
)


CSS_DPI = 100  # CSS pixels per inch of figure: the size a figure is laid out at
DPI = 2 * CSS_DPI  # pixels per inch in the PNG: two device pixels per CSS pixel


def figure_png(fig, dpi: int = CSS_DPI, palette: bool = False) -> bytes:
    """Render a matplotlib figure to PNG bytes, without a timestamp or version in the file's metadata.

    ``palette`` stores the pixels as 256 colours (median cut, no dithering) instead of RGBA: a figure's flat
    colours and anti-aliased edges look the same and the file is about 2.5 times smaller.
    """
    buf = io.BytesIO()
    # for the palette step the pixels go uncompressed: not compressed here and then read back there
    fig.savefig(
        buf, format="png", dpi=dpi, metadata={"Software": None}, pil_kwargs={"compress_level": 0} if palette else None
    )
    if not palette:
        return buf.getvalue()
    from PIL import Image

    image = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, format="png", optimize=True
    )
    return out.getvalue()


PHONE_WIDTH = 342  # CSS px: the content column of a 390 px phone screen, where a figure must stay readable
MIN_TEXT_PX = 9.0  # CSS px: the smallest text a figure may show there


def min_font_points(fig, width: float = PHONE_WIDTH, min_px: float = MIN_TEXT_PX) -> float:
    """The smallest font size (points) that still shows as ``min_px`` CSS px when ``fig`` is shrunk to ``width``.

    A figure ``W`` inches wide is laid out at ``W * CSS_DPI`` CSS px and scaled by ``width / (W * CSS_DPI)`` when
    that is wider than the screen; one point is ``CSS_DPI / 72`` CSS px before scaling.
    """
    css_width = fig.get_figwidth() * CSS_DPI
    return min_px * 72 / CSS_DPI / min(1.0, width / css_width)


def readable_on_phones(fig, width: float = PHONE_WIDTH, min_px: float = MIN_TEXT_PX):
    """Raise every text of ``fig`` smaller than ``min_px`` CSS px on a ``width`` px screen to that size.

    Titles, labels, tick labels, legends and annotations: the constrained layout makes room for them when the
    figure is drawn. Returns ``fig``.
    """
    from matplotlib.text import Text

    floor = min_font_points(fig, width, min_px)
    for ax in fig.axes:  # make the tick labels of the current limits, without laying the figure out
        ax.xaxis.get_ticklabels(which="both")
        ax.yaxis.get_ticklabels(which="both")
    for text in fig.findobj(Text):
        if text.get_text() and text.get_fontsize() < floor:
            text.set_fontsize(floor)
    for ax in fig.axes:  # tick labels made later (on the next draw) take the axis' label size
        for axis in (ax.xaxis, ax.yaxis):
            size = axis.get_ticklabels()[0].get_fontsize() if axis.get_ticklabels() else floor
            axis.set_tick_params(which="both", labelsize=max(size, floor))
    return fig


def fitted(fig):
    """``fig`` as :func:`show_figure` renders it: every text readable on a phone (:func:`readable_on_phones`), every
    title and label no longer than its axes (:func:`break_long_lines`), laid out at those sizes. Returns ``fig``."""
    return break_long_lines(readable_on_phones(fig))


def break_long_lines(fig, rounds: int = 3):
    """Break every title, axis label and axes text of ``fig`` longer than its axes (and every figure-wide title
    longer than the figure, less the layout's padding) into lines of balanced widths at its spaces (never inside
    ``$...$``); a line that fits, or has no space (Chinese), is kept. Returns ``fig``, laid out.

    Each text is measured against the axes of the last layout, then the figure is laid out again, until no text
    changes (``rounds`` at most): a text longer than its axes narrows them first (lesson 05's French note, broken
    against those narrowed axes, took three lines, then two once they had widened again).

    Translations run longer than the English, and no layout shortens a label longer than its axis: the French
    lesson 07's y label "entropie croisée moyenne par token" is longer than its axes are tall, and crossed the
    figure's top edge by 39 px at 200 dpi before it was broken in two.
    """
    originals: dict = {}  # text -> its words before any break
    for _ in range(rounds):
        fig.draw_without_rendering()  # the layout that the axes' lengths are read from
        if not _break_once(fig, originals):
            return fig
    fig.draw_without_rendering()
    return fig


def _break_once(fig, originals: dict) -> bool:
    """Break each text of :func:`_rooms` afresh (from its words in ``originals``) against its room now; return
    whether any text changed."""
    from matplotlib import cbook
    from matplotlib.textpath import text_to_path

    changed = False
    for text, room in _rooms(fig):
        original = originals.setdefault(text, text.get_text())
        if not original.strip() or text.get_usetex():
            continue
        prop, math = text.get_fontproperties(), text.get_parse_math()

        def width(line: str, prop=prop, math=math) -> float:  # points
            return text_to_path.get_text_width_height_descent(line, prop, math and cbook.is_math_text(line))[0]

        new = "\n".join(_balanced(line, room, width) for line in original.split("\n"))
        if new != text.get_text():
            text.set_text(new)
            changed = True
    return changed


def _rooms(fig) -> list:
    """``(text, points)``: each title, axis label and axes text of ``fig`` with the length of its axes along it,
    and each figure-wide text with the figure's, less the layout's padding (from the last layout)."""
    width, height = fig.get_size_inches() * 72  # points
    engine = fig.get_layout_engine()
    pads = engine.get() if engine is not None else {}  # the constrained layout's: inches at each edge
    w_pad, h_pad = pads.get("w_pad", 0.0) * 72, pads.get("h_pad", 0.0) * 72
    boxes = [(text, width - 2 * w_pad, height - 2 * h_pad) for text in fig.texts]  # the suptitle
    for ax in fig.axes:
        box = ax.get_position()  # in figure fractions, after the layout and any fixed aspect
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts):
            boxes.append((text, box.width * width, box.height * height))
    return [(text, h if round(text.get_rotation()) % 180 == 90 else w) for text, w, h in boxes]


def _balanced(line: str, room: float, width) -> str:
    """``line`` broken at its spaces outside ``$...$`` into the fewest lines no wider than ``room``, those lines
    as even as they can be (the widest as narrow as possible); ``line`` itself when it fits or has no space."""
    words = re.split(r" (?=(?:[^$]*\$[^$]*\$)*[^$]*$)", line)  # a space followed by an even number of $
    if len(words) < 2 or width(line) <= room:
        return line
    measured = functools.cache(lambda i, j: width(" ".join(words[i:j])))  # the words i..j-1 on one line
    for n in range(2, len(words) + 1):
        # best[k][j]: the narrowest widest line when the first j words make k lines, and where the last line starts
        best = [{0: (0.0, 0)}] + [{} for _ in range(n)]
        for k in range(1, n + 1):
            for j in range(k, len(words) + 1):
                best[k][j] = min(  # the last line holds the words i..j-1; the k - 1 lines before, the first i
                    (max(best[k - 1][i][0], measured(i, j)), i) for i in range(k - 1, j) if i in best[k - 1]
                )
        widest, _ = best[n][len(words)]
        if widest <= room or n == len(words):
            lines, j = [], len(words)
            for k in range(n, 0, -1):
                i = best[k][j][1]
                lines.append(" ".join(words[i:j]))
                j = i
            return "\n".join(reversed(lines))
    return line


def drawn_text(fig, draw: bool = True) -> list[str]:
    """Every piece of text the figure draws (titles, labels, tick labels, legends, annotations), in drawing order.
    ``draw=False`` when the figure has just been drawn as it is: the tick labels exist already."""
    from matplotlib.text import Text

    if draw:
        fig.draw_without_rendering()
    return [t.get_text() for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible()]


def png_size(png: bytes) -> tuple[int, int]:
    """``(width, height)`` in pixels, read from the PNG header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def img_tag(png: bytes, alt: str, scale: float | None = None) -> str:
    """An HTML ``<img>`` holding ``png`` as a data URI, with alt text, scaled to the width available.

    With ``scale``, ``width``/``height`` give the CSS size, the PNG's pixels divided by ``scale`` (2 for a figure
    rendered at ``DPI``), so the browser reserves the box and draws two device pixels per CSS pixel where it can.
    Without it (the explorers' frames) the image is shown at its pixel size.
    """
    data = base64.b64encode(png).decode("ascii")
    size = ""
    if scale is not None:
        width, height = png_size(png)
        size = f' width="{round(width / scale)}" height="{round(height / scale)}"'
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"{size} style="max-width:100%;height:auto">'


class FigureDisplay:
    """A rendered figure with its alt text and caption, displayed by Jupyter as HTML."""

    def __init__(self, fig, alt: str, caption: str, dpi: int = DPI):
        if not alt or not alt.strip():
            raise ValueError("alt must describe what the figure shows; got an empty string")
        if not caption or not caption.strip():
            raise ValueError("caption must say what is fixed and what varies; got an empty string")
        self.alt, self.caption = alt.strip(), caption.strip()
        self.dpi = dpi
        self.png = figure_png(fitted(fig), dpi=dpi, palette=True)
        self.text = drawn_text(fig, draw=False)  # figure_png has just drawn it

    def _repr_html_(self) -> str:
        return (
            f'<figure class="ae-figure">{img_tag(self.png, self.alt, scale=self.dpi / CSS_DPI)}'
            f"<figcaption>{html.escape(self.caption)}</figcaption></figure>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        """HTML and the plain-text fallback, with the words drawn in the image kept in the output's metadata
        (``attention_core.figure_text``): the tests read them, for the image itself cannot be searched."""
        data = {"text/html": self._repr_html_(), "text/plain": repr(self)}
        return data, {"attention_core": {"figure_text": self.text}}

    def __repr__(self) -> str:
        return TEXT("plain", alt=self.alt)


def show_figure(fig, alt: str, caption: str, dpi: int = DPI) -> FigureDisplay:
    """Return a displayable figure; make it the last expression of a cell (or pass it to ``display``).

    ``alt`` describes what the image shows for a reader who cannot see it; ``caption`` says what is fixed
    and what varies. Text too small to read on a 390 px phone is enlarged first, and a title or label longer than
    its axes broken into lines (:func:`fitted`). The matplotlib figure is closed afterwards so that it is not drawn
    twice.
    """
    shown = FigureDisplay(fig, alt, caption, dpi=dpi)
    try:
        import matplotlib.pyplot as plt

        plt.close(fig)
    except Exception:  # a figure made without pyplot needs no closing
        pass
    return shown


class BlitRenderer:
    """Render a figure to PNG quickly when only a few artists change between frames (for widgets).

    The static part of the figure is drawn once and cached; each frame restores it and draws only
    ``artists`` (marked animated), then encodes the pixels with fast PNG compression.
    """

    def __init__(self, fig, artists, dpi: int = 80):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.fig, self.artists = fig, list(artists)
        fig.set_dpi(dpi)
        self.canvas = FigureCanvasAgg(fig)
        for artist in self.artists:
            artist.set_animated(True)
        self.canvas.draw()  # lays out the figure once and draws everything that does not move
        fig.set_layout_engine("none")  # keep that layout: no re-layout per frame
        self.background = self.canvas.copy_from_bbox(fig.bbox)

    def png(self) -> bytes:
        """PNG bytes of the current frame."""
        from PIL import Image

        self.canvas.restore_region(self.background)
        for artist in self.artists:
            self.fig.draw_artist(artist)
        rgba = self.canvas.buffer_rgba()  # (height, width, 4) uint8
        buf = io.BytesIO()
        Image.fromarray(np.asarray(rgba)).convert("RGB").save(buf, format="png", compress_level=1)
        return buf.getvalue()
