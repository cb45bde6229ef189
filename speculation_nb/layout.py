"""The initial deal as a value: who holds which cards before the first reveal, and the chips.

A :class:`Layout` is frozen and hashable: a :class:`~speculation_nb.game.Game` is its layout
plus the actions taken, so two games with equal layouts and equal histories are the same deal
at the same moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card

__all__ = ["Layout"]


@dataclass(frozen=True)
class Layout:
    """``piles[i]``: seat i's face-down cards, top first; ``turn_up``; ``dead``: the dead pile
    (V2) top first, or None; ``stock``: the cards not dealt; ``dealer``; ``stacks``: chips
    before antes; ``pot``: a carried-over pot."""

    piles: tuple[tuple[Card, ...], ...]
    turn_up: Card
    dead: tuple[Card, ...] | None
    stock: tuple[Card, ...]
    dealer: int
    stacks: tuple[int, ...]
    pot: int
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_hash", hash((self.piles, self.turn_up, self.dead, self.stock, self.dealer, self.stacks, self.pot))
        )

    def __hash__(self) -> int:
        return self._hash

    def as_dict(self) -> dict[str, Any]:
        """The layout as :meth:`Game.layout` gives it: lists instead of tuples."""
        return {
            "piles": [list(p) for p in self.piles],
            "turn_up": self.turn_up,
            "dead": None if self.dead is None else list(self.dead),
            "stock": list(self.stock),
            "dealer": self.dealer,
            "stacks": list(self.stacks),
            "pot": self.pot,
        }
