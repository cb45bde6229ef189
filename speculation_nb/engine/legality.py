"""What the rules allow and what they refuse: every action of a deal checked before it is taken.

Each function looks at the deal as it stands (its public facts, passed in) and one proposed
action, and raises :class:`~speculation_nb.engine.errors.IllegalAction` naming the rule (``"P4"``),
the case (``key``) and its numbers (``params``) if the rules forbid it; it changes nothing.
:class:`~speculation_nb.engine.game.Game` calls them first and only then acts, so a refused action
leaves the game exactly as it was. The English messages are the API's (``str(error)``); the
app words the refusals from ``key`` and ``params`` (catalog keys ``error.<key>``).

The other side of the same rules is :class:`LegalActions` (``Game.legal_actions()``): every
action the rules allow at a moment, by seat. It is read, never rebuilt, by whoever must know
who may act: the computer players' loop, the shared table's published moment ("who is due")
and the students' buttons. For every action ``a``, ``legal.allows(a)`` is True exactly when
the game accepts ``a`` (the property tests check it on random rules and random play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action
from .checks import MAX_STACK, is_whole, plain, quote
from .errors import IllegalAction
from .settings import Rules

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "LegalActions",
    "bid_span",
    "check_bid",
    "check_live",
    "check_reveal",
    "check_sale",
    "check_seat",
    "check_trade",
    "legal_actions",
]


def _shown(value: int) -> int | str:
    """A whole number for a message: as it is, or described when too long to print."""
    return value if -MAX_STACK <= value <= MAX_STACK else quote(value)


def check_live(over: bool, end_rule: str | None) -> None:
    """No action once the deal is over (S5, P7)."""
    if over:
        rule = "S5" if end_rule == "S5" else "P7"
        raise IllegalAction(rule, "deal_over", "the deal is over")


def check_seat(rules: Rules, seat: Any, role: str) -> None:
    """``seat`` must be a seat of the table (S1)."""
    if not is_whole(seat) or not 0 <= seat < rules.players:
        raise IllegalAction(
            "S1",
            "bad_seat",
            f"{role} {quote(seat)} is not a seat: seats are 0 to {rules.players - 1}",
            seat=quote(seat),
            players=rules.players,
        )


def check_reveal(rules: Rules, due: int, seat: Any, holder: int, face_down: Sequence[int]) -> None:
    """P3, P4: only the seat due turns up a card (``seat`` None: whoever is due)."""
    if seat is None:
        return
    check_seat(rules, seat, "seat")
    if seat == due:
        return
    if seat == holder:
        raise IllegalAction(
            "P4", "holder_skipped", f"seat {seat} holds the best trump and does not reveal", seat=seat, due=due
        )
    if not face_down[seat]:
        raise IllegalAction("P4", "no_cards_left", f"seat {seat} has no face-down card left", seat=seat, due=due)
    raise IllegalAction(
        "P3", "not_your_turn", f"it is seat {due}'s turn to reveal, not seat {seat}'s", seat=seat, due=due
    )


def check_bid(
    rules: Rules, holder: int, auction: Mapping[int, int], stacks: Sequence[int], seat: Any, amount: Any
) -> None:
    """P2, V4: a new or raised bid by ``seat`` (``amount`` 0 withdraws its standing bid)."""
    check_seat(rules, seat, "seat")
    if seat == holder:
        raise IllegalAction("P2", "holder_bids", f"seat {seat} holds the card and cannot bid on it", seat=seat)
    if not is_whole(amount):
        raise IllegalAction(
            "P2",
            "bid_not_whole",
            f"a bid is a whole number of chips, not {quote(amount)}",
            seat=seat,
            amount=quote(amount),
        )
    standing = auction.get(seat)
    shown = _shown(amount)
    if amount == 0:
        if standing is None:
            raise IllegalAction("P2", "nothing_to_withdraw", f"seat {seat} has no standing bid to withdraw", seat=seat)
    elif amount < 0:
        raise IllegalAction("P2", "bid_below_one", f"a bid is at least 1 chip, not {shown}", seat=seat, amount=shown)
    elif amount > stacks[seat]:
        raise IllegalAction(
            "P2",
            "bid_above_stack",
            f"seat {seat} has {stacks[seat]} chips and cannot bid {shown}",
            seat=seat,
            amount=shown,
            stack=stacks[seat],
        )
    elif rules.price_cap is not None and amount > rules.price_cap:
        raise IllegalAction(
            "V4",
            "bid_above_cap",
            f"no bid may exceed the price cap of {rules.price_cap} chips",
            seat=seat,
            amount=shown,
            cap=rules.price_cap,
        )
    elif standing is not None and amount <= standing:
        raise IllegalAction(
            "P2",
            "bid_not_higher",
            f"seat {seat} already bids {standing}; a new bid must be higher",
            seat=seat,
            amount=shown,
            standing=standing,
        )


def check_sale(
    rules: Rules, auction: Mapping[int, int], best: int | None, best_only: bool, first: bool, seat: Any
) -> None:
    """P2: the holder sells to a seat with a standing bid; P1 (``first``: the turn-up auction) and
    hoyle1847 (d): the best offer only (``best_only``)."""
    check_seat(rules, seat, "seat")
    if seat not in auction:
        raise IllegalAction("P2", "no_bid_to_accept", f"seat {seat} has no standing bid to accept", seat=seat)
    if best_only and best is not None and seat != best:
        raise IllegalAction(
            "P1" if first else "hoyle1847(d)",
            "best_offer_only",
            f"only the best offer may be accepted: seat {best}'s {auction[best]} chips",
            seat=seat,
            best=best,
            amount=auction[best],
        )


def check_trade(
    rules: Rules, auction_open: bool, face_down: Sequence[int], stacks: Sequence[int], trade: Sequence[Any]
) -> None:
    """V3: ``buyer`` pays ``price`` (1 chip at least, at most its stack) for the top ``count``
    face-down cards of ``seller`` (1 to all of them), never while an auction is open (P2)."""
    buyer, seller, count, price = trade
    if not rules.blind_trading:
        raise IllegalAction("V3", "trading_off", "blind trading is not played at this table")
    if auction_open:
        raise IllegalAction("P2", "trade_in_auction", "no blind trade while an auction is open")
    check_seat(rules, buyer, "buyer")
    check_seat(rules, seller, "seller")
    if buyer == seller:
        raise IllegalAction("V3", "trade_with_self", f"seat {buyer} cannot trade with itself", seat=buyer)
    have = face_down[seller]
    if not is_whole(count) or not 1 <= count <= have:
        raise IllegalAction(
            "V3",
            "trade_bad_count",
            f"seat {seller} has {have} face-down cards; cannot sell {quote(count)}",
            seller=seller,
            count=quote(count),
            have=have,
        )
    if not is_whole(price) or price < 1:
        raise IllegalAction(
            "V3",
            "trade_bad_price",
            f"a blind trade costs a whole number of chips, at least 1, not {quote(price)}",
            price=quote(price),
        )
    if price > stacks[buyer]:
        raise IllegalAction(
            "V3",
            "trade_above_stack",
            f"seat {buyer} has {stacks[buyer]} chips and cannot pay {quote(price)}",
            buyer=buyer,
            price=_shown(price),
            stack=stacks[buyer],
        )


# ------------------------------------------------------------------ what the rules allow
def bid_span(
    rules: Rules, holder: int, auction: Mapping[int, int], stacks: Sequence[int], seat: int
) -> tuple[int, int] | None:
    """P2, V4: the lowest and highest new bid ``seat`` may make in the open ``auction``, or None
    (the holder, or no whole number fits: above its standing bid, at most its stack and the cap)."""
    if seat == holder:
        return None
    low = auction.get(seat, 0) + 1
    high = stacks[seat] if rules.price_cap is None else min(stacks[seat], rules.price_cap)
    return (low, high) if low <= high else None


@dataclass(frozen=True)
class LegalActions:
    """Every action the rules allow at one moment of a deal (``Game.legal_actions()``).

    Each field names who may act and how (rule numbers of RULES.md):

    * ``reveal``: the seat due to turn up its top card (P3, P4), or None (an auction is open,
      or the deal is over);
    * ``open_auction``: the holder, who may put the best trump up for sale (P2), or None;
    * ``bid``: ``{seat: (lowest, highest)}``, the new bids each seat may make in the open
      auction (P2, V4); every whole number between the two is allowed;
    * ``withdraw``: the seats with a standing bid, which they may withdraw (a bid of 0, P2);
    * ``accept``: the bidders whose standing bid the holder may accept (P2; P1 and hoyle1847 (d):
      the best offer only);
    * ``decline``: the holder while an auction is open (P2), or None;
    * ``trade``: V3, ``{(buyer, seller): (most cards, most chips)}``: the buyer may pay the
      seller 1 to "most chips" for its top 1 to "most cards" face-down cards.

    The holder acts for ``open_auction``, ``accept`` and ``decline`` (those actions name no
    seat of their own; ``accept``'s seat is the buyer's). :meth:`allows` says whether one
    :class:`~.actions.Action` is allowed; :meth:`of` keeps what one seat may do; :attr:`seats`
    are the seats that may act now.

    >>> from speculation_nb import Game, Rules
    >>> game = Game.deal(Rules(players=3), seed=1)
    >>> legal = game.legal_actions()
    >>> legal.reveal == game.turn, legal.open_auction == game.holder, legal.bid
    (True, True, {})
    """

    reveal: int | None = None
    open_auction: int | None = None
    bid: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    withdraw: tuple[int, ...] = ()
    accept: tuple[int, ...] = ()
    decline: int | None = None
    trade: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    #: The seat that holds the best trump (it acts for open_auction, accept and decline).
    holder: int | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats that may do something now, in seat order ("who is due")."""
        who = set(self.bid) | set(self.withdraw) | {s for pair in self.trade for s in pair}
        if self.reveal is not None:
            who.add(self.reveal)
        holder_acts = self.open_auction is not None or self.accept or self.decline is not None
        if holder_acts and self.holder is not None:
            who.add(self.holder)
        return tuple(sorted(who))

    def of(self, seat: int) -> LegalActions:
        """Only what ``seat`` may do now (the holder's choices, its bids, its trades)."""
        holds = seat == self.holder
        return LegalActions(
            reveal=self.reveal if self.reveal == seat else None,
            open_auction=self.open_auction if holds else None,
            bid={s: r for s, r in self.bid.items() if s == seat},
            withdraw=tuple(s for s in self.withdraw if s == seat),
            accept=self.accept if holds else (),
            decline=self.decline if holds else None,
            trade={pair: most for pair, most in self.trade.items() if seat in pair},
            holder=self.holder,
        )

    def allows(self, action: Action) -> bool:
        """True exactly when the game would take ``action`` now (whatever its numbers' types)."""
        args = {name: plain(value) for name, value in action.args}
        if action.kind == "reveal" and args["seat"] is None:  # whoever is due (``game.reveal()``)
            return self.reveal is not None
        if any(not is_whole(value) for value in args.values()):
            return False
        kind = action.kind
        if kind == "reveal":
            return self.reveal is not None and args["seat"] == self.reveal
        if kind == "open_auction":
            return self.open_auction is not None
        if kind == "decline":
            return self.decline is not None
        if kind == "accept":
            return args["seat"] in self.accept
        if kind == "bid":
            seat, amount = args["seat"], args["amount"]
            if amount == 0:
                return seat in self.withdraw
            span = self.bid.get(seat)
            return span is not None and span[0] <= amount <= span[1]
        if kind == "blind_trade":
            most = self.trade.get((args["buyer"], args["seller"]))
            return most is not None and 1 <= args["count"] <= most[0] and 1 <= args["price"] <= most[1]
        return False

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self.allows(action)


def legal_actions(game: Game) -> LegalActions:
    """The :class:`LegalActions` of ``game`` as it stands, read from its public facts."""
    holder = game.holder
    if game.over:
        return LegalActions(holder=holder)
    auction = game.auction
    stacks = game.stacks
    if auction is not None:
        spans = {s: r for s in range(game.rules.players) if (r := bid_span(game.rules, holder, auction, stacks, s))}
        return LegalActions(
            bid=spans, withdraw=tuple(auction), accept=tuple(game.acceptable()), decline=holder, holder=holder
        )
    trades: dict[tuple[int, int], tuple[int, int]] = {}
    if game.rules.blind_trading:
        down = game.face_down
        buyers = [(b, chips) for b, chips in enumerate(stacks) if chips]
        sellers = [(s, cards) for s, cards in enumerate(down) if cards]
        trades = {(b, s): (cards, chips) for b, chips in buyers for s, cards in sellers if b != s}
    return LegalActions(reveal=game.turn, open_auction=holder, trade=trades, holder=holder)
