"""A student's side of a shared table without a widget (speculation_nb/classroom/member_session.py):
look up, join, rejoin after a reload from what the device kept, send, follow, replies and their
timeout, on the in-memory and SQLite stores, against a real referee in this process. The referee
answers when the test says so (``handle_pending``), then the session reads (``read``); one test
follows on an event loop. Rule numbers as in docs/TABLE.md (T1-T12) and RULES.md (P1-P9).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from loops import run_loop

from speculation_nb import Action, IllegalAction, Rules, Session
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.errors import TableRefusal
from speculation_nb.classroom.member import REPLY_GRACE, REPLY_TIMEOUT
from speculation_nb.classroom.member_session import MemberSession
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.stores.base import MemoryStore, TableStore
from speculation_nb.classroom.stores.sqlite_store import SQLiteStore
from speculation_nb.classroom.teacher_game import SessionHost
from speculation_nb.languages.translator import translator

T = translator("en")


class Device:
    """What a student's browser keeps, per table code (the session's ``remember``)."""

    def __init__(self) -> None:
        self.kept: dict[str, dict[str, str] | None] = {}

    def keep(self, code: str, kept: dict[str, str] | None) -> None:
        self.kept[code] = None if kept is None else dict(kept)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A teacher's table (a referee over a bare session) and the students' sessions at it."""

    def __init__(self, store: TableStore, players: int = 3, seed: int = 1) -> None:
        self.store = store
        self.session = Session(Rules(players=players), seed=seed)
        self.host = SessionHost(self.session)
        self.referee = Referee.open(store, self.host)
        self.students: list[MemberSession] = []

    def student(self, device: Device | None = None, clock: Clock | None = None) -> MemberSession:
        keep = (device or Device()).keep
        student = MemberSession(self.store, clock=clock or Clock(), remember=keep, page=new_token())  # a page each
        assert student.look_up(self.referee.code)
        self.students.append(student)
        return student

    def serve(self) -> None:
        """The referee answers every request so far; every student reads its replies."""
        self.referee.handle_pending()
        for student in self.students:
            student.read()

    def join(self, name: str, seat: int | None, device: Device | None = None) -> MemberSession:
        student = self.student(device)
        student.join(name, seat)
        self.serve()
        return student


@pytest.fixture(params=["memory", "sqlite"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    store: TableStore = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "tables.sqlite3")
    yield Table(store)
    store.close()


def said(student: MemberSession) -> str:
    return student.notice.words(T, student.names())


# ------------------------------------------------------------------ T1: looking up
@pytest.mark.parametrize("typed", ["ABCDE-0O1IL", "", None, 12345, ["ABCDE"]])
def test_t1_a_code_that_is_not_one_is_refused_and_nothing_changes(table: Table, typed: Any) -> None:
    student = MemberSession(table.store)
    with pytest.raises(TableRefusal) as refused:
        student.look_up(typed)
    assert refused.value.rule == "T1" and student.member is None and student.code == ""


def test_t1_a_code_of_no_table_is_refused_and_a_typed_code_is_read(table: Table) -> None:
    other = "ABCDEFGHJK" if table.referee.code != "ABCDEFGHJK" else "BBCDEFGHJK"
    with pytest.raises(TableRefusal) as refused:
        MemberSession(table.store).look_up(other)
    assert refused.value.key == "table.no_table"
    student = MemberSession(table.store)
    code = table.referee.code
    assert student.look_up(f" {code[:5].lower()} - {code[5:]} ") and student.code == code
    assert student.free_seats() == [0, 1, 2] and student.notice.key == "class.member.found"


def test_without_a_store_nothing_is_looked_up_and_it_is_said() -> None:
    student = MemberSession(None)
    assert not student.look_up("ABCDE-FGHJK")
    assert student.notice.key == "class.member.no_server" and student.notice.error


# ------------------------------------------------------------------ T2: joining
def test_t2_join_a_seat_then_the_device_keeps_the_token_and_never_the_secret(table: Table) -> None:
    device = Device()
    ann = table.join("Ann", 1, device)
    assert ann.joined and ann.seat == 1 and ann.name == "Ann"
    assert said(ann) == T("class.member.joined_seat", seat=table.session.names[1], name="Ann")
    kept = device.kept[table.referee.code]
    assert kept is not None and set(kept) == {"member", "token"}
    requests = [r for _n, r in table.store.read(table.referee.code, "requests")]
    assert all(r.get("secret") not in kept.values() for r in requests)
    watcher = table.join("Cy", None)
    assert watcher.joined and watcher.seat is None
    assert said(watcher) == T("class.member.joined_watch", name="Cy")


def test_t2_a_taken_seat_is_refused_and_the_free_seats_follow(table: Table) -> None:
    first, late = table.student(), table.student()
    first.join("Ann", 1)
    late.join("Bob", 1)
    table.serve()
    assert first.joined and not late.joined
    assert late.last_reply is not None and late.last_reply.key == "table.seat_taken"
    assert said(late).startswith("Rule T2:") and late.notice.error
    assert late.free_seats() == [0, 2]


def test_t2_one_request_to_join_at_a_time(table: Table) -> None:
    """A second press (or Enter) while the first join waits sends nothing: the first one's
    answer stands."""
    student = table.student()
    student.join("Ann", 1)
    student.join("Ann", 2)
    assert [r["kind"] for _n, r in table.store.read(table.referee.code, "requests")] == ["join"]
    table.serve()
    assert student.joined and student.seat == 1


def test_t2_join_with_another_code_looks_that_table_up_first(table: Table) -> None:
    other = Referee.open(table.store, SessionHost(Session(Rules(players=3), seed=2)))
    student = table.student()
    student.join("Ann", 0, code=other.code)
    assert student.code == other.code
    other.handle_pending()
    student.read()
    assert student.joined and [m.name for m in other.members()] == ["Ann"]


# ------------------------------------------------------------------ T8: rejoining
def test_t8_a_reload_rejoins_with_what_the_device_kept(table: Table) -> None:
    device = Device()
    first = table.join("Ann", 1, device)
    kept = device.kept[table.referee.code]
    second = table.student(device)  # the reload: a new kernel; the browser hands what it kept
    second.rejoin(kept)
    assert said(second) == T("class.member.rejoining")
    table.serve()
    assert second.joined and second.seat == 1 and second.name == "Ann"
    assert said(second) == T("class.member.rejoined", name="Ann")
    assert second.member is not None and kept is not None and second.member.token == kept["token"]
    first.next_card()  # the old kernel's seat secret no longer works (T8)
    table.serve()
    assert first.last_reply is not None and first.last_reply.rule == "T3"


@pytest.mark.parametrize("kept", [None, "token", {"member": 5, "token": "x"}, {"member": "m"}, []])
def test_t8_whatever_else_the_device_kept_sends_nothing(table: Table, kept: Any) -> None:
    student = table.student()
    student.rejoin(kept)
    assert student.pending == {} and table.store.read(table.referee.code, "requests") == []


def test_t8_a_refused_rejoin_is_said_and_forgotten_on_the_device(table: Table) -> None:
    device = Device()
    student = table.student(device)
    student.rejoin({"member": "nobody", "token": "x"})
    table.serve()
    assert not student.joined and student.last_reply is not None and student.last_reply.rule == "T8"
    assert said(student) == T("class.member.rejoin_refused", reason=student.last_reply.text(T))
    assert device.kept == {table.referee.code: None}


def test_t8_a_join_asked_before_the_device_answered_stands(table: Table) -> None:
    device = Device()
    table.join("Ann", 1, device)
    student = table.student()
    student.join("Bob", 2)
    student.rejoin(device.kept[table.referee.code])
    assert [r["kind"] for _n, r in table.store.read(table.referee.code, "requests")][-1] == "join"
    table.serve()
    assert student.joined and student.name == "Bob"


# ------------------------------------------------------------------ T3, T7: sending
def test_t3_an_action_reaches_the_referees_game(table: Table) -> None:
    due = table.session.game.turn
    student = table.join("Ann", due)
    student.next_card()
    assert student.waiting("act")
    table.serve()
    assert not student.waiting("act") and said(student) == T("class.member.done")
    assert table.session.game.history == [Action.make("reveal", seat=due)]
    assert student.moment is not None and student.moment.step == 1


def test_t3_a_spectator_and_a_page_not_joined_send_nothing(table: Table) -> None:
    watcher = table.join("W", None)
    stranger = table.student()
    for student, case in ((watcher, "table.spectator"), (stranger, "table.not_joined")):
        for act in (student.next_card, student.withdraw, lambda s=student: s.bid(3)):
            with pytest.raises(TableRefusal) as refused:
                act()
            assert refused.value.rule == "T3" and refused.value.key == case
    assert [r["kind"] for _n, r in table.store.read(table.referee.code, "requests")] == ["join"]


@pytest.mark.parametrize("amount", [0, -3, None, "5", 2.0, True])
def test_p2_a_bid_that_is_not_a_whole_number_of_chips_sends_nothing(table: Table, amount: Any) -> None:
    student = table.join("Ann", 1)
    with pytest.raises(IllegalAction) as refused:
        student.bid(amount)
    assert refused.value.rule == "P2"
    assert len(table.store.read(table.referee.code, "requests")) == 1


@pytest.mark.parametrize("price", [-1, 10**12, "7", 3.5, None, False])
def test_t7_an_answer_needs_an_open_poll_and_a_price_in_range(table: Table, price: Any) -> None:
    student = table.join("Ann", 1)
    with pytest.raises(TableRefusal) as refused:
        student.answer(7)
    assert refused.value.key == "table.no_poll"
    table.referee.ask()
    table.serve()
    with pytest.raises(TableRefusal) as refused:
        student.answer(price)
    assert refused.value.rule == "T7"
    student.answer(7)
    table.serve()
    assert said(student) == T("class.member.poll_sent", price="7")
    poll = table.referee.poll
    assert poll is not None and list(poll.answers.values()) == [7]


# ------------------------------------------------------------------ T6: no answer
def test_t6_a_request_unanswered_in_time_is_said_and_forgotten(table: Table) -> None:
    clock = Clock()
    student = table.student(clock=clock)
    student.join("Ann", 1)
    clock.now = REPLY_TIMEOUT + REPLY_GRACE - 0.5
    student.read()
    assert student.waiting("join") and not student.notice.error
    clock.now = REPLY_TIMEOUT + REPLY_GRACE + 0.5
    student.read()
    assert not student.waiting("join") and student.notice.error
    assert said(student) == T("error.format", rule="T6", message=T("error.table.no_answer"))
    # issue 27: the referee, late, never applies what the page was told to try again
    table.referee.desk.wall = lambda: time.time() + REPLY_TIMEOUT + REPLY_GRACE + 0.5
    table.serve()
    assert table.referee.members() == [] and not student.joined


# ------------------------------------------------------------------ following, closing
def test_t10_a_wiped_table_is_closed(table: Table) -> None:
    student = table.join("Ann", 1)
    table.referee.wipe()
    student.read()
    assert student.closed


def test_the_session_follows_the_table_on_the_event_loop(table: Table) -> None:
    """Following, the session reads replies and moments as the referee publishes them, and tells
    its observers. Waits for conditions, never for time."""

    async def until(condition: Any, what: str) -> None:
        for _ in range(4000):  # a safety net of some 200 s on a loaded machine
            if condition():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(what)

    async def scene() -> None:
        serving = asyncio.create_task(table.referee.serve(interval=0.05))
        student = MemberSession(table.store, follow=True)
        told: list[int] = []
        student.observe(lambda: told.append(1))
        try:
            assert student.look_up(table.referee.code)
            due = table.session.game.turn
            student.join("Ann", due)
            await until(lambda: student.joined, "joined")
            student.next_card()
            await until(lambda: student.moment is not None and student.moment.step == 1, "the card turned up")
            table.referee.pause()
            await until(lambda: student.moment is not None and student.moment.paused, "paused")
            table.referee.wipe()
            await until(lambda: student.closed, "closed")
            assert told
        finally:
            student.stop()
            table.referee.close()
            await serving

    run_loop(scene)
