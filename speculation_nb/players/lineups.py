"""Lineups, who plays which seat: strategies by name, and a strategy for every computer seat.

A lineup is a ``{seat: strategy}`` mapping (seats without one are people's), as
:func:`~speculation_nb.players.play`, :func:`~speculation_nb.players.next_move` and the app take it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .characters import PileBuyer, Undecided, mansfield_park
from .protocol import Strategy
from .temperaments import BOLD, CAUTIOUS, FAIR, SHREWD, SPIRITED, TEMPERAMENTS, RandomPlayer, Temperament, trading

__all__ = ["DEFAULT_NAMES", "STRATEGY_NAMES", "seat_names", "strategy", "table_strategies"]

#: Default names, from Mansfield Park: five of the Speculation table of volume II, chapter 7
#: (Lady Bertram played too), then Bertram children who were away that evening.
DEFAULT_NAMES = ("Fanny", "Edmund", "Mary", "Henry", "William", "Julia", "Maria", "Tom")

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


def seat_names(players: int, temperament: str = "mixed", names: Sequence[str] | None = None) -> list[str]:
    """A name for every seat: ``names`` as given (blank ones and the missing filled in), else
    :data:`DEFAULT_NAMES`; with the ``"mansfield"`` lineup, the characters' names, since each
    plays their own strategy (also in place of the default names, which would be misplaced)."""
    defaults: tuple[str, ...] = DEFAULT_NAMES
    if temperament == "mansfield":
        defaults = mansfield_park(players).names
        if names and list(names)[:players] == list(DEFAULT_NAMES[:players]):
            names = None
    given = [str(x).strip() for x in list(names or [])[:players]]
    given += [""] * (players - len(given))
    return [name or defaults[seat] for seat, name in enumerate(given)]


def table_strategies(players: int, temperament: str = "mixed", people: Iterable[int] = ()) -> dict[int, Strategy]:
    """A lineup: a strategy for every computer seat, ``temperament`` for all (any name of :func:`strategy`),
    ``"mixed"`` (fair, cautious, bold, fair, ... around the table) or ``"mansfield"`` (seat by seat,
    the characters of :func:`~.characters.mansfield_park`). Seats in ``people`` get none."""
    people = set(people)
    if temperament == "mansfield":
        return mansfield_park(players).lineup(people)
    cycle = (FAIR, CAUTIOUS, BOLD)
    out: dict[int, Strategy] = {}
    k = 0
    for seat in range(players):
        if seat in people:
            continue
        out[seat] = cycle[k % 3] if temperament == "mixed" else strategy(temperament)
        k += 1
    return out
