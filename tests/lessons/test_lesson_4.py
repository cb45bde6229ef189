"""Lesson 4 (parts 04a and 04b): the helpers of speculation_nb.lessons.lesson4 and every number the
lesson's text states, against closed forms, exact identities and seeded deals.

tests/lessons/test_notebooks.py runs the notebooks; this file checks that what they say is right. The
corrections of issue 14 are named where they are tested (the bite of one more card, O1 against
O2, where long hands stop paying, rule A at 7-8 players and with the dead pile).
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lesson_helpers import assert_worded

from speculation_nb import Card, Game, Rules, odds
from speculation_nb.languages.translator import translator
from speculation_nb.lessons import lesson4 as L
from speculation_nb.lessons.questions import get, questions

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
PARTS = ("04a_more_cards_out", "04b_trading_and_old_rules")  # each with a second part, "<stem>_2" (issue 24)


def english_parts(stem: str) -> list[Path]:
    """The English notebooks of a lesson part and of the parts split from it (``<stem>_2``...), in order."""
    return sorted(p for p in NOTEBOOKS.glob(f"{stem}*.ipynb") if p.name.count(".") == 1)


def prose(stem: str) -> str:
    """Every markdown cell of an English lesson part (with the parts split from it), joined."""
    cells = [c for path in english_parts(stem) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


# --------------------------------------------------------------------------- O1 and its ingredients
@pytest.mark.parametrize(
    "players, hand, dead", [(3, 3, False), (4, 3, True), (5, 4, False), (8, 5, True), (6, 5, False)]
)
def test_opening_is_a_fresh_deal_with_the_closed_form_hold(players, hand, dead):
    """O1 at the start: C(49, n) / C(51, n), n = every other pile plus the dead pile (V2, V5)."""
    rules = Rules(players=players, hand_size=hand, dead_hand=dead)
    game = L.opening(rules, "QH")
    assert game.turn_up == Card.parse("QH") and game.holder == 0 and game.reveals == 0
    assert game.face_down == [hand] * players and game.dead == (hand if dead else 0)
    n = (players - 1 + dead) * hand
    assert odds.hold_probability(game) == Fraction(comb(49, n), comb(51, n)) == L.hold(51, 2, n)


@given(st.integers(10, 51), st.data())
def test_issue_14_2_each_extra_card_bites_less_but_a_larger_share(U, data):
    """O1(n) - O1(n+1) = 2(U-n-1)/(U(U-1)), which shrinks as n grows; only the share 2/(U-n) grows."""
    n = data.draw(st.integers(0, U - 4))
    assert L.bite(U, n) == Fraction(2 * (U - n - 1), U * (U - 1))
    assert L.bite(U, n + 1) < L.bite(U, n)
    assert L.relative_bite(U, n) == Fraction(2, U - n)
    assert L.relative_bite(U, n + 1) > L.relative_bite(U, n)


def test_issue_14_2_the_lesson_no_longer_says_the_bites_grow():
    text = prose(PARTS[0])
    assert "bites get bigger" not in text
    assert "**shrinks** as $n$ grows" in text and "2/(U-n)" in text


def test_averaged_hoyle_carry_over_is_the_closed_form():
    """Hoyle (c) at the start: no trump among the 3n pile cards; an Ace turn-up (1 in 13) pays the dealer."""
    for players in (3, 4, 6, 8):
        got = L.carry_over_chance(Rules(players=players, preset="hoyle1847"))
        N = 3 * players
        assert got == Fraction(12, 13) * Fraction(comb(39, N), comb(51, N))


def test_averaged_hold_is_the_mean_over_ranks():
    expected = (sum(Fraction(comb(51 - (14 - r), 9), comb(51, 9)) for r in range(2, 14)) + 1) / 13
    assert L.averaged(Rules(players=4), odds.hold_probability) == expected


def test_averaged_carry_over_agrees_with_seeded_random_deals():
    """The dead-pile carry-over chance of a random deal (P9), against 2,000 shuffled deals played out."""
    rules = Rules(players=4, dead_hand=True)
    q = L.carry_over_chance(rules)
    deals = 2000
    carried = sum(L.play_out(Game.deal(rules, seed=seed)).winner is None for seed in range(deals))
    se = sqrt(float(q) * (1 - float(q)) / deals)
    assert abs(carried / deals - float(q)) < 4 * se


# --------------------------------------------------------------------------- what the text of 04a states
def test_issue_14_8_long_hands_stop_paying_between_five_and_six_players():
    """V5: at 5 players 4- and 5-card hands make the Queen worth more than 3-card hands; at 6, less."""
    prices = L.fair_price_table()
    five, six = L.PLAYERS.index(5), L.PLAYERS.index(6)
    for k in (4, 5):
        assert prices[k][five] > prices[3][five] and prices[k][six] < prices[3][six]
    assert all(Fraction(21, 2) < p < 13 for p in prices[3])  # "about 11 to 13 chips at every table size"
    assert get("l4a.crossing").answer() == 6
    assert "about five players" not in prose(PARTS[0])


def test_the_carry_over_figures_of_the_text():
    by_rank = [
        odds.win_probabilities(L.opening(Rules(players=4, dead_hand=True), Card(r, "H")))[None] for r in range(2, 7)
    ]
    assert all(Fraction(21, 100) <= p <= Fraction(23, 100) for p in by_rank)  # Two to Six: about 22%
    carry = L.carry_table()
    assert abs(float(carry[3][0]) - 1 / 5) < 0.005 and abs(float(carry[3][-1]) - 1 / 10) < 0.001
    assert abs(float(carry[3][1]) - 1 / 6) < 0.001  # "about one deal in six at four players"
    assert all(carry[5][i] > carry[4][i] > carry[3][i] for i in range(len(L.PLAYERS)))  # longer hands raise it


@pytest.mark.parametrize("players", L.PLAYERS)
def test_issue_14_8_rule_a_floor_is_the_worst_moment(players):
    """Rule A: the lowest O1 of a Queen (King and Ace unseen) with at most 3 cards left in the other piles.
    The floor is attained by a real moment, and no seeded moment goes below it."""
    floor = L.rule_a_floor(players)
    turned = players * 3 - 3  # the holder's pile empty, 3 cards left with the others
    assert floor == L.hold(51 - turned, 2, 3)
    for seed in range(40):
        game = Game.deal(Rules(players=players), seed=seed)
        while not game.over:
            others = sum(game.face_down) - game.face_down[game.holder]
            if game.best_trump.rank == 12 and others <= 3:
                assert odds.hold_probability(game) >= floor
            game.reveal()


def test_issue_14_8_rule_a_at_seven_and_eight_players_and_with_the_dead_pile():
    """Plain: still at least 80% up to 8 players (117/145 at 8). Dead pile: below 80% at every size.
    Long hands: below from 7 players (4 cards) and from 6 (5 cards)."""
    sure = Fraction(4, 5)
    assert L.rule_a_floor(8) == Fraction(117, 145) == get("l4a.rule_a_eight").answer()
    assert all(L.rule_a_floor(n) >= sure for n in L.PLAYERS)
    assert all(L.rule_a_floor(n, dead_hand=True) < sure for n in L.PLAYERS)
    assert [n for n in L.PLAYERS if L.rule_a_floor(n, 4) < sure] == [7, 8]
    assert [n for n in L.PLAYERS if L.rule_a_floor(n, 5) < sure] == [6, 7, 8]
    assert abs(float(L.rule_a_floor(8, dead_hand=True)) - 0.63) < 0.01  # "about 63% at eight players"


def test_the_long_run_pot_is_a_geometric_series():
    rules = Rules(players=4, dead_hand=True)
    q = L.carry_over_chance(rules)
    A = sum(rules.antes(0))
    P = L.long_run_pot(A, q)
    assert A + q * P == P
    assert abs(float(P) - sum(A * float(q) ** j for j in range(200))) < 1e-9
    # the exercise is checked against the figure its question gives (q ≈ 0.1667), whose range holds P
    low, high = get("l4a.long_run").within()
    assert get("l4a.long_run").answer() == L.long_run_pot(A, Fraction("0.1667")) and low < P < high


def test_the_seeded_session_matches_the_geometric_law():
    pots = L.session_pots(deals=600, seed=2024)
    q = float(L.carry_over_chance(Rules(players=4, dead_hand=True)))
    assert len(pots.pots) == 600 and all(p % pots.antes == 0 for p in pots.pots)
    share = sum(pots.carried) / 600
    assert abs(share - q) < 4 * sqrt(q * (1 - q) / 600)
    assert abs(pots.share(1) - (1 - q)) < 4 * sqrt(q * (1 - q) / 600)


# --------------------------------------------------------------------------- blind trading (04b)
def trade_deal() -> Game:
    return Game.deal(Rules(players=5, blind_trading=True), seed=32)


def test_a_blind_trade_is_zero_sum_and_every_card_is_worth_the_same():
    game = trade_deal()
    one, _, _ = L.trade_values(game, 0, 1, 1)
    for k in (1, 2, 3):
        most, least, after = L.trade_values(game, 0, 1, k)
        assert most == least == k * one
        assert sum(L.final_chips(after, s) for s in range(5)) + 1 == sum(L.final_chips(game, s) for s in range(5)) + 1
        assert odds.hold_probability(after) == L.hold(51, 2, 12 - k)
    assert get("l4b.two_cards").answer() == 2 * one
    assert abs(float(3 * one) - 2.23) < 0.005  # "about 2.23 chips"


def test_issue_14_8_o1_is_never_above_o2_and_they_meet_only_at_the_end():
    """O1 <= O2 at every step of the pile purchase (the holder wins whenever the Queen holds);
    equal only when the holder owns every card (P7), where both are 1; O2 climbs in equal steps."""
    steps = L.pile_purchase(trade_deal())
    holds = [odds.hold_probability(g) for g in steps]
    wins = [odds.win_probabilities(g)[0] for g in steps]
    assert all(h <= w for h, w in zip(holds, wins))
    assert [h == w for h, w in zip(holds, wins)] == [False] * (len(steps) - 1) + [True]
    assert holds[-1] == wins[-1] == 1 and steps[-1].over
    rises = {b - a for a, b in itertools.pairwise(wins)}
    assert len(rises) == 1
    increments = [b - a for a, b in itertools.pairwise(holds)]
    assert increments == sorted(increments)  # O1 climbs faster at the end
    assert "always stays below" not in prose(PARTS[1])


def test_with_a_dead_pile_the_gap_is_the_pot_times_the_rise_in_the_carry_over():
    game = Game.deal(Rules(players=5, blind_trading=True, dead_hand=True), seed=12)
    before = odds.win_probabilities(game)[None]
    for k in (1, 2, 3):
        most, least, after = L.trade_values(game, 0, 1, k)
        assert least - most == game.pot * (odds.win_probabilities(after)[None] - before) > 0


# --------------------------------------------------------------------------- Jack and Five, Hoyle (04b)
def test_the_jack_and_five_bound_and_the_figures_of_the_text():
    game = Game.deal(Rules(players=4, jack_five=True), seed=24)
    assert game.turn_up.rank == 11 and game.pot == sum(game.rules.antes(game.dealer)) + 1
    assert L.jack_five_bound(game) == Fraction(12 * 7, 51) == get("l4b.jack_five").answer()
    assert odds.expected_pot(game) - game.pot < L.jack_five_bound(game)
    short = L.short_of_chips(game)
    assert short[0] == 0 and short == sorted(short) and short[4] == short[5]
    extra = L.jack_five_table()
    assert 1 < float(extra[3][0]) < 1.2 and 5.4 < float(extra[5][-1]) < 5.6  # "about one ... five and a half"


def test_hoyle_carry_overs_of_the_text():
    hoyle = L.carry_table(preset="hoyle1847")[3]
    assert 15 < 1 / float(hoyle[0]) < 17  # "about one deal in sixteen with three players"
    assert 1800 < 1 / float(hoyle[4]) < 2200  # "one in two thousand with seven"
    assert (
        get("l4b.hoyle").answer() == odds.win_probabilities(L.opening(Rules(players=3, preset="hoyle1847"), "8D"))[None]
    )


# --------------------------------------------------------------------------- the student's models and the checks
def test_the_model_checks_accept_the_solutions_and_say_which_way_a_wrong_answer_is_off():
    t = translator("en")
    assert L.check_hold(L.solution_hold) == t("lesson.l4.model.right", count=7)
    assert L.check_hold(lambda U, h, n: None) == t("lesson.l4.model.not_yet")
    assert "too high" in L.check_hold(lambda U, h, n: Fraction(comb(U - h, n), comb(U, n)) + Fraction(1, 100))
    assert "too low" in L.check_hold(lambda U, h, n: Fraction(comb(U - h, n + 1), comb(U, n + 1)) - 1)
    assert "ZeroDivisionError" in L.check_hold(lambda U, h, n: 1 / 0)
    assert L.check_trade_value(L.solution_trade_value) == t("lesson.l4.model.right", count=3)
    assert L.check_trade_value(lambda game, b, s, c: None) == t("lesson.l4.model.not_yet")


@pytest.mark.parametrize("got", [float("nan"), float("inf"), -float("inf"), 10**400])
def test_a_model_returning_nan_or_infinity_is_not_a_number_never_right(got):
    """NaN is no nearer to anything than any other number, yet compares false with every
    distance: a model returning it (or an infinity, or an int no float holds) is told so."""
    t = translator("en")
    said = t("lesson.l4.model.not_number", value=repr(got)[:40])
    assert L.check_hold(lambda U, h, n: got) == said
    assert L.check_trade_value(lambda game, b, s, c: got) == said


def test_a_simulation_is_reported_with_its_distance_in_standard_errors():
    assert "0.5 standard errors apart" in L.agreement(0.105, 0.001, Fraction(1045, 10000))
    assert "less than 5 times in 100" in L.agreement(0.110, 0.001, Fraction(1045, 10000))


def test_every_exercise_has_its_words_in_four_languages_and_computes():
    stems = {path.stem for stem in PARTS for path in english_parts(stem)}
    found = [q for q in questions() if q.lesson in stems]
    assert {q.lesson for q in found} == stems == {*PARTS, L.PART_A2, L.PART_B2} and len(found) == 9
    for q in found:
        assert_worded(q)
        assert q.answer() > 0


def test_every_runtime_word_of_lesson_4_is_in_every_catalog():
    source = "".join(
        (Path(L.__file__).parent / name).read_text() for name in ("lesson4.py", "lesson4_show.py", "lesson4_plots.py")
    )
    keys = set(re.findall(r'"(lesson\.l4\.[a-z0-9_.]+)"', source))
    assert len(keys) > 100
    english = translator("en")
    for lang in ("it", "pt", "de"):
        t = translator(lang)
        for key in keys:
            assert t.has(key), (lang, key)
            assert set(re.findall(r"\{(\w+)\}", t.raw(key))) == set(re.findall(r"\{(\w+)\}", english.raw(key))), key


def test_issue_24_7_the_bite_is_asked_at_the_precision_its_solution_gives():
    """l4a.bite's solution says "about 3.2 percentage points": 3.2% and 0.032 are right."""
    from speculation_nb.lessons.questions import ask

    assert get("l4a.bite").digits == 2
    for text in ("3.2%", "0.032", "41/1275", "0.0322"):
        assert ask("l4a.bite").submit(text).correct, text
    assert ask("l4a.bite").submit("3%").kind == "more_digits"
