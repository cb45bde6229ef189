"""The initial deal as a value (S3, S4): who holds which cards before the first reveal, and the chips.

An :class:`InitialDeal` is frozen and hashable: a :class:`~speculation_nb.engine.game.Game` is
its initial deal plus the actions taken, so two games with equal initial deals and equal histories
are the same deal at the same moment. :func:`shuffled` deals one from a seed or a given deck;
:func:`laid_out` checks one laid out by hand. Both refuse bad input with a ``ValueError`` naming
the rule. (The class was named ``Layout``, as is ipywidgets' ``Layout``, a widget's CSS box:
``Layout`` still imports, as the same class.)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, full_deck
from .checks import MAX_STACK, as_int, is_whole, plain, quote
from .checks import seed as check_seed
from .settings import Rules

__all__ = ["InitialDeal", "Layout", "laid_out", "shuffled"]


@dataclass(frozen=True)
class InitialDeal:
    """Who holds which cards before the first reveal, and the chips. ``piles[i]``: seat i's
    face-down cards, top first; ``turn_up``; ``dead``: the dead pile (V2) top first, or None;
    ``stock``: the cards not dealt; ``dealer``; ``stacks``: chips before antes; ``pot``: a
    carried-over pot."""

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
        """The initial deal as :meth:`Game.layout` gives it: lists instead of tuples."""
        return {
            "piles": [list(p) for p in self.piles],
            "turn_up": self.turn_up,
            "dead": None if self.dead is None else list(self.dead),
            "stock": list(self.stock),
            "dealer": self.dealer,
            "stacks": list(self.stacks),
            "pot": self.pot,
        }


#: The initial deal's older name (version 0.x), kept for code that imports it.
Layout = InitialDeal


def shuffled(
    rules: Rules,
    seed: Any = None,
    dealer: Any = 0,
    deck: Sequence[Any] | None = None,
    stacks: Sequence[Any] | None = None,
    pot: Any = 0,
) -> tuple[InitialDeal, int | None]:
    """Shuffle (by ``seed``) or take ``deck`` as it lies, top card first, and deal it (S3, S4).

    Cards go one at a time, clockwise from the dealer's left, the dealer last in each round
    and, with V2, the dead pile right after the dealer; each card lands on top of its pile.
    The next card is the turn-up. Without ``seed`` or ``deck`` a fresh seed is drawn.
    Returns the initial deal and the seed (None for a given deck).
    """
    if not isinstance(rules, Rules):
        raise ValueError("a deal needs a Rules")
    if deck is not None and seed is not None:
        raise ValueError("give a seed or a deck, not both")
    if deck is None:
        seed = secrets.randbits(48) if seed is None else check_seed(seed)
        order = full_deck()
        random.Random(seed).shuffle(order)
    else:
        order = cards(deck, "the deck")
        if len(order) != 52 or len(set(order)) != 52:
            raise ValueError("S3: a deck is 52 different cards")
    dealer = check_seat_number(rules, dealer, "dealer")
    n = rules.players
    receivers: list[int | None] = [(dealer + 1 + i) % n for i in range(n)]
    if rules.dead_hand:
        receivers.append(None)
    dealt: dict[int | None, list[Card]] = {r: [] for r in receivers}
    it = iter(order)
    for _ in range(rules.hand_size):
        for receiver in receivers:
            dealt[receiver].insert(0, next(it))  # lands on top
    turn_up = next(it)
    stock = tuple(it)
    piles = tuple(tuple(dealt[seat]) for seat in range(n))
    dead = tuple(dealt[None]) if rules.dead_hand else None
    chips, pot = check_stacks(rules, dealer, stacks, pot)
    return InitialDeal(piles, turn_up, dead, stock, dealer, chips, pot), seed


def laid_out(
    rules: Rules,
    piles: Sequence[Sequence[Any]],
    turn_up: Any,
    dead: Sequence[Any] | None = None,
    dealer: Any = 0,
    stacks: Sequence[Any] | None = None,
    pot: Any = 0,
) -> InitialDeal:
    """A deal laid out by hand: ``piles[i]`` is seat i's pile, TOP card first; the cards not
    placed form the stock (in deck order). A bad layout raises ``ValueError`` naming the rule."""
    if not isinstance(rules, Rules):
        raise ValueError("from_layout needs a Rules")
    dealer = check_seat_number(rules, dealer, "dealer")
    if isinstance(piles, (str, bytes)) or not isinstance(piles, Sequence) or len(piles) != rules.players:
        raise ValueError(f"S3: give one pile for each of the {rules.players} seats")
    piles_c = [cards(p, f"seat {i}'s pile") for i, p in enumerate(piles)]
    for i, pile in enumerate(piles_c):
        if len(pile) != rules.hand_size:
            raise ValueError(f"S3: seat {i}'s pile has {len(pile)} cards, not {rules.hand_size}")
    turn = Card.parse(turn_up)
    dead_c: list[Card] | None = None
    if rules.dead_hand:
        if dead is None:
            raise ValueError("V2: the dead hand is on, so give the dead pile")
        dead_c = cards(dead, "the dead pile")
        if len(dead_c) != rules.hand_size:
            raise ValueError(f"V2: the dead pile has {len(dead_c)} cards, not {rules.hand_size}")
    elif dead is not None:
        raise ValueError("V2: there is no dead pile unless the dead hand is on")
    seen: set[Card] = set()
    for card in [c for p in piles_c for c in p] + [turn] + (dead_c or []):
        if card in seen:
            raise ValueError(f"S3: {card} is laid out twice")
        seen.add(card)
    stock = tuple(c for c in full_deck() if c not in seen)
    chips, pot = check_stacks(rules, dealer, stacks, pot)
    return InitialDeal(
        tuple(tuple(p) for p in piles_c), turn, None if dead_c is None else tuple(dead_c), stock, dealer, chips, pot
    )


# --------------------------------------------------------------------- checks
def cards(items: Iterable[Any], what: str) -> list[Card]:
    """A list of cards read from codes or cards; anything else raises ``ValueError``."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise ValueError(f"{what} must be a list of cards")
    out = []
    for item in items:
        out.append(Card.parse(item))
        if len(out) > 52:
            raise ValueError(f"{what} has more than 52 cards")
    return out


def check_seat_number(rules: Rules, seat: Any, what: str) -> int:
    """``seat`` as an int if it is a seat of the table, else ``ValueError`` (S1)."""
    seat = plain(seat)
    if not is_whole(seat) or not 0 <= seat < rules.players:
        raise ValueError(f"S1: the {what} is a seat from 0 to {rules.players - 1}, not {quote(seat)}")
    return int(seat)


def check_stacks(rules: Rules, dealer: int, stacks: Sequence[Any] | None, pot: Any) -> tuple[tuple[int, ...], int]:
    """The stacks (default: ``start_chips`` each) and the carried-over pot, checked: whole numbers
    up to :data:`~speculation_nb.engine.checks.MAX_STACK`, and every seat able to ante (S2)."""
    pot = as_int(plain(pot), "a carried-over pot", 0, MAX_STACK)
    if stacks is None:
        return (rules.start_chips,) * rules.players, pot
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence) or len(stacks) != rules.players:
        raise ValueError(f"give one stack for each of the {rules.players} seats")
    out = tuple(as_int(plain(chips), f"seat {seat}'s stack", 0, MAX_STACK) for seat, chips in enumerate(stacks))
    for seat, (chips, ante) in enumerate(zip(out, rules.antes(dealer))):
        if chips < ante:
            raise ValueError(f"S2: seat {seat} has {chips} chips and cannot ante {ante}")
    return out, pot
