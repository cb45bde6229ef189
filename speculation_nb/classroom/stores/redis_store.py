"""The shared table in Redis: kernels of different users or machines (JupyterHub, a cluster).

:class:`RedisStore` keeps table ``<code>`` of :mod:`.base` in these Redis keys:

=============================  ==========================================================
``spec:<code>:meta``           string: the ``"meta"`` record (the table exists while it does)
``spec:<code>:moment``         string: the latest published moment
``spec:<code>:record``         string: the referee's own record
``spec:<code>:reply:<token>``  string: the referee's answer to one request
``spec:<code>:inbox``          list: the students' requests as posted, behind a sentinel
``spec:<code>:requests``       stream: the requests, numbered by the referee
``spec:<code>:events``         stream: the referee's events
``spec:<code>:keys``           set: the names of the keys put besides ``meta`` (to touch and wipe them)
=============================  ==========================================================

* **What a student may write: one list, pushed to.** A student's kernel posts a request with
  ``RPUSHX spec:<code>:inbox`` and can do nothing else that writes (the ``student`` ACL user,
  :func:`redis_acl_rules`). ``RPUSHX`` adds to a list that exists, and never makes one: the inbox
  is made with the table, starting with a sentinel (:mod:`.redis_scripts`), and expires with it;
  so a student makes no key, chooses no id, trims nothing and deletes nothing. A request is at
  most :data:`~.base.MAX_REQUEST` bytes: :meth:`RedisStore.append` refuses a longer one, and
  the referee drops one that came another way, unread.
* **Numbers.** The referee takes the inbox in (:meth:`RedisStore.read` of ``"requests"``): one
  script moves the requests behind the sentinel into the ``requests`` stream with ``XADD
  0-*``, which gives each the stream id ``0-<n>``, ``n`` one more than the stream's last. Only
  the referee writes the two streams, so the record numbers 1, 2, 3, ... *are* the stream ids,
  and nothing is lost between the inbox and the stream. A request is numbered when it is taken
  in (its :meth:`~RedisStore.append` gives None); an event at once.
* **Reading.** A stream entry the store did not write is skipped, with the reason logged
  (:func:`~.base.read_entry`): a reader's cursor always moves on.
* **Wake-ups.** :meth:`RedisStore.wait` of events is ``XREAD BLOCK``: the server answers the
  moment a record arrives. The referee's wait for requests listens to the inbox's keyspace
  notifications (``notify-keyspace-events Kl``, ``deploy/README.md``), and looks every
  :data:`POLL` seconds where they are not sent.
* **Expiry.** Every key of a table expires at one instant (``PEXPIREAT``, set by the scripts).
* **Failures.** A read is tried again after a dropped connection (the client's default); a
  write is not (it may have been done before the connection dropped: once is the rule), and
  the caller gets :class:`~speculation_nb.classroom.stores.base.StoreError`.
* **Persistence.** With ``appendonly yes`` Redis replays the scripts' transactions at start with
  the rules of the ``default`` user (Redis 7.0): :func:`redis_acl_rules` gives that user, which is
  off (no connection can use it), the referee's rights on the tables, so a restart keeps them.

The ``redis`` client is imported when a store is made (the ``table`` extra of the package:
``pip install "speculation_nb[table]"``); the rest of the package never needs it. Every
failure (a server unreachable, a wrong password, a refused command) is a
:class:`~speculation_nb.classroom.stores.base.StoreError`, without the password.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from . import redis_scripts
from .base import (
    DEFAULT_TTL,
    MAX_REQUEST,
    StoreError,
    bounded,
    check_stream,
    dump_record,
    load_record,
    log,
    read_entry,
    record_limit,
)

if TYPE_CHECKING:
    import redis

__all__ = ["POLL", "PREFIX", "RESERVED_KEYS", "RedisStore", "redis_acl_rules", "redis_setup"]

#: Every key of every table starts with this (the ACL rules name it).
PREFIX = "spec:"
#: Key names :meth:`RedisStore.put` refuses: they are the streams and the index of keys.
RESERVED_KEYS = frozenset({"requests", "events", "keys", "inbox"})
#: The longest single ``XREAD BLOCK`` (a longer wait blocks several times): well under the
#: socket timeout, so a server that went away is noticed.
_BLOCK = 5.0
_SOCKET_TIMEOUT = 15.0
#: Seconds between two looks at the inbox while no keyspace notification has come (Redis
#: configured without ``notify-keyspace-events Kl``); once one came, a look every :data:`_SAFETY`.
POLL = 0.05
_SAFETY = 1.0
#: The most requests one take-in moves into the stream.
_TAKE = 1000


def redis_acl_rules(referee_password: str, student_password: str) -> list[str]:
    """The ``ACL SETUSER`` commands of the table's two Redis users and of the ``default`` user.
    Passwords are given as SHA-256 hashes (``#...``), so the lines may go into an ACL file (as
    ``user ...`` lines: drop the ``ACL SETUSER`` in front) without them.

    * ``referee`` (teachers' kernels): every command but the dangerous and administrative ones,
      on the keys ``spec:*``, and the keyspace notifications of the tables' inboxes;
    * ``student`` (students' kernels): ``RPUSHX`` to ``spec:*:inbox`` only (a selector: it may
      not read the inbox, which holds seat secrets); ``GET``/``EXISTS`` of ``spec:*:meta``,
      ``spec:*:moment`` and ``spec:*:reply:*`` (a reply is found by its random token only: no
      ``KEYS`` or ``SCAN``); ``XRANGE``/``XREAD``/``XINFO STREAM`` of ``spec:*:events``. It cannot make a key,
      read the requests or the referee's record, write events or keys, run scripts or publish.
    * ``default``: off (no connection can use it: every one must log in as one of the two), with
      the referee's rights on the tables, which Redis 7.0 checks when it replays the
      transactions of its append-only file at start (without them, a restart loses every table).
    """
    for password in (referee_password, student_password):
        if not isinstance(password, str) or len(password) < 16:
            raise StoreError("a Redis password for the table is 16 characters at least")
    if referee_password == student_password:
        raise StoreError("the referee's and the students' Redis passwords must differ")

    def hashed(password: str) -> str:
        return "#" + hashlib.sha256(password.encode("utf-8")).hexdigest()

    tables = f"+@all -@dangerous -@admin ~{PREFIX}*"
    readable = " ".join(f"%R~{PREFIX}*:{name}" for name in ("events", "meta", "moment", "reply:*"))
    return [
        f"ACL SETUSER default off resetpass {tables} resetchannels",
        f"ACL SETUSER referee reset on {hashed(referee_password)} {tables} resetchannels &__keyspace@*__:{PREFIX}*",
        f"ACL SETUSER student reset on {hashed(student_password)} -@all +ping +select +get +exists +xrange +xread"
        " +xinfo|stream"
        f" {readable} resetchannels (+rpushx %W~{PREFIX}*:inbox)",
    ]


def redis_setup(host: str = "127.0.0.1", port: int = 6379, db: int = 0) -> tuple[list[str], dict[str, str]]:
    """New random passwords for the two users: the lines of a Redis ACL file (``aclfile``,
    the ``user ...`` form of :func:`redis_acl_rules`) and the two store addresses, by the
    names ``deploy/jupyterhub_config.py`` reads (``SPECULATION_REDIS_REFEREE``,
    ``SPECULATION_REDIS_STUDENT``)."""
    referee, student = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    acl = [line.replace("ACL SETUSER ", "user ", 1) for line in redis_acl_rules(referee, student)]
    where = f"{host}:{port}/{db}"
    return acl, {
        "SPECULATION_REDIS_REFEREE": f"redis://referee:{referee}@{where}",
        "SPECULATION_REDIS_STUDENT": f"redis://student:{student}@{where}",
    }


@contextlib.contextmanager
def _errors(code: str = "") -> Iterator[None]:
    """Turn the client's exceptions into :class:`StoreError` (the only error a store raises)."""
    import redis

    try:
        yield
    except redis.exceptions.NoPermissionError:
        raise StoreError("the table store (Redis) refused: this user may not do that") from None
    except redis.exceptions.RedisError as error:
        text = str(error)
        if text.startswith("NOTABLE"):
            raise StoreError(f"no table {code!r}") from None
        raise StoreError(f"the table store (Redis) failed: {type(error).__name__}: {text}") from None


def _number(stream_id: bytes | str) -> int | None:
    """The record number of stream id ``0-<n>``; None for an id the store did not make."""
    text = stream_id.decode() if isinstance(stream_id, bytes) else stream_id
    first, _, second = text.partition("-")
    return int(second) if first == "0" and second.isdigit() else None


class RedisStore:
    """A :class:`~speculation_nb.classroom.stores.base.TableStore` on the Redis server at ``url``
    (``redis://user:password@host:6379/0``, ``rediss://`` with TLS, ``unix://...``).
    Threads may share it (the client keeps a pool of connections)."""

    def __init__(self, url: str) -> None:
        try:
            import redis
        except ImportError:
            raise StoreError(
                'the Redis table store needs the redis client: pip install "speculation_nb[table]"'
            ) from None
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options: dict[str, Any] = dict(
            socket_timeout=_SOCKET_TIMEOUT, socket_connect_timeout=_SOCKET_TIMEOUT, health_check_interval=30
        )
        try:
            # Reads are tried again after a dropped connection (the client's default); writes
            # are not: a write that failed half way may have been done, and must not be done twice.
            self._client: redis.Redis = redis.Redis.from_url(url, **options)
            self._writer: redis.Redis = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **options)
        except (ValueError, redis.exceptions.RedisError) as error:
            raise StoreError(f"not a Redis address the client understands: {type(error).__name__}") from None
        self._scripts = {
            name: self._writer.register_script(getattr(redis_scripts, name.upper()))
            for name in ("create", "put", "touch", "wipe", "take_in")
        }
        self._db = int(self._client.connection_pool.connection_kwargs.get("db") or 0)
        self._notified = False  # a keyspace notification came: the server sends them
        self._pubsub: Any = None  # the referee's subscription to its inboxes' notifications
        self._channels: set[str] = set()
        self._refused = False  # this user may not subscribe: the referee polls
        self._listening = threading.Lock()

    @staticmethod
    def _key(code: str, name: str) -> str:
        return f"{PREFIX}{code}:{name}"

    def _table_keys(self, code: str) -> list[str]:
        """meta, requests, events, keys, inbox: what the scripts change besides the keys put."""
        return [self._key(code, name) for name in ("meta", "requests", "events", "keys", "inbox")]

    # --- the TableStore protocol ---------------------------------------------------------

    def create(self, code: str, meta: Mapping[str, Any], ttl: float = DEFAULT_TTL) -> bool:
        body = dump_record(meta)
        names = ("meta", "requests", "events", "moment", "record", "keys", "inbox")
        keys = [self._key(code, name) for name in names]
        with _errors():
            return bool(self._scripts["create"](keys=keys, args=[body, _milliseconds(ttl), redis_scripts.SENTINEL]))

    def exists(self, code: str) -> bool:
        with _errors():
            return bool(self._client.exists(self._key(code, "meta")))

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        with _errors(code):
            self._scripts["touch"](keys=self._table_keys(code), args=[_milliseconds(ttl), self._key(code, "")])

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int | None:
        check_stream(stream)
        body = dump_record(record, record_limit(stream))
        if stream == "requests":  # into the inbox: numbered when the referee takes it in
            with _errors():
                length: Any = self._writer.rpushx(self._key(code, "inbox"), body)
            if not length:
                raise StoreError(f"no table {code!r}")
            return None
        with _errors():
            stream_id = self._writer.xadd(self._key(code, stream), {"r": body}, id="0-*", nomkstream=True)
        if stream_id is None:
            raise StoreError(f"no table {code!r}")
        number = _number(stream_id)
        if number is None:
            raise StoreError(f"the stream of table {code!r} holds records the store did not number")
        return number

    def _take_in(self, code: str) -> None:
        """Move the requests waiting in the inbox into the requests stream (the referee's)."""
        keys = [self._key(code, "inbox"), self._key(code, "requests"), self._key(code, "meta")]
        with _errors():
            taken: Any = self._scripts["take_in"](keys=keys, args=[MAX_REQUEST, _TAKE, redis_scripts.SENTINEL])
        if int(taken[1]):
            log.warning("table %s: %s requests longer than %s bytes dropped, unread", code, taken[1], MAX_REQUEST)

    def read(self, code: str, stream: str, after: int = 0, limit: int = 1000) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        limit = bounded(limit)
        if limit == 0:
            return []
        if stream == "requests":
            self._take_in(code)
        with _errors():
            entries: Any = self._client.xrange(self._key(code, stream), f"(0-{bounded(after)}", "+", count=limit)
        return self._records(entries, code, stream)

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        if stream == "requests":
            return self._wait_requests(code, after, timeout, limit)
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            found = self.read(code, stream, after, limit)
            left = deadline - time.monotonic()
            if found or left <= 0 or limit <= 0:
                return found
            block = max(1, int(min(left, _BLOCK) * 1000))
            with _errors():
                answer: Any = self._client.xread(
                    {self._key(code, stream): f"0-{bounded(after)}"}, count=limit, block=block
                )
            streams: Any = answer.values() if isinstance(answer, dict) else [entries for _, entries in answer or []]
            for entries in streams:
                found = self._records(entries, code, stream)
                if found:
                    return found

    def _wait_requests(self, code: str, after: int, timeout: float, limit: int) -> list[tuple[int, dict[str, Any]]]:
        """The referee's wait: take the inbox in and read; when nothing came, sleep until a
        keyspace notification says the inbox was pushed to (the store stays subscribed between
        waits: subscribed before the first look, so none is missed), or :data:`POLL` seconds
        where the server sends none (or another thread of this store is listening)."""
        deadline = time.monotonic() + max(0.0, timeout)
        listening = self._listening.acquire(blocking=False)
        try:
            channel = f"__keyspace@{self._db}__:{self._key(code, 'inbox')}"
            pubsub = self._listener(channel) if listening else None
            while True:
                found = self.read(code, "requests", after, limit)
                left = deadline - time.monotonic()
                if found or left <= 0 or limit <= 0:
                    return found
                pause = min(left, _SAFETY if self._notified and pubsub is not None else POLL)
                if pubsub is None:
                    time.sleep(pause)
                    continue
                try:
                    message = pubsub.get_message(timeout=pause)
                except Exception as error:  # the connection dropped: listen afresh at the next wait
                    self._drop_listener()
                    raise StoreError(f"the table store (Redis) failed: {type(error).__name__}") from None
                if message is not None and message.get("type") == "message":
                    self._notified = True
        finally:
            if listening:
                self._listening.release()

    def _listener(self, channel: str) -> Any:
        """The store's subscription to keyspace notifications, subscribed to ``channel`` (the
        server's confirmation awaited); None where the user may not (an older ACL): then polled."""
        import redis

        if self._refused:
            return None
        try:
            if self._pubsub is None:
                client: Any = self._client  # redis < 8 leaves pubsub() untyped
                self._pubsub = client.pubsub()
                self._channels.clear()
            if channel not in self._channels:
                self._pubsub.subscribe(channel)
                deadline = time.monotonic() + _BLOCK
                while time.monotonic() < deadline:
                    message = self._pubsub.get_message(timeout=_BLOCK)
                    if message is not None and message.get("type") == "subscribe":
                        break
                self._channels.add(channel)
        except redis.exceptions.NoPermissionError:
            self._refused = True
            self._drop_listener()
            return None
        except redis.exceptions.RedisError:
            self._drop_listener()
            return None
        return self._pubsub

    def _drop_listener(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        self._channels.clear()
        if pubsub is not None:
            with contextlib.suppress(Exception):
                pubsub.close()

    @staticmethod
    def _records(entries: Any, code: str, stream: str) -> list[tuple[int, dict[str, Any]]]:
        records = []
        for stream_id, fields in entries:
            number = _number(stream_id)
            if number is None:  # not an id the store made: not a record of the table
                log.warning("table %s: an entry of %s the store did not number (%r): skipped", code, stream, stream_id)
                continue
            body = fields.get(b"r", fields.get("r")) if isinstance(fields, dict) else None
            records.append((number, read_entry(body, code, stream, number)))
        return records

    def last(self, code: str, stream: str) -> int:
        check_stream(stream)
        import redis

        try:
            info: Any = self._client.xinfo_stream(self._key(code, stream))
        except redis.exceptions.NoPermissionError:
            raise StoreError("the table store (Redis) refused: this user may not do that") from None
        except redis.exceptions.ResponseError:  # no such stream
            return 0
        except redis.exceptions.RedisError as error:
            raise StoreError(f"the table store (Redis) failed: {type(error).__name__}") from None
        last = info.get("last-generated-id", info.get(b"last-generated-id", b"0-0"))
        return _number(last) or 0

    def put(self, code: str, key: str, record: Mapping[str, Any]) -> None:
        if key in RESERVED_KEYS:
            raise StoreError(f"a table's key is not named {key!r} (the store's own names: {sorted(RESERVED_KEYS)})")
        body = dump_record(record)
        keys = [self._key(code, "meta"), self._key(code, key), self._key(code, "keys")]
        with _errors(code):
            self._scripts["put"](keys=keys, args=[body, key])

    def get(self, code: str, key: str) -> dict[str, Any] | None:
        if key in RESERVED_KEYS:
            return None
        with _errors():
            body = self._client.get(self._key(code, key))
        return None if body is None else load_record(body)

    def wipe(self, code: str) -> None:
        with _errors():
            self._scripts["wipe"](keys=self._table_keys(code), args=[self._key(code, "")])

    def close(self) -> None:
        self._drop_listener()
        with _errors():
            self._client.close()
            self._writer.close()

    def __repr__(self) -> str:
        kwargs = self._client.connection_pool.connection_kwargs
        where = kwargs.get("path") or f"{kwargs.get('host')}:{kwargs.get('port')}"
        return f"RedisStore({where!r}, user={kwargs.get('username')!r})"


def _milliseconds(ttl: float) -> int:
    """A time to live in whole milliseconds, at least 1 (Redis refuses 0)."""
    return max(1, round(float(ttl) * 1000))


def main(argv: list[str] | None = None) -> None:
    """``python -m speculation_nb.classroom.stores.redis_store [--host H] [--port P] ACLFILE ENVFILE``:
    write a new ACL file for Redis and the hub's two settings (deploy/README.md)."""
    import os

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="the Redis server's address, as the kernels reach it")
    parser.add_argument("--port", type=int, default=6379)
    parser.add_argument(
        "aclfile", help="the ACL file to write (Redis's aclfile setting), e.g. /etc/redis/speculation.acl"
    )
    parser.add_argument("envfile", help="the file to add the two settings to, e.g. /etc/jupyterhub/speculation.env")
    options = parser.parse_args(argv)
    acl, settings = redis_setup(options.host, options.port)
    with open(os.open(options.aclfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640), "w") as out:
        out.write("\n".join(acl) + "\n")
    with open(os.open(options.envfile, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a") as out:
        out.write("".join(f"{name}={value}\n" for name, value in settings.items()))
    print(f"wrote the users referee and student to {options.aclfile}, their addresses to {options.envfile}")


if __name__ == "__main__":
    main()
