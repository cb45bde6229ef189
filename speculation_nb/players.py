"""Computer players: decisions from public information and the exact odds.

A computer player is a :class:`Strategy`: a small frozen dataclass with a
``name`` and its parameters, answering three questions about a deal:

* :meth:`~Strategy.wants_auction`: as the holder, put the best trump up for sale now?
* :meth:`~Strategy.bid`: as a bidder in an open auction, which new bid to make (or none)?
* :meth:`~Strategy.choose_sale`: as the holder, which standing bid to accept (or decline)?

and, with blind trading (V3), :meth:`~Strategy.accepts_trade`.

Strategies read only what every player sees: the cards face up, the stacks,
the pot, the bids, and the exact numbers of :mod:`speculation_nb.odds`
(which look at face-up cards only). They never look at a face-down card.
Where a strategy is random it is seeded, and its choices are a pure function
of the seed and the deal as it stands, so the same deal gives the same play.

The temperaments of the app (:data:`CAUTIOUS`, :data:`FAIR`, :data:`BOLD`) are
:class:`Temperament` values: a player values the best trump at its
break-even price (``odds.break_even``; as a seller ``odds.seller_break_even``)
times ``appetite``: 3/4 for cautious, 1 for fair, 5/4 for bold. A fair player
never bids above its break-even price.

The helpers :func:`computer_bids` and :func:`computer_decision` apply a table's
strategies to a game; the widget uses them, and so can a lesson or a
tournament (:func:`play_deal` plays a whole deal with no person at the table).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Iterable, Mapping, Protocol, runtime_checkable

from . import odds
from .game import Game

__all__ = [
    "Strategy",
    "Temperament",
    "RandomPlayer",
    "CAUTIOUS",
    "FAIR",
    "BOLD",
    "TEMPERAMENTS",
    "strategy",
    "table_strategies",
    "bidders",
    "computer_bids",
    "computer_decision",
    "play_deal",
]


@runtime_checkable
class Strategy(Protocol):
    """What a computer player decides. Every method reads ``game`` and never changes it."""

    name: str

    def wants_auction(self, game: Game, seat: int) -> bool:
        """``seat`` holds the best trump and no auction is open: open one now?"""
        ...

    def bid(self, game: Game, seat: int) -> int | None:
        """An auction is open and ``seat`` may bid: the new bid (within ``game.bid_range(seat)``), or None."""
        ...

    def choose_sale(self, game: Game, seat: int) -> int | None:
        """``seat`` holds and its auction is open: the bidder to sell to (one of ``game.acceptable()``), or None to decline."""
        ...

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        """V3: does ``seat`` (the buyer or the seller) agree to this blind trade?"""
        ...


def _floor_in(value: Fraction, low: int, high: int) -> int | None:
    """The largest whole number <= value within [low, high], or None."""
    top = min(floor(value), high)
    return top if top >= low else None


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
    """

    name: str = "fair"
    appetite: Fraction = Fraction(1)
    card_price: int | None = None

    def __post_init__(self) -> None:
        appetite = Fraction(self.appetite)
        if appetite < 0:
            raise ValueError(f"a temperament's appetite is at least 0, not {self.appetite!r}")
        object.__setattr__(self, "appetite", appetite)

    # -- bidder
    def limit(self, game: Game, seat: int) -> int:
        """The most ``seat`` will pay for the best trump now, in whole chips (may be 0)."""
        value = self.appetite * Fraction(odds.break_even(game, seat))
        return max(0, floor(value))

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        return _floor_in(self.appetite * Fraction(odds.break_even(game, seat)), max(low, 1), high)

    # -- holder
    def asking(self, game: Game, seat: int, buyer: int) -> Fraction:
        """The least the holder ``seat`` takes from ``buyer``."""
        return self.appetite * Fraction(odds.seller_break_even(game, buyer))

    def wants_auction(self, game: Game, seat: int) -> bool:
        """Asking for bids costs nothing, so a holder does whenever its card can still be
        beaten (a bold one only when the chance that it holds is below one half) and some
        other seat has chips to bid."""
        if game.over or game.auction is not None or seat != game.holder:
            return False
        hold = Fraction(odds.hold_probability(game))
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
        if self.card_price is None:
            return False
        if seat == seller:
            return price >= self.card_price * count
        return seat == buyer and price <= self.card_price * count


@dataclass(frozen=True)
class RandomPlayer:
    """Plays at random, seeded: opens an auction with probability ``p_open``,
    bids a random amount in the allowed range with probability ``p_bid``,
    accepts a random acceptable bid with probability ``p_accept``.

    Each choice is drawn from a generator seeded by ``seed``, the deal's seed
    and the number of actions taken, so it is the same every time the same
    deal reaches the same point.
    """

    name: str = "random"
    seed: int = 0
    p_open: Fraction = Fraction(1, 3)
    p_bid: Fraction = Fraction(1, 2)
    p_accept: Fraction = Fraction(1, 2)

    def _rng(self, game: Game, seat: int, what: str) -> random.Random:
        return random.Random(f"{self.seed}:{game.seed}:{game.to_json() if game.seed is None else ''}:"
                             f"{len(game.history)}:{seat}:{what}")

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


CAUTIOUS = Temperament("cautious", Fraction(3, 4))
FAIR = Temperament("fair", Fraction(1))
BOLD = Temperament("bold", Fraction(5, 4))
#: The temperaments offered by the app, by name.
TEMPERAMENTS: dict[str, Temperament] = {t.name: t for t in (CAUTIOUS, FAIR, BOLD)}


def strategy(name: str, seed: int = 0) -> Strategy:
    """A strategy by name: ``"cautious"``, ``"fair"``, ``"bold"`` or ``"random"``."""
    if name in TEMPERAMENTS:
        return TEMPERAMENTS[name]
    if name == "random":
        return RandomPlayer(seed=seed)
    raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join([*TEMPERAMENTS, 'random'])}")


def table_strategies(players: int, temperament: str = "mixed", people: Iterable[int] = ()) -> dict[int, Strategy]:
    """A strategy for every computer seat: ``temperament`` for all, or ``"mixed"``
    (fair, cautious, bold, fair, ... around the table). Seats in ``people`` get none."""
    people = set(people)
    cycle = (FAIR, CAUTIOUS, BOLD)
    out: dict[int, Strategy] = {}
    k = 0
    for seat in range(players):
        if seat in people:
            continue
        out[seat] = cycle[k % 3] if temperament == "mixed" else strategy(temperament)
        k += 1
    return out


def bidders(game: Game) -> list[int]:
    """The seats that may bid in the open auction, clockwise from the holder's left."""
    if game.auction is None or game.over:
        return []
    n = game.rules.players
    order = [(game.holder + i) % n for i in range(1, n)]
    return [seat for seat in order if game.bid_range(seat) is not None]


def computer_bids(game: Game, strategies: Mapping[int, Strategy], rounds: int = 10) -> list[tuple[int, int]]:
    """Let every computer seat bid in the open auction, clockwise from the holder's
    left, round after round until nobody bids (at most ``rounds`` rounds).
    Applies the bids to ``game`` and returns them as ``(seat, amount)``."""
    made: list[tuple[int, int]] = []
    for _ in range(rounds):
        any_bid = False
        for seat in bidders(game):
            player = strategies.get(seat)
            if player is None:
                continue
            amount = player.bid(game, seat)
            span = game.bid_range(seat)
            if amount is None or span is None or not span[0] <= amount <= span[1]:
                continue
            game.bid(seat, amount)
            made.append((seat, amount))
            any_bid = True
        if not any_bid:
            break
    return made


def computer_decision(game: Game, strategy_: Strategy) -> int | None:
    """The holder's strategy ends the open auction: accepts a bid (returns the buyer) or declines (None)."""
    seat = game.holder
    choice = strategy_.choose_sale(game, seat)
    if choice is not None and choice in game.acceptable():
        game.accept(choice)
        return choice
    game.decline()
    return None


def play_deal(game: Game, strategies: Mapping[int, Strategy], max_actions: int = 1000) -> Game:
    """Play ``game`` to its end with computer players only (every seat needs a strategy).

    Each owner of each best trump is asked once whether to open an auction (as
    the app does); the other seats bid; the holder decides; then the next card
    is turned up.
    Returns the same game, now over.
    """
    asked: set[tuple] = set()
    for _ in range(max_actions):
        if game.over:
            return game
        key = (game.best_trump, game.holder)
        if key not in asked and game.can_open_auction():
            asked.add(key)
            holder = strategies[game.holder]
            if holder.wants_auction(game, game.holder):
                game.open_auction()
                computer_bids(game, strategies)
                computer_decision(game, holder)
                continue
        game.reveal()
    raise RuntimeError("the deal did not end")
