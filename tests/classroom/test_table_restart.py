"""Nothing lost to a restart (issue 27, item 6): a real redis-server with append-only ``everysec``
persistence and the generated ACL, as deploy/README.md sets it up, restarted for real.

* A clean restart (SIGTERM) keeps every table and every request: replayed with the generated ACL
  (Redis 7.0 checks the ``default`` user's rights when it replays a transaction; before, every
  table was lost with NOPERM in the log).
* A crash that brings back an older state (SIGKILL, then an older copy of the files) is noticed by
  the referee (the store's streams end before its cursor): it goes on from where the store is,
  answers the requests that come after, and says so (``Referee.restored``; each member's
  ``updates()`` gives ``{"kind": "restored"}`` once and reads the events again).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator

import pytest
from loops import run_loop
from redis_server import RedisServer, redis_server_binary

from speculation_nb import Rules, Session
from speculation_nb.classroom.member import Member, Reply
from speculation_nb.classroom.referee import Referee, SessionHost
from speculation_nb.classroom.stores.base import StoreError, TableStore, open_store

PATIENCE = 60.0


@pytest.fixture(scope="module")
def persistent() -> Iterator[RedisServer]:
    """A Redis server of its own (the tests restart it), with append-only persistence."""
    pytest.importorskip("redis", reason="the redis client is missing: pip install -e '.[test]'")
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed: apt-get install redis-server (./scripts/test does)")
    with RedisServer(persistent=True) as server:
        yield server


def _open(url: str) -> TableStore:
    store = open_store(url)
    assert store is not None
    return store


def retried(call: Callable[[], object]) -> object:
    """``call()``, again while the store says it failed (a connection from before the restart is
    dropped at its first use: a write is never retried by the client, once is the rule)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            return call()
        except StoreError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def join(store: TableStore, referee: Referee, name: str, seat: int | None = None) -> Member:
    member = Member(store, referee.code)
    token = member.post("join", name=name, seat=seat)
    retried(referee.handle_pending)
    reply = member.reply(token)
    assert reply is not None and reply.ok, reply
    return member


def session() -> Session:
    return next(s for s in (Session(Rules(players=3), seed=x) for x in range(1, 60)) if not s.game.over)


def test_a_clean_restart_loses_no_table_and_no_request(persistent: RedisServer) -> None:
    referee_store, student_store = _open(persistent.url("referee")), _open(persistent.url("student"))
    referee = Referee.open(referee_store, SessionHost(session()))
    fanny = join(student_store, referee, "Fanny")
    taken = Member(student_store, referee.code)
    taken_token = taken.post("join", name="Mary", seat=None)
    assert len(referee_store.read(referee.code, "requests", after=1)) == 1  # taken in (numbered), not handled
    waiting = Member(student_store, referee.code)
    in_inbox = waiting.post("join", name="Edmund", seat=None)  # still in the inbox
    moment = referee_store.get(referee.code, "moment")

    persistent.restart()

    assert "NOPERM" not in persistent.log_text() and "CRITICAL" not in persistent.log_text()
    assert retried(lambda: referee_store.exists(referee.code)), "the table is back"
    assert referee_store.get(referee.code, "moment") == moment
    assert retried(referee.handle_pending) == 2, "the request taken in and the one in the inbox"
    for member, token in ((waiting, in_inbox), (taken, taken_token)):
        reply = member.reply(token)
        assert reply is not None and reply.ok, "no request lost"
    assert [m.name for m in referee.members()] == ["Fanny", "Mary", "Edmund"]
    assert referee.restored is None, "nothing went back"
    again = Referee.resume(referee_store, referee.code, referee.host_secret, SessionHost)  # the teacher reloads
    assert [m.name for m in again.members()] == ["Fanny", "Mary", "Edmund"]
    assert fanny.joined
    again.wipe()


def test_a_crash_that_brings_back_an_older_state_is_noticed_and_announced(persistent: RedisServer) -> None:
    referee_store, student_store = _open(persistent.url("referee")), _open(persistent.url("student"))
    referee = Referee.open(referee_store, SessionHost(session()))
    follower = join(student_store, referee, "Fanny")
    join(student_store, referee, "Edmund")

    def updates(member: Member) -> list[dict[str, object]]:
        async def go() -> list[dict[str, object]]:
            return await member.updates(timeout=0.05)

        return run_loop(go)

    while updates(follower):  # the follower has read every event so far
        pass
    persistent.restart()  # everything so far is on disk
    older = persistent.folder / "older"
    shutil.copytree(persistent.folder / "appendonlydir", older)
    for seat, name in enumerate(("Mary", "Henry", "Julia")):  # then three more requests, seated: moments
        join(student_store, referee, name, seat)
    while updates(follower):
        pass
    assert retried(lambda: referee_store.last(referee.code, "requests")) == 5

    def bring_back_the_older_copy() -> None:
        shutil.rmtree(persistent.folder / "appendonlydir")
        shutil.copytree(older, persistent.folder / "appendonlydir")

    persistent.restart(crash=True, meanwhile=bring_back_the_older_copy)

    assert retried(lambda: referee_store.last(referee.code, "requests")) == 2, "the store went back"
    late = Member(student_store, referee.code)
    token = late.post("join", name="Tom", seat=None)  # numbered 3 by the store: below the cursor (5)
    retried(referee.handle_pending)
    reply: Reply | None = late.reply(token)
    assert reply is not None and reply.ok, "the request after the crash is answered, not dropped"
    restored = referee.restored
    assert restored is not None and (restored.count, restored.requests) == (1, 3) and restored.events >= 3
    assert restored.key == "table.restored.teacher" and restored.params["requests"] == 3
    assert [m.name for m in referee.members()] == ["Fanny", "Edmund", "Mary", "Henry", "Julia", "Tom"]
    meta = referee_store.get(referee.code, "meta")
    assert meta is not None and meta["restored"][0] == 1
    seen: list[dict[str, object]] = []
    for _ in range(100):  # the events it finds, then an idle look, when it reads the table's meta
        found = updates(follower)
        seen += found
        if not found:
            break
    assert seen.count({"kind": "restored"}) == 1, "the member is told once"
    assert follower.restored == 1 and {"kind": "restored"} not in updates(follower)
    newest = follower.latest()
    assert newest is not None and newest.version == referee.version, "the member follows the table again"
    referee.wipe()
