"""Mistakes drawn from mutations of the solutions: no wrong answer passes a self-check.

Each function exercise's solution is written here with its parts as *knobs* (the shift before ``exp``, the axis of
the sum, each term of a sum, the nonlinearity, the positions counted from 1, ...), each knob with its right setting
and wrong ones: a shift by any element of the row, by its mean or minimum, by one maximum over the whole array; a
wrong axis; a transposed matrix or output; an off-by-one (positions from 0 or 2, the output rolled by one, one
diagonal more); a dropped term; a flipped sign. A mutation sets one to three knobs to a wrong setting; the function it
builds must get a ✗ from the check, unless it is in fact right: a ✓ is a failure when the function differs from the
solution (or raises, or returns NaN) on a battery of inputs broader than the check's own (random inputs of several
shapes, rows whose largest score is anywhere, tied or 2,000 above the rest). Some combinations cancel out (a
upper triangle above the diagonal, inverted, is the lower triangle with its diagonal): those are right answers.

How many: every mutation of one or two knobs, exhaustively (1,321 functions over the seven checks, about 1.5
CPU-seconds, in `make check`), and in the gate (``@pytest.mark.slow``) every mutation of three knobs of each check
that has at most :data:`THREE_KNOBS` of them, a fixed uniform sample of that many of the others (the softmax's 1,882
and the ablation's 1,961): 2,426 functions, about 2.2 CPU-seconds. The sample's bound: a kind of mistake that is 1 %
of a check's three-knob mutations (19 or more of them) is missed with probability at most (1 - 500/1882)^19 < 0.3 %,
one that is 2 % at most 10^-5. They replace hypothesis draws of one to three knobs (50 per check in `make check`,
1,000 per check in the gate: about 25 CPU-seconds, 2.4 of them per check hypothesis's own): a draw of one or two
knobs repeats a mutation the exhaustive test tries, and the thousand draws held 418 distinct three-knob mutations
of the softmax, not uniformly chosen.

The value exercises get a second kind of property: their verdict is ✓ exactly when the answer lies within the
precision the exercise states (perturbations drawn on either side of it) and, for lists of positions, exactly when
the set is the answer.
"""

from __future__ import annotations

import inspect
import itertools
import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attention_core import attend, worked_example
from attention_core.checks.base import CLOSE
from attention_core.checks.luong import check_gaussian, check_local_m_window
from attention_core.checks.reading import (
    check_context,
    check_moved_halves,
    check_moved_states,
    check_rnn_cell,
    check_softmax,
    check_stored_floats,
)
from attention_core.checks.scoring import check_additive_score, check_causal_mask, check_linear_ablation
from attention_core.checks.state import (
    EXAMPLE_PRECISION,
    PEAK_PRECISION,
    check_example_read,
    check_peak_state,
    peak_state,
)
from attention_core.checks.training import (
    PUSH_PRECISION,
    check_score_gradient,
    check_steepest_push,
    steepest_push_answer,
)

RNG = np.random.default_rng(2024)
THREE_KNOBS = 500  # three-knob mutations tried per check in the gate: all of them where a check has fewer


# ------------------------------------------------------------------------------------ one mutable solution per check
def _shift(name: str, e: np.ndarray):
    if name == "row max":
        return e.max(axis=-1, keepdims=True)
    if name.startswith("element "):
        k = int(name.split()[1])
        return e[..., k : k + 1] if k != -1 else e[..., -1:]
    return {
        "row mean": lambda: e.mean(axis=-1, keepdims=True),
        "row min": lambda: e.min(axis=-1, keepdims=True),
        "row median": lambda: np.median(e, axis=-1, keepdims=True),
        "global max": lambda: e.max(),
        "global min": lambda: e.min(),
        "column max": lambda: e.max(axis=0),
        "none": lambda: 0.0,
        "row max - 800": lambda: e.max(axis=-1, keepdims=True) - 800.0,
    }[name]()


SHIFTS = ["row max", "row mean", "row min", "row median", "global max", "global min", "column max", "none"]
SHIFTS += ["row max - 800", *(f"element {k}" for k in (-1, 0, 1, 2, 3))]
EXPS = {"exp": np.exp, "2**": np.exp2, "exp(-)": lambda x: np.exp(-x), "none": lambda x: x, "expm1": np.expm1}


def _normalise(name: str, z: np.ndarray):
    return {
        "last, keepdims": lambda: z / z.sum(axis=-1, keepdims=True),
        "everything": lambda: z / z.sum(),
        "first axis": lambda: z / z.sum(axis=0),
        "none": lambda: z,
        "last, no keepdims": lambda: z / z.sum(axis=-1),
        "by the maximum": lambda: z / z.max(axis=-1, keepdims=True),
        "sum + 1": lambda: z / (z.sum(axis=-1, keepdims=True) + 1),
    }[name]()


def _output(name: str, w: np.ndarray):
    return {
        "as is": lambda: w,
        "transposed": lambda: w.T,
        "rolled by one": lambda: np.roll(w, 1, axis=-1),
        "reversed": lambda: w[..., ::-1],
        "negated": lambda: -w,
        "one minus": lambda: 1 - w,
        "squared": lambda: w**2,
        "doubled": lambda: 2 * w,
        "plus a constant": lambda: w + 0.01,
    }[name]()


OUTPUTS = ["as is", "transposed", "rolled by one", "reversed", "negated", "one minus", "squared", "doubled"]
OUTPUTS += ["plus a constant"]


def softmax_made(shift="row max", exp="exp", normalise="last, keepdims", output="as is", transpose_input="no"):
    def my_softmax(scores):
        e = np.asarray(scores, dtype=float)
        if transpose_input == "yes":
            e = e.T
        z = EXPS[exp](e - _shift(shift, e))
        return _output(output, _normalise(normalise, z))

    return my_softmax


def ablation_made(scores="H W_h^T v", shift="row max", exp="exp", normalise="last, keepdims", output="as is"):
    def ablation_weights(H, W_h, v):
        e = {
            "H W_h^T v": lambda: H @ W_h.T @ v,
            "H W_h^T |v|": lambda: H @ W_h.T @ np.abs(v),
            "tanh kept": lambda: np.tanh(H @ W_h.T) @ v,
            "v W_h H^T, summed": lambda: (v @ W_h @ H.T).sum() * np.ones(len(H)),
            "H^T, first rows": lambda: (H @ W_h.T)[:, 0],
            "minus": lambda: -(H @ W_h.T @ v),
        }[scores]()
        z = EXPS[exp](e - _shift(shift, e))
        return _output(output, _normalise(normalise, z))

    return ablation_weights


def cell_made(x_term="W_x x", h_term="W_h h", bias="inside", nonlinearity="tanh", output="as is"):
    def my_cell(x, h_prev, W_x, W_h, b):
        total = {"W_x x": lambda: W_x @ x, "none": lambda: 0.0, "minus": lambda: -(W_x @ x)}[x_term]()
        total = (
            total
            + {
                "W_h h": lambda: W_h @ h_prev,
                "none": lambda: 0.0,
                "transposed": lambda: W_h.T @ h_prev,
                "minus": lambda: -(W_h @ h_prev),
                "h itself": lambda: h_prev,
            }[h_term]()
        )
        total = total + {"inside": b, "none": 0.0, "minus": -b, "outside": 0.0, "doubled": 2 * b}[bias]
        state = {
            "tanh": np.tanh,
            "none": lambda z: z,
            "sigmoid": lambda z: 1 / (1 + np.exp(-z)),
            "relu": lambda z: np.maximum(z, 0),
            "tanh of minus": lambda z: np.tanh(-z),
        }[nonlinearity](total)
        if bias == "outside":
            state = state + b
        return {"as is": state, "plus h_prev": state + h_prev, "rolled by one": np.roll(state, 1)}[output]

    return my_cell


RELU = lambda u: np.maximum(u, 0)  # noqa: E731


def additive_made(s_term="W_s s", h_term="W_h h", bias="inside", nonlinearity="tanh", v_use="dot", output="number"):
    def my_additive_score(s, h, W_s, W_h, v, b):
        z = {"W_s s": lambda: W_s @ s, "none": lambda: 0.0, "minus": lambda: -(W_s @ s)}[s_term]()
        z = z + {"W_h h": lambda: W_h @ h, "none": lambda: 0.0, "minus": lambda: -(W_h @ h)}[h_term]()
        z = z + {"inside": b, "none": 0.0, "minus": -b, "outside": 0.0}[bias]
        if nonlinearity == "after v":
            return float(np.tanh(v @ z))
        a = {"tanh": np.tanh, "none": lambda u: u, "sigmoid": lambda u: 1 / (1 + np.exp(-u)), "relu": RELU}[
            nonlinearity
        ](z)
        if bias == "outside":
            a = a + b
        e = {"dot": v @ a, "summed": np.sum(a), "v squared": (v**2) @ a, "minus": -(v @ a)}[v_use]
        return {"number": e, "vector": np.atleast_1d(e) * np.ones(len(v)), "absolute": abs(e)}[output]

    return my_additive_score


def gradient_made(alpha="alpha", c="weighted", g="g", output="as is"):
    def my_score_gradient(weights, H, g_in):
        context = {
            "weighted": lambda: weights @ H,
            "mean": lambda: H.mean(axis=0),
            "zero": lambda: np.zeros(H.shape[1]),
            "largest": lambda: H[np.argmax(weights)],
            "doubled": lambda: 2 * (weights @ H),
        }[c]()
        gg = {"g": g_in, "minus g": -g_in, "ones": np.ones_like(g_in)}[g]
        base = (H - context) @ gg  # (T,)
        factor = {
            "alpha": weights,
            "none": 1.0,
            "squared": weights**2,
            "alpha (1 - alpha)": weights * (1 - weights),
            "uniform": np.full_like(weights, 1 / len(weights)),
        }[alpha]
        out = factor * base
        return {
            "as is": out,
            "rolled by one": np.roll(out, 1),
            "reversed": out[::-1],
            "doubled": 2 * out,
            "minus its mean": out - out.mean(),
        }[output]

    return my_score_gradient


def mask_made(triangle="lower", offset=0, dtype="bool", invert="no", flip="none", size="T"):
    def my_causal_mask(T):
        n = {"T": T, "T + 1": T + 1, "T - 1": max(T - 1, 0)}[size]
        m = (np.tril if triangle == "lower" else np.triu)(np.ones((n, n), dtype=bool), k=offset)
        if invert == "yes":
            m = ~m
        m = {"none": m, "left-right": np.fliplr(m), "up-down": np.flipud(m), "transposed": m.T}[flip]
        return m.astype({"bool": bool, "int": int, "float": float}[dtype])

    return my_causal_mask


def gaussian_made(start=1, length="T", sigma="D / 2", two="2", sign="-", centre="p", scaled="no"):
    def my_gaussian(p, T, D):
        n = {"T": T, "T + 1": T + 1, "T - 1": T - 1}[length]
        j = np.arange(start, start + n)
        s = {"D / 2": D / 2, "D": D, "D / 4": D / 4, "D / 2 + 1": D / 2 + 1, "sqrt(D)": np.sqrt(D)}[sigma]
        c = {"p": p, "p - 1": p - 1, "p + 1": p + 1, "round(p)": np.round(p), "floor(p)": np.floor(p)}[centre]
        k = {"2": 2.0, "1": 1.0, "4": 4.0}[two]
        out = np.exp((-1.0 if sign == "-" else 1.0) * (j - c) ** 2 / (k * s**2))
        return {"no": out, "to sum 1": out / out.sum(), "to peak 1": out / out.max()}[scaled]

    return my_gaussian


# ------------------------------------------------------------------------------------ batteries: is it really wrong?
def _rows():
    """Softmax inputs: random rows and matrices of several shapes, far-apart rows with the largest score anywhere,
    tied largest scores."""
    out = [RNG.normal(size=n) for n in (1, 2, 3, 5)] + [RNG.normal(size=(n, t)) for n, t in ((2, 3), (3, 3), (4, 2))]
    for t in (2, 3, 4):
        for k in range(t):
            far = np.full(t, -1000.0)
            far[k] = 1000.0
            out.append(far)
    out += [np.array([3.0, 3.0, 1.0]), np.array([1.0, 4.0, 4.0, 0.0]), 500 * RNG.normal(size=(3, 4))]
    out += [np.array([[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 1000.0]]), 1000 + RNG.normal(size=(2, 2))]
    return out


SOFTMAX_BATTERY = [(e,) for e in _rows()]
ABLATION_BATTERY = [
    (RNG.normal(size=(t, d)) * scale, RNG.normal(size=(a, d)), RNG.normal(size=a))
    for t, d, a, scale in ((1, 3, 2, 1), (3, 2, 2, 1), (4, 3, 2, 1), (5, 4, 3, 1), (4, 3, 2, 400), (6, 2, 3, 600))
]
CELL_BATTERY = [
    (RNG.normal(size=e), RNG.normal(size=h), RNG.normal(size=(h, e)), RNG.normal(size=(h, h)), RNG.normal(size=h))
    for e, h in ((3, 4), (2, 2), (5, 3), (1, 4))
]  # fmt: skip
ADDITIVE_BATTERY = [
    tuple(RNG.normal(size=shape) * scale for shape in ((ds,), (dh,), (da, ds), (da, dh), (da,), (da,)))
    for ds, dh, da, scale in ((3, 4, 5, 1), (2, 2, 2, 1), (1, 3, 1, 1), (4, 2, 3, 10))
]


def _gradient_battery():
    out = []
    for t, d in ((1, 2), (3, 2), (4, 3), (6, 5), (5, 5)):
        H = RNG.normal(size=(t, d))
        w, _ = attend(RNG.normal(size=t) * 2, H)
        out.append((w, H, RNG.normal(size=d)))
    return out


GRADIENT_BATTERY = _gradient_battery()
MASK_BATTERY = [(T,) for T in (1, 2, 3, 4, 6)]
GAUSSIAN_BATTERY = [(1.0, 4, 2), (2.5, 6, 2), (4.0, 4, 1), (3.3, 9, 4), (5.0, 10, 3)]

FUNCTION_CHECKS = {
    "02.1": (check_rnn_cell, cell_made, CELL_BATTERY, {
        "x_term": ["W_x x", "none", "minus"],
        "h_term": ["W_h h", "none", "transposed", "minus", "h itself"],
        "bias": ["inside", "none", "minus", "outside", "doubled"],
        "nonlinearity": ["tanh", "none", "sigmoid", "relu", "tanh of minus"],
        "output": ["as is", "plus h_prev", "rolled by one"],
    }),
    "04.1": (check_softmax, softmax_made, SOFTMAX_BATTERY, {
        "shift": SHIFTS,
        "exp": list(EXPS),
        "normalise": ["last, keepdims", "everything", "first axis", "none", "last, no keepdims", "by the maximum",
                      "sum + 1"],
        "output": OUTPUTS,
        "transpose_input": ["no", "yes"],
    }),
    "05.1": (check_additive_score, additive_made, ADDITIVE_BATTERY, {
        "s_term": ["W_s s", "none", "minus"],
        "h_term": ["W_h h", "none", "minus"],
        "bias": ["inside", "none", "minus", "outside"],
        "nonlinearity": ["tanh", "none", "sigmoid", "relu", "after v"],
        "v_use": ["dot", "summed", "v squared", "minus"],
        "output": ["number", "vector", "absolute"],
    }),
    "05.2": (check_linear_ablation, ablation_made, ABLATION_BATTERY, {
        "scores": ["H W_h^T v", "H W_h^T |v|", "tanh kept", "v W_h H^T, summed", "H^T, first rows", "minus"],
        "shift": [s for s in SHIFTS if s not in ("column max",)],
        "exp": list(EXPS),
        "normalise": ["last, keepdims", "none", "by the maximum", "sum + 1"],
        "output": [o for o in OUTPUTS if o != "transposed"],
    }),
    "07.1": (check_score_gradient, gradient_made, GRADIENT_BATTERY, {
        "alpha": ["alpha", "none", "squared", "alpha (1 - alpha)", "uniform"],
        "c": ["weighted", "mean", "zero", "largest", "doubled"],
        "g": ["g", "minus g", "ones"],
        "output": ["as is", "rolled by one", "reversed", "doubled", "minus its mean"],
    }),
    "08.1": (check_causal_mask, mask_made, MASK_BATTERY, {
        "triangle": ["lower", "upper"],
        "offset": [0, -1, 1, -2],
        "dtype": ["bool", "int", "float"],
        "invert": ["no", "yes"],
        "flip": ["none", "left-right", "up-down", "transposed"],
        "size": ["T", "T + 1", "T - 1"],
    }),
    "08.4": (check_gaussian, gaussian_made, GAUSSIAN_BATTERY, {
        "start": [1, 0, 2],
        "length": ["T", "T + 1", "T - 1"],
        "sigma": ["D / 2", "D", "D / 4", "D / 2 + 1", "sqrt(D)"],
        "two": ["2", "1", "4"],
        "sign": ["-", "+"],
        "centre": ["p", "p - 1", "p + 1", "round(p)", "floor(p)"],
        "scaled": ["no", "to sum 1", "to peak 1"],
    }),
}  # fmt: skip


def _same(fn, reference, battery) -> bool:
    """Whether ``fn`` gives the reference's numbers (within CLOSE, the same shape, finite) on every input of
    ``battery``; an exception or something that is not numbers is a difference."""
    for args in battery:
        want = np.asarray(reference(*(np.copy(a) for a in args)), dtype=float)
        try:
            with np.errstate(all="ignore"):
                got = np.asarray(fn(*(np.copy(a) for a in args)))
            if got.dtype.kind not in "biuf":
                return False
            got = got.astype(float)
        except Exception:
            return False
        if got.shape != want.shape and not got.size == want.size == 1:
            return False
        if not np.all(np.isfinite(got)) or not np.allclose(got.reshape(want.shape), want, **CLOSE):
            return False
    return True


def _right(key: str, fn) -> bool:
    """Whether the function ``fn`` is a right answer to exercise ``key``: the solution's numbers on the battery (and
    for a mask, booleans: softmax reads it with ``np.where``)."""
    _, made, battery, _ = FUNCTION_CHECKS[key]
    right = _same(fn, made(), battery)
    if right and key == "08.1":
        right = np.asarray(fn(3)).dtype == bool
    return right


def knob_mutations(knobs: dict[str, list], sizes=(1, 2)):
    """Every mutation of as many knobs as ``sizes`` says: each choice of that many knobs, each knob set to each of
    its wrong settings (the first setting of a knob is the right one)."""
    for size in sizes:
        for chosen in itertools.combinations(sorted(knobs), size):
            for wrong in itertools.product(*(knobs[name][1:] for name in chosen)):
                yield dict(zip(chosen, wrong, strict=True))


def _praised(key: str, mutations) -> list[dict]:
    """The ``mutations`` of exercise ``key`` that get a ✓ but are not right answers."""
    check, made, _, _ = FUNCTION_CHECKS[key]
    praised = []
    for mutation in mutations:
        fn = made(**mutation)
        if check(fn).ok and not _right(key, fn):  # only a ✓ needs the battery: a combination may cancel out
            praised.append(mutation)
    return praised


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("key", sorted(FUNCTION_CHECKS))
def test_no_mutation_of_one_or_two_knobs_passes(key):
    praised = _praised(key, knob_mutations(FUNCTION_CHECKS[key][3], (1, 2)))
    assert not praised, f"{key}: {len(praised)} mistakes pass, e.g. {praised[:5]}"


@pytest.mark.slow  # 2,426 functions, about 2.2 CPU-seconds: in `make test`, not in `make check`
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("key", sorted(FUNCTION_CHECKS))
def test_no_mutation_of_three_knobs_passes(key):
    every = list(knob_mutations(FUNCTION_CHECKS[key][3], (3,)))
    chosen = every if len(every) <= THREE_KNOBS else random.Random(key).sample(every, THREE_KNOBS)  # the same each run
    praised = _praised(key, chosen)
    assert not praised, f"{key}: {len(praised)} mistakes pass, e.g. {praised[:5]}"


@pytest.mark.parametrize("key", sorted(FUNCTION_CHECKS))
def test_the_unmutated_solution_passes_its_check_and_its_battery(key):
    check, made, battery, knobs = FUNCTION_CHECKS[key]
    assert _same(made(), made(), battery)
    assert check(made()).ok, check(made())
    defaults = {name: p.default for name, p in inspect.signature(made).parameters.items()}
    assert defaults == {name: values[0] for name, values in knobs.items()}, "each knob's first setting is its default"


# ------------------------------------------------------------------------------------ the value exercises' precision
def _clear_of(delta: float, tol: float) -> bool:
    return abs(abs(delta) - tol) > 1e-9  # not on the boundary, where float rounding decides


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 5), st.floats(-0.003, 0.003))
def test_06_1_passes_exactly_within_its_stated_precision(index, delta):
    read = worked_example(0.5)
    values = np.concatenate([read.scores, read.weights])  # (6,): e_1..e_3, alpha_1..alpha_3
    tol = float(EXAMPLE_PRECISION.tolerance(values[index]))
    assume(_clear_of(delta, tol))
    values[index] += delta
    assert check_example_read(0.5, values[:3], values[3:]).ok == (abs(delta) <= tol), (index, delta)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.floats(-0.03, 0.03))
def test_06_2_passes_exactly_within_its_stated_precision(delta):
    exact = peak_state(1)
    tol = float(PEAK_PRECISION.tolerance(exact))
    assume(_clear_of(delta, tol))
    assert check_peak_state(exact + delta, position=1).ok == (abs(delta) <= tol), delta


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.floats(-0.001, 0.001))
def test_07_2_passes_exactly_within_its_stated_precision(delta):
    position, exact = steepest_push_answer()
    tol = float(PUSH_PRECISION.tolerance(exact))
    assume(_clear_of(delta, tol))
    assert check_steepest_push(position, exact + delta).ok == (abs(delta) <= tol), delta


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 1), st.floats(-0.003, 0.003))
def test_04_2_passes_exactly_within_its_stated_precision(index, delta):
    want = np.array([1.25, -0.75])
    tol = 0.0005 + 1e-4 * abs(want[index])
    assume(_clear_of(delta, tol))
    answer = want.copy()
    answer[index] += delta
    assert check_context(answer, scores=[np.log(2), 0.0, 0.0]).ok == (abs(delta) <= tol), (index, delta)


POSITION_EXERCISES = {
    "02.2": (lambda a: check_moved_states(a, changed=12, T=12), [12], 12),
    "03.2 forward": (lambda a: check_moved_halves(a, [1], changed=1, T=6), list(range(1, 7)), 6),
    "03.2 backward": (lambda a: check_moved_halves(list(range(1, 7)), a, changed=1, T=6), [1], 6),
    "08.5": (lambda a: check_local_m_window(a, t=6, T=7, D=2), [4, 5, 6, 7], 7),
}


@pytest.mark.parametrize("key", sorted(POSITION_EXERCISES))
def test_a_list_of_positions_passes_exactly_when_it_is_the_answer(key):
    check, answer, T = POSITION_EXERCISES[key]

    @settings(max_examples=200, deadline=None, derandomize=True, database=None)
    @given(st.sets(st.integers(-1, T + 2), max_size=T + 3), st.sampled_from([list, tuple, np.array, sorted]))
    def run(chosen, form):
        given_ = form(sorted(chosen)) if form is not sorted else sorted(chosen, reverse=True)
        assert check(given_).ok == (sorted(chosen) == answer), (given_, check(given_))

    run()
    assert check(answer).ok


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(-(10**6), 10**6))
def test_03_1_passes_exactly_on_its_count(n):
    assert check_stored_floats(n, T=40, d_dir=8).ok == (n == 640)


def test_the_battery_finds_what_issue_45_saw_praised():
    """Sanity of the method: the battery alone tells the softmax shifted by each row's last score from the right
    one, so a check that praises it fails the property test above."""
    assert not _same(softmax_made(shift="element -1"), softmax_made(), SOFTMAX_BATTERY)
