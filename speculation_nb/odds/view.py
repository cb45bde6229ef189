"""The public view of a deal: what every seat can see at one moment, as one hashable value.

Nobody looks at a face-down card (S6), so every number about the rest of a deal (the exact
odds of :mod:`speculation_nb.odds`, the simulator of :mod:`speculation_nb.simulate`, the
computer players of :mod:`speculation_nb.players`) depends on the public facts only: the
cards face up, how many cards each pile holds, the stacks, the pot, who holds the best trump
and whose turn it is. :func:`public_view` reads them once per moment of a game (a game
changes only by its actions) and the odds remember their prices by the view, so the many
questions asked about one moment read the table once.

This view is the odds' working notation (counts, hashable, for the memo tables). What a moment
*shows*, to the app, the shared table's members and a share link, is the one moment value
:class:`~speculation_nb.odds.moment.DealMoment`: the same public facts, with the numbers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..engine.cards import Card, Suit, full_deck

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["PublicView", "public_view"]


@dataclass(frozen=True)
class PublicView:
    """The public facts of a live deal (the notation of :mod:`speculation_nb.odds`).

    ``unseen`` U (cards not face up: in the piles, the dead pile and the stock), ``above`` h
    (trumps out-ranking the ``best`` trump's rank), ``face_down`` f_s per seat, ``dead`` d, the
    ``holder``, the ``turn`` (the seat due to reveal), the ``pot`` and ``stacks``; for V1
    ``plain_jf`` (unseen Jacks and Fives that are not trumps above the best) and ``jf_above``
    (the indices ``i`` of the Jack / Five of trumps among ``T_1..T_h``, ``T_i`` having rank
    ``15 - i``); ``trump_up``: a trump has come up from a player's pile (hoyle1847 c asks it)
    and ``unseen_trumps``; the cards face up (``seen``) and the ``trump`` suit.
    """

    players: int
    holder: int
    best: int
    turn: int | None
    unseen: int
    above: int
    face_down: tuple[int, ...]
    dead: int
    pot: int
    stacks: tuple[int, ...]
    jack_five: bool
    plain_jf: int
    jf_above: tuple[int, ...]
    hoyle: bool
    trump_up: bool
    unseen_trumps: int
    seen: frozenset[Card]
    trump: Suit
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(values))

    def __hash__(self) -> int:
        return self._hash

    @property
    def stock(self) -> int:
        """S: the unseen cards in no pile (the undealt rest of the deck)."""
        return self.unseen - sum(self.face_down) - self.dead

    @property
    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards not face up (in the piles, the dead pile and the stock), in deck order."""
        return tuple(card for card in full_deck() if card not in self.seen)

    @property
    def hoyle_c(self) -> bool:
        """hoyle1847 (c) still applies: the pot carries over if no trump comes up from the piles."""
        return self.hoyle and not self.trump_up

    def after_trade(self, buyer: int, seller: int, count: int, price: int) -> PublicView:
        """The view after a blind trade (V3): the cards move unseen, so only pile sizes and stacks change."""
        down = list(self.face_down)
        down[seller] -= count
        down[buyer] += count
        stacks = list(self.stacks)
        stacks[buyer] -= price
        stacks[seller] += price
        return dataclasses.replace(self, face_down=tuple(down), stacks=tuple(stacks))


_VIEWS: WeakKeyDictionary[Game, tuple[int, PublicView]] = WeakKeyDictionary()


def public_view(game: Game) -> PublicView:
    """The public facts of ``game`` as it stands, read once per moment (``game.moment``)."""
    moment = game.moment
    hit = _VIEWS.get(game)
    if hit is not None and hit[0] == moment:
        return hit[1]
    view = _read(game)
    _VIEWS[game] = (moment, view)
    return view


def clear() -> None:
    """Forget the views read so far (for benchmarks measuring cold calls)."""
    _VIEWS.clear()


_JACKS_AND_FIVES = tuple(card for card in full_deck() if card.rank in (5, 11))


def _read(game: Game) -> PublicView:
    rules = game.rules
    seen = frozenset(game.seen)
    trump = game.trump
    best = game.best_trump.rank
    above: list[int] = []
    plain = 0
    if rules.jack_five:
        for card in _JACKS_AND_FIVES:
            if card in seen:
                continue
            if card.suit == trump and card.rank > best:
                above.append(15 - card.rank)
            else:
                plain += 1
    return PublicView(
        players=rules.players,
        holder=game.holder,
        best=best,
        turn=game.turn,
        unseen=52 - len(seen),
        above=14 - best,
        face_down=tuple(game.face_down),
        dead=game.dead,
        pot=game.pot,
        stacks=tuple(game.stacks),
        jack_five=rules.jack_five,
        plain_jf=plain,
        jf_above=tuple(sorted(above)),
        hoyle=rules.hoyle,
        trump_up=game.trump_turned_up,
        unseen_trumps=13 - sum(1 for card in seen if card.suit == trump),
        seen=seen,
        trump=trump,
    )
