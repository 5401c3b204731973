"""Each notebook explorer declares its website twin (kind and where it starts) in the output it stores."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_core.explorers.twin import TWIN_MIME, Twin
from attention_workshop.execute import WIDGET_VIEW
from tests.helpers import ROOT

KINDS = {"question_explorer(": "question", "score_triangle_explorer(": "score", "state_explorer(": "state"}
KINDS |= {"decoder_stepper(": "lab", "learning_snapshots(": "lab"}
NOTEBOOKS = sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("zh/notebooks/*.ipynb")])


def declared(widget) -> dict:
    bundle = widget._repr_mimebundle_()
    assert WIDGET_VIEW in bundle
    return bundle[TWIN_MIME]


def test_the_state_explorer_declares_its_start_and_its_switch():
    from attention_core.explorers.state import state_explorer

    assert declared(state_explorer(s=2.0)) == {"kind": "state", "args": {"s": 2.0, "tanh_switch": False}}
    assert declared(state_explorer(s=-1.0, tanh_switch=True))["args"] == {"s": -1.0, "tanh_switch": True}


def test_the_score_explorer_declares_its_annotations_tokens_and_scores():
    from attention_core import H_EXAMPLE
    from attention_core.explorers.reading import score_triangle_explorer

    H = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    twin = declared(score_triangle_explorer(H=H, tokens=("a", "b", "c"), start=(1.0, 0.0, -1.0)))
    assert twin == {"kind": "score", "args": {"H": H.tolist(), "tokens": ["a", "b", "c"], "start": [1.0, 0.0, -1.0]}}
    assert declared(score_triangle_explorer(H=H_EXAMPLE))["args"]["H"] == H_EXAMPLE.tolist()


def test_the_question_explorer_declares_what_it_shows_and_its_own_data():
    from attention_core.explorers.reading import question_explorer
    from attention_core.toy_sentences import FELIX, QUERIES

    explorer = question_explorer()
    assert declared(explorer) == {"kind": "question", "args": {"sentence": 0, "question": "where"}}
    explorer.sentence.value = explorer.sentence.options[1]
    explorer.question.value = explorer.question.options[1]
    assert declared(explorer)["args"] == {"sentence": 1, "question": "colour"}
    own = declared(question_explorer(sentences=[FELIX], queries={"mine": QUERIES["colour"]}))["args"]
    assert own["question"] == "mine" and own["queries"] == [
        {"id": "mine", "name": "mine", "q": list(QUERIES["colour"])}
    ]
    assert own["sentences"] == [{"text": FELIX.text, "tokens": list(FELIX.tokens), "X": FELIX.X.tolist()}]


def test_the_lab_explorers_declare_their_sentences():
    from attention_core.explorers.training import decoder_stepper, learning_snapshots

    assert declared(decoder_stepper("the cat sees a dog")) == {
        "kind": "lab",
        "args": {"sentence": "the cat sees a dog"},
    }
    assert declared(learning_snapshots(1)) == {"kind": "lab", "args": {"snapshot_sentence": 1}}


def test_a_declaration_must_name_its_kind_and_be_json():
    import ipywidgets as widgets

    class Nameless(Twin, widgets.VBox):
        pass

    class NotJson(Twin, widgets.VBox):
        twin_kind = "state"

        def twin_args(self):
            return {"s": float("nan")}

    with pytest.raises(TypeError, match="twin_kind"):
        Nameless()._repr_mimebundle_()
    with pytest.raises(ValueError):
        NotJson()._repr_mimebundle_()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_stored_explorer_carries_its_declaration(path):
    """What the website's build reads: every explorer cell of every edition stored its twin's declaration."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        calls = [kind for call, kind in KINDS.items() if call in source]
        if cell["cell_type"] != "code" or not calls:
            continue
        declared = [o["data"] for o in cell.get("outputs", []) if TWIN_MIME in o.get("data", {})]
        assert declared, f"{path.name} [{cell['id']}]: the explorer's output is not stored (execute the notebook)"
        assert not any(WIDGET_VIEW in data for data in declared), f"{path.name} [{cell['id']}]: a stored widget view"
        assert [d[TWIN_MIME]["kind"] for d in declared] == calls[:1] * len(declared)
