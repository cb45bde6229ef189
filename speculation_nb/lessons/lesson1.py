"""Lesson 1, *How to play Speculation*: the seeded deal the class plays, and its questions.

The deal is session seed 71 with four players (Fanny deals): Edmund turns up the A♣, Mary
the 4♥, Henry the J♥; Henry sells the J♥ to Fanny for 5 chips; Mary's K♥ beats it and
takes the pot. :func:`the_deal` plays it to any step; the questions' answers are computed
from it, so the lesson's text and its checker cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .. import odds
from ..engine.game import Game
from ..engine.session import Session
from ..engine.settings import Rules
from .common import HTMLText, Tools
from .questions import Question, register

__all__ = ["FANNY", "HENRY", "LESSON", "MARY", "NAMES", "SEED", "START", "Lesson1", "the_deal"]

LESSON = "01_how_to_play"
NAMES = ("Fanny", "Edmund", "Mary", "Henry")
FANNY, EDMUND, MARY, HENRY = range(4)
SEED = 71
START = 60  # chips each player starts the evening with


_STEPS = ("dealt", "edmund", "mary", "jack", "bid", "sold", "edmund2", "king", "end")


def the_deal(step: str = "end") -> Game:
    """The lesson's deal at a named step: ``"dealt"``, ``"edmund"``, ``"mary"``, ``"jack"``
    (after Henry's J♥), ``"bid"`` (Fanny bids 5), ``"sold"``, ``"edmund2"``, ``"king"``
    (after Mary's K♥) or ``"end"``."""
    if step not in _STEPS:
        raise ValueError(f"no step {step!r}: one of {', '.join(_STEPS)}")
    game = Session(Rules(players=4), list(NAMES), 10, SEED).game
    for name in _STEPS[1 : _STEPS.index(step) + 1]:
        if name == "bid":
            game.open_auction()
            game.bid(FANNY, 5)
        elif name == "sold":
            game.accept(FANNY)
        elif name == "end":
            while not game.over:
                game.reveal()
        else:
            game.reveal()
    return game


class Lesson1(Tools):
    """Lesson 1's helpers in ``lang``."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(lang, NAMES)

    def pot_and_stacks(self, game: Game) -> str:
        """``Pot: 18 · Fanny 54 · Edmund 56 · ...``"""
        stacks = " · ".join(f"{name} {self.number(chips)}" for name, chips in zip(self.names, game.stacks))
        pot = self.t("table.pot")
        return f"{pot[:1].upper()}{pot[1:]}: {self.number(game.pot)} · {stacks}"

    def odds_line(self, game: Game) -> str:
        """What the app's odds panel says: the chance that the best trump holds."""
        label = self.t("odds.label", card=str(game.best_trump), name=self.name(game.holder))
        return f"{label}: {self.percent(odds.hold_probability(game))}"

    def gains(self, game: Game) -> HTMLText:
        """Each player's chips before and after the deal."""
        rows = [
            [name, self.number(START), self.number(chips), f"{chips - START:+d}"]
            for name, chips in zip(self.names, game.stacks)
        ]
        return self.html_table([self("l1.player"), self("l1.before"), self("l1.after"), self("l1.change")], rows)


# ---------------------------------------------------------------- the questions
def _pot_four() -> tuple[Fraction, Mapping[str, Any]]:
    game = the_deal("dealt")
    rules = game.rules
    return Fraction(game.pot), {"dealer": rules.dealer_ante, "other": rules.player_ante}


def _beat_jack() -> tuple[Fraction, Mapping[str, Any]]:
    game = the_deal("jack")
    return Fraction(14 - game.best_trump.rank), {}


def _pot_after_sale() -> tuple[Fraction, Mapping[str, Any]]:
    before, after = the_deal("bid"), the_deal("sold")
    assert before.pot == after.pot
    return Fraction(after.pot), {"price": 5}


def _fanny_lost() -> tuple[Fraction, Mapping[str, Any]]:
    game = the_deal("end")
    return Fraction(START - game.stacks[FANNY]), {"ante": game.rules.dealer_ante, "price": 5}


def _pot_five() -> tuple[Fraction, Mapping[str, Any]]:
    rules = Rules(players=5)
    return Fraction(rules.dealer_ante + 4 * rules.player_ante), {
        "dealer": rules.dealer_ante,
        "other": rules.player_ante,
    }


def _ace_turn_up() -> tuple[Fraction, Mapping[str, Any]]:
    piles = [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(Rules(players=4), piles=piles, turn_up="AS", dealer=0)
    assert game.over
    return Fraction(game.reveals), {}


for _key, _compute, _unit in [
    ("pot_four", _pot_four, "chips"),
    ("beat_jack", _beat_jack, "cards"),
    ("pot_after_sale", _pot_after_sale, "chips"),
    ("fanny_lost", _fanny_lost, "chips"),
    ("pot_five", _pot_five, "chips"),
    ("ace_turn_up", _ace_turn_up, "cards"),
]:
    register(Question(f"l1.{_key}", LESSON, _compute, unit=_unit))
