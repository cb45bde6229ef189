"""The message catalog (speculation_nb.languages.translator): every text the app shows has a key in it."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from speculation_nb import Game, IllegalAction, Rules, odds
from speculation_nb.languages.translator import (
    KEY_PREFIXES,
    Translator,
    available_languages,
    catalog,
    error_text,
    placeholders,
    po_files,
    translator,
)
from speculation_nb.rendering.cards import TEXTS

PACKAGE = Path(__file__).resolve().parents[2] / "speculation_nb"
ENGLISH = catalog("en")
KEY_RE = re.compile(rf"^({'|'.join(KEY_PREFIXES)})\.[a-z0-9_]+(\.[A-Za-z0-9_]+)*$")


def string_literals(path: Path):
    """The string constants of a source file; the key of ``t.plural(key, n)`` stands for
    its plural forms ``key.one`` and ``key.other``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    plural_bases = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("plural", "plural_key")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            plural_bases.add(id(node.args[0]))
            yield node.args[0].value + ".one"
            yield node.args[0].value + ".other"
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in plural_bases:
            yield node.value


def keys_in_code() -> set[str]:
    files = [*sorted((PACKAGE / "app").rglob("*.py")), *sorted((PACKAGE / "players").glob("*.py"))]
    files.append(PACKAGE / "languages" / "translator.py")
    assets = {p.name for p in (PACKAGE / "assets").iterdir()}  # file names such as "app.css" are not keys
    return {s for f in files for s in string_literals(f) if KEY_RE.match(s) and s not in assets}


def illegal_actions() -> list[tuple[str, str, set[str]]]:
    """(rule, key, params) of every ``IllegalAction(...)`` raised in the engine's game, legality and session."""
    found = []
    for name in ("game.py", "legality.py", "session.py"):
        tree = ast.parse((PACKAGE / "engine" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                rule, key = node.args[0], node.args[1]
                assert isinstance(key, ast.Constant), ast.dump(node)
                found.append((getattr(rule, "value", "?"), key.value, {k.arg for k in node.keywords}))
    return found


def test_the_catalog_is_a_clean_po_file():
    ids: list[str] = []
    for path in po_files("en"):
        with path.open("rb") as handle:
            cat = read_po(handle)
        ids += [m.id for m in cat if m.id]
        assert not [m.id for m in cat if m.id and (m.fuzzy or not m.string)], path
    assert len(ids) == len(set(ids)) > 200
    assert all(KEY_RE.match(i) for i in ids), [i for i in ids if not KEY_RE.match(i)]
    assert "en" in available_languages() and available_languages()[0] == "en"


def test_every_key_used_in_the_code_is_in_the_english_catalog():
    used = keys_in_code()
    assert len(used) > 150
    assert sorted(used - set(ENGLISH)) == []


def test_the_key_families_built_at_run_time_are_complete():
    dynamic = {f"card.rank.{r}" for r in range(2, 15)} | {f"card.suit.{s}" for s in "SHDC"}
    dynamic |= {f"preset.{p}" for p in ("cardrules", "hoyle1847")}
    dynamic |= {f"mode.{m}" for m in ("play", "classroom")} | {f"tooltip.mode.{m}" for m in ("play", "classroom")}
    dynamic |= {f"temperament.{x}" for x in ("mixed", "cautious", "fair", "bold")}
    dynamic |= {f"unit.{u}.{f}" for u in ("chips", "cards", "higher_trumps", "cards_to_come") for f in ("one", "other")}
    dynamic |= {"odds.fair_price.one", "odds.fair_price.other"}
    dynamic |= {f"table.{k}" for k in TEXTS if not k.startswith(("rank_", "suit_")) and k != "card_name"}
    dynamic |= set(odds.WORDS)  # the odds module's explanations are worded by the catalog too
    assert sorted(dynamic - set(ENGLISH)) == []


def test_the_table_words_keep_the_placeholders_of_render():
    t = translator("en")
    texts = t.render_texts()
    assert set(texts) == set(TEXTS)
    for key, text in texts.items():
        assert placeholders(text) == placeholders(TEXTS[key]), key


def test_every_illegal_action_has_a_message_with_matching_placeholders():
    cases = illegal_actions()
    assert len(cases) >= 20
    for _rule, key, params in cases:
        message = ENGLISH.get(f"error.{key}")
        assert message, f"error.{key} is missing"
        assert placeholders(message) <= params, (key, placeholders(message), params)


def test_odds_words_placeholders_match():
    for key, text in odds.WORDS.items():
        assert placeholders(ENGLISH[key]) == placeholders(text), key


@pytest.mark.parametrize("lang", available_languages())
def test_every_language_has_every_message_with_the_same_placeholders(lang):
    messages = catalog(lang)
    assert sorted(set(ENGLISH) - set(messages)) == []
    for key, text in ENGLISH.items():
        assert placeholders(messages[key]) == placeholders(text), (lang, key)


def test_translator_fills_falls_back_and_formats():
    t = translator("en")
    assert t("log.reveal", name="Fanny", card="Q♥") == "Fanny turns up Q♥."
    assert t("no.such.key") == "no.such.key"
    assert t("log.reveal") == "{name} turns up {card}."  # missing parameters stay visible, no error
    assert t.percent(Fraction(703, 1035)) == "67.9%"
    assert t.percent(Fraction(3725, 10000)) == "37.3%"  # half up
    assert t.percent(1) == "100.0%" and t.percent(0, 0) == "0%"
    assert t.chips(Fraction(29, 2)) == "15" and t.chips(Fraction(27, 2)) == "14"
    assert t.number(12345) == "12,345"
    assert t.plural("unit.chips", 1) == "1 chip" and t.plural("unit.chips", 5) == "5 chips"
    assert t.card_name(Game.deal(Rules(players=3), seed=1).turn_up).count(" of ") == 1
    # A language without a catalog speaks English words with its own numbers.
    fr = Translator("fr")
    assert "fr" not in available_languages()
    assert fr("button.next_card") == t("button.next_card")
    assert fr.percent(Fraction(372, 1000)) == "37,2\xa0%"
    assert Translator("de").percent(Fraction(372, 1000)) == "37,2\xa0%"
    assert translator("not a language!").lang == "en"


def test_html_escapes_text_and_parameters_but_not_safe_markup():
    from speculation_nb.languages.translator import Safe

    t = translator("en")
    out = t.html("log.reveal", name="<b>x</b>", card=Safe("<span>Q♥</span>"))
    assert out == "&lt;b&gt;x&lt;/b&gt; turns up <span>Q♥</span>."


def test_error_text_words_the_rule_from_key_and_params():
    game = Game.deal(Rules(players=4), seed=3)
    holder = game.holder
    game.open_auction()
    with pytest.raises(IllegalAction) as info:
        game.bid(holder, 3)
    t = translator("en")
    text = error_text(info.value, t, ["Fanny", "Edmund", "Mary", "Henry"])
    assert text.startswith("Rule P2: ")
    assert ["Fanny", "Edmund", "Mary", "Henry"][holder] in text and "cannot bid" in text
    assert error_text(info.value, t).startswith(f"Rule P2: seat {holder} ")
    odd = IllegalAction("X9", "never_heard_of", "something")
    assert error_text(odd, t) == "Rule X9: " + t("error.unknown_rule")


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_the_card_tables_words_come_from_the_catalog_in_every_language(lang):
    """Every word :func:`table_html` takes has a catalog entry (the translator reads the catalog,
    not the drawing's English defaults), and no word is left English where a translation exists."""
    from speculation_nb.rendering.cards import TEXTS

    words = Translator(lang).render_texts()
    assert sorted(words) == sorted(TEXTS)
    if lang != "en":
        assert words["rank_12"] != TEXTS["rank_12"] and words["suit_H"] != TEXTS["suit_H"]
