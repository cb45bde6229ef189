"""Opening a saved file never throws away a played session without asking (issue 12).

The share panel (widgets/share_panel.py) opens a valid file at once while the session
shown is untouched; once an action has been taken or a deal played, it asks first, in
words naming what would be lost and what the file holds, with "Replace" and "Keep my
session" (widgets/confirm.py). Keep changes nothing and says so; Replace opens the
file. A file that is not a save is refused at once, never asked about. The question's
buttons are real buttons worded from the catalogs in every language. The rest of the
panel (link, saving, refusals) is tested in tests/app/test_simulation_panel.py; the upload
in a real browser in tests/browser/test_share_browser.py.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from speculation_nb import Game, Rules, Session
from speculation_nb.app.model import Controller
from speculation_nb.app.player.screen import SpeculationApp
from speculation_nb.app.player.share_panel import SharePanel
from speculation_nb.languages.translator import available_languages, catalog, translator

LANGS = ("en", "it", "pt", "de")


def controller(seed: int = 3, **kwargs) -> Controller:
    options = dict(rules=Rules(players=5), seed=seed, mode="classroom")
    options.update(kwargs)
    return Controller(**options)


def saved_session(seed: int = 9, moves: int = 5) -> str:
    """The file of a session of 4 seats, ``moves`` cards turned up in its first deal."""
    c = controller(seed, rules=Rules(players=4))
    for _ in range(moves):
        c.next_card()
    return c.session.to_json()


def play_a_deal_and_start_the_next(c: Controller) -> None:
    while not c.game.over:
        c.play_to_end()
    assert c.next_deal() == "next"


def upload(panel: SharePanel, text: str | bytes) -> None:
    """The file upload's value as the browser sends it (one file)."""
    data = text.encode() if isinstance(text, str) else text
    panel.ui.open.value = (
        {
            "name": "saved.json",
            "type": "application/json",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": datetime.now(timezone.utc),
        },
    )


def asking(panel: SharePanel) -> bool:
    return panel.asking and panel.ui.ask.layout.display != "none"


def test_a_file_opens_at_once_in_a_session_where_nothing_was_played():
    c = controller()
    panel = SharePanel(c)
    text = saved_session()
    upload(panel, text)
    assert not asking(panel) and panel.ui.ask.layout.display == "none"
    assert c.session.to_json() == Session.from_json(text).to_json()
    assert "The saved session is open: deal 1, seed 9." in panel.ui.message.value


def test_a_played_session_asks_first_and_keep_changes_nothing():
    c = controller()
    panel = SharePanel(c)
    c.next_card()
    c.next_card()
    before = c.session.to_json()
    upload(panel, saved_session())
    assert asking(panel) and c.session.to_json() == before
    question = panel.ui.ask_text.value
    assert "You would lose deal 1, with 2 actions taken." in question  # what would be lost
    assert "The file contains the saved session at deal 1 (seed 9)." in question  # what would open
    assert 'role="alert"' in question
    panel.ui.ask_keep.click()
    assert not asking(panel) and panel.ui.ask.layout.display == "none"
    assert c.session.to_json() == before
    assert "The file was not opened: your session is unchanged." in panel.ui.message.value
    panel.ui.ask_replace.click()  # a stale click, nothing asked: nothing opens
    assert c.session.to_json() == before


def test_replace_opens_the_file_over_a_session_with_standings():
    c = controller()
    panel = SharePanel(c)
    play_a_deal_and_start_the_next(c)
    c.next_card()
    best = c.session.standings()[0]
    text = saved_session()
    upload(panel, text)
    assert asking(panel)
    question = panel.ui.ask_text.value
    t = translator("en")
    lost = f"1 deal played, the standings ({best.name} first with {t.number(best.stack)} chips) and deal 2 as it stands"
    assert lost in question
    panel.ui.ask_replace.click()
    assert not asking(panel)
    assert c.session.to_json() == Session.from_json(text).to_json()
    assert "The saved session is open" in panel.ui.message.value


def test_a_saved_deal_alone_asks_too_and_says_what_it_holds():
    c = controller()
    panel = SharePanel(c)
    c.next_card()
    game = Game.deal(Rules(players=5), seed=3)
    for _ in range(4):
        game.reveal()
    assert panel.load(game.to_json()) and panel.asking
    assert "The file contains a deal saved alone, 4 actions in." in panel.ui.ask_text.value
    panel.replace()
    assert c.game.to_json() == game.to_json() and c.session.deals == 1


@pytest.mark.parametrize("data", [b"these are my notes", b'{"format": "speculation_nb.session", "version": 2}'])
def test_a_bad_file_is_refused_at_once_without_asking(data):
    c = controller()
    panel = SharePanel(c)
    c.next_card()
    before = c.session.to_json()
    upload(panel, data)
    assert not asking(panel) and c.session.to_json() == before
    assert "This file cannot be opened" in panel.ui.message.value
    assert "spec-share-error" in panel.ui.message._dom_classes
    # a bad file while a good one waits: refused, and the question goes (nothing opens)
    upload(panel, saved_session())
    assert asking(panel)
    upload(panel, data)
    assert not asking(panel) and c.session.to_json() == before
    assert "This file cannot be opened" in panel.ui.message.value


def test_the_question_follows_the_game_and_the_language():
    c = controller()
    panel = SharePanel(c)
    c.next_card()
    upload(panel, saved_session())
    assert "with 1 action taken" in panel.ui.ask_text.value  # the singular
    c.next_card()
    assert "with 2 actions taken" in panel.ui.ask_text.value
    c.set_lang("de")
    assert "Sie verlieren dabei Runde 1 mit bisher 2 Zügen." in panel.ui.ask_text.value
    assert panel.ui.ask_replace.description == "Ersetzen"
    panel.keep()
    assert "Ihre Sitzung ist unverändert" in panel.ui.message.value


@pytest.mark.parametrize("lang", LANGS)
def test_the_answers_are_buttons_worded_in_every_language(lang):
    """Keyboard and labels: two <button>s (Tab reaches them) with words, not colour alone, and
    a tooltip saying what each does; the safe one is not the danger-styled one."""
    assert lang in available_languages()
    words = catalog(lang)
    c = controller(lang=lang)
    panel = SharePanel(c)
    c.next_card()
    upload(panel, saved_session())
    replace, keep = panel.ui.ask_replace, panel.ui.ask_keep
    assert (replace.description, replace.tooltip) == (words["confirm.button.replace"], words["confirm.tooltip.replace"])
    assert (keep.description, keep.tooltip) == (words["confirm.button.keep"], words["confirm.tooltip.keep"])
    assert len({replace.description, keep.description}) == 2 and all(b.description.strip() for b in (replace, keep))
    assert replace.button_style == "danger" and keep.button_style == ""
    assert {"spec-button", "spec-share-ask-yes"} <= set(replace._dom_classes)
    assert {"spec-button", "spec-share-ask-no"} <= set(keep._dom_classes)
    assert not replace.disabled and not keep.disabled
    text = panel.ui.ask_text.value
    assert "{" not in text and words["confirm.share.ask"].split("{", 1)[0].strip() in text


def test_the_confirm_words_are_in_their_own_area_file_in_four_languages():
    keys = {k for k in catalog("en") if k.startswith("confirm.")}
    assert len(keys) >= 10
    for lang in LANGS:
        assert keys <= set(catalog(lang)), lang
        assert {k for k in catalog(lang) if k.startswith("confirm.")} == keys, lang


def test_the_header_new_session_question_is_the_same_confirm_row():
    """The app's own "New session…" question is built by the same helper (widgets/confirm.py)."""
    a = SpeculationApp(players=4, seed=77, mode="classroom", charts="static")
    ui, c = a.ui, a.controller
    ui.next.click()
    before = c.session.to_json()
    ui.new_session.click()
    assert "spec-ask" in ui.confirm._dom_classes and ui.confirm.layout.display != "none"
    ui.confirm_no.click()
    assert c.session.to_json() == before and ui.confirm.layout.display == "none"
    a.close()
