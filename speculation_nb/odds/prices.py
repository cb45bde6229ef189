"""The prices as every screen shows them: one exact value, one whole number (RULES.md O4).

The exact prices are :class:`~fractions.Fraction` s (:func:`speculation_nb.odds.fair_price`,
:func:`~speculation_nb.odds.break_even`, :func:`~speculation_nb.odds.seller_break_even`).
:func:`shown_chips` is **the one rounding** that turns any of them into the whole number of chips a
person reads: half up, ``19/2 -> 10``, ``77/10 -> 8``, ``7/2 -> 4``. The projector's odds panel,
the phone's headline, the student's page, the poll, the auction table, the log's reasons and
the live region all show a price through it, so one moment shows one number under one name.

:class:`Prices` is a moment's prices already rounded: the fair price, each bidder's break-even
(the most that buyer should pay) and the seller's break-even for a sale to that bidder (the
least the holder should take), which a screen shows only where its whole number differs from
the buyer's (:meth:`Prices.seller_differs`: in the basic game the two are always equal, a sale
moving no chance to a third seat; a dead pile, V2, can make them differ).

>>> shown_chips(Fraction(19, 2)), shown_chips(Fraction(77, 10)), shown_chips(Fraction(-7, 2))
(10, 8, -3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Protocol

__all__ = ["Prices", "shown_chips"]


def shown_chips(price: Fraction | int) -> int:
    """The whole number of chips a screen shows for the exact ``price``: rounded half up (O4)."""
    return floor(Fraction(price) + Fraction(1, 2))


class _ExactPrices(Protocol):
    """What :meth:`Prices.of` reads: :class:`~speculation_nb.odds.moment.Odds` has it."""

    @property
    def fair(self) -> Fraction: ...

    @property
    def break_even(self) -> Mapping[int, Fraction]: ...

    @property
    def seller_break_even(self) -> Mapping[int, Fraction]: ...


@dataclass(frozen=True)
class Prices:
    """A moment's prices as shown, whole chips (each the :func:`shown_chips` of its exact value)."""

    fair: int  #: O4's fair price: the chance the best trump holds times the expected pot
    break_even: Mapping[int, int]  #: each bidder's break-even: the most that buyer should pay
    seller_break_even: Mapping[int, int]  #: the least the holder should take from that bidder

    @classmethod
    def of(cls, exact: _ExactPrices) -> Prices:
        """The shown prices of exact ones (an :class:`~speculation_nb.odds.moment.Odds`)."""
        return cls.rounded(exact.fair, exact.break_even, exact.seller_break_even)

    @classmethod
    def rounded(
        cls,
        fair: Fraction,
        break_even: Mapping[int, Fraction],
        seller_break_even: Mapping[int, Fraction] | None = None,
    ) -> Prices:
        """The shown prices of these exact ones (each through :func:`shown_chips`)."""
        return cls(
            shown_chips(fair),
            {seat: shown_chips(v) for seat, v in break_even.items()},
            {seat: shown_chips(v) for seat, v in (seller_break_even or {}).items()},
        )

    def seller_differs(self, seat: int | None = None) -> bool:
        """Does the seller's break-even differ, as shown, from the buyer's (for ``seat``, or for
        some bidder)? Only then is it shown beside it."""
        seats = self.break_even if seat is None else (seat,)
        return any(s in self.seller_break_even and self.seller_break_even[s] != self.break_even.get(s) for s in seats)
