"""Self-checks for the exercises of lessons 01-04: they run the reader's answer and say what is wrong.

Each check returns the book's shared :class:`~attention_core.checks.state.CheckResult` (``ok`` and a
``message`` that displays as a verdict): which case failed and a hint that names the likely mistake. Checks
never raise on a wrong answer; an exception inside the reader's function is reported as a failed case.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE
from ..read_variants import raw_score_read
from ..reading import attend, softmax
from ..rnn import RNNParams, rnn_cell
from ..toy_sentences import FEATURES, FELIX, FELIX_NEGATED, ToySentence, read_with_query
from .base import CheckResult, run_reader, verdict


def _fmt(x) -> str:
    return np.array2string(np.asarray(x, dtype=float), precision=4, separator=", ", suppress_small=True)


def check_softmax(my_softmax: Callable) -> CheckResult:
    r"""Check a reader's softmax ``my_softmax(scores) -> weights`` (lesson 04, equation eq-softmax).

    Cases: ordinary scores; large scores ``[1000, 1001]`` and ``[-1000, -1001]`` (overflow, underflow); a single
    position; a common shift; a 2-D input ``(N, T)`` that must be normalised along the last axis.
    """
    if not callable(my_softmax):
        return CheckResult(False, f"pass your function itself, got {type(my_softmax).__name__}")
    cases = [
        ("[1, 2, 3]", np.array([1.0, 2.0, 3.0])),
        ("[1000, 1001]", np.array([1000.0, 1001.0])),
        ("[-1000, -1001]", np.array([-1000.0, -1001.0])),
        ("a single position [5]", np.array([5.0])),
        ("[101, 102, 103] (the first case shifted by 100)", np.array([101.0, 102.0, 103.0])),
        ("the 2-D input [[1, 2, 3], [0, 0, 0]]", np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])),
    ]
    problems = []
    for label, e in cases:
        got, err = run_reader(my_softmax, e.copy(), numeric=True)
        want = softmax(e)
        if err:
            problems.append(f"for {label} your function failed: {err}")
            continue
        if got.shape != want.shape:
            problems.append(f"for {label} you returned shape {got.shape}, expected {want.shape} (one weight per score)")
            continue
        if not np.all(np.isfinite(got)):
            problems.append(
                f"your weights for {label} contain nan or inf ({_fmt(got)}): exp overflows or underflows; "
                "subtract the maximum score before exp (this does not change the weights)"
            )
            continue
        if np.allclose(got, want, atol=1e-8):
            continue
        if e.ndim == 2 and np.isclose(got.sum(), 1.0) and not np.allclose(got.sum(axis=-1), 1.0):
            problems.append(
                f"for {label} your weights sum to one over the whole array; normalise each row separately "
                "(sum over the last axis, the source positions, with keepdims=True)"
            )
        elif np.any(got < 0):
            problems.append(f"for {label} some weights are negative ({_fmt(got)}); softmax weights are all positive")
        elif not np.allclose(got.sum(axis=-1), 1.0):
            problems.append(
                f"for {label} your weights sum to {_fmt(got.sum(axis=-1))}, not 1: divide exp(e_j) by the sum over "
                "all positions"
            )
        else:
            problems.append(f"for {label} you returned {_fmt(got)}, expected {_fmt(want)}")
    return verdict(
        problems, f"your softmax matches the core on all {len(cases)} inputs, including [1000, 1001] and 2-D"
    )


def check_context(my_context, scores, H=None) -> CheckResult:
    r"""Check a context vector the reader computed by hand: ``c = sum_j softmax(e)_j h_j`` (eq-context).

    ``my_context`` is the reader's answer ``(d_h,)``; ``scores`` ``(T,)``; ``H`` defaults to the worked
    example's annotations :data:`attention_core.H_EXAMPLE` ``(3, 2)``.
    """
    Hm = H_EXAMPLE if H is None else np.asarray(H, dtype=float)
    e = np.asarray(scores, dtype=float)
    _, want = attend(e, Hm)  # (d_h,)
    got, err = run_reader(lambda: my_context, numeric=True)
    if err:
        return CheckResult(False, err)
    if got.shape != want.shape:
        msg = f"your context has shape {got.shape}; it must have the width of one annotation, {want.shape}"
        if got.shape == e.shape:
            msg += " (you may have returned the weights instead of the weighted sum of the h_j)"
        return CheckResult(False, msg)
    if np.allclose(got, want, atol=5e-4):
        return CheckResult(True, f"your context {_fmt(got)} is the soft read sum_j softmax(e)_j h_j")
    if np.allclose(got, raw_score_read(e, Hm), atol=5e-4):
        hint = "you weighted the h_j by the raw scores; turn the scores into weights with softmax first"
    elif np.allclose(got, Hm.mean(axis=0), atol=5e-4):
        hint = "that is the plain average of the h_j, which ignores the scores"
    elif np.allclose(got, Hm[np.argmax(e)], atol=5e-4):
        hint = "that is the single annotation with the highest score (a hard read); the soft read mixes all of them"
    else:
        gap = float(np.linalg.norm(got - want))
        hint = f"it is {gap:.3f} away from sum_j softmax(e)_j h_j; compute the weights first, then the weighted sum"
    return CheckResult(False, f"your context {_fmt(got)} is not the soft read: {hint}")


def check_rnn_cell(my_cell: Callable) -> CheckResult:
    r"""Check a reader's tanh cell ``my_cell(x, h_prev, W_x, W_h, b) -> h`` (lesson 02).

    The reference is :func:`attention_core.rnn.rnn_cell`, ``h_j = tanh(W_x x_j + W_h h_{j-1} + b)``, with
    ``x`` ``(d_e,)``, ``h_prev`` ``(d_h,)``, ``W_x`` ``(d_h, d_e)``, ``W_h`` ``(d_h, d_h)``, ``b`` ``(d_h,)``.
    """
    if not callable(my_cell):
        return CheckResult(False, f"pass your function itself, got {type(my_cell).__name__}")
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
            problems.append(f"case {case + 1}: your function failed: {err}")
            break
        if got.shape != want.shape:
            problems.append(f"case {case + 1}: you returned shape {got.shape}, expected {want.shape} (d_h,)")
            break
        if np.allclose(got, want):
            continue
        pre = W_x @ x + W_h @ h + b  # (d_h,)
        if np.allclose(got, pre):
            hint = "you returned the pre-activation; apply np.tanh to it"
        elif np.allclose(got, np.tanh(W_x @ x + b)):
            hint = "your new state ignores h_prev: add W_h @ h_prev, that term is what carries earlier inputs"
        elif np.allclose(got, np.tanh(W_x @ x + W_h @ h)):
            hint = "you left out the bias b"
        elif np.allclose(got, np.tanh(W_x @ x + W_h.T @ h + b)):
            hint = "you used W_h transposed; the convention here is W_h @ h_prev"
        else:
            hint = f"expected {_fmt(want)}, got {_fmt(got)}"
        problems.append(f"case {case + 1}: {hint}")
        break
    return verdict(problems, f"your cell matches tanh(W_x x + W_h h_prev + b) on {n_cases} random cases")


def check_stored_floats(answer, T: int, d_dir: int) -> CheckResult:
    """Check the reader's count of numbers a bidirectional encoder keeps for ``T`` positions (lesson 03).

    Each annotation concatenates a forward and a backward state of width ``d_dir``, so the answer is
    ``T * 2 * d_dir``.
    """
    want = T * 2 * d_dir
    try:
        got = float(answer)
    except (TypeError, ValueError):
        return CheckResult(False, f"give a number, got {type(answer).__name__}")
    if got == want:
        return CheckResult(True, f"{got:g} numbers: T = {T} annotations of 2 x {d_dir} each")
    if got == T * d_dir:
        hint = "you counted one direction; each annotation concatenates a forward and a backward state"
    elif got == 2 * d_dir:
        hint = "that is one annotation (or one context vector); the decoder keeps all T annotations to re-read"
    elif got == d_dir:
        hint = "that is one state of one direction, the size of a fixed summary; count every position"
    else:
        hint = f"count T positions times the width of one annotation (2 x {d_dir})"
    return CheckResult(False, f"{got:g} is not right: {hint}")


def check_query_focus(query, token: str = "yesterday", sentence: ToySentence = FELIX, at_least: float = 0.5):
    """Check that a reader's query puts at least ``at_least`` of its weight on ``token`` (lesson 01).

    ``query`` is an ``(F,)`` vector over :data:`attention_core.toy_sentences.FEATURES`, for example built with
    ``feature_vector(time=3.0)``.
    """
    if token not in sentence.tokens:
        return CheckResult(False, f"{token!r} is not a token of {sentence.text!r}")
    try:
        read = read_with_query(sentence, query)
    except (TypeError, ValueError) as exc:
        return CheckResult(False, f"your query could not be used: {exc}")
    j = sentence.tokens.index(token)
    w = float(read.weights[j])
    if w >= at_least:
        return CheckResult(True, f"your query gives {token!r} weight {w:.3f}")
    top = sentence.tokens[int(np.argmax(read.weights))]
    if top == token:
        advice = "it already has the highest weight, but the weight is spread out: make the query's entries larger"
    else:
        advice = f"the highest weight goes to {top!r}: raise the query's entry for the feature(s) {token!r} has"
    hint = f"your query gives {token!r} weight {w:.3f} (needs >= {at_least}); {advice}"
    return CheckResult(False, hint)


def _positions(answer, name: str, T: int) -> list[int]:
    try:
        got = sorted({int(x) for x in np.ravel(np.asarray(answer, dtype=float))})
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a list of positions numbered 1..{T}, such as [1, 2], got {answer!r}") from None
    if any(not 1 <= j <= T for j in got):
        raise ValueError(f"{name} must hold positions between 1 and T = {T}, got {got}")
    return got


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
    if both and got == other and want != other:
        return f"{direction} states: you listed the other direction's states; a {direction} state h_j has read {reads}"
    if got == [j for j in want if j != changed]:
        return f"{direction} states: the state at the changed position {changed} moves too: it reads x_{changed} itself"
    extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
    parts = []
    if extra:
        parts.append(f"the states at {extra} have not read x_{changed}, so they cannot move")
    if missing:
        parts.append(f"the states at {missing} have read x_{changed}, so they move")
    return f"{direction} states: " + " and ".join(parts) + f" (a {direction} state h_j has read {reads})"


def check_moved_states(answer, changed: int, T: int) -> CheckResult:
    """Check the positions whose forward-RNN states move when only ``x_changed`` changes (lesson 02).

    Positions are numbered ``1..T``; the answer is a list such as ``[3, 4, 5]``. A forward state ``h_j`` depends
    on ``x_1, ..., x_j``, so exactly the states ``j >= changed`` move.
    """
    got = _positions(answer, "answer", T)
    problem = _movedverdict(got, changed, T, "forward", both=False)
    if problem is None:
        moved = f"h_{T}" if changed == T else f"h_{changed}, ..., h_{T}"
        return CheckResult(True, f"only {moved} can move: a forward state never sees later inputs")
    return CheckResult(False, problem)


def check_moved_halves(forward, backward, changed: int, T: int) -> CheckResult:
    """Check which halves of the bidirectional annotations move when only ``x_changed`` changes (lesson 03).

    ``forward`` and ``backward`` list positions ``1..T`` whose forward or backward half moves. The forward half
    of ``h_j`` has read ``x_1..x_j``, the backward half ``x_j..x_T``.
    """
    problems = [
        p
        for p in (
            _movedverdict(_positions(forward, "forward", T), changed, T, "forward", both=True),
            _movedverdict(_positions(backward, "backward", T), changed, T, "backward", both=True),
        )
        if p is not None
    ]
    return verdict(problems, f"forward halves of h_{changed}..h_{T} and backward halves of h_1..h_{changed} move")


def check_negation_focus(query, sentence: ToySentence = FELIX_NEGATED) -> CheckResult:
    """Check that a query reads the negated sentence's *not* at least as much as *meeting room* (lesson 01).

    ``query`` is an ``(F,)`` vector over the features, for example ``QUERIES["where was it left?"] +
    feature_vector(negation=3.0)``. The verdict also reports the read's *negation* component.
    """
    try:
        read = read_with_query(sentence, query)
    except (TypeError, ValueError) as exc:
        return CheckResult(False, f"your query could not be used: {exc}")
    w_not = float(read.weights[sentence.tokens.index("not")])
    w_room = float(read.weights[sentence.tokens.index("meeting room")])
    negation = float(read.context[FEATURES.index("negation")])
    if w_not >= w_room - 1e-12:  # a tie counts: equal scores give equal weights
        return CheckResult(
            True,
            f"'not' gets {w_not:.3f}, 'meeting room' {w_room:.3f}; the read's negation component is {negation:.3f}",
        )
    if query is not None and np.asarray(query, dtype=float)[FEATURES.index("negation")] <= 0:
        advice = "give the query a positive entry for the 'negation' feature, the only feature 'not' has"
    else:
        advice = "raise the query's 'negation' entry (or lower its 'place' entry)"
    return CheckResult(False, f"'not' gets {w_not:.3f} but 'meeting room' still gets {w_room:.3f}; {advice}")
