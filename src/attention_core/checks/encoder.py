"""Self-checks for the exercises of lesson 09, an encoder without recurrence: read the reader's answer and say what
is wrong.

Each check is a pure decision (kept as its ``.decide``) made into the check a reader calls by
:func:`~attention_core.checks.base.self_check` (see :mod:`.base`: the first wrong answer a hint, the second its
detail, the answer after :data:`~attention_core.checks.base.REVEAL_AFTER` wrong answers or on request). The reader's
answer is read through :func:`~attention_core.checks.base.numbers`, so text, ``None``, NaN or a wrong count gets one
message quoting what was given and is not counted as a try. A hint names the slip (no scaling, the wrong scale, no
softmax, the permutation read backwards) without the right numbers. Every message comes from the module's
:class:`~attention_core.lang.Messages` (English, translated by its PO files).

Both answers are values, so the website decides them in the page too (``book/_assets/ae-checks.js``, key for key,
from the numbers of :func:`scaled_weights_given` and :func:`permuted_rows_given`, which each ``decide`` reads):

- 09.1, :func:`check_scaled_weights`: ``T`` finite numbers; right when within :data:`~.base.CLOSE` of
  ``softmax(q^T k_j / sqrt(d))``. Else, in this order: the weights of the unscaled scores (``unscaled``); of the
  scores divided by ``d`` (``by_d``); the raw, scaled or ``d``-divided scores themselves (``no_softmax``); a sum
  other than 1 (``not_one``); anything else (``weights_wrong``).
- 09.2, :func:`check_permuted_rows`: ``T`` whole numbers; right when they are the reordering itself. Else, in this
  order: its inverse (``rows_inverse``); ``1..T`` (``rows_identity``); the reordering counted from 0
  (``rows_from_zero``); how many positions differ (``rows_wrong``).
"""

from __future__ import annotations

import numpy as np

from ..lang import Messages
from ..reading import softmax
from ..scores import dot_scores
from .base import CLOSE, Finding, Problem, Say, malformed, numbers, positions, quote, right, self_check, wrong

TEXT = Messages(
    __name__,
    {
        # check_scaled_weights
        "query_and_keys": (
            "the query q must be d finite numbers and the keys K an array of T rows of d finite numbers, one key per "
            "row; got {q} and {K}"
        ),
        "your_weights": "your weights",
        "weights_ok": "The scores q^T k_j / sqrt({d}) are {scores}; softmax makes them the weights {weights}.",
        "unscaled": "these weights are sharper than the lesson's read: what happens to the scores before softmax?",
        "unscaled_detail": "These are the weights of the unscaled scores q^T k_j: divide each score by sqrt(d) first.",
        "by_d": "your scores were shrunk too much before softmax.",
        "by_d_detail": "You divided the scores by d = {d}; the scale is sqrt(d).",
        "no_softmax": "these are scores, not weights: they do not sum to 1.",
        "no_softmax_detail": "Apply softmax to the scaled scores.",
        "not_one": "your weights sum to {total}, not 1.",
        "not_one_detail": "Softmax divides each exponential by the sum of all of them.",
        "weights_wrong": "your weights sum to 1 but are not softmax(q^T k_j / sqrt(d)).",
        "weights_wrong_detail": "Recompute the three dot products q^T k_j from the vectors the lesson prints.",
        # check_permuted_rows
        "not_an_order": "the reordering must list each of the positions 1..T once, in its new order; got {given}",
        "your_positions": "your positions",
        "not_whole": "{name}: {given} holds a number that is not a whole position",
        "rows_ok": (
            "The new positions 1..{T} hold the words of the old positions {positions}, and without positions each "
            "word's output moves with the word, whatever the order."
        ),
        "rows_inverse": "you read the reordering in the other direction.",
        "rows_inverse_detail": (
            "You gave, for each old position, where its word went: the question asks, for each new position k, "
            "where its word was before."
        ),
        "rows_identity": "outputs that stay in place would mean the encoder knows the order.",
        "rows_identity_detail": "Without positions each word's output moves with the word.",
        "rows_from_zero": "your positions are one off: how does the lesson number the positions?",
        "rows_from_zero_detail": "You counted positions from 0; the lesson numbers them 1..{T}.",
        "rows_wrong": "{n} of your {T} positions do not name where the word at that new position stood before.",
        "rows_wrong_detail": "New position k holds the word the lesson's reordering puts there: follow each word.",
    },
)

# Exercise 09.1: one query against three keys, width d = 2 (the lesson prints them)
QUERY = np.array([1.0, 2.0])  # (d,)
KEYS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (T, d): k_1, k_2, k_3 as rows
# Exercise 09.2: the new sentence x_3 x_1 x_5 x_2 x_4 (new position k holds the old word ORDER[k - 1])
ORDER = (3, 1, 5, 2, 4)
QUERY.flags.writeable = KEYS.flags.writeable = False  # shared by every call: read-only, as the package's constants


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


def scaled_weights_given(q=QUERY, K=KEYS) -> tuple[dict | None, Say | None]:
    """What :func:`check_scaled_weights` decides with: the query ``q`` ``(d,)``, the keys ``K`` ``(T, d)``, ``d``,
    the raw scores ``q^T k_j`` and the scaled ones ``/ sqrt(d)`` ``(T,)``, their weights ``(T,)``, the weights and
    scores of the slips it names (``unscaled``: softmax of the raw scores; ``by_d``: of the scores divided by ``d``,
    and those scores, ``by_d_scores``) and the tolerance :data:`~.base.CLOSE`; or ``(None, problem)`` when ``q`` and
    ``K`` are not a query and keys of one width of finite numbers."""
    try:
        q, K = np.asarray(q, dtype=float), np.asarray(K, dtype=float)
        fits = q.ndim == 1 and K.ndim == 2 and q.size > 0 and K.shape[0] > 0 and K.shape[1] == q.size
        fits = fits and bool(np.isfinite(q).all() and np.isfinite(K).all())
    except Exception:  # not numbers at all
        fits = False
    if not fits:
        return None, _say("query_and_keys", q=quote(q), K=quote(K))
    T, d = K.shape
    raw = dot_scores(q, K)  # (T,): q^T k_j
    scores = raw / np.sqrt(d)  # (T,)
    return {
        "q": q,
        "K": K,
        "d": int(d),
        "raw": raw,
        "scores": scores,
        "weights": softmax(scores),  # (T,)
        "unscaled": softmax(raw),  # (T,)
        "by_d": softmax(raw / d),  # (T,)
        "by_d_scores": raw / d,  # (T,)
        "close": CLOSE,
    }, None


@self_check(given=scaled_weights_given)
def check_scaled_weights(answer, q=QUERY, K=KEYS) -> Finding:
    r"""Check the weights ``alpha_j = softmax_j(q^T k_j / sqrt(d))`` of one query ``q`` ``(d,)`` against the keys
    ``K`` ``(T, d)`` (rows), given as ``T`` numbers, each within :data:`~.base.CLOSE` (six decimals are enough)."""
    g, problem = scaled_weights_given(q, K)
    if problem:
        return malformed(problem)
    d, weights, close = g["d"], g["weights"], g["close"]
    the_answer = str(np.round(weights, 4).tolist())
    got, problem = numbers(answer, TEXT("your_weights"), weights.shape)
    if problem:
        return malformed(problem, the_answer)
    if np.allclose(got, weights, **close):
        ok = _say("weights_ok", d=d, scores=np.round(g["scores"], 4).tolist(), weights=np.round(weights, 4).tolist())
        return right(ok, the_answer)
    if np.allclose(got, g["unscaled"], **close):
        return wrong(Problem(_say("unscaled"), _say("unscaled_detail")), answer=the_answer)
    if np.allclose(got, g["by_d"], **close):
        return wrong(Problem(_say("by_d"), _say("by_d_detail", d=d)), answer=the_answer)
    if any(np.allclose(got, g[s], **close) for s in ("raw", "scores", "by_d_scores")):
        return wrong(Problem(_say("no_softmax"), _say("no_softmax_detail")), answer=the_answer)
    total = float(got.sum())
    if not np.isclose(total, 1.0, **close):
        return wrong(Problem(_say("not_one", total=f"{total:.4f}"), _say("not_one_detail")), answer=the_answer)
    return wrong(Problem(_say("weights_wrong"), _say("weights_wrong_detail")), answer=the_answer)


def permuted_rows_given(order=ORDER) -> tuple[dict | None, Say | None]:
    """What :func:`check_permuted_rows` decides with: the reordering ``order`` (new position ``k`` holds the old word
    ``order[k - 1]``), ``T`` and its ``inverse`` (``inverse[j - 1]``: where old position ``j`` went); or
    ``(None, problem)`` when ``order`` does not list each of ``1..T`` once."""
    sorted_order, problem = positions(order, "order")
    if problem or not sorted_order or sorted_order != list(range(1, len(sorted_order) + 1)):
        return None, _say("not_an_order", given=quote(order))
    order = [int(j) for j in order]
    T = len(order)
    inverse = [order.index(j) + 1 for j in range(1, T + 1)]
    return {"order": order, "T": T, "inverse": inverse}, None


@self_check(given=permuted_rows_given)
def check_permuted_rows(answer, order=ORDER) -> Finding:
    """Check, for each new position ``k`` of a reordered sentence (new position ``k`` holds the old word
    ``order[k - 1]``), the old position whose encoder output an encoder without positions gives at ``k``: ``order``
    itself, numbered from 1."""
    g, problem = permuted_rows_given(order)
    if problem:
        return malformed(problem)
    order, T = g["order"], g["T"]
    the_answer = str(order)
    got, problem = numbers(answer, TEXT("your_positions"), (T,))
    if problem:
        return malformed(problem, the_answer)
    if not np.array_equal(got, np.round(got)):
        return malformed(_say("not_whole", name=TEXT("your_positions"), given=got.tolist()), the_answer)
    got = [int(j) for j in got]
    if got == order:
        return right(_say("rows_ok", T=T, positions=order), the_answer)
    if got == g["inverse"]:
        return wrong(Problem(_say("rows_inverse"), _say("rows_inverse_detail")), answer=the_answer)
    if got == list(range(1, T + 1)):
        return wrong(Problem(_say("rows_identity"), _say("rows_identity_detail")), answer=the_answer)
    if got == [j - 1 for j in order]:
        return wrong(Problem(_say("rows_from_zero"), _say("rows_from_zero_detail", T=T)), answer=the_answer)
    n = sum(a != b for a, b in zip(got, order, strict=True))
    return wrong(Problem(_say("rows_wrong", n=n, T=T), _say("rows_wrong_detail")), answer=the_answer)
