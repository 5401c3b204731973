r"""Luong's order of computation as a trainable decoder (lesson 08), beside Bahdanau's of :mod:`.seq2seq`.

Same encoder, same initial state, same data and recipe; only the decoder step differs. For ``t = 1..U``:

    s_t     = GRU(s_{t-1}, [e_tgt(y_{t-1}); s~_{t-1}])          update first (input feeding: s~_0 = 0)
    e_tj    = s_t^T W_a h_j                                      Luong's *general* score, with the new state
    alpha_t, c_t = softmax_j(e_tj), sum_j alpha_tj h_j          core :func:`attend` (kernels)
    s~_t    = tanh(W_c [c_t; s_t] + b_c)                         the attentional state
    p(y_t | y_<t, x) = softmax(W_o s~_t + b_o)

Bahdanau's decoder reads with ``s_{t-1}`` and feeds ``c_t`` into the update; here the state that reads is
``s_t``, after the update, and the context reaches the prediction through ``s~_t``. The keys ``k_j = W_a h_j``
(``K = H W_a^T``, ``(N, T, d_s)``) are computed once per sentence, so each step's scores are the dot products
``e_tj = s_t^T k_j`` (the kernel of the core's :func:`dot_scores`).

Shapes: ``N`` batch, ``T`` source positions, ``U = T + 1`` target steps, ``d_h = 2 d_enc``, ``d_s`` decoder
width (also the width of ``s~_t``), ``V`` target vocabulary.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..gradients import attend_backward_kernel
from ..reading import softmax_rows_kernel, weighted_read
from ..scores import dot_scores_kernel
from . import data
from ._checks import check_batch, check_count, pinned_blas
from .encoder import embedding_backward, encode, encode_backward, init_encoder
from .gru import gru_step, gru_step_backward, init_gru
from .seq2seq import ModelConfig, Seq2Seq, _onehot, _summary_backward, summary


def init_luong_params(cfg: ModelConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """All trainable parameters of the Luong-order model, drawn with ``np.random.default_rng(seed)``."""
    check_count(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    dt = np.dtype(cfg.dtype)
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    p = init_encoder(rng, cfg.src_vocab, cfg.d_emb, cfg.d_enc, dt)
    p["init_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)
    p["init_b"] = np.zeros(d_s, dtype=dt)
    p["tgt_emb"] = (rng.standard_normal((cfg.tgt_vocab, cfg.d_emb)) * 0.5).astype(dt)
    for name, value in init_gru(rng, cfg.d_emb + d_s, d_s, dt).items():  # input [e_tgt(y_{t-1}); s~_{t-1}]
        p[f"dec_{name}"] = value
    p["att_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)  # general score W_a
    p["att_W_c"] = (rng.standard_normal((d_s, d_h + d_s)) / np.sqrt(d_h + d_s)).astype(dt)
    p["att_b_c"] = np.zeros(d_s, dtype=dt)
    p["out_W"] = (rng.standard_normal((cfg.tgt_vocab, d_s)) / np.sqrt(d_s)).astype(dt)
    p["out_b"] = np.zeros(cfg.tgt_vocab, dtype=dt)
    return p


class _LuongCache(NamedTuple):
    batch: data.Batch
    H: np.ndarray  # (N, T, d_h)
    enc_cache: object
    m: np.ndarray  # (N, d_h)
    s0: np.ndarray  # (N, d_s)
    K: np.ndarray  # (N, T, d_s) keys H W_a^T
    Ye: np.ndarray  # (N, U, d_e)
    S: np.ndarray  # (N, U, d_s) s_t
    C: np.ndarray  # (N, U, d_h) c_t
    HT: np.ndarray  # (N, U, d_s) attentional states s~_t
    probs: np.ndarray  # (N, U, V)
    weights: np.ndarray  # (N, U, T)
    gcaches: list


class LuongSeq2Seq(Seq2Seq):
    """The translation model with Luong's decoder order; the same interface as :class:`~.seq2seq.Seq2Seq`."""

    def __init__(self, cfg: ModelConfig, seed: int = 0):
        if cfg.order != "luong" or not cfg.attention:
            raise ValueError(f"LuongSeq2Seq needs ModelConfig(order='luong', attention=True), got {cfg}")
        self.cfg = cfg
        self.params = init_luong_params(cfg, seed)

    def _step(self, xp_e, s, ht, H, K):
        """One decoder step from the embedding part ``xp_e`` ``(N, 3 d_s)``: update, then read, then combine."""
        p, d_e = self.params, self.cfg.d_emb
        s, gcache = gru_step(xp_e + ht @ p["dec_W"][:, d_e:].T, s, p["dec_U"])  # s_t = GRU(s_{t-1}, [e; s~])
        alpha = softmax_rows_kernel(dot_scores_kernel(s, K))  # e_tj = s_t^T W_a h_j: (N, T)
        c = weighted_read(alpha, H)  # (N, d_h)
        ht = np.tanh(np.concatenate([c, s], axis=1) @ p["att_W_c"].T + p["att_b_c"])  # s~_t: (N, d_s)
        return s, gcache, alpha, c, ht

    def forward(self, batch: data.Batch):
        """Teacher-forced pass; returns ``(loss, probs (N, U, V), weights (N, U, T), cache)`` as the base class."""
        check_batch(batch, self.cfg.src_vocab, self.cfg.tgt_vocab)
        p, d_e = self.params, self.cfg.d_emb
        H, enc_cache = encode(p, batch.src)  # (N, T, d_h)
        m = summary(H)
        s = s0 = self._initial_state(m)  # (N, d_s)
        K = H @ p["att_W"].T  # (N, T, d_h) x (d_h, d_s) -> (N, T, d_s): once per sentence
        Ye = p["tgt_emb"][batch.tgt_in]  # (N, U, d_e)
        Xe = Ye @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, U, 3 d_s)
        (N, U), (T, d_h), d_s = batch.tgt_in.shape, H.shape[1:], s.shape[1]
        S, HT = np.empty((N, U, d_s), dtype=s.dtype), np.empty((N, U, d_s), dtype=s.dtype)
        C, weights = np.empty((N, U, d_h), dtype=s.dtype), np.empty((N, U, T), dtype=s.dtype)
        ht = np.zeros((N, d_s), dtype=s.dtype)  # s~_0 = 0
        gcaches = []
        for t in range(U):  # sequential: s_t needs s_{t-1} and s~_{t-1}
            s, gcache, weights[:, t], C[:, t], ht = self._step(Xe[:, t], s, ht, H, K)
            S[:, t], HT[:, t] = s, ht
            gcaches.append(gcache)
        logits = HT @ p["out_W"].T + p["out_b"]  # (N, U, V)
        probs = softmax_rows_kernel(logits)
        p_true = np.take_along_axis(probs, batch.tgt_out[:, :, None], axis=2)[:, :, 0]  # (N, U)
        loss = float(-np.log(np.maximum(p_true, 1e-30)).mean())
        cache = _LuongCache(batch, H, enc_cache, m, s0, K, Ye, S, C, HT, probs, weights, gcaches)
        return loss, probs, weights, cache

    def backward(self, cache: _LuongCache) -> dict[str, np.ndarray]:
        """Gradients of the mean token loss for every parameter, by name."""
        p, cfg = self.params, self.cfg
        batch, H, enc_cache, m, s0, K, Ye, S, C, HT, probs, weights, gcaches = cache
        N, U, V = probs.shape
        d_e, d_s, d_h = cfg.d_emb, cfg.d_dec, H.shape[2]
        d_logits = (probs - _onehot(batch.tgt_out, V, probs.dtype)) / (N * U)  # (N, U, V)
        g = {"out_W": d_logits.reshape(-1, V).T @ HT.reshape(N * U, -1), "out_b": d_logits.sum(axis=(0, 1))}
        d_HT = d_logits @ p["out_W"]  # (N, U, d_s)
        W_c, W_f, dU = p["att_W_c"], p["dec_W"][:, d_e:], np.zeros_like(p["dec_U"])
        D_pre = np.empty_like(HT)  # (N, U, d_s): dL/d(pre-activation of s~_t)
        G = np.empty_like(C)  # (N, U, d_h): dL/dc_t
        d_Xp = np.empty((N, U, 3 * d_s), dtype=probs.dtype)
        d_K = np.zeros_like(K)  # (N, T, d_s)
        d_ht_next = np.zeros((N, d_s), dtype=probs.dtype)  # from step t+1's input feeding
        d_s_next = np.zeros((N, d_s), dtype=probs.dtype)
        for t in reversed(range(U)):
            D_pre[:, t] = (d_HT[:, t] + d_ht_next) * (1.0 - HT[:, t] * HT[:, t])  # through tanh
            d_cs = D_pre[:, t] @ W_c  # (N, d_h + d_s)
            G[:, t] = d_cs[:, :d_h]
            g_e, _ = attend_backward_kernel(weights[:, t], H, G[:, t], C[:, t])  # (N, T): dL/de_tj
            g_s = d_cs[:, d_h:] + d_s_next + (g_e[:, None, :] @ K)[:, 0, :]  # e = s^T k_j: dL/ds_t += sum_j g_e k_j
            d_K += g_e[:, :, None] * S[:, t][:, None, :]  # dL/dk_j += (dL/de_tj) s_t
            d_Xp[:, t], d_s_next, dU_t = gru_step_backward(g_s, gcaches[t], p["dec_U"])
            dU += dU_t
            d_ht_next = d_Xp[:, t] @ W_f  # to s~_{t-1}
        g["dec_U"] = dU
        CS = np.concatenate([C, S], axis=2).reshape(N * U, -1)  # (N U, d_h + d_s)
        g["att_W_c"], g["att_b_c"] = D_pre.reshape(N * U, -1).T @ CS, D_pre.sum(axis=(0, 1))
        g["att_W"] = d_K.reshape(-1, d_s).T @ H.reshape(-1, d_h)  # K = H W_a^T: (d_s, d_h)
        d_H = np.swapaxes(weights, 1, 2) @ G + d_K @ p["att_W"]  # (N, T, d_h): through the read and the keys
        d_pre0 = d_s_next * (1.0 - s0 * s0)  # s_0 = tanh(W_init m + b_init)
        g["init_W"], g["init_b"] = d_pre0.T @ m, d_pre0.sum(axis=0)
        d_H += _summary_backward(d_pre0 @ p["init_W"], H.shape[1])
        HT_prev = np.concatenate([np.zeros_like(HT[:, :1]), HT[:, :-1]], axis=1)  # s~_0 .. s~_{U-1}
        flat = d_Xp.reshape(N * U, -1)
        g["dec_W"] = np.concatenate([flat.T @ Ye.reshape(N * U, -1), flat.T @ HT_prev.reshape(N * U, -1)], axis=1)
        g["dec_b"] = flat.sum(axis=0)
        g["tgt_emb"] = embedding_backward(batch.tgt_in, d_Xp @ p["dec_W"][:, :d_e], cfg.tgt_vocab)
        g.update(encode_backward(p, d_H, enc_cache))
        return g

    @pinned_blas
    def decoder_reads(self, batch: data.Batch):
        """``(weights (N, U, T), contexts (N, U, d_h))`` of every teacher-forced step; ``c_t`` is read with ``s_t``."""
        _, _, weights, cache = self.forward(batch)
        return weights, cache.C

    def greedy_trace(self, src, max_len=None):
        raise NotImplementedError("greedy_trace follows Bahdanau's order (lesson 07); Luong's decoder has none")

    @pinned_blas
    def greedy(self, src: np.ndarray, max_len: int | None = None):
        """Greedy decoding, as :meth:`Seq2Seq.greedy`: ``(tokens (N, max_len), weights (N, max_len, T))``."""
        src = self._check_src(src)
        p, d_e = self.params, self.cfg.d_emb
        N, T = src.shape
        max_len = T + 1 if max_len is None else check_count(max_len, "max_len")
        H, _ = encode(p, src)
        s = self._initial_state(summary(H))
        K = H @ p["att_W"].T  # (N, T, d_s)
        ht = np.zeros_like(s)
        y = np.full(N, data.BOS_ID)
        tokens, alphas = np.empty((N, max_len), dtype=np.int64), []
        for t in range(max_len):
            xp_e = p["tgt_emb"][y] @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, 3 d_s)
            s, _, alpha, _, ht = self._step(xp_e, s, ht, H, K)
            y = tokens[:, t] = (ht @ p["out_W"].T + p["out_b"]).argmax(axis=1)
            alphas.append(alpha)
        return tokens, np.stack(alphas, axis=1)
