"""Training machinery: schedule, clipping, end symbols, a deterministic smoke run."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core.lang import language
from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.train import (
    Evaluation,
    TrainConfig,
    clip_global_norm,
    evaluate,
    learning_rate,
    report,
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
    r1, r2 = train(cfg, progress=False), train(cfg, progress=False)
    assert r1.losses == r2.losses  # same seeds, pinned threads: identical losses
    assert np.mean(r1.losses[-10:]) < 0.8 * np.mean(r1.losses[:10])
    ev = evaluate(r1.model, r1.splits.test)
    assert 0.0 <= ev.token_accuracy() <= 1.0 and sum(ev.sentences) == 100


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


EVALUATION = Evaluation(
    lengths=[5, 15, 25],
    sentences=[10, 20, 40],
    tokens=[60, 320, 1040],
    tokens_right=[60, 310, 1000],
    exact_right=[10, 15, 20],
    align_right=[49, 290, 990],
)


def test_report_english_is_unchanged_and_chinese_keeps_every_number():
    english = report(EVALUATION, steps=1000)
    assert english == (
        "steps: 1000\n"
        "test token accuracy:     0.9648\n"
        "test exact accuracy:     0.6429\n"
        "test alignment accuracy: 0.9844\n"
        "  source  1-10 tokens: token 1.0000, exact 1.0000\n"
        "  source 11-20 tokens: token 0.9688, exact 0.7500\n"
        "  source 21-30 tokens: token 0.9615, exact 0.5000"
    )
    with language("zh"):
        chinese = report(EVALUATION, steps=1000)
    assert all(has_cjk(line) for line in chinese.splitlines())
    assert numbers(chinese) == numbers(english)
    assert numbers(report(EVALUATION, attention=False)) == [n for n in numbers(english)[1:] if n != "0.9844"]


def test_the_progress_line_speaks_the_readers_language(capsys):
    cfg = TrainConfig(model=TINY, n_train=200, n_valid=20, n_test=20, steps=2, eval_every=2, warmup_steps=1)
    train(cfg)
    english = capsys.readouterr().out
    assert re.fullmatch(r"attention step     2/2: running loss \d\.\d{4}, validation token acc\. \d\.\d{3}\n", english)
    with language("zh"):
        train(cfg)
    chinese = capsys.readouterr().out
    assert has_cjk(chinese) and numbers(chinese) == numbers(english)  # same seeds: the same numbers
