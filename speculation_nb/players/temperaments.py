"""Temperaments: players who value the best trump at a multiple of its exact break-even price.

A :class:`Temperament` values the best trump at its break-even price (O4:
:func:`speculation_nb.odds.break_even`; as a seller
:func:`speculation_nb.odds.seller_break_even`) times its ``appetite``. The app offers
:data:`CAUTIOUS` (3/4), :data:`FAIR` (1) and :data:`BOLD` (5/4); the lessons add
:data:`SPIRITED` (3/2, Mary Crawford) and :class:`Shrewd` (Henry Crawford: values a
card exactly and bids no more than it takes). A fair player never bids above its
break-even. :class:`RandomPlayer` plays at random, seeded.

Every number comes from :mod:`speculation_nb.odds`; these classes only decide.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING

from .. import odds
from ..engine.checks import is_whole
from .protocol import Trade

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "BOLD",
    "CAUTIOUS",
    "FAIR",
    "SHREWD",
    "SPIRITED",
    "TEMPERAMENTS",
    "RandomPlayer",
    "Shrewd",
    "Temperament",
    "exact_trade_answer",
    "trading",
]


def exact_trade_answer(
    appetite: Fraction, game: Game, seat: int, buyer: int, seller: int, count: int, price: int
) -> bool:
    """A seller agrees when the price reaches ``appetite`` times its expected-net loss from parting
    with the cards; a buyer when the price is at most ``appetite`` times their expected-net gain."""
    if game.over or seat not in (buyer, seller) or buyer == seller or not game.can_blind_trade():
        return False
    if not (is_whole(count) and 1 <= count <= game.face_down[seller]):
        return False
    if not (is_whole(price) and 1 <= price <= game.stacks[buyer]):
        return False
    worth = odds.trade_gain(game, seat, buyer, seller, count, 0)
    if seat == seller:
        return price >= appetite * (-worth)
    return price <= appetite * worth


@dataclass(frozen=True)
class Temperament:
    """Values the best trump at ``appetite`` times its break-even price (O4).

    As a bidder it bids once, the most it is willing to pay: its break-even
    price times ``appetite``, rounded down to whole chips (a ``fair`` player,
    appetite 1, never bids above its break-even). As a holder it opens an
    auction whenever its card can still be beaten (a bold one, appetite above
    1, only when the card is more likely beaten than not), and accepts the
    acceptable bid that gains it most, if the bid reaches its own price
    (``odds.seller_break_even`` times ``appetite``); otherwise it declines.
    Blind trades (V3): with ``card_price`` None (the default) it refuses them;
    otherwise it sells face-down cards for at least ``card_price`` chips each
    and buys them for at most that (a plain rule of thumb, for lessons to refine).
    With ``trades=True`` (see :func:`trading`) it answers by the exact numbers
    instead: as a seller it agrees when the price reaches ``appetite`` times its
    expected-net loss, as a buyer when the price is at most ``appetite`` times
    its expected-net gain (``odds.trade_gain``). It never proposes trades itself.
    """

    name: str = "fair"
    appetite: Fraction = Fraction(1)
    card_price: int | None = None
    trades: bool = False

    def __post_init__(self) -> None:
        appetite = Fraction(self.appetite)
        if appetite < 0:
            raise ValueError(f"a temperament's appetite is at least 0, not {self.appetite!r}")
        object.__setattr__(self, "appetite", appetite)

    # -- bidder
    def limit(self, game: Game, seat: int) -> int:
        """The most ``seat`` will pay for the best trump now, in whole chips (may be 0)."""
        return max(0, odds.whole_break_even(game, seat, self.appetite))

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        top = min(odds.whole_break_even(game, seat, self.appetite), high)
        return top if top >= max(low, 1) else None

    # -- holder
    def asking(self, game: Game, seat: int, buyer: int) -> Fraction:
        """The least the holder ``seat`` takes from ``buyer``."""
        return self.appetite * odds.seller_break_even(game, buyer)

    def wants_auction(self, game: Game, seat: int) -> bool:
        """Asking for bids costs nothing, so a holder does whenever its card can still be
        beaten (a bold one only when the chance that it holds is below one half) and some
        other seat has chips to bid."""
        if game.over or game.auction is not None or seat != game.holder:
            return False
        hold = odds.hold_probability(game)
        if hold == 1 or (self.appetite > 1 and hold >= Fraction(1, 2)):
            return False
        return any(game.stacks[b] > 0 for b in range(game.rules.players) if b != seat)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        auction = game.auction or {}
        best: tuple[Fraction, int] | None = None
        for buyer in game.acceptable():
            gain = auction[buyer] - self.asking(game, seat, buyer)
            if gain >= 0 and (best is None or gain > best[0]):
                best = (gain, buyer)
        return None if best is None else best[1]

    # -- V3
    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        if self.trades:
            return exact_trade_answer(self.appetite, game, seat, buyer, seller, count, price)
        if self.card_price is None:
            return False
        if seat == seller:
            return price >= self.card_price * count
        return seat == buyer and price <= self.card_price * count

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        """A temperament answers trades but proposes none (see :class:`~.characters.PileBuyer`)."""
        return []


@dataclass(frozen=True)
class Shrewd(Temperament):
    """Values the card like a :class:`Temperament` (break-even times ``appetite``; 1 by default,
    so never above break-even) but bids only what it takes: one chip more than the best other
    offer, or what a fair holder would take (``odds.seller_break_even``, rounded up) if that is
    more, and never above its own limit; it raises round by round while someone outbids it and
    its limit allows, and does not bid against itself. Holder and trades as a :class:`Temperament`."""

    name: str = "shrewd"

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        limit = min(odds.whole_break_even(game, seat, self.appetite), high)
        if game.best_offer == seat:
            return None
        auction = game.auction or {}
        best_other = max((amount for other, amount in auction.items() if other != seat), default=0)
        need = max(low, 1, best_other + 1)
        if need > limit:
            return None
        return min(limit, max(need, ceil(odds.seller_break_even(game, seat))))


@dataclass(frozen=True)
class RandomPlayer:
    """Plays at random, seeded: opens an auction with probability ``p_open``,
    bids a random amount in the allowed range with probability ``p_bid``,
    accepts a random acceptable bid with probability ``p_accept``; with blind
    trading (V3) it proposes, with probability ``p_trade``, a random trade (a
    random pile, count and price it can pay) and agrees to trades half the time.

    Each choice is drawn from a generator seeded by ``seed``, the deal's seed
    and the number of actions taken, so it is the same every time the same
    deal reaches the same point.
    """

    name: str = "random"
    seed: int = 0
    p_open: Fraction = Fraction(1, 3)
    p_bid: Fraction = Fraction(1, 2)
    p_accept: Fraction = Fraction(1, 2)
    p_trade: Fraction = Fraction(1, 4)

    def _rng(self, game: Game, seat: int, what: str) -> random.Random:
        deal = game.to_json() if game.seed is None else ""
        return random.Random(f"{self.seed}:{game.seed}:{deal}:{game.moment}:{seat}:{what}")

    def wants_auction(self, game: Game, seat: int) -> bool:
        if game.over or game.auction is not None or seat != game.holder:
            return False
        return self._rng(game, seat, "open").random() < self.p_open

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        rng = self._rng(game, seat, "bid")
        if rng.random() >= self.p_bid:
            return None
        return rng.randint(*span)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        options = game.acceptable()
        rng = self._rng(game, seat, "sale")
        if not options or rng.random() >= self.p_accept:
            return None
        return rng.choice(options)

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return self._rng(game, seat, f"trade:{buyer}:{seller}:{count}:{price}").random() < Fraction(1, 2)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        if not game.can_blind_trade() or game.stacks[seat] < 1:
            return []
        rng = self._rng(game, seat, "offer")
        if rng.random() >= self.p_trade:
            return []
        down = game.face_down
        sellers = [s for s in range(game.rules.players) if s != seat and down[s]]
        if not sellers:
            return []
        seller = rng.choice(sellers)
        return [Trade(seat, seller, rng.randint(1, down[seller]), rng.randint(1, game.stacks[seat]))]


def trading(player: Temperament) -> Temperament:
    """The same temperament, agreeing to blind trades (V3) by the exact numbers: a seller when the
    price reaches ``appetite`` times its expected-net loss, a buyer when the price is at most
    ``appetite`` times its expected-net gain. (The temperaments of the app refuse every trade.)"""
    return dataclasses.replace(player, trades=True)


CAUTIOUS = Temperament("cautious", Fraction(3, 4))
FAIR = Temperament("fair", Fraction(1))
BOLD = Temperament("bold", Fraction(5, 4))
#: Mary Crawford's temperament in lesson 5: pays up to one and a half times what a card is worth.
SPIRITED = Temperament("spirited", Fraction(3, 2))
SHREWD = Shrewd()
#: The temperaments offered by the app, by name.
TEMPERAMENTS: dict[str, Temperament] = {t.name: t for t in (CAUTIOUS, FAIR, BOLD)}
