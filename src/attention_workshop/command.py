"""What every command of the workshop shares: argument errors in one line, and one line for every other failure.

Each command module ends with ``sys.exit(run(main, PROG))``. :func:`run` turns what can go wrong into one line on
stderr and an exit status, never a traceback:

- a closed pipe on stdout or stderr (``... | head -3``: the reader stopped reading) ends the command quietly with
  status 1, as Python's documentation recommends for ``BrokenPipeError``;
- any other failed write to stdout or stderr (a full disk, a closed stream) is "could not write the output" and the
  cause, status 1. Only a write to those two streams is: :func:`run` watches them (:class:`_Watched`), so a full
  disk under a file the command writes, a busy port or an unreachable scheduler is never mistaken for it;
- :class:`Failure`, raised by a command that cannot go on, is its message (which names the file, argument or address
  at fault), status 1;
- any other ``OSError`` is its own message (Python's names the file when it has one), status 1.

Every other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import pathlib
import sys
from collections.abc import Callable

# Where make book builds the website: _build/html in the repository (paths.ROOT, which is not imported here:
# `python -m attention_workshop.paths` itself runs through this module's run()).
SITE = pathlib.Path(__file__).resolve().parents[2] / "_build" / "html"


class OneLineParser(argparse.ArgumentParser):
    """Argument errors are one line on stderr and exit status 2, with no usage and no traceback."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


class Failure(Exception):
    """A command cannot go on: :func:`run` prints ``<prog>: error: <message>`` and exits with status 1. The message
    names the file, argument or address at fault."""


class OutputError(OSError):
    """A write to stdout or stderr failed (raised by :class:`_Watched`, so that :func:`run` tells it apart)."""


class _Watched:
    """A text stream (stdout or stderr) whose failed writes and flushes raise :class:`OutputError` with the same
    ``errno`` and message; every other attribute (``fileno``, ``buffer``, ``encoding``, ...) is the stream's own."""

    def __init__(self, stream):
        self._stream = stream

    def _call(self, method: str, *args):
        try:
            return getattr(self._stream, method)(*args)
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror or str(exc)) from exc

    def write(self, text: str) -> int:
        return self._call("write", text)

    def writelines(self, lines) -> None:
        return self._call("writelines", lines)

    def flush(self) -> None:
        return self._call("flush")

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def add_site_argument(parser: argparse.ArgumentParser, name: str = "site") -> None:
    """The optional folder of a built website that the benchmarks and the server read (default: _build/html)."""
    parser.add_argument(name, nargs="?", type=pathlib.Path, default=SITE, help="the built site (default: _build/html)")


def port_number(text: str) -> int:
    """An ``argparse`` type: a TCP port, a whole number from 1 to 65535 (``--port`` of the server and the lab)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {text!r}")
    return value


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _say(prog: str, message: str) -> None:
    """``<prog>: error: <message>`` on stderr, as one line (a message's own line breaks become spaces); nothing if
    stderr itself cannot be written."""
    try:
        print(f"{prog}: error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def run(main: Callable[[], int | str | None], prog: str | None = None) -> int | str:
    """Call ``main()`` and return its exit status for ``sys.exit`` (``None`` counts as 0; a ``sys.exit`` inside
    ``main``, argparse's ``--help`` too, counts as its status); see the module's docstring."""
    prog = prog or os.path.basename(sys.argv[0] or "command")
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (None if s is None else _Watched(s) for s in streams)
    try:
        try:
            status = main()
        except SystemExit as stop:
            status = stop.code
        if sys.stdout is not None:
            sys.stdout.flush()  # what is still buffered fails here, not in Python's flush at exit
    except OutputError as exc:
        _silence_stdout()
        if exc.errno != errno.EPIPE:
            _say(prog, f"could not write the output: {exc.strerror}")
        return 1
    except (Failure, OSError) as exc:
        _say(prog, str(exc))
        return 1
    finally:
        sys.stdout, sys.stderr = streams
    return status or 0
