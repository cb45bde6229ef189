"""One refusal family (speculation_nb.engine.errors.Refusal): every refusal a user sees, with its
rule, case and parameters, worded from the catalogs by the one path of the translator."""

from __future__ import annotations

import json
import pickle

import pytest

from speculation_nb import Game, IllegalAction, Rules, Session
from speculation_nb.classroom.errors import TableRefusal
from speculation_nb.engine.errors import Refusal
from speculation_nb.engine.saving import GAME_FORMAT, SESSION_FORMAT, VERSION
from speculation_nb.languages.translator import available_languages, catalog, error_text, translator
from speculation_nb.links.share import ShareError, read_save, read_shared_moment

R4 = Rules(players=4)


def _p2_refusal() -> IllegalAction:
    """A bid while no auction is open, refused by the engine (P2)."""
    game = Game.deal(R4, seed=1)
    with pytest.raises(IllegalAction) as info:
        game.bid((game.holder + 1) % 4, 3)  # P2: no auction is open
    return info.value


def _refusals() -> list[Refusal]:
    illegal = _p2_refusal()
    table = TableRefusal("T3", "table.not_your_seat", {"seat": 2})
    with pytest.raises(ShareError) as info:
        read_shared_moment({"players": "4", "seed": "42", "deal": "1", "moves": "r2d"})  # P2: no auction to decline
    return [illegal, table, info.value]


def test_every_refusal_is_a_refusal_and_a_value_error_with_rule_key_and_params():
    for refusal in _refusals():
        assert isinstance(refusal, Refusal) and isinstance(refusal, ValueError)
        assert isinstance(refusal.rule, str) and isinstance(refusal.key, str) and refusal.key
        assert isinstance(refusal.params, dict)
        assert refusal.catalog_key == f"error.{refusal.key}"
        assert refusal.catalog_key in catalog("en"), refusal.key


def test_P2_illegal_action_keeps_its_public_behaviour():
    """API.md: ``.rule``, ``.params``, ``str()`` starting with the rule; pickled whole."""
    error = _p2_refusal()
    assert error.rule == "P2" and str(error).startswith("P2: ")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.rule, copy.key, copy.params, str(copy)) == (
        IllegalAction,
        error.rule,
        error.key,
        error.params,
        str(error),
    )


def test_T3_table_refusal_is_worded_in_english_and_pickles():
    refusal = TableRefusal("T3", "table.not_your_seat", {"seat": 2})
    assert str(refusal).startswith("T3: ") and "{" not in str(refusal)
    copy = pickle.loads(pickle.dumps(refusal))
    assert (type(copy), copy.rule, copy.key, copy.params, str(copy)) == (
        TableRefusal,
        "T3",
        "table.not_your_seat",
        {"seat": 2},
        str(refusal),
    )
    assert refusal.to_reply("r1") == {
        "ok": False,
        "rid": "r1",
        "rule": "T3",
        "key": "table.not_your_seat",
        "params": {"seat": 2},
    }


def test_a_share_error_has_no_rule_and_carries_the_P2_refusal_that_stopped_the_replay():
    error = _refusals()[2]
    assert error.rule == "" and error.key == "share.not_replay"
    assert isinstance(error.cause, IllegalAction) and error.cause.rule == "P2"
    assert not str(error).startswith(":")


@pytest.mark.parametrize("lang", available_languages())
def test_the_translator_words_every_refusal_through_one_path(lang):
    """Rule first where there is one, seats by name, a share error's cause as its reason, every
    placeholder filled, in each language of the catalogs."""
    t = translator(lang)
    names = ["Fanny", "Edmund", "Mary", "Henry"]
    illegal, table, share = _refusals()
    for refusal in (illegal, table):
        text = error_text(refusal, t, names)
        assert refusal.rule in text and "{" not in text
        assert not text.startswith("error.")
    assert "Mary" in error_text(table, t, names)  # seat 2, by name
    assert error_text(table, t) != error_text(table, t, names)
    shared = error_text(share, t, names)
    assert error_text(share.cause, t, names) in shared and "{" not in shared
    assert shared == t(share.catalog_key, reason=error_text(share.cause, t, names), **_numbers(share, t))


def _numbers(refusal: Refusal, t: object) -> dict[str, object]:
    return {k: t.number(v) if isinstance(v, int) else v for k, v in refusal.params.items()}  # type: ignore[attr-defined]


# ------------------------------------------------------------------ read_save and engine.saving
@pytest.mark.parametrize("thing", [Game.deal(R4, seed=3), Session(R4, seed=3)], ids=["game", "session"])
def test_read_save_knows_the_formats_and_version_engine_saving_writes(thing):
    data = json.loads(thing.to_json())
    assert data["format"] == (GAME_FORMAT if isinstance(thing, Game) else SESSION_FORMAT)
    assert data["version"] == VERSION
    assert read_save(thing.to_json()).to_json() == thing.to_json()
    with pytest.raises(ShareError) as info:
        read_save(json.dumps({**data, "version": VERSION + 1}))
    assert info.value.key == "save.version"


def test_T3_a_refusal_of_any_kind_in_an_app_callback_is_worded_by_its_rule():
    """The app's guard words every refusal through the one path (a table's T3 as the game's P2),
    and keeps "something went wrong" for what is not a refusal."""
    from speculation_nb.app import SpeculationApp

    app = SpeculationApp(players=4, seed=1, charts="svg", pace="instant")
    try:

        def refused() -> None:
            raise TableRefusal("T3", "table.not_your_seat", {"seat": 2})

        app.guard(refused)()
        assert isinstance(app.last_error, TableRefusal)
        assert app.controller.message == error_text(app.last_error, app.t, app.controller.names)
        assert "T3" in app.controller.message
    finally:
        app.close()
