"""Lesson 2, *Will the Queen hold?* (parts 02a and 02b): counting, conditional probability,
the hypergeometric distribution, and simulation.

The lesson's deal is laid out by hand (:data:`LAYOUT`): Edmund deals, hearts are trumps (the 6♥),
Fanny turns up the Q♥ at moment 2 (U = 49, h = 2, n = 8, P = 205/294), Edmund's K♥ beats it at
moment 7 and Fanny's A♥ wins at moment 9.

The counting functions are the lesson's own arithmetic, tested against the engine
(:mod:`speculation_nb.odds`); :func:`my_simulation` is the solution of the simulation the
students write themselves in part 02b; :class:`Lesson2` draws the plots and tables, every word
from the catalogs (``lesson.l2.*``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from itertools import combinations
from math import comb, perm
from typing import Any

import numpy as np

from .. import odds
from ..engine.game import Game
from ..engine.settings import Rules
from .common import HTMLText, Plain, Tools

__all__ = [
    "LAYOUT",
    "LESSON_A",
    "LESSON_A2",
    "LESSON_B",
    "NAMES",
    "Lesson2",
    "band_coverage",
    "binomial",
    "hold_by_listing",
    "hold_by_places",
    "hold_card_by_card",
    "hold_formula",
    "holder_win_probability",
    "hypergeometric",
    "my_simulation",
    "numbers",
    "running_frequency",
    "sqrt_fraction",
    "sqrt_within",
    "standard_error",
    "the_deal",
]

LESSON_A = "02a_will_the_queen_hold"
LESSON_A2 = "02a_will_the_queen_hold_2"  # sections 4 to 6 of part a
LESSON_B = "02b_simulating_the_queen"
NAMES = ("Edmund", "Mary", "Fanny", "Henry")
LAYOUT: Mapping[str, Any] = {
    "piles": [["5S", "KH", "7C"], ["9C", "3S", "JD"], ["QH", "AH", "10C"], ["4D", "8S", "2C"]],
    "turn_up": "6H",
    "dealer": 0,
}


def the_deal(rules: Rules | None = None) -> Game:
    """The lesson's deal, played to the end with no trade (``deal.at(k)``: after ``k`` cards)."""
    game = Game.from_layout(rules or Rules(players=4), **LAYOUT)
    while not game.over:
        game.reveal()
    return game


def numbers(game: Game) -> tuple[int, int, int]:
    """``(U, h, n)``: unseen cards, trumps above the best trump, cards the others will turn up."""
    why = odds.explain_hold(game)
    return why.U, why.h, why.n


# ------------------------------------------------------------------ counting
def hold_by_listing(U: int, h: int, n: int) -> Fraction:
    """O1 by brute force: list every set of ``n`` of the ``U`` unseen cards (cards ``0 .. h-1``
    are the trumps above the best one) and count the sets that contain none of them."""
    good = total = 0
    for chosen in combinations(range(U), n):
        total += 1
        good += min(chosen, default=h) >= h
    return Fraction(good, total)


def hold_formula(U: int, h: int, n: int) -> Fraction:
    """O1 by counting: ``C(U - h, n)`` of the ``C(U, n)`` equally likely sets avoid the h dangerous cards."""
    return Fraction(comb(U - h, n), comb(U, n))


def hold_card_by_card(U: int, h: int, n: int) -> Fraction:
    """The same as a product of conditional probabilities: the ``i``-th card misses the dangerous
    ones with chance ``(U - h - i) / (U - i)`` *given* that the cards before it missed them."""
    p = Fraction(1)
    for i in range(n):
        p *= Fraction(U - h - i, U - i)
    return p


def hold_by_places(U: int, h: int, n: int) -> Fraction:
    """The same from the other side: all h dangerous cards lie among the ``U - n`` unseen cards
    nobody else will turn up."""
    return Fraction(comb(U - n, h), comb(U, h))


def hypergeometric(U: int, h: int, n: int) -> list[Fraction]:
    """``P(X = k)`` for ``k = 0 .. n``: X dangerous cards among n drawn without replacement from U, h dangerous."""
    return [Fraction(comb(h, k) * comb(U - h, n - k), comb(U, n)) for k in range(n + 1)]


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """``P(X = k)`` for ``k = 0 .. n`` when each of n draws is dangerous with chance p, independently
    (drawing *with* replacement)."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def holder_win_probability(U: int, h: int, f: int, S: int) -> Fraction:
    """O2 for the holder in the basic game (no dead hand, no Jack-and-Five), by counting.

    ``T_1 > ... > T_h`` are the trumps above the best trump; ``f`` cards lie face down in the
    holder's pile and ``S`` in the stock. Whoever has the highest ``T_i`` lying in any pile takes
    the pot (with that card, or with a lower trump that nobody beats, so that they never need to
    turn it up); if all ``h`` lie in the stock, the holder keeps it. So the holder wins when all
    ``h`` are in the stock, or when ``T_1 .. T_{i-1}`` are in the stock and ``T_i`` in the
    holder's own pile."""
    p = Fraction(comb(S, h), comb(U, h))
    for i in range(1, h + 1):
        p += Fraction(perm(S, i - 1) * f, perm(U, i))
    return p


def sqrt_fraction(x: Fraction, digits: int = 30) -> Fraction:
    """A square root to ``digits`` significant digits, as a Fraction (for exercises with irrational answers)."""
    with localcontext() as context:
        context.prec = digits
        root = (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()
    return Fraction(root)


def sqrt_within(x: Fraction, factor: int = 1) -> tuple[Fraction, Fraction]:
    """Exact bounds ``(low, high)`` of ``factor·√x``: the checker's range for an irrational answer."""
    root, wide = sqrt_fraction(x), Fraction(1, 10**25)
    low, high = root * (1 - wide), root * (1 + wide)
    assert low * low <= x <= high * high
    return factor * low, factor * high


def standard_error(p: Fraction | float, N: int) -> float:
    """The standard error of a frequency over N independent tries with chance p: √(p(1−p)/N)."""
    return float(np.sqrt(float(p) * (1 - float(p)) / N))


def running_frequency(hits: Any, checkpoints: Any) -> np.ndarray:
    """``hits``: a (runs, N) array of True/False; the frequency of True after each checkpoint, per run."""
    data = np.asarray(hits, dtype=np.float64)
    at = np.asarray(checkpoints) - 1
    out: np.ndarray = np.cumsum(data, axis=1)[:, at] / np.asarray(checkpoints)
    return out


def band_coverage(hits: Any, p: Fraction | float, z: float = 2.0) -> float:
    """The share of runs (rows of ``hits``) whose estimate ± z estimated standard errors contains p."""
    data = np.asarray(hits, dtype=np.float64)
    N = data.shape[1]
    est = data.mean(axis=1)
    se = np.sqrt(est * (1 - est) / N)
    return float(np.mean(np.abs(est - float(p)) <= z * se))


def my_simulation(U: int, h: int, n: int, deals: int, seed: int) -> np.ndarray:
    """The simulation the students write in part 02b, as they write it: shuffle the U unseen
    cards (numbers ``0 .. U-1``, the first h the dangerous ones), take the n the others will turn
    up, and record whether none of them is dangerous. One True/False per simulated deal."""
    rng = np.random.default_rng(seed)
    unseen = np.arange(U)
    held = np.empty(deals, dtype=bool)
    for i in range(deals):
        order = rng.permutation(unseen)
        held[i] = not np.any(order[:n] < h)
    return held


# ------------------------------------------------------------------ the lesson's pictures
class Lesson2(Tools):
    """Lesson 2's plots and tables in ``lang``."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(lang, NAMES)

    def numbers_line(self, game: Game) -> Plain:
        U, h, n = numbers(game)
        return Plain(f"U = {U}, h = {h}, n = {n}")

    def listing(self, cards: Sequence[str], k: int, danger: int) -> HTMLText:
        """Every set of ``k`` of ``cards`` (the first ``danger`` of them dangerous), the safe ones marked."""
        from ..engine.cards import Card

        names = [str(Card.parse(c)) for c in cards]
        rows = []
        for chosen in combinations(range(len(cards)), k):
            safe = min(chosen) >= danger
            rows.append([" ".join(names[i] for i in chosen), self("l2.safe") if safe else ""])
        return self.html_table([self("l2.set"), self("l2.holds")], rows)

    def _axes(self, width: float = 8.5, height: float = 4.0, ncols: int = 1) -> tuple[Any, Any]:
        import matplotlib.pyplot as plt

        return plt.subplots(1, ncols, figsize=(width, height))

    @staticmethod
    def _show(fig: Any) -> None:
        import matplotlib.pyplot as plt

        fig.tight_layout()
        plt.show()

    def plot_distribution(self, U: int, h: int, n: int) -> None:
        """The whole hypergeometric distribution of the dangerous cards among the n, its mean
        n·h/U, and beside it the binomial distribution (drawing with replacement)."""
        hyper = hypergeometric(U, h, n)
        binom = binomial(n, Fraction(h, U))
        ks = np.arange(n + 1)
        fig, ax = self._axes()
        ax.bar(ks - 0.2, [float(p) for p in hyper], width=0.4, label=self("l2.dist.hyper"))
        ax.bar(ks + 0.2, [float(p) for p in binom], width=0.4, label=self("l2.dist.binom"), alpha=0.7)
        mean = Fraction(n * h, U)
        ax.axvline(float(mean), color="black", ls="--", lw=1.2, label=self("l2.dist.mean", mean=self.number(mean, 2)))
        ax.set_xlabel(self("l2.dist.x", h=h, n=n))
        ax.set_ylabel(self("l2.probability"))
        ax.set_title(self("l2.dist.title", U=U, h=h, n=n))
        ax.set_xticks(ks)
        ax.legend()
        ax.grid(alpha=0.3, axis="y")
        self._show(fig)

    def plot_moments(self, deal: Game) -> None:
        """O1 and O2 at every moment of the deal, each new best trump labelled."""
        live = range(len(deal.history))
        hold = [float(odds.hold_probability(deal.at(k))) for k in live]
        wins = [float(odds.win_probabilities(deal.at(k))[deal.at(k).holder]) for k in live]
        fig, ax = self._axes(9, 4.2)
        ax.step(live, hold, where="post", lw=2.2, label=self("l2.moments.hold"))
        ax.step(live, wins, where="post", lw=1.5, ls="--", label=self("l2.moments.win"))
        for k in live:
            game = deal.at(k)
            if k == 0 or game.best_trump != deal.at(k - 1).best_trump:
                ax.annotate(
                    f"{game.best_trump} ({self.name(game.holder)})",
                    (k, hold[k]),
                    xytext=(4, -16),
                    textcoords="offset points",
                    fontsize=10,
                )
        ax.set_xlabel(self("l2.moment_axis"))
        ax.set_ylabel(self("l2.probability"))
        ax.set_ylim(0, 1.05)
        ax.set_xticks(list(live))
        ax.set_title(self("l2.moments.title"))
        ax.legend(loc="lower right")
        ax.grid(alpha=0.3)
        self._show(fig)

    def moment_slider(self, deal: Game, start: int = 2) -> Any:
        """A slider over the moments of the deal: the table, U, h, n and the chance in words."""
        import ipywidgets as widgets  # type: ignore[import-untyped]
        from IPython import display as ipython_display

        show: Any = ipython_display.display

        def moment(k: int) -> None:
            game = deal.at(k)
            show(self.table(game, card_width=44))
            print(odds.explain_hold(game).words(self.t))

        slider = widgets.IntSlider(
            value=start, min=0, max=len(deal.history), description=self("l2.moment"), continuous_update=False
        )
        return widgets.interactive(moment, k=slider)

    def hold_curves(self, U: int = 49, mark: tuple[int, Fraction] | None = None) -> None:
        """P(hold) against n for best trumps from the King (h = 1) down to the 8 (h = 6)."""
        ns = list(range(25))
        fig, ax = self._axes(9, 4.2)
        for h in (1, 2, 3, 4, 6):
            card = self.t(f"card.rank.{14 - h}")
            ax.plot(ns, [float(hold_formula(U, h, k)) for k in ns], marker="o", ms=3, label=f"{card} (h = {h})")
        if mark is not None:
            ax.plot(
                [mark[0]], [float(mark[1])], "o", ms=11, mfc="none", mec="black", mew=2, label=self("l2.curves.mark")
            )
        ax.set_xlabel(self("l2.n_axis"))
        ax.set_ylabel(self("l2.hold_axis"))
        ax.set_title(self("l2.curves.title", U=U))
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(title=self("l2.curves.legend"), ncol=2)
        self._show(fig)

    def hold_explorer(self) -> Any:
        """Sliders for U, h and n, and the curve P = C(U - h, n) / C(U, n) against n."""
        import ipywidgets as widgets

        def plot(U: int = 49, h: int = 2, n: int = 8) -> None:
            h = min(h, U)
            n = min(n, U - h)
            ns = list(range(U - h + 1))
            fig, ax = self._axes(7.5, 3.6)
            ax.plot(ns, [float(hold_formula(U, h, k)) for k in ns], lw=2)
            p = hold_formula(U, h, n)
            ax.plot([n], [float(p)], "o", ms=9, color="crimson")
            ax.set_title(f"U = {U}, h = {h}: P = C({U - h}, n) / C({U}, n); n = {n}: {self.show(p)}", fontsize=10)
            ax.set_xlabel(self("l2.n_axis"))
            ax.set_ylabel(self("l2.hold_axis"))
            ax.set_xlim(0, max(1, min(U - h, 40)))
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
            self._show(fig)

        return widgets.interactive(
            plot,
            U=widgets.IntSlider(value=49, min=20, max=51, description="U"),
            h=widgets.IntSlider(value=2, min=0, max=12, description="h"),
            n=widgets.IntSlider(value=8, min=0, max=40, description="n"),
        )

    def plot_running(self, held: Any, p: Fraction) -> None:
        """The student's own simulation: the running frequency of "held" against the exact p."""
        held = np.asarray(held, dtype=np.float64)
        N = np.arange(1, len(held) + 1)
        freq = np.cumsum(held) / N
        se = np.sqrt(float(p) * (1 - float(p)) / N)
        fig, ax = self._axes(9, 4.2)
        ax.fill_between(N, float(p) - 2 * se, float(p) + 2 * se, color="tab:orange", alpha=0.25, label=self("l2.band"))
        ax.plot(N, freq, lw=1.5, label=self("l2.running.freq"))
        ax.axhline(float(p), color="black", ls="--", lw=1.2, label=self("l2.exact", p=self.show(p)))
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(self("l2.N_axis"))
        ax.set_ylabel(self("l2.freq_axis"))
        ax.set_title(self("l2.running.title"))
        ax.legend(loc="lower right")
        ax.grid(alpha=0.3, which="both")
        self._show(fig)

    def convergence_table(self, held: Any, p: Fraction, decades: Sequence[int] = (10, 100, 1_000, 10_000)) -> HTMLText:
        """The frequency, its standard error and the ±2 SE band after each decade of deals."""
        held = np.asarray(held, dtype=np.float64)
        rows = []
        for N in decades:
            est = float(held[:N].mean())
            se = float(np.sqrt(est * (1 - est) / N))
            inside = abs(est - float(p)) <= 2 * se
            rows.append(
                [
                    self.number(N),
                    self.number(round(est * N)),
                    self.number(est, 4),
                    self.number(se, 4),
                    f"{self.number(est - 2 * se, 4)} … {self.number(est + 2 * se, 4)}",
                    self("l2.yes") if inside else self("l2.no"),
                ]
            )
        header = [self(f"l2.table.{k}") for k in ("N", "held", "freq", "se", "band", "inside")]
        return self.html_table(header, rows, caption=self("l2.exact", p=self.show(p)))

    def plot_many_runs(self, game: Game, p: Fraction, seed: int = 7) -> np.ndarray:
        """20 runs of 100,000 simulated deals (left) and the error of 200 runs of 10,000 against
        √(p(1−p)/N) on log-log axes (right). Returns the 2,000,000 results for the coverage table."""
        from .. import simulate as sim

        many = sim.play_outs(game, deals=2_000_000, seed=seed).held
        checkpoints = np.unique(np.round(np.logspace(1, 5, 41)).astype(int))
        freq = running_frequency(many.reshape(20, 100_000), checkpoints)
        q = float(p)
        se = np.array([standard_error(q, N) for N in checkpoints])
        fig, (left, right) = self._axes(11, 4.3, ncols=2)
        left.fill_between(checkpoints, q - 2 * se, q + 2 * se, color="tab:orange", alpha=0.25, label=self("l2.band"))
        for row in freq:
            left.plot(checkpoints, row, color="0.35", lw=0.8, alpha=0.7)
        left.axhline(q, color="black", ls="--", lw=1.2, label=self("l2.exact_short"))
        left.set_xscale("log")
        left.set_ylim(0.3, 1.02)
        left.set_xlabel(self("l2.N_axis"))
        left.set_ylabel(self("l2.freq_axis"))
        left.set_title(self("l2.runs.title"))
        left.legend(loc="lower right")
        left.grid(alpha=0.3, which="both")
        short = checkpoints[checkpoints <= 10_000]
        rms = np.sqrt(np.mean((running_frequency(many.reshape(200, 10_000), short) - q) ** 2, axis=0))
        right.loglog(short, rms, "o", ms=4, label=self("l2.runs.rms"))
        right.loglog(short, [standard_error(q, N) for N in short], lw=2, label="SE = √(p(1−p)/N)")
        right.set_xlabel(self("l2.N_axis"))
        right.set_ylabel(self("l2.runs.error_axis"))
        right.set_title(self("l2.runs.slope"))
        right.legend()
        right.grid(alpha=0.3, which="both")
        self._show(fig)
        return many

    def coverage_table(self, many: Any, p: Fraction, sizes: Sequence[int] = (10, 100, 1_000, 10_000)) -> HTMLText:
        """How often a run's own ±2 SE band contains the exact p, by run length."""
        rows = []
        for N in sizes:
            chunks = np.asarray(many).reshape(-1, N)
            rows.append([self.number(N), self.number(len(chunks)), self.percent(band_coverage(chunks, p))])
        return self.html_table([self("l2.cover.N"), self("l2.cover.runs"), self("l2.cover.share")], rows)

    def holding_and_winning(self, game: Game) -> HTMLText:
        """O1, O2 and their difference for the holder of ``game``."""
        hold = odds.hold_probability(game)
        win = odds.win_probabilities(game)[game.holder]
        rows = [
            [self("l2.win.hold", card=str(game.best_trump)), self.show(hold)],
            [self("l2.win.win", name=self.name(game.holder)), self.show(win)],
            [self("l2.win.back"), self.show(win - hold)],
        ]
        return self.html_table(["", ""], rows)
