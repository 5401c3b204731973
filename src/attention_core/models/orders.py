r"""The order parts of the decoder: does a step read before or after its state update (lessons 07 and 08)?

One decoder step, from the state ``s_{t-1}`` and the embedding part ``x_t = W_e e_tgt(y_{t-1}) + b`` of the
GRU input, in each order (``read`` is the score part of :mod:`.scorers`; ``W_f`` is the rest of the GRU's
input weights, for what is fed beside the embedding):

    Bahdanau (:class:`BahdanauOrder`): read with s_{t-1}, then update
        alpha_t, c_t = read(s_{t-1})
        s_t   = GRU(s_{t-1}, [e_tgt(y_{t-1}); c_t])             input x_t + W_f c_t
        o_t   = [s_t; c_t]                                       what p(y_t | y_<t, x) = softmax(W_o o_t + b_o) reads

    Luong (:class:`LuongOrder`): update, then read with s_t, then the attentional state
        s_t   = GRU(s_{t-1}, [e_tgt(y_{t-1}); s~_{t-1}])         input feeding, s~_0 = 0
        alpha_t, c_t = read(s_t)
        s~_t  = tanh(W_c [c_t; s_t] + b_c)
        o_t   = s~_t

A part's ``step`` is the one decoder step that teacher forcing and greedy decoding share; its
``step_backward`` sits beside it. What a step passes to the next (the *carry*) is a tuple whose first entry
is always the state ``s``. Shapes: ``N`` batch, ``T`` source positions, ``U`` target steps, ``d_e`` embedding
width, ``d_h`` annotation width, ``d_s`` decoder width.

Each part also carries what the website says of it: ``label``, the key of its name in the website's labels
(``attention_core.explorers.site.LABELS``), and its formulas in TeX: ``query_tex``, the state that reads;
``update_tex`` and ``output_tex``, where ``$c`` stands for what the step read (``c_t``, or ``m`` for the fixed
summary); and ``reads_first``, whether the read comes before the update. The design registry (:mod:`.designs`) puts them
into the laboratory's step panel, in that order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .gru import GRUCache, gru_step, gru_step_backward
from .scorers import Read, ReadGrad


class StepCache(NamedTuple):
    """What one decoder step keeps for its backward pass (either order)."""

    query: np.ndarray  # (N, d_s) the state that read: s_{t-1} (Bahdanau) or s_t (Luong)
    read: Read  # alpha_t, c_t and the score's activations
    feed: np.ndarray  # (N, d_f) what was fed beside e_tgt(y_{t-1}): c_t (Bahdanau) or s~_{t-1} (Luong)
    gru: GRUCache  # the update s_{t-1} -> s_t
    ht: np.ndarray | None  # (N, d_s) the attentional state s~_t (Luong); None (Bahdanau)


class StepGrad(NamedTuple):
    """One step's gradients, for the sums over steps after the backward time loop."""

    d_xp: np.ndarray  # (N, 3 d_s) dL/d(GRU input projection)
    d_U: np.ndarray  # (3 d_s, d_s) this step's part of dL/dU of the decoder's GRU
    g_c: np.ndarray  # (N, d_h) dL/dc_t
    read: ReadGrad | None  # through the score
    d_pre: np.ndarray | None  # (N, d_s) dL/d(W_c [c_t; s_t] + b_c) (Luong); None (Bahdanau)


class BahdanauOrder:
    """Read, then update: ``c_t = read(s_{t-1})``, ``s_t = GRU(s_{t-1}, [e; c_t])``; ``o_t = [s_t; c_t]``.

    No parameters of its own: ``c_t`` reaches the prediction directly, through ``o_t``.
    """

    name = "bahdanau"  # ModelConfig.order
    label = "lab_order_bahdanau"  # its name in the website's labels: "Bahdanau"
    reads_first = True  # read with s_{t-1}, then update
    query_tex = "s_{t-1}"
    update_tex = r"s_t = \mathrm{GRU}(s_{t-1}, [e_{\text{tgt}}(y_{t-1}); $c])"
    output_tex = (r"p(y_t \mid y_{<t}, x) = \operatorname{softmax}(W_o [s_t; $c] + b_o)",)

    def __init__(self, cfg):
        self.d_e, self.d_s, self.d_h = cfg.d_emb, cfg.d_dec, 2 * cfg.d_enc  # cfg: a ModelConfig
        self.feed_width = self.d_h  # c_t joins the embedding in the GRU input
        self.out_width = self.d_s + self.d_h  # o_t = [s_t; c_t]

    def init(self, rng, dt):
        """The order's own parameters, drawn from ``rng`` after the score's."""
        return {}

    def start(self, s0):
        """The carry before the first step, from ``s_0`` ``(N, d_s)``."""
        return (s0,)

    def step(self, p, t, xe, carry, scorer, source):
        """Step ``t`` from ``xe = W_e e_tgt(y_{t-1}) + b`` ``(N, 3 d_s)``: ``(carry, o_t (N, d_o), StepCache)``."""
        (s_prev,) = carry
        read = scorer.read(p, t, s_prev, source)  # alpha_t, c_t with s_{t-1}: before the update
        W_f = p["dec_W"][:, self.d_e :]  # (3 d_s, d_h)
        s, gru = gru_step(xe + read.c @ W_f.T, s_prev, p["dec_U"])  # s_t = GRU(s_{t-1}, [e(y_{t-1}); c_t]): (N, d_s)
        out = np.concatenate([s, read.c], axis=1)  # o_t = [s_t; c_t]: (N, d_s + d_h)
        return (s,), out, StepCache(s_prev, read, read.c, gru, None)

    def step_backward(self, p, d_out, d_carry, scorer, source, d_source, cache: StepCache):
        """One step back from ``dL/do_t`` ``(N, d_o)`` and the next step's ``dL/dcarry``: ``(dL/dcarry, StepGrad)``.

        The score adds its share of ``dL/dk_j`` into ``d_source`` on the way.
        """
        (d_s,) = d_carry  # dL/ds_t from step t + 1
        d_s = d_s + d_out[:, : self.d_s]  # and from the output layer
        d_xp, d_s_prev, d_U = gru_step_backward(d_s, cache.gru, p["dec_U"])  # (N, 3 d_s), (N, d_s), (3 d_s, d_s)
        g_c = d_out[:, self.d_s :] + d_xp @ p["dec_W"][:, self.d_e :]  # dL/dc_t: output and update, (N, d_h)
        d_q, read = scorer.read_backward(p, g_c, cache.query, source, d_source, cache.read)  # read with s_{t-1}
        return (d_s_prev + d_q,), StepGrad(d_xp, d_U, g_c, read, None)

    def backward(self, p, caches, d_pres):
        """The gradients of the order's own parameters, summed over all steps after the time loop."""
        return {}


class LuongOrder:
    """Update, then read with ``s_t``: ``s_t = GRU(s_{t-1}, [e; s~_{t-1}])``, ``c_t = read(s_t)``; ``o_t = s~_t``.

    Its parameters combine the read with the new state: ``s~_t = tanh(W_c [c_t; s_t] + b_c)``, ``W_c`` ``(d_s,
    d_h + d_s)``, fed to the next step (input feeding, Luong et al. 2015).
    """

    name = "luong"
    label = "lab_order_luong"
    reads_first = False  # update, then read with s_t
    query_tex = "s_t"
    update_tex = r"s_t = \mathrm{GRU}(s_{t-1}, [e_{\text{tgt}}(y_{t-1}); \tilde{s}_{t-1}])"
    output_tex = (
        r"\tilde{s}_t = \tanh(W_c [$c; s_t] + b_c)",
        r"p(y_t \mid y_{<t}, x) = \operatorname{softmax}(W_o \tilde{s}_t + b_o)",
    )

    def __init__(self, cfg):
        self.d_e, self.d_s, self.d_h = cfg.d_emb, cfg.d_dec, 2 * cfg.d_enc
        self.feed_width = self.d_s  # s~_{t-1} joins the embedding in the GRU input (input feeding)
        self.out_width = self.d_s  # o_t = s~_t

    def init(self, rng, dt):
        d_s, d_h = self.d_s, self.d_h
        return {
            "att_W_c": (rng.standard_normal((d_s, d_h + d_s)) / np.sqrt(d_h + d_s)).astype(dt),
            "att_b_c": np.zeros(d_s, dtype=dt),
        }

    def start(self, s0):
        return (s0, np.zeros_like(s0))  # s_0 and s~_0 = 0

    def step(self, p, t, xe, carry, scorer, source):
        s_prev, ht_prev = carry
        W_f = p["dec_W"][:, self.d_e :]  # (3 d_s, d_s)
        s, gru = gru_step(xe + ht_prev @ W_f.T, s_prev, p["dec_U"])  # s_t = GRU(s_{t-1}, [e(y_{t-1}); s~_{t-1}])
        read = scorer.read(p, t, s, source)  # alpha_t, c_t with s_t: after the update
        cs = np.concatenate([read.c, s], axis=1)  # [c_t; s_t]: (N, d_h + d_s)
        ht = np.tanh(cs @ p["att_W_c"].T + p["att_b_c"])  # s~_t = tanh(W_c [c_t; s_t] + b_c): (N, d_s)
        return (s, ht), ht, StepCache(s, read, ht_prev, gru, ht)

    def step_backward(self, p, d_out, d_carry, scorer, source, d_source, cache: StepCache):
        d_s, d_ht = d_carry  # dL/ds_t and dL/ds~_t from step t + 1 (its update and its input feeding)
        ht = cache.ht
        d_pre = (d_out + d_ht) * (1.0 - ht * ht)  # through the tanh of s~_t: (N, d_s)
        d_cs = d_pre @ p["att_W_c"]  # (N, d_s) x (d_s, d_h + d_s) -> (N, d_h + d_s)
        g_c = d_cs[:, : self.d_h]  # dL/dc_t: (N, d_h)
        d_q, read = scorer.read_backward(p, g_c, cache.query, source, d_source, cache.read)  # read with s_t
        d_s = d_cs[:, self.d_h :] + d_s + d_q  # dL/ds_t: (N, d_s)
        d_xp, d_s_prev, d_U = gru_step_backward(d_s, cache.gru, p["dec_U"])
        d_ht_prev = d_xp @ p["dec_W"][:, self.d_e :]  # to s~_{t-1}: (N, 3 d_s) x (3 d_s, d_s) -> (N, d_s)
        return (d_s_prev, d_ht_prev), StepGrad(d_xp, d_U, g_c, read, d_pre)

    def backward(self, p, caches, d_pres):
        D_pre = np.stack(d_pres, axis=1)  # (N, U, d_s)
        CS = np.stack([np.concatenate([c.read.c, c.query], axis=1) for c in caches], axis=1)  # (N, U, d_h + d_s)
        N, U, _ = D_pre.shape
        W_c = D_pre.reshape(N * U, -1).T @ CS.reshape(N * U, -1)  # (d_s, N U) x (N U, d_h + d_s)
        return {"att_W_c": W_c, "att_b_c": D_pre.sum(axis=(0, 1))}  # (d_s, d_h + d_s), (d_s,)


ORDERS = {cls.name: cls for cls in (BahdanauOrder, LuongOrder)}  # ModelConfig.order -> part
