"""Input checks shared by the public functions of the core.

Every public function validates its arguments once, here, so that bad input fails with a message naming the
argument, the shape it got and the shape it expected, instead of a numpy broadcasting error or a silent NaN.
"""

from __future__ import annotations

import numpy as np


def shape_str(shape: tuple[int, ...]) -> str:
    """Format a shape the way the messages print it: ``(3, 2)``, ``(3,)``, ``()``."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def as_array(x, name: str, *, ndims: tuple[int, ...], expected: str, allow_inf: bool = False) -> np.ndarray:
    """Return ``x`` as a float array after checking its dtype, rank and finiteness.

    ``ndims`` lists the accepted ranks; ``expected`` describes the expected shape in the article's symbols,
    for example ``"(T, d_h) or (N, T, d_h)"``. Integer input is converted to float64; float32 stays float32
    so that the models can train in single precision. Booleans, strings and complex numbers are refused.
    Cheap on valid input: a float array costs one dtype lookup and one finiteness reduction.
    """
    arr = x if isinstance(x, np.ndarray) else None
    if arr is None:
        try:
            arr = np.asarray(x)
        except (ValueError, TypeError) as exc:  # ragged nested lists
            raise TypeError(
                f"{name} must be a numeric array of shape {expected}; could not convert it: {exc}"
            ) from None
    if arr.dtype not in _FLOATS:
        if arr.dtype.kind not in "iu":  # b (bool), c (complex), U/S (text), O (object), ...
            raise TypeError(
                f"{name} must hold real numbers (int or float), got dtype {arr.dtype} "
                f"with shape {shape_str(arr.shape)}; expected shape {expected}"
            )
        arr = arr.astype(np.float64)
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


def require(condition: bool, message) -> None:
    """Raise ``ValueError`` unless ``condition`` holds.

    ``message`` is a string, or a function returning one, so that a costly message (shapes formatted into
    text) is only built when the check fails.
    """
    if not condition:
        raise ValueError(message() if callable(message) else message)


def check_nonlinearity(nonlinearity) -> None:
    """Refuse a ``nonlinearity`` that is neither a function (such as ``np.tanh``) nor ``None``."""
    if nonlinearity is not None and not callable(nonlinearity):
        raise TypeError(f"nonlinearity must be a function such as np.tanh, or None; got {type(nonlinearity)}")
