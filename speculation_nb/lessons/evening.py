"""Lesson 5, *An evening at Mansfield Park* (parts 05a and 05b): the novel's card table, the moments
of the chapter the lesson tests, and the tournaments of part 05b.

The table is :func:`speculation_nb.players.mansfield_park` (vol. II, ch. 7), seated clockwise as
the lesson assumes: Lady Bertram, Henry Crawford, Fanny Price, William Price, Mary Crawford, Edmund
Bertram, playing Hoyle's rules of 1847 (:data:`RULES`).

The chapter's three claims become three kinds of moment, built by :func:`moment` from a laid-out
deck whose first cards are low non-trumps, so that ``turned`` cards can be turned up with no
higher trump among them (the odds read only what is face up, so the other cards do not matter):

* :func:`queen_for_lady_bertram`: Mary has dealt and turned up the Queen; is a dozen more than
  it is worth to Lady Bertram ("a dozen is more than it is worth")?
* :func:`fanny_queen`: Fanny has bought the Queen that Henry turned up; what is it worth to her
  when William bids ("your brother does not offer half her value")?
* :func:`william_knave`: William has dealt and turned up the Jack; what does Mary lose by paying
  more than the pot for it ("at an exorbitant rate")?

Everything is exact (:class:`fractions.Fraction`) except the tournaments, which take a seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from math import sqrt
from typing import Any

from .. import odds
from ..engine.cards import Card, full_deck
from ..engine.game import Game
from ..engine.session import Session
from ..engine.settings import Rules
from ..languages.translator import translator
from ..players import FAIR, Cast, Undecided, mansfield_park, play
from ..players.characters import fanny_as_she_wishes
from ..players.tournament import Tournament, tournament
from .model_check import Verdict, student_value, way
from .questions import Question, Worked, as_shown, register, spread

__all__ = [
    "EDMUND",
    "FANNY",
    "HENRY",
    "LADY",
    "MARY",
    "PART_A",
    "PART_A2",
    "PART_A3",
    "PART_B",
    "PART_B2",
    "RULES",
    "WILLIAM",
    "Purchase",
    "cast",
    "check_break_even",
    "check_interval",
    "dozen_table",
    "ended_early",
    "evenings",
    "fanny_queen",
    "first_worth_a_dozen",
    "interval",
    "knave_cost",
    "knave_table",
    "moment",
    "paired",
    "purchases",
    "queen_for_lady_bertram",
    "queen_value",
    "variant",
    "william_knave",
]

PART_A = "05a_the_evening_in_the_chapter"
PART_A2 = "05a_the_evening_in_the_chapter_2"  # the dozen and Fanny's queen: sections 3 and 4
PART_A3 = "05a_the_evening_in_the_chapter_3"  # Mary's knave and the app: sections 5 and 6
PART_B = "05b_many_evenings"
PART_B2 = "05b_many_evenings_2"  # edge and luck, the knaves, what if: sections 4 to 6
#: Hoyle's rules of 1847 for the six players of the round table.
RULES = Rules(players=6, preset="hoyle1847")
LADY, HENRY, FANNY, WILLIAM, MARY, EDMUND = range(6)
#: A dozen: Lady Bertram's bid for Mary's queen, which Henry takes back.
DOZEN = 12


def cast() -> Cast:
    """The six of the round table with their strategies (see ``mansfield_park``)."""
    return mansfield_park(6)


# --------------------------------------------------------------------------- the chapter's moments
def moment(turn_up: str, dealer: int, turned: int = 0, rules: Rules = RULES, first: str | None = None) -> Game:
    """A deal of six just dealt by ``dealer`` with this turn-up, after ``turned`` cards turned up by
    the players, none of them a trump above the turn-up.

    The deck is laid out low cards first, non-trumps before trumps, so the cards turned up are the
    lowest non-trumps: *no trump comes up from the piles*, and under Hoyle's rule (c) the pot would
    carry over if none ever did. That risk weighs on every card's worth late in the deal. ``first``
    (say ``"2H"``, a low trump) is put where it is the first card turned up: the other case, in
    which a trump has come up and the carry-over is out of the question.
    """
    up = Card.parse(turn_up)
    rest = sorted((c for c in full_deck() if c != up), key=lambda c: (c.suit == up.suit, c.rank))
    k = rules.hand_size
    piles = [rest[i * k : (i + 1) * k] for i in range(rules.players)]
    if first is not None:
        probe = Game.from_layout(rules, piles, up, dealer=dealer)
        opening, wanted = probe.reveal(), Card.parse(first)
        piles = [[wanted if c == opening else opening if c == wanted else c for c in pile] for pile in piles]
    game = Game.from_layout(rules, piles, up, dealer=dealer)
    for _ in range(turned):
        game.reveal()
    if game.over:
        raise ValueError(f"after {turned} cards the deal is over")
    return game


def queen_for_lady_bertram(turned: int = 0, low_trump: bool = False) -> Game:
    """Mary has dealt and turned up the Queen of hearts (the best trump, hers), ``turned`` cards
    have been turned up since, none higher: no trump at all, or with ``low_trump`` the 2♥ first."""
    return moment("QH", MARY, turned, first="2H" if low_trump else None)


def dozen_table(most: int = 14, low_trump: bool = False) -> list[tuple[int, Fraction, Fraction]]:
    """``(cards turned up, Lady Bertram's break-even price for Mary's queen, the simple fair price O4)``.

    With no trump turned up the worth falls after 12 cards: the pot carries over (Hoyle (c)) unless a
    trump comes up, and with fewer cards left that grows likelier; with ``low_trump`` it keeps rising."""
    rows = []
    for turned in range(most + 1):
        game = queen_for_lady_bertram(turned, low_trump)
        rows.append((turned, odds.break_even(game, LADY), odds.fair_price(game)))
    return rows


def first_worth_a_dozen() -> int:
    """The fewest cards turned up (none higher) after which Mary's queen is worth a dozen to Lady Bertram."""
    return next(turned for turned, worth, _ in dozen_table() if worth >= DOZEN)


def fanny_queen(turned: int = 0, paid: int = 8, dealer: int = HENRY) -> Game:
    """Henry has dealt and turned up the Queen of hearts, Fanny has bought it for ``paid`` chips in the
    turn-up auction (P1), and ``turned`` cards have been turned up since (Hoyle (a): William first).

    Henry dealing breaks the rotation the lesson follows (the chapter's simpler reading: Mary dealt,
    and Fanny bought her queen after Lady Bertram declined it); ``dealer=MARY`` is that reading, and
    every value of the lesson's table is the same in both."""
    game = moment("QH", dealer)
    game.open_auction()
    game.bid(FANNY, paid)
    game.accept(FANNY)
    for _ in range(turned):
        game.reveal()
    if game.over:
        raise ValueError(f"after {turned} cards the deal is over")
    return game


def queen_value(turned: int = 0, paid: int = 8) -> Fraction:
    """The queen's value to Fanny if William buys it: the least she should take (her seller's
    break-even price). What she paid for it does not enter."""
    return odds.seller_break_even(fanny_queen(turned, paid), WILLIAM)


def william_knave(turned: int = 0, low_trump: bool = False) -> Game:
    """William has dealt and turned up the Jack of hearts; ``turned`` cards turned up since, none
    higher. No trump among them, or, with ``low_trump``, the 2♥ first (see :func:`moment`)."""
    return moment("JH", WILLIAM, turned, first="2H" if low_trump else None)


def knave_table(most: int = 14, low_trump: bool = False) -> list[tuple[int, int, Fraction]]:
    """``(cards turned up, the pot, the knave's break-even price for Mary)``, with no trump turned up
    (or, with ``low_trump``, the 2♥ first)."""
    rows = []
    for turned in range(most + 1):
        game = william_knave(turned, low_trump)
        rows.append((turned, game.pot, odds.break_even(game, MARY)))
    return rows


def knave_cost(price: int, turned: int = 0, low_trump: bool = False) -> Fraction:
    """What paying ``price`` for William's knave costs Mary on average: the price minus its worth to her."""
    return price - odds.break_even(william_knave(turned, low_trump), MARY)


# --------------------------------------------------------------------------- the student's own break-even price
def solution_break_even(game: Game, buyer: int) -> Fraction:
    """The worked solution of part 05a's model cell: E[net | buyer owns it] - E[net | nobody trades]."""
    return odds.expected_net(game, buyer, owner=buyer) - odds.expected_net(game, buyer)


def check_break_even(function: Callable[[Game, int], Any], lang: str = "en") -> str:
    """Compare a student's ``function(game, buyer)`` with ``odds.break_even`` at the chapter's moments."""
    t = translator(lang)
    cases = [
        (queen_for_lady_bertram(0), LADY, "Lady Bertram"),
        (queen_for_lady_bertram(6), LADY, "Lady Bertram"),
        (william_knave(3), MARY, "Mary"),
        (fanny_queen(4), WILLIAM, "William"),
    ]
    try:
        for game, buyer, name in cases:
            expected = odds.break_even(game, buyer)
            value = student_value(t, function, (game.copy(), buyer), float, "lesson.l5.model.error")
            if abs(value - float(expected)) > 1e-9:
                return t(
                    "lesson.l5.model.wrong",
                    name=name,
                    value=t.number(value, 3),
                    expected=t.number(float(expected), 3),
                    way=way(t, value, expected),
                )
    except Verdict as verdict:
        return str(verdict)
    return t("lesson.l4.model.right", count=len(cases))


def interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """A 95% confidence interval for the mean: mean ± z · s/√N, s the sample standard deviation."""
    n = len(values)
    mean = sum(values) / n
    sd = sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean - z * sd / sqrt(n), mean + z * sd / sqrt(n)


def check_interval(function: Callable[[Sequence[float]], Any], lang: str = "en") -> str:
    """Compare a student's ``function(values) -> (low, high)`` with :func:`interval`."""
    t = translator(lang)
    cases = [[1.0, 2.0, 3.0, 4.0], [10.0, -4.0, 7.5, 0.0, 3.0, -1.0], [float(k % 7) for k in range(100)]]
    try:
        for values in cases:
            low, high = interval(values)
            a, b = student_value(t, function, (list(values),), _pair, "lesson.l5.model.error", "lesson.l5.model.pair")
            if abs(a - low) > 1e-6 or abs(b - high) > 1e-6:
                return t(
                    "lesson.l5.model.interval",
                    count=len(values),
                    low=t.number(a, 3),
                    high=t.number(b, 3),
                    exact_low=t.number(low, 3),
                    exact_high=t.number(high, 3),
                )
    except Verdict as verdict:
        return str(verdict)
    return t("lesson.l4.model.right", count=len(cases))


def _pair(got: Any) -> tuple[float, float]:
    """A student's interval: two numbers, (low, high)."""
    low, high = (float(x) for x in got)
    return low, high


# --------------------------------------------------------------------------- thousands of evenings
def evenings(players: Cast | None = None, count: int = 200, seed: int = 25, accounting: bool = True) -> Tournament:
    """``count`` seeded evenings of the round table under :data:`RULES` (one round of the deal each,
    fewer deals when someone cannot ante, G3)."""
    return tournament(players or cast(), rules=RULES, evenings=count, seed=seed, accounting=accounting)


def ended_early(result: Tournament) -> tuple[float, float, float]:
    """The share of evenings that ended before every player had dealt, with its 95% interval."""
    deals = result.column("deals", 0)
    flags = [1.0 if d < result.players else 0.0 for d in deals]
    share = sum(flags) / len(flags)
    low, high = interval(flags)
    return share, max(0.0, low), min(1.0, high)


def paired(base: Tournament, other: Tournament, seat: int, key: str = "net") -> tuple[float, float, float]:
    """The mean change in ``key`` at ``seat`` from ``base`` to ``other`` (the same seeded evenings:
    the same cards are dealt, only the play differs), with its 95% interval."""
    evenings_ = min(base.evenings, other.evenings)
    a = base.first(evenings_).column(key, seat)
    b = other.first(evenings_).column(key, seat)
    diffs = [float(y) - float(x) for x, y in zip(a, b)]
    low, high = interval(diffs)
    return sum(diffs) / len(diffs), low, high


def variant(name: str) -> Cast:
    """The round table with one character changed: ``"prudent_mary"`` (Mary values cards at their
    worth, like Edmund), ``"fanny_as_she_wishes"`` (Henry does not coach Fanny) or
    ``"lady_asks_mary"`` (Lady Bertram takes Mary's advice instead of Henry's)."""
    table = cast()
    strategies = list(table.strategies)
    if name == "prudent_mary":
        strategies[MARY] = FAIR
    elif name == "fanny_as_she_wishes":
        strategies[FANNY] = fanny_as_she_wishes(table)
    elif name == "lady_asks_mary":
        strategies[LADY] = Undecided(advisor=strategies[MARY])
    else:
        raise ValueError(f"no variant {name!r}: prudent_mary, fanny_as_she_wishes or lady_asks_mary")
    return replace(table, strategies=tuple(strategies))


@dataclass(frozen=True)
class Purchase:
    """One sale of the best trump: who bought what from whom, the price, and its worth to the buyer
    at that moment (the exact break-even price), with how the deal ended for the buyer."""

    evening: int
    buyer: int
    seller: int
    rank: int
    price: int
    worth: float
    won: bool
    pot: int


class _Watch:
    """An observer for ``players.play``: remembers each sale with the buyer's break-even price."""

    def __init__(self) -> None:
        self.sales: list[dict[str, Any]] = []

    def before(self, game: Game) -> Any:
        # Hoyle (d): the holder can only sell to the best offer; otherwise any bidder may be the buyer
        bidders = [game.best_offer] if game.rules.preset == "hoyle1847" else list(game.auction or {})
        return {seat: odds.break_even(game, seat) for seat in bidders if seat is not None}

    def after(self, game: Game, kind: str, info: dict[str, int], state: Any) -> None:
        if kind == "sale":
            worth = state.get(info["buyer"], Fraction(0))
            self.sales.append({**info, "rank": game.best_trump.rank, "worth": float(worth)})


def purchases(players: Cast | None = None, count: int = 200, seed: int = 5) -> list[Purchase]:
    """Every sale of ``count`` seeded evenings of the round table (evening e dealt from ``seed`` and e)."""
    table = players or cast()
    strategies = table.table()
    out = []
    for e in range(count):
        session = Session(RULES, list(table.names), deals=RULES.players, seed=seed * 100_003 + e, dealer=e % 6)
        while True:
            game = session.game
            watch = _Watch()
            play(game, strategies, observer=watch)
            for sale in watch.sales:
                won = game.winner == sale["buyer"]
                out.append(
                    Purchase(
                        e,
                        sale["buyer"],
                        sale["seller"],
                        sale["rank"],
                        sale["price"],
                        sale["worth"],
                        won,
                        odds.pot_played_for(game),
                    )
                )
            if session.next_deal() is None:
                break
    return out


# --------------------------------------------------------------------------- the exercises
def _dozen_figures() -> tuple[int, Decimal, Decimal]:
    """The pot and Lady Bertram's two chances as the question gives them (four places)."""
    game = queen_for_lady_bertram(0)
    own = odds.win_probabilities(game)[LADY]
    bought = odds.expected_net(game, LADY, owner=LADY) / game.pot
    assert odds.break_even(game, LADY) == game.pot * (bought - own)
    return game.pot, as_shown(bought), as_shown(own)


def _dozen_start() -> Worked:
    # checked against the question's own figures: 26 × (0.5095 − 0.0976) = 10.7094
    pot, bought, own = _dozen_figures()
    return pot * (Fraction(bought) - Fraction(own)), {"pot": pot, "with": bought, "without": own}


def _dozen_within() -> tuple[Fraction, Fraction]:
    pot, bought, own = _dozen_figures()
    (b_low, b_high), (o_low, o_high) = spread(bought), spread(own)
    return pot * (b_low - o_high), pot * (b_high - o_low)


def _dozen_cards() -> Worked:
    table = dozen_table()
    n = first_worth_a_dozen()
    return Fraction(n), {"before": float(table[n - 1][1]), "after": float(table[n][1]), "fewer": n - 1}


def _half_value() -> Worked:
    value = queen_value(6)
    return value / 2, {"value": float(value)}


def _sunk() -> Worked:
    return queen_value(6, paid=14) - queen_value(6, paid=4), {}


def _knave_cost() -> Worked:
    game = william_knave(6)
    price = game.pot + 1
    return knave_cost(price, 6), {"price": price, "pot": game.pot, "worth": float(odds.break_even(game, MARY))}


def _half_width() -> Worked:
    sd, n = 28, 400
    return Fraction(196, 100) * sd / Fraction(20), {"sd": sd, "N": n}


for _key, _part, _compute, _digits, _unit in (
    ("l5a.dozen_start", PART_A2, _dozen_start, 3, "chips"),
    ("l5a.dozen_cards", PART_A2, _dozen_cards, 1, "cards"),
    ("l5a.sunk", PART_A2, _sunk, 1, "chips"),
    ("l5a.half_value", PART_A2, _half_value, 3, "chips"),
    ("l5a.knave_cost", PART_A3, _knave_cost, 3, "chips"),
    ("l5b.half_width", PART_B, _half_width, 3, "chips"),
):
    within = _dozen_within if _key == "l5a.dozen_start" else None
    register(Question(_key, _part, _compute, digits=_digits, unit=_unit, within=within))
