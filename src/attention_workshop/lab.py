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
keeps their widget views (JupyterLab does not save the widgets' state), each naming the model it draws
(``model_id``), which only the kernel that made it holds. So when a lesson is read, the contents manager asks the
kernel of each session open on that lesson which widget models it holds (:func:`held_models`: a
``comm_info_request`` for ipywidgets' comm target, the question JupyterLab's widget manager itself asks when it
reconnects to a kernel; an ipywidgets model's id is its comm's id) and leaves out every explorer's view whose model
no such kernel holds: after Kernel > Restart, after a restart of JupyterLab, in a session whose new kernel has not
run the cell. Each such explorer then shows its stored note ("run this cell to start it") instead of "Error
displaying widget: model not found"; a view whose model the kernel still holds (the lesson closed and reopened
while its kernel ran on) is kept and keeps working.

The question goes on the kernel's control channel, which ipykernel (6 and later) answers even while a cell runs;
a kernel that has not answered within :data:`ASK_SECONDS` (starting, stopped, hung) is taken to hold no model.
The server alone knows nothing of a restart's effect on the widgets (a restarted kernel keeps its id and its
session), which is why it asks rather than remembers which kernel made the views.
"""

from __future__ import annotations

import asyncio
import functools
import os
import pathlib
import queue
import secrets
import socket
import sys
import urllib.parse

from attention_workshop.command import OneLineParser, port_number, run
from attention_workshop.execute import WIDGET_VIEW, drop_explorer_views
from attention_workshop.paths import ENGLISH, ROOT, editions, name

PROG = "python -m attention_workshop.lab"
FIRST_PORT = 8888  # JupyterLab's own default
PORTS_TRIED = 50
HOST = "localhost"
WIDGET_TARGET = "jupyter.widget"  # the comm target of ipywidgets' models: a model's id is its comm's id
ASK_SECONDS = 3.0  # how long a kernel has to say which widget models it holds (it answers in milliseconds)


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


def view_models(nb: dict) -> set[str]:
    """The models the widget views stored in notebook ``nb`` (parsed JSON) draw: their ``model_id``."""
    return {
        view["model_id"]
        for cell in nb.get("cells", [])
        if cell.get("cell_type") == "code"
        for output in cell.get("outputs", [])
        if isinstance(view := output.get("data", {}).get(WIDGET_VIEW), dict) and isinstance(view.get("model_id"), str)
    }


async def held_models(kernel, seconds: float = ASK_SECONDS) -> frozenset[str]:
    """The ids of the widget models a running kernel holds (``kernel``: its ``jupyter_client`` kernel manager, as
    Jupyter Server's kernel manager hands it out), asked on its control channel (``comm_info_request`` for
    :data:`WIDGET_TARGET`); none if it is still starting or does not answer within ``seconds``."""
    if getattr(kernel, "execution_state", None) == "starting":  # a kernel still starting has run nothing
        return frozenset()
    client = kernel.client()
    client.start_channels(shell=False, iopub=False, stdin=False, hb=False, control=True)
    try:
        request = client.session.msg("comm_info_request", {"target_name": WIDGET_TARGET})
        client.control_channel.send(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (left := deadline - loop.time()) > 0:
            reply = await client.control_channel.get_msg(timeout=left)
            if reply.get("parent_header", {}).get("msg_id") == request["header"]["msg_id"]:
                comms = reply.get("content", {}).get("comms")
                return frozenset(comms) if isinstance(comms, dict) else frozenset()
    except queue.Empty:  # no answer in time
        pass
    finally:
        client.stop_channels()
    return frozenset()


@functools.cache
def lesson_contents():
    """The server's contents manager, :class:`LessonContents` (made on first use: Jupyter Server is installed with
    JupyterLab, by ``make lab``, and this module's other commands work without it)."""
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

    class LessonContents(AsyncLargeFileManager):
        """JupyterLab's own contents manager, except that a notebook is read without the widget views of its
        explorers whose models no kernel of the notebook's sessions holds: see the module's docstring."""

        async def get(self, path, content=True, type=None, format=None, **kwargs):
            model = await super().get(path, content=content, type=type, format=format, **kwargs)
            if model.get("type") == "notebook" and model.get("content") is not None:
                wanted = view_models(model["content"])
                held = await self.models_held_for(model["path"]) if wanted else frozenset()
                drop_explorer_views(model["content"], keep=held)
            return model

        async def models_held_for(self, path: str) -> frozenset[str]:
            """The widget models held by the kernels of the sessions open on notebook ``path``."""
            sessions = getattr(self.parent, "session_manager", None)
            kernels = getattr(self.parent, "kernel_manager", None)
            if sessions is None or kernels is None:
                return frozenset()
            held: set[str] = set()
            for session in await sessions.list_sessions():
                kernel_id = (session.get("kernel") or {}).get("id")
                if session.get("path") == path and kernel_id in kernels:
                    held |= await held_models(kernels.get_kernel(kernel_id))
            return frozenset(held)

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
