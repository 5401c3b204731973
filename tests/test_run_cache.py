"""The test gate's run cache (models/run_cache.py): a run made once is read back, the same in every respect."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attention_core.models import run_cache
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, splits_for, train

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3)
CFG = TrainConfig(model=TINY, n_train=200, n_valid=20, n_test=20, steps=6, eval_every=3, warmup_steps=1)


def progress():
    seen = []
    return seen, lambda step, loss, acc: seen.append((step, loss, acc))


def test_a_run_made_once_is_read_back_with_its_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    splits = splits_for(CFG)
    first_seen, callback = progress()
    first = train(CFG, splits, callback=callback)
    assert len(list(tmp_path.glob("*.npz"))) == 1 and len(list(tmp_path.glob("*.json"))) == 1

    def no_training(*args, **kwargs):
        raise AssertionError("the run was trained again")

    monkeypatch.setattr(Seq2Seq, "loss_and_grads", no_training)
    again_seen, callback = progress()
    again = train(CFG, splits, callback=callback)
    assert again_seen == first_seen and again.losses == first.losses and again.checks == first.checks
    assert again.steps == first.steps == CFG.steps
    for name, value in first.model.params.items():
        assert again.model.params[name].dtype == value.dtype
        np.testing.assert_array_equal(again.model.params[name], value)


def test_another_run_is_trained_and_nothing_is_kept_without_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    splits = splits_for(CFG)
    other = dataclasses.replace(CFG, seed=1)
    assert run_cache.key(CFG, splits) != run_cache.key(other, splits)
    assert run_cache.key(CFG, splits) != run_cache.key(CFG, splits_for(dataclasses.replace(CFG, data_seed=1)))
    train(CFG, splits)
    assert run_cache.load(other, splits) is None
    monkeypatch.delenv(run_cache.ENV)
    assert run_cache.load(CFG, splits) is None  # a reader's run never reads the gate's folder
    elsewhere = tmp_path / "unset"
    train(CFG, splits)
    assert not elsewhere.exists() and len(list(tmp_path.glob("*.npz"))) == 1


def test_a_run_with_snapshots_is_always_trained(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    seen = []
    train(CFG, splits_for(CFG), snapshot=lambda step, model: seen.append(step), snapshot_every=3)
    assert seen == [0, 3, 6] and not list(tmp_path.glob("*"))


@pytest.fixture(autouse=True)
def _no_gate_cache(monkeypatch):
    monkeypatch.delenv(run_cache.ENV, raising=False)  # each test sets its own folder


def test_the_key_names_the_cpu_features_numpy_uses(monkeypatch):
    splits = splits_for(CFG)
    here = run_cache.key(CFG, splits)
    fewer = {name: False for name in run_cache._cpu_features()}  # as NPY_DISABLE_CPU_FEATURES would leave it
    monkeypatch.setattr(run_cache, "_cpu_features", lambda: fewer)
    assert run_cache.key(CFG, splits) != here


def test_two_processes_asking_for_one_run_at_once_train_it_once(tmp_path, monkeypatch):
    import threading
    import time

    from attention_core.models import train as train_module

    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    splits = splits_for(CFG)
    trained, real_run = [], train_module._run

    def slow_run(*args, **kwargs):
        trained.append(threading.get_ident())
        time.sleep(0.5)  # the other asks while this one trains
        return real_run(*args, **kwargs)

    monkeypatch.setattr(train_module, "_run", slow_run)
    results = []
    workers = [threading.Thread(target=lambda: results.append(train(CFG, splits))) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(trained) == 1, "both trained the run"
    assert len(results) == 2 and results[0].losses == results[1].losses
