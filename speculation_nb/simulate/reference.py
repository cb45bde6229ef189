"""The same play-outs as :func:`~speculation_nb.simulate.play_outs`, one deal at a time in plain Python.

A second, independent implementation of the same rules (for the benchmark's comparison, and
for the tests to check the numpy one against).
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING, Any

import numpy as np

from .playouts import JF, PlayOuts, Setup, setup

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["play_outs_python"]


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
            if card >= JF and stacks[due] > 0:
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
