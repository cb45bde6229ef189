"""Lessons 2 and 3: their helper functions and the facts their text states.

The notebooks keep their helper functions in code cells tagged ``helpers`` and their
fixed deals in cells tagged ``deal``; these tests run those cells (nothing else of
the notebook) and check the helpers against the engine and against brute force, and
check that the sentences the lessons write about their deals and their tables stay
true if the engine changes. (tests/test_notebooks.py runs the notebooks whole.)
"""

from fractions import Fraction
from math import comb
from pathlib import Path

import nbformat
import numpy as np
import pytest

from speculation_nb import Game, Rules, odds

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
LESSON2 = "02_will_the_queen_hold.ipynb"
LESSON3 = "03_what_is_a_card_worth.ipynb"


def run_cells(name: str, *tags: str) -> dict:
    """Execute the notebook's code cells carrying any of ``tags``, in order; return their names."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and set(tags) & set(c.metadata.get("tags", []))]
    assert cells, f"{name} has no cell tagged {tags}"
    namespace: dict = {}
    exec(compile("\n\n".join(cells), name, "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def l2() -> dict:
    return run_cells(LESSON2, "helpers", "deal")


@pytest.fixture(scope="module")
def l3() -> dict:
    return run_cells(LESSON3, "helpers", "deal")


def live_moments(rules: Rules, seeds):
    """Every live moment of each seeded deal played with reveals only."""
    for seed in seeds:
        game = Game.deal(rules, seed=seed)
        while not game.over:
            yield game
            game.reveal()


# ---------------------------------------------------------------- lesson 2: helpers
def test_outputs_cleared_and_kernel():
    for name in (LESSON2, LESSON3):
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata.kernelspec.name == "python3"
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, (name, cell.id)


def test_four_ways_to_count_agree(l2):
    for U in range(10):
        for h in range(U + 1):
            for n in range(U + 1):
                p = l2["hold_formula"](U, h, n)
                assert l2["hold_by_listing"](U, h, n) == p
                assert l2["hold_card_by_card"](U, h, n) == p
                assert l2["hold_by_places"](U, h, n) == p


def test_hold_formula_is_the_engines_o1(l2):
    for players in (3, 5, 8):
        for game in live_moments(Rules(players=players), range(4)):
            why = odds.explain_hold(game)
            assert l2["hold_formula"](why.U, why.h, why.n) == odds.hold_probability(game)


def test_holder_win_probability_is_the_engines_o2(l2):
    count = 0
    for players in (3, 4, 6, 8):
        for game in live_moments(Rules(players=players), range(6)):
            U, h = game.unseen, 14 - game.best_trump.rank
            f = game.face_down[game.holder]
            S = U - sum(game.face_down)
            assert l2["holder_win_probability"](U, h, f, S) == odds.win_probabilities(game)[game.holder]
            count += 1
    assert count > 100


def test_standard_error_and_show(l2):
    assert l2["standard_error"](Fraction(1, 2), 100) == pytest.approx(0.05)
    assert l2["standard_error"](1, 10) == 0
    assert l2["show"](Fraction(3, 4)) == "3/4 ≈ 0.7500 (75.0%)"
    assert l2["show"](1) == "1 (100%)"


def test_running_frequency(l2):
    hits = np.array([[1, 0, 1, 1], [0, 0, 0, 1]], dtype=bool)
    out = l2["running_frequency"](hits, [1, 2, 4])
    assert np.allclose(out, [[1, 0.5, 0.75], [0, 0, 0.25]])


def test_band_coverage(l2):
    # row 1: estimate 1/2, standard error 1/4, band [0, 1]; row 2: estimate 1, standard error 0, band [1, 1]
    hits = np.array([[1, 0, 1, 0], [1, 1, 1, 1]])
    cover = l2["band_coverage"]
    assert cover(hits, Fraction(1, 2)) == 0.5
    assert cover(hits, 1) == 1.0
    assert cover(hits, Fraction(9, 10), z=1) == 0.0


def test_html_table_escapes(l2, l3):
    for ns in (l2, l3):
        out = ns["html_table"](["a<b", "c"], [["<script>", 1], ["x&y", 2]], caption="it's")
        assert "<script>" not in out and "&lt;script&gt;" in out and "x&amp;y" in out
        assert out.count("<tr>") == 3 and "it&#x27;s" in out


# ------------------------------------------------------- lesson 2: what the text says
def test_lesson2_deal_story(l2):
    deal, names = l2["deal"], l2["NAMES"]
    assert deal.over and deal.winner == 2 and names[2] == "Fanny"
    start, queen = deal.at(0), deal.at(2)
    # "eight hearts out-rank it"; the 6♥ belongs to the dealer
    assert str(start.best_trump) == "6♥" and start.holder == 0 == start.dealer
    assert 14 - start.best_trump.rank == 8
    # moment 2: Mary turned up the 9♣, Fanny the Q♥; U = 49, h = 2, n = 8, P = 205/294, about 70 %
    assert [str(c) for c in queen.face_up[1]] == ["9♣"] and str(queen.best_trump) == "Q♥" and queen.holder == 2
    why = odds.explain_hold(queen)
    assert (why.U, why.h, why.n) == (49, 2, 8)
    assert why.probability == Fraction(205, 294) == Fraction(41 * 40, 49 * 48)
    assert round(float(why.probability), 2) == 0.70
    assert queen.face_down[2] == 2 and queen.unseen - sum(queen.face_down) == 39
    # the Queen's chance climbs until moment 7, when Edmund turns up the K♥ ...
    chances = [odds.hold_probability(deal.at(k)) for k in range(2, 7)]
    assert chances == sorted(chances) and all(deal.at(k).holder == 2 for k in range(2, 7))
    assert str(deal.at(7).best_trump) == "K♥" and deal.at(7).holder == 0
    # ... and at moment 9 Fanny finds the A♥: the chance is 1
    assert str(deal.at(9).best_trump) == "A♥" and deal.at(9).holder == 2
    assert odds.hold_probability(deal.at(9)) == 1
    # section 6: holding is not winning at the start
    assert odds.win_probabilities(start)[0] > odds.hold_probability(start)
    # exercise 1: the Queen is still Fanny's at moment 5
    assert deal.at(5).holder == 2 and str(deal.at(5).best_trump) == "Q♥"


# ---------------------------------------------------------------- lesson 3: helpers
def test_expected_value(l3):
    ev = l3["expected_value"]
    assert ev([(18, Fraction(205, 294)), (0, Fraction(89, 294))]) == Fraction(615, 49)
    assert ev([(1, "1/2"), (3, "1/2")]) == 2
    with pytest.raises(ValueError):
        ev([(1, Fraction(1, 2))])


def test_chips(l3):
    assert l3["chips"](18) == "18 chips"
    assert l3["chips"](Fraction(615, 49)) == "615/49 ≈ 12.551 chips"
    assert "7-digit denominator" in l3["chips"](Fraction(1, 1234567))


def test_break_even_formula_in_the_basic_game(l3):
    count = 0
    for players in (3, 4, 6, 8):
        for game in live_moments(Rules(players=players), range(5)):
            U, h, N = game.unseen, 14 - game.best_trump.rank, sum(game.face_down)
            be = l3["break_even_basic"](U, h, N, game.pot)
            fair = odds.fair_price(game)
            for buyer in range(players):
                if buyer != game.holder:
                    assert odds.break_even(game, buyer) == be == odds.seller_break_even(game, buyer)
            # below the fair price exactly by the chance that only the holder's pile beats the card
            n = N - game.face_down[game.holder]
            only_own = Fraction(comb(U - h, n), comb(U, n)) - Fraction(comb(U - h, N), comb(U, N))
            assert fair - be == game.pot * only_own >= 0
            count += 1
    assert count > 100


def test_buyer_and_seller_agree_with_jack_and_five():
    # lesson 3: "buyer and seller disagree only when the pot may carry over"
    for game in live_moments(Rules(players=5, jack_five=True), range(6)):
        for buyer in range(5):
            if buyer != game.holder:
                assert odds.break_even(game, buyer) == odds.seller_break_even(game, buyer)


def test_carry_over_chance(l3):
    differ = 0
    for game in live_moments(Rules(players=4, dead_hand=True), range(8)):
        assert l3["carry_over_chance"](game) == odds.win_probabilities(game)[None]
        for buyer in range(4):
            if buyer == game.holder:
                continue
            gap = odds.break_even(game, buyer) - odds.seller_break_even(game, buyer)
            assert gap == game.pot * (l3["carry_over_chance"](game) - l3["carry_over_chance"](game, owner=buyer))
            differ += gap != 0
    assert differ > 0


def test_collect_moments_split_share(l3):
    rows = l3["collect_moments"](range(6))
    assert rows and {r["players"] for r in rows} == {3, 4, 5, 6}
    for r in rows:
        assert r["hold"] == Fraction(comb(r["U"] - r["h"], r["n"]), comb(r["U"], r["n"]))
        assert r["buyer_be"] == r["seller_be"] <= r["fair"]
        assert 0 <= r["win_sold"] <= r["win_keep"] <= 1
        assert r["n"] == r["N"] - r["own"]
    per_deal = {}
    for r in rows:
        per_deal.setdefault(r["seed"], []).append(r["moment"])
    assert all(m == list(range(len(m))) for m in per_deal.values())
    groups = l3["split"](rows, lambda r: r["N"], [("few", 1, 3), ("rest", 4, 99)])
    assert sum(len(g) for _, g in groups) == len(rows)
    assert l3["share"]([], lambda r: True) == 0
    assert l3["share"](rows, lambda r: True) == 1


# ------------------------------------------------------- lesson 3: what the text says
def test_lesson3_examples(l3):
    queen, deal_jf = l3["queen"], l3["deal_jf"]
    # "Every buyer's break-even price is about 11.34 chips, more than a chip below the fair price of 12.55."
    fair = odds.fair_price(queen)
    assert round(float(fair), 2) == 12.55
    for buyer in (0, 1, 3):
        be = odds.break_even(queen, buyer)
        assert round(float(be), 2) == 11.34 and fair - be > 1
    # section 2: the exact expected pot lies between the two guesses
    q = deal_jf.at(2)
    assert q.pot == 18 and q.unseen == 49 and 8 - sum(c.rank in (5, 11) for c in q.seen) == 8
    assert 18 + Fraction(8 * 8, 49) < odds.expected_pot(q) < 18 + Fraction(10 * 8, 49)
    # "At moment 9 of the Jack-and-Five deal, Fanny turns up the A♥", and break-even > fair price
    ace = deal_jf.at(9)
    assert str(ace.best_trump) == "A♥" and ace.holder == 2 and ace.face_down[2] == 1
    assert all(odds.break_even(ace, b) > odds.fair_price(ace) for b in (0, 3))
    # the dead-hand example: Edmund keeps the 6♥ with three cards; both sides gain from a sale
    dead = Game.deal(Rules(players=4, dead_hand=True), seed=72)
    for _ in range(8):
        dead.reveal()
    assert not dead.over and str(dead.best_trump) == "6♥" and dead.holder == 0 and dead.face_down[0] == 3
    assert odds.break_even(dead, 2) > odds.seller_break_even(dead, 2) > 0


@pytest.fixture(scope="module")
def rule_data(l3):
    seeds = range(240)  # the notebook's SEEDS
    return l3["collect_moments"](seeds), l3["collect_moments"](seeds, jack_five=True)


def test_rules_of_thumb_verdicts(l3, rule_data):
    moments, moments_jf = rule_data
    share = l3["share"]
    few_limit, almost_sure = 3, Fraction(4, 5)
    # A: more than half the deck is always unseen; with n <= 3 the Queen holds with >= 80 %
    assert all(r["U"] > 26 for r in moments)
    queens = [r for r in moments if r["best"] == 12]
    assert queens and all(r["hold"] >= almost_sure for r in queens if r["n"] <= few_limit)
    assert min(r["hold"] for r in queens) < Fraction(11, 20)  # "from about a half"
    assert max(r["hold"] for r in queens) > Fraction(95, 100)  # "to above 95 %"
    # B: with little left the break-even is nearly always above half the pot; early mostly below
    little = [r for r in moments if r["N"] <= few_limit]
    early = [r for r in moments if r["N"] >= 10]
    assert share(little, lambda r: r["buyer_be"] > r["pot"] / 2) > Fraction(9, 10)
    assert share(early, lambda r: r["buyer_be"] <= r["pot"] / 2) > Fraction(1, 2)
    # C: selling at the fair price never loses in the basic game, gains nothing with an empty pile,
    # and the gain (as a share of the pot) is largest with a full pile
    gain = lambda r: r["fair"] - r["seller_be"]  # noqa: E731
    assert all(gain(r) >= 0 for r in moments)
    assert all(gain(r) == 0 for r in moments if r["own"] == 0)
    mean_gain = {k: np.mean([float(gain(r) / r["pot"]) for r in moments if r["own"] == k]) for k in range(4)}
    assert mean_gain[3] > mean_gain[2] > mean_gain[1] > mean_gain[0] == 0
    # ... with Jack-and-Five: no loss while the seller's pile is full, losses later
    assert all(gain(r) >= 0 for r in moments_jf if r["own"] == 3)
    assert share([r for r in moments_jf if r["own"] < 3], lambda r: gain(r) < 0) > 0


def test_pot_size_only_scales(l3):
    small = Game.deal(Rules(players=4), seed=5)
    big = Game.deal(Rules(players=4), seed=5, pot=30)
    for game in (small, big):
        game.reveal()
    assert big.pot == small.pot + 30
    for f in (lambda g: odds.seller_break_even(g, g.turn), odds.fair_price):
        assert f(small) / small.pot == f(big) / big.pot
