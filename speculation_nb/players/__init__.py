"""Computer players: decisions from public information and the exact odds.

Where things live:

* :mod:`~speculation_nb.players.protocol`: what a computer player is (:class:`Strategy`,
  :class:`Trader`, :class:`Trade`);
* :mod:`~speculation_nb.players.temperaments`: players who value the best trump at a multiple of
  its break-even price (:data:`CAUTIOUS`, :data:`FAIR`, :data:`BOLD`, :data:`SPIRITED`,
  :class:`Shrewd`) and :class:`RandomPlayer`;
* :mod:`~speculation_nb.players.characters`: :class:`Undecided`, :class:`Fond`, :class:`PileBuyer`
  and the table of *Mansfield Park* (:func:`mansfield_park`);
* :mod:`~speculation_nb.players.lineups`: strategies by name, a strategy for every computer seat;
* :mod:`~speculation_nb.players.loop`: the one play loop, :func:`next_move` (one action at a
  time, with its reason), and :func:`play` built on it;
* :mod:`~speculation_nb.players.reasons`: why a move is made, as catalog keys.

Strategies read only what every player sees: the cards face up, the stacks, the pot, the bids,
and the exact prices of :mod:`speculation_nb.odds` (which look at face-up cards only). They never
look at a face-down card. Where a strategy is random it is seeded, and its choices are a pure
function of the seed and the deal as it stands, so the same deal gives the same play.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .. import odds
from .characters import Cast, Fond, PileBuyer, Undecided, mansfield_park
from .lineups import STRATEGY_NAMES, strategy, table_strategies
from .loop import (
    SEAT_PARAMS,
    Move,
    Observer,
    bidders,
    computer_bids,
    computer_decision,
    holder_decision,
    next_move,
    play,
    play_deal,
    waits_for,
)
from .protocol import Strategy, StrategyError, Trade, Trader, trade_offers
from .temperaments import (
    BOLD,
    CAUTIOUS,
    FAIR,
    SHREWD,
    SPIRITED,
    TEMPERAMENTS,
    RandomPlayer,
    Shrewd,
    Temperament,
    trading,
)

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "BOLD",
    "CAUTIOUS",
    "FAIR",
    "SEAT_PARAMS",
    "SHREWD",
    "SPIRITED",
    "STRATEGY_NAMES",
    "TEMPERAMENTS",
    "Cast",
    "Fond",
    "Move",
    "Observer",
    "PileBuyer",
    "RandomPlayer",
    "Shrewd",
    "Strategy",
    "StrategyError",
    "Temperament",
    "Trade",
    "Trader",
    "Undecided",
    "bidders",
    "break_even",
    "computer_bids",
    "computer_decision",
    "expected_net",
    "expected_nets",
    "holder_decision",
    "mansfield_park",
    "next_move",
    "play",
    "play_deal",
    "seller_break_even",
    "strategy",
    "table_strategies",
    "trade_gain",
    "trade_offers",
    "trading",
    "waits_for",
]

# The prices live in odds; these names stay here for the lessons and tests that import them.
break_even = odds.break_even
seller_break_even = odds.seller_break_even
expected_net = odds.expected_net
expected_nets = odds.expected_nets


def trade_gain(game: Game, seat: int, trade: Trade) -> Fraction:
    """``odds.trade_gain`` for a :class:`Trade`: what it is worth to ``seat``, exactly."""
    return odds.trade_gain(game, seat, trade.buyer, trade.seller, trade.count, trade.price)
