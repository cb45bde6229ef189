"""Where a shared table lives: one small interface, an in-memory store, and :func:`open_store`.

The kernels of a Voila server (and of JupyterHub users on other machines) share no memory,
so a shared table (:mod:`speculation_nb.classroom`) keeps everything the kernels exchange in a
store every kernel can reach. A table, named by its code, holds:

* two append-only **streams** of small JSON records, each numbered 1, 2, 3, ... in the order
  the store took them (one order for every reader, so two bids at the same instant are
  ordered, never lost or doubled):

  - ``"requests"``: written by the students' kernels (join, act, answer, ...), read by the
    table's referee only (the teacher's kernel, the single writer of everything else);
  - ``"events"``: written by the referee only (each published moment, poll changes, the
    table closing), read by everyone;

* **keys**, each holding one JSON record, written by the referee: ``"meta"`` (what a joining
  kernel may read before it joins: the seats, the languages), ``"moment"`` (the latest
  published moment, for a kernel that arrives late), ``"record"`` (the referee's own record:
  the session, the members, the polls; read by the referee only) and ``"reply:<token>"`` (the
  referee's answer to one request, read by the kernel that chose the random token).

**What a student's kernel writes is bounded.** A request is at most :data:`MAX_REQUEST` bytes of
JSON (a join, an action or an answer is a few hundred); every record read back is at most
:data:`MAX_DEPTH` levels deep. A stored record that cannot be read (not JSON, not an object,
nested deeper, written by something else than a store) is *skipped*: :func:`read_entry` logs why
and gives ``{}`` under its number, so a reader's cursor moves past it and one bad record never
stops a table (the referee drops a request without a reply token).

Every table expires ``ttl`` seconds after it was created or last touched by its referee
(:meth:`TableStore.touch`); an expired table reads as absent. :meth:`TableStore.wipe` removes a
table at once.

Implementations: :class:`MemoryStore` (one process: tests, notebooks), ``SQLiteStore`` (one
machine: a file in WAL mode, :mod:`.sqlite_store`) and ``RedisStore`` (kernels of different
users or machines: Redis streams, ``XREAD BLOCK`` wake-ups, ACL users, :mod:`.redis_store`);
:func:`open_store` picks one from a URL such as the ``SPECULATION_TABLE_STORE`` setting.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DEFAULT_TTL",
    "MAX_DEPTH",
    "MAX_RECORD",
    "MAX_REQUEST",
    "REFEREE_SETTING",
    "STORE_SETTING",
    "STREAMS",
    "MemoryStore",
    "StoreError",
    "TableStore",
    "bounded",
    "check_stream",
    "dump_record",
    "load_record",
    "open_store",
    "read_entry",
    "record_limit",
    "together",
]

STREAMS = ("requests", "events")
#: Seconds a table lives after its referee last touched it (a lesson, with room to spare).
DEFAULT_TTL = 6 * 3600
#: The longest record a store takes, in bytes of its JSON (a request or a moment is far smaller;
#: the referee's ``"record"`` of a long session is the largest).
MAX_RECORD = 4 * 1024 * 1024
#: The longest request (stream ``"requests"``, written by students' kernels), in bytes of its JSON.
MAX_REQUEST = 4096
#: The deepest nesting of objects and lists a record may have (a request has 2, a moment 4).
MAX_DEPTH = 32
#: The environment variable naming the store (see :func:`open_store`).
STORE_SETTING = "SPECULATION_TABLE_STORE"
#: The store a kernel that referees a table uses, when it differs (see :func:`open_store`).
REFEREE_SETTING = "SPECULATION_TABLE_REFEREE_STORE"


log = logging.getLogger("speculation_nb.table")


class StoreError(Exception):
    """The store refused or failed (a record too large, not JSON, a server unreachable)."""


def dump_record(record: Mapping[str, Any], limit: int = MAX_RECORD) -> str:
    """``record`` as compact JSON; :class:`StoreError` if it is not a JSON object, is more than
    ``limit`` bytes or more than :data:`MAX_DEPTH` levels deep."""
    if not isinstance(record, Mapping):
        raise StoreError("a record is a JSON object")
    try:
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise StoreError(f"a record must be plain JSON: {type(error).__name__}") from None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise StoreError("a record's text must be valid Unicode (a lone surrogate is not)") from None
    if size > limit:
        raise StoreError(f"a record is at most {limit} bytes")
    if _depth(record) > MAX_DEPTH:
        raise StoreError(f"a record is at most {MAX_DEPTH} levels deep")
    return text


def load_record(text: str | bytes) -> dict[str, Any]:
    """The record stored as ``text``; :class:`StoreError` if it is not a JSON object of at most
    :data:`MAX_DEPTH` levels (deeper text is refused before the parser recurses into it)."""
    if _bracket_depth(text) > MAX_DEPTH:
        raise StoreError(f"a stored record is more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError) as error:
        raise StoreError(f"a stored record is not JSON: {type(error).__name__}") from None
    if not isinstance(value, dict):
        raise StoreError("a stored record is not a JSON object")
    return value


def read_entry(text: str | bytes | None, code: str, stream: str, number: int) -> dict[str, Any]:
    """Record ``number`` of ``stream`` as read, or ``{}`` when it cannot be read (logged with the
    reason): the reader moves past it; the referee drops a request that has no reply token."""
    if text is None:
        log.warning("table %s: record %s of %s is not a store's record: skipped", code, number, stream)
        return {}
    try:
        return load_record(text)
    except StoreError as error:
        log.warning("table %s: record %s of %s skipped: %s", code, number, stream, error)
        return {}


def record_limit(stream: str) -> int:
    """The most bytes a record of ``stream`` may have: :data:`MAX_REQUEST` for requests."""
    return MAX_REQUEST if stream == "requests" else MAX_RECORD


def _depth(value: Any) -> int:
    """How deeply ``value`` nests objects and lists (0 for a number or text), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, Mapping) else item if isinstance(item, (list, tuple)) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        todo.extend((child, level + 1) for child in children)
    return deepest


def _bracket_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text``, outside its strings (a cheap scan:
    the parser is never handed text that would make it recurse too deep)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if "[" not in text and "{" not in text:
        return 0
    depth = deepest = 0
    inside = escaped = False
    for ch in text:
        if inside:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                inside = False
        elif ch == '"':
            inside = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


@runtime_checkable
class TableStore(Protocol):
    """What every store offers. Records are JSON objects (``dict``); codes and keys are short
    strings the caller has checked (:mod:`speculation_nb.classroom.codes`). Every method may raise
    :class:`StoreError`; reads of an absent or expired table give ``None`` / ``[]`` / False."""

    def create(self, code: str, meta: Mapping[str, Any], ttl: float = DEFAULT_TTL) -> bool:
        """Make table ``code`` with its ``"meta"`` key; False (nothing changes) if it exists."""
        ...

    def exists(self, code: str) -> bool:
        """True while table ``code`` exists and has not expired."""
        ...

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        """The table lives ``ttl`` seconds from now."""
        ...

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int | None:
        """Add ``record`` at the end of ``stream`` (one of :data:`STREAMS`); its number (1, 2, ...),
        or None where the store numbers it later (Redis numbers a request when the referee takes
        it in). :class:`StoreError` if the table does not exist or the record is too large
        (:func:`record_limit`)."""
        ...

    def read(self, code: str, stream: str, after: int = 0, limit: int = 1000) -> list[tuple[int, dict[str, Any]]]:
        """The records of ``stream`` numbered above ``after``, oldest first, at most ``limit``."""
        ...

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        """:meth:`read`, but when nothing is there yet, block up to ``timeout`` seconds for it
        (a wake-up, not a busy loop); ``[]`` after the timeout. Safe to call from a thread."""
        ...

    def last(self, code: str, stream: str) -> int:
        """The number of the last record ever added to ``stream`` (0: none, or no table). A reader
        whose cursor is beyond it knows the store lost records (a crash restored an older state)."""
        ...

    def put(self, code: str, key: str, record: Mapping[str, Any]) -> None:
        """Set key ``key`` of table ``code`` to ``record`` (:class:`StoreError` if no such table)."""
        ...

    def get(self, code: str, key: str) -> dict[str, Any] | None:
        """The record at ``key``, or None."""
        ...

    def wipe(self, code: str) -> None:
        """Remove table ``code`` and everything in it (nothing happens if it is absent)."""
        ...

    def close(self) -> None:
        """Let go of connections and files (the store is not used afterwards)."""
        ...


class _Table:
    def __init__(self, meta: dict[str, Any], expires: float) -> None:
        self.streams: dict[str, list[dict[str, Any]]] = {name: [] for name in STREAMS}
        self.keys: dict[str, dict[str, Any]] = {"meta": meta}
        self.expires = expires


class MemoryStore:
    """A :class:`TableStore` in this process's memory (threads may share it): for tests, for a
    notebook that plays a table with itself, and as the reference the other stores are tested
    against. Records are copied in and out through JSON, as a real store would."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._tables: dict[str, _Table] = {}
        self._changed = threading.Condition()

    def _table(self, code: str) -> _Table | None:
        table = self._tables.get(code)
        if table is not None and table.expires <= self._clock():
            del self._tables[code]
            return None
        return table

    def _live(self, code: str) -> _Table:
        table = self._table(code)
        if table is None:
            raise StoreError(f"no table {code!r}")
        return table

    def create(self, code: str, meta: Mapping[str, Any], ttl: float = DEFAULT_TTL) -> bool:
        copy = load_record(dump_record(meta))
        with self._changed:
            if self._table(code) is not None:
                return False
            self._tables[code] = _Table(copy, self._clock() + ttl)
            return True

    def exists(self, code: str) -> bool:
        with self._changed:
            return self._table(code) is not None

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        with self._changed:
            self._live(code).expires = self._clock() + ttl

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int:
        check_stream(stream)
        copy = load_record(dump_record(record, record_limit(stream)))
        with self._changed:
            records = self._live(code).streams[stream]
            records.append(copy)
            self._changed.notify_all()
            return len(records)

    def read(self, code: str, stream: str, after: int = 0, limit: int = 1000) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        with self._changed:
            return self._read(code, stream, after, limit)

    def _read(self, code: str, stream: str, after: int, limit: int) -> list[tuple[int, dict[str, Any]]]:
        table = self._table(code)
        if table is None:
            return []
        records = table.streams[stream]
        start = max(0, int(after))
        limit = max(0, int(limit))
        return [(start + i + 1, load_record(dump_record(r))) for i, r in enumerate(records[start : start + limit])]

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        deadline = time.monotonic() + max(0.0, timeout)
        with self._changed:
            while True:
                found = self._read(code, stream, after, limit)
                left = deadline - time.monotonic()
                if found or left <= 0:
                    return found
                self._changed.wait(left)

    def last(self, code: str, stream: str) -> int:
        check_stream(stream)
        with self._changed:
            table = self._table(code)
            return 0 if table is None else len(table.streams[stream])

    def put(self, code: str, key: str, record: Mapping[str, Any]) -> None:
        copy = load_record(dump_record(record))
        with self._changed:
            self._live(code).keys[key] = copy
            self._changed.notify_all()

    def get(self, code: str, key: str) -> dict[str, Any] | None:
        with self._changed:
            table = self._table(code)
            value = None if table is None else table.keys.get(key)
            return None if value is None else load_record(dump_record(value))

    def wipe(self, code: str) -> None:
        with self._changed:
            self._tables.pop(code, None)
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self._tables.clear()


def together(store: TableStore) -> contextlib.AbstractContextManager[None]:
    """Several writes as one where the store can (``SQLiteStore.together``: one transaction, one
    commit, so the followers wake once); elsewhere each write stands alone."""
    method = getattr(store, "together", None)
    return method() if callable(method) else contextlib.nullcontext()


def bounded(number: int) -> int:
    """``number`` as a record number or count a store's queries take: 0 .. 2**63 - 1."""
    return min(max(0, int(number)), 2**63 - 1)


def check_stream(stream: str) -> None:
    """:class:`StoreError` unless ``stream`` is one of :data:`STREAMS`."""
    if stream not in STREAMS:
        raise StoreError(f"a stream is one of {', '.join(STREAMS)}, not {stream!r}")


def open_store(url: str | None = None, *, referee: bool = False) -> TableStore | None:
    """The store ``url`` names (``SPECULATION_TABLE_STORE`` when None); None when there is none
    (the static site, a kernel nobody configured: the shared table is then unavailable).
    ``referee``: for a kernel that opens or resumes a table, ``SPECULATION_TABLE_REFEREE_STORE``
    when it is set (on JupyterHub each group gets its own ``SPECULATION_TABLE_STORE``, see
    ``deploy/README.md``; one Voila server whose every kernel has both can use the two Redis users).

    * ``memory:`` a :class:`MemoryStore` (this process only);
    * ``sqlite:///absolute/path/tables.sqlite3`` SQLite in WAL mode (one machine, one user);
    * ``redis://user:password@host:6379/0`` Redis (``rediss://`` with TLS), which needs the
      ``redis`` client (the ``table`` extra of the package).

    :class:`StoreError` for a URL of any other shape, with the reason.
    """
    if url is None:
        url = (os.environ.get(REFEREE_SETTING, "").strip() if referee else "") or os.environ.get(
            STORE_SETTING, ""
        ).strip()
    if not url:
        return None
    if url == "memory:":
        return MemoryStore()
    if url.startswith("sqlite:///"):
        from .sqlite_store import SQLiteStore

        return SQLiteStore(url.removeprefix("sqlite://"))
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore

        return RedisStore(url)
    raise StoreError(f"a table store is memory:, sqlite:///path or redis://..., not {url[:40]!r}")
