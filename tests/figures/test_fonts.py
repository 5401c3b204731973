"""Chinese text in figures renders with a real CJK font (the Chinese edition), never as empty boxes."""

from __future__ import annotations

import warnings

from matplotlib.figure import Figure

from attention_core.figures import CJK_FONT
from attention_core.figures.display import figure_png


def test_the_packaged_cjk_font_is_registered():
    assert CJK_FONT == "Noto Sans CJK SC"


def test_chinese_labels_render_without_a_missing_glyph():
    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.set_title("读取权重与上下文向量")
    ax.plot([0, 1], [1, 0], label="状态 A")
    ax.legend()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = figure_png(fig)
    assert png[:4] == b"\x89PNG"
    assert not [w for w in caught if "missing from font" in str(w.message)]
