"""Sessions G1-G4 (session.py): rotation, carried pots, the three ends, the shared leftover pot,
standings and save/load.

Deals in a session are shuffled from its seed, so to know every chip by hand these tests play
with blind trading (V3): the dealer, holding the turn-up, buys every other pile at once, which
ends the deal (P7) with the dealer as the holder. Seeds are picked (by the turn-ups and dead
piles they deal, never by play) so that no turn-up is an Ace, or so that a dead pile carries.
"""

from __future__ import annotations

import json

import pytest

from speculation_nb import Game, IllegalAction, Rules, Session


def deals_of(rules: Rules, seed: int, count: int, first_dealer: int = 0) -> list[Game]:
    """The first ``count`` deals a session with ``seed`` will deal (they do not depend on play)."""
    session = Session(rules, seed=seed, dealer=first_dealer)
    n = rules.players
    return [Game.deal(rules, seed=session.deal_seed(i), dealer=(first_dealer + i) % n) for i in range(count)]


def dead_beats_turn_up(game: Game) -> bool:
    return any(c.suit == game.trump and c.rank > game.turn_up.rank for c in game.layout()["dead"])


def find_seed(rules: Rules, count: int, wanted, first_dealer: int = 0) -> int:
    """The smallest session seed whose first ``count`` deals satisfy ``wanted(list_of_games)``."""
    for seed in range(20_000):
        if wanted(deals_of(rules, seed, count, first_dealer)):
            return seed
    raise AssertionError("no such seed")  # pragma: no cover


def no_ace(games) -> bool:
    return all(g.turn_up.rank != 14 for g in games)


def dealer_buys_everything(game: Game, price: int = 1) -> None:
    """The dealer, still holding the turn-up, buys every other pile (V3) for ``price`` each."""
    n, dealer = game.rules.players, game.dealer
    assert game.holder == dealer and not game.over
    for i in range(1, n):
        seat = (dealer + i) % n
        if game.face_down[seat]:
            game.blind_trade(dealer, seat, game.face_down[seat], price)
    assert game.over


def total(session: Session) -> int:
    return sum(session.stacks) + session.pot


V3 = Rules(players=3, blind_trading=True)


# ----------------------------------------------------------------------- G2
def test_g2_the_deal_passes_to_the_left_and_everyone_antes_again():
    seed = find_seed(V3, 3, no_ace)
    s = Session(V3, names=["Fanny", "Edmund", "Mary"], deals=3, seed=seed)
    assert s.game.dealer == 0 and s.deal_number == 1
    # deal 1, dealer 0: antes [54, 56, 56]; buys two piles for 1 each: [52, 57, 57]; + 14
    assert s.game.stacks == [54, 56, 56] and s.game.pot == 14
    dealer_buys_everything(s.game)
    assert s.game.winner == 0 and s.stacks == [66, 57, 57]
    s.next_deal()
    # deal 2, dealer 1: antes [62, 51, 53]; [63, 49, 54]; + 14
    assert s.game.dealer == 1 and s.deal_number == 2
    assert s.game.stacks == [62, 51, 53] and s.game.pot == 14
    dealer_buys_everything(s.game)
    assert s.stacks == [63, 63, 54]
    s.next_deal()
    # deal 3, dealer 2: antes [59, 59, 48]; [60, 60, 46]; + 14
    assert s.game.dealer == 2 and s.game.stacks == [59, 59, 48]
    dealer_buys_everything(s.game)
    assert s.stacks == [60, 60, 60]
    assert [g.dealer for g in s.games] == [0, 1, 2]
    # G3: three deals agreed
    assert s.next_deal() is None
    assert s.over and s.ended == "deals"
    assert s.shared == [0, 0, 0] and s.pot == 0
    # equal stacks share the win
    assert [(x.place, x.seat, x.name, x.stack, x.winner) for x in s.standings()] == [
        (1, 0, "Fanny", 60, True),
        (1, 1, "Edmund", 60, True),
        (1, 2, "Mary", 60, True),
    ]


def test_g2_rotation_from_another_first_dealer_wraps_around():
    rules = Rules(players=4, blind_trading=True)
    seed = find_seed(rules, 5, no_ace, first_dealer=2)
    s = Session(rules, deals=5, seed=seed, dealer=2)
    dealers = []
    while not s.over:
        dealers.append(s.game.dealer)
        dealer_buys_everything(s.game)
        s.next_deal()
    assert dealers == [2, 3, 0, 1, 2]
    assert s.ended == "deals" and len(s.games) == 5


def test_g2_every_deal_is_shuffled_from_the_session_seed():
    a = Session(Rules(players=5), seed=42)
    b = Session(Rules(players=5), seed=42)
    assert a.game.layout() == b.game.layout()
    assert a.game.seed == a.deal_seed(0) and a.deal_seed(1) != a.deal_seed(0)
    assert Session(Rules(players=5), seed=43).game.layout() != a.game.layout()


# ---------------------------------------------------------------- carry-over
V2V3 = Rules(players=3, dead_hand=True, blind_trading=True)


def test_g1_p9_a_carried_pot_is_added_to_the_next_antes():
    seed = find_seed(V2V3, 2, lambda g: no_ace(g) and dead_beats_turn_up(g[0]) and not dead_beats_turn_up(g[1]))
    s = Session(V2V3, seed=seed)
    dealer_buys_everything(s.game)
    assert s.game.winner is None and s.game.pot == 14
    assert s.stacks == [52, 57, 57] and total(s) == 180
    s.next_deal()
    # deal 2, dealer 1: 14 + 14 = 28 in the pot; antes taken from [52, 57, 57]
    assert s.game.pot == 28 and s.game.stacks == [48, 51, 53]
    dealer_buys_everything(s.game)
    # dealer 1 pays 1 to each other seat, then takes all 28
    assert s.game.winner == 1 and s.stacks == [49, 49 + 28, 54] and s.pot == 0
    assert total(s) == 180


@pytest.mark.parametrize(
    "players, dealer, shared",
    [
        (3, 0, [5, 4, 5]),  # 14 = 3 * 4 + 2: the next dealer is seat 1; its left, seat 2, then seat 0
        (4, 0, [4, 4, 5, 5]),  # 18 = 4 * 4 + 2: seats 2 and 3
        (5, 0, [4, 4, 5, 5, 4]),  # 22 = 5 * 4 + 2: seats 2 and 3
        (5, 2, [5, 4, 4, 4, 5]),  # dealer 2: the next dealer is seat 3; its left, seat 4, then seat 0
        (8, 6, [5, 5, 4, 4, 4, 4, 4, 4]),  # 34 = 8 * 4 + 2; next dealer 7: seats 0 and 1
    ],
)
def test_g3_stop_shares_the_leftover_pot_from_the_next_dealers_left(players, dealer, shared):
    rules = Rules(players=players, dead_hand=True, blind_trading=True)
    seed = find_seed(rules, 1, lambda g: no_ace(g) and dead_beats_turn_up(g[0]), first_dealer=dealer)
    s = Session(rules, seed=seed, dealer=dealer)
    dealer_buys_everything(s.game)
    pot = 6 + 4 * (players - 1)
    assert s.game.winner is None and s.pot == pot and sum(shared) == pot
    before = s.game.stacks
    s.stop()
    assert s.shared == shared
    assert s.over and s.ended == "stopped" and s.pot == 0
    assert s.stacks == [b + x for b, x in zip(before, shared)]
    assert sum(s.stacks) == 60 * players


def test_g3_leftover_pot_worked_examples():
    # worked by hand, independently of the formula above
    rules = Rules(players=3, dead_hand=True, blind_trading=True)
    seed = find_seed(rules, 1, lambda g: no_ace(g) and dead_beats_turn_up(g[0]))
    s = Session(rules, seed=seed)
    dealer_buys_everything(s.game)  # [52, 57, 57], pot 14 carried
    s.stop()
    assert s.shared == [5, 4, 5]  # 4 each; the rest 2 to seat 2 (next dealer's left), then seat 0
    assert s.stacks == [57, 61, 62]
    assert [(x.place, x.seat, x.stack, x.winner) for x in s.standings()] == [
        (1, 2, 62, True),
        (2, 1, 61, False),
        (3, 0, 57, False),
    ]

    rules = Rules(players=4, dead_hand=True, blind_trading=True)
    seed = find_seed(rules, 1, lambda g: no_ace(g) and dead_beats_turn_up(g[0]))
    s = Session(rules, seed=seed, deals=1)
    dealer_buys_everything(s.game)  # [51, 57, 57, 57], pot 18 carried
    assert s.next_deal() is None and s.ended == "deals"
    assert s.shared == [4, 4, 5, 5]  # 18 = 16 + 2: seats 2 and 3
    assert s.stacks == [55, 61, 62, 62]
    assert [(x.place, x.seat) for x in s.standings()] == [(1, 2), (1, 3), (3, 1), (4, 0)]
    assert [x.winner for x in s.standings()] == [True, True, False, False]


# ----------------------------------------------------------------------- G3
def test_g3_session_ends_after_the_agreed_deals_s5_deals_included():
    rules = Rules(players=3)
    seed = find_seed(rules, 2, lambda g: g[0].turn_up.rank == 14 and g[1].turn_up.rank == 14)
    s = Session(rules, deals=2, seed=seed)
    assert s.game.over and s.game.winner == 0 and s.stacks == [68, 56, 56]
    s.next_deal()
    assert s.game.over and s.game.winner == 1
    # deal 2, dealer 1: antes [64, 50, 52], pot 14 to seat 1
    assert s.stacks == [64, 64, 52]
    assert s.next_deal() is None and s.ended == "deals" and s.deal_number == 2


def test_g3_session_ends_before_a_deal_its_dealer_cannot_ante_for():
    rules = Rules(players=3, blind_trading=True, start_chips=10)
    seed = find_seed(rules, 1, no_ace)
    s = Session(rules, seed=seed)
    g = s.game
    assert g.stacks == [4, 6, 6] and g.pot == 14
    g.blind_trade(1, 2, 1, 2)  # seat 1 buys a card of seat 2 for 2: [4, 4, 8]
    dealer_buys_everything(g)  # seat 0 pays 1 + 1: [2, 5, 9], then takes 14
    assert s.stacks == [16, 5, 9]
    # the next dealer, seat 1, has 5 chips: enough for an ordinary ante of 4, not for the dealer's 6
    assert s.next_deal() is None
    assert s.over and s.ended == "ante" and s.deal_number == 1
    assert s.shared == [0, 0, 0] and s.stacks == [16, 5, 9]
    assert [(x.place, x.seat, x.stack) for x in s.standings()] == [(1, 0, 16), (2, 2, 9), (3, 1, 5)]


def test_g3_a_player_with_exactly_their_own_ante_plays_on():
    rules = Rules(players=3, blind_trading=True, start_chips=10)
    seed = find_seed(rules, 2, no_ace)
    s = Session(rules, seed=seed)
    g = s.game
    g.blind_trade(2, 1, 1, 3)  # [4, 9, 3]
    dealer_buys_everything(g)  # [2, 10, 4] + 14
    assert s.stacks == [16, 10, 4]
    new = s.next_deal()  # dealer 1 antes 6 of 10, seat 2 antes 4 of 4
    assert new is s.game and not s.over
    assert new.stacks == [12, 4, 0] and new.pot == 14


def test_g3_session_ends_when_a_non_dealer_cannot_ante():
    rules = Rules(players=3, blind_trading=True, start_chips=10)
    seed = find_seed(rules, 1, no_ace)
    s = Session(rules, seed=seed)
    g = s.game
    g.blind_trade(2, 1, 1, 4)  # [4, 10, 2]
    dealer_buys_everything(g)  # [2, 11, 3] + 14
    assert s.stacks == [16, 11, 3]  # seat 2 needs 4 for the next deal
    assert s.next_deal() is None and s.ended == "ante"


def test_g3_session_only_ends_between_deals():
    s = Session(Rules(players=3), seed=find_seed(Rules(players=3), 1, no_ace))
    for act in (s.stop, s.next_deal):
        with pytest.raises(IllegalAction) as info:
            act()
        assert info.value.rule == "G3"
    while not s.game.over:
        s.game.reveal()
    s.stop()
    assert s.ended == "stopped"
    for act in (s.stop, s.next_deal):
        with pytest.raises(IllegalAction) as info:
            act()
        assert info.value.rule == "G3" and str(info.value).startswith("G3: ")


# ----------------------------------------------------------------------- G4
def test_g4_chips_are_never_created_or_destroyed_over_a_session():
    rules = Rules(players=4, jack_five=True, dead_hand=True, blind_trading=True)
    s = Session(rules, deals=12, seed=5)
    while not s.over:
        g = s.game
        step = 0
        while not g.over:
            if step % 5 == 1 and g.can_open_auction():
                g.open_auction()
                seat = (g.holder + 1) % 4
                if g.stacks[seat] > 0:
                    g.bid(seat, 1)
                    g.accept(seat)
                else:
                    g.decline()
            else:
                g.reveal()
            step += 1
            assert total(s) == 240
        s.next_deal()
    assert sum(s.stacks) == 240 and s.pot == 0


# ----------------------------------------------------------------- standings
def test_g3_standings_best_first_with_shared_places():
    rules = Rules(players=4, blind_trading=True)
    seed = find_seed(rules, 1, no_ace)
    s = Session(rules, names=["Fanny", "Edmund", "Mary", "Henry"], seed=seed)
    # dealer 0 buys seat 1's pile for 2 and the others for 1: [54 - 4, 58, 57, 57], then takes 18
    g = s.game
    g.blind_trade(0, 1, 3, 2)
    g.blind_trade(0, 2, 3, 1)
    g.blind_trade(0, 3, 3, 1)
    assert s.stacks == [68, 58, 57, 57]
    rows = s.standings()
    assert [(x.place, x.name, x.stack, x.winner) for x in rows] == [
        (1, "Fanny", 68, True),
        (2, "Edmund", 58, False),
        (3, "Mary", 57, False),
        (3, "Henry", 57, False),
    ]


# -------------------------------------------------------------- construction
@pytest.mark.parametrize(
    "kwargs",
    [
        {"names": ["A", "B"]},
        {"names": ["A", "B", "C", "D"]},
        {"names": ["A", "", "C"]},
        {"names": ["A", "  ", "C"]},
        {"names": ["A", None, "C"]},
        {"names": "ABC"},
        {"deals": 0},
        {"deals": -1},
        {"deals": 1.5},
        {"deals": True},
        {"seed": 1.5},
        {"seed": "1"},
        {"dealer": 3},
        {"dealer": -1},
        {"dealer": True},
    ],
)
def test_session_refuses_bad_settings(kwargs):
    with pytest.raises(ValueError):
        Session(Rules(players=3), **kwargs)


def test_session_names_are_trimmed_and_defaulted():
    s = Session(Rules(players=3), names=["  Fanny ", "Edmund", "Mary"], seed=1)
    assert s.names == ["Fanny", "Edmund", "Mary"]
    assert Session(Rules(players=3), seed=1).names == ["Player 1", "Player 2", "Player 3"]
    with pytest.raises(ValueError):
        Session("rules")  # type: ignore[arg-type]


# ------------------------------------------------------------------ save/load
def roundtrip(s: Session) -> Session:
    text = s.to_json()
    loaded = Session.from_json(text)
    assert loaded.to_json() == text
    assert loaded.stacks == s.stacks and loaded.pot == s.pot and loaded.over == s.over
    assert loaded.game.to_json() == s.game.to_json()
    return loaded


def test_session_save_load_mid_deal_between_deals_and_after_the_end():
    rules = Rules(players=3, dead_hand=True, blind_trading=True)
    seed = find_seed(rules, 2, lambda g: no_ace(g) and dead_beats_turn_up(g[0]))
    s = Session(rules, names=["Fanny", "Edmund", "Mary é ♥"], deals=3, seed=seed)
    roundtrip(s)
    s.game.blind_trade(0, 1, 1, 2)
    roundtrip(s)
    dealer_buys_everything(s.game)
    roundtrip(s)
    s.next_deal()
    s.game.reveal()
    loaded = roundtrip(s)
    # the loaded session plays on exactly like the original
    while not s.game.over:
        s.game.reveal()
    while not loaded.game.over:
        loaded.game.reveal()
    assert loaded.to_json() == s.to_json()
    s.stop()
    after = roundtrip(s)
    assert after.ended == "stopped" and after.shared == s.shared


def test_session_save_load_after_ending_by_deals_and_by_ante():
    rules = Rules(players=3, blind_trading=True, start_chips=10)
    seed = find_seed(rules, 1, no_ace)
    s = Session(rules, seed=seed)
    s.game.blind_trade(1, 2, 1, 2)
    dealer_buys_everything(s.game)
    s.next_deal()
    assert s.ended == "ante"
    assert roundtrip(s).ended == "ante"
    s = Session(Rules(players=3), deals=1, seed=3)
    while not s.game.over:
        s.game.reveal()
    s.next_deal()
    assert roundtrip(s).ended == "deals"


def tamper(s: Session, change) -> str:
    data = json.loads(s.to_json())
    change(data)
    return json.dumps(data)


def test_session_from_json_refuses_corrupt_input():
    rules = Rules(players=3, blind_trading=True)
    seed = find_seed(rules, 2, no_ace)
    s = Session(rules, deals=2, seed=seed)
    dealer_buys_everything(s.game)
    s.next_deal()
    s.game.reveal()
    bad = [
        "",
        "{",
        "null",
        "[]",
        "NaN",
        b"\xff\xfe",
        3,
        None,
        tamper(s, lambda d: d.update(format="speculation_nb.game")),
        tamper(s, lambda d: d.update(version=True)),
        tamper(s, lambda d: d.update(extra=1)),
        tamper(s, lambda d: d.pop("names")),
        tamper(s, lambda d: d.update(names=["A", "B"])),
        tamper(s, lambda d: d.update(seed=seed + 1)),  # deals no longer follow
        tamper(s, lambda d: d.update(seed=True)),
        tamper(s, lambda d: d.update(deals=1)),  # a second deal after the end
        tamper(s, lambda d: d.update(ended="deals")),  # the end does not follow
        tamper(s, lambda d: d.update(ended="won")),
        tamper(s, lambda d: d.update(games=[])),
        tamper(s, lambda d: d["games"][0]["actions"].pop()),  # deal 1 no longer over
        tamper(s, lambda d: d["games"][1]["actions"].append({"action": "accept", "seat": 0})),
        tamper(s, lambda d: d["games"][1]["actions"].append({"action": "reveal", "seat": 1})),
        tamper(s, lambda d: d["games"][1]["deal"].update(pot=5)),
        tamper(s, lambda d: d["games"][1]["deal"].update(stacks=[60, 60, 60])),
        tamper(s, lambda d: d["games"][1]["rules"].update(jack_five=True)),
        tamper(s, lambda d: d["games"].append(d["games"][1])),
        "[" * 100_000,
    ]
    for text in bad:
        with pytest.raises(ValueError, match="saved session"):
            Session.from_json(text)
    assert Session.from_json(s.to_json().encode("utf-8")).to_json() == s.to_json()
