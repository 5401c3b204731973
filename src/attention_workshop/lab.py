"""Open the lessons of every edition in JupyterLab, with working widgets (``make lab``).

    .venv/bin/python -m attention_workshop.lab [--no-browser] [--port N] [--root DIR]

Starts JupyterLab (``jupyterlab>=4,<5``, which ``make lab`` installs) on the repository's root, so that the
lessons of every edition are reachable (``notebooks/``, ``zh/notebooks/``...), with the file browser opened on
``notebooks/``. Before JupyterLab's own log it prints, for each edition, its folder and the address of its first
lesson, with the access token it chose for this run; ``--no-browser`` starts it without opening a browser
(headless, as the browser tests do). ``--port`` takes that port or fails; without it the first free port from
8888 up is used. ``--root`` serves another copy of the repository (the tests serve one in a temporary folder).
Runs as root only with JupyterLab's ``--allow-root``, which it adds when the user is root (containers).

Nothing in the user's home is edited: every setting is a command-line option of this run. One of them is the
server's contents manager, ``LessonContents`` (:func:`lesson_contents`). A lesson saved after its explorers ran
keeps their widget views (JupyterLab does not save the widgets' state), which point at models only the kernel that
ran them holds. Opened again while that kernel runs, the views draw from it; opened with no kernel running for it
(the next day, after a restart), the views are left out as the lesson is read, so each explorer shows its stored
note ("run this cell to start it") instead of "Error displaying widget: model not found".
"""

from __future__ import annotations

import functools
import os
import pathlib
import secrets
import socket
import sys
import urllib.parse

from attention_workshop.command import OneLineParser, port_number, run
from attention_workshop.execute import drop_explorer_views
from attention_workshop.paths import ENGLISH, ROOT, editions, name

PROG = "python -m attention_workshop.lab"
FIRST_PORT = 8888  # JupyterLab's own default
PORTS_TRIED = 50
HOST = "localhost"


def lessons_folder(edition: str) -> str:
    """The folder of an edition's lessons, relative to the repository: ``notebooks`` or ``<language>/notebooks``."""
    return "notebooks" if edition == ENGLISH else f"{edition}/notebooks"


def first_lesson(root: pathlib.Path, edition: str) -> str | None:
    """The path of an edition's first lesson relative to ``root`` (``notebooks/01_....ipynb``), if it has one."""
    found = sorted((root / lessons_folder(edition)).glob("[0-9][0-9]_*.ipynb"))
    return found[0].relative_to(root).as_posix() if found else None


def is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(start: int = FIRST_PORT, tries: int = PORTS_TRIED) -> int | None:
    return next((port for port in range(start, start + tries) if is_free(port)), None)


def address(port: int, path: str, token: str) -> str:
    """The URL of ``path`` (a file or folder under the served root) in JupyterLab, with the run's token."""
    return f"http://{HOST}:{port}/lab/tree/{urllib.parse.quote(path)}?token={token}"


def guide(root: pathlib.Path, port: int, token: str) -> str:
    """What the command prints first: how to open each edition."""
    lines = ["Opening the lessons in JupyterLab. Each edition's lessons, and its first lesson:"]
    for edition in editions():
        lesson = first_lesson(root, edition)
        if lesson is None:
            continue
        lines.append(f"  {name(edition)}: {lessons_folder(edition)}/")
        lines.append(f"    {address(port, lesson, token)}")
    lines.append("In JupyterLab: Run > Run All Cells starts a lesson's explorers. Stop JupyterLab with Control-C.")
    return "\n".join(lines)


@functools.cache
def lesson_contents():
    """The server's contents manager, :class:`LessonContents` (made on first use: Jupyter Server is installed with
    JupyterLab, by ``make lab``, and this module's other commands work without it)."""
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

    class LessonContents(AsyncLargeFileManager):
        """JupyterLab's own contents manager, except that a notebook read while no kernel runs for it loses its
        explorers' widget views (their models died with the kernel that made them): see the module's docstring."""

        async def get(self, path, content=True, type=None, format=None, **kwargs):
            model = await super().get(path, content=content, type=type, format=format, **kwargs)
            if model.get("type") == "notebook" and model.get("content") is not None:
                sessions = getattr(self.parent, "session_manager", None)
                if sessions is None or not await sessions.session_exists(path=model["path"]):
                    drop_explorer_views(model["content"])
            return model

    LessonContents.__module__, LessonContents.__qualname__ = __name__, "LessonContents"
    return LessonContents


def __getattr__(name: str):
    if name == "LessonContents":  # what --ServerApp.contents_manager_class names
        return lesson_contents()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def jupyter_arguments(root: pathlib.Path, port: int, token: str, browser: bool) -> list[str]:
    """The command line of ``jupyter lab`` for this run: every setting is an option here, none a file."""
    args = [
        f"--ServerApp.root_dir={root}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",  # the printed addresses name this port
        f"--IdentityProvider.token={token}",
        f"--LabApp.default_url=/lab/tree/{lessons_folder(ENGLISH)}",
        f"--ServerApp.contents_manager_class={__name__}.LessonContents",
    ]
    if not browser:
        args.append("--no-browser")
    if hasattr(os, "getuid") and os.getuid() == 0:
        args.append("--allow-root")
    return args


def main(argv: list[str] | None = None) -> int | str:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser (headless)")
    parser.add_argument(
        "--port", type=port_number, help=f"the port to serve on (default: the first free one from {FIRST_PORT})"
    )
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="the folder to serve (default: the repository)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not root.is_dir():
        parser.error(f"--root {args.root}: no such folder")
    try:
        from jupyterlab.labapp import LabApp
    except ImportError:
        return f"{PROG}: error: JupyterLab is not installed: run `make lab` (it installs 'jupyterlab>=4,<5')"
    port = args.port if args.port is not None else free_port()
    if port is None:
        return f"{PROG}: error: no free port from {FIRST_PORT} to {FIRST_PORT + PORTS_TRIED - 1}: pass --port"
    token = secrets.token_hex(24)
    print(guide(root, port, token), flush=True)
    LabApp.launch_instance(argv=jupyter_arguments(root, port, token, browser=not args.no_browser))
    return 0


if __name__ == "__main__":
    sys.exit(run(main, PROG))
