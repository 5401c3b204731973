"""The seed study of lessons 07 and 08: every design, both target languages, many seeds.

    nice .venv/bin/python scripts/seed_study.py          # writes results/seed_study.json (about half an hour)

How long it takes: the study makes 112 runs (4 designs x 2 target languages x 14 seed points, below), one after
another in one process, with BLAS pinned to one thread, so it uses one core. One attention run takes about 14.5 s
(measured; a fixed-summary run takes less), so the whole study takes about 112 x 14.5 s, roughly 27 minutes: about
half an hour on one core, whatever the number of cores. This is the one place the book states that time.

Each run is one training with the lesson-07 recipe (:class:`TrainConfig` defaults: data sizes, 1,000 steps,
optimiser and schedule), for every design of ``DESIGNS`` (lesson 07's attention model and fixed-summary
baseline, lesson 08's general-score and Luong decoders), on both target languages, at the points ``POINTS``:

- training seeds 0-9 (initialisation and batch order) on data seed 0, whose test set is the one the book
  prints from: they measure how far the same data and recipe land apart;
- data seeds 1-4 with training seed 0: a fresh sample of training, validation and test sentences, to see
  whether the conclusions hold on other data (the test set changes with the data seed, so these runs are
  summarised with the others but also kept apart by their ``data_seed``).

Every run is trained in float32 and evaluated in float64 on its test set (greedy decoding, teacher-forced
alignment; float64 as for the committed models, :mod:`attention_core.models.trained`), and the JSON keeps per run
the test counts per source length, the figures derived from them, the misread target words by word class (where
they point and whether they were still translated right; :mod:`attention_core.models.misreads`) and the
smallest decision gaps (:mod:`attention_core.models.margins`), plus a summary per language and design (mean,
min and max over runs). BLAS is pinned to one thread, so a rerun on the same machine reproduces the file
exactly; another machine rounds differently and its runs land elsewhere within the spread the file records
(``tests/models/test_seed_study.py`` retrains one run and checks that). Lesson 07's committed model is the
attention run on "svo" with data seed 0 and its training seed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

from attention_core.models import data
from attention_core.models.margins import MARGIN, decision_gaps
from attention_core.models.misreads import misreads_by_class
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.sweep import DESIGNS, STUDY_FILE, smallest_gap, summarise
from attention_core.models.train import BUCKETS, TrainConfig, evaluate, splits_for, train
from attention_core.models.trained import in_eval_dtype

TRAIN_SEEDS = tuple(range(10))  # training seeds on data seed 0
DATA_SEEDS = (1, 2, 3, 4)  # further data samples, with training seed 0
POINTS = [(0, s) for s in TRAIN_SEEDS] + [(d, 0) for d in DATA_SEEDS]  # (data_seed, seed)


def r4(x: float) -> float:
    return round(float(x), 4)


def g3(x: float) -> float:
    return float(f"{x:.3g}")  # three significant digits (gaps span 1e-5 to 10)


def config_of(design: str, language: str = "svo", seed: int = 0, data_seed: int = 0) -> TrainConfig:
    """The recipe of one run: lesson 07's defaults with the design's decoder, language and seeds."""
    return TrainConfig(model=ModelConfig(**DESIGNS[design]), language=language, seed=seed, data_seed=data_seed)


def run_point(
    design: str,
    language: str = "svo",
    seed: int = 0,
    data_seed: int = 0,
    splits: data.Splits | None = None,
    details: bool = True,
) -> dict:
    """Train and evaluate one run of the study; return what the JSON stores for it (with ``details=False`` only the
    steps, the losses and the accuracies: not the decision gaps and the misreads, a quarter of the time)."""
    cfg = config_of(design, language, seed, data_seed)
    splits = splits_for(cfg) if splits is None else splits
    result = train(cfg, splits)
    model = in_eval_dtype(result.model)  # evaluated in float64, as the committed models are
    ev = evaluate(model, splits.test)
    attention = cfg.model.attention
    keys = ("token", "exact", "alignment") if attention else ("token", "exact")
    run = {
        "design": design,
        "language": language,
        "data_seed": data_seed,
        "seed": seed,
        "steps": result.steps,
        "first_loss": round(result.losses[0], 6),
        "final_loss": round(float(np.mean(result.losses[-50:])), 6),  # mean of the last 50 steps
        **{key: r4(getattr(ev, f"{key}_accuracy")()) for key in keys},
        "buckets": {
            f"{lo}-{hi}": {key: r4(getattr(ev, f"{key}_accuracy")(lo, hi)) for key in keys} for lo, hi in BUCKETS
        },
        "counts": dataclasses.asdict(ev),
    }
    if not details:
        return run
    gaps = decision_gaps(model, splits.test)
    gaps32 = decision_gaps(result.model, splits.test)  # the same decisions in float32, for comparison
    run["gaps"] = {  # smallest decision gaps (logits, scores) in float64 and in float32 (margins module)
        name: {"greedy": g3(g.greedy.min()), "alignment": None if g.alignment is None else g3(g.alignment.min())}
        for name, g in (("float64", gaps), ("float32", gaps32))
    }
    run["near_ties"] = gaps.near_ties(MARGIN).tolist()  # test sentences with a float64 decision closer than MARGIN
    if attention:
        mis = misreads_by_class(model, splits.test)
        for rec in mis.values():
            for key in ("share", "weight_true", "weight_looked"):
                rec[key] = None if np.isnan(rec[key]) else round(rec[key], 6)
        run["misreads"] = mis
    return run


def compact_json(obj) -> str:
    """JSON with one key per line, but every list of numbers and every flat mapping on one line."""

    def one_line(match: re.Match) -> str:
        inner = ", ".join(v.strip() for v in match.group(2).split(",\n") if v.strip())
        return match.group(1) + inner + match.group(3)

    text = json.dumps(obj, indent=1)
    text = re.sub(r"(\[)([-+0-9.,eE\s]*)(\])", one_line, text)  # [1, 2, 3]
    return re.sub(r"(\{)([^{}\[\]]*)(\})", one_line, text)  # {"mean": 0.5, "min": 0.4, ...}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=STUDY_FILE, help="where to write the JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    all_runs = []
    for language in data.LANGUAGES:
        for data_seed in sorted({d for d, _ in POINTS}):
            splits = splits_for(config_of("attention", language, 0, data_seed))
            for design in DESIGNS:
                for seed in [s for d, s in POINTS if d == data_seed]:
                    t0 = time.perf_counter()
                    run = run_point(design, language, seed, data_seed, splits)
                    all_runs.append(run)
                    extra = f", alignment {run['alignment']:.4f}" if "alignment" in run else ""
                    print(
                        f"{language:10s} {design:13s} data {data_seed} seed {seed}: token {run['token']:.4f}, "
                        f"exact {run['exact']:.4f}{extra}, smallest gap {smallest_gap(run):.2e}"
                        f" ({time.perf_counter() - t0:.0f} s)",
                        file=sys.stderr,
                    )
    config = dataclasses.asdict(TrainConfig())
    for key in ("attention", "order", "score"):
        config["model"].pop(key)
    for key in ("seed", "data_seed", "language"):
        config.pop(key)
    out = {
        "description": "Test-set figures of every design on both target languages, per training seed and data seed.",
        "command": "python scripts/seed_study.py",
        "designs": DESIGNS,
        "languages": list(data.LANGUAGES),
        "points": {
            "training seeds on data seed 0": list(TRAIN_SEEDS),
            "data seeds with training seed 0": list(DATA_SEEDS),
        },
        "config": config,
        "margin": MARGIN,
        "summary": {
            language: {
                design: summarise([r for r in all_runs if r["language"] == language and r["design"] == design])
                for design in DESIGNS
            }
            for language in data.LANGUAGES
        },
        "runs": all_runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(out) + "\n")
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
