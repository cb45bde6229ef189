"""Saved games (game.py): the exact JSON round trip, and from_json refusing corrupt, truncated or
hostile input with a clear ValueError, never half-loading."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from rules_helpers import readers

from speculation_nb import Game, IllegalAction, Rules, Session
from speculation_nb.engine.game import MAX_JSON_CHARS

ALL = Rules(players=4, hand_size=4, jack_five=True, dead_hand=True, blind_trading=True, price_cap=12)


def seeded_game() -> Game:
    game = Game.deal(ALL, seed=7, dealer=1, stacks=[30, 40, 50, 60], pot=3)
    game.reveal()
    game.blind_trade(game.turn, game.holder, 1, 2)
    game.open_auction()
    bidder = (game.holder + 1) % 4
    game.bid(bidder, 3)
    game.bid(bidder, 0)
    game.bid(bidder, 2)
    return game


def layout_game() -> Game:
    piles = [["2S", "3S", "4S"], ["9H", "2C", "3C"], ["2D", "3D", "4D"]]
    game = Game.from_layout(Rules(players=3, dead_hand=True), piles, "7H", dead=["5C", "QH", "6C"], pot=10)
    game.reveal()
    return game


def finished_game() -> Game:
    game = Game.deal(Rules(players=5, preset="hoyle1847"), seed=99, dealer=4)
    while not game.over:
        game.reveal()
    return game


DECK = ["AS", "KH", "QD", "JC"] + [
    f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA" if f"{r}{s}" not in ("AS", "KH", "QD", "JC")
]

GAMES = {
    "seeded, all variants, auction open": seeded_game,
    "from a layout": layout_game,
    "finished, hoyle1847": finished_game,
    "fresh": lambda: Game.deal(Rules(players=8), seed=1),
    "from a deck": lambda: Game.deal(Rules(players=3), deck=DECK),
}


# -------------------------------------------------------------- round trip
@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_exact_json_round_trip(make):
    game = make()
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.to_json() == text
    assert Game.from_json(text.encode("utf-8")).to_json() == text
    for name, value in readers(game).items():
        assert getattr(loaded, name) == value, name
    assert loaded.layout() == game.layout()
    for k in range(len(game.history) + 1):
        assert loaded.at(k).to_json() == game.at(k).to_json()


def test_saved_form_is_deterministic_sorted_json_with_the_whole_layout():
    game = seeded_game()
    text = game.to_json()
    data = json.loads(text)
    assert json.dumps(data, sort_keys=True, separators=(",", ":")) == text
    assert set(data) == {"format", "version", "rules", "seed", "deal", "actions"}
    assert data["format"] == "speculation_nb.game" and data["version"] == 1
    assert data["seed"] == 7
    assert set(data["deal"]) == {"dealer", "piles", "turn_up", "dead", "stock", "stacks", "pot"}
    assert data["deal"]["stacks"] == [30, 40, 50, 60] and data["deal"]["pot"] == 3
    assert sum(map(len, data["deal"]["piles"])) + len(data["deal"]["dead"]) + 1 + len(data["deal"]["stock"]) == 52
    assert data["actions"][0] == {"action": "reveal", "seat": 2}
    assert seeded_game().to_json() == text


def test_a_loaded_game_plays_on_like_the_original():
    game = layout_game()
    loaded = Game.from_json(game.to_json())
    while not game.over:
        game.reveal()
        loaded.reveal()
    assert loaded.to_json() == game.to_json()
    assert loaded.winner is None and loaded.pot == 24


# ------------------------------------------------------------------ refusals
def tampered(change, make=seeded_game) -> str:
    data = json.loads(make().to_json())
    change(data)
    return json.dumps(data)


def setter(path: str, value):
    """A change setting ``data[a][b]...`` (integer parts index lists)."""
    parts = [int(p) if p.lstrip("-").isdigit() else p for p in path.split(".")]

    def change(data):
        target = data
        for part in parts[:-1]:
            target = target[part]
        target[parts[-1]] = copy.deepcopy(value)

    return change


def remover(path: str):
    parts = path.split(".")

    def change(data):
        target = data
        for part in parts[:-1]:
            target = target[part]
        del target[parts[-1]]

    return change


def refused(text) -> ValueError:
    with pytest.raises(ValueError) as info:
        Game.from_json(text)
    assert not isinstance(info.value, IllegalAction) or "saved game" in str(info.value)
    assert "saved game" in str(info.value)
    return info.value


WRONG_TYPES = {
    "top-level list": "[]",
    "top-level null": "null",
    "top-level string": '"game"',
    "top-level number": "3",
    "rules null": tampered(setter("rules", None)),
    "rules list": tampered(setter("rules", [4])),
    "players as text": tampered(setter("rules.players", "4")),
    "players as float": tampered(setter("rules.players", 4.0)),
    "hand size as text": tampered(setter("rules.hand_size", "4")),
    "preset as number": tampered(setter("rules.preset", 1847)),
    "price cap as text": tampered(setter("rules.price_cap", "12")),
    "deal null": tampered(setter("deal", None)),
    "deal list": tampered(setter("deal", [])),
    "dealer as text": tampered(setter("deal.dealer", "1")),
    "dealer as float": tampered(setter("deal.dealer", 1.0)),
    "stacks as text": tampered(setter("deal.stacks", ["30", "40", "50", "60"])),
    "stacks as object": tampered(setter("deal.stacks", {"0": 30})),
    "stacks as number": tampered(setter("deal.stacks", 60)),
    "pot as float": tampered(setter("deal.pot", 3.5)),
    "pot as text": tampered(setter("deal.pot", "3")),
    "pot null": tampered(setter("deal.pot", None)),
    "piles as text": tampered(setter("deal.piles", "2S 3S")),
    "pile as text": tampered(setter("deal.piles.0", "2S3S4S5S")),
    "cards as numbers": tampered(setter("deal.piles.0", [2, 3, 4, 5])),
    "card as object": tampered(setter("deal.piles.0.0", {"rank": 2, "suit": "S"})),
    "turn-up as number": tampered(setter("deal.turn_up", 7)),
    "turn-up as list": tampered(setter("deal.turn_up", ["7", "H"])),
    "dead as text": tampered(setter("deal.dead", "2S3S4S5S")),
    "stock as object": tampered(setter("deal.stock", {})),
    "stock null": tampered(setter("deal.stock", None)),
    "seed as text": tampered(setter("seed", "7")),
    "seed as float": tampered(setter("seed", 7.0)),
    "actions as object": tampered(setter("actions", {})),
    "actions null": tampered(setter("actions", None)),
    "action as text": tampered(setter("actions.0", "reveal")),
    "action as list": tampered(setter("actions.0", ["reveal", 2])),
    "seat as text": tampered(setter("actions.0.seat", "2")),
    "seat as float": tampered(setter("actions.0.seat", 2.0)),
    "seat null": tampered(setter("actions.0.seat", None)),
    "amount as float": tampered(setter("actions.4.amount", 3.0)),
    "format as number": tampered(setter("format", 1)),
    "version as text": tampered(setter("version", "1")),
    "version as float": tampered(setter("version", 1.0)),
    "version 2": tampered(setter("version", 2)),
    "another format": tampered(setter("format", "speculation_nb.session")),
    "card code not a card": tampered(setter("deal.turn_up", "1X")),
    "dealer out of range": tampered(setter("deal.dealer", 4)),
    "negative dealer": tampered(setter("deal.dealer", -1)),
    "negative pot": tampered(setter("deal.pot", -1)),
    "stack below its ante": tampered(setter("deal.stacks.0", 3)),
    "too few stacks": tampered(setter("deal.stacks", [30, 40, 50])),
    "too few piles": tampered(lambda d: d["deal"]["piles"].pop()),
    "short pile": tampered(lambda d: d["deal"]["stock"].append(d["deal"]["piles"][0].pop())),
    "dead pile missing with V2": tampered(setter("deal.dead", None)),
    "dead pile without V2": tampered(setter("rules.dead_hand", False)),
    "rules refused": tampered(setter("rules.preset", "hoyle1847")),
}


@pytest.mark.parametrize("text", WRONG_TYPES.values(), ids=WRONG_TYPES.keys())
def test_from_json_refuses_wrong_types_and_impossible_values(text):
    refused(text)


BOOLS = {
    "version": setter("version", True),
    "players": setter("rules.players", True),
    "hand size": setter("rules.hand_size", True),
    "start chips": setter("rules.start_chips", True),
    "uniform ante": setter("rules.uniform_ante", True),
    "price cap": setter("rules.price_cap", True),
    "seed": setter("seed", True),
    "dealer": setter("deal.dealer", True),
    "pot": setter("deal.pot", False),
    "a stack": setter("deal.stacks.0", True),
    "a reveal's seat": setter("actions.0.seat", True),
    "a trade's count": setter("actions.1.count", True),
    "a trade's price": setter("actions.1.price", True),
    "a bid's amount": setter("actions.4.amount", True),
    "a withdrawal": setter("actions.4.amount", False),
    "a jack_five switch as 1": setter("rules.jack_five", 1),
}


@pytest.mark.parametrize("change", BOOLS.values(), ids=BOOLS.keys())
def test_from_json_refuses_bools_as_ints(change):
    refused(tampered(change))


UNKNOWN_ACTIONS = {
    "cheat": {"action": "cheat"},
    "upper case": {"action": "REVEAL", "seat": 2},
    "a method": {"action": "to_json"},
    "apply": {"action": "apply", "action_": "reveal"},
    "at": {"action": "at", "k": 0},
    "dunder": {"action": "__init__"},
    "private": {"action": "_finish"},
    "no kind": {"seat": 2},
    "kind null": {"action": None, "seat": 2},
    "kind as list": {"action": ["reveal"], "seat": 2},
    "missing seat": {"action": "reveal"},
    "missing amount": {"action": "bid", "seat": 1},
    "empty": {},
}


@pytest.mark.parametrize("action", UNKNOWN_ACTIONS.values(), ids=UNKNOWN_ACTIONS.keys())
def test_from_json_refuses_unknown_actions(action):
    refused(tampered(setter("actions.0", action)))


EXTRA_FIELDS = {
    "top level": setter("comment", "hi"),
    "deal": setter("deal.owner", 0),
    "rules": setter("rules.cheat", True),
    "reveal": setter("actions.0.card", "AH"),
    "decline with a seat": lambda d: d["actions"].extend([{"action": "decline", "seat": 0}]),
    "open_auction with a seat": setter("actions.2", {"action": "open_auction", "seat": 1}),
    "missing top-level field": remover("seed"),
    "missing deal field": remover("deal.stock"),
    "missing rules players": remover("rules.players"),
}


@pytest.mark.parametrize("change", EXTRA_FIELDS.values(), ids=EXTRA_FIELDS.keys())
def test_from_json_refuses_extra_and_missing_fields(change):
    refused(tampered(change))


def swap_into(path_a: str, path_b: str):
    """Copy the card at path_a over the card at path_b (so one card appears twice, one is lost)."""

    def change(data):
        a = data
        for part in path_a.split("."):
            a = a[int(part)] if part.isdigit() else a[part]
        target = data
        parts = path_b.split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        last = parts[-1]
        target[int(last) if last.isdigit() else last] = a

    return change


REPEATS = {
    "twice in a pile": swap_into("deal.piles.0.0", "deal.piles.0.1"),
    "in two piles": swap_into("deal.piles.0.0", "deal.piles.1.0"),
    "turn-up in a pile": swap_into("deal.turn_up", "deal.piles.2.2"),
    "pile card in the dead pile": swap_into("deal.piles.3.0", "deal.dead.1"),
    "pile card as the turn-up": swap_into("deal.piles.3.0", "deal.turn_up"),
    "stock card in a pile": swap_into("deal.stock.0", "deal.piles.1.1"),
    "written another way": lambda d: d["deal"]["piles"][0].__setitem__(1, d["deal"]["piles"][0][0].lower()),
}


@pytest.mark.parametrize("change", REPEATS.values(), ids=REPEATS.keys())
def test_from_json_refuses_repeated_cards(change):
    error = refused(tampered(change))
    assert "twice" in str(error) or "stock" in str(error)


STOCKS = {
    "a card missing": lambda d: d["deal"]["stock"].pop(),
    "a card repeated": swap_into("deal.stock.0", "deal.stock.5"),
    "a laid-out card added": lambda d: d["deal"]["stock"].append(d["deal"]["turn_up"]),
    "an extra card": lambda d: d["deal"]["stock"].append("ZZ"),
    "empty": setter("deal.stock", []),
    "cards as numbers": setter("deal.stock.0", 5),
}


@pytest.mark.parametrize("change", STOCKS.values(), ids=STOCKS.keys())
def test_from_json_refuses_a_stock_that_does_not_match(change):
    refused(tampered(change))
    refused(tampered(change, make=layout_game))


def test_from_json_refuses_a_seed_that_does_not_deal_the_layout():
    error = refused(tampered(setter("seed", 8)))
    assert "seed" in str(error)
    refused(tampered(lambda d: d["deal"]["stock"].reverse()))  # the seed's stock order
    refused(tampered(lambda d: d["deal"]["piles"][0].reverse()))  # a pile out of the seed's order


def test_from_json_keeps_a_layout_games_stock_order():
    text = tampered(lambda d: d["deal"]["stock"].reverse(), make=layout_game)
    loaded = Game.from_json(text)
    assert json.loads(loaded.to_json()) == json.loads(text)
    assert loaded.layout()["stock"][0].code == "AC"


ILLEGAL_ON_REPLAY = {
    "reveal by a seat not due": lambda d: d["actions"].insert(0, {"action": "reveal", "seat": 0}),
    "reveal by the holder": lambda d: d["actions"].insert(0, {"action": "reveal", "seat": 1}),
    "reveal during the auction": lambda d: d["actions"].append({"action": "reveal", "seat": d["actions"][0]["seat"]}),
    "accept with no auction": lambda d: d["actions"].insert(0, {"action": "accept", "seat": 2}),
    "decline with no auction": lambda d: d["actions"].insert(0, {"action": "decline"}),
    "bid with no auction": lambda d: d["actions"].insert(0, {"action": "bid", "seat": 2, "amount": 1}),
    "bid above the cap": lambda d: d["actions"].append({"action": "bid", "seat": 0, "amount": 13}),
    "bid above the stack": setter("actions.3.amount", 1000),
    "negative bid": setter("actions.3.amount", -1),
    "a second auction": lambda d: d["actions"].append({"action": "open_auction"}),
    "seat out of range": setter("actions.0.seat", 4),
    "negative seat": setter("actions.0.seat", -1),
    "huge seat": setter("actions.0.seat", 10**30),
    "trade for more cards than the seller has": setter("actions.1.count", 9),
    "trade with itself": lambda d: d["actions"][1].update(seller=d["actions"][1]["buyer"]),
    "trade for nothing": setter("actions.1.price", 0),
    "withdrawing twice": lambda d: d["actions"].insert(
        5, {"action": "bid", "seat": d["actions"][4]["seat"], "amount": 0}
    ),
}


@pytest.mark.parametrize("change", ILLEGAL_ON_REPLAY.values(), ids=ILLEGAL_ON_REPLAY.keys())
def test_from_json_refuses_actions_illegal_on_replay(change):
    error = refused(tampered(change))
    assert "illegal on replay" in str(error)


def test_from_json_refuses_an_action_after_the_end():
    game = finished_game()
    data = json.loads(game.to_json())
    data["actions"].append({"action": "reveal", "seat": 0})
    error = refused(json.dumps(data))
    assert "P7" in str(error)


def test_from_json_refuses_blind_trades_without_v3():
    text = tampered(
        lambda d: d["actions"].insert(0, {"action": "blind_trade", "buyer": 1, "seller": 2, "count": 1, "price": 1}),
        make=layout_game,
    )
    assert "V3" in str(refused(text))


def test_from_json_never_half_loads():
    # one bad action at the very end: nothing comes back, not even the game up to it
    game = finished_game()
    good = game.to_json()
    data = json.loads(good)
    data["actions"].append({"action": "open_auction"})
    with pytest.raises(ValueError):
        loaded = Game.from_json(json.dumps(data))
        assert loaded is None  # pragma: no cover
    assert Game.from_json(good).to_json() == good


NESTED = {
    "a deep list": "[" * 100_000 + "]" * 100_000,
    "a deep object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "deep in the rules": '{"rules":' + "[" * 60_000 + "]" * 60_000 + "}",
    "only opening brackets": "[" * (MAX_JSON_CHARS - 1),
    "deep in an action": tampered(setter("actions.0.seat", "@@")).replace('"@@"', "[" * 5000 + "]" * 5000),
    "moderately deep in an action": tampered(setter("actions.0.action", "@@")).replace('"@@"', "[" * 500 + "]" * 500),
    "moderately deep in the format": tampered(setter("format", "@@")).replace('"@@"', "[" * 500 + "]" * 500),
    "moderately deep in a pile": tampered(setter("deal.piles.0", "@@")).replace('"@@"', "[" * 500 + "]" * 500),
}


@pytest.mark.parametrize("text", NESTED.values(), ids=NESTED.keys())
def test_from_json_refuses_huge_nesting(text):
    refused(text)


def test_from_json_refuses_text_that_is_too_large():
    text = seeded_game().to_json()
    padded = text[:-1] + "," + '"pad":"' + "x" * MAX_JSON_CHARS + '"}'
    assert "too large" in str(refused(padded))


CONSTANTS = {
    "NaN pot": tampered(setter("deal.pot", "@@")).replace('"@@"', "NaN"),
    "Infinity pot": tampered(setter("deal.pot", "@@")).replace('"@@"', "Infinity"),
    "-Infinity stack": tampered(setter("deal.stacks.0", "@@")).replace('"@@"', "-Infinity"),
    "NaN seed": tampered(setter("seed", "@@")).replace('"@@"', "NaN"),
    "NaN amount": tampered(setter("actions.4.amount", "@@")).replace('"@@"', "NaN"),
    "1e400 pot": tampered(setter("deal.pot", "@@")).replace('"@@"', "1e400"),
    "huge integer": tampered(setter("rules.players", "@@")).replace('"@@"', "9" * 5000),
    "bare NaN": "NaN",
}


@pytest.mark.parametrize("text", CONSTANTS.values(), ids=CONSTANTS.keys())
def test_from_json_refuses_nan_infinity_and_huge_numbers(text):
    refused(text)


NOT_JSON = {
    "empty": "",
    "blank": "   \n",
    "an open brace": "{",
    "words": "hello",
    "single quotes": "{'format': 'speculation_nb.game'}",
    "trailing garbage": seeded_game().to_json() + "x",
    "two documents": seeded_game().to_json() * 2,
    "a trailing comma": seeded_game().to_json()[:-1] + ",}",
    "a comment": "// saved\n" + seeded_game().to_json(),
    "a lone surrogate": '{"format": "\\ud800"}',
}


@pytest.mark.parametrize("text", NOT_JSON.values(), ids=NOT_JSON.keys())
def test_from_json_refuses_what_is_not_json(text):
    refused(text)


@pytest.mark.parametrize("cut", [1, 2, 10, 100, 0.5, 0.9])
def test_from_json_refuses_truncated_text(cut):
    text = seeded_game().to_json()
    n = int(len(text) * cut) if isinstance(cut, float) else len(text) - cut
    refused(text[:n])


@pytest.mark.parametrize(
    "value",
    [
        b"\xff\xfe\x00",
        b"\x80",
        seeded_game().to_json().encode("utf-16"),
        bytearray(b"{}"),
        memoryview(b"{}"),
        None,
        3,
        3.5,
        ["{}"],
        {"format": 1},
    ],
)
def test_from_json_refuses_bytes_that_are_not_utf8_json_and_other_objects(value):
    refused(value)


def test_from_json_accepts_utf8_bytes_of_a_saved_game():
    text = seeded_game().to_json()
    assert Game.from_json(text.encode("utf-8")).to_json() == text


# --------------------------------------------------------------------------- saved by 0.1.0
SAVED_BY_0_1_0 = json.loads(((Path(__file__).parents[1] / "data") / "saved_0.1.0.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SAVED_BY_0_1_0["games"]))
def test_games_saved_by_0_1_0_load_and_save_the_same(name):
    """Format 1 as version 0.1.0 wrote it (tests/data/saved_0.1.0.json): loads, and saves byte for byte the same."""
    text = SAVED_BY_0_1_0["games"][name]
    assert Game.from_json(text).to_json() == text


@pytest.mark.parametrize("name", sorted(SAVED_BY_0_1_0["sessions"]))
def test_sessions_saved_by_0_1_0_load_and_save_the_same(name):
    text = SAVED_BY_0_1_0["sessions"][name]
    assert Session.from_json(text).to_json() == text
