"""How far the decisions behind the book's figures are from a tie (lessons 07 and 08, the website).

Every count the book prints about a trained model is a tally of arg-max decisions: a greedy step picks the
token with the largest logit, an alignment count picks the source position with the largest weight. Another CPU
or BLAS kernel rounds the last bits of the same fixed parameters differently, which moves every logit a little;
a decision whose two best candidates are closer than that could go the other way on another machine, and a
printed count with it. So each decision's **gap** is measured,

    greedy step t:     gap_t = z_(1) - z_(2)        the largest logit minus the second largest
    alignment of y_t:  gap_t = e_(1) - e_(2)        the largest score minus the second largest (teacher forced)

and the committed models must keep every gap above :data:`MARGIN` (``tests/models/test_margins.py``).
The gaps are computed from log-probabilities (``log p_i - log p_k = z_i - z_k``; ``log alpha_j - log alpha_k =
e_j - e_k``) of a teacher-forced pass that feeds the greedy tokens back, so the decoders need no hook; that pass
rounds differently from ``greedy`` itself by far less than the margin.

Measured by hand (``attention_workshop.kernel_drift``; OpenBLAS 0.3.31 on an AVX-512 machine; the committed lesson 07/08
models on the 2,000 test sentences), forcing OPENBLAS_CORETYPE=Haswell or Sandybridge, numpy's SIMD down to
baseline (NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL"), or both:

- in float32, the models' training precision, a decision's gap moved by up to 9.8e-5, and every one of lesson
  07's training seeds has a test decision closer to a tie than 7.1e-4 (the seed-0 model: 9.6e-5). No seed
  keeps a 10x margin there;
- in float64 (:data:`~.trained.EVAL_DTYPE`, how :func:`~.trained.load_trained` evaluates the committed float32
  parameters) the same kernels moved a gap by at most 1.6e-13, and the smallest gap of every committed model
  is 9e-5 or more: evaluated in float64, no count the book prints is within reach of another machine's
  rounding, and the float64 counts equal the float32 ones recorded when the models were trained.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import sentence_pairs
from . import data
from ._blas import pinned_blas
from .seq2seq import Seq2Seq

MARGIN = 1e-9  # smallest allowed gap in float64 (logits, scores, distance of a printed weight from a rounding
# boundary): about 6,000x the largest measured float64 drift of a gap, 1.6e-13, for kernels and CPUs not measured


@dataclass
class DecisionGaps:
    """The smallest gap of each sentence's decisions, in the order of the pairs given."""

    greedy: np.ndarray  # (N,) smallest logit gap among the greedy steps that count (up to the first end symbol)
    alignment: np.ndarray | None  # (N,) smallest score gap of the teacher-forced arg-max per target word

    def smallest(self) -> float:
        """The smallest gap of all: greedy and alignment decisions together."""
        parts = [self.greedy] if self.alignment is None else [self.greedy, self.alignment]
        return float(min(p.min() for p in parts))

    def near_ties(self, margin: float = MARGIN) -> np.ndarray:
        """Indices of the sentences with a decision closer to a tie than ``margin``."""
        low = self.greedy < margin
        if self.alignment is not None:
            low |= self.alignment < margin
        return np.flatnonzero(low)


def _top_two_gap(log_p: np.ndarray) -> np.ndarray:
    """``(..., K)`` log-probabilities -> ``(...)`` largest minus second largest (inf if the second is 0)."""
    top = np.partition(log_p, -2, axis=-1)
    return top[..., -1] - top[..., -2]


def _log(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(p.astype(np.float64))


def _batch_indices(pairs: list[data.Pair], batch_size: int) -> list[np.ndarray]:
    """The pair indices of each batch :func:`~.data.length_batches` makes without ``rng`` (same order)."""
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].src))  # stable: appearance order per length
    lengths = np.array([len(pairs[i].src) for i in order])
    chunks = []
    for length in np.unique(lengths):
        idx = np.array(order)[lengths == length]
        chunks += [idx[k : k + batch_size] for k in range(0, len(idx), batch_size)]
    return chunks


@pinned_blas
def greedy_step_gaps(model: Seq2Seq, src: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Greedy-decode ``src`` ``(N, T)`` and return ``(tokens (N, U), gaps (N, U), counts (N, U))``.

    ``gaps[n, t]`` is the logit gap of step ``t``; ``counts`` is True for the steps whose token is compared
    with a reference (every step up to and including the first end symbol).
    """
    tokens, _ = model.greedy(src)  # (N, U)
    N = tokens.shape[0]
    fed = data.Batch(  # the greedy tokens fed back: the same computation, teacher-forced
        src=src,
        tgt_in=np.concatenate([np.full((N, 1), data.BOS_ID), tokens[:, :-1]], axis=1),
        tgt_out=tokens,
        align=np.zeros_like(src),
    )
    _, probs, _, _ = model.forward(fed)  # (N, U, V)
    ended = np.cumsum(tokens == data.EOS_ID, axis=1) - (tokens == data.EOS_ID) > 0  # (N, U): after the end
    return tokens, _top_two_gap(_log(probs)), ~ended


@pinned_blas
def decision_gaps(model: Seq2Seq, pairs: list[data.Pair], batch_size: int = 256) -> DecisionGaps:
    """The gaps of the decisions :func:`~.train.evaluate` counts, batched as it batches them.

    Greedy: every step up to the first end symbol of every pair. Alignment (attention models): the arg-max of the
    teacher-forced weights of every target word. Returns the smallest gap per pair.
    """
    sentence_pairs(pairs, data.Pair)
    greedy = np.full(len(pairs), np.inf)
    alignment = np.full(len(pairs), np.inf) if model.cfg.aligns else None
    batches = data.length_batches(pairs, batch_size)
    for idx, batch in zip(_batch_indices(pairs, batch_size), batches, strict=True):
        T = batch.src.shape[1]
        assert idx.size == batch.src.shape[0] and all(len(pairs[i].src) == T for i in idx)  # same batching
        _, gaps, counts = greedy_step_gaps(model, batch.src)  # (N, U) each
        greedy[idx] = np.where(counts, gaps, np.inf).min(axis=1)
        if alignment is not None:
            _, _, weights, _ = model.forward(batch)  # (N, U, T)
            alignment[idx] = _top_two_gap(_log(weights[:, :T, :])).min(axis=1)
    return DecisionGaps(greedy, alignment)


def rounding_distance(values, decimals: int) -> float:
    """Smallest distance of ``values`` from a boundary where ``f"{x:.{decimals}f}"`` would round differently."""
    x = np.abs(np.asarray(values, dtype=np.float64)) * 10**decimals
    return float(np.abs(x - np.floor(x) - 0.5).min() / 10**decimals)


@pinned_blas
def example_margins(model: Seq2Seq, src: np.ndarray, decimals: int = 2) -> dict[str, float]:
    """Margins of what a lesson prints about one greedy decoding of ``src`` ``(1, T)``.

    ``{"greedy": smallest logit gap of the counted steps, "looked": smallest gap between the largest and second
    largest weight-score of each printed row (the most-weighted source word), "rounding": smallest distance of a
    printed largest weight from a rounding boundary at ``decimals``}``; the last two are inf for the baseline.
    """
    tokens, gaps, counts = greedy_step_gaps(model, src)
    out = {"greedy": float(gaps[counts].min()), "looked": np.inf, "rounding": np.inf}
    _, weights = model.greedy(src)  # (1, U, T) the weights the lesson draws and prints
    if weights is not None:
        if model.cfg.aligns:  # without positions, copies of a word tie by construction: no word is "most weighted"
            out["looked"] = float(_top_two_gap(_log(weights)).min())
        out["rounding"] = rounding_distance(weights.max(axis=2), decimals)
    return out
