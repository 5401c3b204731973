"""Figures: functions that take computed results and return matplotlib ``Figure`` objects; they never compute
attention themselves. ``display.show_figure`` turns a figure into an accessible HTML ``<figure>``.

Importing this package lets matplotlib draw Chinese text (the Chinese edition's titles, labels and legends): it
registers the Noto Sans CJK SC font that the ``mplfonts`` package ships (installed from PyPI with the book's
requirements; nothing is fetched at run time) as the fallback after DejaVu Sans, so Latin text looks as before
and CJK characters never fall back to empty boxes.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import matplotlib
from matplotlib import font_manager

CJK_FONT_FILE = "NotoSansCJKsc-Regular.otf"  # inside the mplfonts package's fonts/ folder


def _register_cjk_fallback() -> str | None:
    """Add the CJK font to matplotlib's font list; return its family name, or None without mplfonts."""
    spec = importlib.util.find_spec("mplfonts")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "fonts" / CJK_FONT_FILE
    if not path.exists():
        return None
    font_manager.fontManager.addfont(str(path))
    name = font_manager.FontProperties(fname=str(path)).get_name()
    # Per-glyph fallback needs concrete family names in font.family (a generic "sans-serif" uses one font only).
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", name]
    return name


CJK_FONT = _register_cjk_fallback()
