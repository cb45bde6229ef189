"""Speed of the exact odds and of the Monte Carlo simulator (issue 3). Prints, asserts nothing.

    python benchmarks/bench_odds.py

Tables: 5 players x 3 cards, and the largest one, 8 players x 5 cards with a
dead pile and Jack-and-Five, a 2 turned up. Times are the best of several
repeats, in CPU time of this process (``time.process_time``) so that other
work on a shared machine disturbs them less; wall-clock time is printed for
the Monte Carlo rates too. "cold" empties the odds' memo tables before each
call; "warm" repeats the same call (the widget redrawing the same moment).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from speculation_nb import Card, Game, Rules, odds
from speculation_nb import simulate as sim
from speculation_nb.engine.cards import full_deck

TARGET = {"O1": 50e-6, "O2": 1e-3, "O2O3_5x3": 2e-3, "O2O3_8x5": 50e-3, "MC": 1_000_000}


def best_of(fn, repeats: int = 5, inner: int = 1, cold: bool = False) -> float:
    """Seconds per call, the best of ``repeats`` runs of ``inner`` calls."""
    best = float("inf")
    for _ in range(repeats):
        if cold:
            total = 0.0
            for _ in range(inner):
                odds.clear_caches()
                t = time.process_time()
                fn()
                total += time.process_time() - t
        else:
            fn()
            t = time.process_time()
            for _ in range(inner):
                fn()
            total = time.process_time() - t
        best = min(best, total / inner)
    return best


def us(seconds: float) -> str:
    return f"{seconds * 1e6:9.1f} µs"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms"


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else f"MISSED by {value / target:.1f}x"


def deal_with_turn_up(rules: Rules, turn_up: str, seed: int) -> Game:
    """A shuffled deck with ``turn_up`` as the turn-up card."""
    card = Card.parse(turn_up)
    deck = [c for c in full_deck() if c != card]
    random.Random(seed).shuffle(deck)
    dealt = rules.players * rules.hand_size + (rules.hand_size if rules.dead_hand else 0)
    return Game.deal(rules, deck=[*deck[:dealt], card, *deck[dealt:]])


def play_whole_deal(game: Game, seed: int) -> Game:
    """Play a deal to the end: reveals, and now and then a sale to a random bidder."""
    rng = random.Random(seed)
    n = game.rules.players
    while not game.over:
        if game.reveals and rng.random() < 0.08:
            game.open_auction()
            bidders = [s for s in range(n) if game.bid_range(s)]
            if bidders:
                game.bid(rng.choice(bidders), 1)
                game.accept(game.acceptable()[0])
            else:
                game.decline()
        else:
            game.reveal()
    return game


def main() -> None:
    t_start = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"speculation_nb odds benchmark   (python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {load:.1f})"
    )
    small = Game.deal(Rules(players=5), seed=3)
    small_low = deal_with_turn_up(Rules(players=5), "2H", seed=1)
    big_rules = Rules(players=8, hand_size=5, dead_hand=True, jack_five=True)
    big = deal_with_turn_up(big_rules, "2H", seed=1)
    tables = {"5x3": small, "5x3 (2 up)": small_low, "8x5+dead+V1 (2 up)": big}

    print("\nO1 hold probability, one call")
    worst_o1 = 0.0
    for name, game in tables.items():
        cold = best_of(lambda game=game: odds.hold_probability(game), repeats=5, inner=200, cold=True)
        warm = best_of(lambda game=game: odds.hold_probability(game), repeats=5, inner=2000)
        worst_o1 = max(worst_o1, cold)
        print(f"  {name:20s} cold {us(cold)}   warm {us(warm)}")

    print("\nO2 win probabilities for every seat, one call, at several moments")
    worst_o2 = 0.0
    for name, game in (("5x3", small), ("8x5+dead+V1 (2 up)", big)):
        whole = play_whole_deal(game.copy(), seed=2)
        k_all = len(whole.history)
        for label, k in (
            ("first reveal", 0),
            ("a third in", k_all // 3),
            ("two thirds in", 2 * k_all // 3),
            ("last move", k_all - 1),
        ):
            moment = whole.at(k)
            cold = best_of(lambda moment=moment: odds.win_probabilities(moment), repeats=5, inner=20, cold=True)
            warm = best_of(lambda moment=moment: odds.win_probabilities(moment), repeats=5, inner=500)
            worst_o2 = max(worst_o2, cold)
            print(f"  {name:20s} {label:14s} cold {us(cold)}   warm {us(warm)}")
    # the worst case over many random moments of the largest table
    rng = random.Random(5)
    worst_seen = 0.0
    moments = []
    for i in range(12):
        whole = play_whole_deal(deal_with_turn_up(big_rules, rng.choice(["2H", "5S", "9D", "QC"]), seed=i), seed=i)
        moments += [whole.at(k) for k in range(0, len(whole.history), 3)]
    for moment in moments:
        once = best_of(lambda moment=moment: odds.win_probabilities(moment), repeats=2, inner=1, cold=True)
        worst_seen = max(worst_seen, once)
    worst_o2 = max(worst_o2, worst_seen)
    print(f"  {'8x5+dead+V1':20s} slowest of {len(moments)} random moments (cold): {us(worst_seen)}")

    print("\nO2 + O3 (win probabilities and expected pot)")
    o2o3 = {}
    for name, game in (("5x3", small), ("5x3 (2 up)", small_low), ("8x5+dead+V1 (2 up)", big)):

        def both(game: Game = game) -> object:
            return odds.win_probabilities(game), odds.expected_pot(game)

        cold = best_of(both, repeats=5, inner=5, cold=True)
        warm = best_of(both, repeats=5, inner=200)
        o2o3[name] = cold
        print(f"  {name:20s} first reveal      cold {ms(cold)}   warm {ms(warm)}")
    for name, game in (("5x3", small), ("8x5+dead+V1 (2 up)", big)):
        whole = play_whole_deal(game.copy(), seed=2)
        states = [whole.at(k) for k in range(len(whole.history) + 1)]
        odds.clear_caches()
        t = time.process_time()
        for moment in states:
            odds.win_probabilities(moment)
            odds.expected_pot(moment)
        total = time.process_time() - t
        print(
            f"  {name:20s} every moment of a whole deal ({len(states)} moments): "
            f"{ms(total)} in all, {ms(total / len(states))} a moment"
        )
    be = best_of(
        lambda: [(odds.break_even(big, s), odds.seller_break_even(big, s)) for s in range(1, 8)], repeats=3, cold=True
    )
    print(f"  {'8x5+dead+V1 (2 up)':20s} break-even + seller's, all 7 buyers, cold {ms(be)}")

    print("\nMonte Carlo: simulated deal endings per second, from the first reveal")
    rates = {}
    for name, game in (("5x3", small), ("5x3 (2 up)", small_low), ("8x5+dead+V1 (2 up)", big)):
        s = sim.setup(game)
        deals = 400_000 if game is not big else 100_000
        best_cpu = best_wall = float("inf")
        for r in range(3):
            w, t = time.perf_counter(), time.process_time()
            sim.play_outs(s, deals, seed=r)
            best_cpu = min(best_cpu, time.process_time() - t)
            best_wall = min(best_wall, time.perf_counter() - w)
        py_deals = 20_000 if game is not big else 5_000
        t = time.process_time()
        sim.play_outs_python(s, py_deals, seed=1)
        py = (time.process_time() - t) / py_deals
        rate = deals / best_cpu
        rates[name] = rate
        print(
            f"  {name:20s} numpy {rate:12,.0f}/s CPU ({deals / best_wall:12,.0f}/s wall)   "
            f"plain Python loop {1 / py:10,.0f}/s   ratio {rate * py:6.1f}x"
        )

    print("\nTargets")
    print(f"  O1 < 50 µs a call:                      worst {us(worst_o1)}  {verdict(worst_o1, TARGET['O1'])}")
    print(f"  O2 every seat < 1 ms, any moment:       worst {us(worst_o2)}  {verdict(worst_o2, TARGET['O2'])}")
    first = o2o3["5x3 (2 up)"]
    print(f"  O2+O3 first reveal 5x3 < 2 ms:          {ms(first)}  {verdict(first, TARGET['O2O3_5x3'])}")
    print(
        f"  O2+O3 first reveal 8x5 < 50 ms:         {ms(o2o3['8x5+dead+V1 (2 up)'])}  "
        f"{verdict(o2o3['8x5+dead+V1 (2 up)'], TARGET['O2O3_8x5'])}"
    )
    mc = min(rates["5x3"], rates["5x3 (2 up)"])
    print(f"  Monte Carlo 5x3 >= 1,000,000 endings/s: {mc:12,.0f}/s  {verdict(TARGET['MC'], mc)}")
    print(f"\n(finished in {time.perf_counter() - t_start:.0f} s wall)")


if __name__ == "__main__":
    main()
