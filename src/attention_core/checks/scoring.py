"""Self-checks for the exercises of lessons 05 and 08: run the reader's answer and say what is wrong.

Each check calls the reader's function on several inputs (the worked example, rectangular random shapes that
expose transposed matrices, a one-position edge case, large inputs), compares with the core, prints one
specific verdict as a :class:`~attention_core.checks.state.CheckResult` (``ok`` and ``message``; it displays
itself in a notebook). A function that still raises ``NotImplementedError`` is
reported as "not answered yet", so an exercise cell can run before it is solved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..example import H_EXAMPLE, V_EXAMPLE, W_H_EXAMPLE, W_S_EXAMPLE
from ..reading import softmax
from ..scores import additive_scores
from ..self_attention import causal_mask
from .base import CheckResult, run_reader


def _report(ok: bool, message: str) -> CheckResult:
    return CheckResult(ok, message[:1].upper() + message[1:])


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
        ("worked example (s = -1, h_1 = (2, 0))", example),
        ("random case with d_s = 3, d_h = 4, d_a = 5 and a nonzero b", rect),
        ("same case scaled by 20 (tanh saturates)", big),
        ("case with d_a = 1", one),
    ]


def _reference_additive(s, h, W_s, W_h, v, b, nonlinearity=np.tanh):
    return float(additive_scores(s, h[None, :], W_s, W_h, v, b, nonlinearity)[0])


def check_additive_score(fn: Callable) -> CheckResult:
    r"""Check ``fn(s, h, W_s, W_h, v, b)`` computes ``e = v^T tanh(W_s s + W_h h + b)`` for one ``s`` and ``h``.

    Arguments are 1-D arrays for the column vectors ``s (d_s,)``, ``h (d_h,)``, ``v, b (d_a,)`` and 2-D arrays
    ``W_s (d_a, d_s)``, ``W_h (d_a, d_h)``; the answer must be one number.
    """
    for case, args in _additive_cases():
        result, failure = run_reader(fn, *(np.array(a, copy=True) for a in args), case=case)
        if failure:
            shapes = any(word in failure for word in ("shape", "align", "mismatch", "dimension"))
            hint = " Check the shapes: W_s is (d_a, d_s), so W_s s is W_s @ s." if shapes else ""
            return _report(False, failure + hint)
        shape = np.shape(result)
        if shape not in ((), (1,)):
            return _report(
                False,
                f"on the {case} it returned shape {shape}; the score is one number. "
                "Did you forget the final dot product with v?",
            )
        value = float(np.asarray(result).reshape(()))
        expected = _reference_additive(*args)
        if np.isclose(value, expected, rtol=1e-9, atol=1e-12):
            continue
        s, h, W_s, W_h, v, b = args
        z = W_s @ s + W_h @ h + b  # (d_a,)
        diagnoses = [
            (float(v @ z), "you left out the tanh: the nonlinearity acts on W_s s + W_h h + b before v."),
            (_reference_additive(s, h, W_s, W_h, v, np.zeros_like(b)), "the bias b is missing inside the tanh."),
            (float(np.tanh(v @ z)), "tanh is applied after the dot product with v; apply it to each component first."),
            (float(np.sum(np.tanh(z))), "the components of tanh(...) are summed instead of weighted by v."),
        ]
        for wrong, why in diagnoses:
            if np.isclose(value, wrong, rtol=1e-9, atol=1e-12):
                return _report(False, f"on the {case} you returned {value:.6f}, expected {expected:.6f}: {why}")
        return _report(False, f"on the {case} you returned {value:.6f}, expected {expected:.6f}.")
    return _report(True, f"All {len(_additive_cases())} cases match e = v^T tanh(W_s s + W_h h + b).")


def _ablation_cases():
    rng = np.random.default_rng(6)
    H, W_h, v = rng.normal(size=(4, 3)), rng.normal(size=(2, 3)), rng.normal(size=2)
    return [
        ("worked example", (H_EXAMPLE, W_H_EXAMPLE, V_EXAMPLE)),
        ("random case with T = 4, d_h = 3, d_a = 2", (H, W_h, v)),
        ("case with a single position (T = 1)", (H[:1], W_h, v)),
        ("random case scaled by 30 (scores near 1000: exp overflows unless you shift)", (30.0 * H, 30.0 * W_h, v)),
    ]


def check_linear_ablation(fn: Callable) -> CheckResult:
    r"""Check ``fn(H, W_h, v)`` returns the weights of the scorer without tanh, which no longer need ``s``.

    .. math:: \alpha_j = \frac{\exp(v^\top W_h h_j)}{\sum_k \exp(v^\top W_h h_k)}

    ``H`` is ``(T, d_h)`` with the annotations as rows, ``W_h`` is ``(d_a, d_h)``, ``v`` is ``(d_a,)``; the
    answer is ``(T,)``. (That the core's linear scorer agrees with this formula is a test, not part of the check.)
    """
    for case, (H, W_h, v) in _ablation_cases():
        result, failure = run_reader(fn, H.copy(), W_h.copy(), v.copy(), case=case)
        if failure:
            return _report(False, failure)
        T = H.shape[0]
        a = np.asarray(result, dtype=float)
        if a.shape != (T,):
            return _report(
                False, f"on the {case} it returned shape {a.shape}; expected ({T},), one weight per position."
            )
        if not np.isfinite(a).all():
            return _report(
                False, f"on the {case} it returned non-finite weights {a}: subtract the largest score before exp."
            )
        raw = H @ W_h.T @ v  # (T,)
        expected = softmax(raw)
        if np.allclose(a, expected, rtol=1e-9, atol=1e-12):
            continue
        if np.allclose(a, raw, rtol=1e-9, atol=1e-12):
            return _report(False, f"on the {case} you returned the scores v^T W_h h_j; pass them through softmax.")
        if not np.isclose(a.sum(), 1.0):
            return _report(False, f"on the {case} your weights sum to {a.sum():.6f}, not 1: normalise them.")
        return _report(False, f"on the {case} you returned {np.round(a, 6)}, expected {np.round(expected, 6)}.")
    return _report(True, "The weights match softmax_j(v^T W_h h_j), the same for every state s.")


def check_causal_mask(fn: Callable) -> CheckResult:
    """Check ``fn(T)`` returns the boolean ``(T, T)`` mask with ``True`` where position ``i`` may read ``j <= i``."""
    for T in (5, 2, 1):  # the edge case T = 1 last: there a swapped mask and a missing diagonal coincide
        result, failure = run_reader(fn, T, case=f"case T = {T}")
        if failure:
            return _report(False, failure)
        m = np.asarray(result)
        expected = causal_mask(T)
        if m.shape != (T, T):
            return _report(False, f"for T = {T} it returned shape {m.shape}; expected ({T}, {T}).")
        if m.dtype != bool:
            return _report(
                False, f"for T = {T} it returned dtype {m.dtype}; softmax wants a boolean mask (add dtype=bool)."
            )
        if np.array_equal(m, expected):
            continue
        if np.array_equal(m, expected.T):
            return _report(
                False, f"for T = {T} the mask is transposed: row i is the reading position, so keep j <= i (lower)."
            )
        if np.array_equal(m, np.tril(expected, k=-1)):
            return _report(False, f"for T = {T} the diagonal is False: a position may read itself (j = i).")
        if np.array_equal(m, ~expected):
            return _report(False, f"for T = {T} True and False are swapped: True means 'may be read'.")
        return _report(False, f"for T = {T} you returned\n{m.astype(int)}\nexpected\n{expected.astype(int)}.")
    return _report(True, "The mask lets position i read exactly the positions j <= i.")
