"""Accuracy against source length: the attention model vs the fixed-summary baseline (lesson 07).

    .venv/bin/python scripts/length_experiment.py            # writes results/length_sweep.json

Each point of the sweep is one training run with the default :class:`TrainConfig` (same data, steps,
optimiser and schedule for both models; only the decoder's read differs), for each model and each seed in
SEEDS. Every run is evaluated on the same test set with greedy decoding; the JSON stores per-length counts
and accuracies, bucket summaries and the mean over seeds. BLAS is pinned to one thread, so a rerun on the
same machine reproduces the file exactly; on another machine the runs round differently and the figures move
by a few tenths of a percent. tests/test_length_experiment.py retrains one point and compares it with the file
within a stated tolerance.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

from attention_core.figures.training import progress_printer
from attention_core.models import data
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.sweep import SWEEP_FILE
from attention_core.models.train import BUCKETS, TrainConfig, alignment_misses, evaluate, train

SEEDS = (0, 1, 2)  # initialisation and batch-order seeds; the data seed stays fixed
MODELS = {"attention": True, "fixed summary": False}  # label -> ModelConfig.attention
OUT = SWEEP_FILE


def r4(x: float) -> float:
    return round(float(x), 4)


def run_point(label: str, seed: int, splits: data.Splits | None = None, progress: bool = False) -> dict:
    """Train and evaluate one point of the sweep; return what the JSON stores for it."""
    cfg = TrainConfig(model=ModelConfig(attention=MODELS[label]), seed=seed)
    if splits is None:
        splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    result = train(cfg, splits, callback=progress_printer(cfg.model.attention, cfg.steps) if progress else None)
    ev = evaluate(result.model, splits.test)
    point = {
        "model": label,
        "seed": seed,
        "steps": result.steps,
        "token": r4(ev.token_accuracy()),
        "exact": r4(ev.exact_accuracy()),
        "buckets": {
            f"{lo}-{hi}": {"token": r4(ev.token_accuracy(lo, hi)), "exact": r4(ev.exact_accuracy(lo, hi))}
            for lo, hi in BUCKETS
        },
        "per_length": {
            "token": [r4(ev.token_accuracy(n, n)) for n in ev.lengths],
            "exact": [r4(ev.exact_accuracy(n, n)) for n in ev.lengths],
        },
        "lengths": ev.lengths,
        "sentences": ev.sentences,
    }
    if MODELS[label]:
        point["alignment"] = r4(ev.alignment_accuracy())
        point["alignment_misses"] = alignment_misses(result.model, splits.test)
    return point


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the JSON")
    args = parser.parse_args(argv)
    cfg = TrainConfig()
    splits = data.make_splits(cfg.data_seed, cfg.n_train, cfg.n_valid, cfg.n_test)
    runs = []
    for label in MODELS:
        for seed in SEEDS:
            runs.append(run_point(label, seed, splits, progress=True))
            print(f"{label:14s} seed {seed}: token {runs[-1]['token']:.4f}, exact {runs[-1]['exact']:.4f}")
    lengths = runs[0]["lengths"]
    mean = {}
    for label in MODELS:
        mine = [r for r in runs if r["model"] == label]
        mean[label] = {
            key: [r4(np.mean([r["per_length"][key][i] for r in mine])) for i in range(len(lengths))]
            for key in ("token", "exact")
        }
        mean[label]["buckets"] = {
            b: {key: r4(np.mean([r["buckets"][b][key] for r in mine])) for key in ("token", "exact")}
            for b in mine[0]["buckets"]
        }
    config = dataclasses.asdict(cfg)
    config["model"].pop("attention")
    out = {
        "description": "Test-set token and exact-sequence accuracy by source length, attention vs fixed summary.",
        "command": "python scripts/length_experiment.py",
        "seeds": list(SEEDS),
        "config": config,
        "lengths": lengths,
        "mean": mean,
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
