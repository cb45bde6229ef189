"""The one rounding of a price (RULES.md O4, issue 23): :func:`speculation_nb.odds.shown_chips`
turns an exact Fraction into the whole chips every screen shows, half up; :class:`Prices` is a
moment's prices so rounded."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb import Game, Rules, odds
from speculation_nb.languages.translator import round_half_up, translator
from speculation_nb.odds.moment import DealMoment, Odds
from speculation_nb.odds.prices import Prices, shown_chips

prices = st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**6)


@settings(max_examples=400, deadline=None)
@given(prices)
def test_o4_shown_chips_is_the_whole_number_nearest_the_price_halves_up(x: Fraction) -> None:
    n = shown_chips(x)
    assert isinstance(n, int)
    assert x - Fraction(1, 2) < n <= x + Fraction(1, 2)  # nearest; a half goes up
    with localcontext() as ctx:  # the schoolbook rule, as Decimal writes it (halves away from 0 above 0)
        ctx.prec = 60
        if x >= 0:
            exact = Decimal(x.numerator) / Decimal(x.denominator)
            assert n == int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert n == round_half_up(x)  # the languages' rounding of numbers agrees
    assert translator("en").chips(x) == translator("en").number(n)


@settings(max_examples=200, deadline=None)
@given(prices, prices)
def test_o4_shown_chips_keeps_the_order_and_whole_numbers(x: Fraction, y: Fraction) -> None:
    if x <= y:
        assert shown_chips(x) <= shown_chips(y)
    assert shown_chips(Fraction(int(x))) == int(x)
    assert shown_chips(x + 1) == shown_chips(x) + 1


def test_o4_the_halves_and_the_issues_numbers() -> None:
    """ "≈ 9.5" on the phones and 10 on the projector; 7.7 in the poll and 8 in the table; 3.5
    in the log and 4 in the table: one number each, half up."""
    assert [shown_chips(Fraction(v)) for v in ("19/2", "77/10", "7/2", "1/2", "-1/2", "0", "5")] == [
        10,
        8,
        4,
        1,
        0,
        0,
        5,
    ]


def test_o4_prices_of_a_moment_are_its_exact_prices_rounded() -> None:
    for rules in (Rules(players=5), Rules(players=4, jack_five=True), Rules(players=4, dead_hand=True)):
        for seed in range(6):
            game = Game.deal(rules, seed=seed)
            if game.over:
                continue
            game.open_auction()
            m = DealMoment.of(game)
            p = m.odds.prices
            assert p.fair == shown_chips(odds.fair_price(game))
            for seat in range(rules.players):
                if seat == game.holder:
                    assert seat not in p.break_even
                    continue
                assert p.break_even[seat] == shown_chips(odds.break_even(game, seat))
                assert p.seller_break_even[seat] == shown_chips(odds.seller_break_even(game, seat))
                assert p.seller_differs(seat) == (p.break_even[seat] != p.seller_break_even[seat])


def test_o4_without_jack_and_five_or_a_dead_pile_the_seller_never_differs() -> None:
    """Basic game: E[net] = pot x P(win), and a sale moves no chance to a third seat, so the
    seller's break-even is the buyer's: the auction table shows one column."""
    for seed in range(8):
        game = Game.deal(Rules(players=5), seed=seed)
        for _ in range(seed % 4):
            if not game.over:
                game.reveal()
        if game.over:
            continue
        assert not Odds.of(game, every_buyer=True).prices.seller_differs()


def test_o4_with_a_dead_pile_the_seller_can_differ() -> None:
    """V2: the dead pile can take the pot from whoever holds at the end, so what the seller loses
    by a sale need not be what the buyer gains (seed 5, five cards turned up: 3 against 2)."""
    game = Game.deal(Rules(players=4, dead_hand=True), seed=5)
    for _ in range(5):
        game.reveal()
    prices = Odds.of(game, every_buyer=True).prices
    assert prices.seller_differs() and prices.seller_differs(1) and prices.break_even[1] > prices.seller_break_even[1]


def test_o4_every_buyer_gives_the_break_evens_without_an_auction() -> None:
    game = Game.deal(Rules(players=4), seed=3)
    assert Odds.of(game).break_even == {}
    every = Odds.of(game, every_buyer=True)
    assert every.break_even == {s: odds.break_even(game, s) for s in range(4) if s != game.holder}
    assert Prices.rounded(every.fair, every.break_even) == Prices(every.prices.fair, every.prices.break_even, {})
