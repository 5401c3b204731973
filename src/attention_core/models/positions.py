r"""Where each word stands, for an encoder without recurrence (lesson 09).

A self-attention layer treats its inputs as a set: permute the positions and its outputs are permuted the same way,
since every position reads every other through the same weights. A recurrent encoder cannot help knowing the
order (each state is the previous one, updated); an encoder built only of self-attention layers has to be told, by
adding to each position's input a vector that depends on the position alone:

    z_j = W_x e_src(x_j) + b_x + P_j                     j = 1..T

    "sinusoidal"  P_{j,2i} = sin((j-1) / 10000^{2i/d}),   fixed (Vaswani et al. 2017, section 3.5)
                  P_{j,2i+1} = cos((j-1) / 10000^{2i/d})
    "learned"     P_j = pos_emb[j-1], a row of a trained table (MAX_LEN, d)
    "none"        P_j = 0: the encoder sees the words as a bag

Each part holds sizes, never parameters (they live in the model's dict ``p``), and has its forward and backward
side by side, as the decoder's parts do (:mod:`.scorers`, :mod:`.orders`); ``label`` is the key of its name in the
website's labels (``attention_core.explorers.site.LABELS``). Shapes: ``T`` source positions, ``d`` the encoder's
width.
"""

from __future__ import annotations

import numpy as np

from .data import MAX_LEN


def sinusoidal(T: int, d: int) -> np.ndarray:
    """The fixed table ``P`` ``(T, d)`` of Vaswani et al.: sines in the even columns, cosines in the odd ones, at
    wavelengths from ``2 pi`` to ``10000 * 2 pi`` positions (``d`` even)."""
    position = np.arange(T)[:, None]  # (T, 1): j - 1
    rate = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d / 2,): one frequency per pair of columns
    P = np.empty((T, d))
    P[:, 0::2] = np.sin(position * rate)  # (T, d / 2)
    P[:, 1::2] = np.cos(position * rate)
    return P


class Positions:
    """How an encoder learns where each word stands: ``P`` ``(T, d)`` added to the inputs, and its gradient."""

    name = ""
    label = ""  # the key of its name in the website's labels (explorers/site.LABELS), e.g. "sinusoidal positions"
    params: tuple[str, ...] = ()  # the names of its parameters in the model's dict

    def __init__(self, d: int):
        self.d = d

    def init(self, rng: np.random.Generator, dtype) -> dict[str, np.ndarray]:
        return {}

    def forward(self, p: dict, T: int, dtype) -> np.ndarray | None:
        """``P`` ``(T, d)`` for a sentence of ``T`` positions, or None when nothing is added."""
        raise NotImplementedError

    def backward(self, p: dict, d_P: np.ndarray) -> dict[str, np.ndarray]:
        """The gradients of its parameters from ``dL/dP`` ``(T, d)`` (the batch already summed)."""
        return {}


class SinusoidalPositions(Positions):
    """The fixed sines and cosines of Vaswani et al. (no parameter)."""

    name = "sinusoidal"
    label = "lab_positions_sinusoidal"

    def forward(self, p, T, dtype):
        return sinusoidal(T, self.d).astype(dtype)  # (T, d)


class LearnedPositions(Positions):
    """One trained vector per position, ``pos_emb`` ``(MAX_LEN, d)``: a sentence of ``T`` words uses the first ``T``
    rows (so a length never seen in training would use rows never trained)."""

    name = "learned"
    label = "lab_positions_learned"
    params = ("pos_emb",)

    def init(self, rng, dtype):
        return {"pos_emb": (rng.standard_normal((MAX_LEN, self.d)) * 0.1).astype(dtype)}

    def forward(self, p, T, dtype):
        return p["pos_emb"][:T]  # (T, d)

    def backward(self, p, d_P):
        grad = np.zeros_like(p["pos_emb"])  # (MAX_LEN, d)
        grad[: d_P.shape[0]] = d_P
        return {"pos_emb": grad}


class NoPositions(Positions):
    """Nothing added: the encoder's outputs do not depend on the order of the words."""

    name = "none"
    label = "lab_positions_none"

    def forward(self, p, T, dtype):
        return None


POSITIONS = {part.name: part for part in (SinusoidalPositions, LearnedPositions, NoPositions)}
