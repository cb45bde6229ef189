"""Auctions P1, P2 and the price cap V4 (game.py), on known deals laid out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rules_helpers import illegal

from speculation_nb import Card, Game, Rules

PILES4 = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]


def table(stacks=None, **settings) -> Game:
    """4 players, dealer 0 holding the 7H turn-up; no trump in any pile."""
    return Game.from_layout(Rules(players=4, **settings), PILES4, "7H", dealer=0, stacks=stacks)


# ------------------------------------------------------------------------- P1
def test_p1_dealer_may_keep_the_turn_up_and_sell_it_later_to_any_bid():
    game = table()
    assert game.reveal() == Card.parse("2C")  # the dealer kept it
    game.open_auction()
    assert not game.turn_up_auction
    game.bid(1, 2)
    game.bid(2, 7)
    game.accept(1)  # not the best offer: allowed after the first reveal
    assert game.holder == 1
    assert game.stacks == [54 + 2, 56 - 2, 56, 56] and game.pot == 18


def test_p1_turn_up_auction_only_the_best_offer_may_be_accepted():
    game = table()
    game.open_auction()
    assert game.turn_up_auction and game.auction == {}
    game.bid(1, 3)
    game.bid(2, 5)
    game.bid(3, 5)
    # best offer: the highest bid, among equal bids the earliest: seat 2
    assert game.best_offer == 2
    assert game.acceptable() == [2]
    error = illegal(game, "P1", lambda: game.accept(3))
    assert error.params["best"] == 2 and error.params["amount"] == 5
    illegal(game, "P1", lambda: game.accept(1))
    game.accept(2)
    assert game.holder == 2 and game.auction is None
    assert game.stacks == [59, 56, 51, 56] and game.pot == 18
    assert game.turn == 1


def test_p1_a_raise_counts_from_the_moment_it_is_made():
    game = table()
    game.open_auction()
    game.bid(1, 3)
    game.bid(2, 5)
    game.bid(1, 5)  # equal to seat 2's 5, but made later
    assert game.auction == {1: 5, 2: 5}
    assert game.best_offer == 2
    illegal(game, "P1", lambda: game.accept(1))
    game.bid(1, 6)
    assert game.best_offer == 1
    game.bid(2, 6)  # equal again, later
    assert game.best_offer == 1
    game.bid(1, 0)  # seat 1 withdraws
    assert game.auction == {2: 6} and game.best_offer == 2
    game.bid(1, 6)  # and bids again: later than seat 2's 6
    assert game.best_offer == 2
    game.accept(2)
    assert game.stacks == [60, 56, 50, 56]


def test_p1_dealer_may_decline_and_open_again():
    game = table()
    game.open_auction()
    game.bid(3, 4)
    game.decline()
    assert game.auction is None and game.holder == 0 and game.stacks == [54, 56, 56, 56]
    game.open_auction()
    assert game.auction == {}  # the bids of a declined auction are gone
    game.decline()
    game.open_auction()
    game.bid(1, 2)
    game.accept(1)
    assert game.holder == 1 and game.stacks == [56, 54, 56, 56]
    assert [a.kind for a in game.history] == [
        "open_auction",
        "bid",
        "decline",
        "open_auction",
        "decline",
        "open_auction",
        "bid",
        "accept",
    ]


def test_p1_every_auction_before_the_first_reveal_sells_the_turn_up():
    # Settled here: an auction opened before the first reveal, even by a buyer of the
    # turn-up, is a turn-up auction: only the best offer may be accepted.
    game = table()
    game.open_auction()
    game.bid(1, 2)
    game.accept(1)
    game.open_auction()
    assert game.turn_up_auction
    game.bid(2, 3)
    game.bid(3, 4)
    illegal(game, "P1", lambda: game.accept(2))
    game.accept(3)
    assert game.holder == 3 and game.stacks == [56, 54 + 4, 56, 56 - 4]


def test_p1_then_the_dealers_left_reveals_first():
    game = table()
    game.open_auction()
    game.bid(3, 2)
    game.accept(3)
    assert game.turn == 1 and game.reveal() == Card.parse("2C")
    game = table()
    game.open_auction()
    game.bid(1, 2)
    game.accept(1)  # the dealer's left bought it: it is skipped as the holder
    assert game.turn == 2


# ------------------------------------------------------------------------- P2
def test_p2_auction_reader_and_turn_while_open():
    game = table()
    game.reveal()
    game.open_auction()
    assert game.auction == {} and game.turn == 2  # the seat due stays due
    game.bid(3, 4)
    game.bid(1, 2)
    assert game.auction == {3: 4, 1: 2}
    assert game.acceptable() == [3, 1]
    snapshot = game.auction
    snapshot[2] = 99
    assert game.auction == {3: 4, 1: 2}


def test_p2_only_the_holder_opens_one_auction_at_a_time():
    game = table()
    game.open_auction()
    illegal(game, "P2", game.open_auction)


def test_p2_holder_cannot_bid_on_own_card():
    game = table()
    game.open_auction()
    error = illegal(game, "P2", lambda: game.bid(0, 3))
    assert error.params == {"seat": 0}


def test_p2_the_former_holder_may_bid_after_selling():
    game = table()
    game.reveal()
    game.open_auction()
    game.bid(2, 3)
    game.accept(2)
    game.open_auction()
    game.bid(0, 4)
    illegal(game, "P2", lambda: game.bid(2, 5))
    game.accept(0)
    assert game.holder == 0
    assert game.stacks == [54 + 3 - 4, 56, 56 - 3 + 4, 56]


def test_p2_bid_at_least_1_and_at_most_the_bidders_stack():
    game = table(stacks=[60, 10, 60, 5])  # after the antes: seat 1 has 6, seat 3 has 1
    game.open_auction()
    illegal(game, "P2", lambda: game.bid(1, -1))
    illegal(game, "P2", lambda: game.bid(1, 7))
    error = illegal(game, "P2", lambda: game.bid(3, 2))
    assert error.params == {"seat": 3, "amount": 2, "stack": 1}
    game.bid(1, 6)
    game.bid(3, 1)
    assert game.auction == {1: 6, 3: 1}


def test_p2_player_without_chips_cannot_bid():
    game = table(stacks=[60, 4, 60, 60])  # seat 1 has 0 after its ante
    game.open_auction()
    illegal(game, "P2", lambda: game.bid(1, 1))
    assert game.bid_range(1) is None
    assert game.bid_range(2) == (1, 56)
    assert game.bid_range(0) is None  # the holder
    for not_a_seat in (-1, 4, True, 1.0, None):
        assert game.bid_range(not_a_seat) is None


@pytest.mark.parametrize("amount", [1.5, 2.0, "3", True, False, None, Fraction(3), [3]])
def test_p2_bid_must_be_a_whole_number(amount):
    game = table()
    game.open_auction()
    illegal(game, "P2", lambda: game.bid(1, amount))


def test_p2_new_bid_must_be_higher_than_the_standing_bid():
    game = table()
    game.open_auction()
    game.bid(1, 4)
    error = illegal(game, "P2", lambda: game.bid(1, 4))
    assert error.params["standing"] == 4
    illegal(game, "P2", lambda: game.bid(1, 3))
    game.bid(1, 5)
    assert game.auction == {1: 5}
    assert game.bid_range(1) == (6, 56)


def test_p2_withdraw_and_bid_again_lower():
    game = table()
    game.open_auction()
    illegal(game, "P2", lambda: game.bid(2, 0))  # nothing to withdraw
    game.bid(2, 9)
    game.bid(2, 0)
    assert game.auction == {}
    illegal(game, "P2", lambda: game.bid(2, 0))
    game.bid(2, 1)  # lower than the withdrawn 9
    assert game.auction == {2: 1}
    assert [(a.kind, dict(a.args)) for a in game.history[1:]] == [
        ("bid", {"seat": 2, "amount": 9}),
        ("bid", {"seat": 2, "amount": 0}),
        ("bid", {"seat": 2, "amount": 1}),
    ]


def test_p2_accept_pays_the_seller_never_the_pot():
    game = table()
    game.reveal()
    game.open_auction()
    game.bid(3, 11)
    game.accept(3)
    assert game.pot == 18
    assert game.stacks == [54 + 11, 56, 56, 56 - 11]
    assert sum(game.stacks) + game.pot == 240
    assert game.best_trump == Card.parse("7H") and game.holder == 3


def test_p2_accept_needs_a_standing_bid():
    game = table()
    game.reveal()
    illegal(game, "P2", lambda: game.accept(1))
    illegal(game, "P2", game.decline)
    game.open_auction()
    illegal(game, "P2", lambda: game.accept(1))
    game.bid(1, 3)
    game.bid(1, 0)
    illegal(game, "P2", lambda: game.accept(1))
    illegal(game, "P2", lambda: game.accept(0))  # the holder itself
    game.decline()
    illegal(game, "P2", game.decline)


def test_p2_no_reveals_and_no_blind_trades_while_an_auction_is_open():
    game = table(blind_trading=True)
    game.open_auction()
    illegal(game, "P2", game.reveal)
    illegal(game, "P2", lambda: game.reveal(seat=1))
    illegal(game, "P2", lambda: game.blind_trade(1, 2, 1, 1))
    assert not game.can_reveal() and not game.can_blind_trade() and not game.can_open_auction()
    game.decline()
    assert game.can_reveal() and game.can_blind_trade()
    assert game.reveal() == Card.parse("2C")


def test_p2_a_new_holder_may_auction_the_trump_it_turned_up():
    piles = [["2S", "3S", "4S"], ["9H", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]
    game = Game.from_layout(Rules(players=4), piles, "7H", dealer=0)
    game.reveal()
    assert game.holder == 1
    game.open_auction()
    game.bid(0, 1)
    game.bid(3, 2)
    game.accept(0)
    assert game.holder == 0 and game.best_trump == Card.parse("9H")
    assert game.stacks == [53, 57, 56, 56]


# ------------------------------------------------------------------------- V4
def test_v4_no_bid_above_the_price_cap():
    game = table(price_cap=12)
    game.open_auction()
    error = illegal(game, "V4", lambda: game.bid(1, 13))
    assert error.params["cap"] == 12
    game.bid(1, 12)
    illegal(game, "V4", lambda: game.bid(2, 20))
    assert game.bid_range(2) == (1, 12)
    game.accept(1)
    assert game.stacks == [66, 44, 56, 56]


def test_v4_the_stack_still_limits_below_the_cap():
    game = table(price_cap=12, stacks=[60, 10, 60, 60])  # seat 1 has 6 after its ante
    game.open_auction()
    illegal(game, "P2", lambda: game.bid(1, 7))
    assert game.bid_range(1) == (1, 6)


def test_v4_off_allows_any_bid_up_to_the_stack():
    game = table()
    game.open_auction()
    game.bid(1, 56)
    assert game.auction == {1: 56}
