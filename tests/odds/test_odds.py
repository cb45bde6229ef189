"""The exact odds (RULES.md O1-O5, speculation_nb.odds) against closed forms and
against an independent brute force that plays every arrangement out with the
real Game (tests/support/brute_force.py)."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from brute_force import Unfit, arrangement_count, exact, exact_after_sale, random_moment
from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb import Card, Game, Rules, odds

# ---------------------------------------------------------------------- tables
CONFIGS = {
    "cardrules-3": Rules(players=3),
    "cardrules-4": Rules(players=4),
    "hoyle1847-3": Rules(players=3, preset="hoyle1847"),
    "hoyle1847-4": Rules(players=4, preset="hoyle1847"),
    "V1": Rules(players=3, jack_five=True),
    "V2": Rules(players=4, dead_hand=True),
    "V3": Rules(players=4, blind_trading=True),
    "V4": Rules(players=3, price_cap=3),
    "V5-4": Rules(players=3, hand_size=4),
    "V5-5": Rules(players=3, hand_size=5),
    "V1V2V3": Rules(players=4, jack_five=True, dead_hand=True, blind_trading=True),
    "V1V2V5-uniform": Rules(players=3, hand_size=4, jack_five=True, dead_hand=True, ante="uniform"),
}
ALL_RULES = [
    *CONFIGS.values(),
    Rules(players=5),
    Rules(players=6, hand_size=4, dead_hand=True),
    Rules(players=8, hand_size=5, dead_hand=True, jack_five=True, blind_trading=True),
    Rules(players=7, preset="hoyle1847"),
    Rules(players=5, jack_five=True, blind_trading=True),
]


def low_stacks(rules: Rules, rng: random.Random) -> list[int]:
    """Stacks that leave few chips after the antes, so V1 payments run out of chips."""
    return [max(rules.dealer_ante, rules.player_ante) + rng.randint(0, 2) for _ in range(rules.players)]


def late_moments(rules: Rules, seed: int, count: int, cap: int = 800, poor: bool = False) -> list[Game]:
    """``count`` live moments of random deals small enough to brute-force."""
    rng = random.Random(seed)
    out = []
    dead = rules.hand_size if rules.dead_hand else 0
    for _ in range(1000):
        stacks = low_stacks(rules, rng) if poor else None
        game = random_moment(rules, rng, stop=0.35, max_live=dead + rng.randint(2, 4), trade=0.35, stacks=stacks)
        if game.over or arrangement_count(game) > cap:
            continue
        out.append(game)
        if len(out) == count:
            return out
    raise AssertionError("no small moments found")


def public_U_h_n(game: Game, owner: int):
    seen = {game.turn_up} | {c for up in game.face_up for c in up}
    U = 52 - len(seen)
    h = 14 - game.best_trump.rank
    n = sum(game.face_down) - game.face_down[owner] + game.dead
    return U, h, n


moments = st.builds(
    lambda rules, seed, stop: random_moment(rules, random.Random(seed), stop=stop, trade=0.3),
    st.sampled_from(ALL_RULES),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.02, 0.1, 0.3, 0.7]),
)


# ------------------------------------------------------------------------- O1
@settings(max_examples=60)
@given(moments)
def test_O1_is_the_closed_form_for_the_holder_and_every_hypothetical_owner(game):
    if game.over:
        return
    for owner in [None, *range(game.rules.players)]:
        U, h, n = public_U_h_n(game, game.holder if owner is None else owner)
        assert odds.hold_probability(game, owner) == Fraction(comb(U - h, n), comb(U, n))
        ex = odds.explain_hold(game, owner)
        assert (ex.U, ex.h, ex.n, ex.probability) == (U, h, n, odds.hold_probability(game, owner))


def test_O1_formula_and_words_of_the_explanation():
    # 5 players: U = 52 - turn-up - 5 revealed = 46, h = 2 (K, A above the Queen), n = 8
    rules = Rules(players=5)
    piles = [["2C", "3C", "4C"], ["QH", "5C", "6C"], ["7C", "8C", "9C"], ["10C", "JC", "QC"], ["KC", "2D", "3D"]]
    game = Game.from_layout(rules, piles, turn_up="9H", dealer=0)
    for _ in range(4):
        game.reveal()
    game.reveal()  # seat 0 after seats 1-4: seat 1 holds the Q♥ and is skipped
    ex = odds.explain_hold(game)
    assert game.holder == 1 and game.best_trump == Card.parse("QH")
    assert (ex.U, ex.h, ex.n) == (46, 2, 8)
    assert ex.probability == Fraction(703, 1035) == odds.hold_probability(game)
    assert ex.formula == "C(44, 8) / C(46, 8) = 703/1035"
    words = ex.words()
    assert "2 trumps above the Q♥" in words and "46 unseen cards" in words and "8 of those" in words
    assert "67.9%" in words and ex.formula in words
    # a translation layer replaces the words, by key, as a dict or a callable
    # (no dead pile at this table: the words that do not mention one, RULES.md V2)
    assert "dead pile" not in words and ex.n_dead == 0
    assert ex.words({"odds.hold.main_no_dead.other": "{h}|{U}|{n}|{formula}"}) == "2|46|8|" + ex.formula
    assert ex.words(lambda key, **p: key) == "odds.hold.main_no_dead.other"
    assert str(ex) == words


def test_O1_is_one_when_nothing_is_left_to_turn_up_by_others():
    # the Ace of trumps: nothing out-ranks it (h = 0)
    rules = Rules(players=3)
    game = Game.from_layout(rules, [["2C", "3C", "4C"], ["AH", "5C", "6C"], ["7C", "8C", "9C"]], "9H", dealer=0)
    game.reveal()
    assert game.best_trump == Card.parse("AH")
    assert odds.hold_probability(game) == 1
    assert "nothing can beat it" in odds.explain_hold(game).words()
    assert odds.win_probabilities(game)[1] == 1
    # blind trading: seat 0 owns every face-down card; as a hypothetical owner, n = 0
    rules = Rules(players=3, blind_trading=True)
    game = Game.from_layout(rules, [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "3H", dealer=1)
    game.blind_trade(0, 1, 3, 1)
    game.blind_trade(0, 2, 3, 1)
    assert game.face_down == [9, 0, 0] and not game.over and game.holder == 1
    assert odds.hold_probability(game, owner=0) == 1 and odds.explain_hold(game, owner=0).n == 0
    assert "No card is left" in odds.explain_hold(game, owner=0).words()
    assert odds.hold_probability(game) == Fraction(comb(51 - 11, 9), comb(51, 9))


def test_O1_refuses_a_seat_that_does_not_exist():
    game = Game.deal(Rules(players=3), seed=1)
    for bad in (3, -1, "1", True, 1.0):
        with pytest.raises(ValueError):
            odds.hold_probability(game, bad)
        with pytest.raises(ValueError):
            odds.break_even(game, bad)


# ------------------------------------------------------------------------- O2
@settings(max_examples=80)
@given(moments)
def test_O2_has_every_key_and_sums_to_exactly_one(game):
    win = odds.win_probabilities(game)
    assert set(win) == {*range(game.rules.players), None}
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in win.values())
    assert sum(win.values()) == 1
    if not game.rules.dead_hand and not game.rules.hoyle:
        assert win[None] == 0


@settings(max_examples=60)
@given(moments)
def test_O1_never_exceeds_the_holders_O2_under_cardrules(game):
    if game.rules.hoyle or game.over:
        return
    assert odds.hold_probability(game) <= odds.win_probabilities(game)[game.holder]


def test_O2_first_reveal_closed_form():
    # 5 players, J♣ turned up: 3 trumps above among 51 unseen, 36 in the stock.
    # A seat other than the dealer wins when the highest of them in any pile is in its own:
    # sum_k (36)_(k-1) * 3 / (51)_k = 23/175; the dealer takes the rest.
    game = Game.deal(Rules(players=5), seed=3)
    assert game.turn_up == Card.parse("JC")
    win = odds.win_probabilities(game)
    assert [win[s] for s in range(1, 5)] == [Fraction(23, 175)] * 4
    assert win[0] == Fraction(83, 175) and win[None] == 0


def test_O2_the_turn_pointer_does_not_change_the_odds():
    # The dealer sells the turn-up to seat 3 before the first reveal: under cardrules seat 1
    # still turns up first, under hoyle1847 (a) the dealer (seat 3's left) does. Same cards
    # seen, same piles: the same numbers, but for hoyle1847 (c), which moves
    # C(U - 12, N) / C(U, N) of the holder's share to None.
    piles = [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"], ["2D", "3D", "4D"]]
    result = {}
    for preset in ("cardrules", "hoyle1847"):
        game = Game.from_layout(Rules(players=4, preset=preset), piles, "9H", dealer=0)
        game.open_auction()
        game.bid(3, 2)
        game.accept(3)
        result[preset] = (game.turn, odds.win_probabilities(game))
    assert result["cardrules"][0] == 1 and result["hoyle1847"][0] == 0
    card, hoyle = result["cardrules"][1], result["hoyle1847"][1]
    c = Fraction(comb(51 - 12, 12), comb(51, 12))
    assert card[3] - hoyle[3] == c == hoyle[None] and card[None] == 0
    assert all(card[s] == hoyle[s] for s in range(3))


# ---------------------------------------------- O1-O3 and O4 against brute force
@pytest.mark.parametrize("name", list(CONFIGS))
def test_O1_O2_O3_O4_against_brute_force(name):
    rules = CONFIGS[name]
    games = late_moments(rules, seed=sum(map(ord, name)), count=3)
    if rules.jack_five:
        games += late_moments(rules, seed=7 + len(name), count=1, poor=True)
    rng = random.Random(name)
    for game in games:
        ex = exact(game)
        assert odds.hold_probability(game) == ex.hold
        assert odds.win_probabilities(game) == ex.win
        assert odds.expected_pot(game) == ex.pot
        assert odds.fair_price(game) == ex.hold * ex.pot
        for seat in range(rules.players):
            assert odds.expected_net(game, seat) == ex.net[seat]
        assert odds.break_even(game, game.holder) == odds.seller_break_even(game, game.holder) == 0
        # O4 break-even prices: a price-free sale to a buyer, played out
        buyer = rng.choice([s for s in range(rules.players) if s != game.holder])
        try:
            after = exact_after_sale(game, buyer)
        except Unfit:
            continue
        assert odds.break_even(game, buyer) == after[buyer] - ex.net[buyer]
        assert odds.seller_break_even(game, buyer) == ex.net[game.holder] - after[game.holder]
        assert odds.expected_net(game, buyer, owner=buyer) == after[buyer]


def test_O2_O3_brute_force_with_every_trump_and_every_jack_and_five():
    """The brute force keeps only the cards that matter; with all of them kept, nothing changes."""
    for rules, seed in (
        (Rules(players=3, jack_five=True, dead_hand=True), 5),
        (Rules(players=3, preset="hoyle1847"), 6),
    ):
        game = late_moments(rules, seed, count=1, cap=200)[0]
        if arrangement_count(game, wide=True) > 6000:
            continue
        narrow, wide = exact(game), exact(game, wide=True)
        assert (narrow.hold, narrow.win, narrow.pot, narrow.net) == (wide.hold, wide.win, wide.pot, wide.net)
        assert odds.win_probabilities(game) == wide.win and odds.expected_pot(game) == wide.pot


def test_O2_O3_at_every_moment_of_a_deal():
    """The same numbers from any earlier moment (the widget's replay): at(k) for every k."""
    rules = Rules(players=3, jack_five=True, blind_trading=True)
    game = random_moment(rules, random.Random(11), stop=0.0, trade=0.3)
    assert game.over
    checked = 0
    for k in range(len(game.history) + 1):
        moment = game.at(k)
        win = odds.win_probabilities(moment)
        assert sum(win.values()) == 1
        if not moment.over and arrangement_count(moment) <= 800:
            ex = exact(moment)
            assert (win, odds.expected_pot(moment)) == (ex.win, ex.pot)
            checked += 1
    assert checked >= 10


# ------------------------------------------------------------------------- O3
def test_O3_counts_a_jack_or_five_only_if_its_payer_still_has_a_chip():
    # Seat 1 has no chip left after the ante: its Jacks and Fives to come cost nothing.
    rules = Rules(players=3, jack_five=True)
    piles = [["2C", "3C", "4C"], ["6C", "7C", "JC"], ["8C", "9C", "5D"]]
    numbers = []
    for stacks in ([10, 4, 10], [10, 10, 10]):
        game = Game.from_layout(rules, piles, "KH", dealer=0, stacks=stacks)
        for _ in range(4):
            game.reveal()  # seats 1, 2, 1, 2: the dealer holds the K♥ and is skipped
        assert game.face_down == [3, 1, 1]
        ex = exact(game)
        assert odds.expected_pot(game) == ex.pot
        numbers.append((game.stacks[1], odds.expected_pot(game) - game.pot))
    (poor, poor_more), (rich, rich_more) = numbers
    assert poor == 0 and rich > 0 and poor_more < rich_more


# ------------------------------------------------------------------------- O5
@pytest.mark.parametrize("rules", ALL_RULES, ids=repr)
def test_O5_after_the_deal_the_numbers_are_settled(rules):
    rng = random.Random(repr(rules))
    for _ in range(4):
        game = random_moment(rules, rng, stop=0.0, trade=0.3)
        assert game.over
        win = odds.win_probabilities(game)
        assert win[game.winner] == 1 and sum(win.values()) == 1
        beaten = any(c.suit == game.trump and c.rank > game.best_trump.rank for c in game.dead_cards or [])
        assert odds.hold_probability(game) == (0 if beaten else 1)
        assert odds.explain_hold(game).over and "over" in odds.explain_hold(game).words()
        played_for = [e["pot"] for e in game.events if e.kind in ("win", "carry_over")][-1]
        assert odds.expected_pot(game) == played_for
        assert odds.fair_price(game) == odds.hold_probability(game) * played_for
        for seat in range(rules.players):
            assert odds.break_even(game, seat) == odds.seller_break_even(game, seat) == 0


def test_O5_ace_turn_up_and_carry_overs():
    # S5: an Ace turned up ends the deal at once; the dealer took the pot
    deck = [Card.parse(c) for c in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "AH"]]
    from speculation_nb.engine.cards import full_deck

    deck += [c for c in full_deck() if c not in deck]
    game = Game.deal(Rules(players=3), deck=deck, dealer=0)
    assert game.over and game.winner == 0
    assert odds.win_probabilities(game)[0] == 1 and odds.hold_probability(game) == 1
    assert odds.expected_pot(game) == 14
    # P9: the dead pile out-ranks the best trump
    rules = Rules(players=3, dead_hand=True)
    game = Game.from_layout(
        rules, [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]], "9H", dead=["KH", "2D", "3D"], dealer=0
    )
    while not game.over:
        game.reveal()
    assert game.winner is None and odds.hold_probability(game) == 0
    assert odds.win_probabilities(game)[None] == 1
    # hoyle1847 (c): no trump came up from the piles
    game = Game.from_layout(
        Rules(players=3, preset="hoyle1847"),
        [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "10C"]],
        "9H",
        dealer=0,
    )
    before = odds.win_probabilities(game)
    assert before[None] == Fraction(comb(51 - 12, 9), comb(51, 9))
    while not game.over:
        game.reveal()
    assert game.winner is None and odds.win_probabilities(game)[None] == 1
    assert odds.hold_probability(game) == 1
