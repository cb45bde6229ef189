"""One deal of Speculation: its layout plus the actions taken, by the rules of RULES.md.

A ``Game`` is built from an initial layout (``Game.deal`` shuffles one,
``Game.from_layout`` takes one as given) and changes only through its actions:
``reveal``, ``open_auction``, ``bid``, ``accept``, ``decline`` and
``blind_trade``. Everything else is read from it. Because a game is nothing
but its layout and its list of actions, ``at(k)`` replays the first ``k``
actions into a new game, and ``to_json`` / ``from_json`` save and load it.

An action the rules forbid raises :class:`IllegalAction` naming the rule and
changes nothing: every action checks everything first and only then acts.
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import operator
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from .actions import Action
from .cards import Card, Suit, full_deck
from .errors import IllegalAction
from .layout import Layout
from .rules import Rules

__all__ = ["FORMAT", "VERSION", "Event", "Game"]

FORMAT = "speculation_nb.game"
VERSION = 1
MAX_JSON_CHARS = 1_000_000


class Event(dict):
    """One line of a deal's log: ``{"step": 3, "kind": "reveal", "seat": 1, "card": Card}``.

    ``step`` is the number of actions taken once it had happened (0: at the deal), so
    ``game.at(k).events`` are the events whose step is at most ``k``.
    Kinds: ``ante``, ``turn_up``, ``jack_five``, ``ace_turn_up``, ``reveal``,
    ``new_best``, ``auction_open``, ``bid``, ``withdraw``, ``sale``, ``decline``,
    ``blind_trade``, ``holder_cards`` (hoyle1847 b), ``dead_pile``, ``win``,
    ``carry_over``.
    """

    @property
    def kind(self) -> str:
        return self["kind"]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> Any:
    """A whole number of another integer type (a numpy integer, say) as a plain int, so that
    it is accepted and saved like one; anything else (bools included) is left as it is."""
    if type(value) is not int and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            return value
    return value


def _cards(items: Iterable[Any], what: str) -> list[Card]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise ValueError(f"{what} must be a list of cards")
    return [Card.parse(item) for item in items]


class Game:
    """A deal of Speculation (see the module docstring and API.md)."""

    # ------------------------------------------------------------ construction
    def __init__(
        self,
        rules: Rules,
        piles: Sequence[Sequence[Card]],
        turn_up: Card,
        dead: Sequence[Card] | None,
        stock: Sequence[Card],
        dealer: int,
        stacks: Sequence[int],
        pot: int,
        seed: int | None,
    ) -> None:
        """Low-level: use :meth:`deal` or :meth:`from_layout`, which check their input."""
        self._rules = rules
        self._layout = Layout(
            piles=tuple(tuple(p) for p in piles),
            turn_up=turn_up,
            dead=None if dead is None else tuple(dead),
            stock=tuple(stock),
            dealer=dealer,
            stacks=tuple(stacks),
            pot=pot,
        )
        self._seed = seed
        self._saved_deal: dict[str, Any] | None = None  # to_dict's cache of the layout's codes
        self._start()

    def _start(self) -> None:
        rules, layout = self._rules, self._layout
        n, dealer = rules.players, layout.dealer
        self._piles = [list(p) for p in layout.piles]
        self._dead_pile = [] if layout.dead is None else list(layout.dead)
        self._dead_cards: list[Card] | None = None
        self._face_up: list[list[Card]] = [[] for _ in range(n)]
        self._stacks = list(layout.stacks)
        self._pot = layout.pot
        self._holder = dealer
        self._best: Card = layout.turn_up
        self._pointer: int | None = (dealer + 1) % n
        self._auction: dict[int, int] | None = None
        self._best_only = False
        self._reveals = 0
        self._over = False
        self._winner: int | None = None
        self._end_rule: str | None = None
        self._history: list[Action] = []
        self._events: list[Event] = []

        antes = rules.antes(dealer)
        for seat, ante in enumerate(antes):
            self._stacks[seat] -= ante
            self._pot += ante
        self._log("ante", antes=antes, pot=self._pot)
        self._log("turn_up", seat=dealer, card=self._best)
        self._jack_five(dealer, self._best)
        if self._best.rank == 14:  # S5
            self._pointer = None
            self._over = True
            self._winner = dealer
            self._end_rule = "S5"
            self._log("ace_turn_up", seat=dealer, pot=self._pot)
            self._log("win", seat=dealer, pot=self._pot)
            self._stacks[dealer] += self._pot
            self._pot = 0
        else:
            self._advance()

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int | None = None,
        dealer: int = 0,
        deck: Sequence[Any] | None = None,
        stacks: Sequence[int] | None = None,
        pot: int = 0,
    ) -> Game:
        """Shuffle (by ``seed``) or take ``deck`` as it lies, top card first, and deal it (S3, S4).

        Cards go one at a time, clockwise from the dealer's left, the dealer last
        in each round and, with V2, the dead pile right after the dealer; each
        card lands on top of its pile. The next card is the turn-up.
        Without ``seed`` or ``deck`` a fresh seed is drawn; ``game.seed`` tells it.
        """
        seed, dealer, pot = _plain(seed), _plain(dealer), _plain(pot)
        if not isinstance(rules, Rules):
            raise ValueError("a deal needs a Rules")
        if deck is not None and seed is not None:
            raise ValueError("give a seed or a deck, not both")
        if deck is None:
            if seed is None:
                seed = secrets.randbits(48)
            if not _whole(seed):
                raise ValueError(f"a seed is a whole number, not {seed!r}")
            order = full_deck()
            random.Random(seed).shuffle(order)
        else:
            order = _cards(deck, "the deck")
            if len(order) != 52 or len(set(order)) != 52:
                raise ValueError("S3: a deck is 52 different cards")
        _check_seat_number(rules, dealer, "dealer")
        n = rules.players
        receivers: list[int | None] = [(dealer + 1 + i) % n for i in range(n)]
        if rules.dead_hand:
            receivers.append(None)
        dealt: dict[int | None, list[Card]] = {r: [] for r in receivers}
        cards = iter(order)
        for _ in range(rules.hand_size):
            for receiver in receivers:
                dealt[receiver].insert(0, next(cards))  # lands on top
        turn_up = next(cards)
        stock = list(cards)
        piles = [dealt[seat] for seat in range(n)]
        dead = dealt[None] if rules.dead_hand else None
        stacks = _check_stacks(rules, dealer, stacks, pot)
        return cls(rules, piles, turn_up, dead, stock, dealer, stacks, pot, seed)

    @classmethod
    def from_layout(
        cls,
        rules: Rules,
        piles: Sequence[Sequence[Any]],
        turn_up: Any,
        dead: Sequence[Any] | None = None,
        dealer: int = 0,
        stacks: Sequence[int] | None = None,
        pot: int = 0,
    ) -> Game:
        """A deal laid out by hand: ``piles[i]`` is seat i's pile, TOP card first.

        Cards not placed form the stock. Antes are taken (S2), V1 is paid on the
        turn-up and S5 applies at once. A bad layout raises ``ValueError``.
        """
        dealer, pot = _plain(dealer), _plain(pot)
        if not isinstance(rules, Rules):
            raise ValueError("from_layout needs a Rules")
        _check_seat_number(rules, dealer, "dealer")
        if isinstance(piles, (str, bytes)) or not isinstance(piles, Sequence) or len(piles) != rules.players:
            raise ValueError(f"S3: give one pile for each of the {rules.players} seats")
        piles_c = [_cards(p, f"seat {i}'s pile") for i, p in enumerate(piles)]
        for i, pile in enumerate(piles_c):
            if len(pile) != rules.hand_size:
                raise ValueError(f"S3: seat {i}'s pile has {len(pile)} cards, not {rules.hand_size}")
        turn = Card.parse(turn_up)
        if rules.dead_hand:
            if dead is None:
                raise ValueError("V2: the dead hand is on, so give the dead pile")
            dead_c = _cards(dead, "the dead pile")
            if len(dead_c) != rules.hand_size:
                raise ValueError(f"V2: the dead pile has {len(dead_c)} cards, not {rules.hand_size}")
        else:
            if dead is not None:
                raise ValueError("V2: there is no dead pile unless the dead hand is on")
            dead_c = None
        placed = [c for p in piles_c for c in p] + [turn] + (dead_c or [])
        seen: set[Card] = set()
        for card in placed:
            if card in seen:
                raise ValueError(f"S3: {card} is laid out twice")
            seen.add(card)
        stock = [c for c in full_deck() if c not in seen]
        stacks = _check_stacks(rules, dealer, stacks, pot)
        return cls(rules, piles_c, turn, dead_c, stock, dealer, stacks, pot, None)

    # ----------------------------------------------------------------- readers
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def dealer(self) -> int:
        return self._layout.dealer

    @property
    def seed(self) -> int | None:
        """The shuffle's seed; None for a deal from a layout or a given deck."""
        return self._seed

    @property
    def turn_up(self) -> Card:
        return self._layout.turn_up

    @property
    def trump(self) -> Suit:
        return self._layout.turn_up.suit

    @property
    def turn(self) -> int | None:
        """The seat due to reveal next (also while an auction is open); None when over."""
        return self._pointer

    @property
    def holder(self) -> int:
        """The seat owning the best trump."""
        return self._holder

    @property
    def best_trump(self) -> Card:
        """The highest trump turned up by a player, or the turn-up (P9: never the dead pile)."""
        return self._best

    @property
    def pot(self) -> int:
        return self._pot

    @property
    def stacks(self) -> list[int]:
        return list(self._stacks)

    @property
    def face_down(self) -> list[int]:
        return [len(p) for p in self._piles]

    @property
    def face_up(self) -> list[list[Card]]:
        return [list(cards) for cards in self._face_up]

    @property
    def dead(self) -> int:
        """Face-down cards in the dead pile (0 without V2, and once it is turned up)."""
        return len(self._dead_pile)

    @property
    def dead_cards(self) -> list[Card] | None:
        """The dead pile's cards once turned up at the end (V2), else None."""
        return None if self._dead_cards is None else list(self._dead_cards)

    @property
    def auction(self) -> dict[int, int] | None:
        """None, or ``{seat: standing bid}`` while an auction is open."""
        return None if self._auction is None else dict(self._auction)

    @property
    def best_offer(self) -> int | None:
        """The seat with the best offer in the open auction (highest, then earliest), or None."""
        if not self._auction:
            return None
        top = max(self._auction.values())
        return next(seat for seat, bid in self._auction.items() if bid == top)

    @property
    def turn_up_auction(self) -> bool:
        """True while the open auction is one opened before the first reveal (P1)."""
        return self._auction is not None and self._reveals == 0

    @property
    def over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        """The seat that took the pot; None while not over or when it carried over."""
        return self._winner

    @property
    def end_rule(self) -> str | None:
        """How the deal ended: "S5", "P8", "P9" or "hoyle1847(c)"; None while not over."""
        return self._end_rule

    @property
    def reveals(self) -> int:
        """How many cards players have turned up so far."""
        return self._reveals

    @property
    def history(self) -> list[Action]:
        return list(self._history)

    @property
    def events(self) -> list[Event]:
        """The log of the deal, automatic steps included (see :class:`Event`)."""
        return [Event(e) for e in self._events]

    @property
    def seen(self) -> set[Card]:
        """Every card face up: the turn-up, players' cards and a turned-up dead pile."""
        cards = {self.turn_up}
        for up in self._face_up:
            cards.update(up)
        cards.update(self._dead_cards or ())
        return cards

    @property
    def unseen(self) -> int:
        """How many cards are not face up (piles, dead pile and stock)."""
        return 52 - len(self.seen)

    def layout(self) -> dict[str, Any]:
        """The initial deal: piles (top first), turn-up, dead pile, stock, dealer, stacks, pot."""
        return self._layout.as_dict()

    @property
    def initial_layout(self) -> Layout:
        """The initial deal as a frozen, hashable :class:`~speculation_nb.layout.Layout`."""
        return self._layout

    @property
    def moment(self) -> int:
        """The number of actions taken so far: ``game.at(game.moment)`` is a copy of this game."""
        return len(self._history)

    # -------------------------------------------------------- what is allowed
    def can_reveal(self) -> bool:
        return not self._over and self._auction is None

    def can_open_auction(self) -> bool:
        return not self._over and self._auction is None

    def bid_range(self, seat: int) -> tuple[int, int] | None:
        """The lowest and highest new bid ``seat`` may make now, or None if it may not bid."""
        seat = _plain(seat)
        if self._over or self._auction is None or not _whole(seat) or not 0 <= seat < self._rules.players:
            return None
        if seat == self._holder:
            return None
        low = self._auction.get(seat, 0) + 1
        high = self._stacks[seat]
        if self._rules.price_cap is not None:
            high = min(high, self._rules.price_cap)
        return (low, high) if low <= high else None

    def acceptable(self) -> list[int]:
        """The seats whose standing bid the holder may accept now (P1, hoyle1847 d)."""
        if self._over or not self._auction:
            return []
        if self._best_only:
            return [self.best_offer]  # type: ignore[list-item]
        return list(self._auction)

    def can_blind_trade(self) -> bool:
        return self._rules.blind_trading and not self._over and self._auction is None

    # ----------------------------------------------------------------- actions
    def reveal(self, seat: int | None = None) -> Card:
        """The seat due turns up the top card of its pile (P3-P6); returns the card."""
        self._check_live()
        if self._auction is not None:
            raise IllegalAction("P2", "reveal_in_auction", "no card is turned up while an auction is open")
        due = self._pointer
        assert due is not None
        if seat is not None:
            seat = _plain(seat)
            self._check_seat(seat, "seat")
            if seat != due:
                if seat == self._holder:
                    raise IllegalAction(
                        "P4",
                        "holder_skipped",
                        f"seat {seat} holds the best trump and does not reveal",
                        seat=seat,
                        due=due,
                    )
                if not self._piles[seat]:
                    raise IllegalAction(
                        "P4", "no_cards_left", f"seat {seat} has no face-down card left", seat=seat, due=due
                    )
                raise IllegalAction(
                    "P3", "not_your_turn", f"it is seat {due}'s turn to reveal, not seat {seat}'s", seat=seat, due=due
                )
        self._history.append(Action.make("reveal", seat=due))
        card = self._piles[due].pop(0)
        self._face_up[due].append(card)
        self._reveals += 1
        self._log("reveal", seat=due, card=card)
        self._jack_five(due, card)
        if card.suit == self.trump and card.rank > self._best.rank:
            previous = self._holder
            self._best, self._holder = card, due
            self._log("new_best", seat=due, card=card, previous=previous)
        self._pointer = (due + 1) % self._rules.players
        self._advance()
        return card

    def open_auction(self) -> None:
        """The holder puts the best trump up for sale (P2)."""
        self._check_live()
        if self._auction is not None:
            raise IllegalAction("P2", "auction_already_open", "an auction is already open", holder=self._holder)
        self._history.append(Action.make("open_auction"))
        self._auction = {}
        self._best_only = self._reveals == 0 or self._rules.hoyle
        self._log("auction_open", seat=self._holder, card=self._best, turn_up_auction=self._reveals == 0)

    def bid(self, seat: int, amount: int) -> None:
        """A new or raised bid by ``seat``; ``amount`` 0 withdraws its standing bid (P2, V4)."""
        seat, amount = _plain(seat), _plain(amount)
        self._check_live()
        auction = self._require_auction()
        self._check_seat(seat, "seat")
        if seat == self._holder:
            raise IllegalAction("P2", "holder_bids", f"seat {seat} holds the card and cannot bid on it", seat=seat)
        if not _whole(amount):
            raise IllegalAction(
                "P2",
                "bid_not_whole",
                f"a bid is a whole number of chips, not {amount!r}",
                seat=seat,
                amount=repr(amount),
            )
        standing = auction.get(seat)
        if amount == 0:
            if standing is None:
                raise IllegalAction(
                    "P2", "nothing_to_withdraw", f"seat {seat} has no standing bid to withdraw", seat=seat
                )
        elif amount < 0:
            raise IllegalAction(
                "P2", "bid_below_one", f"a bid is at least 1 chip, not {amount}", seat=seat, amount=amount
            )
        elif amount > self._stacks[seat]:
            raise IllegalAction(
                "P2",
                "bid_above_stack",
                f"seat {seat} has {self._stacks[seat]} chips and cannot bid {amount}",
                seat=seat,
                amount=amount,
                stack=self._stacks[seat],
            )
        elif self._rules.price_cap is not None and amount > self._rules.price_cap:
            raise IllegalAction(
                "V4",
                "bid_above_cap",
                f"no bid may exceed the price cap of {self._rules.price_cap} chips",
                seat=seat,
                amount=amount,
                cap=self._rules.price_cap,
            )
        elif standing is not None and amount <= standing:
            raise IllegalAction(
                "P2",
                "bid_not_higher",
                f"seat {seat} already bids {standing}; a new bid must be higher",
                seat=seat,
                amount=amount,
                standing=standing,
            )
        self._history.append(Action.make("bid", seat=seat, amount=amount))
        auction.pop(seat, None)  # a raise counts from now for "the earliest"
        if amount:
            auction[seat] = amount
            self._log("bid", seat=seat, amount=amount)
        else:
            self._log("withdraw", seat=seat)

    def accept(self, seat: int) -> None:
        """The holder sells the best trump to ``seat`` at its standing bid (P2; P1 and hoyle1847 d: the best offer only)."""
        seat = _plain(seat)
        self._check_live()
        auction = self._require_auction()
        self._check_seat(seat, "seat")
        if seat not in auction:
            raise IllegalAction("P2", "no_bid_to_accept", f"seat {seat} has no standing bid to accept", seat=seat)
        best = self.best_offer
        if self._best_only and seat != best:
            rule = "P1" if self._reveals == 0 else "hoyle1847(d)"
            raise IllegalAction(
                rule,
                "best_offer_only",
                f"only the best offer may be accepted: seat {best}'s {auction[best]} chips",
                seat=seat,
                best=best,
                amount=auction[best],
            )
        price = auction[seat]
        seller = self._holder
        self._history.append(Action.make("accept", seat=seat))
        self._stacks[seat] -= price
        self._stacks[seller] += price
        self._holder = seat
        self._auction = None
        self._log("sale", seller=seller, buyer=seat, price=price, card=self._best)
        if self._rules.hoyle:  # hoyle1847 (a)
            self._pointer = (seat + 1) % self._rules.players
        self._advance()

    def decline(self) -> None:
        """The holder keeps the card and the auction closes (P2)."""
        self._check_live()
        self._require_auction()
        self._history.append(Action.make("decline"))
        self._auction = None
        self._log("decline", seat=self._holder)

    def blind_trade(self, buyer: int, seller: int, count: int, price: int) -> None:
        """V3: ``buyer`` pays ``price`` for the top ``count`` face-down cards of ``seller``.

        The cards move unseen, in the same order, to the bottom of the buyer's
        pile; the turn pointer does not move (but skips as P4 says).
        """
        buyer, seller, count, price = _plain(buyer), _plain(seller), _plain(count), _plain(price)
        self._check_live()
        if not self._rules.blind_trading:
            raise IllegalAction("V3", "trading_off", "blind trading is not played at this table")
        if self._auction is not None:
            raise IllegalAction("P2", "trade_in_auction", "no blind trade while an auction is open")
        self._check_seat(buyer, "buyer")
        self._check_seat(seller, "seller")
        if buyer == seller:
            raise IllegalAction("V3", "trade_with_self", f"seat {buyer} cannot trade with itself", seat=buyer)
        have = len(self._piles[seller])
        if not _whole(count) or not 1 <= count <= have:
            raise IllegalAction(
                "V3",
                "trade_bad_count",
                f"seat {seller} has {have} face-down cards; cannot sell {count!r}",
                seller=seller,
                count=repr(count),
                have=have,
            )
        if not _whole(price) or price < 1:
            raise IllegalAction(
                "V3",
                "trade_bad_price",
                f"a blind trade costs a whole number of chips, at least 1, not {price!r}",
                price=repr(price),
            )
        if price > self._stacks[buyer]:
            raise IllegalAction(
                "V3",
                "trade_above_stack",
                f"seat {buyer} has {self._stacks[buyer]} chips and cannot pay {price}",
                buyer=buyer,
                price=price,
                stack=self._stacks[buyer],
            )
        self._history.append(Action.make("blind_trade", buyer=buyer, seller=seller, count=count, price=price))
        moved = self._piles[seller][:count]
        del self._piles[seller][:count]
        self._piles[buyer].extend(moved)
        self._stacks[buyer] -= price
        self._stacks[seller] += price
        self._log("blind_trade", buyer=buyer, seller=seller, count=count, price=price)
        self._advance()

    def apply(self, action: Action) -> Any:
        """Take an :class:`Action` (as found in ``history``)."""
        args = dict(action.args)
        if action.kind == "reveal":
            return self.reveal(args["seat"])
        return getattr(self, action.kind)(**args)

    # ------------------------------------------------------------------ replay
    def at(self, k: int) -> Game:
        """A new game: this deal after its first ``k`` actions (0 <= k <= len(history))."""
        k = _plain(k)
        if not _whole(k) or not 0 <= k <= len(self._history):
            raise ValueError(
                f"a deal with {len(self._history)} actions has moments 0 to {len(self._history)}, not {k!r}"
            )
        game = Game(self._rules, **self.layout(), seed=self._seed)
        for action in self._history[:k]:
            game.apply(action)
        return game

    def copy(self) -> Game:
        return self.at(len(self._history))

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        deal = self._saved_deal
        if deal is None:  # the layout never changes once play starts: write its codes once
            layout = self._layout
            deal = self._saved_deal = {
                "dealer": layout.dealer,
                "piles": [[c.code for c in p] for p in layout.piles],
                "turn_up": layout.turn_up.code,
                "dead": None if layout.dead is None else [c.code for c in layout.dead],
                "stock": [c.code for c in layout.stock],
                "stacks": list(layout.stacks),
                "pot": layout.pot,
            }
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "deal": {
                **deal,
                "piles": [list(p) for p in deal["piles"]],
                "dead": None if deal["dead"] is None else list(deal["dead"]),
                "stock": list(deal["stock"]),
                "stacks": list(deal["stacks"]),
            },
            "actions": [a.to_dict() for a in self._history],
        }

    def to_json(self) -> str:
        """Deterministic JSON (sorted keys): format, version, rules, the whole layout and the actions."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load ``to_json()`` output. Anything corrupt or illegal raises ``ValueError``; nothing runs."""
        return cls.from_dict(_load_json(text, "saved game"))

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        try:
            return cls._from_dict(data)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
            raise ValueError(f"not a valid saved game: {error}") from None

    @classmethod
    def _from_dict(cls, data: Any) -> Game:
        _expect_keys(data, {"format", "version", "rules", "seed", "deal", "actions"}, "a saved game")
        if data["format"] != FORMAT:
            raise ValueError(f"format is {data['format']!r}, expected {FORMAT!r}")
        if data["version"] != VERSION or not _whole(data["version"]):
            raise ValueError(f"version {data['version']!r} is not supported (this is version {VERSION})")
        rules = Rules.from_dict(data["rules"])
        seed = data["seed"]
        if seed is not None and not _whole(seed):
            raise ValueError("seed must be a whole number or null")
        deal = data["deal"]
        _expect_keys(deal, {"dealer", "piles", "turn_up", "dead", "stock", "stacks", "pot"}, "the deal")
        for name in ("piles", "stock", "stacks"):
            if not isinstance(deal[name], list):
                raise ValueError(f"deal.{name} must be a list")
        if not all(isinstance(p, list) and all(isinstance(c, str) for c in p) for p in deal["piles"]):
            raise ValueError("deal.piles must be lists of card codes")
        if not isinstance(deal["turn_up"], str) or not all(isinstance(c, str) for c in deal["stock"]):
            raise ValueError("cards are saved as codes such as 'QH'")
        if deal["dead"] is not None and not (
            isinstance(deal["dead"], list) and all(isinstance(c, str) for c in deal["dead"])
        ):
            raise ValueError("deal.dead must be a list of card codes or null")
        if not _whole(deal["pot"]) or not all(_whole(s) for s in deal["stacks"]):
            raise ValueError("stacks and pot are whole numbers")
        game = cls.from_layout(
            rules, deal["piles"], deal["turn_up"], deal["dead"], deal["dealer"], deal["stacks"], deal["pot"]
        )
        stock = _cards(deal["stock"], "the stock")
        if sorted(stock, key=_deck_index) != list(game._layout.stock):
            raise ValueError("the stock must hold exactly the cards not laid out, each once")
        game._layout = dataclasses.replace(game._layout, stock=tuple(stock))
        game._saved_deal = None
        if seed is not None:
            # a seed claims the shuffle: it must deal exactly this layout, or game.seed would lie
            dealt = cls.deal(rules, seed=seed, dealer=deal["dealer"], stacks=deal["stacks"], pot=deal["pot"])
            if dealt._layout != game._layout:
                raise ValueError(f"seed {seed} does not deal this layout")
        game._seed = seed
        actions = data["actions"]
        if not isinstance(actions, list):
            raise ValueError("actions must be a list")
        for i, raw in enumerate(actions):
            action = Action.from_dict(raw)
            try:
                game.apply(action)
            except IllegalAction as error:
                raise ValueError(f"action {i} ({action}) is illegal on replay: {error}") from None
        return game

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._pointer}"
        return (
            f"<Game {self._rules.players} players, dealer {self.dealer}, trump {self.trump.symbol}, "
            f"best {self._best} (seat {self._holder}), pot {self._pot}, {len(self._history)} actions, {state}>"
        )

    def _repr_html_(self) -> str:
        from .render import table_html

        return table_html(self)

    # ---------------------------------------------------------------- internals
    def _log(self, kind: str, **params: Any) -> None:
        self._events.append(Event(step=len(self._history), kind=kind, **params))

    def _check_live(self) -> None:
        if self._over:
            rule = "S5" if self._end_rule == "S5" else "P7"
            raise IllegalAction(rule, "deal_over", "the deal is over")

    def _check_seat(self, seat: Any, role: str) -> None:
        if not _whole(seat) or not 0 <= seat < self._rules.players:
            raise IllegalAction(
                "S1",
                "bad_seat",
                f"{role} {seat!r} is not a seat: seats are 0 to {self._rules.players - 1}",
                seat=repr(seat),
                players=self._rules.players,
            )

    def _require_auction(self) -> dict[int, int]:
        if self._auction is None:
            raise IllegalAction("P2", "no_auction", "no auction is open")
        return self._auction

    def _jack_five(self, seat: int, card: Card) -> None:
        """V1: a Jack or a Five turned up costs its player a chip, if they have one."""
        if self._rules.jack_five and card.rank in (5, 11) and self._stacks[seat] > 0:
            self._stacks[seat] -= 1
            self._pot += 1
            self._log("jack_five", seat=seat, card=card)

    def _advance(self) -> None:
        """Move the turn pointer past seats to skip (P4); end the deal if nobody is left (P7)."""
        n = self._rules.players
        seat = self._pointer
        assert seat is not None
        for _ in range(n):
            if seat != self._holder and self._piles[seat]:
                self._pointer = seat
                return
            seat = (seat + 1) % n
        self._finish()

    def _finish(self) -> None:
        """P7-P9 and hoyle1847 (b), (c): settle the pot."""
        self._pointer = None
        self._over = True
        holder = self._holder
        if self._rules.hoyle and self._piles[holder]:  # (b): turned up for the record
            cards = self._piles[holder]
            self._piles[holder] = []
            self._face_up[holder].extend(cards)
            self._log("holder_cards", seat=holder, cards=list(cards))
            for card in cards:
                if card.suit == self.trump and card.rank > self._best.rank:
                    self._best = card
        if self._rules.dead_hand:
            self._dead_cards, self._dead_pile = self._dead_pile, []
            top = max((c.rank for c in self._dead_cards if c.suit == self.trump), default=0)
            self._log("dead_pile", cards=list(self._dead_cards))
            if top > self._best.rank:
                self._end_rule = "P9"
        if self._rules.hoyle and not any(c.suit == self.trump for up in self._face_up for c in up):
            self._end_rule = "hoyle1847(c)"
        if self._end_rule is None:
            self._end_rule = "P8"
            self._winner = holder
            self._log("win", seat=holder, pot=self._pot, card=self._best)
            self._stacks[holder] += self._pot
            self._pot = 0
        else:
            self._log("carry_over", pot=self._pot, rule=self._end_rule)


# --------------------------------------------------------------------- helpers
def _deck_index(card: Card) -> int:
    return "SHDC".index(card.suit.value) * 13 + card.rank - 2


def _check_seat_number(rules: Rules, seat: Any, what: str) -> None:
    if not _whole(seat) or not 0 <= seat < rules.players:
        raise ValueError(f"S1: the {what} is a seat from 0 to {rules.players - 1}, not {seat!r}")


def _check_stacks(rules: Rules, dealer: int, stacks: Sequence[int] | None, pot: int) -> list[int]:
    if not _whole(pot) or pot < 0:
        raise ValueError(f"a carried-over pot is a whole number of chips, at least 0, not {pot!r}")
    if stacks is None:
        return [rules.start_chips] * rules.players
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence) or len(stacks) != rules.players:
        raise ValueError(f"give one stack for each of the {rules.players} seats")
    out = [_plain(chips) for chips in stacks]
    for seat, (chips, ante) in enumerate(zip(out, rules.antes(dealer))):
        if not _whole(chips):
            raise ValueError(f"seat {seat}'s stack is a whole number of chips, not {chips!r}")
        if chips < ante:
            raise ValueError(f"S2: seat {seat} has {chips} chips and cannot ante {ante}")
    return out


def _expect_keys(data: Any, keys: set[str], what: str) -> None:
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object")
    if set(data) != keys:
        missing, extra = keys - set(data), set(data) - keys
        parts = []
        if missing:
            parts.append(f"missing {sorted(missing)}")
        if extra:
            parts.append(f"unexpected {sorted(map(str, extra))}")
        raise ValueError(f"{what} has the wrong fields: {'; '.join(parts)}")


def _load_json(text: Any, what: str) -> Any:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"a {what} is UTF-8 JSON text") from None
    if not isinstance(text, str):
        raise ValueError(f"a {what} is JSON text, not {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise ValueError(f"this {what} is too large ({len(text)} characters)")

    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not allowed")

    try:
        return json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise ValueError(f"this {what} is nested too deeply") from None
    except ValueError as error:
        raise ValueError(f"not a valid {what}: {error}") from None
