"""The table stores: one suite for MemoryStore, SQLiteStore and RedisStore (a real redis-server).

Every store must behave as the reference, :class:`MemoryStore`: tables made once per code,
streams numbered 1, 2, 3 in the order the store took the records (across processes too),
waits that wake up, keys, expiry, wipe, and StoreError for what it refuses. The Redis store is
also checked against its ACL users: a student's kernel may add requests and read what the
referee publishes, and nothing else (the table's rule T3: only the referee writes the table).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis_server import RedisServer
from waiting import PATIENCE, until

from speculation_nb.classroom.stores import sqlite_store
from speculation_nb.classroom.stores.base import MAX_RECORD, MemoryStore, StoreError, TableStore, open_store, together
from speculation_nb.classroom.stores.file_watch import watch
from speculation_nb.classroom.stores.redis_store import RedisStore
from speculation_nb.classroom.stores.sqlite_store import SQLiteStore

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_code() -> str:
    """A fresh table code (T1's alphabet), so that tests sharing one server never meet."""
    return "".join(secrets.choice(ALPHABET) for _ in range(10))


def told(store: TableStore, stream: str, number: int | None, expected: int) -> bool:
    """An append was told its record's number, or None where the store numbers it later (Redis:
    a request is numbered when the referee takes it in from the inbox)."""
    if stream == "requests" and isinstance(store, RedisStore):
        return number is None
    return number == expected


def store_url(kind: str, tmp: Path, server: RedisServer | None) -> str:
    """An address every process can open: what the multiprocessing tests hand their workers."""
    if kind == "sqlite":
        return f"sqlite://{tmp / 'stores' / 'tables.sqlite3'}"
    assert server is not None
    return server.url("referee")


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """Each store in turn (a fresh one: memory, a new SQLite file, the session's Redis)."""
    if request.param == "memory":
        made: TableStore = MemoryStore()
    elif request.param == "sqlite":
        made = SQLiteStore(tmp_path / "stores" / "tables.sqlite3")
    else:
        made = _open_redis(request.getfixturevalue("redis_server").url("referee"))
    yield made
    made.close()


@pytest.fixture(params=["sqlite", "redis"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The address of a store several processes share."""
    server = request.getfixturevalue("redis_server") if request.param == "redis" else None
    return store_url(request.param, tmp_path, server)


def _open_redis(url: str) -> TableStore:
    made = open_store(url)
    assert made is not None
    return made


# --- tables -------------------------------------------------------------------------------


def test_every_store_is_a_table_store(store: TableStore) -> None:
    assert isinstance(store, TableStore)


def test_sqlite_store_makes_its_folder_and_file_private(tmp_path: Path) -> None:
    """The file holds the members' names and secrets' hashes: for the server's user only."""
    folder = tmp_path / "new" / "tables"
    made = open_store(f"sqlite://{folder / 'tables.sqlite3'}")
    assert isinstance(made, SQLiteStore)
    made.create(new_code(), {})
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "tables.sqlite3").stat().st_mode & 0o777 == 0o600
    assert all(p.stat().st_mode & 0o077 == 0 for p in folder.iterdir()), "the -wal and -shm files too"
    made.close()
    again = SQLiteStore(folder)  # a folder: the file in it
    assert again.path == folder / "tables.sqlite3"
    again.close()


def _append_and_close(store: TableStore, code: str) -> None:
    store.append(code, "events", {"from": "the forked process"})
    store.close()


def test_sqlite_store_goes_on_in_a_forked_process(tmp_path: Path) -> None:
    """A kernel forked with the store open gets connections of its own; its parent's go on."""
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    code = new_code()
    store.create(code, {})
    store.append(code, "events", {"from": "the parent"})
    child = multiprocessing.get_context("fork").Process(target=_append_and_close, args=(store, code))
    child.start()
    child.join(PATIENCE)
    assert child.exitcode == 0
    assert store.append(code, "events", {"from": "the parent"}) == 3
    assert [r["from"] for _, r in store.read(code, "events")] == ["the parent", "the forked process", "the parent"]
    store.close()


def test_sqlite_store_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError):
        SQLiteStore(path)


def test_t1_create_once_per_code(store: TableStore) -> None:
    code = new_code()
    assert not store.exists(code)
    assert store.create(code, {"players": 4, "names": ["Mary", "Édouard"]})
    assert store.exists(code)
    assert not store.create(code, {"players": 2}), "T1: a code names one table"
    assert store.get(code, "meta") == {"players": 4, "names": ["Mary", "Édouard"]}, "a second create changes nothing"
    assert not store.exists(new_code())


def test_absent_table_reads_as_nothing_and_refuses_writes(store: TableStore) -> None:
    code = new_code()
    assert store.read(code, "events") == []
    assert store.get(code, "moment") is None
    assert store.wait(code, "events", timeout=0.05) == []
    for write in (
        lambda: store.append(code, "requests", {"kind": "join"}),
        lambda: store.put(code, "moment", {"version": 1}),
        lambda: store.touch(code),
    ):
        with pytest.raises(StoreError):
            write()
    store.wipe(code)  # nothing happens


# --- streams ------------------------------------------------------------------------------


def test_appends_are_numbered_in_order_per_stream(store: TableStore) -> None:
    code, other = new_code(), new_code()
    store.create(code, {})
    store.create(other, {})
    numbers = [store.append(code, "requests", {"i": i}) for i in range(5)]
    assert all(told(store, "requests", n, i + 1) for i, n in enumerate(numbers))
    assert store.append(code, "events", {"kind": "moment"}) == 1, "each stream has its own numbers"
    assert told(store, "requests", store.append(other, "requests", {"i": 0}), 1), "each table has its own numbers"
    assert store.read(code, "requests") == [(n, {"i": n - 1}) for n in range(1, 6)]
    assert store.read(other, "requests") == [(1, {"i": 0})]
    assert store.last(code, "requests") == 5 and store.last(code, "events") == 1
    assert store.last(new_code(), "events") == 0
    assert store.read(code, "events") == [(1, {"kind": "moment"})]


def test_read_after_and_limit(store: TableStore) -> None:
    code = new_code()
    store.create(code, {})
    for i in range(10):
        store.append(code, "events", {"i": i})
    assert [n for n, _ in store.read(code, "events", after=7)] == [8, 9, 10]
    assert [n for n, _ in store.read(code, "events", after=2, limit=3)] == [3, 4, 5]
    assert store.read(code, "events", after=10) == []
    assert store.read(code, "events", after=99) == []
    assert store.read(code, "events", limit=0) == []
    assert [n for n, _ in store.read(code, "events", after=-5, limit=2)] == [1, 2]
    assert store.read(code, "events", after=10**30) == [] and len(store.read(code, "events", limit=10**30)) == 10


def test_unknown_stream_is_refused(store: TableStore) -> None:
    code = new_code()
    store.create(code, {})
    for call in (
        lambda: store.append(code, "moments", {}),
        lambda: store.read(code, "replies"),
        lambda: store.wait(code, "", timeout=0),
    ):
        with pytest.raises(StoreError, match="stream"):
            call()


def test_wait_times_out_with_nothing(store: TableStore) -> None:
    code = new_code()
    store.create(code, {})
    store.append(code, "events", {"i": 1})
    started = time.monotonic()
    assert store.wait(code, "events", after=1, timeout=0.2) == []
    assert time.monotonic() - started >= 0.19, "it waited its time"
    assert store.wait(code, "events", after=0, timeout=5) == [(1, {"i": 1})], "what is there comes at once"


def test_wait_wakes_on_append_from_another_thread(store: TableStore) -> None:
    code = new_code()
    store.create(code, {})
    got: list[list[tuple[int, dict[str, Any]]]] = []
    waiting = threading.Thread(target=lambda: got.append(store.wait(code, "requests", timeout=PATIENCE)))
    waiting.start()
    assert told(store, "requests", store.append(code, "requests", {"kind": "act", "rid": "r1"}), 1)
    waiting.join(PATIENCE)
    assert got == [[(1, {"kind": "act", "rid": "r1"})]]


def _append_later(url: str, code: str, go: Any) -> None:
    store = open_store(url)
    assert store is not None
    go.wait(PATIENCE)
    store.append(code, "events", {"kind": "moment", "from": "another process"})
    store.close()


def wait_for_another_process(store: TableStore, url: str, code: str) -> list[tuple[int, dict[str, Any]]]:
    """What ``store.wait`` finds while another process (at ``url``) appends one event to ``code``."""
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    writer = context.Process(target=_append_later, args=(url, code, go))
    writer.start()
    go.set()
    found = store.wait(code, "events", timeout=PATIENCE)
    writer.join(PATIENCE)
    assert writer.exitcode == 0
    return found


def test_wait_wakes_on_append_from_another_process(shared_url: str) -> None:
    store = open_store(shared_url)
    assert store is not None
    code = new_code()
    store.create(code, {})
    found = wait_for_another_process(store, shared_url, code)
    assert found == [(1, {"kind": "moment", "from": "another process"})]
    store.close()


#: Another process's write, as SQLite's writer does it in another kernel: data, then (here) close.
WRITER = "import sys\nwith open(sys.argv[1], 'a') as f:\n    f.write('a commit\\n')\n"


def write_from_another_process(path: Path) -> subprocess.Popen[bytes]:
    """Start a process that appends a line to ``path``; the caller waits for it (``.wait()``)."""
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path)])


def test_a_file_watch_wakes_on_another_process_write(tmp_path: Path) -> None:
    """file_watch: a sleeping watch wakes when another process writes; once the writer has
    finished and the watch has taken what is queued, it sleeps again. Whether the writer's close
    wakes the same call as its data or the next one is timing, so it is not asserted (see
    :meth:`FileWatch.wait`)."""
    target = tmp_path / "tables.sqlite3-wal"
    target.write_text("")
    wal = watch(target)
    if wal is None:
        pytest.skip("no inotify here: the store polls")
    with wal:
        assert wal.wait(0.05) is False  # nothing written: it sleeps its timeout
        writer = write_from_another_process(target)
        assert wal.wait(PATIENCE) is True  # returns before PATIENCE only when woken
        assert writer.wait(PATIENCE) == 0
        wal.wait(0)  # the writer's close, if it came after the wake-up: True or False, both right
        assert wal.wait(0.05) is False  # the writer has ended: nothing more comes
    with pytest.raises(ValueError, match="closed"):
        wal.wait(0)


def test_a_file_watch_takes_a_finished_write_whole_in_one_wake_up(tmp_path: Path) -> None:
    """file_watch: a write another process finished before the call wakes that call only (all of
    its events, data and close, are taken at once); a write after it wakes the next call (none is
    missed between two calls)."""
    target = tmp_path / "tables.sqlite3-wal"
    target.write_text("")
    wal = watch(target)
    if wal is None:
        pytest.skip("no inotify here: the store polls")
    with wal:
        for _ in range(2):
            assert write_from_another_process(target).wait(PATIENCE) == 0  # ended: its events are queued
            assert wal.wait(0) is True
            assert wal.wait(0) is False  # that write was taken once


def test_a_file_watch_of_a_missing_file_is_none(tmp_path: Path) -> None:
    """Where the file cannot be watched the store polls instead."""
    assert watch(tmp_path / "no-such-file") is None


def test_sqlite_wait_is_woken_by_the_wal_not_the_safety_net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit by another process wakes ``wait`` through the watched ``-wal`` file: with the
    safety net's look moved past the timeout, only the wake-up can find the record."""
    shared_url = store_url("sqlite", tmp_path, None)
    monkeypatch.setattr(sqlite_store, "WATCHED_POLL", 10 * PATIENCE)
    store = open_store(shared_url)
    assert isinstance(store, SQLiteStore)
    code = new_code()
    store.create(code, {})
    wal = watch(f"{store.path}-wal")
    if wal is None:
        pytest.skip("no inotify here: the store polls")
    wal.close()
    found = wait_for_another_process(store, shared_url, code)
    assert found == [(1, {"kind": "moment", "from": "another process"})]
    store.close()


def test_sqlite_writes_together_commit_once_or_not_at_all(tmp_path: Path) -> None:
    """``together``: the referee's writes of one step are one commit (the followers wake once and
    read them all); when one fails, none is kept and the error is raised."""
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    other = SQLiteStore(store.path)  # another kernel's
    code = new_code()
    store.create(code, {})
    with together(store):
        store.put(code, "moment", {"step": 1})
        store.append(code, "events", {"kind": "moment"})
        with together(store):  # inside another: the outer one commits
            store.touch(code)
        assert other.get(code, "moment") is None  # not committed yet
    assert other.get(code, "moment") == {"step": 1}
    assert other.read(code, "events") == [(1, {"kind": "moment"})]
    with pytest.raises(StoreError), together(store):
        store.put(code, "moment", {"step": 2})
        store.append(new_code(), "events", {"kind": "moment"})  # no such table
    assert other.get(code, "moment") == {"step": 1}
    assert store.append(code, "events", {"kind": "after"}) == 2  # the store goes on
    other.close()
    store.close()


def test_together_on_a_store_without_it_writes_each_alone() -> None:
    store = MemoryStore()
    code = new_code()
    store.create(code, {})
    with together(store):
        store.put(code, "moment", {"step": 1})
        assert store.get(code, "moment") == {"step": 1}


def _append_many(url: str, code: str, worker: int, count: int, go: Any, numbers: Any) -> None:
    store = open_store(url)
    assert store is not None
    go.wait(PATIENCE)
    mine = [store.append(code, "requests", {"worker": worker, "i": i}) for i in range(count)]
    numbers.put((worker, mine))
    store.close()


def test_processes_appending_at_once_lose_and_double_nothing(shared_url: str) -> None:
    """4 processes x 100 appends to one stream at once: 400 records numbered 1..400, each once,
    each process's in its own order, and each append told the number it was given."""
    workers, count = 4, 100
    store = open_store(shared_url)
    assert store is not None
    code = new_code()
    store.create(code, {})
    context = multiprocessing.get_context("spawn")
    go, numbers = context.Event(), context.Queue()
    processes = [
        context.Process(target=_append_many, args=(shared_url, code, w, count, go, numbers)) for w in range(workers)
    ]
    for process in processes:
        process.start()
    go.set()
    given = dict(numbers.get(timeout=PATIENCE * 3) for _ in processes)
    for process in processes:
        process.join(PATIENCE)
        assert process.exitcode == 0
    records = store.read(code, "requests", limit=10_000)
    assert [n for n, _ in records] == list(range(1, workers * count + 1)), "1..400, no gap, no double"
    assert sorted((r["worker"], r["i"]) for _, r in records) == [(w, i) for w in range(workers) for i in range(count)]
    for worker in range(workers):
        theirs = [(n, r["i"]) for n, r in records if r["worker"] == worker]
        assert [i for _, i in theirs] == list(range(count)), f"process {worker}'s records in its order"
        if shared_url.startswith("sqlite"):
            assert [n for n, _ in theirs] == given[worker], f"process {worker} was told its records' numbers"
        else:  # Redis numbers a request when the referee takes it in
            assert given[worker] == [None] * count
    store.close()


# --- keys ---------------------------------------------------------------------------------


def test_put_and_get(store: TableStore) -> None:
    code = new_code()
    store.create(code, {"players": 3})
    token = secrets.token_urlsafe(32)
    store.put(code, "moment", {"version": 1})
    store.put(code, "moment", {"version": 2})
    store.put(code, f"reply:{token}", {"ok": True, "rid": "abcdefgh"})
    store.put(code, "record", {"session": {"deal": 1}, "members": []})
    assert store.get(code, "moment") == {"version": 2}, "the last put counts"
    assert store.get(code, f"reply:{token}") == {"ok": True, "rid": "abcdefgh"}
    assert store.get(code, "record") == {"session": {"deal": 1}, "members": []}
    assert store.get(code, "reply:other") is None
    store.put(code, "meta", {"players": 4})
    assert store.get(code, "meta") == {"players": 4}


def test_records_are_copies(store: TableStore) -> None:
    code = new_code()
    record: dict[str, Any] = {"list": [1, 2]}
    store.create(code, record)
    store.append(code, "events", record)
    record["list"].append(3)
    assert store.get(code, "meta") == {"list": [1, 2]}
    read = store.read(code, "events")[0][1]
    read["list"].append(4)
    assert store.read(code, "events")[0][1] == {"list": [1, 2]}


# --- expiry and wipe ----------------------------------------------------------------------


def test_t1_tables_expire_whole(store: TableStore) -> None:
    """T1: a code lives as long as its table; an expired table reads as absent, everywhere."""
    code = new_code()
    store.create(code, {"players": 2}, ttl=0.3)
    store.append(code, "requests", {"kind": "join"})
    store.append(code, "events", {"kind": "moment"})
    store.put(code, "reply:" + "t" * 32, {"ok": True})
    store.put(code, "record", {"r": 1})
    assert until(lambda: not store.exists(code))
    assert store.get(code, "meta") is None
    assert store.get(code, "record") is None
    assert store.get(code, "reply:" + "t" * 32) is None
    assert store.read(code, "requests") == [] and store.read(code, "events") == []
    with pytest.raises(StoreError):
        store.append(code, "requests", {"kind": "join"})
    with pytest.raises(StoreError):
        store.put(code, "moment", {})
    assert store.create(code, {"players": 3}), "an expired code may be made again"
    assert store.get(code, "record") is None
    assert store.append(code, "events", {"kind": "moment"}) == 1, "a new table counts from 1"


def test_t1_touch_keeps_a_table(store: TableStore) -> None:
    """T1: a table lives 6 h after its referee last touched it (here: from the touch on)."""
    first, second = new_code(), new_code()
    store.create(first, {}, ttl=0.5)
    store.put(first, "reply:" + "u" * 32, {"ok": True})
    store.create(second, {}, ttl=0.5)  # made after the first: it would expire after it
    store.touch(first, ttl=3600)
    assert until(lambda: not store.exists(second))
    assert store.exists(first)
    assert store.get(first, "reply:" + "u" * 32) == {"ok": True}, "touch keeps every key of the table"
    assert store.append(first, "events", {}) == 1


def test_t10_wipe_removes_everything(store: TableStore) -> None:
    """T10: wipe removes the table from the store (T1: and at once)."""
    code = new_code()
    store.create(code, {"players": 2})
    store.append(code, "requests", {"kind": "join"})
    store.put(code, "reply:" + "w" * 32, {"ok": True})
    store.put(code, "moment", {"version": 1})
    store.wipe(code)
    assert not store.exists(code)
    assert store.read(code, "requests") == []
    assert store.get(code, "reply:" + "w" * 32) is None and store.get(code, "moment") is None
    assert store.create(code, {"players": 3})
    assert store.get(code, "reply:" + "w" * 32) is None
    assert told(store, "requests", store.append(code, "requests", {"kind": "join"}), 1)
    assert store.read(code, "requests") == [(1, {"kind": "join"})], "a new table counts from 1"
    store.wipe(code)
    store.wipe(code)


# --- what a store refuses -----------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        pytest.param({"text": "x" * (MAX_RECORD + 1)}, id="too-large"),
        pytest.param({"cards": {"QH", "KS"}}, id="a-set"),
        pytest.param({"price": float("nan")}, id="nan"),
        pytest.param({"name": "\ud800"}, id="lone-surrogate"),
        pytest.param(["not", "an", "object"], id="a-list"),
        pytest.param("text", id="a-string"),
    ],
)
def test_records_that_are_not_small_json_objects_are_refused(store: TableStore, record: Any) -> None:
    code = new_code()
    assert store.create(code, {"players": 2})
    for call in (
        lambda: store.append(code, "requests", record),
        lambda: store.put(code, "moment", record),
        lambda: store.create(new_code(), record),
    ):
        with pytest.raises(StoreError):
            call()
    assert store.read(code, "requests") == [] and store.get(code, "moment") is None, "a refusal changes nothing"


def test_largest_record_is_taken(store: TableStore) -> None:
    code = new_code()
    store.create(code, {})
    record = {"t": "é" * ((MAX_RECORD - 8) // 2)}  # é is 2 bytes of UTF-8
    store.put(code, "record", record)
    assert store.get(code, "record") == record


# --- any appends read back the same in every store -----------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
_RECORD = st.dictionaries(st.text(max_size=8), _JSON, max_size=4)


@pytest.fixture(scope="module")
def every_store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[list[TableStore]]:
    stores: list[TableStore] = [MemoryStore(), SQLiteStore(tmp_path_factory.mktemp("property") / "t.sqlite3")]
    with contextlib.suppress(pytest.skip.Exception):  # no Redis here: the other two still agree
        stores.append(_open_redis(request.getfixturevalue("redis_server").url("referee")))
    yield stores
    for made in stores:
        made.close()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    appends=st.lists(st.tuples(st.sampled_from(["requests", "events"]), _RECORD), max_size=25),
    after=st.integers(min_value=0, max_value=30),
    limit=st.integers(min_value=0, max_value=30),
)
def test_any_appends_read_back_the_same_in_every_store(
    every_store: list[TableStore], appends: list[tuple[str, dict[str, Any]]], after: int, limit: int
) -> None:
    code = new_code()
    expected: dict[str, list[tuple[int, dict[str, Any]]]] = {"requests": [], "events": []}
    for stream, record in appends:
        expected[stream].append((len(expected[stream]) + 1, record))
    for made in every_store:
        made.create(code, {})
        numbers = {"requests": 0, "events": 0}
        for stream, record in appends:
            numbers[stream] += 1
            assert told(made, stream, made.append(code, stream, record), numbers[stream]), made
        for stream, records in expected.items():
            assert made.read(code, stream) == records, made
            assert made.read(code, stream, after=after, limit=limit) == records[after : after + limit], made
            assert made.wait(code, stream, after=after, timeout=0, limit=limit) == records[after : after + limit], made
        made.wipe(code)


# --- Redis: who may do what (ACL users) ---------------------------------------------------


@pytest.fixture()
def redis_users(redis_server: RedisServer) -> Iterator[tuple[TableStore, TableStore, str]]:
    referee, student = _open_redis(redis_server.url("referee")), _open_redis(redis_server.url("student"))
    code = new_code()
    referee.create(code, {"players": 3})
    yield referee, student, code
    referee.wipe(code)
    referee.close()
    student.close()


def test_redis_student_may_post_requests_and_read_what_is_published(
    redis_users: tuple[TableStore, TableStore, str],
) -> None:
    referee, student, code = redis_users
    token = secrets.token_urlsafe(32)
    referee.put(code, "moment", {"version": 3})
    referee.put(code, f"reply:{token}", {"ok": True, "rid": "r1"})
    referee.append(code, "events", {"kind": "moment"})
    assert student.exists(code)
    assert student.get(code, "meta") == {"players": 3}
    assert student.get(code, "moment") == {"version": 3}
    assert student.get(code, f"reply:{token}") == {"ok": True, "rid": "r1"}
    assert student.read(code, "events") == [(1, {"kind": "moment"})]
    assert student.append(code, "requests", {"kind": "join", "name": "Fanny"}) is None, "numbered when taken in"
    assert referee.read(code, "requests") == [(1, {"kind": "join", "name": "Fanny"})]
    got: list[list[tuple[int, dict[str, Any]]]] = []
    waiting = threading.Thread(target=lambda: got.append(student.wait(code, "events", after=1, timeout=PATIENCE)))
    waiting.start()
    referee.append(code, "events", {"kind": "poll"})
    waiting.join(PATIENCE)
    assert got == [[(2, {"kind": "poll"})]]
    with pytest.raises(StoreError):
        student.append(new_code(), "requests", {"kind": "join"})  # no such table: NOMKSTREAM


def test_t3_t10_redis_student_may_not_read_requests_nor_the_record_nor_write_the_table(
    redis_users: tuple[TableStore, TableStore, str],
) -> None:
    """T3/T10: the requests carry seat secrets and the record the members; only the referee writes."""
    referee, student, code = redis_users
    referee.put(code, "record", {"members": ["Fanny"]})
    student.append(code, "requests", {"kind": "act", "secret": "s" * 32})
    for refused in (
        lambda: student.read(code, "requests"),
        lambda: student.wait(code, "requests", timeout=0.1),
        lambda: student.get(code, "record"),
        lambda: student.append(code, "events", {"kind": "moment", "forged": True}),
        lambda: student.put(code, "moment", {"version": 99}),
        lambda: student.put(code, "reply:" + "x" * 32, {"ok": True}),
        lambda: student.create(new_code(), {}),
        lambda: student.touch(code),
        lambda: student.wipe(code),
    ):
        with pytest.raises(StoreError, match="may not"):
            refused()
    assert referee.read(code, "events") == [] and referee.get(code, "moment") is None, "nothing was written"
    assert referee.exists(code)


def test_redis_student_cannot_list_or_reach_other_keys(redis_server: RedisServer) -> None:
    import redis

    referee = _open_redis(redis_server.url("referee"))
    code = new_code()
    referee.create(code, {})
    client = redis.Redis.from_url(redis_server.url("student"))
    try:
        for command in (
            ("KEYS", "*"),
            ("SCAN", "0"),
            ("SMEMBERS", f"spec:{code}:keys"),
            ("GET", "other"),
            ("FLUSHALL",),
            ("CONFIG", "GET", "*"),
            ("EVAL", "return 1", "0"),
            ("PUBLISH", "spec:x", "1"),
        ):
            with pytest.raises(redis.exceptions.NoPermissionError):
                client.execute_command(*command)
    finally:
        client.close()
        referee.wipe(code)
        referee.close()


def test_redis_referee_may_do_everything_with_tables(redis_users: tuple[TableStore, TableStore, str]) -> None:
    referee, _student, code = redis_users
    referee.append(code, "requests", {"kind": "join"})
    assert referee.read(code, "requests") == [(1, {"kind": "join"})]
    referee.put(code, "record", {"r": 1})
    assert referee.get(code, "record") == {"r": 1}
    referee.touch(code, ttl=60)
    assert referee.append(code, "events", {"kind": "closed"}) == 1


def test_redis_keys_of_a_table_expire_at_one_instant(redis_server: RedisServer) -> None:
    """All of a table's keys go at once: never a moment without its meta, a reply without its table."""
    import redis

    referee = _open_redis(redis_server.url("referee"))
    code = new_code()
    referee.create(code, {}, ttl=600)
    referee.put(code, "moment", {"version": 1})
    referee.put(code, "reply:" + "z" * 32, {"ok": True})
    referee.put(code, "record", {"r": 1})
    referee.touch(code, ttl=3600)
    client = redis.Redis.from_url(redis_server.url("referee"))
    try:
        names = [f"spec:{code}:{name}" for name in ("meta", "moment", "record", "requests", "events", "keys", "inbox")]
        names.append(f"spec:{code}:reply:" + "z" * 32)
        instants = {client.execute_command("PEXPIRETIME", name) for name in names}
        assert len(instants) == 1 and instants.pop() > 0, "one instant, in the future"
    finally:
        client.close()
        referee.wipe(code)
        referee.close()


def test_redis_needs_a_user_and_its_password(redis_server: RedisServer) -> None:
    for url in (redis_server.url("default", ""), redis_server.url("student", "wrong-password-123")):
        store = _open_redis(url)
        with pytest.raises(StoreError) as refused:
            store.exists(new_code())
        assert "wrong-password" not in str(refused.value)
        store.close()
    with pytest.raises(StoreError):
        _open_redis("redis://127.0.0.1:1/0").exists("A")  # nobody listens there


def test_redis_acl_rules_refuse_weak_or_equal_passwords() -> None:
    from speculation_nb.classroom.stores.redis_store import redis_acl_rules

    with pytest.raises(StoreError):
        redis_acl_rules("short", "x" * 20)
    with pytest.raises(StoreError):
        redis_acl_rules("y" * 20, "y" * 20)
    rules = redis_acl_rules("r" * 20, "s" * 20)
    assert all(line.startswith("ACL SETUSER ") for line in rules)
    assert not any("r" * 20 in line or "s" * 20 in line for line in rules), "hashes, never the passwords"


# --- the hub gives teachers the referee's address, everyone else the student's ----------------


def _hub_config(monkeypatch: pytest.MonkeyPatch, **environment: str) -> Any:
    from traitlets.config import Config

    config = Config()
    path = Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub_config.py"
    monkeypatch.setenv("SPECULATION_CLASS_PASSWORD", "class-password")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    exec(compile(path.read_text(), str(path), "exec"), {"get_config": lambda: config, "__file__": str(path)})
    return config


def test_hub_config_gives_teachers_the_referee_store(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    referee, student = "redis://referee:r@127.0.0.1:6379/0", "redis://student:s@127.0.0.1:6379/0"
    config = _hub_config(
        monkeypatch,
        SPECULATION_REDIS_REFEREE=referee,
        SPECULATION_REDIS_STUDENT=student,
        SPECULATION_TEACHER_PASSWORD="t" * 32,
    )
    choose = config.Spawner.environment["SPECULATION_TABLE_STORE"]

    def spawner(*groups: str) -> Any:
        return SimpleNamespace(user=SimpleNamespace(groups=[SimpleNamespace(name=g) for g in groups]))

    assert choose(spawner("teachers")) == referee
    assert choose(spawner("teachers", "class-4b")) == referee
    assert choose(spawner()) == student and choose(spawner("class-4b")) == student
    assert config.JupyterHub.load_groups == {"teachers": {"users": ["teacher"]}}, "the admin account, its own password"


def test_hub_config_without_redis_offers_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPECULATION_REDIS_REFEREE", raising=False)
    monkeypatch.delenv("SPECULATION_REDIS_STUDENT", raising=False)
    config = _hub_config(monkeypatch)
    assert "SPECULATION_TABLE_STORE" not in config.Spawner.environment and "load_groups" not in config.JupyterHub
    assert set(config.Spawner.environment) == {"JUPYTER_PATH"}  # only where the app's Voila template is
