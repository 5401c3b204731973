"""Benchmarks of the core and the lesson widgets: prints medians, never fails on a slow machine.

Run with `make bench`. Figures are medians over repeated runs in one process; machines here are shared and
noisy, so compare ratios measured in the same run rather than absolute times across runs.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np

from attention_core import worked_example
from attention_core.explorers.state import state_explorer
from attention_workshop.command import OneLineParser, run


def median_seconds(fn, repeat: int, number: int = 1) -> float:
    """Median over ``repeat`` timings of ``number`` calls of ``fn``, per call."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return float(np.median(times))


def main(argv: list[str] | None = None) -> None:
    OneLineParser(prog="python -m attention_workshop.bench", description=__doc__.splitlines()[0]).parse_args(argv)
    print("Core and widgets (medians)")
    one = median_seconds(lambda: worked_example(-1.0), repeat=200, number=50)
    print(f"  one slider update of the core (one s, T = 3):   {one * 1e6:8.1f} µs   (target <= 20 µs)")

    grid = np.linspace(-4.0, 4.0, 1001)
    vectorised = median_seconds(lambda: worked_example(grid), repeat=50, number=5)
    looped = median_seconds(lambda: [worked_example(s) for s in grid], repeat=7)
    print(f"  1,001-state curve as one call:                  {vectorised * 1e3:8.3f} ms")
    print(f"  1,001-state curve as a Python loop over s:      {looped * 1e3:8.3f} ms")
    print(f"  ratio loop / one call:                          {looped / vectorised:8.1f} x   (target >= 50 x)")

    explorer = state_explorer(-1.0)
    states = iter(np.tile(np.round(np.linspace(-3.0, 3.0, 61), 2), 10))
    update = median_seconds(lambda: explorer.set_state(float(next(states))), repeat=300)
    print(f"  one full widget update (compute + redraw):      {update * 1e3:8.2f} ms   (target <= 50 ms)")

    for extra in (["bench_training"], ["bench_site"], ["bench_lab"], ["bench_lighthouse", "--calibrated"]):
        print()
        sys.stdout.flush()
        subprocess.run([sys.executable, "-m", f"attention_workshop.{extra[0]}", *extra[1:]], check=False)


if __name__ == "__main__":
    sys.exit(run(main, "python -m attention_workshop.bench"))
