"""Lesson 2's exercises (parts 02a and 02b): each answer computed from the lesson's deal and
counting functions (:mod:`.lesson2`), its words in ``lessons.po`` (``lesson.l2a.*``, ``lesson.l2b.*``).

The standard errors are square roots, not fractions: their questions pass the exact range
(:func:`.lesson2.sqrt_within`) and show the answer as a decimal at the precision asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb
from typing import Any

from .. import odds
from ..engine.game import Game
from .lesson2 import (
    LESSON_A,
    LESSON_A2,
    LESSON_B,
    hold_by_listing,
    hold_formula,
    holder_win_probability,
    hypergeometric,
    numbers,
    sqrt_fraction,
    sqrt_within,
    the_deal,
)
from .questions import Question, register

__all__: list[str] = []


def _queen() -> Game:
    return the_deal().at(2)


def _count_n() -> tuple[Fraction, Mapping[str, Any]]:
    return Fraction(numbers(_queen())[2]), {}


def _small_world() -> tuple[Fraction, Mapping[str, Any]]:
    safe = hold_by_listing(6, 2, 3) * comb(6, 3)
    return safe, {"total": comb(6, 3), "left": comb(4, 3)}


def _queen_holds() -> tuple[Fraction, Mapping[str, Any]]:
    U, h, n = numbers(_queen())
    return hold_formula(U, h, n), {"U": U, "h": h, "n": n, "safe": comb(U - h, n), "all": comb(U, n)}


def _mean_dangerous() -> tuple[Fraction, Mapping[str, Any]]:
    U, h, n = numbers(_queen())
    mean = sum((k * p for k, p in enumerate(hypergeometric(U, h, n))), Fraction(0))
    assert mean == Fraction(n * h, U)
    return mean, {"U": U, "h": h, "n": n}


def _smaller_stock() -> tuple[Fraction, Mapping[str, Any]]:
    return hold_formula(33, 2, 8), {"at49": hold_formula(49, 2, 8)}


def _king_holds() -> tuple[Fraction, Mapping[str, Any]]:
    return hold_formula(40, 1, 6), {}


def _queen_at_5() -> tuple[Fraction, Mapping[str, Any]]:
    game = the_deal().at(5)
    U, h, n = numbers(game)
    return odds.hold_probability(game), {"U": U, "h": h, "n": n}


def _six_holds() -> tuple[Fraction, Mapping[str, Any]]:
    U, h, n = numbers(the_deal().at(0))
    return hold_formula(U, h, n), {"U": U, "h": h, "n": n}


def _edmund_wins() -> tuple[Fraction, Mapping[str, Any]]:
    start = the_deal().at(0)
    U, h = start.unseen, 14 - start.best_trump.rank
    f = start.face_down[start.holder]
    S = U - sum(start.face_down)
    p = holder_win_probability(U, h, f, S)
    assert p == odds.win_probabilities(start)[start.holder]
    return p, {"U": U, "h": h, "f": f, "S": S, "hold": odds.hold_probability(start)}


def _one_se() -> tuple[Fraction, Mapping[str, Any]]:
    p = odds.hold_probability(_queen())
    return sqrt_fraction(p * (1 - p) / 10_000), {"p": p, "N": 10_000}


def _two_se() -> tuple[Fraction, Mapping[str, Any]]:
    p = odds.hold_probability(_queen())
    return 2 * sqrt_fraction(p * (1 - p) / 10_000), {"p": p, "N": 10_000}


def _hundred_times() -> tuple[Fraction, Mapping[str, Any]]:
    # SE ∝ 1/√N: a band k times narrower needs k² times the deals
    return Fraction(10) ** 2, {}


def _se_within(factor: int) -> tuple[Fraction, Fraction]:
    p = odds.hold_probability(_queen())
    return sqrt_within(p * (1 - p) / 10_000, factor)


_WITHIN = {"one_se": lambda: _se_within(1), "two_se": lambda: _se_within(2)}
for _lesson, _key, _compute, _unit, _digits in [
    (LESSON_A, "count_n", _count_n, "cards", 2),
    (LESSON_A, "small_world", _small_world, None, 2),
    (LESSON_A, "queen_holds", _queen_holds, None, 2),
    (LESSON_A2, "mean_dangerous", _mean_dangerous, "cards", 2),
    (LESSON_A2, "smaller_stock", _smaller_stock, None, 2),
    (LESSON_A2, "king_holds", _king_holds, None, 2),
    (LESSON_A2, "queen_at_5", _queen_at_5, None, 2),
    (LESSON_B, "six_holds", _six_holds, None, 2),
    (LESSON_B, "edmund_wins", _edmund_wins, None, 2),
    (LESSON_B, "one_se", _one_se, None, 2),
    (LESSON_B, "hundred_times", _hundred_times, None, 2),
    (LESSON_B, "two_se", _two_se, None, 2),
]:
    _part = "l2b" if _lesson == LESSON_B else "l2a"
    register(Question(f"{_part}.{_key}", _lesson, _compute, digits=_digits, unit=_unit, within=_WITHIN.get(_key)))
