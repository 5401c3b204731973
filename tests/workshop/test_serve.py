"""The compressed server (attention_workshop.serve): ``Accept-Encoding`` read by RFC 9110 (case-insensitive, the
weight wherever it stands, ``q=0`` refuses), a bad path answered 400 without a traceback, and its command's errors in
one line naming the port or the address."""

from __future__ import annotations

import gzip
import http.client
import socket
import subprocess
import sys
import threading

import pytest

from attention_workshop import serve

PROG = "python -m attention_workshop.serve"


@pytest.mark.parametrize(
    ("header", "codings"),
    [
        ("gzip, deflate, br, zstd", [("br", ".br"), ("gzip", ".gz")]),
        ("gzip;Q=0", []),  # the parameter's name is case-insensitive: Q=0 refuses
        ("GZIP", [("gzip", ".gz")]),  # so is the coding's
        ("gzip ; q=0 , br", [("br", ".br")]),  # spaces around ';' and ','
        ("gzip;level=9;q=0", []),  # the weight after another parameter
        ("gzip;q=0.000, br;q=0.0", []),
        ("br;q=0.5, gzip;q=1", [("gzip", ".gz"), ("br", ".br")]),  # the heavier first
        ("br;q=0.5, gzip;q=0.5", [("br", ".br"), ("gzip", ".gz")]),  # between equals, br first
        ("*", [("br", ".br"), ("gzip", ".gz")]),  # a coding not named has the weight of *
        ("*;q=0, gzip", [("gzip", ".gz")]),
        ("br;q=0, *", [("gzip", ".gz")]),
        ("gzip;q=2, br;q=abc, deflate", []),  # not qvalues: those elements are left out, not taken as q=1
        ("gzip;q=1.0000", []),  # four decimals are not a qvalue
        ("identity", []),
        ("", []),
    ],
)
def test_accept_encoding_is_read_by_rfc_9110(header, codings):
    assert serve.chosen(header) == codings


def test_weights_and_accepted():
    assert serve.weights("GZip;Q=0.5, br") == {"gzip": 0.5, "br": 1.0}
    assert serve.weights("gzip, gzip;q=0") == {"gzip": 1.0}  # named twice: the first weight
    assert serve.accepted("gzip;Q=0, br") == {"br"}
    assert serve.accepted("br;q=0, gzip;q=0.5") == {"gzip"}


@pytest.fixture
def served(tmp_path):
    body = ("<!DOCTYPE html><title>x</title>" + "attention " * 500).encode()
    (tmp_path / "page.html").write_bytes(body)
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(body))
    httpd = serve.server(tmp_path, 0)
    # polled every 10 ms, not every 0.5 s: shutdown() waits for the loop to look (0.5 s a test, 4 s for the file)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    yield httpd.server_address[1], body
    httpd.shutdown()
    httpd.server_close()


def get(port: int, path: str, **headers) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_refused_coding_is_not_sent(served):
    port, body = served
    status, headers, data = get(port, "/page.html", **{"Accept-Encoding": "gzip;Q=0"})
    assert status == 200 and "Content-Encoding" not in headers and data == body
    status, headers, data = get(port, "/page.html", **{"Accept-Encoding": "GZIP;q=1"})
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == body


@pytest.mark.parametrize("path", ["/%00", "/page.html%00", "/%00/", "//%00", "/%ed%a0%80", "/page%ed%a0%80.html"])
def test_a_bad_path_is_answered_400_without_a_traceback(served, path, capfd):
    port, _ = served
    status, _, _ = get(port, path, **{"Accept-Encoding": "gzip"})
    assert status == 400
    assert get(port, "/page.html")[0] == 200  # the server goes on
    assert "Traceback" not in capfd.readouterr().err


def command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "attention_workshop.serve", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("port", ["70000", "-1", "0", "eighty"])
def test_a_port_out_of_range_is_one_line_and_status_2(tmp_path, port):
    run = command(str(tmp_path), "--port", port)
    assert run.returncode == 2 and run.stderr == (
        f"{PROG}: error: argument --port: a port is a whole number from 1 to 65535, not {port!r}\n"
    )


def test_a_busy_port_or_a_bad_address_is_named_in_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = command(str(tmp_path), "--port", str(port))
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    assert f"--bind 127.0.0.1 --port {port}" in run.stderr and "Address already in use" in run.stderr
    run = command(str(tmp_path), "--bind", "999.1.1.1", "--port", "8000")
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "--bind 999.1.1.1" in run.stderr, run.stderr
