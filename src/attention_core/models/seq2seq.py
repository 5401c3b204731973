r"""Encoder–decoder translation models: with Bahdanau attention, and a fixed-summary baseline (lesson 07).

Attention decoder, in the article's order, for ``t = 1..U``:

    e_tj  = v^T tanh(W_s s_{t-1} + W_h h_j + b)                 core :func:`additive_scores` (kernels)
    alpha_t, c_t = softmax_j(e_tj), sum_j alpha_tj h_j          core :func:`attend` (kernels)
    s_t   = GRU(s_{t-1}, [e_tgt(y_{t-1}); c_t])                 :mod:`.gru`
    p(y_t | y_<t, x) = softmax(W_o [s_t; c_t] + b_o)            over the target vocabulary

with ``y_0`` the start symbol and ``s_0 = tanh(W_init m + b_init)``, ``m = [->h_T; <-h_1]``. The baseline is
the same network with one change: instead of ``c_t`` it receives the fixed summary ``m`` at every step, so it
can never go back to an individual source position. Loss: the article's
``L = -sum_t log p(y_t | y_<t, x)``, averaged over the tokens of a batch (the same gradient direction, scaled).

The backward pass calls the core too: :func:`attend_backward`'s kernel gives ``dL/de_tj = alpha_tj g_t^T (h_j -
c_t)``, and :func:`additive_scores_backward`'s kernel takes ``dL/de`` through the tanh; the sums over steps
that do not feed the recurrence (``dL/dW_h``, ``dL/dv``, ``dL/dW_s``, ``dL/dH``) are formed once after the loop.
Shapes: ``N`` batch, ``T`` source positions, ``U = T + 1`` target steps, ``d_h = 2 d_enc``, ``d_s`` decoder
width, ``d_a`` scorer width, ``V`` target vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..gradients import attend_backward_kernel
from ..reading import softmax_rows_kernel, weighted_read
from ..scores import (
    additive_from_keys_backward_kernel,
    additive_from_keys_kernel,
    additive_keys_kernel,
    dot_scores_kernel,
)
from . import data
from ._checks import check_batch, check_count, check_token_ids, pinned_blas
from .encoder import embedding_backward, encode, encode_backward, init_encoder
from .gru import gru_step, gru_step_backward, init_gru

SCORER = ("att_W_s", "att_W_h", "att_v", "att_b")  # names of the scorer parameters phi


@dataclass(frozen=True)
class ModelConfig:
    """Sizes of the translation model."""

    attention: bool = True  # True: Bahdanau attention; False: the fixed-summary baseline
    order: str = "bahdanau"  # "bahdanau": read with s_{t-1}, then update; "luong": update, then read with s_t
    score: str = "additive"  # "additive": v^T tanh(W_s s + W_h h_j + b); "general": s^T W_a h_j (Luong's)
    d_emb: int = 32  # width of the source and target embeddings e_src, e_tgt
    d_enc: int = 32  # encoder state width per direction; annotations h_j have 2 * d_enc
    d_dec: int = 64  # decoder state width d_s
    d_att: int = 64  # scorer width d_a (unused by the baseline)
    src_vocab: int = len(data.SRC_WORDS)  # source vocabulary size
    tgt_vocab: int = len(data.TGT_WORDS)  # target vocabulary size, including start and end symbols
    dtype: str = "float32"  # float32 to train fast; float64 for gradient checks

    def __post_init__(self):
        if not isinstance(self.attention, bool):
            raise TypeError(f"attention must be True or False, got {self.attention!r}")
        for name in ("d_emb", "d_enc", "d_dec", "d_att", "src_vocab"):
            check_count(getattr(self, name), name)
        check_count(self.tgt_vocab, "tgt_vocab", minimum=3)  # start and end symbols and one word at least
        if self.order not in ("bahdanau", "luong"):
            raise ValueError(f"order must be 'bahdanau' or 'luong', got {self.order!r}")
        if self.score not in ("additive", "general"):
            raise ValueError(f"score must be 'additive' or 'general', got {self.score!r}")
        if self.order == "luong" and not (self.attention and self.score == "general"):
            raise ValueError("order='luong' is Luong's attention decoder: it needs attention=True, score='general'")
        if self.dtype not in ("float32", "float64"):
            raise ValueError(f"dtype must be 'float32' or 'float64', got {self.dtype!r}")


def init_params(cfg: ModelConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """All trainable parameters theta, by name, drawn with ``np.random.default_rng(seed)``."""
    check_count(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    dt = np.dtype(cfg.dtype)
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    p = init_encoder(rng, cfg.src_vocab, cfg.d_emb, cfg.d_enc, dt)
    p["init_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)
    p["init_b"] = np.zeros(d_s, dtype=dt)
    p["tgt_emb"] = (rng.standard_normal((cfg.tgt_vocab, cfg.d_emb)) * 0.5).astype(dt)
    for name, value in init_gru(rng, cfg.d_emb + d_h, d_s, dt).items():
        p[f"dec_{name}"] = value
    if cfg.attention and cfg.score == "general":
        p["att_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)  # W_a: e_tj = s^T W_a h_j
    elif cfg.attention:
        p["att_W_s"] = (rng.standard_normal((cfg.d_att, d_s)) / np.sqrt(d_s)).astype(dt)
        p["att_W_h"] = (rng.standard_normal((cfg.d_att, d_h)) / np.sqrt(d_h)).astype(dt)
        p["att_v"] = (rng.standard_normal(cfg.d_att) / np.sqrt(cfg.d_att)).astype(dt)
        p["att_b"] = np.zeros(cfg.d_att, dtype=dt)
    p["out_W"] = (rng.standard_normal((cfg.tgt_vocab, d_s + d_h)) / np.sqrt(d_s + d_h)).astype(dt)
    p["out_b"] = np.zeros(cfg.tgt_vocab, dtype=dt)
    return p


def build_model(cfg: ModelConfig = ModelConfig(), seed: int = 0) -> Seq2Seq:
    """The model ``cfg`` describes: :class:`Seq2Seq` (Bahdanau's order, or the baseline) or Luong's order."""
    if cfg.order == "luong":
        from .luong_decoder import LuongSeq2Seq

        return LuongSeq2Seq(cfg, seed)
    return Seq2Seq(cfg, seed)


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
    """A translation model: parameters plus forward, backward, greedy decoding and attention read-out.

    The scorer splits as the article's formula does: ``W_h h_j + b`` does not depend on the decoder state, so
    it is computed once per sentence (the keys ``K``), and each target step adds only ``W_s s_{t-1}``. The
    forward pass keeps the scorer's activations for the backward pass, which sums the gradients of the
    state-free parts over all steps at once, after the time loop. Inputs are validated here, once per batch;
    the time loops call the core's kernels.
    """

    def __init__(self, cfg: ModelConfig = ModelConfig(), seed: int = 0):
        self.cfg = cfg
        self.params = init_params(cfg, seed)

    # --- pieces of one decoder step -----------------------------------------------------------------------
    def _keys(self, H):
        """The state-free part of the score, once per sentence; None for the baseline.

        Additive: ``k_j = W_h h_j + b`` ``(N, T, d_a)``. General: ``k_j = W_a h_j`` ``(N, T, d_s)``, so that
        ``e_tj = s^T W_a h_j = s^T k_j``.
        """
        if not self.cfg.attention:
            return None
        if self.cfg.score == "general":
            return H @ self.params["att_W"].T  # (N, T, d_h) x (d_h, d_s) -> (N, T, d_s)
        return additive_keys_kernel(H, self.params["att_W_h"], self.params["att_b"])  # (N, T, d_a)

    def _read(self, s_prev, H, K, m, scores: list | None = None):
        """Context for one step: the attention read of ``H`` with ``s_{t-1}`` (article's order), or ``m``.

        Returns ``(alpha (N, T) or None, c (N, d_h), a (N, T, d_a) or None)``; ``a`` are the scorer's
        activations ``tanh(W_s s_{t-1} + W_h h_j + b)``, kept for the backward pass. With a list ``scores``, the
        scores ``e_t (N, T)`` are appended to it (for :meth:`greedy_trace`).
        """
        if K is None:
            return None, m, None
        if self.cfg.score == "general":
            e = dot_scores_kernel(s_prev, K)  # e_tj = s_{t-1}^T W_a h_j: (N, T)
            alpha, a = softmax_rows_kernel(e), None
        else:
            q = s_prev @ self.params["att_W_s"].T  # (N, d_s) x (d_s, d_a) -> (N, d_a)
            e, a = additive_from_keys_kernel(q, K, self.params["att_v"])  # e_tj = v^T tanh(q_t + k_j): (N, T)
            alpha = softmax_rows_kernel(e)  # (N, T)
        if scores is not None:
            scores.append(e)
        return alpha, weighted_read(alpha, H), a  # c_t = sum_j alpha_tj h_j: (N, d_h)

    def _initial_state(self, m):
        return np.tanh(m @ self.params["init_W"].T + self.params["init_b"])  # (N, d_h) -> (N, d_s)

    def _check_src(self, src, name: str = "src") -> np.ndarray:
        return check_token_ids(src, name, self.cfg.src_vocab)

    # --- teacher-forced forward and backward --------------------------------------------------------------
    def forward(self, batch: data.Batch):
        """Teacher-forced pass: decoder inputs are the true previous tokens ``y_0 .. y_{U-1}``.

        Returns ``(loss, probs (N, U, V), weights (N, U, T) or None, cache)``; ``loss`` is the mean of
        ``-log p(y_t | y_<t, x)`` over the ``N U`` target tokens.
        """
        check_batch(batch, self.cfg.src_vocab, self.cfg.tgt_vocab)
        p = self.params
        H, enc_cache = encode(p, batch.src)  # (N, T, d_h)
        m = summary(H)  # (N, d_h)
        s = s0 = self._initial_state(m)  # (N, d_s)
        K = self._keys(H)  # (N, T, d_a) or None: once per sentence, not once per step
        d_e = self.cfg.d_emb
        Ye = p["tgt_emb"][batch.tgt_in]  # (N, U, d_e): e_tgt(y_{t-1}), known in advance under teacher forcing
        Xe = Ye @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, U, 3 d_s): the embedding part of every step at once
        W_c = p["dec_W"][:, d_e:]  # (3 d_s, d_h)
        (N, U), T = batch.tgt_in.shape, H.shape[1]
        S_prev = np.empty((N, U, s.shape[1]), dtype=s.dtype)  # s_0 .. s_{U-1}: the state each step scores with
        S = np.empty_like(S_prev)  # s_1 .. s_U
        C = np.empty((N, U, H.shape[2]), dtype=s.dtype)  # c_1 .. c_U
        weights = np.empty((N, U, T), dtype=s.dtype) if K is not None else None  # alpha_t for every step
        additive = K is not None and self.cfg.score == "additive"
        acts = np.empty((N, U, T, K.shape[2]), dtype=s.dtype) if additive else None  # scorer activations
        gcaches = []
        for t in range(U):  # sequential: s_t needs s_{t-1}
            alpha, c, a = self._read(s, H, K, m)  # score with s_{t-1}, then read
            S_prev[:, t] = s
            s, gcache = gru_step(Xe[:, t] + c @ W_c.T, s, p["dec_U"])  # s_t = GRU(s_{t-1}, [e(y_{t-1}); c_t])
            gcaches.append(gcache)
            S[:, t], C[:, t] = s, c
            if K is not None:
                weights[:, t] = alpha
            if additive:
                acts[:, t] = a
        SC = np.concatenate([S, C], axis=2)  # (N, U, d_s + d_h)
        logits = SC @ p["out_W"].T + p["out_b"]  # (N, U, V)
        probs = softmax_rows_kernel(logits)  # (N, U, V)
        p_true = np.take_along_axis(probs, batch.tgt_out[:, :, None], axis=2)[:, :, 0]  # (N, U)
        loss = float(-np.log(np.maximum(p_true, 1e-30)).mean())
        cache = _Cache(batch, H, enc_cache, m, s0, Ye, SC, probs, weights, acts, S_prev, gcaches)
        return loss, probs, weights, cache

    def backward(self, cache: _Cache) -> dict[str, np.ndarray]:
        """Gradients of the mean token loss for every parameter, by name."""
        p, cfg = self.params, self.cfg
        batch, H, enc_cache, m, s0, Ye, SC, probs, weights, acts, S_prev, gcaches = cache
        N, U, V = probs.shape
        d_e, d_s, d_h = cfg.d_emb, cfg.d_dec, H.shape[2]
        d_logits = probs - _onehot(batch.tgt_out, V, probs.dtype)  # (N, U, V): softmax + cross-entropy
        d_logits /= N * U  # the loss is a mean over N U tokens
        g = {"out_W": d_logits.reshape(-1, V).T @ SC.reshape(N * U, -1), "out_b": d_logits.sum(axis=(0, 1))}
        d_SC = d_logits @ p["out_W"]  # (N, U, V) x (V, d_s + d_h) -> (N, U, d_s + d_h)
        W_c = p["dec_W"][:, d_e:]  # (3 d_s, d_h)
        C = SC[:, :, d_s:]  # (N, U, d_h)
        d_Xp = np.empty((N, U, 3 * d_s), dtype=probs.dtype)
        G = np.empty((N, U, d_h), dtype=probs.dtype)  # g_t = dL/dc_t for every step
        g["dec_U"] = np.zeros_like(p["dec_U"])
        attention = weights is not None
        general = attention and cfg.score == "general"
        if attention:
            d_E = np.empty_like(weights)  # (N, U, T): dL/de_tj
        if general:
            K = H @ p["att_W"].T  # (N, T, d_s): the keys s_{t-1} was matched with
            d_K = np.zeros_like(K)  # (N, T, d_s): dL/dk_j
        elif attention:
            v, W_s = p["att_v"], p["att_W_s"]
            d_Q = np.empty((N, U, v.shape[0]), dtype=probs.dtype)  # (N, U, d_a): dL/d(W_s s_{t-1})
            d_K = np.zeros((N, H.shape[1], v.shape[0]), dtype=probs.dtype)  # (N, T, d_a): dL/dk_j
        d_s_next = np.zeros((N, d_s), dtype=probs.dtype)
        for t in reversed(range(U)):  # sequential: dL/ds_{t-1} needs dL/ds_t
            d_Xp[:, t], d_s_prev, dU = gru_step_backward(d_s_next + d_SC[:, t, :d_s], gcaches[t], p["dec_U"])
            g["dec_U"] += dU
            G[:, t] = d_SC[:, t, d_s:] + d_Xp[:, t] @ W_c  # (N, d_h): g_t = dL/dc_t
            if general:
                d_E[:, t], _ = attend_backward_kernel(weights[:, t], H, G[:, t], C[:, t])  # alpha g^T (h_j - c)
                d_s_prev = d_s_prev + (d_E[:, t][:, None, :] @ K)[:, 0, :]  # e = s^T k_j: sum_j (dL/de_j) k_j
                d_K += d_E[:, t][:, :, None] * S_prev[:, t][:, None, :]  # dL/dk_j += (dL/de_tj) s_{t-1}
            elif attention:
                d_E[:, t], _ = attend_backward_kernel(weights[:, t], H, G[:, t], C[:, t])  # alpha g^T (h_j - c)
                dz = additive_from_keys_backward_kernel(d_E[:, t], acts[:, t], v)  # (N, T, d_a)
                d_Q[:, t] = dz.sum(axis=1)  # (N, d_a)
                d_K += dz
                d_s_prev = d_s_prev + d_Q[:, t] @ W_s  # (N, d_a) x (d_a, d_s) -> (N, d_s)
            d_s_next = d_s_prev
        if general:  # K = H W_a^T
            d_H = np.swapaxes(weights, 1, 2) @ G + d_K @ p["att_W"]  # through the read and the keys
            g["att_W"] = d_K.reshape(-1, d_K.shape[2]).T @ H.reshape(-1, d_h)  # (d_s, d_h)
            d_m = np.zeros_like(m)
        elif attention:  # what does not feed the recurrence, summed over all steps at once
            d_H = np.swapaxes(weights, 1, 2) @ G  # (N, T, U) x (N, U, d_h) -> (N, T, d_h): sum_t alpha_tj g_t
            d_H += d_K @ p["att_W_h"]  # (N, T, d_a) x (d_a, d_h) -> (N, T, d_h)
            g["att_v"] = np.einsum("nut,nuta->a", d_E, acts)  # (d_a,)
            g["att_W_s"] = d_Q.reshape(N * U, -1).T @ S_prev.reshape(N * U, -1)  # (d_a, d_s)
            g["att_W_h"] = d_K.reshape(-1, d_K.shape[2]).T @ H.reshape(-1, d_h)  # (d_a, d_h)
            g["att_b"] = d_Q.sum(axis=(0, 1))  # (d_a,)
            d_m = np.zeros_like(m)
        else:
            d_H = np.zeros_like(H)
            d_m = G.sum(axis=1)  # the baseline reads m at every step
        # s_0 = tanh(W_init m + b_init)
        d_pre = d_s_next * (1.0 - s0 * s0)  # (N, d_s)
        g["init_W"], g["init_b"] = d_pre.T @ m, d_pre.sum(axis=0)
        d_m += d_pre @ p["init_W"]
        d_H += _summary_backward(d_m, H.shape[1])
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

    @pinned_blas
    def decoder_reads(self, batch: data.Batch) -> tuple[np.ndarray | None, np.ndarray]:
        """What the decoder reads at every teacher-forced step: ``(weights (N, U, T) or None, contexts (N, U, d_h))``.

        For the attention model ``c_t = sum_j alpha_tj h_j`` changes from step to step; for the baseline every
        ``c_t`` is the fixed summary ``m`` (lesson 02's bottleneck, lesson 07's comparison).
        """
        _, _, weights, cache = self.forward(batch)
        return weights, cache.SC[:, :, self.cfg.d_dec :]

    # --- inference ----------------------------------------------------------------------------------------
    @pinned_blas
    def greedy(self, src: np.ndarray, max_len: int | None = None):
        """Greedy decoding: feed back the most probable token at each step (no target is used).

        ``src`` ``(N, T)``. Returns ``(tokens (N, max_len), weights (N, max_len, T) or None)``; ``max_len``
        defaults to ``T + 1``. Tokens after the first end symbol are meaningless; see :func:`strip_eos`.
        """
        src = self._check_src(src)
        max_len = src.shape[1] + 1 if max_len is None else check_count(max_len, "max_len")
        tokens, alphas, _ = self._greedy(src, max_len)
        return tokens, alphas

    @pinned_blas
    def greedy_trace(self, src: np.ndarray, max_len: int | None = None) -> dict[str, np.ndarray | None]:
        """Greedy decoding of one sentence ``src`` ``(T,)``, keeping every quantity of every step (lesson 07).

        For ``t = 1..U`` (``U = max_len``, default ``T + 1``), in the order of the step: ``y_prev (U,)`` the input
        ``y_{t-1}``; ``s_prev (U, d_s)``; ``scores (U, T)`` ``e_tj``; ``weights (U, T)`` ``alpha_tj``;
        ``context (U, d_h)`` ``c_t``; ``state (U, d_s)`` ``s_t``; ``probs (U, V)``
        ``p(y_t | y_<t, x)``; ``tokens (U,)`` the chosen ``y_t``. Also ``annotations (T, d_h)``. The baseline has
        ``scores`` and ``weights`` None and ``context`` = ``m`` at every step. The same loop as :meth:`greedy`,
        so the tokens and weights are greedy's.
        """
        src = np.asarray(src)
        if src.ndim != 1:
            raise ValueError(f"src must be one sentence of token ids, shape (T,), got shape {src.shape}")
        src = self._check_src(src[None])
        max_len = src.shape[1] + 1 if max_len is None else check_count(max_len, "max_len")
        tokens, alphas, rec = self._greedy(src, max_len, record=True)
        out = {k: np.stack(v, axis=1)[0] if v and v[0] is not None else None for k, v in rec.items() if k != "H"}
        out.update(tokens=tokens[0], weights=None if alphas is None else alphas[0], annotations=rec["H"][0])
        return out

    def _greedy(self, src: np.ndarray, max_len: int, record: bool = False):
        """The greedy loop of :meth:`greedy` and :meth:`greedy_trace` (inputs already checked)."""
        p, d_e = self.params, self.cfg.d_emb
        N, T = src.shape
        H, _ = encode(p, src)  # (N, T, d_h)
        m = summary(H)
        s = self._initial_state(m)
        K = self._keys(H)
        y = np.full(N, data.BOS_ID)
        tokens = np.empty((N, max_len), dtype=np.int64)
        alphas = []
        rec = {k: [] for k in ("y_prev", "s_prev", "scores", "context", "state", "probs")} if record else None
        for t in range(max_len):
            if record:
                rec["y_prev"].append(y.copy())
                rec["s_prev"].append(s)
            alpha, c, _ = self._read(s, H, K, m, rec["scores"] if record and K is not None else None)
            xp = p["tgt_emb"][y] @ p["dec_W"][:, :d_e].T + c @ p["dec_W"][:, d_e:].T + p["dec_b"]  # (N, 3 d_s)
            s, _ = gru_step(xp, s, p["dec_U"])
            logits = np.concatenate([s, c], axis=1) @ p["out_W"].T + p["out_b"]  # (N, V)
            y = tokens[:, t] = logits.argmax(axis=1)
            alphas.append(alpha)
            if record:
                rec["context"].append(c)
                rec["state"].append(s)
                rec["probs"].append(softmax_rows_kernel(logits))
        weights = np.stack(alphas, axis=1) if self.cfg.attention else None
        if record:
            rec["scores"] = rec["scores"] or [None]
            rec["H"] = H
        return tokens, weights, rec


class _Cache(NamedTuple):
    """What :meth:`Seq2Seq.backward` needs from the forward pass."""

    batch: data.Batch
    H: np.ndarray  # (N, T, d_h) annotations
    enc_cache: object
    m: np.ndarray  # (N, d_h) fixed summary
    s0: np.ndarray  # (N, d_s) initial decoder state
    Ye: np.ndarray  # (N, U, d_e) target embeddings of the decoder inputs
    SC: np.ndarray  # (N, U, d_s + d_h) [s_t; c_t] for every step
    probs: np.ndarray  # (N, U, V)
    weights: np.ndarray | None  # (N, U, T) alpha_t
    acts: np.ndarray | None  # (N, U, T, d_a) scorer activations tanh(W_s s_{t-1} + W_h h_j + b)
    S_prev: np.ndarray  # (N, U, d_s) s_{t-1} of every step
    gcaches: list  # per-step GRU caches


def _onehot(ids: np.ndarray, V: int, dtype) -> np.ndarray:
    out = np.zeros(ids.shape + (V,), dtype=dtype)  # (..., V)
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out
