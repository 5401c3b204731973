"""Figures are sharp on phones and high-density screens, and their text stays readable on a 390 px phone.

A figure is rendered at ``DPI`` (200: two device pixels per CSS pixel) and its ``<img>`` states the CSS size
(the figure's inches x 100) in ``width``/``height``, keeping ``max-width:100%;height:auto`` so it still shrinks
to the column. On a 390 CSS px phone the column is 342 px wide, and a figure wider than that is scaled by
342 / width; every text must stay >= 9 CSS px there. The worst figures (lesson 07's 28 x 27 alignment grid,
lesson 01's bar panels, lesson 03's sketch) are drawn so by design (stacked panels, larger fonts); show_figure
enlarges what any other figure lacks.
"""

from __future__ import annotations

import configparser
import re

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from attention_core.figures.display import CSS_DPI, DPI, figure_png, img_tag, min_font_points, png_size, show_figure
from attention_core.figures.reading import plot_architecture_sketch, plot_perturbation_trace, plot_weight_panels
from attention_core.figures.training import alignment_heatmap
from attention_core.lang import language
from tests.helpers import ROOT

PHONE = 342  # CSS px: the content column of a 390 px phone (figures.display.PHONE_WIDTH)
MIN_TEXT = 9.0  # CSS px


def small_figure(width=3.0, height=2.0):
    fig = Figure(figsize=(width, height))
    fig.add_subplot().plot([0, 1], [1, 0])
    return fig


def img_attrs(html: str) -> dict[str, str]:
    tag = re.search(r"<img [^>]*>", html).group(0)
    return dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag))


def test_figures_are_rendered_at_twice_their_css_size():
    assert DPI == 200 and CSS_DPI == 100
    shown = show_figure(small_figure(3.0, 2.0), alt="a line", caption="Fixed: x. Varies: y.")
    assert png_size(shown.png) == (600, 400)  # 3 x 2 in at 200 dpi
    attrs = img_attrs(shown._repr_html_())
    assert (attrs["width"], attrs["height"]) == ("300", "200")  # the CSS size: half the pixels
    assert attrs["style"] == "max-width:100%;height:auto"  # still shrinks to the column, keeping its aspect


def test_a_figure_at_another_dpi_keeps_its_css_size():
    shown = show_figure(small_figure(3.0, 2.0), alt="a line", caption="Fixed: x. Varies: y.", dpi=300)
    assert png_size(shown.png) == (900, 600)
    attrs = img_attrs(shown._repr_html_())
    assert (attrs["width"], attrs["height"]) == ("300", "200")


def test_explorer_frames_keep_their_pixel_size():
    """``img_tag`` without a scale (the explorers' frames) states no size: unchanged behaviour."""
    attrs = img_attrs(img_tag(figure_png(small_figure()), "frame"))
    assert "width" not in attrs and "height" not in attrs
    assert png_size(figure_png(small_figure(3.0, 2.0))) == (300, 200)  # figure_png's default stays 100 dpi


def test_the_notebook_sanitizer_blanks_the_whole_data_uri():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "tests" / "nbval_sanitize.cfg")
    rules = [(cfg[s]["regex"], cfg[s]["replace"]) for s in cfg.sections()]
    html = show_figure(small_figure(), alt="a line", caption="Fixed: x. Varies: y.")._repr_html_()
    for regex, replace in rules:
        html = re.sub(regex, replace, html)
    assert '<img src="data:image/png;base64,PNG" alt="a line" width="300" height="200" ' in html


def smallest_text_on_a_phone(fig: Figure) -> tuple[float, str]:
    """The smallest text of ``fig`` in CSS px when the figure is shown in a 390 px phone's column, and its text."""
    figure_png(fig)  # lay the figure out, so every text artist exists
    css_width = fig.get_figwidth() * CSS_DPI
    scale = min(1.0, PHONE / css_width)
    hidden = {id(t) for ax in fig.axes if not ax.axison for t in ax.get_xticklabels() + ax.get_yticklabels()}
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and id(t) not in hidden]
    smallest = min(texts, key=lambda t: t.get_fontsize())
    return smallest.get_fontsize() * CSS_DPI / 72 * scale, smallest.get_text()


def long_alignment():
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(27), size=28)  # (28, 27): lesson 07's long test sentence
    src = [f"source{j:02d}" for j in range(27)]
    tgt = [f"target{i:02d}" for i in range(27)] + ["</s>"]
    return alignment_heatmap(weights, src, tgt, true_align=list(range(27)))


def bar_panels():
    tokens = ["Felix", "left", "the", "blue", "notebook", "in", "the", "meeting room", "yesterday"]
    panel = np.full(len(tokens), 1 / len(tokens))
    return plot_weight_panels([("query: where?", tokens, panel), ("query: which colour?", tokens, panel)], "title")


WORST = {"lesson 07 alignment 28x27": long_alignment, "lesson 01 bar panels": bar_panels}
WORST["lesson 03 sketch"] = plot_architecture_sketch


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(WORST))
def test_text_stays_readable_on_a_phone(name, lang):
    with language(lang):
        fig = WORST[name]()
    size, text = smallest_text_on_a_phone(fig)
    assert size >= MIN_TEXT, f"{name}: {text!r} is {size:.1f} CSS px at {PHONE} px"


def test_bar_panels_are_stacked():
    fig = bar_panels()
    (top, bottom) = fig.axes
    assert top.get_position().y0 > bottom.get_position().y1  # one above the other, not side by side


def test_show_figure_enlarges_text_too_small_for_a_phone():
    """Any figure shown with show_figure, however it was drawn, keeps its text >= 9 CSS px at 390 px."""
    fig = Figure(figsize=(8.0, 3.0), layout="constrained")  # 800 CSS px: shrunk by 342 / 800 on a phone
    ax = fig.add_subplot()
    ax.plot([1, 10, 100], [1, 2, 3], label="a curve")
    ax.set_xscale("log")
    ax.set_title("title", fontsize=8)
    ax.legend(fontsize=7)
    ax.text(10, 2, "note", fontsize=6)
    assert smallest_text_on_a_phone(fig)[0] < MIN_TEXT
    show_figure(fig, alt="a curve", caption="Fixed: x. Varies: y.")
    size, text = smallest_text_on_a_phone(fig)
    assert size >= MIN_TEXT - 1e-9, f"{text!r} is {size:.2f} CSS px"
    assert min_font_points(fig) == pytest.approx(9 * 0.72 * 800 / PHONE)


def test_text_in_a_figure_narrower_than_a_phone_needs_9_px_only():
    fig = small_figure(3.0, 2.0)  # 300 CSS px: never shrunk
    assert min_font_points(fig) == pytest.approx(9 * 0.72)


def test_lesson_02_position_labels_do_not_overlap():
    """Slanted labels clear each other when the gap between ticks, across the slant, exceeds the text's height."""
    tokens = "the cat that my neighbour feeds every morning sleeps on our porch".split()
    fig = plot_perturbation_trace(tokens, np.linspace(3.0, 0.0, len(tokens)), "title")
    show_figure(fig, alt="a falling line", caption="Fixed: x. Varies: y.")  # the size a reader sees
    ax = fig.axes[0]
    labels = [t for t in ax.get_xticklabels() if t.get_text()]
    assert len(labels) == len(tokens)
    angle = np.deg2rad(labels[0].get_rotation())
    assert angle > 0, "twelve words side by side overlap: the labels must slant"
    ticks = ax.transData.transform(np.column_stack([ax.get_xticks(), np.zeros(len(tokens))]))[:, 0]  # px
    gap = np.diff(ticks).min() * np.sin(angle)  # distance between neighbouring labels, across the slant
    height = labels[0].get_fontsize() * fig.dpi / 72
    assert gap > height, f"{gap:.1f} px between labels of {height:.1f} px"


def test_shown_figures_are_palette_pngs_that_look_the_same():
    """256 colours instead of RGBA: about 2.5 times fewer bytes at 2x, reproducibly, with the same picture."""
    import io

    from PIL import Image

    full = figure_png(long_alignment(), dpi=DPI)  # fresh figures: a colour bar's layout shifts on a second draw
    small = figure_png(long_alignment(), dpi=DPI, palette=True)
    assert small == figure_png(long_alignment(), dpi=DPI, palette=True)  # reproducible bytes
    assert Image.open(io.BytesIO(small)).mode == "P"
    assert len(small) < 0.6 * len(full)
    a = np.asarray(Image.open(io.BytesIO(full)).convert("RGB"), dtype=int)
    b = np.asarray(Image.open(io.BytesIO(small)).convert("RGB"), dtype=int)
    assert np.abs(a - b).max(axis=2).mean() < 2.0  # mean channel error under 2 of 255
    shown = show_figure(small_figure(), alt="a line", caption="Fixed: x. Varies: y.")
    assert Image.open(io.BytesIO(shown.png)).mode == "P"
