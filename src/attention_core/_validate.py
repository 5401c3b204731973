"""Argument validation for the whole package: the one vocabulary of boundary checks.

Every public function of the math, the models and the figures validates its arguments once, with one call into
this module, so that bad input fails with a ``ValueError`` or ``TypeError`` naming the argument, the shape it got
and the shape it expected, instead of a numpy broadcasting error or a silent NaN; then it computes its formula.
The models validate a batch once at their boundary and call the math's kernels inside their time loops.

Naming: a function here is named for what it returns, never ``check_*`` (in this package a *check* grades a
reader's answer: :mod:`attention_core.checks`).

- ``<function>_args(...)``: every argument of the public function ``<function>``, validated and converted, e.g.
  :func:`softmax_args` for :func:`attention_core.softmax`. It returns them in the order the formula uses them.
- nouns: one validated value, e.g. :func:`real_array`, :func:`matrix`, :func:`integer`, :func:`one_of`,
  :func:`token_ids`, :func:`model_params`.
- :func:`require` is the one primitive under them all: ``ValueError`` unless a condition holds.

Float-range rescue (finite input must give finite output) is not validation and lives in :mod:`._numerics`.

Sections: messages; arrays; numbers, names and choices; reads and scores; Luong's reads; recurrent cells; toy
sentences; models.
"""

from __future__ import annotations

import numbers
import re
import sys

import numpy as np

# -------------------------------------------------------------------------------------------- messages


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


# ---------------------------------------------------------------------------------------------- arrays

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
ANY_RANK = range(0, sys.maxsize)  # every rank numpy allows (64 in numpy 2)
RANK_1_UP = range(1, sys.maxsize)


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
    except ValueError:  # numpy refuses nested sequences of unequal lengths
        raise TypeError(
            f"{name} must be an array of shape {expected}; could not convert it: its nested rows have different lengths"
        ) from None
    except TypeError as exc:
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


def real_array(
    x, name: str, *, ndims=ANY_RANK, expected: str, allow_inf: bool = False, allow_nan: bool = False
) -> np.ndarray:
    """``x`` as a float array after checking its type, dtype, rank and finiteness.

    ``ndims`` lists the accepted ranks (a tuple, or :data:`ANY_RANK` / :data:`RANK_1_UP`); ``expected``
    describes the expected shape in the article's symbols, for example ``"(T, d_h) or (N, T, d_h)"``.
    Integers become float64; float32 stays float32 so that the models can train in single precision; other
    real floats become native float64 (big-endian, longdouble) or float32 (float16). Booleans, strings,
    complex numbers, masked arrays, matrices and ragged nested lists are refused; any memory layout is
    accepted and never written to. ``allow_inf`` lets ``+-inf`` through, ``allow_nan`` NaN as well (for a
    reader's answer, which is graded rather than refused). Cheap on a valid float array: one dtype lookup and
    one finiteness reduction.
    """
    arr = x if type(x) is np.ndarray else _to_ndarray(x, name, expected)
    if arr.dtype not in _FLOATS:
        arr = _native_float(arr, name, expected)
    if arr.ndim not in ndims:
        raise ValueError(f"{name} must have shape {expected}, got shape {shape_str(arr.shape)}")
    if allow_nan:
        return arr
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
    Wm = real_array(W, name, ndims=(2,), expected=expected)
    require(
        (rows is None or Wm.shape[0] == rows) and (cols is None or Wm.shape[1] == cols),
        lambda: f"{name} must have shape {expected}, got shape {shape_str(Wm.shape)}",
    )
    return Wm


def vector(x, name: str, length: int | None, expected: str) -> np.ndarray:
    """A finite 1-D float array of ``length`` entries (``None``: any number)."""
    xv = real_array(x, name, ndims=(1,), expected=expected)
    require(
        length is None or xv.shape[0] == length,
        lambda: f"{name} must have shape {expected}, got shape {shape_str(xv.shape)}",
    )
    return xv


def read_only(values, dtype=np.float64) -> np.ndarray:
    """A new read-only array of ``values``, for a constant the package shares: ``H_EXAMPLE[0, 0] = 9`` raises
    instead of changing every later result."""
    arr = np.array(values, dtype=dtype)
    arr.setflags(write=False)
    return arr


# ---------------------------------------------------------------------------- numbers, names and choices


def integer(n, name: str, minimum: int = 1) -> int:
    """``n`` as an int ``>= minimum``; ``True``, floats and strings are refused."""
    want = "a positive integer (at least 1)" if minimum == 1 else f"an integer >= {minimum}"
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be {want}, got {type(n).__name__} {n!r}")
    require(n >= minimum, lambda: f"{name} must be {want}, got {n}")
    return int(n)


def number(x, name: str, low: float = -np.inf, high: float = np.inf, *, low_open: bool = False) -> float:
    """``x`` as a finite float in ``[low, high]`` (``(low, high]`` with ``low_open``); any real scalar but a bool.

    ``number(x, "lr", 0.0, low_open=True)`` is a positive number.
    """
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__} {x!r}")
    value = float(x)
    above = value > low if low_open else value >= low
    if not (np.isfinite(value) and above and value <= high):
        if low == 0 and low_open and high == np.inf:
            want = "a positive finite number"
        else:
            want = f"a finite number in {'(' if low_open else '['}{low:g}, {high:g}{']' if np.isfinite(high) else ')'}"
        raise ValueError(f"{name} must be {want}, got {x!r}")
    return value


def one_of(value, name: str, choices):
    """``value``, which must be one of ``choices`` (strings, or other hashable values)."""
    if all(isinstance(c, str) for c in choices) and not isinstance(value, str):
        raise TypeError(f"{name} must be a str, one of {list(choices)}; got {type(value).__name__} {value!r}")
    require(value in choices, lambda: f"{name} must be one of {list(choices)}, got {value!r}")
    return value


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def plain_name(name, what: str = "name") -> str:
    """``name`` if it is a plain file name stem: letters, digits, ``_`` and ``-``; no folder, dot or suffix."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a plain name (letters, digits, _ and -), got {type(name).__name__} {name!r}")
    require(
        _PLAIN_NAME.fullmatch(name) is not None,
        lambda: f"{what} must be a plain name (letters, digits, _ and -, no folder or suffix), got {name!r}",
    )
    return name


def function(f, name: str, what: str):
    """``f`` if it can be called; ``what`` says what it should be (``"a function of one array"``)."""
    if not callable(f):
        raise TypeError(f"{name} must be {what}, got {type(f).__name__} {f!r:.60}")
    return f


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


# ------------------------------------------------------------------------------------- reads and scores


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


def softmax_args(scores, axis, mask) -> tuple[np.ndarray, int, np.ndarray]:
    """Softmax's arguments: the scores, the axis as an int and the readable positions.

    Scores may be ``-inf`` ("never read this position", like a ``False`` in ``mask``) but not NaN or ``+inf``;
    every row along ``axis`` needs at least one readable position (the article's T >= 1).
    """
    e = real_array(scores, "scores", ndims=RANK_1_UP, expected="an array of rank >= 1", allow_inf=True)
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


def read_args(scores, H, *, scores_name: str = "scores") -> tuple[np.ndarray, np.ndarray]:
    """The arguments of a read: ``scores`` ``(T,)`` or ``(N, T)``, and ``H`` ``(T, d_h)`` shared by all reads or
    ``(N, T, d_h)`` with one set of annotations per read."""
    e = real_array(scores, scores_name, ndims=(1, 2), expected="(T,) or (N, T)", allow_inf=True)
    Hm = real_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
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


def hard_weights_args(scores) -> np.ndarray:
    """The finite scores ``(T,)`` or ``(N, T)`` of a hard read, ``T >= 1``."""
    e = real_array(scores, "scores", ndims=(1, 2), expected="(T,) or (N, T)")
    require(e.shape[-1] >= 1, lambda: f"scores must hold at least one position (T >= 1), got {shape_str(e.shape)}")
    return e


def attend_args(scores, H, mask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A read's arguments: scores and annotations as in :func:`read_args`, and the readable positions."""
    e, Hm = read_args(scores, H)
    _, _, readable = softmax_args(e, -1, mask)
    return e, Hm, readable


def attend_backward_args(weights, H, g) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weights (as softmax returns them), annotations, and one upstream gradient ``g`` per read."""
    a, Hm = read_args(weights, H, scores_name="weights")
    require(
        bool((a >= 0).all()) and np.allclose(a.sum(axis=-1), 1.0, atol=1e-6),
        lambda: (
            f"weights (shape {shape_str(a.shape)}) must be non-negative and sum to 1 along the last axis, "
            "as softmax returns them"
        ),
    )
    d_h = Hm.shape[-1]
    gv = real_array(g, "g", ndims=(a.ndim,), expected=f"({d_h},)" if a.ndim == 1 else f"({a.shape[0]}, {d_h})")
    require(
        gv.shape == a.shape[:-1] + (d_h,),
        lambda: (
            f"g must have shape {shape_str(a.shape[:-1] + (d_h,))} (one d_h-vector per read), "
            f"got shape {shape_str(gv.shape)}"
        ),
    )
    return a, Hm, gv


def states_and_annotations(s, H, d_s_name: str = "d_s") -> tuple[np.ndarray, np.ndarray, bool]:
    """``s`` ((d_s,) or (N, d_s)) and ``H`` ((T, d_h) or (N, T, d_h)); returns 2-D ``s``, ``H``, and whether
    ``s`` was a single state."""
    sv = real_array(s, "s", ndims=(1, 2), expected=f"({d_s_name},) or (N, {d_s_name})")
    Hm = real_array(H, "H", ndims=(2, 3), expected="(T, d_h) or (N, T, d_h)")
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


def dot_args(s, H) -> tuple[np.ndarray, np.ndarray, bool]:
    """The dot score's ``s`` and ``H``, which must have the same width ``d``."""
    s2, Hm, single = states_and_annotations(s, H, d_s_name="d")
    require(
        s2.shape[1] == Hm.shape[-1],
        lambda: (
            f"dot scores need s and h_j of the same width: s has shape {shape_str(np.shape(s))} (d_s = "
            f"{s2.shape[1]}) but H has shape {shape_str(Hm.shape)} (d_h = {Hm.shape[-1]})"
        ),
    )
    return s2, Hm, single


def general_args(s, H, W) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """The general score's ``s``, ``H`` and ``W`` of shape ``(d_s, d_h)``."""
    s2, Hm, single = states_and_annotations(s, H)
    d_s, d_h = s2.shape[1], Hm.shape[-1]
    return s2, Hm, matrix(W, "W", d_s, d_h, f"(d_s, d_h) = ({d_s}, {d_h})"), single


def additive_args(s, H, W_s, W_h, v, b) -> tuple[np.ndarray, ...]:
    """The additive scorer's arguments: ``s`` as ``(N, d_s)``, the rest as arrays, and whether ``s`` was a
    single state."""
    s2, Hm, single = states_and_annotations(s, H)
    d_s, d_h = s2.shape[1], Hm.shape[-1]
    W_s = matrix(W_s, "W_s", None, d_s, f"(d_a, d_s) = (d_a, {d_s}) to match s")
    d_a = W_s.shape[0]
    W_h = matrix(W_h, "W_h", d_a, d_h, f"(d_a, d_h) = ({d_a}, {d_h}) to match W_s and H")
    v = vector(v, "v", d_a, f"(d_a,) = ({d_a},)")
    b = vector(b, "b", d_a, f"(d_a,) = ({d_a},)")
    return s2, Hm, W_s, W_h, v, b, single


def additive_backward_args(d_scores, s, H, W_s, W_h, v, b) -> tuple[np.ndarray, ...]:
    """:func:`additive_args`, and the upstream gradient ``d_scores`` shaped like the scores; returned 2-D."""
    s2, Hm, W_s, W_h, v, b, single = additive_args(s, H, W_s, W_h, v, b)
    N, T = s2.shape[0], Hm.shape[-2]
    want = (T,) if single else (N, T)
    dE = real_array(d_scores, "d_scores", ndims=(len(want),), expected=shape_str(want))
    require(dE.shape == want, lambda: f"d_scores must have shape {shape_str(want)}, got {shape_str(dE.shape)}")
    return dE.reshape(N, T), s2, Hm, W_s, W_h, v, b, single


def guarded_nonlinearity(nonlinearity):
    """``nonlinearity`` (``np.tanh`` and ``None`` as they are), or a caller's function wrapped so that what it
    returns is checked: an array of the input's shape (it must act elementwise), real, and finite where its
    input is finite."""
    if nonlinearity is None or nonlinearity is np.tanh:
        return nonlinearity
    function(nonlinearity, "nonlinearity", "a function such as np.tanh, or None")

    def guarded(z: np.ndarray) -> np.ndarray:
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

    return guarded


def self_attention_args(X, W_q, W_k, W_v) -> tuple[np.ndarray, ...]:
    """A sequence ``X`` ``(T, d_x)``, projections ``W_q, W_k`` ``(d_k, d_x)`` and ``W_v`` ``(d_v, d_x)``."""
    Xm = real_array(X, "X", ndims=(2,), expected="(T, d_x)")
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


def finite_difference_args(f, x, eps) -> tuple[np.ndarray, float]:
    """finite_difference's arguments: a fresh C-ordered float64 copy of ``x`` to perturb in place, and ``eps``
    as a float in [1e-12, 1] whose steps ``x_i +- eps`` are representable."""
    function(f, "f", "a function of one array returning a number")
    x0 = np.array(real_array(x, "x", expected="any shape"), dtype=np.float64, order="C", copy=True)
    eps = number(eps, "eps", 1e-12, 1.0)
    require(
        not x0.size or bool(((x0 + eps) - (x0 - eps) > 0).all()),
        lambda: f"eps = {eps:g} is lost in rounding next to |x| = {np.abs(x0).max():g}; choose a larger eps",
    )
    return x0, eps


# ------------------------------------------------------------------------------------------ Luong's reads

LUONG_SCORES = ("dot", "general", "concat")


def luong_scores_args(s, H, score, W, v) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """``s`` ``(d_s,)`` or ``(N, d_s)``, ``H`` ``(T, d_h)``, and the parameters ``score`` needs: none for dot;
    ``W`` ``(d_s, d_h)`` for general; ``W`` ``(d_a, d_s + d_h)`` and ``v`` ``(d_a,)`` for concat."""
    one_of(score, "score", LUONG_SCORES)
    sv = real_array(s, "s", ndims=(1, 2), expected="(d_s,) or (N, d_s)")
    Hm = real_array(H, "H", ndims=(2,), expected="(T, d_h)")
    require(Hm.shape[0] >= 1, lambda: f"H must hold at least one annotation (T >= 1), got shape {shape_str(Hm.shape)}")
    d_s, d_h = sv.shape[-1], Hm.shape[1]
    if score == "dot":
        require(W is None and v is None, "score='dot' has no parameters: pass neither W nor v")
        dot_args(sv, Hm)
        return sv, Hm, None, None
    if score == "general":
        require(W is not None and v is None, "score='general' needs W of shape (d_s, d_h) and no v")
        return sv, Hm, matrix(W, "W", d_s, d_h, f"(d_s, d_h) = ({d_s}, {d_h})"), None
    require(W is not None and v is not None, "score='concat' needs W of shape (d_a, d_s + d_h) and v of shape (d_a,)")
    Wm = matrix(W, "W", None, d_s + d_h, f"(d_a, d_s + d_h) = (d_a, {d_s + d_h}) for score='concat'")
    return sv, Hm, Wm, vector(v, "v", Wm.shape[0], f"(d_a,) = ({Wm.shape[0]},) to match W")


def positions(p, name: str) -> np.ndarray:
    """Aligned positions ``p_t`` as floats: one finite number (shape ``()``), or ``(N,)`` with one per state."""
    return real_array(p, name, ndims=(0, 1), expected="() for one state or (N,), one per state")


def window_args(p, T, D, name: str = "p") -> tuple[np.ndarray, int, int]:
    """A local window's centre ``p`` (see :func:`positions`; ``name`` is the caller's name for it), ``T`` and
    ``D`` as ints ``>= 1``; the window ``|j - p_t| <= D`` must hold one of the positions ``1..T`` for every
    ``p_t``."""
    T, D = integer(T, "T"), integer(D, "D")
    pv = positions(p, name)
    nearest = np.clip(np.round(pv), 1, T).astype(np.int64)  # the position j in 1..T closest to p_t
    require(
        bool((np.abs(nearest - pv) <= D).all()),  # the window's own test |j - p_t| <= D, at that j
        lambda: f"the window |j - {name}| <= D = {D} around {name} = {p!r} holds none of the positions 1..{T}",
    )
    return pv, T, D


def gaussian_factor_args(p, T, D) -> tuple[np.ndarray, int, int]:
    """Local-p's Gaussian: centres ``p`` (see :func:`positions`), ``T`` and ``D`` as ints ``>= 1``."""
    return positions(p, "p"), integer(T, "T"), integer(D, "D")


def predicted_position_args(s, W_p, v_p, T) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """``s`` ``(d_s,)`` or ``(N, d_s)``, ``W_p`` ``(d_a, d_s)``, ``v_p`` ``(d_a,)`` and ``T >= 1``."""
    T = integer(T, "T")
    sv = real_array(s, "s", ndims=(1, 2), expected="(d_s,) or (N, d_s)")
    d_s = sv.shape[-1]
    W_p = matrix(W_p, "W_p", None, d_s, f"(d_a, d_s) = (d_a, {d_s}) to match s")
    return sv, W_p, vector(v_p, "v_p", W_p.shape[0], f"(d_a,) = ({W_p.shape[0]},) to match W_p"), T


def local_m_args(s, H, t, D, score, W, v) -> tuple:
    """:func:`luong_scores_args`, and a window centre ``t`` per state (shape ``()`` for one state ``(d_s,)``,
    ``(N,)`` for ``N`` states) whose window ``|j - t| <= D`` holds a position."""
    sv, Hm, W, v = luong_scores_args(s, H, score, W, v)
    tv, _, D = window_args(t, Hm.shape[0], D, name="t")
    want = () if sv.ndim == 1 else sv.shape[:1]
    require(
        tv.shape == want,
        lambda: f"t must have shape {shape_str(want)} (one target step per state of s), got {shape_str(tv.shape)}",
    )
    return sv, Hm, W, v, tv, D


def local_p_args(s, H, D, W_p, v_p, score, W, v) -> tuple:
    """:func:`luong_scores_args`, ``D >= 1``, and the position predictor ``W_p`` ``(d_a, d_s)``, ``v_p``
    ``(d_a,)`` (see :func:`predicted_position_args`)."""
    sv, Hm, W, v = luong_scores_args(s, H, score, W, v)
    _, W_p, v_p, _ = predicted_position_args(sv, W_p, v_p, Hm.shape[0])
    return sv, Hm, W, v, integer(D, "D"), W_p, v_p


# ------------------------------------------------------------------------------------- recurrent cells


def init_rnn_args(d_e, d_h, scale) -> tuple[int, int, float]:
    """Widths ``d_e, d_h >= 1`` and a positive ``scale`` for a tanh cell's random weights."""
    return integer(d_e, "d_e"), integer(d_h, "d_h"), number(scale, "scale", 0.0, low_open=True)


def rnn_params(params) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weights ``(W_x (d_h, d_e), W_h (d_h, d_h), b (d_h,))`` of a tanh cell."""
    if not isinstance(params, tuple) or len(params) != 3:
        raise TypeError(f"params must be an RNNParams (W_x, W_h, b) as init_rnn returns, got {type(params).__name__}")
    W_x = real_array(params[0], "W_x", ndims=(2,), expected="(d_h, d_e)")
    d_h = W_x.shape[0]
    W_h = matrix(params[1], "W_h", d_h, d_h, f"(d_h, d_h) = ({d_h}, {d_h})")
    return W_x, W_h, vector(params[2], "b", d_h, f"(d_h,) = ({d_h},)")


def rnn_cell_args(x, h_prev, params) -> tuple[np.ndarray, ...]:
    """One embedding ``x`` ``(d_e,)``/``(B, d_e)``, the previous state ``h_prev`` with the same batch, and the
    cell's weights (:func:`rnn_params`); returns ``x, h_prev, W_x, W_h, b``."""
    W_x, W_h, b = rnn_params(params)
    d_h, d_e = W_x.shape
    xv = real_array(x, "x", ndims=(1, 2), expected=f"(d_e,) or (B, d_e) with d_e = {d_e}")
    hv = real_array(h_prev, "h_prev", ndims=(1, 2), expected=f"(d_h,) or (B, d_h) with d_h = {d_h}")
    require(xv.shape[-1] == d_e, f"x must have last axis d_e = {d_e} to match W_x, got shape {shape_str(xv.shape)}")
    require(
        hv.shape[-1] == d_h, f"h_prev must have last axis d_h = {d_h} to match W_h, got shape {shape_str(hv.shape)}"
    )
    require(
        xv.shape[:-1] == hv.shape[:-1],
        f"x {shape_str(xv.shape)} and h_prev {shape_str(hv.shape)} must have the same batch shape",
    )
    return xv, hv, W_x, W_h, b


def run_rnn_args(X, params, h0) -> tuple[np.ndarray, ...]:
    """A sequence ``X`` ``(T, d_e)``/``(B, T, d_e)`` with ``T >= 1``, the cell's weights (:func:`rnn_params`) and
    ``h0`` (zeros if None); returns ``X, h0, W_x, W_h, b``."""
    W_x, W_h, b = rnn_params(params)
    d_h, d_e = W_x.shape
    Xm = real_array(X, "X", ndims=(2, 3), expected=f"(T, d_e) or (B, T, d_e) with d_e = {d_e}")
    require(Xm.shape[-1] == d_e, f"X must have last axis d_e = {d_e} to match W_x, got shape {shape_str(Xm.shape)}")
    require(Xm.shape[-2] >= 1, f"X must hold at least one position (T >= 1), got shape {shape_str(Xm.shape)}")
    want = Xm.shape[:-2] + (d_h,)  # (d_h,) or (B, d_h)
    if h0 is None:
        return Xm, np.zeros(want), W_x, W_h, b
    h = real_array(h0, "h0", ndims=(len(want),), expected=shape_str(want))
    require(h.shape == want, f"h0 must have shape {shape_str(want)}, got {shape_str(h.shape)}")
    return Xm, h, W_x, W_h, b


# -------------------------------------------------------------------------------------- toy sentences


def read_with_query_args(sentence, query, sentence_type: type, features: tuple[str, ...]):
    """A toy sentence (an instance of ``sentence_type``) and a query ``(F,)`` or ``(N, F)``, one entry per
    feature; returns the sentence's ``X`` ``(T, F)`` and the query."""
    if not isinstance(sentence, sentence_type):
        raise TypeError(f"sentence must be a ToySentence such as FELIX, got {type(sentence).__name__}")
    F = len(features)
    q = real_array(query, "query", ndims=(1, 2), expected=f"(F,) or (N, F) with F = {F}")
    require(
        q.shape[-1] == F,
        lambda: f"query must have last axis F = {F} (one entry per feature {features}), got {shape_str(q.shape)}",
    )
    return sentence.X, q


def feature_names(weights: dict, features: tuple[str, ...]) -> dict:
    """``weights`` by feature name, every name one of ``features`` and every value a real number."""
    unknown = sorted(set(weights) - set(features))
    require(not unknown, lambda: f"unknown feature name(s) {unknown}; the features are {list(features)}")
    return {name: number(value, name) for name, value in weights.items()}


def random_embeddings_args(tokens, d_e) -> tuple[tuple[str, ...], int]:
    """A non-empty sequence of str tokens, and the embedding width ``d_e >= 1``."""
    if isinstance(tokens, str) or not all(isinstance(t, str) for t in tokens):
        raise TypeError("tokens must be a sequence of str, e.g. ('I', 'like', 'cats')")
    require(len(tokens) >= 1, "tokens must hold at least one token (T >= 1)")
    return tuple(tokens), integer(d_e, "d_e")


# ---------------------------------------------------------------------------------------------- figures


def weight_curves_args(s_grid, tokens, curves_tanh, curves_linear) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grid of ``N`` states ``(N,)`` and the two ablation curves ``(N, T)`` over it, one column per token."""
    grid = vector(s_grid, "s_grid", None, "(N,): the states the curves are drawn over")
    N, T = grid.shape[0], len(tokens)
    want = f"(N, T) = ({N}, {T}) for {N} states and {T} tokens"
    return grid, matrix(curves_tanh, "curves_tanh", N, T, want), matrix(curves_linear, "curves_linear", N, T, want)


def encoder_reads_args(encoder, cross, source, output, true_align, layers):
    """Lesson 09's grids of one sentence of ``T`` source words: the encoder's self-attention weights, one ``(T, T)``
    array per layer; the decoder's cross-attention ``(U, T)`` with one row per output word; the words (str); the true
    source position of each output word (``(U',)``, ``U' <= U``, or None); the layers to draw (1-based, None: all).
    """
    if isinstance(source, str) or isinstance(output, str):
        raise TypeError("source and output must be sequences of words (str), e.g. ['the', 'cat', ...], not one str")
    if not all(isinstance(w, str) for w in (*source, *output)):
        raise TypeError("source and output must hold words (str)")
    T, U = len(source), len(output)
    require(T >= 1 and U >= 1, "source and output must hold at least one word each")
    if isinstance(encoder, np.ndarray) and encoder.ndim == 2:
        raise TypeError("encoder must be a sequence of (T, T) arrays, one per layer (a list even for one layer)")
    grids = [matrix(w, f"encoder[{k}]", T, T, f"(T, T) = ({T}, {T}) for {T} source words")
             for k, w in enumerate(encoder)]  # fmt: skip
    require(len(grids) >= 1, "encoder must hold the weights of one layer at least")
    cross = matrix(cross, "cross", U, T, f"(U, T) = ({U}, {T}) for {U} output and {T} source words")
    chosen = list(range(1, len(grids) + 1)) if layers is None else [integer(n, "a layer") for n in layers]
    require(chosen and all(n <= len(grids) for n in chosen),
            lambda: f"layers must name layers 1 to {len(grids)}, got {list(layers)}")  # fmt: skip
    if true_align is not None:
        true_align = np.asarray(true_align)
        positions = true_align.ndim == 1 and np.issubdtype(true_align.dtype, np.integer)
        positions = positions and true_align.size <= U and ((0 <= true_align) & (true_align < T)).all()
        require(positions, lambda: f"true_align must be source positions 0..{T - 1}, at most one per output word ({U})")
    return grids, cross, list(source), list(output), true_align, chosen


# ----------------------------------------------------------------------------------------------- models


def token_ids(ids, name: str, vocab: int) -> np.ndarray:
    """A 2-D integer array ``(N, T)`` with ``N, T >= 1`` and every id in ``[0, vocab)``."""
    if isinstance(ids, np.ma.MaskedArray) or not isinstance(ids, np.ndarray):
        raise TypeError(f"{name} must be a numpy integer array of shape (N, T), got {type(ids).__name__}")
    if ids.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer token ids, got dtype {ids.dtype} with shape {shape_str(ids.shape)}")
    require(
        ids.ndim == 2 and ids.shape[0] >= 1 and ids.shape[1] >= 1,
        lambda: f"{name} must have shape (N, T) with N, T >= 1 (one row per sentence), got {shape_str(ids.shape)}",
    )
    require(
        ids.min() >= 0 and ids.max() < vocab,
        lambda: f"{name} holds ids from {ids.min()} to {ids.max()}; the vocabulary has ids 0 to {vocab - 1}",
    )
    return ids


def token_batch(batch, src_vocab: int, tgt_vocab: int):
    """A :class:`~attention_core.models.data.Batch` whose arrays agree in shape and stay in the vocabularies."""
    src = token_ids(batch.src, "batch.src", src_vocab)
    N, T = src.shape
    for name in ("tgt_in", "tgt_out"):
        arr = token_ids(getattr(batch, name), f"batch.{name}", tgt_vocab)
        require(
            arr.shape == (N, T + 1),
            f"batch.{name} must have shape (N, T + 1) = {(N, T + 1)}, got {shape_str(arr.shape)}",
        )
    return batch


def sentence_pairs(pairs, pair_type: type):
    """A non-empty list or tuple of sentence pairs, each an instance of ``pair_type`` (``data.Pair``)."""
    require(
        isinstance(pairs, (list, tuple)) and len(pairs) > 0,
        lambda: f"pairs must be a non-empty list of data.Pair, got {pairs!r:.60}",
    )
    if not all(isinstance(p, pair_type) for p in pairs):
        raise TypeError("pairs must hold data.Pair items (see data.make_splits)")
    return pairs


def model_params(params, like: dict[str, np.ndarray], config) -> dict[str, np.ndarray]:
    """``params``, a dict with exactly the names of ``like`` (a model's own parameters), each a finite array of
    the same shape and dtype; the messages name the parameter and the model's ``config``."""
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of arrays by name, got {type(params).__name__}")
    missing, extra = sorted(set(like) - set(params)), sorted(set(params) - set(like))
    require(not missing, lambda: f"params is missing {missing}, which this model's config needs ({config})")
    require(not extra, lambda: f"params holds {extra}, not a parameter of this model ({config})")
    for key, want in like.items():
        arr = params[key]
        if not isinstance(arr, np.ndarray) or isinstance(arr, np.ma.MaskedArray):
            raise TypeError(
                f"params[{key!r}] must be a numpy array of shape {shape_str(want.shape)}, got {type(arr).__name__}"
            )
        require(
            arr.shape == want.shape,
            f"params[{key!r}] has shape {shape_str(arr.shape)}; this model needs {shape_str(want.shape)} "
            f"({config}): these parameters belong to another configuration",
        )
        if arr.dtype != want.dtype:
            raise TypeError(f"params[{key!r}] has dtype {arr.dtype}; this model computes in {want.dtype} ({config})")
        real_array(arr, f"params[{key!r}]", expected=shape_str(want.shape))
    return params
