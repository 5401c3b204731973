"""The registry's TeX as the pieces the laboratory's page draws (``attention_core.explorers.formulas``)."""

from __future__ import annotations

import re

import pytest

from attention_core.explorers.formulas import pieces
from attention_core.models.designs import REGISTRY


def text(formula: list) -> str:
    """The pieces as the page's text reads (scripts written after their base, ``_`` and ``^`` marking them)."""
    out = ""
    for p in formula:
        out += p if isinstance(p, str) else p["base"] + "_" * ("sub" in p) + p.get("sub", "") + "^" * ("sup" in p)
        out += "" if isinstance(p, str) else p.get("sup", "")
    return out


def test_the_additive_score_reads_as_the_page_showed_it():
    got = pieces(r"e_{tj} = v^\top \tanh(W_s s_{t-1} + W_h h_j + b)")
    assert got[:4] == [{"base": "e", "sub": "tj"}, " = ", {"base": "v", "sup": "⊤"}, " tanh("]
    assert text(got) == "e_tj = v^⊤ tanh(W_s s_t−1 + W_h h_j + b)"


@pytest.mark.parametrize(
    "tex, want",
    [
        (r"\alpha_{tj} = \operatorname{softmax}_j(e_{tj})", "α_tj = softmax_j(e_tj)"),
        (r"c_t = \sum_j \alpha_{tj} h_j", "c_t = Σ_j α_tj h_j"),
        (r"c_t = m = [\overrightarrow{h}_T; \overleftarrow{h}_1]", "c_t = m = [→h_T; ←h_1]"),
        (r"\tilde{s}_t = \tanh(W_c [c_t; s_t] + b_c)", "s̃_t = tanh(W_c [c_t; s_t] + b_c)"),
        (
            r"p(y_t \mid y_{<t}, x) = \operatorname{softmax}(W_o \tilde{s}_t + b_o)",
            "p(y_t | y_<t, x) = softmax(W_o s̃_t + b_o)",
        ),
        (r"s_t = \mathrm{GRU}(s_{t-1}, [e_{\text{tgt}}(y_{t-1}); c_t])", "s_t = GRU(s_t−1, [e_tgt(y_t−1); c_t])"),
        (r"e_{tj} = s_t^\top W_a h_j", "e_tj = s_t^⊤ W_a h_j"),
    ],
)
def test_each_construct_the_registry_uses(tex, want):
    assert text(pieces(tex)) == want


def test_letters_are_italic_symbols_and_names_upright():
    got = pieces(r"\operatorname{softmax}_j(x) + \alpha")
    assert got[0] == {"base": "softmax", "upright": True, "sub": "j"}
    assert {"base": "x"} in got and got[-1] == {"base": "α"}


def test_every_formula_of_the_registry_is_drawn():
    for design in REGISTRY:
        for _, formulas in design.formulas:
            for tex in formulas:
                assert text(pieces(tex)).count("=") == tex.count("="), tex


@pytest.mark.parametrize(
    "tex, words",
    [
        (r"\frac{a}{b}", r"\frac is not a command"),
        ("x_{t", "a { is never closed"),
        ("x}", "a } closes no group"),
        ("_x", "_ follows nothing"),
        ("x_a_b", "a second _"),
        (r"x_{y_z}", "a script inside a script"),
        (r"\tilde", "has no argument"),
    ],
)
def test_what_the_page_cannot_draw_is_refused_in_one_line(tex, words):
    with pytest.raises(ValueError, match=re.escape(words)) as caught:
        pieces(tex)
    assert str(caught.value).startswith(f"formula {tex!r}: ") and "\n" not in str(caught.value)
    with pytest.raises(TypeError, match="a formula must be a TeX str"):
        pieces(None)
