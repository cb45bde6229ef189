"""Lesson 3's exercises (parts 03a and 03b): each answer computed with the lesson's helpers
(:mod:`.lesson3`) and the engine's odds, its words in ``lessons.po`` (``lesson.l3a.*``, ``lesson.l3b.*``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb
from typing import Any

from .. import odds
from ..engine.game import Game
from ..engine.settings import Rules
from .lesson3 import LESSON_A, LESSON_A2, LESSON_B, break_even_basic, expected_value, play_through
from .questions import Question, register

__all__: list[str] = []


def _queen() -> Game:
    return play_through(Rules(players=4)).at(2)


def _worth() -> tuple[Fraction, Mapping[str, Any]]:
    queen = _queen()
    p = odds.hold_probability(queen)
    return expected_value([(queen.pot, p), (0, 1 - p)]), {"pot": queen.pot, "p": p, "q": 1 - p}


def _pot_guess() -> tuple[Fraction, Mapping[str, Any]]:
    game = play_through(Rules(players=4, jack_five=True)).at(2)
    unseen_jf = 8 - sum(1 for card in game.seen if card.rank in (5, 11))
    others = sum(game.face_down) - game.face_down[game.holder]
    return game.pot + Fraction(others * unseen_jf, game.unseen), {
        "pot": game.pot,
        "n": others,
        "k": unseen_jf,
        "U": game.unseen,
    }


def _mary_break_even() -> tuple[Fraction, Mapping[str, Any]]:
    queen = _queen()
    U, h, N = queen.unseen, 14 - queen.best_trump.rank, sum(queen.face_down)
    be = odds.break_even(queen, 1)
    assert be == break_even_basic(U, h, N, queen.pot)
    return be, {"pot": queen.pot, "U": U, "h": h, "N": N}


def _ace_extra() -> tuple[Fraction, Mapping[str, Any]]:
    ace = play_through(Rules(players=4, jack_five=True)).at(9)
    extra = odds.break_even(ace, 0) - odds.fair_price(ace)
    return extra, {"fair": odds.fair_price(ace), "be": odds.break_even(ace, 0)}


def _uniform_pot(players: int, ante: int) -> int:
    """The pot of a deal with uniform antes (S2), nothing carried over: the questions say so."""
    return sum(Rules(players=players, ante="uniform", uniform_ante=ante).antes(0))


def _unseen(players: int, left: int) -> int:
    """The unseen cards when all but ``left`` of the players' cards are turned up (and the turn-up)."""
    return 52 - 1 - (3 * players - left)


def _two_left() -> tuple[Fraction, Mapping[str, Any]]:
    # four players, uniform antes of 5: a pot of 20, 41 cards unseen with 2 left face down
    pot, U = _uniform_pot(4, 5), _unseen(4, 2)
    assert (pot, U) == (20, 41)
    return break_even_basic(U, 2, 2, pot), {"players": 4, "ante": 5, "pot": pot, "U": U}


def _queen_late() -> tuple[Fraction, Mapping[str, Any]]:
    return Fraction(comb(28, 3), comb(30, 3)), {}


def _queen_dead() -> tuple[Fraction, Mapping[str, Any]]:
    return Fraction(comb(28, 6), comb(30, 6)), {"without": Fraction(comb(28, 3), comb(30, 3))}


def _king_little() -> tuple[Fraction, Mapping[str, Any]]:
    # six players, uniform antes of 4: a pot of 24, 35 cards unseen with 2 left face down
    pot, U = _uniform_pot(6, 4), _unseen(6, 2)
    assert (pot, U) == (24, 35)
    return break_even_basic(U, 1, 2, pot), {"players": 6, "ante": 4, "pot": pot, "U": U}


for _lesson, _key, _compute, _unit, _digits in [
    (LESSON_A, "worth", _worth, "chips", 2),
    (LESSON_A, "pot_guess", _pot_guess, "chips", 3),
    (LESSON_A2, "mary_break_even", _mary_break_even, "chips", 3),
    (LESSON_A2, "ace_extra", _ace_extra, "chips", 2),
    (LESSON_A2, "two_left", _two_left, "chips", 3),
    (LESSON_B, "queen_late", _queen_late, None, 2),
    (LESSON_B, "queen_dead", _queen_dead, None, 2),
    (LESSON_B, "king_little", _king_little, "chips", 3),
]:
    _part = "l3b" if _lesson == LESSON_B else "l3a"
    register(Question(f"{_part}.{_key}", _lesson, _compute, digits=_digits, unit=_unit))
