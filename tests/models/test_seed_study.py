"""results/seed_study.json: complete, consistent with the committed models, and what lessons 07 and 08 claim from it.

The file is what ``attention_workshop.seed_study`` wrote (one run per design, language, training seed and data seed,
trained in float32 and evaluated in float64). These tests read it; one slow test retrains a run and checks that
it lands inside the range the file records (``make test`` runs it, ``make check`` does not).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import psutil
import pytest

from attention_core.models import data
from attention_core.models import study as SCRIPT  # what src/attention_workshop/seed_study.py trains, one run at a time
from attention_core.models.designs import named
from attention_core.models.sweep import (
    DESIGNS,
    STUDY_FILE,
    accuracy_by_length,
    alignment_misses_of,
    evaluation,
    figure,
    load_length_sweep,
    load_seed_study,
    runs,
    smallest_gap,
    spread,
    summarise,
)
from attention_core.models.train import BUCKETS, Evaluation
from attention_core.models.trained import (
    LESSON07,
    LESSON08_LUONG,
    LESSON08_SWAPPED,
    VERB_FINAL,
    VERB_FINAL_BASELINE,
    trained_config,
    trained_record,
)
from attention_workshop import seed_study
from tests.helpers import ROOT

STUDY = load_seed_study()
LANGUAGES = tuple(data.LANGUAGES)
ATTENTION = [d for d in DESIGNS if named(d).aligns]  # the designs whose weights name positions
STUDY_SCRIPT = ROOT / "src" / "attention_workshop" / "seed_study.py"


# --- the file ---------------------------------------------------------------------------------------------------
def test_every_design_language_and_seed_was_run_once():
    points = sorted(SCRIPT.POINTS)
    assert len(SCRIPT.TRAIN_SEEDS) >= 5 and len(SCRIPT.DATA_SEEDS) >= 1
    assert STUDY["languages"] == list(LANGUAGES) and STUDY["designs"] == DESIGNS
    for language in LANGUAGES:
        for design in DESIGNS:
            done = sorted((r["data_seed"], r["seed"]) for r in runs(STUDY, language, design))
            assert done == points, (language, design)
    assert len(STUDY["runs"]) == len(LANGUAGES) * len(DESIGNS) * len(points)


def test_every_figure_is_the_one_its_counts_give_and_the_summary_is_recomputable():
    for run in STUDY["runs"]:
        ev = evaluation(run)
        assert ev.lengths[-1] <= data.MAX_LEN and sum(ev.sentences) == STUDY["config"]["n_test"]
        keys = ("token", "exact", "alignment") if named(run["design"]).aligns else ("token", "exact")
        for key in keys:
            assert run[key] == pytest.approx(figure(run, key), abs=5e-5)
            for lo, hi in BUCKETS:
                assert run["buckets"][f"{lo}-{hi}"][key] == pytest.approx(figure(run, key, lo, hi), abs=5e-5)
        assert ("misreads" in run) == named(run["design"]).aligns
        assert run["steps"] == STUDY["config"]["steps"]
    for language in LANGUAGES:
        for design in DESIGNS:
            assert STUDY["summary"][language][design] == summarise(runs(STUDY, language, design))


@pytest.mark.parametrize(
    "name, design", [(LESSON07, "attention"), (LESSON08_SWAPPED, "general score"), (LESSON08_LUONG, "Luong"),
                     (VERB_FINAL, "attention"), (VERB_FINAL_BASELINE, "fixed summary")],
)  # fmt: skip
def test_the_committed_models_are_runs_of_the_study(name, design):
    # Same recipe and seeds, trained on the same machine: the study's run gives the committed model's counts
    # exactly, so what the lessons print from the study and from the committed parameters agree.
    cfg = trained_config(name)
    assert cfg == SCRIPT.config_of(design, cfg.language, cfg.seed, cfg.data_seed)
    (run,) = [r for r in runs(STUDY, cfg.language, design, cfg.data_seed) if r["seed"] == cfg.seed]
    assert run["counts"] == trained_record(name)["test_counts"]
    assert run["first_loss"] == trained_record(name)["losses"][0]


def test_no_run_has_a_decision_near_a_tie_in_float64():
    # The margins of margins.py hold for every run in float64; in float32 most runs would not keep them.
    assert all(smallest_gap(r) >= STUDY["margin"] and r["near_ties"] == [] for r in STUDY["runs"])
    float32 = [smallest_gap(r, "float32") for r in STUDY["runs"] if r["design"] == "attention"]
    assert np.mean(np.array(float32) < 1e-3) > 0.5


# --- the loaders, on made-up runs (independent of the file) -----------------------------------------------------
def _run(design, seed, tokens_right, align_right=None, language="svo", data_seed=0):
    ev = Evaluation([5, 12, 25], [2, 2, 2], [12, 26, 52], tokens_right, [1, 1, 0], align_right or [0, 0, 0])
    run = {"design": design, "language": language, "data_seed": data_seed, "seed": seed,
           "counts": dataclasses.asdict(ev), "gaps": {"float64": {"greedy": 0.5, "alignment": None}}}  # fmt: skip
    for key in ("token", "exact", "alignment"):
        run[key] = round(getattr(ev, f"{key}_accuracy")(), 4)
    run["buckets"] = {f"{lo}-{hi}": {"token": 0.0, "exact": 0.0} for lo, hi in BUCKETS}
    return run


def test_spread_and_accuracy_by_length_on_made_up_runs():
    made_up = {
        "languages": ["svo"],
        "runs": [_run("fixed summary", 0, [12, 13, 13]), _run("fixed summary", 1, [6, 26, 0])],
    }
    chosen = runs(made_up, "svo", "fixed summary")
    assert spread(chosen, "token") == {"mean": (38 / 90 + 32 / 90) / 2, "min": 32 / 90, "max": 38 / 90, "runs": 2}
    assert spread(chosen, "token", 11, 20) == {"mean": 0.75, "min": 0.5, "max": 1.0, "runs": 2}
    curves = accuracy_by_length(made_up, "svo", "fixed summary")
    assert curves["lengths"] == [5, 12, 25]
    assert curves["token"]["mean"] == [0.75, 0.75, 0.125] and curves["token"]["min"] == [0.5, 0.5, 0.0]
    assert curves["exact"]["max"] == [0.5, 0.5, 0.0]
    with pytest.raises(ValueError, match="design must be one of"):
        runs(made_up, "svo", "transformer")
    with pytest.raises(ValueError, match="language must be one of"):
        runs(made_up, "verb_final", "attention")
    with pytest.raises(ValueError, match="key must be"):
        figure(chosen[0], "bleu")


def test_missing_study_file_says_how_to_make_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="attention_workshop.seed_study"):
        load_seed_study(tmp_path / "absent.json")


def _study_file(tmp_path, how: str):
    """A copy of the committed study, spoilt as ``how`` says, and its path."""
    text = STUDY_FILE.read_text(encoding="utf-8")
    study = load_seed_study()
    path = tmp_path / "seed_study.json"
    if how == "truncated":
        path.write_text(text[: len(text) // 2], encoding="utf-8")
    elif how == "empty":
        path.write_text("", encoding="utf-8")
    elif how == "a list":
        path.write_text("[]", encoding="utf-8")
    elif how == "no runs":
        path.write_text(json.dumps({**study, "runs": None}), encoding="utf-8")
    elif how == "a run without counts":
        del study["runs"][3]["counts"]
        path.write_text(json.dumps(study), encoding="utf-8")
    elif how == "attention only":  # a study made with --designs attention: no fixed summary for lesson 07's view
        study["runs"] = [r for r in study["runs"] if r["design"] == "attention"]
        path.write_text(json.dumps(study), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("truncated", "is not readable JSON"),
        ("empty", "is not readable JSON"),
        ("a list", "is not a seed study"),
        ("no runs", 'no list of "runs"'),
        ("a run without counts", "has a run (number 3) without counts"),
        ("attention only", "has no run of 'fixed summary' on 'svo' with data seed 0"),
    ],
)
def test_a_truncated_or_partial_study_is_an_error_naming_the_file(tmp_path, how, says):
    """Each was a JSONDecodeError, a TypeError or a KeyError naming neither the file nor what was missing."""
    path = _study_file(tmp_path, how)
    for read in (load_seed_study, load_length_sweep) if how != "attention only" else (load_length_sweep,):
        with pytest.raises(ValueError) as info:
            read(path)
        assert str(info.value).startswith(f"{path} ") and says in str(info.value), info.value
        assert "attention_workshop.seed_study" in str(info.value)


def test_the_sweep_helpers_name_the_design_the_language_or_the_run_they_lack():
    study = load_seed_study()
    attention_only = {**study, "runs": [r for r in study["runs"] if r["design"] == "attention"]}
    fixed = next(r for r in study["runs"] if r["design"] == "fixed summary")
    no_gap = {**fixed, "gaps": {"float64": {"greedy": None, "alignment": None}}}
    named = "the run of 'fixed summary' on 'svo' (data seed 0, seed 0)"
    for call, says in (
        (lambda: accuracy_by_length(attention_only, "svo", "fixed summary"), "no run of 'fixed summary' on 'svo'"),
        (lambda: runs({"runs": []}), 'the study is not a seed study: a JSON object with a list of "languages"'),
        (lambda: summarise([]), "summarise needs at least one run"),
        (lambda: smallest_gap(no_gap), f"{named} has no float64 decision gap"),
        (lambda: smallest_gap(fixed, "float16"), "dtype must be one of ['float64', 'float32'], got 'float16'"),
        (lambda: figure(fixed, "determiner_misread"), f"determiner_misread: {named} has no misreads"),
        (lambda: alignment_misses_of(fixed), f"{named} has no misreads"),
        (lambda: SCRIPT.config_of("bogus"), "design must be one of ['attention', 'fixed summary'"),
        (lambda: SCRIPT.record([], ["bogus"], ["svo"], [0], [], None), "got 'bogus'"),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert says in str(info.value), info.value


# --- lesson 07's length experiment, read from the study -------------------------------------------------------
def test_the_length_sweep_view_holds_the_lesson_07_runs():
    sweep = load_length_sweep()
    assert sweep["seeds"] == list(SCRIPT.TRAIN_SEEDS)
    assert {r["model"] for r in sweep["runs"]} == {"attention", "fixed summary"}
    assert len(sweep["runs"]) == 2 * len(sweep["seeds"])
    assert sweep["lengths"][0] >= 1 and sweep["lengths"][-1] == 30
    for label in ("attention", "fixed summary"):
        assert len(sweep["mean"][label]["token"]) == len(sweep["lengths"])
        assert set(sweep["mean"][label]["buckets"]) == {"1-10", "11-20", "21-30"}
    lesson = next(r for r in sweep["runs"] if r["model"] == "attention" and r["seed"] == trained_config().seed)
    committed = Evaluation(**trained_record(LESSON07)["test_counts"])
    for key in ("token", "exact", "alignment"):
        assert lesson[key] == round(getattr(committed, f"{key}_accuracy")(), 4)
    (run,) = [r for r in runs(STUDY, "svo", "attention", 0) if r["seed"] == trained_config().seed]
    assert lesson["alignment_misses"] == alignment_misses_of(run)


# --- the slow check: one run again --------------------------------------------------------------------------------
RETRAIN_TOL = 0.01  # widening of the recorded range for another machine's rounding (LIVE_TOLERANCE's reasoning)


@pytest.mark.slow  # retrains one run (about 16 CPU-seconds)
def test_one_run_retrained_lands_inside_the_recorded_range():
    # The verb-final fixed-summary model with training seed 3: on this machine it reproduces its record exactly; on
    # another, training rounds differently and the run may land elsewhere, but within the spread of the seeds.
    # The cheapest design of the study (16 CPU-seconds against 29 for the attention run this test retrained before,
    # measured one after another on one machine): it checks the token and exact figures, overall and per length.
    # An attention run with its alignment is retrained in the gate already: lesson 07 trains its committed recipe
    # live (the attention run on "svo", data seed 0, seed 0; read back from tests/run_cache.py when this machine
    # already made it with the same code) and its live_check asserts token, exact and alignment within
    # LIVE_TOLERANCE of the committed model, which is that run of the study (test_the_committed_models_are_runs_of_
    # the_study).
    stored = next(r for r in runs(STUDY, "verb_final", "fixed summary", 0) if r["seed"] == 3)
    fresh = SCRIPT.run_point("fixed summary", "verb_final", seed=3)
    assert fresh["steps"] == stored["steps"]
    chosen = runs(STUDY, "verb_final", "fixed summary")
    for key in ("token", "exact"):
        s = spread(chosen, key)
        assert s["min"] - RETRAIN_TOL <= fresh[key] <= s["max"] + RETRAIN_TOL, (key, fresh[key], s)
        for lo, hi in BUCKETS:
            b = spread(chosen, key, lo, hi)
            got = fresh["buckets"][f"{lo}-{hi}"][key]
            assert b["min"] - RETRAIN_TOL <= got <= b["max"] + RETRAIN_TOL, (key, lo, hi, got, b)


def test_the_scripts_docstring_counts_the_runs_it_makes():
    # attention_workshop.seed_study states the study's run time once, from its number of runs (issue 29): 196 runs
    # since lesson 09's three designs (issue 46).
    n = len(SCRIPT.POINTS) * len(DESIGNS) * len(LANGUAGES)
    assert n == 196 and f"makes {n} runs" in STUDY_SCRIPT.read_text(encoding="utf-8")


# --- the command line: every core or a cluster, the same file; bad arguments refused before the first run -------
TINY = ["--designs", "fixed summary", "--languages", "svo", "--train-seeds", "0", "1", "--data-seeds", "--steps", "2"]


def study_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "attention_workshop.seed_study", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow  # one tiny run on a local Dask cluster of one worker process
def test_the_study_writes_the_same_file_however_its_runs_are_spread(tmp_path, tiny_runs):
    # The same file as the run made in this process (tiny_runs), from a local Dask cluster of one worker process (the
    # cluster's path; one run is enough: a worker of one thread takes its runs one after another). The other ways
    # are checked below on the same tiny runs, not here again: on two processes with joblib's own pool (the
    # SIGKILL test's study ends on a new pool of two; the SIGTERM test's study keeps runs from a pool of two) and one
    # after another from the command line (the SIGTERM test's resumed study, --jobs 1, trains the runs still
    # missing), each giving the bytes of the three runs made in this process.
    out = tmp_path / "dask.json"
    one = [arg for arg in TINY if arg != "1"]  # training seed 0 alone
    run = study_command(*one, "--jobs", "1", "--backend", "dask", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert out.read_text(encoding="utf-8") == tiny_file(tiny_runs, 1)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--designs", "bogus"], "unknown design 'bogus'"),
        (["--languages", "svo", "svo"], "named twice"),
        (["--train-seeds", "-1"], "'-1' is negative"),
        (["--train-seeds", "--data-seeds"], "no runs"),
        (["--jobs", "0"], "--jobs 0 runs nothing"),
        (["--steps", "0"], "--steps must be at least 1"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
        (["--out", "/proc/no/such.json"], "cannot write there"),
        (["--out", "/tmp"], "is a folder"),
        (["--out", "/dev/null"], "is not a regular file"),  # /dev/full was found out after the last run
    ],
)
def test_a_bad_argument_is_one_line_before_any_run(args, says, capsys, monkeypatch):
    # In this process (the command line's own process is started by the Dask and SIGTERM tests below): the parser's
    # error is SystemExit(2), before any run is trained (the training is replaced by one that fails the test).
    monkeypatch.setattr(seed_study, "run_point", lambda *point, **how: pytest.fail(f"trained {point}"))
    with pytest.raises(SystemExit) as stop:
        seed_study.main(args)
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and err.count("\n") == 1 and says in err, err
    assert out == "" and "Traceback" not in err


# --- nothing lost: each run kept as it finishes, a lost worker retried, a stopped study resumed ------------------
def test_the_results_file_is_what_its_kept_runs_give_byte_for_byte(tmp_path, capsys):
    # The file the lessons read, made again from its own runs as the study keeps them (no training): the same bytes.
    out = tmp_path / "seed_study.json"
    journal = seed_study.Journal(seed_study.runs_folder(out))
    for run in STUDY["runs"]:
        journal.keep(run)
    assert seed_study.main(["--jobs", "1", "--out", str(out)]) == 0
    assert out.read_bytes() == STUDY_FILE.read_bytes()
    assert f"196 of 196 runs already kept in {journal.folder}" in capsys.readouterr().err


def _made_up_runs(monkeypatch, fail=lambda point, calls: False):
    """Replace the training with a made-up record per point; return the list of points trained, in order. ``fail``
    says when a call dies as a lost worker does (joblib's TerminatedWorkerError)."""
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    calls = []

    def made_up(design, language, seed, data_seed, steps=None):
        calls.append((design, language, seed, data_seed))
        if fail((design, language, seed, data_seed), calls):
            raise TerminatedWorkerError("a worker died")
        return {"design": design, "language": language, "data_seed": data_seed, "seed": seed, "token": seed / 10}

    monkeypatch.setattr(seed_study, "run_point", made_up)
    return calls


POINTS3 = SCRIPT.points_of(["fixed summary"], ["svo"], [0, 1, 2], [])


def test_each_run_is_kept_as_it_finishes_and_a_rerun_trains_only_what_is_missing(tmp_path, monkeypatch):
    calls = _made_up_runs(monkeypatch)
    journal = seed_study.Journal(tmp_path / "study.runs", steps=2)
    first = seed_study.study(POINTS3, 2, jobs=1, journal=journal)
    assert calls == POINTS3 and [seed_study.point_of(r) for r in first] == POINTS3
    assert sorted(p.name for p in journal.folder.iterdir()) == [
        f"svo-data0-fixed_summary-seed{s}-steps2.json" for s in (0, 1, 2)
    ]
    calls.clear()
    assert seed_study.study(POINTS3, 2, jobs=1, journal=journal) == first and calls == []
    journal.path(POINTS3[1]).unlink()
    assert seed_study.study(POINTS3, 2, jobs=1, journal=journal) == first and calls == [POINTS3[1]]
    # another number of steps is another run, kept apart
    calls.clear()
    seed_study.study(POINTS3, 3, jobs=1, journal=seed_study.Journal(journal.folder, steps=3))
    assert calls == POINTS3


def test_a_kept_run_of_other_code_or_an_unreadable_one_is_trained_again_and_said_once(tmp_path, monkeypatch):
    calls = _made_up_runs(monkeypatch)
    journal = seed_study.Journal(tmp_path / "study.runs", steps=2)
    seed_study.study(POINTS3, 2, jobs=1, journal=journal)
    journal.path(POINTS3[0]).write_text('{"key": {}, "ru', encoding="utf-8")  # a file from elsewhere, cut short
    other = seed_study.Journal(journal.folder, steps=2)
    other.code = "another package source"  # as after an edit of attention_core: every kept run is stale
    kept, said = other.kept(POINTS3)
    assert kept == {} and len(said) == 2, said
    assert said[0].startswith(f"{journal.path(POINTS3[0])}: not a kept run (JSONDecodeError")
    assert said[1] == f"2 kept run(s) in {journal.folder} were made by other code or settings; trained again"
    calls.clear()
    seed_study.study(POINTS3, 2, jobs=1, journal=other)
    kept, said = other.kept(POINTS3)
    assert calls == POINTS3 and len(kept) == 3 and said == []  # written anew, with this code's key


def test_a_lost_worker_costs_its_run_and_the_study_goes_on(tmp_path, monkeypatch, capsys):
    calls = _made_up_runs(monkeypatch, fail=lambda point, calls: point == POINTS3[1] and calls.count(point) == 1)
    journal = seed_study.Journal(tmp_path / "study.runs", steps=2)
    runs = seed_study.study(POINTS3, 2, jobs=1, journal=journal)
    assert [seed_study.point_of(r) for r in runs] == POINTS3 and calls == [
        POINTS3[0],
        POINTS3[1],
        POINTS3[1],
        POINTS3[2],
    ]
    assert capsys.readouterr().err.count("a worker process died; the runs in flight start again (2 runs to go)") == 1


def test_a_run_that_keeps_killing_its_worker_stops_the_study_keeping_what_finished(tmp_path, monkeypatch):
    calls = _made_up_runs(monkeypatch, fail=lambda point, calls: point == POINTS3[1])
    journal = seed_study.Journal(tmp_path / "study.runs", steps=2)
    with pytest.raises(seed_study.StudyStopped, match=f"{seed_study.RETRIES + 1} worker processes died in a row"):
        seed_study.study(POINTS3, 2, jobs=1, journal=journal)
    assert calls.count(POINTS3[1]) == seed_study.RETRIES + 1
    assert list(journal.kept(POINTS3)[0]) == [POINTS3[0]]


# The same with real processes and real signals, on tiny runs (two optimiser steps: a run is about 1.5 s of CPU).
TINY3 = [*TINY[: TINY.index("--data-seeds")], "2", *TINY[TINY.index("--data-seeds") :]]  # training seeds 0, 1, 2
LONG = [arg for arg in TINY if arg not in ("--steps", "2")]  # two runs of the whole recipe: about 8 s of CPU each


@pytest.fixture(scope="module")
def tiny_runs() -> list[dict]:
    """TINY3's three runs (training seeds 0, 1, 2), made one after another in this process, once for the module."""
    return [SCRIPT.run_point(*point, steps=2) for point in SCRIPT.points_of(["fixed summary"], ["svo"], [0, 1, 2], [])]


def tiny_file(runs: list[dict], n: int) -> str:
    """The results file of the first ``n`` of :func:`tiny_runs` (TINY3's three runs, or the first alone), as the
    study writes it."""
    seeds = [run["seed"] for run in runs[:n]]
    return SCRIPT.compact_json(SCRIPT.record(runs[:n], ["fixed summary"], ["svo"], seeds, [], 2)) + "\n"


def _study_process(args: list[str], out) -> subprocess.Popen:
    """The study on two loky workers, started as a reader's shell starts it (SIGINT not ignored), its stderr in a
    file beside ``out`` (a pipe would stay open as long as a worker lives); returned once both workers are up."""
    with open(f"{out}.stderr", "w") as err:  # a log in tmp_path
        process = subprocess.Popen(
            [sys.executable, "-m", "attention_workshop.seed_study", *args, "--jobs", "2", "--out", str(out)],
            stderr=err,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    _wait(lambda: len(_workers(process.pid)) == 2 or process.poll() is not None, "the study started no loky workers")
    return process


def _ended(process: subprocess.Popen, out, seconds: float) -> str:
    """What the study said once it ended (at most ``seconds`` from now)."""
    process.wait(timeout=seconds)
    return pathlib.Path(f"{out}.stderr").read_text(encoding="utf-8")


def _wait(done, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _workers(pid: int) -> list[psutil.Process]:
    try:
        children = psutil.Process(pid).children()
    except psutil.NoSuchProcess:
        return []
    return [c for c in children if "popen_loky_posix" in " ".join(c.cmdline())]


def _alive(processes) -> list[int]:
    def running(p):
        try:
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    return [p.pid for p in processes if running(p)]


def _cpu(process: psutil.Process) -> float:
    try:
        return process.cpu_times().user
    except psutil.NoSuchProcess:
        return 0.0


def _kept(out) -> list:
    return list(seed_study.runs_folder(out).glob("*.json"))


@pytest.mark.slow  # three tiny runs on two loky workers, one killed after the first run is kept (about 8 s of CPU)
def test_a_worker_killed_with_sigkill_costs_only_the_runs_in_flight(tmp_path, tiny_runs):
    out = tmp_path / "study.json"
    process = _study_process(TINY3, out)
    _wait(lambda: _kept(out), "no run was kept")
    _workers(process.pid)[0].kill()
    err = _ended(process, out, 120)
    assert process.returncode == 0, err
    (retry,) = [line for line in err.splitlines() if "a worker process died" in line]
    assert retry.endswith(("(1 runs to go)", "(2 runs to go)")), err  # the kept run is not trained again
    assert "Traceback" not in err and out.read_text(encoding="utf-8") == tiny_file(tiny_runs, 3)


@pytest.mark.slow  # two runs of the whole recipe on two loky workers, stopped after a second of training
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGKILL, -9)], ids=["SIGTERM", "SIGKILL"])
def test_stopping_the_study_stops_its_workers_at_once(tmp_path, sig, status):
    # Each worker is inside a run of about 8 s of CPU when the study is stopped: a worker left alone would compute on.
    # Ctrl-C (SIGINT) is not sent here as well: Python raises its KeyboardInterrupt where the study's SIGTERM handler
    # raises Stopped (a KeyboardInterrupt), so joblib ends the workers by the same code; its own status and line are
    # checked in this process (test_ctrl_c_and_sigterm_each_end_the_study_with_its_line_and_status).
    out = tmp_path / "study.json"
    process = _study_process(LONG, out)
    workers = _workers(process.pid)
    _wait(lambda: all(_cpu(w) > 1.5 for w in workers), "the workers did not start training")  # 1 s for the data
    process.send_signal(sig)
    err = _ended(process, out, 30)
    deadline = time.monotonic() + 3  # a worker whose study was killed outright sees it within a second
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _alive(workers)
    for worker in workers:  # never left computing, even when this test fails
        with contextlib.suppress(psutil.NoSuchProcess):
            worker.kill()
    assert not left, f"workers {left} still running 3 s after {sig.name}"
    assert process.returncode == status, err
    if sig != signal.SIGKILL:  # a study killed outright has no word to say
        why = "stopped by SIGTERM" if sig == signal.SIGTERM else "interrupted"
        line = f"{seed_study.PROG}: {why}; 0 of 2 runs kept in {seed_study.runs_folder(out)}: the same command resumes"
        assert err.splitlines()[-1:] == [line] and "Traceback" not in err, err


STOPS = [(KeyboardInterrupt, 130, "interrupted"), (seed_study.Stopped, 143, "stopped by SIGTERM")]


@pytest.mark.parametrize(("stop", "status", "why"), STOPS, ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_and_sigterm_each_end_the_study_with_its_line_and_status(
    stop, status, why, tmp_path, monkeypatch, capsys
):
    def stopped(*args, **kwargs):
        raise stop()

    monkeypatch.setattr(seed_study, "study", stopped)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # the study's SIGTERM handler stays out of pytest
    out = tmp_path / "study.json"
    assert seed_study.main([*TINY, "--out", str(out)]) == status
    line = f"{seed_study.PROG}: {why}; 0 of 2 runs kept in {seed_study.runs_folder(out)}: the same command resumes"
    assert capsys.readouterr().err.splitlines() == [line] and not out.exists()


@pytest.mark.slow  # three tiny runs on two loky workers, stopped once a run is kept, then resumed (about 8 s of CPU)
def test_a_study_stopped_by_sigterm_resumes_from_its_kept_runs_and_writes_the_same_file(tmp_path, tiny_runs):
    out = tmp_path / "study.json"
    process = _study_process(TINY3, out)
    _wait(lambda: _kept(out), "no run was kept")
    process.send_signal(signal.SIGTERM)
    err = _ended(process, out, 30)
    done = len(_kept(out))
    assert process.returncode == 143 and 1 <= done <= 3 and f"{done} of 3 runs kept" in err, err
    again = study_command(*TINY3, "--jobs", "1", "--out", str(out))
    assert again.returncode == 0 and f"{done} of 3 runs already kept" in again.stderr, again.stderr
    assert len(again.stderr.splitlines()) == 2 + 3 - done  # the runs still missing, and nothing else trained
    assert out.read_text(encoding="utf-8") == tiny_file(tiny_runs, 3)
