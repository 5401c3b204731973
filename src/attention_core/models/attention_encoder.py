r"""An encoder with no recurrence: the annotations made by self-attention layers (lesson 09).

It gives the decoder of lesson 07 what the bidirectional GRU gave it, annotations ``h_j`` of width ``d_h = 2 d_enc``
and a summary for the first state, so that the decoder, its cross-attention and the training recipe stay as they
were and only the encoder changes:

    z^0_j = W_x e_src(x_j) + b_x + P_j                   P: the positions part (:mod:`.positions`)
    z^l   = layer_l(z^{l-1}),  l = 1..L                  :class:`.attention_layer.SelfAttentionLayer`
    h_j   = z^L_j
    m     = (1/T) sum_j h_j                              the summary s_0 starts from (the mean: no position is
                                                         the last one read, as ->h_T and <-h_1 were)

Shapes: ``N`` batch, ``T`` source positions, ``d_e`` embedding width, ``d_h`` annotation width. Parameter names:
``src_emb (V_src, d_e)``, ``sa_in_W (d_h, d_e)``, ``sa_in_b (d_h,)``, the positions' (``pos_emb``), the layers'
(``sa1_W_q``, ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .attention_layer import LayerCache, SelfAttentionLayer
from .encoder import embedding_backward
from .positions import POSITIONS


class AttentionEncoderCache(NamedTuple):
    src: np.ndarray  # (N, T) ids
    X: np.ndarray  # (N, T, d_e) embeddings
    layers: list[LayerCache]
    weights: list[np.ndarray]  # (N, T, T) each layer's alpha_ij, row i the position that reads


class SelfAttentionEncoder:
    """``layers`` self-attention layers of width ``d_h`` over the embeddings plus positions (``positions``: a name of
    :data:`~.positions.POSITIONS`); ``tied``: each layer reads back its keys."""

    name = "self_attention"
    label = "lab_encoder_self_attention"  # its name in the website's labels (explorers/site.LABELS)
    tied_label = "lab_encoder_tied"  # and that of its layers reading back their keys (tied)

    def __init__(self, d_e: int, d_h: int, layers: int, d_ff: int, positions: str, tied: bool):
        self.d_e, self.d_h = d_e, d_h
        self.positions = POSITIONS[positions](d_h)
        self.layers = [SelfAttentionLayer(i, d_h, d_ff, tied) for i in range(1, layers + 1)]

    def init(self, rng: np.random.Generator, vocab_size: int, dtype) -> dict[str, np.ndarray]:
        p = {"src_emb": (rng.standard_normal((vocab_size, self.d_e)) * 0.5).astype(dtype)}
        p["sa_in_W"] = (rng.standard_normal((self.d_h, self.d_e)) / np.sqrt(self.d_e)).astype(dtype)
        p["sa_in_b"] = np.zeros(self.d_h, dtype=dtype)
        p.update(self.positions.init(rng, dtype))
        for layer in self.layers:
            p.update(layer.init(rng, dtype))
        return p

    def encode(self, p: dict, src: np.ndarray) -> tuple[np.ndarray, AttentionEncoderCache]:
        """Annotations ``H`` ``(N, T, d_h)`` of a batch of source sentences ``src`` ``(N, T)``."""
        X = p["src_emb"][src]  # (N, T, d_e)
        Z = X @ p["sa_in_W"].T + p["sa_in_b"]  # (N, T, d_e) x (d_e, d_h) -> (N, T, d_h)
        P = self.positions.forward(p, src.shape[1], Z.dtype)  # (T, d_h) or None
        if P is not None:
            Z = Z + P  # the same P_j for every sentence of the batch
        caches, weights = [], []
        for layer in self.layers:
            Z, alpha, cache = layer.forward(p, Z)  # (N, T, d_h), (N, T, T)
            caches.append(cache)
            weights.append(alpha)
        return Z, AttentionEncoderCache(src, X, caches, weights)

    def backward(self, p: dict, d_H: np.ndarray, cache: AttentionEncoderCache) -> dict[str, np.ndarray]:
        """Gradients of every encoder parameter from ``dL/dH`` ``(N, T, d_h)``."""
        grads, d_Z = {}, d_H
        for layer, layer_cache in zip(reversed(self.layers), reversed(cache.layers), strict=True):
            d_Z, layer_grads = layer.backward(p, d_Z, layer_cache)  # (N, T, d_h)
            grads.update(layer_grads)
        grads.update(self.positions.backward(p, d_Z.sum(axis=0)))  # P_j is shared by the batch: (T, d_h)
        flat = d_Z.reshape(-1, self.d_h)  # (N T, d_h)
        grads["sa_in_W"] = flat.T @ cache.X.reshape(-1, self.d_e)  # (d_h, d_e)
        grads["sa_in_b"] = flat.sum(axis=0)
        grads["src_emb"] = embedding_backward(cache.src, d_Z @ p["sa_in_W"], p["src_emb"].shape[0])
        return grads

    @staticmethod
    def summary(H: np.ndarray) -> np.ndarray:
        """``m = (1/T) sum_j h_j`` ``(N, d_h)``."""
        return H.mean(axis=1)

    @staticmethod
    def summary_backward(d_m: np.ndarray, T: int) -> np.ndarray:
        """``dL/dH`` ``(N, T, d_h)`` from ``dL/dm``: each annotation gets a ``1/T`` share."""
        return np.repeat(d_m[:, None, :] / T, T, axis=1)
