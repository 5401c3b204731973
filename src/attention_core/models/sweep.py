"""The seed study of lessons 07 and 08: where its results live, and the figures the lessons read from them.

``attention_workshop.seed_study`` trains every design of :data:`DESIGNS` on both target languages (:data:`data.LANGUAGES
<attention_core.models.data.LANGUAGES>`) at several training seeds and data seeds, evaluates each run on its
test set and writes ``results/seed_study.json``; ``tests/models/test_seed_study.py`` checks the lessons' claims
on that file and retrains one run. The file lives in the repository, beside ``src/``, so it is found from an
editable install (``pip install -e .``, as ``make`` installs the package). Nothing here trains: every figure is
computed from the counts the file stores.

A run's record holds its test counts per source length (:class:`~.train.Evaluation`), so that every accuracy
(overall, per bucket, per length) is a ratio of integers; :func:`spread` gives a figure's mean, minimum and
maximum over runs, :func:`accuracy_by_length` the curves of lesson 07's length figure, and
:func:`load_length_sweep` the view of the attention model and the fixed summary that lesson 07 first printed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import designs
from .designs import ATTENTION, FIXED_SUMMARY, GENERAL_SCORE, LUONG  # noqa: F401  (the lessons read them here)
from .train import BUCKETS, Evaluation

STUDY_FILE = Path(__file__).resolve().parents[3] / "results" / "seed_study.json"  # <repo>/results/...
SWEEP_FILE = STUDY_FILE  # lesson 07's length experiment is the part of the study on its language and data

METRICS = ("token", "exact", "alignment")  # the figures of a run, by the names figure() and spread() take

# One phrase for one range of alignment accuracy, wherever the book describes one (lessons 07, 08 and the argument
# page): (phrase, lowest accuracy it covers), highest band first. alignment_band() names the band of a figure.
ALIGNMENT_BANDS = (("virtually every", 0.999), ("nearly every", 0.97), ("most", 0.75), ("not most", 0.0))

# The designs compared, by name -> the ModelConfig fields that differ (everything else is the lesson-07 recipe): the
# registry's designs with ``study`` (models/designs.py), as results/seed_study.json records them ("designs").
DESIGNS = {d.name: d.fields() for d in designs.where(study=True)}


RUN_KEYS = ("design", "language", "data_seed", "seed", "counts", "gaps")  # what the helpers here read of every run
REMAKE = "run `.venv/bin/python -m attention_workshop.seed_study` from the repository (packages installed editable)"


def load_seed_study(path: Path = STUDY_FILE) -> dict:
    """The study's JSON as a dict; an error naming the file if it is missing, not JSON (a truncated file) or not a
    study (:func:`not_a_study`)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no seed-study results at {path}; {REMAKE} to produce them")
    try:
        study = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not readable JSON ({exc}): truncated or damaged; {REMAKE}") from None
    problem = not_a_study(study)
    if problem:
        raise ValueError(f"{path} {problem}; {REMAKE}")
    return study


def not_a_study(study) -> str | None:
    """What makes ``study`` no seed study, as the end of a sentence ("is not a JSON object ...", "has a run without
    ..."), or None: a study is an object with a list of ``languages`` and a list of ``runs``, each run holding
    :data:`RUN_KEYS`."""
    if not isinstance(study, dict) or not isinstance(study.get("languages"), list):
        return 'is not a seed study: a JSON object with a list of "languages" and a list of "runs"'
    if not isinstance(study.get("runs"), list):
        return 'is not a seed study: it has no list of "runs"'
    for number, run in enumerate(study["runs"]):
        missing = [key for key in RUN_KEYS if not isinstance(run, dict) or key not in run]
        if missing:
            return f"has a run (number {number}) without {', '.join(missing)}"
    return None


def _named(run: dict) -> str:
    """A run as the errors name it: its design, language and seeds."""
    seeds = f"data seed {run.get('data_seed')}, seed {run.get('seed')}"
    return f"the run of {run.get('design')!r} on {run.get('language')!r} ({seeds})"


def design_of(design: str) -> dict:
    """The :class:`~.seq2seq.ModelConfig` fields of the design named ``design`` (:data:`DESIGNS`); a ``ValueError``
    naming the designs there are for any other name."""
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {list(DESIGNS)}, got {design!r}")
    return DESIGNS[design]


def runs(study: dict, language: str = "svo", design: str = "attention", data_seed: int | None = None) -> list[dict]:
    """The runs of one design on one language; with ``data_seed``, only those trained on that data sample."""
    problem = not_a_study(study)
    if problem:
        raise ValueError(f"the study {problem}")
    design_of(design)
    if language not in study["languages"]:
        raise ValueError(f"language must be one of {study['languages']}, got {language!r}")
    chosen = [r for r in study["runs"] if r["language"] == language and r["design"] == design]
    return chosen if data_seed is None else [r for r in chosen if r["data_seed"] == data_seed]


def evaluation(run: dict) -> Evaluation:
    """The test counts of one run, as the :class:`~.train.Evaluation` they came from."""
    return Evaluation(**run["counts"])


def figure(run: dict, key: str, lo: int = 1, hi: int = 10**9) -> float:
    """One run's ``key`` accuracy ("token", "exact" or "alignment") on source lengths ``[lo, hi]``; or the share
    of misread words of one class (``key="determiner_misread"``, ``"verb_misread"``, ...; attention designs)."""
    if key.endswith("_misread") and key.removesuffix("_misread") in run.get("misreads", {}):
        rec = run["misreads"][key.removesuffix("_misread")]
        return rec["misread"] / rec["words"]
    if key.endswith("_misread"):
        classes = sorted(run["misreads"]) if "misreads" in run else []
        raise ValueError(
            f"{key}: {_named(run)} has no misreads of that class (it has: {classes}; only attention designs have any)"
        )
    if key not in ("token", "exact", "alignment"):
        raise ValueError(f"key must be 'token', 'exact', 'alignment' or 'determiner_misread', got {key!r}")
    return getattr(evaluation(run), f"{key}_accuracy")(lo, hi)


def spread(chosen: list[dict], key: str, lo: int = 1, hi: int = 10**9) -> dict[str, float]:
    """``{"mean", "min", "max", "runs"}`` of :func:`figure` over the runs ``chosen``."""
    if not chosen:
        raise ValueError("spread needs at least one run")
    values = np.array([figure(r, key, lo, hi) for r in chosen])
    return {"mean": float(values.mean()), "min": float(values.min()), "max": float(values.max()), "runs": len(chosen)}


def alignment_band(accuracy: float) -> str:
    """The phrase of :data:`ALIGNMENT_BANDS` for an alignment accuracy in [0, 1] (the share of target words read
    from their true source position)."""
    if not 0.0 <= accuracy <= 1.0:
        raise ValueError(f"an alignment accuracy lies in [0, 1], got {accuracy!r}")
    return next(phrase for phrase, lowest in ALIGNMENT_BANDS if accuracy >= lowest)


def paired_wins(study: dict, language: str, first: str, second: str, key: str) -> tuple[int, int]:
    """``(wins, pairs)``: at how many of the study's seed points (same training seed, same data seed) design
    ``first`` has the higher :func:`figure` ``key`` than design ``second``, out of how many points both ran."""
    a = {(r["seed"], r["data_seed"]): figure(r, key) for r in runs(study, language, first)}
    b = {(r["seed"], r["data_seed"]): figure(r, key) for r in runs(study, language, second)}
    pairs = sorted(a.keys() & b.keys())
    return sum(a[k] > b[k] for k in pairs), len(pairs)


def summarise(chosen: list[dict]) -> dict:
    """Mean, min and max over ``chosen`` of every figure the lessons use: overall, per bucket, misreads."""
    if not chosen:
        raise ValueError("summarise needs at least one run")
    keys = ("token", "exact", "alignment") if "misreads" in chosen[0] else ("token", "exact")
    out = {key: spread(chosen, key) for key in keys}
    out["buckets"] = {f"{lo}-{hi}": {key: spread(chosen, key, lo, hi) for key in keys} for lo, hi in BUCKETS}
    if "misreads" in chosen[0]:
        out["determiner_misread"] = spread(chosen, "determiner_misread")
    out["smallest_gap"] = min(smallest_gap(r) for r in chosen)
    return out


def smallest_gap(run: dict, dtype: str = "float64") -> float:
    """A run's smallest decision gap (greedy or alignment) when evaluated in ``dtype`` (:mod:`.margins`)."""
    if dtype not in run["gaps"]:
        raise ValueError(f"dtype must be one of {list(run['gaps'])}, got {dtype!r}")
    gaps = [g for g in run["gaps"][dtype].values() if g is not None]
    if not gaps:
        raise ValueError(f"{_named(run)} has no {dtype} decision gap")
    return min(gaps)


def accuracy_by_length(study: dict, language: str = "svo", design: str = "attention") -> dict:
    """Token and exact accuracy per source length over the runs of one design on one language (lesson 07).

    Returns ``{"lengths": [...], "token": {"mean": [...], "min": [...], "max": [...]}, "exact": {...}}`` with
    one entry per source length found in every run's test set.
    """
    chosen = runs(study, language, design)
    if not chosen:
        raise ValueError(f"the study has no run of {design!r} on {language!r}")
    lengths = sorted(set.intersection(*(set(r["counts"]["lengths"]) for r in chosen)))
    out: dict = {"lengths": lengths}
    for key in ("token", "exact"):
        table = np.array([[figure(r, key, n, n) for n in lengths] for r in chosen])  # (runs, lengths)
        out[key] = {"mean": table.mean(axis=0).tolist(), "min": table.min(axis=0).tolist(),
                    "max": table.max(axis=0).tolist()}  # fmt: skip
    return out


def load_length_sweep(path: Path = STUDY_FILE) -> dict:
    """Lesson 07's length experiment, read from the study: the attention model and the fixed summary on the
    "svo" language and data seed 0, one run per training seed, in the layout lesson 07 prints from.

    ``{"seeds", "lengths", "mean": {label: {"token": [...], "exact": [...], "buckets": {b: {"token", "exact"}}}},
    "runs": [{"model", "seed", "token", "exact", "buckets", "alignment", "alignment_misses"}]}``; the attention
    run with training seed s is the committed lesson-07 model when that model was trained with seed s.
    """
    study = load_seed_study(path)
    view: dict = {"command": study["command"], "config": study["config"], "runs": [], "mean": {}}
    for label in ("attention", "fixed summary"):
        chosen = runs(study, "svo", label, data_seed=0)
        if not chosen:
            raise ValueError(f"{path} has no run of {label!r} on 'svo' with data seed 0; {REMAKE}")
        view["seeds"] = [r["seed"] for r in chosen]
        curves = accuracy_by_length({**study, "runs": chosen}, "svo", label)
        view["lengths"] = curves["lengths"]
        view["mean"][label] = {key: [round(x, 4) for x in curves[key]["mean"]] for key in ("token", "exact")}
        view["mean"][label]["buckets"] = {
            f"{lo}-{hi}": {k: round(spread(chosen, k, lo, hi)["mean"], 4) for k in ("token", "exact")}
            for lo, hi in BUCKETS
        }
        for r in chosen:
            point = {"model": label, "seed": r["seed"], "token": r["token"], "exact": r["exact"]}
            point["buckets"] = {b: {k: v[k] for k in ("token", "exact")} for b, v in r["buckets"].items()}
            if "misreads" in r:
                point["alignment"] = r["alignment"]
                point["alignment_misses"] = alignment_misses_of(r)
            view["runs"].append(point)
    return view


def alignment_misses_of(run: dict) -> dict:
    """A run's misreads in the layout of :func:`~.train.alignment_misses` (by class, by offset)."""
    if "misreads" not in run:
        raise ValueError(f"{_named(run)} has no misreads: only attention designs read a source position")
    mis = run["misreads"]
    by_offset: dict[int, int] = {}
    for rec in mis.values():
        for off, n in rec["offsets"].items():
            by_offset[int(off)] = by_offset.get(int(off), 0) + n
    return {
        "words": sum(rec["words"] for rec in mis.values()),
        "by_class": {c: mis[c]["misread"] for c in sorted(mis) if mis[c]["misread"]},
        "by_offset": dict(sorted(by_offset.items())),
    }
