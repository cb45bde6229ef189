"""One deal of Speculation: its initial deal plus the actions taken, by the rules of RULES.md.

A ``Game`` is built from an :class:`~.deal.InitialDeal` (``Game.deal`` shuffles one,
``Game.from_layout`` takes one as given) and changes only through its actions:
``reveal``, ``open_auction``, ``bid``, ``accept``, ``decline`` and
``blind_trade``. Everything else is read from it. Because a game is nothing
but its initial deal and its list of actions, ``at(k)`` replays the first ``k``
actions into a new game, and ``to_json`` / ``from_json`` save and load it.

An action the rules forbid raises :class:`IllegalAction` naming the rule and
changes nothing: every action checks everything first and only then acts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import deal as _deal
from . import legality, saving
from .actions import Action, Event
from .cards import Card, Suit
from .checks import is_whole, plain, quote
from .deal import InitialDeal
from .errors import IllegalAction
from .saving import GAME_FORMAT as FORMAT
from .saving import MAX_JSON_CHARS, VERSION
from .settings import Rules

__all__ = ["FORMAT", "MAX_JSON_CHARS", "VERSION", "Event", "Game"]


class Game(saving.SavedGame):
    """A deal of Speculation (see the module docstring and API.md); saved and loaded as
    :class:`~.saving.SavedGame` says."""

    # ------------------------------------------------------------ construction
    def __init__(self, rules: Rules, layout: InitialDeal, seed: int | None = None) -> None:
        """A deal from a checked :class:`~speculation_nb.engine.deal.InitialDeal` (``seed``: the shuffle that dealt
        it, if any); use :meth:`deal` or :meth:`from_layout`, which check their input. Antes are taken
        (S2), V1 is paid on the turn-up, S5 applies at once."""
        self._rules, self._layout, self._seed = rules, layout, seed
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
        """Shuffle (by ``seed``, 0 to 2**63 - 1) or take ``deck`` as it lies, top card first, and deal
        it (S3, S4; see :func:`speculation_nb.engine.deal.shuffled`). Without ``seed`` or ``deck`` a fresh
        seed is drawn; ``game.seed`` tells it. Stacks and pot: whole chips up to 10**10."""
        layout, seed = _deal.shuffled(rules, seed, dealer, deck, stacks, pot)
        return cls(rules, layout, seed)

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
        return cls(rules, _deal.laid_out(rules, piles, turn_up, dead, dealer, stacks, pot))

    @classmethod
    def compose(cls, moment: Any, seed: int | None = None) -> Game:
        """A deal at a public :class:`~.compose.Moment`, its unseen cards dealt from ``seed`` (or a secret
        one); an unreachable moment raises IllegalAction naming the rule (:func:`.compose.compose`)."""
        from .compose import compose

        return compose(moment, seed)

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
    def trump_turned_up(self) -> bool:
        """True once a trump has come up from a player's pile (the turn-up does not count): with
        hoyle1847 (c) a deal where none does carries its pot over."""
        trump = self.trump
        return any(c.suit == trump for up in self._face_up for c in up)

    @property
    def unseen(self) -> int:
        """How many cards are not face up (piles, dead pile and stock)."""
        return 52 - len(self.seen)

    def layout(self) -> dict[str, Any]:
        """The initial deal: piles (top first), turn-up, dead pile, stock, dealer, stacks, pot."""
        return self._layout.as_dict()

    @property
    def initial_layout(self) -> InitialDeal:
        """The initial deal as a frozen, hashable :class:`~speculation_nb.engine.deal.InitialDeal`."""
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
        seat = plain(seat)
        if self._over or self._auction is None or not is_whole(seat) or not 0 <= seat < self._rules.players:
            return None
        return legality.bid_span(self._rules, self._holder, self._auction, self._stacks, seat)

    def acceptable(self) -> list[int]:
        """The seats whose standing bid the holder may accept now (P1, hoyle1847 d)."""
        if self._over or not self._auction:
            return []
        if self._best_only:
            return [self.best_offer]  # type: ignore[list-item]
        return list(self._auction)

    def can_blind_trade(self) -> bool:
        return self._rules.blind_trading and not self._over and self._auction is None

    def legal_actions(self, seat: int | None = None) -> legality.LegalActions:
        """Every action the rules allow now, or only ``seat``'s (:class:`.legality.LegalActions`: who
        reveals, opens an auction, bids how much, withdraws, accepts, declines, trades). ``.allows(action)``
        is True exactly when this game takes ``action``; any other raises IllegalAction naming the rule."""
        legal = legality.legal_actions(self)
        return legal if seat is None else legal.of(plain(seat))

    # ----------------------------------------------------------------- actions
    def reveal(self, seat: int | None = None) -> Card:
        """The seat due turns up the top card of its pile (P3-P6); returns the card."""
        seat = plain(seat)
        legality.check_live(self._over, self._end_rule)
        if self._auction is not None:
            raise IllegalAction("P2", "reveal_in_auction", "no card is turned up while an auction is open")
        due = self._pointer
        assert due is not None
        if seat is not None:
            legality.check_reveal(self._rules, due, seat, self._holder, self.face_down)
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
        legality.check_live(self._over, self._end_rule)
        if self._auction is not None:
            raise IllegalAction("P2", "auction_already_open", "an auction is already open", holder=self._holder)
        self._history.append(Action.make("open_auction"))
        self._auction = {}
        self._best_only = self._reveals == 0 or self._rules.hoyle
        self._log("auction_open", seat=self._holder, card=self._best, turn_up_auction=self._reveals == 0)

    def bid(self, seat: int, amount: int) -> None:
        """A new or raised bid by ``seat``; ``amount`` 0 withdraws its standing bid (P2, V4)."""
        seat, amount = plain(seat), plain(amount)
        legality.check_live(self._over, self._end_rule)
        auction = self._require_auction()
        legality.check_bid(self._rules, self._holder, auction, self._stacks, seat, amount)
        self._history.append(Action.make("bid", seat=seat, amount=amount))
        auction.pop(seat, None)  # a raise counts from now for "the earliest"
        if amount:
            auction[seat] = amount
            self._log("bid", seat=seat, amount=amount)
        else:
            self._log("withdraw", seat=seat)

    def accept(self, seat: int) -> None:
        """The holder sells the best trump to ``seat`` at its standing bid (P2; P1 and hoyle1847 d:
        the best offer only)."""
        seat = plain(seat)
        legality.check_live(self._over, self._end_rule)
        auction = self._require_auction()
        legality.check_sale(self._rules, auction, self.best_offer, self._best_only, self._reveals == 0, seat)
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
        legality.check_live(self._over, self._end_rule)
        self._require_auction()
        self._history.append(Action.make("decline"))
        self._auction = None
        self._log("decline", seat=self._holder)

    def blind_trade(self, buyer: int, seller: int, count: int, price: int) -> None:
        """V3: ``buyer`` pays ``price`` for the top ``count`` face-down cards of ``seller``.

        The cards move unseen, in the same order, to the bottom of the buyer's
        pile; the turn pointer does not move (but skips as P4 says).
        """
        buyer, seller, count, price = plain(buyer), plain(seller), plain(count), plain(price)
        legality.check_live(self._over, self._end_rule)
        trade = (buyer, seller, count, price)
        legality.check_trade(self._rules, self._auction is not None, self.face_down, self._stacks, trade)
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
        k = plain(k)
        if not is_whole(k) or not 0 <= k <= len(self._history):
            raise ValueError(
                f"a deal with {len(self._history)} actions has moments 0 to {len(self._history)}, not {quote(k)}"
            )
        game = Game(self._rules, self._layout, self._seed)
        for action in self._history[:k]:
            game.apply(action)
        return game

    def copy(self) -> Game:
        return self.at(len(self._history))

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._pointer}"
        return (
            f"<Game {self._rules.players} players, dealer {self.dealer}, trump {self.trump.symbol}, "
            f"best {self._best} (seat {self._holder}), pot {self._pot}, {len(self._history)} actions, {state}>"
        )

    def _repr_html_(self) -> str:
        from ..rendering.cards import table_html

        return table_html(self)

    # ---------------------------------------------------------------- internals
    def _log(self, kind: str, **params: Any) -> None:
        self._events.append(Event(step=len(self._history), kind=kind, **params))

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
        if self._rules.hoyle and not self.trump_turned_up:
            self._end_rule = "hoyle1847(c)"
        if self._end_rule is None:
            self._end_rule = "P8"
            self._winner = holder
            self._log("win", seat=holder, pot=self._pot, card=self._best)
            self._stacks[holder] += self._pot
            self._pot = 0
        else:
            self._log("carry_over", pot=self._pot, rule=self._end_rule)
