"""A Monte Carlo lab: play the rest of a deal out many times, with numpy.

Each simulated ending shuffles the unseen cards (all arrangements equally
likely, exactly as :mod:`speculation_nb.odds` assumes), deals them into the
face-down slots and plays on by the full rules with no further trade: the
turn pointer moves clockwise and skips the holder and empty piles (P3, P4), a
higher trump makes a new holder who stops turning up (P6) and a beaten holder
resumes, the deal ends as soon as only the holder has cards (P7), the dead
pile decides a carry-over (V2, P9), hoyle1847 (b) and (c), and Jack-and-Five
payments while the payer has a chip (V1). It is a faithful step-by-step
play-out, not a shortcut through the formulas, so that chance can be seen
agreeing with the exact numbers.

All simulated deals advance together: one numpy operation does one step of
every deal at once (one reveal each), and the next seat to turn up comes from
a small lookup table indexed by (seat just played, holder, seats with cards).

>>> from speculation_nb import Game, Rules, odds
>>> game = Game.deal(Rules(players=5), seed=3)
>>> est = simulate(game, deals=20_000, seed=1)
>>> round(est.win[0], 3), round(est.win_se[0], 3)
(0.476, 0.004)
>>> odds.win_probabilities(game)[0]
Fraction(83, 175)
>>> abs(est.win[0] - 83 / 175) < 4 * est.win_se[0]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from .playouts import CHUNK, PlayOuts, Setup, play_outs, setup
from .reference import play_outs_python

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "CHUNK",
    "Convergence",
    "Estimate",
    "PlayOuts",
    "Setup",
    "convergence",
    "play_outs",
    "play_outs_python",
    "setup",
    "simulate",
]


# ------------------------------------------------------------------- estimates
@dataclass(frozen=True)
class Estimate:
    """Monte Carlo estimates of O1-O3 after ``deals`` simulated endings, each with its
    standard error (``sqrt(p (1 - p) / deals)`` for a probability, ``sd / sqrt(deals)``
    for the pot)."""

    deals: int
    hold: float
    hold_se: float
    win: dict[int | None, float]
    win_se: dict[int | None, float]
    pot: float
    pot_se: float


def _summary(out: PlayOuts) -> Estimate:
    k = out.deals
    seats: list[int | None] = [*range(out.players), None]
    win: dict[int | None, float] = {}
    win_se: dict[int | None, float] = {}
    counts = np.bincount(out.winner.astype(np.intp) + 1, minlength=out.players + 1)  # intp: Pyodide is 32-bit
    for seat in seats:
        p = counts[0 if seat is None else seat + 1] / k
        win[seat] = float(p)
        win_se[seat] = float(sqrt(p * (1 - p) / k))
    hold = float(out.held.mean())
    pot = out.pot.astype(np.float64)
    return Estimate(
        k,
        hold,
        sqrt(hold * (1 - hold) / k),
        win,
        win_se,
        float(pot.mean()),
        float(pot.std(ddof=1) / sqrt(k)) if k > 1 else float("inf"),
    )


def simulate(game: Game | Setup, deals: int = 100_000, seed: Any = None) -> Estimate:
    """Estimates of O1 (hold), O2 (win, every seat and ``None``) and O3 (pot) from
    ``deals`` simulated endings, with standard errors. A finished deal gives its
    settled numbers (O5) with standard error 0."""
    if not isinstance(game, Setup) and game.over:
        return _settled(game)
    if deals < 2:
        raise ValueError("simulate at least 2 deals")
    return _summary(play_outs(game, deals, seed))


def _settled(game: Game) -> Estimate:
    from .. import odds

    n = game.rules.players
    win = {s: float(p) for s, p in odds.win_probabilities(game).items()}
    zero = dict.fromkeys([*range(n), None], 0.0)
    return Estimate(0, float(odds.hold_probability(game)), 0.0, win, zero, float(odds.expected_pot(game)), 0.0)


@dataclass(frozen=True)
class Convergence:
    """Running estimates after ``deals[i]`` simulated endings (one long run, so each is
    the previous plus more deals), with standard errors, as arrays a plot can use.

    ``win`` and ``win_se`` have one column per seat and a last one for ``None``
    (``seats`` names the columns). ``band(z)`` gives lower and upper curves.
    """

    deals: np.ndarray
    hold: np.ndarray
    hold_se: np.ndarray
    win: np.ndarray
    win_se: np.ndarray
    pot: np.ndarray
    pot_se: np.ndarray
    seats: tuple[int | None, ...]

    def band(self, name: str = "hold", z: float = 2.0, seat: Any = 0) -> tuple[np.ndarray, np.ndarray]:
        """``(estimate - z se, estimate + z se)`` for ``"hold"``, ``"pot"`` or ``"win"`` (of ``seat``)."""
        if name == "win":
            col = self.seats.index(seat)
            est, se = self.win[:, col], self.win_se[:, col]
        else:
            est, se = getattr(self, name), getattr(self, name + "_se")
        return est - z * se, est + z * se


def convergence(
    game: Game | Setup, checkpoints: Sequence[int] = (10, 100, 1_000, 10_000, 100_000), seed: Any = None
) -> Convergence:
    """Estimates after 10, 100, 1,000, ... simulated endings of one long run (for a
    lesson's plot of chance settling on the exact numbers)."""
    points = np.array(sorted({int(c) for c in checkpoints}), dtype=np.int64)
    if len(points) == 0 or points[0] < 2:
        raise ValueError("checkpoints are whole numbers of deals, at least 2")
    out = play_outs(game, int(points[-1]), seed)
    n = out.players
    at = points - 1

    def running(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = x.astype(np.float64)
        s1 = np.cumsum(x)[at]
        s2 = np.cumsum(x * x)[at]
        mean = s1 / points
        var = np.maximum(s2 / points - mean**2, 0.0) * points / (points - 1)
        return mean, np.sqrt(var / points)

    hold, _ = running(out.held)
    pot, pot_se = running(out.pot)
    cols = [out.winner == seat for seat in range(n)] + [out.winner == -1]
    win = np.empty((len(points), n + 1))
    win_se = np.empty((len(points), n + 1))
    for c, hits in enumerate(cols):
        mean = np.cumsum(hits)[at] / points
        win[:, c] = mean
        win_se[:, c] = np.sqrt(mean * (1 - mean) / points)
    hold_se = np.sqrt(hold * (1 - hold) / points)
    return Convergence(points, hold, hold_se, win, win_se, pot, pot_se, (*range(n), None))
