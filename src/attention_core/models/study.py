"""One run of the seed study of lessons 07 and 08, and the study's file: what ``attention_workshop.seed_study`` trains.

The study (its command line, its run time and how it spreads the runs over cores or a cluster: the script's
docstring) trains every design of :data:`~.sweep.DESIGNS` on both target languages at the seed points
:data:`POINTS`, and evaluates each run on its test set. :func:`run_point` is one such run, from its name alone
(design, language, seeds), so that any process that imports the package can make it: the worker processes joblib
starts, or a Dask cluster's workers. :func:`record` and :func:`compact_json` write what
``results/seed_study.json`` holds; :mod:`.sweep` reads it.

Every run is trained in float32 and evaluated in float64 on its test set (greedy decoding, teacher-forced
alignment; float64 as for the committed models, :mod:`.trained`), and its record keeps the test counts per source
length, the figures derived from them, the misread target words by word class (where they point and whether they
were still translated right; :mod:`.misreads`) and the smallest decision gaps (:mod:`.margins`). BLAS is pinned
to one thread, so a rerun on the same machine reproduces a record exactly.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re

import numpy as np

from . import data
from .margins import MARGIN, decision_gaps
from .misreads import misreads_by_class
from .seq2seq import ModelConfig
from .sweep import DESIGNS, design_of, summarise
from .train import BUCKETS, TrainConfig, evaluate, splits_for, train
from .trained import in_eval_dtype

TRAIN_SEEDS = tuple(range(10))  # training seeds on data seed 0
DATA_SEEDS = (1, 2, 3, 4)  # further data samples, with training seed 0
POINTS = [(0, s) for s in TRAIN_SEEDS] + [(d, 0) for d in DATA_SEEDS]  # (data_seed, seed)


def r4(x: float) -> float:
    return round(float(x), 4)


def g3(x: float) -> float:
    return float(f"{x:.3g}")  # three significant digits (gaps span 1e-5 to 10)


def config_of(design: str, language: str = "svo", seed: int = 0, data_seed: int = 0, steps: int | None = None):
    """The recipe of one run: lesson 07's defaults with the design's decoder, language, seeds (and steps)."""
    cfg = TrainConfig(model=ModelConfig(**design_of(design)), language=language, seed=seed, data_seed=data_seed)
    return cfg if steps is None else dataclasses.replace(cfg, steps=steps)


@functools.lru_cache(maxsize=4)
def _splits(language: str, data_seed: int) -> data.Splits:
    """The sentences of one language and data seed, made once per process (every design and seed shares them)."""
    return splits_for(config_of("attention", language, 0, data_seed))


def run_point(design: str, language: str = "svo", seed: int = 0, data_seed: int = 0, steps: int | None = None) -> dict:
    """Train and evaluate one run of the study; return what the JSON stores for it."""
    cfg = config_of(design, language, seed, data_seed, steps)
    splits = _splits(language, data_seed)
    result = train(cfg, splits)
    model = in_eval_dtype(result.model)  # evaluated in float64, as the committed models are
    ev = evaluate(model, splits.test)
    aligns = cfg.model.aligns  # an attention design whose weights name positions (no alignment without them)
    keys = ("token", "exact", "alignment") if aligns else ("token", "exact")
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
    gaps = decision_gaps(model, splits.test)
    gaps32 = decision_gaps(result.model, splits.test)  # the same decisions in float32, for comparison
    run["gaps"] = {  # smallest decision gaps (logits, scores) in float64 and in float32 (margins module)
        name: {"greedy": g3(g.greedy.min()), "alignment": None if g.alignment is None else g3(g.alignment.min())}
        for name, g in (("float64", gaps), ("float32", gaps32))
    }
    run["near_ties"] = gaps.near_ties(MARGIN).tolist()  # test sentences with a float64 decision closer than MARGIN
    if aligns:
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


def points_of(designs, languages, train_seeds, data_seeds) -> list[tuple[str, str, int, int]]:
    """Every run of a study as ``(design, language, seed, data_seed)``, in the order the JSON lists them: by
    language, data seed, design, then training seed (training seeds on data seed 0, data seeds with seed 0)."""
    points = [(0, s) for s in train_seeds] + [(d, 0) for d in data_seeds if d != 0]
    return [
        (design, language, seed, data_seed)
        for language in languages
        for data_seed in sorted({d for d, _ in points})
        for design in designs
        for seed in [s for d, s in points if d == data_seed]
    ]


def record(runs: list[dict], designs, languages, train_seeds, data_seeds, steps: int | None) -> dict:
    """The JSON's content: the runs, a summary per language and design, and how they were made."""
    config = dataclasses.asdict(config_of(designs[0], steps=steps))
    for key in ("attention", "order", "score", "encoder", "positions", "tied"):  # what a design chooses
        config["model"].pop(key)
    for key in ("seed", "data_seed", "language"):
        config.pop(key)
    return {
        "description": "Test-set figures of every design on both target languages, per training seed and data seed.",
        "command": "python -m attention_workshop.seed_study",
        "designs": {d: DESIGNS[d] for d in designs},
        "languages": list(languages),
        "points": {
            "training seeds on data seed 0": list(train_seeds),
            "data seeds with training seed 0": list(data_seeds),
        },
        "config": config,
        "margin": MARGIN,
        "summary": {
            language: {
                design: summarise([r for r in runs if r["language"] == language and r["design"] == design])
                for design in designs
            }
            for language in languages
        },
        "runs": runs,
    }
