"""Figures shown with alt text and caption; PNG frames that are reproducible; blitted frames equal full redraws;
titles and labels longer than their axes broken into balanced lines."""

import io

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

from attention_core import worked_example
from attention_core.figures.display import (
    DPI,
    BlitRenderer,
    FigureDisplay,
    _balanced,
    break_long_lines,
    figure_png,
    img_tag,
    show_figure,
)
from attention_core.figures.state import StateReadFigure
from attention_core.lang import language
from tests.helpers import outside_canvas


def small_figure():
    fig = Figure(figsize=(2, 1.5))
    fig.add_subplot().plot([0, 1], [1, 0])
    return fig


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def test_show_figure_gives_html_with_alt_and_caption():
    shown = show_figure(small_figure(), alt='A line falling from 1 to 0, "steeply"', caption="Fixed: x. Varies: y.")
    html = shown._repr_html_()
    assert html.startswith('<figure class="ae-figure"><img src="data:image/png;base64,')
    assert 'alt="A line falling from 1 to 0, &quot;steeply&quot;"' in html  # escaped, so the tag stays valid
    assert "<figcaption>Fixed: x. Varies: y.</figcaption>" in html
    assert repr(shown) == 'Figure: A line falling from 1 to 0, "steeply"'  # the text fallback is the alt text


@pytest.mark.parametrize("alt, caption", [("", "caption"), ("   ", "caption"), ("alt text", "")])
def test_alt_and_caption_are_required(alt, caption):
    with pytest.raises(ValueError, match="alt" if not alt.strip() else "caption"):
        FigureDisplay(small_figure(), alt=alt, caption=caption)


def test_png_bytes_are_reproducible():
    fig = small_figure()
    assert figure_png(fig) == figure_png(fig)
    assert b"Software" not in figure_png(fig)  # no version stamp in the file


def test_img_tag_escapes_alt():
    tag = img_tag(b"\x89PNG", "a < b & c")
    assert 'alt="a &lt; b &amp; c"' in tag and tag.startswith('<img src="data:image/png;base64,')


def test_blitted_frame_equals_a_full_redraw():
    curve = worked_example(np.linspace(-4, 4, 101))
    moving = StateReadFigure(curve)
    moving.update(worked_example(-1.0))
    renderer = BlitRenderer(moving.fig, moving.moving_artists(), dpi=80)
    moving.update(worked_example(1.0))
    blitted = pixels(renderer.png())

    fresh = StateReadFigure(curve)  # drawn once, from scratch, at the same state and size
    fresh.update(worked_example(1.0))
    fresh.fig.set_dpi(80)
    full = pixels(figure_png(fresh.fig, dpi=80))
    assert blitted.shape == full.shape
    differing = np.abs(blitted - full).max(axis=2) > 60
    assert differing.mean() < 0.002, f"{differing.mean():.2%} of the pixels differ from a full redraw"


def test_the_text_fallback_speaks_the_readers_language():
    shown = show_figure(small_figure(), alt="两条曲线", caption="固定：x。变化：y。")
    assert repr(shown) == "Figure: 两条曲线"  # English prefix unchanged
    with language("zh"):
        assert repr(shown) == "图：两条曲线"
        assert "<figcaption>固定：x。变化：y。</figcaption>" in shown._repr_html_()


def test_a_line_too_long_for_its_room_breaks_into_the_fewest_and_most_even_lines():
    assert _balanced("aa bb cc dd ee ff", 12, len) == "aa bb cc\ndd ee ff"  # not "aa bb cc dd" and "ee ff"
    three = _balanced("aa bb cc dd ee", 5, len).split("\n")  # two lines would need 8
    assert len(three) == 3 and max(map(len, three)) == 5
    assert _balanced("aa bb", 99, len) == "aa bb"  # it fits: kept
    assert _balanced("所有位置的曲线重合", 2, len) == "所有位置的曲线重合"  # no space: cannot be broken
    assert _balanced("verylongword x", 3, len) == "verylongword\nx"  # a word wider than the room: alone on its line


def test_a_line_is_never_broken_inside_math():
    broken = _balanced(r"one step: $e_{tj} \to e_{tj} - g$ and more words", 12, len)
    assert len(broken.split("\n")) > 1
    assert all(line.count("$") % 2 == 0 for line in broken.split("\n")), broken


def french_loss_figure():
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([1, 2, 3], [3.0, 0.1, 0.01])
    ax.set_ylabel("entropie croisée moyenne par token", fontsize=14)  # longer than the axes are tall
    ax.set_title("pertes", fontsize=14)
    return fig, ax


def test_a_label_longer_than_its_axes_is_broken_and_fits_the_canvas():
    fig, ax = french_loss_figure()
    assert "'entropie croisée moyenne par token' crosses the bottom" in outside_canvas(fig, DPI)[0]
    fig, ax = french_loss_figure()
    break_long_lines(fig)
    assert ax.yaxis.label.get_text() == "entropie croisée\nmoyenne par token"
    assert ax.title.get_text() == "pertes"  # it fits: kept
    assert outside_canvas(fig, DPI) == []
