"""The figures the benchmarks report, computed one way: the median, the 95th percentile, and the
machine's load average printed beside them (bench_app, bench_rejoin, load_test)."""

from __future__ import annotations

import os
import statistics

__all__ = ["load_average", "median", "p95"]


def median(values: list[float]) -> float:
    """The median of ``values`` (NaN when there are none)."""
    return statistics.median(values) if values else float("nan")


def p95(values: list[float]) -> float:
    """The 95th percentile of ``values``: the value at the rounded rank 0.95 (n - 1) of the sorted
    list (NaN when there are none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine skews every figure."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())
