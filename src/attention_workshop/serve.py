"""Serve the built website locally the way a good host does, with the build's precompressed copies.

Each file's ``.br`` copy, else its ``.gz`` (written by the build: :func:`attention_workshop.ae_seo.compress`),
when the browser accepts it, with ``Content-Encoding`` and ``Vary: Accept-Encoding``; the file itself otherwise.

    .venv/bin/python -m attention_workshop.serve [FOLDER] [--port 8000] [--bind 127.0.0.1]   # make serve

FOLDER defaults to ``_build/html``. Python's ``http.server`` alone serves the same files uncompressed (a lesson's HTML
is five to ten times the bytes of its ``.br`` copy); GitHub Pages compresses on its own.
"""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import sys

from attention_workshop.command import OneLineParser, add_site_argument, run

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # in order of preference


def accepted(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (a coding with ``q=0`` is refused)."""
    found = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            weight = float(q)
        except ValueError:
            weight = 1.0
        if name.strip() and weight > 0:
            found.add(name.strip().lower())
    return found


class Handler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` that sends a file's ``.br`` or ``.gz`` copy when the client accepts it."""

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's address
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        codings = accepted(self.headers.get("Accept-Encoding", ""))
        for coding, ext in ENCODINGS:
            if coding in codings and os.path.isfile(path + ext):
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
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder (build the site first: make book)")
    with server(args.folder, args.port, args.bind) as httpd:
        host, port = httpd.server_address[:2]
        print(f"serving {args.folder} compressed at http://{host}:{port}/ (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.serve"))
