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

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from .view import public_view

if TYPE_CHECKING:
    from .game import Game

__all__ = [
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

CHUNK = 1 << 14
_JF = 16  # bit of a card's code: a Jack or a Five (V1)


# ------------------------------------------------------------------- the set-up
@dataclass(frozen=True)
class Setup:
    """The public state of a live deal, as the simulator needs it.

    ``codes``: one small integer per unseen card, its trump rank (0 for a
    non-trump) plus 16 for a Jack or Five when V1 is played; the face-down slots
    are columns ``0..N-1`` (seat by seat, top card first) then the dead pile.
    """

    players: int
    face_down: tuple[int, ...]
    dead: int
    holder: int
    best: int
    turn: int
    pot: int
    stacks: tuple[int, ...]
    codes: tuple[int, ...]
    jack_five: bool
    hoyle: bool
    trump_up: bool  # a trump has already come up from a pile (hoyle1847 c)

    @property
    def offsets(self) -> tuple[int, ...]:
        out, at = [], 0
        for f in self.face_down:
            out.append(at)
            at += f
        return tuple(out)

    @property
    def slots(self) -> int:
        return sum(self.face_down) + self.dead


def setup(game: Game) -> Setup:
    """Read a live deal's public state (never its face-down cards) from its public view."""
    if game.over:
        raise ValueError("the deal is over: nothing is left to simulate")
    v = public_view(game)
    codes = []
    for card in v.unseen_cards:
        code = card.rank if card.suit == v.trump else 0
        if v.jack_five and card.rank in (5, 11):
            code += _JF
        codes.append(code)
    assert v.turn is not None
    return Setup(
        players=v.players,
        face_down=v.face_down,
        dead=v.dead,
        holder=v.holder,
        best=v.best,
        turn=v.turn,
        pot=v.pot,
        stacks=v.stacks,
        codes=tuple(codes),
        jack_five=v.jack_five,
        hoyle=v.hoyle,
        trump_up=v.trump_up,
    )


@cache
def _next_table(n: int) -> np.ndarray:
    """``T[due, holder, mask]``: the next seat to turn up after ``due`` did (P3, P4), the
    seats with face-down cards being the bits of ``mask``; ``n`` when nobody is left (P7).
    Row ``due = n`` (a finished deal) always gives ``n``."""
    table = np.full((n + 1, n, 1 << n), n, dtype=np.int64)
    for due in range(n):
        for holder in range(n):
            for mask in range(1 << n):
                for step in range(1, n + 1):
                    seat = (due + step) % n
                    if seat != holder and mask >> seat & 1:
                        table[due, holder, mask] = seat
                        break
    table.setflags(write=False)
    return table


def _generator(seed: Any) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


# ------------------------------------------------------------------- play-outs
@dataclass(frozen=True)
class PlayOuts:
    """The raw results of simulated endings, one entry per deal.

    ``winner``: the seat that took the pot, or -1 when it carried over;
    ``pot``: the final pot; ``held``: True when no card in another player's
    pile or the dead pile out-ranked the best trump (the event of O1).
    """

    winner: np.ndarray
    pot: np.ndarray
    held: np.ndarray
    players: int

    @property
    def deals(self) -> int:
        return len(self.winner)


def _draws(rng: np.random.Generator, rows: int, U: int, steps: int) -> np.ndarray:
    """``(rows, steps)`` independent integers, column ``i`` uniform on ``0..U-i-1``: few
    64-bit draws, each split exactly by mixed-radix ``divmod``."""
    out = np.empty((rows, steps), dtype=np.int64)
    i = 0
    while i < steps:
        radix, j = 1, i
        while j < steps and radix * (U - j) < 1 << 62:
            radix *= U - j
            j += 1
        x = rng.integers(0, radix, size=rows, dtype=np.int64)
        for k in range(i, j):
            x, out[:, k] = np.divmod(x, U - k)
        i = j
    return out


def _partial_shuffle(rng: np.random.Generator, items: np.ndarray, rows: int, steps: int) -> np.ndarray:
    """``(steps, rows)``: column ``r`` holds the first ``steps`` entries of a Fisher-Yates
    shuffle of ``items`` (one shuffle per column; deal-major layout, so each step reads
    and writes contiguous memory)."""
    U = len(items)
    deck = np.repeat(items[:, None], rows, axis=1)
    flat = deck.reshape(-1)
    picks = _draws(rng, rows, U, steps)
    rowid = np.arange(rows, dtype=np.int64)
    j = np.empty(rows, dtype=np.int64)
    chosen = np.empty(rows, dtype=deck.dtype)
    for i in range(steps):
        np.add(picks[:, i], i, out=j)
        j *= rows
        j += rowid
        np.take(flat, j, out=chosen)
        flat[j] = deck[i]
        deck[i] = chosen
    return deck[:steps]


def _play_chunk(s: Setup, rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``rows`` endings at once. Arrays are laid out slot-major: ``table[c, r]`` is
    the card in column ``c`` of deal ``r``, so one step of all deals touches memory in order."""
    n = s.players
    f = np.array(s.face_down, dtype=np.int64)
    N = int(f.sum())
    L = N + s.dead
    offsets = np.array(s.offsets, dtype=np.int64)
    ends = offsets + f
    # Cards that cannot change anything are blanks (0): trumps below the best (except
    # for hoyle1847 (c) while no trump has come up), and, without V1, Jacks and Fives.
    codes = np.array(s.codes, dtype=np.int8)
    rank_of = codes & 15
    keep = (rank_of > s.best) | (codes >= _JF)
    if s.hoyle and not s.trump_up:
        keep |= rank_of > 0
    codes = np.where(keep, codes, 0).astype(np.int8)
    U = len(codes)
    relevant = np.flatnonzero(codes)
    rowid = np.arange(rows, dtype=np.int64)

    # 1. shuffle. Columns: the L face-down slots (seat by seat, top card first, then the
    # dead pile), in mode B the stock, then one blank column per step for finished deals.
    if len(relevant) < L:  # mode B: place the few cards that matter among all U places
        spare = U
        table = np.zeros((U + N + 1, rows), dtype=np.int8)
        flat = table.reshape(-1)
        places = _partial_shuffle(rng, np.arange(U, dtype=np.int8), rows, len(relevant))
        where = np.empty(rows, dtype=np.int64)
        for i, index in enumerate(relevant):
            np.multiply(places[i], np.int64(rows), out=where)
            where += rowid
            flat[where] = codes[index]
    else:  # mode A: deal L cards
        spare = L
        table = np.zeros((L + N + 1, rows), dtype=np.int8)
        table[:L] = _partial_shuffle(rng, codes, rows, L)
        flat = table.reshape(-1)
    slots = table[:L] & 15

    # O1's event: no card in the other players' piles or the dead pile out-ranks the best trump
    others = np.ones(L, dtype=bool)
    others[offsets[s.holder] : ends[s.holder]] = False
    held = np.asarray(~(slots[others] > s.best).any(axis=0))
    dead_top = slots[N:L].max(axis=0) if s.dead else None

    # 2. play: every deal turns up one card per step
    m = n + 1  # seat n stands for "the deal is over"
    nxt = np.repeat(np.concatenate([offsets, [spare]]) * rows, rows)  # [seat, deal]: where its top card is
    nxt += np.tile(rowid, m)
    last_bit = np.zeros(len(table), dtype=np.int64)  # 1 << seat at a pile's last card
    for seat in range(n):
        if f[seat]:
            last_bit[ends[seat] - 1] = 1 << seat
    lut = _next_table(n).reshape(-1)
    span = 1 << n
    holder = np.full(rows, s.holder, dtype=np.int64)
    best = np.full(rows, s.best, dtype=np.int8)
    mask = np.full(rows, sum(1 << seat for seat in range(n) if f[seat]), dtype=np.int64)
    due = np.full(rows, s.turn, dtype=np.int64)
    # work buffers: every step below writes into these (out=), allocating nothing
    slot = np.empty(rows, dtype=np.int64)
    at = np.empty(rows, dtype=np.int64)
    tmp = np.empty(rows, dtype=np.int64)
    card = np.empty(rows, dtype=np.int8)
    better = np.empty(rows, dtype=bool)
    v1 = s.jack_five
    if v1:
        stacks = np.repeat(np.array([*s.stacks, 0], dtype=np.int64), rows)  # seat n has no chip
        paid = np.zeros(rows, dtype=np.int64)
        chips = np.empty(rows, dtype=np.int64)
        owes = np.empty(rows, dtype=bool)
        has = np.empty(rows, dtype=bool)
    trump_up = np.full(rows, s.trump_up) if s.hoyle else None
    for step in range(N):
        np.multiply(due, rows, out=slot)  # [seat due, deal]
        slot += rowid
        np.take(nxt, slot, out=at)  # where its top card lies
        np.add(at, rows, out=tmp)
        nxt[slot] = tmp
        np.take(flat, at, out=card)  # turn it up (P3)
        if v1:  # V1: a Jack or Five costs a chip, if there is one
            np.greater_equal(card, _JF, out=owes)
            np.take(stacks, slot, out=chips)
            np.greater(chips, 0, out=has)
            np.logical_and(owes, has, out=owes)
            np.subtract(chips, owes, out=chips)
            stacks[slot] = chips
            paid += owes
            np.bitwise_and(card, 15, out=card)
        if trump_up is not None:
            trump_up |= card > 0
        np.greater(card, best, out=better)  # P6: a new best trump, a new holder
        np.maximum(best, card, out=best)
        np.copyto(holder, due, where=better)
        np.floor_divide(at, rows, out=tmp)  # a pile just emptied leaves the mask
        np.take(last_bit, tmp, out=tmp)
        np.bitwise_xor(mask, tmp, out=mask)
        np.multiply(due, n, out=tmp)  # P3, P4, P7: the next seat, or n when over
        tmp += holder
        tmp *= span
        tmp += mask
        np.take(lut, tmp, out=due)
        if step >= N // 2 and not (due != n).any():
            break

    # 3. the end (P7-P9, hoyle1847 b and c)
    winner = holder.astype(np.int8)
    if trump_up is not None:
        # (b): the holder's remaining cards are turned up; (c): no trump from the piles at all
        start = nxt[holder * rows + rowid] // rows
        cols = np.arange(L)[:, None]
        left = (cols >= start) & (cols < ends[holder])
        trump_up |= ((slots > 0) & left).any(axis=0)
        winner[~trump_up] = -1
    if dead_top is not None:
        winner[dead_top > best] = -1
    pot = s.pot + paid if v1 else np.full(rows, s.pot, dtype=np.int64)
    return winner, pot, held


def play_outs(game: Game | Setup, deals: int = 100_000, seed: Any = None) -> PlayOuts:
    """Play the rest of ``game`` out ``deals`` times (no further trade; an open auction
    counts as declined). ``seed``: an int, None, or a :class:`numpy.random.Generator`."""
    s = game if isinstance(game, Setup) else setup(game)
    rng = _generator(seed)
    winners: list[np.ndarray] = []
    pots: list[np.ndarray] = []
    helds: list[np.ndarray] = []
    left = int(deals)
    while left > 0:
        rows = min(CHUNK, left)
        w, p, h = _play_chunk(s, rows, rng)
        winners.append(w)
        pots.append(p)
        helds.append(h)
        left -= rows
    if not winners:
        return PlayOuts(np.zeros(0, np.int8), np.zeros(0, np.int32), np.zeros(0, bool), s.players)
    return PlayOuts(np.concatenate(winners), np.concatenate(pots), np.concatenate(helds), s.players)


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
    counts = np.bincount(out.winner.astype(np.int64) + 1, minlength=out.players + 1)
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
    from . import odds

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


# ------------------------------------------------- the same work as a plain loop
def play_outs_python(game: Game | Setup, deals: int = 10_000, seed: Any = None) -> PlayOuts:
    """The same simulation as :func:`play_outs`, one deal at a time in plain Python
    (for the benchmark's comparison, and as a second implementation to test against)."""
    s = game if isinstance(game, Setup) else setup(game)
    rng = _random.Random(seed)
    n = s.players
    f = s.face_down
    N = sum(f)
    L = N + s.dead
    offsets = s.offsets
    codes = list(s.codes)
    others = [c for seat in range(n) if seat != s.holder for c in range(offsets[seat], offsets[seat] + f[seat])]
    others += list(range(N, L))
    winners: list[int] = []
    pots: list[int] = []
    helds: list[bool] = []
    for _ in range(deals):
        cards = rng.sample(codes, L)
        held = not any((cards[c] & 15) > s.best for c in others)
        pos = list(offsets)
        left = list(f)
        holder, best = s.holder, s.best
        pointer: int | None = s.turn
        stacks = list(s.stacks)
        paid = 0
        trump_up = s.trump_up
        while pointer is not None:
            due = pointer
            card = cards[pos[due]]
            pos[due] += 1
            left[due] -= 1
            rank = card & 15
            if card >= _JF and stacks[due] > 0:
                stacks[due] -= 1
                paid += 1
            if rank:
                trump_up = True
            if rank > best:
                best, holder = rank, due
            pointer = None
            for step in range(1, n + 1):
                seat = (due + step) % n
                if seat != holder and left[seat]:
                    pointer = seat
                    break
            if pointer is None:
                break
        winner = holder
        if s.hoyle:
            rest = cards[pos[holder] : offsets[holder] + f[holder]]
            if not trump_up and not any(c & 15 for c in rest):
                winner = -1
        if s.dead and max((c & 15) for c in cards[N:L]) > best:
            winner = -1
        winners.append(winner)
        pots.append(s.pot + paid)
        helds.append(held)
    return PlayOuts(np.array(winners, np.int8), np.array(pots, np.int32), np.array(helds, bool), n)
