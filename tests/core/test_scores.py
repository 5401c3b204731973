"""Score functions: values, batching, the linear ablation, backward pass, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import (
    additive_scores,
    additive_scores_backward,
    dot_scores,
    finite_difference,
    general_scores,
    softmax,
)


def random_scorer(rng, d_s=3, d_h=4, d_a=5, T=6):
    return (
        rng.normal(size=d_s),
        rng.normal(size=(T, d_h)),
        rng.normal(size=(d_a, d_s)),
        rng.normal(size=(d_a, d_h)),
        rng.normal(size=d_a),
        rng.normal(size=d_a),
    )


def test_additive_matches_the_formula_position_by_position():
    s, H, W_s, W_h, v, b = random_scorer(np.random.default_rng(1))
    e = additive_scores(s, H, W_s, W_h, v, b)
    expected = [v @ np.tanh(W_s @ s + W_h @ h + b) for h in H]
    np.testing.assert_allclose(e, expected)


def test_additive_batch_of_states_is_one_call():
    rng = np.random.default_rng(2)
    s, H, W_s, W_h, v, b = random_scorer(rng)
    S = rng.normal(size=(1001, 3))
    E = additive_scores(S, H, W_s, W_h, v, b)
    assert E.shape == (1001, 6)
    np.testing.assert_allclose(E[17], additive_scores(S[17], H, W_s, W_h, v, b))
    Hb = rng.normal(size=(1001, 6, 4))
    np.testing.assert_allclose(additive_scores(S, Hb, W_s, W_h, v, b)[5], additive_scores(S[5], Hb[5], W_s, W_h, v, b))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.floats(-10, 10), st.floats(-10, 10))
def test_without_nonlinearity_weights_do_not_depend_on_s(seed, T, s1, s2):
    rng = np.random.default_rng(seed)
    _, H, W_s, W_h, v, b = random_scorer(rng, T=T)
    sa, sb = np.full(3, s1), np.full(3, s2)
    wa = softmax(additive_scores(sa, H, W_s, W_h, v, b, nonlinearity=None))
    wb = softmax(additive_scores(sb, H, W_s, W_h, v, b, nonlinearity=None))
    np.testing.assert_allclose(wa, wb, rtol=1e-9, atol=1e-12)


def test_with_tanh_weights_do_depend_on_s():
    rng = np.random.default_rng(3)
    _, H, W_s, W_h, v, b = random_scorer(rng)
    wa = softmax(additive_scores(np.ones(3), H, W_s, W_h, v, b))
    wb = softmax(additive_scores(-np.ones(3), H, W_s, W_h, v, b))
    assert np.abs(wa - wb).max() > 1e-3


@pytest.mark.parametrize("batched_H", [False, True])
def test_additive_backward_matches_finite_differences(batched_H):
    rng = np.random.default_rng(4)
    _, H, W_s, W_h, v, b = random_scorer(rng, T=3)
    S = rng.normal(size=(2, 3))
    if batched_H:
        H = rng.normal(size=(2, 3, 4))
    upstream = rng.normal(size=(2, 3))
    args = {"s": S, "H": H, "W_s": W_s, "W_h": W_h, "v": v, "b": b}
    grads = additive_scores_backward(upstream, **args)
    for name in args:

        def loss(x, name=name):
            return float((additive_scores(**{**args, name: x}) * upstream).sum())

        numeric = finite_difference(loss, args[name])
        np.testing.assert_allclose(grads[name], numeric, rtol=1e-6, atol=1e-8, err_msg=name)


def test_dot_and_general():
    rng = np.random.default_rng(5)
    s, H = rng.normal(size=4), rng.normal(size=(6, 4))
    np.testing.assert_allclose(dot_scores(s, H), H @ s)
    W = rng.normal(size=(3, 4))
    s3 = rng.normal(size=3)
    np.testing.assert_allclose(general_scores(s3, H, W), [s3 @ W @ h for h in H])
    np.testing.assert_allclose(general_scores(s, H, np.eye(4)), dot_scores(s, H))
    S = rng.normal(size=(7, 4))
    assert dot_scores(S, H).shape == (7, 6)
    assert general_scores(S, rng.normal(size=(7, 6, 4)), np.eye(4)).shape == (7, 6)


def _args():
    return random_scorer(np.random.default_rng(6))


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"W_s": np.zeros((5, 2))}, ValueError, ["W_s", "(5, 2)", "d_s"]),
        ({"W_h": np.zeros((5, 3))}, ValueError, ["W_h", "(5, 4)", "(5, 3)"]),
        ({"v": np.zeros(4)}, ValueError, ["v", "(5,)", "(4,)"]),
        ({"b": np.zeros((5, 1))}, ValueError, ["b", "(5, 1)"]),
        ({"s": np.zeros((2, 2, 3))}, ValueError, ["s", "(2, 2, 3)"]),
        ({"H": np.zeros((0, 4))}, ValueError, ["T >= 1"]),
        ({"H": np.zeros((2, 6, 4))}, ValueError, ["batched", "(N, d_s)"]),
        ({"s": np.array([1.0, np.nan, 0.0])}, ValueError, ["s", "NaN"]),
        ({"s": np.array(["1", "2", "3"])}, TypeError, ["s", "dtype"]),
        ({"nonlinearity": "tanh"}, TypeError, ["nonlinearity"]),
    ],
)
def test_additive_bad_input(change, error, words):
    s, H, W_s, W_h, v, b = _args()
    kwargs = {"s": s, "H": H, "W_s": W_s, "W_h": W_h, "v": v, "b": b, **change}
    with pytest.raises(error) as info:
        additive_scores(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_dot_needs_equal_widths():
    with pytest.raises(ValueError, match="same width"):
        dot_scores(np.zeros(3), np.zeros((5, 4)))


def test_general_checks_W():
    with pytest.raises(ValueError, match=r"W must have shape \(d_s, d_h\) = \(3, 4\)"):
        general_scores(np.zeros(3), np.zeros((5, 4)), np.zeros((4, 3)))


# ------------------------------------------------------------------------------ holes found by probing


def test_dot_scores_beyond_the_float_range_are_refused_naming_s_and_H():
    with pytest.raises(ValueError) as info:
        dot_scores([1e200, 1e200], [[1e200, 1e200]])
    assert "dot scores overflowed float64" in str(info.value) and "|s| = 1e+200" in str(info.value)


def test_float32_dot_scores_overflow_is_refused_with_a_float64_hint():
    s, H = np.array([1e20, 1e20], dtype=np.float32), np.array([[1e20, 1e20]], dtype=np.float32)
    with pytest.raises(ValueError, match="overflowed float32.*pass float64"):
        dot_scores(s, H)
    np.testing.assert_allclose(dot_scores(s.astype(float), H.astype(float)), [2e40], rtol=1e-6)


def test_general_scores_survive_an_overflowing_intermediate():
    # s^T W = 1e310 overflows on the way, but s^T W h = 1e10
    np.testing.assert_allclose(general_scores([1e300], [[1e-300]], [[1e10]]), [1e10], rtol=1e-12)
    with pytest.raises(ValueError, match="general scores overflowed float64"):
        general_scores([1e300], [[1e300]], [[1e10]])


def test_additive_scores_of_the_issue_example_are_exact():
    e = additive_scores([1e308], [[1e308]], [[10.0]], [[-10.0]], [1.0], [0.0])  # true value tanh(0) = 0
    np.testing.assert_array_equal(e, [0.0])
    grads = additive_scores_backward([1.0], [1e308], [[1e308]], [[10.0]], [[-10.0]], [1.0], [0.0])
    assert grads["v"][0] == 0.0 and grads["b"][0] == 1.0  # a = tanh(0) = 0, dz = 1 * v * (1 - 0)


def test_additive_scores_saturate_when_the_pre_activation_is_truly_huge():
    e = additive_scores([1e308, 1e308], [[1e308]], [[10.0, 10.0]], [[10.0]], [2.0], [0.0])  # z = 3e309
    np.testing.assert_array_equal(e, [2.0])  # v^T tanh(z) = 2 * 1


@pytest.mark.parametrize(
    "args, words",
    [
        # the linear ablation has no tanh to saturate: v^T z with z = 2e309 is beyond float64
        (([1e308], [[1e308]], [[10.0]], [[10.0]], [2.0], [0.0], None), ["additive scores overflowed", "|W_s| = 10"]),
        # v^T tanh(.) = 1e308 + 1e308
        (([0.0], [[0.0]], [[1.0], [1.0]], [[1.0], [1.0]], [1e308, 1e308], [5.0, 5.0]), ["|v| = 1e+308"]),
    ],
)
def test_additive_scores_beyond_the_float_range_are_refused(args, words):
    with pytest.raises(ValueError) as info:
        additive_scores(*args)
    for word in words:
        assert word in str(info.value)


def test_additive_backward_overflow_is_refused_naming_d_scores():
    with pytest.raises(ValueError, match=r"gradient dL/d\w+ overflowed float64.*d_scores"):
        additive_scores_backward([1e308], [1.0], [[1.0]], [[0.0]], [[0.0]], [10.0], [0.0])


@pytest.mark.parametrize(
    "f, words",
    [
        (np.sum, ["nonlinearity must act elementwise", "(1, 6, 5)", "shape ()"]),
        (np.exp, ["nonlinearity returned NaN or inf"]),
        (lambda z: z.astype(complex), ["nonlinearity", "complex"]),
    ],
)
def test_a_callers_nonlinearity_is_checked(f, words):
    s, H, W_s, W_h, v, b = _args()
    with pytest.raises(ValueError) as info:
        additive_scores(s * 1000, H, W_s, W_h, v, b, nonlinearity=f)
    for word in words:
        assert word in str(info.value)


def test_an_elementwise_nonlinearity_of_ones_own_is_used():
    s, H, W_s, W_h, v, b = _args()
    np.testing.assert_allclose(
        additive_scores(s, H, W_s, W_h, v, b, nonlinearity=lambda z: np.maximum(z, 0.0)),
        [v @ np.maximum(W_s @ s + W_h @ h + b, 0.0) for h in H],
    )


@pytest.mark.parametrize("dtype", [">f8", ">f4", np.float16, np.longdouble])
def test_every_real_float_dtype_is_accepted(dtype):
    s, H, W_s, W_h, v, b = (np.round(np.asarray(a) * 8) / 8 for a in _args())  # exact in float16
    want = additive_scores(s, H, W_s, W_h, v, b)
    got = additive_scores(*(a.astype(dtype) for a in (s, H, W_s, W_h, v, b)))
    assert got.dtype == (np.float32 if np.dtype(dtype).itemsize <= 4 else np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dot_scores(H[0].astype(dtype), H.astype(dtype)), H @ H[0], rtol=1e-6)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_masked_arrays_and_matrices_are_refused():
    s, H, W_s, W_h, v, b = _args()
    with pytest.raises(TypeError, match="H is a numpy MaskedArray"):
        additive_scores(s, np.ma.array(H, mask=H > 0), W_s, W_h, v, b)
    with pytest.raises(TypeError, match="W is a numpy matrix"):
        general_scores(s, H[:, :3], np.asmatrix(np.eye(3)))


def test_an_overflow_inside_a_matrix_product_is_not_saturated_into_a_wrong_score():
    # W_s s = 10e308 - 10e308 = 0, but a matrix product may return inf for it, and tanh(inf) = 1 looks fine
    e = additive_scores([1e308, 1e308], [[0.0]], [[10.0, -10.0]], [[0.0]], [1.0], [0.0])
    np.testing.assert_array_equal(e, [0.0])


def test_the_linear_ablation_of_the_additive_score_is_a_softmax_of_v_W_h_h_whatever_the_state():
    # What the lesson-05 self-check's reference answer relies on: without tanh, W_s s and b add the same amount
    # to every score, so the weights are softmax_j(v^T W_h h_j) for every state.
    rng = np.random.default_rng(11)
    H, W_h, v = rng.normal(size=(6, 4)), rng.normal(size=(5, 4)), rng.normal(size=5)
    states = rng.normal(size=(7, 3)) * 3.0  # (N, d_s)
    W_s, b = rng.normal(size=(5, 3)), rng.normal(size=5)
    weights = softmax(additive_scores(states, H, W_s, W_h, v, b, None))  # (N, T)
    np.testing.assert_allclose(weights, np.broadcast_to(softmax(H @ W_h.T @ v), weights.shape), rtol=1e-12)


def test_terms_that_cancel_inside_an_overflowing_product_give_the_true_scores():
    # W_s s = 1e400 - 1e400 = 0 inside one matrix product: a power-of-two rescaling left the fused multiply-add's
    # rounding error (about 1e-17 * 2**1330 = inf) and scored tanh(inf) = 1 instead of tanh(0 + 1)
    s, W_s = np.array([1e200, 1e200]), np.array([[1e200, -1e200]])
    np.testing.assert_allclose(additive_scores(s, np.ones((2, 1)), W_s, [[1.0]], [1.0], [0.0]), np.tanh([1.0, 1.0]))
    np.testing.assert_array_equal(dot_scores(s, [[1e200, -1e200]]), [0.0])  # was "dot scores overflowed"
    np.testing.assert_array_equal(general_scores(s, [[1.0]], [[1e200], [-1e200]]), [0.0])
