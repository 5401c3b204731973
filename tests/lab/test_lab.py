"""Lesson 05 in a real JupyterLab, every edition, as a reader meets it (issue 30): ``make lab``'s command serves a copy
of the lessons (tests/lab/conftest.py) and a headless Chromium opens, reads, runs, drags, saves and reopens.

One visit per edition collects what the checks need, in the reader's order (:func:`visit`): the lesson opened and
read without running it, autosave on (its rendered Markdown, the explorer cell's stored output, the file after
JupyterLab's autosave); autosave switched off (:func:`set_autosave`: from here on only the visit's own saves write
the file); the book page its first link to ``book/`` opens; then Run All, the state explorer driven with its slider
(typed into its readout and moved with the arrow keys) and its tanh switch, then a save, the tab closed and the
lesson reopened from the file browser while its kernel still runs, and the explorer driven again. Then the two ways
a saved explorer's view outlives its model (issue 45): the lesson saved, closed, its session ended (as a restart of
JupyterLab ends it) and reopened, then closed and reopened once more in the new session that opening started; and
Run All again, Kernel > Restart Kernel, a save, the tab closed and reopened. Each time every explorer must show its
note, never "model not found". Each test asserts one part of what was collected; a step that failed, or never ran
because an earlier one stopped the visit, is reported by the tests that need it.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import pathlib
import re
import time
import urllib.request

import numpy as np
import pytest

from attention_core import worked_example
from attention_core.explorers.state import TEXT as STATE_TEXT
from attention_core.explorers.twin import TEXT as TWIN_TEXT
from attention_core.explorers.twin import TWIN_MIME
from attention_workshop.execute import WIDGET_VIEW
from attention_workshop.lab import lessons_folder
from attention_workshop.paths import editions, name
from tests.helpers import ROOT

pytestmark = pytest.mark.lab

LESSON = "05_additive_score.ipynb"
RUN_TIMEOUT_MS = 180_000
SHOTS = pathlib.Path(os.environ.get("AE_SCREENSHOTS", ROOT / "_build" / "screenshots"))  # a failed step's screen
# MyST syntax that CommonMark shows as text: roles, label lines, directive fences and their options.
MYST = {
    "a role ({eq}, {doc}, {ref}, ...)": re.compile(r"\{(eq|doc|ref|numref|math|download|term|cite)\}"),
    "a label line ((label)=)": re.compile(r"^\s*\([\w.:-]+\)=\s*$", re.M),
    "a directive fence (```{...})": re.compile(r"`{3,}\{|:{3,}\{"),
    "a directive option (:class: ...)": re.compile(r"^\s*:(class|name|label|open|label|width|align|alt):", re.M),
}
SOLUTION = re.compile(r"^\s*(Solution|解答|参考答案)")  # a solution's title, as text outside a <details>
FOLDABLE = re.compile(r"<details>|\{dropdown\}")

# In the page: every Markdown cell's rendered text and, for the solutions, what a reader sees of them.
MARKDOWN = """() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell')].map(
  (cell, index) => {
    const rendered = cell.querySelector('.jp-RenderedMarkdown');
    const text = rendered ? rendered.innerText : '';
    const details = rendered ? [...rendered.querySelectorAll('details')].map(d => ({
      open: d.open, summary: (d.querySelector(':scope > summary')?.innerText || '').trim(),
    })) : [];
    const fences = rendered ? [...rendered.querySelectorAll('code[class*="language-{"]')].map(c => c.className) : [];
    const rest = rendered ? rendered.cloneNode(true) : document.createElement('div');
    rest.querySelectorAll('details').forEach(d => d.remove());
    return {index, rendered: !!rendered, text, details, fences, outside: rest.textContent};
  })"""
CODE_OUTPUT = """(needle) => {
  const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')];
  const cell = cells.find(c => (c.querySelector('.jp-InputArea-editor')?.innerText || '').includes(needle));
  if (!cell) return null;
  const area = cell.querySelector('.jp-OutputArea');
  const outputs = [...area.querySelectorAll('.jp-OutputArea-output')];
  return {text: outputs.map(o => o.innerText).join(' | '), widgets: area.querySelectorAll('.jupyter-widgets').length,
          errors: area.innerText.includes('Error displaying widget'), html: area.innerHTML.slice(0, 2000)};
}"""
# The page a link of the lesson opened (JupyterLab's Markdown preview): its tab, its text and its anchors (JupyterLab
# writes an element's id as data-jupyter-id and scrolls a link's #fragment to it).
LINKED_PAGE = """() => {
  const view = [...document.querySelectorAll('.jp-MainAreaWidget:not(.lm-mod-hidden) .jp-RenderedMarkdown')].pop();
  return {tab: document.querySelector('.lm-DockPanel .lm-TabBar-tab.lm-mod-current')?.innerText.trim() ?? null,
          text: view ? view.innerText : '',
          anchors: view ? [...view.querySelectorAll('[data-jupyter-id]')].map(e => e.dataset.jupyterId) : []};
}"""
# Every explorer cell (its index among the code cells): what its output area shows.
EXPLORER_CELLS = """(indices) => {
  const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')];
  return indices.map(i => {
    const area = cells[i]?.querySelector('.jp-OutputArea');
    if (!area) return {index: i, text: null, widgets: 0, errors: false};
    const text = [...area.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText.trim()).join(' | ');
    return {index: i, text, widgets: area.querySelectorAll('.jupyter-widgets').length,
            errors: area.innerText.includes('Error displaying widget')};
  });
}"""
# The state explorer: the widget box holding the slider whose label is the explorer's (in the edition's language).
EXPLORER = """(label) => {
  const slider = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .widget-hslider')]
    .find(s => s.querySelector('.widget-label')?.innerText.trim() === label);
  return slider ? slider.closest('.jp-OutputArea-output') : null;
}"""
READOUT = """(output) => {
  const handle = output.querySelector('.noUi-handle');
  const table = output.querySelector('table.ae-readout');
  const rows = table ? [...table.querySelectorAll('tr')].slice(1).map(r => [...r.cells].map(c => c.innerText.trim()))
                     : [];
  return {
    s: handle ? Number(handle.getAttribute('aria-valuenow')) : null,
    tanh: output.querySelector('input[type=checkbox]')?.checked ?? null,
    caption: table?.caption?.innerText.trim() ?? null,
    rows,
    text: output.innerText,
  };
}"""


@dataclasses.dataclass(repr=False)
class Visit:
    """What one edition's visit saw, step by step; ``failed`` maps a step to the error that stopped it."""

    edition: str
    path: str  # the lesson, relative to the served root
    original: bytes  # its bytes before the visit
    autosave: int  # JupyterLab's autosave interval in the visit, seconds
    markdown: list = dataclasses.field(default_factory=list)
    explorer_before_run: dict | None = None
    read_diff: list = dataclasses.field(default_factory=list)  # the file after reading vs. its original
    read_seconds: float = 0.0
    linked_page: dict = dataclasses.field(default_factory=dict)  # the book page its link opens (LINKED_PAGE, href)
    readouts: list = dataclasses.field(default_factory=list)  # (step, readout) after each action, first run
    reopened_output: dict | None = None
    reopened_readouts: list = dataclasses.field(default_factory=list)
    new_kernel_output: dict | None = None  # the explorer cell reopened with no kernel left for the lesson
    new_kernel_console: list = dataclasses.field(default_factory=list)
    # The two flows of issue 45, each: whether the file held widget views when reopened (the flow's premise), every
    # explorer cell's output (EXPLORER_CELLS), the console errors meanwhile.
    same_session: dict = dataclasses.field(default_factory=dict)  # closed and reopened in the new kernel's session
    restarted: dict = dataclasses.field(default_factory=dict)  # Run All, Kernel > Restart, saved, reopened
    console: list = dataclasses.field(default_factory=list)  # console errors
    seconds: dict = dataclasses.field(default_factory=dict)  # step -> seconds it took
    failed: dict = dataclasses.field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Visit({self.edition}: {self.path}, seconds per step {self.seconds}, failed {list(self.failed)})"

    def need(self, *steps: str) -> None:
        for step in steps:
            if step in self.failed:
                pytest.fail(f"{self.edition}: the step '{step}' failed: {self.failed[step]}")
            if step not in self.seconds:
                earlier = "; ".join(f"'{name}' failed: {why[:300]}" for name, why in self.failed.items())
                pytest.fail(f"{self.edition}: the step '{step}' did not run ({earlier or 'no step failed'})")


def notebook_diff(before: bytes, after: bytes, limit: int = 80) -> list[str]:
    """What changed in a notebook file, as unified diff lines of its text (at most ``limit``)."""
    lines = difflib.unified_diff(
        before.decode("utf-8").splitlines(), after.decode("utf-8").splitlines(), "original", "after", lineterm="", n=1
    )
    out = [line[:200] for line in lines]
    return out[:limit] + ([f"... {len(out) - limit} more lines"] if len(out) > limit else [])


def wait_idle(page, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Until the open notebook's kernel is idle and no cell waits to run."""
    page.wait_for_function(
        """() => {
          const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
          const status = document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
          return panel && status === 'idle'
            && ![...panel.querySelectorAll('.jp-InputPrompt')].some(p => p.innerText.includes('*'));
        }""",
        timeout=timeout_ms,
    )


def wait_opened(page, cells: int) -> None:
    """Until the lesson's tab shows all its ``cells``, every Markdown cell rendered (none is empty), and its kernel
    is idle."""
    page.wait_for_function(
        """(n) => {
          const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
          if (!panel) return false;
          const all = panel.querySelectorAll('.jp-Cell');
          const md = [...panel.querySelectorAll('.jp-MarkdownCell')];
          return all.length === n && md.every(c => c.querySelector('.jp-RenderedMarkdown')?.textContent.trim());
        }""",
        arg=cells,
        timeout=60_000,
    )
    wait_idle(page, 60_000)


def read_explorer(page, label: str) -> dict:
    output = page.evaluate_handle(EXPLORER, label)
    if output.as_element() is None:
        raise AssertionError(f"no state explorer (a slider labelled {label!r}) on the page")
    return page.evaluate(READOUT, output)


def explorer(page, label: str):
    handle = page.evaluate_handle(EXPLORER, label).as_element()
    if handle is None:
        raise AssertionError(f"no state explorer (a slider labelled {label!r}) on the page")
    return handle


def settled(page, edition: str, s: float, tanh: bool, timeout_s: float = 15) -> dict:
    """The explorer's readout once its slider shows ``s`` and its switch ``tanh``, and the table's caption says
    the same (the kernel has answered); after ``timeout_s`` whatever it shows."""
    label = STATE_TEXT.text("slider", edition)
    wanted = (f"s = {s:.2f}".replace("-", "−"), STATE_TEXT.text("with" if tanh else "without", edition))
    deadline = time.monotonic() + timeout_s
    while True:
        readout = read_explorer(page, label)
        caption = (readout["caption"] or "").replace("-", "−")
        if readout["s"] is not None and abs(readout["s"] - s) < 1e-9 and readout["tanh"] == tanh:
            if wanted[0] in caption and caption.endswith(wanted[1]):
                return readout
        if time.monotonic() > deadline:
            return readout
        page.wait_for_timeout(100)


def expected_rows(s: float, tanh: bool) -> list[list[str]]:
    """The explorer's table at ``s`` as the package computes it (scores and weights to 4 decimals)."""
    read = worked_example(s, nonlinearity=np.tanh if tanh else None)
    return [[f"{read.scores[j]:.4f}", f"{read.weights[j]:.4f}"] for j in range(len(read.weights))]


def expected_context(s: float, tanh: bool) -> str:
    c = worked_example(s, nonlinearity=np.tanh if tanh else None).context
    return f"({c[0]:.6f}, {c[1]:.6f})"


def drive(page, edition: str, record: list) -> None:
    """Type a state into the slider's readout, move the slider with the keyboard, untick and tick the tanh
    switch; record the readout after each action."""
    label = STATE_TEXT.text("slider", edition)
    page.wait_for_function(f"({EXPLORER})({json.dumps(label)}) !== null", timeout=30_000)  # its view is drawn
    output = explorer(page, label)
    first = read_explorer(page, label)
    record.append(("as drawn", settled(page, edition, first["s"], first["tanh"])))
    output.query_selector(".widget-readout").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    record.append(("typed s = 1", settled(page, edition, 1.0, first["tanh"])))
    if not first["tanh"]:
        output.query_selector("input[type=checkbox]").click()
        record.append(("tanh on", settled(page, edition, 1.0, True)))
    output.query_selector(".noUi-handle").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    record.append(("two steps right", settled(page, edition, 1.1, True)))
    output.query_selector("input[type=checkbox]").click()
    record.append(("tanh off", settled(page, edition, 1.1, False)))
    output.query_selector(".noUi-handle").focus()
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    record.append(("four steps left, tanh off", settled(page, edition, 0.9, False)))
    output.query_selector("input[type=checkbox]").click()
    record.append(("tanh on", settled(page, edition, 0.9, True)))


def step(visit: Visit, page, name: str, action) -> bool:
    """Do one step of the visit; a failure is recorded (with a screenshot) for the tests that need the step."""
    started = time.monotonic()
    try:
        action()
    except Exception as exc:  # the tests that need this step report it
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"lab-{visit.edition}-{re.sub(r'[^a-z]+', '-', name)}.png"
        try:
            page.screenshot(path=str(shot))
        except Exception:
            shot = None
        visit.failed[name] = f"{type(exc).__name__}: {str(exc)[:1500]} (screenshot: {shot})"
        return False
    finally:
        visit.seconds[name] = round(time.monotonic() - started, 1)
    return True


def run_all(page) -> None:
    """Run > Run All Cells, then wait until the kernel is idle again. A click that the menu missed (the page was
    still settling) is made once more."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    started = "() => [...document.querySelectorAll('.jp-InputPrompt')].some(p => p.innerText.includes('*'))"
    for attempt in range(2):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_function(started, timeout=15_000)
            break
        except PlaywrightTimeout:
            if attempt:
                raise
    wait_idle(page)


def save_close_reopen(page, path: str, cells: int, lab=None) -> None:
    """Save the lesson, close its tab and open it again from the file browser; with ``lab``, shut its kernel
    down in between (as a restart of JupyterLab does)."""
    save(page)
    page.locator(".lm-DockPanel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon").click()
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)')", timeout=30_000)
    if lab is not None:
        shut_down(lab, path)
    name = path.rsplit("/", 1)[-1]
    page.locator(".jp-DirListing-item", has=page.locator(".jp-DirListing-itemText", has_text=name)).first.dblclick()
    wait_opened(page, cells)


def save(page) -> None:
    """File > Save (Control+S), then wait until the tab is clean and no save is under way (the status bar's
    "Saving started": a tab closed while its save runs gets a "File Save Error ... Disposed" dialog). If a dialog
    (such as "File Changed") is open when the wait ends, raises AssertionError with its text."""
    page.keyboard.press("Control+S")
    page.wait_for_function(
        """() => document.querySelector('.jp-Dialog') || (
          !document.querySelector('.lm-DockPanel .lm-TabBar-tab.lm-mod-current.jp-mod-dirty')
          && ![...document.querySelectorAll('.jp-StatusBar-Widget')]
               .some(w => w.innerText.includes('Saving started')))""",
        timeout=30_000,
    )
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        raise AssertionError(f"a dialog opened on saving: {' '.join(dialog.first.inner_text().split())[:300]}")


def set_autosave(page, on: bool) -> None:
    """Tick or untick Settings > Autosave Documents. The setting is kept in the run's settings folder, shared by every
    edition's visit, so each visit sets it: on for the read, which checks that nothing rewrites the lesson; off
    afterwards, because JupyterLab's autosave does not wait for a save already under way: a save that checks the
    file after the other has written it, but before the other has recorded the file's new hash, sees another hash
    and opens a "File Changed" dialog (CI met it once in "run all, restart the kernel, save, close, reopen")."""
    item = page.locator('.lm-Menu-item[data-command="docmanager:toggle-autosave"]')
    menu = page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Settings$"))

    def ticked() -> bool:  # opens Settings, reads the item's tick, closes the menu
        menu.click()
        state = item.get_attribute("aria-checked") == "true"
        page.keyboard.press("Escape")
        return state

    if ticked() == on:
        return
    menu.click()
    item.click()  # the setting is saved, then applied: the tick follows
    deadline = time.monotonic() + 10
    while ticked() != on:
        if time.monotonic() > deadline:
            raise AssertionError(f"Settings > Autosave Documents is {'not ' if on else ''}ticked 10 s after a click")
        page.wait_for_timeout(200)


def open_linked_page(page, record: dict) -> None:
    """Click the lesson's first link to a book page (``../book/references.md#sources``), read the page JupyterLab
    opens, then close its tab (the lesson's is current again)."""
    link = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown a[href*="/book/"]').first
    record["href"] = link.get_attribute("href")
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_function(
        "() => /\\.md$/.test(document.querySelector('.lm-DockPanel .lm-TabBar-tab.lm-mod-current')?.innerText.trim())"
        " && [...document.querySelectorAll('.jp-MainAreaWidget:not(.lm-mod-hidden) .jp-RenderedMarkdown')].length",
        timeout=30_000,
    )
    page.wait_for_timeout(1000)  # rendered: math, links
    record.update(page.evaluate(LINKED_PAGE))
    page.locator(".lm-DockPanel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon").click()
    page.wait_for_function("() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)')", timeout=30_000)


def close_reopen(page, path: str, cells: int) -> None:
    """Close the lesson's tab without saving and open it again from the file browser (its session stays)."""
    page.locator(".lm-DockPanel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon").click()
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)')", timeout=30_000)
    name = path.rsplit("/", 1)[-1]
    page.locator(".jp-DirListing-item", has=page.locator(".jp-DirListing-itemText", has_text=name)).first.dblclick()
    wait_opened(page, cells)


def restart_kernel(page) -> None:
    """Kernel > Restart Kernel..., confirmed, then wait until the new kernel is idle."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Kernel$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Restart Kernel")).first.click()
    page.locator(".jp-Dialog .jp-mod-accept").click()
    page.wait_for_function(
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status !== 'idle'", timeout=15_000
    )
    wait_idle(page, 60_000)


def explorer_cells(original: bytes) -> list[int]:
    """The indices, among a lesson's code cells, of the cells whose stored output declares an explorer's twin."""
    code = [c for c in json.loads(original)["cells"] if c["cell_type"] == "code"]
    return [i for i, c in enumerate(code) if any(TWIN_MIME in o.get("data", {}) for o in c.get("outputs", []))]


def holds_views(lab, path: str, seconds: float = 10) -> bool:
    """Whether the lesson's file, as saved, holds an explorer's widget view. Jupyter Server writes a notebook in
    place (its atomic writing keeps a backup copy, not a temporary file), so a read during an autosave can find it
    half written: read again until it parses."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            nb = json.loads((lab.root / path).read_text(encoding="utf-8"))
            break
        except ValueError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    return any(WIDGET_VIEW in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))


def shut_down(lab, path: str) -> None:
    """End the lesson's kernel session through the server's API."""
    with urllib.request.urlopen(f"http://localhost:{lab.port}/api/sessions?token={lab.token}", timeout=10) as r:
        sessions = [s for s in json.load(r) if s.get("path") == path]
    for session in sessions:
        url = f"http://localhost:{lab.port}/api/sessions/{session['id']}?token={lab.token}"
        urllib.request.urlopen(urllib.request.Request(url, method="DELETE"), timeout=30).close()


@pytest.fixture(scope="module", params=editions())
def visit(request, lab, lab_browser) -> Visit:
    edition = request.param
    path = f"{lessons_folder(edition)}/{LESSON}"
    if path not in lab.originals:
        pytest.skip(f"the {edition} edition has no {path} yet")
    cells = len(json.loads(lab.originals[path])["cells"])
    result = Visit(edition, path, lab.originals[path], lab.autosave)
    context = lab_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("console", lambda m: result.console.append(m.text[:300]) if m.type == "error" else None)
    try:
        if not step(result, page, "open", lambda: (page.goto(lab.url(path) + "&reset"), wait_opened(page, cells))):
            return result
        result.markdown = page.evaluate(MARKDOWN)
        result.explorer_before_run = page.evaluate(CODE_OUTPUT, "state_explorer(")

        def autosave():
            set_autosave(page, True)
            started = time.monotonic()
            page.wait_for_timeout((2 * lab.autosave + 2) * 1000)  # two autosave intervals and a margin
            result.read_seconds = round(time.monotonic() - started, 1)
            after = (lab.root / path).read_bytes()
            result.read_diff = notebook_diff(lab.originals[path], after) if after != lab.originals[path] else []

        step(result, page, "read", autosave)
        if not step(result, page, "switch autosave off", lambda: set_autosave(page, False)):
            return result
        step(result, page, "open the linked page", lambda: open_linked_page(page, result.linked_page))
        if not step(result, page, "run all", lambda: run_all(page)):
            return result
        if not step(result, page, "drive", lambda: drive(page, edition, result.readouts)):
            return result
        if not step(result, page, "save, close, reopen", lambda: save_close_reopen(page, path, cells)):
            return result
        page.wait_for_timeout(1000)  # the widget views draw from the kernel's models
        result.reopened_output = page.evaluate(CODE_OUTPUT, "state_explorer(")
        step(result, page, "drive after reopening", lambda: drive(page, edition, result.reopened_readouts))
        seen = len(result.console)

        def new_kernel():
            save_close_reopen(page, path, cells, lab)
            page.wait_for_timeout(2000)  # what the explorer cell draws
            result.new_kernel_output = page.evaluate(CODE_OUTPUT, "state_explorer(")
            result.new_kernel_console = result.console[seen:]

        if not step(result, page, "reopen with a new kernel", new_kernel):
            return result
        explorers = explorer_cells(result.original)

        def flow(record: dict, reopen) -> None:
            seen = len(result.console)
            record["views in the file"] = holds_views(lab, path)
            reopen()
            page.wait_for_timeout(2000)  # what the explorer cells draw: a widget view still loading is waited for
            page.wait_for_function(
                f"() => ({EXPLORER_CELLS})({json.dumps(explorers)}).every(c => !c.text.includes('Loading widget'))",
                timeout=15_000,
            )
            record["cells"] = page.evaluate(EXPLORER_CELLS, explorers)
            record["console"] = result.console[seen:]

        step(
            result,
            page,
            "close and reopen in the new session",
            lambda: flow(result.same_session, lambda: close_reopen(page, path, cells)),
        )

        def restarted():
            run_all(page)
            restart_kernel(page)
            save(page)
            flow(result.restarted, lambda: close_reopen(page, path, cells))

        step(result, page, "run all, restart the kernel, save, close, reopen", restarted)
        return result
    finally:
        context.close()


def test_make_lab_prints_how_to_open_each_edition_first(lab):
    lines = lab.output().splitlines()
    first = [i for i, line in enumerate(lines) if line.startswith("[")]  # JupyterLab's log lines start with [I ...]
    guide = lines[: first[0]] if first else lines
    for edition in editions():
        folder = lessons_folder(edition)
        assert any(line.strip() == f"{name(edition)}: {folder}/" for line in guide), guide
        url = next((line.strip() for line in guide if f"/lab/tree/{folder}/01_" in line), None)
        assert url is not None and url.startswith(f"http://localhost:{lab.port}/"), guide
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200


def test_reading_a_lesson_does_not_modify_it(visit):
    visit.need("open", "read")
    assert visit.read_diff == [], (
        f"{visit.path}: JupyterLab rewrote the lesson within {visit.read_seconds} s of reading it (autosave every "
        f"{visit.autosave} s):\n" + "\n".join(visit.read_diff)
    )


def around(text: str, match, width: int = 40) -> str:
    return text[max(0, match.start() - width) : match.end() + width].replace("\n", " ")


def test_no_markdown_cell_shows_myst_syntax(visit):
    visit.need("open")
    found = [
        f"cell {cell['index']}: {what}: {match.group(0)!r} in “{around(cell['text'], match)}”"
        for cell in visit.markdown
        for what, pattern in MYST.items()
        for match in pattern.finditer(cell["text"])
    ] + [
        f"cell {cell['index']}: a directive fence rendered as code ({f})"
        for cell in visit.markdown
        for f in cell["fences"]
    ]
    assert not found, f"{visit.path}: {len(found)} leftovers of MyST syntax:\n" + "\n".join(found)


def test_the_book_page_a_lesson_links_to_opens_without_myst_at_its_anchor(visit):
    """The lessons' links to ``book/*.md`` open JupyterLab's Markdown preview: no role, label or directive shows
    (the pages are portable Markdown, attention_workshop.portable) and the link's ``#anchor`` is an element there."""
    visit.need("open", "open the linked page")
    shown = visit.linked_page
    anchor = shown["href"].partition("#")[2]
    assert shown["tab"].endswith(".md") and "/book/" in shown["href"] and anchor, shown["href"]
    found = [
        f"{what}: {match.group(0)!r} in “{around(shown['text'], match)}”"
        for what, pattern in MYST.items()
        for match in pattern.finditer(shown["text"])
    ]
    assert not found, f"{shown['tab']}: {len(found)} leftovers of MyST syntax:\n" + "\n".join(found)
    assert anchor in shown["anchors"], f"{shown['tab']} has no anchor {anchor!r}: {shown['anchors'][:20]}"


def test_every_solution_is_folded(visit):
    visit.need("open")
    source = json.loads(visit.original)["cells"]
    wanted = sum(
        len(FOLDABLE.findall("".join(cell["source"]))) for cell in source if cell["cell_type"] == "markdown"
    )  # each exercise's solution, in a <details> block (or, before the portable Markdown, a {dropdown})
    folded = [d for cell in visit.markdown for d in cell["details"] if d["summary"] and not d["open"]]
    shown = [
        f"cell {cell['index']}: {line.strip()[:80]!r}"
        for cell in visit.markdown
        for line in cell["outside"].splitlines()
        if SOLUTION.match(line)
    ] + [f"cell {cell['index']}: a dropdown rendered as code" for cell in visit.markdown if cell["fences"]]
    assert wanted > 0, f"{visit.path} has no solutions to check"
    assert len(folded) == wanted and not shown, (
        f"{visit.path}: {wanted} solutions in the source, {len(folded)} folded in a closed <details> with a summary;"
        f" shown: {shown}"
    )


def test_an_unrun_explorer_shows_a_line_of_text_not_a_widget(visit):
    visit.need("open")
    before = visit.explorer_before_run
    assert before is not None, "no explorer cell (state_explorer(...)) in the lesson"
    assert before["widgets"] == 0 and not before["errors"], before["html"]
    text = before["text"].strip()
    assert text and "\n" not in text and "StateExplorer(" not in text, f"the unrun explorer cell shows: {text!r}"


def check_readouts(edition: str, readouts: list) -> None:
    assert readouts, "no readout recorded"
    for what, readout in readouts:
        s, tanh = readout["s"], readout["tanh"]
        rows = [row[1:] for row in readout["rows"]]
        assert rows == expected_rows(s, tanh), f"{edition}, {what}: s = {s}, tanh {tanh}: {readout}"
        assert expected_context(s, tanh) in readout["text"], f"{edition}, {what}: {readout['text']}"
        mode = STATE_TEXT.text("with" if tanh else "without", edition)
        assert mode in readout["caption"], f"{edition}, {what}: {readout['caption']}"
    states = [(r["s"], r["tanh"]) for what, r in readouts if what not in ("as drawn", "typed s = 1")]
    assert states[-4:] == [(1.1, True), (1.1, False), (0.9, False), (0.9, True)], states


def test_after_run_all_the_explorer_follows_its_slider_and_switch(visit):
    visit.need("open", "run all", "drive")
    check_readouts(visit.edition, visit.readouts)


def test_with_a_new_kernel_the_saved_explorer_shows_its_note(visit):
    """Saved after Run All, closed, its kernel shut down (a restart), opened again: the explorer's cell shows its
    note, not a widget whose model died with the old kernel."""
    visit.need("open", "run all", "save, close, reopen", "reopen with a new kernel")
    shown = visit.new_kernel_output
    assert shown is not None and not shown["errors"] and shown["widgets"] == 0, shown
    assert shown["text"].strip() and "\n" not in shown["text"].strip(), shown["text"]
    assert not [line for line in visit.new_kernel_console if "model not found" in line.lower()], (
        visit.new_kernel_console
    )


def test_after_save_and_reopen_the_explorer_still_works(visit):
    visit.need("open", "run all", "drive", "save, close, reopen")
    reopened = visit.reopened_output
    assert reopened is not None and not reopened["errors"] and "model not found" not in reopened["text"], reopened
    assert not [line for line in visit.console if "model not found" in line.lower()], visit.console
    if "drive after reopening" in visit.failed:
        pytest.fail(f"{visit.failed['drive after reopening']}\nthe reopened explorer cell: {reopened}")
    check_readouts(visit.edition, visit.reopened_readouts)


def check_notes(visit: Visit, record: dict) -> None:
    """Every explorer cell of the reopened lesson shows its note (in the edition's language), no widget and no
    "model not found"; the file did hold the views (else the flow proves nothing)."""
    assert record.get("views in the file"), f"{visit.path}: the saved lesson held no widget view to leave out"
    cells = record["cells"]
    note = TWIN_TEXT.text("unrun", visit.edition)
    assert cells, f"{visit.path}: no explorer cell"
    wrong = [c for c in cells if c["errors"] or c["widgets"] or c["text"] != note]
    assert not wrong, f"{visit.path}: {len(wrong)} of {len(cells)} explorer cells do not show {note!r}: {wrong}"
    assert not [line for line in record["console"] if "model not found" in line.lower()], record["console"]


def test_reopened_in_the_session_of_a_new_kernel_the_explorers_show_their_note(visit):
    """After a restart of JupyterLab (the lesson's session ended), the lesson opened, its tab closed and opened
    again: the session that the first opening started has a new kernel, which holds none of the saved views'
    models."""
    visit.need(
        "open", "run all", "save, close, reopen", "reopen with a new kernel", "close and reopen in the new session"
    )
    check_notes(visit, visit.same_session)


def test_after_a_kernel_restart_the_reopened_explorers_show_their_note(visit):
    """Run All, Kernel > Restart Kernel, save, close, reopen: the restarted kernel (same session, same kernel id)
    holds none of the saved views' models."""
    visit.need("open", "run all", "reopen with a new kernel", "run all, restart the kernel, save, close, reopen")
    check_notes(visit, visit.restarted)
