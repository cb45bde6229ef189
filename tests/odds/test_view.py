"""The public view (speculation_nb.odds.view): what every seat sees (S6), read once per moment, hashable;
the odds' prices remembered by it; the layout as a frozen value; the catalogs read without babel."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb import Game, Rules, odds
from speculation_nb import simulate as sim
from speculation_nb.engine.deal import InitialDeal, Layout
from speculation_nb.languages.catalogs import messages, po_files
from speculation_nb.odds import counting
from speculation_nb.odds.view import PublicView, public_view


def random_moment(seed: int) -> Game:
    rng = random.Random(seed)
    players = rng.randint(3, 8)
    if rng.random() < 0.2:
        rules = Rules(players=players, preset="hoyle1847")
    else:
        rules = Rules(
            players=players,
            hand_size=rng.choice([3, 4, 5]),
            jack_five=rng.random() < 0.5,
            dead_hand=rng.random() < 0.4,
            blind_trading=rng.random() < 0.3,
        )
    game = Game.deal(rules, seed=rng.randrange(10**9), dealer=rng.randrange(players))
    for _ in range(rng.randrange(3 * players)):
        if game.over:
            break
        if rules.blind_trading and rng.random() < 0.2 and game.stacks[game.holder] > 0:
            sellers = [s for s in range(players) if s != game.holder and game.face_down[s]]
            if sellers:
                game.blind_trade(game.holder, rng.choice(sellers), 1, 1)
                continue
        game.reveal()
    return game


def rearranged(game: Game, seed: int) -> Game:
    """The same deal at the same moment as every seat sees it, the face-down cards lying differently:
    the unseen cards shuffled among the face-down places (piles, dead pile, stock) before the deal."""
    rng = random.Random(seed)
    layout = game.initial_layout
    turned = {a["seat"]: 0 for a in game.history if a.kind == "reveal"}
    for action in game.history:
        if action.kind == "reveal":
            turned[action["seat"]] += 1
    # only untouched piles may be rearranged without changing what has been turned up
    free = [s for s in range(game.rules.players) if s not in turned]
    places = [c for s in free for c in layout.piles[s]] + list(layout.dead or ()) + list(layout.stock)
    rng.shuffle(places)
    it = iter(places)
    piles = tuple(tuple(next(it) for _ in pile) if s in free else pile for s, pile in enumerate(layout.piles))
    dead = None if layout.dead is None else tuple(next(it) for _ in layout.dead)
    stock = tuple(it)
    other = Game(game.rules, dataclasses.replace(layout, piles=piles, dead=dead, stock=stock))
    for action in game.history:
        other.apply(action)
    return other


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_S6_the_view_is_the_same_however_the_face_down_cards_lie(seed, shuffle):
    game = random_moment(seed)
    if game.over or any(a.kind == "blind_trade" for a in game.history):
        return  # at the end the dead pile is turned up; traded cards move between piles
    other = rearranged(game, shuffle)
    assert public_view(other) == public_view(game)
    assert hash(public_view(other)) == hash(public_view(game))
    if not other.over:
        assert odds.win_probabilities(other) == odds.win_probabilities(game)
        assert [odds.expected_net(other, s) for s in range(game.rules.players)] == [
            odds.expected_net(game, s) for s in range(game.rules.players)
        ]


def test_the_view_is_read_once_per_moment_and_changes_with_every_action():
    game = Game.deal(Rules(players=5, jack_five=True), seed=1)
    first = public_view(game)
    assert public_view(game) is first
    game.open_auction()
    assert public_view(game) is not first and public_view(game) == first  # read again: the same facts
    game.decline()
    game.reveal()
    assert public_view(game) != first
    assert public_view(game.copy()) == public_view(game)


def test_the_view_holds_public_facts_only():
    game = random_moment(3)
    view = public_view(game)
    face_down = {c for p in game.initial_layout.piles for c in p} - game.seen
    assert set(view.unseen_cards) == set(game.initial_layout.stock) | face_down | set(game.initial_layout.dead or ())
    assert view.unseen == 52 - len(game.seen) == len(view.unseen_cards)
    assert view.face_down == tuple(game.face_down) and view.stacks == tuple(game.stacks)
    assert view.trump_up == game.trump_turned_up
    names = {f.name for f in dataclasses.fields(PublicView)}
    assert not names & {"piles", "dead_cards", "stock_cards", "layout"}


def test_the_simulator_and_the_odds_read_the_same_view():
    for seed in range(20):
        game = random_moment(seed)
        if game.over:
            continue
        view, setup = public_view(game), sim.setup(game)
        assert (setup.face_down, setup.holder, setup.best, setup.turn, setup.pot, setup.stacks) == (
            view.face_down,
            view.holder,
            view.best,
            view.turn,
            view.pot,
            view.stacks,
        )
        assert setup.trump_up == view.trump_up and len(setup.codes) == view.unseen


def test_O4_the_remembered_prices_are_the_sums_themselves():
    """break_even, seller_break_even and whole_break_even, remembered by the view, equal the sums of
    odds.counting computed afresh (and expected_net differences, O4)."""
    for seed in range(40):
        game = random_moment(seed)
        if game.over:
            continue
        view, holder = public_view(game), game.holder
        for buyer in range(game.rules.players):
            if buyer == holder:
                assert odds.break_even(game, buyer) == 0 == odds.whole_break_even(game, buyer)
                continue
            be = counting.net(view, buyer, buyer) - counting.net(view, buyer, holder)
            sbe = counting.net(view, holder, holder) - counting.net(view, holder, buyer)
            assert odds.break_even(game, buyer) == be
            gain = odds.expected_net(game, buyer, owner=buyer) - odds.expected_net(game, buyer)
            assert odds.break_even(game, buyer) == gain
            assert odds.seller_break_even(game, buyer) == sbe
            for appetite in (1, Fraction(3, 4), Fraction(5, 4)):
                assert odds.whole_break_even(game, buyer, appetite) == int(appetite * be // 1)


def test_a_layout_is_a_frozen_hashable_value():
    game = Game.deal(Rules(players=4, dead_hand=True), seed=9)
    layout = game.initial_layout
    assert isinstance(layout, InitialDeal) and hash(layout) == hash(game.copy().initial_layout)
    assert Layout is InitialDeal  # the older name still imports
    assert layout == Game.from_json(game.to_json()).initial_layout
    with pytest.raises(dataclasses.FrozenInstanceError):
        layout.pot = 5  # type: ignore[misc]
    assert game.layout() == layout.as_dict()


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_the_catalogs_are_read_as_babel_reads_them(lang):
    """catalogs.read_po (no dependency) gives exactly what babel's PO reader gives."""
    from babel.messages.pofile import read_po

    theirs: dict[str, str] = {}
    for path in po_files(lang):
        with path.open("rb") as handle:
            for m in read_po(handle):
                if m.id and isinstance(m.string, str) and m.string and not m.fuzzy:
                    theirs[m.id] = m.string
    assert messages(lang) == theirs
