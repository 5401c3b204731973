"""kernel_drift compare: a gap that became infinite (or stopped being) is an infinite drift, not none."""

from __future__ import annotations

import numpy as np
import pytest

from attention_workshop.kernel_drift import gap_drift

INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ([1.0, 2.0], [1.0, 2.5], 0.5),
        ([1.0, INF], [1.0, INF], 0.0),  # the same infinite gap on both kernels
        ([1.0, NAN], [1.0, NAN], 0.0),
        ([1.0, 2.0], [1.0, INF], INF),  # became infinite
        ([1.0, INF], [1.0, 2.0], INF),  # stopped being
        ([INF], [-INF], INF),
        ([1.0, 2.0], [1.0, 2.0, 3.0], INF),  # not the same decisions
        ([], [], 0.0),
    ],
)
def test_gap_drift(a, b, want):
    assert gap_drift(np.array(a), np.array(b)) == want
