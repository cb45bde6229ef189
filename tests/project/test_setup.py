"""Set-up S1-S6 (game.py): the deal of an exact deck, antes, the turn-up and the Ace turn-up.

Piles are written TOP card first, as ``Game.from_layout`` and ``game.layout()`` give them.
"""

from __future__ import annotations

import pytest

from speculation_nb import Card, Game, IllegalAction, Rules
from speculation_nb.engine.cards import full_deck

#: Four players' piles of three, one heart (9H) among them: the layout of the turn-up's tests (S4, S5).
FOUR_PILES = [["2C", "KD", "9H"], ["3C", "4C", "5C"], ["6C", "7C", "8C"], ["9C", "10C", "JC"]]


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


def deck_starting(*texts: str) -> list[Card]:
    """A 52-card deck whose top cards are ``texts``, the rest in full_deck() order."""
    head = cards(*texts)
    return head + [c for c in full_deck() if c not in head]


# ---------------------------------------------------------------------- S1
@pytest.mark.parametrize("players", range(3, 9))
def test_s1_every_player_starts_with_the_same_stack(players):
    rules = Rules(players=players, start_chips=40)
    game = Game.deal(rules, seed=1)
    assert game.layout()["stacks"] == [40] * players
    assert len(game.stacks) == players and len(game.face_down) == players


def test_s1_a_dealer_outside_the_table_is_refused():
    rules = Rules(players=4)
    for dealer in (-1, 4, True, 1.0, None):
        with pytest.raises(ValueError, match="S1"):
            Game.deal(rules, seed=1, dealer=dealer)
        with pytest.raises(ValueError, match="S1"):
            Game.from_layout(rules, [["2C", "3C", "4C"]] * 4, "7H", dealer=dealer)


# ---------------------------------------------------------------------- S2
def test_s2_antes_go_into_the_pot():
    game = Game.deal(Rules(players=4), seed=3, dealer=1)
    # dealer (seat 1) antes 6, the others 4: pot 6 + 3 * 4 = 18
    assert game.pot == 18
    assert game.stacks == [56, 54, 56, 56]


def test_s2_antes_go_on_top_of_a_carried_pot():
    game = Game.deal(Rules(players=3), seed=3, dealer=2, stacks=[10, 20, 30], pot=7)
    assert game.pot == 7 + 4 + 4 + 6
    assert game.stacks == [6, 16, 24]


def test_s2_uniform_antes():
    game = Game.deal(Rules(players=5, ante="uniform", uniform_ante=3), seed=3, dealer=4)
    assert game.pot == 15
    assert game.stacks == [57] * 5


def test_s2_long_hand_antes_are_taken_scaled():
    game = Game.deal(Rules(players=3, hand_size=5), seed=3, dealer=0)
    assert game.stacks == [50, 53, 53]  # 10 and 7
    assert game.pot == 24


def test_s2_a_stack_that_cannot_ante_is_refused():
    rules = Rules(players=3)
    with pytest.raises(ValueError, match="S2: seat 1 has 3 chips and cannot ante 4"):
        Game.deal(rules, seed=1, dealer=0, stacks=[60, 3, 60])
    with pytest.raises(ValueError, match="S2: seat 0 has 5 chips and cannot ante 6"):
        Game.from_layout(rules, [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "7H", stacks=[5, 60, 60])
    # exactly the ante is enough
    game = Game.deal(rules, seed=1, dealer=0, stacks=[6, 4, 4])
    assert game.stacks == [0, 0, 0] and game.pot == 14


@pytest.mark.parametrize("stacks", [[60, 60], [60] * 4, "606060", [60, 60, 60.0], [60, 60, True], None])
def test_s2_stacks_must_be_one_whole_number_per_seat(stacks):
    rules = Rules(players=3)
    if stacks is None:
        assert Game.deal(rules, seed=1, stacks=None).layout()["stacks"] == [60, 60, 60]
        return
    with pytest.raises(ValueError):
        Game.deal(rules, seed=1, stacks=stacks)


@pytest.mark.parametrize("pot", [-1, 1.5, True, "3", None])
def test_s2_a_carried_pot_is_a_whole_number_at_least_0(pot):
    with pytest.raises(ValueError, match="pot"):
        Game.deal(Rules(players=3), seed=1, pot=pot)


# ---------------------------------------------------------------------- S3
# Cards are dealt one at a time from the top of the deck, clockwise from the
# dealer's left, the dealer last; each lands on top of its pile.
DECK_HEAD = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "7H", "AS"]


def test_s3_deal_order_four_players_dealer_0():
    game = Game.deal(Rules(players=4), deck=deck_starting(*DECK_HEAD), dealer=0)
    layout = game.layout()
    # round 1: 2S->1 3S->2 4S->3 5S->0; round 2: 6S 7S 8S 9S; round 3: 10S JS QS KS
    assert layout["piles"] == [
        cards("KS", "9S", "5S"),  # seat 0, the dealer: the last card of each round
        cards("10S", "6S", "2S"),  # seat 1: the first card of the deck ends at the bottom
        cards("JS", "7S", "3S"),
        cards("QS", "8S", "4S"),
    ]
    assert layout["turn_up"] == Card.parse("7H")  # S4: the next card
    assert layout["dead"] is None
    assert layout["stock"][0] == Card.parse("AS")
    assert layout["stock"] == deck_starting(*DECK_HEAD)[13:]
    assert len(layout["stock"]) == 52 - 13
    assert game.seed is None


def test_s3_deal_order_starts_at_the_dealers_left():
    game = Game.deal(Rules(players=4), deck=deck_starting(*DECK_HEAD), dealer=2)
    # a round goes to seats 3, 0, 1, 2 (the dealer last):
    # round 1: 2S->3 3S->0 4S->1 5S->2; round 2: 6S 7S 8S 9S; round 3: 10S JS QS KS
    assert game.layout()["piles"] == [
        cards("JS", "7S", "3S"),  # seat 0
        cards("QS", "8S", "4S"),  # seat 1
        cards("KS", "9S", "5S"),  # seat 2, the dealer
        cards("10S", "6S", "2S"),  # seat 3, the dealer's left
    ]
    assert game.turn_up == Card.parse("7H")
    assert game.dealer == 2 and game.holder == 2 and game.turn == 3


def test_s3_deal_order_with_dead_pile():
    rules = Rules(players=3, dead_hand=True)
    head = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "8H"]
    game = Game.deal(rules, deck=deck_starting(*head), dealer=1)
    layout = game.layout()
    # a round: seat 2 (the dealer's left), seat 0, seat 1 (the dealer), then the dead pile
    # round 1: 2S->2 3S->0 4S->1 5S->dead; round 2: 6S 7S 8S 9S; round 3: 10S JS QS KS
    assert layout["piles"] == [
        cards("JS", "7S", "3S"),  # seat 0
        cards("QS", "8S", "4S"),  # seat 1, the dealer
        cards("10S", "6S", "2S"),  # seat 2
    ]
    assert layout["dead"] == cards("KS", "9S", "5S")
    assert layout["turn_up"] == Card.parse("8H")
    assert layout["stock"][0] == Card.parse("AS")
    assert game.dead == 3 and game.dead_cards is None


def test_s3_deal_order_with_dead_pile_and_long_hands():
    rules = Rules(players=3, dead_hand=True, hand_size=4)
    head = [f"{r}S" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]] + [
        f"{r}D" for r in ["2", "3", "4", "5"]
    ]
    game = Game.deal(rules, deck=deck_starting(*head), dealer=0)
    layout = game.layout()
    # rounds of 4 cards: seat 1, seat 2, seat 0, dead
    # round 1: 2S 3S 4S 5S; round 2: 6S 7S 8S 9S; round 3: 10S JS QS KS; round 4: AS 2D 3D 4D
    assert layout["piles"] == [
        cards("3D", "QS", "8S", "4S"),
        cards("AS", "10S", "6S", "2S"),
        cards("2D", "JS", "7S", "3S"),
    ]
    assert layout["dead"] == cards("4D", "KS", "9S", "5S")
    assert layout["turn_up"] == Card.parse("5D")
    assert game.dead == 4


def test_s3_seeded_deals_are_reproducible_and_recorded():
    rules = Rules(players=5, dead_hand=True)
    a, b = Game.deal(rules, seed=7, dealer=2), Game.deal(rules, seed=7, dealer=2)
    assert a.layout() == b.layout() and a.seed == 7
    assert Game.deal(rules, seed=8, dealer=2).layout() != a.layout()
    fresh = Game.deal(rules)
    assert isinstance(fresh.seed, int)
    assert Game.deal(rules, seed=fresh.seed).layout() == fresh.layout()


def test_s3_a_seeded_deal_is_the_deal_of_its_shuffled_deck():
    import random

    rules = Rules(players=6, hand_size=4, dead_hand=True)
    order = full_deck()
    random.Random(123).shuffle(order)
    assert Game.deal(rules, seed=123, dealer=3).layout() == Game.deal(rules, deck=order, dealer=3).layout()


@pytest.mark.parametrize(
    "deck",
    [
        full_deck()[:51],
        [*full_deck(), Card.parse("2S")],
        [*full_deck()[:51], Card.parse("2S")],
        [c.code for c in full_deck()[:-1]] + ["1X"],
        "2S 3S",
        [],
    ],
)
def test_s3_deck_must_be_52_different_cards(deck):
    with pytest.raises(ValueError):
        Game.deal(Rules(players=3), deck=deck)


def test_s3_a_seed_or_a_deck_not_both():
    with pytest.raises(ValueError, match="not both"):
        Game.deal(Rules(players=3), deck=full_deck(), seed=1)
    for seed in (1.5, "7", True):
        with pytest.raises(ValueError, match="seed"):
            Game.deal(Rules(players=3), seed=seed)


def test_s3_a_deck_may_be_given_as_text():
    deck = [c.code.lower() for c in deck_starting(*DECK_HEAD)]
    game = Game.deal(Rules(players=4), deck=deck)
    assert game.turn_up == Card.parse("7H")


# ---------------------------------------------------------------------- S3 (from_layout)
def test_s3_from_layout_places_the_rest_in_the_stock():
    piles = [["2C", "KD", "9H"], ["3C", "4C", "5C"], ["6C", "7C", "8C"]]
    game = Game.from_layout(Rules(players=3), piles, "7H")
    layout = game.layout()
    assert layout["piles"] == [cards(*p) for p in piles]
    placed = set(cards("2C", "KD", "9H", "3C", "4C", "5C", "6C", "7C", "8C", "7H"))
    assert set(layout["stock"]) == set(full_deck()) - placed
    assert len(layout["stock"]) == 42
    assert game.seed is None


@pytest.mark.parametrize(
    "piles, turn_up, dead, rules, message",
    [
        ([["2C", "3C"], ["4C", "5C", "6C"], ["7C", "8C", "9C"]], "7H", None, Rules(players=3), "2 cards"),
        ([["2C", "3C", "4C", "5C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]], "7H", None, Rules(players=3), "4 cards"),
        ([["2C", "3C", "4C"], ["4D", "5D", "6D"]], "7H", None, Rules(players=3), "one pile"),
        ([["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "2C"]], "7H", None, Rules(players=3), "twice"),
        ([["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]], "3C", None, Rules(players=3), "twice"),
        (
            [["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]],
            "7H",
            ["7H", "2S", "3S"],
            Rules(players=3, dead_hand=True),
            "twice",
        ),
        (
            [["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]],
            "7H",
            None,
            Rules(players=3, dead_hand=True),
            "V2",
        ),
        (
            [["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]],
            "7H",
            ["2S", "3S", "4S"],
            Rules(players=3),
            "V2",
        ),
        (
            [["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9C"]],
            "7H",
            ["2S", "3S"],
            Rules(players=3, dead_hand=True),
            "V2",
        ),
        ([["2C", "3C", "4C"], ["4D", "5D", "6D"], ["7C", "8C", "9X"]], "7H", None, Rules(players=3), "cannot read"),
        ([["2C", "3C", "4C"], ["4D", "5D", "6D"], "7C 8C 9C"], "7H", None, Rules(players=3), "list of cards"),
        ("2C3C4C", "7H", None, Rules(players=3), "one pile"),
    ],
)
def test_s3_a_bad_layout_is_refused(piles, turn_up, dead, rules, message):
    with pytest.raises(ValueError, match=message):
        Game.from_layout(rules, piles, turn_up, dead=dead)


# ---------------------------------------------------------------------- S4
def test_s4_the_turn_up_is_trump_and_belongs_to_the_dealer():
    game = Game.from_layout(Rules(players=4), FOUR_PILES, "7H", dealer=3)
    assert game.turn_up == Card.parse("7H")
    assert game.trump == "H"
    assert game.best_trump == Card.parse("7H")
    assert game.holder == 3  # the dealer is the first holder
    assert game.turn == 0  # the dealer's left reveals first (P3)
    assert game.face_up == [[], [], [], []]
    assert game.face_down == [3, 3, 3, 3]
    assert not game.over and game.winner is None
    assert game.history == [] and game.auction is None


# ---------------------------------------------------------------------- S5
def test_s5_ace_turn_up_gives_the_dealer_the_pot_at_once():
    game = Game.from_layout(Rules(players=4), FOUR_PILES, "AH", dealer=1, pot=5)
    # pot 5 + 6 + 4 + 4 + 4 = 23 to the dealer: 54 + 23 = 77
    assert game.over and game.winner == 1 and game.end_rule == "S5"
    assert game.pot == 0
    assert game.stacks == [56, 77, 56, 56]
    assert game.turn is None
    assert game.holder == 1 and game.best_trump == Card.parse("AH")
    assert game.face_down == [3, 3, 3, 3] and game.face_up == [[], [], [], []]
    assert game.auction is None
    for act in (lambda: game.reveal(), lambda: game.open_auction()):
        with pytest.raises(IllegalAction) as info:
            act()
        assert info.value.rule == "S5"


def test_s5_ace_turn_up_dead_pile_stays_face_down():
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(
        rules, [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "AD", dead=["KD", "QD", "2D"], dealer=0
    )
    # the dead pile holds no higher trump than an Ace anyway, and is not turned up
    assert game.over and game.winner == 0
    assert game.dead == 3 and game.dead_cards is None
    assert game.stacks == [54 + 14, 56, 56]


def test_s5_ace_turn_up_with_jack_and_five_costs_nothing():
    # V1 charges Jacks and Fives only; the dealer takes antes plus the carried pot
    rules = Rules(players=3, jack_five=True)
    game = Game.from_layout(rules, [["JC", "5C", "4C"], ["5D", "6C", "7C"], ["8C", "9C", "JH"]], "AS", dealer=2, pot=3)
    assert game.over and game.winner == 2
    assert game.stacks == [56, 56, 54 + 3 + 14]


def test_s5_ace_turn_up_by_deck_under_hoyle1847():
    rules = Rules(players=3, preset="hoyle1847")
    head = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "AC"]
    game = Game.deal(rules, deck=deck_starting(*head), dealer=0)
    # hoyle1847 (c) does not apply: S5 still gives the pot to the dealer
    assert game.turn_up == Card.parse("AC")
    assert game.over and game.winner == 0 and game.end_rule == "S5"
    assert game.stacks == [68, 56, 56]


# ---------------------------------------------------------------------- S6
def test_s6_face_down_cards_are_only_counted():
    game = Game.deal(Rules(players=5, dead_hand=True), seed=11)
    assert game.face_down == [3] * 5
    assert all(isinstance(n, int) for n in game.face_down)
    assert game.face_up == [[]] * 5
    assert game.dead == 3 and game.dead_cards is None
    assert game.seen == {game.turn_up}
    assert game.unseen == 51


def test_readers_return_copies():
    game = Game.deal(Rules(players=3), seed=1)
    game.stacks.append(1)
    game.face_down[0] = 99
    game.face_up[0].append(Card.parse("AS"))
    game.layout()["piles"][0].clear()
    game.history.append(None)
    assert game.stacks == [54, 56, 56]
    assert game.face_down == [3, 3, 3]
    assert game.face_up == [[], [], []]
    assert len(game.layout()["piles"][0]) == 3
    assert game.history == []
