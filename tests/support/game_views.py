"""Two games compared as a seat sees them: a real deal and the same moment composed again, opened
from a link or from the editor (tests/engine/test_compose.py, tests/app/test_composer.py); and the
cards any value names, to check that what a student gets names no face-down card."""

from __future__ import annotations

import dataclasses

from speculation_nb import Game, odds
from speculation_nb.engine.cards import Card


def public(game: Game) -> tuple:
    """Everything a seat sees of a live deal."""
    return (
        game.rules, game.dealer, game.turn_up, game.face_up, game.face_down, game.dead, game.holder,
        game.best_trump, game.stacks, game.pot, game.turn, game.over, game.unseen,
    )  # fmt: skip


def numbers(game: Game) -> tuple:
    """Every exact number about the moment (O1-O5), the break-even prices of every seat but the holder's."""
    others = [s for s in range(game.rules.players) if s != game.holder]
    return (
        odds.hold_probability(game),
        odds.win_probabilities(game),
        odds.expected_pot(game),
        odds.fair_price(game),
        [odds.break_even(game, s) for s in others],
        [odds.seller_break_even(game, s) for s in others],
    )


def cards_in(value: object) -> set[Card]:
    """Every Card in a value, or string that reads as one, at any depth (a record, a message)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, str):
        try:
            return {Card.parse(value)}
        except ValueError:
            return set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return set().union(*(cards_in(v) for v in value))
    return set()
