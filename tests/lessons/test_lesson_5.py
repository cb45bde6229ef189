"""Lesson 5 (parts 05a and 05b): the recast table of vol. II, ch. 7, the chapter's three claims
tested at their moments, and every figure the text states about the simulated evenings, with the
notebooks' own seeds and sizes.

tests/lessons/test_notebooks.py runs the notebooks; this file checks that what they say is right. The
corrections of issue 14 are named where they are tested (6: Henry's skill and the pots; 7: the
length of an evening and the app's cast; 8: the what-if table's intervals).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from lesson_helpers import assert_worded

from speculation_nb import odds
from speculation_nb.engine.game import Game
from speculation_nb.lessons import evening as E
from speculation_nb.lessons.questions import get, questions
from speculation_nb.players import FAIR, SHREWD, SPIRITED, Fond, Undecided, table_strategies
from speculation_nb.players.characters import Haggler, fanny_as_she_wishes

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
PARTS = ("05a_the_evening_in_the_chapter", "05b_many_evenings")
BASE_EVENINGS, WHAT_IF, PURCHASES = 400, 100, 150  # as in 05b


def english_parts(stem: str) -> list[Path]:
    """The English notebooks of a lesson part and of the parts split from it (``<stem>_2``...), in order."""
    return sorted(p for p in NOTEBOOKS.glob(f"{stem}*.ipynb") if p.name.count(".") == 1)


def cells(stem: str) -> list[dict]:
    return [c for path in english_parts(stem) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def prose(stem: str) -> str:
    """Every markdown cell of lesson 5a or 5b (all its parts), joined."""
    return "\n".join("".join(c["source"]) for c in cells(stem) if c["cell_type"] == "markdown")


def flat(stem: str) -> str:
    """The prose with its line breaks and runs of spaces made single spaces."""
    return " ".join(prose(stem).split())


def code(stem: str) -> str:
    return "\n".join("".join(c["source"]) for c in cells(stem) if c["cell_type"] == "code")


def test_the_notebooks_use_the_sizes_this_file_checks():
    text = code(PARTS[1])
    assert f"E.evenings(count={BASE_EVENINGS}, seed=25)" in text
    assert f"WHAT_IF = {WHAT_IF}" in text and f"E.purchases(count={PURCHASES}, seed=5)" in text


# --------------------------------------------------------------------------- the cast, recast from the chapter
def test_the_round_table_as_the_lesson_seats_it():
    table = E.cast()
    assert table.names == (
        "Lady Bertram",
        "Henry Crawford",
        "Fanny Price",
        "William Price",
        "Mary Crawford",
        "Edmund Bertram",
    )
    henry = table.strategies[E.HENRY]
    assert henry is SHREWD
    # "two persons' cards to manage as well as his own": Lady Bertram's and Fanny's
    for seat in (E.LADY, E.FANNY):
        assert isinstance(table.strategies[seat], Undecided) and table.strategies[seat].advisor is henry
    assert table.strategies[E.FANNY].name == "coached"
    william = table.strategies[E.WILLIAM]
    assert isinstance(william, Haggler) and william.offer < Fraction(1, 2) and william.appetite > 1
    assert table.strategies[E.MARY] is SPIRITED and table.strategies[E.EDMUND] is FAIR
    assert "Henry" in prose(PARTS[0]) and "That is our\nassumption, not Austen's." in prose(PARTS[0])


def test_fanny_as_she_wishes_lets_william_have_her_card_for_what_he_offers():
    """Fond with softness 0: as the holder she accepts William's bid, however low, when it is the best offer."""
    wishes = fanny_as_she_wishes(E.cast())
    assert isinstance(wishes, Fond) and wishes.favourite == E.WILLIAM and wishes.softness == 0
    game = E.fanny_queen(4)
    game.open_auction()
    game.bid(E.WILLIAM, 1)
    assert game.acceptable() == [E.WILLIAM]
    assert wishes.choose_sale(game, E.FANNY) == E.WILLIAM
    assert E.cast().strategies[E.FANNY].choose_sale(game, E.FANNY) is None  # Henry: "hands off"


def test_issue_14_7_the_app_seats_the_characters_in_character():
    from speculation_nb.app import SpeculationApp

    assert 'temperament="mansfield"' in code(PARTS[0])
    app = SpeculationApp(
        E.RULES, names=list(E.cast().names), human=E.FANNY, deals=6, seed=1814, temperament="mansfield"
    )
    seats = table_strategies(6, "mansfield", people=[E.FANNY])
    assert app.controller.names == list(E.cast().names)
    assert {s: type(p).__name__ for s, p in seats.items()} == {
        s: type(p).__name__ for s, p in enumerate(E.cast().strategies) if s != E.FANNY
    }
    assert "cannot seat" not in prose(PARTS[0]) and "not yet in\ncharacter" not in prose(PARTS[0])


# --------------------------------------------------------------------------- "a dozen is more than it is worth"
def test_a_dozen_is_more_than_the_queen_is_worth_at_the_start_and_not_three_cards_later():
    start = E.queen_for_lady_bertram(0)
    assert start.pot == 26 and start.holder == E.MARY and start.best_trump.rank == 12
    worth = odds.break_even(start, E.LADY)
    assert worth < E.DOZEN < odds.fair_price(start)  # the simple fair price would call a dozen cheap
    assert abs(float(worth) - 10.7) < 0.05 and abs(float(odds.fair_price(start)) - 12.8) < 0.1
    own = odds.expected_net(start, E.LADY, owner=E.LADY) / start.pot
    assert worth == start.pot * (own - odds.win_probabilities(start)[E.LADY])
    # the exercise is checked against the figures its question gives (0.5095, 0.0976), whose range holds it
    low, high = get("l5a.dozen_start").within()
    assert get("l5a.dozen_start").answer() == 26 * (Fraction("0.5095") - Fraction("0.0976")) and low < worth < high
    table = E.dozen_table()
    assert [w >= E.DOZEN for _, w, _ in table[:4]] == [False, False, False, True]
    assert E.first_worth_a_dozen() == 3 == get("l5a.dozen_cards").answer()
    assert abs(float(odds.hold_probability(start, owner=E.LADY)) - 0.5) < 0.01  # "about half the time"


# --------------------------------------------------------------------------- "You have bought her too dearly"
@pytest.mark.parametrize("turned", [0, 2, 6, 10])
def test_what_fanny_paid_does_not_change_what_the_queen_is_worth(turned):
    values = {E.queen_value(turned, paid) for paid in (1, 4, 8, 14, 30)}
    assert len(values) == 1
    game = E.fanny_queen(turned, 4)
    game.open_auction()
    bid = E.cast().strategies[E.WILLIAM].bid(game, E.WILLIAM)
    assert bid is not None and bid < values.pop() / 2  # "your brother does not offer half her value"


def test_the_queen_exercises():
    assert get("l5a.sunk").answer() == 0
    half = get("l5a.half_value").answer()
    assert half == E.queen_value(6) / 2 and abs(float(2 * half) - 13.55) < 0.01
    game = E.fanny_queen(6)
    game.open_auction()
    bid = E.cast().strategies[E.WILLIAM].bid(game, E.WILLIAM)
    assert bid == 5 and abs(float(E.queen_value(6)) - bid - 8.5) < 0.1  # "about 8.5 chips"


# --------------------------------------------------------------------------- "at an exorbitant rate"
def test_a_knave_bought_above_the_pot_costs_mary_at_least_13_chips():
    rows = E.knave_table()
    assert all(pot == 26 for _, pot, _ in rows)
    best = max(worth for _, _, worth in rows)
    assert best < 14 and best / 26 < Fraction(52, 100)  # "barely half the pot"
    assert min(E.knave_cost(27, k) for k, _, _ in rows) > 13
    cost = get("l5a.knave_cost").answer()
    assert cost == 27 - odds.break_even(E.william_knave(6), E.MARY) == E.knave_cost(27, 6)


def test_the_break_even_model_check():
    assert E.check_break_even(E.solution_break_even) == E.translator("en")("lesson.l4.model.right", count=4)
    assert "too high" in E.check_break_even(lambda g, b: odds.expected_net(g, b, owner=b))
    assert E.check_break_even(lambda g, b: None) == E.translator("en")("lesson.l4.model.not_yet")


def test_the_interval_model_check():
    assert E.check_interval(E.interval) == E.translator("en")("lesson.l4.model.right", count=3)
    assert "n − 1" in E.check_interval(lambda v: E.interval(v, z=2.0))
    assert get("l5b.half_width").answer() == Fraction(196, 100) * 28 / 20


def test_a_model_returning_nan_is_not_a_number_never_right():
    nan = float("nan")
    t = E.translator("en")
    assert E.check_break_even(lambda g, b: nan) == t("lesson.l4.model.not_number", value="nan")
    assert E.check_interval(lambda v: (nan, 1.0)) == t("lesson.l5.model.pair", value="(nan, 1.0)")


def test_every_exercise_has_its_words_in_four_languages():
    stems = {path.stem for stem in PARTS for path in english_parts(stem)}
    found = [q for q in questions() if q.lesson in stems]
    assert {q.lesson for q in found} == {E.PART_A2, E.PART_A3, E.PART_B} and len(found) == 6
    assert stems == {E.PART_A, E.PART_A2, E.PART_A3, E.PART_B, E.PART_B2}
    for q in found:
        assert_worded(q)


# --------------------------------------------------------------------------- the simulated evenings of 05b
@pytest.fixture(scope="module")
def base():
    return E.evenings(count=BASE_EVENINGS, seed=25)


def test_issue_14_7_an_evening_is_at_most_six_deals(base):
    """G3: an evening ends early when someone cannot ante; the lesson says so and measures it."""
    share, low, high = E.ended_early(base)
    assert 0 < low < share < high
    for e in range(base.evenings):
        rows = [r for r in base.rows if r["evening"] == e]
        if rows[0]["deals"] < 6:
            assert min(rows, key=lambda r: r["final"])["seat"] == E.MARY  # "in every one of them ... Mary"
    text = prose(PARTS[1])
    assert "*unless*\nsomebody cannot pay their ante" in text


def test_issue_14_6_who_buys_and_what_the_sellers_gain(base):
    summary = base.summary(("net", "edge", "luck", "baseline"))
    bought = sum(base.mean("bought", s) for s in range(6))
    assert base.mean("bought", E.MARY) / bought > 0.95  # "Mary buys nearly every card"
    assert summary[E.MARY]["net_high"] < -20
    assert all(summary[s]["net_mean"] > 1 for s in range(6) if s != E.MARY)  # the other five all gain
    edges = {s: summary[s]["edge_mean"] for s in range(6) if s != E.MARY}
    assert summary[E.HENRY]["edge_low"] < summary[E.EDMUND]["edge_high"]  # no more than Edmund's fairness
    assert edges[E.HENRY] <= edges[E.EDMUND] + 0.5
    assert min(range(6), key=lambda s: base.mean("sold", s) if s != E.MARY else 99) == E.WILLIAM
    assert all(abs(summary[s]["baseline_mean"]) < 1 for s in range(6))
    # luck has mean zero: on this seed at most one of the six 95% intervals misses it (the text allows that)
    misses = [s for s in range(6) if not summary[s]["luck_low"] <= 0 <= summary[s]["luck_high"]]
    assert len(misses) <= 1
    text = prose(PARTS[1])
    assert "shows in his selling" not in text and "exactly as in the chapter" not in text
    assert "only one game won, hers" in text


def test_issue_14_8_the_what_if_changes_have_intervals_and_say_what_the_text_says(base):
    cut = base.first(WHAT_IF)
    prudent = E.evenings(E.variant("prudent_mary"), count=WHAT_IF, seed=25, accounting=False)
    mean, low, _high = E.paired(cut, prudent, E.MARY)
    assert low > 15
    others = [E.paired(cut, prudent, s) for s in range(6) if s != E.MARY]
    assert all(h < 0 for _, _, h in others)
    assert abs(sum(m for m, _, _ in others) + mean) < 1e-9  # G4: the chips were hers
    wishes = E.evenings(E.variant("fanny_as_she_wishes"), count=WHAT_IF, seed=25, accounting=False)
    assert all(lo < 0 < hi or lo == hi == 0 for _, lo, hi in (E.paired(cut, wishes, s) for s in range(6)))
    asks = E.evenings(E.variant("lady_asks_mary"), count=WHAT_IF, seed=25, accounting=False)
    assert E.paired(cut, asks, E.LADY)[2] < -5 and E.paired(cut, asks, E.MARY)[1] > 0


def test_mary_s_knaves_in_the_simulated_evenings():
    found = E.purchases(count=PURCHASES, seed=5)
    knaves = [p for p in found if p.buyer == E.MARY and p.rank == 11]
    over = [p.price - p.worth for p in knaves]
    low, high = E.interval(over)
    assert 2 < low < high < 6  # "a few chips more than it was worth, the interval far from zero"
    assert sum(p.won for p in knaves) > len(knaves) / 2  # "she won most of those deals"
    event = [p for p in knaves if p.won and p.pot < p.price]
    assert 0 < len(event) < 0.1 * len(knaves)  # "in a few percent of them"
    for p in found:
        assert p.price > 0 and p.worth >= 0


def test_the_purchase_records_are_the_engine_s_break_even_prices():
    """Each recorded worth is odds.break_even at the moment of the sale (replayed from the deal)."""
    from speculation_nb.engine.session import Session
    from speculation_nb.players import play

    session = Session(E.RULES, list(E.cast().names), deals=6, seed=5 * 100_003, dealer=0)
    game: Game = session.game
    watch = E._Watch()
    play(game, E.cast().table(), observer=watch)
    sales = [e for e in game.events if e.kind == "sale"]
    assert len(sales) == len(watch.sales)
    for event, seen in zip(sales, watch.sales):
        before = game.at(event["step"] - 1)
        assert abs(float(odds.break_even(before, event["buyer"])) - seen["worth"]) < 1e-9


# --------------------------------------------------------------------------- issue 24: every claim tight
def test_issue_24_3_the_knave_s_worth_rests_on_no_trump_having_come_up_and_the_other_case_is_shown():
    """05a: with the lowest non-trumps turned up, Hoyle (c)'s carry-over weighs on the knave (best 13.41,
    cost at least 13.59); with the 2♥ turned up first it is worth 16.82 after 13 cards, 18.26 after 14."""
    rows = E.knave_table()
    assert not any(
        c.suit == E.william_knave(14).best_trump.suit for c in E.william_knave(14).seen - {E.Card.parse("JH")}
    )
    turned, _, best = max(rows, key=lambda r: r[2])
    assert turned == 13 and round(float(best), 2) == 13.41 and round(float(27 - best), 2) == 13.59
    other = E.knave_table(low_trump=True)
    assert E.Card.parse("2H") in E.william_knave(1, low_trump=True).seen
    assert [round(float(other[k][2]), 2) for k in (13, 14)] == [16.82, 18.26]
    assert [round(float(E.knave_cost(27, k, low_trump=True)), 2) for k in (13, 14)] == [10.18, 8.74]
    assert all(27 - worth > 8 for _, _, worth in other)  # a loss at every moment of the table
    text = flat(PARTS[0])
    for figure in ("13.41", "13.59", "16.82", "18.26", "10.18", "8.74", "rule (c)"):
        assert figure in text, figure
    assert "at least 13.59" in flat(PARTS[1]) and "at least 8.74" in flat(PARTS[1])


def test_issue_24_3_the_dozen_curve_falls_after_12_cards_for_the_same_reason():
    table = E.dozen_table()
    assert [round(float(w), 2) for _, w, _ in table[12:15]] == [16.17, 16.12, 15.63]
    carry = [odds.win_probabilities(E.queen_for_lady_bertram(k))[None] for k in (12, 14)]
    assert [round(float(c) * 100) for c in carry] == [9, 19]
    rising = E.dozen_table(low_trump=True)
    assert all(a[1] < b[1] for a, b in pairwise(rising))  # with a trump out it keeps rising
    assert [round(float(rising[k][1]), 2) for k in (12, 14)] == [18.53, 20.61]
    text = flat(PARTS[0])
    for figure in ("16.17, 16.12, then 15.63", "9 % after 12", "19 % after 14", "18.53", "20.61"):
        assert figure in text, figure


@pytest.mark.parametrize("turned", [0, 2, 4, 6, 8, 10, 12])
def test_issue_24_6_fanny_s_queen_is_worth_the_same_whether_henry_or_mary_dealt(turned):
    assert odds.seller_break_even(E.fanny_queen(turned, 8, dealer=E.MARY), E.WILLIAM) == E.queen_value(turned)


def test_issue_24_6_the_novel_read_as_austen_wrote_it():
    text = flat(PARTS[0])
    assert "“The game will be yours”" in text and "the game, that is, not only the queen" in text
    assert "would rather her brother had the queen" not in text and "Henry does not deal next" in text
    assert "Fanny bought it (“You have bought her too dearly”)" in text
    assert "how far short of it is he?" in text and "Start with half her value" not in text
    assert "“sharpen her avarice, and harden her heart”" in flat(PARTS[1])
    pt = (NOTEBOOKS / f"{E.PART_A2}.pt.ipynb").read_text(encoding="utf-8")
    pt = " ".join(" ".join("".join(c["source"]) for c in json.loads(pt)["cells"]).split())
    assert "que ela fosse de William" not in pt and "que ele fosse de William" in pt  # it: the game


def test_issue_24_4_how_surprising_a_miss_is_and_why_the_six_intervals_are_not_independent(base):
    """05b: on this seed no luck interval misses zero (Henry's comes closest, 1.9 standard errors);
    a miss of 3.3 standard errors is about 1 in 1,000; the six mean lucks add up to about zero."""
    from statistics import NormalDist

    summary = base.summary(("net", "luck"))
    assert all(summary[s]["luck_low"] <= 0 <= summary[s]["luck_high"] for s in range(6))
    z = {s: summary[s]["luck_mean"] / summary[s]["luck_se"] for s in range(6)}
    assert max(z, key=lambda s: abs(z[s])) == E.HENRY and round(z[E.HENRY], 1) == 1.9
    assert 0.0005 < 2 * NormalDist().cdf(-3.3) < 0.0015 and round(2 * NormalDist().cdf(-2), 2) == 0.05
    assert round(sum(summary[s]["luck_mean"] for s in range(6)), 2) == 0.11
    # "the other five all gain": every one of their intervals is clear of zero
    assert all(summary[s]["net_low"] > 0 for s in range(6) if s != E.MARY)
    text = flat(PARTS[1])
    for figure in ("1.9 standard errors", "3.3 or more about once in a thousand", "+0.11 here", "*independent*"):
        assert figure in text, figure
    assert "wrong one time in twenty" not in text
