r"""The score parts of the decoder: how a decoder state ``s`` reads the annotations (lessons 05, 07 and 08).

An attention score compares ``s`` with every annotation ``h_j``; the read that follows is the same for all:

    e_tj  = score(s, h_j)                                       one subclass of :class:`AttentionScore` each
    alpha_t, c_t = softmax_j(e_tj), sum_j alpha_tj h_j          core :func:`attend` (kernels)

    additive  e_tj = v^T tanh(W_s s + W_h h_j + b)              :class:`AdditiveScore` (Bahdanau's)
    general   e_tj = s^T W_a h_j                                :class:`GeneralScore` (Luong's)

and the baseline, :class:`FixedSummary`, has no score: every step reads ``c_t = m = [->h_T; <-h_1]``. Which
state ``s`` reads (``s_{t-1}`` or ``s_t``) is the decoder order's business (:mod:`.orders`), not the score's.

Each part has its forward and backward side by side. A score splits as its formula does: the state-free part
(the keys ``k_j``) is computed once per sentence; each step adds only what depends on ``s``. Its backward has
a per-step half (``dL/ds``, which feeds the recurrence, and ``dL/dk_j``, added up as the steps go back) and a
half that sums over all steps at once after the time loop (the parameters and ``dL/dH``). A new score that
trains is one subclass of :class:`AttentionScore` added to :data:`SCORES`; the whole-model gradient check of
``tests/models/test_seq2seq.py`` then covers it, in either order. Each part also carries what the website says of
it: ``label``, the key of its name in the website's labels (``attention_core.explorers.site.LABELS``), and ``tex``,
its formula in TeX, which the design registry (:mod:`.designs`) puts into the laboratory's step panel.

Shapes: ``N`` batch, ``T`` source positions, ``U`` target steps, ``d_h`` annotation width, ``d_s`` decoder
width, ``d_a`` scorer width. Parameters are passed in as the model's dict ``p``, never held by a part.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template
from typing import NamedTuple

import numpy as np

from ..gradients import score_gradient_kernel
from ..reading import softmax_rows_kernel, weighted_read
from ..scores import (
    additive_from_keys_backward_kernel,
    additive_from_keys_kernel,
    additive_keys_kernel,
    dot_scores_kernel,
)


@dataclass
class Source:
    """The encoded source sentence, as every decoder step may read it.

    Under teacher forcing a backward pass follows, and ``tape`` has room for what the score keeps of every step
    (the additive score's activations), filled as the steps go. The backward pass keeps the gradient
    ``dL/dSource`` in another one (:meth:`zeros`), which the parts add into.
    """

    H: np.ndarray  # (N, T, d_h) annotations h_j
    K: np.ndarray | None  # keys k_j, the state-free part of the score, once per sentence; None without a score
    m: np.ndarray  # (N, d_h) fixed summary [->h_T; <-h_1]
    tape: np.ndarray | None = None  # (N, U, ...) kept of every step (additive: (N, U, T, d_a)); or None

    def zeros(self) -> Source:
        """A zero ``dL/dSource``, with the shapes of this one, to accumulate into."""
        return Source(np.zeros_like(self.H), None if self.K is None else np.zeros_like(self.K), np.zeros_like(self.m))


class Read(NamedTuple):
    """One step's read, kept for its backward pass."""

    alpha: np.ndarray | None  # (N, T) weights alpha_t; None for the fixed summary
    c: np.ndarray  # (N, d_h) context c_t
    act: np.ndarray | None  # the score's activations, if it has any (additive: (N, T, d_a))


class ReadGrad(NamedTuple):
    """One step's gradients through the read, kept for the sums over steps."""

    d_e: np.ndarray  # (N, T) dL/de_tj
    d_q: np.ndarray | None  # dL/dq_t of a score with a query projection (additive: (N, d_a)); else None


class AttentionScore:
    """A score ``e_tj = score(s, h_j)`` and the soft read it drives; subclasses give the score's formula.

    A subclass sets ``name``, ``label`` and ``tex`` and defines :meth:`init`, :meth:`keys`, :meth:`scores`,
    :meth:`scores_backward` and :meth:`sums_backward`; the read and its backward are here, the same for every score.
    """

    name = ""  # ModelConfig.score
    label = ""  # the key of the score's name in the website's labels (explorers/site.LABELS), e.g. "additive score"
    tex = ""  # its formula e_tj in TeX; $s stands for the state that reads (the order's s_{t-1} or s_t)
    context_tex = "c_t"  # what a step reads, in TeX (the orders' formulas name it)

    @classmethod
    def read_tex(cls, s: str) -> tuple[tuple[str, str], ...]:
        """The read's formulas in TeX, by what each computes, for the state ``s`` that reads (TeX, e.g.
        ``"s_{t-1}"``): the scores, the weights, the context."""
        return (
            ("scores", Template(cls.tex).substitute(s=s)),
            ("weights", r"\alpha_{tj} = \operatorname{softmax}_j(e_{tj})"),
            ("context", r"c_t = \sum_j \alpha_{tj} h_j"),
        )

    def __init__(self, cfg):
        self.d_s, self.d_h, self.d_a = cfg.d_dec, 2 * cfg.d_enc, cfg.d_att  # cfg: a ModelConfig

    # --- the read, shared by every score --------------------------------------------------------------------
    def read(self, p: dict, t: int, s: np.ndarray, source: Source) -> Read:
        """Step ``t``'s ``alpha_t = softmax_j(e_tj)``, ``c_t = sum_j alpha_tj h_j`` for the state ``s`` ``(N, d_s)``."""
        e, act = self.scores(p, s, source.K)  # (N, T)
        if source.tape is not None:  # kept for the backward pass, in one array for all steps
            source.tape[:, t] = act
            act = source.tape[:, t]
        alpha = softmax_rows_kernel(e)  # (N, T)
        return Read(alpha, weighted_read(alpha, source.H), act)  # c_t: (N, T) x (N, T, d_h) -> (N, d_h)

    def read_backward(self, p: dict, g_c: np.ndarray, s: np.ndarray, source: Source, d_source: Source, read: Read):
        """One step back from ``g_c = dL/dc_t`` ``(N, d_h)``: returns ``(dL/ds (N, d_s), ReadGrad)``.

        ``dL/de_tj = alpha_tj g_c^T (h_j - c_t)`` (lesson 07), then through the score, which adds this step's
        share of ``dL/dk_j`` into ``d_source.K``.
        """
        d_e = score_gradient_kernel(read.alpha, source.H, g_c, read.c)  # (N, T)
        d_s, d_q = self.scores_backward(p, d_e, s, source.K, read.act, d_source.K)
        return d_s, ReadGrad(d_e, d_q)

    def backward(self, p: dict, source: Source, d_source: Source, S: np.ndarray, weights, G, grads) -> dict:
        """After the time loop: the parameters' gradients; adds ``dL/dH`` into ``d_source.H``, all steps at once.

        ``S`` ``(N, U, d_s)`` the states that read, ``weights`` ``(N, U, T)``, ``G`` ``(N, U, d_h)`` the
        ``dL/dc_t``; ``grads`` the :class:`ReadGrad` of each step.
        """
        g = self.sums_backward(p, source, d_source, S, grads)
        d_source.H += np.swapaxes(weights, 1, 2) @ G  # c_t = sum_j alpha_tj h_j: (N, T, U) x (N, U, d_h)
        return g

    # --- what a score defines -------------------------------------------------------------------------------
    def init(self, rng: np.random.Generator, dt: np.dtype) -> dict[str, np.ndarray]:
        """The score's parameters (named ``att_*``), drawn from ``rng``."""
        raise NotImplementedError

    def keys(self, p: dict, H: np.ndarray):
        """The state-free part of the score, from ``H`` ``(N, T, d_h)``, once per sentence."""
        raise NotImplementedError

    def tape(self, H: np.ndarray, steps: int) -> np.ndarray | None:
        """Room for what :meth:`scores` returns beside ``e`` at each of ``steps`` steps; None if nothing."""
        return None

    def scores(self, p: dict, s: np.ndarray, K) -> tuple[np.ndarray, np.ndarray | None]:
        """``(e (N, T), activations or None)`` for the states ``s`` ``(N, d_s)``."""
        raise NotImplementedError

    def scores_backward(self, p: dict, d_e: np.ndarray, s: np.ndarray, K, act, d_K) -> tuple:
        """From ``dL/de`` ``(N, T)``: ``(dL/ds (N, d_s), dL/dq or None)``; adds this step's ``dL/dK`` into ``d_K``."""
        raise NotImplementedError

    def sums_backward(self, p: dict, source: Source, d_source: Source, S: np.ndarray, grads) -> dict:
        """The parameters' gradients, summed over all steps; adds ``dL/dH`` through the keys into ``d_source.H``."""
        raise NotImplementedError


class AdditiveScore(AttentionScore):
    r"""Bahdanau's additive score ``e_tj = v^T tanh(W_s s + W_h h_j + b)`` (lesson 05).

    Keys ``k_j = W_h h_j + b`` ``(N, T, d_a)`` once per sentence; each step adds the query ``q = W_s s``.
    Backward: ``dz_tj = (dL/de_tj) v * (1 - a_tj^2)``, ``dL/dq_t = sum_j dz_tj``, ``dL/ds = W_s^T dL/dq_t`` and
    ``dL/dk_j += dz_tj`` per step; after the loop ``dL/dv = sum (dL/de) a``, ``dL/dW_s = sum_t dq_t s^T``,
    ``dL/db = sum_t dq_t``, ``dL/dW_h = sum_j dk_j h_j^T``, ``dL/dh_j += W_h^T dk_j``.
    """

    name = "additive"
    label = "lab_score_additive"
    tex = r"e_{tj} = v^\top \tanh(W_s $s + W_h h_j + b)"

    def init(self, rng, dt):
        d_s, d_h, d_a = self.d_s, self.d_h, self.d_a
        return {
            "att_W_s": (rng.standard_normal((d_a, d_s)) / np.sqrt(d_s)).astype(dt),
            "att_W_h": (rng.standard_normal((d_a, d_h)) / np.sqrt(d_h)).astype(dt),
            "att_v": (rng.standard_normal(d_a) / np.sqrt(d_a)).astype(dt),
            "att_b": np.zeros(d_a, dtype=dt),
        }

    def keys(self, p, H):
        return additive_keys_kernel(H, p["att_W_h"], p["att_b"])  # k_j = W_h h_j + b: (N, T, d_a)

    def tape(self, H, steps):
        N, T, _ = H.shape
        return np.empty((N, steps, T, self.d_a), dtype=H.dtype)  # activations a_tj of every step

    def scores(self, p, s, K):
        q = s @ p["att_W_s"].T  # (N, d_s) x (d_s, d_a) -> (N, d_a)
        return additive_from_keys_kernel(q, K, p["att_v"])  # e_tj = v^T tanh(q + k_j): (N, T), a (N, T, d_a)

    def scores_backward(self, p, d_e, s, K, act, d_K):
        dz = additive_from_keys_backward_kernel(d_e, act, p["att_v"])  # (N, T, d_a): dL/dz_tj
        d_K += dz  # dL/dk_j
        d_q = dz.sum(axis=1)  # (N, d_a): dL/dq_t = sum_j dz_tj
        return d_q @ p["att_W_s"], d_q  # dL/ds = W_s^T dq: (N, d_a) x (d_a, d_s) -> (N, d_s)

    def sums_backward(self, p, source, d_source, S, grads):
        N, U, _ = S.shape
        A = source.tape  # (N, U, T, d_a) activations
        D_E = np.stack([g.d_e for g in grads], axis=1)  # (N, U, T)
        D_Q = np.stack([g.d_q for g in grads], axis=1)  # (N, U, d_a)
        d_K = d_source.K  # (N, T, d_a)
        d_source.H += d_K @ p["att_W_h"]  # (N, T, d_a) x (d_a, d_h) -> (N, T, d_h)
        return {
            "att_W_s": D_Q.reshape(N * U, -1).T @ S.reshape(N * U, -1),  # (d_a, N U) x (N U, d_s) -> (d_a, d_s)
            "att_W_h": d_K.reshape(-1, self.d_a).T @ source.H.reshape(-1, self.d_h),  # (d_a, d_h)
            "att_v": np.einsum("nut,nuta->a", D_E, A),  # (d_a,)
            "att_b": D_Q.sum(axis=(0, 1)),  # (d_a,)
        }


class GeneralScore(AttentionScore):
    r"""Luong's general score ``e_tj = s^T W_a h_j`` (lesson 08).

    Keys ``k_j = W_a h_j`` ``(N, T, d_s)`` once per sentence, so each step's scores are dot products
    ``e_tj = s^T k_j``. Backward: ``dL/ds = sum_j (dL/de_tj) k_j`` and ``dL/dk_j += (dL/de_tj) s`` per step;
    after the loop ``dL/dW_a = sum_j dk_j h_j^T``, ``dL/dh_j += W_a^T dk_j``.
    """

    name = "general"
    label = "lab_score_general"
    tex = r"e_{tj} = $s^\top W_a h_j"

    def init(self, rng, dt):
        return {"att_W": (rng.standard_normal((self.d_s, self.d_h)) / np.sqrt(self.d_h)).astype(dt)}  # W_a

    def keys(self, p, H):
        return H @ p["att_W"].T  # k_j = W_a h_j: (N, T, d_h) x (d_h, d_s) -> (N, T, d_s)

    def scores(self, p, s, K):
        return dot_scores_kernel(s, K), None  # e_tj = s^T k_j: (N, T)

    def scores_backward(self, p, d_e, s, K, act, d_K):
        d_K += d_e[:, :, None] * s[:, None, :]  # dL/dk_j += (dL/de_tj) s: (N, T, d_s)
        return (d_e[:, None, :] @ K)[:, 0, :], None  # dL/ds = sum_j (dL/de_tj) k_j: (N, 1, T) x (N, T, d_s)

    def sums_backward(self, p, source, d_source, S, grads):
        d_K = d_source.K  # (N, T, d_s)
        d_source.H += d_K @ p["att_W"]  # (N, T, d_s) x (d_s, d_h) -> (N, T, d_h)
        return {"att_W": d_K.reshape(-1, self.d_s).T @ source.H.reshape(-1, self.d_h)}  # (d_s, N T) x (N T, d_h)


class FixedSummary:
    """No score: every step reads the fixed summary ``c_t = m = [->h_T; <-h_1]`` (lessons 02 and 07's baseline).

    It can never go back to an individual source position. The same interface as :class:`AttentionScore`.
    """

    name = "none"
    label = "lab_score_none"
    tex = r"c_t = m = [\overrightarrow{h}_T; \overleftarrow{h}_1]"
    context_tex = "m"

    def __init__(self, cfg):
        pass

    @classmethod
    def read_tex(cls, s: str) -> tuple[tuple[str, str], ...]:
        """The read's one formula in TeX: the summary, whatever the state ``s``."""
        return (("summary", cls.tex),)

    def init(self, rng, dt):
        return {}  # no parameters

    def keys(self, p, H):
        return None

    def tape(self, H, steps):
        return None

    def read(self, p, t, s, source):
        return Read(None, source.m, None)  # c_t = m, whatever the state

    def read_backward(self, p, g_c, s, source, d_source, read):
        return 0.0, None  # c_t = m does not depend on s

    def backward(self, p, source, d_source, S, weights, G, grads):
        d_source.m += G.sum(axis=1)  # dL/dm = sum_t dL/dc_t: (N, U, d_h) -> (N, d_h)
        return {}


SCORES = {cls.name: cls for cls in (AdditiveScore, GeneralScore)}  # ModelConfig.score -> part (attention=True)
