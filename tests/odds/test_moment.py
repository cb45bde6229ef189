"""The one moment value (odds/moment.py): public facts only, the odds module's exact numbers
computed once, frozen, and a JSON form every version of the shared table reads (S6, O1-O5)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from game_views import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import random_play, rules_strategy

from speculation_nb import Game, Rules, Session, odds
from speculation_nb.app.model import Controller
from speculation_nb.classroom.moment import Moment, public_moment, read_public_moment
from speculation_nb.engine.cards import Card
from speculation_nb.links.share import moment_query, read_shared_moment
from speculation_nb.odds.moment import DEAL_KEYS, DealMoment

DATA = Path(__file__).parents[1] / "data"


def face_down(game: Game) -> set[Card]:
    layout = game.layout()
    cards = {Card.parse(c) for pile in layout["piles"] for c in pile} | {Card.parse(c) for c in layout["stock"]}
    return (cards | {Card.parse(c) for c in layout.get("dead") or []}) - game.seen


@settings(max_examples=40)
@given(
    rules=rules_strategy(), seed=st.integers(0, 2**32), steps=st.integers(0, 40), rng=st.randoms(use_true_random=False)
)
def test_a_moment_never_holds_a_face_down_card_S6(rules: Rules, seed: int, steps: int, rng: random.Random) -> None:
    game = random_play(rng, Game.deal(rules, seed=seed), steps)
    moment = DealMoment.of(game)
    hidden = face_down(game)
    assert not cards_in(moment) & hidden
    assert not cards_in(moment.to_json()) & hidden
    assert cards_in(moment) == game.seen == moment.seen


@settings(max_examples=30)
@given(
    rules=rules_strategy(), seed=st.integers(0, 2**32), steps=st.integers(0, 40), rng=st.randoms(use_true_random=False)
)
def test_a_moment_carries_the_odds_exactly_and_reads_back_from_its_json_O1_O5(
    rules: Rules, seed: int, steps: int, rng: random.Random
) -> None:
    game = random_play(rng, Game.deal(rules, seed=seed), steps)
    m = DealMoment.of(game)
    assert m.odds.hold == odds.hold_probability(game)
    assert m.odds.win == odds.win_probabilities(game)
    assert m.odds.expected_pot == odds.expected_pot(game)
    assert m.odds.fair == odds.fair_price(game)
    open_ = game.auction is not None and not game.over
    others = [s for s in range(rules.players) if s != game.holder] if open_ else []
    assert m.odds.break_even == {s: odds.break_even(game, s) for s in others}
    assert m.odds.seller_break_even == {s: odds.seller_break_even(game, s) for s in others}
    ex = odds.explain_hold(game)
    assert m.hold_terms == (ex.U, ex.h, ex.n)
    assert m.due == dataclasses.replace(game.legal_actions(), trade={})
    assert (m.step, m.holder, m.best, m.turn, m.over, m.winner) == (
        game.moment,
        game.holder,
        game.best_trump,
        game.turn,
        game.over,
        game.winner,
    )
    text = json.dumps(m.to_json())
    assert DealMoment.from_json(json.loads(text)) == m
    assert set(m.to_json()) == DEAL_KEYS


def test_a_moment_is_frozen() -> None:
    m = DealMoment.of(Game.deal(Rules(players=4), seed=2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.pot = 0  # type: ignore[misc]
    assert hash(m.best) == hash(Game.deal(Rules(players=4), seed=2).best_trump)


def test_a_record_published_before_the_one_moment_still_reads_and_the_format_is_unchanged() -> None:
    """Rolling upgrade: a member's kernel reads a referee's record of the earlier code, and the
    record written now has exactly the earlier keys (an earlier member reads it too)."""
    old = json.loads((DATA / "published_moment_2026_12.json").read_text())
    m = read_public_moment(old)
    assert isinstance(m, Moment) and isinstance(m, DealMoment)
    assert m.players == 4 and m.auction is not None and m.odds.break_even
    session = Session(Rules(players=4, dead_hand=True, jack_five=True), seed=13)
    game = session.game
    game.reveal()
    game.open_auction()
    game.bid((game.holder + 1) % 4, 3)
    game.bid((game.holder + 2) % 4, 5)
    seats = [
        {"kind": k, "members": ["Ann"] if k == "people" else []} for k in ("people", "computer", "free", "teacher")
    ]
    new = public_moment(session, version=7, seats=seats, poll={"id": 1, "open": True, "answers": 2})
    assert json.loads(json.dumps(new, sort_keys=True)) == old  # the very same record, key for key


def test_the_app_the_table_and_the_link_show_one_moment() -> None:
    """The app's model, the referee's record (read back by a student) and a share link all give the
    same DealMoment for the same moment."""
    c = Controller(Rules(players=4), deals=3, seed=5, mode="classroom")
    game = c.game
    game.reveal()
    game.open_auction()
    k = game.moment
    app = c.snapshot()
    assert isinstance(app, DealMoment) and app == DealMoment.of(game)
    published = read_public_moment(public_moment(c.session))
    assert DealMoment(**{f.name: getattr(published, f.name) for f in dataclasses.fields(DealMoment)}) == app
    link = read_shared_moment(dict(pair.split("=") for pair in moment_query(c.session, k - 1).split("&")))
    assert link is not None and link.moment() == DealMoment.of(game.at(k - 1))
