"""softmax and attend: unit tests, properties over random inputs, and every bad-input case."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attend, softmax

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


def score_rows(max_n=5, max_t=7):
    return st.tuples(st.integers(1, max_n), st.integers(1, max_t)).flatmap(
        lambda nt: arrays(np.float64, nt, elements=finite)
    )


def test_softmax_known_values():
    np.testing.assert_allclose(softmax([0.0, 0.0]), [0.5, 0.5])
    np.testing.assert_allclose(softmax([0.0, np.log(3.0)]), [0.25, 0.75])


@pytest.mark.parametrize("big", [1e300, -1e300, 1.7e308])
def test_softmax_is_stable_for_huge_scores(big):
    w = softmax([big, 0.0, -big])
    assert np.isfinite(w).all()
    np.testing.assert_allclose(w.sum(), 1.0)


def test_softmax_mask_gives_exact_zero_and_renormalises():
    w = softmax([1.0, 2.0, 3.0], mask=np.array([True, False, True]))
    assert w[1] == 0.0
    np.testing.assert_allclose(w, [np.exp(1) / (np.exp(1) + np.exp(3)), 0, np.exp(3) / (np.exp(1) + np.exp(3))])


def test_softmax_minus_inf_is_never_read():
    assert softmax([-np.inf, 0.0])[0] == 0.0


def test_softmax_axis():
    e = np.array([[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_allclose(softmax(e, axis=0).sum(axis=0), [1.0, 1.0])


@settings(max_examples=200, deadline=None)
@given(score_rows())
def test_weights_positive_and_sum_to_one(e):
    w = softmax(e)
    assert (w > 0).all()
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


@settings(max_examples=200, deadline=None)
@given(score_rows(), finite)
def test_weights_invariant_to_a_common_shift(e, shift):
    np.testing.assert_allclose(softmax(e + shift), softmax(e), rtol=1e-9, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 4), st.data())
def test_context_lies_in_the_convex_hull(T, d_h, data):
    H = data.draw(arrays(np.float64, (T, d_h), elements=finite))
    e = data.draw(arrays(np.float64, (T,), elements=finite))
    w, c = attend(e, H)
    # A convex combination: c = w @ H with w >= 0 summing to 1, so every coordinate is within the range.
    np.testing.assert_allclose(c, w @ H)
    assert (c >= H.min(axis=0) - 1e-9).all() and (c <= H.max(axis=0) + 1e-9).all()


def test_attend_batched_matches_one_by_one():
    rng = np.random.default_rng(0)
    H, E = rng.normal(size=(4, 3)), rng.normal(size=(5, 4))
    W, C = attend(E, H)
    for n in range(5):
        w, c = attend(E[n], H)
        np.testing.assert_allclose(W[n], w)
        np.testing.assert_allclose(C[n], c)
    Hb = rng.normal(size=(5, 4, 3))
    Wb, Cb = attend(E, Hb)
    np.testing.assert_allclose(Cb[2], attend(E[2], Hb[2])[1])


@pytest.mark.parametrize(
    "scores, kwargs, error, words",
    [
        ([], {}, ValueError, ["T >= 1", "(0,)"]),
        ([1.0, np.nan], {}, ValueError, ["scores", "NaN"]),
        ([1.0, np.inf], {}, ValueError, ["+inf"]),
        ([-np.inf, -np.inf], {}, ValueError, ["readable"]),
        ([1.0, 2.0], {"mask": np.array([False, False])}, ValueError, ["fully masked"]),
        ([1.0, 2.0], {"mask": np.array([True, True, True])}, ValueError, ["mask", "(2,)", "(3,)"]),
        ([1.0, 2.0], {"mask": np.array([1, 0])}, TypeError, ["mask", "boolean"]),
        (["a", "b"], {}, TypeError, ["scores", "dtype"]),
        (np.array([True, False]), {}, TypeError, ["scores", "bool"]),
        ([1.0, 2.0], {"axis": 3}, ValueError, ["axis=3"]),
        (1.0, {}, ValueError, ["scores", "()"]),
    ],
)
def test_softmax_bad_input(scores, kwargs, error, words):
    with pytest.raises(error) as info:
        softmax(scores, **kwargs)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    "scores, H, words",
    [
        ([1.0, 2.0], np.zeros((3, 2)), ["H", "T = 2", "(3, 2)"]),
        ([1.0, 2.0], np.zeros(2), ["H", "(T, d_h)", "(2,)"]),
        ([1.0, 2.0], np.zeros((4, 2, 2)), ["batched", "(N, T)"]),
        ([1.0, 2.0], [[1.0, np.nan], [0.0, 0.0]], ["H", "NaN"]),
        (np.zeros((2, 2, 2)), np.zeros((2, 2)), ["scores", "(T,) or (N, T)"]),
    ],
)
def test_attend_bad_input(scores, H, words):
    with pytest.raises(ValueError) as info:
        attend(scores, H)
    for word in words:
        assert word in str(info.value)


def test_attend_ragged_input_is_a_type_error():
    with pytest.raises(TypeError, match="H"):
        attend([0.0, 0.0], [[1.0, 2.0], [3.0]])


# ------------------------------------------------------------------------------ holes found by probing


def test_masked_arrays_are_refused_not_silently_unmasked():
    with pytest.raises(TypeError, match="scores is a numpy MaskedArray.*mask="):
        softmax(np.ma.array([1.0, 5.0], mask=[0, 1]))
    with pytest.raises(TypeError, match="MaskedArray"):
        softmax(np.ma.array([1.0, np.nan], mask=[0, 1]))  # the masked NaN is not accepted either
    with pytest.raises(TypeError, match="H is a numpy MaskedArray"):
        attend([0.0, 0.0], np.ma.array(np.eye(2), mask=np.eye(2)))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_matrices_are_refused():
    with pytest.raises(TypeError, match="scores is a numpy matrix"):
        softmax(np.matrix([[1.0, 2.0]]))


@pytest.mark.parametrize("dtype", [">f8", ">f4", np.float16, np.longdouble, np.int16])
def test_every_real_dtype_is_read(dtype):
    e, H = np.array([1.0, 2.0, -3.0]), np.array([[1.0, 0.0], [2.0, -1.0], [0.0, 4.0]])
    w, c = attend(e.astype(dtype), H.astype(dtype))
    single = np.dtype(dtype).kind == "f" and np.dtype(dtype).itemsize <= 4
    assert w.dtype == (np.float32 if single else np.float64) and w.dtype.isnative
    w64, c64 = attend(e, H)
    np.testing.assert_allclose(w, w64, rtol=1e-6)
    np.testing.assert_allclose(c, c64, rtol=1e-6)


@pytest.mark.parametrize("axis", [None, "0", (0, 1), 1.5, True])
def test_softmax_axis_must_be_one_integer(axis):
    with pytest.raises(TypeError) as info:
        softmax([[1.0, 2.0], [3.0, 4.0]], axis=axis)
    assert "axis must be one integer axis" in str(info.value) and repr(axis) in str(info.value)


def test_softmax_numpy_integer_axis():
    e = np.array([[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_allclose(softmax(e, axis=np.int64(0)), softmax(e, axis=0))


@pytest.mark.parametrize("call", [softmax, lambda e, mask: attend(e, np.eye(2), mask=mask)])
def test_a_ragged_mask_is_named(call):
    with pytest.raises(TypeError, match="mask must be an array of shape"):
        call(np.zeros((2, 2)), mask=[[True], [True, False]])


def test_masked_softmax_along_axis_0():
    e = np.array([[1.0, 5.0], [2.0, 0.0], [3.0, 1.0]])
    mask = np.array([[True, False], [False, True], [True, True]])
    w = softmax(e, axis=0, mask=mask)
    np.testing.assert_allclose(w[:, 0], [np.exp(1) / (np.exp(1) + np.exp(3)), 0.0, np.exp(3) / (np.exp(1) + np.exp(3))])
    np.testing.assert_allclose(w[:, 1], [0.0, 1 / (1 + np.e), np.e / (1 + np.e)])


def test_a_context_of_huge_annotations_stays_finite():
    big = np.finfo(float).max
    _, c = attend([0.0, 0.0], [[big], [big]])  # a convex combination of finite numbers stays finite
    assert np.isfinite(c).all()


def test_inputs_are_never_written():
    e, H = np.array([1.0, 2.0]), np.array([[1.0, 0.0], [0.0, 1.0]])
    for a in (e, H):
        a.setflags(write=False)
    attend(e, H, mask=np.array([True, False]))
    softmax(e)


@pytest.mark.parametrize("ndim", [33, 64])
def test_softmax_reads_every_rank_numpy_allows(ndim):
    e = np.arange(2.0).reshape((1,) * (ndim - 1) + (2,))
    np.testing.assert_allclose(softmax(e).reshape(2), [1 / (1 + np.e), np.e / (1 + np.e)])
    np.testing.assert_allclose(softmax(e, axis=0), np.ones_like(e))
