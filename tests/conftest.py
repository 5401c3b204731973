"""Fixtures shared by the tests of the core and the models (the website's are in tests/site/conftest.py)."""

from __future__ import annotations

import numpy as np
import pytest


def assert_halves_see_their_sides(encode, inputs, change, d_fwd: int) -> None:
    """Claim C6 of lesson 03, both ways: in annotations ``[->h_j; <-h_j]`` of a batch ``(N, T, d)``, changing input
    ``x_k`` moves the forward half at every position ``j >= k`` and at no ``j < k``, and the backward half at every
    ``j <= k`` and at no ``j > k``. So each half responds to everything on its side, and only to that.

    ``encode(inputs) -> (N, T, d)``; ``change(inputs, k)`` returns the inputs with position ``k`` changed in every
    row; ``d_fwd`` is the width of the forward half. Raises ``AssertionError`` naming the half, the changed
    position and the positions that moved. An encoder without memory (each state a function of its own input)
    fails the first half of the claim: only position ``k`` moves.
    """
    before = encode(inputs)  # (N, T, d)
    N, T, _ = before.shape
    for k in range(T):
        moved = encode(change(inputs, k)) != before  # (N, T, d): exact comparison, no tolerance
        for half, cols, expected in (
            ("forward", slice(None, d_fwd), list(range(k, T))),
            ("backward", slice(d_fwd, None), list(range(0, k + 1))),
        ):
            for n in range(N):
                got = np.flatnonzero(moved[n, :, cols].any(axis=1)).tolist()
                assert got == expected, (
                    f"changing x_{k} (row {n}) moved the {half} half at positions {got}; expected exactly {expected}"
                )


@pytest.fixture(scope="session")
def halves_see_their_sides():
    """:func:`assert_halves_see_their_sides`, for tests/core/test_rnn.py and tests/models/test_encoder.py."""
    return assert_halves_see_their_sides


@pytest.fixture(autouse=True)
def _python_tests_train_for_real(monkeypatch):
    """A test that trains always trains: the run cache (AE_RUN_CACHE, conftest.py) is for the notebooks' kernels."""
    monkeypatch.delenv("AE_RUN_CACHE", raising=False)
