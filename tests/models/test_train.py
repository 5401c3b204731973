"""Training machinery: schedule, clipping, end symbols, a deterministic smoke run."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.train import (
    TrainConfig,
    clip_global_norm,
    evaluate,
    learning_rate,
    strip_eos,
    train,
)

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3, dtype="float64")


def test_learning_rate_warms_up_then_decays_by_step():
    cfg = TrainConfig(steps=200, warmup_steps=10, lr=1e-2, lr_end=1e-4)
    lrs = [learning_rate(cfg, k) for k in range(200)]
    assert lrs[9] == pytest.approx(1e-2) and lrs[-1] == pytest.approx(1e-4)
    assert all(x < y for x, y in zip(lrs[:10], lrs[1:10], strict=False))
    assert all(x > y for x, y in zip(lrs[10:], lrs[11:], strict=False))


def test_clip_global_norm_rescales_all_gradients_together():
    grads = {"a": np.array([3.0]), "b": np.array([4.0])}
    assert clip_global_norm(grads, 1.0) == pytest.approx(5.0)
    assert np.allclose([grads["a"][0], grads["b"][0]], [0.6, 0.8])


def test_strip_eos_blanks_everything_after_the_first_end_symbol():
    e = data.EOS_ID
    out = strip_eos(np.array([[5, e, 7, e], [5, 6, 7, 8]]))
    assert out.tolist() == [[5, e, -1, -1], [5, 6, 7, 8]]


def test_training_smoke_is_deterministic_and_lowers_the_loss():
    cfg = TrainConfig(n_train=1500, n_valid=50, n_test=100, steps=80, eval_every=0, warmup_steps=10)
    r1, r2 = train(cfg), train(cfg)
    assert r1.losses == r2.losses  # same seeds, pinned threads: identical losses
    assert np.mean(r1.losses[-10:]) < 0.8 * np.mean(r1.losses[:10])
    ev = evaluate(r1.model, r1.splits.test)
    assert 0.0 <= ev.token_accuracy() <= 1.0 and sum(ev.sentences) == 100
