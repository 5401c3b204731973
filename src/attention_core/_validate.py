"""Input checks shared by the public functions of the core.

Every public function validates its arguments once, here, so that bad input fails with a message naming the
argument, the shape it got and the shape it expected, instead of a numpy broadcasting error or a silent NaN.
"""

from __future__ import annotations

import numpy as np


def shape_str(shape: tuple[int, ...]) -> str:
    """Format a shape the way the messages print it: ``(3, 2)``, ``(3,)``, ``()``."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def as_array(x, name: str, *, ndims: tuple[int, ...], expected: str, allow_inf: bool = False) -> np.ndarray:
    """Return ``x`` as a float array after checking its dtype, rank and finiteness.

    ``ndims`` lists the accepted ranks; ``expected`` describes the expected shape in the article's symbols,
    for example ``"(T, d_h) or (N, T, d_h)"``. Integer and boolean-free real input is converted to float64;
    float32 stays float32 so that the models can train in single precision.
    """
    if isinstance(x, np.ndarray):
        arr = x
    else:
        try:
            arr = np.asarray(x)
        except (ValueError, TypeError) as exc:  # ragged nested lists
            raise TypeError(
                f"{name} must be a numeric array of shape {expected}; could not convert it: {exc}"
            ) from None
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(
            f"{name} must hold real numbers (int or float), got dtype {arr.dtype} "
            f"with shape {shape_str(arr.shape)}; expected shape {expected}"
        )
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if arr.ndim not in ndims:
        raise ValueError(f"{name} must have shape {expected}, got shape {shape_str(arr.shape)}")
    bad = np.isnan(arr) if allow_inf else ~np.isfinite(arr)
    if bad.any():
        what = "NaN" if allow_inf else "NaN or infinite values"
        raise ValueError(f"{name} (shape {shape_str(arr.shape)}) contains {what}; expected finite numbers")
    return arr


def require(condition: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ValueError(message)
