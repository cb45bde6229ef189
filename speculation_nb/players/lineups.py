"""Who sits at a table: strategies by name, and a strategy for every computer seat."""

from __future__ import annotations

from collections.abc import Iterable

from .characters import PileBuyer, Undecided, mansfield_park
from .protocol import Strategy
from .temperaments import BOLD, CAUTIOUS, FAIR, SHREWD, SPIRITED, TEMPERAMENTS, RandomPlayer, Temperament, trading

__all__ = ["STRATEGY_NAMES", "strategy", "table_strategies"]

#: Every name :func:`strategy` knows.
STRATEGY_NAMES = ("cautious", "fair", "bold", "random", "shrewd", "spirited", "undecided", "pile-buyer")

_NAMED: dict[str, Temperament] = {**TEMPERAMENTS, "shrewd": SHREWD, "spirited": SPIRITED}


def strategy(name: str, seed: int = 0, *, trades: bool = False) -> Strategy:
    """A strategy by name: ``"cautious"``, ``"fair"``, ``"bold"``, ``"random"`` (seeded), and
    ``"shrewd"``, ``"spirited"``, ``"undecided"`` (advised by a fair player), ``"pile-buyer"``
    (see :data:`STRATEGY_NAMES`). ``trades=True``: the temperaments agree to blind trades (V3)
    by the exact numbers (:func:`~.temperaments.trading`); the app's refuse them."""
    if name in _NAMED:
        return trading(_NAMED[name]) if trades else _NAMED[name]
    if name == "random":
        return RandomPlayer(seed=seed)
    if name == "undecided":
        return Undecided(advisor=trading(FAIR) if trades else FAIR)
    if name == "pile-buyer":
        return PileBuyer()
    raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(STRATEGY_NAMES)}")


def table_strategies(players: int, temperament: str = "mixed", people: Iterable[int] = ()) -> dict[int, Strategy]:
    """A strategy for every computer seat: ``temperament`` for all (any name of :func:`strategy`),
    ``"mixed"`` (fair, cautious, bold, fair, ... around the table) or ``"mansfield"`` (seat by seat,
    the characters of :func:`~.characters.mansfield_park`). Seats in ``people`` get none."""
    people = set(people)
    if temperament == "mansfield":
        return mansfield_park(players).table(people)
    cycle = (FAIR, CAUTIOUS, BOLD)
    out: dict[int, Strategy] = {}
    k = 0
    for seat in range(players):
        if seat in people:
            continue
        out[seat] = cycle[k % 3] if temperament == "mixed" else strategy(temperament)
        k += 1
    return out
