"""The worked example of lesson 06 (*Same content, different state*), as named constants.

Three source positions labelled I, like, cats, with hand-chosen two-dimensional annotations (not trained
vectors), a scalar decoder state ``s`` and the scorer parameters below. With them the additive score expands
to ``e_j(s) = tanh(s + h_j1) - tanh(s + h_j2)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._numerics import finite_result
from ._validate import guarded_nonlinearity, read_only, real_array
from .reading import softmax_rows_kernel
from .scores import additive_scores_kernel

TOKENS = ("I", "like", "cats")  # labels of the three source positions
H_EXAMPLE = read_only([[2.0, 0.0], [1.0, -1.0], [0.0, -2.0]])  # (T, d_h) = (3, 2): h_1, h_2, h_3 as rows
W_S_EXAMPLE = read_only([[1.0], [1.0]])  # (d_a, d_s) = (2, 1): the column [1, 1]^T
W_H_EXAMPLE = read_only(np.eye(2))  # (d_a, d_h) = (2, 2): the identity
V_EXAMPLE = read_only([1.0, -1.0])  # (d_a,)
B_EXAMPLE = read_only(np.zeros(2))  # (d_a,)
STATE_A, STATE_B = -1.0, 1.0  # the two reading states the article compares
S_RANGE = (-4.0, 4.0)  # the interval over which the lessons draw weight curves
# Slider settings shared by the notebooks' ipywidgets and the website's live explorers (one source for both).
S_STEP = 0.05  # step of the state slider s (lessons 05 and 06)
SCORE_RANGE = (-4.0, 4.0)  # range of each score slider e_j (lesson 04)
SCORE_STEP = 0.1  # step of each score slider
# Lesson 04's score explorer on the website: three annotations that span a real triangle (H_EXAMPLE's rows are
# collinear, on x - y = 2, so their hull is a segment). Hand-chosen for drawing, like H_EXAMPLE.
H_TRIANGLE = read_only([[2.0, 0.0], [0.0, 2.0], [-1.0, -1.0]])  # (T, d_h) = (3, 2)


class ExampleRead(NamedTuple):
    """One or more reads of the worked example: ``s`` and the scores, weights and context it gives."""

    s: np.ndarray  # () or (N,)
    scores: np.ndarray  # (3,) or (N, 3)
    weights: np.ndarray  # (3,) or (N, 3)
    context: np.ndarray  # (2,) or (N, 2)


def worked_example(s, nonlinearity=np.tanh) -> ExampleRead:
    r"""Scores, weights and context of the lesson-06 example for a scalar state ``s`` or an array of them.

    .. math:: e_j(s) = v^\top \tanh(W_s s + W_h h_j + b) = \tanh(s + h_{j,1}) - \tanh(s + h_{j,2})

    ``s`` may be a number (results ``(3,)`` and ``(2,)``) or a 1-D array of ``N`` states (results ``(N, 3)``
    and ``(N, 2)``), so a whole weight curve is one call. ``nonlinearity=None`` gives the linear ablation of
    lesson 05. At ``s = -1`` the weights are 0.5414, 0.3095, 0.1491 and the context is about
    (1.392334, -0.607666).
    """
    sv = real_array(s, "s", ndims=(0, 1), expected="() for one state or (N,) for N states")
    # The constants are valid by construction and read-only, so only s and what a caller's nonlinearity returns
    # are checked; the core's kernels do the rest (this is the explorers' hot path: one slider move is one call).
    states = sv.reshape(-1, 1)  # (N, d_s) = (N, 1)
    scores = additive_scores_kernel(
        states, H_EXAMPLE, W_S_EXAMPLE, W_H_EXAMPLE, V_EXAMPLE, B_EXAMPLE, guarded_nonlinearity(nonlinearity)
    )  # (N, 3)
    if nonlinearity not in (np.tanh, None):  # with tanh or None, finite s always gives finite scores
        finite_result(scores, "the scores v^T nonlinearity(W_s s + W_h h_j + b)", s=sv)
    weights = softmax_rows_kernel(scores)  # (N, 3)
    context = weights @ H_EXAMPLE  # (N, 3) x (3, 2) -> (N, 2)
    if sv.ndim == 0:
        return ExampleRead(sv, scores[0], weights[0], context[0])
    return ExampleRead(sv, scores, weights, context)
