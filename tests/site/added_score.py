r"""A score added end to end, as CONTRIBUTING.md's "Adding a score" says: one Python class (:class:`ScaledScore`,
here), one JavaScript object (``tests/site/lab/added_score.js``), one label (:data:`LABEL`), and its design in the
registry (:data:`DESIGN`: no menu label of its own, so the menu shows its parts' names).

:func:`added` registers the three in the package for the length of a ``with`` block, as the contributor's edits of
``models/scorers.py``, ``models/designs.py`` and ``explorers/site.py`` would; :func:`assets_with_it` writes a copy
of the laboratory's scripts whose ``lab/scorers.js`` holds the JavaScript object, as the contributor's edit of
``book/_assets/lab/scorers.js`` would. ``tests/site/test_lab_added_score.py`` compares it with its twin and trains it
under Node against numpy; ``tests/site/test_site_lab.py`` finds it in the page's menu and trains it in the page.
"""

from __future__ import annotations

import contextlib
import pathlib
import shutil

import numpy as np
import pytest

from attention_core.explorers import site
from attention_core.models import designs
from attention_core.models.scorers import SCORES, GeneralScore
from tests.helpers import ROOT

ASSETS = ROOT / "book" / "_assets"
SCRIPT = pathlib.Path(__file__).parent / "lab" / "added_score.js"
LABEL = ("lab_score_scaled", "scaled general score")  # its key in explorers/site.LABELS, and its English
DESIGN = "scaled score"  # the name of its design in the registry
END = "\n}\n\nif (typeof module"  # where aeLabScorers ends in lab/scorers.js: the object goes just before


class ScaledScore(GeneralScore):
    r"""The scaled general score ``e_tj = s^T W_a h_j / sqrt(d_s)``: Luong's general score with the scale of
    Vaswani et al.'s dot product. Keys ``k_j = W_a h_j / sqrt(d_s)``; the per-step backward is the general score's;
    after the loop ``dL/dW_a = sum_j dk_j h_j^T / sqrt(d_s)``, ``dL/dh_j += W_a^T dk_j / sqrt(d_s)``."""

    name = "scaled"
    label = LABEL[0]
    tex = r"e_{tj} = d_s^{-1/2}\, $s^\top W_a h_j"

    def keys(self, p, H):
        return H @ p["att_W"].T / np.sqrt(self.d_s)  # (N, T, d_h) x (d_h, d_s) -> (N, T, d_s)

    def sums_backward(self, p, source, d_source, S, grads):
        d_K = d_source.K / np.sqrt(self.d_s)  # dL/d(W_a h_j), through the scale: (N, T, d_s)
        d_source.H += d_K @ p["att_W"]  # (N, T, d_s) x (d_s, d_h) -> (N, T, d_h)
        return {"att_W": d_K.reshape(-1, self.d_s).T @ source.H.reshape(-1, self.d_h)}


@contextlib.contextmanager
def added():
    """Within the block, the package has the score (``SCORES``), its design (``designs.REGISTRY``, offered by the
    laboratory in Bahdanau's order) and its label (``site.LABELS``); yields the design."""
    site._lab_data.cache_clear()  # the laboratory's data are made once: again with the score, and again after
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setitem(SCORES, ScaledScore.name, ScaledScore)
            design = designs.Design(DESIGN, "bahdanau", ScaledScore.name, lab=True)
            patch.setattr(designs, "REGISTRY", (*designs.REGISTRY, design))
            patch.setitem(site.LABELS.entries, *LABEL)
            yield design
    finally:
        site._lab_data.cache_clear()


def scorers_js() -> str:
    """``lab/scorers.js`` with the JavaScript object written at the end of ``aeLabScorers``."""
    source = (ASSETS / "lab" / "scorers.js").read_text(encoding="utf-8")
    assert source.count(END) == 1, "lab/scorers.js no longer ends its aeLabScorers where the test expects"
    head, tail = source.split(END)
    return head + "\n\n" + SCRIPT.read_text(encoding="utf-8").rstrip("\n") + END + tail


def assets_with_it(folder: pathlib.Path) -> pathlib.Path:
    """A copy of the laboratory's mathematics (``ae-lab-math.js``, ``ae-lab-worker.js``, ``lab/``) in ``folder``,
    with the score in ``lab/scorers.js``; returns ``folder``."""
    for name in ("ae-lab-math.js", "ae-lab-worker.js"):
        shutil.copy(ASSETS / name, folder / name)
    shutil.copytree(ASSETS / "lab", folder / "lab")
    (folder / "lab" / "scorers.js").write_text(scorers_js(), encoding="utf-8")  # a test's temporary copy
    return folder
