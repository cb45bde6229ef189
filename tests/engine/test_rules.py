"""Rules (rules.py): validation (S1, S2, V4, V5, presets), the antes of S2 and their V5 scaling."""

from __future__ import annotations

import dataclasses

import pytest
from rules_helpers import EVERY_VARIANT

from speculation_nb import Rules


# ------------------------------------------------------------------ defaults
def test_defaults_are_cardrules_three_cards_traditional_antes_no_variants():
    rules = Rules(players=4)
    assert rules.preset == "cardrules" and not rules.hoyle
    assert rules.hand_size == 3
    assert rules.ante == "traditional"
    assert rules.start_chips == 60
    assert rules.price_cap is None
    assert not (rules.jack_five or rules.dead_hand or rules.blind_trading)
    assert rules.variants == []


def test_variants_are_listed_by_rule_number():
    rules = Rules(players=5, hand_size=4, jack_five=True, dead_hand=True, blind_trading=True, price_cap=12)
    assert rules.variants == ["V1", "V2", "V3", "V4", "V5"]
    assert Rules(players=5, price_cap=3).variants == ["V4"]
    assert Rules(players=5, hand_size=5).variants == ["V5"]


def test_rules_are_immutable_values():
    rules = Rules(players=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 5  # type: ignore[misc]
    assert Rules(players=4) == rules
    assert hash(Rules(players=4)) == hash(rules)
    assert Rules(players=4, jack_five=True) != rules


def test_repr_rebuilds_the_rules():
    for rules in [
        Rules(players=4),
        Rules(players=6, hand_size=5, price_cap=9, ante="uniform", uniform_ante=3),
        Rules(players=3, preset="hoyle1847", start_chips=20),
    ]:
        assert eval(repr(rules), {"Rules": Rules}) == rules


# ------------------------------------------------------------------------ S1
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_s1_three_to_eight_players(players):
    assert Rules(players=players).players == players


@pytest.mark.parametrize("players", [2, 9, 0, 1, -4, 100, True, 4.0, "4", None])
def test_s1_refuses_other_player_counts(players):
    with pytest.raises(ValueError, match=r"^S1: Speculation is for 3 to 8 players"):
        Rules(players=players)


@pytest.mark.parametrize("start", [0, -1, 5, True, 60.0, "60", None])
def test_s1_refuses_a_bad_starting_stack(start):
    with pytest.raises(ValueError, match=r"^S1"):
        Rules(players=4, start_chips=start)


def test_s1_start_stack_below_the_antes_is_refused():
    # traditional: the dealer antes 6, so 6 is the least a stack may start with
    assert Rules(players=4, start_chips=6).start_chips == 6
    with pytest.raises(ValueError, match=r"^S1: .*5 chips cannot pay the ante of 6"):
        Rules(players=4, start_chips=5)
    # V5 with 5 cards: the dealer antes 10
    assert Rules(players=4, hand_size=5, start_chips=10).start_chips == 10
    with pytest.raises(ValueError, match=r"^S1: .*9 chips cannot pay the ante of 10"):
        Rules(players=4, hand_size=5, start_chips=9)
    # uniform antes of 5 (and 7 with 4 cards: 5 * 4 / 3 = 6.67, rounded to 7)
    assert Rules(players=4, ante="uniform", uniform_ante=5, start_chips=5).start_chips == 5
    with pytest.raises(ValueError, match=r"^S1"):
        Rules(players=4, ante="uniform", uniform_ante=5, start_chips=4)
    with pytest.raises(ValueError, match=r"^S1"):
        Rules(players=4, ante="uniform", uniform_ante=5, hand_size=4, start_chips=6)
    assert Rules(players=4, ante="uniform", uniform_ante=5, hand_size=4, start_chips=7).start_chips == 7


# ------------------------------------------------------------------------ S2
def test_s2_traditional_antes_dealer_6_others_4():
    rules = Rules(players=4)
    assert rules.dealer_ante == 6 and rules.player_ante == 4
    assert rules.antes(0) == [6, 4, 4, 4]
    assert rules.antes(2) == [4, 4, 6, 4]
    assert rules.ante_for(3, dealer=3) == 6 and rules.ante_for(1, dealer=3) == 4


def test_s2_uniform_antes_default_4():
    rules = Rules(players=5, ante="uniform")
    assert rules.uniform_ante == 4
    assert rules.antes(0) == [4, 4, 4, 4, 4]
    assert rules.antes(3) == [4, 4, 4, 4, 4]


def test_s2_uniform_antes_of_an_agreed_amount():
    rules = Rules(players=3, ante="uniform", uniform_ante=9)
    assert rules.antes(1) == [9, 9, 9]


def test_s2_uniform_ante_setting_is_ignored_by_traditional_antes():
    assert Rules(players=3, uniform_ante=9).antes(0) == [6, 4, 4]


@pytest.mark.parametrize("ante", ["Traditional", "", "flat", None, 4])
def test_s2_refuses_an_unknown_kind_of_ante(ante):
    with pytest.raises(ValueError, match=r"^S2"):
        Rules(players=4, ante=ante)


@pytest.mark.parametrize("amount", [0, -4, True, 4.5, "4", None])
def test_s2_refuses_a_bad_uniform_ante(amount):
    with pytest.raises(ValueError, match=r"^S2"):
        Rules(players=4, ante="uniform", uniform_ante=amount)


# ------------------------------------------------------------------------ V5
def test_v5_four_cards_antes_6_4_become_8_5():
    # 6 * 4 / 3 = 8; 4 * 4 / 3 = 5.33 -> 5
    rules = Rules(players=4, hand_size=4)
    assert (rules.dealer_ante, rules.player_ante) == (8, 5)
    assert rules.antes(1) == [5, 8, 5, 5]


def test_v5_five_cards_antes_6_4_become_10_7():
    # 6 * 5 / 3 = 10; 4 * 5 / 3 = 6.67 -> 7
    rules = Rules(players=4, hand_size=5)
    assert (rules.dealer_ante, rules.player_ante) == (10, 7)


def test_v5_uniform_4_becomes_5_or_7():
    assert Rules(players=4, ante="uniform", hand_size=4).antes(0) == [5, 5, 5, 5]
    assert Rules(players=4, ante="uniform", hand_size=5).antes(0) == [7, 7, 7, 7]


@pytest.mark.parametrize(
    "uniform, hand_size, expected",
    [
        (1, 4, 1),  # 4/3 = 1.33
        (1, 5, 2),  # 5/3 = 1.67
        (2, 4, 3),  # 8/3 = 2.67
        (2, 5, 3),  # 10/3 = 3.33
        (3, 4, 4),  # exactly 4
        (3, 5, 5),  # exactly 5
        (5, 4, 7),  # 20/3 = 6.67
        (7, 5, 12),  # 35/3 = 11.67
        (7, 3, 7),  # three cards: unchanged
    ],
)
def test_v5_uniform_antes_are_scaled_and_rounded_half_up(uniform, hand_size, expected):
    rules = Rules(players=3, ante="uniform", uniform_ante=uniform, hand_size=hand_size, start_chips=60)
    assert rules.antes(0) == [expected] * 3


@pytest.mark.parametrize("hand_size", [2, 6, 0, 1, True, 4.0, "4", None])
def test_v5_refuses_other_hand_sizes(hand_size):
    with pytest.raises(ValueError, match=r"^V5"):
        Rules(players=4, hand_size=hand_size)


# ------------------------------------------------------------------ V1 to V4
@pytest.mark.parametrize("name", ["jack_five", "dead_hand", "blind_trading"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_switches_are_true_or_false(name, value):
    with pytest.raises(ValueError, match=name):
        Rules(players=4, **{name: value})


@pytest.mark.parametrize("cap", [0, -1, 1.5, 12.0, True, "12"])
def test_v4_refuses_a_bad_price_cap(cap):
    with pytest.raises(ValueError, match=r"^V4"):
        Rules(players=4, price_cap=cap)


def test_v4_a_cap_of_1_or_more_is_allowed():
    assert Rules(players=4, price_cap=1).price_cap == 1
    assert Rules(players=4, price_cap=12).price_cap == 12


# ------------------------------------------------------------------- presets
def test_presets_hoyle1847_accepted_with_traditional_antes_and_no_variants():
    rules = Rules(players=4, preset="hoyle1847")
    assert rules.hoyle and rules.antes(0) == [6, 4, 4, 4]
    assert Rules(players=8, preset="hoyle1847", start_chips=6).start_chips == 6


@pytest.mark.parametrize(
    "switch",
    [
        {"jack_five": True},
        {"dead_hand": True},
        {"blind_trading": True},
        {"price_cap": 12},
        {"hand_size": 4},
        {"hand_size": 5},
        {"ante": "uniform"},
        {"ante": "uniform", "uniform_ante": 4},
        {"jack_five": True, "dead_hand": True},
    ],
)
def test_presets_hoyle1847_refuses_variants_and_uniform_antes(switch):
    with pytest.raises(ValueError, match="hoyle1847"):
        Rules(players=4, preset="hoyle1847", **switch)


def test_presets_hoyle1847_refusal_names_what_to_switch_off():
    with pytest.raises(ValueError) as info:
        Rules(players=4, preset="hoyle1847", jack_five=True, ante="uniform")
    assert "V1" in str(info.value) and "uniform" in str(info.value)


@pytest.mark.parametrize("preset", ["hoyle", "Hoyle1847", "cardRules", "", None, 1847])
def test_presets_unknown_preset_is_refused(preset):
    with pytest.raises(ValueError, match="preset"):
        Rules(players=4, preset=preset)


# --------------------------------------------------------------------- saving
def test_to_dict_from_dict_round_trip():
    rules = Rules(players=7, **EVERY_VARIANT, uniform_ante=5, start_chips=99)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"players": 3}) == Rules(players=3)


@pytest.mark.parametrize(
    "data",
    [None, [], "players=4", {}, {"hand_size": 3}, {"players": 4, "cheat": True}, {"players": 4, "jack_five": 1}],
)
def test_from_dict_refuses_bad_settings(data):
    with pytest.raises(ValueError):
        Rules.from_dict(data)


IMPOSSIBLE_SETTINGS = [
    ("S1", "players", dict(players=9)),
    ("V5", "hand_size", dict(players=4, hand_size=7)),
    ("", "switch", dict(players=4, jack_five=1)),
    ("V4", "price_cap", dict(players=4, price_cap=0)),
    ("S2", "ante", dict(players=4, ante="equal")),
    ("S2", "uniform_ante", dict(players=4, ante="uniform", uniform_ante=0)),
    ("", "preset", dict(players=4, preset="whist")),
    ("", "hoyle", dict(players=4, preset="hoyle1847", ante="uniform", jack_five=True)),
    ("S1", "start_chips", dict(players=4, start_chips=10**9 + 1)),
    ("S1", "start_below_ante", dict(players=4, start_chips=3)),
]


@pytest.mark.parametrize(("rule", "case", "settings"), IMPOSSIBLE_SETTINGS, ids=[c for _, c, _ in IMPOSSIBLE_SETTINGS])
@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_impossible_settings_are_refusals_worded_in_every_language(rule, case, settings, lang):
    """S1, S2, V4, V5 and the presets: a refusal of the one family (a ValueError), with its rule and
    case, worded from the catalog in the page's language (the settings panel shows it)."""
    from speculation_nb.engine.errors import Refusal
    from speculation_nb.languages.translator import Translator, error_text

    with pytest.raises(Refusal) as caught:
        Rules(**settings)
    error = caught.value
    assert isinstance(error, ValueError) and (error.rule, error.key) == (rule, f"settings.{case}")
    assert str(error).startswith(f"{rule}: " if rule else "")
    t = Translator(lang)
    assert t.has(error.catalog_key)
    words = error_text(error, t)
    assert "{" not in words and (not rule or rule in words)
    if lang != "en":
        assert words != error_text(error, Translator("en"))
