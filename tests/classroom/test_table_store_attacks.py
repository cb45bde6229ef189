"""A store a student cannot poison (issue 27): every attack seen with the student's Redis password,
against a real redis-server with the ACL of deploy/README.md, and the SQLite store's counterparts.

Each attack is made beside honest students, who join while it happens: the referee keeps serving
them, every honest request gets its answer (none is lost), and what the attacker wrote is refused
by Redis, dropped unread or skipped with the reason logged.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from loops import run_loop
from redis_server import RedisServer
from waiting import PATIENCE, until

from speculation_nb import Rules, Session
from speculation_nb.classroom.member import Member, Reply
from speculation_nb.classroom.referee import Referee, SessionHost
from speculation_nb.classroom.stores.base import (
    MAX_DEPTH,
    MAX_REQUEST,
    MemoryStore,
    StoreError,
    TableStore,
    load_record,
    open_store,
)
from speculation_nb.classroom.stores.sqlite_store import SQLiteStore

#: What a student's kernel can push into a table's inbox besides honest requests.
JUNK: dict[str, bytes] = {
    "not JSON": b"{not json",
    "not UTF-8": b"\xff\xfe\x00junk",
    "empty": b"",
    "a JSON list": b"[1, 2, 3]",
    "JSON nested 2000 deep": b"[" * 2000 + b"]" * 2000,
    "an object nested 1000 deep": b'{"kind": "join", "name": ' + b'{"a":' * 600 + b"1" + b"}" * 600 + b"}",
    "no reply token": b'{"kind": "join", "name": "Nobody", "seat": null, "rid": "abcdefgh"}',
    "wrong types": b'{"kind": ["join"], "rid": 7, "reply": {"x": 1}, "member": null, "secret": 5}',
    "a 3.9 MB name": b'{"kind": "join", "name": "'
    + b"x" * 3_900_000
    + b'", "rid": "abcdefgh", "reply": "'
    + b"r" * 40
    + b'"}',
}


def new_session() -> Session:
    return next(s for s in (Session(Rules(players=3), seed=x) for x in range(1, 60)) if not s.game.over)


class Class:
    """A referee on the referee's store, honest students on the student's, and the attacker's raw
    Redis client, logged in as the student user."""

    def __init__(self, server: RedisServer) -> None:
        import redis

        self.referee_store = _open(server.url("referee"))
        self.student_store = _open(server.url("student"))
        self.referee = Referee.open(self.referee_store, SessionHost(new_session()))
        self.code = self.referee.code
        self.attacker = redis.Redis.from_url(server.url("student"))
        self.admin = redis.Redis.from_url(server.url("referee"))
        self.inbox = f"spec:{self.code}:inbox"
        self.joined: list[tuple[Member, str]] = []

    def post_join(self, name: str) -> tuple[Member, str]:
        """An honest student posts a join (answered later)."""
        member = Member(self.student_store, self.code)
        token = member.post("join", name=name, seat=None)
        self.joined.append((member, token))
        return member, token

    def answered(self) -> list[Reply]:
        """Every honest join's reply (each must have one)."""
        replies = []
        for member, token in self.joined:
            reply = member.reply(token)
            assert reply is not None, f"an honest request was lost: {member.name}"
            replies.append(reply)
        return replies

    def close(self) -> None:
        self.referee.wipe()
        for client in (self.attacker, self.admin):
            client.close()
        self.referee_store.close()
        self.student_store.close()


def _open(url: str) -> TableStore:
    store = open_store(url)
    assert store is not None
    return store


@pytest.fixture()
def lesson(redis_server: RedisServer) -> Iterator[Class]:
    made = Class(redis_server)
    yield made
    made.close()


# --- what Redis refuses to the student ------------------------------------------------------


def test_redis_student_may_not_choose_ids_trim_delete_or_touch_the_streams(lesson: Class) -> None:
    """Issue 27, item 5: ``XADD`` with the explicit id ``1-0`` made every later post fail;
    ``MAXLEN 0`` deleted others' unread requests. The student may now only ``RPUSHX`` the inbox."""
    import redis

    code, attacker = lesson.code, lesson.attacker
    requests, events, inbox = f"spec:{code}:requests", f"spec:{code}:events", lesson.inbox
    _, early = lesson.post_join("Early")  # an unread honest request, which the attacks must not touch
    refused = [
        ("XADD", requests, "1-0", "r", "{}"),
        ("XADD", requests, "18446744073709551615-18446744073709551615", "r", "{}"),
        ("XADD", requests, "MAXLEN", "0", "*", "r", "{}"),
        ("XADD", inbox, "*", "r", "{}"),
        ("XADD", events, "*", "r", '{"kind": "moment"}'),
        ("XTRIM", requests, "MAXLEN", "0"),
        ("XDEL", requests, "0-1"),
        ("XSETID", requests, "99-0"),
        ("XGROUP", "CREATE", requests, "g", "0"),
        ("XRANGE", requests, "-", "+"),
        ("XINFO", "STREAM", requests),
        ("DEL", inbox),
        ("UNLINK", inbox),
        ("LTRIM", inbox, "0", "0"),
        ("LPOP", inbox),
        ("RPOP", inbox),
        ("LREM", inbox, "0", "x"),
        ("LSET", inbox, "0", "x"),
        ("LRANGE", inbox, "0", "-1"),
        ("LPUSH", inbox, "x"),
        ("LPUSHX", inbox, "x"),
        ("LINSERT", inbox, "BEFORE", "inbox", "x"),
        ("RPUSH", inbox, "x"),
        ("RPUSH", "spec:INVENTED00:inbox", "x"),
        ("EXPIRE", inbox, "1"),
        ("PERSIST", inbox),
        ("RENAME", inbox, "spec:x:inbox"),
        ("SET", f"spec:{code}:meta", "{}"),
        ("SET", f"spec:{code}:reply:{'x' * 40}", "{}"),
        ("GET", f"spec:{code}:record"),
        ("EVAL", "return 1", "0"),
        ("FCALL", "f", "0"),
        ("FUNCTION", "LOAD", "#!lua name=x\nredis.register_function('f', function() return 1 end)"),
        ("SUBSCRIBE", f"__keyspace@0__:{inbox}"),
        ("PUBLISH", "spec:x", "1"),
        ("KEYS", "*"),
        ("SCAN", "0"),
        ("FLUSHALL",),
        ("CONFIG", "SET", "maxmemory", "1"),
    ]
    for command in refused:
        with pytest.raises(redis.exceptions.NoPermissionError):
            attacker.execute_command(*command)
    lesson.post_join("Late")
    assert lesson.referee.handle_pending() == 2
    assert all(reply.ok for reply in lesson.answered()), "every honest request answered"
    assert [m.name for m in lesson.referee.members()] == ["Early", "Late"]
    assert early


def test_redis_student_makes_no_key_of_an_invented_table(lesson: Class) -> None:
    """Issue 27, item 5: streams of invented tables had no time to live and filled maxmemory.
    ``RPUSHX`` makes no key: a push to a table that does not exist adds nothing at all."""
    invented = [f"spec:{secrets.token_hex(5).upper()}:inbox" for _ in range(200)]
    for key in invented:
        assert lesson.attacker.execute_command("RPUSHX", key, "x" * 1000) == 0
    assert lesson.admin.exists(*invented) == 0
    with pytest.raises(StoreError, match="no table"):
        lesson.student_store.append("INVENTED00", "requests", {"kind": "join"})
    assert lesson.admin.pttl(lesson.inbox) > 0, "the real inbox expires with its table"


@pytest.mark.parametrize("junk", JUNK.values(), ids=JUNK.keys())
def test_junk_in_the_inbox_is_skipped_and_every_honest_request_answered(
    lesson: Class, junk: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 27, item 5: one non-JSON entry stuck the referee's cursor for good; deeply nested JSON
    killed ``serve()`` with RecursionError. Now each is skipped (or dropped, too long, unread)
    with the reason logged, and the honest requests around it are answered, in order."""
    caplog.set_level(logging.WARNING, logger="speculation_nb.table")
    lesson.post_join("Before")
    assert lesson.attacker.execute_command("RPUSHX", lesson.inbox, junk) > 0
    lesson.post_join("After")
    assert lesson.referee.handle_pending() >= 2
    assert [r.ok for r in lesson.answered()] == [True, True]
    assert [m.name for m in lesson.referee.members()] == ["Before", "After"]
    assert lesson.admin.llen(lesson.inbox) == 1, "the inbox is empty again (its sentinel only)"
    if junk.startswith(b'{"kind": "join", "name": "xxx'):
        assert "dropped, unread" in caplog.text
        assert lesson.admin.xlen(f"spec:{lesson.code}:requests") == 2, "the 3.9 MB entry never reached the stream"
    else:
        assert "skipped" in caplog.text or "dropped" in caplog.text, caplog.text
    assert lesson.referee.stopped is None and lesson.referee.trouble is None


def test_a_flood_of_junk_loses_no_honest_request(lesson: Class) -> None:
    """2000 junk entries of every kind pushed between 20 honest joins: all 20 answered, in order."""
    pipe = lesson.attacker.pipeline(transaction=False)
    kinds = list(JUNK.values())[:-1]  # without the 3.9 MB one: 2000 of those would be 8 GB
    names = [f"Student {i}" for i in range(20)]
    for i, name in enumerate(names):
        for j in range(100):
            pipe.execute_command("RPUSHX", lesson.inbox, kinds[(i + j) % len(kinds)])
        pipe.execute()
        lesson.post_join(name)
    assert until(lambda: lesson.referee.handle_pending() == 0 and len(lesson.referee.members()) == 20)
    assert all(r.ok for r in lesson.answered())
    assert [m.name for m in lesson.referee.members()] == names, "in the order they were posted"


def test_the_serve_loop_goes_on_through_every_attack(lesson: Class) -> None:
    """The referee serving on its event loop (``serve()``, as in a lesson) while every kind of junk
    arrives: it never stops, and each honest student's join is answered."""
    referee = lesson.referee
    stopped = threading.Event()

    async def serve() -> None:
        try:
            await referee.serve(interval=0.2)
        finally:
            stopped.set()

    server = threading.Thread(target=lambda: run_loop(serve), daemon=True)
    server.start()
    try:
        replies = []
        for i, junk in enumerate(JUNK.values()):
            lesson.attacker.execute_command("RPUSHX", lesson.inbox, junk)
            member, token = lesson.post_join(f"Honest {i}")
            replies.append(member.wait_reply(token, timeout=PATIENCE))
        assert all(r.ok for r in replies), [r.key for r in replies if not r.ok]
        assert not stopped.is_set(), "serve() is still serving"
    finally:
        referee.close()
        server.join(PATIENCE)
    assert stopped.is_set() and referee.stopped is None


# --- every store: what a student's kernel may write, and what a reader skips -----------------


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
def test_a_request_is_at_most_max_request_bytes_in_every_store(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "memory":
        store: TableStore = MemoryStore()
    elif kind == "sqlite":
        store = SQLiteStore(tmp_path / "tables.sqlite3")
    else:
        store = _open(request.getfixturevalue("redis_server").url("student"))
        referee = _open(request.getfixturevalue("redis_server").url("referee"))
    code = "".join(secrets.choice("23456789ABCDEFGHJKMNPQRSTUVWXYZ") for _ in range(10))
    (referee if kind == "redis" else store).create(code, {})
    with pytest.raises(StoreError, match="at most"):
        store.append(code, "requests", {"kind": "join", "name": "x" * MAX_REQUEST})
    nested: dict[str, Any] = {}
    for _ in range(MAX_DEPTH + 1):
        nested = {"n": nested}
    with pytest.raises(StoreError, match="deep"):
        store.append(code, "requests", nested)
    store.append(code, "requests", {"kind": "join", "name": "x" * (MAX_REQUEST - 40)})
    reader = referee if kind == "redis" else store
    assert [n for n, _ in reader.read(code, "requests")] == [1], "the refused ones left nothing"
    store.close()
    if kind == "redis":
        reader.wipe(code)
        reader.close()


def test_sqlite_rows_it_cannot_read_are_skipped_and_the_referee_goes_on(tmp_path: Path) -> None:
    """The SQLite store's counterpart: rows written by something else than the store (not JSON,
    nested too deep, not an object) are skipped under their numbers, logged; honest requests
    after them are answered."""
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    referee = Referee.open(store, SessionHost(new_session()))
    raw = sqlite3.connect(store.path)
    for number, body in enumerate(["{not json", "[" * 5000 + "]" * 5000, "[1]", '"text"'], start=1):
        raw.execute("INSERT INTO records VALUES (?, 'requests', ?, ?)", (referee.code, number, body))
    raw.commit()
    raw.close()
    assert [record for _, record in store.read(referee.code, "requests")] == [{}, {}, {}, {}]
    member = Member(store, referee.code)
    token = member.post("join", name="Fanny", seat=None)
    assert referee.handle_pending() == 5
    reply = member.reply(token)
    assert reply is not None and reply.ok
    store.close()


def test_a_record_nested_too_deep_is_refused_before_it_is_parsed() -> None:
    """The parser is never handed text that would make it recurse (RecursionError killed serve())."""
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(StoreError, match="deep"):
            load_record(text)
    brackets = "[" * 64 + '"{'  # inside a string (a quote in it too): not nesting
    assert load_record(json.dumps({"a": brackets})) == {"a": brackets}
