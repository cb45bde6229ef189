"""The price ranges of a poll's histogram (T7), following the answers' spread.

One answer of 10**9 among answers from 2 to 10 must not squeeze them into one range. So the
ranges are drawn over the **bulk** of the answers: those up to the upper fence, the largest of
``Q3 + 3 x IQR`` (Tukey's far-out fence on the interquartile range), ``4 x Q3`` and ``Q3 + 10``
(so that a few answers close together do not send a moderate one away), in at most ``bins``
ranges of one whole-chip width from the lowest answer; any answer beyond the fence falls in one
last **overflow** range, "more than X". The fair price is placed in the regular ranges when it is
not beyond the fence itself. The quartiles are answers (the lower of the two middle ones).

>>> b = price_bins([2, 3, 3, 4, 5, 10**9], fair=4, bins=8)
>>> b.rows[0], b.overflow, b.rows[-1]
((2, 2, 1), True, (6, 1000000000, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor

__all__ = ["Bins", "price_bins"]


@dataclass(frozen=True)
class Bins:
    """``rows``: ``(low, high, count)`` in whole chips, both ends included, contiguous; every
    range but an overflow one has the same width. ``overflow``: the last row is "more than
    ``low - 1``" (the answers beyond the bulk)."""

    rows: tuple[tuple[int, int, int], ...]
    overflow: bool


def _quartiles(values: list[int]) -> tuple[int, int]:
    n = len(values)
    return values[(n - 1) // 4], values[3 * (n - 1) // 4]


def price_bins(answers: Iterable[int], fair: Fraction | int = 0, bins: int = 10) -> Bins:
    """The ranges of ``answers`` (whole chips) and the fair price (see the module docstring)."""
    if bins < 1:
        raise ValueError(f"a histogram has at least one bin, not {bins}")
    values = sorted(answers)
    fair = Fraction(fair)
    if values:
        q1, q3 = _quartiles(values)
        fence = max(q3 + 3 * (q3 - q1), 4 * q3, q3 + 10)
    else:
        fence = ceil(fair)
    bulk = [v for v in values if v <= fence]
    marks = [floor(fair), ceil(fair)] if fair <= fence else []
    low = min([*bulk, *marks]) if bulk or marks else 0
    low = min(low, 0) if not values else low  # no answers: from 0 up to the fair price
    high = max([*bulk, *marks, low])
    span = high - low + 1
    width = ceil(span / bins)
    count = ceil(span / width)
    counts = [0] * count
    over = 0
    for v in values:
        if v > fence:
            over += 1
        else:
            counts[(v - low) // width] += 1
    rows = [(low + i * width, low + (i + 1) * width - 1, counts[i]) for i in range(count)]
    if over:
        rows.append((rows[-1][1] + 1, values[-1], over))
    return Bins(tuple(rows), over > 0)
