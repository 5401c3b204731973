"""The raw-score and hard reads that lesson 04 contrasts with the softmax read."""

import numpy as np
import pytest

from attention_core import H_EXAMPLE, attend, finite_difference
from attention_core.read_variants import hard_read, hard_weights, raw_score_read


def test_raw_read_is_unnormalised_and_not_shift_invariant():
    e = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(raw_score_read(e, H_EXAMPLE), e @ H_EXAMPLE)
    assert not np.allclose(raw_score_read(e + 5, H_EXAMPLE), raw_score_read(e, H_EXAMPLE))
    np.testing.assert_allclose(attend(e + 5, H_EXAMPLE)[1], attend(e, H_EXAMPLE)[1])


def test_hard_read_picks_argmax_first_on_ties_and_batches():
    np.testing.assert_array_equal(hard_weights([0.0, 2.0, 1.0]), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(hard_weights([1.0, 1.0, 0.0]), [1.0, 0.0, 0.0])
    E = np.array([[0.0, 2.0, 1.0], [3.0, 0.0, 0.0]])
    np.testing.assert_array_equal(hard_read(E, H_EXAMPLE), H_EXAMPLE[[1, 0]])


def test_hard_read_has_zero_gradient_away_from_ties():
    def f(x):
        return hard_read(x, H_EXAMPLE)[0]

    assert np.all(finite_difference(f, np.array([-1.0, 0.0, -1.0]), eps=1e-3) == 0)


def test_errors():
    with pytest.raises(ValueError, match="H"):
        raw_score_read(np.zeros(2), H_EXAMPLE)


@pytest.mark.parametrize("call", [lambda: hard_weights(3.0), lambda: hard_read(3.0, H_EXAMPLE)])
def test_a_scalar_score_is_refused_naming_scores(call):
    with pytest.raises(ValueError, match=r"^scores must have shape \(T,\) or \(N, T\), got shape \(\)"):
        call()
