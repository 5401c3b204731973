"""What every command of the workshop shares: argument errors in one line, and output that may fail.

Each command module ends with ``sys.exit(run(main, PROG))``. :func:`run` turns the two ways printing can fail into an
exit status without a traceback: a closed pipe (``... | head -3``: the reader stopped reading) ends the command
quietly with status 1, as Python's documentation recommends for ``BrokenPipeError``; any other failed write to
stdout or stderr (a full disk, a closed stream) prints one line naming the cause and exits with status 1.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
from collections.abc import Callable

from attention_workshop.paths import ROOT

SITE = ROOT / "_build" / "html"  # where make book builds the website


class OneLineParser(argparse.ArgumentParser):
    """Argument errors are one line on stderr and exit status 2, with no usage and no traceback."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_site_argument(parser: argparse.ArgumentParser, name: str = "site") -> None:
    """The optional folder of a built website that the benchmarks and the server read (default: _build/html)."""
    parser.add_argument(name, nargs="?", type=pathlib.Path, default=SITE, help="the built site (default: _build/html)")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def run(main: Callable[[], int | str | None], prog: str | None = None) -> int | str:
    """Call ``main()`` and return its exit status for ``sys.exit`` (``None`` counts as 0; a ``sys.exit`` inside
    ``main``, argparse's ``--help`` too, counts as its status); see the module's docstring."""
    prog = prog or os.path.basename(sys.argv[0] or "command")
    try:
        try:
            status = main()
        except SystemExit as stop:
            status = stop.code
        if sys.stdout is not None:
            sys.stdout.flush()  # what is still buffered fails here, not in Python's flush at exit
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except OSError as exc:
        if exc.filename is not None:  # a file the command was reading or writing, not its output
            raise
        _silence_stdout()
        try:
            print(f"{prog}: error: could not write the output: {exc.strerror}", file=sys.stderr)
        except OSError:
            pass
        return 1
    return status or 0
