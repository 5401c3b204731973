"""``make lab``'s contents manager keeps an explorer's widget view exactly when a kernel of the lesson's sessions
holds its model (``attention_workshop.lab``), asked of a real kernel without a browser: a kernel that displayed
the widget holds it; the same kernel restarted (Kernel > Restart), a new kernel (a new session after JupyterLab
restarted) and no session at all hold nothing, so the view is left out and the explorer's note shows.
``tests/lab/test_lab.py`` drives the same flows in JupyterLab.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import json
import types

import pytest

from attention_workshop.execute import WIDGET_VIEW
from attention_workshop.lab import held_models, lesson_contents, view_models
from tests.helpers import ROOT

pytestmark = pytest.mark.lab

LESSON = "notebooks/05_additive_score.ipynb"
EXPLORER = "state_explorer("  # the lesson's explorer cell
SHOW = "import ipywidgets\nw = ipywidgets.IntSlider()\ndisplay(w)\nw.model_id"


async def _execute(kernel, code: str) -> str:
    """Run ``code`` in ``kernel``; its result's text."""
    outputs = []
    client = kernel.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute_interactive(code, timeout=60, output_hook=outputs.append)
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        client.stop_channels()
    results = [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]
    return results[-1].strip("'")


class Kernels:
    """The two attributes of Jupyter Server's kernel manager that the contents manager uses."""

    def __init__(self, kernels: dict):
        self.kernels = kernels

    def __contains__(self, kernel_id):
        return kernel_id in self.kernels

    def get_kernel(self, kernel_id):
        return self.kernels[kernel_id]


class Sessions:
    def __init__(self, sessions: list):
        self.sessions = sessions

    async def list_sessions(self):
        return self.sessions


def _with_view(model_id: str) -> dict:
    """Lesson 05 as a reader saved it after running its explorer: the explorer's output holds a view of
    ``model_id``."""
    nb = json.loads((ROOT / LESSON).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and EXPLORER in "".join(c["source"]))
    cell["outputs"][0]["data"][WIDGET_VIEW] = {"model_id": model_id, "version_major": 2, "version_minor": 0}
    return nb


async def _read(tmp_path, nb: dict, sessions: list, kernels: dict) -> dict:
    """The lesson as ``LessonContents`` serves it with these sessions and kernels."""
    (tmp_path / "notebooks").mkdir(exist_ok=True)
    (tmp_path / LESSON).write_text(json.dumps(nb), encoding="utf-8")
    from traitlets.config import Configurable

    server = Configurable()  # the server application, Jupyter Server's parent of its contents manager
    server.session_manager, server.kernel_manager = Sessions(sessions), Kernels(kernels)
    contents = lesson_contents()(root_dir=str(tmp_path), parent=server)
    return (await contents.get(LESSON))["content"]


def _run(coroutine):
    """``asyncio.run`` in a thread of its own: Playwright's sync API (tests/lab/test_lab.py, same session) keeps an
    event loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _views(nb) -> list:
    return [
        output["data"][WIDGET_VIEW]["model_id"]
        for cell in nb["cells"]
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]


def test_a_view_is_kept_only_while_a_kernel_of_the_lesson_holds_its_model(tmp_path):
    pytest.importorskip("jupyter_server", reason="JupyterLab is not installed: make lab-test installs it")
    from jupyter_client.manager import AsyncKernelManager

    async def flows():
        first, second = AsyncKernelManager(kernel_name="python3"), AsyncKernelManager(kernel_name="python3")
        await first.start_kernel()
        await second.start_kernel()
        try:
            model_id = await _execute(first, SHOW)
            nb = _with_view(model_id)
            assert view_models(nb) == {model_id}
            on = lambda kernel_id: [{"path": LESSON, "kernel": {"id": kernel_id}}]  # noqa: E731
            kernels = {"first": first, "second": second}
            seen = {
                "the kernel that ran it": await _read(tmp_path, copy.deepcopy(nb), on("first"), kernels),
                "another lesson's kernel": await _read(
                    tmp_path, copy.deepcopy(nb), [{"path": "notebooks/04.ipynb", "kernel": {"id": "first"}}], kernels
                ),
                "no session": await _read(tmp_path, copy.deepcopy(nb), [], kernels),
                "a new kernel (JupyterLab restarted)": await _read(tmp_path, copy.deepcopy(nb), on("second"), kernels),
            }
            assert model_id in await held_models(first)
            await first.restart_kernel()
            seen["the kernel restarted"] = await _read(tmp_path, copy.deepcopy(nb), on("first"), kernels)
            return model_id, seen
        finally:
            await first.shutdown_kernel(now=True)
            await second.shutdown_kernel(now=True)

    model_id, seen = _run(flows())
    assert {flow: _views(nb) for flow, nb in seen.items()} == {
        "the kernel that ran it": [model_id],
        "another lesson's kernel": [],
        "no session": [],
        "a new kernel (JupyterLab restarted)": [],
        "the kernel restarted": [],
    }
    note = seen["the kernel restarted"]
    cell = next(c for c in note["cells"] if c["cell_type"] == "code" and EXPLORER in "".join(c["source"]))
    assert "run this cell" in "".join(cell["outputs"][0]["data"]["text/plain"])


def test_a_kernel_that_does_not_answer_holds_nothing():
    class Silent:
        """A kernel whose control channel never answers."""

        def client(self):
            channel = types.SimpleNamespace(send=lambda msg: None, get_msg=self.never)
            return types.SimpleNamespace(
                start_channels=lambda **_: None,
                stop_channels=lambda: None,
                session=types.SimpleNamespace(msg=lambda kind, content: {"header": {"msg_id": "1"}}),
                control_channel=channel,
            )

        async def never(self, timeout=None):
            import queue

            await asyncio.sleep(timeout)
            raise queue.Empty

    assert _run(held_models(Silent(), seconds=0.2)) == frozenset()
    starting = types.SimpleNamespace(execution_state="starting")  # no client is even made
    assert _run(held_models(starting)) == frozenset()
