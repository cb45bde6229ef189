"""The accounts of a tournament's evening: what each seat paid, received and was dealt, deal by deal.

:class:`Accounts` watches the deals of one evening (it is an observer for
:func:`speculation_nb.players.play`) and adds up, for every seat, the columns counted deal by
deal and, with ``exact=True``, the exact expected chips of :mod:`speculation_nb.odds` that
split the net result: ``net = baseline + edge + luck`` (see :mod:`speculation_nb.players.tournament`).
"""

from __future__ import annotations

from typing import Any

from ..engine.game import Game
from ..odds import expected_nets

__all__ = ["COLUMNS", "COUNTED", "WORTH", "Accounts"]

#: The columns counted deal by deal (whole numbers), in their order among :data:`COLUMNS`.
COUNTED = (
    "deals",  # deals played this evening
    "dealt",  # deals this seat dealt
    "deals_won",  # pots taken
    "pots_won",  # chips taken from pots
    "antes",  # chips paid in antes
    "jack_five",  # chips paid for Jacks and Fives (V1)
    "opened",  # auctions opened as the holder
    "bought",  # best trumps bought in auctions
    "paid",  # chips paid for them
    "sold",  # best trumps sold
    "received",  # chips received for them
    "trades_bought",  # blind trades (V3) as the buyer
    "cards_bought",
    "trade_paid",
    "trades_sold",  # blind trades as the seller
    "cards_sold",
    "trade_received",
)
#: The exact expected chips the accounts add up (floats; NaN with ``accounting=False``).
WORTH = (
    "worth_bought",  # what the best trumps bought were worth to the seat when bought
    "worth_sold",  # what the seat gave up by selling
    "baseline",  # see the module docstring: net = baseline + edge + luck
    "edge",
)
#: The columns of a row, in order (one row per seat per evening).
COLUMNS = (
    "evening",  # 0, 1, ...
    "seat",
    "name",
    "strategy",  # the strategy's name
    "start",  # chips at the start of the evening
    "final",  # chips at the end (a pot left on the table shared, G3)
    "net",  # final - start
    "place",  # 1 = the largest stack (equal stacks share a place)
    "won",  # True if the seat ended with the largest stack (shared or not)
    *COUNTED[:9],
    "worth_bought",
    *COUNTED[9:11],
    "worth_sold",
    *COUNTED[11:],
    "shared",  # chips of a pot left on the table at the end (G3)
    "baseline",
    "edge",
    "luck",
)


class Accounts:
    """Watches the deals of one evening (an observer for :func:`play`)."""

    def __init__(self, n: int, exact: bool) -> None:
        self.n = n
        self.exact = exact
        self.t: list[dict[str, Any]] = [dict.fromkeys(COUNTED, 0) | dict.fromkeys(WORTH, 0.0) for _ in range(n)]

    # -- the observer protocol of players.play
    def _values(self, game: Game) -> list[float]:
        """Every seat's exact expected net now (O4), as floats: the accounts only report them."""
        if game.over:
            return [0.0] * self.n  # the pot just taken shows up as cash in after()
        return expected_nets(game)

    def before(self, game: Game) -> Any:
        return self._values(game) if self.exact else None

    def after(self, game: Game, kind: str, info: dict[str, int], state: Any) -> None:
        if not self.exact:
            return
        before = state
        after = self._values(game)
        buyer, seller, price = info["buyer"], info["seller"], info["price"]
        cash = [0.0] * self.n
        cash[buyer] -= price
        cash[seller] += price
        if game.over:  # the action ended the deal (P7): the pot is taken now (or carried over, P9)
            for event in reversed(game.events):
                if event.kind == "win":
                    cash[event["seat"]] += event["pot"]
                    break
                if event.kind in ("carry_over", "sale", "blind_trade"):
                    break
        for seat in range(self.n):
            self.t[seat]["edge"] += after[seat] - before[seat] + cash[seat]
        if kind == "sale":
            self.t[buyer]["worth_bought"] += after[buyer] - before[buyer] + cash[buyer] + price
            self.t[seller]["worth_sold"] += before[seller] - after[seller] - (cash[seller] - price)

    # -- deals
    def start(self, game: Game) -> None:
        t = self.t
        t[game.dealer]["dealt"] += 1
        if self.exact:
            start = self._values(game)
            for event in game.events:  # at the deal: antes, the turn-up's V1, an Ace turn-up's pot (S5)
                if event.kind == "win":
                    start[event["seat"]] += event["pot"]
            for seat in range(self.n):
                t[seat]["baseline"] += start[seat]

    def end(self, game: Game) -> None:
        t = self.t
        for seat in range(self.n):
            t[seat]["deals"] += 1
        for event in game.events:
            kind = event.kind
            if kind == "ante":
                for seat, ante in enumerate(event["antes"]):
                    t[seat]["antes"] += ante
                    if self.exact:
                        t[seat]["baseline"] -= ante
            elif kind == "jack_five":
                t[event["seat"]]["jack_five"] += 1
                if self.exact and event["step"] == 0:
                    t[event["seat"]]["baseline"] -= 1  # the dealer's turn-up: paid at the deal
            elif kind == "win":
                t[event["seat"]]["deals_won"] += 1
                t[event["seat"]]["pots_won"] += event["pot"]
            elif kind == "auction_open":
                t[event["seat"]]["opened"] += 1
            elif kind == "sale":
                buyer, seller, price = event["buyer"], event["seller"], event["price"]
                t[buyer]["bought"] += 1
                t[buyer]["paid"] += price
                t[seller]["sold"] += 1
                t[seller]["received"] += price
            elif kind == "blind_trade":
                buyer, seller, price, count = event["buyer"], event["seller"], event["price"], event["count"]
                t[buyer]["trades_bought"] += 1
                t[buyer]["cards_bought"] += count
                t[buyer]["trade_paid"] += price
                t[seller]["trades_sold"] += 1
                t[seller]["cards_sold"] += count
                t[seller]["trade_received"] += price
