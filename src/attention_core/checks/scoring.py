"""Self-checks for the exercises of lessons 05 and 08: run the reader's answer and say what is wrong.

Each check calls the reader's function on several inputs (the worked example, rectangular random shapes that
expose transposed matrices, a one-position edge case, large inputs), compares with the core, prints one specific
verdict as a :class:`~attention_core.checks.state.CheckResult` (``ok`` and ``message``; it displays itself in a
notebook). A function that still raises ``NotImplementedError`` is reported as "not answered yet", so an
exercise cell can run before it is solved. Every message, the names of the cases included, comes from the
module's :class:`~attention_core.lang.Messages` (English, translated by its PO files).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, V_EXAMPLE, W_H_EXAMPLE, W_S_EXAMPLE
from ..lang import Messages, get_language
from ..reading import softmax
from ..scores import additive_scores
from ..self_attention import causal_mask
from .base import CLOSE, CheckResult, run_reader

TEXT = Messages(
    __name__,
    {
        # check_additive_score: the cases, then the verdicts. A message starts with its case ("On the worked
        # example ..."; in Chinese "算例：..."); _report capitalises the first letter.
        "additive_example": "worked example (s = -1, h_1 = (2, 0))",
        "additive_random": "random case with d_s = 3, d_h = 4, d_a = 5 and a nonzero b",
        "additive_big": "same case scaled by 20 (tanh saturates)",
        "additive_one": "case with d_a = 1",
        "additive_shapes_hint": " Check the shapes: W_s is (d_a, d_s), so W_s s is W_s @ s.",
        "additive_shape": (
            "on the {case} it returned shape {shape}; the score is one number. "
            "Did you forget the final dot product with v?"
        ),
        "additive_no_tanh": "you left out the tanh: the nonlinearity acts on W_s s + W_h h + b before v.",
        "additive_no_bias": "the bias b is missing inside the tanh.",
        "additive_tanh_after": "tanh is applied after the dot product with v; apply it to each component first.",
        "additive_summed": "the components of tanh(...) are summed instead of weighted by v.",
        "additive_diagnosed": "on the {case} you returned {value:.6f}, expected {expected:.6f}: {why}",
        "additive_wrong": "on the {case} you returned {value:.6f}, expected {expected:.6f}.",
        "additive_ok": "All {n} cases match e = v^T tanh(W_s s + W_h h + b).",
        # check_linear_ablation
        "ablation_example": "worked example",
        "ablation_random": "random case with T = 4, d_h = 3, d_a = 2",
        "ablation_one": "case with a single position (T = 1)",
        "ablation_big": "random case scaled by 30 (scores near 1000: exp overflows unless you shift)",
        "ablation_shape": "on the {case} it returned shape {shape}; expected ({T},), one weight per position.",
        "ablation_nonfinite": (
            "on the {case} it returned non-finite weights {weights}: subtract the largest score before exp."
        ),
        "ablation_scores": "on the {case} you returned the scores v^T W_h h_j; pass them through softmax.",
        "ablation_sum": "on the {case} your weights sum to {total:.6f}, not 1: normalise them.",
        "ablation_wrong": "on the {case} you returned {got}, expected {want}.",
        "ablation_ok": "The weights match softmax_j(v^T W_h h_j), the same for every state s.",
        # check_causal_mask
        "mask_case": "case T = {T}",
        "mask_shape": "for T = {T} it returned shape {shape}; expected ({T}, {T}).",
        "mask_dtype": "for T = {T} it returned dtype {dtype}; softmax wants a boolean mask (add dtype=bool).",
        "mask_transposed": "for T = {T} the mask is transposed: row i is the reading position, so keep j <= i (lower).",
        "mask_diagonal": "for T = {T} the diagonal is False: a position may read itself (j = i).",
        "mask_swapped": "for T = {T} True and False are swapped: True means 'may be read'.",
        "mask_wrong": "for T = {T} you returned\n{got}\nexpected\n{want}.",
        "mask_ok": "The mask lets position i read exactly the positions j <= i.",
    },
)


def _report(ok: bool, message: str) -> CheckResult:
    """The verdict, its first letter capitalised in English (a Chinese message may start with ``d_a = 1``)."""
    if get_language() == "en":
        message = message[:1].upper() + message[1:]
    return CheckResult(ok, message)


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
    one = (  # d_a = 1: the hidden layer has a single unit
        np.array([0.5]),
        np.array([-1.0, 2.0]),
        np.array([[2.0]]),
        np.array([[1.0, 1.0]]),
        np.array([1.5]),
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


def check_additive_score(fn: Callable) -> CheckResult:
    r"""Check ``fn(s, h, W_s, W_h, v, b)`` computes ``e = v^T tanh(W_s s + W_h h + b)`` for one ``s`` and ``h``.

    Arguments are 1-D arrays for the column vectors ``s (d_s,)``, ``h (d_h,)``, ``v, b (d_a,)`` and 2-D arrays
    ``W_s (d_a, d_s)``, ``W_h (d_a, d_h)``; the answer must be one number.
    """
    for case, args in _additive_cases():
        result, failure = run_reader(fn, *(np.array(a, copy=True) for a in args), case=case, numeric=True)
        if failure:
            shapes = any(word in failure for word in ("shape", "align", "mismatch", "dimension"))
            hint = TEXT("additive_shapes_hint") if shapes else ""
            return _report(False, failure + hint)
        if result.shape not in ((), (1,)):
            return _report(False, TEXT("additive_shape", case=case, shape=result.shape))
        value = float(result.reshape(()))
        expected = _reference_additive(*args)
        if np.isclose(value, expected, **CLOSE):
            continue
        s, h, W_s, W_h, v, b = args
        z = W_s @ s + W_h @ h + b  # (d_a,)
        diagnoses = [
            (float(v @ z), "additive_no_tanh"),
            (_reference_additive(s, h, W_s, W_h, v, np.zeros_like(b)), "additive_no_bias"),
            (float(np.tanh(v @ z)), "additive_tanh_after"),
            (float(np.sum(np.tanh(z))), "additive_summed"),
        ]
        for wrong, why in diagnoses:
            if np.isclose(value, wrong, **CLOSE):
                return _report(
                    False, TEXT("additive_diagnosed", case=case, value=value, expected=expected, why=TEXT(why))
                )
        return _report(False, TEXT("additive_wrong", case=case, value=value, expected=expected))
    return _report(True, TEXT("additive_ok", n=len(_additive_cases())))


def _ablation_cases():
    rng = np.random.default_rng(6)
    H, W_h, v = rng.normal(size=(4, 3)), rng.normal(size=(2, 3)), rng.normal(size=2)
    return [
        (TEXT("ablation_example"), (H_EXAMPLE, W_H_EXAMPLE, V_EXAMPLE)),
        (TEXT("ablation_random"), (H, W_h, v)),
        (TEXT("ablation_one"), (H[:1], W_h, v)),
        (TEXT("ablation_big"), (30.0 * H, 30.0 * W_h, v)),
    ]


def check_linear_ablation(fn: Callable) -> CheckResult:
    r"""Check ``fn(H, W_h, v)`` returns the weights of the scorer without tanh, which no longer need ``s``.

    .. math:: \alpha_j = \frac{\exp(v^\top W_h h_j)}{\sum_k \exp(v^\top W_h h_k)}

    ``H`` is ``(T, d_h)`` with the annotations as rows, ``W_h`` is ``(d_a, d_h)``, ``v`` is ``(d_a,)``; the
    answer is ``(T,)``. (That the core's linear scorer agrees with this formula is a test, not part of the check.)
    """
    for case, (H, W_h, v) in _ablation_cases():
        result, failure = run_reader(fn, H.copy(), W_h.copy(), v.copy(), case=case, numeric=True, finite=False)
        if failure:
            return _report(False, failure)
        T = H.shape[0]
        a = result
        if a.shape != (T,):
            return _report(False, TEXT("ablation_shape", case=case, shape=a.shape, T=T))
        if not np.isfinite(a).all():
            return _report(False, TEXT("ablation_nonfinite", case=case, weights=a))
        raw = H @ W_h.T @ v  # (T,)
        expected = softmax(raw)
        if np.allclose(a, expected, **CLOSE):
            continue
        if np.allclose(a, raw, **CLOSE):
            return _report(False, TEXT("ablation_scores", case=case))
        if not np.isclose(a.sum(), 1.0, **CLOSE):
            return _report(False, TEXT("ablation_sum", case=case, total=a.sum()))
        return _report(False, TEXT("ablation_wrong", case=case, got=np.round(a, 6), want=np.round(expected, 6)))
    return _report(True, TEXT("ablation_ok"))


def check_causal_mask(fn: Callable) -> CheckResult:
    """Check ``fn(T)`` returns the boolean ``(T, T)`` mask with ``True`` where position ``i`` may read ``j <= i``."""
    for T in (5, 2, 1):  # the edge case T = 1 last: there a swapped mask and a missing diagonal coincide
        result, failure = run_reader(fn, T, case=TEXT("mask_case", T=T))
        if failure:
            return _report(False, failure)
        try:
            m = np.asarray(result)
        except Exception:  # ragged lists
            m = np.asarray(None)
        expected = causal_mask(T)
        if m.shape != (T, T):
            return _report(False, TEXT("mask_shape", T=T, shape=m.shape))
        if m.dtype != bool:
            return _report(False, TEXT("mask_dtype", T=T, dtype=m.dtype))
        if np.array_equal(m, expected):
            continue
        if np.array_equal(m, expected.T):
            return _report(False, TEXT("mask_transposed", T=T))
        if np.array_equal(m, np.tril(expected, k=-1)):
            return _report(False, TEXT("mask_diagonal", T=T))
        if np.array_equal(m, ~expected):
            return _report(False, TEXT("mask_swapped", T=T))
        return _report(False, TEXT("mask_wrong", T=T, got=m.astype(int), want=expected.astype(int)))
    return _report(True, TEXT("mask_ok"))
