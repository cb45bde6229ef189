"""Tournaments: computer players at a table, evening after evening, seeded, with a table to plot.

>>> from speculation_nb.tournament import tournament
>>> result = tournament(["cautious", "fair", "bold"], evenings=20, seed=1)   # doctest: +SKIP
>>> result.summary()[0]["net_mean"]                                           # doctest: +SKIP

An *evening* is a :class:`~speculation_nb.Session` of ``deals`` deals (by default one
round of the deal: every seat deals once), played by :func:`speculation_nb.players.play`;
it ends early, as G3 says, when someone cannot ante. Each evening's shuffles come from
the tournament's ``seed``, and every strategy decides from the deal as it stands (random
ones from their own seed and the deal's), so the same call gives the same table. For N
single deals, ask for N evenings of ``deals=1`` (the first dealer moves round the table
from one evening to the next).

The result, :class:`Tournament`, has one row per seat per evening (a dict; see
:data:`COLUMNS`), and summaries with confidence intervals. Besides the chips, each row
splits the net result into three parts that add up exactly:

* ``baseline``: what the seat could expect from its deals as they were dealt, before
  anybody traded (the expected share of each pot at the deal, minus its antes);
* ``edge``: what its trades were worth, in expected chips, at the moment they were
  made: for every sale and blind trade, the change in the seat's exact expected net
  (its own and other people's trades move it) plus the chips it received or paid;
* ``luck``: the rest, the cards as they fell (and a pot shared at the end of the
  evening). Since the expected nets are exact, luck averages out to zero.

So ``net = baseline + edge + luck``. The exact numbers are those of
:mod:`speculation_nb.odds` (O4, "nobody trades again"), read once per moment.
``accounting=False`` skips the split (the chips columns stay), which saves about a
sixth of the time.

Speed: about a millisecond per deal on one core of a laptop (all exact, with the numbers
of :mod:`~speculation_nb.odds` read once per moment of a deal), so two thousand six-deal
evenings take some ten seconds.
"""

from __future__ import annotations

import gc
import html
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .checks import as_int, plain, quote
from .checks import seed as check_seed
from .game import Game
from .odds import expected_nets
from .players import Cast, Strategy, play, strategy
from .rules import Rules
from .session import Session

__all__ = ["COLUMNS", "Tournament", "play_evening", "tournament"]

#: The columns counted deal by deal (whole numbers), in their order among :data:`COLUMNS`.
_COUNTED = (
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
_WORTH = (
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
    *_COUNTED[:9],
    "worth_bought",
    *_COUNTED[9:11],
    "worth_sold",
    *_COUNTED[11:],
    "shared",  # chips of a pot left on the table at the end (G3)
    "baseline",
    "edge",
    "luck",
)
#: The confidence levels of the summaries and their z values (normal approximation).
_Z = {0.9: 1.6448536269514722, 0.95: 1.959963984540054, 0.99: 2.5758293035489004}


# --------------------------------------------------------------------------- accounting
class _Accounts:
    """Watches the deals of one evening (an observer for :func:`play`)."""

    def __init__(self, n: int, exact: bool) -> None:
        self.n = n
        self.exact = exact
        self.t: list[dict[str, Any]] = [dict.fromkeys(_COUNTED, 0) | dict.fromkeys(_WORTH, 0.0) for _ in range(n)]

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


# --------------------------------------------------------------------------- playing
def _resolve(players: Any, seed: int) -> tuple[list[Any], list[str] | None]:
    if isinstance(players, Cast):
        return list(players.strategies), list(players.names)
    if isinstance(players, Mapping):
        seats = sorted(players)
        if seats != list(range(len(seats))):
            raise ValueError("give a strategy for every seat 0, 1, ...")
        players = [players[s] for s in seats]
    out = []
    for seat, player in enumerate(players):
        if isinstance(player, str):
            player = strategy(player, seed=seed * 1000 + seat)
        if not isinstance(player, Strategy):
            raise ValueError(f"seat {seat}: {quote(player)} is not a strategy")
        out.append(player)
    return out, None


def _table(
    players: Any, rules: Rules | None, names: Sequence[str] | None, seed: int
) -> tuple[list[Any], Rules, list[str]]:
    """The strategies seat by seat, the rules (default: the cardrules for that many) and the names."""
    strategies, cast_names = _resolve(players, seed)
    n = len(strategies)
    rules = rules or Rules(players=n)
    if rules.players != n:
        raise ValueError(f"the rules are for {rules.players} players, but {n} strategies were given")
    return strategies, rules, list(names or cast_names or [f"Seat {i}" for i in range(n)])


def _evening_seed(seed: int, evening: int) -> int:
    return random.Random(f"speculation_nb.tournament:{seed}:{evening}").getrandbits(48)


def play_evening(
    players: Sequence[Any] | Mapping[int, Any] | Cast,
    rules: Rules | None = None,
    *,
    names: Sequence[str] | None = None,
    deals: int | None = None,
    seed: int = 0,
    dealer: int = 0,
    rounds: int = 100,
    accounting: bool = True,
    evening: int = 0,
) -> tuple[Session, list[dict[str, Any]]]:
    """One evening: a :class:`~speculation_nb.Session` of ``deals`` deals (default: one round of the
    deal) played by ``players`` (strategies or their names, seat by seat, or a :class:`~.players.Cast`).
    Returns the session (every deal in it, to replay or show) and its rows (see :data:`COLUMNS`)."""
    strategies, rules, names = _table(players, rules, names, seed)
    n = len(strategies)
    deals = n if deals is None else deals
    return _evening(strategies, rules, names, deals, seed, dealer, rounds, accounting, evening)


def _evening(
    strategies: list[Any],
    rules: Rules,
    names: list[str],
    deals: int,
    seed: int,
    dealer: int,
    rounds: int,
    accounting: bool,
    evening: int,
) -> tuple[Session, list[dict[str, Any]]]:
    n = len(strategies)
    session = Session(rules, names, deals=deals, seed=seed, dealer=dealer)
    table = dict(enumerate(strategies))
    accounts = _Accounts(n, accounting)
    while True:
        game = session.game
        accounts.start(game)
        play(game, table, rounds=rounds, observer=accounts)
        accounts.end(game)
        if session.next_deal() is None:
            break
    stacks = session.stacks
    shared = session.shared or [0] * n
    top = max(stacks)
    rows = []
    for seat in range(n):
        t = accounts.t[seat]
        net = stacks[seat] - rules.start_chips
        row: dict[str, Any] = {
            "evening": evening,
            "seat": seat,
            "name": session.names[seat],
            "strategy": strategies[seat].name,
            "start": rules.start_chips,
            "final": stacks[seat],
            "net": net,
            "place": 1 + sum(1 for other in stacks if other > stacks[seat]),
            "won": stacks[seat] == top,
        }
        for key in _COUNTED:
            row[key] = t[key]
        row["shared"] = shared[seat]
        for key in _WORTH:
            row[key] = float(t[key]) if accounting else math.nan
        row["luck"] = net - t["baseline"] - t["edge"] if accounting else math.nan
        rows.append({key: row[key] for key in COLUMNS})
    return session, rows


def tournament(
    players: Sequence[Any] | Mapping[int, Any] | Cast,
    *,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    evenings: int = 100,
    deals: int | None = None,
    seed: int = 0,
    rotate_dealer: bool = True,
    rounds: int = 100,
    accounting: bool = True,
) -> Tournament:
    """Play ``evenings`` evenings of ``deals`` deals (default: one round of the deal) between
    ``players`` at fixed seats: strategies or names of :func:`~speculation_nb.players.strategy`
    (``"random"`` seats are seeded from ``seed`` and the seat), seat by seat, or a
    :class:`~speculation_nb.players.Cast`. ``rules`` default to the cardrules for that many
    players. Evening ``e`` is shuffled from ``seed`` and ``e``; its first dealer is seat
    ``e mod players`` (``rotate_dealer=False``: always seat 0). Reproducible: the same
    arguments give the same rows. Returns a :class:`Tournament`."""
    evenings = as_int(plain(evenings), "evenings", 1, 10**9)
    seed = check_seed(plain(seed))
    strategies, rules, names = _table(players, rules, names, seed)
    n = len(strategies)
    per_evening = n if deals is None else deals
    rows: list[dict[str, Any]] = []
    # The deals make many small objects and no reference cycles: the cyclic garbage collector
    # only slows them down (by a fifth in a notebook full of widgets), so it rests meanwhile.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for e in range(evenings):
            _, evening_rows = _evening(
                strategies,
                rules,
                names,
                per_evening,
                _evening_seed(seed, e),
                e % n if rotate_dealer else 0,
                rounds,
                accounting,
                e,
            )
            rows.extend(evening_rows)
    finally:
        if collecting:
            gc.enable()
    return Tournament(
        rules=rules,
        names=tuple(names),
        strategies=tuple(s.name for s in strategies),
        evenings=evenings,
        deals=n if deals is None else deals,
        seed=seed,
        rows=rows,
    )


# --------------------------------------------------------------------------- the result


@dataclass
class Tournament:
    """The rows of a tournament (one per seat per evening, :data:`COLUMNS`) and their summaries."""

    rules: Rules
    names: tuple[str, ...]
    strategies: tuple[str, ...]
    evenings: int
    deals: int
    seed: int
    rows: list[dict[str, Any]] = field(repr=False)

    @property
    def players(self) -> int:
        return len(self.names)

    def first(self, evenings: int) -> Tournament:
        """The same tournament cut to its first ``evenings`` evenings: evening ``e`` depends only on the
        seed and ``e``, so this is exactly what a tournament of that many evenings would give."""
        if isinstance(evenings, bool) or not isinstance(evenings, int) or not 1 <= evenings <= self.evenings:
            raise ValueError(f"choose 1 to {self.evenings} evenings, not {quote(evenings)}")
        return Tournament(
            rules=self.rules,
            names=self.names,
            strategies=self.strategies,
            evenings=evenings,
            deals=self.deals,
            seed=self.seed,
            rows=[r for r in self.rows if r["evening"] < evenings],
        )

    def column(self, key: str, seat: int | None = None) -> list[Any]:
        """Every value of column ``key`` (of one seat, if given), evening by evening."""
        if key not in COLUMNS:
            raise KeyError(f"no column {key!r}; the columns are {', '.join(COLUMNS)}")
        return [row[key] for row in self.rows if seat is None or row["seat"] == seat]

    def mean(self, key: str, seat: int) -> float:
        values = [float(v) for v in self.column(key, seat)]
        return sum(values) / len(values)

    def interval(self, key: str, seat: int, level: float = 0.95) -> tuple[float, float]:
        """A confidence interval for the mean of ``key`` at ``seat`` (normal approximation:
        mean plus or minus z standard errors; ``level`` 0.9, 0.95 or 0.99)."""
        values = [float(v) for v in self.column(key, seat)]
        mean, se = _mean_se(values)
        z = _Z[level]
        return mean - z * se, mean + z * se

    def summary(
        self,
        keys: Iterable[str] = (
            "net",
            "pots_won",
            "paid",
            "worth_bought",
            "received",
            "worth_sold",
            "trade_paid",
            "trade_received",
            "baseline",
            "edge",
            "luck",
        ),
        level: float = 0.95,
    ) -> list[dict[str, Any]]:
        """One dict per seat: ``seat``, ``name``, ``strategy``, ``evenings``, ``won`` (the share of
        evenings it ended with the largest stack), and for each key its ``{key}_mean``, ``{key}_se``
        (standard error), ``{key}_low`` and ``{key}_high`` (confidence interval)."""
        z = _Z[level]
        out = []
        for seat in range(self.players):
            rows = [row for row in self.rows if row["seat"] == seat]
            line: dict[str, Any] = {
                "seat": seat,
                "name": self.names[seat],
                "strategy": self.strategies[seat],
                "evenings": len(rows),
                "won": sum(r["won"] for r in rows) / len(rows),
            }
            for key in keys:
                mean, se = _mean_se([float(r[key]) for r in rows])
                line[f"{key}_mean"] = mean
                line[f"{key}_se"] = se
                line[f"{key}_low"] = mean - z * se
                line[f"{key}_high"] = mean + z * se
            out.append(line)
        return out

    def _repr_html_(self) -> str:
        head = (
            "<tr><th>seat</th><th>name</th><th>strategy</th><th>net chips per evening (95% CI)</th>"
            "<th>evenings won</th><th>paid / worth (auctions)</th><th>edge</th><th>luck</th></tr>"
        )
        body = []
        for line in self.summary(("net", "paid", "worth_bought", "edge", "luck")):
            body.append(
                f"<tr><td>{line['seat']}</td><td>{html.escape(line['name'])}</td><td>{html.escape(line['strategy'])}</td>"
                f"<td>{line['net_mean']:+.2f} ({line['net_low']:+.2f} to {line['net_high']:+.2f})</td>"
                f"<td>{line['won']:.0%}</td><td>{line['paid_mean']:.2f} / {line['worth_bought_mean']:.2f}</td>"
                f"<td>{line['edge_mean']:+.2f}</td><td>{line['luck_mean']:+.2f}</td></tr>"
            )
        caption = (
            f"{self.evenings} evenings of {self.deals} deals, {self.rules.players} players "
            f"({self.rules.preset}), seed {self.seed}"
        )
        return f"<table class='spec-tournament'><caption>{html.escape(caption)}</caption>{head}{''.join(body)}</table>"

    def __repr__(self) -> str:
        lines = [f"<Tournament {self.evenings} evenings x {self.deals} deals, seed {self.seed}>"]
        for line in self.summary(("net",)):
            lines.append(
                f"  {line['seat']} {line['name']:<20} {line['strategy']:<11} "
                f"net {line['net_mean']:+7.2f} +/- {_Z[0.95] * line['net_se']:.2f}  won {line['won']:.0%}"
            )
        return "\n".join(lines)


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)
