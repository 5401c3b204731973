"""kernel_drift compare: a gap that became infinite (or stopped being) is an infinite drift, not none."""

from __future__ import annotations

import os

import numpy as np
import pytest

from attention_workshop.kernel_drift import gap_drift
from tests.helpers import as_main

INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ([1.0, 2.0], [1.0, 2.5], 0.5),
        ([1.0, INF], [1.0, INF], 0.0),  # the same infinite gap on both kernels
        ([1.0, NAN], [1.0, NAN], 0.0),
        ([1.0, 2.0], [1.0, INF], INF),  # became infinite
        ([1.0, INF], [1.0, 2.0], INF),  # stopped being
        ([INF], [-INF], INF),
        ([1.0, 2.0], [1.0, 2.0, 3.0], INF),  # not the same decisions
        ([], [], 0.0),
    ],
)
def test_gap_drift(a, b, want):
    assert gap_drift(np.array(a), np.array(b)) == want


# ----------------------------------------------------------------------------------- one line for every bad file
PROG = "python -m attention_workshop.kernel_drift"
DUMP = {"m/float32/greedy": np.ones(3), "m/float32/alignment": np.ones(3), "m/float32/tokens": np.ones(3)}


@pytest.fixture
def command(capsys):
    """``command(*args)``: ``python -m attention_workshop.kernel_drift <args>``, run in this process
    (tests.helpers.as_main: 19 interpreters' start saved, about 3 CPU-seconds)."""
    return lambda *args: as_main("kernel_drift", *args, capsys=capsys)


def bad_dumps(folder) -> dict[str, str]:
    """Files that are not a dump, each with what its line must say."""
    np.savez(folder / "reference.npz", **DUMP)
    (folder / "text.npz").write_text("not an npz\n")
    np.savez(folder / "other_keys.npz", x=np.ones(3))
    np.savez(folder / "other_model.npz", **{k.replace("m/", "n/"): v for k, v in DUMP.items()})
    np.save(folder / "one.npy", np.ones(3))
    np.savez(folder / "empty.npz")
    (folder / "cut.npz").write_bytes((folder / "reference.npz").read_bytes()[:200])
    return {
        "missing.npz": "No such file or directory",
        "text.npz": "not an .npz file",
        "other_keys.npz": "holds 'x'",
        "other_model.npz": "has no 'm/float32/alignment'",
        "one.npy": "one .npy array",
        "empty.npz": "holds nothing",
        "cut.npz": "not an .npz file, or a truncated one",
        ".": "Is a directory",
    }


def test_compare_names_a_file_that_is_not_a_dump_in_one_line(tmp_path, command):
    reference = tmp_path / "reference.npz"
    for name, reason in bad_dumps(tmp_path).items():
        path = tmp_path / name
        for args in ((path, reference), (reference, path)):
            run = command("compare", *map(str, args))
            assert run.returncode == 1 and run.stderr.count("\n") == 1 and run.stdout == "", (name, run.stderr)
            assert run.stderr.startswith(f"{PROG}: error: ") and str(path) in run.stderr, run.stderr
            assert reason in run.stderr or (name == "other_model.npz" and "has no 'n/float32/" in run.stderr)


def test_dump_refuses_a_place_it_cannot_write_before_evaluating_anything(tmp_path, command):
    out = tmp_path / "no" / "such" / "x.npz"
    run = command("dump", str(out))
    assert (run.returncode, run.stderr) == (
        1,
        f"{PROG}: error: {out}: cannot write there (No such file or directory)\n",
    )
    run = command("dump", str(tmp_path))
    assert (run.returncode, run.stderr) == (1, f"{PROG}: error: {tmp_path} is a folder; name the .npz file to write\n")
    if os.path.exists("/dev/full"):  # a device is never renamed over
        run = command("dump", "/dev/full")
        assert (run.returncode, run.stderr) == (
            1,
            f"{PROG}: error: /dev/full is not a regular file; name the .npz file to write\n",
        )
