"""Self-checks for the exercises of lessons 01-04: they run the reader's answer and say what is wrong.

Each check returns the book's shared :class:`~attention_core.checks.state.CheckResult` (``ok`` and a
``message`` that displays as a verdict): which case failed and a hint that names the likely mistake. Checks
never raise on a wrong answer; an exception inside the reader's function is reported as a failed case.

Every message comes from the module's :class:`~attention_core.lang.Messages` (English, translated by its PO
files), pieces included: the names of the cases, of the directions and of the tokens. The lesson-01 checks
take the sentence to read (each edition's own, ``example_sentences``) and find the tokens they talk about by
their features, not by their English names.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE
from ..lang import Messages
from ..read_variants import raw_score_read
from ..reading import attend, softmax
from ..rnn import RNNParams, rnn_cell
from ..toy_sentences import FEATURES, FELIX, FELIX_NEGATED, QUERIES, ToySentence, read_with_query
from .base import CLOSE, CheckResult, numbers, positions, run_reader, verdict, whole_number

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
        "outside": "{name}: {positions} lie outside the positions 1..{T}",
        "from_zero": "{name}: holds position 0, but the positions are numbered from 1 to {T}",
        # check_softmax: the inputs, then what can go wrong on one of them
        "case_single": "a single position [5]",
        "case_shifted": "[101, 102, 103] (the first case shifted by 100)",
        "case_2d": "the 2-D input [[1, 2, 3], [0, 0, 0]]",
        "case_far": "[-1000, 1000] (scores far apart)",
        "case_2d_far": "the 2-D input [[1000, 1001], [-1000, -1001]] (rows far apart)",
        "softmax_failed": "for {label}: {problem}",
        "softmax_shape": "for {label} you returned shape {got}, expected {want} (one weight per score)",
        "softmax_nonfinite": (
            "your weights for {label} contain nan or inf ({got}): exp overflows or underflows; "
            "subtract the maximum score before exp (this does not change the weights)"
        ),
        "softmax_rows": (
            "for {label} your weights sum to one over the whole array; normalise each row separately "
            "(sum over the last axis, the source positions, with keepdims=True)"
        ),
        "softmax_negative": "for {label} some weights are negative ({got}); softmax weights are all positive",
        "softmax_sum": "for {label} your weights sum to {sums}, not 1: divide exp(e_j) by the sum over all positions",
        "softmax_other": "for {label} you returned {got}, expected {want}",
        "softmax_ok": "your softmax matches the core on all {n} inputs, large, far-apart and 2-D ones included",
        # check_context
        "context_shape": "your context has shape {got}; it must have the width of one annotation, {want}",
        "context_weights": " (you may have returned the weights instead of the weighted sum of the h_j)",
        "context_ok": "your context {got} is the soft read sum_j softmax(e)_j h_j",
        "context_raw": "you weighted the h_j by the raw scores; turn the scores into weights with softmax first",
        "context_mean": "that is the plain average of the h_j, which ignores the scores",
        "context_hard": (
            "that is the single annotation with the highest score (a hard read); the soft read mixes all of them"
        ),
        "context_gap": (
            "it is {gap:.3f} away from sum_j softmax(e)_j h_j; compute the weights first, then the weighted sum"
        ),
        "context_wrong": "your context {got} is not the soft read: {hint}",
        # check_rnn_cell
        "cell_failed": "case {k}: {problem}",
        "cell_shape": "case {k}: you returned shape {got}, expected {want} (d_h,)",
        "cell_wrong": "case {k}: {hint}",
        "cell_pre": "you returned the pre-activation; apply np.tanh to it",
        "cell_no_h": "your new state ignores h_prev: add W_h @ h_prev, that term is what carries earlier inputs",
        "cell_no_b": "you left out the bias b",
        "cell_transposed": "you used W_h transposed; the convention here is W_h @ h_prev",
        "cell_other": "expected {want}, got {got}",
        "cell_ok": "your cell matches tanh(W_x x + W_h h_prev + b) on {n} random cases",
        # check_stored_floats
        "floats_ok": "{got:g} numbers: T = {T} annotations of 2 x {d_dir} each",
        "floats_one_direction": (
            "you counted one direction; each annotation concatenates a forward and a backward state"
        ),
        "floats_one_annotation": (
            "that is one annotation (or one context vector); the decoder keeps all T annotations to re-read"
        ),
        "floats_one_state": "that is one state of one direction, the size of a fixed summary; count every position",
        "floats_other": "count T positions times the width of one annotation (2 x {d_dir})",
        "floats_wrong": "{got:g} is not right: {hint}",
        # check_query_focus and check_negation_focus
        "not_a_token": "{token} is not a token of {text}",
        "no_such_feature": "no token of {text} has the feature '{feature}'",
        "negation_keep_where": (
            "start from the 'where?' query and add a 'negation' entry: the other entries of your query are not "
            'those of `QUERIES["where"]` (or a positive multiple of them)'
        ),
        "focus_ok": "your query gives {token} weight {w:.3f}",
        "focus_spread": (
            "it already has the highest weight, but the weight is spread out: make the query's entries larger"
        ),
        "focus_other": "the highest weight goes to {top}: raise the query's entry for the feature(s) {token} has",
        "focus_wrong": "your query gives {token} weight {w:.3f} (needs >= {at_least}); {advice}",
        "negation_ok": "{neg} gets {w_neg:.3f}, {place} {w_place:.3f}; the read's negation component is {negation:.3f}",
        "negation_positive": "give the query a positive entry for the 'negation' feature, the only feature {neg} has",
        "negation_raise": "raise the query's 'negation' entry (or lower its 'place' entry)",
        "negation_wrong": "{neg} gets {w_neg:.3f} but {place} still gets {w_place:.3f}; {advice}",
        # check_moved_states and check_moved_halves
        "moved_other_direction": (
            "{direction} states: you listed the other direction's states; a {direction} state h_j has read {reads}"
        ),
        "moved_changed_too": (
            "{direction} states: the state at the changed position {changed} moves too: it reads x_{changed} itself"
        ),
        "moved_extra": "the states at {positions} have not read x_{changed}, so they cannot move",
        "moved_missing": "the states at {positions} have read x_{changed}, so they move",
        "moved_wrong": "{direction} states: {parts} (a {direction} state h_j has read {reads})",
        "moved_ok": "only {moved} can move: a forward state never sees later inputs",
        "halves_ok": "forward halves of h_{changed}..h_{T} and backward halves of h_1..h_{changed} move",
    },
)


def _quoted(token: str) -> str:
    return TEXT("quoted", token=token)


def _fmt(x) -> str:
    return np.array2string(np.asarray(x, dtype=float), precision=4, separator=", ", suppress_small=True)


def check_softmax(my_softmax: Callable) -> CheckResult:
    r"""Check a reader's softmax ``my_softmax(scores) -> weights`` (lesson 04, equation eq-softmax).

    Cases: ordinary scores; large scores ``[1000, 1001]`` and ``[-1000, -1001]`` (overflow, underflow); a single
    position; a common shift; a 2-D input ``(N, T)`` that must be normalised along the last axis.
    """
    if not callable(my_softmax):
        return CheckResult(False, TEXT("pass_function", kind=type(my_softmax).__name__))
    cases = [
        ("[1, 2, 3]", np.array([1.0, 2.0, 3.0])),
        ("[1000, 1001]", np.array([1000.0, 1001.0])),
        ("[-1000, -1001]", np.array([-1000.0, -1001.0])),
        (TEXT("case_single"), np.array([5.0])),
        (TEXT("case_shifted"), np.array([101.0, 102.0, 103.0])),
        (TEXT("case_2d"), np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])),
        # far apart: a shift by the first, the mean or the minimum score, or by one maximum over the whole
        # array, still overflows here; only the maximum of each row keeps every exp finite
        (TEXT("case_far"), np.array([-1000.0, 1000.0])),
        (TEXT("case_2d_far"), np.array([[1000.0, 1001.0], [-1000.0, -1001.0]])),
    ]
    problems = []
    for label, e in cases:
        got, err = run_reader(my_softmax, e.copy(), numeric=True, finite=False)
        want = softmax(e)
        if err:
            problems.append(TEXT("softmax_failed", label=label, problem=err))
            break  # the same failure on every input says no more
        if got.shape != want.shape:
            problems.append(TEXT("softmax_shape", label=label, got=got.shape, want=want.shape))
            continue
        if not np.all(np.isfinite(got)):
            problems.append(TEXT("softmax_nonfinite", label=label, got=_fmt(got)))
            continue
        if np.allclose(got, want, **CLOSE):
            continue
        if e.ndim == 2 and np.isclose(got.sum(), 1.0, **CLOSE) and not np.allclose(got.sum(axis=-1), 1.0, **CLOSE):
            problems.append(TEXT("softmax_rows", label=label))
        elif np.any(got < 0):
            problems.append(TEXT("softmax_negative", label=label, got=_fmt(got)))
        elif not np.allclose(got.sum(axis=-1), 1.0, **CLOSE):
            problems.append(TEXT("softmax_sum", label=label, sums=_fmt(got.sum(axis=-1))))
        else:
            problems.append(TEXT("softmax_other", label=label, got=_fmt(got), want=_fmt(want)))
    return verdict(problems, TEXT("softmax_ok", n=len(cases)))


def check_context(my_context, scores, H=None) -> CheckResult:
    r"""Check a context vector the reader computed by hand: ``c = sum_j softmax(e)_j h_j`` (eq-context).

    ``my_context`` is the reader's answer ``(d_h,)``; ``scores`` ``(T,)``; ``H`` defaults to the worked
    example's annotations :data:`attention_core.H_EXAMPLE` ``(3, 2)``.
    """
    Hm = H_EXAMPLE if H is None else np.asarray(H, dtype=float)
    e = np.asarray(scores, dtype=float)
    _, want = attend(e, Hm)  # (d_h,)
    try:
        shape = np.shape(my_context) if np.asarray(my_context).dtype.kind in "iuf" else None
    except Exception:  # ragged lists: numbers() names them below
        shape = None
    if shape is not None and shape != want.shape:
        msg = TEXT("context_shape", got=shape, want=want.shape)
        if shape == e.shape:
            msg += TEXT("context_weights")
        return CheckResult(False, msg)
    got, problem = numbers(my_context, TEXT("your_context"), want.shape)
    if problem:
        return CheckResult(False, problem)
    if np.allclose(got, want, atol=5e-4):
        return CheckResult(True, TEXT("context_ok", got=_fmt(got)))
    if np.allclose(got, raw_score_read(e, Hm), atol=5e-4):
        hint = TEXT("context_raw")
    elif np.allclose(got, Hm.mean(axis=0), atol=5e-4):
        hint = TEXT("context_mean")
    elif np.allclose(got, Hm[np.argmax(e)], atol=5e-4):
        hint = TEXT("context_hard")
    else:
        hint = TEXT("context_gap", gap=float(np.linalg.norm(got - want)))
    return CheckResult(False, TEXT("context_wrong", got=_fmt(got), hint=hint))


def check_rnn_cell(my_cell: Callable) -> CheckResult:
    r"""Check a reader's tanh cell ``my_cell(x, h_prev, W_x, W_h, b) -> h`` (lesson 02).

    The reference is :func:`attention_core.rnn.rnn_cell`, ``h_j = tanh(W_x x_j + W_h h_{j-1} + b)``, with
    ``x`` ``(d_e,)``, ``h_prev`` ``(d_h,)``, ``W_x`` ``(d_h, d_e)``, ``W_h`` ``(d_h, d_h)``, ``b`` ``(d_h,)``.
    """
    if not callable(my_cell):
        return CheckResult(False, TEXT("pass_function", kind=type(my_cell).__name__))
    rng = np.random.default_rng(7)
    d_e, d_h = 3, 4  # different widths, so a transposed matrix shows up as a shape error
    problems = []
    n_cases = 3
    for case in range(n_cases):
        W_x, W_h = rng.normal(size=(d_h, d_e)), rng.normal(size=(d_h, d_h))  # (d_h, d_e), (d_h, d_h)
        b, x, h = rng.normal(size=d_h), rng.normal(size=d_e), rng.normal(size=d_h)  # (d_h,), (d_e,), (d_h,)
        want = rnn_cell(x, h, RNNParams(W_x, W_h, b))  # (d_h,)
        got, err = run_reader(my_cell, x, h, W_x, W_h, b, numeric=True)
        if err:
            problems.append(TEXT("cell_failed", k=case + 1, problem=err))
            break
        if got.shape != want.shape:
            problems.append(TEXT("cell_shape", k=case + 1, got=got.shape, want=want.shape))
            break
        if np.allclose(got, want, **CLOSE):
            continue
        pre = W_x @ x + W_h @ h + b  # (d_h,)
        if np.allclose(got, pre, **CLOSE):
            hint = TEXT("cell_pre")
        elif np.allclose(got, np.tanh(W_x @ x + b), **CLOSE):
            hint = TEXT("cell_no_h")
        elif np.allclose(got, np.tanh(W_x @ x + W_h @ h), **CLOSE):
            hint = TEXT("cell_no_b")
        elif np.allclose(got, np.tanh(W_x @ x + W_h.T @ h + b), **CLOSE):
            hint = TEXT("cell_transposed")
        else:
            hint = TEXT("cell_other", want=_fmt(want), got=_fmt(got))
        problems.append(TEXT("cell_wrong", k=case + 1, hint=hint))
        break
    return verdict(problems, TEXT("cell_ok", n=n_cases))


def check_stored_floats(answer, T: int, d_dir: int) -> CheckResult:
    """Check the reader's count of numbers a bidirectional encoder keeps for ``T`` positions (lesson 03).

    Each annotation concatenates a forward and a backward state of width ``d_dir``, so the answer is
    ``T * 2 * d_dir``.
    """
    want = T * 2 * d_dir
    got, problem = whole_number(answer, TEXT("your_answer"))
    if problem:
        return CheckResult(False, problem)
    if got == want:
        return CheckResult(True, TEXT("floats_ok", got=got, T=T, d_dir=d_dir))
    if got == T * d_dir:
        hint = TEXT("floats_one_direction")
    elif got == 2 * d_dir:
        hint = TEXT("floats_one_annotation")
    elif got == d_dir:
        hint = TEXT("floats_one_state")
    else:
        hint = TEXT("floats_other", d_dir=d_dir)
    return CheckResult(False, TEXT("floats_wrong", got=got, hint=hint))


def _token_with(sentence: ToySentence, feature: str) -> str | None:
    """The token of ``sentence`` with the largest value of ``feature`` (the first on a tie); ``None`` if none has it.

    Finds a token by what it means rather than by its English name: *not* and 没有 both carry *negation*.
    """
    column = sentence.X[:, FEATURES.index(feature)]  # (T,)
    return sentence.tokens[int(np.argmax(column))] if np.any(column > 0) else None


def _find_token(sentence: ToySentence, token: str | None, feature: str) -> tuple[str | None, str | None]:
    """``(token, None)`` for a token of ``sentence`` (given, or found by ``feature``); else ``(None, problem)``."""
    if token is None:
        token = _token_with(sentence, feature)
        if token is None:
            return None, TEXT("no_such_feature", text=_quoted(sentence.text), feature=feature)
    if token not in sentence.tokens:
        return None, TEXT("not_a_token", token=_quoted(token), text=_quoted(sentence.text))
    return token, None


def check_query_focus(query, token: str | None = None, sentence: ToySentence = FELIX, at_least: float = 0.5):
    """Check that a reader's query puts at least ``at_least`` of its weight on ``token`` (lesson 01).

    ``query`` is an ``(F,)`` vector over :data:`attention_core.toy_sentences.FEATURES`, for example built with
    ``feature_vector(time=3.0)``. ``token`` defaults to the sentence's *time* token: "yesterday" in
    :data:`~attention_core.toy_sentences.FELIX`, "昨天" in :data:`~attention_core.toy_sentences.FELIX_ZH`, "hier" in
    :data:`~attention_core.toy_sentences.FELIX_FR`.
    """
    token, problem = _find_token(sentence, token, "time")
    if problem is None:
        query, problem = numbers(query, TEXT("your_query"), (len(FEATURES),))
    if problem:
        return CheckResult(False, problem)
    read = read_with_query(sentence, query)
    j = sentence.tokens.index(token)
    w = float(read.weights[j])
    if w >= at_least:
        return CheckResult(True, TEXT("focus_ok", token=_quoted(token), w=w))
    top = sentence.tokens[int(np.argmax(read.weights))]
    if top == token:
        advice = TEXT("focus_spread")
    else:
        advice = TEXT("focus_other", top=_quoted(top), token=_quoted(token))
    return CheckResult(False, TEXT("focus_wrong", token=_quoted(token), w=w, at_least=at_least, advice=advice))


def _positions(answer, T: int) -> tuple[list[int] | None, str | None]:
    """``(positions, None)`` for distinct whole positions within ``1..T``; else ``(None, message)``."""
    name = TEXT("your_answer")
    got, problem = positions(answer, name)
    if problem:
        return None, problem
    if 0 in got:
        return None, TEXT("from_zero", name=name, T=T)
    outside = [j for j in got if not 1 <= j <= T]
    if outside:
        return None, TEXT("outside", name=name, positions=outside, T=T)
    return got, None


def _movedverdict(got: list[int], changed: int, T: int, direction: str, both: bool) -> str | None:
    """``None`` if ``got`` lists exactly the states of a ``direction`` RNN that move; else the problem.

    ``both`` says whether the exercise has two directions, so that listing the other one can be named.
    """
    later = list(range(changed, T + 1))  # a forward state j sees x_1..x_j, so it moves for j >= changed
    earlier = list(range(1, changed + 1))  # a backward state j sees x_j..x_T
    want, other = (later, earlier) if direction == "forward" else (earlier, later)
    if got == want:
        return None
    reads = "x_1, ..., x_j" if direction == "forward" else "x_j, ..., x_T"
    named = TEXT(direction)  # "forward" or "backward" in the reader's language
    if both and got == other and want != other:
        return TEXT("moved_other_direction", direction=named, reads=reads)
    if got == [j for j in want if j != changed]:
        return TEXT("moved_changed_too", direction=named, changed=changed)
    extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
    parts = []
    if extra:
        parts.append(TEXT("moved_extra", positions=extra, changed=changed))
    if missing:
        parts.append(TEXT("moved_missing", positions=missing, changed=changed))
    return TEXT("moved_wrong", direction=named, parts=TEXT("and").join(parts), reads=reads)


def check_moved_states(answer, changed: int, T: int) -> CheckResult:
    """Check the positions whose forward-RNN states move when only ``x_changed`` changes (lesson 02).

    Positions are numbered ``1..T``; the answer is a list such as ``[3, 4, 5]``. A forward state ``h_j`` depends
    on ``x_1, ..., x_j``, so exactly the states ``j >= changed`` move.
    """
    got, problem = _positions(answer, T)
    if problem:
        return CheckResult(False, problem)
    problem = _movedverdict(got, changed, T, "forward", both=False)
    if problem is None:
        moved = f"h_{T}" if changed == T else f"h_{changed}, ..., h_{T}"
        return CheckResult(True, TEXT("moved_ok", moved=moved))
    return CheckResult(False, problem)


def check_moved_halves(forward, backward, changed: int, T: int) -> CheckResult:
    """Check which halves of the bidirectional annotations move when only ``x_changed`` changes (lesson 03).

    ``forward`` and ``backward`` list positions ``1..T`` whose forward or backward half moves. The forward half
    of ``h_j`` has read ``x_1..x_j``, the backward half ``x_j..x_T``.
    """
    problems = []
    for answer, direction in ((forward, "forward"), (backward, "backward")):
        got, problem = _positions(answer, T)
        if problem is None:
            problem = _movedverdict(got, changed, T, direction, both=True)
        else:
            problem = f"{TEXT(direction)}: {problem}"
        if problem is not None:
            problems.append(problem)
    return verdict(problems, TEXT("halves_ok", changed=changed, T=T))


def _extends_where(query: np.ndarray) -> bool:
    """Whether ``query`` is the *where?* query, or a positive multiple of it, apart from its *negation* entry."""
    others = [i for i, f in enumerate(FEATURES) if f != "negation"]
    where, mine = QUERIES["where"][others], query[others]  # (F - 1,) each
    scale = float(mine @ where) / float(where @ where)
    return scale > 0 and np.allclose(mine, scale * where, **CLOSE)


def check_negation_focus(
    query,
    sentence: ToySentence = FELIX_NEGATED,
    negation_token: str | None = None,
    place_token: str | None = None,
) -> CheckResult:
    """Check that a query reads the negated sentence's *not* at least as much as *meeting room* (lesson 01).

    ``query`` is an ``(F,)`` vector over the features, for example ``QUERIES["where was it left?"] +
    feature_vector(negation=3.0)``. The verdict also reports the read's *negation* component. The two tokens are
    the sentence's strongest *negation* and *place* tokens unless given: "not" and "meeting room" in
    :data:`~attention_core.toy_sentences.FELIX_NEGATED`, "没有" and "会议室" in
    :data:`~attention_core.toy_sentences.FELIX_NEGATED_ZH`, "pas" and "bureau" in
    :data:`~attention_core.toy_sentences.FELIX_NEGATED_FR`.
    """
    negation_token, problem = _find_token(sentence, negation_token, "negation")
    if problem is None:
        place_token, problem = _find_token(sentence, place_token, "place")
    if problem is None:
        query, problem = numbers(query, TEXT("your_query"), (len(FEATURES),))
    if problem:
        return CheckResult(False, problem)
    if not _extends_where(query):
        return CheckResult(False, TEXT("negation_keep_where"))
    read = read_with_query(sentence, query)
    w_neg = float(read.weights[sentence.tokens.index(negation_token)])
    w_place = float(read.weights[sentence.tokens.index(place_token)])
    negation = float(read.context[FEATURES.index("negation")])
    neg, place = _quoted(negation_token), _quoted(place_token)
    if w_neg >= w_place - 1e-12:  # a tie counts: equal scores give equal weights
        return CheckResult(
            True, TEXT("negation_ok", neg=neg, w_neg=w_neg, place=place, w_place=w_place, negation=negation)
        )
    if query[FEATURES.index("negation")] <= 0:
        advice = TEXT("negation_positive", neg=neg)
    else:
        advice = TEXT("negation_raise")
    return CheckResult(False, TEXT("negation_wrong", neg=neg, w_neg=w_neg, place=place, w_place=w_place, advice=advice))
