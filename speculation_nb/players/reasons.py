"""Why a computer player does what it does: a catalog key and its numbers for every move.

Each function returns ``(key, params)``: ``key`` a message of the catalogs (``engine.po``:
``"reason.bid"``, ``"reason.bid.above.bold"``...), ``params`` its placeholders, seats as ints
under ``seat``, ``buyer``, ``holder`` or ``seller``, chips as ints, chances as exact Fractions
(``hold``: O1), prices as the whole chips every screen shows them (``worth``: the buyer's or the
seller's break-even price, O4, by :func:`speculation_nb.odds.shown_chips`; ``asking``: the least
whole bid the holder takes), so that a reason never names a price the auction table shows
otherwise and "above" or "below" compares the numbers the reader sees. The views word them
(:meth:`speculation_nb.languages.translator.Translator.reason`). A bid above the bidder's
break-even, or a sale below the holder's, is explained by the temperament that makes it (bold,
spirited, cautious, fond); a strategy this package does not know gets the plain words.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Any

from .. import odds
from .characters import Fond, PileBuyer, Undecided
from .protocol import Trade
from .temperaments import RandomPlayer, Shrewd, Temperament

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["Reason", "bid_reason", "open_reason", "sale_reason", "trade_reason"]

Reason = tuple[str, Mapping[str, Any]]

# The words of a temperament whose price is above the break-even (as a bidder) or below it (as a seller).
_ABOVE = {"bold": "reason.bid.above.bold", "spirited": "reason.bid.above.spirited"}
_BELOW = {"cautious": "reason.accept.below.cautious"}


def _deciding(player: object) -> object:
    """The strategy whose judgement makes the auction choices of ``player``."""
    while True:
        if isinstance(player, Undecided):
            player = player.advisor
        elif isinstance(player, PileBuyer):
            player = player.base
        else:
            return player


def open_reason(player: object, game: Game, holder: int) -> Reason:
    """Why ``holder`` asks for bids on the best trump."""
    judge = _deciding(player.base if isinstance(player, Fond) else player)
    if isinstance(judge, RandomPlayer):
        return "reason.open.random", {"holder": holder}
    hold = odds.hold_probability(game)
    if hold < Fraction(1, 2):
        return "reason.open.likely_beaten", {"holder": holder, "hold": hold}
    return "reason.open", {"holder": holder, "hold": hold}


def bid_reason(player: object, game: Game, seat: int, amount: int) -> Reason:
    """Why ``seat`` bids ``amount``: the card's worth to it (O4) and, above that, its temperament."""
    judge = _deciding(player.base if isinstance(player, Fond) else player)
    if isinstance(judge, RandomPlayer):
        return "reason.bid.random", {"seat": seat, "amount": amount}
    worth = odds.shown_chips(odds.break_even(game, seat))
    params: dict[str, Any] = {"seat": seat, "amount": amount, "worth": worth}
    if amount > worth:
        if isinstance(judge, Temperament):
            key = _ABOVE.get(judge.name)
            if key is None:
                return "reason.bid.above.appetite", {**params, "appetite": judge.appetite}
            return key, params
        return "reason.bid.above", params
    if isinstance(judge, Shrewd):
        return "reason.bid.shrewd", params
    return "reason.bid", params


def sale_reason(player: object, game: Game, holder: int, buyer: int | None) -> Reason:
    """Why the holder sells to ``buyer`` at its standing bid, or keeps the card (``buyer`` None)."""
    auction = game.auction or {}
    if isinstance(player, Fond) and buyer is not None and buyer == player.favourite and player.spares(game, holder):
        worth = odds.shown_chips(odds.seller_break_even(game, buyer))
        params = {"holder": holder, "buyer": buyer, "price": auction[buyer], "worth": worth}
        return ("reason.accept.fond" if auction[buyer] < worth else "reason.accept"), params
    judge = _deciding(player.base if isinstance(player, Fond) else player)
    if isinstance(judge, RandomPlayer):
        if buyer is None:
            return "reason.decline.random", {"holder": holder}
        return "reason.accept.random", {"holder": holder, "buyer": buyer, "price": auction[buyer]}
    if buyer is None:
        best = game.best_offer
        if best is None:
            return "reason.decline.none", {"holder": holder}
        if isinstance(judge, Temperament):
            asking = ceil(judge.asking(game, holder, best))  # the least whole bid it takes
            return "reason.decline", {"holder": holder, "buyer": best, "price": auction[best], "asking": asking}
        return "reason.decline.plain", {"holder": holder}
    worth = odds.shown_chips(odds.seller_break_even(game, buyer))
    price = auction[buyer]
    params = {"holder": holder, "buyer": buyer, "price": price, "worth": worth}
    if price < worth:
        if isinstance(judge, Temperament):
            key = _BELOW.get(judge.name)
            if key is None:
                return "reason.accept.below.appetite", {**params, "appetite": judge.appetite}
            return key, params
        return "reason.accept.below", params
    return "reason.accept", params


def trade_reason(player: object, game: Game, seat: int, trade: Trade) -> Reason:
    """Why ``seat`` proposes ``trade`` (V3): what it gains by it, exactly (``odds.trade_gain``)."""
    params: dict[str, Any] = {
        "buyer": trade.buyer,
        "seller": trade.seller,
        "count": trade.count,
        "price": trade.price,
    }
    one = trade.count == 1
    if isinstance(_deciding(player), RandomPlayer) and not isinstance(player, PileBuyer):
        return ("reason.trade.random.one" if one else "reason.trade.random.other"), params
    gain = odds.trade_gain(game, seat, trade.buyer, trade.seller, trade.count, trade.price)
    return ("reason.trade.one" if one else "reason.trade.other"), {**params, "gain": gain}
