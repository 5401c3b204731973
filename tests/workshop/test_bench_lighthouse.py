"""make bench's Lighthouse figures: the phone's CPU slowdown calibrated to the host as Lighthouse's docs advise."""

from __future__ import annotations

import pytest

from attention_workshop.bench_lighthouse import DEFAULT_SLOWDOWN, calibrated_slowdown, median_row


@pytest.mark.parametrize(("index", "slowdown"), [(150, 1.0), (800, 2.0), (1300, 3.0), (1533, 4.0), (2000, 6.0)])
def test_the_calculators_anchor_points(index, slowdown):
    assert calibrated_slowdown(index) == pytest.approx(slowdown, abs=0.01)


def test_the_slowdown_grows_with_the_host_and_meets_the_default_at_a_high_end_desktop():
    values = [calibrated_slowdown(i) for i in range(150, 2500, 7)]
    assert all(a < b for a, b in zip(values[:-1], values[1:], strict=True))
    assert calibrated_slowdown(1066) < DEFAULT_SLOWDOWN < calibrated_slowdown(1600)
    assert calibrated_slowdown(149) is None, "a host slower than the phone cannot stand in for it"


def test_medians_leave_out_failed_runs():
    rows = [{"performance": 80, "TBT ms": 500.0}, {"error": "no report"}, {"performance": 94, "TBT ms": 100.0},
            {"performance": 90, "TBT ms": None}]  # fmt: skip
    assert median_row(rows) == {"performance": 90, "TBT ms": 300.0}
    assert median_row([{"error": "x"}]) == {"error": "x"}
