"""The Monte Carlo simulator (speculation_nb.simulate) against the exact odds
(O1-O3) and against plain play-outs of Game itself; reproducible by seed."""

from __future__ import annotations

import random
import zlib
from math import sqrt

import numpy as np
import pytest
from brute_force import play_out, random_moment, skeleton

from speculation_nb import Game, Rules, odds
from speculation_nb import simulate as sim

RULES = [
    Rules(players=3),
    Rules(players=5),
    Rules(players=8, hand_size=5, dead_hand=True, jack_five=True),
    Rules(players=4, preset="hoyle1847"),
    Rules(players=6, preset="hoyle1847"),
    Rules(players=4, jack_five=True, blind_trading=True),
    Rules(players=5, dead_hand=True, hand_size=4, blind_trading=True),
    Rules(players=3, jack_five=True, dead_hand=True, hand_size=5, ante="uniform", price_cap=5),
]


def states(rules: Rules, seed: int, count: int, poor: bool = False) -> list[Game]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        stacks = None
        if poor:
            stacks = [max(rules.dealer_ante, rules.player_ante) + rng.randint(0, 2) for _ in range(rules.players)]
        game = random_moment(rules, rng, stop=rng.choice([0.03, 0.15, 0.5, 0.9]), trade=0.3, stacks=stacks)
        if not game.over:
            out.append(game)
    return out


def within(estimate: float, exact: float, se: float, deals: int) -> bool:
    """Within 4 standard errors (with a floor of 1/deals for rare events)."""
    return abs(estimate - exact) <= 4 * se + 1.0 / deals


def check_against_exact(game: Game, winner: np.ndarray, pot: np.ndarray, held: np.ndarray | None) -> None:
    deals = len(winner)
    for seat, p in odds.win_probabilities(game).items():
        p = float(p)
        freq = float(np.mean(winner == (-1 if seat is None else seat)))
        assert within(freq, p, sqrt(p * (1 - p) / deals), deals), (seat, freq, p)
    if held is not None:
        h = float(odds.hold_probability(game))
        assert within(float(held.mean()), h, sqrt(h * (1 - h) / deals), deals)
    mu = float(odds.expected_pot(game))
    se = float(np.std(pot, ddof=1)) / sqrt(deals)
    assert within(float(pot.mean()), mu, se, deals), (float(pot.mean()), mu, se)


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_O1_O2_O3_simulator_agrees_with_the_exact_odds(rules):
    for i, game in enumerate(states(rules, seed=zlib.crc32(repr(rules).encode()), count=3, poor=rules.jack_five)):
        out = sim.play_outs(game, 60_000, seed=i)
        check_against_exact(game, out.winner, out.pot, out.held)
        est = sim.simulate(game, 60_000, seed=i)
        assert est.deals == 60_000 and set(est.win) == {*range(rules.players), None}
        assert abs(sum(est.win.values()) - 1) < 1e-9
        assert est.hold == pytest.approx(float(out.held.mean()))


@pytest.mark.parametrize("rules", [RULES[1], RULES[2], RULES[3], RULES[5]], ids=repr)
def test_O2_O3_plain_Game_play_outs_agree_with_the_simulator_and_the_exact_odds(rules):
    """Shuffle the unseen cards into the face-down slots, rebuild the deal with Game,
    replay its history and turn cards up to the end: many times, by seed."""
    game = states(rules, seed=3, count=1, poor=rules.jack_five)[0]
    rng = random.Random(1)
    sk = skeleton(game)
    deals = 600
    ends = [play_out(game, rng, sk) for _ in range(deals)]
    winner = np.array([-1 if g.winner is None else g.winner for g in ends])
    pot = np.array([[e["pot"] for e in g.events if e.kind in ("win", "carry_over")][-1] for g in ends])
    check_against_exact(game, winner, pot, None)
    # and against the simulator: two samples, the same distribution
    out = sim.play_outs(game, 100_000, seed=2)
    for seat in [*range(rules.players), -1]:
        a, b = float(np.mean(winner == seat)), float(np.mean(out.winner == seat))
        p = (a * deals + b * out.deals) / (deals + out.deals)
        se = sqrt(max(p * (1 - p), 1e-12) * (1 / deals + 1 / out.deals))
        assert abs(a - b) <= 4 * se + 1 / deals
    se = sqrt(np.var(pot, ddof=1) / deals + np.var(out.pot, ddof=1) / out.deals)
    assert abs(pot.mean() - out.pot.mean()) <= 4 * se + 1e-9


def test_O2_O3_the_plain_python_loop_agrees_with_the_exact_odds():
    for rules in (RULES[2], RULES[3], RULES[5]):
        game = states(rules, seed=5, count=1, poor=rules.jack_five)[0]
        out = sim.play_outs_python(game, 4000, seed=1)
        check_against_exact(game, out.winner, out.pot, out.held)


def test_simulator_is_reproducible_by_seed_and_takes_a_generator():
    game = Game.deal(RULES[2], seed=4)
    a = sim.play_outs(game, 5000, seed=7)
    b = sim.play_outs(game, 5000, seed=7)
    c = sim.play_outs(game, 5000, seed=np.random.default_rng(7))
    d = sim.play_outs(game, 5000, seed=8)
    for x in (b, c):
        assert np.array_equal(a.winner, x.winner) and np.array_equal(a.pot, x.pot) and np.array_equal(a.held, x.held)
    assert not np.array_equal(a.winner, d.winner)
    assert sim.simulate(game, 3000, seed=1) == sim.simulate(game, 3000, seed=1)
    assert sim.play_outs_python(game, 300, seed=3) is not None
    py1, py2 = sim.play_outs_python(game, 300, seed=3), sim.play_outs_python(game, 300, seed=3)
    assert np.array_equal(py1.winner, py2.winner)


def test_convergence_gives_nested_running_estimates_with_bands():
    game = Game.deal(Rules(players=5), seed=3)
    conv = sim.convergence(game, checkpoints=(10, 100, 1000, 10_000), seed=5)
    assert list(conv.deals) == [10, 100, 1000, 10_000]
    assert conv.win.shape == conv.win_se.shape == (4, 6) and conv.seats == (0, 1, 2, 3, 4, None)
    assert np.allclose(conv.win.sum(axis=1), 1)
    assert np.all(np.diff(conv.hold_se[1:]) < 0)  # the band narrows like 1/sqrt(deals)
    last = sim.simulate(game, 10_000, seed=5)
    assert conv.hold[-1] == pytest.approx(last.hold) and conv.win[-1, 0] == pytest.approx(last.win[0])
    assert conv.pot[-1] == pytest.approx(last.pot)
    low, high = conv.band("win", z=2, seat=0)
    assert np.all(low <= conv.win[:, 0]) and np.all(conv.win[:, 0] <= high)
    low, high = conv.band("pot")
    assert np.all(low <= high)
    exact = float(odds.win_probabilities(game)[0])
    assert abs(conv.win[-1, 0] - exact) <= 4 * conv.win_se[-1, 0]
    with pytest.raises(ValueError):
        sim.convergence(game, checkpoints=(1,))


def test_O5_a_finished_deal_is_settled_in_the_simulator_too():
    game = Game.from_layout(Rules(players=3), [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "9H")
    while not game.over:
        game.reveal()
    est = sim.simulate(game)
    assert est.win[0] == 1 and est.win_se[0] == 0 and est.pot == 14 and est.hold == 1
    with pytest.raises(ValueError):
        sim.play_outs(game, 10)


def test_simulator_plays_hoyle1847_c_and_the_dead_pile():
    # no trump has come up: the pot carries over unless a trump is in some pile (hoyle c)
    game = Game.from_layout(
        Rules(players=3, preset="hoyle1847"), [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "9H"
    )
    out = sim.play_outs(game, 50_000, seed=1)
    check_against_exact(game, out.winner, out.pot, out.held)
    assert 0.05 < float(np.mean(out.winner == -1)) < 0.2
    rules = Rules(players=4, dead_hand=True, jack_five=True)
    game = Game.deal(rules, seed=9)
    out = sim.play_outs(game, 50_000, seed=1)
    check_against_exact(game, out.winner, out.pot, out.held)
    assert float(np.mean(out.winner == -1)) > 0.01
