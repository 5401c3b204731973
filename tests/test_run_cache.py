"""The test gate's run cache (tests/run_cache.py): a run made once is read back, the same in every respect; the
reader's ``train`` knows nothing of it, and every kernel the gate starts has it installed."""

from __future__ import annotations

import dataclasses
import json
import shutil
import threading
import time

import numpy as np
import pytest

from attention_core.models import train as train_module
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
from attention_core.models.train import TrainConfig, splits_for, train
from attention_workshop import seed_study
from tests import run_cache

pytestmark = pytest.mark.slow  # the gate's own machinery, for the notebooks `make test` runs: `make test` only

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3)
CFG = TrainConfig(model=TINY, n_train=200, n_valid=20, n_test=20, steps=6, eval_every=3, warmup_steps=1)
cached_train = run_cache.cached(train)


def progress():
    seen = []
    return seen, lambda step, loss, acc: seen.append((step, loss, acc))


@pytest.fixture(autouse=True)
def _no_gate_cache(monkeypatch):
    monkeypatch.delenv(run_cache.ENV, raising=False)  # each test sets its own folder


def test_a_run_made_once_is_read_back_with_its_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    splits = splits_for(CFG)
    first_seen, callback = progress()
    first = cached_train(CFG, splits, callback=callback)
    assert len(list(tmp_path.glob("*.npz"))) == 1 and len(list(tmp_path.glob("*.json"))) == 1

    def no_training(*args, **kwargs):
        raise AssertionError("the run was trained again")

    monkeypatch.setattr(Seq2Seq, "loss_and_grads", no_training)
    again_seen, callback = progress()
    again = cached_train(CFG, splits, callback=callback)
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
    cached_train(CFG, splits)
    assert run_cache.load(tmp_path, run_cache.key(other, splits)) is None
    monkeypatch.delenv(run_cache.ENV)
    cached_train(CFG, splits)
    assert len(list(tmp_path.glob("*.npz"))) == 1  # a reader's run never reads or writes the gate's folder


def test_a_run_with_snapshots_is_always_trained(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    seen = []
    cached_train(CFG, splits_for(CFG), snapshot=lambda step, model: seen.append(step), snapshot_every=3)
    assert seen == [0, 3, 6] and not list(tmp_path.glob("*"))


def _nan(params):
    params["init_W"][0, 0] = np.nan
    return params


def _float64(params):
    return {k: v.astype(np.float64) for k, v in params.items()}


def _reshaped(params):
    params["init_W"] = params["init_W"][:, :-1]
    return params


# Every way an entry can be unusable, as (which file, how it is damaged, what the skip line says).
DAMAGES = {
    "empty npz": ("npz", lambda path: path.write_bytes(b""), "EOFError"),
    "cut npz": ("npz", lambda path: path.write_bytes(path.read_bytes()[:100]), "BadZipFile"),
    "no npz": ("npz", lambda path: path.unlink(), "FileNotFoundError"),
    "NaN parameters": ("npz", lambda path: _resaved(path, _nan), "finite"),
    "wrong-shape parameters": ("npz", lambda path: _resaved(path, _reshaped), "has shape"),
    "float64 parameters": ("npz", lambda path: _resaved(path, _float64), "dtype"),
    "another model's parameters": ("npz", lambda path: _resaved(path, lambda p: {"W": np.zeros(3)}), "missing"),
    "cut record": ("json", lambda path: path.write_text(path.read_text()[:40], encoding="utf-8"), "JSONDecodeError"),
    "empty record": ("json", lambda path: path.write_text("", encoding="utf-8"), "JSONDecodeError"),
    "garbage record": ("json", lambda path: path.write_text("{not json", encoding="utf-8"), "JSONDecodeError"),
    "record of another layout": ("json", lambda path: path.write_text('{"steps": 6}', encoding="utf-8"), "KeyError"),
    "losses cut short": ("json", lambda path: _rerecorded(path, losses=[0.5]), "1 losses for 6 steps"),
    "a NaN loss": ("json", lambda path: _rerecorded(path, losses=[float("nan")] * 6), "not a finite number"),
    "no record": ("json", lambda path: path.unlink(), "FileNotFoundError"),
}  # fmt: skip


def _resaved(path, change):
    with np.load(path) as saved:
        params = {k: saved[k].copy() for k in saved.files}
    with path.open("wb") as f:  # a fixture in tmp_path
        np.savez(f, **change(params))


def _rerecorded(path, **changes):
    made = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**made, **changes}), encoding="utf-8")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The run of CFG, trained once for the file into a cache folder of its own: (its folder, splits, result)."""
    folder = tmp_path_factory.mktemp("made")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(run_cache.ENV, str(folder))
        splits = splits_for(CFG)
        return folder, splits, cached_train(CFG, splits)


@pytest.mark.parametrize("damage", DAMAGES)
def test_an_unusable_entry_is_a_miss_named_once_and_written_anew(tmp_path, monkeypatch, capfd, damage, made):
    # An empty .npz, NaN or wrong-shape parameters failed the gate's lesson-07 kernel (issue 43) with an error naming
    # neither the file nor AE_RUN_CACHE, and a cut record was skipped without a word: every unusable entry is now a
    # miss, trained again with one line naming the file, and written anew. The entry is the file's one run (made),
    # copied here: only the training after the damage is this test's own.
    folder, splits, first = made
    name = run_cache.key(CFG, splits)
    for entry in folder.glob(f"{name}.*"):
        shutil.copyfile(entry, tmp_path / entry.name)
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    assert run_cache.load(tmp_path, name, CFG) is not None  # the copy is a hit before the damage
    suffix, damaged, says = DAMAGES[damage]
    path = tmp_path / f"{name}.{suffix}"
    damaged(path)
    capfd.readouterr()
    again = cached_train(CFG, splits)
    err = capfd.readouterr().err
    assert again.losses == first.losses and again.steps == first.steps
    for k, value in first.model.params.items():
        np.testing.assert_array_equal(again.model.params[k], value)
    lines = err.splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and run_cache.ENV in lines[0] and says in lines[0], err
    assert "trained again" in lines[0]
    assert run_cache.load(tmp_path, name, CFG) is not None  # written anew, and read back without a word
    cached_train(CFG, splits)
    assert capfd.readouterr().err == ""


def test_the_readers_train_has_no_cache(tmp_path, monkeypatch):
    import inspect

    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    train(CFG, splits_for(CFG))
    assert not list(tmp_path.glob("*")) and "cache" not in inspect.getsource(train_module).lower()


def test_the_key_names_the_cpu_features_numpy_uses(monkeypatch):
    splits = splits_for(CFG)
    here = run_cache.key(CFG, splits)
    fewer = {name: False for name in seed_study.cpu_features()}  # as NPY_DISABLE_CPU_FEATURES would leave it
    monkeypatch.setattr(seed_study, "cpu_features", lambda: fewer)
    assert run_cache.key(CFG, splits) != here


def test_two_processes_asking_for_one_run_at_once_train_it_once(tmp_path, monkeypatch):
    monkeypatch.setenv(run_cache.ENV, str(tmp_path))
    splits = splits_for(CFG)
    trained = []

    def slow_train(*args, **kwargs):
        trained.append(threading.get_ident())
        time.sleep(0.5)  # the other asks while this one trains
        return train(*args, **kwargs)

    both = run_cache.cached(slow_train)
    results = []
    workers = [threading.Thread(target=lambda: results.append(both(CFG, splits))) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(trained) == 1, "both trained the run"
    assert len(results) == 2 and results[0].losses == results[1].losses


def test_every_kernel_the_gate_starts_reads_back_runs():
    """The root conftest.py installs tests/kernel_startup.py for the kernels nbval and the pseudo edition start."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        seen = []
        client.execute_interactive(
            "import attention_core.models.train as t; print(getattr(t.train, 'gate_cache', False))",
            output_hook=lambda msg: seen.append(msg["content"].get("text", "")),
            timeout=60,
        )
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert "True" in "".join(seen), seen
