"""Every command of the workshop (``python -m attention_workshop.<module>``) fails cleanly: a wrong argument is one
line and exit status 2; a closed pipe or a full disk on its output is no traceback (attention_workshop.command)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

COMMANDS = (
    "bench", "bench_lab", "bench_site", "bench_torch", "bench_training", "build_book", "build_pdf", "kernel_drift",
    "seed_study", "train_committed", "editions", "serve", "bench_lighthouse",
    "execute", "paths", "lab",
)  # fmt: skip
PRINTS_A_LOT = "from attention_workshop.command import run; import sys; sys.exit(run(lambda: print('x' * 1_000_000)))"


def python(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)


def closed_pipe_run(*args: str) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line: every write fails with EPIPE
    try:
        return python(*args, stdout=write)
    finally:
        os.close(write)


def full_disk_run(*args: str) -> subprocess.CompletedProcess:
    with open("/dev/full", "w") as full:
        return python(*args, stdout=full)


@pytest.mark.parametrize("module", COMMANDS)
def test_a_wrong_argument_is_one_line_and_status_2(module):
    run = python("-m", f"attention_workshop.{module}", "--no-such-flag")
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"python -m attention_workshop.{module}: error: ")
    assert run.stdout == ""


@pytest.mark.parametrize("module", COMMANDS)
def test_help_into_a_closed_pipe_or_a_full_disk_is_no_traceback(module):
    for run in (closed_pipe_run("-m", f"attention_workshop.{module}", "--help"),) + (
        (full_disk_run("-m", f"attention_workshop.{module}", "--help"),) if os.path.exists("/dev/full") else ()
    ):
        assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
        assert run.stderr.count("\n") <= 1


def test_a_closed_pipe_ends_quietly_with_status_1():
    run = closed_pipe_run("-c", PRINTS_A_LOT)
    assert (run.returncode, run.stderr) == (1, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_one_line_and_status_1():
    run = full_disk_run("-c", PRINTS_A_LOT)
    assert run.returncode == 1
    assert run.stderr == "-c: error: could not write the output: No space left on device\n"
