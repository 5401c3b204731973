"""Speed of training the lesson-07 attention model on this machine (prints figures; not a test).

    .venv/bin/python scripts/bench_training.py [--target 0.95] [--steps 1000]

Trains the default configuration once (float32, length-bucketed batches of 32, one BLAS thread), timing
every optimiser step, and prints: the median time per step, steps per second, the first validation check
at which token accuracy reaches the target (step and seconds since the start, validation time included),
and the seconds for the whole run. Timings vary with the machine and its load; the step counts do not.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from attention_core.models.seq2seq import ModelConfig
from attention_core.models.train import TrainConfig, train


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.95, help="validation token accuracy to reach")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps, help="optimiser steps of the run")
    parser.add_argument("--baseline", action="store_true", help="time the fixed-summary baseline instead")
    parser.add_argument("--eval-every", type=int, default=50, help="steps between validation checks")
    args = parser.parse_args(argv)
    cfg = TrainConfig(model=ModelConfig(attention=not args.baseline), steps=args.steps, eval_every=args.eval_every)
    step_times: list[float] = []
    reached: list[tuple[int, float, float]] = []
    clock = {"start": 0.0, "last": 0.0}

    def on_step(step, loss, acc):
        now = time.perf_counter()
        if acc is None:  # a step without a validation check: its duration is one optimiser step
            step_times.append(now - clock["last"])
        elif acc >= args.target and not reached:
            reached.append((step, acc, now - clock["start"]))
        clock["last"] = now

    from attention_core.models import data

    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    clock["start"] = clock["last"] = time.perf_counter()
    result = train(cfg, splits, progress=False, callback=on_step)
    total = time.perf_counter() - clock["start"]
    ms = 1e3 * float(np.median(step_times))
    print(f"model: {'fixed summary' if args.baseline else 'attention'}, {result.steps} steps, float32, batch 32")
    print(f"median time per step: {ms:.1f} ms")
    print(f"steps per second:     {1e3 / ms:.1f}")
    if reached:
        step, acc, secs = reached[0]
        print(f"validation token accuracy {acc:.3f} >= {args.target} first at step {step}, after {secs:.1f} s")
    else:
        print(f"validation token accuracy never reached {args.target} (best {max(a for _, a in result.checks):.3f})")
    print(f"whole run ({result.steps} steps, {len(result.checks)} validation checks): {total:.1f} s")


if __name__ == "__main__":
    main()
