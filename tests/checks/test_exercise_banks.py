"""Every checked exercise of lessons 01-08, done as students do it: a bank of right answers in the forms the text
allows (all must pass) and of plausible mistakes (all must fail, in every language), run through the check exactly
as the lesson calls it; then a property test that feeds every check malformed input and fails on any ✓ or any
exception. (Mistakes drawn from mutations of the solutions: test_mutations.py; hostile input: test_hostile.py.)

A bank is a list of ``(label, arguments)`` per exercise; ``label`` says what the student did. The exercises are
keyed as the lessons number them ("04.1" is lesson 04's exercise 1). The mistakes include every class issue 45
found praised: a softmax shifted by each row's last score, a query that is the negation entry plus a tiny multiple
of the *where?* query, and values off by more than the precision the exercise states (-1.44, -1.45, -1.47 for
06.2's -1.4554; 0.4150 for 07.2's 0.41512); and the right answers the lesson's own printed path gives (0.525,
rounded from the printed 0.5245; 0.4152, computed from the printed weights; -1.456, the printed peak).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core import H_EXAMPLE, attend
from attention_core.checks.base import FSI, PDI, CheckResult
from attention_core.checks.encoder import check_permuted_rows, check_scaled_weights
from attention_core.checks.luong import check_gaussian, check_local_m_window
from attention_core.checks.reading import (
    check_context,
    check_moved_halves,
    check_moved_states,
    check_negation_focus,
    check_query_focus,
    check_rnn_cell,
    check_softmax,
    check_stored_floats,
)
from attention_core.checks.scoring import check_additive_score, check_causal_mask, check_linear_ablation
from attention_core.checks.state import check_example_read, check_peak_state
from attention_core.checks.training import check_score_gradient, check_steepest_push
from attention_core.lang import language, languages
from attention_core.toy_sentences import FELIX, FELIX_NEGATED, QUERIES, feature_vector
from tests.checks.tries import at_try
from tests.helpers import NUMBER
from tests.lessons.test_pseudo_edition import allowed_words, escaped

# What a pseudo-language verdict may write in plain English: the lessons' data and the words of the code a check
# quotes (a reader's own code, and the one-line answers of the function exercises, which are code).
PSEUDO_ALLOWED = allowed_words() | {"str", "float", "int", "list", "None", "none", "nan", "inf", "return", "true"}
QUOTED = re.compile(f"{FSI}.*?{PDI}")

F32 = np.float32
WHERE = QUERIES["where"]
LOG2 = float(np.log(2.0))


# ------------------------------------------------------------------------------------ the students' answers
def softmax_rows(e):
    z = np.exp(e - e.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def softmax_shifted_by(shift):
    def fn(e):
        z = np.exp(e - shift(e))
        return z / z.sum(axis=-1, keepdims=True)

    return fn


def additive(s, h, W_s, W_h, v, b):
    return v @ np.tanh(W_s @ s + W_h @ h + b)


def ablation(H, W_h, v):
    return softmax_rows(H @ W_h.T @ v)


def gradient(w, H, g):
    return w * ((H - w @ H) @ g)


def gaussian(p, T, D):
    j = np.arange(1, T + 1)
    return np.exp(-((j - p) ** 2) / (2 * (D / 2) ** 2))


def gaussian_with(j0=1, sigma=lambda D: D / 2, two=2.0, sign=-1.0, p_shift=0.0):
    def fn(p, T, D):
        j = np.arange(j0, T + j0)
        return np.exp(sign * (j - p - p_shift) ** 2 / (two * sigma(D) ** 2))

    return fn


def cell(x, h, W_x, W_h, b):
    return np.tanh(W_x @ x + W_h @ h + b)


def forgot_return(*args):
    np.zeros(3)  # the student computed something and did not return it


class Called:
    """A check as the lesson calls it: the reader's answers in the slots (positionally, or by ``names``), after the
    lesson's own leading arguments ``before`` and with its keyword arguments ``fixed``. Calling it gives the verdict;
    ``.decide`` gives the check's decision on the same arguments (see attention_core.checks.base.self_check)."""

    def __init__(self, check, *before, names=(), **fixed):
        self.check, self.before, self.names, self.fixed = check, before, names, fixed

    def _arguments(self, slots):
        if self.names:
            return self.before, {**self.fixed, **dict(zip(self.names, slots, strict=True))}
        return (*self.before, *slots), self.fixed

    def __call__(self, *slots):
        args, kwargs = self._arguments(slots)
        return self.check(*args, **kwargs)

    def decide(self, *slots):
        args, kwargs = self._arguments(slots)
        return self.check.decide(*args, **kwargs)


AT_HALF = (0.52449714, 1.36726541, 1.36726541), (0.17712983, 0.41143508, 0.41143508)  # worked example, s = 0.5

# Each exercise: the check as the lesson calls it, the right answers, the mistakes.
BANKS = {
    "01.1": (
        Called(check_query_focus, sentence=FELIX),
        [
            ("time entry 3", (feature_vector(time=3.0),)),
            ("time entry 3 in float32", (feature_vector(time=3.0).astype(F32),)),
            ("time entry 5 as a list", (list(feature_vector(time=5.0)),)),
            ("time entry 2.5 as a tuple", (tuple(feature_vector(time=2.5)),)),
        ],
        [
            ("the starting entry", (feature_vector(time=1.0),)),
            ("time entry 2: not yet half", (feature_vector(time=2.0),)),
            ("the place entry", (feature_vector(place=3.0),)),
            ("a negative time entry", (feature_vector(time=-3.0),)),
            ("the zero query", (np.zeros(7),)),
            ("the where? query", (WHERE,)),
            ("a row instead of a vector", (feature_vector(time=3.0)[None, :],)),
            ("the feature's name", ("time",)),
        ],
    ),
    "01.3": (
        Called(check_negation_focus, sentence=FELIX_NEGATED),
        [
            ("negation entry 3: the tie", (WHERE + feature_vector(negation=3.0),)),
            ("negation entry 5", (WHERE + feature_vector(negation=5.0),)),
            ("the whole query doubled", (2 * WHERE + feature_vector(negation=6.0),)),
            ("in float32", ((WHERE + feature_vector(negation=4.0)).astype(F32),)),
            ("as a list", (list(WHERE + feature_vector(negation=3.5)),)),
        ],
        [
            ("the starting entry 1", (WHERE + feature_vector(negation=1.0),)),
            ("no negation entry", (WHERE,)),
            ("the zero query: every weight equal", (np.zeros(7),)),
            ("the negation entry alone", (feature_vector(negation=3.0),)),
            ("the place entry removed", (WHERE + feature_vector(negation=3.0, place=-3.0),)),
            ("a negative negation entry", (WHERE + feature_vector(negation=-3.0),)),
            ("the negated where? query", (-WHERE + feature_vector(negation=3.0),)),
            ("the negation entry plus a tiny where? query", (1e-7 * WHERE + feature_vector(negation=3.0),)),
            ("the negation entry plus a hundredth of it", (0.01 * WHERE + feature_vector(negation=3.0),)),
            ("the where? query halved", (0.5 * WHERE + feature_vector(negation=1.5),)),
            ("the place entry lowered to 1", (WHERE + feature_vector(place=-2.0, negation=1.0),)),
            ("scaled by 1e307, the negation entry too small", (WHERE * 1e307 + feature_vector(negation=1e307),)),
        ],
    ),
    "02.1": (
        check_rnn_cell,
        [
            ("the formula", (cell,)),
            ("in float32", (lambda *a: cell(*a).astype(F32),)),
            ("with np.dot", (lambda x, h, W_x, W_h, b: np.tanh(np.dot(W_x, x) + np.dot(W_h, h) + b),)),
            ("as rows", (lambda x, h, W_x, W_h, b: np.tanh(x @ W_x.T + h @ W_h.T + b),)),
            ("as a list", (lambda *a: list(cell(*a)),)),
        ],
        [
            ("the starting answer: no h_prev", (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + b),)),
            ("no tanh", (lambda x, h, W_x, W_h, b: W_x @ x + W_h @ h + b,)),
            ("no bias", (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + W_h @ h),)),
            ("W_h transposed", (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + W_h.T @ h + b),)),
            ("a sigmoid", (lambda x, h, W_x, W_h, b: 1 / (1 + np.exp(-(W_x @ x + W_h @ h + b))),)),
            ("forgot return", (forgot_return,)),
            ("printed it", (lambda *a: str(cell(*a)),)),
            ("minus the state term", (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x - W_h @ h + b),)),
            ("h_prev times W_h", (lambda x, h, W_x, W_h, b: np.tanh(W_x @ x + h @ W_h + b),)),
            ("the new state added to the old", (lambda x, h, W_x, W_h, b: h + np.tanh(W_x @ x + W_h @ h + b),)),
        ],
    ),
    "02.2": (
        Called(check_moved_states, changed=12, T=12),
        [("[12]", ([12],)), ("a tuple", ((12,),)), ("an array", (np.array([12]),)), ("12.0", ([12.0],))],
        [
            ("the starting answer", (list(range(1, 13)),)),
            ("nothing", ([],)),
            ("the last two", ([11, 12],)),
            ("counted from 0", ([11],)),
            ("a string", (["12"],)),
            ("the number alone", (12,)),
            ("twice", ([12, 12],)),
            ("a fraction", ([12.5],)),
            ("the states before it", (list(range(1, 12)),)),
            ("position 13", ([13],)),
        ],
    ),
    "03.1": (
        Called(check_stored_floats, T=40, d_dir=8),
        [("640", (640,)), ("640.0", (640.0,)), ("an expression", (40 * 2 * 8,)), ("numpy", (np.int64(640),))],
        [
            ("the starting answer: one direction", (40 * 8,)),
            ("one annotation", (16,)),
            ("one state", (8,)),
            ("a string", ("640",)),
            ("not whole", (640.5,)),
            ("NaN", (float("nan"),)),
            ("in a list", ([640],)),
            ("both directions of one state", (16 * 8,)),
            ("one more position", (41 * 16,)),
        ],
    ),
    "03.2": (
        Called(check_moved_halves, changed=1, T=6),
        [
            ("lists", (list(range(1, 7)), [1])),
            ("ranges and a tuple", (range(1, 7), (1,))),
            ("unsorted, floats", ([6, 5, 4, 3, 2, 1], [1.0])),
            ("arrays", (np.arange(1, 7), np.array([1]))),
        ],
        [
            ("the starting answer: swapped", ([1], list(range(1, 7)))),
            ("the changed position left out", (list(range(2, 7)), [1])),
            ("no backward half", (list(range(1, 7)), [])),
            ("counted from 0", (list(range(0, 6)), [0])),
            ("strings", ([str(j) for j in range(1, 7)], ["1"])),
            ("fractions", ([1.5, 2, 3, 4, 5, 6], [1])),
            ("every backward half too", (list(range(1, 7)), list(range(1, 7)))),
            ("only the changed position", ([1], [1])),
        ],
    ),
    "04.1": (
        check_softmax,
        [
            ("shift by the row maximum", (softmax_rows,)),
            ("in float32", (lambda e: softmax_rows(e).astype(F32),)),
            ("by log-sum-exp", (lambda e: np.exp(e - np.logaddexp.reduce(e, axis=-1, keepdims=True)),)),
            ("row by row", (lambda e: np.apply_along_axis(softmax_rows, -1, e),)),
            ("the solution's float conversion", (lambda e: softmax_rows(np.asarray(e, dtype=float)),)),
        ],
        [
            ("the starting answer: no shift", (lambda e: np.exp(e) / np.exp(e).sum(),)),
            ("no shift, per row", (softmax_shifted_by(lambda e: 0.0),)),
            ("shift by the first score", (softmax_shifted_by(lambda e: e[..., :1]),)),
            ("shift by the last score", (softmax_shifted_by(lambda e: e[..., -1:]),)),
            ("shift by the second score", (softmax_shifted_by(lambda e: e[..., 1:2]),)),
            ("shift by the median", (softmax_shifted_by(lambda e: np.median(e, axis=-1, keepdims=True)),)),
            ("shift by the maximum of each column", (softmax_shifted_by(lambda e: e.max(axis=0)),)),
            ("normalised over the columns", (lambda e: (z := np.exp(e - e.max(axis=0))) / z.sum(axis=0),)),
            ("the transpose's softmax", (lambda e: softmax_rows(e.T).T,)),
            ("exp of minus the scores", (lambda e: softmax_rows(-e),)),
            ("the maximum's weight to one", (lambda e: (e == e.max(axis=-1, keepdims=True)).astype(float),)),
            ("shift by the mean", (softmax_shifted_by(lambda e: e.mean(axis=-1, keepdims=True)),)),
            ("shift by the minimum", (softmax_shifted_by(lambda e: e.min(axis=-1, keepdims=True)),)),
            ("one maximum for the whole array", (softmax_shifted_by(lambda e: e.max()),)),
            ("sum over the whole array", (lambda e: np.exp(e - e.max()) / np.exp(e - e.max()).sum(),)),
            ("no normalisation", (lambda e: np.exp(e - e.max(axis=-1, keepdims=True)),)),
            ("forgot return", (forgot_return,)),
        ],
    ),
    "04.2": (
        Called(check_context, scores=[LOG2, 0.0, 0.0]),
        [
            ("an array", (np.array([1.25, -0.75]),)),
            ("a list", ([1.25, -0.75],)),
            ("computed in float32", (attend(np.array([LOG2, 0, 0]), H_EXAMPLE)[1].astype(F32),)),
            ("to 3 decimals", ((1.250, -0.750),)),
        ],
        [
            ("the starting answer", (np.array([0.0, 0.0]),)),
            ("weighted by the raw scores", (LOG2 * H_EXAMPLE[0],)),
            ("the mean", (H_EXAMPLE.mean(axis=0),)),
            ("the hard read", (H_EXAMPLE[0],)),
            ("the weights", ([0.5, 0.25, 0.25],)),
            ("a string", ("1.25, -0.75",)),
            ("NaN", ([np.nan, -0.75],)),
            ("to 2 decimals with a slip", ([1.25, -0.76],)),
            ("the sign of the second flipped", ([1.25, 0.75],)),
        ],
    ),
    "05.1": (
        check_additive_score,
        [
            ("the formula", (additive,)),
            ("in float32", (lambda *a: F32(additive(*a)),)),
            ("with np.dot", (lambda s, h, W_s, W_h, v, b: np.dot(v, np.tanh(np.dot(W_s, s) + np.dot(W_h, h) + b)),)),
            ("as a sum", (lambda s, h, W_s, W_h, v, b: np.sum(v * np.tanh(W_s @ s + W_h @ h + b)),)),
            ("shape (1,)", (lambda *a: np.array([additive(*a)]),)),
        ],
        [
            ("no tanh", (lambda s, h, W_s, W_h, v, b: v @ (W_s @ s + W_h @ h + b),)),
            ("no bias", (lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s @ s + W_h @ h),)),
            ("tanh after v", (lambda s, h, W_s, W_h, v, b: np.tanh(v @ (W_s @ s + W_h @ h + b)),)),
            ("summed, not weighted by v", (lambda s, h, W_s, W_h, v, b: np.sum(np.tanh(W_s @ s + W_h @ h + b)),)),
            ("W_s transposed", (lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s.T @ s + W_h @ h + b),)),
            ("the vector, not the score", (lambda s, h, W_s, W_h, v, b: np.tanh(W_s @ s + W_h @ h + b),)),
            ("forgot return", (forgot_return,)),
            ("printed it", (lambda *a: f"{additive(*a):.6f}",)),
            ("minus the annotation term", (lambda s, h, W_s, W_h, v, b: v @ np.tanh(W_s @ s - W_h @ h + b),)),
            ("the sign flipped", (lambda *a: -additive(*a),)),
            ("the bias outside the tanh", (lambda s, h, W_s, W_h, v, b: v @ (np.tanh(W_s @ s + W_h @ h) + b),)),
        ],
    ),
    "05.2": (
        check_linear_ablation,
        [
            ("a stable softmax", (ablation,)),
            ("in float32", (lambda *a: ablation(*a).astype(F32),)),
            ("as a list", (lambda *a: list(ablation(*a)),)),
            ("by log-sum-exp", (lambda H, W_h, v: np.exp((e := H @ W_h.T @ v) - np.logaddexp.reduce(e)),)),
        ],
        [
            ("the scores", (lambda H, W_h, v: H @ W_h.T @ v,)),
            ("no shift", (lambda H, W_h, v: np.exp(H @ W_h.T @ v) / np.exp(H @ W_h.T @ v).sum(),)),
            ("divided by the sum", (lambda H, W_h, v: (e := H @ W_h.T @ v) / e.sum(),)),
            ("tanh kept", (lambda H, W_h, v: softmax_rows(np.tanh(H @ W_h.T) @ v),)),
            ("uniform", (lambda H, W_h, v: np.full(len(H), 1 / len(H)),)),
            ("forgot return", (forgot_return,)),
            ("shift by the first score", (lambda H, W_h, v: softmax_shifted_by(lambda e: e[0])(H @ W_h.T @ v),)),
            ("shift by the last score", (lambda H, W_h, v: softmax_shifted_by(lambda e: e[-1])(H @ W_h.T @ v),)),
            ("shift by the mean score", (lambda H, W_h, v: softmax_shifted_by(np.mean)(H @ W_h.T @ v),)),
            ("exp of minus the scores", (lambda H, W_h, v: softmax_rows(-(H @ W_h.T @ v)),)),
            ("the largest score's weight to one", (lambda H, W_h, v: np.eye(len(H))[np.argmax(H @ W_h.T @ v)],)),
        ],
    ),
    "06.1": (
        Called(check_example_read, 0.5, names=("scores", "weights")),
        [
            ("exact", AT_HALF),
            ("to 4 decimals", ([0.5245, 1.3673, 1.3673], [0.1771, 0.4114, 0.4114])),
            ("to 3 decimals", ([0.524, 1.367, 1.367], [0.177, 0.411, 0.411])),
            ("float32 arrays", tuple(np.array(x, dtype=F32) for x in AT_HALF)),
            ("rounded half up from the printed 4 decimals", ([0.525, 1.367, 1.367], [0.177, 0.411, 0.411])),
            ("weights from the 3-decimal scores", ([0.524, 1.367, 1.367], [0.177, 0.411, 0.411])),
        ],
        [
            ("sign flipped", ([-0.5245, -1.3673, -1.3673], [0.4114, 0.2943, 0.2943])),
            ("weights as scores over their sum", (AT_HALF[0], np.array(AT_HALF[0]) / np.sum(AT_HALF[0]))),
            ("uniform weights", (AT_HALF[0], [1 / 3] * 3)),
            ("to 2 decimals", ([0.52, 1.37, 1.37], [0.18, 0.41, 0.41])),
            ("one score off by 0.001", ([0.5235, 1.3673, 1.3673], AT_HALF[1])),
            ("the weights in the wrong order", (AT_HALF[0], [0.4114, 0.4114, 0.1771])),
            ("two numbers", ([0.5245, 1.3673], [0.1771, 0.4114])),
            ("strings", (["0.5245", "1.3673", "1.3673"], AT_HALF[1])),
            ("NaN", ([np.nan, 1.3673, 1.3673], AT_HALF[1])),
        ],
    ),
    "06.2": (
        Called(check_peak_state, position=1),
        [
            ("-1.46", (-1.46,)),
            ("the printed -1.456", (-1.456,)),
            ("float32", (F32(-1.455),)),
            ("numpy", (np.float64(-1.4554),)),
        ],
        [
            ("-1.44", (-1.44,)),
            ("-1.45, truncated", (-1.45,)),
            ("-1.47", (-1.47,)),
            ("to one decimal", (-1.5,)),
            ("the mirror", (1.46,)),
            ("zero", (0.0,)),
            ("the range's end", (-4.0,)),
            ("a string", ("-1.46",)),
            ("NaN", (float("nan"),)),
            ("None", (None,)),
        ],
    ),
    "07.1": (
        check_score_gradient,
        [
            ("the formula", (gradient,)),
            ("in float32", (lambda *a: gradient(*a).astype(F32),)),
            ("expanded", (lambda w, H, g: w * (H @ g) - w * (w @ H @ g),)),
            ("as a list", (lambda *a: list(gradient(*a)),)),
        ],
        [
            ("the starting answer", (lambda w, H, g: np.zeros_like(w),)),
            ("sign flipped", (lambda *a: -gradient(*a),)),
            ("no alpha", (lambda w, H, g: (H - w @ H) @ g,)),
            ("no c", (lambda w, H, g: w * (H @ g),)),
            ("the context's gradient", (lambda w, H, g: w @ H,)),
            ("forgot return", (forgot_return,)),
            ("c as the plain mean", (lambda w, H, g: w * ((H - H.mean(axis=0)) @ g),)),
            ("the weights squared", (lambda w, H, g: w**2 * ((H - w @ H) @ g),)),
            ("shifted by one position", (lambda *a: np.roll(gradient(*a), 1),)),
            ("alpha (1 - alpha) g^T h_j", (lambda w, H, g: w * (1 - w) * (H @ g),)),
        ],
    ),
    "07.2": (
        check_steepest_push,
        [
            ("exact to 4 decimals", (3, 0.4151)),
            ("from the printed weights", (3, 0.4152)),
            ("from the printed weights, unrounded", (3, 0.41518)),
            ("float and numpy", (3.0, np.float32(0.41512))),
            ("numpy int", (np.int64(3), 0.41512299)),
        ],
        [
            ("the starting answer", (1, 0.0)),
            ("sign flipped", (3, -0.4151)),
            ("the second position", (2, 0.2429)),
            ("the first position", (1, 0.658)),
            ("a rough amount", (3, 0.42)),
            ("0.4150, off in the fourth decimal", (3, 0.4150)),
            ("0.4153", (3, 0.4153)),
            ("NaN", (3, float("nan"))),
            ("a string position", ("3", 0.4151)),
            ("counted from 0", (0, 0.4151)),
            ("a fraction of a position", (2.5, 0.4151)),
        ],
    ),
    "08.1": (
        check_causal_mask,
        [
            ("np.tril", (lambda T: np.tril(np.ones((T, T), dtype=bool)),)),
            ("a comparison", (lambda T: np.arange(T)[:, None] >= np.arange(T)[None, :],)),
            ("np.tri", (lambda T: np.tri(T, dtype=bool),)),
            ("lists of booleans", (lambda T: [[j <= i for j in range(T)] for i in range(T)],)),
        ],
        [
            ("transposed", (lambda T: np.triu(np.ones((T, T), dtype=bool)),)),
            ("no diagonal", (lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1),)),
            ("swapped", (lambda T: ~np.tril(np.ones((T, T), dtype=bool)),)),
            ("zeros and ones", (lambda T: np.tril(np.ones((T, T))),)),
            ("one row", (lambda T: np.ones(T, dtype=bool),)),
            ("forgot return", (forgot_return,)),
            ("one diagonal too many", (lambda T: np.tril(np.ones((T, T), dtype=bool), k=1),)),
            ("the anti-diagonal's side", (lambda T: np.fliplr(np.tril(np.ones((T, T), dtype=bool))),)),
            ("everything readable", (lambda T: np.ones((T, T), dtype=bool),)),
        ],
    ),
    "08.4": (
        check_gaussian,
        [
            ("the formula", (gaussian,)),
            ("in float32", (lambda *a: gaussian(*a).astype(F32),)),
            ("as a list", (lambda *a: list(gaussian(*a)),)),
            ("2 / D^2 written out", (lambda p, T, D: np.exp(-2 * (np.arange(1, T + 1) - p) ** 2 / D**2),)),
        ],
        [
            ("the starting answer: sigma = D", (gaussian_with(sigma=lambda D: D),)),
            ("counted from 0", (gaussian_with(j0=0),)),
            ("no factor 2", (gaussian_with(two=1.0),)),
            ("a positive exponent", (gaussian_with(sign=1.0),)),
            ("sigma = D / 4", (gaussian_with(sigma=lambda D: D / 4),)),
            ("forgot return", (forgot_return,)),
            ("positions 1..T + 1", (lambda p, T, D: gaussian(p, T + 1, D),)),
            ("the centre one position off", (gaussian_with(p_shift=1.0),)),
            ("normalised to sum to one", (lambda *a: gaussian(*a) / gaussian(*a).sum(),)),
            ("sigma = D / 2 squared twice", (gaussian_with(sigma=lambda D: D**2 / 4),)),
        ],
    ),
    "08.5": (
        Called(check_local_m_window, t=6, T=7, D=2),
        [
            ("a list", ([4, 5, 6, 7],)),
            ("an array", (np.array([4, 5, 6, 7]),)),
            ("backwards", ((7, 6, 5, 4),)),
            ("a range", (range(4, 8),)),
            ("floats", ([4.0, 5.0, 6.0, 7.0],)),
        ],
        [
            ("the starting answer: not clipped", ([4, 5, 6, 7, 8],)),
            ("counted from 0", ([3, 4, 5, 6],)),
            ("one end left out", ([5, 6, 7],)),
            ("a repeat", ([4, 5, 6, 7, 7],)),
            ("strings", (["4", "5", "6", "7"],)),
            ("fractions", ([4.5, 5.5, 6.5],)),
            ("nothing", ([],)),
            ("the window at t = 5", ([3, 4, 5, 6, 7],)),
            ("one end and beyond", ([6, 7, 8],)),
        ],
    ),
    "09.1": (
        check_scaled_weights,
        [
            ("a list", (softmax_rows(np.array([1.0, 2.0, 3.0]) / np.sqrt(2.0)).tolist(),)),
            ("in float32", (softmax_rows(np.array([1.0, 2.0, 3.0], dtype=F32) / F32(np.sqrt(2.0))),)),
            ("a tuple, rounded to 6 places", (tuple(np.round(softmax_rows(np.array([1, 2, 3]) / 2**0.5), 6)),)),
        ],
        [
            ("the starting answer: unscaled", (softmax_rows(np.array([1.0, 2.0, 3.0])),)),
            ("divided by d", (softmax_rows(np.array([1.0, 2.0, 3.0]) / 2),)),
            ("scaled scores, no softmax", ((np.array([1.0, 2.0, 3.0]) / np.sqrt(2.0)).tolist(),)),
            ("raw scores", ([1, 2, 3],)),
            ("rounded to 1 place", ([0.1, 0.3, 0.6],)),
            ("rounded to 4 places, beyond CLOSE", ([0.14, 0.284, 0.576],)),
            ("keys and query swapped in order", (softmax_rows(np.array([3.0, 2.0, 1.0]) / np.sqrt(2.0)),)),
            ("two weights", ([0.5, 0.5],)),
        ],
    ),
    "09.2": (
        check_permuted_rows,
        [
            ("a list", ([3, 1, 5, 2, 4],)),
            ("an array of floats", (np.array([3.0, 1.0, 5.0, 2.0, 4.0]),)),
            ("a tuple", ((3, 1, 5, 2, 4),)),
        ],
        [
            ("the starting answer: in place", ([1, 2, 3, 4, 5],)),
            ("the inverse permutation", ([2, 4, 1, 5, 3],)),
            ("counted from 0", ([2, 0, 4, 1, 3],)),
            ("two swapped", ([3, 1, 5, 4, 2],)),
            ("reversed", ([4, 2, 5, 1, 3],)),
            ("a fraction", ([3.5, 1, 5, 2, 4],)),
            ("four positions", ([3, 1, 5, 2],)),
        ],
    ),
}
RIGHT = [(key, label, args) for key, (_, right, _) in BANKS.items() for label, args in right]
WRONG = [(key, label, args) for key, (_, _, wrong) in BANKS.items() for label, args in wrong]


def test_every_checked_exercise_has_a_bank():
    assert len(BANKS) == 19
    for key, (_, right, wrong) in BANKS.items():
        assert len(right) >= 3 and len(wrong) >= 5, key


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("key", "label", "args"), RIGHT, ids=[f"{k} {label}" for k, label, _ in RIGHT])
def test_every_right_answer_passes(key, label, args):
    result = BANKS[key][0](*args)
    assert isinstance(result, CheckResult) and result.ok, result
    assert BANKS[key][0].decide(*args).ok  # the decision itself, without the last net: no exception on the way


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("key", "label", "args"), WRONG, ids=[f"{k} {label}" for k, label, _ in WRONG])
def test_every_mistake_fails_in_every_language(key, label, args):
    result = BANKS[key][0](*args)
    assert isinstance(result, CheckResult) and not result.ok and result.message.strip(" .:"), result
    assert not BANKS[key][0].decide(*args).ok  # the decision itself, without the last net: no exception on the way
    english = at_try(2, BANKS[key][0], *args)  # the hint and its detail
    for code in languages():
        with language(code):
            said = at_try(2, BANKS[key][0], *args)
        assert not said.ok and said.message.strip(" .:"), (code, said)
        if code not in ("en", "qps"):  # the same numbers, in the same order, in every translation
            assert NUMBER.findall(said.message) == NUMBER.findall(english.message), (code, english, said)
        if code == "qps":  # every word a reader reads comes through the translation files (the lessons' check cells
            # are stored unrun, so the pseudo edition's scan of stored outputs no longer sees these messages)
            ours = QUOTED.sub(" ", said.message)  # a quotation is the reader's (or Python's) text, as written
            assert not escaped(ours, PSEUDO_ALLOWED), (escaped(ours, PSEUDO_ALLOWED), said)


# ------------------------------------------------------------------------------------ malformed input
TEXTS = st.text(max_size=8) | st.sampled_from(["12", "0.4151", "[1, 2]", "nan", "640"])
NON_FINITE = st.sampled_from([float("nan"), float("inf"), -float("inf"), np.float32("nan")])
NOT_A_NUMBER = st.one_of(
    st.none(), TEXTS, NON_FINITE, st.booleans(), st.complex_numbers(allow_nan=False, min_magnitude=1),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)  # fmt: skip
NEAR_WHOLE = st.integers(-2, 14).flatmap(lambda n: st.sampled_from([n + 1e-7, n - 1e-9, n + 0.5]))
MALFORMED_LIST = st.one_of(
    st.lists(NOT_A_NUMBER, min_size=1, max_size=4),
    st.lists(NEAR_WHOLE, min_size=1, max_size=4),
    st.just([[1, 2], [3]]),  # ragged
    st.just(np.ones((2, 2))),
    st.integers(1, 12).map(lambda n: [n, n]),  # a repeat
)
MALFORMED = st.one_of(NOT_A_NUMBER, MALFORMED_LIST)
MALFORMED_POSITION = st.one_of(NOT_A_NUMBER, NEAR_WHOLE, MALFORMED_LIST)


def returning(value):
    return lambda *args: value


# Every check with the slot a student fills taken from a strategy of malformed values.
SLOTS = {
    "01.1": MALFORMED.map(lambda q: (q,)),
    "01.3": MALFORMED.map(lambda q: (q,)),
    "02.1": MALFORMED.map(lambda v: (returning(v),)),
    "02.2": MALFORMED_POSITION.map(lambda a: (a,)),
    "03.1": MALFORMED_POSITION.map(lambda a: (a,)),
    "03.2": st.tuples(MALFORMED_POSITION, MALFORMED_POSITION),
    "04.1": MALFORMED.map(lambda v: (returning(v),)),
    "04.2": MALFORMED.map(lambda c: (c,)),
    "05.1": MALFORMED.map(lambda v: (returning(v),)),
    "05.2": MALFORMED.map(lambda v: (returning(v),)),
    "06.1": st.one_of(MALFORMED.map(lambda e: (e, AT_HALF[1])), MALFORMED.map(lambda w: (AT_HALF[0], w))),
    "06.2": MALFORMED.map(lambda s: (s,)),
    "07.1": MALFORMED.map(lambda v: (returning(v),)),
    "07.2": st.one_of(MALFORMED_POSITION.map(lambda j: (j, 0.4151)), MALFORMED.map(lambda a: (3, a))),
    "08.1": MALFORMED.map(lambda v: (returning(v),)),
    "08.4": MALFORMED.map(lambda v: (returning(v),)),
    "08.5": MALFORMED_POSITION.map(lambda a: (a,)),
    "09.1": MALFORMED.map(lambda a: (a,)),
    "09.2": MALFORMED_POSITION.map(lambda a: (a,)),
}


def test_every_exercise_has_a_malformed_slot():
    assert SLOTS.keys() == BANKS.keys()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("key", sorted(SLOTS))
def test_malformed_input_never_passes_and_never_raises(key):
    check = BANKS[key][0]

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(SLOTS[key])
    def run(args):
        assert not check.decide(*args).ok  # an exception here, even one the last net would catch, fails the test
        result = check(*args)
        assert isinstance(result, CheckResult) and not result.ok, (args, result)
        assert result.message.strip(" .:"), (args, result)

    run()


# ------------------------------------------------------------------------------------ nothing given away
# What would give each answer away in a verdict: the value exercises' answers as a message would print them, the
# function exercises' solution (the check's own one-line answer).
ANSWER_TOKENS = {
    "01.1": ["time=3"],
    "01.3": ["negation=3", "0.355"],
    "02.2": ["[12]", "h_12 moves"],
    "03.1": ["640"],
    "03.2": ["[1, 2, 3, 4, 5, 6]"],
    "04.2": ["1.25", "0.75"],
    "06.1": ["0.524", "0.525", "1.367", "0.177", "0.411"],
    "06.2": ["-1.46", "-1.455"],
    "07.2": ["0.4151", "0.4152"],
    "08.5": ["[4, 5, 6, 7]"],
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("key", "label", "args"), WRONG, ids=[f"{k} {label}" for k, label, _ in WRONG])
def test_a_first_wrong_answer_never_shows_the_answer(key, label, args):
    """Issue 45: five checks stated the right answer at the first wrong attempt. Now only the third wrong answer in
    a row (or show_answer=True) does; the first names where the answer fails and the idea to look at."""
    finding = BANKS[key][0].decide(*args)
    tokens = ANSWER_TOKENS.get(key, []) + ([finding.answer] if isinstance(finding.answer, str) else [])
    given_ = repr(args)
    first = at_try(1, BANKS[key][0], *args)
    ours = QUOTED.sub(" ", first.message)  # a quotation is the reader's own value
    shown = [token for token in tokens if token in ours and token not in given_]
    assert not shown, (shown, first)
    third = at_try(3, BANKS[key][0], *args)
    assert not finding.judged or third.note.startswith("The answer: "), third
