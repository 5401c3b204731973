"""Train the models whose figures the book prints, and commit their parameters (lesson 07, the website).

    .venv/bin/python -m attention_workshop.train_committed   # writes src/attention_core/models/trained/<name>.*
    .venv/bin/python -m attention_workshop.train_committed --only lesson07_attention_seed0 --snapshots
                                                      # the same, plus trained/snapshots/<name>.json

Each model is one run of a fixed recipe (``TrainConfig`` with the seeds below). The JSON beside the parameters
records the command, the configuration, the training losses and validation checks, and the test-set counts
of the saved parameters, evaluated in float64 as the book evaluates them (``models/trained.py``), with the
smallest gap of the counted decisions (``models/margins.py``); ``tests/models/test_trained.py`` re-evaluates
the parameters and must get the same counts on any machine. Re-running this script on another CPU gives a
slightly different model (training amplifies rounding), which is why its output is committed rather than
recomputed by the lessons.

``--snapshots`` (for the runs in ``SNAPSHOT_RUNS``) also records, every ``SNAPSHOT_EVERY`` steps of the same run,
what the model reads (``attention_core.models.trained.SnapshotRecorder``; lesson 07's "watch it learn" on the
website and ``learning_snapshots()`` in the notebook). Recording evaluates the model and changes nothing in it,
so the parameters are the ones a run without snapshots gives; the script says whether they are bit for bit the
parameters committed before it wrote them.
"""

from __future__ import annotations

import dataclasses
import platform
import sys
import zipfile
import zlib

import numpy as np
from threadpoolctl import threadpool_info

from attention_core.figures.training import report
from attention_core.models.designs import (
    ATTENTION,
    FIXED_SUMMARY,
    GENERAL_SCORE,
    LUONG,
    NO_POSITIONS,
    SELF_ATTENTION_DESIGN,
    named,
)
from attention_core.models.margins import decision_gaps
from attention_core.models.train import TrainConfig, evaluate, splits_for, train
from attention_core.models.trained import (
    LESSON07,
    LESSON08_LUONG,
    LESSON08_SWAPPED,
    LESSON09,
    LESSON09_NO_POSITIONS,
    SNAPSHOT_EVERY,
    TRAINED_DIR,
    VERB_FINAL,
    VERB_FINAL_BASELINE,
    SnapshotRecorder,
    in_eval_dtype,
    save_snapshots,
    save_trained,
    snapshot_sentences,
)
from attention_workshop.command import OneLineParser, run

RUNS = {  # name -> recipe: the same data, seeds, optimiser and budget; only the design or the language differs
    LESSON07: TrainConfig(model=named(ATTENTION).config()),  # lesson 07's model: Bahdanau's order, additive score
    LESSON08_SWAPPED: TrainConfig(model=named(GENERAL_SCORE).config()),  # lesson 08: Bahdanau's order, general score
    LESSON08_LUONG: TrainConfig(model=named(LUONG).config()),  # lesson 08: Luong's order, general score
    VERB_FINAL: TrainConfig(model=named(ATTENTION).config(), language="verb_final"),  # lesson 07's on verb-final
    VERB_FINAL_BASELINE: TrainConfig(model=named(FIXED_SUMMARY).config(), language="verb_final"),  # its baseline
    LESSON09: TrainConfig(model=named(SELF_ATTENTION_DESIGN).config()),  # lesson 09: no recurrence in the encoder
    LESSON09_NO_POSITIONS: TrainConfig(model=named(NO_POSITIONS).config()),  # lesson 09: nor any position
}
SNAPSHOT_RUNS = (LESSON07,)  # the runs whose learning the website replays (with --snapshots)


def same_as_committed(name: str, params: dict) -> bool | None:
    """Whether ``params`` equal the committed ``<name>.npz`` bit for bit (None when nothing is committed; False,
    saying so, when the committed file cannot be read: a truncated file is then replaced, not a traceback after the
    training)."""
    path = TRAINED_DIR / f"{name}.npz"
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            return set(saved.files) == set(params) and all(
                saved[k].dtype == params[k].dtype and np.array_equal(saved[k], params[k]) for k in params
            )
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        print(f"{name}: the committed {path.name} cannot be read ({error}); it is replaced")
        return False


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m attention_workshop.train_committed", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(RUNS), help="train just this model")
    parser.add_argument(
        "--snapshots", action="store_true", help=f"also write trained/snapshots/<name>.json for {list(SNAPSHOT_RUNS)}"
    )
    args = parser.parse_args(argv)
    for name, cfg in RUNS.items():
        if args.only and name != args.only:
            continue
        splits = splits_for(cfg)
        recorder = None
        if args.snapshots and name in SNAPSHOT_RUNS:
            recorder = SnapshotRecorder(snapshot_sentences(splits.test), splits.valid)
        result = train(cfg, splits, snapshot=recorder, snapshot_every=SNAPSHOT_EVERY)
        model = in_eval_dtype(result.model)  # the book evaluates committed models in float64 (trained.py)
        ev = evaluate(model, splits.test)
        gaps = decision_gaps(model, splits.test)
        train_cfg = dataclasses.asdict(cfg)
        train_cfg.pop("model")
        blas = [f"{i.get('internal_api')} {i.get('version')} {i.get('architecture')}" for i in threadpool_info()]
        record = {
            "command": f"python -m attention_workshop.train_committed --only {name}",
            "train_config": train_cfg,
            "steps": result.steps,
            "losses": [round(float(x), 6) for x in result.losses],
            "checks": [[step, round(acc, 6)] for step, acc in result.checks],
            "eval_dtype": model.cfg.dtype,
            "test_counts": dataclasses.asdict(ev),
            "smallest_gap": float(f"{gaps.smallest():.3g}"),  # of the counted decisions (margins.py)
            "made_with": {"numpy": np.__version__, "python": platform.python_version(), "blas": blas},
        }
        same = same_as_committed(name, result.model.params)
        if same is not None:
            print(f"{name}: parameters bit for bit equal to the committed ones: {'yes' if same else 'NO'}")
        npz, meta = save_trained(name, result.model, record, TRAINED_DIR)
        if recorder is not None:
            command = f"python -m attention_workshop.train_committed --only {name} --snapshots"
            path = save_snapshots(name, recorder.record(name, command))
            kib, n = path.stat().st_size / 1024, len(recorder.steps)
            print(f"{name}: wrote snapshots/{path.name} ({kib:.0f} KiB, {n} snapshots)")
        print(f"{name}: wrote {npz.name} ({npz.stat().st_size / 1024:.0f} KiB) and {meta.name}")
        print(report(ev, cfg.model.attention, result.steps))


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.train_committed"))
