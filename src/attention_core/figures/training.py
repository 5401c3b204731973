"""Figures for lesson 07: score pushes, alignment heatmaps (one language or two side by side), training curves and
accuracy against length.

Every function takes arrays (or plain lists) and returns a :class:`matplotlib.figure.Figure`; nothing here
computes model math or displays anything. Show a figure with :func:`attention_core.figures.display.show_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from ..lang import Messages, pad, width

# Chinese text never uses $...$ (matplotlib's mathtext has no CJK glyphs): its symbols are Unicode (eₜⱼ, αₜⱼ).
# English braces inside $...$ are doubled ({{tj}}) because the catalog formats every sentence.
TEXT = Messages(
    __name__,
    {
        "score_now": "score $e_{{tj}}$ now",
        "source_position": "source position $j$",
        "score": "score",
        "push_title": (
            r"One descent step on the scores: $e_{{tj}} \to e_{{tj}} - "
            r"\partial\mathcal{{L}}/\partial e_{{tj}}$"
        ),
        "source_token": "source token $x_j$",
        "target_token": "target token $y_t$",
        "weight": r"weight $\alpha_{{tj}}$",
        "step_loss": "loss of each step",
        "mean_loss": "mean of last {window} steps",
        "optimiser_step": "optimiser step",
        "cross_entropy": "mean token cross-entropy",
        "token_accuracy": "token accuracy",
        "exact_accuracy": "exact-sequence accuracy",
        "source_length": "source length (tokens)",
        "share_correct": "share correct on the test set",
        # printed reports: the progress line of a training run and the figures of an evaluation
        "attention": "attention",
        "fixed_summary": "fixed summary",
        "progress": "{name} step {step:5d}/{steps}: running loss {running:.4f}, validation token acc. {acc:.3f}",
        "steps": "steps: {steps}",
        "token_label": "test token accuracy",
        "exact_label": "test exact accuracy",
        "alignment_label": "test alignment accuracy",
        "field": "{label}: ",  # a label and the value after it; report() lines the values up
        "bucket": "  source {lo:2d}-{hi:2d} tokens: token {token:.4f}, exact {exact:.4f}",
        "span": "{mean} ({min}–{max})",  # a figure over runs: its mean, then its lowest and highest (span())
        # the recipe of a training run (TrainConfig), in words
        "recipe_model": "model: {name} ({order}, {score}), {dtype}",
        "recipe_baseline": "model: {name} (the decoder reads the mean of the annotations), {dtype}",
        "order_bahdanau": "Bahdanau's order",
        "order_luong": "Luong's order",
        "score_additive": "additive score",
        "score_general": "general score",
        "recipe_widths": (
            "widths: embeddings {d_emb}, encoder {d_enc} per direction, decoder {d_dec}, scorer {d_att}; "
            "vocabularies of {src} source and {tgt} target words"
        ),
        "recipe_data": (
            "data: {n_train} training, {n_valid} validation and {n_test} test pairs (target: {language}; data "
            "seed {data_seed})"
        ),
        # the source word classes of the toy language, by their names in models.data
        "class_determiner": "determiner",
        "class_adjective": "adjective",
        "class_noun": "noun",
        "class_verb": "verb",
        "class_preposition": "preposition",
        # lines of the live-training check (lesson 07)
        "live_token": "token accuracy",
        "live_exact": "exact accuracy",
        "live_alignment": "alignment accuracy",
        "live_first_loss": "loss of the first step",
        "live_within": "{what}: within {tolerance} of the committed run (other machines measured: up to {spread})",
        "recipe_training": (
            "training: seed {seed}, at most {steps} steps of {batch} pairs; Adam (beta1 {beta1}, beta2 {beta2}, "
            "eps {eps}); learning rate {lr} after {warmup} warm-up steps, falling to {lr_end}; gradients clipped "
            "to norm {clip}; a validation check every {every} steps"
        ),
        "language_svo": "lesson 07's target language",
        "language_verb_final": "verb-final target language",
        # the decoder step of lesson 07's step-through explorer
        "step_title": "Step {t}: input “{prev}”, output “{word}”",
        "weights_over_source": r"weights $\alpha_{{tj}}$ (scores $e_{{tj}}$ above)",
        "s_prev": "$s_{{t-1}}$ (previous state)",
        "context": "$c_t$ (context vector)",
        "s_new": "$s_t$ (new state)",
        "component": "component",
        "top_words": r"$p(y_t \mid y_{{<t}}, x)$, five most probable words",
        # the snapshots of lesson 07's committed run
        "snapshot_title": "What the model reads at step {step}",
        "reference_token": "reference token",
        "valid_token": "validation token accuracy",
        "valid_alignment": "alignment accuracy",
        "snapshot_alt": (
            "Step {step} of the committed training run: a {U} by {T} grid of attention weights for a test "
            "sentence, {right} of its {words} reference words read most from their true source word; beside it "
            "the training loss falling over the steps and the validation accuracies, with a line at step {step}."
        ),
        "step_alt": (
            "Decoder step {t}: bars of the weights over the {T} source words, largest on “{src}” ({w}); three "
            "strips of the previous state, the context vector and the new state; the next-word probabilities, "
            "largest for “{word}” ({p})."
        ),
    },
)


def progress_printer(attention: bool, steps: int):
    """A ``callback`` for :func:`attention_core.models.train.train` that prints one line at each validation
    check: the step, the running mean of the loss (decay 0.98) and the validation token accuracy."""
    name = TEXT("attention") if attention else TEXT("fixed_summary")
    running = None

    def on_step(step: int, loss: float, acc: float | None) -> None:
        nonlocal running
        running = loss if running is None else 0.98 * running + 0.02 * loss
        if acc is not None:
            print(TEXT("progress", name=name, step=step, steps=steps, running=running, acc=acc))

    return on_step


def recipe(cfg) -> str:
    """A :class:`~attention_core.models.train.TrainConfig` in words: the model, its widths, the data and the
    training schedule, one line each."""
    m = cfg.model
    name = TEXT("attention") if m.attention else TEXT("fixed_summary")
    if m.attention:
        model = TEXT(
            "recipe_model", name=name, order=TEXT(f"order_{m.order}"), score=TEXT(f"score_{m.score}"), dtype=m.dtype
        )
    else:
        model = TEXT("recipe_baseline", name=name, dtype=m.dtype)
    widths = TEXT(
        "recipe_widths", d_emb=m.d_emb, d_enc=m.d_enc, d_dec=m.d_dec, d_att=m.d_att, src=m.src_vocab, tgt=m.tgt_vocab
    )
    splits = TEXT(
        "recipe_data",
        n_train=cfg.n_train,
        n_valid=cfg.n_valid,
        n_test=cfg.n_test,
        language=language_label(cfg.language),
        data_seed=cfg.data_seed,
    )
    schedule = TEXT(
        "recipe_training",
        seed=cfg.seed,
        steps=cfg.steps,
        batch=cfg.batch_size,
        beta1=cfg.beta1,
        beta2=cfg.beta2,
        eps=cfg.adam_eps,
        lr=cfg.lr,
        warmup=cfg.warmup_steps,
        lr_end=cfg.lr_end,
        clip=cfg.clip_norm,
        every=cfg.eval_every,
    )
    return "\n".join([model, widths, splits, schedule])


def language_label(language: str) -> str:
    """The name of one of the toy target languages (``models.data.LANGUAGES``) in the reader's language."""
    return TEXT(f"language_{language}")


def design_label(design: str) -> str:
    """The name of a design of the seed study (``models.sweep.ATTENTION``, ``FIXED_SUMMARY``) in the reader's
    language."""
    return TEXT(design.replace(" ", "_"))


def class_label(word_class: str) -> str:
    """The name of a source word class of the toy language (``models.data.SRC_CLASS``) in the reader's language."""
    return TEXT(f"class_{word_class}")


def span(figures: dict, digits: int = 4) -> str:
    """A figure over runs, ``{"mean", "min", "max"}`` (``models.sweep.spread``), as ``mean (min–max)`` with
    ``digits`` decimals, in the reader's language: its brackets are the language's own, ``0.9947（0.9850–0.9995）``
    in Chinese, where half-width brackets would break a Chinese line's punctuation."""
    mean, low, high = (f"{figures[key]:.{digits}f}" for key in ("mean", "min", "max"))
    return TEXT("span", mean=mean, min=low, max=high)


def live_check(differences: dict, tolerance: dict, measured: dict) -> str:
    """The lines of lesson 07's live-training check: each figure of ``differences`` (``{figure: (live,
    committed)}``, ``models.trained.live_differences``) that lies within its ``tolerance``, beside the spread
    ``measured`` across machines (``models.trained.LIVE_SPREAD``). Raises ``AssertionError`` naming the figure
    when one does not."""
    lines = []
    for key, (mine, committed) in differences.items():
        assert abs(mine - committed) <= tolerance[key], (
            f"{key}: {mine} against committed {committed} ({tolerance[key]})"
        )
        lines.append(TEXT("live_within", what=TEXT(f"live_{key}"), tolerance=tolerance[key], spread=measured[key]))
    return "\n".join(lines)


def report(ev, attention: bool = True, steps: int | None = None) -> str:
    """The printed figures of an :class:`~attention_core.models.train.Evaluation`: fixed formats, no timings,
    so reruns print the same text. The accuracies start in one column in every language: each label is padded to
    the widest by display width (:func:`attention_core.lang.width`: a Chinese character takes two columns)."""
    lines = [TEXT("steps", steps=steps)] if steps is not None else []
    figures = {"token_label": ev.token_accuracy(), "exact_label": ev.exact_accuracy()}
    if attention:
        figures["alignment_label"] = ev.alignment_accuracy()
    labels = {key: TEXT("field", label=TEXT(key)) for key in figures}
    column = max(width(label) for label in labels.values())
    lines += [f"{pad(labels[key], column)}{x:.4f}" for key, x in figures.items()]
    for lo, hi, token, exact in ev.by_bucket():
        lines.append(TEXT("bucket", lo=lo, hi=hi, token=token, exact=exact))
    return "\n".join(lines)


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
    U, T = np.shape(weights)
    # Cells of 0.2 in: a 27-column grid is 7 in (672 CSS px) wide; shrunk into a phone's 342 px column its labels
    # are raised to 9 CSS px (readable_on_phones) and still fit their rows. The colour bar lies under the grid
    # instead of widening it. The "compressed" layout is the constrained layout made for axes of fixed aspect (square
    # cells): the plain one sizes the margins around the axes' box before the aspect shrinks it.
    fig = Figure(figsize=(HEATMAP_CELL * T + 1.6, HEATMAP_CELL * U + 2.0), layout="compressed")
    ax = fig.add_subplot()
    im = _alignment_grid(ax, weights, src_words, tgt_words, true_align, title)
    _weight_bar(fig, im, ax)
    return fig


def language_heatmaps(src_words: Sequence[str], panels: dict[str, tuple]) -> Figure:
    """One source sentence translated into each target language, its attention grids side by side (lesson 07).

    ``panels[language] = (weights (U, T), tgt_words (U,), true_align (T,) or None)`` for ``language`` in
    ``("svo", "verb_final")`` (``attention_core.models.data.LANGUAGES``), drawn top to bottom in that order,
    titled with the language. Same source along x in every grid, so a reordering that stays near the diagonal
    in the first and jumps across the sentence in the second shows at a glance.
    """
    names = list(panels)
    U, T = np.shape(panels[names[0]][0])
    # One grid above the other: side by side, two 19-word grids would be shrunk on a phone until their labels
    # could not stay readable without overlapping. Laid out for square cells (see alignment_heatmap): with the plain
    # constrained layout the colour bar's label ended 1 px past the bottom edge of the PNG.
    fig = Figure(figsize=(HEATMAP_CELL * T + 1.6, len(names) * (HEATMAP_CELL * U + 1.9) + 0.6), layout="compressed")
    axes = np.atleast_1d(fig.subplots(len(names), 1))
    for ax, name in zip(axes, names, strict=True):
        weights, tgt_words, true_align = panels[name]
        im = _alignment_grid(ax, weights, src_words, tgt_words, true_align, TEXT(f"language_{name}"))
    _weight_bar(fig, im, list(axes))
    return fig


def _alignment_grid(ax, weights, src_words, tgt_words, true_align, title):
    """Draw one grid of weights ``(U, T)`` on ``ax`` with its labels and true-alignment squares."""
    w = np.asarray(weights, dtype=float)
    U, T = w.shape
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
    return im


def _weight_bar(fig, im, ax) -> None:
    bar = fig.colorbar(im, ax=ax, location="bottom", shrink=0.6, aspect=30)
    bar.set_label(TEXT("weight"), fontsize=HEATMAP_FONT)
    bar.ax.tick_params(labelsize=HEATMAP_FONT)


HEATMAP_CELL = 0.2  # inches per grid cell
HEATMAP_FONT = 14  # points: every label of the alignment grid (9.1 CSS px when a 27-column grid fits a phone)


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


def accuracy_vs_length(curves: dict[str, dict]) -> Figure:
    """Two panels, token and exact-sequence accuracy, against source length; one line per design.

    ``curves[label]`` is :func:`attention_core.models.sweep.accuracy_by_length`'s dictionary (``lengths``, and
    ``token``/``exact`` each with ``mean``, ``min`` and ``max`` over runs): the line is the mean, the shaded band
    runs from the smallest to the largest run.
    """
    fig = Figure(figsize=(8.0, 3.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    styles = ["-o", "--s", ":^", "-.v"]
    for ax, key, label in zip(axes, ("token", "exact"), (TEXT("token_accuracy"), TEXT("exact_accuracy")), strict=True):
        for k, (name, curve) in enumerate(curves.items()):
            (line,) = ax.plot(curve["lengths"], curve[key]["mean"], styles[k % len(styles)], ms=3, label=name)
            ax.fill_between(curve["lengths"], curve[key]["min"], curve[key]["max"], color=line.get_color(), alpha=0.2)
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
