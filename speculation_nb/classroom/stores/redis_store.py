"""The shared table in Redis: kernels of different users or machines (JupyterHub, a cluster).

:class:`RedisStore` keeps table ``<code>`` of :mod:`.store` in these Redis keys:

=============================  ==========================================================
``spec:<code>:meta``           string: the ``"meta"`` record (the table exists while it does)
``spec:<code>:moment``         string: the latest published moment
``spec:<code>:record``         string: the referee's own record
``spec:<code>:reply:<token>``  string: the referee's answer to one request
``spec:<code>:requests``       stream: the students' requests
``spec:<code>:events``         stream: the referee's events
``spec:<code>:keys``           set: the names of the keys put besides ``meta`` (to touch and wipe them)
=============================  ==========================================================

* **Numbers.** Every record is added with ``XADD ... NOMKSTREAM 0-*``: Redis gives it the
  stream id ``0-<n>``, ``n`` being one more than the stream's last, in the order the server
  took the commands. So the record numbers 1, 2, 3, ... *are* the stream ids, made by one
  command any client may run, a student's too (who may add requests and nothing else).
  ``NOMKSTREAM`` refuses a record to a table that does not exist: :meth:`RedisStore.create`
  makes both streams, empty.
* **Wake-ups.** :meth:`RedisStore.wait` is ``XREAD BLOCK``: the server answers the moment a
  record arrives (no polling; each waiting thread holds one connection of the pool while it
  waits).
* **Expiry.** Every key of a table expires at one instant (``PEXPIREAT``, set by small Lua
  scripts that the referee runs: create, put, touch and wipe each change all of a table's keys
  at once).
* **Failures.** A read is tried again after a dropped connection (the client's default); a
  write is not (it may have been done before the connection dropped: once is the rule), and
  the caller gets :class:`~speculation_nb.classroom.stores.base.StoreError`.
* **Who may do what.** :func:`redis_acl_rules` makes two Redis users: ``referee`` (the
  teachers' kernels: everything under ``spec:``) and ``student`` (the students' kernels: add
  requests; read events, meta, moment and replies; nothing else). A student's kernel that
  tries anything else gets :class:`~speculation_nb.classroom.stores.base.StoreError`.

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
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .base import DEFAULT_TTL, StoreError, bounded, check_stream, dump_record, load_record

if TYPE_CHECKING:
    import redis

__all__ = ["PREFIX", "RESERVED_KEYS", "RedisStore", "redis_acl_rules", "redis_setup"]

#: Every key of every table starts with this (the ACL rules name it).
PREFIX = "spec:"
#: Key names :meth:`RedisStore.put` refuses: they are the streams and the index of keys.
RESERVED_KEYS = frozenset({"requests", "events", "keys"})
#: The longest single ``XREAD BLOCK`` (a longer wait blocks several times): well under the
#: socket timeout, so a server that went away is noticed.
_BLOCK = 5.0
_SOCKET_TIMEOUT = 15.0

# KEYS: meta, requests, events, moment, record, keys. ARGV: meta JSON, ttl in ms.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
local now = redis.call('TIME')
local at = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[2])
for i = 2, 3 do
  redis.call('XGROUP', 'CREATE', KEYS[i], 'new', '$', 'MKSTREAM')
  redis.call('XGROUP', 'DESTROY', KEYS[i], 'new')
  redis.call('PEXPIREAT', KEYS[i], at)
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
return 1
"""

# KEYS: meta, the key, keys. ARGV: the record's JSON, the key's name.
_PUT = """
local at = redis.call('PEXPIRETIME', KEYS[1])
if at < 0 then return redis.error_reply('NOTABLE no such table') end
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', at)
if ARGV[2] ~= 'meta' then
  redis.call('SADD', KEYS[3], ARGV[2])
  redis.call('PEXPIREAT', KEYS[3], at)
end
return 1
"""

# KEYS: meta, requests, events, keys. ARGV: ttl in ms, the prefix of the table's keys.
_TOUCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('NOTABLE no such table') end
local now = redis.call('TIME')
local at = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], at) end
for _, name in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  redis.call('PEXPIREAT', ARGV[2] .. name, at)
end
return 1
"""

# KEYS: meta, requests, events, keys. ARGV: the prefix of the table's keys.
_WIPE = """
for _, name in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('DEL', ARGV[1] .. name) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return 1
"""


def redis_acl_rules(referee_password: str, student_password: str) -> list[str]:
    """The ``ACL SETUSER`` commands of the table's two Redis users (and the ``default`` user
    switched off). Passwords are given as SHA-256 hashes (``#...``), so the lines may go into
    ``redis.conf`` (as ``user ...`` lines: drop the ``ACL SETUSER`` in front) without them.

    * ``referee`` (teachers' kernels): every command but the dangerous and administrative ones,
      on the keys ``spec:*``;
    * ``student`` (students' kernels): ``XADD`` to ``spec:*:requests`` only (a selector: it may
      not read requests back); ``GET``/``EXISTS`` of ``spec:*:meta``, ``spec:*:moment`` and
      ``spec:*:reply:*`` (a reply is found by its random token only: no ``KEYS`` or ``SCAN``);
      ``XRANGE``/``XREAD`` of ``spec:*:events``. It cannot read the referee's record nor write
      events or keys. No pub/sub channels: the stores wake up with ``XREAD BLOCK``.
    """
    for password in (referee_password, student_password):
        if not isinstance(password, str) or len(password) < 16:
            raise StoreError("a Redis password for the table is 16 characters at least")
    if referee_password == student_password:
        raise StoreError("the referee's and the students' Redis passwords must differ")

    def hashed(password: str) -> str:
        return "#" + hashlib.sha256(password.encode("utf-8")).hexdigest()

    readable = " ".join(f"%R~{PREFIX}*:{name}" for name in ("events", "meta", "moment", "reply:*"))
    return [
        "ACL SETUSER default off resetpass -@all resetkeys resetchannels",
        f"ACL SETUSER referee reset on {hashed(referee_password)} +@all -@dangerous -@admin ~{PREFIX}* resetchannels",
        f"ACL SETUSER student reset on {hashed(student_password)} -@all +ping +select +get +exists +xrange +xread"
        f" {readable} resetchannels (+xadd %W~{PREFIX}*:requests)",
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
            name: self._writer.register_script(text)
            for name, text in (("create", _CREATE), ("put", _PUT), ("touch", _TOUCH), ("wipe", _WIPE))
        }

    @staticmethod
    def _key(code: str, name: str) -> str:
        return f"{PREFIX}{code}:{name}"

    def _table_keys(self, code: str) -> list[str]:
        """meta, requests, events, keys: what the scripts change besides the keys put."""
        return [self._key(code, name) for name in ("meta", "requests", "events", "keys")]

    # --- the TableStore protocol ---------------------------------------------------------

    def create(self, code: str, meta: Mapping[str, Any], ttl: float = DEFAULT_TTL) -> bool:
        body = dump_record(meta)
        keys = [self._key(code, name) for name in ("meta", "requests", "events", "moment", "record", "keys")]
        with _errors():
            return bool(self._scripts["create"](keys=keys, args=[body, _milliseconds(ttl)]))

    def exists(self, code: str) -> bool:
        with _errors():
            return bool(self._client.exists(self._key(code, "meta")))

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        with _errors(code):
            self._scripts["touch"](keys=self._table_keys(code), args=[_milliseconds(ttl), self._key(code, "")])

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int:
        check_stream(stream)
        body = dump_record(record)
        with _errors():
            stream_id = self._writer.xadd(self._key(code, stream), {"r": body}, id="0-*", nomkstream=True)
        if stream_id is None:
            raise StoreError(f"no table {code!r}")
        number = _number(stream_id)
        if number is None:
            raise StoreError(f"the stream of table {code!r} holds records the store did not number")
        return number

    def read(self, code: str, stream: str, after: int = 0, limit: int = 1000) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
        limit = bounded(limit)
        if limit == 0:
            return []
        with _errors():
            entries: Any = self._client.xrange(self._key(code, stream), f"(0-{bounded(after)}", "+", count=limit)
        return self._records(entries)

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        check_stream(stream)
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
                found = self._records(entries)
                if found:
                    return found

    @staticmethod
    def _records(entries: Any) -> list[tuple[int, dict[str, Any]]]:
        records = []
        for stream_id, fields in entries:
            number = _number(stream_id)
            body = fields.get(b"r", fields.get("r"))  # bytes, or str with decode_responses in the URL
            if number is not None and body is not None:
                records.append((number, load_record(body)))
        return records

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
