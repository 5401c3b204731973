"""Self-checks for the exercises of lessons 05 and 08: run the reader's answer and say what is wrong.

Each check calls the reader's function on several inputs (the worked example, rectangular random shapes that
expose transposed matrices, a one-position edge case, large and far-apart inputs whose largest score sits first,
last, in the middle and tied), compares with the core, and gives one specific verdict (see :mod:`.base`: the first
wrong answer a hint, the second its detail, the third the answer). A function that still raises
``NotImplementedError`` is reported as "not answered yet", so an exercise cell can run before it is solved. Every
message, the names of the cases included, comes from the module's :class:`~attention_core.lang.Messages` (English,
translated by its PO files).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, V_EXAMPLE, W_H_EXAMPLE, W_S_EXAMPLE
from ..lang import Messages
from ..reading import softmax
from ..scores import additive_scores
from ..self_attention import causal_mask
from . import base
from .base import CLOSE, Finding, Problem, Say, both, failure, fmt, quote, right, run_reader, self_check, wrong

TEXT = Messages(
    __name__,
    {
        # check_additive_score: the cases, then the verdicts ("on the worked example ..."; in Chinese "算例：...")
        "additive_example": "worked example (s = -1, h_1 = (2, 0))",
        "additive_random": "random case with d_s = 3, d_h = 4, d_a = 5 and a nonzero b",
        "additive_big": "same case scaled by 20 (tanh saturates)",
        "additive_one": "case with d_a = 1",
        "additive_shapes_hint": "Check the shapes: W_s is (d_a, d_s), so W_s s is W_s @ s.",
        "additive_shape": "on the {case}: it returned shape {shape}; the score is one number.",
        "additive_shape_detail": "Did you forget the final dot product with v?",
        "additive_values": "You returned {value:.6f}, expected {expected:.6f}.",
        "additive_no_tanh": "on the {case}: your score is linear in s and h; the nonlinearity is missing.",
        "additive_no_tanh_detail": "The tanh acts on W_s s + W_h h + b, before the dot product with v.",
        "additive_no_bias": "on the {case}: one term inside the tanh is missing.",
        "additive_no_bias_detail": "The bias b is missing.",
        "additive_tanh_after": "on the {case}: the tanh is not where the additive score puts it.",
        "additive_tanh_after_detail": (
            "Apply it to each component of W_s s + W_h h + b, then take the dot product with v."
        ),
        "additive_summed": "on the {case}: v plays no part in your score.",
        "additive_summed_detail": "The components of tanh(...) are summed instead of weighted by v.",
        "additive_wrong": "on the {case}: your score is not v^T tanh(W_s s + W_h h + b).",
        "additive_ok": "All {n} cases match e = v^T tanh(W_s s + W_h h + b).",
        # check_linear_ablation
        "ablation_example": "worked example",
        "ablation_random": "random case with T = 4, d_h = 3, d_a = 2",
        "ablation_one": "case with a single position (T = 1)",
        "ablation_big": "random case scaled by 30 (scores near 1000)",
        "ablation_far": "case whose scores are {scores}",
        "ablation_shape": "on the {case}: it returned shape {shape}; expected ({T},), one weight per position.",
        "ablation_nonfinite": "on the {case}: it returned non-finite weights {weights}; exp overflows there.",
        "ablation_nonfinite_detail": "Subtract the largest score before exp: it changes no weight.",
        "ablation_scores": "on the {case}: you returned the scores v^T W_h h_j, not weights.",
        "ablation_scores_detail": "Pass them through softmax.",
        "ablation_sum": "on the {case}: your weights sum to {total:.6f}, not 1.",
        "ablation_sum_detail": "Divide exp(e_j) by the sum of exp(e_k) over the positions.",
        "ablation_wrong": "on the {case}: your weights are not softmax_j(v^T W_h h_j).",
        "ablation_wrong_detail": "You returned {got}, expected {want}.",
        "ablation_ok": "The weights match softmax_j(v^T W_h h_j), the same for every state s.",
        # check_causal_mask
        "mask_case": "case T = {T}",
        "mask_shape": "for T = {T} it returned shape {shape}; expected ({T}, {T}).",
        "mask_not_array": "for T = {T} it returned {given}, which is not an array of booleans.",
        "mask_dtype": "for T = {T} it returned dtype {dtype}; softmax wants a boolean mask.",
        "mask_dtype_detail": "Add dtype=bool.",
        "mask_transposed": "for T = {T} your mask lets a position read the later positions instead of the earlier.",
        "mask_transposed_detail": (
            "It is transposed: row i is the reading position, so keep j <= i (the lower triangle)."
        ),
        "mask_diagonal": "for T = {T} your mask does not let a position read itself.",
        "mask_diagonal_detail": "The diagonal must be True (j = i).",
        "mask_swapped": "for T = {T} your mask marks the hidden positions instead of the readable ones.",
        "mask_swapped_detail": "True means 'may be read'.",
        "mask_wrong": "for T = {T} your mask does not let position i read exactly the positions j <= i.",
        "mask_wrong_detail": "You returned {got}, expected {want}.",
        "mask_ok": "The mask lets position i read exactly the positions j <= i.",
    },
)


def _say(key: str, **values) -> Say:
    return Say(TEXT, key, values)


# ------------------------------------------------------------------------------------ 05.1 the additive score
def _additive_cases():
    rng = np.random.default_rng(5)
    d_s, d_h, d_a = 3, 4, 5  # all different, so a transposed matrix cannot multiply silently
    rect = (
        rng.normal(size=d_s),
        rng.normal(size=d_h),
        rng.normal(size=(d_a, d_s)),
        rng.normal(size=(d_a, d_h)),
        rng.normal(size=d_a),
        rng.normal(size=d_a),
    )
    big = tuple(20.0 * x for x in rect)  # saturates tanh: the score stays bounded by sum |v|
    one = (  # d_a = 1: the hidden layer has a single unit; a negative v gives a negative score
        np.array([0.5]),
        np.array([-1.0, 2.0]),
        np.array([[2.0]]),
        np.array([[1.0, 1.0]]),
        np.array([-1.5]),
        np.array([0.3]),
    )
    example = (np.array([-1.0]), H_EXAMPLE[0], W_S_EXAMPLE, W_H_EXAMPLE, V_EXAMPLE, np.zeros(2))
    return [
        (TEXT("additive_example"), example),
        (TEXT("additive_random"), rect),
        (TEXT("additive_big"), big),
        (TEXT("additive_one"), one),
    ]


def _reference_additive(s, h, W_s, W_h, v, b, nonlinearity=np.tanh):
    return float(additive_scores(s, h[None, :], W_s, W_h, v, b, nonlinearity)[0])


@self_check
def check_additive_score(fn: Callable) -> Finding:
    r"""Check ``fn(s, h, W_s, W_h, v, b)`` computes ``e = v^T tanh(W_s s + W_h h + b)`` for one ``s`` and ``h``.

    Arguments are 1-D arrays for the column vectors ``s (d_s,)``, ``h (d_h,)``, ``v, b (d_a,)`` and 2-D arrays
    ``W_s (d_a, d_s)``, ``W_h (d_a, d_h)``; the answer must be one number.
    """
    answer = "return v @ np.tanh(W_s @ s + W_h @ h + b)"
    cases = _additive_cases()
    for case, args in cases:
        result, err = run_reader(fn, *(np.array(a, copy=True) for a in args), case=case, numeric=True)
        if err:
            shapes = err.key == "raised" and any(
                word in str(err.values.get("detail", "")) for word in ("shape", "align", "mismatch", "dimension")
            )
            said = both(err, _say("additive_shapes_hint")) if shapes else err
            return failure(said, answer)
        if result.shape not in ((), (1,)):
            hint = _say("additive_shape", case=case, shape=result.shape)
            return wrong(Problem(hint, _say("additive_shape_detail")), answer=answer)
        value = float(result.reshape(()))
        expected = _reference_additive(*args)
        if np.isclose(value, expected, **CLOSE):
            continue
        s, h, W_s, W_h, v, b = args
        z = W_s @ s + W_h @ h + b  # (d_a,)
        values = _say("additive_values", value=value, expected=expected)
        diagnoses = [
            (float(v @ z), "additive_no_tanh"),
            (_reference_additive(s, h, W_s, W_h, v, np.zeros_like(b)), "additive_no_bias"),
            (float(np.tanh(v @ z)), "additive_tanh_after"),
            (float(np.sum(np.tanh(z))), "additive_summed"),
        ]
        for slip, key in diagnoses:
            if np.isclose(value, slip, **CLOSE):
                return wrong(Problem(_say(key, case=case), both(values, _say(f"{key}_detail"))), answer=answer)
        return wrong(Problem(_say("additive_wrong", case=case), values), answer=answer)
    return right(_say("additive_ok", n=len(cases)), answer)


# ------------------------------------------------------------------------------------ 05.2 the ablation's weights
def _far(scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(H, W_h, v)`` whose scores ``v^T W_h h_j`` are ``scores``: ``W_h`` picks the first two of three features
    (a rectangular ``(2, 3)``, so a transposed ``W_h`` cannot multiply) and ``v = (1, 0.5)``."""
    scores = np.asarray(scores, dtype=float)
    H = np.stack([scores, np.zeros_like(scores), np.arange(len(scores), dtype=float)], axis=1)  # (T, 3)
    return H, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), np.array([1.0, 0.5])


def _ablation_cases():
    rng = np.random.default_rng(6)
    H, W_h, v = rng.normal(size=(4, 3)), rng.normal(size=(2, 3)), rng.normal(size=2)
    far = ([-1000.0, 1000.0, 1000.0, -1000.0], [1000.0, -1000.0, 0.0])  # largest tied in the middle; first
    return [
        (TEXT("ablation_example"), (H_EXAMPLE, W_H_EXAMPLE, V_EXAMPLE)),  # three equal scores
        (TEXT("ablation_random"), (H, W_h, v)),
        (TEXT("ablation_one"), (H[:1], W_h, v)),
        (TEXT("ablation_big"), (30.0 * H, 30.0 * W_h, v)),
        *((TEXT("ablation_far", scores=_scores_label(e)), _far(e)) for e in far),
    ]


def _scores_label(e) -> str:
    return "[" + ", ".join(f"{x:g}" for x in e) + "]"


@self_check
def check_linear_ablation(fn: Callable) -> Finding:
    r"""Check ``fn(H, W_h, v)`` returns the weights of the scorer without tanh, which no longer need ``s``.

    .. math:: \alpha_j = \frac{\exp(v^\top W_h h_j)}{\sum_k \exp(v^\top W_h h_k)}

    ``H`` is ``(T, d_h)`` with the annotations as rows, ``W_h`` is ``(d_a, d_h)``, ``v`` is ``(d_a,)``; the
    answer is ``(T,)``. (That the core's linear scorer agrees with this formula is a test, not part of the check.)
    """
    answer = "e = H @ W_h.T @ v; z = np.exp(e - e.max()); return z / z.sum()"
    for case, (H, W_h, v) in _ablation_cases():
        result, err = run_reader(fn, H.copy(), W_h.copy(), v.copy(), case=case, numeric=True, finite=False)
        if err:
            return failure(err, answer)
        T = H.shape[0]
        a = result
        if a.shape != (T,):
            return wrong(Problem(_say("ablation_shape", case=case, shape=a.shape, T=T)), answer=answer)
        if not np.isfinite(a).all():
            hint = _say("ablation_nonfinite", case=case, weights=fmt(a))
            return wrong(Problem(hint, _say("ablation_nonfinite_detail")), answer=answer)
        raw = H @ W_h.T @ v  # (T,)
        expected = softmax(raw)
        if np.allclose(a, expected, **CLOSE):
            continue
        if np.allclose(a, raw, **CLOSE):
            return wrong(Problem(_say("ablation_scores", case=case), _say("ablation_scores_detail")), answer=answer)
        if not np.isclose(a.sum(), 1.0, **CLOSE):
            hint = _say("ablation_sum", case=case, total=float(a.sum()))
            return wrong(Problem(hint, _say("ablation_sum_detail")), answer=answer)
        detail = _say("ablation_wrong_detail", got=fmt(a), want=fmt(expected, cut=False))
        return wrong(Problem(_say("ablation_wrong", case=case), detail), answer=answer)
    return right(_say("ablation_ok"), answer)


# ------------------------------------------------------------------------------------ 08.1 the causal mask
def _rows(m: np.ndarray) -> str:
    """A small 0/1 matrix on one line: ``[[1 0] [1 1]]``."""
    return " ".join(np.array2string(m.astype(int), threshold=100).split())


@self_check
def check_causal_mask(fn: Callable) -> Finding:
    """Check ``fn(T)`` returns the boolean ``(T, T)`` mask with ``True`` where position ``i`` may read ``j <= i``."""
    answer = "return np.tril(np.ones((T, T), dtype=bool))"
    for T in (5, 2, 1):  # the edge case T = 1 last: there a swapped mask and a missing diagonal coincide
        result, err = run_reader(fn, T, case=TEXT("mask_case", T=T))
        if err:
            return failure(err, answer)
        m, problem = base._array(result)
        if problem is not None or m.dtype.kind == "O":
            return wrong(Problem(_say("mask_not_array", T=T, given=quote(result))), answer=answer)
        expected = causal_mask(T)
        if m.shape != (T, T):
            return wrong(Problem(_say("mask_shape", T=T, shape=m.shape)), answer=answer)
        if m.dtype != bool:
            return wrong(Problem(_say("mask_dtype", T=T, dtype=m.dtype), _say("mask_dtype_detail")), answer=answer)
        if np.array_equal(m, expected):
            continue
        slips = (
            (expected.T, "mask_transposed"),
            (np.tril(expected, k=-1), "mask_diagonal"),
            (~expected, "mask_swapped"),
        )
        for slip, key in slips:
            if np.array_equal(m, slip):
                return wrong(Problem(_say(key, T=T), _say(f"{key}_detail")), answer=answer)
        detail = _say("mask_wrong_detail", got=_rows(m), want=_rows(expected))
        return wrong(Problem(_say("mask_wrong", T=T), detail), answer=answer)
    return right(_say("mask_ok"), answer)
