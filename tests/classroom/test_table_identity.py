"""Issue 27, item 7: one identity on every screen. The teacher's projected app (a real
:class:`SpeculationApp` with its host panel) and the students' pages (:class:`MemberApp`) name
each seat alike: by its student, or its team's abbreviated name, on the table, in the log, in the
auction table and the odds; the panel shows "who is who" (seat -> students), which the teacher
may hide; the students' list never reads "Alice: Alice". No event loop: the referee answers when
the test says so (``serve``), the pages read the replies (``refresh_from_store``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from table_room import Class

from speculation_nb.classroom import MemoryStore
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.teacher_game import TABLE_SEED_SETTING
from speculation_nb.languages.translator import translator

T = translator("en")


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def seat_names_drawn(table: str) -> list[str]:
    """The names a drawn table (``rendering.cards.table_html``) gives its seats, in seat order."""
    return [text(n) for n in re.findall(r'<span class="spec-name"[^>]*>(.*?)</span>', table)]


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TABLE_SEED_SETTING, "7")


@pytest.fixture
def room() -> Iterator[Class]:
    made = Class()
    yield made
    made.close()


def test_issue27_the_projector_and_a_phone_name_every_seat_alike(room: Class) -> None:
    c = room.c
    due = c.game.turn
    defaults = list(c.session.names)
    bob = room.join("Bob", due)
    alice = room.join("Alice", (due + 1) % 4)
    cy = room.join("Cy", None)  # a spectator: the table drawn with no "you"
    dora = room.join("Dora", c.game.holder)  # the dealer's seat: the turn-up's holder
    bob.next_card()  # Bob turns up his own card, from his phone
    room.serve()
    shown = seat_names_drawn(room.app.ui.table.value)
    assert shown[due] == "Bob" and shown[(due + 1) % 4] == "Alice"
    assert shown == seat_names_drawn(cy.ui.member_table.value), "the projector and the phone agree"
    assert defaults[due] not in shown
    # the log: "Bob turns up ..." on the projector and on the phones
    log = text(room.app.ui.log.value)
    assert "Bob turns up" in log and f"{defaults[due]} turns up" not in log
    assert "Bob turns up" in text(cy.ui.member_you.value) and "Bob turns up" in text(bob.ui.member_you.value)
    # the odds: the holder by the same name as on the table
    holder = c.game.holder
    assert shown[holder] in text(room.app.ui.hold_label.value)
    # the auction table: the holder offers, Alice bids; the projector names her as the phones do
    pages = {due: bob, (due + 1) % 4: alice, c.game.dealer: dora}
    pages[holder].offer()  # the holder's phone offers the card (the teacher may not, for a student)
    room.serve()
    assert c.game.auction is not None
    bidder = next(p for p, s in ((bob, due), (alice, (due + 1) % 4)) if s != holder)
    bidder.ui.member_bid_amount.value = 1
    bidder.bid()
    room.serve()
    name = "Bob" if bidder is bob else "Alice"
    assert name in text(room.app.ui.auction_table.value), room.app.ui.auction_table.value
    assert defaults[due] not in text(room.app.ui.auction_table.value)
    assert seat_names_drawn(room.app.ui.table.value) == seat_names_drawn(cy.ui.member_table.value)


def test_issue27_who_is_who_on_the_panel_the_teacher_may_hide(room: Class) -> None:
    due = room.c.game.turn
    room.join("Alice", due)
    who = text(room.panel.ui.who.value)
    assert T("class.host.who_title") in who and "Seat " + str(due + 1) + ": Alice" in who
    assert room.panel.ui.who.layout.display != "none"
    room.panel.ui.show_who.value = False
    assert room.panel.ui.who.layout.display == "none" and "Alice" not in room.panel.ui.who.value
    room.panel.ui.show_who.value = True
    assert "Alice" in room.panel.ui.who.value
    # the panel's own seat row says it once, by number: never "Alice: Alice"
    row = text(room.panel.ui.seats.children[due].children[0].value)
    assert "Alice" in row and row.count("Alice") == 1


def test_issue27_the_students_list_never_reads_alice_alice(room: Class) -> None:
    due = room.c.game.turn
    alice = room.join("Alice", due)
    seats = text(alice.parts["seats"])
    assert "Alice: Alice" not in seats and f"Seat {due + 1}: Alice" in seats
    assert seats.count("Alice") == 1


def test_issue27_a_team_is_named_alike_and_listed_in_full() -> None:
    room = Class(teams=True)
    try:
        due = room.c.game.turn
        names = ["Ann", "Ben", "Cecilia Bertram", "Dorothy Crawford", "Evelyn Rushworth", "Frances Yates"]
        for name in names:
            room.join(name, due)
        watcher = room.join("Cy", None)
        shown = seat_names_drawn(room.app.ui.table.value)
        assert shown == seat_names_drawn(watcher.ui.member_table.value)
        assert shown[due] == "Ann, Ben, Cecilia Bertram, Dorothy Crawford +2"
        who = text(room.panel.ui.who.value)
        assert all(n in who for n in names), "who is who lists every student of the team"
    finally:
        room.close()


# ------------------------------------------------------------- item 8: acting for a student
def test_issue27_next_card_for_a_students_seat_asks_first_and_the_log_says_the_teacher_did(room: Class) -> None:
    c = room.c
    due = c.game.turn
    bob = room.join("Bob", due)
    before = len(c.game.history)
    room.app.ui.next.click()  # the teacher's Next card, Bob's turn: nothing happens, the page asks
    assert len(c.game.history) == before
    assert "It is Bob's turn" in text(c.message)
    ask = room.panel.turn_row
    assert ask.asking and "It is Bob's turn: turn up for Bob?" in text(ask.text.value)
    assert ask.yes.description == "Turn up for Bob"
    ask.no.click()  # "Wait for Bob"
    assert len(c.game.history) == before and not ask.asking
    room.app.ui.next.click()
    assert ask.asking
    ask.yes.click()  # on purpose
    assert len(c.game.history) == before + 1 and c.game.history[-1].kind == "reveal" and not ask.asking
    log = text(room.app.ui.log.value)
    assert "The teacher turned up" in log and "for Bob" in log and "Bob turns up" not in log
    room.serve()
    said = text(bob.ui.member_you.value)
    assert "The teacher turned up" in said and "for Bob" in said and "Bob turns up" not in said
    noted = [a for a in room.referee.export()["actions"] if a["index"] == before]
    assert noted and noted[0]["who"] == "teacher" and noted[0].get("for") is True


def test_issue27_the_table_refuses_the_teachers_press_for_a_students_seat_whatever_the_page() -> None:
    """Checked where the press arrives (the referee's check in the teacher's game), not by the
    panel: the controller's own calls, Play to the end and a bid for the student's seat."""
    room = Class()
    try:
        c = room.c
        due = c.game.turn
        room.join("Bob", due)
        before = len(c.game.history)
        for press in (c.next_card, c.play_to_end, lambda: c.next_card(due)):
            with pytest.raises(Exception) as refused:
                press()
            assert getattr(refused.value, "rule", "") == "T9" and refused.value.key == "table.student_turn"
        assert len(c.game.history) == before
        holder = c.game.holder
        c.open_auction()  # the dealer's seat is nobody's: the teacher plays it
        with pytest.raises(Exception) as refused:
            c.bid(due, 1)
        assert refused.value.key == "table.student_seat" and c.game.auction == {}
        assert holder != due
        room.referee.take_over(due)  # the teacher takes the seat over: then the presses are the teacher's
        c.bid(due, 1)
        assert c.game.auction == {due: 1}
    finally:
        room.close()


def test_issue27_a_students_own_card_is_credited_to_the_student(room: Class) -> None:
    due = room.c.game.turn
    bob = room.join("Bob", due)
    bob.next_card()
    room.serve()
    assert "Bob turns up" in text(room.app.ui.log.value) and "The teacher" not in text(room.app.ui.log.value)
    assert "Bob turns up" in text(bob.ui.member_you.value)


def test_issue27_the_referee_marks_the_teachers_card_for_a_student_in_the_published_moment() -> None:
    """Without the app: the teacher's game (a ``SessionTable``) is checked by the referee, and
    ``act_for`` is the only way; the moment every page reads says the teacher did it."""
    from speculation_nb import Rules, Session
    from speculation_nb.classroom.errors import TableRefusal
    from speculation_nb.classroom.host_session import HostSession
    from speculation_nb.classroom.member import Member
    from speculation_nb.classroom.teacher_game import SessionTable
    from speculation_nb.engine.actions import Action

    store = MemoryStore()
    game = SessionTable(Session(Rules(players=4), seed=7))
    host = HostSession(game, store)
    referee = host.open_table()
    assert referee is not None
    due = game.session.game.turn
    bob = Member(store, referee.code, page=new_token())
    token = bob.post("join", name="Bob", seat=due)
    referee.handle_pending()
    assert bob.reply(token) is not None and bob.joined
    with pytest.raises(TableRefusal) as refused:
        game.act(Action.make("reveal", seat=due))
    assert refused.value.key == "table.student_turn" and host.asking == due
    host.act_for(due)
    assert host.asking is None and not host.notice.error
    moment = store.get(referee.code, "moment")
    assert moment is not None and moment["last_event"]["by"] == "teacher" and moment["last_event"]["seat"] == due
    latest = bob.latest()
    assert latest is not None and latest.last_event is not None and latest.last_event["by"] == "teacher"
    host.act_for(due)  # no longer due: refused in words, nothing happens
    assert host.notice.error and len(game.session.game.history) == 1
