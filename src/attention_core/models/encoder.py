"""Bidirectional GRU encoder: the annotations ``h_j = [->h_j ; <-h_j]`` of Bahdanau et al. (lesson 07).

    ->h_j = GRU_fw(->h_{j-1}, e_src(x_j)),   <-h_j = GRU_bw(<-h_{j+1}, e_src(x_j)),   h_j = [->h_j ; <-h_j]

so each annotation carries information from both sides of position ``j``. Shapes: ``N`` batch, ``T`` source
positions, ``d_e`` embedding width, ``d_enc`` state width per direction, ``d_h = 2 d_enc``.
Parameter names: ``src_emb (V_src, d_e)``, ``enc_fw_{W,U,b}``, ``enc_bw_{W,U,b}`` (see :mod:`.gru`).

:class:`RecurrentEncoder` is this encoder as a part of the model (``ModelConfig.encoder = "recurrent"``), beside
lesson 09's encoder without recurrence (:class:`.attention_encoder.SelfAttentionEncoder`): both give the decoder
annotations ``H`` and the summary ``m`` its first state starts from.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .gru import gru_sequence, gru_sequence_backward, init_gru


def embedding_backward(ids: np.ndarray, d_X: np.ndarray, vocab_size: int) -> np.ndarray:
    """Gradient of a lookup table from the gradients of the looked-up rows: ``dE[v] = sum_{ids == v} dX``.

    ``ids`` ``(...)``, ``d_X`` ``(..., d_e)``; returns ``(vocab_size, d_e)``. One matrix product with a one-hot
    matrix (the vocabularies here are small), not a Python loop.
    """
    flat = ids.reshape(-1)  # (M,)
    onehot = np.zeros((flat.size, vocab_size), dtype=d_X.dtype)  # (M, V)
    onehot[np.arange(flat.size), flat] = 1.0
    return onehot.T @ d_X.reshape(flat.size, -1)  # (V, M) x (M, d_e) -> (V, d_e)


def init_encoder(rng: np.random.Generator, vocab_size: int, d_e: int, d_enc: int, dtype=np.float32) -> dict:
    """Embedding table and the two GRU directions."""
    params = {"src_emb": (rng.standard_normal((vocab_size, d_e)) * 0.5).astype(dtype)}
    for direction in ("fw", "bw"):
        for name, value in init_gru(rng, d_e, d_enc, dtype).items():
            params[f"enc_{direction}_{name}"] = value
    return params


class EncoderCache(NamedTuple):
    src: np.ndarray  # (N, T) ids
    X: np.ndarray  # (N, T, d_e) embeddings
    caches_fw: list
    caches_bw: list


def encode(params: dict, src: np.ndarray) -> tuple[np.ndarray, EncoderCache]:
    """Annotations ``H`` ``(N, T, 2 d_enc)`` of a batch of source sentences ``src`` ``(N, T)``."""
    X = params["src_emb"][src]  # (N, T, d_e)
    N = src.shape[0]
    parts, caches = [], []
    for direction in ("fw", "bw"):
        W, U, b = (params[f"enc_{direction}_{k}"] for k in "WUb")
        Xp = X @ W.T + b  # (N, T, d_e) x (d_e, 3 d_enc) -> (N, T, 3 d_enc): all positions at once
        h0 = np.zeros((N, U.shape[1]), dtype=X.dtype)  # (N, d_enc)
        states, cache = gru_sequence(Xp, h0, U, reverse=direction == "bw")  # (N, T, d_enc)
        parts.append(states)
        caches.append(cache)
    return np.concatenate(parts, axis=2), EncoderCache(src, X, *caches)  # (N, T, 2 d_enc)


def encode_backward(params: dict, d_H: np.ndarray, cache: EncoderCache) -> dict:
    """Gradients of every encoder parameter from ``dL/dH`` ``(N, T, 2 d_enc)``."""
    X = cache.X  # (N, T, d_e)
    d_enc = d_H.shape[2] // 2
    grads, d_X = {}, np.zeros_like(X)
    for direction, dstates, caches in (
        ("fw", d_H[:, :, :d_enc], cache.caches_fw),
        ("bw", d_H[:, :, d_enc:], cache.caches_bw),
    ):
        W, U = params[f"enc_{direction}_W"], params[f"enc_{direction}_U"]
        dXp, _, dU = gru_sequence_backward(dstates, caches, U, reverse=direction == "bw")  # (N, T, 3 d_enc)
        flat = dXp.reshape(-1, dXp.shape[2])  # (N T, 3 d_enc)
        grads[f"enc_{direction}_W"] = flat.T @ X.reshape(-1, X.shape[2])  # (3 d_enc, d_e)
        grads[f"enc_{direction}_U"] = dU
        grads[f"enc_{direction}_b"] = flat.sum(axis=0)
        d_X += dXp @ W  # (N, T, 3 d_enc) x (3 d_enc, d_e) -> (N, T, d_e)
    grads["src_emb"] = embedding_backward(cache.src, d_X, params["src_emb"].shape[0])
    return grads


class RecurrentEncoder:
    """The bidirectional GRU as a part of the model: its parameters, annotations and summary, with their backward."""

    name = "recurrent"

    def __init__(self, d_e: int, d_enc: int):
        self.d_e, self.d_enc = d_e, d_enc

    def init(self, rng: np.random.Generator, vocab_size: int, dtype) -> dict[str, np.ndarray]:
        return init_encoder(rng, vocab_size, self.d_e, self.d_enc, dtype)

    def encode(self, p: dict, src: np.ndarray) -> tuple[np.ndarray, EncoderCache]:
        return encode(p, src)

    def backward(self, p: dict, d_H: np.ndarray, cache: EncoderCache) -> dict[str, np.ndarray]:
        return encode_backward(p, d_H, cache)

    @staticmethod
    def summary(H: np.ndarray) -> np.ndarray:
        """The fixed summary ``m = [->h_T; <-h_1]`` ``(N, d_h)`` of annotations ``H`` ``(N, T, d_h)``: what each
        direction read last."""
        d_enc = H.shape[2] // 2
        return np.concatenate([H[:, -1, :d_enc], H[:, 0, d_enc:]], axis=1)

    @staticmethod
    def summary_backward(d_m: np.ndarray, T: int) -> np.ndarray:
        """Route ``dL/dm`` ``(N, d_h)`` back to the two annotations it was cut from; returns ``(N, T, d_h)``."""
        N, d_h = d_m.shape
        d_H = np.zeros((N, T, d_h), dtype=d_m.dtype)
        d_H[:, -1, : d_h // 2] = d_m[:, : d_h // 2]
        d_H[:, 0, d_h // 2 :] += d_m[:, d_h // 2 :]
        return d_H
