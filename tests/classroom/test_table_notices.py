"""Issue 27: what a table has to say reaches every page.

* The table was restored (its store went back after a crash; ``Referee.restored``, the
  ``{"kind": "restored"}`` event): the teacher's page says so with what was lost, and every
  student's page says so too.
* A store that fails under a live table (corrupted, unreachable) is said on the teacher's page,
  not only to new students ("needs a server").
* A request whose page was told "did not answer in time: try again" is never applied after all:
  it carries its deadline, and the referee drops (and logs) a request past it; on SQLite and on a
  real redis-server too.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import html
import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flaky_store import FlakyStore
from loops import run_loop
from table_room import Class

from speculation_nb import Action, Rules, Session
from speculation_nb.classroom.codes import new_request_id, new_token
from speculation_nb.classroom.errors import TableRefusal
from speculation_nb.classroom.host_session import HostSession
from speculation_nb.classroom.member import REPLY_GRACE, REPLY_TIMEOUT, Member
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.stores.base import MemoryStore, TableStore, open_store
from speculation_nb.classroom.stores.sqlite_store import SQLiteStore
from speculation_nb.classroom.teacher_game import SessionHost, SessionTable
from speculation_nb.languages.translator import translator

T = translator("en")


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_SEED", "7")


async def until(condition: Callable[[], object], what: str, patience: float = 60.0) -> None:
    """Wait for ``condition()`` (a condition, not a time: ``patience`` only bounds a failure)."""
    deadline = time.monotonic() + patience
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


# ------------------------------------------------------------------ the table restored
def test_issue27_a_restored_table_is_said_on_the_teachers_page_and_every_students() -> None:
    room = Class()
    try:
        store, code = room.store, room.referee.code
        bob = room.join("Bob", room.c.game.turn)
        cy = room.join("Cy", None)
        assert not room.panel.ui.restored.value and room.panel.ui.restored.layout.display == "none"
        older = copy.deepcopy(store._tables[code])  # what a crash would bring back
        room.join("Alice", (room.c.game.turn + 1) % 4)  # a join and a moment the crash will lose
        store._tables[code] = older  # the crash: the store restarts from the older copy
        room.serve()  # the referee notices (its cursor is past the store's requests) and says so
        restored = room.referee.restored
        assert restored is not None and restored.requests == 1
        said = text(room.panel.ui.restored.value)
        assert said == T("table.restored.teacher", requests="1", events=str(restored.events))
        assert room.panel.ui.restored.layout.display != "none"
        for page in (bob, cy):
            events: list[dict[str, object]] = []
            for _ in range(200):  # the events it finds, then an idle look, when it reads the meta
                found = run_loop(lambda page=page: page.member.updates(timeout=0.05))
                events += found
                if not found:
                    break
            assert {"kind": "restored"} in events
            page.session.take_events(events)
            page.refresh_from_store()
            assert T("table.restored.student") in text(page.ui.member_banner.value)
            assert page.ui.member_banner.layout.display != "none"
    finally:
        room.close()


# ------------------------------------------------------------------ the store fails under a live table
def test_issue27_a_corrupted_sqlite_store_under_a_live_table_is_said_and_so_is_its_repair(tmp_path: Path) -> None:
    """The teacher's page says when the store fails (not only new students, "needs a server"),
    and again when it is well: here an administrator puts back a copy of the file (a new file
    where the old one was, as a restore from a backup does), and the referee serves on."""
    path = tmp_path / "tables.sqlite3"
    host = HostSession(SessionTable(Session(Rules(players=4), seed=7)), SQLiteStore(path))
    told: list[bool] = []
    host.observe(lambda: told.append(bool(host.open and host.trouble)))
    referee = host.open_table()
    assert referee is not None and not host.trouble
    copy = tmp_path / "backup.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as source, contextlib.closing(sqlite3.connect(copy)) as target:
        source.backup(target)

    def sidecars() -> None:
        for name in ("tables.sqlite3-wal", "tables.sqlite3-shm"):
            (tmp_path / name).unlink(missing_ok=True)

    async def scene() -> None:
        serving = asyncio.get_running_loop().create_task(referee.serve(interval=0.05))
        path.write_bytes(b"this is not a database, a careless administrator wrote here" * 200)
        sidecars()
        await until(lambda: host.trouble, "the teacher is told the store failed")
        path.write_bytes(copy.read_bytes())
        sidecars()
        await until(lambda: not host.trouble, "the teacher is told the store is well again")
        referee.close()
        await serving

    run_loop(scene)
    assert True in told, "the panel was told (it redraws from the session's observers)"
    assert told[-1] is False, "and told again once the store answered"
    assert SQLiteStore(path).exists(referee.code), "the table is in the restored file"
    host.let_go()


def test_issue27_the_panel_says_when_the_store_fails_under_a_live_table() -> None:
    room = Class(store=FlakyStore())
    try:
        store = room.store
        assert isinstance(store, FlakyStore)
        store.failing = True
        room.c.next_card()  # the teacher plays on: the moment cannot be published
        assert T("class.host.store_failed") in text(room.panel.ui.status.value)
        store.failing = False
        room.c.next_card()
        assert T("class.host.store_failed") not in text(room.panel.ui.status.value)
    finally:
        room.close()


# ------------------------------------------------------------------ "did not answer in time"
@pytest.fixture(params=["memory", "sqlite", "redis"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TableStore, TableStore]]:
    """(the referee's store, a student's) of each kind: Redis with the documented users."""
    if request.param == "memory":
        one = MemoryStore()
        yield one, one
        return
    if request.param == "sqlite":
        made: list[TableStore] = [SQLiteStore(tmp_path / "t.sqlite3"), SQLiteStore(tmp_path / "t.sqlite3")]
    else:
        server = request.getfixturevalue("redis_server")
        made = [open_store(server.url("referee")), open_store(server.url("student"))]  # type: ignore[list-item]
    yield made[0], made[1]
    for store in made:
        store.close()


def test_issue27_a_request_past_its_deadline_is_dropped_logged_and_never_applied(
    stores: tuple[TableStore, TableStore], caplog: pytest.LogCaptureFixture
) -> None:
    referee_store, student_store = stores
    session = next(s for s in (Session(Rules(players=3), seed=x) for x in range(1, 60)) if not s.game.over)
    referee = Referee.open(referee_store, SessionHost(session))
    late = lambda: time.time() + REPLY_TIMEOUT + REPLY_GRACE + 1  # noqa: E731  (the referee reads it late)
    ann = Member(student_store, referee.code, page=new_token())
    token = ann.post("join", name="Ann", seat=session.game.turn)
    referee.desk.wall = late
    with caplog.at_level(logging.WARNING, "speculation_nb.table"):
        assert referee.handle_pending() == 1
    reply = ann.reply(token)
    assert reply is not None and not reply.ok and (reply.rule, reply.key) == ("T6", "table.no_answer")
    assert referee.members() == [], "the join its page gave up on was not applied"
    assert "past its deadline" in caplog.text
    referee.desk.wall = time.time  # in time: applied
    token = ann.post("join", name="Ann", seat=session.game.turn)
    referee.handle_pending()
    reply = ann.reply(token)
    assert reply is not None and reply.ok and ann.joined
    history = len(session.game.history)
    token = ann.post("act", seat=ann.seat, action=Action.make("reveal", seat=ann.seat).to_dict())
    referee.desk.wall = late
    referee.handle_pending()
    reply = ann.reply(token)
    assert reply is not None and reply.key == "table.no_answer" and len(session.game.history) == history
    referee.desk.wall = time.time
    record = {
        "kind": "join",
        "rid": new_request_id(),
        "reply": new_token(),
        "name": "Bo",
        "page": new_token(),
        "deadline": "soon",
    }
    student_store.append(referee.code, "requests", record)
    referee.handle_pending()
    answer = referee_store.get(referee.code, f"reply:{record['reply']}")
    assert answer is not None and answer["key"] == "table.bad_request"
    assert [m.name for m in referee.members()] == ["Ann"]
    referee.wipe()


# ------------------------------------------------------------------ what a student's kernel can read
def test_issue27_nothing_in_the_sqlite_file_reveals_a_face_down_card_while_the_table_is_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SQLite every kernel of the server can open the file: every byte of it (the record
    included: its session is sealed with the host secret) shows no seed of the table's deals and
    no pile, and the teacher's reload still resumes from it."""
    monkeypatch.delenv("SPECULATION_TABLE_SEED")  # a secret seed, as in class
    path = tmp_path / "tables.sqlite3"
    game = SessionTable(Session(Rules(players=4), seed=7))
    host = HostSession(game, SQLiteStore(path))
    referee = host.open_table()
    assert referee is not None
    ann = Member(SQLiteStore(path), referee.code, page=new_token())
    ann.post("join", name="Ann", seat=(game.session.game.turn + 1) % 4)
    referee.handle_pending()
    game.act(Action.make("reveal", seat=game.session.game.turn))
    session = game.session.to_dict()
    seeds = {session["seed"], *(g["seed"] for g in session["games"])}
    piles = [json.dumps(p, separators=(",", ":")) for p in session["games"][0]["deal"]["piles"]]
    with sqlite3.connect(path) as raw:
        names = [row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        text = " ".join(str(row) for name in names for row in raw.execute(f"SELECT * FROM {name}"))
    assert text and referee.code in text
    for seed in seeds:
        assert str(seed) not in text, "a seed of the table's deals is readable"
    for pile in piles:
        assert pile not in text.replace(" ", ""), "a pile's face-down cards are readable"
    assert not any(key in text for key in ('"piles"', '"stock"')), "the deal's layout is readable"
    secret = referee.host_secret
    host.let_go()
    again = Referee.resume(SQLiteStore(path), referee.code, secret, SessionHost)  # the teacher reloads
    assert again.host.session.to_dict() == session
    with pytest.raises(TableRefusal):
        Referee.resume(SQLiteStore(path), referee.code, "another secret" * 3, SessionHost)
    again.wipe()
