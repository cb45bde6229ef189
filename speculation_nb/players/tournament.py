"""Tournaments: computer players at a table, evening after evening, seeded, with rows to plot.

>>> from speculation_nb.players.tournament import tournament
>>> result = tournament(["cautious", "fair", "bold"], evenings=20, seed=1)   # doctest: +SKIP
>>> result.summary()[0]["net_mean"]                                           # doctest: +SKIP

An *evening* is a :class:`~speculation_nb.Session` of ``deals`` deals (by default one
round of the deal: every seat deals once), played by :func:`speculation_nb.players.play`;
it ends early, as G3 says, when someone cannot ante. Each evening's shuffles come from
the tournament's ``seed``, and every strategy decides from the deal as it stands (random
ones from their own seed and the deal's), so the same call gives the same rows. For N
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

from ..engine.checks import as_int, is_whole, plain, quote
from ..engine.checks import seed as check_seed
from ..engine.session import Session
from ..engine.settings import Rules
from ..languages.catalogs import messages
from . import Cast, Strategy, play, strategy
from .accounts import COLUMNS, COUNTED, WORTH, Accounts

__all__ = ["COLUMNS", "Tournament", "play_evening", "tournament"]

#: The confidence levels of the summaries and their z values (normal approximation).
_Z = {0.9: 1.6448536269514722, 0.95: 1.959963984540054, 0.99: 2.5758293035489004}


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


def _lineup(
    players: Any, rules: Rules | None, names: Sequence[str] | None, seed: int
) -> tuple[list[Any], Rules, list[str]]:
    """The strategies seat by seat, the rules (default: the cardrules for that many) and the names."""
    strategies, cast_names = _resolve(players, seed)
    n = len(strategies)
    rules = rules or Rules(players=n)
    if rules.players != n:
        raise ValueError(f"the rules are for {rules.players} players, but {n} strategies were given")
    return strategies, rules, list(names or cast_names or [f"Seat {i}" for i in range(n)])


#: The salt of every evening's shuffle: part of what a seed means, so it never changes (0.1.0
#: salted with "speculation_nb.tournament"; the package's new layout changed it once, see CHANGELOG).
EVENING_SALT = "speculation_nb.players.tournament"


def evening_seed(seed: int, evening: int) -> int:
    """The shuffle seed of evening ``evening`` of a tournament seeded ``seed``."""
    return random.Random(f"{EVENING_SALT}:{seed}:{evening}").getrandbits(48)


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
    strategies, rules, names = _lineup(players, rules, names, seed)
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
    lineup = dict(enumerate(strategies))
    accounts = Accounts(n, accounting)
    while True:
        game = session.game
        accounts.start(game)
        play(game, lineup, rounds=rounds, observer=accounts)
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
        for key in COUNTED:
            row[key] = t[key]
        row["shared"] = shared[seat]
        for key in WORTH:
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
    strategies, rules, names = _lineup(players, rules, names, seed)
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
                evening_seed(seed, e),
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
        if not is_whole(evenings) or not 1 <= evenings <= self.evenings:
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

    def html(self, lang: str = "en") -> str:
        """The summary as an HTML table, in ``lang``'s words (the catalogs'); names are escaped."""
        words, english = messages(lang), messages("en")

        def t(key: str, **params: Any) -> str:
            return html.escape(words.get(key, english[key]).format(**params))

        columns = ("seat", "name", "strategy", "net", "won", "paid", "edge", "luck")
        head = "<tr>" + "".join(f"<th>{t('tournament.' + c)}</th>" for c in columns) + "</tr>"
        body = []
        for line in self.summary(("net", "paid", "worth_bought", "edge", "luck")):
            net = t(
                "tournament.interval",
                mean=f"{line['net_mean']:+.2f}",
                low=f"{line['net_low']:+.2f}",
                high=f"{line['net_high']:+.2f}",
            )
            body.append(
                f"<tr><td>{line['seat']}</td><td>{html.escape(line['name'])}</td>"
                f"<td>{html.escape(line['strategy'])}</td><td>{net}</td><td>{line['won']:.0%}</td>"
                f"<td>{line['paid_mean']:.2f} / {line['worth_bought_mean']:.2f}</td>"
                f"<td>{line['edge_mean']:+.2f}</td><td>{line['luck_mean']:+.2f}</td></tr>"
            )
        caption = t(
            "tournament.caption",
            evenings=self.evenings,
            deals=self.deals,
            players=self.rules.players,
            preset=self.rules.preset,
            seed=self.seed,
        )
        return f"<table class='spec-tournament'><caption>{caption}</caption>{head}{''.join(body)}</table>"

    def _repr_html_(self) -> str:
        return self.html()

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
