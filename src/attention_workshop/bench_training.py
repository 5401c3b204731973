"""Speed of training the lesson-07 attention model on this machine (prints figures; not a test).

    .venv/bin/python -m attention_workshop.bench_training [--against REV] [--rounds 3] [--steps 1000]

1. Step time against another commit's trainer, on the same batches: the batches are made once, saved, and timed
   by a child process for each trainer (this commit's ``src/`` and REV's, extracted with ``git archive``),
   alternating, ``--rounds`` times each; it prints the median step of each and their ratio. REV defaults to
   the last commit before the decoder was restructured.
2. A full training run of the default configuration (float32, batches of 32, one BLAS thread): median step,
   steps per second, the first validation check reaching ``--target`` token accuracy, and the whole run.
3. Where PyTorch is installed, ``attention_workshop.bench_torch`` times the same model in PyTorch on one CPU thread.

Timings vary with the machine and its load; compare the ratios measured in one run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from attention_workshop.command import OneLineParser, run
from attention_workshop.paths import ROOT

BEFORE_RESTRUCTURE = "20e5880"  # the trainer before keys-once-per-sentence and cached activations (issue 9)

CHILD = """
import sys, time
import numpy as np
from threadpoolctl import threadpool_limits
from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig, Seq2Seq
saved = np.load(sys.argv[1])
n = int(saved["n"])
batches = [data.Batch(*(saved[f"{k}{i}"] for k in ("src", "tgt_in", "tgt_out", "align"))) for i in range(n)]
model = Seq2Seq(ModelConfig(), seed=0)
with threadpool_limits(1):
    for b in batches[:5]:
        model.loss_and_grads(b)  # warm-up
    times = []
    for b in batches:
        start = time.perf_counter()
        model.loss_and_grads(b)
        times.append(time.perf_counter() - start)
print(np.median(times))
"""


def save_batches(path: Path, n: int = 80) -> None:
    """The first ``n`` training batches of the lesson's recipe, as plain arrays both trainers can load."""
    from attention_core.models import data
    from attention_core.models.train import TrainConfig

    cfg = TrainConfig()
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    batches = data.length_batches(splits.train, cfg.batch_size, np.random.default_rng(cfg.seed))[:n]
    arrays = {f"{k}{i}": getattr(b, k) for i, b in enumerate(batches) for k in ("src", "tgt_in", "tgt_out", "align")}
    np.savez(path, n=len(batches), **arrays)


def step_time(src_dir: Path, batches: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(src_dir)}
    run = subprocess.run([sys.executable, "-c", CHILD, str(batches)], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-2000:])
    return float(run.stdout.strip())


def compare_with(rev: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True)
        if archive.returncode != 0:
            print(f"  (no comparison: `git archive {rev}` failed: {archive.stderr.decode().strip()})")
            return
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
        save_batches(tmp / "batches.npz")
        now, before = [], []
        for _ in range(rounds):  # alternate, so that a change of machine load hits both
            now.append(step_time(ROOT / "src", tmp / "batches.npz"))
            before.append(step_time(tmp / "src", tmp / "batches.npz"))
        a, b = float(np.median(now)), float(np.median(before))
        print(f"  training step, this commit:        {a * 1e3:7.2f} ms   (median of {rounds} runs of 80 batches)")
        print(f"  training step, {rev}:           {b * 1e3:7.2f} ms")
        print(f"  speed-up over {rev}:             {b / a:7.2f} x   (target >= 1.6 x)")


def full_run(target: float, steps: int) -> None:
    from attention_core.models import data
    from attention_core.models.train import TrainConfig, train

    cfg = TrainConfig(steps=steps, eval_every=50)
    step_times: list[float] = []
    reached: list[tuple[int, float, float]] = []
    clock = {"start": 0.0, "last": 0.0}

    def on_step(step, loss, acc):
        now = time.perf_counter()
        if acc is None:  # a step without a validation check: its duration is one optimiser step
            step_times.append(now - clock["last"])
        elif acc >= target and not reached:
            reached.append((step, acc, now - clock["start"]))
        clock["last"] = now

    start = time.perf_counter()
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    print(f"  sentence sampler (make_splits, {len(splits.train) + len(splits.valid) + len(splits.test)} pairs): "
          f"{time.perf_counter() - start:.2f} s   (target < 1 s)")  # fmt: skip
    clock["start"] = clock["last"] = time.perf_counter()
    result = train(cfg, splits, callback=on_step)
    total = time.perf_counter() - clock["start"]
    ms = 1e3 * float(np.median(step_times))
    print(f"  full run: {result.steps} steps, median step {ms:.1f} ms ({1e3 / ms:.1f} steps/s)")
    if reached:
        step, acc, secs = reached[0]
        print(f"  validation token accuracy {acc:.3f} >= {target} first at step {step}, after {secs:.1f} s")
    print(f"  whole run with {len(result.checks)} validation checks: {total:.1f} s")


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m attention_workshop.bench_training", description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BEFORE_RESTRUCTURE, help="git revision to compare the step with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating timing runs per trainer")
    parser.add_argument("--steps", type=int, default=1000, help="optimiser steps of the full run")
    parser.add_argument("--target", type=float, default=0.95, help="validation token accuracy to reach")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.steps < 1:
        parser.error(f"--rounds and --steps must be at least 1, got {args.rounds} and {args.steps}")
    if not 0 < args.target <= 1:
        parser.error(f"--target is a validation token accuracy in (0, 1], got {args.target}")
    print("Training (lesson 07's attention model)")
    compare_with(args.against, args.rounds)
    full_run(args.target, args.steps)
    torch_script = Path(__file__).with_name("bench_torch.py")
    sys.stdout.flush()
    subprocess.run([sys.executable, str(torch_script)], check=False)


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench_training"))
