"""Composing a moment from its public view (speculation_nb.engine.compose): the same public view and
the same exact odds as the real deal it was taken from, odds equal to brute force over the unseen
cards, every refusal naming its rule, and reachability checked against an exhaustive search."""

from __future__ import annotations

import json
from collections import deque
from itertools import product

import brute_force
import pytest
from game_views import numbers, public
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import composable_games, seeds

from speculation_nb import Card, Game, IllegalAction, Moment, Rules, odds
from speculation_nb.engine.compose import compose
from speculation_nb.languages.translator import available_languages, error_text, translator

R3 = Rules(players=3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game=composable_games(), seed=seeds())
def test_a_real_moment_composed_again_has_its_public_view_and_exact_odds(game, seed):
    moment = Moment.of(game)
    again = Game.compose(moment, seed=seed)
    assert public(again) == public(game)
    assert Moment.of(again) == moment
    assert numbers(again) == numbers(game)
    text = json.dumps(moment.to_dict(), sort_keys=True)
    assert Moment.from_dict(json.loads(text)) == moment
    assert all(c.code not in text for c in again.initial_layout.stock)  # nothing face down in it


def test_the_face_down_cards_come_from_the_seed_or_a_secret_one():
    game = Game.from_layout(R3, [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2S", "3S", "4S"]], "QH")
    game.reveal()
    moment = Moment.of(game)
    assert compose(moment, seed=9).initial_layout == compose(moment, seed=9).initial_layout
    layouts = {compose(moment).initial_layout for _ in range(5)}  # SystemRandom: fresh each time
    assert len(layouts) > 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game=composable_games(most=60), seed=seeds())
def test_composed_odds_equal_brute_force_over_the_unseen_cards(game, seed):
    assume(brute_force.arrangement_count(game) <= 400)
    composed = compose(Moment.of(game), seed=seed)
    exact = brute_force.exact(composed)
    assert odds.hold_probability(composed) == exact.hold
    assert odds.win_probabilities(composed) == exact.win
    assert odds.expected_pot(composed) == exact.pot


# ----------------------------------------------------------------------------- refusals
def _m(**changes):
    base = dict(
        rules=R3, dealer=0, turn_up="QH", face_up=((), ("2C",), ("KH",)), face_down=(3, 2, 2),
        holder=2, best_trump="KH", stacks=(54, 56, 56), pot=14,
    )  # fmt: skip
    base.update(changes)
    return Moment(**base)


REFUSED = [
    ("S3", "compose_card_twice", dict(face_up=((), ("2C",), ("KH", "2C")), face_down=(3, 2, 1))),
    ("S3", "compose_card_twice", dict(face_up=((), ("QH",), ("KH",)))),
    ("S5", "compose_ace", dict(turn_up="AH", face_up=((), (), ()), face_down=(3, 3, 3), holder=0, best_trump="AH")),
    ("S3", "compose_pile_size", dict(face_down=(3, 3, 2))),
    ("V2", "compose_dead", dict(dead=3)),
    ("P6", "compose_best_not_up", dict(best_trump="JH")),
    ("P6", "compose_best_not_up", dict(best_trump="2C")),
    ("P6", "compose_higher_trump", dict(face_up=((), ("AH",), ("KH",)))),
    ("P2", "compose_holder_unpaid", dict(holder=1)),
    ("P2", "compose_paid_own", dict(paid=3)),
    ("P2", "compose_price_low", dict(holder=1, paid=0)),
    ("V4", "compose_price_cap", dict(rules=Rules(players=3, price_cap=5), holder=1, paid=6)),
    ("P4", "compose_holder_revealed", dict(face_up=((), ("2C",), ("KH", "3C")), face_down=(3, 2, 1))),
    (
        "P4",
        "compose_holder_revealed",
        dict(face_up=(("3C",), ("2C",), ()), face_down=(2, 2, 3), holder=0, best_trump="QH"),
    ),
    ("P7", "compose_over", dict(face_up=(("3C", "4C", "6C"), ("2C", "7C", "8C"), ("KH",)), face_down=(0, 0, 2))),
    ("G4", "compose_chips", dict(pot=10, stacks=(54, 56, 60))),
    ("G4", "compose_chips", dict(pot=13)),
    ("P3", "compose_out_of_turn", dict(face_up=((), ("2C", "3C"), ("KH",)), face_down=(3, 1, 2))),
    ("P3", "compose_out_of_turn", dict(face_up=(("3C",), (), ("KH",)), face_down=(2, 3, 2))),
    ("P3", "compose_turn", dict(turn=1)),
]


@pytest.mark.parametrize(("rule", "key", "changes"), REFUSED)
def test_every_refusal_names_its_rule_and_is_worded_in_every_language(rule, key, changes):
    with pytest.raises(IllegalAction) as info:
        compose(_m(**changes), seed=1)
    error = info.value
    assert isinstance(error, ValueError) and error.rule == rule and error.key == key
    assert str(error).startswith(f"{rule}: ")
    for lang in available_languages():
        t = translator(lang)
        assert t.has(f"error.{key}"), (lang, key)
        text = error_text(error, t)
        assert rule in text and "{" not in text


def test_malformed_descriptions_are_value_errors():
    for bad in (dict(face_up=((), ())), dict(face_down=(3, -1, 2)), dict(holder=3), dict(turn_up="1X"), dict(pot=1.5)):
        with pytest.raises(ValueError):
            _m(**bad)
    for data in (None, {}, {**_m().to_dict(), "piles": []}):
        with pytest.raises(ValueError):
            Moment.from_dict(data)
    with pytest.raises(ValueError):
        compose("not a moment")  # type: ignore[arg-type]


def test_a_sold_turn_up_and_a_sale_after_reveals_compose():
    game = Game.deal(Rules(players=4, preset="hoyle1847"), seed=3, dealer=1)
    game.open_auction()
    game.bid(3, 7)
    game.accept(3)  # hoyle (a): the dealer's left of the buyer, seat 0, is due
    for _ in range(4):
        if game.best_trump != game.turn_up:
            break
        game.reveal()
    assume_live = not game.over and game.best_trump == game.turn_up
    if assume_live:
        again = compose(Moment.of(game), seed=2)
        assert public(again) == public(game)
        assert Moment.of(game).paid == 7


# ----------------------------------------------------------------------------- reachability by brute force
TRUMPS = ["3H", "9H", "KH"]  # under, between and over the turn-up QH
OTHERS = ["2C", "4D", "6S", "8C"]


def reachable(rules: Rules, dealer: int, face_up, holder: int, best: Card, paid: int | None) -> Game | None:
    """Search every history of reveals and one sale of ``best`` to ``holder`` (any time) for this view."""
    deck = [c for c in brute_force.full_deck() if c.rank < 8 and c.suit != "H"]
    fill = iter(c for c in deck if all(c not in up for up in face_up))
    piles = [list(up) + [next(fill) for _ in range(rules.hand_size - len(up))] for up in face_up]
    start = Game.from_layout(rules, piles, "QH", dealer=dealer)
    queue = deque([(start, False)])
    while queue:
        game, sold = queue.popleft()
        if game.over:
            continue
        view = game.face_up
        if any(len(view[s]) > len(face_up[s]) for s in range(rules.players)):
            continue
        there = view == [list(u) for u in face_up] and game.holder == holder and game.best_trump == best
        if there and sold == (paid is not None):
            return game
        queue.append((_then(game, "reveal"), sold))
        if paid is not None and not sold and game.best_trump == best and game.holder != holder:
            queue.append((_then(game, "sale", holder, paid), True))
    return None


def _then(game: Game, kind: str, buyer: int = 0, price: int = 0) -> Game:
    game = game.copy()
    if kind == "reveal":
        game.reveal()
    else:
        game.open_auction()
        game.bid(buyer, price)
        game.accept(buyer)
    return game


@st.composite
def small_views(draw):
    rules = draw(st.sampled_from([R3, Rules(players=3, preset="hoyle1847")]))
    cards = draw(st.permutations(TRUMPS + OTHERS))
    sizes = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3))
    assume(sum(sizes) <= len(cards))
    face_up, at = [], 0
    for size in sizes:
        face_up.append(tuple(Card.parse(c) for c in cards[at : at + size]))
        at += size
    return rules, draw(st.integers(0, 2)), tuple(face_up), draw(st.integers(0, 2)), draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(view=small_views())
def test_compose_accepts_exactly_the_moments_an_exhaustive_search_reaches(view):
    rules, dealer, face_up, holder, bought = view
    seen = [c for up in face_up for c in up if c.suit == "H"] + [Card.parse("QH")]
    best = max(seen, key=lambda c: c.rank)
    paid = 2 if bought else None
    found = reachable(rules, dealer, face_up, holder, best, paid)
    if found is not None:
        stacks, pot = found.stacks, found.pot
    else:
        stacks, pot = [60 - a for a in rules.antes(dealer)], sum(rules.antes(dealer))
    down = [3 - len(u) for u in face_up]
    moment = Moment(rules, dealer, "QH", face_up, down, holder, best, stacks, pot, paid=paid)
    try:
        composed = compose(moment, seed=0)
    except IllegalAction:
        composed = None
    assert (composed is None) == (found is None), (moment, found)
    if found is not None:  # with the seat due given, the very view
        due = Moment(rules, dealer, "QH", face_up, down, holder, best, stacks, pot, paid=paid, turn=found.turn)
        assert public(compose(due, seed=0)) == public(found)


def test_the_search_space_is_not_trivial():
    counts = {True: 0, False: 0}
    for sizes in product(range(3), repeat=3):
        face_up = [
            tuple(Card.parse(c) for c in (OTHERS + TRUMPS[:1])[sum(sizes[:s]) : sum(sizes[: s + 1])]) for s in range(3)
        ]
        found = reachable(R3, 0, face_up, 0, Card.parse("QH"), None)
        counts[found is not None] += 1
    assert counts[True] and counts[False]


def test_the_module_docstring_example_runs():
    import doctest

    from speculation_nb.engine import compose as module

    assert doctest.testmod(module).failed == 0
