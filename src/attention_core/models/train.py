"""Training and evaluation of the translation models (lesson 07); also a command line entry point.

    python -m attention_core train                   # train the attention model, print test figures
    python -m attention_core.models.train --baseline # the fixed-summary baseline, same recipe
    python -m attention_core.models.train --language verb_final   # on the verb-final target language

Recipe: teacher forcing and the token-averaged cross-entropy of :mod:`.seq2seq`; Adam; the gradient rescaled
to global norm at most ``clip_norm``; a learning rate that warms up linearly and then decays exponentially
with the step number. Every schedule and stopping rule counts steps, never seconds, and BLAS is pinned to
one thread (:func:`~._blas.pinned_blas`, on every training and evaluation entry point), so the same seeds
give bit-identical runs on one machine. Another CPU or BLAS kernel rounds the last bits differently and
training amplifies them: figures the book prints come from committed parameters (:mod:`.trained`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validate import integer, number, one_of, sentence_pairs
from . import data
from ._blas import pinned_blas
from .seq2seq import ModelConfig, Seq2Seq, build_model

BUCKETS = ((1, 10), (11, 20), (21, 30))  # source-length buckets used in the reports


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run. Defaults train the lesson-07 attention model."""

    model: ModelConfig = field(default_factory=ModelConfig)  # sizes, and attention on or off
    data_seed: int = 0  # seed of the sentence sampler (train, validation and test splits)
    language: str = "svo"  # target word order, one of data.LANGUAGES: lesson 07's "svo" or "verb_final"
    n_train: int = 20000  # training sentence pairs
    n_valid: int = 500  # validation pairs (used for the early stop)
    n_test: int = 2000  # test pairs (used only by evaluate)
    seed: int = 0  # seed of the parameter initialisation and of the batch order
    batch_size: int = 32  # sentence pairs per step, all of one source length (no padding)
    steps: int = 1000  # maximum number of optimiser steps
    lr: float = 5e-3  # peak learning rate, reached after warmup_steps
    lr_end: float = 2e-4  # learning rate at the last step; the decay in between is exponential
    warmup_steps: int = 50  # steps of linear warm-up from lr / warmup_steps to lr
    clip_norm: float = 1.0  # the gradient is rescaled to this global L2 norm when larger
    beta1: float = 0.9  # Adam: decay of the first-moment average
    beta2: float = 0.999  # Adam: decay of the second-moment average
    adam_eps: float = 1e-8  # Adam: added to the root of the second moment
    eval_every: int = 100  # steps between validation checks
    target_accuracy: float | None = None  # stop at the first check with validation token accuracy >= this

    def __post_init__(self):
        if not isinstance(self.model, ModelConfig):
            raise TypeError(f"model must be a ModelConfig, got {type(self.model).__name__}")
        for name in ("n_train", "n_valid", "n_test", "batch_size", "steps"):
            integer(getattr(self, name), name)
        for name in ("data_seed", "seed", "warmup_steps", "eval_every"):
            integer(getattr(self, name), name, minimum=0)
        for name in ("lr", "lr_end", "clip_norm", "adam_eps"):
            number(getattr(self, name), name, 0.0, low_open=True)
        for name in ("beta1", "beta2"):
            number(getattr(self, name), name, 0.0, 1.0)
        if self.beta1 == 1.0 or self.beta2 == 1.0:
            raise ValueError(f"beta1 and beta2 must be below 1, got {self.beta1} and {self.beta2}")
        if self.target_accuracy is not None:
            number(self.target_accuracy, "target_accuracy", 0.0, 1.0, low_open=True)
        one_of(self.language, "language", data.LANGUAGES)


def splits_for(cfg: TrainConfig) -> data.Splits:
    """The train, validation and test sets ``cfg`` describes (its data seed, sizes and target language)."""
    return data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test, cfg.language)


def learning_rate(cfg: TrainConfig, step: int) -> float:
    """Learning rate at optimiser step ``step`` (0-based): linear warm-up, then exponential decay."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    frac = (step - cfg.warmup_steps) / max(cfg.steps - 1 - cfg.warmup_steps, 1)
    return cfg.lr * (cfg.lr_end / cfg.lr) ** frac


def clip_global_norm(grads: dict[str, np.ndarray], max_norm: float) -> float:
    """Rescale all gradients together so that their joint L2 norm is at most ``max_norm``; return the norm."""
    norm = float(np.sqrt(sum(float(np.vdot(g, g)) for g in grads.values())))
    if norm > max_norm:
        for g in grads.values():
            g *= max_norm / norm
    return norm


class Adam:
    """Adam (Kingma and Ba, 2015) over a dict of parameter arrays, updated in place."""

    def __init__(self, params: dict[str, np.ndarray], beta1=0.9, beta2=0.999, eps=1e-8):
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.beta1, self.beta2, self.eps, self.t = beta1, beta2, eps, 0

    def update(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        step = lr * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)  # bias corrections folded into the step size
        for k, p in params.items():
            m, v, g = self.m[k], self.v[k], grads[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= (step * m / (np.sqrt(v) + self.eps)).astype(p.dtype)


# --- evaluation -----------------------------------------------------------------------------------------------
def strip_eos(tokens: np.ndarray) -> np.ndarray:
    """Replace every token after the first end symbol by -1 (never a valid id), row by row. ``(N, L)``."""
    ended = np.cumsum(tokens == data.EOS_ID, axis=1) - (tokens == data.EOS_ID) > 0  # (N, L)
    return np.where(ended, -1, tokens)


@dataclass
class Evaluation:
    """Counts per source length; every accuracy is derived from them."""

    lengths: list[int]  # source lengths present
    sentences: list[int]  # sentences of each length
    tokens: list[int]  # target tokens (words and end symbol) of each length
    tokens_right: list[int]  # greedy tokens equal to the reference, position by position
    exact_right: list[int]  # sentences decoded exactly, end symbol included
    align_right: list[int]  # target words whose highest-weight source position is the true one (attention)

    def _share(self, right: list[int], total: list[int], lo: int = 1, hi: int = 10**9) -> float:
        keep = [i for i, n in enumerate(self.lengths) if lo <= n <= hi]
        den = sum(total[i] for i in keep)
        return sum(right[i] for i in keep) / den if den else float("nan")

    def token_accuracy(self, lo: int = 1, hi: int = 10**9) -> float:
        """Share of target tokens decoded right, for source lengths in ``[lo, hi]``."""
        return self._share(self.tokens_right, self.tokens, lo, hi)

    def exact_accuracy(self, lo: int = 1, hi: int = 10**9) -> float:
        """Share of sentences decoded exactly."""
        return self._share(self.exact_right, self.sentences, lo, hi)

    def alignment_accuracy(self, lo: int = 1, hi: int = 10**9) -> float:
        """Share of target words (teacher-forced) whose arg-max attention weight is at the true position."""
        words = [n * k for n, k in zip(self.lengths, self.sentences, strict=True)]
        return self._share(self.align_right, words, lo, hi)

    def by_bucket(self) -> list[tuple[int, int, float, float]]:
        """``(lo, hi, token accuracy, exact accuracy)`` for each source-length bucket of :data:`BUCKETS`."""
        return [(lo, hi, self.token_accuracy(lo, hi), self.exact_accuracy(lo, hi)) for lo, hi in BUCKETS]


@pinned_blas
def evaluate(model: Seq2Seq, pairs: list[data.Pair], batch_size: int = 256, alignment: bool = True) -> Evaluation:
    """Greedy-decode every pair and compare with the reference.

    With ``alignment`` (attention models only) also run the teacher-forced pass and count the target words
    whose highest attention weight falls on their true source position (the model never saw those positions).
    """
    sentence_pairs(pairs, data.Pair)
    per: dict[int, np.ndarray] = {}
    for batch in data.length_batches(pairs, batch_size):
        N, T = batch.src.shape
        tokens, _ = model.greedy(batch.src)  # (N, T + 1)
        right = strip_eos(tokens) == batch.tgt_out  # (N, U)
        align_right = 0
        if alignment and model.cfg.aligns:
            _, _, weights, _ = model.forward(batch)  # (N, U, T)
            align_right = int((weights[:, :T, :].argmax(axis=2) == batch.align).sum())
        counts = np.array([N, right.size, right.sum(), right.all(axis=1).sum(), align_right])
        per[T] = per.get(T, 0) + counts
    lengths = sorted(per)
    cols = np.array([per[n] for n in lengths]).T.tolist()
    return Evaluation(lengths, *cols)


@pinned_blas
def alignment_misses(model: Seq2Seq, pairs: list[data.Pair], batch_size: int = 256) -> dict:
    """Where the misaligned target words look: counts by part of speech of the true source word, and by offset
    (arg-max position minus true position), under teacher forcing. Attention models only."""
    sentence_pairs(pairs, data.Pair)
    if not model.cfg.aligns:
        raise ValueError(
            "alignment_misses needs a model whose weights name positions; the fixed-summary baseline has no weights "
            "and an encoder without positions weighs every copy of a word alike"
        )
    by_class: dict[str, int] = {}
    by_offset: dict[int, int] = {}
    words = 0
    for batch in data.length_batches(pairs, batch_size):
        T = batch.src.shape[1]
        _, _, weights, _ = model.forward(batch)  # (N, U, T)
        looked = weights[:, :T, :].argmax(axis=2)  # (N, T)
        true_ids = np.take_along_axis(batch.src, batch.align, axis=1)  # (N, T) source word of each target word
        words += looked.size
        for n, i in zip(*np.nonzero(looked != batch.align), strict=True):
            cls = data.SRC_CLASS[true_ids[n, i]]
            by_class[cls] = by_class.get(cls, 0) + 1
            off = int(looked[n, i] - batch.align[n, i])
            by_offset[off] = by_offset.get(off, 0) + 1
    return {"words": words, "by_class": dict(sorted(by_class.items())), "by_offset": dict(sorted(by_offset.items()))}


# --- training ------------------------------------------------------------------------------------------------
@dataclass
class TrainResult:
    model: Seq2Seq
    steps: int  # optimiser steps taken
    losses: list[float]  # training loss of every step
    checks: list[tuple[int, float]]  # (step, validation token accuracy) at every check
    splits: data.Splits


@pinned_blas
def train(
    cfg: TrainConfig = TrainConfig(),
    splits: data.Splits | None = None,
    callback=None,
    snapshot=None,
    snapshot_every: int = 20,
) -> TrainResult:
    """Train one model with ``cfg``.

    ``callback(step, loss, valid_accuracy)`` (optional) is called after every step; ``valid_accuracy`` is
    ``None`` except at validation checks. A lesson prints its progress with it
    (:func:`attention_core.figures.training.progress_printer`); benchmarks time steps with it.

    ``snapshot(step, model)`` (optional) is called before the first step (``step`` 0), after every
    ``snapshot_every``-th step and after the last step. It may evaluate the model (e.g. record its attention
    weights, :class:`~.trained.SnapshotRecorder`) but must not change it; it draws no random numbers of the
    run, so a run with snapshots takes exactly the steps of a run without them.
    """
    if not isinstance(cfg, TrainConfig):
        raise TypeError(f"cfg must be a TrainConfig, got {type(cfg).__name__}")
    integer(snapshot_every, "snapshot_every")
    if snapshot is not None and not callable(snapshot):
        raise TypeError(f"snapshot must be a function snapshot(step, model), got {type(snapshot).__name__}")
    if splits is None:
        splits = splits_for(cfg)
    model = build_model(cfg.model, seed=cfg.seed)
    opt = Adam(model.params, cfg.beta1, cfg.beta2, cfg.adam_eps)
    rng = np.random.default_rng(cfg.seed)
    queue: list[data.Batch] = []
    losses, checks = [], []
    step = 0
    if snapshot is not None:
        snapshot(0, model)  # the initial parameters: what the model reads before any update
    while step < cfg.steps:
        if not queue:
            queue = data.length_batches(splits.train, cfg.batch_size, rng)[::-1]
        loss, grads = model.loss_and_grads(queue.pop())
        clip_global_norm(grads, cfg.clip_norm)
        opt.update(model.params, grads, learning_rate(cfg, step))
        losses.append(loss)
        step += 1
        acc = None
        if cfg.eval_every and (step % cfg.eval_every == 0 or step == cfg.steps):
            acc = evaluate(model, splits.valid, alignment=False).token_accuracy()
            checks.append((step, acc))
        if callback is not None:
            callback(step, loss, acc)
        stop = acc is not None and cfg.target_accuracy is not None and acc >= cfg.target_accuracy
        if snapshot is not None and (step % snapshot_every == 0 or step == cfg.steps or stop):
            snapshot(step, model)
        if stop:
            break
    return TrainResult(model, step, losses, checks, splits)
