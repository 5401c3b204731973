"""A notebook explorer's live twin on the website, declared by the explorer in the output the notebook stores.

The static website has no Python kernel, so each ipywidgets explorer of a lesson has a twin there: a builder in
``book/_assets/ae-explorers.js`` (or the laboratory, ``ae-lab.js``) that computes the same read in the browser.
An explorer says which twin it has and where that twin starts (its state, its annotations, its tanh switch...)
by mixing in :class:`Twin`: displaying the widget then stores, beside the widget view, one more output of type
:data:`TWIN_MIME` holding ``{"kind": ..., "args": {...}}``. The website's build (``attention_workshop.ae_twins``) reads
that declaration from the executed notebook and puts the twin, started from ``args``, where the widget was; it
never reads a cell's source. Adding an explorer is a class with ``twin_kind`` and ``twin_args``, a builder of
that kind in the script, and their tests.

**What a notebook stores.** The same bundle also replaces ipywidgets' ``text/plain`` (a long repr of the widget
tree) by a one-line note in the reader's language (:func:`unrun_note`; in English "Explorer (not running): run
this cell to start it."), as ``text/plain`` and as ``text/html`` (:data:`UNRUN_MARKER` on its ``div`` names the
kind). A live front end with the widget's model shows the widget instead (the widget view outranks both); the
notebooks are committed without the widget view and without widget state (``python -m
attention_workshop.execute``), so a lesson opened before it runs shows the note, never a copy of the controls that
cannot move. The website's build finds that note where the explorer was and puts the twin there.
"""

from __future__ import annotations

import html
import json

from ..lang import Messages

TWIN_MIME = "application/vnd.attention-core.twin+json"  # the declaration's output type in a stored notebook
UNRUN_MARKER = "data-ae-twin"  # attribute of the stored note's div: the kind of twin it stands for

TEXT = Messages(
    __name__,
    {
        "unrun": "Explorer (not running): run this cell to start it.",
    },
)


def unrun_note(kind: str) -> dict:
    """The stored note of an explorer of twin kind ``kind``, in the current language: ``text/plain`` and
    ``text/html`` (a ``div`` with class ``ae-explorer-unrun`` and :data:`UNRUN_MARKER` set to ``kind``)."""
    text = TEXT("unrun")
    marker = f'{UNRUN_MARKER}="{html.escape(kind, quote=True)}"'
    div = f'<div class="ae-explorer-unrun" {marker}><p>{html.escape(text)}</p></div>'
    return {"text/plain": text, "text/html": div}


class Twin:
    """Mixin for an ipywidgets explorer with a live twin on the website (put it before the widget class).

    ``twin_kind`` names the twin's builder; :meth:`twin_args` returns what the twin starts from, as JSON-able
    values (numbers, strings, booleans and lists of them), read when the explorer is displayed.
    """

    twin_kind = ""

    def twin_args(self) -> dict:
        return {}

    def twin(self) -> dict:
        """The declaration: ``{"kind": twin_kind, "args": twin_args()}`` (checked to be JSON)."""
        if not self.twin_kind:
            raise TypeError(f"{type(self).__name__} must set twin_kind, the name of its website twin's builder")
        declaration = {"kind": self.twin_kind, "args": self.twin_args()}
        json.dumps(declaration, allow_nan=False)  # a TypeError or ValueError here names what is not JSON
        return declaration

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            declaration = self.twin()
            bundle.update(unrun_note(declaration["kind"]))
            bundle[TWIN_MIME] = declaration
        return bundle
