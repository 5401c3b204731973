"""The seed study of lessons 07 and 08: every design, both target languages, many seeds.

    nice .venv/bin/python -m attention_workshop.seed_study              # writes results/seed_study.json, on every core
    nice .venv/bin/python -m attention_workshop.seed_study --jobs 1     # the same file, one run after another
    .venv/bin/python -m attention_workshop.seed_study --backend dask --scheduler tcp://HOST:8786   # on a Dask cluster

How long it takes: the study makes 112 runs (4 designs x 2 target languages x 14 seed points, below), each in one
process with BLAS pinned to one thread. One attention run takes about 14.5 s (measured; a fixed-summary run takes
less), so one after another the study takes about 112 x 14.5 s, roughly 27 minutes; the runs are independent, so
joblib spreads them over the cores (two runs on two cores took 1/1.98 of the serial time), or over a Dask cluster's
workers, and keeps their results in order: the JSON is the same byte for byte however the runs were spread. This is
the one place the book states that time.

Each run (:func:`attention_core.models.study.run_point`) is one training with the lesson-07 recipe
(:class:`TrainConfig` defaults: data sizes, 1,000 steps, optimiser and schedule), for every design of ``DESIGNS``
(lesson 07's attention model and fixed-summary baseline, lesson 08's general-score and Luong decoders), on both
target languages, at the points ``POINTS`` of :mod:`attention_core.models.study`:

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
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

from joblib import Parallel, delayed, parallel_config

from attention_core.models import data
from attention_core.models.study import DATA_SEEDS, TRAIN_SEEDS, compact_json, points_of, record, run_point
from attention_core.models.sweep import DESIGNS, STUDY_FILE, smallest_gap
from attention_workshop.command import Failure, OneLineParser
from attention_workshop.command import run as run_command


def study(points, steps: int | None = None, jobs: int = -1, progress=None) -> list[dict]:
    """Train and evaluate every point, ``jobs`` at a time (-1: every core; joblib's backend decides where), and
    return their records in the order of ``points``."""
    runs = []
    tasks = (delayed(run_point)(*point, steps=steps) for point in points)
    for run in Parallel(n_jobs=jobs, return_as="generator")(tasks):  # results come back in order
        runs.append(run)
        if progress is not None:
            progress(run)
    return runs


PROG = "python -m attention_workshop.seed_study"


def _seeds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative; seeds are 0 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=STUDY_FILE, help="where to write the JSON")
    parser.add_argument("--jobs", type=int, default=-1, help="runs at a time (-1: one per core; 1: one after another)")
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky", help="where the runs go (joblib)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (with --backend dask; else a local cluster)")
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS), metavar="DESIGN", help=f"of {list(DESIGNS)}")
    parser.add_argument("--languages", nargs="+", default=list(data.LANGUAGES), metavar="LANGUAGE")
    parser.add_argument("--train-seeds", nargs="*", type=_seeds, default=list(TRAIN_SEEDS), metavar="SEED")
    parser.add_argument("--data-seeds", nargs="*", type=_seeds, default=list(DATA_SEEDS), metavar="SEED")
    parser.add_argument("--steps", type=int, help="optimiser steps per run (default: the recipe's)")
    return parser


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before the first run, whatever would make the study fail or lie: one line and exit status 2."""
    for name, given, known in (("design", args.designs, DESIGNS), ("language", args.languages, data.LANGUAGES)):
        unknown = [x for x in given if x not in known]
        if unknown:
            parser.error(f"unknown {name} {unknown[0]!r}; choose from {list(known)}")
        if len(set(given)) < len(given):
            parser.error(f"a {name} is named twice in {given}")
    for name, seeds in (("--train-seeds", args.train_seeds), ("--data-seeds", args.data_seeds)):
        if len(set(seeds)) < len(seeds):
            parser.error(f"{name}: a seed is named twice in {seeds}")
    if not args.train_seeds and not [d for d in args.data_seeds if d != 0]:
        parser.error("no runs: give at least one training seed or one data seed other than 0")
    if args.jobs == 0:
        parser.error("--jobs 0 runs nothing; use -1 for every core or a positive number")
    if args.steps is not None and args.steps < 1:
        parser.error(f"--steps must be at least 1, got {args.steps}")
    if args.scheduler and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    if args.out.is_dir():
        parser.error(f"--out {args.out} is a folder; name the JSON file")
    if args.out.exists() and not args.out.is_file():  # /dev/full: found out only after the last run
        parser.error(f"--out {args.out} is not a regular file; name the JSON file")
    try:  # the file is written after the last run: find out now whether it can be
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=args.out.parent, prefix=".seed_study-"):
            pass
    except OSError as exc:
        parser.error(f"--out {args.out}: cannot write there ({exc.strerror})")


@contextlib.contextmanager
def backend(name: str, scheduler: str | None, jobs: int):
    """joblib's default process pool, or a Dask cluster (the one at ``scheduler``, else a local one)."""
    if name == "loky":
        yield
        return
    from dask.distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if scheduler:
            try:
                client = stack.enter_context(Client(scheduler))
            except (OSError, ValueError) as exc:  # unreachable (a timeout), or not an address ("missing port")
                raise Failure(f"--scheduler {scheduler}: no Dask scheduler there ({exc})") from None
        else:
            workers = os.cpu_count() if jobs < 0 else jobs
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        stack.enter_context(parallel_config(backend="dask"))
        print(f"running on {client.scheduler.address}", file=sys.stderr)
        yield


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    check_args(parser, args)
    points = points_of(args.designs, args.languages, args.train_seeds, args.data_seeds)
    started = time.perf_counter()

    def progress(run: dict) -> None:
        extra = f", alignment {run['alignment']:.4f}" if "alignment" in run else ""
        print(
            f"{run['language']:10s} {run['design']:13s} data {run['data_seed']} seed {run['seed']}: token "
            f"{run['token']:.4f}, exact {run['exact']:.4f}{extra}, smallest gap {smallest_gap(run):.2e}",
            file=sys.stderr,
        )

    with backend(args.backend, args.scheduler, args.jobs):
        runs = study(points, args.steps, args.jobs, progress)
    out = record(runs, args.designs, args.languages, args.train_seeds, args.data_seeds, args.steps)
    try:
        args.out.write_text(compact_json(out) + "\n")
    except OSError as exc:
        print(f"{PROG}: error: could not write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {len(runs)} runs in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(run_command(main, PROG))
