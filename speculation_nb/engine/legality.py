"""What the rules refuse: every action of a deal checked before it is taken.

Each function looks at the deal as it stands (its public facts, passed in) and one proposed
action, and raises :class:`~speculation_nb.engine.errors.IllegalAction` naming the rule (``"P4"``),
the case (``key``) and its numbers (``params``) if the rules forbid it; it changes nothing.
:class:`~speculation_nb.engine.game.Game` calls them first and only then acts, so a refused action
leaves the game exactly as it was. The English messages are the API's (``str(error)``); the
app words the refusals from ``key`` and ``params`` (catalog keys ``error.<key>``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .checks import MAX_STACK, is_whole, quote
from .errors import IllegalAction
from .settings import Rules

__all__ = ["check_bid", "check_live", "check_reveal", "check_sale", "check_seat", "check_trade"]


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
