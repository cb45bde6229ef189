"""Lesson 2 (parts 02a and 02b): the counting functions of speculation_nb.lessons.lesson2 against
brute force and the engine, the students' simulation against its solution, and every number the
text states about the lesson's deal (issue 14, items 3, 4 and 8 among them)."""

from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lesson_helpers import live_moments

from speculation_nb import Game, Rules, odds
from speculation_nb.lessons import lesson2 as L
from speculation_nb.lessons.questions import get

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


# ------------------------------------------------------------------ counting
def test_four_ways_to_count_agree():
    for U in range(10):
        for h in range(U + 1):
            for n in range(U + 1):
                p = L.hold_formula(U, h, n)
                assert L.hold_by_listing(U, h, n) == p == L.hold_card_by_card(U, h, n) == L.hold_by_places(U, h, n)


@given(st.integers(1, 52), st.data())
def test_the_hypergeometric_distribution(U, data):
    h = data.draw(st.integers(0, U))
    n = data.draw(st.integers(0, U))
    pmf = L.hypergeometric(U, h, n)
    assert sum(pmf) == 1 and pmf[0] == L.hold_formula(U, h, n)
    assert sum(k * p for k, p in enumerate(pmf)) == Fraction(n * h, U)  # the mean n·h/U
    binom = L.binomial(n, Fraction(h, U))
    assert sum(binom) == 1 and sum(k * p for k, p in enumerate(binom)) == Fraction(n * h, U)
    var = lambda d: sum(k * k * p for k, p in enumerate(d)) - Fraction(n * h, U) ** 2  # noqa: E731
    assert var(pmf) <= var(binom)  # "the hypergeometric is a little narrower"


def test_hold_formula_is_the_engines_o1():
    for players in (3, 5, 8):
        for game in live_moments(Rules(players=players), range(4)):
            U, h, n = L.numbers(game)
            assert L.hold_formula(U, h, n) == odds.hold_probability(game)


def test_holder_win_probability_is_the_engines_o2():
    count = 0
    for players in (3, 4, 6, 8):
        for game in live_moments(Rules(players=players), range(6)):
            U, h = game.unseen, 14 - game.best_trump.rank
            f, S = game.face_down[game.holder], game.unseen - sum(game.face_down)
            assert L.holder_win_probability(U, h, f, S) == odds.win_probabilities(game)[game.holder]
            count += 1
    assert count > 100


def test_standard_error_running_frequency_and_coverage():
    assert L.standard_error(Fraction(1, 2), 100) == pytest.approx(0.05)
    assert L.standard_error(1, 10) == 0
    hits = np.array([[1, 0, 1, 1], [0, 0, 0, 1]], dtype=bool)
    assert np.allclose(L.running_frequency(hits, [1, 2, 4]), [[1, 0.5, 0.75], [0, 0, 0.25]])
    hits = np.array([[1, 0, 1, 0], [1, 1, 1, 1]])
    assert L.band_coverage(hits, Fraction(1, 2)) == 0.5 and L.band_coverage(hits, 1) == 1.0
    assert L.band_coverage(hits, Fraction(9, 10), z=1) == 0.0
    assert abs(L.sqrt_fraction(Fraction(2)) ** 2 - 2) < Fraction(1, 10**25)


# ---------------------------------------------------------- what the text says
def test_the_deal_as_part_a_tells_it():
    deal = L.the_deal()
    assert deal.over and deal.winner == 2 and L.NAMES[2] == "Fanny"
    start, queen = deal.at(0), deal.at(2)
    assert str(start.best_trump) == "6♥" and start.holder == 0 == start.dealer and 14 - start.best_trump.rank == 8
    assert [str(c) for c in queen.face_up[1]] == ["9♣"] and str(queen.best_trump) == "Q♥" and queen.holder == 2
    assert L.numbers(queen) == (49, 2, 8)
    p = odds.hold_probability(queen)
    assert p == Fraction(205, 294) == Fraction(41 * 40, 49 * 48) and round(float(p), 2) == 0.70  # "about 70 %"
    assert comb(49, 8) > 450_000_000  # "more than 450 million"
    chances = [odds.hold_probability(deal.at(k)) for k in range(2, 7)]
    assert chances == sorted(chances) and all(deal.at(k).holder == 2 for k in range(2, 7))  # "it climbs"
    assert str(deal.at(7).best_trump) == "K♥" and deal.at(7).holder == 0
    assert str(deal.at(9).best_trump) == "A♥" and deal.at(9).holder == 2 and odds.hold_probability(deal.at(9)) == 1
    assert deal.at(5).holder == 2 and str(deal.at(5).best_trump) == "Q♥"


def test_the_small_world_and_the_distribution():
    assert get("l2a.small_world").answer() == 4 and L.hold_formula(6, 2, 3) == Fraction(4, 20)
    pmf = L.hypergeometric(49, 2, 8)
    assert pmf[:3] == [Fraction(205, 294), Fraction(41, 147), Fraction(1, 42)] and set(pmf[3:]) == {0}
    assert get("l2a.mean_dangerous").answer() == Fraction(16, 49)
    assert L.binomial(8, Fraction(2, 49))[0] > pmf[0]  # drawing with replacement: the Queen would hold more often


def test_issue_14_item_3_the_stock_counts_through_U():
    """'P depends on U, so on the stock (n=8, h=2: 0.697 at U=49, 0.568 at U=33)'."""
    assert round(float(L.hold_formula(49, 2, 8)), 3) == 0.697
    assert round(float(L.hold_formula(33, 2, 8)), 3) == 0.568
    assert get("l2a.smaller_stock").answer() == L.hold_formula(33, 2, 8)
    text = "".join((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8") for stem in (L.LESSON_A, L.LESSON_A2))
    assert "plays no part" not in text and "0.697" in text


def test_issue_14_item_4_the_standard_error_questions():
    """'the hint "for instance 0.0092" is the answer (2 SE = 0.00919); "typically stray" describes 1 SE'."""
    p = Fraction(205, 294)
    two = get("l2b.two_se").answer()
    one = get("l2b.one_se").answer()
    assert abs(float(two) - 2 * sqrt(float(p * (1 - p)) / 10_000)) < 1e-12 and round(float(two), 5) == 0.00919
    assert abs(two - 2 * one) < Fraction(1, 10**20)
    for key in ("l2b.one_se", "l2b.two_se"):
        hint = get(key).texts("en")["hint"]
        assert "0.0092" not in hint and "0.0046" not in hint
    assert "typically" in get("l2b.one_se").texts("en")["question"]
    assert "95 %" in get("l2b.two_se").texts("en")["question"]
    assert get("l2b.hundred_times").answer() == 100


def test_issue_14_item_8_the_highest_hidden_trump_need_not_be_turned_up():
    """Part b says its owner 'may win with a lower trump that nobody beats, and then never need to turn it up'.
    Here is such a deal: Mary holds the K♥ under the J♥; her J♥ wins and the K♥ stays face down."""
    piles = [["2C", "3C", "4C"], ["JH", "KH", "5C"], ["6C", "7C", "8C"], ["9C", "10C", "2D"]]
    game = Game.from_layout(Rules(players=4), piles=piles, turn_up="3H", dealer=0)
    while not game.over:
        game.reveal()
    assert game.winner == 1 and str(game.best_trump) == "J♥" and game.face_down[1] == 2
    text = (NOTEBOOKS / "02b_simulating_the_queen.ipynb").read_text(encoding="utf-8")
    assert "will end up turning it up" not in text and "never need to turn it up" in text


def test_o1_is_part_of_o2_at_the_start():
    start = L.the_deal().at(0)
    hold, win = odds.hold_probability(start), odds.win_probabilities(start)[0]
    assert win > hold
    U, h = start.unseen, 8
    S = U - sum(start.face_down)
    assert Fraction(comb(S, h), comb(U, h)) < hold  # "the first case alone is smaller than O1"
    assert get("l2b.edmund_wins").answer() == win and get("l2b.six_holds").answer() == hold


def test_the_students_simulation_is_the_packages_solution():
    """The cell of part b runs as given; its result is lesson2.my_simulation's, and it is close to p
    (the text says 'close to 205/294 ≈ 0.6973, but not equal to it')."""
    nb = nbformat.read(NOTEBOOKS / "02b_simulating_the_queen.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.id == "l2b-10")
    namespace = {"np": np, "U": 49, "h": 2, "n": 8, "lesson": L.Lesson2("en")}
    exec(cell.source, namespace)
    seed = int(cell.source.split("default_rng(")[1].split(")")[0])
    solution = L.my_simulation(49, 2, 8, 10_000, seed)
    assert np.array_equal(namespace["held"], solution)
    p = 205 / 294
    z = (solution.mean() - p) / sqrt(p * (1 - p) / 10_000)
    assert solution.mean() != p and abs(z) < 1  # a typical run: well inside one standard error


def test_the_coverage_of_two_standard_error_bands():
    """'With large N the bands are right about 95 % of the time ... With only 10 deals the rule fails more often.'"""
    from speculation_nb import simulate as sim

    many = sim.play_outs(L.the_deal().at(2), deals=2_000_000, seed=7).held
    cover = {N: L.band_coverage(many.reshape(-1, N), Fraction(205, 294)) for N in (10, 100, 1_000, 10_000)}
    assert cover[10] < 0.9 and all(0.93 < cover[N] < 0.97 for N in (1_000, 10_000))
