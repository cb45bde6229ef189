"""The play-outs: the rest of a deal played out many times at once, by the full rules, with numpy.

:func:`setup` reads what the simulator needs from the public view of a live deal
(:mod:`speculation_nb.odds.view`); :func:`play_outs` shuffles the unseen cards into the face-down
places (all arrangements equally likely) and plays every simulated deal on together, one
numpy operation doing one reveal of every deal at once, the next seat to turn up coming from
a small lookup table indexed by (seat just played, holder, seats with cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..odds.view import public_view

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["CHUNK", "JF", "PlayOuts", "Setup", "generator", "play_outs", "setup"]

CHUNK = 1 << 14
JF = 16  # bit of a card's code: a Jack or a Five (V1)


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
            code += JF
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


def generator(seed: Any) -> np.random.Generator:
    """A numpy generator from a seed (an int or None), or the generator given."""
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


def _take(a: np.ndarray, indices: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``np.take(a, indices, out=out)`` with the indices as the platform's own index type: under
    Pyodide (32 bits) numpy refuses int64 indices there; elsewhere nothing is copied."""
    return np.take(a, indices.astype(np.intp, copy=False), out=out)


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
        _take(flat, j, out=chosen)
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
    keep = (rank_of > s.best) | (codes >= JF)
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
        _take(nxt, slot, out=at)  # where its top card lies
        np.add(at, rows, out=tmp)
        nxt[slot] = tmp
        _take(flat, at, out=card)  # turn it up (P3)
        if v1:  # V1: a Jack or Five costs a chip, if there is one
            np.greater_equal(card, JF, out=owes)
            _take(stacks, slot, out=chips)
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
        _take(last_bit, tmp, out=tmp)
        np.bitwise_xor(mask, tmp, out=mask)
        np.multiply(due, n, out=tmp)  # P3, P4, P7: the next seat, or n when over
        tmp += holder
        tmp *= span
        tmp += mask
        _take(lut, tmp, out=due)
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
    rng = generator(seed)
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
