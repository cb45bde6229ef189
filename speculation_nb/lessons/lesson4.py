"""Lesson 4, *Changing the game* (parts 04a and 04b): the helpers behind its cells.

The notebooks keep their cells short and about the idea; the arithmetic, the plots and the
answers of the exercises live here, where the tests can check them. Everything is exact
(:class:`fractions.Fraction`) except the simulations, which take a seed.

The one idea worth knowing about the helpers: the odds functions of :mod:`speculation_nb.odds`
read only *public* information (the cards face up, how many cards each pile holds, the chips).
So to study "a deal just dealt, with the Queen of hearts turned up", :func:`opening` may lay out
any cards at all face down; :func:`averaged` then averages a number over a random turn-up (the
suit never matters, so it is the mean over the 13 ranks; an Ace ends the deal at once, S5).

Every word a helper shows comes from the runtime catalog ``lessons.po`` (keys ``lesson4.*``)
in the language ``lang``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import comb
from typing import Any

from .. import odds
from ..engine.cards import Card, Suit, full_deck
from ..engine.game import Game
from ..engine.session import Session
from ..engine.settings import Rules
from ..languages.translator import Translator, translator
from .model_check import Verdict, student_value, way
from .questions import Question, Worked, as_shown, register, spread

__all__ = [
    "HANDS",
    "PLAYERS",
    "RANKS",
    "averaged",
    "bite",
    "carry_over_chance",
    "fair_price_table",
    "final_chips",
    "hold",
    "hold_table",
    "long_run_pot",
    "opening",
    "pile_purchase",
    "play_out",
    "relative_bite",
    "rule_a_floor",
    "rule_a_table",
    "session_pots",
    "trade_values",
]

#: The ranks a turn-up can have: 2 ... 10, Jack 11, Queen 12, King 13, Ace 14.
RANKS = range(2, 15)
#: The table sizes of rule S1.
PLAYERS = tuple(range(3, 9))
#: The hand sizes of rule V5 (3 is the plain game).
HANDS = (3, 4, 5)


# --------------------------------------------------------------------------- exact helpers
def hold(U: int, h: int, n: int) -> Fraction:
    """O1: the chance that none of ``h`` higher trumps among ``U`` unseen cards lies among the
    ``n`` cards still to be turned up by others, ``C(U-h, n) / C(U, n)``."""
    return Fraction(comb(U - h, n), comb(U, n))


def bite(U: int, n: int) -> Fraction:
    """How much one more card out lowers the hold probability of a card with two trumps above it
    (a Queen): ``O1(n) - O1(n+1) = 2(U-n-1) / (U(U-1))``. It *shrinks* as ``n`` grows."""
    return hold(U, 2, n) - hold(U, 2, n + 1)


def relative_bite(U: int, n: int) -> Fraction:
    """The same bite as a share of what is left, ``1 - O1(n+1)/O1(n) = 2/(U-n)``: it *grows* with ``n``."""
    return bite(U, n) / hold(U, 2, n)


def opening(rules: Rules, turn_up: Any, stacks: Sequence[int] | None = None) -> Game:
    """A deal just dealt, before the first reveal, with this turn-up. The odds read only public
    information, so the face-down cards may be any cards: the rest of the deck in order."""
    up = turn_up if isinstance(turn_up, Card) else Card.parse(turn_up)
    rest = [card for card in full_deck() if card != up]
    k, n = rules.hand_size, rules.players
    piles = [rest[i * k : (i + 1) * k] for i in range(n)]
    dead = rest[n * k : (n + 1) * k] if rules.dead_hand else None
    return Game.from_layout(rules, piles, up, dead=dead, stacks=stacks)


def averaged(rules: Rules, number: Callable[[Game], Any], stacks: Sequence[int] | None = None) -> Fraction:
    """The exact mean of ``number(game)`` over a random turn-up, just after the deal."""
    total = sum((Fraction(number(opening(rules, Card(rank, Suit.HEARTS), stacks))) for rank in RANKS), Fraction(0))
    return total / 13


def play_out(game: Game) -> Game:
    """Turn up cards until the deal ends; nobody sells and nobody trades. Returns the same game."""
    while not game.over:
        game.reveal()
    return game


def carry_over_chance(rules: Rules) -> Fraction:
    """The chance that a random deal under ``rules`` ends with the pot carried over (P9, Hoyle (c))."""
    return averaged(rules, lambda g: odds.win_probabilities(g)[None])


def long_run_pot(antes: int, q: Fraction) -> Fraction:
    """The average pot at the start of a deal when each deal carries over with chance ``q``:
    ``P = A + qP``, so ``P = A/(1-q)``."""
    return Fraction(antes) / (1 - Fraction(q))


# --------------------------------------------------------------------------- tables for the plots
def hold_table(turn_up: str = "QH") -> dict[int, list[Fraction]]:
    """``{hand size: [O1 of the turn-up before the first reveal, for 3 ... 8 players]}``."""
    return {k: [odds.hold_probability(opening(Rules(players=n, hand_size=k), turn_up)) for n in PLAYERS] for k in HANDS}


def any_hold_table() -> dict[int, list[Fraction]]:
    """``{hand size: [O1 of a random turn-up, for 3 ... 8 players]}``."""
    return {k: [averaged(Rules(players=n, hand_size=k), odds.hold_probability) for n in PLAYERS] for k in HANDS}


def fair_price_table(turn_up: str = "QH") -> dict[int, list[Fraction]]:
    """``{hand size: [O4 of the turn-up (O1 x the pot of antes), for 3 ... 8 players]}``."""
    return {k: [odds.fair_price(opening(Rules(players=n, hand_size=k), turn_up)) for n in PLAYERS] for k in HANDS}


def carry_table(dead_hand: bool = True, preset: str = "cardrules") -> dict[int, list[Fraction]]:
    """``{hand size: [carry-over chance of a random deal, 3 ... 8 players]}`` (Hoyle: 3 cards only)."""
    hands = (3,) if preset == "hoyle1847" else HANDS
    out = {}
    for k in hands:
        if preset == "hoyle1847":
            out[k] = [carry_over_chance(Rules(players=n, preset=preset)) for n in PLAYERS]
        else:
            out[k] = [carry_over_chance(Rules(players=n, hand_size=k, dead_hand=dead_hand)) for n in PLAYERS]
    return out


# --------------------------------------------------------------------------- lesson 3's rule A, re-tested
def rule_a_floor(players: int, hand_size: int = 3, dead_hand: bool = False, few: int = 3) -> Fraction:
    """The lowest chance that a Queen, the best trump, holds at any moment when at most ``few``
    cards are still to be turned up by the *other players* (lesson 3's rule A).

    Exact, over every moment the rules allow: the King and the Ace both unseen (h = 2, the worst
    case), ``m`` = 1 ... ``few`` cards left in the other piles, the holder's own pile anywhere from
    empty to full, every other pile card turned up. A dead pile (V2) adds its cards to ``n``
    (they are turned up at the end, P7) though no player turns them up.
    """
    dead = hand_size if dead_hand else 0
    lowest = Fraction(1)
    for m in range(1, few + 1):
        for own in range(hand_size + 1):
            turned = players * hand_size - m - own  # every other pile card is face up
            if turned < 0:
                continue
            unseen = 51 - turned  # 52 cards, the Queen and the cards turned up are seen
            lowest = min(lowest, hold(unseen, 2, m + dead))
    return lowest


def rule_a_table() -> list[tuple[int, Fraction, Fraction, Fraction, Fraction]]:
    """``(players, floor plain, floor with a dead pile, floor with 4 cards, floor with 5 cards)``."""
    return [
        (n, rule_a_floor(n), rule_a_floor(n, dead_hand=True), rule_a_floor(n, 4), rule_a_floor(n, 5)) for n in PLAYERS
    ]


# --------------------------------------------------------------------------- a session of carried-over pots
@dataclass(frozen=True)
class Pots:
    """The pots of a long seeded session, nobody trading: the pot each deal was played for, and
    whether it carried over."""

    antes: int
    pots: tuple[int, ...]
    carried: tuple[bool, ...]

    def share(self, times: int) -> float:
        """The share of deals played for exactly ``times`` times the antes."""
        return sum(p == self.antes * times for p in self.pots) / len(self.pots)

    @property
    def mean(self) -> float:
        return sum(self.pots) / len(self.pots)


def session_pots(deals: int = 600, seed: int = 2024, players: int = 4) -> Pots:
    """Play ``deals`` deals of one session with a dead pile, nobody selling, chips for everyone."""
    rules = Rules(players=players, dead_hand=True, start_chips=100_000)
    session = Session(rules, seed=seed)
    pots, carried = [], []
    for _ in range(deals):
        game = play_out(session.game)
        pots.append(odds.pot_played_for(game))
        carried.append(game.winner is None)
        session.next_deal()
    return Pots(sum(rules.antes(0)), tuple(pots), tuple(carried))


# --------------------------------------------------------------------------- blind trading (V3)
def final_chips(game: Game, seat: int) -> Fraction:
    """The chips ``seat`` can expect to own when the deal is over (nobody trading again)."""
    return game.stacks[seat] + odds.expected_net(game, seat)


def trade_values(game: Game, buyer: int, seller: int, count: int) -> tuple[Fraction, Fraction, Game]:
    """A blind trade of ``count`` cards: (the most the buyer should pay, the least the seller
    should accept, the deal after the trade). The trade is made on a copy at a price of 1 chip,
    and that chip is added back."""
    after = game.copy()
    after.blind_trade(buyer, seller, count, 1)
    most = final_chips(after, buyer) + 1 - final_chips(game, buyer)
    least = final_chips(game, seller) - (final_chips(after, seller) - 1)
    return most, least, after


def pile_purchase(game: Game, buyer: int = 0) -> list[Game]:
    """The deal after the holder ``buyer`` has bought 0, 1, 2, ... cards, one at a time, first the
    pile at its left, then the next one, until it owns every other card (1 chip a card)."""
    steps = [game]
    n = game.rules.players
    for k in range(1, n):
        seller = (buyer + k) % n
        for _ in range(game.face_down[seller]):
            after = steps[-1].copy()
            after.blind_trade(buyer, seller, 1, 1)
            steps.append(after)
    return steps


def card_values(steps: Sequence[Game], buyer: int = 0) -> list[Fraction]:
    """What the first k cards of :func:`pile_purchase` are worth to the buyer, prices added back."""
    first = steps[0]
    return [final_chips(g, buyer) + k - final_chips(first, buyer) for k, g in enumerate(steps)]


# --------------------------------------------------------------------------- Jack and Five (V1)
def jack_five_table() -> dict[int, list[Fraction]]:
    """``{hand size: [expected V1 chips above the antes of a random deal, 3 ... 8 players]}``."""
    return {
        k: [
            averaged(Rules(players=n, hand_size=k, jack_five=True), odds.expected_pot)
            - sum(Rules(players=n, hand_size=k).antes(0))
            for n in PLAYERS
        ]
        for k in HANDS
    }


def jack_five_bound(game: Game) -> Fraction:
    """``N j / U``: the expected number of Jacks and Fives if every face-down card of the players
    were turned up (linearity of expectation)."""
    unseen = sum(1 for card in full_deck() if card.rank in (5, 11) and card not in game.seen)
    return Fraction(sum(game.face_down) * unseen, game.unseen)


def short_of_chips(game: Game, spare: Sequence[int] = range(6)) -> list[Fraction]:
    """The expected V1 chips above the antes when every player keeps only ``s`` chips after the ante."""
    layout = game.layout()
    rules = game.rules
    antes = rules.antes(game.dealer)
    out = []
    for s in spare:
        stacks = [ante + s for ante in antes]
        g = Game.from_layout(rules, layout["piles"], layout["turn_up"], dealer=game.dealer, stacks=stacks)
        out.append(odds.expected_pot(g) - sum(antes))
    return out


# --------------------------------------------------------------------------- simulation against exact
def agreement(estimate: float, se: float, exact: Any, lang: str = "en") -> str:
    """A simulated number beside the exact one, with the distance in standard errors and what it means."""
    t = translator(lang)
    z = (estimate - float(exact)) / se if se > 0 else 0.0
    key = "lesson.l4.sim.within" if abs(z) < 2 else "lesson.l4.sim.outside"
    return t(
        key,
        estimate=t.number(estimate, 4),
        se=t.number(se, 4),
        exact=t.number(float(exact), 4),
        z=t.number(abs(z), 1),
    )


# --------------------------------------------------------------------------- the exercises
# Each question's words are ``lesson.<key>.question``, ``.hint`` and ``.solution`` in lessons.po;
# the functions below compute the exact answer and the numbers the words quote.
PART_A = "04a_more_cards_out"
PART_A2 = "04a_more_cards_out_2"  # the dead pile and rule A: sections 3 and 4 of part a
PART_B = "04b_trading_and_old_rules"
PART_B2 = "04b_trading_and_old_rules_2"  # Jack-and-Five, Hoyle, all dials: sections 2 to 4 of part b


def _bite() -> Worked:
    return bite(51, 9), {"U": 51, "n": 9}


def _eight_five() -> Worked:
    return hold(51, 2, 35), {"U": 51, "n": 35}


def _crossing() -> Worked:
    prices = fair_price_table()
    first = next(n for n, p3, p4 in zip(PLAYERS, prices[3], prices[4]) if p4 < p3)
    return Fraction(first), {"before": first - 1}


def _dead_beats() -> Worked:
    return 1 - hold(42, 2, 3), {"U": 42, "n": 3}


def _long_run_figures() -> tuple[int, Decimal]:
    """The antes and the carry-over chance as the question gives them (q ≈ 0.1667, four places)."""
    rules = Rules(players=4, dead_hand=True)
    return sum(rules.antes(0)), as_shown(carry_over_chance(rules))


def _long_run() -> Worked:
    # checked against the question's own figures: A/(1 − 0.1667), not the unstated exact q
    A, q = _long_run_figures()
    return long_run_pot(A, Fraction(q)), {"A": A, "q": q}


def _long_run_within() -> tuple[Fraction, Fraction]:
    A, q = _long_run_figures()
    low, high = spread(q)
    return long_run_pot(A, low), long_run_pot(A, high)


def _rule_a_eight() -> Worked:
    return rule_a_floor(8), {"U": 30, "n": 3}


def _two_cards() -> Worked:
    game = Game.deal(Rules(players=5, blind_trading=True), seed=32)
    most, _, _ = trade_values(game, buyer=0, seller=2, count=2)
    one, _, _ = trade_values(game, buyer=0, seller=1, count=1)
    return most, {"one": one}


def _jack_five() -> Worked:
    game = Game.deal(Rules(players=4, jack_five=True), seed=24)
    unseen = sum(1 for card in full_deck() if card.rank in (5, 11) and card not in game.seen)
    return jack_five_bound(game), {"N": sum(game.face_down), "j": unseen, "U": game.unseen}


def _hoyle() -> Worked:
    return Fraction(comb(39, 9), comb(51, 9)), {}


for _key, _part, _compute, _digits, _unit in (
    ("l4a.bite", PART_A, _bite, 2, None),  # the solution says "about 3.2 percentage points": 3.2% is right
    ("l4a.eight_five", PART_A, _eight_five, 3, None),
    ("l4a.crossing", PART_A, _crossing, 1, None),
    ("l4a.dead_beats", PART_A2, _dead_beats, 3, None),
    ("l4a.long_run", PART_A2, _long_run, 3, "chips"),
    ("l4a.rule_a_eight", PART_A2, _rule_a_eight, 3, None),
    ("l4b.two_cards", PART_B, _two_cards, 3, "chips"),
    ("l4b.jack_five", PART_B2, _jack_five, 3, None),
    ("l4b.hoyle", PART_B2, _hoyle, 3, None),
):
    within = _long_run_within if _key == "l4a.long_run" else None
    register(Question(_key, _part, _compute, digits=_digits, unit=_unit, within=within))


# --------------------------------------------------------------------------- the student's own model
def check_hold(function: Callable[[int, int, int], Any], lang: str = "en") -> str:
    """Compare a student's ``function(U, h, n)`` with O1 on a grid of cases; say what is wrong."""
    t = translator(lang)
    cases = [(51, 2, 9), (51, 2, 12), (51, 1, 15), (45, 3, 6), (40, 0, 10), (30, 2, 3), (49, 4, 20)]
    try:
        for U, h, n in cases:
            expected = hold(U, h, n)
            value = student_value(t, function, (U, h, n), _probability, "lesson.l4.model.error", U=U, h=h, n=n)
            if abs(value - float(expected)) > 1e-9:
                return t("lesson.l4.model.wrong", U=U, h=h, n=n, **_wrong(t, value, expected))
    except Verdict as verdict:
        return str(verdict)
    return t("lesson.l4.model.right", count=len(cases))


def _wrong(t: Translator, value: float, expected: Fraction) -> dict[str, str]:
    """A wrong number's words in lesson 4's model checks: the student's value and the engine's
    (4 decimals), and which way it is off."""
    return {"value": f"{value:.4f}", "expected": f"{float(expected):.4f}", "way": way(t, value, expected)}


def _probability(got: Any) -> float:
    """A student's probability as a float: a float as it is, anything else read exactly first."""
    return float(got if isinstance(got, float) else Fraction(got))


def solution_hold(U: int, h: int, n: int) -> Fraction:
    """The worked solution of the model cell of part 04a (for the tests and the answer key)."""
    return Fraction(comb(U - h, n), comb(U, n))


def check_trade_value(function: Callable[[Game, int, int, int], Any], lang: str = "en") -> str:
    """Compare a student's ``function(game, buyer, seller, count)`` (the most the buyer should pay
    for a blind trade) with :func:`trade_values` on seeded deals; say what is wrong."""
    t = translator(lang)
    cases = [
        (Rules(players=5, blind_trading=True), 32, 0, 1, 3),
        (Rules(players=5, blind_trading=True), 32, 0, 2, 1),
        (Rules(players=4, blind_trading=True, dead_hand=True), 12, 0, 1, 2),
    ]
    try:
        for rules, seed, buyer, seller, count in cases:
            game = Game.deal(rules, seed=seed)
            if game.over:
                continue
            expected, _, _ = trade_values(game, buyer, seller, count)
            args = (game.copy(), buyer, seller, count)
            value = student_value(t, function, args, float, "lesson.l4.model.trade_error")
            if abs(value - float(expected)) > 1e-9:
                return t("lesson.l4.model.trade_wrong", seed=seed, count=count, **_wrong(t, value, expected))
    except Verdict as verdict:
        return str(verdict)
    return t("lesson.l4.model.right", count=len(cases))


def solution_trade_value(game: Game, buyer: int, seller: int, count: int) -> Fraction:
    """The worked solution of the model cell of part 04b."""
    before = game.stacks[buyer] + odds.expected_net(game, buyer)
    after = game.copy()
    after.blind_trade(buyer, seller, count, 1)
    return after.stacks[buyer] + 1 + odds.expected_net(after, buyer) - before
