"""The lesson-07 figures: return matplotlib Figures (never pyplot), labelled, with room for what they draw."""

from __future__ import annotations

import re

import numpy as np
from matplotlib.figure import Figure

import attention_core as ac
from attention_core.figures.training import (
    accuracy_vs_length,
    alignment_heatmap,
    language_heatmaps,
    loss_curve,
    progress_printer,
    report,
    score_push_figure,
)
from attention_core.lang import PSEUDO, language, width
from attention_core.models.seq2seq import ModelConfig
from attention_core.models.train import Evaluation, TrainConfig, train
from tests.helpers import has_cjk, numbers

TINY = ModelConfig(d_emb=3, d_enc=3, d_dec=4, d_att=3, dtype="float64")


def test_score_push_figure_keeps_every_arrow_inside_the_axes():
    read = ac.worked_example(ac.STATE_A)
    d = ac.score_gradient(read.weights, ac.H_EXAMPLE, np.array([-1.0, 0.0]))
    fig = score_push_figure(read.scores, d, ac.TOKENS)
    assert isinstance(fig, Figure)
    lo, hi = fig.axes[0].get_ylim()
    ends = read.scores - d
    assert lo < min(read.scores.min(), ends.min()) and hi > max(read.scores.max(), ends.max())
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == list(ac.TOKENS)


def square_cells(patches) -> list[tuple[int, int]]:
    """The grid cells (row = target position, column = source position) the outlined squares sit on."""
    cells = []
    for patch in patches:
        (x0, y0), (x1, y1) = patch.get_bbox().get_points()
        assert np.isclose(x1 - x0, 1) and np.isclose(y1 - y0, 1), "a square covers exactly one cell"
        row, col = (y0 + y1) / 2, (x0 + x1) / 2  # imshow puts cell (i, j) at x = j, y = i
        assert np.isclose(row, round(row)) and np.isclose(col, round(col)), "a square sits on one cell"
        cells.append((round(row), round(col)))
    return sorted(cells)


def true_cells(align) -> list[tuple[int, int]]:
    return sorted((i, int(j)) for i, j in enumerate(align))


def test_alignment_heatmap_puts_source_on_x_and_target_on_y():
    w = np.full((4, 3), 1 / 3)
    align = [1, 2, 2, 0]  # not its own transpose: a square drawn at (column, row) lands elsewhere
    fig = alignment_heatmap(w, ["a", "b", "c"], ["w", "x", "y", "z"], true_align=align)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["w", "x", "y", "z"]
    # one outlined square per target token, on its row, in the column of its true source position
    assert square_cells(ax.patches) == true_cells(align) == [(0, 1), (1, 2), (2, 2), (3, 0)]


CURVES = {
    "m": {
        "lengths": [5, 6],
        "token": {"mean": [1.0, 0.9], "min": [1.0, 0.8], "max": [1.0, 1.0]},
        "exact": {"mean": [1.0, 0.5], "min": [1.0, 0.4], "max": [1.0, 0.6]},
    }
}


def test_curves_return_figures():
    assert isinstance(loss_curve(np.linspace(3, 0.1, 60)), Figure)
    fig = accuracy_vs_length(CURVES)
    assert len(fig.axes) == 2
    for ax, key in zip(fig.axes, ("token", "exact"), strict=True):
        np.testing.assert_array_equal(ax.lines[0].get_ydata(), CURVES["m"][key]["mean"])
        band = ax.collections[0].get_paths()[0].vertices[:, 1]  # the min-max band's outline
        assert set(band) <= set(CURVES["m"][key]["min"]) | set(CURVES["m"][key]["max"])


def figures():
    return [
        score_push_figure([0.1, 0.5, -0.2], [0.1, -0.2, 0.1], ac.TOKENS),
        alignment_heatmap(np.full((2, 3), 1 / 3), ["a", "b", "c"], ["x", "y"], [0, 1]),
        loss_curve(np.linspace(3, 0.1, 60)),
        accuracy_vs_length(CURVES),
    ]


def test_every_figure_draws_chinese_under_zh_with_every_glyph(figtext):
    with language("zh"):
        figs = figures()
    for fig in figs:
        drawn = figtext.texts(fig)
        assert any(figtext.has_cjk(t) for t in drawn), drawn
        assert not any("$" in t for t in drawn if figtext.has_cjk(t))  # mathtext would draw CJK as empty boxes
        figtext.render_every_glyph(fig)
    assert "最近 25 步的平均" in figtext.texts(figs[2])  # the number survives


def test_english_text_is_unchanged(figtext):
    push, heatmap, loss, accuracy = (figtext.texts(fig) for fig in figures())
    assert {
        "score $e_{tj}$ now",
        "source position $j$",
        "score",
        r"One descent step on the scores: $e_{tj} \to e_{tj} - \partial\mathcal{L}/\partial e_{tj}$",
    } <= set(push)
    assert {"source token $x_j$", "target token $y_t$", r"weight $\alpha_{tj}$"} <= set(heatmap)
    assert {"loss of each step", "mean of last 25 steps", "optimiser step", "mean token cross-entropy"} <= set(loss)
    assert {
        "token accuracy",
        "exact-sequence accuracy",
        "source length (tokens)",
        "share correct on the test set",
    } <= set(accuracy)
    assert not any(figtext.has_cjk(t) for t in push + heatmap + loss + accuracy)


EVALUATION = Evaluation(
    lengths=[5, 15, 25],
    sentences=[10, 20, 40],
    tokens=[60, 320, 1040],
    tokens_right=[60, 310, 1000],
    exact_right=[10, 15, 20],
    align_right=[49, 290, 990],
)


def test_report_english_is_unchanged_and_chinese_keeps_every_number():
    english = report(EVALUATION, steps=1000)
    assert english == (
        "steps: 1000\n"
        "test token accuracy:     0.9648\n"
        "test exact accuracy:     0.6429\n"
        "test alignment accuracy: 0.9844\n"
        "  source  1-10 tokens: token 1.0000, exact 1.0000\n"
        "  source 11-20 tokens: token 0.9688, exact 0.7500\n"
        "  source 21-30 tokens: token 0.9615, exact 0.5000"
    )
    with language("zh"):
        chinese = report(EVALUATION, steps=1000)
    assert all(has_cjk(line) for line in chinese.splitlines())
    assert numbers(chinese) == numbers(english)
    assert numbers(report(EVALUATION, attention=False)) == [n for n in numbers(english)[1:] if n != "0.9844"]


def test_the_reports_figures_start_in_one_column_in_every_language():
    # a Chinese character takes two columns: the labels are padded by display width, not by characters
    for code in ("en", "zh", PSEUDO):
        with language(code):
            lines = report(EVALUATION, steps=1000).splitlines()[1:4]  # the three accuracies
        starts = {width(line[: line.index(re.search(r"\d\.\d{4}", line).group())]) for line in lines}
        assert len(starts) == 1, (code, lines)
        if code == "zh":
            assert all(has_cjk(line) for line in lines)


def test_the_progress_line_speaks_the_readers_language(capsys):
    cfg = TrainConfig(model=TINY, n_train=200, n_valid=20, n_test=20, steps=2, eval_every=2, warmup_steps=1)
    train(cfg, callback=progress_printer(cfg.model.attention, cfg.steps))
    english = capsys.readouterr().out
    assert re.fullmatch(r"attention step     2/2: running loss \d\.\d{4}, validation token acc\. \d\.\d{3}\n", english)
    with language("zh"):
        train(cfg, callback=progress_printer(cfg.model.attention, cfg.steps))
    chinese = capsys.readouterr().out
    assert has_cjk(chinese) and numbers(chinese) == numbers(english)  # same seeds: the same numbers


def _two_languages():
    src = ["the", "cat", "sees", "a", "dog", "near", "the", "river"]
    svo = (np.eye(9, 8), ["la", "chat", "voit", "une", "x", "pres", "la", "riviere", "</s>"], np.arange(8))
    verb_final_align = [0, 1, 3, 4, 5, 6, 7, 2]
    w = np.zeros((9, 8))
    w[np.arange(8), verb_final_align] = 1.0
    verb_final = (w, ["la", "chat", "une", "x", "pres", "la", "riviere", "voit", "</s>"], verb_final_align)
    return src, {"svo": svo, "verb_final": verb_final}


def test_language_heatmaps_draw_one_grid_per_language_over_the_same_source(figtext):
    src, panels = _two_languages()
    fig = language_heatmaps(src, panels)
    grids = [ax for ax in fig.axes if ax.get_images() and ax.get_title()]
    assert [ax.get_title() for ax in grids] == ["lesson 07's target language", "verb-final target language"]
    for ax, (weights, tgt, align) in zip(grids, panels.values(), strict=True):
        assert [t.get_text() for t in ax.get_xticklabels()] == src
        assert [t.get_text() for t in ax.get_yticklabels()] == tgt
        assert square_cells(ax.patches) == true_cells(align)  # one square per target row, on its true column
        np.testing.assert_array_equal(ax.get_images()[0].get_array(), weights)
    assert r"weight $\alpha_{tj}$" in figtext.texts(fig)  # one shared colour bar
    with language("zh"):
        fig = language_heatmaps(src, panels)
    assert {"第七课的目标语言", "动词居末的目标语言"} <= set(figtext.texts(fig))
    figtext.render_every_glyph(fig)


# ---------------------------------------------------------------------------------------------------------
# The laboratory's figures: one decoder step, the snapshots of the committed run


def _trace():
    from attention_core.models import data
    from attention_core.models.seq2seq import ModelConfig, Seq2Seq

    model = Seq2Seq(ModelConfig(d_emb=4, d_enc=3, d_dec=5, d_att=4), seed=1)
    pair = data.parse("the red cat sees a bird".split())
    return model.greedy_trace(pair.src), pair.words()[0], data.TGT_WORDS


def _snaps():
    T, U = 3, 4
    return {
        "digits": 3,
        "sentences": [{"source": ["a", "b", "c"], "reference": ["x", "y", "z"], "true_source": [2, 0, 1]}],
        "steps": [0, 20, 40],
        "valid_token": [0.0, 0.5, 0.9],
        "valid_alignment": [0.1, 0.4, 0.8],
        "weights": [[[333] * (U * T)], [[500, 250, 250] * U], [[1000, 0, 0] * U]],
        "outputs": [[[2, 3, 1, 1]]] * 3,
        "losses": list(np.linspace(3.7, 0.1, 40)),
    }


def test_decoder_step_figure_shows_the_step_in_the_lessons_order(figtext):
    from attention_core.figures.training import decoder_step_figure

    trace, src, vocab = _trace()
    fig = decoder_step_figure(trace, 2, src, vocab)
    assert isinstance(fig, Figure) and len(fig.axes) == 5  # weights, s_{t-1}, c_t, s_t, next words
    bars = fig.axes[0].patches
    np.testing.assert_allclose([b.get_height() for b in bars], trace["weights"][2])
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == src
    np.testing.assert_allclose(fig.axes[2].images[0].get_array()[0], trace["context"][2])
    top = {t.get_position()[1]: t.get_text() for t in fig.axes[4].get_yticklabels()}
    assert top[4] == vocab[trace["tokens"][2]], "the most probable word, drawn on top, is the one written"
    with language("zh"):
        zh = decoder_step_figure(trace, 0, src, vocab)
    assert any(figtext.has_cjk(t) for t in figtext.texts(zh))
    figtext.render_every_glyph(zh)


def test_snapshot_figure_moves_the_grid_and_the_markers(figtext):
    from attention_core.figures.training import SnapshotFigure

    figure = SnapshotFigure(_snaps(), 0)
    figure.update(1)
    np.testing.assert_allclose(figure.im.get_array(), np.tile([0.5, 0.25, 0.25], (4, 1)))
    assert all(m.get_xdata()[0] == 20 for m in figure.markers)
    assert figure.title.get_text() == "What the model reads at step 20"
    assert len(figure.squares) == 3 and figure.moving_artists()[1:4] == figure.squares  # drawn over the grid
    assert square_cells(figure.squares) == true_cells(_snaps()["sentences"][0]["true_source"])
    assert "1 of its 3 reference words" in figure.alt_text(1)  # row 1 peaks on its true column 0 only
    with language("zh"):
        zh = SnapshotFigure(_snaps(), 0)
        zh.update(2)
    assert "第 40 步时模型的读取" in figtext.texts(zh.fig)
    figtext.render_every_glyph(zh.fig)
