"""Self-checks for the exercises of lessons 01-04: they run the reader's answer and say what is wrong.

Each check is a pure decision on the answer (its ``.decide``: a :class:`~attention_core.checks.base.Finding` of
messages by key) made into the verdict a reader sees by :func:`~attention_core.checks.base.self_check`: the first
wrong answer gets a hint that points at the idea, the second the detail, the third the answer (see
:mod:`.base`). Checks never raise, whatever the answer; an exception inside the reader's function is reported.

Every message comes from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO
files), pieces included: the names of the directions and of the tokens. The lesson-01 checks take the sentence to
read (each edition's own, ``example_sentences``) and find the tokens they talk about by their features, not by
their English names.

The decision rules, exercise by exercise. The website decides the value answers in the page with the same rules
(``book/_assets/ae-checks.js``, key for key), from the numbers each check's ``given`` function returns (the same
function its decision calls: ``@self_check(given=...)``, see :mod:`.base`):

- 01.1 :func:`check_query_focus`: a vector of ``F`` finite numbers whose scores do not overflow; right when the
  sentence's *time* token gets at least ``at_least`` (0.5) of the weight. Else: the top token is another one
  (``focus_other``), or it is the token but below ``at_least`` (``focus_spread``).
- 01.3 :func:`check_negation_focus`: apart from its *negation* entry the query must be ``k`` times the *where?*
  query with ``k >= 1`` (to 1e-5 relative; ``negation_keep_where``, ``negation_scale``); right when *not* weighs at
  least as much as *meeting room* (to 1e-12). Else the *negation* entry is not positive (``negation_positive``) or
  still too small (``negation_raise``).
- 02.2 / 03.2 :func:`check_moved_states`, :func:`check_moved_halves`: distinct whole positions in ``1..T``; right
  when the list is exactly the states that read ``x_changed`` (forward ``changed..T``, backward ``1..changed``).
  Else ``moved_other_direction``, ``moved_changed_too``, or ``moved_wrong`` (extra and missing positions).
- 03.1 :func:`check_stored_floats`: a whole number equal to ``T * 2 * d_dir``; else one direction, one annotation,
  one state, or another count.
- 04.2 :func:`check_context`: two numbers within :class:`~attention_core.checks.base.Precision` (3 decimals) of the
  soft read; else the raw-score read, the mean, the hard read (each at the same precision), or the distance.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE
from ..lang import Messages
from ..read_variants import raw_score_read
from ..reading import attend, softmax
from ..rnn import RNNParams, rnn_cell
from ..toy_sentences import FEATURES, FELIX, FELIX_NEGATED, QUERIES, ToySentence, feature_vector, read_with_query
from .base import (
    CLOSE,
    Finding,
    Precision,
    Problem,
    Say,
    both,
    failure,
    fmt,
    malformed,
    numbers,
    positions,
    quote,
    quote_text,
    right,
    run_reader,
    self_check,
    whole_number,
    wrong,
)

TEXT = Messages(
    __name__,
    {
        # pieces
        "quoted": "{token!r}",  # a token or sentence named in a message
        "forward": "forward",
        "backward": "backward",
        "and": " and ",
        "pass_function": "pass your function itself, got {kind}",
        # how a check calls the reader's answer in a message about its form ("your answer is None: ...")
        "your_answer": "your answer",
        "your_context": "your context",
        "your_query": "your query",
        "your_forward": "your forward list",
        "your_backward": "your backward list",
        "outside": "{name}: {positions} lie outside the positions 1..{T}",
        "from_zero": "{name}: holds position 0, but the positions are numbered from 1 to {T}",
        "overflow": "{name}: its entries are so large that the scores overflow; entries of a few units are enough",
        # check_softmax: what can go wrong on one input ({label}: the input, as numbers)
        "softmax_failed": "for {label}: {problem}",
        "softmax_shape": "for {label} you returned shape {got}, expected {want} (one weight per score)",
        "softmax_nonfinite": (
            "for {label} your weights contain nan or inf ({got}): exp overflows or underflows there. Lesson 04 "
            "shows a change of the scores that leaves every weight as it is: choose one that keeps every exp finite"
        ),
        "softmax_nonfinite_detail": (
            "Subtract each row's largest score before exp: only the largest (not the first, the last or the mean) "
            "keeps every exponent at or below 0."
        ),
        "softmax_rows": "for {label} your weights sum to one over the whole array, but each row is a read of its own",
        "softmax_rows_detail": "Normalise along the last axis (the source positions), with keepdims=True.",
        "softmax_negative": "for {label} some weights are negative ({got}); softmax weights are all positive",
        "softmax_sum": "for {label} your weights sum to {sums}, not 1",
        "softmax_sum_detail": "Divide each exp(e_j) by the sum of exp(e_k) over the positions of its own row.",
        "softmax_other": "for {label} your weights are not the softmax of the scores",
        "softmax_other_detail": "You returned {got}, expected {want}.",
        "softmax_ok": "your softmax matches the core on all {n} inputs: large, far-apart, tied and 2-D ones included",
        # check_context
        "context_shape": "your context has shape {got}; it must have the width of one annotation, {want}",
        "context_weights": (
            "your context has shape {got}; it must have the width of one annotation, {want} "
            "(you may have returned the weights instead of the weighted sum of the h_j)"
        ),
        "context_ok": "your context {got} is the soft read sum_j softmax(e)_j h_j",
        "context_raw": "your context {got} weights the h_j by the raw scores",
        "context_raw_detail": "Turn the scores into weights with softmax first.",
        "context_mean": "your context {got} is the plain average of the h_j, which ignores the scores",
        "context_hard": (
            "your context {got} is the single annotation with the highest score (a hard read); "
            "the soft read mixes all of them"
        ),
        "context_wrong": (
            "your context {got} is not the soft read to 3 decimals: compute the weights first, then the weighted sum"
        ),
        "context_gap": "It is {gap:.3f} away from sum_j softmax(e)_j h_j.",
        # check_rnn_cell
        "cell_failed": "case {k}: {problem}",
        "cell_shape": "case {k}: you returned shape {got}, expected {want} (d_h,)",
        "cell_pre": "case {k}: you returned the pre-activation W_x x + W_h h_prev + b",
        "cell_pre_detail": "Apply np.tanh to it.",
        "cell_no_h": "case {k}: your new state ignores h_prev, so nothing read earlier can reach it",
        "cell_no_h_detail": "Add W_h @ h_prev inside the tanh.",
        "cell_no_b": "case {k}: one term of the sum inside the tanh is missing",
        "cell_no_b_detail": "You left out the bias b.",
        "cell_transposed": "case {k}: W_h does not multiply h_prev the way the cell's equation writes it",
        "cell_transposed_detail": "The convention here is W_h @ h_prev, not W_h.T @ h_prev.",
        "cell_other": "case {k}: your new state is not tanh(W_x x + W_h h_prev + b)",
        "cell_other_detail": "Expected {want}, got {got}.",
        "cell_ok": "your cell matches tanh(W_x x + W_h h_prev + b) on {n} random cases",
        # check_stored_floats
        "floats_ok": "{got:g} numbers: T = {T} annotations of 2 x {d_dir} each",
        "floats_one_direction": "{got:g} is not right: you counted one direction only",
        "floats_one_direction_detail": "Each annotation concatenates a forward and a backward state.",
        "floats_one_annotation": "{got:g} is what one annotation (or one context vector) holds",
        "floats_one_annotation_detail": "The decoder keeps all T annotations to re-read.",
        "floats_one_state": "{got:g} is one state of one direction, the size of a fixed summary",
        "floats_one_state_detail": "Count every position, and both directions.",
        "floats_other": "{got:g} is not right: count what the decoder keeps for each of the {T} positions",
        "floats_other_detail": "T positions times the width of one annotation (2 x {d_dir}).",
        # check_query_focus and check_negation_focus
        "not_a_token": "{token} is not a token of {text}",
        "no_such_feature": "no token of {text} has the feature '{feature}'",
        "negation_keep_where": (
            "start from the 'where?' query and add a 'negation' entry: the other entries of your query are not "
            'those of `QUERIES["where"]` (or a multiple of them)'
        ),
        "negation_scale": (
            "apart from its 'negation' entry your query is {scale:.3g} times `QUERIES[\"where\"]`: keep the "
            "'where?' part at least as strong as it is, so that the query still asks where"
        ),
        "focus_ok": "your query gives {token} weight {w:.3f}",
        "focus_spread": "your query gives {token} weight {w:.3f} (needs >= {at_least}): the highest, but spread out",
        "focus_spread_detail": "Make the query's entries larger: a longer query gives sharper weights.",
        "focus_other": (
            "your query gives {token} weight {w:.3f} (needs >= {at_least}); the highest weight goes to {top}: "
            "which feature does {token} have that the others lack?"
        ),
        "focus_other_detail": "Raise the query's entry for the feature(s) {token} has.",
        "focus_answer": "for example feature_vector(time=3.0), which gives {token} weight {w:.3f}",
        "negation_ok": "{neg} gets {w_neg:.3f}, {place} {w_place:.3f}; the read's negation component is {negation:.3f}",
        "negation_positive": "{neg} gets {w_neg:.3f} but {place} {w_place:.3f}: nothing in the query asks for {neg}",
        "negation_positive_detail": (
            "Give the query a positive entry for the 'negation' feature, the only one {neg} has."
        ),
        "negation_raise": (
            "{neg} gets {w_neg:.3f} but {place} still gets {w_place:.3f}: the 'negation' entry is still too small"
        ),
        "negation_raise_detail": (
            "Equal scores give equal weights: compare the query's 'negation' entry with its 'place' entry."
        ),
        "negation_answer": (
            "a 'negation' entry as large as the 'place' entry, 3: "
            'QUERIES["where"] + feature_vector(negation=3.0) gives both {w:.3f}'
        ),
        # check_moved_states and check_moved_halves
        "moved_other_direction": (
            "{direction} states: these are not the states that move; a {direction} state h_j has read {reads}: "
            "which of them have read x_{changed}?"
        ),
        "moved_other_direction_detail": "You listed the other direction's states.",
        "moved_changed_too": "{direction} states: one state that moves is missing from your list",
        "moved_changed_too_detail": (
            "The state at the changed position {changed} moves too: it reads x_{changed} itself."
        ),
        "moved_idea_extra": "some of the states you listed cannot move",
        "moved_idea_missing": "some states that move are missing",
        "moved_wrong": "{direction} states: {parts} (a {direction} state h_j has read {reads})",
        "moved_extra": "The states at {positions} have not read x_{changed}, so they cannot move.",
        "moved_missing": "The states at {positions} have read x_{changed}, so they move.",
        "moved_ok": "only {moved} can move: a forward state never sees later inputs",
        "halves_ok": "forward halves of h_{changed}..h_{T} and backward halves of h_1..h_{changed} move",
        "halves_answer": "forward {forward}, backward {backward}",
    },
)


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


def _quoted(token: str) -> str:
    return TEXT("quoted", token=token)


# ------------------------------------------------------------------------------------ 04.1 softmax
# The inputs, each shown as itself. Every row's largest score sits somewhere else: last, first, in the middle and
# tied. Far apart (a gap of 2000), a shift by any one score of a row but its largest, by the row's mean or minimum,
# or by one maximum over the whole array, makes some exp overflow; so does no shift at all.
SOFTMAX_CASES = (
    [1.0, 2.0, 3.0],
    [5.0],
    [101.0, 102.0, 103.0],
    [1000.0, 1001.0],
    [-1000.0, -1001.0],
    [1000.0, -1000.0],
    [-1000.0, 1000.0, 1000.0, -1000.0],
    [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]],
    [[1000.0, 1001.0], [-1000.0, -1001.0]],
    [[0.0, 1000.0, -1000.0], [1000.0, -1000.0, 1000.0], [-1000.0, 0.0, 1000.0]],
)
_SOFTMAX_DETAIL = {
    "softmax_nonfinite": "softmax_nonfinite_detail",
    "softmax_rows": "softmax_rows_detail",
    "softmax_sum": "softmax_sum_detail",
    "softmax_other": "softmax_other_detail",
}


def _label(e: np.ndarray) -> str:
    """An input as a message shows it, on one line: ``[1000, -1000]``, ``[[1, 2, 3], [0, 0, 0]]``."""
    return " ".join(np.array2string(e, separator=", ", formatter={"float_kind": lambda x: f"{x:g}"}).split())


@self_check
def check_softmax(my_softmax: Callable) -> Finding:
    r"""Check a reader's softmax ``my_softmax(scores) -> weights`` (lesson 04, equation eq-softmax).

    The inputs (:data:`SOFTMAX_CASES`): ordinary scores; large scores ``[1000, 1001]`` and ``[-1000, -1001]``
    (overflow, underflow); a single position; a common shift; scores far apart with the largest first, last, in the
    middle and tied; 2-D inputs ``(N, T)``, square and not, that must be normalised along the last axis. Each kind of
    problem is reported once, on the first input that shows it.
    """
    answer = "z = np.exp(scores - scores.max(axis=-1, keepdims=True)); return z / z.sum(axis=-1, keepdims=True)"
    if not callable(my_softmax):
        return malformed(_say("pass_function", kind=quote_text(type(my_softmax).__name__)), answer)
    found: dict[str, Problem] = {}
    for case in SOFTMAX_CASES:
        e = np.array(case)
        label = _label(e)
        got, err = run_reader(my_softmax, e.copy(), numeric=True, finite=False)
        if err:
            return failure(_say("softmax_failed", label=label, problem=err), answer)
        want = softmax(e)
        if got.shape != want.shape:
            found.setdefault("shape", Problem(_say("softmax_shape", label=label, got=got.shape, want=want.shape)))
            continue
        if not np.all(np.isfinite(got)):
            key, values = "softmax_nonfinite", {"got": fmt(got)}
        elif np.allclose(got, want, **CLOSE):
            continue
        elif e.ndim == 2 and np.isclose(got.sum(), 1.0, **CLOSE) and not np.allclose(got.sum(-1), 1.0, **CLOSE):
            key, values = "softmax_rows", {}
        elif np.any(got < 0):
            key, values = "softmax_negative", {"got": fmt(got)}
        elif not np.allclose(got.sum(axis=-1), 1.0, **CLOSE):
            key, values = "softmax_sum", {"sums": fmt(got.sum(axis=-1))}
        else:
            key, values = "softmax_other", {}
        detail = _SOFTMAX_DETAIL.get(key)
        found.setdefault(
            key,
            Problem(
                _say(key, label=label, **values),
                _say(detail, got=fmt(got), want=fmt(want, cut=False)) if detail else None,
            ),
        )
    if found:
        return wrong(*found.values(), answer=answer)
    return right(_say("softmax_ok", n=len(SOFTMAX_CASES)), answer)


# ------------------------------------------------------------------------------------ 04.2 a read by hand
CONTEXT_PRECISION = Precision(3)


def context_given(scores, H=None) -> tuple[dict | None, Say | None]:
    """What :func:`check_context` decides with, for ``scores`` ``(T,)`` over ``H`` ``(T, d_h)`` (the worked example's
    annotations by default): the soft read ``want`` and the three slips it names (the raw-score read, the mean, the
    hard read), each ``(d_h,)``, the scores' shape and the precision."""
    Hm = H_EXAMPLE if H is None else np.asarray(H, dtype=float)
    e = np.asarray(scores, dtype=float)
    _, want = attend(e, Hm)  # (d_h,)
    return {
        "want": want,
        "raw": raw_score_read(e, Hm),  # (d_h,)
        "mean": Hm.mean(axis=0),  # (d_h,)
        "hard": Hm[np.argmax(e)],  # (d_h,)
        "scores_shape": e.shape,  # (T,): a context of this shape is the weights
        "precision": CONTEXT_PRECISION,
    }, None


@self_check(given=context_given)
def check_context(my_context, scores, H=None) -> Finding:
    r"""Check a context vector the reader computed by hand: ``c = sum_j softmax(e)_j h_j`` (eq-context), each
    component to 3 decimals (:data:`CONTEXT_PRECISION`).

    ``my_context`` is the reader's answer ``(d_h,)``; ``scores`` ``(T,)``; ``H`` defaults to the worked
    example's annotations :data:`attention_core.H_EXAMPLE` ``(3, 2)``.
    """
    g, _ = context_given(scores, H)
    want = g["want"]
    answer = f"c = {fmt(want, cut=False)}"
    got, problem = numbers(my_context, TEXT("your_context"), want.shape)
    if problem:
        if problem.key in ("answer_count", "answer_shape"):  # numbers() read an array, of another shape
            shape = np.shape(np.asarray(my_context))
            key = "context_weights" if shape == g["scores_shape"] else "context_shape"
            problem = _say(key, got=shape, want=want.shape)
        return malformed(problem, answer)
    close = g["precision"].accepts
    shown = fmt(got)
    if close(got, want):
        return right(_say("context_ok", got=shown), answer)
    if close(got, g["raw"]):
        return wrong(Problem(_say("context_raw", got=shown), _say("context_raw_detail")), answer=answer)
    if close(got, g["mean"]):
        return wrong(Problem(_say("context_mean", got=shown)), answer=answer)
    if close(got, g["hard"]):
        return wrong(Problem(_say("context_hard", got=shown)), answer=answer)
    gap = float(np.linalg.norm(got - want))
    return wrong(Problem(_say("context_wrong", got=shown), _say("context_gap", gap=gap)), answer=answer)


# ------------------------------------------------------------------------------------ 02.1 the tanh cell
_CELL_DIAGNOSES = (  # (what the reader may have computed, the hint's key); tried in this order
    (lambda x, h, W_x, W_h, b: W_x @ x + W_h @ h + b, "cell_pre"),
    (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + b), "cell_no_h"),
    (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + W_h @ h), "cell_no_b"),
    (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + W_h.T @ h + b), "cell_transposed"),
)


@self_check
def check_rnn_cell(my_cell: Callable) -> Finding:
    r"""Check a reader's tanh cell ``my_cell(x, h_prev, W_x, W_h, b) -> h`` (lesson 02).

    The reference is :func:`attention_core.rnn.rnn_cell`, ``h_j = tanh(W_x x_j + W_h h_{j-1} + b)``, with
    ``x`` ``(d_e,)``, ``h_prev`` ``(d_h,)``, ``W_x`` ``(d_h, d_e)``, ``W_h`` ``(d_h, d_h)``, ``b`` ``(d_h,)``.
    """
    answer = "return np.tanh(W_x @ x + W_h @ h_prev + b)"
    if not callable(my_cell):
        return malformed(_say("pass_function", kind=quote_text(type(my_cell).__name__)), answer)
    rng = np.random.default_rng(7)
    d_e, d_h = 3, 4  # different widths, so a transposed W_x shows up as a shape error
    n_cases = 3
    for case in range(1, n_cases + 1):
        W_x, W_h = rng.normal(size=(d_h, d_e)), rng.normal(size=(d_h, d_h))  # (d_h, d_e), (d_h, d_h)
        b, x, h = rng.normal(size=d_h), rng.normal(size=d_e), rng.normal(size=d_h)  # (d_h,), (d_e,), (d_h,)
        want = rnn_cell(x, h, RNNParams(W_x, W_h, b))  # (d_h,)
        got, err = run_reader(my_cell, x, h, W_x, W_h, b, numeric=True)
        if err:
            return failure(_say("cell_failed", k=case, problem=err), answer)
        if got.shape != want.shape:
            return wrong(Problem(_say("cell_shape", k=case, got=got.shape, want=want.shape)), answer=answer)
        if np.allclose(got, want, **CLOSE):
            continue
        for formula, key in _CELL_DIAGNOSES:
            if np.allclose(got, formula(x, h, W_x, W_h, b), **CLOSE):
                return wrong(Problem(_say(key, k=case), _say(f"{key}_detail")), answer=answer)
        detail = _say("cell_other_detail", want=fmt(want, cut=False), got=fmt(got))
        return wrong(Problem(_say("cell_other", k=case), detail), answer=answer)
    return right(_say("cell_ok", n=n_cases), answer)


# ------------------------------------------------------------------------------------ 03.1 counting what is kept
def stored_floats_given(T: int, d_dir: int) -> tuple[dict | None, Say | None]:
    """What :func:`check_stored_floats` decides with: ``T`` and ``d_dir``, whole numbers."""
    return {"T": int(T), "d_dir": int(d_dir)}, None


@self_check(given=stored_floats_given)
def check_stored_floats(answer, T: int, d_dir: int) -> Finding:
    """Check the reader's count of numbers a bidirectional encoder keeps for ``T`` positions (lesson 03).

    Each annotation concatenates a forward and a backward state of width ``d_dir``, so the answer is
    ``T * 2 * d_dir``.
    """
    g, _ = stored_floats_given(T, d_dir)
    T, d_dir = g["T"], g["d_dir"]
    want = T * 2 * d_dir
    the_answer = f"{T} x 2 x {d_dir} = {want}"
    got, problem = whole_number(answer, TEXT("your_answer"))
    if problem:
        return malformed(problem, the_answer)
    if got == want:
        return right(_say("floats_ok", got=got, T=T, d_dir=d_dir), the_answer)
    # later keys win where two counts coincide: one direction before one annotation before one state
    slips = {d_dir: "floats_one_state", 2 * d_dir: "floats_one_annotation", T * d_dir: "floats_one_direction"}
    if got in slips:
        key = slips[got]
        return wrong(Problem(_say(key, got=got), _say(f"{key}_detail")), answer=the_answer)
    detail = _say("floats_other_detail", d_dir=d_dir)
    return wrong(Problem(_say("floats_other", got=got, T=T), detail), answer=the_answer)


# ------------------------------------------------------------------------------------ 01.1 and 01.3 queries
def _token_with(sentence: ToySentence, feature: str) -> str | None:
    """The token of ``sentence`` with the largest value of ``feature`` (the first on a tie); ``None`` if none has it.

    Finds a token by what it means rather than by its English name: *not* and 没有 both carry *negation*.
    """
    column = sentence.X[:, FEATURES.index(feature)]  # (T,)
    return sentence.tokens[int(np.argmax(column))] if np.any(column > 0) else None


def _find_token(sentence: ToySentence, token: str | None, feature: str) -> tuple[str | None, Say | None]:
    """``(token, None)`` for a token of ``sentence`` (given, or found by ``feature``); else ``(None, problem)``."""
    if token is None:
        token = _token_with(sentence, feature)
        if token is None:
            return None, _say("no_such_feature", text=_quoted(sentence.text), feature=feature)
    if token not in sentence.tokens:
        return None, _say("not_a_token", token=quote(token), text=_quoted(sentence.text))
    return token, None


def _query(value, sentence: ToySentence) -> tuple[np.ndarray | None, Say | None]:
    """The reader's query as ``(F,)`` finite numbers whose scores on ``sentence`` stay finite; else a message."""
    name = TEXT("your_query")
    query, problem = numbers(value, name, (len(FEATURES),))
    if problem is None and not np.all(np.isfinite(sentence.X @ query)):
        return None, _say("overflow", name=name)
    return query, problem


def query_focus_given(token: str | None = None, sentence: ToySentence = FELIX, at_least: float = 0.5):
    """What :func:`check_query_focus` decides with: the sentence's tokens and features ``X`` ``(T, F)``, the position
    ``j`` of ``token`` (by default the sentence's *time* token), the weight the answer's example query gives it, and
    ``at_least``; or ``(None, problem)`` when the sentence has no such token."""
    token, problem = _find_token(sentence, token, "time")
    if problem:
        return None, problem
    j = sentence.tokens.index(token)
    example = float(read_with_query(sentence, feature_vector(time=3.0)).weights[j])
    return {"tokens": sentence.tokens, "X": sentence.X, "j": j, "example": example, "at_least": float(at_least)}, None


@self_check(given=query_focus_given)
def check_query_focus(query, token: str | None = None, sentence: ToySentence = FELIX, at_least: float = 0.5):
    """Check that a reader's query puts at least ``at_least`` of its weight on ``token`` (lesson 01).

    ``query`` is an ``(F,)`` vector over :data:`attention_core.toy_sentences.FEATURES`, for example built with
    ``feature_vector(time=3.0)``. ``token`` defaults to the sentence's *time* token: "yesterday" in
    :data:`~attention_core.toy_sentences.FELIX`, "昨天" in :data:`~attention_core.toy_sentences.FELIX_ZH`, "hier" in
    :data:`~attention_core.toy_sentences.FELIX_FR`.
    """
    g, problem = query_focus_given(token, sentence, at_least)
    if problem:
        return malformed(problem)
    j, at_least = g["j"], g["at_least"]
    token = g["tokens"][j]
    answer = _say("focus_answer", token=_quoted(token), w=g["example"])
    query, problem = _query(query, sentence)
    if problem:
        return malformed(problem, answer)
    read = read_with_query(sentence, query)
    w = float(read.weights[j])
    if w >= at_least:
        return right(_say("focus_ok", token=_quoted(token), w=w), answer)
    top = g["tokens"][int(np.argmax(read.weights))]
    said = {"token": _quoted(token), "w": w, "at_least": at_least}
    if top == token:
        return wrong(Problem(_say("focus_spread", **said), _say("focus_spread_detail")), answer=answer)
    hint = _say("focus_other", top=_quoted(top), **said)
    return wrong(Problem(hint, _say("focus_other_detail", token=_quoted(token))), answer=answer)


def _where_scale(query: np.ndarray, where: np.ndarray, negation: int) -> float | None:
    """``k`` when ``query`` is ``k`` times the *where?* query ``where`` apart from its *negation* entry (index
    ``negation``; to 1e-5 relative, with ``k > 0``); else ``None``."""
    others = [i for i in range(len(where)) if i != negation]
    where, mine = where[others], query[others]  # (F - 1,) each
    scale = float(mine @ where) / float(where @ where)
    if not np.isfinite(scale) or scale <= 0:
        return None
    if not np.allclose(mine, scale * where, rtol=CLOSE["rtol"], atol=CLOSE["rtol"] * scale):
        return None
    return scale


def negation_focus_given(
    sentence: ToySentence = FELIX_NEGATED, negation_token: str | None = None, place_token: str | None = None
):
    """What :func:`check_negation_focus` decides with: the sentence's tokens and features ``X`` ``(T, F)``, the
    positions of its *negation* and *place* tokens, the *where?* query ``(F,)``, the index of the *negation*
    feature, the weight the answer's query gives the negation token, and :data:`~.base.CLOSE`; or
    ``(None, problem)`` when the sentence lacks one of the tokens."""
    negation_token, problem = _find_token(sentence, negation_token, "negation")
    if problem is None:
        place_token, problem = _find_token(sentence, place_token, "place")
    if problem:
        return None, problem
    i_neg, i_place = sentence.tokens.index(negation_token), sentence.tokens.index(place_token)
    solved = read_with_query(sentence, QUERIES["where"] + feature_vector(negation=3.0))
    return {
        "tokens": sentence.tokens,
        "X": sentence.X,  # (T, F)
        "i_neg": i_neg,
        "i_place": i_place,
        "where": QUERIES["where"],  # (F,)
        "negation": FEATURES.index("negation"),
        "solved": float(solved.weights[i_neg]),
        "close": CLOSE,
    }, None


@self_check(given=negation_focus_given)
def check_negation_focus(
    query,
    sentence: ToySentence = FELIX_NEGATED,
    negation_token: str | None = None,
    place_token: str | None = None,
) -> Finding:
    """Check that a query reads the negated sentence's *not* at least as much as *meeting room* (lesson 01).

    ``query`` is an ``(F,)`` vector over the features, for example ``QUERIES["where"] +
    feature_vector(negation=3.0)``: the *where?* query (or ``k`` times it, ``k >= 1``: a smaller ``k`` blurs the
    question, and a tiny one would ask nothing) with a *negation* entry. The verdict also reports the read's
    *negation* component. The two tokens are the sentence's strongest *negation* and *place* tokens unless given:
    "not" and "meeting room" in :data:`~attention_core.toy_sentences.FELIX_NEGATED`, "没有" and "会议室" in
    :data:`~attention_core.toy_sentences.FELIX_NEGATED_ZH`, "pas" and "bureau" in
    :data:`~attention_core.toy_sentences.FELIX_NEGATED_FR`.
    """
    g, problem = negation_focus_given(sentence, negation_token, place_token)
    if problem:
        return malformed(problem)
    i_neg, i_place = g["i_neg"], g["i_place"]
    answer = _say("negation_answer", w=g["solved"])
    query, problem = _query(query, sentence)
    if problem:
        return malformed(problem, answer)
    scale = _where_scale(query, g["where"], g["negation"])
    if scale is None:
        return wrong(Problem(_say("negation_keep_where")), answer=answer)
    if scale < 1 - g["close"]["rtol"]:
        return wrong(Problem(_say("negation_scale", scale=scale)), answer=answer)
    read = read_with_query(sentence, query)
    w_neg, w_place = float(read.weights[i_neg]), float(read.weights[i_place])
    negation = float(read.context[g["negation"]])
    said = {"neg": _quoted(g["tokens"][i_neg]), "w_neg": w_neg, "place": _quoted(g["tokens"][i_place])}
    said["w_place"] = w_place
    if w_neg >= w_place - 1e-12:  # a tie counts: equal scores give equal weights
        return right(_say("negation_ok", negation=negation, **said), answer)
    if query[g["negation"]] <= 0:
        detail = _say("negation_positive_detail", neg=said["neg"])
        return wrong(Problem(_say("negation_positive", **said), detail), answer=answer)
    return wrong(Problem(_say("negation_raise", **said), _say("negation_raise_detail")), answer=answer)


# ------------------------------------------------------------------------------------ 02.2 and 03.2 moved states
def _positions(answer, T: int, name: str | None = None) -> tuple[list[int] | None, Say | None]:
    """``(positions, None)`` for distinct whole positions within ``1..T``; else ``(None, message)`` (which calls
    the answer ``name``, by default "your answer")."""
    name = TEXT("your_answer") if name is None else name
    got, problem = positions(answer, name)
    if problem:
        return None, problem
    if 0 in got:
        return None, _say("from_zero", name=name, T=T)
    outside = [j for j in got if not 1 <= j <= T]
    if outside:
        return None, _say("outside", name=name, positions=quote(outside), T=T)
    return got, None


def _moved(changed: int, T: int, direction: str) -> list[int]:
    """The positions whose ``direction`` state moves when only ``x_changed`` changes: a forward state ``h_j`` has
    read ``x_1..x_j``, so it moves for ``j >= changed``; a backward one ``x_j..x_T``, for ``j <= changed``."""
    return list(range(changed, T + 1)) if direction == "forward" else list(range(1, changed + 1))


def _moved_problem(got: list[int], changed: int, T: int, direction: str, two: bool) -> Problem | None:
    """``None`` if ``got`` lists exactly the states of a ``direction`` RNN that move; else the problem.

    ``two`` says whether the exercise has two directions, so that listing the other one can be named.
    """
    want = _moved(changed, T, direction)
    other = _moved(changed, T, "backward" if direction == "forward" else "forward")
    if got == want:
        return None
    reads = "x_1, ..., x_j" if direction == "forward" else "x_j, ..., x_T"
    named = TEXT(direction)  # "forward" or "backward" in the reader's language
    if two and got == other and want != other:
        hint = _say("moved_other_direction", direction=named, reads=reads, changed=changed)
        return Problem(hint, _say("moved_other_direction_detail"))
    if got == [j for j in want if j != changed]:
        hint = _say("moved_changed_too", direction=named)
        return Problem(hint, _say("moved_changed_too_detail", changed=changed))
    extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
    ideas = ([TEXT("moved_idea_extra")] if extra else []) + ([TEXT("moved_idea_missing")] if missing else [])
    details = ([_say("moved_extra", positions=quote(extra), changed=changed)] if extra else []) + (
        [_say("moved_missing", positions=quote(missing), changed=changed)] if missing else []
    )
    hint = _say("moved_wrong", direction=named, parts=TEXT("and").join(ideas), reads=reads)
    return Problem(hint, both(*details) if len(details) == 2 else details[0])


def moved_given(changed: int, T: int) -> tuple[dict | None, Say | None]:
    """What :func:`check_moved_states` and :func:`check_moved_halves` decide with: ``changed`` and ``T``, whole
    numbers."""
    return {"changed": int(changed), "T": int(T)}, None


@self_check(given=moved_given)
def check_moved_states(answer, changed: int, T: int) -> Finding:
    """Check the positions whose forward-RNN states move when only ``x_changed`` changes (lesson 02).

    Positions are numbered ``1..T``; the answer is a list such as ``[3, 4, 5]``. A forward state ``h_j`` depends
    on ``x_1, ..., x_j``, so exactly the states ``j >= changed`` move.
    """
    g, _ = moved_given(changed, T)
    changed, T = g["changed"], g["T"]
    the_answer = str(_moved(changed, T, "forward"))
    got, problem = _positions(answer, T)
    if problem:
        return malformed(problem, the_answer)
    problem = _moved_problem(got, changed, T, "forward", two=False)
    if problem is None:
        moved = f"h_{T}" if changed == T else f"h_{changed}, ..., h_{T}"
        return right(_say("moved_ok", moved=moved), the_answer)
    return wrong(problem, answer=the_answer)


@self_check(given=moved_given)
def check_moved_halves(forward, backward, changed: int, T: int) -> Finding:
    """Check which halves of the bidirectional annotations move when only ``x_changed`` changes (lesson 03).

    ``forward`` and ``backward`` list positions ``1..T`` whose forward or backward half moves. The forward half
    of ``h_j`` has read ``x_1..x_j``, the backward half ``x_j..x_T``.
    """
    g, _ = moved_given(changed, T)
    changed, T = g["changed"], g["T"]
    the_answer = _say("halves_answer", forward=_moved(changed, T, "forward"), backward=_moved(changed, T, "backward"))
    problems, form = [], []
    for given, direction in ((forward, "forward"), (backward, "backward")):
        got, problem = _positions(given, T, TEXT(f"your_{direction}"))
        if problem is not None:
            form.append(Problem(problem))
            continue
        found = _moved_problem(got, changed, T, direction, two=True)
        if found is not None:
            problems.append(found)
    if form:
        return Finding(problems=tuple(form + problems), answer=the_answer, judged=False)
    if problems:
        return wrong(*problems, answer=the_answer)
    return right(_say("halves_ok", changed=changed, T=T), the_answer)
