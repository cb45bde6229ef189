"""The shared table in one SQLite file: every kernel of one Voila server (one machine, one user).

:class:`SQLiteStore` keeps the tables of :mod:`.store` in a database file in WAL mode, which
many processes may open at once: readers never wait for the writer, and writers take turns.

* **Order.** An append runs in a ``BEGIN IMMEDIATE`` transaction (the database's one write
  lock, waited for up to :data:`BUSY_TIMEOUT` seconds): it reads the stream's highest number
  and writes the next, so the numbers are 1, 2, 3, ... in the order the store took the
  records, whichever process wrote them.
* **Wake-ups.** :meth:`SQLiteStore.wait` reads, and when nothing is there it sleeps until the
  database's ``-wal`` file is written (:mod:`.file_watch`: inotify, on Linux), then reads again
  when ``PRAGMA data_version`` says another connection committed something (a cheap look at the
  shared WAL index, not a query). Where the file cannot be watched it looks every :data:`POLL`
  seconds instead, and appends by another thread of the same process wake it at once.
* **Threads.** Each thread has its own connection (a connection must not be shared between
  threads in use); :meth:`SQLiteStore.close` closes them all.
* **Time.** A table expires by the wall clock (``time.time``), the one clock every process
  shares.
* **Files.** The database's folder is made with mode 0o700 and the file with 0o600 when they
  are missing (SQLite gives its ``-wal`` and ``-shm`` files the file's mode): the records hold
  seat secrets' hashes and the students' names, for the server's user only.

Every failure of SQLite (a locked database after the timeout, a full disk, a file that is not
a database) is raised as :class:`~speculation_nb.classroom.stores.base.StoreError`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .base import DEFAULT_TTL, StoreError, bounded, check_stream, dump_record, load_record, read_entry, record_limit
from .file_watch import watch

__all__ = ["BUSY_TIMEOUT", "DEFAULT_FILE", "POLL", "WATCHED_POLL", "SQLiteStore", "default_path", "default_url"]

#: Seconds a writer waits for the database's write lock before giving up with StoreError.
BUSY_TIMEOUT = 15.0
#: Seconds between two looks for another process's commit in :meth:`SQLiteStore.wait`, where the
#: ``-wal`` file cannot be watched.
POLL = 0.025
#: Seconds between two looks where it is watched (a safety net: a commit wakes the waiter at once).
WATCHED_POLL = 0.5
#: The file's name when the store is given a folder.
DEFAULT_FILE = "tables.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (code, stream, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys (
    code TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (code, key)
) WITHOUT ROWID;
"""

_EXPIRED = "SELECT code FROM tables WHERE expires <= ?"


def default_path() -> Path:
    """Where one Voila server's kernels keep their tables when nothing else is said:
    ``$XDG_STATE_HOME/speculation_nb/tables.sqlite3`` (``~/.local/state/...`` by default),
    the server's user's own folder, kept across restarts (a teacher's reload resumes)."""
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if state and Path(state).is_absolute() else Path.home() / ".local" / "state"
    return base / "speculation_nb" / DEFAULT_FILE


def default_url() -> str:
    """:func:`default_path` as a ``SPECULATION_TABLE_STORE`` address (``sqlite:///...``)."""
    return f"sqlite://{default_path()}"


#: SQLite's answers that say "wait a moment" (another writer holds the file): the connection is well.
_TRANSIENT = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})


class SQLiteStore:
    """A :class:`~speculation_nb.classroom.stores.base.TableStore` in the SQLite file ``path`` (a folder
    holds it as ``tables.sqlite3``). Many processes and threads may use the same file at once."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        target = Path(path)
        if target.is_dir():
            target = target / DEFAULT_FILE
        self.path = target
        self._lock = threading.Lock()
        self._local = threading.local()
        # (process, thread) -> that thread's connection. A process made by fork keeps its
        # parent's entries untouched (closing them there could disturb the parent's file).
        self._connections: dict[tuple[int, int], tuple[threading.Thread, sqlite3.Connection]] = {}
        self._appended = threading.Condition()
        self._closed = False
        self._generation = 0  # see _forget
        try:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not target.exists():
                os.close(os.open(target, os.O_RDWR | os.O_CREAT, 0o600))
        except OSError as error:
            raise StoreError(f"the table store cannot use {str(target)!r}: {error.strerror}") from None
        with self._write() as connection:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)

    # --- connections -------------------------------------------------------------------

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's exceptions into :class:`StoreError` (the only error a store raises).

        After any failure but a busy file, every connection of this process is closed, and each
        thread opens the file again at its next use: SQLite keeps what it knows of a file per
        process, so a file repaired under a running server (a copy put back where a corrupted
        one was) is found well only by connections opened after it."""
        try:
            yield
        except sqlite3.Error as error:
            # (inside this thread's transaction, its end comes back here)
            if getattr(error, "sqlite_errorname", "") not in _TRANSIENT and getattr(self._local, "batch", None) is None:
                self._forget()
            raise StoreError(f"the table store (SQLite) failed: {error}") from None

    def _forget(self) -> None:
        """Close this process's connections: each thread's next use finds its connection of an
        older generation and opens a new one."""
        pid = os.getpid()
        with self._lock:
            self._generation += 1
            mine = [connection for (owner, _), (_, connection) in self._connections.items() if owner == pid]
            self._connections = {key: value for key, value in self._connections.items() if key[0] != pid}
        for connection in mine:
            with contextlib.suppress(sqlite3.Error):
                connection.close()

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use (and again after a fork)."""
        mine = getattr(self._local, "connection", None)
        if mine is not None and mine[:2] == (os.getpid(), self._generation):
            return mine[2]  # type: ignore[no-any-return]
        if self._closed:
            raise StoreError("the table store is closed")
        with self._errors():
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            try:
                connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
                mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise StoreError(f"the table store {str(self.path)!r} cannot use WAL mode (it is {mode})")
                connection.execute("PRAGMA synchronous = NORMAL")
            except BaseException:
                connection.close()
                raise
        pid = os.getpid()
        self._local.connection = (pid, self._generation, connection)
        with self._lock:
            for (owner, ident), (thread, old) in list(self._connections.items()):
                if owner == pid and not thread.is_alive():  # a finished thread's
                    del self._connections[owner, ident]
                    old.close()
            self._connections[pid, threading.get_ident()] = (threading.current_thread(), connection)
        return connection

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """This thread's writes inside the block in one transaction: one commit, so the waiters
        wake once and see them all, or none of them when one fails (then the error is raised)."""
        if getattr(self._local, "batch", None) is not None:  # inside another: that one commits
            yield
            return
        with self._write() as connection:
            self._local.batch = connection
            try:
                yield
            finally:
                self._local.batch = None

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, holding the database's write lock from its start (or the one
        :meth:`together` holds open)."""
        batch = getattr(self._local, "batch", None)
        if batch is not None:
            yield batch
            return
        connection = self._connection()
        with self._errors():
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise

    @staticmethod
    def _alive(connection: sqlite3.Connection, code: str) -> bool:
        row = connection.execute("SELECT expires FROM tables WHERE code = ?", (code,)).fetchone()
        return row is not None and float(row[0]) > time.time()

    def _require(self, connection: sqlite3.Connection, code: str) -> None:
        if not self._alive(connection, code):
            raise StoreError(f"no table {code!r}")

    # --- the TableStore protocol ---------------------------------------------------------

    def create(self, code: str, meta: Mapping[str, Any], ttl: float = DEFAULT_TTL) -> bool:
        body = dump_record(meta)
        now = time.time()
        with self._write() as connection:
            if self._alive(connection, code):
                return False
            # Tables past their time go now (this one's leftovers too): nothing reads them again.
            for name in ("records", "keys", "tables"):
                connection.execute(f"DELETE FROM {name} WHERE code IN ({_EXPIRED}) OR code = ?", (now, code))
            connection.execute("INSERT INTO tables VALUES (?, ?)", (code, now + ttl))
            connection.execute("INSERT INTO keys VALUES (?, 'meta', ?)", (code, body))
            return True

    def exists(self, code: str) -> bool:
        with self._errors():
            return self._alive(self._connection(), code)

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        with self._write() as connection:
            self._require(connection, code)
            connection.execute("UPDATE tables SET expires = ? WHERE code = ?", (time.time() + ttl, code))

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int:
        check_stream(stream)
        body = dump_record(record, record_limit(stream))
        with self._write() as connection:
            self._require(connection, code)
            last = connection.execute(
                "SELECT COALESCE(MAX(n), 0) FROM records WHERE code = ? AND stream = ?", (code, stream)
            ).fetchone()[0]
            number = int(last) + 1
            connection.execute("INSERT INTO records VALUES (?, ?, ?, ?)", (code, stream, number, body))
        with self._appended:
            self._appended.notify_all()
        return number

    def read(self, code: str, stream: str, after: int = 0, limit: int = 1000) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        limit = bounded(limit)
        if limit == 0:
            return []
        with self._errors():
            rows = (
                self._connection()
                .execute(
                    "SELECT r.n, r.body FROM records AS r JOIN tables AS t ON t.code = r.code"
                    " WHERE r.code = ? AND r.stream = ? AND r.n > ? AND t.expires > ? ORDER BY r.n LIMIT ?",
                    (code, stream, bounded(after), time.time(), limit),
                )
                .fetchall()
            )
        return [(int(n), read_entry(body, code, stream, int(n))) for n, body in rows]

    def last(self, code: str, stream: str) -> int:
        check_stream(stream)
        with self._errors():
            row = (
                self._connection()
                .execute(
                    "SELECT COALESCE(MAX(r.n), 0) FROM records AS r JOIN tables AS t ON t.code = r.code"
                    " WHERE r.code = ? AND r.stream = ? AND t.expires > ?",
                    (code, stream, time.time()),
                )
                .fetchone()
            )
        return int(row[0])

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        deadline = time.monotonic() + max(0.0, timeout)
        connection = self._connection()
        wal = watch(f"{self.path}-wal")  # before the first look: no commit slips in between
        with wal if wal is not None else contextlib.nullcontext():
            while True:
                with self._errors():
                    version = connection.execute("PRAGMA data_version").fetchone()[0]
                found = self.read(code, stream, after, limit)
                if found:
                    return found
                step = WATCHED_POLL
                while True:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return []
                    if wal is not None:
                        woken = wal.wait(min(step, left))
                        # A commit writes the -wal file before it shows in the WAL index: a wake-up
                        # that finds nothing new looks again soon, not only at the safety net.
                        step = POLL if woken else WATCHED_POLL
                    else:
                        with self._appended:
                            woken = self._appended.wait(min(POLL, left))
                    with self._errors():
                        if connection.execute("PRAGMA data_version").fetchone()[0] != version:
                            break
                    if woken and wal is None:
                        break

    def put(self, code: str, key: str, record: Mapping[str, Any]) -> None:
        body = dump_record(record)
        with self._write() as connection:
            self._require(connection, code)
            connection.execute("INSERT OR REPLACE INTO keys VALUES (?, ?, ?)", (code, key, body))

    def get(self, code: str, key: str) -> dict[str, Any] | None:
        with self._errors():
            row = (
                self._connection()
                .execute(
                    "SELECT k.body FROM keys AS k JOIN tables AS t ON t.code = k.code"
                    " WHERE k.code = ? AND k.key = ? AND t.expires > ?",
                    (code, key, time.time()),
                )
                .fetchone()
            )
        return None if row is None else load_record(row[0])

    def wipe(self, code: str) -> None:
        with self._write() as connection:
            for name in ("records", "keys", "tables"):
                connection.execute(f"DELETE FROM {name} WHERE code = ?", (code,))

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._forget()
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"
