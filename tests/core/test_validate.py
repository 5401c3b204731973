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
from attention_core import _numerics as N
from attention_core import _validate as V
from attention_core.rnn import rnn_cell, run_rnn
from attention_core.self_attention import causal_mask, self_attention

# ---------------------------------------------------------------------------------------- real_array

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
def test_real_array_converts_every_real_dtype_to_native_float(dtype, want):
    x = np.array([[1.5, -2.0], [0.25, 3.0]], dtype=np.float64).astype(dtype)
    out = V.real_array(x, "x", ndims=(2,), expected="(2, 2)")
    assert out.dtype == np.dtype(want) and out.dtype.isnative
    np.testing.assert_array_equal(out, np.array(x, dtype=np.float64))


def test_real_array_keeps_native_floats_without_copy():
    for x in (np.zeros(3), np.zeros(3, dtype=np.float32)):
        assert V.real_array(x, "x", ndims=(1,), expected="(3,)") is x


def test_real_array_refuses_longdouble_beyond_float64():
    big = np.array([1.0, 1e300], dtype=np.longdouble) * np.longdouble(1e300)
    if np.finfo(np.longdouble).max <= np.finfo(np.float64).max:
        pytest.skip("longdouble is float64 on this platform")
    with pytest.raises(ValueError, match="x holds values beyond float64's range"):
        V.real_array(big, "x", ndims=(1,), expected="(2,)")


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
def test_real_array_type_errors_name_the_argument(value, words):
    with pytest.raises(TypeError) as info:
        V.real_array(value, "x", ndims=(1, 2), expected="(T,)")
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
def test_real_array_value_errors(value, kwargs, words):
    with pytest.raises(ValueError) as info:
        V.real_array(value, "x", ndims=(1,), expected="(T,)", **kwargs)
    for word in words:
        assert word in str(info.value)


def test_real_array_allows_inf_when_asked():
    out = V.real_array([-np.inf, 1.0], "x", ndims=(1,), expected="(T,)", allow_inf=True)
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


def test_softmax_args_returns_readable_positions():
    e, axis, readable = V.softmax_args([[0.0, -np.inf], [1.0, 2.0]], 0, np.array([[True, True], [False, True]]))
    assert axis == 0
    np.testing.assert_array_equal(readable, [[True, False], [False, True]])


def test_additive_args_validates_W_s_once_and_names_d_s():
    with pytest.raises(ValueError) as info:
        V.additive_args(np.zeros(3), np.zeros((2, 4)), np.zeros((5, 2)), np.zeros((5, 4)), np.zeros(5), np.zeros(5))
    assert str(info.value) == "W_s must have shape (d_a, d_s) = (d_a, 3) to match s, got shape (5, 2)"


def test_additive_backward_args_wants_d_scores_shaped_like_the_scores():
    args = (np.zeros(3), np.zeros((2, 4)), np.zeros((5, 3)), np.zeros((5, 4)), np.zeros(5), np.zeros(5))
    with pytest.raises(ValueError, match=r"d_scores must have shape \(2,\), got \(3,\)"):
        V.additive_backward_args(np.zeros(3), *args)
    dE = V.additive_backward_args(np.zeros(2), *args)[0]
    assert dE.shape == (1, 2)


# ------------------------------------------------------------------------ numbers and functions


@pytest.mark.parametrize("n, error", [(0, ValueError), (-3, ValueError), (2.0, TypeError), (True, TypeError)])
def test_integer(n, error):
    with pytest.raises(error, match=r"n must be a positive integer \(at least 1\)"):
        V.integer(n, "n")
    assert V.integer(np.int32(3), "n") == 3
    assert V.integer(0, "seed", minimum=0) == 0
    with pytest.raises(ValueError, match="seed must be an integer >= 0, got -1"):
        V.integer(-1, "seed", minimum=0)


@pytest.mark.parametrize(
    "x, error", [(True, TypeError), ("1", TypeError), (0.0, ValueError), (np.inf, ValueError), (2.0, ValueError)]
)
def test_number(x, error):
    with pytest.raises(error, match="eps"):
        V.number(x, "eps", 1e-12, 1.0)
    assert V.number(np.float32(0.5), "eps", 1e-12, 1.0) == 0.5


def test_number_intervals_say_what_they_are():
    with pytest.raises(ValueError, match="lr must be a positive finite number, got 0.0"):
        V.number(0.0, "lr", 0.0, low_open=True)
    with pytest.raises(ValueError, match=r"beta must be a finite number in \[0, 1\], got 1.5"):
        V.number(1.5, "beta", 0.0, 1.0)
    assert V.number(-3, "x") == -3.0


@pytest.mark.parametrize(
    "value, error, words",
    [("cosine", ValueError, ["score must be one of ['dot', 'general']", "'cosine'"]), (1, TypeError, ["str", "int"])],
)
def test_one_of(value, error, words):
    with pytest.raises(error) as info:
        V.one_of(value, "score", ("dot", "general"))
    for word in words:
        assert word in str(info.value)
    assert V.one_of("dot", "score", ("dot", "general")) == "dot"


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".", "x.npz", "-x", "x y", "名字"])
def test_plain_name_refuses_paths_and_suffixes(name):
    with pytest.raises(ValueError, match="plain name"):
        V.plain_name(name)
    assert V.plain_name("lesson07_attention-seed0") == "lesson07_attention-seed0"


def test_read_only_copies_and_freezes():
    source = np.zeros(2)
    arr = V.read_only(source)
    source[0] = 1.0
    assert arr[0] == 0.0 and not arr.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        arr[1] = 1.0


def test_guarded_nonlinearity_passes_tanh_and_none_through():
    assert V.guarded_nonlinearity(np.tanh) is np.tanh
    assert V.guarded_nonlinearity(None) is None
    with pytest.raises(TypeError, match="nonlinearity must be a function such as np.tanh, or None"):
        V.guarded_nonlinearity("tanh")


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
def test_guarded_nonlinearity_checks_what_it_returns(f, words):
    z = np.array([[1000.0, 0.0, 1.0], [2.0, 3.0, 4.0]])
    with pytest.raises(ValueError) as info:
        V.guarded_nonlinearity(f)(z)
    for word in words:
        assert word in str(info.value)


def test_guarded_nonlinearity_lets_infinite_input_through():
    out = V.guarded_nonlinearity(np.exp)(np.array([-np.inf, 0.0, np.inf]))
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


def test_finite_difference_args_copies_into_C_order():
    x = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    x.setflags(write=False)
    x0, eps = V.finite_difference_args(lambda z: 0.0, x, np.float32(1e-3))
    assert x0.flags.c_contiguous and x0.flags.writeable and not np.shares_memory(x0, x)
    assert isinstance(eps, float)


def test_finite_difference_args_refuses_a_step_lost_in_rounding():
    with pytest.raises(ValueError, match="eps = 1e-12 is lost in rounding next to"):
        V.finite_difference_args(lambda z: 0.0, [1e6], 1e-12)
    with pytest.raises(ValueError, match="eps = 1 is lost in rounding next to"):
        V.finite_difference_args(lambda z: 0.0, [1.7976931348623157e308], 1.0)


# ---------------------------------------------------------------------------------- finite results


@pytest.mark.parametrize("x", [np.array([3.0, -1e300]), np.array([5e-324, 1.7976931348623157e308]), np.zeros(0)])
def test_exact_then_rounded_is_the_identity(x):
    np.testing.assert_array_equal(N.rounded(N.exact(x), x.dtype), x)


def test_exact_arithmetic_cancels_and_rounds_beyond_the_range_to_inf():
    big = N.exact(np.array([1e200, 1e200]))
    assert N.rounded(big @ N.exact(np.array([1e200, -1e200])), np.float64) == 0.0
    np.testing.assert_array_equal(N.rounded(big * big, np.float64), [np.inf, np.inf])
    np.testing.assert_array_equal(N.rounded(-big * big, np.float32), [-np.inf, -np.inf])
    assert N.rounded(N.exact(np.array([1e30])) * N.exact(np.array([1e10])), np.float32).dtype == np.float32


def test_matmul_in_range():
    x = np.array([[1e200, 1e200], [1.0, 2.0]])
    np.testing.assert_array_equal(N.matmul_in_range(x, np.array([1e200, -1e200])), [0.0, -1e200])
    np.testing.assert_array_equal(N.matmul_in_range(x, np.array([[1e200], [1e200]])), [[np.inf], [3e200]])
    np.testing.assert_array_equal(N.matmul_in_range(x[1], x[1]), 5.0)


def test_finite_result_names_the_inputs():
    with pytest.raises(ValueError) as info:
        N.finite_result(np.array([np.inf], dtype=np.float32), "scores", s=np.array([1e20]), H=np.zeros(0))
    text = str(info.value)
    assert "scores overflowed float32" in text and "largest |s| = 1e+20" in text and "pass float64" in text


def test_finite_multilinear_rescales_then_refuses():
    dot = N.finite_multilinear(lambda a, b: a * b, "products", a=np.array([1e300]), b=np.array([1e-300]))
    np.testing.assert_allclose(dot, [1.0])
    with pytest.raises(ValueError, match="products overflowed float64"):
        N.finite_multilinear(lambda a, b: a * b, "products", a=np.array([1e300]), b=np.array([1e300]))


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


# ---------------------------------------------------------------------------- shared constants


def _arrays_in(value, path: str, depth: int = 0):
    """Every ndarray reachable from a module-level value through tuples, lists, mappings and NamedTuples."""
    from collections.abc import Mapping

    if isinstance(value, np.ndarray):
        yield path, value
    elif depth < 3 and isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from _arrays_in(item, f"{path}[{i}]", depth + 1)
    elif depth < 3 and isinstance(value, Mapping):
        for key in list(value):
            yield from _arrays_in(value[key], f"{path}[{key!r}]", depth + 1)


def test_every_shared_constant_array_of_the_package_is_read_only():
    import importlib
    import pkgutil

    import attention_core

    found = {}
    for info in pkgutil.walk_packages(attention_core.__path__, "attention_core."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if not name.startswith("__") and not isinstance(value, type(importlib)):
                found.update(_arrays_in(value, f"{info.name}.{name}"))
    assert {"attention_core.example.H_EXAMPLE", "attention_core.toy_sentences.FELIX[2]"} <= set(found)
    assert any(path.startswith("attention_core.toy_sentences.QUERIES[") for path in found)
    writable = sorted(path for path, arr in found.items() if arr.flags.writeable)
    assert writable == []


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(2, 5), st.integers(1, 3), st.integers(1, 3), st.data())
def test_luong_reads_agree_across_layouts(N, T, d, d_a, data):
    from attention_core import luong

    s, H, W, W_c, W_p = (data.draw(values(shape)) for shape in ((N, d), (T, d), (d, d), (d_a, 2 * d), (d_a, d)))
    v, v_p = data.draw(values((d_a,))), data.draw(values((d_a,)))
    t = data.draw(arrays(np.float64, (N,), elements=st.integers(1, T).map(float)))
    variants, names = draw_variants(data, [s, H, W, W_c, W_p, v, v_p, t])
    sv, Hv, Wv, W_cv, W_pv, vv, v_pv, tv = variants
    scores = [("dot", {}, {}), ("general", {"W": W}, {"W": Wv}), ("concat", {"W": W_c, "v": v}, {"W": W_cv, "v": vv})]
    for score, kw, kwv in scores:
        want = luong.global_attention(s, H, score, **kw)
        same((luong.global_attention(sv, Hv, score, **kwv).weights,), (want.weights,), names)
        same(luong.local_m(sv, Hv, tv, 1, score, **kwv).weights, luong.local_m(s, H, t, 1, score, **kw).weights, names)
        got, want = luong.local_p(sv, Hv, 1, W_pv, v_pv, score, **kwv), luong.local_p(s, H, 1, W_p, v_p, score, **kw)
        same(got.position, want.position, names)
        np.testing.assert_array_equal(got.window, want.window)
    same(luong.predicted_position(sv, W_pv, v_pv, T), luong.predicted_position(s, W_p, v_p, T), names)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.data())
def test_read_variants_agree_across_layouts(N, T, d_h, data):
    from attention_core.read_variants import hard_read, hard_weights, raw_score_read

    e, H = data.draw(values((N, T))), data.draw(values((T, d_h)))
    (ev, Hv), names = draw_variants(data, [e, H])
    same(raw_score_read(ev, Hv), raw_score_read(e, H), names)
    np.testing.assert_array_equal(hard_weights(ev), hard_weights(e))
    same(hard_read(ev, Hv), hard_read(e, H), names)
