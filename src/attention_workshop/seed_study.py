"""The seed study of lessons 07 and 08: every design, both target languages, many seeds.

    nice .venv/bin/python -m attention_workshop.seed_study              # writes results/seed_study.json, on every core
    nice .venv/bin/python -m attention_workshop.seed_study --jobs 1     # the same file, one run after another
    .venv/bin/python -m attention_workshop.seed_study --backend dask --scheduler tcp://HOST:8786   # on a Dask cluster

How long it takes: the study makes 196 runs (7 designs x 2 target languages x 14 seed points, below), each in one
process with BLAS pinned to one thread. One attention run with lesson 07's recurrent encoder takes about 14.5 s
(measured; a fixed-summary run takes less) and one with lesson 09's self-attention encoder about 40 s, so one after
another the study takes about 112 x 14.5 s + 84 x 40 s, roughly 83 minutes; the runs are independent, so
joblib spreads them over the cores (two runs on two cores took 1/1.98 of the serial time), or over a Dask cluster's
workers, and the file lists the runs in the order of their points whatever order they finish in: the JSON is the
same byte for byte however the runs were spread. This is the one place the book states that time.

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

Nothing finished is lost, whatever stops the study:

- **Each run is kept as it finishes**, in a folder beside the results (``results/seed_study.runs/`` for
  ``results/seed_study.json``; :func:`runs_folder`), one JSON file per run, written whole and renamed
  (:mod:`attention_core.files`) by the study's own process as the run comes back, in whatever order the runs
  finish. The same command run again trains only the runs still missing and writes the same results file, byte
  for byte (the file is made from the kept runs, in the order of the points). A kept run counts only if it was
  made with the same recipe (its configuration) and the same code (:func:`fingerprint`: the package's source,
  numpy's version, the BLAS library and the CPU features numpy uses); any other is trained again, and the study
  says how many. Delete the folder to train every run again.
- **A lost worker costs the runs in flight.** joblib's process pool cannot go on after one of its workers dies
  (killed for memory, say): the study starts a new pool for the runs still missing, at most :data:`RETRIES` times
  in a row without a run finishing in between, and then stops with one line, keeping what finished. On a Dask
  cluster the scheduler itself gives a lost worker's run to another worker (up to Dask's
  ``distributed.scheduler.allowed-failures``, then the study stops the same way).
- **Stopping the study stops its workers.** Ctrl-C or SIGTERM ends the study at once with one line (status 130
  or 143) and joblib ends its workers (a Dask local cluster is closed); a worker whose study was killed outright
  (SIGKILL) sees within a second that its parent is gone and exits (:func:`_exit_with_study`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky.process_executor import TerminatedWorkerError

import attention_core
from attention_core import files
from attention_core.models import data
from attention_core.models.study import (
    DATA_SEEDS,
    TRAIN_SEEDS,
    compact_json,
    config_of,
    points_of,
    record,
    run_point,
)
from attention_core.models.sweep import DESIGNS, STUDY_FILE, smallest_gap
from attention_workshop.command import Failure, OneLineParser
from attention_workshop.command import run as run_command

RETRIES = 3  # new process pools in a row after a lost worker, with no run finishing in between, before stopping
PACKAGE = Path(attention_core.__file__).resolve().parent  # attention_core/: its source is part of a run's identity


class StudyStopped(RuntimeError):
    """The study cannot go on (its workers keep dying); the runs that finished are kept."""


class Stopped(KeyboardInterrupt):
    """SIGTERM, raised as Ctrl-C's exception is, so that joblib ends its workers (and Dask its cluster) the same
    way for both."""


def fingerprint() -> str:
    """What a run's figures depend on besides its configuration: the package's source (every ``.py`` file of
    ``attention_core``, by name and content), numpy's version, the BLAS library (its kernel included:
    ``OPENBLAS_CORETYPE`` changes it) and the CPU features numpy's own kernels use. Two runs with the same
    configuration and fingerprint are the same run, bit for bit (BLAS on one thread). A hex digest of 32 digits."""
    from threadpoolctl import threadpool_info

    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    blas = sorted((i.get("internal_api"), i.get("version"), i.get("architecture")) for i in threadpool_info())
    features = sorted(name for name, on in cpu_features().items() if on)
    h.update(f"{np.__version__} {blas} {features}".encode())
    return h.hexdigest()[:32]


def cpu_features() -> dict:
    """The CPU features numpy's own kernels use here (``NPY_DISABLE_CPU_FEATURES`` turns some off)."""
    from numpy._core._multiarray_umath import __cpu_features__

    return dict(__cpu_features__)


def runs_folder(out: Path) -> Path:
    """Where the study keeps its finished runs: beside the results file (``results/seed_study.runs/``)."""
    return out.with_name(f"{out.stem}.runs")


def point_of(run: dict) -> tuple[str, str, int, int]:
    """The point ``(design, language, seed, data_seed)`` a run's record was made for."""
    return run["design"], run["language"], run["seed"], run["data_seed"]


class Journal:
    """The finished runs of a study with ``steps`` optimiser steps per run (None: the recipe's), one JSON file per
    run in ``folder``: ``{"key": ..., "run": ...}``, the run's record as the results file holds it and what it was
    made from (:meth:`key`)."""

    def __init__(self, folder: Path, steps: int | None = None):
        self.folder, self.steps, self.code = Path(folder), steps, fingerprint()

    def path(self, point) -> Path:
        design, language, seed, data_seed = point
        steps = config_of(design, steps=self.steps).steps
        return self.folder / f"{language}-data{data_seed}-{design.replace(' ', '_')}-seed{seed}-steps{steps}.json"

    def key(self, point) -> dict:
        """What the run of ``point`` is made from: its whole configuration and the code's :func:`fingerprint` (as
        JSON reads it back)."""
        cfg = dataclasses.asdict(config_of(*point, steps=self.steps))
        return json.loads(json.dumps({"config": cfg, "code": self.code}))

    def kept(self, points) -> tuple[dict, list[str]]:
        """The runs of ``points`` already kept, by point, and one line for each kept file that cannot be used (it
        does not read as a kept run, or another recipe or code made it): those runs are trained again."""
        runs, skipped, other = {}, [], 0
        for point in points:
            path = self.path(point)
            try:
                kept = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                continue
            except (OSError, UnicodeError, ValueError) as error:
                skipped.append(f"{path}: not a kept run ({type(error).__name__}: {error}); it is trained again")
                continue
            if not (isinstance(kept, dict) and isinstance(kept.get("run"), dict) and "key" in kept):
                skipped.append(f"{path}: not a kept run (no key and run); it is trained again")
            elif kept["key"] != self.key(point) or point_of(kept["run"]) != tuple(point):
                other += 1
            else:
                runs[tuple(point)] = kept["run"]
        if other:
            skipped.append(f"{other} kept run(s) in {self.folder} were made by other code or settings; trained again")
        return runs, skipped

    def keep(self, run: dict) -> Path:
        """Keep a finished run (written whole, then renamed: a kill leaves the old file or the new one)."""
        point = point_of(run)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(point)
        files.write_text(path, json.dumps({"key": self.key(point), "run": run}) + "\n")
        return path


def adopt(journal: Journal, out: Path, points) -> int:
    """Keep in ``journal`` every run of the results file ``out`` whose point is among ``points`` and not yet kept
    (``--adopt``); the number adopted. A file that does not read as results is one line (:class:`Failure`)."""
    if not out.exists():
        return 0
    try:
        runs = json.loads(out.read_text(encoding="utf-8"))["runs"]
        found = {point_of(run): run for run in runs}
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as error:
        raise Failure(f"--adopt: {out} does not read as a study's results ({type(error).__name__}: {error})") from None
    kept = journal.kept(points)[0]
    wanted = [tuple(p) for p in points if tuple(p) in found and tuple(p) not in kept]
    for point in wanted:
        journal.keep(found[point])
    return len(wanted)


def _exit_with_study(study_pid: int) -> None:
    """In a worker process the study started (joblib's loky pool), a watchdog thread that ends the worker within
    a second of its study's death: a study killed outright (SIGKILL) cannot end its workers itself, and a worker
    would otherwise finish its run and compute on for minutes. One thread per process (found by its name); none in
    the study's own process (``--jobs 1``) nor in a Dask worker, whose parent is not the study."""
    if os.getpid() == study_pid or os.getppid() != study_pid:
        return
    if any(thread.name == "exit-with-study" for thread in threading.enumerate()):
        return

    def watch() -> None:
        while os.getppid() == study_pid:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-study", daemon=True).start()


def _task(design: str, language: str, seed: int, data_seed: int, steps: int | None, study_pid: int) -> dict:
    """One run where joblib sends it (:func:`run_point`), its worker bound to the study (:func:`_exit_with_study`).
    Run as ``python -m``, this module is ``__main__``, which a worker cannot import: joblib then sends these two
    functions by value (cloudpickle), so they hold no state of their own."""
    _exit_with_study(study_pid)
    return run_point(design, language, seed, data_seed, steps=steps)


def study(
    points, steps: int | None = None, jobs: int = -1, progress=None, journal: Journal | None = None
) -> list[dict]:
    """Train and evaluate every point not yet kept in ``journal``, ``jobs`` at a time (-1: every core; joblib's
    backend decides where), keeping each run as it finishes; return the records in the order of ``points``.

    A worker that dies ends joblib's pool with ``TerminatedWorkerError``: the runs still missing go to a new pool,
    at most :data:`RETRIES` times in a row without a run finishing; then :class:`StudyStopped`."""
    points = [tuple(p) for p in points]
    done = journal.kept(points)[0] if journal is not None else {}
    lost = 0
    while len(done) < len(points):
        todo = [p for p in points if p not in done]
        tasks = (delayed(_task)(*point, steps, os.getpid()) for point in todo)
        try:
            for run in Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks):  # as each run finishes
                if journal is not None:
                    journal.keep(run)
                done[point_of(run)] = run
                lost = 0
                if progress is not None:
                    progress(run)
        except TerminatedWorkerError:
            lost += 1
            missing = len(points) - len(done)
            if lost > RETRIES:
                raise StudyStopped(f"{lost} worker processes died in a row with no run finishing") from None
            print(
                f"{PROG}: a worker process died; the runs in flight start again ({missing} runs to go)", file=sys.stderr
            )
    return [done[p] for p in points]


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
    parser.add_argument(
        "--adopt",
        action="store_true",
        help="count the runs --out already holds as kept, whatever code made them: after a change to the package "
        "that leaves those designs' runs as they were (a new design); their test counts are checked by "
        "tests/models/test_seed_study.py, which retrains one run",
    )
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
    folder = runs_folder(args.out)
    if folder.exists() and not folder.is_dir():
        parser.error(f"{folder} (where the finished runs are kept) is not a folder")
    try:  # each run is kept as it finishes and the file written after the last: find out now whether they can be
        for where in (args.out.parent, folder):
            where.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=where, prefix=".seed_study-"):
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
    journal = Journal(runs_folder(args.out), args.steps)
    if args.adopt:
        adopted = adopt(journal, args.out, points)
        print(f"{PROG}: {adopted} runs of {args.out} adopted as kept", file=sys.stderr)
    kept, skipped = journal.kept(points)
    for line in skipped:
        print(f"{PROG}: {line}", file=sys.stderr)
    if kept:
        print(f"{PROG}: {len(kept)} of {len(points)} runs already kept in {journal.folder}", file=sys.stderr)

    def progress(run: dict) -> None:
        extra = f", alignment {run['alignment']:.4f}" if "alignment" in run else ""
        print(
            f"{run['language']:10s} {run['design']:13s} data {run['data_seed']} seed {run['seed']}: token "
            f"{run['token']:.4f}, exact {run['exact']:.4f}{extra}, smallest gap {smallest_gap(run):.2e}",
            file=sys.stderr,
        )

    def stopped(why: str) -> str:
        kept = len(journal.kept(points)[0])
        return f"{PROG}: {why}; {kept} of {len(points)} runs kept in {journal.folder}: the same command resumes"

    signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        with backend(args.backend, args.scheduler, args.jobs):
            runs = study(points, args.steps, args.jobs, progress, journal)
    except KeyboardInterrupt as stop:
        print(stopped("stopped by SIGTERM" if isinstance(stop, Stopped) else "interrupted"), file=sys.stderr)
        return 143 if isinstance(stop, Stopped) else 130
    except StudyStopped as error:
        print(stopped(str(error)), file=sys.stderr)
        return 1
    except Exception as error:  # Dask gave up on a run whose workers kept dying (its allowed-failures)
        if type(error).__name__ != "KilledWorker":
            raise
        print(stopped(f"Dask lost the workers of a run too often ({error})"), file=sys.stderr)
        return 1
    out = record(runs, args.designs, args.languages, args.train_seeds, args.data_seeds, args.steps)
    try:
        files.write_text(args.out, compact_json(out) + "\n")
    except OSError as exc:
        print(f"{PROG}: error: could not write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {len(runs)} runs in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


def _raise_stopped(signum, frame) -> None:
    raise Stopped()


if __name__ == "__main__":
    sys.exit(run_command(main, PROG))
