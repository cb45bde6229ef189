"""Bad input refused at the door with a short, clear message; long input the program writes accepted.

Sessions the app can produce load however long they are (the work is bounded by counts, not by the
length of the text); huge integers, negative seeds, numpy integers, overlong or unencodable names and
hostile text are handled as RULES.md and API.md say: refused with the reason in words, or accepted as
the whole numbers they are.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from rules_helpers import EVERY_VARIANT

from speculation_nb import Card, Game, IllegalAction, Rules, Session, odds
from speculation_nb.engine.actions import Action
from speculation_nb.engine.checks import MAX_CHIPS, MAX_PLAYER_NAME, MAX_QUOTED, MAX_SEED, parse_seed, quote
from speculation_nb.engine.saving import MAX_DEALS, MAX_JSON_CHARS

HUGE = 10**5000
LONG = "x" * 990_000
#: A refusal quotes at most MAX_QUOTED characters of what it refuses, in a message of a few lines.
SHORT = 400


def long_session(rules: Rules, deals: int, seed: int = 7) -> Session:
    """A session of ``deals`` deals played quickly (seeded): mostly reveals, now and then an auction."""
    session = Session(rules, [f"Player {i}" for i in range(rules.players)], deals=deals, seed=seed)
    rng = random.Random(seed)
    while True:
        game = session.game
        while not game.over:
            if game.auction is None and rng.random() < 0.08:
                game.open_auction()
                for seat in range(rules.players):
                    span = game.bid_range(seat)
                    if span and rng.random() < 0.5:
                        game.bid(seat, rng.randint(span[0], min(span[1], span[0] + 3)))
                if game.auction and rng.random() < 0.5:
                    game.accept(rng.choice(game.acceptable()))
                else:
                    game.decline()
            elif rules.blind_trading and rng.random() < 0.05 and game.face_down[game.holder] < 8:
                sellers = [s for s in range(rules.players) if s != game.holder and game.face_down[s]]
                if sellers and game.stacks[game.holder] > 0:
                    game.blind_trade(game.holder, rng.choice(sellers), 1, 1)
                else:
                    game.reveal()
            else:
                game.reveal()
        if session.next_deal() is None:
            return session


LONG_SESSIONS = {
    "1,001 deals of 5x3": (Rules(players=5, start_chips=10_000), 1001),
    "601 deals of 8x5, every variant": (Rules(players=8, **EVERY_VARIANT, uniform_ante=9, start_chips=10_000), 601),
    "1,000 deals with 100,000 chips": (Rules(players=5, start_chips=100_000), 1000),
}


@pytest.mark.parametrize("rules, deals", LONG_SESSIONS.values(), ids=LONG_SESSIONS.keys())
def test_a_long_session_the_app_can_produce_loads(rules, deals):
    """G3: a session saved after many deals loads again exactly, however long its text."""
    session = long_session(rules, deals)
    assert session.deal_number == deals and session.over
    text = session.to_json()
    assert len(text) > MAX_JSON_CHARS  # the old limit refused every one of these
    loaded = Session.from_json(text)
    assert loaded.to_json() == text
    assert loaded.standings() == session.standings()


def test_a_session_beyond_the_counts_is_refused_with_the_count():
    session = long_session(Rules(players=3, start_chips=10_000), 2)
    data = json.loads(session.to_json())
    data["games"] = data["games"] * (MAX_DEALS // 2 + 1)
    with pytest.raises(ValueError, match="deals is more than a session may have") as refused:
        Session.from_json(json.dumps(data))
    assert len(str(refused.value)) < SHORT
    game = Game.deal(Rules(players=3), seed=1)
    data = json.loads(game.to_json())
    data["actions"] = [{"action": "open_auction"}, {"action": "decline"}] * 5001
    with pytest.raises(ValueError, match="actions is more than a deal may have"):
        Game.from_dict(data)


def test_a_session_without_an_agreed_number_of_deals_ends_at_the_count():
    """G3: with no agreed number the session ends (``deals``) once it has as many deals as can be loaded."""
    with pytest.raises(ValueError, match="G3"):
        Session(Rules(players=3), deals=MAX_DEALS + 1)
    assert Session(Rules(players=3), deals=MAX_DEALS).deals == MAX_DEALS


# --------------------------------------------------------------------- huge integers
R4 = Rules(players=4)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Game.deal(R4, seed=HUGE),
        lambda: Game.deal(R4, seed=MAX_SEED + 1),
        lambda: Game.deal(R4, seed=1, stacks=[HUGE] * 4),
        lambda: Game.deal(R4, seed=1, pot=HUGE),
        lambda: Game.from_layout(
            Rules(players=3), [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "TC"]], "2H", stacks=[HUGE] * 3
        ),
        lambda: Rules(players=4, start_chips=HUGE),
        lambda: Rules(players=4, start_chips=MAX_CHIPS + 1),
        lambda: Rules(players=4, ante="uniform", uniform_ante=HUGE),
        lambda: Rules(players=4, price_cap=HUGE),
        lambda: Rules(players=HUGE),
        lambda: Session(R4, seed=HUGE),
        lambda: Session(R4, deals=HUGE),
        lambda: Session(R4, dealer=HUGE),
    ],
)
def test_huge_integers_are_refused_at_the_door(make):
    with pytest.raises(ValueError) as refused:
        make()
    message = str(refused.value)
    assert "whole number" in message or "players" in message, message
    assert "4300" not in message and len(message) < SHORT


def test_the_largest_allowed_numbers_save_and_load():
    rules = Rules(players=4, start_chips=MAX_CHIPS, price_cap=MAX_CHIPS)
    game = Game.deal(rules, seed=MAX_SEED)
    game.open_auction()
    game.bid(1, MAX_CHIPS - 6)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    session = Session(rules, seed=MAX_SEED)
    assert Session.from_json(session.to_json()).to_json() == session.to_json()


def test_huge_amounts_in_actions_are_refused_by_the_rules_with_a_short_message():
    game = Game.deal(R4, seed=3)
    before = game.to_json()
    game.open_auction()
    seat = next(s for s in range(4) if s != game.holder)
    for amount in (HUGE, -HUGE):
        with pytest.raises(IllegalAction) as refused:
            game.bid(seat, amount)
        assert refused.value.rule == "P2" and len(str(refused.value)) < SHORT
    game.decline()
    with pytest.raises(IllegalAction, match=r"^S1"):
        game.reveal(HUGE)
    assert Game.from_json(before).to_json() == before


# --------------------------------------------------------------------- seeds
def test_seeds_are_0_to_2_63_minus_1():
    """A negative seed is refused (seed -1 used to deal exactly seed 1's layout)."""
    with pytest.raises(ValueError, match="seed"):
        Game.deal(R4, seed=-1)
    with pytest.raises(ValueError, match="seed"):
        Session(R4, seed=-1)
    assert Game.deal(R4, seed=0).seed == 0
    assert Game.deal(R4, seed=np.int64(5)).layout() == Game.deal(R4, seed=5).layout()
    data = json.loads(Game.deal(R4, seed=1).to_json())
    data["seed"] = -1
    with pytest.raises(ValueError, match="seed"):
        Game.from_dict(data)


@pytest.mark.parametrize(
    ("typed", "seed"),
    [
        ("42", 42),
        (" 1 000_000 ", 1_000_000),
        ("", None),
        ("  ", None),
        (None, None),
        (7, 7),
        (np.int64(9), 9),
        (str(MAX_SEED), MAX_SEED),
    ],
)
def test_parse_seed_reads_a_seed_a_person_typed(typed, seed):
    assert parse_seed(typed) == seed


@pytest.mark.parametrize(
    "typed", ["abc", "-1", str(MAX_SEED + 1), "1e5", "²", "٣", "4.2", -1, MAX_SEED + 1, True, "9" * 40]
)
def test_parse_seed_refuses_what_is_not_a_seed_0_to_max_seed(typed):
    with pytest.raises(ValueError, match="seed"):
        parse_seed(typed)


# --------------------------------------------------------------------- hostile text
HOSTILE = {
    "a saved game that is a long string": lambda: Game.from_json(json.dumps(LONG)),
    "a long format": lambda: Game.from_dict({**json.loads(Game.deal(R4, seed=1).to_json()), "format": LONG}),
    "a long field name": lambda: Game.from_dict({**json.loads(Game.deal(R4, seed=1).to_json()), LONG: 1}),
    "a long rule setting": lambda: Rules.from_dict({"players": 4, LONG: 1}),
    "a long preset": lambda: Rules(players=4, preset=LONG),
    "a long card": lambda: Card.parse(LONG),
    "a long action": lambda: Action.from_dict({"action": LONG}),
    "a long action field": lambda: Action.from_dict({"action": "reveal", "seat": LONG}),
    "a long name": lambda: Session(Rules(players=3), names=[LONG, "b", "c"]),
    "a long seat": lambda: Game.deal(R4, seed=1).reveal(LONG),
    "a long bid": lambda: _bid(LONG),
    "a long session end": lambda: Session.from_json(_with(Session(R4, seed=1), ended=LONG)),
    "a long list of piles": lambda: Game.from_layout(R4, [LONG] * 4, "2H"),
}


def _bid(amount: object) -> None:
    game = Game.deal(R4, seed=1)
    game.open_auction()
    game.bid((game.holder + 1) % 4, amount)


def _with(session: Session, **fields) -> str:
    return json.dumps({**json.loads(session.to_json()), **fields})


@pytest.mark.parametrize("attempt", HOSTILE.values(), ids=HOSTILE.keys())
def test_refusals_quote_hostile_input_short(attempt):
    with pytest.raises(ValueError) as refused:
        attempt()
    assert len(str(refused.value)) < SHORT, str(refused.value)[:500]


def test_quote_cuts_what_it_quotes():
    assert len(quote(LONG)) <= MAX_QUOTED + 5
    assert quote(HUGE) == "a whole number of about 5001 digits"
    assert quote(12) == "12" and quote("QH") == "'QH'"
    assert len(quote([LONG] * 100)) <= MAX_QUOTED + 5


# --------------------------------------------------------------------- numpy integers
def test_numpy_integers_are_whole_numbers_everywhere():
    """Any numbers.Integral that is not a bool is a whole number: seats, amounts, settings."""
    rules = Rules(players=np.int64(4), hand_size=np.int32(3), start_chips=np.int16(60))
    assert rules == Rules(players=4) and type(rules.players) is int
    assert Rules.from_dict(rules.to_dict()) == rules
    game = Game.deal(rules, seed=np.uint32(9), dealer=np.int8(1))
    game.open_auction()
    seat = np.int64((game.holder + 1) % 4)
    for fn in (odds.break_even, odds.seller_break_even, odds.expected_net, odds.whole_break_even):
        assert fn(game, seat) == fn(game, int(seat))
    assert odds.hold_probability(game, owner=np.int64(1)) == odds.hold_probability(game, owner=1)
    assert odds.expected_net(game, np.int64(0), owner=np.int64(2)) == odds.expected_net(game, 0, owner=2)
    assert odds.explain_hold(game, owner=np.int64(1)) == odds.explain_hold(game, owner=1)
    game.bid(seat, np.int64(2))
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    with pytest.raises(ValueError):
        odds.break_even(game, True)  # a bool is not a seat
    with pytest.raises(ValueError):
        Rules(players=True)


# --------------------------------------------------------------------- names
def test_names_longer_than_max_player_name_are_refused_not_cut():
    names = ["F" * (MAX_PLAYER_NAME + 1), "Edmund", "Mary"]
    with pytest.raises(ValueError, match=f"at most {MAX_PLAYER_NAME} characters"):
        Session(Rules(players=3), names=names)
    saved = json.loads(Session(Rules(players=3), names=["F" * MAX_PLAYER_NAME, "Edmund", "Mary"], seed=2).to_json())
    assert Session.from_json(json.dumps(saved)).names[0] == "F" * MAX_PLAYER_NAME
    saved["names"][0] = "F" * (MAX_PLAYER_NAME + 1)
    with pytest.raises(ValueError, match=f"at most {MAX_PLAYER_NAME} characters"):
        Session.from_json(json.dumps(saved))


def test_a_name_that_cannot_be_saved_is_refused():
    with pytest.raises(ValueError, match="name"):
        Session(Rules(players=3), names=["\ud800", "Edmund", "Mary"])
    saved = json.loads(Session(Rules(players=3), names=["Fanny", "Edmund", "Mary"], seed=2).to_json())
    saved["names"][0] = "\ud800"
    with pytest.raises(ValueError, match="name"):
        Session.from_json(json.dumps(saved))  # json.dumps writes the lone surrogate as \ud800
    ok = Session(Rules(players=3), names=["Fanny ✓", "Edmund", "Mary"], seed=2)
    assert Session.from_json(ok.to_json()).names[0] == "Fanny ✓"


def test_a_fresh_seed_is_a_seed_a_person_can_type_back():
    from speculation_nb.engine.checks import FRESH_SEED_BITS, fresh_seed

    for _ in range(20):
        seed = fresh_seed()
        assert 0 <= seed < 2**FRESH_SEED_BITS <= MAX_SEED and parse_seed(str(seed)) == seed
