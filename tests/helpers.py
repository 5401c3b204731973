"""What several test files share: the repository's root, the helpers that read numbers and Chinese out of text, the
laboratory's compiled matrix product (``gemm_wasm``) and a command run in-process (``as_main``). One place, so the
copies cannot drift."""

from __future__ import annotations

import functools
import pathlib
import re
import runpy
import subprocess
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")  # a printed number: 3, -0.5414, 1e-05
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")  # a Chinese character


def numbers(text: str) -> list[str]:
    """The numbers written in ``text``, in order, as written."""
    return NUMBER.findall(text)


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


def as_main(module: str, *args: str, capsys) -> subprocess.CompletedProcess:
    """``python -m <module> <args>`` run in this process (``capsys``: pytest's fixture; a bare name other than
    ``attention_core`` is one of ``attention_workshop``'s modules): the module executed as ``__main__``, as
    ``python -m`` executes it (its ``sys.exit(run(main, PROG))`` included, the exit caught), with its exit status and
    what it wrote to stdout and stderr. For a test of a command's answer to its arguments, not of the process: an
    interpreter's start and imports cost 0.5 to 1 CPU-second."""
    module = module if "." in module or module == "attention_core" else f"attention_workshop.{module}"
    argv = sys.argv
    sys.argv = [module.replace(".", "/") + ".py", *args]
    try:
        with warnings.catch_warnings():  # runpy: the module is imported already (by this or an earlier test)
            warnings.filterwarnings("ignore", f"'{module}", RuntimeWarning)
            runpy.run_module(module, run_name="__main__")
        status = 0  # pragma: no cover (a command's __main__ always exits)
    except SystemExit as stop:
        status = stop.code
    finally:
        sys.argv = argv
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["python", "-m", module, *args], status, out.out, out.err)


def reading_minutes(words: int) -> int:
    """A reading time in minutes for ``words`` words: 200 words a minute, in steps of 5 minutes, at least 5."""
    return max(5, 5 * round(words / 1000))


@functools.cache
def gemm_wasm() -> str:
    """The laboratory's matrix product, ``book/_assets/lab/gemm.wat``, compiled (base64), as the committed part
    ``lab/wasm.js`` holds it (``attention_workshop.gemm_wasm``): the Node drivers give it to the parts, so they run
    the page's products."""
    from attention_workshop.gemm_wasm import committed_base64

    return committed_base64()


def outside_canvas(fig, dpi: float) -> list[str]:
    """What of ``fig`` leaves its canvas when drawn at ``dpi``: each text drawn (title, label, tick label, legend,
    colour-bar label, annotation) whose box crosses an edge of the figure, with the side and the pixels, then each
    edge of the drawn image with ink on it (a second net: text cut by the edge leaves ink there). An empty list
    when everything fits. Artists a blitting explorer animates are drawn too, over the rest, as it draws them."""
    from unittest import mock

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_rgba
    from matplotlib.text import Text

    drawn = []
    draw = Text.draw

    def recorded(text, renderer):
        draw(text, renderer)
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)

    fig.set_dpi(dpi)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    with mock.patch.object(Text, "draw", recorded):
        canvas.draw()
        for artist in fig.findobj(lambda a: a.get_animated() and a.get_visible()):
            fig.draw_artist(artist)
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    problems = []
    for text in dict.fromkeys(drawn):  # once each, in drawing order
        box = text.get_window_extent(renderer)
        beyond = {"left": -box.x0, "right": box.x1 - width, "bottom": -box.y0, "top": box.y1 - height}
        sides = [f"{side} by {px:.0f} px" for side, px in beyond.items() if px > 0.5]
        if sides:
            problems.append(f"{text.get_text()!r} crosses the {' and the '.join(sides)}")
    pixels = np.asarray(canvas.buffer_rgba())  # (H, W, 4) uint8
    background = np.round(np.array(to_rgba(fig.get_facecolor())) * 255)  # (4,)
    edges = {"top": pixels[0], "bottom": pixels[-1], "left": pixels[:, 0], "right": pixels[:, -1]}
    for side, line in edges.items():
        inked = (line != background).any(axis=1)  # (pixels,): not the background's colour
        if inked.any():
            problems.append(f"ink on the {side} edge of the image ({int(inked.sum())} px)")
    return problems
