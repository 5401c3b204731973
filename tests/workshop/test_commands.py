"""Every command of the workshop (``python -m attention_workshop.<module>``) fails cleanly: a wrong argument is one
line and exit status 2; a closed pipe or a full disk on its output is no traceback (attention_workshop.command).

A wrong or hostile argument is checked in this process (:func:`as_main`: the module run as ``__main__``, as ``python
-m`` runs it, its ``sys.exit(run(main, PROG))`` included), which saves an interpreter's start and imports (0.5 to 1
CPU-second) per command. What only a process shows runs one: the interpreter's own flush of stdout at exit into a
closed pipe or a full disk (``Exception ignored``), for every command under the gate (``slow``: 32 processes) and
for one printer (`-c`) in `make check` too.
"""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import tempfile

import pytest

from tests.helpers import as_main

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
def test_a_wrong_argument_is_one_line_and_status_2(module, capsys):
    run = as_main(module, "--no-such-flag", capsys=capsys)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"python -m attention_workshop.{module}: error: ")
    assert run.stdout == ""


@pytest.mark.slow  # 32 interpreters (3 to 4 CPU-seconds a command); make check keeps the -c printer's two (below)
@pytest.mark.parametrize("module", COMMANDS)
def test_help_into_a_closed_pipe_or_a_full_disk_is_no_traceback(module):
    for run in (closed_pipe_run("-m", f"attention_workshop.{module}", "--help"),) + (
        (full_disk_run("-m", f"attention_workshop.{module}", "--help"),) if os.path.exists("/dev/full") else ()
    ):
        assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
        assert run.stderr.count("\n") <= 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("what", ["folders", "notebooks", "complete"])
def test_paths_on_a_full_disk_or_a_closed_pipe_is_one_line_at_most_and_status_1(what):
    run = full_disk_run("-m", "attention_workshop.paths", what)
    assert (run.returncode, run.stderr) == (
        1,
        "python -m attention_workshop.paths: error: could not write the output: No space left on device\n",
    )
    assert (closed_pipe_run("-m", "attention_workshop.paths", what).returncode, run.stderr.count("\n")) == (1, 1)


def test_a_closed_pipe_ends_quietly_with_status_1():
    run = closed_pipe_run("-c", PRINTS_A_LOT)
    assert (run.returncode, run.stderr) == (1, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_one_line_and_status_1():
    run = full_disk_run("-c", PRINTS_A_LOT)
    assert run.returncode == 1
    assert run.stderr == "-c: error: could not write the output: No space left on device\n"


# ------------------------------------------------------------------------------- command.run keeps the real cause
def run_in_process(main, capsys) -> tuple[int | str, str]:
    from attention_workshop.command import run

    status = run(main, "prog")
    return status, capsys.readouterr().err


def test_an_error_that_is_not_the_output_is_its_own_line_never_could_not_write_the_output(capsys):
    """A file that is missing, a full disk under a file the command writes, a busy port: each is its own message,
    status 1; only a failed write to stdout or stderr is "could not write the output"."""
    for error, expected in (
        (FileNotFoundError("no trained parameters named 'bogus' (have: ['a', 'b'])"), "no trained parameters named"),
        (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
        (OSError(errno.EADDRINUSE, "Address already in use"), "Address already in use"),
        (
            OSError(errno.ENOENT, "No such file or directory", "/no/such.npz"),
            "No such file or directory: '/no/such.npz'",
        ),
    ):

        def main(error=error):
            raise error

        status, err = run_in_process(main, capsys)
        assert status == 1 and err.count("\n") == 1 and err.startswith("prog: error: "), err
        assert expected in err and "could not write the output" not in err, err


def test_only_a_failed_write_to_stdout_or_stderr_is_could_not_write_the_output(capsys, monkeypatch):
    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        def fileno(self):
            raise io.UnsupportedOperation("no file descriptor")

    monkeypatch.setattr(sys, "stdout", Full())
    status, err = run_in_process(lambda: print("hello"), capsys)
    assert (status, err) == (1, "prog: error: could not write the output: No space left on device\n")


def test_a_failure_is_its_message_in_one_line_and_status_1(capsys):
    from attention_workshop.command import Failure

    def main():
        raise Failure("x.npz: not a dump\n(made by kernel_drift dump)")

    assert run_in_process(main, capsys) == (1, "prog: error: x.npz: not a dump (made by kernel_drift dump)\n")


def test_run_gives_the_streams_back():
    from attention_workshop.command import run

    streams = sys.stdout, sys.stderr
    assert run(lambda: 3, "prog") == 3 and (sys.stdout, sys.stderr) == streams


def test_kernel_drift_live_with_an_unknown_model_names_it_and_the_models_there_are(capsys):
    run = as_main("kernel_drift", "live", "bogus_model", capsys=capsys)
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    assert "'bogus_model'" in run.stderr and "lesson07_attention_seed0" in run.stderr, run.stderr
    assert "could not write the output" not in run.stderr


def test_kernel_drift_live_with_a_name_that_is_not_plain_is_one_line(capsys):
    run = as_main("kernel_drift", "live", "../x", capsys=capsys)
    assert run.returncode == 1 and run.stderr == (
        "python -m attention_workshop.kernel_drift: error: name must be a plain name (letters, digits, _ and -, no "
        "folder or suffix), got '../x'\n"
    )


@pytest.mark.slow  # two processes importing Dask's distributed (about 3 CPU-seconds), one waiting out a timeout
def test_an_unreachable_dask_scheduler_is_named():
    pytest.importorskip("distributed")
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    args = ("--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--train-seeds", "0", "--steps", "1")
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            [sys.executable, "-m", "attention_workshop.seed_study", *args, "--out", f"{folder}/study.json"],
            capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    assert "tcp://127.0.0.1:9" in run.stderr and "could not write the output" not in run.stderr, run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "attention_workshop.seed_study", *args[:3], "not-an-address", *args[4:]],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert run.returncode == 1 and run.stderr == (
        "python -m attention_workshop.seed_study: error: --scheduler not-an-address: no Dask scheduler there (missing "
        "port number in address 'not-an-address')\n"
    )


def test_a_lesson_the_builds_reader_refuses_stops_the_build_in_one_line_naming_it(tmp_path, monkeypatch, capsys):
    """An unclosed <details> came out of Sphinx's reader as 88 lines and 3 tracebacks, naming no file."""
    import nbformat

    from attention_workshop import build_book
    from attention_workshop.command import run

    lesson = tmp_path / "05_lesson.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("<details>\n<summary>Solution</summary>\n\nNever closed.\n")]
    notebook.cells[0].id = "solution"
    lesson.write_text(nbformat.writes(notebook), encoding="utf-8")
    monkeypatch.setattr(build_book, "notebooks", lambda: [lesson])
    monkeypatch.setattr(build_book, "build", lambda *args: pytest.fail("the build started"))
    assert run(lambda: build_book.main([str(tmp_path)]), build_book.PROG) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"{build_book.PROG}: error: {lesson}: cell 1 (solution), line 1: '<details>' is never closed by '</details>'; "
        "nothing built\n"
    )


HOSTILE = [  # (command, arguments, what its one line says): each ran long, gave nan or a traceback before
    ("bench_training", ["--rounds", "0"], "--rounds and --steps must be at least 1, got 0 and 1000"),
    ("bench_training", ["--steps", "0"], "--rounds and --steps must be at least 1, got 3 and 0"),
    ("bench_training", ["--target", "2"], "--target is a validation token accuracy in (0, 1], got 2.0"),
    ("bench_torch", ["--batches", "0"], "--rounds and --batches must be at least 1, got 5 and 0"),
    ("bench_lab", ["--train-steps", "0", "--no-site"], "--train-steps must be at least 1, got 0"),
    ("build_pdf", ["/no/such/folder"], "no built site at /no/such/folder/_build/html: run `make book`"),
    ("build_book", ["/proc/no/such/folder"], "/proc/no/such/folder: cannot write the build there"),  # 6 tracebacks
]


@pytest.mark.parametrize(("module", "args", "says"), HOSTILE, ids=[f"{m} {' '.join(a)}" for m, a, _ in HOSTILE])
def test_a_hostile_argument_is_one_line_and_status_2_before_any_work(module, args, says, capsys):
    run = as_main(module, *args, capsys=capsys)
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert run.stderr.startswith(f"python -m attention_workshop.{module}: error: {says}"), run.stderr
    assert run.stderr.count("\n") == 1
