"""GRU cell: its backward pass against central differences, and the gated mix."""

from __future__ import annotations

import numpy as np

from attention_core.gradients import finite_difference
from attention_core.models.gru import gru_step, gru_step_backward


def rel_error(a, b) -> float:
    """Relative error of two gradient tensors: ||a - b|| / (||a|| + ||b||)."""
    den = np.linalg.norm(a) + np.linalg.norm(b)
    return float(np.linalg.norm(a - b) / den) if den > 0 else 0.0


def test_gru_step_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    N, d = 3, 4
    xp, h, U = rng.standard_normal((N, 3 * d)), rng.standard_normal((N, d)), rng.standard_normal((3 * d, d))
    w = rng.standard_normal((N, d))  # loss = sum(w * h')

    def loss(xp_, h_, U_):
        return float((w * gru_step(xp_, h_, U_)[0]).sum())

    _, cache = gru_step(xp, h, U)
    d_xp, d_h, d_U = gru_step_backward(w, cache, U)
    assert rel_error(d_xp, finite_difference(lambda x: loss(x, h, U), xp)) < 1e-7
    assert rel_error(d_h, finite_difference(lambda x: loss(xp, x, U), h)) < 1e-7
    assert rel_error(d_U, finite_difference(lambda x: loss(xp, h, x), U)) < 1e-7


def test_gru_state_is_a_gated_mix_of_old_state_and_candidate():
    rng = np.random.default_rng(1)
    h = rng.uniform(-1, 1, (5, 3))
    h_new, cache = gru_step(rng.standard_normal((5, 9)), h, rng.standard_normal((9, 3)))
    lo, hi = np.minimum(h, cache.n), np.maximum(h, cache.n)
    assert np.all((lo - 1e-12 <= h_new) & (h_new <= hi + 1e-12))
