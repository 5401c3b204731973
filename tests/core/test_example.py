"""The worked example of lesson 06 must give the article's printed digits; its constants cannot be changed."""

import numpy as np
import pytest

import attention_core as ac
from attention_core import H_EXAMPLE, worked_example
from attention_core.example import H_TRIANGLE


def test_state_A_matches_the_article():
    read = worked_example(-1.0)
    assert [f"{x:.4f}" for x in read.scores] == ["1.5232", "0.9640", "0.2335"]
    assert [f"{x:.4f}" for x in read.weights] == ["0.5414", "0.3095", "0.1491"]
    assert [f"{x:.6f}" for x in read.context] == ["1.392334", "-0.607666"]


def test_state_B_is_the_mirror_image():
    a, b = worked_example(-1.0), worked_example(1.0)
    np.testing.assert_allclose(b.scores, a.scores[::-1], rtol=1e-12)
    np.testing.assert_allclose(b.weights, a.weights[::-1], rtol=1e-12)
    assert [f"{x:.6f}" for x in b.context] == ["0.607666", "-1.392334"]


def test_expanded_formula():
    s = np.linspace(-4, 4, 9)
    expected = np.tanh(s[:, None] + H_EXAMPLE[:, 0]) - np.tanh(s[:, None] + H_EXAMPLE[:, 1])
    np.testing.assert_allclose(worked_example(s).scores, expected)


def test_curve_shapes_and_ablation_is_flat():
    curve = worked_example(np.linspace(-4, 4, 1001))
    assert curve.weights.shape == (1001, 3) and curve.context.shape == (1001, 2)
    flat = worked_example(np.linspace(-4, 4, 1001), nonlinearity=None)
    assert np.ptp(flat.weights, axis=0).max() < 1e-12


def test_bad_state():
    with pytest.raises(ValueError, match=r"s must have shape \(\) for one state or \(N,\)"):
        worked_example(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        worked_example(float("nan"))


CONSTANTS = {
    name: getattr(ac, name) for name in ("H_EXAMPLE", "W_S_EXAMPLE", "W_H_EXAMPLE", "V_EXAMPLE", "B_EXAMPLE")
} | {"H_TRIANGLE": H_TRIANGLE}


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_example_constants_are_read_only(name):
    arr = CONSTANTS[name]
    before = arr.copy()
    assert not arr.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        arr[(0,) * arr.ndim] = 9.0
    with pytest.raises(ValueError, match="read-only"):
        arr += 1.0
    np.testing.assert_array_equal(arr, before)


def test_nonlinearity_that_overflows_is_named():
    with pytest.raises(ValueError, match="nonlinearity returned NaN or inf"):
        worked_example(1000.0, nonlinearity=np.exp)


def test_nonlinearity_that_changes_the_shape_is_named():
    with pytest.raises(ValueError, match=r"nonlinearity must act elementwise.*\(1, 3, 2\).*shape \(\)"):
        worked_example(1.0, nonlinearity=np.sum)


def test_finite_but_huge_nonlinearity_output_is_refused():
    with pytest.raises(ValueError, match="scores v\\^T nonlinearity.*overflowed float64"):
        worked_example(0.0, nonlinearity=lambda z: np.sign(z) * 1e308)  # e_2 = 1e308 + 1e308


def test_extreme_states_give_finite_reads():
    for s in (1.7e308, -1.7e308, 5e-324):
        for f in (np.tanh, None):
            read = worked_example(s, nonlinearity=f)
            assert all(np.isfinite(x).all() for x in read)
            np.testing.assert_allclose(read.weights.sum(), 1.0)


def test_an_elementwise_nonlinearity_of_ones_own():
    read = worked_example(-1.0, nonlinearity=np.sin)
    np.testing.assert_allclose(read.scores, np.sin(-1.0 + H_EXAMPLE[:, 0]) - np.sin(-1.0 + H_EXAMPLE[:, 1]))


@pytest.mark.parametrize("s", [np.array(-1.0, dtype=">f8"), np.float16(-1.0), np.longdouble(-1.0), -1, [-1.0]])
def test_any_real_state_type(s):
    read = worked_example(s)
    np.testing.assert_allclose(np.ravel(read.weights), [0.5414, 0.3095, 0.1491], atol=5e-5)


def test_masked_state_is_refused():
    with pytest.raises(TypeError, match="s is a numpy MaskedArray"):
        worked_example(np.ma.array([1.0, 2.0], mask=[0, 1]))
