"""Self-checks for the exercises of lesson 09, an encoder without recurrence: read the reader's answer and say what
is wrong.

Each check returns a :class:`~attention_core.checks.base.CheckResult` and never raises; the reader's answer is
read through :func:`~attention_core.checks.base.numbers`, so text, ``None``, NaN or a wrong count gets one message
quoting what was given. A wrong answer is never told the right one: a message names the slip (no scaling, the
wrong scale, no softmax, the permutation read backwards) or says which entries differ. Every message comes from
the module's :class:`~attention_core.lang.Messages` (English, translated by its PO files).
"""

from __future__ import annotations

import numpy as np

from ..lang import Messages
from ..reading import softmax
from ..scores import dot_scores
from .base import CLOSE, CheckResult, numbers
from .scoring import _report

TEXT = Messages(
    __name__,
    {
        # check_scaled_weights
        "your_weights": "your weights",
        "weights_ok": "The scores q^T k_j / sqrt({d}) are {scores}; softmax makes them the weights {weights}.",
        "unscaled": "these are the weights of the unscaled scores q^T k_j: divide each score by sqrt(d) first.",
        "by_d": "you divided the scores by d = {d}; the scale is sqrt(d).",
        "no_softmax": "these are scores, not weights: they do not sum to 1. Apply softmax to them.",
        "not_one": "your weights sum to {total}, not 1: softmax divides each exponential by the sum of all of them.",
        "weights_wrong": "your weights sum to 1 but are not softmax(q^T k_j / sqrt(d)): recompute the three scores.",
        # check_permuted_rows
        "your_positions": "your positions",
        "not_whole": "{name}: {given} holds a number that is not a whole position",
        "rows_ok": (
            "The new positions 1..{T} hold the words of the old positions {positions}, and without positions each "
            "word's output moves with the word, whatever the order."
        ),
        "rows_inverse": (
            "you gave, for each old position, where its word went: the question asks, for each new position k, "
            "where its word was before."
        ),
        "rows_identity": (
            "outputs that stay in place would mean the encoder knows the order; without positions each word's output "
            "moves with the word."
        ),
        "rows_from_zero": "you counted positions from 0; the lesson numbers them 1..{T}.",
        "rows_wrong": "{n} of your {T} positions do not name where the word at that new position stood before.",
    },
)

# Exercise 09.1: one query against three keys, width d = 2 (the lesson prints them)
QUERY = np.array([1.0, 2.0])  # (d,)
KEYS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (T, d): k_1, k_2, k_3 as rows
# Exercise 09.2: the new sentence x_3 x_1 x_5 x_2 x_4 (new position k holds the old word ORDER[k - 1])
ORDER = (3, 1, 5, 2, 4)


def check_scaled_weights(answer, q=QUERY, K=KEYS) -> CheckResult:
    r"""Check the weights ``alpha_j = softmax_j(q^T k_j / sqrt(d))`` of one query ``q`` ``(d,)`` against the keys
    ``K`` ``(T, d)`` (rows), given as ``T`` numbers."""
    q, K = np.asarray(q, dtype=float), np.asarray(K, dtype=float)
    T, d = K.shape
    got, problem = numbers(answer, TEXT("your_weights"), (T,))
    if problem:
        return _report(False, problem)
    raw = dot_scores(q, K)  # (T,): q^T k_j
    scores = raw / np.sqrt(d)
    weights = softmax(scores)
    if np.allclose(got, weights, **CLOSE):
        return _report(
            True, TEXT("weights_ok", d=d, scores=np.round(scores, 4).tolist(), weights=np.round(weights, 4).tolist())
        )
    if np.allclose(got, softmax(raw), **CLOSE):
        return _report(False, TEXT("unscaled"))
    if np.allclose(got, softmax(raw / d), **CLOSE):
        return _report(False, TEXT("by_d", d=d))
    if any(np.allclose(got, s, **CLOSE) for s in (raw, scores, raw / d)):
        return _report(False, TEXT("no_softmax"))
    total = float(got.sum())
    if not np.isclose(total, 1.0, **CLOSE):
        return _report(False, TEXT("not_one", total=f"{total:.4f}"))
    return _report(False, TEXT("weights_wrong"))


def check_permuted_rows(answer, order=ORDER) -> CheckResult:
    """Check, for each new position ``k`` of a reordered sentence (new position ``k`` holds the old word
    ``order[k - 1]``), the old position whose encoder output an encoder without positions gives at ``k``: ``order``
    itself, numbered from 1."""
    order = [int(j) for j in order]
    T = len(order)
    got, problem = numbers(answer, TEXT("your_positions"), (T,))
    if problem:
        return _report(False, problem)
    if not np.array_equal(got, np.round(got)):
        return _report(False, TEXT("not_whole", name=TEXT("your_positions"), given=got.tolist()))
    got = [int(j) for j in got]
    if got == order:
        return _report(True, TEXT("rows_ok", T=T, positions=order))
    inverse = [order.index(j) + 1 for j in range(1, T + 1)]  # where old position j went
    if got == inverse:
        return _report(False, TEXT("rows_inverse"))
    if got == list(range(1, T + 1)):
        return _report(False, TEXT("rows_identity"))
    if got == [j - 1 for j in order]:
        return _report(False, TEXT("rows_from_zero", T=T))
    return _report(False, TEXT("rows_wrong", n=sum(a != b for a, b in zip(got, order, strict=True)), T=T))
