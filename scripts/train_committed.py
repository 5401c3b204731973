"""Train the models whose figures the book prints, and commit their parameters (lesson 07, the website).

    .venv/bin/python scripts/train_committed.py       # writes src/attention_core/models/trained/<name>.{npz,json}

Each model is one run of a fixed recipe (``TrainConfig`` with the seeds below). The JSON beside the parameters
records the command, the configuration, the training losses and validation checks, and the test-set counts
of the saved parameters, evaluated in float64 as the book evaluates them (``models/trained.py``), with the
smallest gap of the counted decisions (``models/margins.py``); ``tests/models/test_trained.py`` re-evaluates
the parameters and must get the same counts on any machine. Re-running this script on another CPU gives a
slightly different model (training amplifies rounding), which is why its output is committed rather than
recomputed by the lessons.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform

import numpy as np
from threadpoolctl import threadpool_info

from attention_core.figures.training import report
from attention_core.models.margins import decision_gaps
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.train import TrainConfig, evaluate, splits_for, train
from attention_core.models.trained import (
    LESSON07,
    LESSON08_LUONG,
    LESSON08_SWAPPED,
    TRAINED_DIR,
    VERB_FINAL,
    VERB_FINAL_BASELINE,
    in_eval_dtype,
    save_trained,
)

RUNS = {  # name -> recipe: the same data, seeds, optimiser and budget; only the decoder or the language differs
    LESSON07: TrainConfig(),  # lesson 07's model: Bahdanau's order, additive score
    LESSON08_SWAPPED: TrainConfig(model=ModelConfig(score="general")),  # lesson 08: Bahdanau's order, general score
    LESSON08_LUONG: TrainConfig(model=ModelConfig(order="luong", score="general")),  # lesson 08: Luong's order
    VERB_FINAL: TrainConfig(language="verb_final"),  # lesson 07's model on the verb-final language
    VERB_FINAL_BASELINE: TrainConfig(model=ModelConfig(attention=False), language="verb_final"),  # its baseline
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(RUNS), help="train just this model")
    args = parser.parse_args(argv)
    for name, cfg in RUNS.items():
        if args.only and name != args.only:
            continue
        splits = splits_for(cfg)
        result = train(cfg, splits)
        model = in_eval_dtype(result.model)  # the book evaluates committed models in float64 (trained.py)
        ev = evaluate(model, splits.test)
        gaps = decision_gaps(model, splits.test)
        train_cfg = dataclasses.asdict(cfg)
        train_cfg.pop("model")
        blas = [f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')}" for i in threadpool_info()]
        record = {
            "command": f"python scripts/train_committed.py --only {name}",
            "train_config": train_cfg,
            "steps": result.steps,
            "losses": [round(float(x), 6) for x in result.losses],
            "checks": [[step, round(acc, 6)] for step, acc in result.checks],
            "eval_dtype": model.cfg.dtype,
            "test_counts": dataclasses.asdict(ev),
            "smallest_gap": float(f"{gaps.smallest():.3g}"),  # of the counted decisions (margins.py)
            "made_with": {"numpy": np.__version__, "python": platform.python_version(), "blas": blas},
        }
        npz, meta = save_trained(name, result.model, record, TRAINED_DIR)
        print(f"{name}: wrote {npz.name} ({npz.stat().st_size / 1024:.0f} KiB) and {meta.name}")
        print(report(ev, cfg.model.attention, result.steps))


if __name__ == "__main__":
    main()
