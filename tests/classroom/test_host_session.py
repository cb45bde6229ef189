"""The teacher's side of a shared table without a widget (speculation_nb/classroom/host_session.py):
open, resume after a reload, serve, close, export and store failures, over a bare session
(:class:`SessionTable`) and on the in-memory and SQLite stores. The students are
:class:`~speculation_nb.classroom.member.Member` objects. Rules T1-T12 as in docs/TABLE.md.

A test with no event loop runs in a worker thread (:func:`loops.in_thread`: after the browser
tests the main thread holds Playwright's loop), and the referee answers by hand
(``handle_pending``); the serve task's tests run on a loop of their own (:func:`loops.run_loop`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flaky_store import FlakyStore
from loops import in_thread, run_loop

from speculation_nb import Action, Rules, Session
from speculation_nb.classroom.host_session import HostSession
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.stores.base import MemoryStore, TableStore
from speculation_nb.classroom.stores.sqlite_store import SQLiteStore
from speculation_nb.classroom.teacher_game import TABLE_SEED_SETTING, SessionTable


class Device:
    """What the teacher's browser keeps (the session's ``remember``), as plain data."""

    def __init__(self) -> None:
        self.kept: dict[str, str] | None = None

    def keep(self, kept: dict[str, str] | None) -> None:
        self.kept = None if kept is None else dict(kept)


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables here deal from seed 7 (the server's setting: a table's seed is secret otherwise)."""
    monkeypatch.setenv(TABLE_SEED_SETTING, "7")


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    made: TableStore = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "tables.sqlite3")
    yield made
    made.close()


def teacher(store: TableStore | None, device: Device | None = None, seed: int = 7) -> tuple[HostSession, SessionTable]:
    game = SessionTable(Session(Rules(players=4), seed=seed))
    return HostSession(game, store, remember=(device or Device()).keep), game


def by_hand(test: Callable[[], None]) -> None:
    """``test()`` where no event loop runs: the referee answers when told (``handle_pending``)."""
    in_thread(test)


def join(session: HostSession, store: TableStore, name: str, seat: int | None) -> Member:
    member = Member(store, session.code)
    token = member.post("join", name=name, seat=seat)
    assert session.referee is not None and session.referee.handle_pending() >= 1
    reply = member.reply(token)
    assert reply is not None and reply.ok, reply
    return member


# ------------------------------------------------------------------ open
def test_t1_t9_open_keeps_the_secret_on_the_device_and_in_nothing_public(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        session, _game = teacher(store, device)
        seen: list[bool] = []
        session.observe(lambda: seen.append(session.open))
        referee = session.open_table()
        assert referee is not None and session.open and session.task is None  # no loop: by hand
        assert device.kept == {"code": referee.code, "secret": referee.host_secret}
        assert session.notice.key == "class.host.opened" and not session.notice.error
        assert seen and seen[-1] is True
        link = session.link("http://x/voila")
        assert link.endswith(f"table={session.code[:5]}-{session.code[5:]}") and referee.host_secret not in link
        public = [store.get(session.code, "meta"), store.get(session.code, "moment")]
        public += [r for _n, r in store.read(session.code, "events")]
        assert all(referee.host_secret not in json.dumps(r) for r in public)
        assert session.open_table() is referee  # a second press opens nothing new
        session.let_go()

    by_hand(scene)


def test_a_store_that_cannot_be_opened_is_a_notice_and_nothing_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_STORE", "ftp://nowhere")  # not a store: StoreError

    def scene() -> None:
        session, game = teacher(None)
        assert session.open_table() is None and not session.open
        assert session.notice == type(session.notice)("class.host.store_unreachable", True)
        game.act(Action.make("reveal", seat=game.session.game.turn))  # the game goes on
        assert len(game.session.game.history) == 1

    by_hand(scene)


def test_no_store_configured_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPECULATION_TABLE_STORE", raising=False)
    monkeypatch.delenv("SPECULATION_TABLE_REFEREE_STORE", raising=False)
    session, _game = teacher(None)
    assert session.open_table() is None and session.notice.key == "class.host.needs_store"


# ------------------------------------------------------------------ the teacher's actions
def test_t3_the_teachers_change_is_published_to_the_class(store: TableStore) -> None:
    def scene() -> None:
        session, game = teacher(store)
        session.open_table()
        due = game.session.game.turn  # Ana sits elsewhere: the teacher's card is not hers (issue 27)
        ana = join(session, store, "Ana", (due + 1) % 4)
        game.act(Action.make("reveal", seat=due))
        latest = ana.latest()
        assert latest is not None and latest.step == 1
        session.let_go()

    by_hand(scene)


def test_t4_t9_pause_seats_and_places_go_through_the_referee(store: TableStore) -> None:
    def scene() -> None:
        session, _game = teacher(store)
        session.open_table()
        ana = join(session, store, "Ana", 1)
        assert session.toggle_pause() and session.paused
        assert session.toggle_pause() and not session.paused
        assert session.switch_seat(1, "teacher") and session.kind(1) == "teacher"
        assert session.switch_seat(1, "teacher") and session.kind(1) == "people"
        # T2: a seat with students keeps them, whatever the page sent: refused in the notice
        assert not session.switch_seat(1, "computer")
        refusal = session.notice.refusal
        assert session.notice.error and getattr(refusal, "rule", "") == "T2" and session.kind(1) == "people"
        assert session.switch_seat(2, "computer") and session.kind(2) == "computer"
        assert session.place(ana.member, -1) and session.kind(1) == "free"
        assert [m.seat for m in session.members()] == [None]
        session.let_go()

    by_hand(scene)


@pytest.mark.parametrize(("member", "seat"), [(None, 1), ("", 1), (7, 1), ("m1", "2"), ("m1", 1.5), ("m1", True)])
def test_t9_a_place_request_with_a_wrong_value_changes_nothing(member: Any, seat: Any) -> None:
    def scene() -> None:
        store = MemoryStore()
        session, _game = teacher(store)
        session.open_table()
        join(session, store, "Ana", 1)
        before = [(m.id, m.seat) for m in session.members()]
        assert not session.place(member, seat)
        assert session.notice.error and [(m.id, m.seat) for m in session.members()] == before
        session.let_go()

    by_hand(scene)


def test_t7_t10_a_poll_and_the_export(store: TableStore) -> None:
    def scene() -> None:
        session, _game = teacher(store)
        referee = session.open_table()
        assert referee is not None
        ana = join(session, store, "Ana", None)
        assert session.ask() and session.poll is not None and session.poll.open
        assert not session.ask() and getattr(session.notice.refusal, "rule", "") == "T7"  # one open poll
        token = ana.post("answer", poll=session.poll.id, price=6)
        referee.handle_pending()
        assert (reply := ana.reply(token)) is not None and reply.ok
        assert session.close_poll() and not session.poll.open
        text = session.export()
        record = json.loads(text)
        assert session.exported is not None and session.exported.text == text
        assert session.exported.name == f"speculation-table-{session.code}.json"
        assert [m["name"] for m in record["members"]] == ["Ana"] and referee.host_secret not in text
        assert record["polls"][0]["answers"]
        session.let_go()

    by_hand(scene)


# ------------------------------------------------------------------ close
def test_t10_close_wipes_the_table_tells_the_students_and_forgets_it(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        session, _game = teacher(store, device)
        referee = session.open_table()
        assert referee is not None
        code = referee.code
        ana = join(session, store, "Ana", 1)
        session.export()
        session.close_table()
        assert not session.open and not store.exists(code) and device.kept is None
        assert session.exported is None and session.notice.key == "class.host.closed_seed"
        assert {"kind": "closed"} in run_loop(lambda: ana.updates(timeout=0))

    by_hand(scene)


def test_letting_go_keeps_the_table_for_a_reload(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        session, _game = teacher(store, device)
        referee = session.open_table()
        assert referee is not None
        session.let_go()
        assert not session.open and store.exists(referee.code) and device.kept is not None

    by_hand(scene)


# ------------------------------------------------------------------ resume after a reload
def test_t9_a_reload_resumes_the_kept_table_with_its_game_and_members(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        first, game = teacher(store, device)
        referee = first.open_table()
        assert referee is not None
        join(first, store, "Ana", 2)  # not the seat due: the teacher's card is not hers (issue 27)
        game.act(Action.make("reveal", seat=game.session.game.turn))
        history = list(game.session.game.history)
        first.let_go()  # the page reloads: a new kernel, a new session; the device kept the table
        second, game2 = teacher(store, device, seed=99)
        second.offer_kept(device.kept)
        assert second.kept == device.kept and not second.open
        assert second.resume() is not None and second.code == referee.code
        assert game2.session.game.history == history  # the table's game replaced the one shown
        assert [m.name for m in second.members()] == ["Ana"] and second.kind(2) == "people"
        assert second.kept is None and second.notice.key == "class.host.resumed"
        second.let_go()

    by_hand(scene)


@pytest.mark.parametrize(
    "kept",
    [None, "code", {"code": 5, "secret": "s"}, {"code": "ABCDEFGHJK"}, {"code": "ABCDEFGHJK", "secret": "s" * 40}],
)
def test_t9_whatever_the_device_kept_a_table_that_is_not_there_offers_nothing(kept: Any) -> None:
    session, _game = teacher(MemoryStore())
    session.offer_kept(kept)
    assert session.kept is None and session.resume() is None


def test_t9_a_wrong_secret_does_not_resume_and_is_forgotten(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        first, _game = teacher(store, device)
        referee = first.open_table()
        assert referee is not None
        first.let_go()
        second, _game2 = teacher(store, device)
        second.offer_kept({"code": referee.code, "secret": "not the secret"})
        assert second.kept is not None
        assert second.resume() is None and not second.open and device.kept is None
        assert getattr(second.notice.refusal, "rule", "") == "T9"

    by_hand(scene)


def test_t10_a_new_table_over_a_kept_one_closes_the_kept_one(store: TableStore) -> None:
    def scene() -> None:
        device = Device()
        first, _game = teacher(store, device)
        old = first.open_table()
        assert old is not None
        ana = join(first, store, "Ana", 1)
        first.let_go()
        second, _game2 = teacher(store, device)
        second.offer_kept(device.kept)
        new = second.replace_kept()
        assert new is not None and new.code != old.code and not store.exists(old.code)
        assert device.kept == {"code": new.code, "secret": new.host_secret}
        assert {"kind": "closed"} in run_loop(lambda: ana.updates(timeout=0))
        second.let_go()

    by_hand(scene)


# ------------------------------------------------------------------ the serve task
def test_the_referee_serves_on_the_loop_and_a_second_page_takes_over(store: TableStore) -> None:
    """Opened on a running loop, the session serves as a task; another page resuming the table
    stops the first (T12), which says so and still keeps the table on the device."""

    async def scene() -> None:
        device = Device()
        first, _game = teacher(store, device)
        told: list[str] = []
        first.observe(lambda: told.append(first.notice.key))
        referee = first.open_table()
        assert referee is not None and first.task is not None
        ana = Member(store, referee.code)
        assert (await ana.join("Ana", 0)).ok  # answered by the serve task
        kept = dict(device.kept or {})
        second, _game2 = teacher(store, device)
        second.offer_kept(kept)
        assert second.resume() is not None
        for _ in range(4000):  # waits for the condition; the bound is a safety net only
            if not first.open:
                break
            await asyncio.sleep(0.01)
        assert not first.open and first.task is None and referee.stopped == "superseded"
        assert first.notice == type(first.notice)("class.host.stopped", True) and "class.host.stopped" in told
        assert device.kept == kept  # the second page serves the table the device keeps
        assert (await Member(store, referee.code).join("Bea", 2)).ok  # answered by the second page
        second.close_table()
        await asyncio.sleep(0)

    run_loop(scene)


def test_a_store_failing_while_open_is_trouble_and_the_game_goes_on() -> None:
    def scene() -> None:
        store = FlakyStore()
        session, game = teacher(store)
        session.open_table()
        store.failing = True
        game.act(Action.make("reveal", seat=game.session.game.turn))
        assert session.trouble and len(game.session.game.history) == 1
        store.failing = False
        game.act(Action.make("reveal", seat=game.session.game.turn))
        assert not session.trouble and (moment := store.get(session.code, "moment")) is not None
        assert moment["step"] == 2
        session.let_go()

    by_hand(scene)


def test_the_app_adapter_is_a_table_game() -> None:
    from speculation_nb.app.model import Controller
    from speculation_nb.app.teacher.app_game import AppTable
    from speculation_nb.classroom.teacher_game import TableGame

    assert isinstance(AppTable(Controller(None, seed=1, mode="classroom")), TableGame)
    assert isinstance(SessionTable(Session(Rules(players=3), seed=1)), TableGame)
