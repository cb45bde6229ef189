"""Every case of the issue's "Bad input" list: IllegalAction with the right .rule and .params, a
message starting with the rule, and the game exactly as it was (to_json() and every reader)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rules_helpers import readers

from speculation_nb import Game, IllegalAction, Rules

PILES4 = [["2S", "3S", "4S"], ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["5S", "6S", "8S"]]


def fresh(**settings) -> Game:
    """4 players, dealer 0 holding the 7H turn-up; seat 1 is due. Seat 3 has 2 chips after its ante."""
    return Game.from_layout(Rules(players=4, **settings), PILES4, "7H", dealer=0, stacks=[60, 60, 60, 6])


def after_reveals(k: int, **settings) -> Game:
    game = fresh(**settings)
    for _ in range(k):
        game.reveal()
    return game


def auction(**settings) -> Game:
    """After one reveal (seat 1: 2C), the dealer opens an auction; seat 2 bids 3."""
    game = after_reveals(1, **settings)
    game.open_auction()
    game.bid(2, 3)
    return game


def turn_up_auction(**settings) -> Game:
    game = fresh(**settings)
    game.open_auction()
    game.bid(1, 2)
    game.bid(2, 4)
    return game


def finished(**settings) -> Game:
    game = fresh(**settings)
    while not game.over:
        game.reveal()
    return game


def ace() -> Game:
    return Game.from_layout(Rules(players=4), PILES4, "AH", dealer=0)


def emptied(**settings) -> Game:
    """Seat 1 has sold its whole pile to seat 2 (V3); the pointer has moved on to seat 2."""
    game = fresh(blind_trading=True, **settings)
    game.blind_trade(2, 1, 3, 1)
    return game


CASES = [
    # (id, setup, action, rule)
    ("reveal by a seat not due", fresh, lambda g: g.reveal(seat=2), "P3"),
    ("reveal by a seat not due, two seats ahead", lambda: after_reveals(2), lambda g: g.reveal(seat=1), "P3"),
    ("reveal by the holder", fresh, lambda g: g.reveal(seat=0), "P4"),
    ("reveal by a seat with no face-down card", emptied, lambda g: g.reveal(seat=1), "P4"),
    ("reveal while an auction is open", auction, lambda g: g.reveal(), "P2"),
    ("reveal by the due seat while an auction is open", auction, lambda g: g.reveal(seat=2), "P2"),
    (
        "blind trade while an auction is open",
        lambda: auction(blind_trading=True),
        lambda g: g.blind_trade(1, 2, 1, 1),
        "P2",
    ),
    ("open an auction while one is open", auction, lambda g: g.open_auction(), "P2"),
    ("bid above the bidder's stack", auction, lambda g: g.bid(1, 57), "P2"),
    ("bid above a small stack", auction, lambda g: g.bid(3, 3), "P2"),
    ("bid above the V4 cap", lambda: auction(price_cap=10), lambda g: g.bid(1, 11), "V4"),
    ("raise above the V4 cap", lambda: auction(price_cap=3), lambda g: g.bid(2, 4), "V4"),
    ("bid of a float", auction, lambda g: g.bid(1, 2.5), "P2"),
    ("bid of a whole float", auction, lambda g: g.bid(1, 4.0), "P2"),
    ("bid of text", auction, lambda g: g.bid(1, "4"), "P2"),
    ("bid of True", auction, lambda g: g.bid(1, True), "P2"),
    ("bid of False", auction, lambda g: g.bid(2, False), "P2"),
    ("bid of None", auction, lambda g: g.bid(1, None), "P2"),
    ("bid of a Fraction", auction, lambda g: g.bid(1, Fraction(4)), "P2"),
    ("negative bid", auction, lambda g: g.bid(1, -2), "P2"),
    ("bid equal to the standing bid", auction, lambda g: g.bid(2, 3), "P2"),
    ("bid below the standing bid", auction, lambda g: g.bid(2, 2), "P2"),
    ("withdrawing with no standing bid", auction, lambda g: g.bid(1, 0), "P2"),
    ("bid with no auction open", fresh, lambda g: g.bid(1, 2), "P2"),
    ("the holder bidding on its own card", auction, lambda g: g.bid(0, 5), "P2"),
    ("accepting less than the best offer in the turn-up auction", turn_up_auction, lambda g: g.accept(1), "P1"),
    (
        "accepting less than the best offer under hoyle1847",
        lambda: (lambda g: (g.bid(1, 5), g)[1])(auction(preset="hoyle1847")),
        lambda g: g.accept(2),
        "hoyle1847(d)",
    ),
    ("accept with no auction open", fresh, lambda g: g.accept(1), "P2"),
    (
        "accept after the auction was declined",
        lambda: (lambda g: (g.decline(), g)[1])(auction()),
        lambda g: g.accept(2),
        "P2",
    ),
    ("decline with no auction open", fresh, lambda g: g.decline(), "P2"),
    ("accepting a seat with no bid", auction, lambda g: g.accept(1), "P2"),
    ("accepting the holder", auction, lambda g: g.accept(0), "P2"),
    ("blind trade when V3 is off", fresh, lambda g: g.blind_trade(1, 2, 1, 1), "V3"),
    (
        "blind trade between a seat and itself",
        lambda: fresh(blind_trading=True),
        lambda g: g.blind_trade(2, 2, 1, 1),
        "V3",
    ),
    (
        "blind trade for more cards than the seller has",
        lambda: fresh(blind_trading=True),
        lambda g: g.blind_trade(1, 2, 4, 1),
        "V3",
    ),
    ("blind trade with a seller that has no card", emptied, lambda g: g.blind_trade(3, 1, 1, 1), "V3"),
    ("blind trade for no card", lambda: fresh(blind_trading=True), lambda g: g.blind_trade(1, 2, 0, 1), "V3"),
    ("blind trade for a float count", lambda: fresh(blind_trading=True), lambda g: g.blind_trade(1, 2, 1.0, 1), "V3"),
    (
        "blind trade for more chips than the buyer has",
        lambda: fresh(blind_trading=True),
        lambda g: g.blind_trade(3, 2, 1, 3),
        "V3",
    ),
    ("blind trade for nothing", lambda: fresh(blind_trading=True), lambda g: g.blind_trade(1, 2, 1, 0), "V3"),
    ("blind trade for a bool price", lambda: fresh(blind_trading=True), lambda g: g.blind_trade(1, 2, 1, True), "V3"),
    ("reveal by a seat out of range", fresh, lambda g: g.reveal(seat=4), "S1"),
    ("reveal by a negative seat", fresh, lambda g: g.reveal(seat=-1), "S1"),
    ("reveal by a bool seat", fresh, lambda g: g.reveal(seat=True), "S1"),
    ("reveal by a text seat", fresh, lambda g: g.reveal(seat="1"), "S1"),
    ("reveal by a float seat", fresh, lambda g: g.reveal(seat=1.0), "S1"),
    ("bid by a seat out of range", auction, lambda g: g.bid(4, 1), "S1"),
    ("bid by a negative seat", auction, lambda g: g.bid(-1, 1), "S1"),
    ("accept a seat out of range", auction, lambda g: g.accept(7), "S1"),
    ("accept a bool seat", auction, lambda g: g.accept(True), "S1"),
    (
        "blind trade with a buyer out of range",
        lambda: fresh(blind_trading=True),
        lambda g: g.blind_trade(4, 2, 1, 1),
        "S1",
    ),
    (
        "blind trade with a seller out of range",
        lambda: fresh(blind_trading=True),
        lambda g: g.blind_trade(1, -1, 1, 1),
        "S1",
    ),
    ("blind trade with a huge seat", lambda: fresh(blind_trading=True), lambda g: g.blind_trade(1, 10**20, 1, 1), "S1"),
    ("reveal after the deal is over", finished, lambda g: g.reveal(), "P7"),
    ("reveal by a seat after the deal is over", finished, lambda g: g.reveal(seat=1), "P7"),
    ("open an auction after the deal is over", finished, lambda g: g.open_auction(), "P7"),
    ("bid after the deal is over", finished, lambda g: g.bid(1, 1), "P7"),
    ("accept after the deal is over", finished, lambda g: g.accept(1), "P7"),
    ("decline after the deal is over", finished, lambda g: g.decline(), "P7"),
    (
        "blind trade after the deal is over",
        lambda: finished(blind_trading=True),
        lambda g: g.blind_trade(1, 2, 1, 1),
        "P7",
    ),
    (
        "reveal after a carried-over deal",
        lambda: (lambda g: [g.reveal() for _ in range(9)] and g)(
            Game.from_layout(Rules(players=4, dead_hand=True), PILES4, "7H", dead=["AH", "2H", "3H"])
        ),
        lambda g: g.reveal(),
        "P7",
    ),
    ("reveal after an Ace turn-up", ace, lambda g: g.reveal(), "S5"),
    ("open an auction after an Ace turn-up", ace, lambda g: g.open_auction(), "S5"),
]


@pytest.mark.parametrize("setup, action, rule", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_action_names_its_rule_and_changes_nothing(setup, action, rule):
    game = setup()
    before = game.to_json()
    before_readers = readers(game)
    with pytest.raises(IllegalAction) as info:
        action(game)
    error = info.value
    assert error.rule == rule, str(error)
    assert str(error).startswith(f"{rule}: ")
    assert isinstance(error, ValueError)
    assert isinstance(error.params, dict)
    assert isinstance(error.key, str) and error.key  # names the case, for translations
    assert game.to_json() == before
    assert readers(game) == before_readers
    # the game still plays on as if nothing had happened
    assert Game.from_json(before).to_json() == game.to_json()


def test_params_carry_the_numbers_of_the_case():
    game = fresh()
    with pytest.raises(IllegalAction) as info:
        game.reveal(seat=2)
    assert info.value.params == {"seat": 2, "due": 1}
    assert str(info.value) == "P3: it is seat 1's turn to reveal, not seat 2's"
    game = auction(price_cap=10)
    with pytest.raises(IllegalAction) as info:
        game.bid(1, 11)
    assert info.value.params == {"seat": 1, "amount": 11, "cap": 10}
    with pytest.raises(IllegalAction) as info:
        game.bid(3, 3)
    assert info.value.params == {"seat": 3, "amount": 3, "stack": 2}
    game = turn_up_auction()
    with pytest.raises(IllegalAction) as info:
        game.accept(1)
    assert info.value.params == {"seat": 1, "best": 2, "amount": 4}
    game = fresh(blind_trading=True)
    with pytest.raises(IllegalAction) as info:
        game.blind_trade(3, 2, 1, 3)
    assert info.value.params == {"buyer": 3, "price": 3, "stack": 2}


def test_illegal_action_can_be_pickled():
    import pickle

    game = fresh()
    with pytest.raises(IllegalAction) as info:
        game.reveal(seat=0)
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.rule, copy.key, copy.params, str(copy)) == (
        info.value.rule,
        info.value.key,
        info.value.params,
        str(info.value),
    )


def test_keys_tell_apart_the_cases_of_one_rule():
    game = fresh()
    keys = set()
    for seat in (0, 2):  # the holder; a seat not due
        with pytest.raises(IllegalAction) as info:
            game.reveal(seat=seat)
        keys.add((info.value.rule, info.value.key))
    game = emptied()
    with pytest.raises(IllegalAction) as info:
        game.reveal(seat=1)
    keys.add((info.value.rule, info.value.key))
    assert len(keys) == 3 and {rule for rule, _ in keys} == {"P3", "P4"}


# ------------------------------------------------------ numbers of other types
def test_numpy_integers_are_whole_numbers():
    np = pytest.importorskip("numpy")
    game = fresh(blind_trading=True)
    game.reveal(seat=np.int64(1))
    game.blind_trade(np.int32(2), np.int8(3), np.int64(1), np.uint8(1))
    game.open_auction()
    game.bid(np.int64(1), np.int16(3))
    game.accept(np.int64(1))
    assert game.stacks == [57, 53, 55, 3]
    assert [dict(a.args) for a in game.history] == [
        {"seat": 1},
        {"buyer": 2, "seller": 3, "count": 1, "price": 1},
        {},
        {"seat": 1, "amount": 3},
        {"seat": 1},
    ]
    assert all(type(v) is int for a in game.history for _, v in a.args)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    assert game.at(np.int64(1)).to_json() == game.at(1).to_json()
    dealt = Game.deal(Rules(players=3), seed=np.int64(5), dealer=np.int64(1), stacks=[np.int64(9)] * 3, pot=np.int64(2))
    assert dealt.to_json() == Game.deal(Rules(players=3), seed=5, dealer=1, stacks=[9] * 3, pot=2).to_json()


@pytest.mark.parametrize("amount", ["float64", "bool_"])
def test_numpy_floats_and_bools_are_not_whole_numbers(amount):
    np = pytest.importorskip("numpy")
    game = auction()
    value = getattr(np, amount)(1)
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.bid(1, value)
    assert info.value.rule == "P2" and game.to_json() == before
