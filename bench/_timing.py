"""Timing shared by the benchmarks: repeated wall-clock runs, reported as a median.

These machines are noisy, so every figure is the median of several runs, printed
with the runs themselves so that an outlier is visible.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


def repeat(function: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of each of ``runs`` calls of ``function``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def summary(values: Sequence[float], spec: str, unit: str) -> str:
    """'median V unit (runs: a, b, c)', every value formatted with ``spec``."""
    return (
        f"median {format(statistics.median(values), spec)} {unit} "
        f"(runs: {', '.join(format(v, spec) for v in values)})"
    )
