"""Parameters for the website's live explorers, exported from the core so that the numbers have one source.

The static site has no Python kernel. Its explorers (``book/_assets/ae-explorers.js``) recompute
``e_j(s) = v^T tanh(W_s s + W_h h_j + b)``, the softmax and the weighted sum in the browser, from the dictionary
that :func:`site_parameters` returns. The book's Sphinx extension (``book/_ext/ae_site.py``) writes it into
every page that holds an explorer at build time, and the browser tests check that the page shows the numbers
that :func:`attention_core.worked_example` and :func:`attention_core.softmax` compute.
"""

from __future__ import annotations

import base64
import functools
import json

import numpy as np

from ..example import (
    B_EXAMPLE,
    H_EXAMPLE,
    H_TRIANGLE,
    S_RANGE,
    S_STEP,
    SCORE_RANGE,
    SCORE_STEP,
    STATE_A,
    STATE_B,
    TOKENS,
    V_EXAMPLE,
    W_H_EXAMPLE,
    W_S_EXAMPLE,
)
from ..lang import LANGUAGES, Catalog, get_language, language
from ..toy_sentences import FEATURES, FELIX, FELIX_NEGATED, FELIX_NEGATED_ZH, FELIX_ZH, QUERIES

SCHEMA = 3  # bumped when the dictionary's layout changes; the script checks it
SCORE_START = (0.0, 0.0, 0.0)  # the score explorer's first scores: equal, so equal weights
CURVE_POINTS = 161  # states on each drawn weight curve over S_RANGE (a step of 0.05)
QUESTION_TOP = 3  # lesson 01's explorer lists the three largest weights, as the notebook's does
ALIGNMENT_LENGTHS = (6, 9, 12, 27)  # lesson 07's explorer: the first test sentence of each source length
LAB_STEPS = 600  # lesson 07's laboratory: optimiser steps of a run in the reader's browser (the recipe has 1000)
LAB_EVAL_EVERY = 25  # steps between two validation checks of a run in the browser
LAB_N_TEST = 900  # held-out sentences the browser evaluates at the end of a run (by source length)

SENTENCES = {"en": (FELIX, FELIX_NEGATED), "zh": (FELIX_ZH, FELIX_NEGATED_ZH)}  # lesson 01, by edition

# Every word the website's explorers show, in each edition (the one place for these labels: the script fills the
# {placeholders}; "_1" after a letter becomes a subscript). Terms follow book/glossary.md.
LABELS = Catalog(
    {
        # lessons 05 and 06: the state explorer
        "state_slider": {"en": "Reading state s", "zh": "读取状态 s"},
        "tanh_switch": {"en": "tanh in the scorer", "zh": "评分函数里保留 tanh"},
        "state_button": {"en": "State {name} (s = {s})", "zh": "状态 {name}（s = {s}）"},
        "reset": {"en": "Reset", "zh": "重置"},
        "jump": {"en": "Jump to a state", "zh": "跳到一个状态"},
        "state_bars": {"en": "Weights α_j at the current s", "zh": "当前 s 下的读取权重 α_j"},
        "state_plane": {
            "en": "Context c = Σ α_j h_j (diamond) beside h_1, h_2, h_3",
            "zh": "上下文向量 c = Σ α_j h_j（菱形）与 h_1、h_2、h_3",
        },
        "state_curves": {
            "en": "Weights over s; the vertical line is the current s",
            "zh": "读取权重随 s 的变化；竖线标出当前的 s",
        },
        "state_score": {"en": "score e_j(s)", "zh": "分数 e_j(s)"},
        "state_title_tanh": {"en": "Read at s = {s}, with tanh", "zh": "s = {s} 时的读取，保留 tanh"},
        "state_title_linear": {"en": "Read at s = {s}, tanh removed", "zh": "s = {s} 时的读取，去掉 tanh"},
        "curves_x": {"en": "state s →", "zh": "状态 s →"},
        "curves_y": {"en": "weight α", "zh": "读取权重 α"},
        # the table of a read (lessons 04 to 06) and its live summary
        "position": {"en": "position", "zh": "位置"},
        "weight_j": {"en": "weight α_j", "zh": "读取权重 α_j"},
        "table_foot": {
            "en": "context c = ({c0}, {c1}); weights sum to {sum}",
            "zh": "上下文向量 c = ({c0}, {c1})；权重之和为 {sum}",
        },
        "live": {
            "en": "{title}: weights {weights}; context ({c0}, {c1}).",
            "zh": "{title}：读取权重 {weights}；上下文向量 ({c0}, {c1})。",
        },
        "list_sep": {"en": ", ", "zh": "，"},
        # lesson 04: the score explorer
        "score_slider": {"en": "score e_{j} ({token})", "zh": "分数 e_{j}（{token}）"},
        "annotations": {"en": "Annotations", "zh": "注释向量"},
        "scores_group": {"en": "Scores", "zh": "分数"},
        "score_bars": {"en": "Weights α = softmax(e)", "zh": "读取权重 α = softmax(e)"},
        "score_plane": {
            "en": "Context c = Σ α_j h_j (diamond) in the hull of h_1, h_2, h_3",
            "zh": "上下文向量 c = Σ α_j h_j（菱形）落在 h_1、h_2、h_3 的凸包中",
        },
        "score_score": {"en": "score e_j", "zh": "分数 e_j"},
        "score_title": {"en": "Read of the scores ({scores})", "zh": "分数为 ({scores}) 时的读取"},
        "triangle": {"en": "a triangle: H_TRIANGLE", "zh": "一个三角形：H_TRIANGLE"},
        "running": {
            "en": "the running example: H_EXAMPLE (on one line)",
            "zh": "贯穿示例：H_EXAMPLE（三点共线）",
        },
        # lesson 01: the question explorer
        "sentence": {"en": "Sentence", "zh": "句子"},
        "question": {"en": "Question", "zh": "问题"},
        "question_bars": {
            "en": (
                "Weight α_j on each token (bars to scale from 0 to 1; the three largest in bold, in the second colour)"
            ),
            "zh": "每个 token 上的读取权重 α_j（条形按 0 到 1 的比例绘制；最大的三个用粗体和第二种颜色标出）",
        },
        "token": {"en": "token", "zh": "token"},
        "question_caption": {"en": "“{question}” read over “{sentence}”", "zh": "用“{question}”读取“{sentence}”"},
        "top_head": {"en": "Top {k} of {n} positions: ", "zh": "{n} 个位置中权重最大的 {k} 个："},
        "top_rest": {"en": "{list} (together {sum} of the weight)", "zh": "{list}（合计占权重的 {sum}）"},
        "question_live": {
            "en": "Question “{question}”: the three largest weights are {list}.",
            "zh": "问题“{question}”：权重最大的三个是 {list}。",
        },
        # lesson 07: the alignment explorer
        "al_option": {"en": "{n} source words: {words}", "zh": "{n} 个源词：{words}"},
        "al_select": {"en": "Test sentence", "zh": "测试句子"},
        "al_outputs": {"en": "Words the model produced (choose one):", "zh": "模型生成的词（选一个）："},
        "al_sources": {
            "en": "Source words, with the weight output word {t} “{word}” puts on each:",
            "zh": "源词，以及第 {t} 个输出词“{word}”放在每个源词上的读取权重：",
        },
        "al_summary": {
            "en": "Output word {t} “{word}” reads most from source word {j} “{src}” (weight {w})",
            "zh": "第 {t} 个输出词“{word}”读取最多的是第 {j} 个源词“{src}”（权重 {w}）",
        },
        "al_truth": {
            "en": "; the reference word’s true source is word {k} “{ks}”.",
            "zh": "；参考译文中这个词真正对应的是第 {k} 个源词“{ks}”。",
        },
        "al_end": {"en": "; it is the end symbol, past the reference.", "zh": "；它是结束符，已在参考译文之后。"},
        # any explorer
        "missing": {
            "en": "This live explorer could not start: its parameters are missing from the page.",
            "zh": "这个实时探索器无法启动：页面中缺少它的参数。",
        },
    }
)


def labels(lang: str = "en") -> dict[str, str]:
    """The explorers' labels in ``lang`` (``"en"`` or ``"zh"``), unfilled (the script fills the placeholders)."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    return {key: texts[lang] for key, texts in LABELS.entries.items()}


def _floats(a) -> list:
    """A numpy array (any shape) as nested lists of Python floats, for JSON."""
    return np.asarray(a, dtype=float).tolist()


def site_parameters(parts: tuple[str, ...] | None = None, lang: str = "en") -> dict:
    """The explorers' parameters as a JSON-able dictionary (lists of floats, strings and numbers).

    ``state``: the worked example of lesson 06 (``H`` as rows ``(T, d_h)``, ``W_s (d_a, d_s)``, ``W_h (d_a,
    d_h)``, ``v (d_a,)``, ``b (d_a,)``), the slider's range, step and start, and the two states A and B.
    ``score``: lesson 04's read of three scores over the triangle ``H_TRIANGLE (T, d_h)``.
    ``question``: lesson 01's toy sentences (tokens and hand-made feature rows ``X (T, F)``) and the two
    questions as query vectors ``q (F,)``; the page computes ``e_j = q^T x_j`` and the softmax.
    ``alignment``: lesson 07's committed trained model decoding test sentences greedily (see
    :func:`alignment_examples`).

    ``parts`` names the sections a page needs (e.g. ``("state",)``); ``None`` gives all of them. ``lang`` is the
    page's edition: it chooses the ``labels`` (every word the explorers show) and lesson 01's sentences and
    questions (the Chinese edition reads FELIX_ZH); the numbers do not depend on it.
    """
    sections = {
        "state": _state,
        "score": _score,
        "question": _question,
        "alignment": alignment_examples,
    }
    unknown = set(parts or ()) - set(sections)
    if unknown:
        raise ValueError(f"unknown explorer sections {sorted(unknown)}; known: {sorted(sections)}")
    chosen = sections if parts is None else {k: sections[k] for k in parts}
    text = labels(lang)
    with language(lang):
        made = {k: make() for k, make in chosen.items()}
    return {"schema": SCHEMA, "lang": lang, "labels": text, "tokens": list(TOKENS), **made}


def _state() -> dict:
    """Lessons 05 and 06: the worked example's scorer and the state slider."""
    return {
        "H": _floats(H_EXAMPLE),  # (T, d_h) = (3, 2)
        "W_s": _floats(W_S_EXAMPLE),  # (d_a, d_s) = (2, 1)
        "W_h": _floats(W_H_EXAMPLE),  # (d_a, d_h) = (2, 2)
        "v": _floats(V_EXAMPLE),  # (d_a,)
        "b": _floats(B_EXAMPLE),  # (d_a,)
        "s_range": list(map(float, S_RANGE)),
        "s_step": S_STEP,
        "s_start": float(STATE_A),
        "marks": {"A": float(STATE_A), "B": float(STATE_B)},
        "curve_points": CURVE_POINTS,
    }


def _score() -> dict:
    """Lesson 04: three score sliders over the triangle of annotations, or the running example's (the notebook
    explorer's default, whose three points lie on one line)."""
    return {
        "H": _floats(H_TRIANGLE),  # (T, d_h) = (3, 2)
        "annotations": [
            {"name": LABELS("triangle"), "H": _floats(H_TRIANGLE)},
            {"name": LABELS("running"), "H": _floats(H_EXAMPLE)},
        ],
        "e_range": list(SCORE_RANGE),
        "e_step": SCORE_STEP,
        "e_start": list(SCORE_START),
    }


def _question() -> dict:
    """Lesson 01: the toy sentences and the two questions."""
    return {
        "features": list(FEATURES),
        "sentences": [
            {"text": s.text, "tokens": list(s.tokens), "X": _floats(s.X)}  # X: (T, F)
            for s in SENTENCES[get_language()]
        ],
        "queries": [{"name": name, "q": _floats(q)} for name, q in QUERIES.items()],  # q: (F,)
        "top": QUESTION_TOP,
    }


@functools.lru_cache(maxsize=1)
def alignment_examples(lengths: tuple[int, ...] = ALIGNMENT_LENGTHS) -> dict:
    """Lesson 07's alignments for the website: what the committed trained model reads at each output step.

    For the first test sentence of each source length in ``lengths`` (seed-0 splits, as in the lesson), the
    source words, the words the model produces greedily (ending with the end symbol), the weights ``alpha (U,
    T)`` it read with at each of its ``U`` steps over the ``T`` source positions, and the true source position
    of each target word of the reference translation. Nothing is trained here: the parameters are the
    committed ones (:func:`attention_core.models.trained.load_trained`), and the page only looks rows up.
    """
    from ..models import data  # imported here: only the lesson-07 explorer needs the model
    from ..models.trained import LESSON07, load_trained

    splits = data.make_splits(seed=0)
    model = load_trained(LESSON07)
    examples = []
    for length in lengths:
        pair = next(p for p in splits.test if len(p.src) == length)
        tokens, weights = model.greedy(pair.src[None])  # (1, U), (1, U, T)
        src_words, tgt_words = pair.words()
        examples.append(
            {
                "source": list(src_words),  # T words
                "output": [data.TGT_WORDS[i] for i in tokens[0]],  # U words, the last the end symbol
                "weights": _floats(weights[0]),  # (U, T): row t = the read of output step t
                "reference": list(tgt_words),
                "true_source": [int(j) for j in pair.align],  # true source position of each reference word
            }
        )
    return {"model": LESSON07, "examples": examples}


@functools.lru_cache(maxsize=1)
def lab_data() -> dict:
    """Lesson 07's laboratory on the website: everything its script computes with, from the package.

    ``model``: the committed lesson-07 model (:data:`~attention_core.models.trained.LESSON07`): its sizes and
    its parameters as base64 little-endian float32 (exactly the committed numbers, 4 bytes each).
    ``grammar``: the toy language of :mod:`attention_core.models.data` (word pairs by part of speech, the limits,
    the vocabularies and the start and end ids), from which the page samples, parses and translates.
    ``examples``: the first test sentence of each of ``ALIGNMENT_LENGTHS`` (seed-0 splits), as words.
    ``snapshots``: the committed run's snapshots (:func:`~attention_core.models.trained.load_snapshots`) with its
    per-step training losses and validation checks. ``recipe``: :class:`~attention_core.models.train.TrainConfig`'s
    optimiser and data settings, and the browser run's budget (``LAB_STEPS`` steps, a validation check every
    ``LAB_EVAL_EVERY``, ``LAB_N_TEST`` held-out sentences). ``sweep``: lesson 07's length experiment, mean test
    accuracy by source-length bucket for both models (``results/length_sweep.json``).
    """
    from ..models import data  # imported here: only lesson 07's pages need the models
    from ..models.sweep import load_length_sweep
    from ..models.train import BUCKETS, TrainConfig
    from ..models.trained import LESSON07, load_snapshots, load_trained, trained_record

    model = load_trained(LESSON07)
    cfg, record, snaps = model.cfg, trained_record(LESSON07), load_snapshots(LESSON07)
    arrays = {
        name: base64.b64encode(np.ascontiguousarray(value, dtype="<f4").tobytes()).decode("ascii")
        for name, value in model.params.items()
    }
    classes = ("determiner", "adjective", "noun", "verb", "preposition")
    groups = (data.DETERMINERS, data.ADJECTIVES, data.NOUNS, data.VERBS, data.PREPOSITIONS)
    test = data.make_splits(seed=0).test
    tc = TrainConfig()
    sweep = load_length_sweep()
    return {
        "model": {
            "name": LESSON07,
            "config": {
                "attention": cfg.attention,
                "d_e": cfg.d_emb,
                "d_enc": cfg.d_enc,
                "d_s": cfg.d_dec,
                "d_a": cfg.d_att,
                "src_vocab": cfg.src_vocab,
                "tgt_vocab": cfg.tgt_vocab,
                "bos_id": data.BOS_ID,
            },  # fmt: skip
            "arrays": arrays,  # name -> base64 of float32, row-major, the shapes of seq2seq.init_params
        },
        "grammar": {
            "groups": {cls: [list(pair) for pair in group] for cls, group in zip(classes, groups, strict=True)},
            "src_words": list(data.SRC_WORDS),
            "tgt_words": list(data.TGT_WORDS),
            "max_adj": data.MAX_ADJ,
            "max_pp": data.MAX_PP,
            "max_len": data.MAX_LEN,
            "bos_id": data.BOS_ID,
            "eos_id": data.EOS_ID,
        },
        "examples": [next(p for p in test if len(p.src) == n).words()[0] for n in ALIGNMENT_LENGTHS],
        "snapshots": {
            **{k: snaps[k] for k in ("digits", "sentences", "steps", "valid_token", "valid_alignment", "weights")},
            "outputs": snaps["outputs"],
            "losses": [round(x, 4) for x in record["losses"]],
            "checks": record["checks"],
            "command": snaps["command"],
        },
        "recipe": {
            **{k: getattr(tc, k) for k in ("batch_size", "lr", "lr_end", "warmup_steps", "clip_norm", "beta1")},
            **{k: getattr(tc, k) for k in ("beta2", "adam_eps", "n_train", "n_valid")},
            "committed_steps": tc.steps,
            "steps": LAB_STEPS,
            "eval_every": LAB_EVAL_EVERY,
            "n_test": LAB_N_TEST,
            "buckets": [list(b) for b in BUCKETS],
        },
        "sweep": {
            "seeds": sweep["seeds"],
            "buckets": {
                name: [sweep["mean"][name]["buckets"][f"{lo}-{hi}"] for lo, hi in BUCKETS]
                for name in ("attention", "fixed summary")
            },
        },
    }


def lab_data_script() -> str:
    """:func:`lab_data` as a script for the website's ``_static/ae-lab-data.js`` (sets ``self.AELabData``)."""
    text = json.dumps(lab_data(), separators=(",", ":"), allow_nan=False)
    head = "// ae-lab-data.js: exported by attention_core.explorers.site.lab_data() when the site was built"
    return f"{head}\nself.AELabData = {text};\n"


def site_parameters_json(parts: tuple[str, ...] | None = None, lang: str = "en") -> str:
    """:func:`site_parameters` as compact JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(site_parameters(parts, lang), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
