"""Issue 25, "one idea, one name, one number": while the shared table shows a question deal, the
teacher's projector shows that deal in its main view (the table, the headline, the odds panel:
its chance, formula and fair price, its seats' names), the same fair price as the poll's; the
session's deal is refused every change (T4) and comes back exactly where it stood.

Driven from Python (the teacher's app with its table open, :class:`table_room.Class`)."""

from __future__ import annotations

import html
import re

import pytest
from table_room import Class

from speculation_nb import Rules, odds
from speculation_nb.app.model import Controller
from speculation_nb.classroom import TableRefusal
from speculation_nb.engine import bank
from speculation_nb.engine.compose import compose
from speculation_nb.languages.translator import error_text, translator

T = translator("en")


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


QUESTION_FAIR = odds.shown_chips(odds.fair_price(compose(bank.question("dozen").to_moment(), 1)))


@pytest.fixture
def room():  # type: ignore[no-untyped-def]
    """A table of 3 whose deal (dealt from a secret seed) runs and can be told from the question's."""
    made = Class(players=3)
    c = made.app.controller
    for _ in range(50):
        if not c.game.over:
            c.next_card()  # one card: the step the deal must come back to
            if not c.game.over and c.snapshot().odds.prices.fair != QUESTION_FAIR:
                break
        c.new_session(c.rules)
    assert c.last == 1 and c.live
    yield made
    made.close()


def test_issue25_the_projectors_main_view_shows_the_question_deal_and_the_polls_fair_price(room: Class) -> None:
    app, panel, referee = room.app, room.panel, room.referee
    c = app.controller
    before, step, live_names = c.session.to_json(), c.moment, c.table_names
    live_fair = c.snapshot().odds.prices.fair
    panel.ui.question_open.click()  # the question bank's first moment: the dozen for the queen
    deal = referee.question
    assert deal is not None and c.question is deal.game
    fair = odds.shown_chips(odds.fair_price(deal.game))
    assert fair != live_fair  # (otherwise the test could not tell the two apart)
    ui = app.ui
    assert c.names == deal.seat_names and len(c.names) == 6 and "Lady Bertram" in c.names
    assert c.table_names == live_names  # the session's seats keep their names (the host panel's)
    table = text(ui.table.value)
    assert all(name in table for name in c.names) and table.count("face-down cards") == 6
    assert text(ui.fair_price.value).split() == ["fair", "price", str(fair), "chips"]
    assert T.percent(c.snapshot().odds.hold) in ui.hold_pct.value
    assert c.snapshot().odds.hold == odds.hold_probability(deal.game)
    assert T("header.question") in text(ui.deal_info.value) and str(fair) in text(ui.headline.value)
    assert text(ui.message.value).strip() == T("status.question")
    for button in (ui.next, ui.play, ui.back, ui.forward, ui.now):
        assert button.disabled
    assert ui.timeline.disabled
    assert T("class.host.state_question") in text(panel.ui.status.value)
    panel.ui.ask.click()
    panel.ui.close_poll.click()
    panel.ui.reveal_poll.click()
    poll = referee.poll
    assert poll is not None and poll.prices.fair == fair  # the poll's fair price is the main view's
    assert f"fair price {fair} chips" in text(panel.ui.poll.value)
    panel.ui.question_end.click()
    assert c.question is None and c.live and c.session.to_json() == before and c.moment == step
    assert c.names == live_names and live_names[0] in text(ui.table.value)
    assert text(ui.fair_price.value).split() == ["fair", "price", str(live_fair), "chips"]


def test_T4_no_change_of_the_session_while_a_question_deal_is_shown(room: Class) -> None:
    """What a teacher expects of Next card (or a key) while the class looks at a question: nothing
    of the deal moves (refused in words, T4), and "Back to the deal" finds it where it stood."""
    app, panel = room.app, room.panel
    c = app.controller
    c.go(0)  # looking back at the deal's start when the question is asked: kept too
    before = c.session.to_json()
    panel.ui.question_open.click()
    moves = [
        c.next_card,
        c.play_to_end,
        c.open_auction,
        c.decline,
        c.now,
        c.back,
        lambda: c.go(1),
        c.next_deal,
        lambda: c.new_session(c.rules),
        lambda: c.blind_trade(0, 1, 1, 1),
        lambda: c.bid(1, 3),
    ]
    for move in moves:
        with pytest.raises(TableRefusal) as refused:
            move()
        assert refused.value.rule == "T4" and refused.value.key == "table.question_shown"
    assert error_text(refused.value, T).startswith("Rule T4: A question is shown")
    app.ui.next.disabled = False  # a page that was not redrawn yet: the press is refused in words
    app.call(c.next_card)
    assert "A question is shown" in app.ui.message.value
    assert c.session.to_json() == before
    panel.ui.question_end.click()
    assert c.question is None and c.moment == 0 and not c.live  # still looking back at step 0
    c.now()
    assert c.live


def test_issue25_the_referee_publishes_the_session_and_the_question_apart(room: Class) -> None:
    """The referee's session is the host's (the teacher's deal), never the question shown: a
    student sees the question's public moment, and after "Back to the deal" the session's."""
    app, panel, referee = room.app, room.panel, room.referee
    ann = room.join("Ann", 0)
    c = app.controller
    panel.ui.question_open.click()
    room.serve()
    assert referee.host.session is c.session and referee.host.session.rules.players == 3
    assert ann.moment is not None and ann.moment.players == 6 and not ann.moment.live
    panel.ui.question_end.click()
    room.serve()
    assert ann.moment is not None and ann.moment.players == 3 and ann.moment.live


def test_a_controller_shows_a_question_deal_read_only_and_names_its_seats() -> None:
    c = Controller(Rules(players=4), seed=3, mode="classroom")
    game = compose(bank.question("dozen").to_moment(), 1)
    c.show_question(game)
    assert (
        c.shown is game
        and not c.live
        and c.names == ["Player 1", "Player 2", "Player 3"] + [f"Player {i}" for i in range(4, 7)]
    )
    assert c.table_names == c.session.names and c.snapshot().step == game.moment
    c.show_question(game, ["A", "B"])  # the same game: nothing changes
    assert c.names[0] == "Player 1"
    c.show_question(None)
    assert c.live and c.shown is c.game and c.names == c.session.names


def student_text(value: str) -> str:
    return re.sub(r"\s+([,.:])", r"\1", " ".join(text(value).split()))


def test_issue25_a_students_phone_says_a_question_deal_is_a_question_not_the_game(room: Class) -> None:
    """Not "looking back at step 0 of 0" (it is not the game's past), nor the student's seat, deal
    and step, nor a break-even of the question's seat that has the student's seat number, nor a
    list of free seats: a question, no chips move. Back to the deal: the seat line again."""
    panel = room.panel
    ann = room.join("Ann", 1)
    panel.ui.question_open.click()
    room.serve()
    ui = ann.ui
    banner = student_text(ui.member_banner.value)
    assert banner == T("class.member.question_shown") and "step" not in banner
    you = student_text(ui.member_you.value)
    assert you.startswith(T("class.member.you_question", name="Ann")) and "Deal" not in you
    board = student_text(ui.member_table.value)
    assert T("class.member.seats_title") not in board and "break-even" not in board.casefold()
    assert "Lady Bertram" in board  # the question's table, its seats named as the projector names them
    panel.ui.question_end.click()
    room.serve()
    assert not student_text(ui.member_banner.value)
    you = student_text(ui.member_you.value)
    assert you.startswith(T("class.member.you_seat", name="Ann", seat=T("seat.number", n=2))) and "Deal" in you


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_issue25_the_students_banner_during_a_question_deal_in_four_languages(lang: str) -> None:
    from speculation_nb.app.student.view import banner_text
    from speculation_nb.classroom.moment import read_public_moment
    from speculation_nb.classroom.questions import QuestionDeal

    t = translator(lang)
    deal = QuestionDeal.of(1, bank.question("dozen").to_moment(), "dozen", seed=1)
    shown = read_public_moment(deal.published(version=1, paused=False, poll=None))
    assert banner_text(shown, t) == t("class.member.question_shown")
    assert t("class.member.question_shown") != translator("en")("class.member.question_shown") or lang == "en"
    paused = read_public_moment(deal.published(version=2, paused=True, poll=None))
    assert banner_text(paused, t) == f"{t('class.member.paused')} {t('class.member.question_shown')}"
