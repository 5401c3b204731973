"""Input checks shared by the public functions of the core, and the guard that keeps finite input finite.

Every public math function validates its arguments once, with one call into this module, so that bad input
fails with a message naming the argument, the shape it got and the shape it expected, instead of a numpy
broadcasting error or a silent NaN. The functions then call their kernels (the formula alone), which the
trained models also call after validating once at their own boundary.

Sections: arrays (dtype, rank, finiteness); shapes of the readers and scorers; numbers and functions passed
as arguments; finite input must give finite output.
"""

from __future__ import annotations

import numbers

import numpy as np

# ---------------------------------------------------------------------------------------------- arrays

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_ANY_RANK = tuple(range(0, 33))
_RANK_1_UP = tuple(range(1, 33))


def shape_str(shape: tuple[int, ...]) -> str:
    """Format a shape the way the messages print it: ``(3, 2)``, ``(3,)``, ``()``."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def require(condition: bool, message) -> None:
    """Raise ``ValueError`` unless ``condition`` holds.

    ``message`` is a string, or a function returning one, so that a costly message (shapes formatted into
    text) is only built when the check fails.
    """
    if not condition:
        raise ValueError(message() if callable(message) else message)


def _to_ndarray(x, name: str, expected: str) -> np.ndarray:
    """``x`` as a plain ndarray; refuses masked arrays and matrices, whose meaning numpy math would drop."""
    if isinstance(x, np.ma.MaskedArray):
        raise TypeError(
            f"{name} is a numpy MaskedArray; the core ignores masks, so pass a plain array of shape {expected} "
            "(softmax and attend take a boolean mask= argument instead)"
        )
    if isinstance(x, np.matrix):
        raise TypeError(f"{name} is a numpy matrix, whose * and ** mean matrix products; pass np.asarray({name})")
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as exc:  # ragged nested lists
        raise TypeError(f"{name} must be an array of shape {expected}; could not convert it: {exc}") from None


def _native_float(arr: np.ndarray, name: str, expected: str) -> np.ndarray:
    """Real numbers as native float64, or float32 for 32- and 16-bit floats; anything else is a TypeError."""
    kind, size = arr.dtype.kind, arr.dtype.itemsize
    if kind in "iu":
        return arr.astype(np.float64)
    if kind != "f":  # b (bool), c (complex), U/S (text), O (object), V (structured), M/m (dates)
        raise TypeError(
            f"{name} must hold real numbers (int or float), got dtype {arr.dtype} "
            f"with shape {shape_str(arr.shape)}; expected shape {expected}"
        )
    with np.errstate(over="ignore"):
        out = arr.astype(np.float32 if size <= 4 else np.float64)  # also makes big-endian data native
    if size > 8:  # longdouble: a value beyond float64's range must not silently become inf
        require(np.isfinite(out).all() or not np.isfinite(arr).all(), f"{name} holds values beyond float64's range")
    return out


def as_array(x, name: str, *, ndims: tuple[int, ...], expected: str, allow_inf: bool = False) -> np.ndarray:
    """Return ``x`` as a float array after checking its type, dtype, rank and finiteness.

    ``ndims`` lists the accepted ranks; ``expected`` describes the expected shape in the article's symbols,
    for example ``"(T, d_h) or (N, T, d_h)"``. Integers become float64; float32 stays float32 so that the
    models can train in single precision; other real floats become native float64 (big-endian, longdouble)
    or float32 (float16). Booleans, strings, complex numbers, masked arrays and matrices are refused; any
    memory layout is accepted and never written to. Cheap on a valid float array: one dtype lookup and one
    finiteness reduction.
    """
    arr = x if type(x) is np.ndarray else _to_ndarray(x, name, expected)
    if arr.dtype not in _FLOATS:
        arr = _native_float(arr, name, expected)
    if arr.ndim not in ndims:
        raise ValueError(f"{name} must have shape {expected}, got shape {shape_str(arr.shape)}")
    if allow_inf:
        if np.isnan(arr).any():
            raise ValueError(f"{name} (shape {shape_str(arr.shape)}) contains NaN; expected finite numbers")
    elif not np.isfinite(arr).all():
        raise ValueError(
            f"{name} (shape {shape_str(arr.shape)}) contains NaN or infinite values; expected finite numbers"
        )
    return arr


def matrix(W, name: str, rows: int | None, cols: int | None, expected: str) -> np.ndarray:
    """A finite 2-D float array with ``rows`` rows and ``cols`` columns (``None``: any number)."""
    Wm = as_array(W, name, ndims=(2,), expected=expected)
    require(
        (rows is None or Wm.shape[0] == rows) and (cols is None or Wm.shape[1] == cols),
        lambda: f"{name} must have shape {expected}, got shape {shape_str(Wm.shape)}",
    )
    return Wm


def vector(x, name: str, length: int, expected: str) -> np.ndarray:
    """A finite 1-D float array of ``length`` entries."""
    xv = as_array(x, name, ndims=(1,), expected=expected)
    require(xv.shape[0] == length, lambda: f"{name} must have shape {expected}, got shape {shape_str(xv.shape)}")
    return xv


# ------------------------------------------------------------------------- shapes of readers and scorers


def axis_index(axis, ndim: int, shape: tuple[int, ...]) -> int:
    """``axis`` as a non-negative int for an array of rank ``ndim``: one integer axis, never None or a tuple."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be one integer axis (the source positions j), got {type(axis).__name__} {axis!r}")
    require(-ndim <= axis < ndim, lambda: f"axis={axis} is out of range for scores of shape {shape_str(shape)}")
    return int(axis) % ndim


def boolean_mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """``mask`` as a boolean array of exactly ``shape``."""
    m = _to_ndarray(mask, "mask", f"{shape_str(shape)} of booleans")
    if m.dtype != bool:
        raise TypeError(f"mask must be a boolean array of shape {shape_str(shape)}, got dtype {m.dtype}")
    require(
        m.shape == shape,
        lambda: f"mask must have the shape of scores {shape_str(shape)}, got shape {shape_str(m.shape)}",
    )
    return m


def check_softmax(scores, axis, mask) -> tuple[np.ndarray, int, np.ndarray]:
    """Validate softmax's arguments; return the scores, the axis as an int and the readable positions.

    Scores may be ``-inf`` ("never read this position", like a ``False`` in ``mask``) but not NaN or ``+inf``;
    every row along ``axis`` needs at least one readable position (the article's T >= 1).
    """
    e = as_array(scores, "scores", ndims=_RANK_1_UP, expected="(..., T) with T >= 1", allow_inf=True)
    require(not np.isposinf(e).any(), lambda: f"scores (shape {shape_str(e.shape)}) contains +inf; expected finite")
    axis = axis_index(axis, e.ndim, e.shape)
    readable = np.isfinite(e) if mask is None else np.isfinite(e) & boolean_mask(mask, e.shape)
    require(
        e.shape[axis] >= 1 and readable.any(axis=axis).all(),
        lambda: (
            f"softmax needs at least one readable position in every row along axis {axis}; scores has shape "
            f"{shape_str(e.shape)} and some row is empty or fully masked (the article requires T >= 1)"
        ),
    )
    return e, axis, readable


def check_scores_and_H(scores, H, *, scores_name: str = "scores") -> tuple[np.ndarray, np.ndarray]:
    """Validate a pair (scores, H) for a read and return them as arrays.

    ``scores`` is ``(T,)`` or ``(N, T)``; ``H`` is ``(T, d_h)`` shared by all reads, or ``(N, T, d_h)`` with
    one set of annotations per read.
    """
    e = as_array(scores, scores_name, ndims=(1, 2), expected="(T,) or (N, T)", allow_inf=True)
    Hm = as_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
    T = e.shape[-1]
    if Hm.ndim == 2:
        require(
            Hm.shape[0] == T,
            lambda: (
                f"H must have shape (T, d_h) with T = {T} rows to match {scores_name} of shape "
                f"{shape_str(e.shape)}, got shape {shape_str(Hm.shape)}"
            ),
        )
    else:
        require(
            e.ndim == 2 and Hm.shape[:2] == e.shape,
            lambda: (
                f"H of shape {shape_str(Hm.shape)} is batched (N, T, d_h), so {scores_name} must have shape "
                f"(N, T) = {shape_str(Hm.shape[:2])}, got shape {shape_str(e.shape)}"
            ),
        )
    return e, Hm


def check_attend(scores, H, mask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a read: scores and annotations as in :func:`check_scores_and_H`, and the optional mask."""
    e, Hm = check_scores_and_H(scores, H)
    _, _, readable = check_softmax(e, -1, mask)
    return e, Hm, readable


def check_attend_backward(weights, H, g) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate weights (as softmax returns them), annotations, and one upstream gradient ``g`` per read."""
    a, Hm = check_scores_and_H(weights, H, scores_name="weights")
    require(
        bool((a >= 0).all()) and np.allclose(a.sum(axis=-1), 1.0, atol=1e-6),
        lambda: (
            f"weights (shape {shape_str(a.shape)}) must be non-negative and sum to 1 along the last axis, "
            "as softmax returns them"
        ),
    )
    d_h = Hm.shape[-1]
    gv = as_array(g, "g", ndims=(a.ndim,), expected=f"({d_h},)" if a.ndim == 1 else f"({a.shape[0]}, {d_h})")
    require(
        gv.shape == a.shape[:-1] + (d_h,),
        lambda: (
            f"g must have shape {shape_str(a.shape[:-1] + (d_h,))} (one d_h-vector per read), "
            f"got shape {shape_str(gv.shape)}"
        ),
    )
    return a, Hm, gv


def states_and_annotations(s, H, d_s_name: str = "d_s") -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate ``s`` ((d_s,) or (N, d_s)) and ``H`` ((T, d_h) or (N, T, d_h)); return 2-D ``s``, ``H``, and
    whether ``s`` was a single state."""
    sv = as_array(s, "s", ndims=(1, 2), expected=f"({d_s_name},) or (N, {d_s_name})")
    Hm = as_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
    require(Hm.shape[-2] >= 1, lambda: f"H must hold at least one annotation (T >= 1), got shape {shape_str(Hm.shape)}")
    single = sv.ndim == 1
    s2 = sv[None, :] if single else sv  # (N, d_s)
    require(
        Hm.ndim == 2 or (not single and Hm.shape[0] == s2.shape[0]),
        lambda: (
            f"H of shape {shape_str(Hm.shape)} is batched (N, T, d_h), so s must have shape "
            f"(N, {d_s_name}) with N = {Hm.shape[0]}, got shape {shape_str(sv.shape)}"
        ),
    )
    return s2, Hm, single


def check_dot(s, H) -> tuple[np.ndarray, np.ndarray, bool]:
    """Validate the dot score's ``s`` and ``H``, which must have the same width ``d``."""
    s2, Hm, single = states_and_annotations(s, H, d_s_name="d")
    require(
        s2.shape[1] == Hm.shape[-1],
        lambda: (
            f"dot scores need s and h_j of the same width: s has shape {shape_str(np.shape(s))} (d_s = "
            f"{s2.shape[1]}) but H has shape {shape_str(Hm.shape)} (d_h = {Hm.shape[-1]})"
        ),
    )
    return s2, Hm, single


def check_general(s, H, W) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Validate the general score's ``s``, ``H`` and ``W`` of shape ``(d_s, d_h)``."""
    s2, Hm, single = states_and_annotations(s, H)
    d_s, d_h = s2.shape[1], Hm.shape[-1]
    return s2, Hm, matrix(W, "W", d_s, d_h, f"(d_s, d_h) = ({d_s}, {d_h})"), single


def check_additive(s, H, W_s, W_h, v, b) -> tuple[np.ndarray, ...]:
    """Validate the additive scorer's arguments; return ``s`` as ``(N, d_s)``, the rest as arrays, and
    whether ``s`` was a single state."""
    s2, Hm, single = states_and_annotations(s, H)
    d_s, d_h = s2.shape[1], Hm.shape[-1]
    W_s = matrix(W_s, "W_s", None, d_s, f"(d_a, d_s) = (d_a, {d_s}) to match s")
    d_a = W_s.shape[0]
    W_h = matrix(W_h, "W_h", d_a, d_h, f"(d_a, d_h) = ({d_a}, {d_h}) to match W_s and H")
    v = vector(v, "v", d_a, f"(d_a,) = ({d_a},)")
    b = vector(b, "b", d_a, f"(d_a,) = ({d_a},)")
    return s2, Hm, W_s, W_h, v, b, single


def check_additive_backward(d_scores, s, H, W_s, W_h, v, b) -> tuple[np.ndarray, ...]:
    """:func:`check_additive`, and the upstream gradient ``d_scores`` shaped like the scores; returns it 2-D."""
    s2, Hm, W_s, W_h, v, b, single = check_additive(s, H, W_s, W_h, v, b)
    N, T = s2.shape[0], Hm.shape[-2]
    want = (T,) if single else (N, T)
    dE = as_array(d_scores, "d_scores", ndims=(len(want),), expected=shape_str(want))
    require(dE.shape == want, lambda: f"d_scores must have shape {shape_str(want)}, got {shape_str(dE.shape)}")
    return dE.reshape(N, T), s2, Hm, W_s, W_h, v, b, single


def check_self_attention(X, W_q, W_k, W_v) -> tuple[np.ndarray, ...]:
    """Validate a sequence ``X`` ``(T, d_x)``, projections ``W_q, W_k`` ``(d_k, d_x)`` and ``W_v`` ``(d_v, d_x)``."""
    Xm = as_array(X, "X", ndims=(2,), expected="(T, d_x)")
    require(Xm.shape[0] >= 1, f"X must hold at least one position (T >= 1), got shape {shape_str(Xm.shape)}")
    d_x = Xm.shape[1]
    W_q = matrix(W_q, "W_q", None, d_x, f"(d_k, d_x) with d_x = {d_x} to match X")
    W_k = matrix(W_k, "W_k", None, d_x, f"(d_k, d_x) with d_x = {d_x} to match X")
    W_v = matrix(W_v, "W_v", None, d_x, f"(d_v, d_x) with d_x = {d_x} to match X")
    require(
        W_q.shape[0] == W_k.shape[0],
        lambda: (
            f"W_q and W_k must have the same number of rows d_k (queries and keys are compared by a dot "
            f"product), got shapes {shape_str(W_q.shape)} and {shape_str(W_k.shape)}"
        ),
    )
    return Xm, W_q, W_k, W_v


def check_rnn_params(params) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the weights ``(W_x (d_h, d_e), W_h (d_h, d_h), b (d_h,))`` of a tanh cell."""
    if not isinstance(params, tuple) or len(params) != 3:
        raise TypeError(f"params must be an RNNParams (W_x, W_h, b) as init_rnn returns, got {type(params).__name__}")
    W_x = as_array(params[0], "W_x", ndims=(2,), expected="(d_h, d_e)")
    d_h = W_x.shape[0]
    W_h = matrix(params[1], "W_h", d_h, d_h, f"(d_h, d_h) = ({d_h}, {d_h})")
    return W_x, W_h, vector(params[2], "b", d_h, f"(d_h,) = ({d_h},)")


def check_rnn_step(x, h_prev, W_x) -> tuple[np.ndarray, np.ndarray]:
    """Validate one embedding ``x`` ``(d_e,)``/``(B, d_e)`` and previous state ``h_prev`` with the same batch."""
    d_h, d_e = W_x.shape
    xv = as_array(x, "x", ndims=(1, 2), expected=f"(d_e,) or (B, d_e) with d_e = {d_e}")
    hv = as_array(h_prev, "h_prev", ndims=(1, 2), expected=f"(d_h,) or (B, d_h) with d_h = {d_h}")
    require(xv.shape[-1] == d_e, f"x must have last axis d_e = {d_e} to match W_x, got shape {shape_str(xv.shape)}")
    require(
        hv.shape[-1] == d_h, f"h_prev must have last axis d_h = {d_h} to match W_h, got shape {shape_str(hv.shape)}"
    )
    require(
        xv.shape[:-1] == hv.shape[:-1],
        f"x {shape_str(xv.shape)} and h_prev {shape_str(hv.shape)} must have the same batch shape",
    )
    return xv, hv


def check_rnn_sequence(X, W_x, h0) -> tuple[np.ndarray, np.ndarray]:
    """Validate a sequence ``X`` ``(T, d_e)``/``(B, T, d_e)`` with ``T >= 1``; return it and ``h0`` (zeros if None)."""
    d_h, d_e = W_x.shape
    Xm = as_array(X, "X", ndims=(2, 3), expected=f"(T, d_e) or (B, T, d_e) with d_e = {d_e}")
    require(Xm.shape[-1] == d_e, f"X must have last axis d_e = {d_e} to match W_x, got shape {shape_str(Xm.shape)}")
    require(Xm.shape[-2] >= 1, f"X must hold at least one position (T >= 1), got shape {shape_str(Xm.shape)}")
    want = Xm.shape[:-2] + (d_h,)  # (d_h,) or (B, d_h)
    if h0 is None:
        return Xm, np.zeros(want)
    h = as_array(h0, "h0", ndims=(len(want),), expected=shape_str(want))
    require(h.shape == want, f"h0 must have shape {shape_str(want)}, got {shape_str(h.shape)}")
    return Xm, h


# ------------------------------------------------------------------- numbers and functions as arguments


def positive_int(n, name: str) -> int:
    """``n`` as an int >= 1; ``True``, floats and strings are refused."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be a positive integer, got {type(n).__name__} {n!r}")
    require(n >= 1, lambda: f"{name} must be a positive integer (at least 1), got {n}")
    return int(n)


def positive_number(x, name: str, low: float = 0.0, high: float = np.inf) -> float:
    """``x`` as a finite float with ``0 < x`` and ``low <= x <= high``; any real scalar except a bool."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a positive number, got {type(x).__name__} {x!r}")
    require(
        bool(np.isfinite(x)) and 0 < x and low <= x <= high,
        lambda: f"{name} must be a positive finite number{f' in [{low:g}, {high:g}]' if low else ''}, got {x!r}",
    )
    return float(x)


def check_nonlinearity(nonlinearity) -> None:
    """Refuse a ``nonlinearity`` that is neither a function (such as ``np.tanh``) nor ``None``."""
    if nonlinearity is not None and not callable(nonlinearity):
        raise TypeError(f"nonlinearity must be a function such as np.tanh, or None; got {type(nonlinearity)}")


def checked_nonlinearity(nonlinearity):
    """``nonlinearity`` (``np.tanh`` and ``None`` as they are), or a caller's function wrapped so that what it
    returns is checked: an array of the input's shape (it must act elementwise), real, and finite where its
    input is finite."""
    check_nonlinearity(nonlinearity)
    if nonlinearity is None or nonlinearity is np.tanh:
        return nonlinearity

    def checked(z: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the nonlinearity
            out = _to_ndarray(nonlinearity(z), "what nonlinearity returned", shape_str(z.shape))
        require(
            out.shape == z.shape and out.dtype.kind in "fiu",
            lambda: (
                f"nonlinearity must act elementwise and return real numbers: given an array of shape "
                f"{shape_str(z.shape)} it returned dtype {out.dtype} with shape {shape_str(out.shape)}"
            ),
        )
        require(
            np.isfinite(out[np.isfinite(z)]).all(),
            lambda: (
                f"nonlinearity returned NaN or inf for finite pre-activations (largest |z| = "
                f"{np.abs(z[np.isfinite(z)]).max():.4g}); choose a bounded function such as np.tanh or smaller s"
            ),
        )
        return out

    return checked


def scalar_output(value, name: str) -> float:
    """What a caller's scalar function ``name`` returned, as a finite float."""
    if np.ndim(value) != 0:
        raise TypeError(f"{name} must return a single number (a scalar loss), got shape {shape_str(np.shape(value))}")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must return a single number (a scalar loss), got {type(value).__name__}") from None
    require(np.isfinite(out), f"{name} returned {out}; expected a finite number")
    return out


def check_finite_difference(f, x, eps) -> tuple[np.ndarray, float]:
    """Validate finite_difference's arguments: return a fresh C-ordered float64 copy of ``x`` to perturb in
    place, and ``eps`` as a float in [1e-12, 1] whose steps ``x_i +- eps`` are representable."""
    if not callable(f):
        raise TypeError(f"f must be a function of one array returning a number, got {type(f)}")
    x0 = np.array(as_array(x, "x", ndims=_ANY_RANK, expected="any shape"), dtype=np.float64, order="C", copy=True)
    eps = positive_number(eps, "eps", low=1e-12, high=1.0)
    require(
        not x0.size or bool(((x0 + eps) - (x0 - eps) > 0).all()),
        lambda: f"eps = {eps:g} is lost in rounding next to |x| = {np.abs(x0).max():g}; choose a larger eps",
    )
    return x0, eps


# ----------------------------------------------------------------- finite input must give finite output


def normalised(x: np.ndarray) -> tuple[np.ndarray, int]:
    """``x = m * 2**E`` with ``max |m|`` in [0.5, 1): an exact rescaling that keeps products of huge entries
    finite; a kernel linear in ``x`` is then computed on ``m`` and multiplied back by ``2**E``."""
    top = np.abs(x).max() if x.size else 0.0
    E = int(np.frexp(top)[1]) if top > 0 else 0
    return np.ldexp(x, -E), E


def finite_result(result: np.ndarray, what: str, **inputs: np.ndarray) -> np.ndarray:
    """Return ``result`` if finite; else finite inputs overflowed the float range: name them and their sizes."""
    if not np.isfinite(result).all():
        sizes = ", ".join(f"largest |{k}| = {np.abs(v).max():.3g}" for k, v in inputs.items() if np.size(v))
        hint = "; pass float64 arrays" if result.dtype == np.float32 else ""
        raise ValueError(
            f"{what} overflowed {result.dtype} for these finite inputs ({sizes}): rescale {', '.join(inputs)}{hint}"
        )
    return result


def finite_multilinear(kernel, what: str, **arrays: np.ndarray) -> np.ndarray:
    """``kernel(*arrays)`` for a kernel linear in each array (a product of them, such as ``s^T W h``), kept
    finite: if an intermediate overflowed, it is computed again on the normalised arrays and scaled back by
    ``2**(E_1 + E_2 + ...)``; a result that is itself beyond the float range raises, naming the arrays."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = kernel(*arrays.values())
        if not np.isfinite(out).all():
            parts = [normalised(x) for x in arrays.values()]
            out = np.ldexp(kernel(*(m for m, _ in parts)), sum(E for _, E in parts))
    return finite_result(out, what, **arrays)
