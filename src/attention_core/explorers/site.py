"""Parameters for the website's live explorers, exported from the core so that the numbers have one source.

The static site has no Python kernel. Its explorers (``book/_assets/ae-explorers.js``) recompute
``e_j(s) = v^T tanh(W_s s + W_h h_j + b)``, the softmax and the weighted sum in the browser, from the dictionary
that :func:`site_parameters` returns. The book's Sphinx extension ``attention_workshop.ae_twins`` writes it into
every page that holds an explorer at build time, and the browser tests check that the page shows the numbers
that :func:`attention_core.worked_example` and :func:`attention_core.softmax` compute.

The laboratory of lessons 07 to 09 (``book/_assets/ae-lab*.js``) computes with the committed translation models: a
second implementation of :mod:`attention_core.models` in JavaScript, fed by :func:`lab_data` (written to the site as
``_static/ae-lab-data.js``) and tested against the package under Node (``tests/site/test_lab_math.py``).
"""

from __future__ import annotations

import base64
import copy
import dataclasses
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
from ..lang import Messages, language, languages
from ..toy_sentences import FEATURES, QUERIES, example_sentences
from .formulas import pieces
from .reading import question

SCHEMA = 4  # the layout of the parameters: bumped when it changes; written into the parameters (params.schema)
LAB_SCHEMA = 5  # the layout of lab_data(): bumped when it changes; book/_assets/ae-lab.js checks it (LAB_SCHEMA)
SCORE_START = (0.0, 0.0, 0.0)  # the score explorer's first scores: equal, so equal weights
CURVE_POINTS = 161  # states on each drawn weight curve over S_RANGE (a step of 0.05)
QUESTION_TOP = 3  # lesson 01's explorer lists the three largest weights, as the notebook's does
ALIGNMENT_LENGTHS = (6, 9, 12, 27)  # lesson 07's lab: its examples, the first test sentence of each length
LAB_STEPS = 600  # lesson 07's laboratory: optimiser steps of a run in the reader's browser (the recipe has 1000)
# ... of a design whose encoder has no recurrence (lesson 09): the committed recipe's whole budget. The page's run of
# lesson 09's self-attention design (seed 0, data seed 0; attention_workshop.bench_lab) reached validation token
# accuracy 0.917 at the end of a 600-step budget (Node), and 0.95 at step 700 (Node) or 750 (Chromium, in the built
# page) of the committed 1000-step one; lesson 07's attention design reaches it at step 300.
LAB_STEPS_WITHOUT_RECURRENCE = 1000
LAB_EVAL_EVERY = 50  # steps between two validation checks of a run in the browser
LAB_N_TEST = 900  # held-out sentences the browser evaluates at the end of a run (by source length)
LAB_MODEL_SCRIPT = "ae-lab-model-{name}.js"  # lab_model_scripts(): one model's parameters, in _static/
# Every committed model of lessons 07 to 09 (attention_core.models.trained), in the order the page lists them.
LAB_MODELS = (
    "lesson07_attention_seed0",
    "lesson08_general_score_seed0",
    "lesson08_luong_seed0",
    "lesson07_verb_final_attention_seed0",
    "lesson07_verb_final_fixed_summary_seed0",
    "lesson09_self_attention_seed0",
    "lesson09_no_positions_seed0",
)

# Every word the website's explorers show, in each edition (the one place for these labels: the script fills the
# {placeholders}; "_1" after a letter becomes a subscript). Terms follow book/glossary.md.
LABELS = Messages(
    __name__,
    {
        # lessons 05 and 06: the state explorer
        "state_slider": "Reading state s",
        "tanh_switch": "tanh in the scorer",
        "state_button": "State {name} (s = {s})",
        "reset": "Reset",
        "jump": "Jump to a state",
        "state_bars": "Weights α_j at the current s",
        "state_plane": "Context c = Σ α_j h_j (diamond) beside h_1, h_2, h_3",
        "state_curves": "Weights over s; the vertical line is the current s",
        "state_score": "score e_j(s)",
        "state_title_tanh": "Read at s = {s}, with tanh",
        "state_title_linear": "Read at s = {s}, tanh removed",
        "curves_x": "state s →",
        "curves_y": "weight α",
        # the table of a read (lessons 04 to 06) and its live summary
        "position": "position",
        "weight_j": "weight α_j",
        "table_foot": "context c = ({c0}, {c1}); weights sum to {sum}",
        "live": "{title}: weights {weights}; context ({c0}, {c1}).",
        "list_sep": ", ",
        # lesson 04: the score explorer
        "score_slider": "score e_{j} ({token})",
        "annotations": "Annotations",
        "scores_group": "Scores",
        "score_bars": "Weights α = softmax(e)",
        "score_plane": "Context c = Σ α_j h_j (diamond) in the hull of h_1, h_2, h_3",
        "score_score": "score e_j",
        "score_title": "Read of the scores ({scores})",
        "triangle": "a triangle: H_TRIANGLE",
        "running": "the running example: H_EXAMPLE (on one line)",
        # lesson 01: the question explorer
        "sentence": "Sentence",
        "question": "Question",
        "question_bars": (
            "Weight α_j on each token (bars to scale from 0 to 1; the three largest in bold, in the second colour)"
        ),
        "token": "token",
        "question_caption": "“{question}” read over “{sentence}”",
        "top_head": "Top {k} of {n} positions: ",
        "top_rest": "{list} (together {sum} of the weight)",
        "question_live": "Question “{question}”: the three largest weights are {list}.",
        # lesson 07: the laboratory (book/_assets/ae-lab.js)
        "lab_title": "Laboratory: the trained translation model",
        "lab_tab_compose": "Compose",
        "lab_tab_step": "Step through the decoder",
        "lab_tab_watch": "Watch it learn",
        "lab_tab_train": "Train it yourself",
        "lab_compose_intro": (
            "Write a source sentence in the toy language of this lesson, or build it word by word: the committed "
            "model translates it here, greedily, and the grid shows what each output word read. The grammar gives"
            " the reference translation and the true alignment (the outlined cells), which the model never saw. The"
            " target language is made up: invented words on French-like stems, with no agreement, so that no"
            " reader’s knowledge of a real language helps or misleads, and every target word translates exactly one"
            " source word."
        ),
        "lab_examples": "Example sentences",
        "lab_examples_pick": "(choose an example)",
        "lab_example_option": "{n} words: {words}",
        "lab_sentence": "Source sentence (words separated by spaces)",
        "lab_next": "Next word (only what the grammar allows)",
        "lab_add": "Add",
        "lab_remove": "Remove the last word",
        "lab_clear": "Clear",
        "lab_random": "Random sentence",
        "lab_next_done": "(the sentence is complete)",
        "lab_next_fix": "(correct the sentence first)",
        "lab_class_determiner": "a determiner",
        "lab_class_adjective": "an adjective",
        "lab_class_noun": "a noun",
        "lab_class_verb": "a verb",
        "lab_class_preposition": "a preposition",
        "lab_end_of_sentence": "the end of the sentence",
        "lab_or": "; or ",
        "lab_ok": "A sentence of the toy language ({n} words): translated below.",
        "lab_err_unknown": "“{word}” (word {k}) is not a word of the toy language. The grammar allows here: {allowed}.",
        "lab_err_order": "“{word}” (word {k}) cannot stand here. The grammar allows here: {allowed}.",
        "lab_err_repeat": (
            "“{word}” (word {k}) is already in this noun phrase; an adjective appears once. Allowed here: {allowed}."
        ),
        "lab_err_adjectives": (
            "“{word}” (word {k}): a noun phrase has at most {max_adj} adjectives. Allowed here: {allowed}."
        ),
        "lab_err_phrases": (
            "“{word}” (word {k}): a sentence has at most {max_pp} prepositional phrases. Allowed here: {allowed}."
        ),
        "lab_err_length": "“{word}” (word {k}): a sentence has at most {max_len} words.",
        "lab_err_unfinished": "The sentence is not finished: after word {k} “{last}” the grammar needs {allowed}.",
        "lab_err_empty": "Write a sentence, or build one word by word; it starts with {allowed}.",
        "lab_model_says": "The model’s translation:",
        "lab_reference": "Reference (the grammar’s):",
        "lab_same": "The model’s translation equals the reference, end symbol included.",
        "lab_differs": "They differ first at word {k}: the reference has “{want}”, the model wrote “{got}”.",
        "lab_grid_label": (
            "Attention weights of the translation: output words down, source words across. Arrow keys move."
        ),
        "lab_grid_hint": "Point at a cell, tap it, or focus the grid and use the arrow keys to read its weight.",
        "lab_grid_note": (
            "The fuller a cell, the larger its weight αₜⱼ (a full cell is 1); each row sums to 1. Outlined: the "
            "true source position of the reference word."
        ),
        "lab_cell": "Output word {t} “{out}”, source word {j} “{src}”: weight {w}.",
        "lab_cell_max": "This row reads most from source word {j} “{src}” ({w}).",
        "lab_cell_truth": "The true source is word {j} “{src}”.",
        "lab_strip_hint": (
            "Each cell is one component: red positive, blue negative. Point at one or use the arrow keys."
        ),
        "lab_component": "{name}, component {k} of {n}: {v}",
        "lab_step_intro": (
            "The sentence of Compose, decoded one step at a time in the order of this lesson’s equations: the "
            "scores use the previous state sₜ₋₁, then the weights and the read cₜ, then the state update with cₜ,"
            " then the distribution over the target vocabulary, whose most probable word is fed back."
        ),
        "lab_step_intro_luong": (
            "The sentence of Compose, decoded one step at a time in the order of Luong’s decoder (lesson 08): first "
            "the state update sₜ, fed the previous attentional state s̃ₜ₋₁, then the scores with the new state sₜ, "
            "the weights and the read cₜ, then the attentional state s̃ₜ and the distribution over the target "
            "vocabulary, whose most probable word is fed back."
        ),
        "lab_step_intro_fixed": (
            "The sentence of Compose, decoded one step at a time by the fixed-summary model: every step reads the "
            "same summary m, then updates the state with it and gives the distribution over the target vocabulary, "
            "whose most probable word is fed back."
        ),
        "lab_step_none": "Compose a sentence of the toy language first (first tab).",
        "lab_step_sentence": "Sentence: {words}",
        "lab_prev": "◀ Previous step",
        "lab_next_step": "Next step ▶",
        "lab_step_t": "Decoder step t",
        "lab_step_head": "Step {t} of {U}: the input is yₜ₋₁ = “{prev}”; the model writes yₜ = “{word}”.",
        "lab_h_scores": "Scores, with the previous state",
        "lab_h_weights": "Weights over the source words",
        "lab_h_context": "The read: the context vector",
        "lab_h_state": "The state update, with what was read",
        "lab_h_output": "The next-word distribution",
        "lab_sprev_caption": "sₜ₋₁, the decoder state before this step (what the scorer compares with every hⱼ):",
        "lab_strip_sprev": "Previous decoder state sₜ₋₁",
        "lab_strip_c": "Context vector cₜ",
        "lab_strip_s": "New decoder state sₜ",
        "lab_cards_label": "Scores and weights of each source word",
        "lab_read_summary": "The largest weight is on source word {j} “{src}” ({w}).",
        "lab_read_end": "This step writes the end symbol: it has no true source word.",
        "lab_step_live": (
            "Step {t}: largest weight on source word {j} “{src}” ({w}); writes “{word}” with probability {p}."
        ),
        "lab_watch_intro": (
            "The committed training run, replayed: every {every} steps up to step {steps}, what the model read "
            "for three test sentences (teacher-forced, one row per reference word), its training loss and its "
            "accuracy on the validation sentences. No step ever saw an alignment label, yet the outlined cells "
            "fill in."
        ),
        "lab_watch_sentence": "Test sentence",
        "lab_play": "▶ Play",
        "lab_pause": "❚❚ Pause",
        "lab_scrub": "Training step",
        "lab_step_of": "step {step} of {steps}",
        "lab_watch_figures": (
            "Step {step}: training loss {loss} (mean of the 20 steps before); validation token accuracy {token}; "
            "alignment accuracy {align}."
        ),
        "lab_watch_output": "Greedy translation at this step:",
        "lab_watch_grid_label": (
            "Attention weights at this training step: reference words down, source words across. Arrow keys move."
        ),
        "lab_chart_loss": "Training loss (log scale)",
        "lab_chart_acc": "Validation accuracy",
        "lab_axis_step": "optimiser step",
        "lab_series_loss": "each step’s batch",
        "lab_series_loss_mean": "mean of 20 steps",
        "lab_series_valid": "token accuracy",
        "lab_series_align": "alignment accuracy",
        "lab_watch_note": (
            "Recorded by {command}, the run that made the committed parameters (weights rounded to 3 decimals)."
        ),
        "lab_train_intro": (
            "Train the design chosen above here, in a background thread of your browser: the same initialisation "
            "rules, "
            "batches of {batch} sentences of one length, Adam, gradient clipping and learning-rate schedule as "
            "the package, on {n_train} sentences sampled from the same grammar (with the page’s own random "
            "numbers). The default budget is {steps} steps (the committed recipe takes {committed}). At the end, "
            "compare the accuracies by source length with the seed study’s runs of the same design and language."
        ),
        "lab_design": "Design",
        # the menu labels of the designs (attention_core.models.designs.REGISTRY names each design's key)
        "lab_design_additive_bahdanau": "attention: additive score, Bahdanau’s order (lesson 07)",
        "lab_design_general_bahdanau": "attention: general score, Bahdanau’s order (lesson 08’s swapped score)",
        "lab_design_general_luong": "attention: general score, Luong’s order (lesson 08)",
        "lab_design_additive_luong": "attention: additive score, Luong’s order",
        "lab_design_fixed": "fixed summary, no attention (lesson 07’s baseline)",
        "lab_design_self_attention": "self-attention encoder, sinusoidal positions (lesson 09)",
        "lab_design_no_positions": "self-attention encoder, no positions (lesson 09)",
        "lab_design_tied": "self-attention encoder, keys tied to values (lesson 09)",
        # a design's short name with its encoder, when that is not lesson 07's recurrent one (encoder_labels):
        # the encoder's name, its positions' and its tied keys (the parts' `label` keys, joined by list_sep), then
        # the decoder's short name (lab_short)
        "lab_short_encoder": "{encoder}; {decoder}",
        "lab_encoder_self_attention": "self-attention encoder",
        "lab_positions_sinusoidal": "sinusoidal positions",
        "lab_positions_learned": "learned positions",
        "lab_positions_none": "no positions",
        "lab_encoder_tied": "keys tied to values",
        # what a first-time reader could not tell (issue 46): a design and language with no model yet, which run
        # "Watch it learn" replays, where the products run
        "lab_ok_untrained": (
            "A sentence of the toy language ({n} words). No committed model has this design and language, so "
            "nothing translates it yet: train one in “{train}”, and it is translated here."
        ),
        "lab_go_train": "Go to “{train}”",
        "lab_watch_replays": (
            "This panel replays one recorded run, always the same: the one that made lesson 07’s committed model "
            "({design}; target language: {language}), whatever is chosen above."
        ),
        "lab_watch_yours": (
            "No run of the design and target language chosen above was recorded ({design}; {language}): train it "
            "in “{train}” to watch it learn there."
        ),
        "lab_engine_wasm": (
            "In this browser the model’s larger matrix products run in WebAssembly, with its 128-bit SIMD "
            "instructions, in the page and in its background threads; the rest runs in JavaScript."
        ),
        "lab_engine_js": (
            "This browser has no WebAssembly SIMD, so every matrix product runs in plain JavaScript: the same "
            "numbers, computed more slowly."
        ),
        # lesson 09: the encoder's self-attention beside the decoder's cross-attention (a design without recurrence)
        "lab_tab_encoder": "Inside the encoder",
        "lab_encoder_intro": (
            "The sentence of Compose, read by this design’s encoder, which has no recurrence: in each "
            "self-attention layer every source word issues its own request and reads every word of the sentence, "
            "itself included (rows: the word that reads; columns: the words read; each row sums to 1). Beside it, "
            "the decoder’s cross-attention for the same sentence, as in Compose: what each output word read from "
            "the encoder’s annotations."
        ),
        "lab_encoder_layer": "Self-attention layer",
        "lab_encoder_layer_option": "layer {l} of {L}",
        "lab_encoder_self_head": "The encoder’s self-attention, layer {l}",
        "lab_encoder_cross_head": "The decoder’s cross-attention",
        "lab_encoder_grid_label": (
            "Self-attention weights of layer {l}: the words that read down, the words read across. Arrow keys move."
        ),
        "lab_encoder_cell": "Source word {i} “{reader}” reads source word {j} “{read}”: weight {w}.",
        "lab_encoder_cell_max": "Word {i} reads most from word {j} “{src}” ({w}).",
        "lab_encoder_no_positions": (
            "This encoder is told nothing about the order of the words: two copies of a word get the same "
            "annotation, so their columns are equal in every row."
        ),
        "lab_language": "Target language",
        "lab_language_svo": "lesson 07’s (every phrase in place)",
        "lab_language_verb_final": "verb-final (the verb last, prepositional phrases reversed)",
        "lab_using_committed": "Compose and Step use the committed model {name}.",
        "lab_model_loading": "Loading the committed model {name}…",
        "lab_using_yours": (
            "No committed model has this design and language: Compose and Step use your run (seed {seed}, {steps} "
            "steps)."
        ),
        "lab_using_none": (
            "No committed model has this design and language: train one in “{train}”, and Compose and Step use it."
        ),
        "lab_train_what": "The next run trains {design} on the target language {language} (chosen above).",
        "lab_h_scores_new": "Scores, with the new state",
        "lab_h_state_first": "The state update, with the previous attentional state",
        "lab_h_summary": "The read: the fixed summary, the same at every step",
        "lab_step_live_fixed": "Step {t}: writes “{word}” with probability {p}.",
        "lab_punct_note": "Punctuation removed: the toy language has none.",
        "lab_grid_scroll": "Wider than the page: swipe or scroll the grid sideways.",
        "lab_train_stopped": "Stopped at step {step} of {steps}: this run is over. Train starts a new one.",
        "lab_col_yours": "your run: {design} (seed {seed}, {steps} steps)",
        "lab_col_study": "seed study: {design} ({runs} runs of {steps} steps), mean (min–max)",
        "lab_results_language": "On the target language {language}:",
        # a design's short name (the results' columns; the menu of a design without a label of its own): its
        # order's and its score's names, the parts' `label` keys (models/orders.py, models/scorers.py)
        "lab_short": "{order}, {score}",
        "lab_order_bahdanau": "Bahdanau",
        "lab_order_luong": "Luong",
        "lab_score_additive": "additive score",
        "lab_score_general": "general score",
        "lab_score_none": "fixed summary",
        "lab_range": "{mean} ({min}–{max})",
        "lab_seed": "Seed",
        "lab_steps": "Steps",
        "lab_train_watch": "Sentence to watch",
        "lab_yours": "your sentence: {words}",
        "lab_train": "Train",
        "lab_train_again": "Train again (new run)",
        "lab_stop": "Stop",
        "lab_resume": "Resume",
        "lab_train_idle": "Nothing is training yet.",
        "lab_train_making": "Sampling {n} training sentences…",
        "lab_train_ready": "{n} training sentences ready after {s} s; training…",
        "lab_train_resumed": "Training again…",
        "lab_train_paused": "Paused at step {step} of {steps} ({s} s). Resume to go on.",
        "lab_train_status": (
            "Step {step} of {steps}, {s} s, {ms} ms per step; validation token accuracy {acc} (step {at})."
        ),
        "lab_train_reached": "Reached 0.95 at step {step}, after {s} s.",
        "lab_train_check": "Step {step}: validation token accuracy {acc}.",
        "lab_train_evaluating": "Training finished after {s} s; evaluating on {n} held-out sentences…",
        "lab_train_done": (
            "Done: {steps} steps in {s} s ({ms} ms per step); held-out token accuracy {token}, exact {exact}."
        ),
        "lab_chart_train_loss": "Your run’s training loss (log scale)",
        "lab_chart_train_acc": "Your run’s validation token accuracy",
        "lab_train_output": "Its greedy translation now:",
        "lab_train_grid_label": (
            "Attention weights of the model being trained: reference words down, source words across."
        ),
        "lab_train_grid_note": (
            "Teacher-forced weights over the reference translation; outlined: the true source positions."
        ),
        "lab_baseline_no_weights": (
            "The fixed-summary model has no weights to draw: it reads the same summary m at every step."
        ),
        "lab_results_caption": "Accuracy by source length on {n} held-out sentences (token / exact)",
        "lab_col_length": "source length",
        "lab_bucket": "{lo}–{hi} words",
        "lab_token_exact": "{token} / {exact}",
        "lab_results_note": (
            "The seed study’s runs used numpy, the full recipe and their own test sets; your run uses the page’s"
            " random numbers, its own held-out sentences and its own budget, so expect similar, not equal, "
            "figures."
        ),
        # any explorer
        "missing": "This live explorer could not start: its parameters are missing from the page.",
    },
)


# What the website writes around its explorers (attention_workshop.ae_twins): the note that replaces a notebook widget,
# the line shown without JavaScript, and the introduction of lesson 07's explorer. May hold HTML.
PAGE = Messages(
    f"{__name__}.page",
    {
        # the language switch on every page links to the other editions, each named in its own language (the
        # names are in locale/editions.toml, not translated); this is its label for screen readers
        "read_in": "Read this page in English",
        # atop every page of an edition whose translation is in progress (locale/editions.toml)
        "in_progress": (
            "This edition is still being translated: {done} of {total} passages are translated so far, and the "
            "others are shown in English."
        ),
        "needs_js": "This live explorer needs JavaScript in your browser.",
        "note": (
            "<strong>Notebook explorer.</strong> In the notebook this cell shows controls that recompute with "
            "Python, so they need a running kernel: run <code>make lab</code> and open this lesson. On this "
            'page, use the <a href="#{target}">live explorer {where}</a>: it computes the same read in '
            "your browser."
        ),
        "below": "just below",
        "above": "earlier on this page",
        "lab_intro": (
            "<strong>Laboratory: runs in your browser on this page.</strong> The committed models of lessons 07 to "
            "09, computed in the page by a second implementation of <code>attention_core.models</code> (tested against "
            "it; its larger matrix products run in WebAssembly where the browser has WebAssembly SIMD, in JavaScript "
            "otherwise): choose a design and a target language, compose your own sentence and see its alignment, step "
            "through the decoder, replay how lesson 07’s committed run learned where to look, or train a model "
            "yourself, with no alignment label, in a background thread."
        ),
        # the book as a PDF (attention_workshop.build_pdf): the link on every page, and what the PDF writes itself
        "pdf_link": "This book as a PDF",
        "pdf_contents": "Contents",
        "pdf_about": (
            "Printed from the book’s website, where the lessons’ live explorers run in your browser. The lessons "
            "also run as notebooks on your own machine: <code>make lab</code>."
        ),
        "pdf_explorer": (
            "<strong>Live explorer.</strong> On the book’s website, this place holds a live explorer that recomputes "
            "as you move its controls: {url}."
        ),
        "pdf_widget": (
            "<strong>Notebook explorer.</strong> In the notebook this cell shows controls that recompute with Python "
            "(run <code>make lab</code> and open this lesson); on the book’s website, this lesson’s page has a live "
            "explorer that computes the same read in your browser: {url}."
        ),
        # the glossary's {aliases}`zh: ...` (attention_workshop.ae_lang): the words other writing uses for a term, in
        # the language the key names ({aliases}: the words, joined by alias_separator); "aliases" for any other
        # language ({language}: its own name)
        "aliases_en": "English aliases: {aliases}",
        "aliases_zh": "Chinese aliases: {aliases}",
        "aliases_fr": "French aliases: {aliases}",
        "aliases": "Aliases ({language}): {aliases}",
        "alias_separator": ", ",
    },
)


def labels(lang: str = "en") -> dict[str, str]:
    """The explorers' labels in ``lang`` (``"en"``, ``"zh"``, ...), unfilled (the script fills the placeholders)."""
    if lang not in languages():
        raise ValueError(f"language must be one of {languages()}, got {lang!r}")
    return LABELS.table(lang)


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

    ``parts`` names the sections a page needs (e.g. ``("state",)``); ``None`` gives all of them. ``lang`` is the
    page's edition: it chooses the ``labels`` (every word the explorers show) and lesson 01's sentences and
    questions (the Chinese edition reads FELIX_ZH, the French one FELIX_FR); the numbers do not depend on it.
    """
    sections = {
        "state": _state,
        "score": _score,
        "question": lambda: _question(lang),
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


def _question(lang: str) -> dict:
    """Lesson 01: the toy sentences and the two questions, in the page's language ``lang``."""
    return {
        "features": list(FEATURES),
        "sentences": [
            {"text": s.text, "tokens": list(s.tokens), "X": _floats(s.X)}  # X: (T, F)
            for s in example_sentences(lang)
        ],
        "queries": [{"id": name, "name": question(name), "q": _floats(q)} for name, q in QUERIES.items()],  # q: (F,)
        "top": QUESTION_TOP,
    }


def lab_data() -> dict:
    """The laboratory on the website (lessons 07 to 09): everything its script computes with, from the package.

    ``schema``: :data:`LAB_SCHEMA`, the layout of this dictionary, which the page checks before it reads on.
    ``models``: every committed model of lessons 07 to 09 (:data:`LAB_MODELS`), each with its ``name``, its
    ``design`` (a name of :data:`~attention_core.models.designs.REGISTRY`), its target ``language`` and its
    :class:`~attention_core.models.seq2seq.ModelConfig` under the config's own field names (``order`` and
    ``score`` included); ``arrays``: each model's parameters by model name, each parameter as ``{"shape": [...],
    "data": base64}``, little-endian float32 in row-major order (exactly the committed numbers, 4 bytes each; the
    page checks each shape against its own). ``designs``: each design the page offers (the registry's designs with
    ``lab``, :mod:`attention_core.models.designs`), in the registry's order, by name: its ModelConfig fields
    (``config``), the keys of its labels (``labels``: ``menu``, its own or None, and its parts' names, ``order``,
    ``score`` and ``encoder``, a list: empty for lesson 07's recurrent encoder, else the encoder's name, its
    positions' and whether its keys are tied to its values, :func:`encoder_labels`), its step panel (``step``,
    :func:`step_panel`) and the budget of steps a run of it in the page starts with (``steps``: ``LAB_STEPS``, or
    ``LAB_STEPS_WITHOUT_RECURRENCE`` for an encoder without recurrence).
    ``grammar``: the toy language of :mod:`attention_core.models.data` (word pairs by part of speech, the limits,
    the vocabularies, the start and end ids and the target ``languages``), from which the page samples, parses
    and translates. ``examples``: the first test sentence of each of ``ALIGNMENT_LENGTHS`` (seed-0 splits; the
    source sentences are the same in both languages), as words.
    ``snapshots``: lesson 07's committed run's snapshots (:func:`~attention_core.models.trained.load_snapshots`)
    with its per-step training losses and validation checks. ``recipe``:
    :class:`~attention_core.models.train.TrainConfig`'s optimiser and data settings, and the browser run's budget
    (``LAB_STEPS`` steps, a validation check every ``LAB_EVAL_EVERY``, ``LAB_N_TEST`` held-out sentences).
    ``study``: the seed study (``results/seed_study.json``, :func:`~attention_core.models.sweep.load_seed_study`)
    per language and design: the number of runs, their
    training and data seeds, and ``{mean, min, max}`` (:func:`~attention_core.models.sweep.spread`) of the token,
    exact and alignment accuracy over all sentences and of the token and exact accuracy in each source-length bucket.
    ``model``: lesson 07's model as one entry (``name``, ``config``, ``arrays``), for Python callers and the
    parity tests; :func:`lab_data_script` leaves it out (its arrays are under ``arrays``).
    """
    return copy.deepcopy(_lab_data())  # computed once; each call gets its own copy, so an edit never leaks


def _arrays(params: dict) -> dict:
    return {
        name: {
            "shape": list(value.shape),
            "data": base64.b64encode(np.ascontiguousarray(value, dtype="<f4").tobytes()).decode("ascii"),
        }
        for name, value in params.items()
    }


def _rounded(figures: dict) -> dict:
    return {k: round(figures[k], 4) for k in ("mean", "min", "max")}


def step_panel(design) -> dict:
    """The step panel of the laboratory for a :class:`~attention_core.models.designs.Design`: what ``ae-lab.js``
    lays out, in the order of the design's formulas (:attr:`~attention_core.models.designs.Design.formulas`).

    ``{"intro": label key, "sections": [{"head": label key, "items": [...]}]}``; an item is a formula
    (``{"tex": TeX, "math": pieces}``, :func:`~.formulas.pieces`), a caption (``{"caption": label key}``) or one
    of the page's displays (``{"show": ...}``: ``"s_prev"`` and ``"s_new"``, the states before and after the
    step; ``"weights"``, each source word's score and weight; ``"context"``, what was read). The state before the
    step is shown where it is first used: beside the scores of a design that reads before it updates, else beside
    the update, with the new state.
    """
    reads_first = design.parts()[0].reads_first
    names = [what for what, _ in design.formulas]
    prev_with_scores = reads_first and "scores" in names
    heads = {
        "scores": "lab_h_scores" if reads_first else "lab_h_scores_new",
        "weights": "lab_h_weights",
        "context": "lab_h_context",
        "summary": "lab_h_summary",
        "update": "lab_h_state" if reads_first or "scores" not in names else "lab_h_state_first",
        "output": "lab_h_output",
    }
    shows = {
        "scores": [{"caption": "lab_sprev_caption"}, {"show": "s_prev"}] if prev_with_scores else [],
        "weights": [{"show": "weights"}],
        "context": [{"show": "context"}],
        "summary": [{"show": "context"}],
        "update": [{"show": "s_new"}] if prev_with_scores else [
            {"caption": "lab_strip_sprev"}, {"show": "s_prev"}, {"caption": "lab_strip_s"}, {"show": "s_new"}],
        "output": [],
    }  # fmt: skip
    sections = [
        {"head": heads[what], "items": [{"tex": tex, "math": pieces(tex)} for tex in formulas] + shows[what]}
        for what, formulas in design.formulas
    ]
    intro = (
        "lab_step_intro_fixed" if design.score is None else "lab_step_intro" if reads_first else "lab_step_intro_luong"
    )
    return {"intro": intro, "sections": sections}


def encoder_labels(design) -> list[str]:
    """The label keys of a design's encoder when it is not lesson 07's recurrent one (which the page leaves unsaid,
    as before lesson 09): the encoder's name, its positions' and, when its layers read back their keys, that."""
    from ..models import designs
    from ..models.positions import POSITIONS
    from ..models.seq2seq import ENCODERS

    if design.encoder == designs.RECURRENT:
        return []
    encoder = ENCODERS[design.encoder]
    return [encoder.label, POSITIONS[design.positions].label, *([encoder.tied_label] if design.tied else [])]


def _designs_view() -> dict:
    """The designs the laboratory offers, as the page reads them (see :func:`lab_data`); a label key that
    :data:`LABELS` lacks stops here, naming the design."""
    from ..models import designs

    out = {}
    for design in designs.where(lab=True):
        order, score = design.parts()
        keys = {"menu": design.label, "order": order.label, "score": score.label, "encoder": encoder_labels(design)}
        step = step_panel(design)
        used = [keys["menu"], keys["order"], keys["score"], *keys["encoder"], step["intro"]]
        used += [s["head"] for s in step["sections"]]
        used += [item["caption"] for s in step["sections"] for item in s["items"] if "caption" in item]
        missing = [key for key in used if key is not None and key not in LABELS.entries]
        if missing:
            raise ValueError(f"design {design.name!r}: no label {missing[0]!r} in {__name__}.LABELS")
        steps = LAB_STEPS if design.encoder == designs.RECURRENT else LAB_STEPS_WITHOUT_RECURRENCE
        out[design.name] = {"config": design.fields(), "labels": keys, "step": step, "steps": steps}
    return out


def _study_view() -> dict:
    """The seed study as the lab's results table reads it (see :func:`lab_data`)."""
    from ..models import designs
    from ..models.sweep import DESIGNS, load_seed_study, runs, spread
    from ..models.train import BUCKETS

    study = load_seed_study()
    out: dict = {}
    for lang in study["languages"]:
        out[lang] = {}
        for design in DESIGNS:
            chosen = runs(study, lang, design)
            if not chosen:
                continue
            keys = ("token", "exact", "alignment") if designs.named(design).aligns else ("token", "exact")
            out[lang][design] = {
                "runs": len(chosen),
                "seeds": sorted({r["seed"] for r in chosen}),
                "data_seeds": sorted({r["data_seed"] for r in chosen}),
                "steps": chosen[0]["steps"],
                **{key: _rounded(spread(chosen, key)) for key in keys},
                "buckets": [
                    {key: _rounded(spread(chosen, key, lo, hi)) for key in ("token", "exact")} for lo, hi in BUCKETS
                ],
            }
    return out


@functools.lru_cache(maxsize=1)
def _lab_data() -> dict:
    from ..models import data, designs  # imported here: only the laboratory's pages need the models
    from ..models.train import BUCKETS, TrainConfig
    from ..models.trained import LESSON07, load_snapshots, load_trained, trained_config, trained_record

    models, arrays = [], {}
    assert LAB_MODELS[0] == LESSON07, "lesson 07's model comes first"
    for name in LAB_MODELS:
        model, tc = load_trained(name), trained_config(name)
        config = dataclasses.asdict(model.cfg)  # ModelConfig's own fields (the float64 model the book evaluates)
        design = designs.of_config(model.cfg).name
        models.append({"name": name, "design": design, "language": tc.language, "config": config})
        arrays[name] = _arrays(model.params)  # name -> {shape, data: base64 of float32, row-major}, as init_params
    record, snaps = trained_record(LESSON07), load_snapshots(LESSON07)
    classes = ("determiner", "adjective", "noun", "verb", "preposition")
    groups = (data.DETERMINERS, data.ADJECTIVES, data.NOUNS, data.VERBS, data.PREPOSITIONS)
    test = data.make_splits(seed=0).test
    tc = TrainConfig()
    return {
        "schema": LAB_SCHEMA,
        "model": {"name": LESSON07, "config": models[0]["config"], "arrays": arrays[LESSON07]},
        "models": models,
        "arrays": arrays,
        "designs": _designs_view(),
        "grammar": {
            "groups": {cls: [list(pair) for pair in group] for cls, group in zip(classes, groups, strict=True)},
            "src_words": list(data.SRC_WORDS),
            "tgt_words": list(data.TGT_WORDS),
            "max_adj": data.MAX_ADJ,
            "max_pp": data.MAX_PP,
            "max_len": data.MAX_LEN,
            "bos_id": data.BOS_ID,
            "eos_id": data.EOS_ID,
            "languages": list(data.LANGUAGES),
        },
        "examples": [next(p for p in test if len(p.src) == n).words()[0] for n in ALIGNMENT_LENGTHS],
        "snapshots": {
            "model": LESSON07,
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
        "study": _study_view(),
    }


def lab_data_script(models_apart: bool = False) -> str:
    """:func:`lab_data` as a script for the website's ``_static/ae-lab-data.js`` (sets ``self.AELabData``).

    With ``models_apart``, the parameters stay out of it (``arrays`` empty) and ``files`` names, for each model,
    the script of :func:`lab_model_scripts` that holds them: the page then loads only the models the reader
    chooses (0.30 to 0.59 MB each, lesson 09's the largest) instead of every model at once."""
    page = {k: v for k, v in _lab_data().items() if k != "model"}  # lesson 07's arrays once, under "arrays"
    if models_apart:
        page = {**page, "arrays": {}, "files": {name: LAB_MODEL_SCRIPT.format(name=name) for name in LAB_MODELS}}
    text = json.dumps(page, separators=(",", ":"), allow_nan=False)
    head = "// ae-lab-data.js: exported by attention_core.explorers.site.lab_data() when the site was built"
    return f"{head}\nself.AELabData = {text};\n"


def lab_model_scripts() -> dict[str, str]:
    """The parameters of each model of :data:`LAB_MODELS` as a script of its own, by file name
    (:data:`LAB_MODEL_SCRIPT`): each sets ``self.AELabModels[name]`` to the model's ``arrays`` of :func:`lab_data`.
    For a site that writes them beside ``ae-lab-data.js`` made with ``lab_data_script(models_apart=True)``."""
    out = {}
    for name, arrays in _lab_data()["arrays"].items():
        text = json.dumps(arrays, separators=(",", ":"), allow_nan=False)
        head = f"// {LAB_MODEL_SCRIPT.format(name=name)}: exported by attention_core.explorers.site.lab_model_scripts()"
        out[LAB_MODEL_SCRIPT.format(name=name)] = (
            f"{head}\nself.AELabModels = self.AELabModels || {{}};\nself.AELabModels[{json.dumps(name)}] = {text};\n"
        )
    return out


def site_parameters_json(parts: tuple[str, ...] | None = None, lang: str = "en") -> str:
    """:func:`site_parameters` as compact JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(site_parameters(parts, lang), separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
