"""The validation module: its helpers one by one, and properties over dtypes and memory layouts.

The properties: every public math function gives the same numbers (to the precision of the dtype) for the
same values stored in any byte order, width, memory order, strided or reversed view, read-only array or
nested list; and it never writes into its arguments.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attention_core as ac
from attention_core import _validate as V
from attention_core.rnn import rnn_cell, run_rnn
from attention_core.self_attention import causal_mask, self_attention

# ------------------------------------------------------------------------------------------ as_array

with warnings.catch_warnings():  # numpy discourages np.matrix, which is the point of refusing it
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    MATRIX = np.matrix([[1.0, 2.0]])


@pytest.mark.parametrize(
    "dtype, want",
    [
        (">f8", np.float64),
        ("<f8", np.float64),
        (">f4", np.float32),
        ("<f4", np.float32),
        (np.float16, np.float32),
        (np.longdouble, np.float64),
        (np.int8, np.float64),
        (">i4", np.float64),
        (np.uint16, np.float64),
    ],
)
def test_as_array_converts_every_real_dtype_to_native_float(dtype, want):
    x = np.array([[1.5, -2.0], [0.25, 3.0]], dtype=np.float64).astype(dtype)
    out = V.as_array(x, "x", ndims=(2,), expected="(2, 2)")
    assert out.dtype == np.dtype(want) and out.dtype.isnative
    np.testing.assert_array_equal(out, np.array(x, dtype=np.float64))


def test_as_array_keeps_native_floats_without_copy():
    for x in (np.zeros(3), np.zeros(3, dtype=np.float32)):
        assert V.as_array(x, "x", ndims=(1,), expected="(3,)") is x


def test_as_array_refuses_longdouble_beyond_float64():
    big = np.array([1.0, 1e300], dtype=np.longdouble) * np.longdouble(1e300)
    if np.finfo(np.longdouble).max <= np.finfo(np.float64).max:
        pytest.skip("longdouble is float64 on this platform")
    with pytest.raises(ValueError, match="x holds values beyond float64's range"):
        V.as_array(big, "x", ndims=(1,), expected="(2,)")


@pytest.mark.parametrize(
    "value, words",
    [
        (np.array([True, False]), ["x", "real numbers", "bool"]),
        (np.array([1 + 2j]), ["x", "complex"]),
        (np.array(["a"]), ["x", "dtype <U1"]),
        (np.array([None, 1.0], dtype=object), ["x", "object"]),
        (np.array([1], dtype="datetime64[s]"), ["x", "datetime64"]),
        ([[1.0, 2.0], [3.0]], ["x", "could not convert"]),
        (np.ma.array([1.0, 2.0], mask=[0, 1]), ["x", "MaskedArray", "mask="]),
        (MATRIX, ["x", "matrix", "np.asarray(x)"]),
    ],
)
def test_as_array_type_errors_name_the_argument(value, words):
    with pytest.raises(TypeError) as info:
        V.as_array(value, "x", ndims=(1, 2), expected="(T,)")
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    "value, kwargs, words",
    [
        (np.zeros((2, 2)), {}, ["x must have shape (T,)", "got shape (2, 2)"]),
        ([1.0, np.nan], {}, ["x (shape (2,))", "NaN or infinite"]),
        ([1.0, np.inf], {}, ["NaN or infinite"]),
        ([1.0, np.nan], {"allow_inf": True}, ["contains NaN"]),
    ],
)
def test_as_array_value_errors(value, kwargs, words):
    with pytest.raises(ValueError) as info:
        V.as_array(value, "x", ndims=(1,), expected="(T,)", **kwargs)
    for word in words:
        assert word in str(info.value)


def test_as_array_allows_inf_when_asked():
    out = V.as_array([-np.inf, 1.0], "x", ndims=(1,), expected="(T,)", allow_inf=True)
    assert out[0] == -np.inf


def test_require_builds_the_message_only_on_failure():
    calls = []
    V.require(True, lambda: calls.append(1) or "never")
    assert calls == []
    with pytest.raises(ValueError, match="built"):
        V.require(False, lambda: "built")


def test_matrix_and_vector_name_shape_and_expectation():
    with pytest.raises(ValueError, match=r"W must have shape \(3, d\), got shape \(2, 2\)"):
        V.matrix(np.zeros((2, 2)), "W", 3, None, "(3, d)")
    with pytest.raises(ValueError, match=r"v must have shape \(4,\), got shape \(3,\)"):
        V.vector(np.zeros(3), "v", 4, "(4,)")


# ------------------------------------------------------------------------------- readers and scorers


@pytest.mark.parametrize("axis", [None, "0", (0, 1), 1.5, True, np.bool_(False)])
def test_axis_must_be_one_integer(axis):
    with pytest.raises(TypeError, match="axis must be one integer axis"):
        V.axis_index(axis, 2, (3, 4))


def test_axis_range_and_numpy_integers():
    assert V.axis_index(np.int64(-1), 2, (3, 4)) == 1
    with pytest.raises(ValueError, match=r"axis=2 is out of range for scores of shape \(3, 4\)"):
        V.axis_index(2, 2, (3, 4))


@pytest.mark.parametrize(
    "mask, error, words",
    [
        ([[True], [True, False]], TypeError, ["mask", "could not convert"]),
        (np.array([1, 0]), TypeError, ["mask", "boolean", "int64"]),
        (np.array([True, True, True]), ValueError, ["mask", "(2,)", "(3,)"]),
        (np.ma.array([True, False], mask=[0, 1]), TypeError, ["mask", "MaskedArray"]),
    ],
)
def test_boolean_mask(mask, error, words):
    with pytest.raises(error) as info:
        V.boolean_mask(mask, (2,))
    for word in words:
        assert word in str(info.value)


def test_check_softmax_returns_readable_positions():
    e, axis, readable = V.check_softmax([[0.0, -np.inf], [1.0, 2.0]], 0, np.array([[True, True], [False, True]]))
    assert axis == 0
    np.testing.assert_array_equal(readable, [[True, False], [False, True]])


def test_check_additive_validates_W_s_once_and_names_d_s():
    with pytest.raises(ValueError) as info:
        V.check_additive(np.zeros(3), np.zeros((2, 4)), np.zeros((5, 2)), np.zeros((5, 4)), np.zeros(5), np.zeros(5))
    assert str(info.value) == "W_s must have shape (d_a, d_s) = (d_a, 3) to match s, got shape (5, 2)"


def test_check_additive_backward_wants_d_scores_shaped_like_the_scores():
    args = (np.zeros(3), np.zeros((2, 4)), np.zeros((5, 3)), np.zeros((5, 4)), np.zeros(5), np.zeros(5))
    with pytest.raises(ValueError, match=r"d_scores must have shape \(2,\), got \(3,\)"):
        V.check_additive_backward(np.zeros(3), *args)
    dE = V.check_additive_backward(np.zeros(2), *args)[0]
    assert dE.shape == (1, 2)


# ------------------------------------------------------------------------ numbers and functions


@pytest.mark.parametrize("n, error", [(0, ValueError), (-3, ValueError), (2.0, TypeError), (True, TypeError)])
def test_positive_int(n, error):
    with pytest.raises(error, match="n must be a positive integer"):
        V.positive_int(n, "n")
    assert V.positive_int(np.int32(3), "n") == 3


@pytest.mark.parametrize(
    "x, error", [(True, TypeError), ("1", TypeError), (0.0, ValueError), (np.inf, ValueError), (2.0, ValueError)]
)
def test_positive_number(x, error):
    with pytest.raises(error, match="eps"):
        V.positive_number(x, "eps", low=1e-12, high=1.0)
    assert V.positive_number(np.float32(0.5), "eps", low=1e-12, high=1.0) == 0.5


def test_checked_nonlinearity_passes_tanh_and_none_through():
    assert V.checked_nonlinearity(np.tanh) is np.tanh
    assert V.checked_nonlinearity(None) is None
    with pytest.raises(TypeError, match="nonlinearity must be a function"):
        V.checked_nonlinearity("tanh")


@pytest.mark.parametrize(
    "f, words",
    [
        (np.sum, ["nonlinearity must act elementwise", "(2, 3)", "shape ()"]),
        (lambda z: z[0], ["nonlinearity must act elementwise", "shape (3,)"]),
        (lambda z: z > 0, ["nonlinearity", "dtype bool"]),
        (np.exp, ["nonlinearity returned NaN or inf", "1000"]),
        (lambda z: np.log(z - 2000), ["nonlinearity returned NaN or inf"]),
    ],
)
def test_checked_nonlinearity_checks_what_it_returns(f, words):
    z = np.array([[1000.0, 0.0, 1.0], [2.0, 3.0, 4.0]])
    with pytest.raises(ValueError) as info:
        V.checked_nonlinearity(f)(z)
    for word in words:
        assert word in str(info.value)


def test_checked_nonlinearity_lets_infinite_input_through():
    out = V.checked_nonlinearity(np.exp)(np.array([-np.inf, 0.0, np.inf]))
    np.testing.assert_array_equal(out, [0.0, 1.0, np.inf])


@pytest.mark.parametrize(
    "value, error, words",
    [
        (np.zeros(2), TypeError, ["f must return a single number", "(2,)"]),
        ("abc", TypeError, ["f must return a single number", "str"]),
        (None, TypeError, ["f must return a single number"]),
        (float("nan"), ValueError, ["f returned nan"]),
        (-np.inf, ValueError, ["f returned -inf"]),
    ],
)
def test_scalar_output(value, error, words):
    with pytest.raises(error) as info:
        V.scalar_output(value, "f")
    for word in words:
        assert word in str(info.value)
    assert V.scalar_output(np.array(2.5), "f") == 2.5


def test_check_finite_difference_copies_into_C_order():
    x = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    x.setflags(write=False)
    x0, eps = V.check_finite_difference(lambda z: 0.0, x, np.float32(1e-3))
    assert x0.flags.c_contiguous and x0.flags.writeable and not np.shares_memory(x0, x)
    assert isinstance(eps, float)


def test_check_finite_difference_refuses_a_step_lost_in_rounding():
    with pytest.raises(ValueError, match="eps = 1e-12 is lost in rounding next to"):
        V.check_finite_difference(lambda z: 0.0, [1e6], 1e-12)
    with pytest.raises(ValueError, match="eps = 1 is lost in rounding next to"):
        V.check_finite_difference(lambda z: 0.0, [1.7976931348623157e308], 1.0)


# ---------------------------------------------------------------------------------- finite results


@pytest.mark.parametrize("x", [np.array([3.0, -1e300]), np.array([1e-310]), np.zeros(2), np.zeros(0)])
def test_normalised_is_exact(x):
    m, E = V.normalised(x)
    np.testing.assert_array_equal(np.ldexp(m, E), x)
    assert m.size == 0 or np.abs(m).max() < 1 and (np.abs(m).max() >= 0.5 or not x.any())


def test_finite_result_names_the_inputs():
    with pytest.raises(ValueError) as info:
        V.finite_result(np.array([np.inf], dtype=np.float32), "scores", s=np.array([1e20]), H=np.zeros(0))
    text = str(info.value)
    assert "scores overflowed float32" in text and "largest |s| = 1e+20" in text and "pass float64" in text


def test_finite_multilinear_rescales_then_refuses():
    dot = V.finite_multilinear(lambda a, b: a * b, "products", a=np.array([1e300]), b=np.array([1e-300]))
    np.testing.assert_allclose(dot, [1.0])
    with pytest.raises(ValueError, match="products overflowed float64"):
        V.finite_multilinear(lambda a, b: a * b, "products", a=np.array([1e300]), b=np.array([1e300]))


# ------------------------------------------------------------------------ properties over layouts


def _strided(x):
    big = x
    for axis in range(x.ndim):
        big = np.repeat(big, 2, axis=axis)
    return big[(slice(None, None, 2),) * x.ndim]


def _read_only(x):
    y = x.copy()
    y.setflags(write=False)
    return y


EXACT = {  # same values, stored differently; results agree to float64 rounding
    "C": np.ascontiguousarray,
    "Fortran": np.asfortranarray,
    "strided view": _strided,
    "reversed view": lambda x: np.ascontiguousarray(x[::-1])[::-1],
    "transposed view": lambda x: np.ascontiguousarray(x.T).T,
    "big-endian f8": lambda x: x.astype(">f8"),
    "longdouble": lambda x: x.astype(np.longdouble),
    "read-only": _read_only,
    "nested list": lambda x: x.tolist(),
}
SINGLE = {  # converted to float32: results agree to float32 rounding
    "float32": lambda x: x.astype(np.float32),
    "big-endian f4": lambda x: x.astype(">f4"),
    "float16": lambda x: x.astype(np.float16),
}
LAYOUTS = {**EXACT, **SINGLE}

eighths = st.integers(-24, 24).map(lambda k: k / 8)  # exactly representable in float16, float32 and float64


def values(shape):
    return arrays(np.float64, shape, elements=eighths)


def same(got, want, layouts):
    single = any(name in SINGLE for name in layouts)
    for g, w in zip(
        got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,), strict=True
    ):
        np.testing.assert_allclose(g, w, rtol=2e-5 if single else 1e-12, atol=2e-5 if single else 1e-12)


def draw_variants(data, arrays_, allowed=tuple(LAYOUTS)):
    names = [data.draw(st.sampled_from(allowed)) for _ in arrays_]
    return [LAYOUTS[n](a) for n, a in zip(names, arrays_, strict=True)], names


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.data())
def test_reads_agree_across_layouts(N, T, d_h, data):
    e, H = data.draw(values((N, T))), data.draw(values((T, d_h)))
    (ev, Hv), names = draw_variants(data, [e, H])
    same(ac.softmax(ev), ac.softmax(e), names)
    same(ac.softmax(ev, axis=0), ac.softmax(e, axis=0), names)
    same(ac.attend(ev, Hv), ac.attend(e, H), names)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.data())
def test_scorers_agree_across_layouts(N, T, d, d_a, data):
    s, H, W, W_s, W_h = (data.draw(values(shape)) for shape in ((N, d), (T, d), (d, d), (d_a, d), (d_a, d)))
    v, b = data.draw(values((d_a,))), data.draw(values((d_a,)))
    variants, names = draw_variants(data, [s, H, W, W_s, W_h, v, b])
    sv, Hv, Wv, W_sv, W_hv, vv, bv = variants
    same(ac.dot_scores(sv, Hv), ac.dot_scores(s, H), names)
    same(ac.general_scores(sv, Hv, Wv), ac.general_scores(s, H, W), names)
    same(ac.additive_scores(sv, Hv, W_sv, W_hv, vv, bv), ac.additive_scores(s, H, W_s, W_h, v, b), names)
    dE = np.ones((N, T))
    got = ac.additive_scores_backward(dE, sv, Hv, W_sv, W_hv, vv, bv)
    want = ac.additive_scores_backward(dE, s, H, W_s, W_h, v, b)
    for key in want:
        same(got[key], want[key], names)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_gradients_agree_across_layouts(T, d_h, data):
    e, H, g = data.draw(values((T,))), data.draw(values((T, d_h))), data.draw(values((d_h,)))
    w = ac.softmax(e)
    # float16 weights no longer sum to 1 within 1e-6, which attend_backward rightly refuses
    (wv, Hv, gv), names = draw_variants(data, [w, H, g], allowed=tuple(k for k in LAYOUTS if k != "float16"))
    same(ac.attend_backward(wv, Hv, gv), ac.attend_backward(w, H, g), names)
    (Hv,), names = draw_variants(data, [H])
    loss = lambda x: float(g @ ac.attend(e, x)[1])  # noqa: E731
    np.testing.assert_array_equal(ac.finite_difference(loss, Hv), ac.finite_difference(loss, H))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_sequence_models_agree_across_layouts(T, d_x, data):
    X = data.draw(values((T, d_x)))
    p = tuple(data.draw(values(shape)) for shape in ((3, d_x), (3, 3), (3,)))  # (W_x, W_h, b) of a tanh cell
    W_q, W_k, W_v = (data.draw(values((2, d_x))) for _ in range(3))
    (Xv, W_qv, W_kv, W_vv, W_x, W_h, b), names = draw_variants(data, [X, W_q, W_k, W_v, *p])
    same(run_rnn(Xv, (W_x, W_h, b)), run_rnn(X, p), names)
    same(rnn_cell(Xv[0], np.zeros(3), (W_x, W_h, b)), rnn_cell(X[0], np.zeros(3), p), names)
    got = self_attention(Xv, W_qv, W_kv, W_vv, mask=causal_mask(T))
    same(tuple(got), tuple(self_attention(X, W_q, W_k, W_v, mask=causal_mask(T))), names)


@settings(max_examples=30, deadline=None)
@given(st.lists(eighths, min_size=1, max_size=5), st.sampled_from(tuple(LAYOUTS)))
def test_worked_example_agrees_across_layouts(s, name):
    s = np.array(s)
    same(tuple(ac.worked_example(LAYOUTS[name](s))), tuple(ac.worked_example(s)), [name])
