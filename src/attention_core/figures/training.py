"""Figures for lesson 07: score pushes, alignment heatmaps, training curves and accuracy against length.

Every function takes arrays (or plain lists) and returns a :class:`matplotlib.figure.Figure`; nothing here
computes model math or displays anything. Show a figure with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from ..lang import Catalog

# Chinese text never uses $...$ (matplotlib's mathtext has no CJK glyphs): its symbols are Unicode (eₜⱼ, αₜⱼ).
# English braces inside $...$ are doubled ({{tj}}) because the catalog formats every sentence.
TEXT = Catalog(
    {
        "score_now": {"en": "score $e_{{tj}}$ now", "zh": "当前分数 eₜⱼ"},
        "source_position": {"en": "source position $j$", "zh": "源位置 j"},
        "score": {"en": "score", "zh": "分数"},
        "push_title": {
            "en": r"One descent step on the scores: $e_{{tj}} \to e_{{tj}} - \partial\mathcal{{L}}/\partial e_{{tj}}$",
            "zh": "对分数做一步梯度下降：eₜⱼ → eₜⱼ − ∂ℒ/∂eₜⱼ",
        },
        "source_token": {"en": "source token $x_j$", "zh": "源 token xⱼ"},
        "target_token": {"en": "target token $y_t$", "zh": "目标 token yₜ"},
        "weight": {"en": r"weight $\alpha_{{tj}}$", "zh": "权重 αₜⱼ"},
        "step_loss": {"en": "loss of each step", "zh": "每一步的损失"},
        "mean_loss": {"en": "mean of last {window} steps", "zh": "最近 {window} 步的平均"},
        "optimiser_step": {"en": "optimiser step", "zh": "优化步数"},
        "cross_entropy": {"en": "mean token cross-entropy", "zh": "token 平均交叉熵"},
        "token_accuracy": {"en": "token accuracy", "zh": "token 准确率"},
        "exact_accuracy": {"en": "exact-sequence accuracy", "zh": "整句准确率"},
        "source_length": {"en": "source length (tokens)", "zh": "源序列长度（token 数）"},
        "share_correct": {"en": "share correct on the test set", "zh": "测试集上的正确比例"},
        # the decoder step of lesson 07's step-through explorer
        "step_title": {
            "en": "Step {t}: input “{prev}”, output “{word}”",
            "zh": "第 {t} 步：输入“{prev}”，输出“{word}”",
        },
        "weights_over_source": {
            "en": r"weights $\alpha_{{tj}}$ (scores $e_{{tj}}$ above)",
            "zh": "读取权重 αₜⱼ（上方为分数 eₜⱼ）",
        },
        "s_prev": {"en": r"$s_{{t-1}}$ (previous state)", "zh": "sₜ₋₁（前一个状态）"},
        "context": {"en": r"$c_t$ (context vector)", "zh": "cₜ（上下文向量）"},
        "s_new": {"en": r"$s_t$ (new state)", "zh": "sₜ（新状态）"},
        "component": {"en": "component", "zh": "分量"},
        "top_words": {
            "en": r"$p(y_t \mid y_{{<t}}, x)$, five most probable words",
            "zh": "p(yₜ | y₁…yₜ₋₁, x)：概率最大的五个词",
        },
        # the snapshots of lesson 07's committed run
        "snapshot_title": {"en": "What the model reads at step {step}", "zh": "第 {step} 步时模型的读取"},
        "reference_token": {"en": "reference token", "zh": "参考译文的 token"},
        "valid_token": {"en": "validation token accuracy", "zh": "验证集 token 准确率"},
        "valid_alignment": {"en": "alignment accuracy", "zh": "对齐准确率"},
        "snapshot_alt": {
            "en": (
                "Step {step} of the committed training run: a {U} by {T} grid of attention weights for a test "
                "sentence, {right} of its {words} reference words read most from their true source word; beside it "
                "the training loss falling over the steps and the validation accuracies, with a line at step {step}."
            ),
            "zh": (
                "提交的训练过程的第 {step} 步：一个测试句子的 {U} × {T} 读取权重网格，{words} 个参考词中有 {right} 个"
                "读取最多的正是真正对应的源词；旁边是随步数下降的训练损失和验证集准确率，竖线标在第 {step} 步。"
            ),
        },
        "step_alt": {
            "en": (
                "Decoder step {t}: bars of the weights over the {T} source words, largest on “{src}” ({w}); three "
                "strips of the previous state, the context vector and the new state; the next-word probabilities, "
                "largest for “{word}” ({p})."
            ),
            "zh": (
                "解码第 {t} 步：{T} 个源词上的读取权重柱状图，最大的在“{src}”（{w}）；"
                "前一个状态、上下文向量和新状态三条色带；下一个词的概率，最大的是“{word}”（{p}）。"
            ),
        },
    }
)


def score_push_figure(scores, d_scores, tokens: Sequence[str], step: float = 1.0) -> Figure:
    """Arrows showing which way one gradient-descent step moves each score: from ``e_j`` to ``e_j - step dL/de_j``.

    ``scores`` and ``d_scores`` are ``(T,)``; ``tokens`` labels the ``T`` source positions.
    """
    e, d = np.asarray(scores, dtype=float), np.asarray(d_scores, dtype=float)
    fig = Figure(figsize=(6.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(e.size)
    ax.scatter(x, e, color="0.2", zorder=3, label=TEXT("score_now"))
    for j in range(e.size):
        end = e[j] - step * d[j]
        color = "tab:blue" if end > e[j] else "tab:red"
        ax.annotate("", xy=(j, end), xytext=(j, e[j]), arrowprops={"arrowstyle": "->", "color": color, "lw": 2})
        ax.text(j + 0.08, end, f"{-d[j]:+.3f}", color=color, va="center", fontsize=9)
    ends = e - step * d  # (T,): where the arrows point
    lo, hi = min(e.min(), ends.min()), max(e.max(), ends.max())
    pad = 0.15 * (hi - lo if hi > lo else 1.0)
    ax.set_ylim(lo - pad, hi + pad)  # annotate() does not rescale the axes, so make room for every arrow
    ax.set_xticks(x, list(tokens))
    ax.set_xlim(-0.5, e.size - 0.2)
    ax.set_xlabel(TEXT("source_position"))
    ax.set_ylabel(TEXT("score"))
    ax.set_title(TEXT("push_title"))
    ax.legend(loc="best", fontsize=8)
    return fig


def alignment_heatmap(weights, src_words: Sequence[str], tgt_words: Sequence[str], true_align=None, title=None):
    """Attention weights as a grid: source tokens along x, target tokens down y (Bahdanau et al. 2015, Fig. 3).

    ``weights`` ``(U, T)`` with one row per target token; ``true_align`` ``(U,)`` (optional) marks the true
    source position of each target token with an outlined square.
    """
    w = np.asarray(weights, dtype=float)
    U, T = w.shape
    # Cells of 0.2 in and 12 pt text: a 27-column grid is 7 in (700 CSS px) wide, so on a 390 px phone every
    # label still reads at about 9.3 CSS px; the colour bar lies under the grid instead of widening it.
    fig = Figure(figsize=(HEATMAP_CELL * T + 1.6, HEATMAP_CELL * U + 2.0), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(w, cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
    if true_align is not None:
        for i, j in enumerate(np.asarray(true_align)):
            ax.add_patch(_square(j, i))
    ax.set_xticks(np.arange(T), list(src_words), rotation=90, fontsize=HEATMAP_FONT)
    ax.set_yticks(np.arange(U), list(tgt_words), fontsize=HEATMAP_FONT)
    ax.xaxis.tick_top()
    ax.set_xlabel(TEXT("source_token"), fontsize=HEATMAP_FONT)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel(TEXT("target_token"), fontsize=HEATMAP_FONT)
    if title:
        ax.set_title(title, fontsize=HEATMAP_FONT)
    bar = fig.colorbar(im, ax=ax, location="bottom", shrink=0.6, aspect=30)
    bar.set_label(TEXT("weight"), fontsize=HEATMAP_FONT)
    bar.ax.tick_params(labelsize=HEATMAP_FONT)
    return fig


HEATMAP_CELL = 0.2  # inches per grid cell
HEATMAP_FONT = 12  # points: every label of the alignment grid


def _square(j, i):
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="tab:orange", lw=1.2)


def loss_curve(losses: Sequence[float], window: int = 25) -> Figure:
    """Training loss per step and its moving average over ``window`` steps."""
    y = np.asarray(losses, dtype=float)
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(np.arange(1, y.size + 1), y, color="0.75", lw=0.8, label=TEXT("step_loss"))
    if y.size >= window:
        avg = np.convolve(y, np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, y.size + 1), avg, color="tab:blue", label=TEXT("mean_loss", window=window))
    ax.set_xlabel(TEXT("optimiser_step"))
    ax.set_ylabel(TEXT("cross_entropy"))
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    return fig


def accuracy_vs_length(lengths: Sequence[int], curves: dict[str, dict[str, Sequence[float]]]) -> Figure:
    """Two panels, token and exact-sequence accuracy, against source length; one line per model.

    ``curves[name] = {"token": [...], "exact": [...]}`` with one value per entry of ``lengths``.
    """
    fig = Figure(figsize=(8.0, 3.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    styles = ["-o", "--s", ":^", "-.v"]
    for ax, key, label in zip(axes, ("token", "exact"), (TEXT("token_accuracy"), TEXT("exact_accuracy")), strict=True):
        for k, (name, curve) in enumerate(curves.items()):
            ax.plot(lengths, curve[key], styles[k % len(styles)], ms=3, label=name)
        ax.set_xlabel(TEXT("source_length"))
        ax.set_title(label, fontsize=10)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(TEXT("share_correct"))
    axes[0].legend(fontsize=8, loc="lower left")
    return fig


def decoder_step_figure(trace: dict, t: int, src_words: Sequence[str], tgt_words: Sequence[str]) -> Figure:
    """One greedy decoder step of lesson 07, in the order of its equations (0-based ``t``).

    ``trace`` is :meth:`~attention_core.models.seq2seq.Seq2Seq.greedy_trace`'s dictionary; ``tgt_words`` names the
    target vocabulary. Top: the weights ``alpha_tj`` over the source words, each bar labelled with its score
    ``e_tj``. Middle: ``s_{t-1}``, ``c_t`` and ``s_t`` as strips of coloured components (red positive, blue
    negative). Bottom: the five most probable next words. The baseline (no weights) shows a note instead.
    """
    T = len(src_words)
    fig = Figure(figsize=(max(6.4, 0.42 * T + 1.5), 6.2), layout="constrained")
    grid = fig.add_gridspec(5, 1, height_ratios=[3.2, 0.55, 0.55, 0.55, 2.2])
    ax = fig.add_subplot(grid[0])
    y_prev, y_t = tgt_words[trace["y_prev"][t]], tgt_words[trace["tokens"][t]]
    fig.suptitle(TEXT("step_title", t=t + 1, prev=y_prev, word=y_t), fontsize=11)
    x = np.arange(T)
    if trace["weights"] is not None:
        w, e = trace["weights"][t], trace["scores"][t]
        ax.bar(x, w, color="tab:blue")
        for j in range(T):
            ax.text(j, w[j] + 0.02, f"{e[j]:.1f}", ha="center", va="bottom", fontsize=7, rotation=90)
        ax.set_ylim(0, 1.3)
    ax.set_xticks(x, list(src_words), rotation=90, fontsize=8)
    ax.set_xlim(-0.6, T - 0.4)
    ax.set_title(TEXT("weights_over_source"), fontsize=9)
    for row, key, label in ((1, "s_prev", "s_prev"), (2, "context", "context"), (3, "state", "s_new")):
        axs = fig.add_subplot(grid[row])
        axs.imshow(np.asarray(trace[key][t])[None, :], cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
        axs.set_yticks([])
        axs.set_xticks([])
        axs.set_ylabel(TEXT(label), rotation=0, ha="right", va="center", fontsize=8)
    axp = fig.add_subplot(grid[4])
    p = np.asarray(trace["probs"][t])
    top = np.argsort(-p, kind="stable")[:5]
    axp.barh(np.arange(5)[::-1], p[top], color=["tab:orange"] + ["0.6"] * 4)
    axp.set_yticks(np.arange(5)[::-1], [tgt_words[k] for k in top], fontsize=8)
    for r, k in enumerate(top):
        axp.text(p[k] + 0.01, 4 - r, f"{p[k]:.4f}", va="center", fontsize=8)
    axp.set_xlim(0, 1.18)
    axp.set_title(TEXT("top_words"), fontsize=9)
    return fig


class SnapshotFigure:
    """Lesson 07's training replay: the weights one snapshot reads for a sentence, beside the loss and accuracy.

    ``snaps`` is :func:`attention_core.models.trained.load_snapshots`'s dictionary with the run's per-step
    ``losses`` added (from its record); ``sentence`` picks one of its sentences. :meth:`update` shows snapshot
    ``k``; the grid's image, the two step markers and the title are the artists that move (for a blitting
    renderer), the curves are drawn once.
    """

    def __init__(self, snaps: dict, sentence: int, window: int = 20):
        self.snaps, self.sentence = snaps, sentence
        sent = snaps["sentences"][sentence]
        self.src, self.rows = sent["source"], [*sent["reference"], "</s>"]
        T, U = len(self.src), len(self.rows)
        self.shape = (U, T)
        self.fig = Figure(
            figsize=(max(8.5, HEATMAP_CELL * T + 5.5), max(4.2, HEATMAP_CELL * U + 1.8)), layout="constrained"
        )
        grid = self.fig.add_gridspec(2, 2, width_ratios=[max(T, 6), 9])
        self.ax = self.fig.add_subplot(grid[:, 0])
        self.im = self.ax.imshow(np.zeros(self.shape), cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
        self.squares = [self.ax.add_patch(_square(j, i)) for i, j in enumerate(sent["true_source"])]
        self.ax.set_xticks(np.arange(T), self.src, rotation=90, fontsize=8)
        self.ax.set_yticks(np.arange(U), self.rows, fontsize=8)
        self.ax.xaxis.tick_top()
        self.ax.set_xlabel(TEXT("source_token"), fontsize=9)
        self.ax.xaxis.set_label_position("top")
        self.ax.set_ylabel(TEXT("reference_token"), fontsize=9)
        self.title = self.ax.set_title("", fontsize=10)
        steps = np.asarray(snaps["steps"])
        losses = np.asarray(snaps["losses"], dtype=float)
        self.ax_loss = self.fig.add_subplot(grid[0, 1])
        self.ax_loss.plot(np.arange(1, losses.size + 1), losses, color="0.75", lw=0.6, label=TEXT("step_loss"))
        if losses.size >= window:
            avg = np.convolve(losses, np.ones(window) / window, mode="valid")
            self.ax_loss.plot(
                np.arange(window, losses.size + 1), avg, color="tab:blue", label=TEXT("mean_loss", window=window)
            )
        self.ax_loss.set_yscale("log")
        self.ax_loss.set_ylabel(TEXT("cross_entropy"), fontsize=8)
        self.ax_loss.legend(fontsize=7)
        self.ax_acc = self.fig.add_subplot(grid[1, 1], sharex=self.ax_loss)
        self.ax_acc.plot(steps, snaps["valid_token"], color="tab:blue", label=TEXT("valid_token"))
        self.ax_acc.plot(steps, snaps["valid_alignment"], "--", color="tab:orange", label=TEXT("valid_alignment"))
        self.ax_acc.set_ylim(-0.02, 1.02)
        self.ax_acc.set_xlabel(TEXT("optimiser_step"), fontsize=8)
        self.ax_acc.legend(fontsize=7, loc="lower right")
        self.markers = [a.axvline(0, color="tab:red", lw=1.2) for a in (self.ax_loss, self.ax_acc)]

    def weights(self, k: int) -> np.ndarray:
        """The weights ``(U, T)`` of snapshot ``k`` (stored as integers in units of ``10**-digits``)."""
        raw = np.asarray(self.snaps["weights"][k][self.sentence], dtype=float)
        return raw.reshape(self.shape) / 10 ** self.snaps["digits"]

    def update(self, k: int) -> None:
        step = self.snaps["steps"][k]
        self.im.set_data(self.weights(k))
        for m in self.markers:
            m.set_xdata([step, step])
        self.title.set_text(TEXT("snapshot_title", step=step))

    def moving_artists(self) -> list:
        """What a blitting renderer draws at every frame, in this order (the squares over the grid)."""
        return [self.im, *self.squares, self.title, *self.markers]

    def alt_text(self, k: int) -> str:
        w = self.weights(k)
        truth = self.snaps["sentences"][self.sentence]["true_source"]
        right = int(sum(w[i].argmax() == j for i, j in enumerate(truth)))
        U, T = self.shape
        return TEXT("snapshot_alt", step=self.snaps["steps"][k], U=U, T=T, right=right, words=len(truth))
