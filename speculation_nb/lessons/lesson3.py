"""Lesson 3, *What is a card worth?* (parts 03a and 03b): expected value, the fair price, the
break-even prices, and the rule documents' rules of thumb tested against exact numbers.

Lesson 2's deal again (:data:`speculation_nb.lessons.lesson2.LAYOUT`), in the basic game and with
Jack-and-Five: at moment 2 Fanny's Q♥ is worth 615/49 on average, its fair price is 615/49 and
every buyer's break-even price about 11.34; at moment 9 of the Jack-and-Five deal her A♥ has a fair
price of 142/7 and a break-even price of 143/7. :func:`collect_moments` records the exact numbers
at every moment of seeded deals for part 03b.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb
from statistics import median
from typing import Any

import numpy as np

from .. import odds
from ..engine.game import Game
from ..engine.settings import Rules
from .common import HTMLText, Plain, Tools
from .lesson2 import LAYOUT, NAMES

__all__ = [
    "ALMOST_SURE",
    "FEW",
    "LESSON_A",
    "LESSON_A2",
    "LESSON_B",
    "SEEDS",
    "Lesson3",
    "break_even_basic",
    "carry_over_chance",
    "collect_moments",
    "expected_value",
    "play_through",
    "share",
    "split",
]

LESSON_A = "03a_what_is_a_card_worth"
LESSON_A2 = "03a_what_is_a_card_worth_2"  # break-even prices: sections 4 and 5 of part a
LESSON_B = "03b_rules_of_thumb"
FEW = 3  # "few cards left": at most 3 cards still to be turned up by the other players
ALMOST_SURE = Fraction(4, 5)  # "close to certain": holds with at least 80 % chance
SEEDS = range(240)  # the seeded deals of part 03b


def play_through(rules: Rules) -> Game:
    """Lesson 2's layout under ``rules``, played to the end with no trade."""
    game = Game.from_layout(rules, **LAYOUT)
    while not game.over:
        game.reveal()
    return game


def expected_value(outcomes: Iterable[tuple[Any, Any]]) -> Fraction:
    """Σ value × probability over ``(value, probability)`` pairs whose probabilities add up to 1."""
    pairs = [(Fraction(x), Fraction(p)) for x, p in outcomes]
    if sum(p for _, p in pairs) != 1:
        raise ValueError("the probabilities must add up to 1")
    return sum((x * p for x, p in pairs), Fraction(0))


def break_even_basic(U: int, h: int, N: int, pot: int) -> Fraction:
    """The break-even price in the basic game (no Jack-and-Five, no dead hand): the pot times the
    chance that none of the h trumps above the best one lies among the N face-down cards of all
    the piles, the seller's and the buyer's included."""
    return pot * Fraction(comb(U - h, N), comb(U, N))


def carry_over_chance(game: Game, owner: int | None = None) -> Fraction:
    """With a dead hand (and no Jack-and-Five): the chance that nobody takes the pot if ``owner``
    (default: the holder) owns the best trump now. The players' expected takings add up to the
    pot times the chance that somebody wins."""
    taken = sum((odds.expected_net(game, seat, owner) for seat in range(game.rules.players)), Fraction(0))
    return 1 - taken / game.pot


def collect_moments(
    seeds: Iterable[int],
    *,
    jack_five: bool = False,
    dead_hand: bool = False,
    players: Callable[[int], int] = lambda seed: 3 + seed % 4,
    prices: bool = True,
) -> list[dict[str, Any]]:
    """Deal each seed (``players(seed)`` players, 3 to 6 by default), turn up cards one by one with
    no trade, and record the exact numbers at every moment. The buyer is the player due to turn up
    next. ``n`` counts the cards still to be turned up by the other players (their piles; the dead
    pile, turned up at the end, is ``dead``); ``hold`` is O1, which counts the dead pile too."""
    rows = []
    for seed in seeds:
        count = players(seed)
        game = Game.deal(Rules(players=count, jack_five=jack_five, dead_hand=dead_hand), seed=seed)
        while not game.over:
            holder, buyer = game.holder, game.turn
            why = odds.explain_hold(game)
            row: dict[str, Any] = {
                "seed": seed,
                "players": count,
                "moment": len(game.history),
                "best": game.best_trump.rank,
                "U": why.U,
                "h": why.h,
                "n": why.n - why.n_dead,
                "dead": why.n_dead,
                "N": sum(game.face_down),
                "own": game.face_down[holder],
                "pot": game.pot,
                "hold": why.probability,
            }
            if prices and buyer is not None:
                row["fair"] = odds.fair_price(game)
                row["buyer_be"] = odds.break_even(game, buyer)
                row["seller_be"] = odds.seller_break_even(game, buyer)
                if not jack_five and not dead_hand:
                    row["win_keep"] = odds.win_probabilities(game)[holder]
                    row["win_sold"] = odds.expected_net(game, holder, owner=buyer) / game.pot
            rows.append(row)
            game.reveal()
    return rows


def split(
    rows: Sequence[Mapping[str, Any]], key: Callable[[Any], Any], buckets: Sequence[tuple[str, int, int]]
) -> list[tuple[str, list[Any]]]:
    """``[(label, rows whose key(row) lies in [low, high])]`` for each ``(label, low, high)`` bucket."""
    return [(label, [r for r in rows if low <= key(r) <= high]) for label, low, high in buckets]


def share(rows: Sequence[Any], test: Callable[[Any], bool]) -> Fraction:
    """The fraction of ``rows`` passing ``test`` (0 for no rows)."""
    return Fraction(sum(1 for r in rows if test(r)), len(rows)) if rows else Fraction(0)


def gain(row: Mapping[str, Any]) -> Fraction:
    """What a seller gains on average by selling at the fair price: fair price − seller's break-even."""
    return Fraction(row["fair"] - row["seller_be"])


class Lesson3(Tools):
    """Lesson 3's tables and plots in ``lang``."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(lang, NAMES)

    def pct(self, x: Fraction | float) -> str:
        return self.t.percent(x, 0)

    # --------------------------------------------------------------- part a
    def simulated_average(self, paid: Any, exact: Fraction) -> Plain:
        """The average of simulated payments, its standard error and its distance from the exact value."""
        paid = np.asarray(paid, dtype=np.float64)
        mean = float(paid.mean())
        se = float(paid.std() / np.sqrt(len(paid)))
        z = (mean - float(exact)) / se
        return Plain(self("l3.simulated", mean=self.number(mean, 3), se=self.number(se, 3), z=self.number(z, 1)))

    def pot_guesses(self, game: Game) -> HTMLText:
        """The two quick guesses of the expected pot with Jack-and-Five, and the exact value between them."""
        unseen_jf = 8 - sum(1 for card in game.seen if card.rank in (5, 11))
        down = sum(game.face_down)
        others = down - game.face_down[game.holder]
        low = game.pot + Fraction(others * unseen_jf, game.unseen)
        high = game.pot + Fraction(down * unseen_jf, game.unseen)
        rows = [
            [self("l3.guess.others", n=others), self.chips(low)],
            [self("l3.guess.exact"), self.chips(odds.expected_pot(game))],
            [self("l3.guess.every", n=down), self.chips(high)],
        ]
        return self.html_table(["", ""], rows, caption=self("l3.guess.caption", k=unseen_jf, U=game.unseen))

    def fair_prices(self, games: Mapping[str, Game]) -> HTMLText:
        rows = []
        for label, game in games.items():
            o1, o3, o4 = odds.hold_probability(game), odds.expected_pot(game), odds.fair_price(game)
            rows.append([self(f"l3.game.{label}"), self.number(o1, 4), self.number(o3, 3), self.chips(o4)])
        header = ["", "O1", self("l3.expected_pot"), self("l3.fair_price")]
        return self.html_table(header, rows)

    def buyers_table(self, game: Game, buyers: Sequence[int]) -> HTMLText:
        """Each buyer's expected net chips with and without the card, and the two break-even prices."""
        rows = []
        for buyer in buyers:
            own = odds.expected_net(game, buyer, owner=buyer)
            nobody = odds.expected_net(game, buyer)
            rows.append(
                [
                    self.name(buyer),
                    self.number(own, 3),
                    self.number(nobody, 3),
                    self.chips(own - nobody),
                    self.chips(odds.seller_break_even(game, buyer)),
                ]
            )
        header = [self(f"l3.buyers.{k}") for k in ("buyer", "own", "nobody", "buyer_be")]
        header.append(self("l3.buyers.seller_be", name=self.name(game.holder)))
        caption = self("l3.buyers.caption", card=str(game.best_trump), fair=self.chips(odds.fair_price(game)))
        return self.html_table(header, rows, caption=caption)

    def basic_formula(self, game: Game) -> Plain:
        """The break-even price and the fair price of the basic game, by their formulas."""
        U, h, N = game.unseen, 14 - game.best_trump.rank, sum(game.face_down)
        n = N - game.face_down[game.holder]
        be = break_even_basic(U, h, N, game.pot)
        fair = self.chips(odds.fair_price(game))
        lines = [
            f"U = {U}, h = {h}, N = {N}, n = {n}",
            f"{self('l3.break_even')}: {game.pot} × C({U - h}, {N}) / C({U}, {N}) = {self.chips(be)}",
            f"{self('l3.fair_price')}: {game.pot} × C({U - h}, {n}) / C({U}, {n}) = {fair}",
        ]
        return Plain("\n".join(lines))

    def ace_prices(self, game: Game, buyers: Sequence[int]) -> HTMLText:
        rows = [[self("l3.fair_price"), self.chips(odds.fair_price(game))]]
        rows.append([self("l3.expected_pot"), self.chips(odds.expected_pot(game))])
        for buyer in buyers:
            rows.append([self("l3.be_of", name=self.name(buyer)), self.chips(odds.break_even(game, buyer))])
            rows.append([self("l3.pays_if_not", name=self.name(buyer)), self.chips(-odds.expected_net(game, buyer))])
        return self.html_table(["", ""], rows)

    def dead_hand_prices(self, game: Game, buyer: int) -> HTMLText:
        holder = game.holder
        rows = [
            [self("l3.be_of", name=self.name(buyer)), self.chips(odds.break_even(game, buyer))],
            [self("l3.seller_be_of", name=self.name(holder)), self.chips(odds.seller_break_even(game, buyer))],
            [self("l3.carry.keep", name=self.name(holder)), self.number(carry_over_chance(game), 4)],
            [self("l3.carry.sold", name=self.name(buyer)), self.number(carry_over_chance(game, owner=buyer), 4)],
        ]
        return self.html_table(["", ""], rows)

    def plot_prices(self, deal: Game) -> None:
        """Pot, expected pot, fair price and the next player's break-even price, moment by moment."""
        import matplotlib.pyplot as plt

        live = list(range(len(deal.history)))
        keys = ("pot", "expected", "fair", "break_even")
        series: dict[str, list[float]] = {k: [] for k in keys}
        for k in live:
            game = deal.at(k)
            series["pot"].append(game.pot)
            series["expected"].append(float(odds.expected_pot(game)))
            series["fair"].append(float(odds.fair_price(game)))
            turn = game.turn if game.turn is not None else game.holder
            series["break_even"].append(float(odds.break_even(game, turn)))
        fig, ax = plt.subplots(figsize=(9, 4.3))
        for key, style in zip(keys, ["-", ":", "-", "--"]):
            ax.step(live, series[key], where="post", ls=style, lw=2, label=self(f"l3.prices.{key}"))
        for k in live:
            game = deal.at(k)
            if k == 0 or game.best_trump != deal.at(k - 1).best_trump:
                ax.annotate(
                    str(game.best_trump), (k, series["fair"][k]), xytext=(3, 5), textcoords="offset points", fontsize=11
                )
        ax.set_xticks(live)
        ax.set_xlabel(self("l2.moment_axis"))
        ax.set_ylabel(self("l3.chips_axis"))
        ax.set_ylim(0, 22)
        ax.set_title(self("l3.prices.title"))
        ax.legend(loc="lower right")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        plt.show()

    def price_slider(self, deal: Game, start: int = 2) -> Any:
        """A slider over the moments: the table and every buyer's two break-even prices."""
        import ipywidgets as widgets  # type: ignore[import-untyped]
        from IPython import display as ipython_display

        show: Any = ipython_display.display

        def prices(k: int) -> None:
            game = deal.at(k)
            show(self.table(game, card_width=40))
            if game.over:
                print(self("l3.over"))
                return
            show(self.buyers_table(game, [b for b in range(game.rules.players) if b != game.holder]))

        slider = widgets.IntSlider(
            value=start, min=0, max=len(deal.history), description=self("l2.moment"), continuous_update=False
        )
        return widgets.interactive(prices, k=slider)

    # --------------------------------------------------------------- part b
    def rule_a(self, datasets: Mapping[str, Sequence[Mapping[str, Any]]]) -> HTMLText:
        """Rule A: every moment with a Queen as the best trump and few cards left to come from the
        others, in each set of deals: how low the Queen's chance goes."""
        rows = []
        for label, moments in datasets.items():
            queens = [r for r in moments if r["best"] == 12]
            few = [r for r in queens if r["n"] <= FEW]
            if not few:
                continue
            holds = [r["hold"] for r in few]
            rows.append(
                [
                    self(f"l3.a.{label}"),
                    self.number(len(few)),
                    f"{min(r['U'] for r in few)}–{max(r['U'] for r in few)}",
                    self.pct(min(holds)),
                    self.pct(sum(holds) / len(holds)),
                    self.pct(share(few, lambda r: r["hold"] >= ALMOST_SURE)),
                ]
            )
        header = [self(f"l3.a.{k}") for k in ("deals", "moments", "U", "lowest", "average")]
        header.append(self("l3.a.sure", sure=self.pct(ALMOST_SURE)))
        return self.html_table(header, rows, caption=self("l3.a.caption", few=FEW, sure=self.pct(ALMOST_SURE)))

    def rule_a_by_n(self, moments: Sequence[Mapping[str, Any]]) -> HTMLText:
        """Rule A by n, the cards still to come: the Queen's chance, lowest, average and highest."""
        queens = [r for r in moments if r["best"] == 12]
        buckets = [("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4–6", 4, 6), ("7–9", 7, 9), ("10+", 10, 99)]
        rows = []
        for label, rs in split(queens, lambda r: r["n"], buckets):
            if rs:
                holds = [r["hold"] for r in rs]
                rows.append(
                    [
                        label,
                        self.number(len(rs)),
                        f"{min(r['U'] for r in rs)}–{max(r['U'] for r in rs)}",
                        self.pct(min(holds)),
                        self.pct(sum(holds) / len(holds)),
                        self.pct(max(holds)),
                    ]
                )
        header = [self(f"l3.an.{k}") for k in ("n", "moments", "U", "lowest", "average", "highest")]
        return self.html_table(header, rows, caption=self("l3.an.caption"))

    def rule_b(self, moments: Sequence[Mapping[str, Any]]) -> HTMLText:
        """Rule B: the buyer's break-even price as a share of the pot, by face-down cards left."""
        buckets = [("1–3", 1, FEW), ("4–6", FEW + 1, 6), ("7–9", 7, 9), ("10–12", 10, 12), ("13+", 13, 99)]
        rows = []
        for label, rs in split(moments, lambda r: r["N"], buckets):
            if not rs:
                continue
            ratios = [r["buyer_be"] / r["pot"] for r in rs]
            rows.append(
                [
                    label,
                    self.number(len(rs)),
                    self.pct(min(ratios)),
                    self.pct(median(ratios)),
                    self.pct(max(ratios)),
                    self.pct(share(rs, lambda r: r["buyer_be"] <= r["pot"] / 2)),
                ]
            )
        header = [self(f"l3.b.{k}") for k in ("N", "moments", "lowest", "median", "highest", "half")]
        return self.html_table(header, rows, caption=self("l3.b.caption"))

    def rule_c(self, moments: Sequence[Mapping[str, Any]], moments_jf: Sequence[Mapping[str, Any]]) -> HTMLText:
        """Rule C: selling at the fair price, by the holder's own face-down cards."""
        buckets = [("3", 3, 3), ("2", 2, 2), ("1", 1, 1), ("0", 0, 0)]
        rows = []
        for (label, rs), (_, rs_jf) in zip(
            split(moments, lambda r: r["own"], buckets), split(moments_jf, lambda r: r["own"], buckets)
        ):
            if not rs:
                continue
            keep = sum(r["win_keep"] for r in rs) / len(rs)
            sold = sum(r["win_sold"] for r in rs) / len(rs)
            rows.append(
                [
                    label,
                    self.number(len(rs)),
                    f"{self.pct(keep)} → {self.pct(sold)}",
                    self.pct(sum(gain(r) / r["pot"] for r in rs) / len(rs)),
                    self.pct(share(rs, lambda r: gain(r) < 0)),
                    self.pct(share(rs_jf, lambda r: gain(r) < 0)),
                ]
            )
        header = [self(f"l3.c.{k}") for k in ("own", "moments", "wins", "gain", "lose", "lose_jf")]
        return self.html_table(header, rows, caption=self("l3.c.caption"))

    def pot_scaling(self, seed: int = 5, extra: int = 30) -> Plain:
        """The same seeded deal with and without ``extra`` chips carried over: the prices scale with the pot."""
        lines = []
        for pot in (0, extra):
            game = Game.deal(Rules(players=4), seed=seed, pot=pot) if pot else Game.deal(Rules(players=4), seed=seed)
            game.reveal()
            assert game.turn is not None
            sbe = odds.seller_break_even(game, game.turn) / game.pot
            lines.append(
                self("l3.scale", pot=game.pot, seller=self.show(sbe), fair=self.show(odds.fair_price(game) / game.pot))
            )
        return Plain("\n".join(lines))

    def picture(self, moments: Sequence[Mapping[str, Any]]) -> None:
        """Rule A (the Queen's chance against n) and rule B (break-even ÷ pot against N), every moment a dot."""
        import matplotlib.pyplot as plt

        rng = np.random.default_rng(11)  # jitter, so that equal points do not hide each other
        queens = [r for r in moments if r["best"] == 12]
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6))
        x = np.array([r["n"] for r in queens]) + rng.uniform(-0.25, 0.25, len(queens))
        left.axvspan(0.5, FEW + 0.5, color="tab:green", alpha=0.12, label=self("l3.pic.few", few=FEW))
        left.scatter(x, [float(r["hold"]) for r in queens], s=10, alpha=0.6)
        left.axhline(
            float(ALMOST_SURE), color="crimson", ls="--", label=self("l3.pic.sure", sure=self.pct(ALMOST_SURE))
        )
        left.set_xlabel(self("l2.n_axis"))
        left.set_ylabel(self("l3.pic.queen_axis"))
        left.set_title(self("l3.pic.a_title"))
        left.set_ylim(0.4, 1.0)
        left.legend(loc="lower left")
        left.grid(alpha=0.3)
        x = np.array([r["N"] for r in moments]) + rng.uniform(-0.3, 0.3, len(moments))
        right.axvspan(0.5, FEW + 0.5, color="tab:green", alpha=0.12, label=self("l3.pic.little", few=FEW))
        points = right.scatter(
            x, [float(r["buyer_be"] / r["pot"]) for r in moments], s=6, alpha=0.6, c=[r["best"] for r in moments]
        )
        right.axhline(0.5, color="crimson", ls="--", label=self("l3.pic.half"))
        right.set_xlabel(self("l3.pic.N_axis"))
        right.set_ylabel(self("l3.pic.be_axis"))
        right.set_title(self("l3.pic.b_title"))
        right.set_ylim(0, 1.02)
        right.legend(loc="upper right")
        right.grid(alpha=0.3)
        bar = fig.colorbar(points, ax=right)
        bar.set_label(self("l3.pic.rank"))
        fig.tight_layout()
        plt.show()

    def verdicts(
        self,
        datasets: Mapping[str, Sequence[Mapping[str, Any]]],
        moments: Sequence[Mapping[str, Any]],
        moments_jf: Sequence[Mapping[str, Any]],
    ) -> HTMLText:
        """The summary: each rule of thumb, when it is right and when it is wrong, with the figures."""
        no_dead = [*moments, *datasets.get("many", [])]
        few_basic = [r for r in no_dead if r["best"] == 12 and r["n"] <= FEW]
        dead = [r for r in datasets.get("dead", []) if r["best"] == 12 and r["n"] <= FEW]
        little = [r for r in moments if r["N"] <= FEW]
        early = [r for r in moments if r["N"] >= 10]
        late_jf = [r for r in moments_jf if r["own"] < 3]
        rows = [
            [
                self("l3.v.a"),
                self("l3.v.a_verdict"),
                self("l3.v.a_right", few=FEW, low=self.pct(min(r["hold"] for r in few_basic))),
                self("l3.v.a_wrong", low=self.pct(min(r["hold"] for r in dead)) if dead else "–"),
            ],
            [
                self("l3.v.b"),
                self("l3.v.b_verdict"),
                self("l3.v.b_right", share=self.pct(share(early, lambda r: r["buyer_be"] <= r["pot"] / 2))),
                self("l3.v.b_wrong", few=FEW, share=self.pct(share(little, lambda r: r["buyer_be"] > r["pot"] / 2))),
            ],
            [
                self("l3.v.c"),
                self("l3.v.c_verdict"),
                self("l3.v.c_right"),
                self("l3.v.c_wrong", share=self.pct(share(late_jf, lambda r: gain(r) < 0))),
            ],
        ]
        header = [self(f"l3.v.{k}") for k in ("rule", "verdict", "right", "wrong")]
        return self.html_table(header, rows)
