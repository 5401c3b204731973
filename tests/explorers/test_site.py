"""The explorers' exported parameters: JSON-able, the core's constants, and enough to recompute the reads."""

import base64
import json

import numpy as np
import pytest

import attention_core as ac
from attention_core.example import H_TRIANGLE
from attention_core.explorers.site import site_parameters, site_parameters_json


def _read_like_the_browser(p: dict, s: float, with_tanh: bool = True):
    """Recompute a read from the exported numbers only, with plain Python loops, as the front-end script does."""
    st = p["state"]
    scores = []
    for h in st["H"]:
        pre = [
            sum(row_s[k] * s for k in range(len(row_s))) + sum(a * x for a, x in zip(row_h, h, strict=True)) + b
            for row_s, row_h, b in zip(st["W_s"], st["W_h"], st["b"], strict=True)
        ]
        act = [np.tanh(x) if with_tanh else x for x in pre]
        scores.append(sum(v * a for v, a in zip(st["v"], act, strict=True)))
    top = max(scores)
    z = [np.exp(e - top) for e in scores]
    weights = [x / sum(z) for x in z]
    context = [sum(w * h[i] for w, h in zip(weights, st["H"], strict=True)) for i in range(2)]
    return np.array(weights), np.array(context)


def test_parameters_survive_a_json_round_trip():
    p = site_parameters()
    assert json.loads(json.dumps(p, allow_nan=False)) == p
    assert json.loads(site_parameters_json()) == p


def test_json_is_safe_inside_a_script_element():
    text = site_parameters_json()
    assert "<" not in text and ">" not in text and "&" not in text


def test_parameters_are_the_cores_constants():
    p = site_parameters()
    assert p["tokens"] == list(ac.TOKENS)
    np.testing.assert_array_equal(p["state"]["H"], ac.H_EXAMPLE)
    np.testing.assert_array_equal(p["state"]["W_s"], ac.W_S_EXAMPLE)
    np.testing.assert_array_equal(p["state"]["W_h"], ac.W_H_EXAMPLE)
    np.testing.assert_array_equal(p["state"]["v"], ac.V_EXAMPLE)
    np.testing.assert_array_equal(p["state"]["b"], ac.B_EXAMPLE)
    np.testing.assert_array_equal(p["score"]["H"], H_TRIANGLE)
    assert p["state"]["marks"] == {"A": ac.STATE_A, "B": ac.STATE_B}


def test_triangle_is_not_degenerate():
    (x1, y1), (x2, y2), (x3, y3) = H_TRIANGLE
    area = 0.5 * abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
    assert area > 1.0


@pytest.mark.parametrize("s", [-4.0, -1.0, 0.0, 0.35, 1.0, 4.0])
@pytest.mark.parametrize("with_tanh", [True, False])
def test_exported_numbers_reproduce_the_worked_example(s, with_tanh):
    weights, context = _read_like_the_browser(site_parameters(), s, with_tanh)
    ref = ac.worked_example(s, nonlinearity=np.tanh if with_tanh else None)
    np.testing.assert_allclose(weights, ref.weights, atol=1e-12)
    np.testing.assert_allclose(context, ref.context, atol=1e-12)


def test_slider_ranges_contain_their_start_and_the_marked_states():
    st, sc = site_parameters()["state"], site_parameters()["score"]
    lo, hi = st["s_range"]
    assert lo <= st["s_start"] <= hi and all(lo <= m <= hi for m in st["marks"].values())
    steps = (hi - lo) / st["s_step"]
    assert abs(steps - round(steps)) < 1e-9, "the state slider's step must divide its range (s = -1 and 1 reachable)"
    assert all(sc["e_range"][0] <= e <= sc["e_range"][1] for e in sc["e_start"])


def test_pages_get_only_the_sections_they_need():
    p = site_parameters(("state",))
    assert set(p) == {"schema", "lang", "labels", "tokens", "state"}
    both = {"schema", "lang", "labels", "tokens", "question", "score"}
    assert json.loads(site_parameters_json(("question", "score"))).keys() == both
    with pytest.raises(ValueError, match="unknown explorer sections"):
        site_parameters(("nope",))


def test_question_section_reproduces_read_with_query():
    from attention_core.toy_sentences import FEATURES, FELIX, FELIX_NEGATED, QUERIES, read_with_query

    q = site_parameters(("question",))["question"]
    assert q["features"] == list(FEATURES) and q["top"] == 3
    assert [s["tokens"] for s in q["sentences"]] == [list(FELIX.tokens), list(FELIX_NEGATED.tokens)]
    for sentence, exported in zip((FELIX, FELIX_NEGATED), q["sentences"], strict=True):
        for query in q["queries"]:
            scores = [sum(a * b for a, b in zip(query["q"], x, strict=True)) for x in exported["X"]]
            z = [np.exp(e - max(scores)) for e in scores]
            ref = read_with_query(sentence, QUERIES[query["id"]])
            np.testing.assert_allclose(np.array(z) / sum(z), ref.weights, atol=1e-12)


def test_labels_follow_the_edition_and_the_numbers_do_not():
    from attention_core.explorers.reading import question
    from attention_core.explorers.site import LABELS, labels
    from attention_core.lang import language
    from attention_core.toy_sentences import FELIX_FR, FELIX_NEGATED_FR, FELIX_NEGATED_ZH, FELIX_ZH, QUERIES

    en, zh = site_parameters(lang="en"), site_parameters(lang="zh")
    assert en["lang"] == "en" and zh["lang"] == "zh"
    assert en["labels"] == labels("en") and zh["labels"] == labels("zh")
    assert set(en["labels"]) == set(zh["labels"]) == set(LABELS.entries)
    translated = [key for key, text in en["labels"].items() if zh["labels"][key] != text]
    # the Chinese term is "token" too (book/glossary.md); "{token} / {exact}" holds placeholders only; the decoder
    # orders are their authors' names
    assert set(en["labels"]) - set(translated) == {"token", "lab_token_exact", "lab_order_bahdanau", "lab_order_luong"}
    assert zh["labels"]["state_slider"] == "读取状态 s" and zh["labels"]["reset"] == "重置"
    assert en["labels"]["state_slider"] == "Reading state s"
    assert en["state"] == zh["state"]
    assert [a["H"] for a in en["score"]["annotations"]] == [a["H"] for a in zh["score"]["annotations"]]
    assert [s["text"] for s in zh["question"]["sentences"]] == [FELIX_ZH.text, FELIX_NEGATED_ZH.text]
    fr = site_parameters(("question",), lang="fr")  # the French website's twin reads the French sentence
    assert [s["text"] for s in fr["question"]["sentences"]] == [FELIX_FR.text, FELIX_NEGATED_FR.text]
    assert [q["id"] for q in zh["question"]["queries"]] == [q["id"] for q in en["question"]["queries"]] == list(QUERIES)
    with language("zh"):
        assert [q["name"] for q in zh["question"]["queries"]] == [question(name) for name in QUERIES]
    assert [q["name"] for q in en["question"]["queries"]] == [question(name) for name in QUERIES]
    with pytest.raises(ValueError, match="language must be one of"):
        site_parameters(("state",), lang="xx")  # not an edition (fr, zh and en are)


def test_a_callers_edit_does_not_change_later_exports():
    from attention_core.explorers.site import lab_data

    first = lab_data()
    want = json.dumps(first)
    first["examples"][0][0] = "edited"
    first["model"]["arrays"].clear()
    first["arrays"].clear()
    first["snapshots"]["steps"].append(-1)
    assert json.dumps(lab_data()) == want


def test_the_lab_export_is_the_models_config_and_shapes():
    """The laboratory receives ModelConfig's own field names (order and score included), each array with its
    shape, and a schema number the page checks (``LAB_SCHEMA`` in ae-lab.js, the same as the package's)."""
    import dataclasses
    import re

    from attention_core.explorers.site import LAB_SCHEMA, lab_data
    from attention_core.models.trained import LESSON07, load_trained
    from tests.helpers import ROOT

    lab, model = lab_data(), load_trained(LESSON07)
    assert lab["schema"] == LAB_SCHEMA
    assert lab["model"]["config"] == dataclasses.asdict(model.cfg)
    assert {"order", "score", "d_emb", "d_dec", "d_att"} <= set(lab["model"]["config"])
    arrays = lab["model"]["arrays"]
    assert list(arrays) == list(model.params)
    for name, value in model.params.items():
        assert arrays[name]["shape"] == list(value.shape), name
        stored = np.frombuffer(base64.b64decode(arrays[name]["data"]), dtype="<f4").reshape(value.shape)
        np.testing.assert_array_equal(stored, value.astype(np.float32), err_msg=name)
    script = (ROOT / "book" / "_assets" / "ae-lab.js").read_text(encoding="utf-8")
    assert re.findall(r"var LAB_SCHEMA = (\d+);", script) == [str(LAB_SCHEMA)]


def test_the_lab_exports_every_committed_model_of_lessons_07_to_09():
    """Every committed model of lessons 07 to 09 reaches the page, with its design (a name of the seed study's
    designs), its target language and its parameters (the committed float32 numbers, each with its shape)."""
    import dataclasses

    from attention_core.explorers.site import LAB_MODELS, lab_data, lab_data_script
    from attention_core.models import designs, trained

    names = (trained.LESSON07, trained.LESSON08_SWAPPED, trained.LESSON08_LUONG, trained.VERB_FINAL)
    assert LAB_MODELS == (*names, trained.VERB_FINAL_BASELINE, trained.LESSON09, trained.LESSON09_NO_POSITIONS)
    lab = lab_data()
    assert [m["name"] for m in lab["models"]] == list(LAB_MODELS) == list(lab["arrays"])
    for m in lab["models"]:
        tc, model = trained.trained_config(m["name"]), trained.load_trained(m["name"])
        assert m["language"] == tc.language and m["config"] == dataclasses.asdict(model.cfg)
        assert {**m["config"], "dtype": "float32"} == dataclasses.asdict(tc.model)
        assert all(m["config"][k] == v for k, v in lab["designs"][m["design"]]["config"].items())
        assert designs.named(m["design"]).committed
        for name, value in model.params.items():
            a = lab["arrays"][m["name"]][name]
            stored = np.frombuffer(base64.b64decode(a["data"]), dtype="<f4").reshape(a["shape"])
            np.testing.assert_array_equal(stored, value.astype(np.float32), err_msg=f"{m['name']} {name}")
    assert {m["language"] for m in lab["models"]} == set(lab["grammar"]["languages"]) == {"svo", "verb_final"}
    page = json.loads(lab_data_script().split(" = ", 1)[1].rstrip(";\n"))
    assert "model" not in page and page["arrays"] == lab["arrays"]  # lesson 07's arrays written once


def test_the_lab_shows_the_seed_studys_range_of_each_design_and_language():
    """The seed study as the lab's results table reads it: per language and design, the mean, lowest and highest
    figure over its runs (sweep.spread, the figures lesson 08's tables print), overall and by length bucket."""
    from attention_core.explorers.site import lab_data
    from attention_core.models.sweep import DESIGNS, load_seed_study, runs, spread
    from attention_core.models.train import BUCKETS

    study, view = load_seed_study(), lab_data()["study"]
    assert set(view) == {"svo", "verb_final"}
    for language in view:
        assert set(view[language]) == set(DESIGNS)
        for design, got in view[language].items():
            chosen = runs(study, language, design)
            assert got["runs"] == len(chosen) == 14
            for key in ("token", "exact"):
                want = spread(chosen, key)
                assert got[key] == {k: round(want[k], 4) for k in ("mean", "min", "max")}
                for (lo, hi), bucket in zip(BUCKETS, got["buckets"], strict=True):
                    assert bucket[key]["min"] == round(spread(chosen, key, lo, hi)["min"], 4)
                    assert bucket[key]["min"] <= bucket[key]["mean"] <= bucket[key]["max"]


def test_the_lab_models_can_be_served_apart():
    """``lab_data_script(models_apart=True)`` leaves the parameters out and names a script per model
    (``lab_model_scripts``) that holds exactly the arrays ``lab_data`` has for it."""
    from attention_core.explorers.site import LAB_MODEL_SCRIPT, LAB_MODELS, lab_data, lab_data_script, lab_model_scripts

    lab = lab_data()
    apart = json.loads(lab_data_script(models_apart=True).split(" = ", 1)[1].rstrip(";\n"))
    assert apart["arrays"] == {} and apart["files"] == {n: LAB_MODEL_SCRIPT.format(name=n) for n in LAB_MODELS}
    assert len(lab_data_script(models_apart=True)) < 0.2 * len(lab_data_script())
    scripts = lab_model_scripts()
    assert sorted(scripts) == sorted(apart["files"].values())
    for name, file in apart["files"].items():
        text = scripts[file]
        assert text.splitlines()[1] == "self.AELabModels = self.AELabModels || {};"
        assert (
            json.loads(text.split(f"self.AELabModels[{json.dumps(name)}] = ", 1)[1].rstrip(";\n"))
            == lab["arrays"][name]
        )


def test_the_lab_offers_the_registrys_designs_with_their_labels():
    """The page's menu is the registry's designs with ``lab``, in its order, each with its ModelConfig fields and
    the keys of its labels (its own menu label or none, its parts' names: the order's, the score's and, for an
    encoder other than lesson 07's, the encoder's, its positions' and its tied keys'), every key one of LABELS;
    lesson 09's three designs are offered, each with a short name of its own and the committed recipe's budget of
    steps (600 steps do not take its page run to 0.95)."""
    from attention_core.explorers.site import LAB_STEPS, LAB_STEPS_WITHOUT_RECURRENCE, LABELS, lab_data
    from attention_core.models import designs

    offered = lab_data()["designs"]
    assert list(offered) == [d.name for d in designs.where(lab=True)]
    for name, got in offered.items():
        design = designs.named(name)
        order, score = design.parts()
        assert got["config"] == design.fields()
        labels = {k: v for k, v in got["labels"].items() if k != "encoder"}
        encoder = got["labels"]["encoder"]
        assert labels == {"menu": design.label, "order": order.label, "score": score.label}
        assert {key for key in labels.values() if key} | set(encoder) <= set(LABELS.entries)
        assert bool(encoder) == (design.encoder != designs.RECURRENT)
        assert got["steps"] == (LAB_STEPS if design.encoder == designs.RECURRENT else LAB_STEPS_WITHOUT_RECURRENCE)
    lesson09 = (designs.SELF_ATTENTION_DESIGN, designs.NO_POSITIONS, designs.TIED)
    assert set(lesson09) <= set(offered)
    shorts = {tuple(offered[n]["labels"]["encoder"]) for n in lesson09}
    assert len(shorts) == 3, "each of lesson 09's designs has a short name of its own (the results' columns)"


# The step panel ae-lab.js built by hand before the registry (issue 42): per kind of design (it reads, then updates,
# as Bahdanau's order; it updates, then reads, as Luong's; it reads the fixed summary), each section's heading and
# what follows its formulas (captions and displays), and how many formulas it has.
STEP_BEFORE = {
    "reads first": ("lab_step_intro", [
        ("lab_h_scores", 1, [{"caption": "lab_sprev_caption"}, {"show": "s_prev"}]),
        ("lab_h_weights", 1, [{"show": "weights"}]),
        ("lab_h_context", 1, [{"show": "context"}]),
        ("lab_h_state", 1, [{"show": "s_new"}]),
        ("lab_h_output", 1, []),
    ]),
    "updates first": ("lab_step_intro_luong", [
        ("lab_h_state_first", 1, [{"caption": "lab_strip_sprev"}, {"show": "s_prev"}, {"caption": "lab_strip_s"},
                                  {"show": "s_new"}]),
        ("lab_h_scores_new", 1, []),
        ("lab_h_weights", 1, [{"show": "weights"}]),
        ("lab_h_context", 1, [{"show": "context"}]),
        ("lab_h_output", 2, []),
    ]),
    "fixed summary": ("lab_step_intro_fixed", [
        ("lab_h_summary", 1, [{"show": "context"}]),
        ("lab_h_state", 1, [{"caption": "lab_strip_sprev"}, {"show": "s_prev"}, {"caption": "lab_strip_s"},
                            {"show": "s_new"}]),
        ("lab_h_output", 1, []),
    ]),
}  # fmt: skip


def kind(design) -> str:
    """The kind of step panel of a design (the keys of STEP_BEFORE)."""
    if design.score is None:
        return "fixed summary"
    return "reads first" if design.parts()[0].reads_first else "updates first"


def test_the_step_panel_is_the_one_built_by_hand_before_with_the_registrys_formulas():
    """Each design's step panel, now made from the registry (``site.step_panel``), has the headings, captions and
    displays the page built by hand for its kind, and the formulas of the design, in its order, with the pieces
    the page draws."""
    from attention_core.explorers.formulas import pieces
    from attention_core.explorers.site import LABELS, lab_data
    from attention_core.models import designs

    for name, got in lab_data()["designs"].items():
        intro, sections = STEP_BEFORE[kind(designs.named(name))]
        step = got["step"]
        assert step["intro"] == intro
        assert [s["head"] for s in step["sections"]] == [head for head, _, _ in sections], name
        formulas = [tex for _, group in designs.named(name).formulas for tex in group]
        assert [i["tex"] for s in step["sections"] for i in s["items"] if "tex" in i] == formulas
        for section, (_, count, rest) in zip(step["sections"], sections, strict=True):
            assert [i for i in section["items"] if "tex" not in i] == rest and len(section["items"]) == count + len(
                rest
            )
            assert all(i["math"] == pieces(i["tex"]) for i in section["items"] if "tex" in i)
        used = [step["intro"], *(s["head"] for s in step["sections"])]
        assert set(used) | {i["caption"] for s in step["sections"] for i in s["items"] if "caption" in i} <= set(
            LABELS.entries
        )


def test_a_design_whose_label_is_missing_stops_the_export_in_one_line(monkeypatch):
    from attention_core.explorers import site
    from attention_core.models import designs

    unlabelled = designs.Design("unlabelled", "luong", None, "lab_design_nowhere", lab=True)
    monkeypatch.setattr(designs, "REGISTRY", (*designs.REGISTRY, unlabelled))
    site._lab_data.cache_clear()
    try:
        with pytest.raises(ValueError, match="design 'unlabelled': no label 'lab_design_nowhere' in ") as caught:
            site.lab_data()
        assert "\n" not in str(caught.value)
    finally:
        monkeypatch.undo()
        site._lab_data.cache_clear()
