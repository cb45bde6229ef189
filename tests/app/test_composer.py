""" "Set up a moment" (issue 25): the editor's model (speculation_nb.app.composer) and its widgets
(app.player.composer_panel), the composed moment opening with its odds, its share link and its file.

Every bank moment is built by setting the editor's widgets and pressing its buttons, as a teacher
would; a refused moment names its rule in the editor and nothing typed is lost; a composed
moment's odds equal brute force over its unseen cards (tests/support/brute_force.py); its link
carries no seed and reopens the same public moment with the same odds.
"""

from __future__ import annotations

import json
from urllib.parse import unquote

import brute_force
import pytest
from game_views import numbers
from hypothesis import HealthCheck, given, settings
from strategies import composable_games

from speculation_nb import Game, Moment, Rules, odds
from speculation_nb.app.composer import Composer, ComposerForm, FormError, build, composed_entry, form_of, open_moment
from speculation_nb.app.player.screen import SpeculationApp, from_request
from speculation_nb.engine import bank
from speculation_nb.engine.errors import IllegalAction
from speculation_nb.links.composed import read_moments
from speculation_nb.links.query import query_params

LANGS = ("en", "it", "pt", "de")


@pytest.fixture
def app():
    made = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static")
    made.composing.toggle(True)
    yield made
    made.close()


# ------------------------------------------------------------------ the model
def test_blank_fields_are_filled_in_by_the_rules():
    m = build(ComposerForm(players=3, turn_up="qh", face_up=["", "2C", "K♥"]))
    assert (m.holder, str(m.best_trump), m.face_down, m.stacks, m.pot) == (2, "K♥", (3, 2, 2), (54, 56, 56), 14)
    # a sale: the price moves from the buyer's stack to the seller's
    m = build(ComposerForm(players=3, turn_up="QH", face_up=["", "2C", "KH"], holder=0, paid="5"))
    assert (m.holder, m.paid, m.stacks) == (0, 5, (49, 56, 61))
    assert Game.compose(m, seed=1).holder == 0


@pytest.mark.parametrize("q", bank.QUESTIONS, ids=lambda q: q.id)
def test_the_form_of_each_bank_moment_builds_it_again(q):
    moment = q.to_moment()
    assert build(form_of(moment)) == moment


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game=composable_games())
def test_any_real_moment_shown_in_the_form_builds_it_again(game):
    moment = Moment.of(game)
    assert build(form_of(moment)) == moment
    # with the counts, the holder and the chips left blank, the rules fill them in the same
    blank = form_of(moment)
    blank.face_down = [None] * moment.rules.players
    if moment.paid is None:
        blank.holder = None
    assert build(blank).face_down == moment.face_down and build(blank).holder == moment.holder


def test_fields_that_cannot_be_read_name_the_field():
    for form, field in (
        (ComposerForm(players=3, turn_up=""), "turn_up"),
        (ComposerForm(players=3, turn_up="QH JH"), "turn_up"),
        (ComposerForm(players=3, turn_up="QH", face_up=["", "1X", ""]), "up1"),
        (ComposerForm(players=3, turn_up="QH", stacks=["", "", "lots"]), "stack2"),
        (ComposerForm(players=3, turn_up="QH", pot="-3"), "pot"),
    ):
        with pytest.raises(FormError) as info:
            build(form)
        assert info.value.field == field


# ------------------------------------------------------------------ the editor's widgets
@pytest.mark.parametrize("q", bank.QUESTIONS, ids=lambda q: q.id)
def test_the_editor_builds_each_bank_moment_and_opens_it_with_its_odds(app, q):
    panel, ui, c = app.composing.panel, app.composing.panel.ui, app.controller
    ui.bank.value = f"bank:{q.id}"
    ui.bank_open.click()
    assert app.t(q.key) in ui.question.value.replace("&#x27;", "'")
    ui.open.click()
    assert panel.error is None, panel.message()
    assert Moment.of(c.game) == q.to_moment()
    assert c.names == [
        "Lady Bertram",
        "Henry Crawford",
        "Fanny Price",
        "William Price",
        "Mary Crawford",
        "Edmund Bertram",
    ]
    assert composed_entry(c) is not None and composed_entry(c).moment == q.to_moment()
    assert c.snapshot().odds.hold == odds.hold_probability(c.game)  # the odds panel's moment: at once
    assert app.odds.widget is not None


def test_a_moment_typed_field_by_field_opens(app):
    panel, ui, c = app.composing.panel, app.composing.panel.ui, app.controller
    ui.players.value = 3
    assert len(ui.ups) >= 3 and len(ui.seats.children) == 3
    ui.dealer.value = 0
    ui.turn_up.value = "QH"
    ui.ups[1].value = "2C"
    ui.ups[2].value = "kh"
    ui.open.click()
    assert panel.error is None, panel.message()
    assert (c.game.holder, str(c.game.best_trump), c.game.face_down) == (2, "K♥", [3, 2, 2])
    assert "K♥" in ui.summary.value


REFUSED = [  # (what the teacher types on three seats, the rule named)
    (dict(ups=["", "QH", ""]), "S3"),  # the turn-up face up twice
    (dict(ups=["", "2C 2C", ""]), "S3"),
    (dict(downs=[3, 3, 1], ups=["", "", "2C"]), "S3"),  # a pile count that does not fit the hand
    (dict(ups=["", "KH 3C", ""]), "P4"),  # the holder would have turned up after the best trump
    (dict(ups=["", "KH", ""], holder=2), "P2"),  # a holder who did not turn it up, and paid nothing
    (dict(turn_up="AH"), "S5"),
    (dict(ups=["", "", "2C"]), "P3"),  # seat 1 is due first, not seat 2
]


@pytest.mark.parametrize(("typed", "rule"), REFUSED)
def test_an_impossible_moment_is_refused_in_the_editor_naming_the_rule(app, typed, rule):
    panel, ui, c = app.composing.panel, app.composing.panel.ui, app.controller
    ui.players.value = 3
    ui.turn_up.value = typed.get("turn_up", "QH")
    for s, text in enumerate(typed.get("ups", ["", "", ""])):
        ui.ups[s].value = text
    for s, count in enumerate(typed.get("downs", [])):
        ui.downs[s].value = count
    if "holder" in typed:
        ui.holder.value = typed["holder"]
    before = c.session
    ui.open.click()
    assert isinstance(panel.error, IllegalAction) and panel.error.rule == rule
    assert f"Rule {rule}" in ui.message.value and "spec-compose-error" in ui.message._dom_classes
    assert c.session is before  # nothing opened
    assert [w.value for w in ui.ups[:3]] == typed.get("ups", ["", "", ""])  # nothing typed is lost
    for lang in LANGS:
        c.set_lang(lang)
        assert rule in panel.message() and "{" not in panel.message()


def test_a_field_that_cannot_be_read_is_marked_and_kept(app):
    panel, ui = app.composing.panel, app.composing.panel.ui
    ui.turn_up.value = "QH"
    ui.ups[1].value = "7S 1X"
    ui.open.click()
    assert isinstance(panel.error, FormError) and "1X" in ui.message.value
    assert "spec-compose-invalid" in ui.ups[1]._dom_classes and ui.ups[1].value == "7S 1X"
    ui.ups[1].value = "7S"
    ui.open.click()
    assert panel.error is None and "spec-compose-invalid" not in ui.ups[1]._dom_classes


# ------------------------------------------------------------------ odds, link, file
def test_a_composed_moments_odds_equal_brute_force_over_its_unseen_cards():
    form = ComposerForm(players=3, turn_up="9H", dealer=0, face_up=["2C 3C", "4C 5C", "KH"], face_down=[1, 1, 2])
    for seed in (1, 2, 3):
        composer_app = SpeculationApp(rules=Rules(players=3), seed=1, mode="classroom", charts="static")
        game = open_moment(composer_app.controller, build(form), seed=seed)
        assert brute_force.arrangement_count(game) <= 2000
        exact = brute_force.exact(game)
        assert odds.hold_probability(game) == exact.hold
        assert odds.win_probabilities(game) == exact.win
        assert odds.expected_pot(game) == exact.pot
        composer_app.close()


@pytest.mark.parametrize("q", bank.QUESTIONS, ids=lambda q: q.id)
def test_the_share_link_carries_the_public_view_and_reopens_the_same_moment(app, q):
    app.composing.panel.open_entry(f"bank:{q.id}")
    assert app.composing.panel.compose()
    app.sharing.toggle(True)
    query = app.sharing.panel.query()
    params = query_params(query)
    assert "seed" not in params and "moves" not in params and params["turnup"] == q.to_moment().turn_up.code
    hidden = app.controller.game.initial_layout.stock
    assert not any(f"{c.code}" in unquote(params["up"]).split(".") for c in hidden)
    layouts = set()
    for _ in range(3):
        again = from_request(query, charts="static")
        assert Moment.of(again.controller.game) == Moment.of(app.controller.game)
        assert numbers(again.controller.game) == numbers(app.controller.game)
        assert composed_entry(again.controller).question == app.t(q.key)
        layouts.add(again.controller.game.initial_layout)
        again.close()
    assert len(layouts) > 1  # the unseen cards are dealt afresh each time it opens


def test_after_a_card_is_turned_up_the_link_is_the_new_public_view(app):
    app.composing.panel.open_entry("bank:dozen")
    assert app.composing.panel.compose()
    app.ui.next.click()  # Edmund turns up a card
    app.sharing.toggle(True)
    params = query_params(app.sharing.panel.query())
    again = from_request(app.sharing.panel.query(), charts="static")
    assert Moment.of(again.controller.game) == Moment.of(app.controller.game)
    assert params["up"].split("_")[5] == app.controller.game.face_up[5][0].code and "seed" not in params
    again.close()


def test_the_saved_file_holds_the_moment_not_the_cards_and_opens_again(app):
    app.composing.panel.open_entry("bank:fanny")
    assert app.composing.panel.compose()
    app.sharing.toggle(True)
    share = app.sharing.panel
    assert share.ui.save_session.layout.display == "none"
    text = share.save("deal")
    data = json.loads(text)
    assert data["format"] == "speculation_nb.moments"
    assert read_moments(data)[0].moment == bank.question("fanny").to_moment()
    assert "piles" not in text and "seed" not in text
    other = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static")
    other.sharing.toggle(True)
    assert other.sharing.panel.load(text.encode())
    assert Moment.of(other.controller.game) == bank.question("fanny").to_moment()
    assert other.sharing.panel.message_key == "status.share.opened_moment"
    other.close()


def test_my_moments_are_kept_in_a_file_and_offered_beside_the_banks(app):
    panel, ui = app.composing.panel, app.composing.panel.ui
    ui.players.value = 3
    ui.turn_up.value = "QH"
    ui.ups[1].value = "2C"
    ui.ups[2].value = "KH"
    ui.title.value = "Seat 3's king"
    ui.ask.value = "What is the King worth now?"
    ui.keep.click()
    assert panel.error is None, panel.message()
    assert ("My moment: Seat 3's king", "mine:0") in ui.bank.options
    assert "my-moments.json" in ui.download.value
    text = panel.composer.file_text()
    fresh = Composer()
    assert fresh.add_file(text) == 1 and fresh.mine[0].question == "What is the King worth now?"
    other = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static")
    other.composing.toggle(True)
    assert other.composing.panel.load_file(text.encode())
    other.composing.panel.ui.bank.value = "mine:0"
    other.composing.panel.ui.bank_open.click()
    other.composing.panel.ui.open.click()
    assert str(other.controller.game.best_trump) == "K♥"
    assert composed_entry(other.controller).question == "What is the King worth now?"
    assert not other.composing.panel.load_file(b'{"format": "speculation_nb.game"}')
    other.close()


def test_a_taker_gets_the_moment_instead_of_the_app(app):
    panel, c = app.composing.panel, app.controller
    taken = []
    app.take_moments(taken.append)
    before = c.session
    panel.open_entry("bank:knave")
    assert panel.compose() and c.session is before
    assert [e.moment for e in taken] == [bank.question("knave").to_moment()] and taken[0].question
    panel.ui.ups[0].value = "JH"  # the turn-up twice: refused before the taker hears of it
    assert not panel.compose() and panel.error.rule == "S3" and len(taken) == 1
    app.take_moments(None)
    panel.ui.ups[0].value = "2S"
    assert panel.compose() and c.session is not before and len(taken) == 1
    later = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static")
    later.take_moments(taken.append)  # before the editor is built: it takes the taker when built
    later.composing.toggle(True)
    assert later.composing.panel.taker is not None
    later.close()


def test_while_a_shared_table_holds_the_deal_the_moment_is_refused_not_opened(app):
    panel, c = app.composing.panel, app.controller
    c.hold_mode("class.host.mode_held")
    before = c.session
    panel.open_entry("bank:dozen")
    assert not panel.compose() and c.session is before
    assert panel.error.key == "compose.table_open" and "table" in panel.message()
    c.hold_mode(None)
    assert panel.compose() and c.session is not before


@pytest.mark.parametrize("lang", LANGS)
def test_the_editor_speaks_the_language(lang):
    made = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static", lang=lang)
    made.composing.toggle(True)
    ui, t = made.composing.panel.ui, made.t
    assert ui.open.description == t("button.compose.open")
    assert ui.bank.options[0][0] == t("label.compose.bank_dozen")
    assert made.composing.button.description.endswith(t("button.open_composer"))
    made.close()


@pytest.mark.parametrize("lang", LANGS)
def test_while_a_taker_takes_the_moments_the_button_says_it_asks_the_class(lang):
    """Issue 25: while the app hosts a table, "Open this moment" says what it does: asks the class."""
    made = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static", lang=lang)
    made.composing.toggle(True)
    panel, t = made.composing.panel, made.t
    taken = []
    made.take_moments(taken.append)
    assert (panel.ui.open.description, panel.ui.open.tooltip) == (t("button.compose.ask"), t("tooltip.compose.ask"))
    panel.open_entry("bank:dozen")
    assert panel.compose() and panel.message() == t("status.compose.asked")
    assert taken[0].question == t("bank.dozen.question")  # the bank's question, in the teacher's language
    made.take_moments(None)
    assert panel.ui.open.description == t("button.compose.open")
    made.close()
