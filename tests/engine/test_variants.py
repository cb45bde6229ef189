"""Variants V1-V5 (game.py), alone and together, on known deals laid out by hand (TOP card first)."""

from __future__ import annotations

import pytest
from rules_helpers import C, illegal, reveal_all

from speculation_nb import Game, Rules

PLAIN = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]


# ------------------------------------------------------------------------- V1
def test_v1_jack_or_five_turned_up_costs_its_player_a_chip():
    rules = Rules(players=3, jack_five=True)
    piles = [["2S", "3S", "4S"], ["JC", "5D", "JH"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert game.stacks == [54, 56, 56] and game.pot == 14
    game.reveal()  # seat 1: JC
    assert game.stacks == [54, 55, 56] and game.pot == 15
    game.reveal()  # seat 2: 2D
    game.reveal()  # seat 1: 5D
    assert game.stacks == [54, 54, 56] and game.pot == 16
    game.reveal()  # seat 2: 3D
    game.reveal()  # seat 1: JH, a trump Jack: pays and takes hold
    assert game.holder == 1 and game.stacks == [54, 53, 56] and game.pot == 17
    assert reveal_all(game, 4) == [(2, "4D"), (0, "2S"), (0, "3S"), (0, "4S")]
    assert game.over and game.winner == 1
    assert game.stacks == [54, 70, 56]


def test_v1_turn_up_jack_dealer_pays_after_the_antes():
    rules = Rules(players=3, jack_five=True)
    game = Game.from_layout(rules, PLAIN, "JH", dealer=1)
    assert game.stacks == [56, 53, 56] and game.pot == 15


def test_v1_turn_up_five_dealer_without_a_chip_after_the_antes_pays_nothing():
    rules = Rules(players=3, jack_five=True)
    game = Game.from_layout(rules, PLAIN, "5H", dealer=0, stacks=[6, 60, 60])
    assert game.stacks == [0, 56, 56] and game.pot == 14
    game = Game.from_layout(rules, PLAIN, "5H", dealer=0, stacks=[7, 60, 60])
    assert game.stacks == [0, 56, 56] and game.pot == 15


def test_v1_payer_with_no_chips_pays_nothing():
    rules = Rules(players=3, jack_five=True)
    piles = [["2S", "3S", "4S"], ["JC", "5C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0, stacks=[60, 4, 60])
    assert game.stacks == [54, 0, 56]
    game.reveal()
    assert game.face_up[1] == [C("JC")]
    assert game.stacks == [54, 0, 56] and game.pot == 14


def test_v1_payer_who_spent_every_chip_in_an_auction_pays_nothing():
    rules = Rules(players=3, jack_five=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["JD", "5D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.open_auction()
    game.bid(2, 56)
    game.accept(2)
    assert game.stacks == [110, 56, 0]
    game.reveal()  # seat 1: 2C
    game.reveal()  # seat 0: 2S (seat 2 holds and is skipped)
    assert game.face_up[2] == [] and game.stacks == [110, 56, 0] and game.pot == 14


def test_v1_only_once_per_card_even_when_it_has_a_chip_left():
    rules = Rules(players=3, jack_five=True)
    piles = [["2S", "3S", "4S"], ["5C", "5D", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0, stacks=[60, 5, 60])
    game.reveal()  # 5C: seat 1 has 1 chip, pays it
    game.reveal()
    game.reveal()  # 5D: seat 1 has none left
    assert game.stacks == [54, 0, 56] and game.pot == 15


def test_v1_on_the_deal_ending_reveal_is_part_of_that_pot():
    rules = Rules(players=3, jack_five=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "5D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    reveal_all(game, 6)  # the last card, 5D, ends the deal
    assert game.over and game.winner == 0
    # 14 + 1 = 15 to the dealer: 54 + 15 = 69; seat 2 paid 1
    assert game.stacks == [69, 56, 55] and game.pot == 0


def test_v1_on_the_deal_ending_reveal_is_carried_over_with_the_pot():
    rules = Rules(players=3, jack_five=True, dead_hand=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "5D"]]
    game = Game.from_layout(rules, piles, "7H", dead=["8H", "2H", "3H"], dealer=0)
    reveal_all(game, 6)
    assert game.over and game.winner is None
    assert game.pot == 15 and game.stacks == [54, 56, 55]


def test_v1_the_dead_pile_pays_nothing():
    rules = Rules(players=3, jack_five=True, dead_hand=True)
    game = Game.from_layout(rules, PLAIN, "7H", dead=["JC", "5C", "JD"], dealer=0)
    reveal_all(game, 6)
    assert game.over and game.winner == 0
    assert game.dead_cards == [C("JC"), C("5C"), C("JD")]
    assert game.stacks == [68, 56, 56]


def test_v1_off_jacks_and_fives_cost_nothing():
    piles = [["2S", "3S", "4S"], ["JC", "5C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(Rules(players=3), piles, "5H", dealer=0)
    game.reveal()
    assert game.stacks == [54, 56, 56] and game.pot == 14


# ------------------------------------------------------------------------- V2
def test_v2_the_dead_pile_has_no_owner_and_no_turn():
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(rules, PLAIN, "7H", dead=["2H", "5C", "6C"], dealer=0)
    assert game.dead == 3 and game.face_down == [3, 3, 3]
    turns = [seat for seat, _ in reveal_all(game, 6)]
    assert turns == [1, 2, 1, 2, 1, 2]
    # P7: the dead pile's cards do not keep the deal going
    assert game.over and game.winner == 0
    assert game.dead == 0 and game.dead_cards == [C("2H"), C("5C"), C("6C")]
    assert set(game.dead_cards) <= game.seen


def test_v2_off_there_is_no_dead_pile():
    game = Game.from_layout(Rules(players=3), PLAIN, "7H")
    assert game.dead == 0 and game.dead_cards is None and game.layout()["dead"] is None


# ------------------------------------------------------------------------- V3
def test_v3_cards_move_to_the_bottom_of_the_buyers_pile_in_order():
    rules = Rules(players=3, blind_trading=True)
    game = Game.from_layout(rules, PLAIN, "7H", dealer=0)
    game.blind_trade(2, 1, 2, 3)  # seat 2 buys seat 1's top two cards (2C above 3C) for 3
    assert game.face_down == [3, 1, 5]
    assert game.stacks == [54, 59, 53] and game.pot == 14
    assert game.turn == 1  # the turn pointer does not move
    # seat 2's pile is now 2D 3D 4D 2C 3C, top first
    assert reveal_all(game, 6) == [(1, "4C"), (2, "2D"), (2, "3D"), (2, "4D"), (2, "2C"), (2, "3C")]
    assert game.over and game.winner == 0
    assert game.stacks == [68, 59, 53]


def test_v3_the_pointer_stays_unless_the_due_seat_must_now_be_skipped():
    rules = Rules(players=4, blind_trading=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.blind_trade(3, 2, 1, 1)
    assert game.turn == 1
    game.blind_trade(2, 1, 3, 1)  # the seat due sells its whole pile: it is skipped
    assert game.turn == 2 and game.face_down == [3, 0, 5, 4]
    assert game.reveal() == C("3D")


def test_v3_a_seat_that_bought_after_emptying_reveals_again():
    rules = Rules(players=3, blind_trading=True)
    game = Game.from_layout(rules, PLAIN, "7H", dealer=0)
    reveal_all(game, 5)  # 1:2C 2:2D 1:3C 2:3D 1:4C; seat 1 is empty
    assert game.turn == 2
    game.blind_trade(1, 2, 1, 2)  # seat 1 buys seat 2's last card, 4D
    assert game.turn == 1  # seat 2 is empty now: the pointer moves on to seat 1
    assert game.reveal() == C("4D")
    assert game.over and game.winner == 0


def test_v3_the_holder_may_buy_and_sell():
    rules = Rules(players=3, blind_trading=True)
    game = Game.from_layout(rules, PLAIN, "7H", dealer=0)
    game.blind_trade(1, 0, 3, 4)  # the holder sells all its face-down cards
    assert game.face_down == [0, 6, 3] and game.stacks == [58, 52, 56]
    game.blind_trade(0, 2, 1, 1)  # and buys one back from seat 2
    assert game.face_down == [1, 6, 2] and game.stacks == [57, 52, 57]
    assert game.holder == 0 and game.best_trump == C("7H")


def test_v3_refusals():
    rules = Rules(players=3, blind_trading=True)
    game = Game.from_layout(rules, PLAIN, "7H", dealer=0, stacks=[60, 60, 6])  # seat 2 has 2 chips
    illegal(game, "V3", lambda: game.blind_trade(1, 1, 1, 1))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, 4, 1))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, 0, 1))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, -1, 1))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, 1, 0))
    illegal(game, "V3", lambda: game.blind_trade(2, 1, 1, 3))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, 1.0, 1))
    illegal(game, "V3", lambda: game.blind_trade(1, 2, 1, True))
    illegal(game, "S1", lambda: game.blind_trade(3, 2, 1, 1))
    illegal(game, "S1", lambda: game.blind_trade(1, -1, 1, 1))
    game.blind_trade(2, 1, 1, 2)  # exactly the buyer's stack
    assert game.stacks == [54, 58, 0]
    illegal(game, "V3", lambda: game.blind_trade(2, 0, 1, 1))
    game.blind_trade(0, 1, 2, 1)  # seat 1 empties
    illegal(game, "V3", lambda: game.blind_trade(0, 1, 1, 1))  # a seller with no card


def test_v3_off_is_refused():
    game = Game.from_layout(Rules(players=3), PLAIN, "7H", dealer=0)
    error = illegal(game, "V3", lambda: game.blind_trade(1, 2, 1, 1))
    assert str(error).startswith("V3: ")
    assert not game.can_blind_trade()


# ------------------------------------------------------------------------- V5
def test_v5_long_hands_are_dealt_and_played_out():
    rules = Rules(players=3, hand_size=4)
    piles = [["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"], ["2D", "3D", "4D", "KH"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    # antes 8 and 5: 52, 55, 55; pot 18
    assert game.stacks == [52, 55, 55] and game.pot == 18
    assert game.face_down == [4, 4, 4]
    seq = reveal_all(game, 8)
    assert seq[-1] == (2, "KH") and game.holder == 2
    # the dealer reveals its four cards; then nobody but seat 2 has any
    assert reveal_all(game, 4) == [(0, "2S"), (0, "3S"), (0, "4S"), (0, "5S")]
    assert game.over and game.winner == 2 and game.stacks == [52, 55, 73]


def test_v5_three_card_piles_are_refused_with_four_card_hands():
    with pytest.raises(ValueError, match="not 4"):
        Game.from_layout(Rules(players=3, hand_size=4), PLAIN, "7H")


# ---------------------------------------------------------------- all at once
ALL_PILES = [["2S", "3S", "4S", "6S"], ["5C", "QH", "2C", "3C"], ["2D", "5D", "4D", "6D"]]


def play_all_variants(dead: list[str]) -> Game:
    rules = Rules(players=3, hand_size=4, jack_five=True, dead_hand=True, blind_trading=True, price_cap=5)
    game = Game.from_layout(rules, ALL_PILES, "JH", dead=dead, dealer=0)
    # antes 8, 5, 5 and the dealer's Jack turn-up: [52 - 1, 55, 55], pot 19
    assert game.stacks == [51, 55, 55] and game.pot == 19
    game.open_auction()
    illegal(game, "V4", lambda: game.bid(1, 6))
    game.bid(1, 5)
    game.bid(2, 5)
    game.accept(1)  # the best offer: seat 1's earlier 5
    assert game.stacks == [56, 50, 55] and game.holder == 1 and game.turn == 2
    assert reveal_all(game, 1) == [(2, "2D")]
    game.blind_trade(1, 0, 2, 1)  # the holder buys 2S 3S from seat 0
    assert game.stacks == [57, 49, 55] and game.face_down == [2, 6, 3] and game.turn == 0
    # 5D costs seat 2 a chip; seat 1 holds and is skipped throughout
    assert reveal_all(game, 5) == [(0, "4S"), (2, "5D"), (0, "6S"), (2, "4D"), (2, "6D")]
    assert game.over and game.face_down == [0, 6, 0]
    return game


def test_combo_all_variants_dead_pile_carries_the_pot():
    game = play_all_variants(["KH", "7C", "8C", "9C"])
    assert game.winner is None and game.end_rule == "P9"
    assert game.holder == 1 and game.best_trump == C("JH")
    assert game.stacks == [57, 49, 54] and game.pot == 20


def test_combo_all_variants_holder_wins():
    game = play_all_variants(["7C", "8C", "9C", "10C"])
    assert game.winner == 1 and game.pot == 0
    assert game.stacks == [57, 69, 54]
