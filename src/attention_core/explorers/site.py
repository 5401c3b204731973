"""Parameters for the website's live explorers, exported from the core so that the numbers have one source.

The static site has no Python kernel. Its explorers (``book/_assets/ae-explorers.js``) recompute
``e_j(s) = v^T tanh(W_s s + W_h h_j + b)``, the softmax and the weighted sum in the browser, from the dictionary
that :func:`site_parameters` returns. The book's Sphinx extension (``book/_ext/ae_site.py``) writes it into
every page that holds an explorer at build time, and the browser tests check that the page shows the numbers
that :func:`attention_core.worked_example` and :func:`attention_core.softmax` compute.

Lesson 07's laboratory (``book/_assets/ae-lab*.js``) computes with the committed translation model itself: a second
implementation of :mod:`attention_core.models` in JavaScript, fed by :func:`lab_data` (written to the site as
``_static/ae-lab-data.js``) and tested against the package under Node (``tests/site/test_lab_math.py``).
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
LAB_EVAL_EVERY = 50  # steps between two validation checks of a run in the browser
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
        # lesson 07: the laboratory (book/_assets/ae-lab.js)
        "lab_title": {"en": "Laboratory: the trained translation model", "zh": "实验室：训练好的翻译模型"},
        "lab_tab_compose": {"en": "Compose", "zh": "造句"},
        "lab_tab_step": {"en": "Step through the decoder", "zh": "逐步走过解码器"},
        "lab_tab_watch": {"en": "Watch it learn", "zh": "看它学习"},
        "lab_tab_train": {"en": "Train it yourself", "zh": "自己训练"},
        "lab_compose_intro": {
            "en": (
                "Write a source sentence in the toy language of this lesson, or build it word by word: the committed "
                "model translates it here, greedily, and the grid shows what each output word read. The grammar gives "
                "the reference translation and the true alignment (the outlined cells), which the model never saw."
            ),
            "zh": (
                "用本课的玩具语言写一个源句子，或逐词搭出一个句子：提交的模型在这里用贪心解码翻译它，网格显示每个输出"
                "词读取了哪里。"
                "语法给出参考译文和真正的对齐（带边框的格子），模型从未见过它们。"
            ),
        },
        "lab_examples": {"en": "Example sentences", "zh": "示例句子"},
        "lab_examples_pick": {"en": "(choose an example)", "zh": "（选择一个示例）"},
        "lab_example_option": {"en": "{n} words: {words}", "zh": "{n} 个词：{words}"},
        "lab_sentence": {"en": "Source sentence (words separated by spaces)", "zh": "源句子（词之间用空格分隔）"},
        "lab_next": {"en": "Next word (only what the grammar allows)", "zh": "下一个词（只列出语法允许的词）"},
        "lab_add": {"en": "Add", "zh": "添加"},
        "lab_remove": {"en": "Remove the last word", "zh": "删除最后一个词"},
        "lab_clear": {"en": "Clear", "zh": "清空"},
        "lab_random": {"en": "Random sentence", "zh": "随机句子"},
        "lab_next_done": {"en": "(the sentence is complete)", "zh": "（句子已经完整）"},
        "lab_next_fix": {"en": "(correct the sentence first)", "zh": "（请先改正句子）"},
        "lab_class_determiner": {"en": "a determiner", "zh": "限定词"},
        "lab_class_adjective": {"en": "an adjective", "zh": "形容词"},
        "lab_class_noun": {"en": "a noun", "zh": "名词"},
        "lab_class_verb": {"en": "a verb", "zh": "动词"},
        "lab_class_preposition": {"en": "a preposition", "zh": "介词"},
        "lab_end_of_sentence": {"en": "the end of the sentence", "zh": "句子结束"},
        "lab_or": {"en": "; or ", "zh": "；或者"},
        "lab_ok": {
            "en": "A sentence of the toy language ({n} words): translated below.",
            "zh": "这是玩具语言中的一个句子（{n} 个词）：译文见下方。",
        },
        "lab_err_unknown": {
            "en": "“{word}” (word {k}) is not a word of the toy language. The grammar allows here: {allowed}.",
            "zh": "“{word}”（第 {k} 个词）不是玩具语言中的词。语法在这里允许：{allowed}。",
        },
        "lab_err_order": {
            "en": "“{word}” (word {k}) cannot stand here. The grammar allows here: {allowed}.",
            "zh": "“{word}”（第 {k} 个词）不能出现在这里。语法在这里允许：{allowed}。",
        },
        "lab_err_repeat": {
            "en": (
                "“{word}” (word {k}) is already in this noun phrase; an adjective appears once. "
                "Allowed here: {allowed}."
            ),
            "zh": "“{word}”（第 {k} 个词）已经在这个名词短语中出现过；一个形容词只出现一次。这里允许：{allowed}。",
        },
        "lab_err_adjectives": {
            "en": "“{word}” (word {k}): a noun phrase has at most {max_adj} adjectives. Allowed here: {allowed}.",
            "zh": "“{word}”（第 {k} 个词）：一个名词短语最多有 {max_adj} 个形容词。这里允许：{allowed}。",
        },
        "lab_err_phrases": {
            "en": (
                "“{word}” (word {k}): a sentence has at most {max_pp} prepositional phrases. Allowed here: {allowed}."
            ),
            "zh": "“{word}”（第 {k} 个词）：一个句子最多有 {max_pp} 个介词短语。这里允许：{allowed}。",
        },
        "lab_err_length": {
            "en": "“{word}” (word {k}): a sentence has at most {max_len} words.",
            "zh": "“{word}”（第 {k} 个词）：一个句子最多有 {max_len} 个词。",
        },
        "lab_err_unfinished": {
            "en": "The sentence is not finished: after word {k} “{last}” the grammar needs {allowed}.",
            "zh": "句子还没有结束：在第 {k} 个词“{last}”之后，语法需要：{allowed}。",
        },
        "lab_err_empty": {
            "en": "Write a sentence, or build one word by word; it starts with {allowed}.",
            "zh": "请写一个句子，或者逐词搭出一个句子；句子以此开头：{allowed}。",
        },
        "lab_model_says": {"en": "The model’s translation:", "zh": "模型的译文："},
        "lab_reference": {"en": "Reference (the grammar’s):", "zh": "参考译文（由语法给出）："},
        "lab_same": {
            "en": "The model’s translation equals the reference, end symbol included.",
            "zh": "模型的译文与参考译文完全相同，包括结束符。",
        },
        "lab_differs": {
            "en": "They differ first at word {k}: the reference has “{want}”, the model wrote “{got}”.",
            "zh": "二者第一次不同在第 {k} 个词：参考译文是“{want}”，模型写的是“{got}”。",
        },
        "lab_grid_label": {
            "en": "Attention weights of the translation: output words down, source words across. Arrow keys move.",
            "zh": "这次翻译的读取权重：输出词按行，源词按列。方向键可移动。",
        },
        "lab_grid_hint": {
            "en": "Point at a cell, tap it, or focus the grid and use the arrow keys to read its weight.",
            "zh": "指向或轻点一个格子，或让网格获得焦点后按方向键，即可读出它的读取权重。",
        },
        "lab_grid_note": {
            "en": (
                "The fuller a cell, the larger its weight αₜⱼ (a full cell is 1); each row sums to 1. Outlined: the "
                "true source position of the reference word."
            ),
            "zh": (
                "格子填得越满，读取权重 αₜⱼ 越大（填满为 1）；每一行之和为 1。带边框的格子：参考译文中这个词真正对应"
                "的源位置。"
            ),
        },
        "lab_cell": {
            "en": "Output word {t} “{out}”, source word {j} “{src}”: weight {w}.",
            "zh": "第 {t} 个输出词“{out}”，第 {j} 个源词“{src}”：读取权重 {w}。",
        },
        "lab_cell_max": {
            "en": "This row reads most from source word {j} “{src}” ({w}).",
            "zh": "这一行读取最多的是第 {j} 个源词“{src}”（{w}）。",
        },
        "lab_cell_truth": {
            "en": "The true source is word {j} “{src}”.",
            "zh": "真正对应的是第 {j} 个源词“{src}”。",
        },
        "lab_strip_hint": {
            "en": "Each cell is one component: red positive, blue negative. Point at one or use the arrow keys.",
            "zh": "每个格子是一个分量：红色为正，蓝色为负。指向它，或用方向键逐个读取。",
        },
        "lab_component": {"en": "{name}, component {k} of {n}: {v}", "zh": "{name} 的第 {k} 个分量（共 {n} 个）：{v}"},
        # Step through the decoder
        "lab_step_intro": {
            "en": (
                "The sentence of Compose, decoded one step at a time in the order of this lesson’s equations: the "
                "scores use the previous state sₜ₋₁, then the weights and the read cₜ, then the state update with "
                "cₜ, then the distribution over the target vocabulary, whose most probable word is fed back."
            ),
            "zh": (
                "“造句”中的句子，按本课公式的顺序一步一步解码：分数用前一个状态 sₜ₋₁，然后是读取权重和读取结果 cₜ，"
                "再用 cₜ 更新状态，最后是目标词表上的分布，其中概率最大的词被送回作为下一步的输入。"
            ),
        },
        "lab_step_none": {
            "en": "Compose a sentence of the toy language first (first tab).",
            "zh": "请先在第一个标签页中造一个玩具语言的句子。",
        },
        "lab_step_sentence": {"en": "Sentence: {words}", "zh": "句子：{words}"},
        "lab_prev": {"en": "◀ Previous step", "zh": "◀ 上一步"},
        "lab_next_step": {"en": "Next step ▶", "zh": "下一步 ▶"},
        "lab_step_t": {"en": "Decoder step t", "zh": "解码步 t"},
        "lab_step_head": {
            "en": "Step {t} of {U}: the input is yₜ₋₁ = “{prev}”; the model writes yₜ = “{word}”.",
            "zh": "第 {t} 步（共 {U} 步）：输入是 yₜ₋₁ = “{prev}”；模型写出 yₜ = “{word}”。",
        },
        "lab_h_scores": {"en": "Scores, with the previous state", "zh": "分数：用前一个状态"},
        "lab_h_weights": {"en": "Weights over the source words", "zh": "源词上的读取权重"},
        "lab_h_context": {"en": "The read: the context vector", "zh": "读取结果：上下文向量"},
        "lab_h_state": {"en": "The state update, with what was read", "zh": "用读到的内容更新状态"},
        "lab_h_output": {"en": "The next-word distribution", "zh": "下一个词的分布"},
        "lab_sprev_caption": {
            "en": "sₜ₋₁, the decoder state before this step (what the scorer compares with every hⱼ):",
            "zh": "sₜ₋₁：这一步之前的解码器状态（评分函数拿它与每个 hⱼ 比较）：",
        },
        "lab_strip_sprev": {"en": "Previous decoder state sₜ₋₁", "zh": "前一个解码器状态 sₜ₋₁"},
        "lab_strip_c": {"en": "Context vector cₜ", "zh": "上下文向量 cₜ"},
        "lab_strip_s": {"en": "New decoder state sₜ", "zh": "新的解码器状态 sₜ"},
        "lab_cards_label": {"en": "Scores and weights of each source word", "zh": "每个源词的分数与读取权重"},
        "lab_read_summary": {
            "en": "The largest weight is on source word {j} “{src}” ({w}).",
            "zh": "最大的读取权重落在第 {j} 个源词“{src}”上（{w}）。",
        },
        "lab_read_end": {
            "en": "This step writes the end symbol: it has no true source word.",
            "zh": "这一步写出结束符：它没有真正对应的源词。",
        },
        "lab_step_live": {
            "en": "Step {t}: largest weight on source word {j} “{src}” ({w}); writes “{word}” with probability {p}.",
            "zh": "第 {t} 步：最大的读取权重在第 {j} 个源词“{src}”上（{w}）；以概率 {p} 写出“{word}”。",
        },
        # Watch it learn
        "lab_watch_intro": {
            "en": (
                "The committed training run, replayed: every {every} steps up to step {steps}, what the model read for "
                "three test sentences (teacher-forced, one row per reference word), its training loss and its accuracy "
                "on the validation sentences. No step ever saw an alignment label, yet the outlined cells fill in."
            ),
            "zh": (
                "重放提交的训练过程：每 {every} 步一次，直到第 {steps} 步，显示模型对三个测试句子的读取（教师强制，每"
                "个参考词一行）、"
                "训练损失以及验证集上的准确率。没有任何一步见过对齐标签，带边框的格子却逐渐被填上。"
            ),
        },
        "lab_watch_sentence": {"en": "Test sentence", "zh": "测试句子"},
        "lab_play": {"en": "▶ Play", "zh": "▶ 播放"},
        "lab_pause": {"en": "❚❚ Pause", "zh": "❚❚ 暂停"},
        "lab_scrub": {"en": "Training step", "zh": "训练步数"},
        "lab_step_of": {"en": "step {step} of {steps}", "zh": "第 {step} 步（共 {steps} 步）"},
        "lab_watch_figures": {
            "en": (
                "Step {step}: training loss {loss} (mean of the 20 steps before); validation token accuracy {token}; "
                "alignment accuracy {align}."
            ),
            "zh": (
                "第 {step} 步：训练损失 {loss}（此前 20 步的平均）；验证集 token 准确率 {token}；对齐准确率 {align}。"
            ),
        },
        "lab_watch_output": {"en": "Greedy translation at this step:", "zh": "这一步的贪心译文："},
        "lab_watch_grid_label": {
            "en": (
                "Attention weights at this training step: reference words down, source words across. Arrow keys move."
            ),
            "zh": "这一训练步的读取权重：参考词按行，源词按列。方向键可移动。",
        },
        "lab_chart_loss": {"en": "Training loss (log scale)", "zh": "训练损失（对数坐标）"},
        "lab_chart_acc": {"en": "Validation accuracy", "zh": "验证集准确率"},
        "lab_axis_step": {"en": "optimiser step", "zh": "优化步数"},
        "lab_series_loss": {"en": "each step’s batch", "zh": "每一步的批次"},
        "lab_series_loss_mean": {"en": "mean of 20 steps", "zh": "20 步平均"},
        "lab_series_valid": {"en": "token accuracy", "zh": "token 准确率"},
        "lab_series_align": {"en": "alignment accuracy", "zh": "对齐准确率"},
        "lab_watch_note": {
            "en": "Recorded by {command}, the run that made the committed parameters (weights rounded to 3 decimals).",
            "zh": "由 {command} 记录，正是生成提交参数的那次训练（读取权重保留 3 位小数）。",
        },
        # Train it yourself
        "lab_train_intro": {
            "en": (
                "Train the same model here, in a background thread of your browser: the same initialisation rules, "
                "batches of {batch} sentences of one length, Adam, gradient clipping and learning-rate schedule as the "
                "package, on {n_train} sentences sampled from the same grammar (with the page’s own random numbers). "
                "The default budget is {steps} steps (the committed recipe takes {committed}). Try the fixed-summary "
                "baseline too, and compare the accuracies by source length at the end."
            ),
            "zh": (
                "在这里、在浏览器的后台线程中训练同一个模型：初始化规则、每批 {batch} 个同长度句子、Adam、梯度裁剪和"
                "学习率安排都与"
                "软件包相同，训练数据是由同一语法采样的 {n_train} 个句子（用页面自己的随机数）。默认预算为 {steps} 步"
                "（提交的训练配方用 {committed} 步）。也试试固定摘要模型，最后按源序列长度比较准确率。"
            ),
        },
        "lab_model": {"en": "Model", "zh": "模型"},
        "lab_model_attention": {"en": "attention (Bahdanau’s order)", "zh": "注意力模型（Bahdanau 的顺序）"},
        "lab_model_baseline": {"en": "fixed summary (no attention)", "zh": "固定摘要模型（没有注意力）"},
        "lab_seed": {"en": "Seed", "zh": "随机种子"},
        "lab_steps": {"en": "Steps", "zh": "步数"},
        "lab_train_watch": {"en": "Sentence to watch", "zh": "要观察的句子"},
        "lab_yours": {"en": "your sentence: {words}", "zh": "你的句子：{words}"},
        "lab_train": {"en": "Train", "zh": "训练"},
        "lab_train_again": {"en": "Train again (new run)", "zh": "重新训练（新的一次）"},
        "lab_stop": {"en": "Stop", "zh": "停止"},
        "lab_resume": {"en": "Resume", "zh": "继续"},
        "lab_train_idle": {"en": "Nothing is training yet.", "zh": "还没有开始训练。"},
        "lab_train_making": {"en": "Sampling {n} training sentences…", "zh": "正在采样 {n} 个训练句子……"},
        "lab_train_ready": {
            "en": "{n} training sentences ready after {s} s; training…",
            "zh": "{s} 秒后 {n} 个训练句子已就绪；正在训练……",
        },
        "lab_train_resumed": {"en": "Training again…", "zh": "继续训练……"},
        "lab_train_paused": {
            "en": "Stopped at step {step} of {steps} ({s} s). Resume to go on.",
            "zh": "停在第 {step} 步（共 {steps} 步，{s} 秒）。按“继续”接着训练。",
        },
        "lab_train_status": {
            "en": "Step {step} of {steps}, {s} s, {ms} ms per step; validation token accuracy {acc} (step {at}).",
            "zh": "第 {step} 步（共 {steps} 步），{s} 秒，每步 {ms} 毫秒；验证集 token 准确率 {acc}（第 {at} 步）。",
        },
        "lab_train_reached": {
            "en": "Reached 0.95 at step {step}, after {s} s.",
            "zh": "在第 {step} 步、{s} 秒时达到 0.95。",
        },
        "lab_train_check": {
            "en": "Step {step}: validation token accuracy {acc}.",
            "zh": "第 {step} 步：验证集 token 准确率 {acc}。",
        },
        "lab_train_evaluating": {
            "en": "Training finished after {s} s; evaluating on {n} held-out sentences…",
            "zh": "训练在 {s} 秒后结束；正在用 {n} 个留出句子评估……",
        },
        "lab_train_done": {
            "en": "Done: {steps} steps in {s} s ({ms} ms per step); held-out token accuracy {token}, exact {exact}.",
            "zh": (
                "完成：{steps} 步，用时 {s} 秒（每步 {ms} 毫秒）；留出句子上 token 准确率 {token}，整句准确率 {exact}。"
            ),
        },
        "lab_chart_train_loss": {"en": "Your run’s training loss (log scale)", "zh": "你这次训练的损失（对数坐标）"},
        "lab_chart_train_acc": {"en": "Your run’s validation token accuracy", "zh": "你这次训练的验证集 token 准确率"},
        "lab_train_output": {"en": "Its greedy translation now:", "zh": "它现在的贪心译文："},
        "lab_train_grid_label": {
            "en": "Attention weights of the model being trained: reference words down, source words across.",
            "zh": "正在训练的模型的读取权重：参考词按行，源词按列。",
        },
        "lab_train_grid_note": {
            "en": "Teacher-forced weights over the reference translation; outlined: the true source positions.",
            "zh": "教师强制下、对参考译文的读取权重；带边框的格子：真正对应的源位置。",
        },
        "lab_baseline_no_weights": {
            "en": "The fixed-summary model has no weights to draw: it reads the same summary m at every step.",
            "zh": "固定摘要模型没有读取权重可画：它在每一步都读取同一个摘要 m。",
        },
        "lab_results_caption": {
            "en": "Accuracy by source length on {n} held-out sentences (token / exact)",
            "zh": "按源序列长度的准确率，{n} 个留出句子（token / 整句）",
        },
        "lab_col_length": {"en": "source length", "zh": "源序列长度"},
        "lab_col_yours_attention": {
            "en": "your attention model (seed {seed}, {steps} steps)",
            "zh": "你的注意力模型（种子 {seed}，{steps} 步）",
        },
        "lab_col_yours_baseline": {
            "en": "your fixed-summary model (seed {seed}, {steps} steps)",
            "zh": "你的固定摘要模型（种子 {seed}，{steps} 步）",
        },
        "lab_col_sweep_attention": {
            "en": "attention, lesson’s experiment (seeds {seeds}, {steps} steps)",
            "zh": "注意力模型，本课实验（种子 {seeds}，{steps} 步）",
        },
        "lab_col_sweep_baseline": {
            "en": "fixed summary, lesson’s experiment (seeds {seeds}, {steps} steps)",
            "zh": "固定摘要模型，本课实验（种子 {seeds}，{steps} 步）",
        },
        "lab_bucket": {"en": "{lo}–{hi} words", "zh": "{lo}–{hi} 个词"},
        "lab_token_exact": {"en": "{token} / {exact}", "zh": "{token} / {exact}"},
        "lab_results_note": {
            "en": (
                "The lesson’s experiment ran numpy with the full recipe on its own test set; your run uses the page’s "
                "random numbers, its own held-out sentences and its own budget, so expect similar, not equal, figures."
            ),
            "zh": (
                "本课实验用 numpy 和完整配方在它自己的测试集上运行；你的训练用页面自己的随机数、留出句子和预算，所以"
                "数字相近，但不会相等。"
            ),
        },
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
