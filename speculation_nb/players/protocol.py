"""What a computer player is: the :class:`Strategy` protocol, blind trades and their offers.

A computer player answers questions about a deal and never changes it:

* :meth:`~Strategy.wants_auction`: as the holder, put the best trump up for sale now?
* :meth:`~Strategy.bid`: as a bidder in an open auction, which new bid to make (or none)?
* :meth:`~Strategy.choose_sale`: as the holder, which standing bid to accept (or decline)?
* :meth:`~Strategy.accepts_trade`: with blind trading (V3), agree to this trade?

and, if it is also a :class:`Trader`, which blind trades it proposes. Its answers are a
pure function of what every player sees (and of its seed, if it is random): the play
loop (:mod:`speculation_nb.players.loop`) relies on that to step one action at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["Strategy", "StrategyError", "Trade", "Trader", "trade_offers"]


class Trade(NamedTuple):
    """A blind trade (V3): ``buyer`` pays ``price`` chips for the top ``count`` cards of ``seller``."""

    buyer: int
    seller: int
    count: int  # type: ignore[assignment]  # the field hides tuple.count, as it always has
    price: int


@runtime_checkable
class Strategy(Protocol):
    """What a computer player decides. Every method reads ``game`` and never changes it."""

    @property
    def name(self) -> str:
        """The strategy's name ("fair", "shrewd"...), for tables and plots."""
        ...

    def wants_auction(self, game: Game, seat: int) -> bool:
        """``seat`` holds the best trump and no auction is open: open one now?"""
        ...

    def bid(self, game: Game, seat: int) -> int | None:
        """An auction is open and ``seat`` may bid: the new bid (within ``game.bid_range(seat)``), or None."""
        ...

    def choose_sale(self, game: Game, seat: int) -> int | None:
        """``seat`` holds and its auction is open: the bidder to sell to (one of ``game.acceptable()``),
        or None to decline."""
        ...

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        """V3: does ``seat`` (the buyer or the seller) agree to this blind trade?"""
        ...


@runtime_checkable
class Trader(Protocol):
    """A strategy that also proposes blind trades (V3). Every strategy of this package is one;
    a :class:`Strategy` without ``trade_offers`` simply never proposes any."""

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        """The trades ``seat`` proposes now, best first (it is a party to each); [] for none.
        Each goes to the other party's ``accepts_trade``; the first one agreed is made."""
        ...


class StrategyError(RuntimeError):
    """Strict play (``play(..., strict=True)``): a strategy chose something the rules do not allow."""


def trade_offers(player: object, game: Game, seat: int) -> list[Trade]:
    """The blind trades ``player`` (the strategy of ``seat``) proposes now; [] if it proposes none
    (or is a plain :class:`Strategy` without ``trade_offers``, or there is no trading now)."""
    if not game.can_blind_trade():
        return []
    if not isinstance(player, Trader):
        return []
    return list(player.trade_offers(game, seat))
