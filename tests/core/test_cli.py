"""The command line: the article's numbers, one-line errors, negative numbers, closed pipes and full disks."""

import subprocess
import sys

import pytest

from attention_core.__main__ import main

CLI = [sys.executable, "-m", "attention_core"]


def test_cli_prints_the_article_numbers(capsys):
    assert main(["example", "--s", "-1", "1"]) == 0
    out = capsys.readouterr().out
    for text in ["1.5232", "0.9640", "0.2335", "0.5414", "0.3095", "0.1491", "(1.392334, -0.607666)"]:
        assert text in out
    assert "(0.607666, -1.392334)" in out


@pytest.mark.parametrize("text, value", [("-1e3", "-1000"), ("-1e-3", "-0.001"), ("-1.", "-1"), ("-.5", "-0.5")])
def test_negative_numbers_in_any_notation(capsys, text, value):
    assert main(["example", "--s", text, "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"s = {value}\n") and "s = 2\n" in out


def test_negative_scientific_notation_in_a_real_process():
    run = subprocess.run([*CLI, "example", "--s", "-1e3", "-1e-3", "-1."], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert [line for line in run.stdout.splitlines() if line.startswith("s =")] == ["s = -1000", "s = -0.001", "s = -1"]


@pytest.mark.parametrize("bad", ["abc", "nan", "inf", "-inf", "-1e400"])
def test_cli_rejects_bad_s_with_one_line(bad):
    run = subprocess.run([*CLI, "example", "--s", bad], capture_output=True, text=True)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "--s" in run.stderr and f"'{bad}'" in run.stderr


def test_a_closed_pipe_ends_quietly():
    states = [f"{x / 100:g}" for x in range(-300, 301)]  # about 80 kB of output, more than a pipe buffers
    producer = subprocess.Popen([*CLI, "example", "--s", *states], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = producer.stdout.readline()
    producer.stdout.close()  # like `| head -1`: the reader goes away before the writer is done
    stderr = producer.stderr.read().decode()
    assert producer.wait(timeout=60) == 0
    assert first == b"s = -3\n"
    assert stderr == ""


def test_piping_into_head_prints_no_traceback():
    states = " ".join(f"{x / 100:g}" for x in range(-300, 301))
    run = subprocess.run(
        f"{sys.executable} -m attention_core example --s {states} | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert run.stdout == "s = -3\n"
    assert run.stderr == ""


def test_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        run = subprocess.run([*CLI, "example", "--s", "1"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert run.returncode == 1
    assert run.stderr == "python -m attention_core: error: could not write the output: No space left on device\n"


def test_a_closed_stdout_is_one_line_not_a_traceback():
    run = subprocess.run(
        f"{sys.executable} -m attention_core example --s 1 >&-", shell=True, capture_output=True, text=True
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("python -m attention_core: error:") and len(run.stderr.splitlines()) == 1


def test_repeated_s_options_keep_every_value(capsys):
    assert main(["example", "--s", "1", "--s", "-2", "3"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("s =")] == ["s = 1", "s = -2", "s = 3"]
    assert main(["example"]) == 0  # the default stays the article's two states
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("s =")] == ["s = -1", "s = 1"]


@pytest.mark.slow  # two processes that train (about 3 CPU-s); example's closed pipe and full disk stay in make check
def test_train_on_a_full_disk_or_a_closed_pipe_prints_no_traceback():
    with open("/dev/full", "w") as full:
        run = subprocess.run([*CLI, "train", "--steps", "3"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert run.returncode == 1
    assert run.stderr == "python -m attention_core: error: could not write the output: No space left on device\n"
    producer = subprocess.Popen([*CLI, "train", "--steps", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    producer.stdout.read(5)
    producer.stdout.close()  # the reader goes away after the first progress line
    stderr = producer.stderr.read().decode()
    assert producer.wait(timeout=120) == 0 and "Traceback" not in stderr, stderr
