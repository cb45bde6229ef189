"""The links' one grammar (speculation_nb.links.query): one table of parameters, one parser, read
by the page's settings and by the share link alike."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speculation_nb import Rules, Session
from speculation_nb.engine.checks import MAX_PLAYER_NAME, MAX_SEED
from speculation_nb.languages.translator import catalog
from speculation_nb.links.check import add_check
from speculation_nb.links.query import (
    CASTS,
    MODES,
    PAGE_SETTINGS,
    PARAMS,
    TEMPERAMENTS,
    ShareError,
    query_params,
    read_query,
    read_value,
)
from speculation_nb.links.share import moment_query, read_shared_link, read_shared_moment
from speculation_nb.players import mansfield_park
from speculation_nb.players.pacing import PACE_CHOICES

#: Share links as earlier versions wrote them (``moment_query`` of 0.x): each keeps opening.
EARLIER_LINKS = [
    "players=4&seed=42&deal=1&moves=r3",
    "lang=it&players=3&preset=hoyle1847&name1=Player%201&name2=Player%202&name3=Player%203&seed=9&deal=1"
    "&moves=r2odr2ob2.4b0.3a2",
    "cast=mansfield&v3=1&name3=Mrs%20Grant&seed=3&deal=1&moves=r2ob2.14b3.11b4.8b5.14b0.11a2r2",
    "mode=classroom&you=4&temperament=cautious&players=4&name1=Player%201&name2=Player%202&name3=Player%203"
    "&name4=Player%204&seed=11&deal=1&moves=r2ob1.10b2.17b3.14a2r2ob3.14b0.14b1.11dr2ob3.15b0.15b1.11dr2ob1.13b2"
    ".22b3.18a2r2&step=2",
]


def params(query: str) -> dict[str, str]:
    return dict(parse_qsl(query, keep_blank_values=True))


@pytest.mark.parametrize("link", EARLIER_LINKS)
def test_share_links_of_earlier_versions_open_and_are_written_again_as_they_were_with_a_check(link):
    moment = read_shared_moment(params(link))
    assert moment is not None
    assert read_shared_link(link) == moment  # no check character: opened as before (issue 23)
    # the names the app gave by default when the link was written: those the link leaves out
    given = ["A", "B", "C", "D", "E", "F"] if "Mrs" in link else None
    session = moment.session(given)
    defaults = given or ([] if "name1" in link else session.names)
    assert moment_query(session, moment.step, moment.app, defaults) == add_check(link)


def test_an_earlier_link_with_every_setting_opens_with_each_of_them():
    link = (
        "lang=de-AT&mode=classroom&you=2&temperament=bold&players=4&hand=4&v1=1&v2=1&cap=20&ante=2&chips=50"
        "&deals=none&name1=Fanny%20Price&seed=7&deal=1&moves=r2&step=1"
    )
    moment = read_shared_moment(params(link))
    assert moment is not None
    assert moment.rules == Rules(
        players=4,
        hand_size=4,
        jack_five=True,
        dead_hand=True,
        price_cap=20,
        ante="uniform",
        uniform_ante=2,
        start_chips=50,
    )
    assert (moment.seed, moment.deal, moment.step, moment.deals, moment.names[0]) == (7, 1, 1, None, "Fanny Price")
    assert moment.app == {"mode": "classroom", "human": 1, "temperament": "bold", "lang": "de"}


def test_cast_mansfield_means_six_players_in_the_page_and_in_the_share_link():
    assert CASTS["mansfield"] == 6 == len(mansfield_park().names)
    assert read_query("cast=mansfield").settings == {"temperament": "mansfield", "players": 6}
    assert read_query("cast=mansfield&players=4").settings["players"] == 4
    moment = read_shared_moment({"cast": "mansfield", "seed": "1814", "moves": "r2"})
    assert moment is not None and moment.rules.players == 6 and moment.app["temperament"] == "mansfield"
    session = Session(Rules(players=6), seed=1814)
    assert "players=" not in moment_query(session, settings={"temperament": "mansfield"})
    assert "players=6" in moment_query(session, settings={"temperament": "mixed"})


def test_the_page_and_the_share_link_read_a_value_alike():
    """One parser: a value the page's settings take is the value the share link takes."""
    for text in ("4", " 4 ", "3", "8"):
        assert read_query(f"players={text}").settings["players"] == read_value("players", text)
        moment = read_shared_moment({"players": text, "seed": "1", "moves": ""})
        assert moment is not None and moment.rules.players == read_value("players", text)
    for text in ("42", "1_000", "1 000", str(MAX_SEED)):
        assert read_query(f"seed={text}").settings["seed"] == read_value("seed", text)
        moment = read_shared_moment({"seed": text, "moves": ""})
        assert moment is not None and moment.seed == read_value("seed", text)
    for mode in MODES:
        assert read_query(f"mode={mode}").settings["mode"] == mode
        assert read_shared_moment({"mode": mode, "seed": "1", "moves": ""}).app["mode"] == mode  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("players", "9"),
        ("players", "²"),
        ("players", "٣"),
        ("players", "four"),
        ("seed", "abc"),
        ("seed", "-1"),
        ("seed", str(MAX_SEED + 1)),
        ("mode", "chaos"),
        ("cast", "emma"),
        ("charts", "<b>"),
        ("pace", "warp"),
        ("lang", "xx"),
    ],
)
def test_a_value_the_grammar_refuses_the_page_leaves_out_with_a_notice_and_the_share_link_refuses(name, text):
    with pytest.raises(ShareError) as info:
        read_value(name, text)
    assert info.value.catalog_key in catalog("en")
    found = read_query(f"{name}={text}")
    assert found.settings == {} and len(found.ignored) == 1
    assert found.ignored[0].key in catalog("en")
    # a share link reads the same parameters but charts and pace (the page's), and a language
    # the app lacks never refuses a moment (the page's notice says so)
    if name not in ("charts", "pace", "lang"):
        with pytest.raises(ShareError):
            read_shared_moment({"seed": "1", "moves": "", name: text})


def test_every_parameter_is_one_row_and_the_choices_are_the_apps():
    assert set(PAGE_SETTINGS) <= set(PARAMS)
    assert {"seed", "deal", "moves", "step", "end", "you", "table", "name1", "name8"} <= set(PARAMS)
    assert PARAMS["mode"].choices == MODES and PARAMS["temperament"].choices == TEMPERAMENTS
    assert PARAMS["pace"].choices == PACE_CHOICES  # the paces of players.pacing
    assert PARAMS["name1"].high == MAX_PLAYER_NAME
    for row in PARAMS.values():
        assert row.kind in ("whole", "switch", "choice", "seed", "lang", "name", "text") and row.about


def test_a_blank_seed_is_a_fresh_seed_in_the_page_and_no_seed_in_a_share_link():
    assert read_query("seed=").settings == {} and read_query("seed=").ignored == []
    with pytest.raises(ShareError) as info:
        read_shared_moment({"seed": " ", "moves": "r1"})
    assert info.value.key == "share.no_seed"


def test_a_name_longer_than_max_player_name_is_refused_naming_the_limit():
    with pytest.raises(ShareError) as info:
        read_value("name2", "F" * (MAX_PLAYER_NAME + 1))
    assert info.value.key == "share.bad_name" and info.value.params == {"number": 2, "limit": MAX_PLAYER_NAME}
    assert read_value("name2", " " + "F" * MAX_PLAYER_NAME + " ") == "F" * MAX_PLAYER_NAME


@given(st.text(max_size=200))
def test_query_params_and_read_query_never_raise(query):
    assert isinstance(query_params(query), dict)
    result = read_query(query)
    assert set(result.settings) <= {"lang", "mode", "temperament", "charts", "pace", "seed", "players"}


def test_S1_V4_S2_a_session_of_the_largest_settings_the_app_allows_is_shared_and_reopens():
    """The link's ranges are the engine's limits: what the app lets a person set, a link carries."""
    from speculation_nb.engine.checks import MAX_CHIPS
    from speculation_nb.engine.saving import MAX_DEALS
    from speculation_nb.engine.settings import MAX_PLAYERS

    rules = Rules(
        players=MAX_PLAYERS, price_cap=MAX_CHIPS, ante="uniform", uniform_ante=MAX_CHIPS // 10, start_chips=MAX_CHIPS
    )
    session = Session(rules, deals=MAX_DEALS, seed=MAX_SEED)
    session.game.reveal()
    moment = read_shared_moment(params(moment_query(session)))
    assert moment is not None and moment.session().to_json() == session.to_json()
