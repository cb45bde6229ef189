"""The helpers of lesson 4 (notebooks/04_changing_the_game.ipynb) compute things the
package does not: averages over a random turn-up and the value of a blind trade. These
tests run the notebook's own helper cells (tagged ``lesson4-helpers``) and check them
against closed forms, exact identities and seeded random deals.

tests/test_notebooks.py runs the whole notebook; this file checks that its numbers are right.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import nbformat
import pytest

from speculation_nb import Card, Game, Rules, odds
from speculation_nb.simulate import simulate

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "04_changing_the_game.ipynb"


@pytest.fixture(scope="module")
def lesson() -> dict:
    """The namespace of the notebook's helper cells."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    cells = [c for c in notebook.cells if "lesson4-helpers" in c.metadata.get("tags", [])]
    assert len(cells) == 2, "expected the two helper cells (general helpers, blind-trade values)"
    namespace: dict = {}
    exec(
        "from fractions import Fraction\n"
        "from IPython.display import HTML, display\n"
        "from speculation_nb import Card, Game, Rules, odds\n"
        "from speculation_nb.cards import full_deck\n"
        "from speculation_nb.render import table_html\n",
        namespace,
    )
    for cell in cells:
        exec(compile(cell.source, str(NOTEBOOK), "exec"), namespace)
    return namespace


@pytest.mark.parametrize(
    "players, hand, dead", [(3, 3, False), (4, 3, True), (5, 4, False), (8, 5, True), (6, 5, False)]
)
def test_opening_is_a_fresh_deal_with_the_closed_form_hold(lesson, players, hand, dead):
    rules = Rules(players=players, hand_size=hand, dead_hand=dead)
    game = lesson["opening"](rules, "QH")
    assert game.turn_up == Card.parse("QH") and game.holder == 0 and game.turn == 1 and game.reveals == 0
    assert game.face_down == [hand] * players and game.dead == (hand if dead else 0)
    n = (players - 1 + dead) * hand
    assert odds.hold_probability(game) == Fraction(comb(49, n), comb(51, n))


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_averaged_hoyle_carry_over_is_the_closed_form(lesson, players):
    """Hoyle (c) at the start: no trump among the 3n pile cards; an Ace turn-up (1 in 13) pays the dealer."""
    rules = Rules(players=players, preset="hoyle1847")
    got = lesson["averaged"](rules, lambda g: odds.win_probabilities(g)[None])
    N = 3 * players
    assert got == Fraction(12, 13) * Fraction(comb(39, N), comb(51, N))


def test_averaged_hold_is_the_mean_over_ranks(lesson):
    rules = Rules(players=4)
    expected = (sum(Fraction(comb(51 - (14 - r), 9), comb(51, 9)) for r in range(2, 14)) + 1) / 13
    assert lesson["averaged"](rules, odds.hold_probability) == expected


def test_averaged_carry_over_agrees_with_seeded_random_deals(lesson):
    """The dead-pile carry-over chance of a random deal, against 2,000 shuffled deals played out."""
    rules = Rules(players=4, dead_hand=True)
    q = lesson["averaged"](rules, lambda g: odds.win_probabilities(g)[None])
    deals = 2000
    carried = sum(lesson["play_out"](Game.deal(rules, seed=seed)).winner is None for seed in range(deals))
    se = sqrt(float(q) * (1 - float(q)) / deals)
    assert abs(carried / deals - float(q)) < 4 * se


def test_play_out_ends_the_deal_without_trades(lesson):
    game = lesson["play_out"](Game.deal(Rules(players=5, blind_trading=True), seed=32))
    assert game.over and all(a.kind == "reveal" for a in game.history)


@pytest.fixture(scope="module")
def trade_deal() -> Game:
    return Game.deal(Rules(players=5, blind_trading=True), seed=32)


def test_blind_trade_is_zero_sum_and_linear(lesson, trade_deal):
    trade_values, final_chips = lesson["trade_values"], lesson["final_chips"]
    one, _, _ = trade_values(trade_deal, 0, 1, 1)
    before = odds.win_probabilities(trade_deal)
    for k in (1, 2, 3):
        most, least, after = trade_values(trade_deal, 0, 1, k)
        assert most == least == k * one
        # no V1, no dead pile: the value is the pot times the rise in the buyer's win chance
        assert most == trade_deal.pot * (odds.win_probabilities(after)[0] - before[0])
        for seat in (2, 3, 4):
            assert final_chips(after, seat) == final_chips(trade_deal, seat)
    # the same per card from another seller (exercise 3 of the lesson)
    assert trade_values(trade_deal, 0, 2, 2)[0] == 2 * one


def test_buying_every_pile_ends_the_deal_and_is_worth_the_rest_of_the_pot(lesson, trade_deal):
    game = trade_deal
    for seller in (1, 2, 3, 4):
        game = game.copy()
        game.blind_trade(0, seller, 3, 1)
    assert game.over and game.winner == 0
    value = lesson["final_chips"](game, 0) + 4 - lesson["final_chips"](trade_deal, 0)
    assert value == trade_deal.pot - odds.expected_net(trade_deal, 0)


def test_with_a_dead_pile_the_gap_goes_to_the_carry_over(lesson):
    deal = Game.deal(Rules(players=5, blind_trading=True, dead_hand=True), seed=12)
    before = odds.win_probabilities(deal)[None]
    for k in (1, 2, 3):
        most, least, after = lesson["trade_values"](deal, 0, 1, k)
        assert least > most
        assert least - most == deal.pot * (odds.win_probabilities(after)[None] - before)


def test_blind_trade_value_agrees_with_simulation(lesson, trade_deal):
    """The value of Edmund's pile, against simulated endings of the deal with and without the trade."""
    most, _, after = lesson["trade_values"](trade_deal, 0, 1, 3)
    a = simulate(after, deals=100_000, seed=1)
    b = simulate(trade_deal, deals=100_000, seed=2)
    estimate = trade_deal.pot * (a.win[0] - b.win[0])
    se = trade_deal.pot * sqrt(a.win_se[0] ** 2 + b.win_se[0] ** 2)
    assert abs(estimate - float(most)) < 4 * se
