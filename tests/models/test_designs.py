"""The registry of designs (``attention_core.models.designs``): what it declares, and that the study, the committed
models and the decoder's parts agree with it."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.models import data, designs
from attention_core.models.designs import REGISTRY, Design, named, of_config, where
from attention_core.models.orders import ORDERS
from attention_core.models.scorers import SCORES
from attention_core.models.seq2seq import ModelConfig, build_model
from attention_core.models.sweep import DESIGNS, load_seed_study
from attention_core.models.trained import TRAINED_DIR, trained_config


def test_the_seed_studys_designs_are_the_registrys_in_its_file():
    """``results/seed_study.json`` records the registry's ``study`` designs: the same names in the same order, with
    the same ModelConfig fields (so the file's ``designs`` field is written byte for byte as before)."""
    assert list(load_seed_study()["designs"].items()) == list(DESIGNS.items())
    assert list(DESIGNS) == [d.name for d in REGISTRY if d.study]


def test_the_committed_flag_is_what_the_committed_models_have():
    """A design is marked ``committed`` exactly when a committed model (``models/trained/*.npz``) has its parts."""
    names = sorted(path.stem for path in TRAINED_DIR.glob("*.npz"))
    assert len(names) >= 5
    assert {of_config(trained_config(name).model).name for name in names} == {d.name for d in where(committed=True)}


def test_each_design_has_its_own_parts_and_names():
    assert len({d.name for d in REGISTRY}) == len(REGISTRY)
    assert len({(d.encoder, d.positions, d.tied, d.order, d.score) for d in REGISTRY}) == len(REGISTRY)
    for d in REGISTRY:
        assert of_config(d.config(d_emb=4, dtype="float64")) is d
        assert named(d.name) is d
        order, score = d.parts()
        assert order is ORDERS[d.order] and (d.score is None or score is SCORES[d.score])
    assert where(lab=True, study=False) == [named(designs.LUONG_ADDITIVE)]


def test_the_fixed_summary_names_no_score_and_reads_no_state():
    fixed = named(designs.FIXED_SUMMARY)
    assert fixed.fields() == {"attention": False} and fixed.config() == ModelConfig(attention=False)
    assert [what for what, _ in fixed.formulas] == ["summary", "update", "output"]
    assert "m" in fixed.formulas[1][1][0] and "c_t" not in fixed.formulas[1][1][0]


@pytest.mark.parametrize("design", [d for d in REGISTRY if d.score is not None], ids=lambda d: d.name)
def test_the_formulas_follow_the_step_the_model_computes(design):
    """The formulas put the read before the update exactly when the model's step reads with s_{t-1}, before its
    update (Bahdanau's order; Luong's updates, then reads with s_t, lesson 08): changing the input y_3 of step 4
    moves the context c_4 only when step 4 reads with the state that y_3 updated. The score's formula is its
    class's, with the state its order reads with."""
    order, score = design.parts()
    names = [what for what, _ in design.formulas]
    model = build_model(design.config(d_emb=6, d_enc=5, d_dec=7, d_att=4, dtype="float64"), seed=2)
    splits = data.make_splits(3, 300, 1, 1)
    batch = data.stack([p for p in splits.train if len(p.src) == 8][:3])
    tgt_in = batch.tgt_in.copy()
    tgt_in[:, 3] = (tgt_in[:, 3] - 1) % (model.cfg.tgt_vocab - 2) + 2
    _, before = model.decoder_reads(batch)
    _, after = model.decoder_reads(data.Batch(batch.src, tgt_in, batch.tgt_out, batch.align))
    reads_with_new_state = np.abs(before[:, 3] - after[:, 3]).max() > 1e-9
    assert names == (["update", "scores", "weights", "context", "output"] if reads_with_new_state else
                     ["scores", "weights", "context", "update", "output"])  # fmt: skip
    (tex,) = dict(design.formulas)["scores"]
    assert tex == score.tex.replace("$s", "s_t" if reads_with_new_state else "s_{t-1}")


def test_a_design_with_an_unknown_part_is_refused_in_one_line():
    for kwargs, words in (
        ({"order": "sideways", "score": "additive"}, "order must be one of"),
        ({"order": "bahdanau", "score": "cosine"}, "score must be one of"),
        ({"order": "bahdanau", "score": None, "encoder": "transformer"}, "encoder must be one of"),
        ({"order": "bahdanau", "score": None, "label": ""}, "label must be a label key or None"),
        ({"order": "bahdanau", "score": "additive", "positions": "none"}, "are the self-attention encoder's"),
        (
            {"order": "bahdanau", "score": "additive", "encoder": "self_attention", "positions": "absolute"},
            "positions must be one of",
        ),
        ({"order": "bahdanau", "score": "additive", "encoder": "self_attention", "tied": 1}, "tied must be"),
    ):
        with pytest.raises(ValueError, match=words) as caught:
            Design("x", **kwargs)
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="non-empty"):
        Design(" attention", "bahdanau", "additive")
    with pytest.raises(ValueError, match="design must be one of"):
        named("Bahdanau")
    with pytest.raises(ValueError, match="no single design"):
        of_config(ModelConfig(attention=False, order="luong"))
