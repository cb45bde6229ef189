"""The hoyle1847 preset: its differences (a)-(d) from cardrules, on deals laid out by hand (TOP first)."""

from __future__ import annotations

import pytest
from rules_helpers import C, illegal, reveal_all

from speculation_nb import Game, Rules

HOYLE = dict(preset="hoyle1847")
PILES4 = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]
PLAIN = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]


# ------------------------------------------------------------------------- (a)
def test_hoyle_a_dealer_who_sold_the_turn_up_may_reveal_first():
    game = Game.from_layout(Rules(players=4, **HOYLE), PILES4, "7H", dealer=0)
    game.open_auction()
    game.bid(3, 2)
    game.accept(3)
    assert game.turn == 0  # the buyer's left is the dealer
    assert reveal_all(game, 4) == [(0, "2S"), (1, "2C"), (2, "2D"), (0, "3S")]
    # cardrules: the pointer stays on the dealer's left
    game = Game.from_layout(Rules(players=4), PILES4, "7H", dealer=0)
    game.open_auction()
    game.bid(3, 2)
    game.accept(3)
    assert game.turn == 1


PILES5 = [["2S", "3S", "4S"], ["9H", "2C", "3C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"], ["5D", "6D", "7D"]]


def test_hoyle_a_pointer_goes_to_the_buyers_left_even_backwards():
    game = Game.from_layout(Rules(players=5, **HOYLE), PILES5, "7H", dealer=0)
    assert reveal_all(game, 3) == [(1, "9H"), (2, "2D"), (3, "5S")]
    assert game.holder == 1 and game.turn == 4
    game.open_auction()
    game.bid(0, 3)
    game.accept(0)
    assert game.turn == 1  # back from seat 4 to the seller, at the buyer's left
    assert reveal_all(game, 9) == [
        (1, "2C"),
        (2, "3D"),
        (3, "6S"),
        (4, "5D"),
        (1, "3C"),
        (2, "4D"),
        (3, "8S"),
        (4, "6D"),
        (4, "7D"),
    ]
    assert game.over and game.winner == 0
    # (b): the holder's own cards are turned up for the record
    assert game.face_up[0] == [C("2S"), C("3S"), C("4S")] and game.face_down == [0] * 5
    # antes 6 + 4 * 4 = 22; seat 0 paid 3 to seat 1: 54 - 3 + 22 = 73, 56 + 3 = 59
    assert game.stacks == [73, 59, 56, 56, 56]


def test_hoyle_a_same_sale_under_cardrules_does_not_move_the_pointer():
    game = Game.from_layout(Rules(players=5), PILES5, "7H", dealer=0)
    reveal_all(game, 3)
    game.open_auction()
    game.bid(0, 3)
    game.accept(0)
    assert game.turn == 4
    assert reveal_all(game, 2) == [(4, "5D"), (1, "2C")]


def test_hoyle_a_buyers_left_without_cards_is_skipped():
    rules = Rules(players=3, **HOYLE)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "KH"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert reveal_all(game, 5) == [(1, "2C"), (2, "2D"), (1, "3C"), (2, "3D"), (1, "KH")]
    assert game.turn == 2 and game.face_down == [3, 0, 1]
    game.open_auction()
    game.bid(0, 1)
    game.accept(0)  # the buyer's left, seat 1, is empty: seat 2
    assert game.turn == 2


# ------------------------------------------------------------------------- (b)
def test_hoyle_b_holders_remaining_cards_are_turned_up_and_may_raise_the_best_trump():
    rules = Rules(players=3, **HOYLE)
    piles = [["9H", "2S", "KH"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    reveal_all(game, 6)
    assert game.over and game.face_down == [0, 0, 0]
    assert game.face_up[0] == [C("9H"), C("2S"), C("KH")]
    assert game.best_trump == C("KH") and game.holder == 0
    # (c) the trumps of (b) count: the holder wins
    assert game.winner == 0 and game.end_rule == "P8"
    assert game.stacks == [68, 56, 56]


def test_hoyle_b_at_the_end_of_a_sale():
    rules = Rules(players=3, **HOYLE)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "KH"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    reveal_all(game, 6)  # seat 1 takes hold with KH; seat 2 is empty after 4D
    assert game.turn == 0
    reveal_all(game, 2)  # the dealer: 2S, 3S
    game.open_auction()
    game.bid(0, 2)
    game.accept(0)
    assert game.over and game.winner == 0
    assert game.face_up[0] == [C("2S"), C("3S"), C("4S")] and game.face_down == [0, 0, 0]
    assert game.stacks == [54 - 2 + 14, 58, 56]


# ------------------------------------------------------------------------- (c)
def test_hoyle_c_no_trump_from_the_piles_carries_the_pot():
    game = Game.from_layout(Rules(players=3, **HOYLE), PLAIN, "7H", dealer=0, pot=4)
    reveal_all(game, 6)
    assert game.over and game.winner is None and game.end_rule == "hoyle1847(c)"
    assert game.pot == 4 + 14 and game.stacks == [54, 56, 56]
    assert game.holder == 0 and game.best_trump == C("7H")
    assert game.face_up[0] == [C("2S"), C("3S"), C("4S")]


def test_hoyle_c_a_lower_trump_of_any_rank_is_enough():
    piles = [["2S", "3S", "4S"], ["2C", "2H", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(Rules(players=3, **HOYLE), piles, "7H", dealer=0)
    reveal_all(game, 6)
    assert game.winner == 0 and game.holder == 0 and game.best_trump == C("7H")
    assert game.stacks == [68, 56, 56]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_hoyle_c_a_trump_from_any_seat_counts(seat):
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    piles[seat] = ["5S", "6S", "3H"] if seat else ["5S", "6S", "8H"]  # the dealer's only by (b)
    game = Game.from_layout(Rules(players=3, **HOYLE), piles, "7H", dealer=0)
    reveal_all(game, 6)
    assert game.over and game.winner == 0 and game.stacks == [68, 56, 56]
    assert game.best_trump == (C("8H") if seat == 0 else C("7H"))


def test_hoyle_c_even_a_bought_turn_up_wins_nothing_without_a_trump():
    game = Game.from_layout(Rules(players=3, **HOYLE), PLAIN, "7H", dealer=0)
    game.open_auction()
    game.bid(2, 3)
    game.accept(2)
    assert game.turn == 0  # (a): the buyer's left
    reveal_all(game, 6)
    assert game.over and game.winner is None and game.pot == 14
    assert game.stacks == [57, 56, 53]
    assert game.face_up[2] == [C("2D"), C("3D"), C("4D")]


def test_hoyle_c_cardrules_would_give_that_pot_to_the_turn_up():
    game = Game.from_layout(Rules(players=3), PLAIN, "7H", dealer=0)
    reveal_all(game, 6)
    assert game.winner == 0 and game.face_down == [3, 0, 0]


def test_hoyle_c_ace_turn_up_still_goes_to_the_dealer():
    game = Game.from_layout(Rules(players=3, **HOYLE), PLAIN, "AH", dealer=2)
    assert game.over and game.winner == 2 and game.end_rule == "S5"
    assert game.face_down == [3, 3, 3]  # (b) does not apply to S5
    assert game.stacks == [56, 56, 68]


# ------------------------------------------------------------------------- (d)
def test_hoyle_d_every_auction_goes_to_the_best_offer():
    game = Game.from_layout(Rules(players=4, **HOYLE), PILES4, "7H", dealer=0)
    game.reveal()
    game.open_auction()
    assert not game.turn_up_auction
    game.bid(1, 2)
    game.bid(2, 4)
    game.bid(3, 4)
    assert game.acceptable() == [2]
    error = illegal(game, "hoyle1847(d)", lambda: game.accept(1))
    assert error.params["best"] == 2
    illegal(game, "hoyle1847(d)", lambda: game.accept(3))
    game.accept(2)
    assert game.holder == 2 and game.stacks == [58, 56, 52, 56]
    assert game.turn == 3  # (a): the buyer's left


def test_hoyle_d_turn_up_auction_is_refused_as_p1():
    game = Game.from_layout(Rules(players=4, **HOYLE), PILES4, "7H", dealer=0)
    game.open_auction()
    game.bid(1, 2)
    game.bid(2, 4)
    illegal(game, "P1", lambda: game.accept(1))
    game.decline()
    assert game.holder == 0 and game.turn == 1
