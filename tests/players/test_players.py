"""Computer players (speculation_nb.players): decisions from public information and the exact odds."""

from __future__ import annotations

import random
from fractions import Fraction
from math import floor

import pytest

from speculation_nb import Game, Rules, odds
from speculation_nb.players import (
    BOLD,
    CAUTIOUS,
    FAIR,
    TEMPERAMENTS,
    RandomPlayer,
    Strategy,
    Temperament,
    bidders,
    computer_bids,
    computer_decision,
    mansfield_park,
    play_deal,
    strategy,
    table_strategies,
)
from speculation_nb.players.lineups import DEFAULT_NAMES, seat_names


def auction_states(count: int = 40, seed: int = 0):
    """Games with an auction open, at varied moments of varied deals (seeded)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = Rules(
            players=rng.randint(3, 8),
            hand_size=rng.choice([3, 3, 4, 5]),
            jack_five=rng.random() < 0.3,
            dead_hand=rng.random() < 0.3,
            price_cap=rng.choice([None, None, 12]),
        )
        game = Game.deal(rules, seed=rng.randrange(10**9), dealer=rng.randrange(rules.players))
        for _ in range(rng.randrange(0, 2 * rules.players)):
            if game.over:
                break
            game.reveal()
        if game.over:
            continue
        game.open_auction()
        out.append(game)
    return out


def test_strategies_satisfy_the_protocol():
    for player in (CAUTIOUS, FAIR, BOLD, RandomPlayer(seed=1)):
        assert isinstance(player, Strategy)
        assert player.name
    assert set(TEMPERAMENTS) == {"cautious", "fair", "bold"}
    assert strategy("fair") is FAIR and strategy("random", seed=3) == RandomPlayer(seed=3)
    with pytest.raises(ValueError):
        strategy("reckless")
    with pytest.raises(ValueError):
        Temperament("odd", Fraction(-1))


def test_a_fair_player_never_bids_above_its_break_even():
    for game in auction_states(60):
        for seat in bidders(game):
            amount = FAIR.bid(game, seat)
            be = odds.break_even(game, seat)
            if amount is not None:
                assert amount <= be, (game, seat, amount, be)
                low, high = game.bid_range(seat)
                assert low <= amount <= high
            else:
                assert floor(be) < game.bid_range(seat)[0] or be < 1


def test_temperaments_are_ordered_and_within_the_rules():
    for game in auction_states(40, seed=5):
        for seat in bidders(game):
            be = odds.break_even(game, seat)
            low, high = game.bid_range(seat)
            bids = [player.bid(game, seat) for player in (CAUTIOUS, FAIR, BOLD)]
            values = [b or 0 for b in bids]
            assert values == sorted(values), (bids, be)
            for b, player in zip(bids, (CAUTIOUS, FAIR, BOLD)):
                if b is not None:
                    assert low <= b <= high
                    assert b <= player.appetite * be


def test_the_holder_accepts_only_bids_that_reach_its_price():
    for game in auction_states(30, seed=9):
        computer_bids(game, {s: BOLD for s in range(game.rules.players) if s != game.holder})
        for player in (CAUTIOUS, FAIR, BOLD):
            choice = player.choose_sale(game, game.holder)
            if choice is not None:
                assert choice in game.acceptable()
                assert game.auction[choice] >= player.appetite * odds.seller_break_even(game, choice)
            else:
                assert all(
                    game.auction[b] < player.appetite * odds.seller_break_even(game, b) for b in game.acceptable()
                )


def test_computer_bids_and_decision_change_the_game_by_the_rules():
    game = auction_states(1, seed=3)[0]
    players = table_strategies(game.rules.players, "fair")
    made = computer_bids(game, players)
    last = dict(made)
    assert {seat: game.auction[seat] for seat in last} == last
    assert computer_bids(game, players) == []  # nobody bids twice at the same price
    holder = game.holder
    before = game.stacks
    buyer = computer_decision(game, players[holder])
    assert game.auction is None
    if buyer is not None:
        assert game.holder == buyer
        assert sum(game.stacks) == sum(before)


def test_play_deal_ends_and_keeps_every_chip():
    rng = random.Random(4)
    for _ in range(12):
        rules = Rules(players=rng.randint(3, 8), jack_five=rng.random() < 0.5, dead_hand=rng.random() < 0.5)
        game = Game.deal(rules, seed=rng.randrange(10**9))
        total = sum(game.stacks) + game.pot
        players = table_strategies(rules.players, "mixed")
        play_deal(game, players)
        assert game.over
        assert sum(game.stacks) + game.pot == total


def test_strategies_are_deterministic_with_a_seed():
    games = auction_states(10, seed=11)
    for seed in (1, 2):
        a, b = RandomPlayer(seed=seed), RandomPlayer(seed=seed)
        for game in games:
            for seat in bidders(game):
                assert a.bid(game, seat) == b.bid(game, seat)
            assert a.wants_auction(game, game.holder) == b.wants_auction(game, game.holder)

    def whole_deal(seed: int, deal_seed: int) -> str:
        game = Game.deal(Rules(players=5), seed=deal_seed)
        play_deal(game, {s: RandomPlayer(seed=seed + s) for s in range(5)})
        return game.to_json()

    assert whole_deal(1, 77) == whole_deal(1, 77)
    assert len({whole_deal(seed, 77) for seed in range(8)}) > 1  # the seed matters


def test_table_strategies_leave_people_alone():
    lineup = table_strategies(5, "mixed", people=[2])
    assert set(lineup) == {0, 1, 3, 4}
    assert [lineup[s].name for s in (0, 1, 3, 4)] == ["fair", "cautious", "bold", "fair"]
    assert all(p is CAUTIOUS for p in table_strategies(4, "cautious").values())
    cast = mansfield_park(6)
    assert cast.lineup(people=[0]) == table_strategies(6, "mansfield", people=[0])
    assert cast.table(people=[0]) == cast.lineup(people=[0])  # the older name still answers


def test_seat_names_fill_what_is_missing_and_seat_the_characters():
    assert seat_names(4) == list(DEFAULT_NAMES[:4])
    assert seat_names(4, "fair", ["Ann", " ", "Bea"]) == ["Ann", DEFAULT_NAMES[1], "Bea", DEFAULT_NAMES[3]]
    cast = mansfield_park(6).names
    assert seat_names(6, "mansfield") == list(cast)
    assert seat_names(6, "mansfield", DEFAULT_NAMES[:6]) == list(cast)  # the defaults would be misplaced
    assert seat_names(6, "mansfield", ["Ann"]) == ["Ann", *cast[1:]]


def test_strategies_read_only_public_information():
    """Two deals that look the same from the table (same face-up cards, piles, stacks)
    but hide different cards get the same decisions."""
    rules = Rules(players=4)
    piles_a = [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "TC"], ["2D", "3D", "4D"]]
    piles_b = [["2C", "3C", "AH"], ["5C", "6C", "7C"], ["8C", "9C", "TC"], ["2D", "3D", "KH"]]
    a = Game.from_layout(rules, piles_a, "7H")
    b = Game.from_layout(rules, piles_b, "7H")
    for game in (a, b):
        game.reveal()
        game.open_auction()
    for player in (CAUTIOUS, FAIR, BOLD):
        for seat in bidders(a):
            assert player.bid(a, seat) == player.bid(b, seat)


def test_blind_trades_by_rule_of_thumb():
    game = Game.deal(Rules(players=4, blind_trading=True), seed=1)
    assert not FAIR.accepts_trade(game, 1, 0, 1, 2, 50)  # refuses by default
    trader = Temperament("trader", Fraction(1), card_price=3)
    assert trader.accepts_trade(game, 1, 0, 1, 2, 6) and not trader.accepts_trade(game, 1, 0, 1, 2, 5)
    assert trader.accepts_trade(game, 0, 0, 1, 2, 6) and not trader.accepts_trade(game, 0, 0, 1, 2, 7)
