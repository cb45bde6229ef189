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

from speculation_nb.app import SpeculationApp
from speculation_nb.app.student.screen import WATCH, MemberApp
from speculation_nb.app.teacher.panel import HostPanel
from speculation_nb.classroom import MemoryStore
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.teacher_game import TABLE_SEED_SETTING
from speculation_nb.languages.translator import translator

T = translator("en")


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def seat_names_drawn(table: str) -> list[str]:
    """The names a drawn table (``rendering.cards.table_html``) gives its seats, in seat order."""
    return [text(n) for n in re.findall(r'<span class="spec-name"[^>]*>(.*?)</span>', table)]


class Class:
    """The teacher's app with its table open, and students' pages."""

    def __init__(self, players: int = 4, teams: bool = False) -> None:
        self.store = MemoryStore()
        self.app = SpeculationApp(
            table_store=self.store, players=players, seed=7, mode="classroom", charts="static", pace="instant"
        )
        self.app.hosting.toggle(True)
        panel = self.app.hosting.panel
        assert isinstance(panel, HostPanel)
        self.panel = panel
        panel.ui.teams.value = teams
        assert panel.open_table()
        referee = panel.session.referee
        assert referee is not None and panel.session.task is None  # no loop: answered by hand
        self.referee: Referee = referee
        self.pages: list[MemberApp] = []

    @property
    def c(self):  # type: ignore[no-untyped-def]
        return self.app.controller

    def serve(self) -> None:
        self.referee.handle_pending()
        for page in self.pages:
            page.refresh_from_store()

    def join(self, name: str, seat: int | None) -> MemberApp:
        page = MemberApp(code=self.referee.code, store=self.store, follow=False, page=new_token())
        self.pages.append(page)
        page.ui.member_name.value = name
        page.ui.member_seat.value = WATCH if seat is None else seat
        page.ui.member_join.click()
        self.serve()
        assert page.joined, page.ui.message.value
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        self.app.close()


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
    room.join("Dora", c.game.holder)  # the dealer's seat: the turn-up's holder
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
    holder = c.game.holder
    c.open_auction()
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
