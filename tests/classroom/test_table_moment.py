"""The published moment (docs/TABLE.md): public facts only, the odds module's exact numbers, and a
strict reader."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from game_views import cards_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speculation_nb import Rules, Session, odds, players
from speculation_nb.classroom.moment import Moment, QuestionView, public_moment, read_public_moment
from speculation_nb.engine.cards import Card
from speculation_nb.links.query import MAX_QUESTION

RULES = [Rules(players=3), Rules(players=4, dead_hand=True, jack_five=True), Rules(players=5, preset="hoyle1847")]


def played(rules: Rules, seed: int) -> Session:
    """A session whose first deal computer players played to its end (bids, sales and all)."""
    session = Session(rules, seed=seed)
    players.play(session.game, players.table_strategies(rules.players))
    return session


def face_down_at(session: Session, k: int) -> set[Card]:
    """The cards no player can see after ``k`` actions, from the deal's layout."""
    game = session.game.at(k)
    layout = game.layout()
    everything = {Card.parse(c) for pile in layout["piles"] for c in pile}
    everything |= {Card.parse(c) for c in layout.get("dead") or []} | {Card.parse(c) for c in layout["stock"]}
    return everything - game.seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(RULES))), st.integers(0, 10**6), st.floats(0, 1))
def test_the_moment_never_shows_a_face_down_card(which, seed, where):
    session = played(RULES[which], seed)
    last = len(session.game.history)
    k = int(where * last)
    moment = public_moment(session, k)
    hidden = face_down_at(session, k)
    shown = cards_in(moment)
    assert shown and not shown & hidden
    assert shown <= session.game.at(k).seen
    assert json.loads(json.dumps(moment)) == moment


@pytest.mark.parametrize("which", range(len(RULES)))
def test_the_moment_carries_the_odds_modules_numbers_exactly(which):
    session = next(s for s in (Session(RULES[which], seed=seed) for seed in range(11, 99)) if not s.game.over)
    game = session.game
    game.reveal()
    game.open_auction()
    m = read_public_moment(public_moment(session))
    assert m.odds.hold == odds.hold_probability(game)
    assert m.odds.win == odds.win_probabilities(game)
    assert m.odds.expected_pot == odds.expected_pot(game)
    assert m.odds.fair == odds.fair_price(game)
    others = [s for s in range(game.rules.players) if s != game.holder]
    assert m.odds.break_even == {s: odds.break_even(game, s) for s in others}
    assert m.odds.seller_break_even == {s: odds.seller_break_even(game, s) for s in others}
    assert all(isinstance(v, Fraction) for v in m.odds.win.values())
    assert m.due.bid == {s: game.bid_range(s) for s in others if game.bid_range(s) is not None}
    assert m.due.decline == game.holder and m.due.reveal is None
    game.decline()
    m = read_public_moment(public_moment(session))
    assert m.odds.break_even == {} and m.auction is None and m.due.reveal == game.turn


def test_the_moment_reads_back_as_the_game_stands():
    session = played(Rules(players=4), 5)
    for k in range(len(session.game.history) + 1):
        game = session.game.at(k)
        m = read_public_moment(public_moment(session, k, version=k + 1, paused=k == 2))
        assert isinstance(m, Moment)
        assert (m.step, m.last, m.version, m.paused) == (k, len(session.game.history), k + 1, k == 2)
        assert m.live == (k == len(session.game.history))
        assert m.stacks == tuple(game.stacks) and m.pot == game.pot and m.face_down == tuple(game.face_down)
        assert m.dealer == game.dealer
        assert m.face_up == tuple(tuple(up) for up in game.face_up)
        assert (m.best, m.holder, m.turn, m.over, m.winner) == (
            game.best_trump,
            game.holder,
            game.turn,
            game.over,
            game.winner,
        )
        assert m.auction is None or dict(m.auction.bids) == game.auction


def valid() -> dict:
    session = Session(Rules(players=3), seed=2)
    session.game.reveal()
    session.game.open_auction()
    session.game.bid((session.game.holder + 1) % 3, 3)
    return public_moment(session, poll={"id": 1, "open": True, "answers": 2})


BREAKS = [
    lambda m: m.pop("pot"),
    lambda m: m.update(extra=1),
    lambda m: m.update(pot=-1),
    lambda m: m.update(pot="12"),
    lambda m: m.update(live=1),
    lambda m: m.update(holder=3),
    lambda m: m.update(step=m["last"] + 1),
    lambda m: m.update(turn_up="1X"),
    lambda m: m.update(trump="X"),
    lambda m: m.update(stacks=[1, 2]),
    lambda m: m["odds"].update(hold="0.5"),
    lambda m: m["odds"].update(fair=0.5),
    lambda m: m["odds"]["win"].pop("none"),
    lambda m: m["odds"]["win"].update({"7": "1/2"}),
    lambda m: m["auction"]["bids"].update({"01": 3}),
    lambda m: m["seats"][0].update(kind="robot"),
    lambda m: m["due"].update(bid={"1": [1]}),
    lambda m: m.update(poll={"id": 1}),
    lambda m: m.update(last_event={"no": "kind"}),
    lambda m: m.update(names=["a", "b", 3]),
    lambda m: m["face_up"].append([]),
]


@pytest.mark.parametrize("index", range(len(BREAKS)))
def test_a_malformed_moment_raises_value_error(index):
    record = valid()
    assert read_public_moment(record).poll is not None
    broken = copy.deepcopy(record)
    BREAKS[index](broken)
    with pytest.raises(ValueError, match="not a valid moment"):
        read_public_moment(broken)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=5), inner),
)


@given(JSON)
def test_anything_that_is_not_a_moment_raises_value_error_only(data):
    with pytest.raises(ValueError):
        read_public_moment(data)


def test_the_examples_in_the_docstrings_hold():
    import doctest

    from speculation_nb.classroom import moment, poll

    for module in (moment, poll):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_a_moment_of_an_older_referee_without_the_dealer_still_reads():
    """A table resumed from a record published before the moment told the dealer: it reads, with
    no dealer; any other field missing is still refused."""
    record = public_moment(played(Rules(players=3), 2))
    del record["dealer"]
    assert read_public_moment(record).dealer is None
    del record["holder"]
    with pytest.raises(ValueError, match="holder"):
        read_public_moment(record)


@pytest.mark.parametrize("which", range(len(RULES)))
def test_the_published_due_is_the_games_legal_actions_P2_P3(which):
    """Who is due, as the students' buttons read it, is ``Game.legal_actions()`` read back."""
    session = played(RULES[which], 3)
    for k in range(len(session.game.history) + 1):
        game = session.game.at(k)
        m = read_public_moment(public_moment(session, k))
        assert m.due == game.legal_actions()
        for seat in range(game.rules.players):
            assert m.due.of(seat) == game.legal_actions(seat)


def test_issue25_a_question_deals_question_reads_back_and_a_record_without_one_still_reads():
    """The question (only while a question deal is shown) is optional: the session's moments, and
    a moment of an older referee, have none (``question`` None); a typed question of any script
    reads back exactly, up to MAX_QUESTION characters."""
    session = played(Rules(players=3), 2)
    record = public_moment(session)
    assert "question" not in record and read_public_moment(record).question is None
    old = json.loads((Path(__file__).parents[1] / "data" / "published_moment_2026_12.json").read_text())
    assert "question" not in old and read_public_moment(old).question is None
    for bank, words in (("dozen", ""), ("", TYPED), ("", "x" * MAX_QUESTION)):
        asked = public_moment(session, question={"bank": bank, "words": words})
        assert asked["question"] == {"bank": bank, "words": words}
        assert read_public_moment(json.loads(json.dumps(asked))).question == QuestionView(bank, words)


TYPED = '<script>alert(1)</script><img src=x onerror="alert(2)"> مريم: ما الثمن؟'


@pytest.mark.parametrize(
    "question",
    [
        None,
        3,
        "What would you pay?",
        [],
        {"bank": ""},
        {"bank": "", "words": "x", "more": 1},
        {"bank": "", "words": 5},
        {"bank": 1, "words": ""},
        {"bank": "", "words": "x" * (MAX_QUESTION + 1)},
        {"bank": "../dozen", "words": ""},
        {"bank": "d" * 41, "words": ""},
    ],
)
def test_issue25_a_malformed_question_is_refused(question):
    record = public_moment(played(Rules(players=3), 2)) | {"question": question}
    with pytest.raises(ValueError, match="not a valid moment: question"):
        read_public_moment(record)
