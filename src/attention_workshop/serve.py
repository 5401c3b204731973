"""Serve the built website locally the way a good host does, with the build's precompressed copies.

Each file's ``.br`` copy, else its ``.gz`` (written by the build: :func:`attention_workshop.ae_seo.compress`),
when the browser accepts it, with ``Content-Encoding`` and ``Vary: Accept-Encoding``; the file itself otherwise.
``Accept-Encoding`` is read as RFC 9110 says (:func:`weights`): names case-insensitive, the weight ``q`` wherever it
stands among the parameters, ``q=0`` refusing a coding (``*;q=0`` every coding not named). A request whose path
holds a NUL byte (``%00``) or what the file system cannot encode is answered 400, without a traceback.

    .venv/bin/python -m attention_workshop.serve [FOLDER] [--port 8000] [--bind 127.0.0.1]   # make serve

FOLDER defaults to ``_build/html``. Python's ``http.server`` alone serves the same files uncompressed (a lesson's HTML
is five to ten times the bytes of its ``.br`` copy); GitHub Pages compresses on its own.
"""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import re
import sys
from http import HTTPStatus

from attention_workshop.command import Failure, OneLineParser, add_site_argument, port_number, run

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # in order of preference between equal weights
QVALUE = re.compile(r"0(\.[0-9]{0,3})?|1(\.0{0,3})?")  # RFC 9110, 12.4.2: from 0 to 1, three decimals at most


def weights(header: str) -> dict[str, float]:
    """The weight of each content coding an ``Accept-Encoding`` header names (RFC 9110, 12.5.3), by lower-case name
    (``*`` included): codings and parameter names are case-insensitive (``GZIP;Q=0``), the weight is the ``q``
    parameter wherever it stands among the parameters (1 without one), and an element whose weight is not a valid
    qvalue (``q=2``, ``q=abc``) is left out, as if the header did not name that coding. A coding named twice keeps
    its first weight."""
    found: dict[str, float] = {}
    for element in header.split(","):
        coding, *params = (part.strip() for part in element.split(";"))
        q = "1"
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                q = value.strip()
        if coding and QVALUE.fullmatch(q):
            found.setdefault(coding.lower(), float(q))
    return found


def accepted(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header names with a weight above 0 (``q=0`` refuses one)."""
    return {coding for coding, q in weights(header).items() if q > 0}


def chosen(header: str) -> list[tuple[str, str]]:
    """The precompressed copies (coding, file extension) a client with this ``Accept-Encoding`` accepts, the
    heaviest first (``br`` before ``gzip`` between equal weights): a coding the header does not name has the weight
    of ``*``, and none without a ``*``; a weight of 0 refuses."""
    w = weights(header)
    ranked = [(w.get(coding, w.get("*", 0.0)), -i, coding, ext) for i, (coding, ext) in enumerate(ENCODINGS)]
    return [(coding, ext) for q, _, coding, ext in sorted(ranked, reverse=True) if q > 0]


def usable(path: str) -> bool:
    """Whether a path the server translated from a request names a file at all: no NUL byte (``%00``) and
    nothing the file system cannot encode (a lone surrogate, from ``%ed%a0%80``). Such a request is answered 400."""
    try:
        return b"\0" not in os.fsencode(path)
    except UnicodeError:
        return False


class Handler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` that sends a file's ``.br`` or ``.gz`` copy when the client accepts it."""

    def send_head(self):
        path = self.translate_path(self.path)
        if not usable(path):
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's address
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        for coding, ext in chosen(self.headers.get("Accept-Encoding", "")):
            if os.path.isfile(path + ext):
                try:
                    handle = open(path + ext, "rb")  # noqa: SIM115 (closed by copyfile's caller)
                except OSError:
                    break
                stat = os.fstat(handle.fileno())
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(path))
                self.send_header("Content-Encoding", coding)
                self.send_header("Content-Length", str(stat.st_size))
                self.send_header("Vary", "Accept-Encoding")
                self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
                self.end_headers()
                return handle
        return super().send_head()

    def end_headers(self):
        if not any(line.startswith(b"Vary:") for line in getattr(self, "_headers_buffer", [])):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002
        if os.environ.get("AE_SERVE_LOG"):
            super().log_message(format, *args)


def server(folder: pathlib.Path, port: int, bind: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    handler = functools.partial(Handler, directory=str(folder))
    return http.server.ThreadingHTTPServer((bind, port), handler)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m attention_workshop.serve", description=__doc__.splitlines()[0])
    add_site_argument(parser, "folder")
    parser.add_argument("--port", type=port_number, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder (build the site first: make book)")
    try:
        httpd = server(args.folder, args.port, args.bind)
    except OSError as exc:  # a port in use, an address that is not this machine's or not an address at all
        raise Failure(f"cannot serve at --bind {args.bind} --port {args.port}: {exc.strerror or exc}") from None
    with httpd:
        host, port = httpd.server_address[:2]
        print(f"serving {args.folder} compressed at http://{host}:{port}/ (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.serve"))
