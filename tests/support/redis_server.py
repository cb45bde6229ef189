"""A real Redis server for the table store's tests and benchmark, set up as deploy/README.md says.

``RedisServer()`` (a context manager) writes a ``redis.conf`` in a temporary folder (bind
127.0.0.1 on a free port, no persistence; ``RedisServer(persistent=True)``: append-only
``everysec`` persistence, as deploy/README.md says, and :meth:`RedisServer.restart` /
:meth:`RedisServer.crash` to stop it cleanly or kill it and start it again on the same files)
and the ACL file that
:func:`speculation_nb.classroom.stores.redis_store.redis_setup` makes (the ``default`` user off, the
users ``referee`` and ``student`` of ``redis_acl_rules`` with random passwords), starts
Debian's ``redis-server`` with it, waits until the referee user gets an answer to ``PING``,
and stops the server on exit (and at interpreter exit, should a test run be interrupted).

    with RedisServer() as server:
        server.url("referee")      # redis://referee:<password>@127.0.0.1:<port>/0
        server.url("student")
        server.url("default", "")  # no password: the default user, which is off

The pytest fixture :func:`redis_server` (session scope) skips, with the reason, when
``redis-server`` is not installed (``./scripts/test`` installs it with apt-get) or the
``redis`` client is missing (the ``test`` extra has it).
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from voila_server import free_port

REPO = Path(__file__).resolve().parents[2]
try:
    from speculation_nb.classroom.stores.redis_store import redis_setup
except ImportError:  # a checkout that is not installed
    sys.path.insert(0, str(REPO))
    from speculation_nb.classroom.stores.redis_store import redis_setup

__all__ = ["RedisServer", "redis_server", "redis_server_binary"]

#: Seconds to wait for the server's first answer (a loaded machine starts it slowly).
START_TIMEOUT = 60.0


def redis_server_binary() -> str | None:
    """The ``redis-server`` program, or None when it is not installed."""
    return shutil.which("redis-server") or next(
        (path for path in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(path).exists()), None
    )


class RedisServer:
    """One ``redis-server`` on loopback with the table's ACL users (see the module's text)."""

    def __init__(self, binary: str | None = None, persistent: bool = False) -> None:
        self.persistent = persistent
        self.binary = binary or redis_server_binary()
        if self.binary is None:
            raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
        self.urls: dict[str, str] = {}
        self.folder = Path(tempfile.mkdtemp(prefix="speculation-redis-"))
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    def config(self, port: int) -> str:
        """The server's configuration, and its ACL file written beside it (as deploy/README.md does)."""
        acl, self.urls = redis_setup("127.0.0.1", port)
        aclfile = self.folder / "users.acl"
        aclfile.write_text("\n".join(acl) + "\n")
        aclfile.chmod(0o600)
        settings = [
            "bind 127.0.0.1",
            f"port {port}",
            "protected-mode yes",
            'save ""',
            *(["appendonly yes", "appendfsync everysec"] if self.persistent else ["appendonly no"]),
            f'dir "{self.folder}"',
            f'logfile "{self.folder / "redis.log"}"',
            "daemonize no",
            "databases 2",
            "maxmemory 256mb",
            "maxmemory-policy noeviction",
            'notify-keyspace-events "Kl"',
            f'aclfile "{aclfile}"',
        ]
        return "\n".join(settings) + "\n"

    def url(self, user: str, password: str | None = None) -> str:
        """The store address for ``user`` (``referee``, ``student``: with its password, unless
        ``password`` is given; any other user: with ``password``)."""
        if password is None and user in ("referee", "student"):
            return self.urls[f"SPECULATION_REDIS_{user.upper()}"]
        return f"redis://{user}:{password or ''}@127.0.0.1:{self.port}/0"

    def log_text(self) -> str:
        path = self.folder / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> RedisServer:
        for _attempt in range(5):  # a free port may be taken before the server binds it
            self.port = free_port()
            path = self.folder / "redis.conf"
            path.write_text(self.config(self.port))
            path.chmod(0o600)
            atexit.register(self.stop)
            if self._launch():
                return self
            self.stop()
        raise RuntimeError(f"redis-server did not start; its log:\n{self.log_text()[-3000:]}")

    def _launch(self) -> bool:
        """Start the server on its configuration; True once the referee user gets a ``PONG``
        (loading an append-only file first), False if it stopped or did not answer in time."""
        import redis

        self.process = subprocess.Popen([str(self.binary), str(self.folder / "redis.conf")], stdin=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url("referee"), socket_timeout=5)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while self.process.poll() is None and time.monotonic() < deadline:
                try:
                    if client.ping():
                        return True
                except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError):
                    time.sleep(0.05)
        finally:
            client.close()
        return False

    def restart(self, crash: bool = False, meanwhile: Callable[[], object] | None = None) -> None:
        """Stop the server (SIGTERM: it writes what it holds; ``crash``: SIGKILL, it writes
        nothing more), call ``meanwhile()`` (e.g. put back an older copy of its files) and start
        it again on the same port, files and users."""
        process = self.process
        if crash and process is not None:
            process.kill()
            process.wait()
        self.stop()
        if meanwhile is not None:
            meanwhile()
        if not self._launch():
            raise RuntimeError(f"redis-server did not start again; its log:\n{self.log_text()[-3000:]}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A Redis server for the whole test run (skipped, with the reason, when it cannot be had)."""
    pytest.importorskip("redis", reason="the redis client is missing: pip install -e '.[test]'")
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed: apt-get install redis-server (./scripts/test does)")
    with contextlib.ExitStack() as stack:
        yield stack.enter_context(RedisServer())
