r"""Encoder–decoder translation models: with Bahdanau attention, and a fixed-summary baseline (lesson 07).

Attention decoder, in the article's order, for ``t = 1..U``:

    e_tj  = v^T tanh(W_s s_{t-1} + W_h h_j + b)                 core :func:`additive_scores`
    alpha_t, c_t = softmax_j(e_tj), sum_j alpha_tj h_j          core :func:`attend`
    s_t   = GRU(s_{t-1}, [e_tgt(y_{t-1}); c_t])                 :mod:`.gru`
    p(y_t | y_<t, x) = softmax(W_o [s_t; c_t] + b_o)            over the target vocabulary

with ``y_0`` the start symbol and ``s_0 = tanh(W_init m + b_init)``, ``m = [->h_T; <-h_1]``. The baseline is
the same network with one change: instead of ``c_t`` it receives the fixed summary ``m`` at every step, so it
can never go back to an individual source position. Loss: the article's
``L = -sum_t log p(y_t | y_<t, x)``, averaged over the tokens of a batch (the same gradient direction, scaled).

The backward pass calls the core too: :func:`attend_backward` gives ``dL/de_tj = alpha_tj g_t^T (h_j - c_t)``
and ``dL/dh_j``; :func:`additive_scores_backward` takes ``dL/de`` to the scorer parameters, ``s_{t-1}`` and ``H``.
Shapes: ``N`` batch, ``T`` source positions, ``U = T + 1`` target steps, ``d_h = 2 d_enc``, ``d_s`` decoder
width, ``d_a`` scorer width, ``V`` target vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..gradients import attend_backward
from ..reading import attend, softmax
from ..scores import additive_scores, additive_scores_backward
from . import data
from .encoder import embedding_backward, encode, encode_backward, init_encoder
from .gru import gru_step, gru_step_backward, init_gru

SCORER = ("att_W_s", "att_W_h", "att_v", "att_b")  # names of the scorer parameters phi


@dataclass(frozen=True)
class ModelConfig:
    """Sizes of the translation model."""

    attention: bool = True  # True: Bahdanau attention; False: the fixed-summary baseline
    d_emb: int = 32  # width of the source and target embeddings e_src, e_tgt
    d_enc: int = 32  # encoder state width per direction; annotations h_j have 2 * d_enc
    d_dec: int = 64  # decoder state width d_s
    d_att: int = 64  # scorer width d_a (unused by the baseline)
    src_vocab: int = len(data.SRC_WORDS)  # source vocabulary size
    tgt_vocab: int = len(data.TGT_WORDS)  # target vocabulary size, including start and end symbols
    dtype: str = "float32"  # float32 to train fast; float64 for gradient checks


def init_params(cfg: ModelConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """All trainable parameters theta, by name, drawn with ``np.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(cfg.dtype)
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    p = init_encoder(rng, cfg.src_vocab, cfg.d_emb, cfg.d_enc, dt)
    p["init_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)
    p["init_b"] = np.zeros(d_s, dtype=dt)
    p["tgt_emb"] = (rng.standard_normal((cfg.tgt_vocab, cfg.d_emb)) * 0.5).astype(dt)
    for name, value in init_gru(rng, cfg.d_emb + d_h, d_s, dt).items():
        p[f"dec_{name}"] = value
    if cfg.attention:
        p["att_W_s"] = (rng.standard_normal((cfg.d_att, d_s)) / np.sqrt(d_s)).astype(dt)
        p["att_W_h"] = (rng.standard_normal((cfg.d_att, d_h)) / np.sqrt(d_h)).astype(dt)
        p["att_v"] = (rng.standard_normal(cfg.d_att) / np.sqrt(cfg.d_att)).astype(dt)
        p["att_b"] = np.zeros(cfg.d_att, dtype=dt)
    p["out_W"] = (rng.standard_normal((cfg.tgt_vocab, d_s + d_h)) / np.sqrt(d_s + d_h)).astype(dt)
    p["out_b"] = np.zeros(cfg.tgt_vocab, dtype=dt)
    return p


def summary(H: np.ndarray) -> np.ndarray:
    """The fixed summary ``m = [->h_T; <-h_1]`` ``(N, d_h)`` of annotations ``H`` ``(N, T, d_h)``."""
    d_enc = H.shape[2] // 2
    return np.concatenate([H[:, -1, :d_enc], H[:, 0, d_enc:]], axis=1)


def _summary_backward(d_m: np.ndarray, T: int) -> np.ndarray:
    """Route ``dL/dm`` ``(N, d_h)`` back to the two annotations it was cut from; returns ``(N, T, d_h)``."""
    N, d_h = d_m.shape
    d_H = np.zeros((N, T, d_h), dtype=d_m.dtype)
    d_H[:, -1, : d_h // 2] = d_m[:, : d_h // 2]
    d_H[:, 0, d_h // 2 :] += d_m[:, d_h // 2 :]
    return d_H


class Seq2Seq:
    """A translation model: parameters plus forward, backward, greedy decoding and attention read-out."""

    def __init__(self, cfg: ModelConfig = ModelConfig(), seed: int = 0):
        self.cfg = cfg
        self.params = init_params(cfg, seed)

    # --- one decoder step -------------------------------------------------------------------------------
    def _read(self, s_prev, H, m):
        """Context for one step: the attention read of ``H`` with ``s_{t-1}``, or the fixed summary."""
        if not self.cfg.attention:
            return None, m
        p = self.params
        e = additive_scores(s_prev, H, *(p[k] for k in SCORER))  # (N, d_s), (N, T, d_h) -> (N, T)
        return attend(e, H)  # alpha (N, T), c (N, d_h)

    def _initial_state(self, m):
        return np.tanh(m @ self.params["init_W"].T + self.params["init_b"])  # (N, d_h) -> (N, d_s)

    # --- teacher-forced forward and backward --------------------------------------------------------------
    def forward(self, batch: data.Batch):
        """Teacher-forced pass: decoder inputs are the true previous tokens ``y_0 .. y_{U-1}``.

        Returns ``(loss, probs (N, U, V), weights (N, U, T) or None, cache)``; ``loss`` is the mean of
        ``-log p(y_t | y_<t, x)`` over the ``N U`` target tokens.
        """
        p = self.params
        H, enc_cache = encode(p, batch.src)  # (N, T, d_h)
        m = summary(H)  # (N, d_h)
        s = s0 = self._initial_state(m)  # (N, d_s)
        d_e = self.cfg.d_emb
        Ye = p["tgt_emb"][batch.tgt_in]  # (N, U, d_e): e_tgt(y_{t-1}), known in advance under teacher forcing
        Xe = Ye @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, U, 3 d_s): the embedding part of every step at once
        W_c = p["dec_W"][:, d_e:]  # (3 d_s, d_h)
        N, U = batch.tgt_in.shape
        S = np.empty((N, U, s.shape[1]), dtype=s.dtype)  # s_1 .. s_U
        C = np.empty((N, U, H.shape[2]), dtype=s.dtype)  # c_1 .. c_U
        alphas, steps = [], []
        for t in range(U):  # sequential: s_t needs s_{t-1}
            alpha, c = self._read(s, H, m)  # score with s_{t-1}, then read
            s_new, gcache = gru_step(Xe[:, t] + c @ W_c.T, s, p["dec_U"])  # s_t = GRU(s_{t-1}, [e(y_{t-1}); c_t])
            steps.append((s, gcache))
            alphas.append(alpha)
            S[:, t], C[:, t], s = s_new, c, s_new
        SC = np.concatenate([S, C], axis=2)  # (N, U, d_s + d_h)
        logits = SC @ p["out_W"].T + p["out_b"]  # (N, U, V)
        probs = softmax(logits, axis=-1)  # (N, U, V)
        p_true = np.take_along_axis(probs, batch.tgt_out[:, :, None], axis=2)[:, :, 0]  # (N, U)
        loss = float(-np.log(np.maximum(p_true, 1e-30)).mean())
        weights = np.stack(alphas, axis=1) if self.cfg.attention else None  # (N, U, T)
        cache = (batch, H, enc_cache, m, s0, Ye, SC, probs, alphas, steps)
        return loss, probs, weights, cache

    def backward(self, cache) -> dict[str, np.ndarray]:
        """Gradients of the mean token loss for every parameter, by name."""
        p, cfg = self.params, self.cfg
        batch, H, enc_cache, m, s0, Ye, SC, probs, alphas, steps = cache
        N, U, V = probs.shape
        d_e, d_s = cfg.d_emb, cfg.d_dec
        d_logits = probs - _onehot(batch.tgt_out, V, probs.dtype)  # (N, U, V): softmax + cross-entropy
        d_logits /= N * U  # the loss is a mean over N U tokens
        g = {"out_W": d_logits.reshape(-1, V).T @ SC.reshape(N * U, -1), "out_b": d_logits.sum(axis=(0, 1))}
        d_SC = d_logits @ p["out_W"]  # (N, U, V) x (V, d_s + d_h) -> (N, U, d_s + d_h)
        W_c = p["dec_W"][:, d_e:]  # (3 d_s, d_h)
        d_H = np.zeros_like(H)  # (N, T, d_h)
        d_m = np.zeros_like(m)  # (N, d_h)
        d_Xp = np.empty((N, U, 3 * d_s), dtype=probs.dtype)
        g["dec_U"] = np.zeros_like(p["dec_U"])
        if cfg.attention:
            for k in SCORER:
                g[k] = np.zeros_like(p[k])
        d_s_next = np.zeros((N, d_s), dtype=probs.dtype)
        for t in reversed(range(U)):
            s_prev, gcache = steps[t]
            d_Xp[:, t], d_s_prev, dU = gru_step_backward(d_s_next + d_SC[:, t, :d_s], gcache, p["dec_U"])
            g["dec_U"] += dU
            d_c = d_SC[:, t, d_s:] + d_Xp[:, t] @ W_c  # (N, d_h): g_t = dL/dc_t
            if cfg.attention:
                d_scores, d_H_read = attend_backward(alphas[t], H, d_c)  # (N, T), (N, T, d_h)
                sg = additive_scores_backward(d_scores, s_prev, H, *(p[k] for k in SCORER))
                for k, name in zip(SCORER, ("W_s", "W_h", "v", "b"), strict=True):
                    g[k] += sg[name]
                d_H += d_H_read + sg["H"]
                d_s_prev = d_s_prev + sg["s"]
            else:
                d_m += d_c
            d_s_next = d_s_prev
        # s_0 = tanh(W_init m + b_init)
        d_pre = d_s_next * (1.0 - s0 * s0)  # (N, d_s)
        g["init_W"], g["init_b"] = d_pre.T @ m, d_pre.sum(axis=0)
        d_m += d_pre @ p["init_W"]
        d_H += _summary_backward(d_m, H.shape[1])
        C = SC[:, :, d_s:]  # (N, U, d_h)
        flat = d_Xp.reshape(N * U, -1)  # (N U, 3 d_s)
        g["dec_W"] = np.concatenate(
            [flat.T @ Ye.reshape(N * U, -1), flat.T @ C.reshape(N * U, -1)], axis=1
        )  # (3 d_s, d_e + d_h)
        g["dec_b"] = flat.sum(axis=0)
        g["tgt_emb"] = embedding_backward(batch.tgt_in, d_Xp @ p["dec_W"][:, :d_e], cfg.tgt_vocab)
        g.update(encode_backward(p, d_H, enc_cache))
        return g

    def loss_and_grads(self, batch: data.Batch) -> tuple[float, dict[str, np.ndarray]]:
        """Teacher-forced loss and its gradient for every parameter."""
        loss, _, _, cache = self.forward(batch)
        return loss, self.backward(cache)

    # --- inference ----------------------------------------------------------------------------------------
    def greedy(self, src: np.ndarray, max_len: int | None = None):
        """Greedy decoding: feed back the most probable token at each step (no target is used).

        ``src`` ``(N, T)``. Returns ``(tokens (N, max_len), weights (N, max_len, T) or None)``; ``max_len``
        defaults to ``T + 1``. Tokens after the first end symbol are meaningless; see :func:`strip_eos`.
        """
        p, d_e = self.params, self.cfg.d_emb
        N, T = src.shape
        max_len = T + 1 if max_len is None else max_len
        H, _ = encode(p, src)  # (N, T, d_h)
        m = summary(H)
        s = self._initial_state(m)
        y = np.full(N, data.BOS_ID)
        tokens = np.empty((N, max_len), dtype=np.int64)
        alphas = []
        for t in range(max_len):
            alpha, c = self._read(s, H, m)
            xp = p["tgt_emb"][y] @ p["dec_W"][:, :d_e].T + c @ p["dec_W"][:, d_e:].T + p["dec_b"]  # (N, 3 d_s)
            s, _ = gru_step(xp, s, p["dec_U"])
            logits = np.concatenate([s, c], axis=1) @ p["out_W"].T + p["out_b"]  # (N, V)
            y = tokens[:, t] = logits.argmax(axis=1)
            alphas.append(alpha)
        return tokens, (np.stack(alphas, axis=1) if self.cfg.attention else None)


def _onehot(ids: np.ndarray, V: int, dtype) -> np.ndarray:
    out = np.zeros(ids.shape + (V,), dtype=dtype)  # (..., V)
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out
