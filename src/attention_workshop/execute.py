"""Run notebooks in place and store them as JupyterLab saves them: no widget state, no widget views.

    .venv/bin/python -m attention_workshop.execute NB [NB ...]

Each notebook is executed as ``jupyter execute --inplace`` does (nbclient; the kernel named in the notebook, no
cell timeout, 60 s to start the kernel, the notebook's folder as the working directory, cells tagged
``skip-execution`` skipped, the first error stops the run), except that no widget state is stored, and is then
written in its stored form (:func:`normalise`, :func:`dumps`):

- **No widget in the file.** ``metadata.widgets`` is absent and every output that carries an explorer's twin
  declaration (:data:`attention_core.explorers.twin.TWIN_MIME`) loses its widget view: what stays is the
  declaration and the explorer's note ("Explorer (not running): run this cell to start it." in English), in the
  notebook's language (the explorer writes it, :func:`attention_core.explorers.twin.unrun_note`). A reopened
  lesson then shows that note until the cell runs, never "model not found" nor a copy of the controls that cannot
  move. A widget view without a declaration has nothing to stand in for it: the command stops, naming the notebook
  and the cell.
- **What JupyterLab would write.** Opening and saving a lesson in JupyterLab must change nothing, so the file is
  what JupyterLab's save writes. JupyterLab sends the notebook from the browser as JSON; jupyter_server parses it
  (``json.loads``, ``JupyterHandler.get_json_body``) and writes it with ``nbformat.write`` (``FileContentsManager.
  _save_notebook``), whose JSON is ``indent=1, sort_keys=True, ensure_ascii=False``, the text of sources and text
  outputs split into lines, and a final newline. So a number is whatever the browser's ``JSON.stringify`` wrote,
  read back by Python (:func:`through_browser`: ``-1.0`` becomes ``-1``, ``1e+16`` becomes
  ``10000000000000000``; ``1e-07`` stays ``1e-07``, a float to Python either way). The front end also sets
  ``metadata.kernelspec`` to the running kernel's name, display name and language
  (:func:`installed_kernelspec`: ``Python 3 (ipykernel)`` for the kernel ipykernel installs). Nothing else
  changes: opened in JupyterLab 4.6 and saved with Ctrl+S, stored lessons (05 in English and Chinese, 07, 08) were
  written back byte for byte, consecutive stream outputs kept apart as nbclient wrote them; the committed 05
  (Python 3, ``-1.0``, widget state) was marked modified on opening and rewritten by the save.

:func:`stored_form` applies the same normalisation to a notebook's text without executing it;
``tests/workshop/editions/test_stored_form.py`` checks that every committed notebook is already in that form. Bad input
(a missing file, a file that is not a notebook) is one line on stderr and status 2, and nothing is written.
"""

from __future__ import annotations

import copy
import json
import math
import pathlib
import sys
import warnings

from attention_core import files

PROG = "python -m attention_workshop.execute"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"  # the one name of a widget view's output type
SAFE_INTEGER = 2**53  # larger integers do not survive a JavaScript number exactly


class NotStorable(ValueError):
    """A notebook that cannot be stored without widget views: one line naming the notebook and the cell."""


# ---------------------------------------------------------------------------------------------------------
# Numbers as a browser writes them


def js_number(x: float) -> str:
    """``x`` as JavaScript's ``String(x)`` and ``JSON.stringify(x)`` write it (ECMAScript Number::toString): the
    shortest digits that read back as ``x`` (the same digits as Python's ``repr``), in plain notation from 1e-6 up
    to below 1e21 and as ``d.ddde±n`` outside; ``-0`` is ``0``. ``ValueError`` for NaN and infinities (JSON has
    no such number)."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{x!r} is not a JSON number")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exponent = repr(abs(x)).partition("e")  # repr: the shortest digits that read back as x
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    n = len(whole) + int(exponent or 0)  # x = 0.digits * 10**n
    significant = digits.lstrip("0")
    n -= len(digits) - len(significant)
    digits = significant.rstrip("0")
    k = len(digits)  # ECMAScript's k and n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        text = (digits if k == 1 else f"{digits[0]}.{digits[1:]}") + f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def through_browser(value):
    """``value`` (parsed JSON) as it comes back from a round trip through a browser: each number written as
    JavaScript writes it and read again by Python's ``json`` (``-1.0`` -> ``-1``, ``2.5`` -> ``2.5``)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float) or (isinstance(value, int) and abs(value) > SAFE_INTEGER):
        return json.loads(js_number(value))
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        return [through_browser(v) for v in value]
    if isinstance(value, dict):
        return {k: through_browser(v) for k, v in value.items()}
    raise TypeError(f"not a JSON value: {type(value).__name__}")


# ---------------------------------------------------------------------------------------------------------
# The stored form


def installed_kernelspec(name: str = "python3") -> dict:
    """``metadata.kernelspec`` as JupyterLab writes it for kernel ``name``: its name, and the display name and
    language of the installed spec (what ``jupyter kernelspec list --json`` reports)."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(name)
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def drop_explorer_views(nb: dict) -> tuple[int, list[str]]:
    """Drop, in place, the widget view (:data:`WIDGET_VIEW`) of every code cell output that holds an explorer's twin
    declaration beside it (:data:`attention_core.explorers.twin.TWIN_MIME`): the committed lessons, a lesson a
    reader saves (:func:`pre_save_hook`) and a lesson ``make lab`` opens with no kernel running
    (``attention_workshop.lab``) keep the explorer's note and declaration, never a view whose model is gone.
    Returns how many views were dropped, and the cells (their id, else ``#n``, n counted from 1) that hold a widget
    view without a declaration, which are left as they are."""
    from attention_core.explorers.twin import TWIN_MIME

    dropped, undeclared = 0, []
    for number, cell in enumerate(nb.get("cells", []), 1):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            if TWIN_MIME in data:
                del data[WIDGET_VIEW]
                dropped += 1
            else:
                undeclared.append(f"{cell.get('id', f'#{number}')} (cell {number})")
    return dropped, undeclared


def normalise(nb: dict, where: str = "notebook", kernelspec: dict | None = None) -> dict:
    """A copy of notebook ``nb`` (parsed JSON) in its stored form (see the module's notes): no widget state, no
    widget view beside a twin declaration, ``metadata.kernelspec`` the installed kernel's (``kernelspec``, default
    :func:`installed_kernelspec` of the notebook's kernel), numbers as a browser writes them. :class:`NotStorable`
    for a widget view without a declaration, or for what is not a notebook (``where`` names the notebook)."""
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or "nbformat" not in nb:
        raise NotStorable(f"{where}: not a notebook (no cells or no nbformat)")
    nb = copy.deepcopy(nb)
    metadata = nb.setdefault("metadata", {})
    metadata.pop("widgets", None)
    _, undeclared = drop_explorer_views(nb)
    if undeclared:
        from attention_core.explorers.twin import TWIN_MIME

        raise NotStorable(
            f"{where}: cell {undeclared[0]} stores a widget view without a twin declaration "
            f"({TWIN_MIME}), so nothing would stand for it once the widget view is dropped"
        )
    if kernelspec is None:
        kernelspec = installed_kernelspec(metadata.get("kernelspec", {}).get("name", "python3"))
    metadata["kernelspec"] = dict(kernelspec)
    return through_browser(nb)


def dumps(nb: dict) -> str:
    """Notebook ``nb`` as text, exactly as jupyter_server writes it (``nbformat.writes``, and a final newline as
    ``nbformat.write`` adds). Numbers are written as they are: pass the notebook through :func:`normalise` first."""
    import nbformat

    text = nbformat.writes(nbformat.from_dict(nb), version=nbformat.NO_CONVERT)
    return text if text.endswith("\n") else text + "\n"


def stored_form(text: str, where: str = "notebook", kernelspec: dict | None = None) -> str:
    """The stored form of a notebook's text, without executing it (what opening and saving it in JupyterLab
    writes, widget views of explorers dropped): ``dumps(normalise(json.loads(text)))``."""
    try:
        nb = json.loads(text)
    except ValueError as error:
        raise NotStorable(f"{where}: not JSON ({error})") from None
    return dumps(normalise(nb, where, kernelspec))


def pre_save_hook(model: dict, **_) -> None:
    """A ``ContentsManager.pre_save_hook`` for jupyter_server: a notebook a reader saves keeps no widget state and
    no widget view of an explorer, as the committed lessons (its note and declaration stay). ``make lab`` does not
    use it: its contents manager (:func:`attention_workshop.lab.lesson_contents`) leaves the views out when a
    lesson is read with no kernel running for it instead; this hook is for a JupyterLab started by hand.

    Without it, a lesson saved after *Run All* stores each explorer's widget view but not its model (JupyterLab
    saves no widget state by default), and reopened with a new kernel it shows "Error displaying widget: model
    not found" (jupyterlab-manager's renderer); with it, the reopened lesson shows the explorer's note until the
    cell runs again. Nothing else of the notebook changes: the front end wrote the rest. Start JupyterLab with
    ``--ContentsManager.pre_save_hook=attention_workshop.execute.pre_save_hook``."""
    nb = model.get("content") if model.get("type") == "notebook" else None
    if not isinstance(nb, dict):
        return
    nb.get("metadata", {}).pop("widgets", None)
    drop_explorer_views(nb)


# ---------------------------------------------------------------------------------------------------------
# Executing


def execute(path: pathlib.Path) -> None:
    """Execute notebook ``path`` in place (see the module's notes), then write its stored form."""
    import nbformat
    from nbclient import NotebookClient

    where = str(path)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=None,
        startup_timeout=60,
        skip_cells_with_tag="skip-execution",
        allow_errors=False,
        kernel_name="",
        store_widget_state=False,
        resources={"metadata": {"path": path.parent.absolute()}},
    ).execute()
    text = dumps(normalise(json.loads(nbformat.writes(nb)), where))
    files.write_text(path, text)  # whole or not at all: a kill leaves the lesson as it was


def _checked(paths: list[pathlib.Path]) -> str | None:
    """Why one of ``paths`` cannot be executed (missing, not a notebook, not valid by nbformat's schema), in one
    line, or None."""
    import nbformat

    for path in paths:
        if not path.is_file():
            return f"{path}: no such notebook"
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeError, ValueError) as error:
            return f"{path}: not a notebook ({type(error).__name__})"
        if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or "nbformat" not in nb:
            return f"{path}: not a notebook (no cells or no nbformat)"
        if nb["nbformat"] != 4:
            return f"{path}: nbformat {nb['nbformat']!r}, not 4 (the version every notebook here is stored in)"
        if not all(isinstance(cell, dict) for cell in nb["cells"]):  # nbformat's own validator fails on those
            return f"{path}: not a notebook (a cell that is not a JSON object)"
        try:
            with warnings.catch_warnings():  # a cell without an id: a warning now, refused by a later nbformat
                warnings.simplefilter("ignore")
                nbformat.validate(nb, version=4)
        except nbformat.ValidationError as error:
            return f"{path}: not a valid notebook ({' '.join(error.message.split())[:200]})"
    return None


def _parser():
    from attention_workshop.command import OneLineParser

    parser = OneLineParser(
        prog=PROG,
        description="Execute notebooks in place and store them without widget state, as JupyterLab saves them.",
    )
    parser.add_argument("notebooks", nargs="+", type=pathlib.Path, metavar="NB", help="a notebook (.ipynb)")
    return parser


def main(argv: list[str] | None = None) -> int:
    from jupyter_client.kernelspec import NoSuchKernel, find_kernel_specs
    from nbclient.exceptions import CellExecutionError, DeadKernelError

    parser = _parser()
    args = parser.parse_args(argv)
    problem = _checked(args.notebooks)
    if problem:
        parser.error(problem)
    for path in args.notebooks:
        print(f"{PROG}: executing {path}", file=sys.stderr, flush=True)
        try:
            execute(path)
        except NotStorable as error:
            print(f"{PROG}: error: {error}", file=sys.stderr)
            return 1
        except CellExecutionError as error:
            print(f"{PROG}: error: {path}: a cell failed; the notebook is left as it was\n{error}", file=sys.stderr)
            return 1
        except NoSuchKernel as error:
            installed = ", ".join(sorted(find_kernel_specs())) or "none"
            print(
                f"{PROG}: error: {path}: its kernel {error.name!r} is not installed (installed: {installed}); the "
                "notebook is left as it was",
                file=sys.stderr,
            )
            return 1
        except DeadKernelError:
            print(f"{PROG}: error: {path}: the kernel died; the notebook is left as it was", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    from attention_workshop.command import run

    sys.exit(run(main, PROG))
