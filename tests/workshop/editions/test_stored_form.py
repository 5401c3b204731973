"""Every committed notebook is in its stored form (attention_workshop.execute): what JupyterLab writes when a reader
opens and saves it, with no widget state and no widget view, each explorer's output a note in the edition's
language beside its twin declaration. So reading a lesson in ``make lab`` leaves ``git status`` clean, and an
unrun explorer never looks live."""

from __future__ import annotations

import json
import math
import re
import shutil
import struct
import subprocess

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attention_core.explorers.twin import TWIN_MIME, unrun_note
from attention_core.lang import language
from attention_workshop.execute import (
    EXERCISE_CHECK,
    WIDGET_VIEW,
    NotStorable,
    installed_kernelspec,
    js_number,
    stored_form,
    through_browser,
)
from attention_workshop.paths import ENGLISH, ROOT, editions
from tests.helpers import as_main


def committed_notebooks() -> list[tuple[str, object]]:
    """(edition, path) of every committed notebook: book/ and notebooks/ of each edition (as the Makefile's)."""
    found = []
    for edition in editions():
        base = ROOT if edition == ENGLISH else ROOT / edition
        found += [(edition, p) for folder in ("book", "notebooks") for p in sorted((base / folder).glob("*.ipynb"))]
    return found


NOTEBOOKS = committed_notebooks()
FIX = "run: .venv/bin/python -m attention_workshop.execute {path}"


def test_every_edition_is_checked():
    assert {e for e, _ in NOTEBOOKS} == set(editions()) and len(NOTEBOOKS) >= 20


@pytest.mark.parametrize("edition,path", NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for _, p in NOTEBOOKS])
def test_a_committed_notebook_is_what_jupyterlab_saves_with_no_widget_and_a_note_per_explorer(edition, path):
    name = path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    assert "widgets" not in nb["metadata"], f"{name}: stores widget state; {FIX.format(path=name)}"
    assert nb["metadata"]["kernelspec"] == installed_kernelspec(), f"{name}: kernelspec; {FIX.format(path=name)}"
    with language(edition):
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                where = f"{name} [{cell['id']}]"
                assert WIDGET_VIEW not in data, f"{where}: stores a widget view; {FIX.format(path=name)}"
                if TWIN_MIME in data:
                    note = unrun_note(data[TWIN_MIME]["kind"])
                    stored = {mime: "".join(data.get(mime, [])) for mime in note}
                    assert stored == note, f"{where}: the explorer's note is not its edition's; {FIX.format(path=name)}"
    assert stored_form(text, name) == text, f"{name}: not as JupyterLab would save it; {FIX.format(path=name)}"


# ---------------------------------------------------------------------------------------------------------
# The check catches a notebook that is not in its stored form


def a_notebook(outputs: list, metadata: dict | None = None) -> dict:
    cell = {"cell_type": "code", "execution_count": 1, "id": "c0ffee01", "metadata": {}, "outputs": outputs}
    cell["source"] = ["state_explorer(s=-1.0)"]
    meta = {"kernelspec": installed_kernelspec(), **(metadata or {})}
    return {"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}


def explorer_output(view: bool) -> dict:
    data = {TWIN_MIME: {"kind": "state", "args": {"s": -1.0, "tanh_switch": True}}, **unrun_note("state")}
    if view:
        data[WIDGET_VIEW] = {"model_id": "8844f7b4", "version_major": 2, "version_minor": 0}
    return {"data": data, "execution_count": 1, "metadata": {}, "output_type": "execute_result"}


def as_jupyter_execute_writes(nb: dict) -> str:
    """The file ``jupyter execute --inplace`` writes (nbformat.write): Python's floats, widget state and all."""
    import nbformat

    return nbformat.writes(nbformat.from_dict(nb)) + "\n"


def test_a_stored_notebook_is_its_own_stored_form():
    stored = stored_form(as_jupyter_execute_writes(a_notebook([explorer_output(view=True)])))
    assert stored_form(stored) == stored
    out = json.loads(stored)["cells"][0]["outputs"][0]["data"]
    assert WIDGET_VIEW not in out and out[TWIN_MIME]["args"] == {"s": -1, "tanh_switch": True}
    assert '"s": -1,' in stored and stored.endswith("}\n")


@pytest.mark.parametrize(
    "problem",
    ["widget state", "widget view", "float", "kernel name", "indent", "no final newline"],
)
def test_a_notebook_not_in_its_stored_form_fails_the_check(problem):
    view = problem == "widget view"
    meta = (
        {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}} if problem == "widget state" else {}
    )
    if problem == "kernel name":
        meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nb = a_notebook([explorer_output(view)], meta)
    text = as_jupyter_execute_writes(nb)
    if problem not in ("float", "widget state", "widget view"):
        text = stored_form(text)  # only the one problem below, the rest as stored
        nb = json.loads(text)
        nb["metadata"].update(meta)
        text = as_jupyter_execute_writes(nb)
    if problem == "indent":
        text = json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if problem == "no final newline":
        text = text.rstrip("\n")
    assert stored_form(text) != text


def test_an_exercise_check_cell_is_stored_unrun_and_every_other_cell_as_it_ran():
    """A self-check's verdict on a starting answer would show the reader what to change before they tried."""
    verdict = {"data": {"text/plain": ["✗ forward states: ..."]}, "execution_count": 3, "metadata": {}}
    nb = a_notebook([{**verdict, "output_type": "execute_result"}])
    nb["cells"][0]["metadata"] = {"tags": [EXERCISE_CHECK, "nbval-ignore-output"], "execution": {"iopub": "x"}}
    nb["cells"].append({**nb["cells"][0], "id": "c0ffee02", "metadata": {}})  # the same output, not a check cell
    stored = json.loads(stored_form(as_jupyter_execute_writes(nb)))
    check, other = stored["cells"]
    assert check["outputs"] == [] and check["execution_count"] is None and "execution" not in check["metadata"]
    assert check["metadata"]["tags"] == [EXERCISE_CHECK, "nbval-ignore-output"]
    assert other["outputs"] and other["execution_count"] == 1


def test_a_check_cells_declaration_moves_to_its_metadata():
    """What the check declared for the website (its verdict's EXERCISE_MIME) stays, in the cell's metadata; the verdict
    goes. A cell stored unrun keeps what it has; a cell that ran without a declaration loses an older one."""
    from attention_core.checks.base import EXERCISE_MIME
    from attention_core.checks.site import EXERCISE_KEY

    declared = {"check": "check_peak_state", "args": {"position": 1}, "start": ["0.0"]}
    verdict = {"data": {"text/plain": ["✗ ..."], EXERCISE_MIME: declared}, "execution_count": 3, "metadata": {}}
    nb = a_notebook([{**verdict, "output_type": "execute_result"}])
    nb["cells"][0]["metadata"] = {"tags": [EXERCISE_CHECK, "nbval-ignore-output"]}
    stored = json.loads(stored_form(as_jupyter_execute_writes(nb)))
    cell = stored["cells"][0]
    assert cell["outputs"] == [] and cell["metadata"][EXERCISE_KEY] == declared
    assert json.loads(stored_form(json.dumps(stored)))["cells"][0]["metadata"][EXERCISE_KEY] == declared  # unrun: kept
    bare = {"data": {"text/plain": ["✗ ..."]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}
    stored["cells"][0]["outputs"] = [bare]
    assert EXERCISE_KEY not in json.loads(stored_form(json.dumps(stored)))["cells"][0]["metadata"]


def test_a_widget_view_without_a_twin_declaration_is_refused_naming_the_cell():
    output = {"data": {WIDGET_VIEW: {"model_id": "ab"}, "text/plain": ["HBox()"]}, "metadata": {}}
    nb = a_notebook([{**output, "output_type": "display_data"}])
    with pytest.raises(NotStorable, match=r"^lesson\.ipynb: cell c0ffee01 \(cell 1\) stores a widget view without"):
        stored_form(json.dumps(nb), "lesson.ipynb")
    with pytest.raises(NotStorable, match="not JSON"):
        stored_form("{", "lesson.ipynb")
    with pytest.raises(NotStorable, match="not a notebook"):
        stored_form('{"cells": 3}', "lesson.ipynb")


def test_the_explorers_note_comes_in_the_readers_language():
    from attention_core.explorers.state import state_explorer

    explorer = state_explorer(s=-1.0, tanh_switch=True)
    with language("en"):
        english = explorer._repr_mimebundle_()
    with language("zh"):
        chinese = explorer._repr_mimebundle_()
    assert english["text/plain"] == "Explorer (not running): run this cell to start it."
    assert english["text/html"] == (
        '<div class="ae-explorer-unrun" data-ae-twin="state"><p>Explorer (not running): run this cell to start it.'
        "</p></div>"
    )
    assert chinese["text/plain"] == "探索器（未运行）：运行这个单元格即可启动。"
    assert WIDGET_VIEW in english and english[TWIN_MIME] == chinese[TWIN_MIME]  # live: the widget still wins


# ---------------------------------------------------------------------------------------------------------
# Numbers as JavaScript writes them

KNOWN = {  # Python's repr -> what Node's String(x) and JSON.stringify(x) print
    -1.0: "-1",
    -0.0: "0",
    100.0: "100",
    2.5: "2.5",
    0.1: "0.1",
    0.001: "0.001",
    1e-06: "0.000001",
    1.5e-05: "0.000015",
    1e-07: "1e-7",
    3e-07: "3e-7",
    1.2345e-10: "1.2345e-10",
    1e16: "10000000000000000",
    1e20: "100000000000000000000",
    1.2345678901234568e20: "123456789012345680000",
    1e21: "1e+21",
    1.5e300: "1.5e+300",
    5e-324: "5e-324",
    1.7976931348623157e308: "1.7976931348623157e+308",
}


def test_known_numbers_are_written_as_javascript_writes_them():
    assert {x: js_number(x) for x in KNOWN} == KNOWN
    with pytest.raises(ValueError):
        js_number(math.nan)


JS_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d*[1-9])?(e[+-][1-9]\d*)?")


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(0.1 + 0.2)
@example(2.0**53 + 2)
def test_any_float_reads_back_exactly_and_is_written_in_javascripts_notation(x):
    text = js_number(x)
    assert float(text) == x and JS_NUMBER.fullmatch(text), text
    if "e" in text:  # JavaScript writes plain digits from 1e-6 up to below 1e21
        assert abs(x) < 1e-6 or abs(x) >= 1e21
    else:
        assert x == 0 or 1e-7 <= abs(x) < 1e21


def node() -> str:
    found = next((str(p) for p in (ROOT / "_vendor" / "node" / "node",) if p.exists()), None) or shutil.which("node")
    if found is None:
        pytest.skip("Node.js is not installed (make assets, or apt-get install nodejs)")
    return found


def test_a_sample_of_floats_is_written_exactly_as_node_writes_it():
    import random

    rng = random.Random(30)
    sample = list(KNOWN) + [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(3000)]
    sample += [rng.uniform(-1, 1) * 10.0 ** rng.randint(-12, 25) for _ in range(3000)]
    sample += [float(rng.randint(-(10**6), 10**6)) / 10 ** rng.randint(0, 8) for _ in range(2000)]
    sample = [x for x in sample if math.isfinite(x)]
    script = "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
    script += "console.log(xs.map(x => JSON.stringify(x)).join('\\n'))"
    run = subprocess.run(
        [node(), "-e", script], input=json.dumps(sample), capture_output=True, text=True, timeout=60, check=True
    )
    assert run.stdout.splitlines() == [js_number(x) for x in sample]


def test_a_round_trip_through_the_browser_turns_whole_floats_into_integers():
    assert through_browser({"s": -1.0, "a": [0.5, 1e-07, 1e16, 2**60, True, None, "1.0"]}) == {
        "s": -1,
        "a": [0.5, 1e-07, 10000000000000000, 1152921504606847000, True, None, "1.0"],  # 2**60 as JavaScript prints it
    }
    assert isinstance(through_browser(-1.0), int) and isinstance(through_browser(1e-07), float)
    assert through_browser(2**53 + 1) == 2**53  # beyond 2**53 a JavaScript number is the nearest double


# ---------------------------------------------------------------------------------------------------------
# The command: bad input is one line and status 2, and nothing is written


PROG = "python -m attention_workshop.execute"


def execute_command(*args, capsys) -> subprocess.CompletedProcess:
    """``python -m attention_workshop.execute <args>``, run in this process (tests.helpers.as_main)."""
    return as_main("execute", *map(str, args), capsys=capsys)


def test_bad_input_is_one_line_status_2_and_nothing_written(tmp_path, capsys):
    lesson = tmp_path / "lesson.ipynb"
    lesson.write_text(as_jupyter_execute_writes(a_notebook([explorer_output(view=True)])), encoding="utf-8")
    before = lesson.read_bytes()
    for bad, why in [(tmp_path / "missing.ipynb", "no such notebook"), (tmp_path / "notes.txt", "not a notebook")]:
        if bad.suffix == ".txt":
            bad.write_text("not JSON", encoding="utf-8")
        run = execute_command(lesson, bad, capsys=capsys)
        assert run.returncode == 2 and run.stdout == "", run.stderr
        assert run.stderr == f"python -m attention_workshop.execute: error: {bad}: {why}" + (
            " (JSONDecodeError)\n" if bad.suffix == ".txt" else "\n"
        )
        assert lesson.read_bytes() == before  # checked before anything runs


@pytest.mark.parametrize(
    ("cells", "says"),
    [([1], "not a notebook (a cell that is not a JSON object)"), ([{"cell_type": "code"}], "not a valid notebook (")],
)
def test_a_notebook_with_a_cell_that_is_not_one_is_one_line_status_2(tmp_path, cells, says, capsys):
    """Each was a traceback from inside nbformat (a TypeError, a ValidationError)."""
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps({**a_notebook([]), "cells": cells}), encoding="utf-8")
    run = execute_command(path, capsys=capsys)
    assert run.returncode == 2 and run.stderr.startswith(f"{PROG}: error: {path}: {says}"), run.stderr
    assert run.stderr.count("\n") == 1


def test_a_notebook_of_another_nbformat_is_one_line_status_2(tmp_path, capsys):
    old = tmp_path / "old.ipynb"
    old.write_text(json.dumps({**a_notebook([]), "nbformat": 3}), encoding="utf-8")
    run = execute_command(old, capsys=capsys)
    assert run.returncode == 2 and run.stderr == (
        f"python -m attention_workshop.execute: error: {old}: nbformat 3, not 4 (the version every notebook here is "
        "stored in)\n"
    )


@pytest.mark.parametrize(
    ("kernel", "source", "says"),
    [
        ("no-such-kernel", "print(1)", "its kernel 'no-such-kernel' is not installed (installed: "),
        pytest.param(None, "import os; os._exit(3)", "the kernel died", marks=pytest.mark.slow),  # starts a kernel
    ],
)
def test_a_kernel_that_is_not_installed_or_dies_is_one_line_and_the_notebook_is_left_as_it_was(
    tmp_path, kernel, source, says, capsys
):
    nb = a_notebook([])
    nb["cells"][0]["source"] = [source]
    if kernel is not None:
        nb["metadata"]["kernelspec"] = {"name": kernel, "display_name": kernel, "language": "python"}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    before = path.read_bytes()
    run = execute_command(path, capsys=capsys)
    lines = [line for line in run.stderr.splitlines() if not line.startswith(("[IPKernelApp]", f"{PROG}: executing"))]
    assert run.returncode == 1 and len(lines) == 1 and lines[0].startswith(f"{PROG}: error: {path}: {says}"), lines
    assert lines[0].endswith("the notebook is left as it was") and path.read_bytes() == before


def test_the_save_hook_drops_explorers_widget_views_and_the_widget_state_only():
    from attention_workshop.execute import pre_save_hook

    other = {"data": {WIDGET_VIEW: {"model_id": "ab"}, "text/plain": ["HBox()"]}, "output_type": "display_data"}
    state = {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}}
    nb = a_notebook([explorer_output(view=True), other], state)
    model = {"type": "notebook", "content": nb}
    pre_save_hook(model=model, path="05.ipynb", contents_manager=None)
    explorer, kept = nb["cells"][0]["outputs"]
    assert WIDGET_VIEW not in explorer["data"] and explorer["data"][TWIN_MIME]["kind"] == "state"
    assert explorer["data"]["text/plain"] == unrun_note("state")["text/plain"]
    assert kept == other and "widgets" not in nb["metadata"]  # a widget that is no explorer is left as it was
    text = {"type": "file", "content": "x"}
    pre_save_hook(model=text, path="notes.txt", contents_manager=None)
    assert text == {"type": "file", "content": "x"}
