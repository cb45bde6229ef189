"""Play P1-P9 (game.py) on known deals laid out by hand; piles are written TOP card first.

Every expected turn order, stack and pot below is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest
from rules_helpers import C, reveal_all

from speculation_nb import Game, IllegalAction, Rules


def illegal(rule: str, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        action()
    assert info.value.rule == rule, str(info.value)
    return info.value


# --------------------------------------------------------------------- P3
def test_p3_first_reveal_is_made_by_the_dealers_left():
    rules = Rules(players=4)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]
    game = Game.from_layout(rules, piles, "7H", dealer=2)
    assert game.turn == 3
    illegal("P3", lambda: game.reveal(seat=0))
    illegal("P3", lambda: game.reveal(seat=1))
    assert game.reveal() == C("5S")  # seat 3's top card
    assert game.face_up == [[], [], [], [C("5S")]]
    assert game.face_down == [3, 3, 3, 2]
    assert game.turn == 0


def test_p3_turn_passes_clockwise_and_the_due_seat_may_be_named():
    rules = Rules(players=3)
    # dealer 0 keeps the 7H turn-up and is skipped as the holder (P4); nobody beats it
    piles = [["2S", "3S", "4S"], ["2C", "3H", "4C"], ["2D", "3D", "AS"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert game.reveal(seat=1) == C("2C")
    assert game.reveal(seat=2) == C("2D")
    assert [(a.kind, a["seat"]) for a in game.history] == [("reveal", 1), ("reveal", 2)]
    assert reveal_all(game, 4) == [(1, "3H"), (2, "3D"), (1, "4C"), (2, "AS")]
    assert game.over


def test_p3_pointer_never_moves_back_after_a_sale():
    # P4's example in the other direction: seat 3 holds, seat 1 is due; seat 3 sells to seat 0.
    # The pointer stays on seat 1: seats 1, 2, 3 reveal next, seat 0 is skipped.
    rules = Rules(players=4)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["9H", "5S", "6S"]]
    game = Game.from_layout(rules, piles, "7H", dealer=2)
    assert reveal_all(game, 1) == [(3, "9H")]  # seat 3 takes hold; next due: seat 0
    assert reveal_all(game, 1) == [(0, "2S")]  # next due: seat 1
    game.open_auction()
    game.bid(0, 4)
    game.accept(0)
    assert game.holder == 0 and game.turn == 1
    assert reveal_all(game, 4) == [(1, "2C"), (2, "2D"), (3, "5S"), (1, "3C")]


# --------------------------------------------------------------------- P4
def test_p4_holder_is_skipped():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert reveal_all(game, 2) == [(1, "2C"), (2, "2D")]
    assert game.turn == 1  # seat 0 holds the turn-up and is skipped
    error = illegal("P4", lambda: game.reveal(seat=0))
    assert str(error) == "P4: seat 0 holds the best trump and does not reveal"
    assert error.params["seat"] == 0


def test_p4_example_of_rules_md():
    # 4 players: seat 1 holds, seat 3 is due, seat 1 sells to seat 2: seats 3, 0, 1 reveal next.
    rules = Rules(players=4)
    piles = [["6D", "7D", "8D"], ["9H", "2C", "3C"], ["2D", "3D", "4D"], ["2S", "3S", "4S"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert reveal_all(game, 2) == [(1, "9H"), (2, "2D")]  # seat 1 takes hold with 9H
    assert game.holder == 1 and game.turn == 3
    game.open_auction()
    game.bid(2, 3)
    game.accept(2)
    # seat 2 pays seat 1 three chips: 56 - 3 = 53, 56 + 3 = 59
    assert game.stacks == [54, 59, 53, 56]
    assert game.holder == 2 and game.turn == 3
    assert reveal_all(game, 4) == [(3, "2S"), (0, "6D"), (1, "2C"), (3, "3S")]  # seat 2 skipped
    assert game.turn == 0


def test_p4_seat_without_face_down_cards_is_skipped_and_beaten_holder_resumes():
    rules = Rules(players=3)
    piles = [["2S", "9H", "3S"], ["2C", "3C", "4C"], ["2D", "3D", "8H"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    # seat 0 holds the turn-up: seats 1 and 2 alternate; seat 2's last card 8H beats 7H
    assert reveal_all(game, 6) == [(1, "2C"), (2, "2D"), (1, "3C"), (2, "3D"), (1, "4C"), (2, "8H")]
    assert game.holder == 2 and game.best_trump == C("8H")
    # seat 1 is empty and seat 2 holds: the beaten dealer reveals again and again
    assert game.turn == 0
    illegal("P4", lambda: game.reveal(seat=1))  # no face-down card left
    illegal("P4", lambda: game.reveal(seat=2))  # the holder
    assert reveal_all(game, 1) == [(0, "2S")]
    assert game.turn == 0 and not game.over
    # the beaten holder wins back with 9H; nobody else has a face-down card: over (P7)
    assert reveal_all(game, 1) == [(0, "9H")]
    assert game.over and game.turn is None
    assert game.holder == 0 and game.winner == 0 and game.best_trump == C("9H")
    assert game.face_down == [1, 0, 0]  # 3S stays face down
    # pot 6 + 4 + 4 = 14 to seat 0: 54 + 14 = 68
    assert game.stacks == [68, 56, 56] and game.pot == 0


# --------------------------------------------------------------------- P5
def test_p5_non_trumps_and_lower_trumps_change_nothing():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3H", "4C"], ["KC", "6H", "AS"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    reveal_all(game, 4)  # 2C, KC, 3H (a lower trump), 6H (a lower trump)
    assert game.holder == 0 and game.best_trump == C("7H")
    assert game.stacks == [54, 56, 56] and game.pot == 14


def test_p5_ace_of_trumps_does_not_end_the_deal():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["AH", "2C", "3C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert reveal_all(game, 1) == [(1, "AH")]
    assert game.holder == 1 and game.best_trump == C("AH")
    assert not game.over and game.turn == 2
    # seat 1 holds now; seats 2 and 0 (no longer holder) alternate until they are empty
    assert reveal_all(game, 6) == [(2, "2D"), (0, "2S"), (2, "3D"), (0, "3S"), (2, "4D"), (0, "4S")]
    assert game.over and game.winner == 1
    assert game.face_down == [0, 2, 0]
    assert game.stacks == [54, 70, 56]


# --------------------------------------------------------------------- P6
def test_p6_higher_trump_takes_hold_and_the_previous_holder_keeps_nothing():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["9H", "2D", "3D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.open_auction()
    game.bid(1, 5)
    game.accept(1)
    # seat 1 pays the dealer 5: 54 + 5 = 59, 56 - 5 = 51; seat 1 holds and is skipped
    assert game.stacks == [59, 51, 56] and game.holder == 1 and game.turn == 2
    assert game.reveal() == C("9H")
    assert game.holder == 2 and game.best_trump == C("9H")
    assert game.stacks == [59, 51, 56]  # the 5 chips seat 1 paid are gone
    assert reveal_all(game, 6) == [(0, "2S"), (1, "2C"), (0, "3S"), (1, "3C"), (0, "4S"), (1, "4C")]
    assert game.over and game.winner == 2
    assert game.stacks == [59, 51, 70]


# --------------------------------------------------------------------- P7
def test_p7_deal_ends_by_a_reveal_and_the_holder_keeps_cards_face_down():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3H", "4C"], ["2D", "3D", "AS"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    reveal_all(game, 5)
    assert not game.over and game.turn == 2
    assert game.reveal() == C("AS")
    assert game.over and game.turn is None and game.end_rule == "P8"
    assert game.face_down == [3, 0, 0] and game.face_up[0] == []
    illegal("P7", lambda: game.reveal())


def test_p7_deal_ends_by_a_sale():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "KH"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    assert reveal_all(game, 6) == [(1, "2C"), (2, "2D"), (1, "3C"), (2, "3D"), (1, "KH"), (2, "4D")]
    assert game.holder == 1 and game.face_down == [3, 0, 0]
    assert reveal_all(game, 2) == [(0, "2S"), (0, "3S")]
    assert not game.over and game.face_down == [1, 0, 0]
    game.open_auction()
    game.bid(0, 2)
    game.bid(2, 3)  # seat 2 has no cards but may bid
    game.accept(0)  # after the first reveal the holder may take any bid
    # seat 0 buys for 2 and is then the only seat with a face-down card: over
    assert game.over and game.winner == 0 and game.holder == 0 and game.best_trump == C("KH")
    assert game.face_down == [1, 0, 0]
    assert game.auction is None
    # 54 - 2 + 14 = 66; 56 + 2 = 58
    assert game.stacks == [66, 58, 56] and game.pot == 0


def test_p7_deal_ends_by_a_blind_trade():
    rules = Rules(players=3, blind_trading=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.blind_trade(0, 1, 3, 2)  # the holder buys seat 1's whole pile for 2
    assert not game.over and game.turn == 2 and game.face_down == [6, 0, 3]
    game.blind_trade(0, 2, 3, 1)  # ... and seat 2's for 1: nobody else has a card
    assert game.over and game.winner == 0 and game.face_down == [9, 0, 0]
    # 54 - 2 - 1 + 14 = 65; 56 + 2 = 58; 56 + 1 = 57
    assert game.stacks == [65, 58, 57]


def test_p7_actions_after_the_end_are_refused():
    rules = Rules(players=3, blind_trading=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.blind_trade(0, 1, 3, 1)
    game.blind_trade(0, 2, 3, 1)
    assert game.over
    before = game.to_json()
    for act in (
        game.reveal,
        game.open_auction,
        game.decline,
        lambda: game.bid(1, 1),
        lambda: game.accept(1),
        lambda: game.blind_trade(1, 0, 1, 1),
        lambda: game.reveal(seat=1),
    ):
        illegal("P7", act)
    assert game.to_json() == before


# --------------------------------------------------------------------- P8
def test_p8_holder_at_the_end_takes_the_whole_pot():
    rules = Rules(players=4)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["QH", "3D", "4D"], ["5S", "6S", "8S"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0, pot=9)
    # seat 2 takes hold with QH at once; the dealer, no longer holding, reveals too
    assert reveal_all(game, 10) == [
        (1, "2C"),
        (2, "QH"),
        (3, "5S"),
        (0, "2S"),
        (1, "3C"),
        (3, "6S"),
        (0, "3S"),
        (1, "4C"),
        (3, "8S"),
        (0, "4S"),
    ]
    assert game.face_down == [0, 0, 2, 0]
    # QH of seat 2 stood: pot 9 + 6 + 4 * 3 = 27 to seat 2: 56 + 27 = 83
    assert game.over and game.winner == 2 and game.end_rule == "P8"
    assert game.stacks == [54, 56, 83, 56] and game.pot == 0


def test_p8_no_trump_from_the_piles_the_dealer_keeps_the_turn_up_and_wins():
    rules = Rules(players=3)
    piles = [["2H", "3H", "4H"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7S", dealer=0)
    reveal_all(game, 6)
    assert game.over and game.winner == 0 and game.best_trump == C("7S")
    assert game.stacks == [68, 56, 56]


def test_p8_no_trump_from_the_piles_the_buyer_of_the_turn_up_wins():
    rules = Rules(players=3)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dealer=0)
    game.open_auction()
    game.bid(2, 3)
    game.accept(2)
    assert game.stacks == [57, 56, 53] and game.turn == 1
    assert reveal_all(game, 6) == [(1, "2C"), (0, "2S"), (1, "3C"), (0, "3S"), (1, "4C"), (0, "4S")]
    assert game.over and game.winner == 2
    assert game.face_down == [0, 0, 3]
    assert game.stacks == [57, 56, 67]


# --------------------------------------------------------------------- P9
P9_PILES = [["2S", "3S", "4S"], ["9H", "2C", "3C"], ["2D", "3D", "4D"]]


def test_p9_dead_pile_with_a_higher_trump_carries_the_pot_over():
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(rules, P9_PILES, "7H", dead=["5C", "QH", "6C"], dealer=0, pot=10)
    assert reveal_all(game, 7) == [(1, "9H"), (2, "2D"), (0, "2S"), (2, "3D"), (0, "3S"), (2, "4D"), (0, "4S")]
    assert game.over and game.winner is None and game.end_rule == "P9"
    # holder and best trump still name the players' best trump
    assert game.holder == 1 and game.best_trump == C("9H")
    assert game.pot == 10 + 14
    assert game.stacks == [54, 56, 56]
    assert game.dead == 0 and game.dead_cards == [C("5C"), C("QH"), C("6C")]
    assert game.face_down == [0, 2, 0]


def test_p9_dead_pile_with_only_lower_trumps_lets_the_holder_win():
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(rules, P9_PILES, "7H", dead=["5C", "8H", "6C"], dealer=0)
    reveal_all(game, 7)
    assert game.over and game.winner == 1 and game.end_rule == "P8"
    assert game.pot == 0 and game.stacks == [54, 70, 56]
    assert game.dead_cards == [C("5C"), C("8H"), C("6C")]


def test_p9_dead_pile_beats_the_turn_up_when_no_trump_came_up():
    rules = Rules(players=3, dead_hand=True)
    piles = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(rules, piles, "7H", dead=["8H", "2H", "3H"], dealer=0)
    reveal_all(game, 6)
    assert game.over and game.winner is None and game.pot == 14
    assert game.holder == 0 and game.best_trump == C("7H")


def test_p9_dead_pile_is_not_turned_up_before_the_end():
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(rules, P9_PILES, "7H", dead=["5C", "QH", "6C"], dealer=0)
    reveal_all(game, 6)
    assert not game.over and game.dead == 3 and game.dead_cards is None
    assert C("QH") not in game.seen
