"""A moment as a link, a game or a session as a file (speculation_nb.links.share).

The link must reopen exactly the moment (G1-G4: the session's seed fixes the
cards of every deal, the moves say what people did), carry only what differs from
the defaults, and refuse, with a catalog key, anything that does not replay.
A save must round-trip, and a hostile file must be refused with a reason.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb import Game, Rules, Session, players
from speculation_nb.engine.actions import Action
from speculation_nb.languages.translator import available_languages, catalog, error_text, placeholders, translator
from speculation_nb.links.check import add_check
from speculation_nb.links.share import (
    MAX_SAVE_BYTES,
    ShareError,
    decode_moves,
    encode_moves,
    link_base,
    moment_link,
    moment_query,
    read_save,
    read_shared_moment,
    save_name,
)

NAMES = ["Fanny", "Edmund", "Mary", "Henry", "William", "Julia", "Maria", "Tom"]


def params(query: str) -> dict[str, str]:
    return dict(parse_qsl(query, keep_blank_values=True))


def play_session(rules: Rules, seed: int, deals: int, choices: st.DrawFn | None = None, bids: bool = True) -> Session:
    """A session played by the computer players (people's bids stand in for theirs): a few
    deals with auctions, sales and withdrawals, then part of one more."""
    session = Session(rules, NAMES[: rules.players], deals=10, seed=seed)
    strategies = players.table_strategies(rules.players, "mixed", [])
    for number in range(deals):
        game = session.game
        steps = 0
        while not game.over and steps < 200:
            steps += 1
            if bids and game.auction is None and game.can_open_auction() and steps % 3 == 0:
                game.open_auction()
                players.computer_bids(game, strategies)
                players.computer_decision(game, strategies[game.holder])
            elif game.auction is not None:
                game.decline()
            else:
                game.reveal()
            if number == deals - 1 and steps >= 4:
                break
        if number < deals - 1 and session.next_deal() is None:
            break  # the session ended by the ante (G3): a player cannot pay it
    return session


def reopen(query: str) -> Session:
    moment = read_shared_moment(params(query))
    assert moment is not None
    return moment.session(NAMES)


# --------------------------------------------------------------------- the moves
def test_the_moves_are_compact_and_url_safe():
    history = [
        Action.make("reveal", seat=1),
        Action.make("reveal", seat=2),
        Action.make("open_auction"),
        Action.make("bid", seat=3, amount=12),
        Action.make("bid", seat=4, amount=0),
        Action.make("accept", seat=3),
        Action.make("reveal", seat=4),
        Action.make("decline"),
        Action.make("blind_trade", buyer=1, seller=2, count=1, price=5),
    ]
    text = encode_moves([history, [], history[:2]])
    assert text == "r2ob3.12b4.0a3rdt1.2.1.5__r2"
    assert set(text) <= set("abcdefghijklmnopqrstuvwxyz0123456789._")
    decoded = decode_moves(text)
    assert [a for a in decoded[0] if a is not None] == [a for a in history if a.kind != "reveal"]
    assert [a is None for a in decoded[0]] == [a.kind == "reveal" for a in history]
    assert decoded[1] == [] and decoded[2] == [None, None]


@pytest.mark.parametrize("text", ["x", "r2q", "b1", "b1.2.3", "a", "r0", "r1001", "t1.2", "R2", "r2 ", "b-1.2", "o1"])
def test_moves_that_cannot_be_read_are_refused(text):
    with pytest.raises(ShareError) as info:
        decode_moves(text)
    assert info.value.key in ("share.bad_moves", "share.too_long")


# --------------------------------------------------------------------- the link
def test_G1_a_fresh_session_has_a_short_link():
    session = Session(Rules(players=5), NAMES[:5], deals=10, seed=42)
    assert moment_query(session, default_names=NAMES) == add_check("seed=42&deal=1&moves=")
    assert reopen("seed=42&deal=1&moves=").game.to_json() == session.game.to_json()


def test_G2_the_link_reopens_the_same_moment_after_bids_and_sales():
    rules = Rules(players=4, jack_five=True, price_cap=12)
    session = play_session(rules, seed=2026, deals=3)
    assert any(a.kind == "accept" for g in session.games for a in g.history), "the seed should sell a trump"
    step = len(session.game.history) - 2
    query = moment_query(session, step, {"mode": "classroom", "lang": "de"}, NAMES)
    got = params(query)
    # only what differs from the defaults: no hand, no v2, no deals, no names
    assert got["players"] == "4" and got["v1"] == "1" and got["cap"] == "12" and got["mode"] == "classroom"
    assert got["lang"] == "de" and got["seed"] == "2026" and got["deal"] == "3" and got["step"] == str(step)
    assert not {"hand", "v2", "v3", "ante", "chips", "deals", "name1", "you", "preset"} & set(got)
    moment = read_shared_moment(got)
    assert moment is not None and moment.step == step and moment.app["mode"] == "classroom"
    again = moment.session(NAMES)
    assert again.to_json() == session.to_json()
    assert again.game.at(step).to_json() == session.game.at(step).to_json()


def test_the_seed_and_the_step_alone_do_not_make_a_moment():
    with pytest.raises(ShareError) as info:
        read_shared_moment({"seed": "42", "step": "7"})
    assert info.value.key == "share.no_moves"
    with pytest.raises(ShareError) as info:
        read_shared_moment({"deal": "1", "moves": "r3"})
    assert info.value.key == "share.no_seed"
    assert read_shared_moment({"seed": "42", "lang": "de"}) is None  # no moment: the app's own settings


def test_settings_names_and_the_session_end_travel_in_the_link():
    rules = Rules(players=3, hand_size=4, dead_hand=True, ante="uniform", uniform_ante=5, start_chips=80)
    session = Session(rules, ["Lady Bertram", "Sir Thomas", "Mary"], deals=1, seed=7)
    while not session.game.over:
        session.game.reveal()
    assert session.next_deal() is None and session.ended == "deals"
    query = moment_query(session, None, {"human": 2, "temperament": "bold"}, NAMES)
    got = params(query)
    assert got["name1"] == "Lady Bertram" and got["name2"] == "Sir Thomas" and "name3" not in got
    assert got["end"] == "deals" and got["deals"] == "1" and got["you"] == "3" and got["temperament"] == "bold"
    assert got["hand"] == "4" and got["v2"] == "1" and got["ante"] == "5" and got["chips"] == "80"
    moment = read_shared_moment(got)
    assert moment is not None and moment.app["human"] == 2 and moment.app["temperament"] == "bold"
    again = moment.session(NAMES)
    assert again.over and again.ended == "deals" and again.to_json() == session.to_json()


def test_the_mansfield_cast_plays_six_by_default():
    session = Session(Rules(players=6), list(players.mansfield_park(6).names), seed=3)
    cast = list(players.mansfield_park(6).names)
    got = params(moment_query(session, None, {"temperament": "mansfield"}, cast))
    assert got["cast"] == "mansfield" and "players" not in got and got["deals"] == "none"
    moment = read_shared_moment(got)
    assert moment is not None and moment.rules.players == 6 and moment.deals is None
    assert moment.session(cast).names == cast


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"seed": "abc"}, "share.bad_value"),
        ({"seed": str(2**63)}, "share.bad_value"),
        ({"players": "9"}, "share.bad_value"),
        ({"v1": "yes"}, "share.bad_switch"),
        ({"mode": "chaos"}, "share.bad_choice"),
        ({"preset": "hoyle1847", "v1": "1"}, "share.bad_rules"),
        ({"deal": "2"}, "share.deal_count"),
        ({"step": "999"}, "share.bad_step"),
        ({"end": "deals"}, "share.bad_end"),
        ({"name2": " "}, "share.bad_name"),
        ({"moves": "r2d"}, "share.not_replay"),  # P2: no auction is open to decline
        ({"moves": "r40"}, "share.not_replay"),  # P7: the deal ends before 40 cards
        ({"moves": "r2_r", "deal": "2"}, "share.deal_not_over"),
        ({"moves": "z"}, "share.bad_moves"),
    ],
)
def test_a_link_that_does_not_replay_is_refused_with_a_reason(change, key):
    good = {"players": "4", "seed": "42", "deal": "1", "moves": "r3"}
    assert read_shared_moment(good) is not None
    with pytest.raises(ShareError) as info:
        read_shared_moment({**good, **change})
    error = info.value
    assert error.key == key, str(error)
    english = catalog("en")
    assert error.catalog_key in english
    assert placeholders(english[error.catalog_key]) <= set(error.params) | {"reason"}
    if key == "share.not_replay":
        assert error.cause is not None and error.cause.rule  # the rule that refused it, worded by the app


def test_every_share_and_save_key_is_in_every_language_with_the_same_placeholders():
    english = catalog("en")
    keys = [k for k in english if k.startswith(("error.share.", "error.save.", "label.share.", "label.sim."))]
    assert len(keys) > 30
    for lang in available_languages():
        messages = catalog(lang)
        for key in keys:
            assert key in messages, (lang, key)
            assert placeholders(messages[key]) == placeholders(english[key]), (lang, key)
            if lang != "en" and key not in ("label.sim.runs",):
                assert messages[key] != english[key], (lang, key)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), n=st.integers(3, 8), deals=st.integers(1, 3), bids=st.booleans())
def test_G4_any_played_session_reopens_exactly(seed, n, deals, bids):
    rules = Rules(players=n, blind_trading=n > 5)
    session = play_session(rules, seed, deals, bids=bids)
    for step in {0, len(session.game.history) // 2, len(session.game.history)}:
        query = moment_query(session, step, {}, NAMES)
        moment = read_shared_moment(params(query))
        assert moment is not None
        assert moment.session(NAMES).to_json() == session.to_json()
        assert (moment.step if moment.step is not None else len(session.game.history)) == step


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["seed", "deal", "moves", "step", "players", "v1", "cap", "end", "you"]), st.text(max_size=30)
    )
)
def test_hostile_queries_raise_share_errors_only(query):
    try:
        read_shared_moment(query)
    except ShareError as error:
        assert error.catalog_key in catalog("en")


def test_the_link_is_the_page_address_with_the_query():
    env = {"VOILA_REQUEST_URL": "http://127.0.0.1:8866/?seed=1"}
    assert link_base(env) == "http://127.0.0.1:8866/"
    assert moment_link("seed=2&deal=1&moves=", env) == "http://127.0.0.1:8866/?seed=2&deal=1&moves="
    preheated = {"SERVER_NAME": "school.example", "SERVER_PORT": "8866", "SCRIPT_NAME": "/"}
    assert link_base(preheated) == "http://school.example:8866/"
    # a refilled preheated kernel keeps an earlier page's VOILA_REQUEST_URL: its own request wins
    stale = {**preheated, "VOILA_REQUEST_URL": "https://other.example:1/old/?seed=1"}
    assert link_base(stale) == "https://school.example:8866/"
    hub = {
        "VOILA_REQUEST_URL": "https://hub.example/user/fanny/voila/render/notebooks/app.ipynb?x=1",
        "JUPYTERHUB_SERVICE_PREFIX": "/user/fanny/",
        "JUPYTERHUB_BASE_URL": "/",
    }
    assert link_base(hub) == "https://hub.example/hub/user-redirect/voila/render/notebooks/app.ipynb"
    assert moment_link("seed=2", {}) == "?seed=2"  # a static page: the query goes after its own address


# --------------------------------------------------------------------- the files
def test_a_saved_game_and_a_saved_session_round_trip():
    session = play_session(Rules(players=5), seed=11, deals=2)
    loaded = read_save(session.to_json().encode())
    assert isinstance(loaded, Session) and loaded.to_json() == session.to_json()
    game = read_save(session.game.to_json())
    assert isinstance(game, Game) and game.to_json() == session.game.to_json()
    assert save_name(session) == "speculation-session-11-deal-2.json"
    assert save_name(Game.deal(Rules(players=3), seed=5)) == "speculation-deal-5.json"


def _saved_session() -> dict:
    return json.loads(play_session(Rules(players=4), seed=5, deals=1).to_json())


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"\xff\xfe not utf-8", "save.not_text"),
        (b"{not json", "save.not_json"),
        (b"NaN", "save.not_json"),
        (b'{"a": NaN}', "save.not_json"),
        (b"[" * 100_000 + b"]" * 100_000, "save.not_json"),
        (b"[]", "save.not_a_save"),
        (b'{"format": "speculation_nb.game"}', "save.version"),
        (b'{"format": "speculation_nb.game", "version": true}', "save.version"),
        (b'{"format": "speculation_nb.game", "version": 1}', "save.damaged"),
        (b'{"format": "something else", "version": 1}', "save.not_a_save"),
        (b" " * (MAX_SAVE_BYTES + 1), "save.too_large"),
    ],
)
def test_files_that_are_not_saves_are_refused(data, key):
    with pytest.raises(ShareError) as info:
        read_save(data)
    assert info.value.key == key


def test_a_tampered_save_is_refused_and_names_why():
    data = _saved_session()
    data["games"][0]["actions"].insert(0, {"action": "bid", "seat": 1, "amount": 3})  # P2: no auction is open
    with pytest.raises(ShareError) as info:
        read_save(json.dumps(data))
    assert info.value.key == "save.damaged" and "illegal" in info.value.params["detail"]
    data = _saved_session()
    data["seed"] = data["seed"] + 1  # the deals no longer follow from the seed
    with pytest.raises(ShareError):
        read_save(json.dumps(data))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda x: st.lists(x, max_size=4) | st.dictionaries(st.text(max_size=8), x, max_size=4),
    max_leaves=20,
)
SAVED = _saved_session()
FIELDS = (
    [("top", k) for k in SAVED]
    + [("game", k) for k in SAVED["games"][0]]
    + [("deal", k) for k in SAVED["games"][0]["deal"]]
)


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_a_save_with_any_field_replaced_loads_or_is_refused_never_crashes(where, value):
    data = json.loads(json.dumps(SAVED))
    part, key = where
    target = {"top": data, "game": data["games"][0], "deal": data["games"][0]["deal"]}[part]
    target[key] = value
    try:
        text = json.dumps(data)
    except ValueError:  # a float JSON cannot carry: nothing to test
        return
    try:
        loaded = read_save(text)
    except ShareError as error:
        assert error.catalog_key in catalog("en")
    else:
        assert isinstance(loaded, Session)


def test_a_session_with_names_longer_than_the_tables_limit_still_saves_loads_and_shares():
    """Two name limits, each named for what it limits: a student's name at the shared table
    (``MAX_MEMBER_NAME``, T2) is shorter than a seat's name in a session (``MAX_PLAYER_NAME``):
    a session whose names are longer than the table's limit saves, loads and is shared whole."""
    from speculation_nb.classroom.seating import MAX_MEMBER_NAME
    from speculation_nb.engine.checks import MAX_PLAYER_NAME

    assert MAX_MEMBER_NAME < MAX_PLAYER_NAME
    names = ["F" * MAX_PLAYER_NAME, "E" * (MAX_MEMBER_NAME + 1), "Mary"]
    session = Session(Rules(players=3), names, deals=2, seed=5)
    session.game.reveal()
    loaded = read_save(session.to_json())
    assert isinstance(loaded, Session) and loaded.names == names
    moment = read_shared_moment(params(moment_query(session)))
    assert moment is not None and moment.session().names == names


@pytest.mark.parametrize(
    ("moves", "deal", "rule", "good"),
    [("r2d", "1", "P2", 2), ("r2ob2.3r3", "1", "P2", 4), ("r40", "1", "P7", None), ("r2_r", "2", "", 2)],
)
def test_a_link_whose_replay_stops_opens_at_the_last_good_move_and_says_why(moves, deal, rule, good):
    """Issue 23: with ``stop=True`` (the app's reader) the moment before the refused move, not a
    refusal; ``stopped`` names the rule, worded in every language."""
    query = {"players": "4", "seed": "42", "deal": deal, "moves": moves}
    moment = read_shared_moment(query, stop=True)
    assert moment is not None and moment.stopped is not None
    game = moment.session(NAMES).game
    if good is None:  # P7: the deal ended before the link's last card: it stops where the deal ends
        assert game.over
    else:
        assert len(game.history) == good and moment.deal == 1 and moment.step is None
    if rule:
        assert moment.stopped.key == "share.not_replay" and moment.stopped.cause.rule == rule
    else:
        assert moment.stopped.key == "share.deal_not_over"
    for lang in available_languages():
        t = translator(lang)
        said = t("error.share.stopped", reason=error_text(moment.stopped, t, NAMES))
        assert rule in said and str(moment.stopped.params["deal"]) in said
    with pytest.raises(ShareError):  # the strict reader (files, tests) still refuses it
        read_shared_moment(query)


def test_a_stopped_link_keeps_its_step_when_it_lies_before_the_stop():
    moment = read_shared_moment({"players": "4", "seed": "42", "moves": "r3d", "step": "1"}, stop=True)
    assert moment is not None and moment.stopped is not None and moment.step == 1
    assert len(moment.session(NAMES).game.history) == 3
