r"""The encoder–decoder translation model: one decoder, built from an order and a score (lessons 07 and 08).

Encoder (``ModelConfig.encoder``): lesson 07's bidirectional GRU (:mod:`.encoder`: annotations
``h_j = [->h_j; <-h_j]`` and the summary ``m = [->h_T; <-h_1]``) or lesson 09's self-attention layers
(:mod:`.attention_encoder`: ``m`` the mean of the ``h_j``); then the initial state ``s_0 = tanh(W_init m + b_init)``.
Decoder, for ``t = 1..U`` with ``y_0`` the start symbol:

    carry, o_t = step(carry, W_e e_tgt(y_{t-1}) + b)            the order's step (:mod:`.orders`), which
                                                                 reads the annotations with the score
                                                                 (:mod:`.scorers`)
    p(y_t | y_<t, x) = softmax(W_o o_t + b_o)                    over the target vocabulary

The parts (``ModelConfig.order``, ``.score``, ``.attention``):

    order  "bahdanau"  read with s_{t-1}, then s_t = GRU(s_{t-1}, [e_tgt(y_{t-1}); c_t]);  o_t = [s_t; c_t]
           "luong"     s_t = GRU(s_{t-1}, [e_tgt(y_{t-1}); s~_{t-1}]), then read with s_t;
                       o_t = s~_t = tanh(W_c [c_t; s_t] + b_c)
    score  "additive"  e_tj = v^T tanh(W_s s + W_h h_j + b)     Bahdanau's
           "general"   e_tj = s^T W_a h_j                       Luong's
           attention=False: no score; every step reads c_t = m   the fixed-summary baseline

Lesson 07's model is Bahdanau's order with the additive score; lesson 08 swaps the score, then the order.
Loss: the article's ``L = -sum_t log p(y_t | y_<t, x)``, averaged over the tokens of a batch (the same
gradient direction, scaled). Teacher forcing and greedy decoding call the same step (:meth:`Seq2Seq._step`).
The backward pass runs the parts' per-step backwards in reverse time, then forms the sums over steps that do
not feed the recurrence (``dL/dW_o``, the GRU's input weights, the score's parameters, ``dL/dH``) once,
after the loop. Shapes: ``N`` batch, ``T`` source positions, ``U = T + 1`` target steps, ``d_h = 2 d_enc``,
``d_s`` decoder width, ``d_a`` scorer width, ``d_o`` width of ``o_t``, ``V`` target vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import integer, model_params, one_of, token_batch, token_ids
from ..reading import softmax_rows_kernel
from . import data
from ._blas import pinned_blas
from .attention_encoder import AttentionEncoderCache, SelfAttentionEncoder
from .encoder import EncoderCache, RecurrentEncoder, embedding_backward
from .gru import init_gru
from .orders import ORDERS, StepCache
from .positions import POSITIONS
from .scorers import SCORES, FixedSummary, Source

SCORER = ("att_W_s", "att_W_h", "att_v", "att_b")  # the additive scorer's parameters phi (scorers.AdditiveScore)


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and parts of the translation model."""

    attention: bool = True  # True: read with the score `score`; False: the fixed-summary baseline
    order: str = "bahdanau"  # "bahdanau": read with s_{t-1}, then update; "luong": update, then read with s_t
    score: str = "additive"  # "additive": v^T tanh(W_s s + W_h h_j + b); "general": s^T W_a h_j (Luong's)
    d_emb: int = 32  # width of the source and target embeddings e_src, e_tgt
    d_enc: int = 32  # encoder state width per direction; annotations h_j have 2 * d_enc
    d_dec: int = 64  # decoder state width d_s
    d_att: int = 64  # scorer width d_a (used by the additive score only)
    src_vocab: int = len(data.SRC_WORDS)  # source vocabulary size
    tgt_vocab: int = len(data.TGT_WORDS)  # target vocabulary size, including start and end symbols
    dtype: str = "float32"  # float32 to train fast; float64 for gradient checks
    # lesson 09: the encoder, and the sizes and switches of the self-attention one (unused by the recurrent one)
    encoder: str = "recurrent"  # "recurrent": the bidirectional GRU; "self_attention": no recurrence
    positions: str = "sinusoidal"  # what tells the self-attention encoder the order: "sinusoidal", "learned", "none"
    tied: bool = False  # the self-attention layers read back their keys (v_j = k_j) instead of separate values
    layers: int = 2  # self-attention layers
    d_ff: int = 128  # width inside each layer's position-wise part

    def __post_init__(self):
        if not isinstance(self.attention, bool):
            raise TypeError(f"attention must be True or False, got {self.attention!r}")
        for name in ("d_emb", "d_enc", "d_dec", "d_att", "src_vocab"):
            integer(getattr(self, name), name)
        integer(self.tgt_vocab, "tgt_vocab", minimum=3)  # start and end symbols and one word at least
        one_of(self.order, "order", sorted(ORDERS))
        one_of(self.score, "score", sorted(SCORES))
        one_of(self.dtype, "dtype", ("float32", "float64"))
        one_of(self.encoder, "encoder", list(ENCODERS))
        one_of(self.positions, "positions", sorted(POSITIONS))
        if not isinstance(self.tied, bool):
            raise TypeError(f"tied must be True or False, got {self.tied!r}")
        for name in ("layers", "d_ff"):
            integer(getattr(self, name), name)

    @property
    def aligns(self) -> bool:
        """Whether the arg-max of the decoder's weights names one source position: the model reads with attention,
        and its encoder can tell two copies of a word apart (the recurrent one, or self-attention told the
        positions). Without positions, every copy of a word gets the same annotation and the same weight (lesson
        09), so which copy is "most weighted" is a tie; alignment is then not counted."""
        return self.attention and (self.encoder == "recurrent" or self.positions != "none")


ENCODERS = {"recurrent": RecurrentEncoder, "self_attention": SelfAttentionEncoder}  # ModelConfig.encoder -> part
summary = RecurrentEncoder.summary  # the fixed summary m = [->h_T; <-h_1] lesson 02 shows (its decoder reads only m)


def encoder_part(cfg: ModelConfig):
    """The encoder ``cfg`` names; both give annotations of width ``d_h = 2 d_enc``, so the decoder is the same."""
    if cfg.encoder == "recurrent":
        return RecurrentEncoder(cfg.d_emb, cfg.d_enc)
    return SelfAttentionEncoder(cfg.d_emb, 2 * cfg.d_enc, cfg.layers, cfg.d_ff, cfg.positions, cfg.tied)


def decoder_parts(cfg: ModelConfig):
    """The order part and the score part ``cfg`` names (the score is :class:`FixedSummary` without attention)."""
    scorer = SCORES[cfg.score](cfg) if cfg.attention else FixedSummary(cfg)
    return ORDERS[cfg.order](cfg), scorer


def init_params(cfg: ModelConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """All trainable parameters theta, by name, drawn with ``np.random.default_rng(seed)``."""
    integer(seed, "seed", minimum=0)
    order, scorer = decoder_parts(cfg)
    rng = np.random.default_rng(seed)
    dt = np.dtype(cfg.dtype)
    d_h, d_s = 2 * cfg.d_enc, cfg.d_dec
    p = encoder_part(cfg).init(rng, cfg.src_vocab, dt)
    p["init_W"] = (rng.standard_normal((d_s, d_h)) / np.sqrt(d_h)).astype(dt)
    p["init_b"] = np.zeros(d_s, dtype=dt)
    p["tgt_emb"] = (rng.standard_normal((cfg.tgt_vocab, cfg.d_emb)) * 0.5).astype(dt)
    for name, value in init_gru(rng, cfg.d_emb + order.feed_width, d_s, dt).items():  # input [e_tgt; feed]
        p[f"dec_{name}"] = value
    p.update(scorer.init(rng, dt))
    p.update(order.init(rng, dt))
    d_o = order.out_width
    p["out_W"] = (rng.standard_normal((cfg.tgt_vocab, d_o)) / np.sqrt(d_o)).astype(dt)  # W_o: (V, d_o)
    p["out_b"] = np.zeros(cfg.tgt_vocab, dtype=dt)
    return p


def build_model(cfg: ModelConfig = ModelConfig(), seed: int = 0) -> Seq2Seq:
    """The model ``cfg`` describes, with parameters drawn from ``seed``."""
    return Seq2Seq(cfg, seed)


@dataclass
class ForwardCache:
    """What :meth:`Seq2Seq.backward` needs from the teacher-forced forward pass."""

    batch: data.Batch
    enc: EncoderCache | AttentionEncoderCache  # the encoder's own cache
    source: Source  # annotations H (N, T, d_h), keys, summary m (N, d_h)
    s0: np.ndarray  # (N, d_s) initial decoder state
    Ye: np.ndarray  # (N, U, d_e) target embeddings of the decoder inputs e_tgt(y_{t-1})
    steps: list[StepCache]  # one per target step
    weights: np.ndarray | None  # (N, U, T) alpha_t of every step; None for the baseline
    contexts: np.ndarray  # (N, U, d_h) c_t of every step
    O: np.ndarray  # (N, U, d_o) o_t of every step, what the output layer read
    probs: np.ndarray  # (N, U, V)


class Seq2Seq:
    """A translation model: parameters plus forward, backward, greedy decoding and attention read-out.

    ``self.encoder`` is the encoder part (:func:`encoder_part`), ``self.order`` and ``self.scorer`` the decoder's
    (:mod:`.orders`, :mod:`.scorers`), chosen by ``cfg``; they hold sizes, never parameters, which live in
    ``self.params`` by name. Inputs are validated here, once per batch; the time loops call the core's kernels.
    """

    def __init__(self, cfg: ModelConfig = ModelConfig(), seed: int = 0):
        self.cfg = cfg
        self.encoder = encoder_part(cfg)
        self.order, self.scorer = decoder_parts(cfg)
        self.params = init_params(cfg, seed)

    @property
    def params(self) -> dict[str, np.ndarray]:
        """The trainable parameters by name. Assigning another dict checks it against the model's own (made by
        ``__init__`` from the config): the same names, shapes and dtype, and finite values, so that the
        parameters of another configuration are refused, naming the parameter, instead of failing in a matmul."""
        return self._params

    @params.setter
    def params(self, value: dict[str, np.ndarray]) -> None:
        own = getattr(self, "_params", None)  # None only in __init__, which assigns the config's own init
        self._params = value if own is None else model_params(value, own, self.cfg)

    # --- the pieces shared by teacher forcing and greedy decoding -----------------------------------------
    def _start(self, H: np.ndarray, steps: int | None = None):
        """From annotations ``H`` ``(N, T, d_h)``: ``(Source every step reads, s_0 (N, d_s), first carry)``.

        With ``steps``, the source has room for what the score keeps of each step for a backward pass.
        """
        p = self.params
        m = self.encoder.summary(H)  # (N, d_h)
        s0 = np.tanh(m @ p["init_W"].T + p["init_b"])  # s_0 = tanh(W_init m + b_init): (N, d_s)
        tape = None if steps is None else self.scorer.tape(H, steps)
        source = Source(H, self.scorer.keys(p, H), m, tape)  # keys once per sentence, not once per step
        return source, s0, self.order.start(s0)

    def _step(self, t: int, xe: np.ndarray, carry: tuple, source: Source):
        """Decoder step ``t`` from ``xe = W_e e_tgt(y_{t-1}) + b`` ``(N, 3 d_s)``: ``(carry, o_t (N, d_o), StepCache)``.

        Teacher forcing and greedy decoding both call it; the order part does the work, reading with the score.
        """
        return self.order.step(self.params, t, xe, carry, self.scorer, source)

    # --- teacher-forced forward and backward --------------------------------------------------------------
    def forward(self, batch: data.Batch):
        """Teacher-forced pass: decoder inputs are the true previous tokens ``y_0 .. y_{U-1}``.

        Returns ``(loss, probs (N, U, V), weights (N, U, T) or None, cache)``; ``loss`` is the mean of
        ``-log p(y_t | y_<t, x)`` over the ``N U`` target tokens.
        """
        token_batch(batch, self.cfg.src_vocab, self.cfg.tgt_vocab)
        p, d_e = self.params, self.cfg.d_emb
        H, enc = self.encoder.encode(p, batch.src)  # (N, T, d_h)
        N, U = batch.tgt_in.shape
        source, s0, carry = self._start(H, steps=U)
        Ye = p["tgt_emb"][batch.tgt_in]  # (N, U, d_e): e_tgt(y_{t-1}), known in advance under teacher forcing
        Xe = Ye @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, U, 3 d_s): the embedding part of every step at once
        steps = []
        O = np.empty((N, U, self.order.out_width), dtype=H.dtype)  # (N, U, d_o): o_t of every step
        for t in range(U):  # sequential: step t needs the carry of step t - 1
            carry, O[:, t], step = self._step(t, Xe[:, t], carry, source)
            steps.append(step)
        logits = O @ p["out_W"].T + p["out_b"]  # (N, U, d_o) x (d_o, V) -> (N, U, V)
        probs = softmax_rows_kernel(logits)  # (N, U, V)
        p_true = np.take_along_axis(probs, batch.tgt_out[:, :, None], axis=2)[:, :, 0]  # (N, U)
        loss = float(-np.log(np.maximum(p_true, 1e-30)).mean())
        weights = _stack_weights([step.read.alpha for step in steps])
        contexts = np.stack([step.read.c for step in steps], axis=1)  # (N, U, d_h)
        cache = ForwardCache(batch, enc, source, s0, Ye, steps, weights, contexts, O, probs)
        return loss, probs, weights, cache

    def backward(self, cache: ForwardCache) -> dict[str, np.ndarray]:
        """Gradients of the mean token loss for every parameter, by name (in the order of ``self.params``)."""
        p, d_e = self.params, self.cfg.d_emb
        batch, source, steps = cache.batch, cache.source, cache.steps
        N, U, V = cache.probs.shape
        d_logits = cache.probs - _onehot(batch.tgt_out, V, cache.probs.dtype)  # (N, U, V): softmax + cross-entropy
        d_logits /= N * U  # the loss is a mean over N U tokens
        g = {"out_W": d_logits.reshape(-1, V).T @ cache.O.reshape(N * U, -1), "out_b": d_logits.sum(axis=(0, 1))}
        d_O = d_logits @ p["out_W"]  # (N, U, V) x (V, d_o) -> (N, U, d_o)
        d_carry = tuple(np.zeros_like(x) for x in self.order.start(cache.s0))
        d_source = source.zeros()  # dL/dH, dL/dK, dL/dm: the parts add into it
        g["dec_U"] = np.zeros_like(p["dec_U"])
        D_xp = np.empty((N, U, 3 * self.cfg.d_dec), dtype=d_O.dtype)  # dL/d(GRU input projection) of every step
        G = np.empty_like(cache.contexts)  # (N, U, d_h): dL/dc_t
        read_grads, pre_grads = [None] * U, [None] * U  # what the parts' sums over steps need
        for t in reversed(range(U)):  # sequential: step t's gradient needs step t + 1's
            d_carry, grad = self.order.step_backward(p, d_O[:, t], d_carry, self.scorer, source, d_source, steps[t])
            g["dec_U"] += grad.d_U  # (3 d_s, d_s)
            D_xp[:, t], G[:, t], read_grads[t], pre_grads[t] = grad.d_xp, grad.g_c, grad.read, grad.d_pre
        # what does not feed the recurrence, summed over all steps at once
        S = np.stack([step.query for step in steps], axis=1)  # (N, U, d_s): the states that read
        g.update(self.scorer.backward(p, source, d_source, S, cache.weights, G, read_grads))
        g.update(self.order.backward(p, steps, pre_grads))
        d_pre = d_carry[0] * (1.0 - cache.s0 * cache.s0)  # s_0 = tanh(W_init m + b_init): (N, d_s)
        g["init_W"], g["init_b"] = d_pre.T @ source.m, d_pre.sum(axis=0)
        d_source.m += d_pre @ p["init_W"]  # (N, d_h)
        d_source.H += self.encoder.summary_backward(d_source.m, source.H.shape[1])  # (N, T, d_h)
        D_xp = D_xp.reshape(N * U, -1)  # (N U, 3 d_s)
        feeds = np.stack([step.feed for step in steps], axis=1).reshape(N * U, -1)  # (N U, d_f)
        g["dec_W"] = np.concatenate([D_xp.T @ cache.Ye.reshape(N * U, -1), D_xp.T @ feeds], axis=1)  # [W_e, W_f]
        g["dec_b"] = D_xp.sum(axis=0)
        g["tgt_emb"] = embedding_backward(batch.tgt_in, D_xp @ p["dec_W"][:, :d_e], self.cfg.tgt_vocab)
        g.update(self.encoder.backward(p, d_source.H, cache.enc))
        return {name: g[name] for name in p}

    def loss_and_grads(self, batch: data.Batch) -> tuple[float, dict[str, np.ndarray]]:
        """Teacher-forced loss and its gradient for every parameter."""
        loss, _, _, cache = self.forward(batch)
        return loss, self.backward(cache)

    @pinned_blas
    def decoder_reads(self, batch: data.Batch) -> tuple[np.ndarray | None, np.ndarray]:
        """What the decoder reads at every teacher-forced step: ``(weights (N, U, T) or None, contexts (N, U, d_h))``.

        For the attention model ``c_t = sum_j alpha_tj h_j`` changes from step to step; for the baseline every
        ``c_t`` is the fixed summary ``m`` (lesson 02's bottleneck, lesson 07's comparison). Which state reads
        is the order's: ``s_{t-1}`` in Bahdanau's, ``s_t`` in Luong's (lesson 08).
        """
        _, _, weights, cache = self.forward(batch)
        return weights, cache.contexts

    @pinned_blas
    def encoder_reads(self, src: np.ndarray) -> list[np.ndarray]:
        """What each self-attention layer of the encoder reads (lesson 09): one ``(N, T, T)`` array of weights
        ``alpha_ij`` per layer, row ``i`` the position that reads. The recurrent encoder reads nothing: ``[]``."""
        src = token_ids(src, "src", self.cfg.src_vocab)
        _, cache = self.encoder.encode(self.params, src)
        return list(getattr(cache, "weights", []))

    # --- inference ----------------------------------------------------------------------------------------
    @pinned_blas
    def greedy(self, src: np.ndarray, max_len: int | None = None):
        """Greedy decoding: feed back the most probable token at each step (no target is used).

        ``src`` ``(N, T)``. Returns ``(tokens (N, max_len), weights (N, max_len, T) or None)``; ``max_len``
        defaults to ``T + 1``. Tokens after the first end symbol are meaningless; see :func:`strip_eos`.
        """
        src = token_ids(src, "src", self.cfg.src_vocab)
        max_len = src.shape[1] + 1 if max_len is None else integer(max_len, "max_len")
        tokens, alphas, _ = self._greedy(src, max_len)
        return tokens, _stack_weights(alphas)

    @pinned_blas
    def greedy_trace(self, src: np.ndarray, max_len: int | None = None) -> dict[str, np.ndarray | None]:
        """Greedy decoding of one sentence ``src`` ``(T,)``, keeping every quantity of every step (lesson 07).

        For ``t = 1..U`` (``U = max_len``, default ``T + 1``), in the order of the step: ``y_prev (U,)`` the input
        ``y_{t-1}``; ``s_prev (U, d_s)`` the state before the step; ``scores (U, T)`` ``e_tj``; ``weights (U, T)``
        ``alpha_tj``; ``context (U, d_h)`` ``c_t``; ``state (U, d_s)`` ``s_t``; ``probs (U, V)``
        ``p(y_t | y_<t, x)``; ``tokens (U,)`` the chosen ``y_t``. Also ``annotations (T, d_h)``. The baseline has
        ``scores`` and ``weights`` None and ``context`` = ``m`` at every step. The same loop as :meth:`greedy`,
        so the tokens and weights are greedy's.
        """
        src = np.asarray(src)
        if src.ndim != 1:
            raise ValueError(f"src must be one sentence of token ids, shape (T,), got shape {src.shape}")
        src = token_ids(src[None], "src", self.cfg.src_vocab)
        max_len = src.shape[1] + 1 if max_len is None else integer(max_len, "max_len")
        tokens, alphas, rec = self._greedy(src, max_len, record=True)
        out = {k: None if v[0] is None else np.stack(v, axis=1)[0] for k, v in rec.items() if k != "H"}
        weights = _stack_weights(alphas)
        out.update(tokens=tokens[0], weights=None if weights is None else weights[0], annotations=rec["H"][0])
        return out

    def _greedy(self, src: np.ndarray, max_len: int, record: bool = False):
        """The loop of :meth:`greedy` and :meth:`greedy_trace` (inputs checked): ``(tokens, alphas, record)``.

        With ``record``, every step's input, states, scores, context and next-word distribution are kept.
        """
        p, d_e = self.params, self.cfg.d_emb
        N, T = src.shape
        H, _ = self.encoder.encode(p, src)  # (N, T, d_h)
        source, _, carry = self._start(H)
        y = np.full(N, data.BOS_ID)
        tokens = np.empty((N, max_len), dtype=np.int64)
        alphas = []
        rec = {k: [] for k in ("y_prev", "s_prev", "scores", "context", "state", "probs")} if record else None
        for t in range(max_len):
            y_prev, s_prev = y, carry[0]
            xe = p["tgt_emb"][y] @ p["dec_W"][:, :d_e].T + p["dec_b"]  # (N, 3 d_s): the embedding part, e(y_{t-1})
            carry, out, step = self._step(t, xe, carry, source)
            logits = out @ p["out_W"].T + p["out_b"]  # (N, d_o) x (d_o, V) -> (N, V)
            y = tokens[:, t] = logits.argmax(axis=1)  # (N,)
            alphas.append(step.read.alpha)
            if record:  # the scores are recomputed from the state that read: the same inputs give the same e_t
                scores = None if step.read.alpha is None else self.scorer.scores(p, step.query, source.K)[0]
                values = (y_prev, s_prev, scores, step.read.c, carry[0], softmax_rows_kernel(logits))  # probs: (N, V)
                for key, value in zip(rec, values, strict=True):
                    rec[key].append(value)
        if record:
            rec["H"] = H
        return tokens, alphas, rec


def _stack_weights(alphas: list) -> np.ndarray | None:
    """The weights ``alpha_t`` ``(N, T)`` of every step as ``(N, U, T)``; None for the fixed-summary baseline."""
    return None if alphas[0] is None else np.stack(alphas, axis=1)


def _onehot(ids: np.ndarray, V: int, dtype) -> np.ndarray:
    out = np.zeros(ids.shape + (V,), dtype=dtype)  # (..., V)
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out
