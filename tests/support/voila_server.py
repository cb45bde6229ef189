"""A real Voila server for the browser tests, the benchmarks and the load test.

``VoilaServer(notebook)`` (a context manager) starts ``python -m voila`` with
exactly the options of the README's app command (``speculation_nb.serve``: its arguments, and
its template found through ``JUPYTER_PATH``),
on a free loopback port, waits until it answers and gives its base URL; on
exit it stops the server and every kernel it started. It also observes the
kernels from outside, as a test should: Voila does not list them (there is no
``GET /api/kernels``), so they are found as the ``ipykernel`` child processes
of the server process, in ``/proc`` (Linux).

    with VoilaServer("notebooks/app.ipynb", cull_idle_timeout=5) as server:
        page.goto(server.url)
        server.kernel_pids()          # [12345]
        server.kernels()              # {"<kernel id>": 12345}; page_kernel_id(page) names a page's
        server.memory()               # {"server": bytes, "kernels": {pid: bytes}} (resident)
        server.cpu_seconds()          # CPU used so far by the server and its live kernels
        server.wait_until_quiet()     # e.g. until a preheated pool (pool_size=N) has filled

Options that differ from the served defaults are passed as keywords
(``cull_idle_timeout``, ``cull_interval``, ``pool_size``) or as the
environment variables ``speculation_nb.serve`` reads (``env={...}``).

The server's log goes to a file (``server.log_text()``), so a failing test can
show it and a test can look for lines such as ``Culling kernel``. Every server
running when a test fails adds its log's tail to that test's report
(``running_servers``, read by the hook in ``tests/conftest.py``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
try:
    from speculation_nb.serve import voila_command, voila_environment
except ImportError:  # a checkout that is not installed: the shared options from the tree
    sys.path.insert(0, str(REPO))
    from speculation_nb.serve import voila_command, voila_environment

__all__ = [
    "REPO",
    "VoilaServer",
    "free_port",
    "page_kernel_id",
    "process_cpu_seconds",
    "process_rss",
    "running_servers",
]

_RUNNING = re.compile(r"Voil[aà] is running at:\s*\n\s*(http://\S+)")
_KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (Voila moves on if it is taken meanwhile)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[tuple[int, str, str]]:
    """``(pid, state, cmdline)`` of the live child processes of ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses
            state, ppid = stat.rpartition(")")[2].split()[:2]
            if int(ppid) != pid or state == "Z":
                continue
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        found.append((int(entry), state, cmdline))
    return found


def process_rss(pid: int) -> int | None:
    """Resident memory of ``pid`` in bytes, or None if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def process_cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of ``pid`` in seconds, or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    # after "(comm)": state is field 3 of proc(5), so utime (14) and stime (15) are at 11 and 12
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _is_kernel(pid: int) -> bool:
    try:
        return b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


_PAGE_KERNEL_JS = """() => {
  const el = document.getElementById('jupyter-config-data');
  return el ? (JSON.parse(el.textContent).kernelId || null) : null;
}"""


def page_kernel_id(page: object) -> str | None:
    """The id of the kernel a Voila page (a Playwright page) is connected to."""
    return page.evaluate(_PAGE_KERNEL_JS)  # type: ignore[attr-defined]


_RUNNING_SERVERS: list[VoilaServer] = []


def running_servers() -> list[VoilaServer]:
    """The servers started and not yet stopped, oldest first."""
    return list(_RUNNING_SERVERS)


class VoilaServer:
    """One Voila server process serving one notebook; see the module docstring.

    ``notebook`` is a path relative to the repository root (or absolute).
    ``cull_idle_timeout``, ``cull_interval`` and ``pool_size`` override the
    shared defaults of :mod:`speculation_nb.serve`; ``env`` adds environment
    variables for the server and its kernels.
    """

    def __init__(
        self,
        notebook: str | os.PathLike[str] = "notebooks/app.ipynb",
        *,
        cull_idle_timeout: int | None = None,
        cull_interval: int | None = None,
        pool_size: int | None = None,
        env: dict[str, str] | None = None,
        startup_timeout: float = 60.0,
    ) -> None:
        path = Path(notebook)
        self.notebook = path if path.is_absolute() else REPO / path
        if not self.notebook.is_file():
            raise FileNotFoundError(f"no notebook at {self.notebook}")
        self.options = {
            "cull_idle_timeout": cull_idle_timeout,
            "cull_interval": cull_interval,
            "pool_size": pool_size,
        }
        self.extra_env = dict(env or {})
        self.startup_timeout = startup_timeout
        self.url = ""
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.log_path: Path | None = None
        self.command: list[str] = []
        self.started_in = 0.0  # seconds from launch to answering

    # -------------------------------------------------------------- lifetime
    def start(self) -> VoilaServer:
        self._tmp = tempfile.TemporaryDirectory(prefix="speculation-voila-")
        tmp = Path(self._tmp.name)
        self.log_path = tmp / "voila.log"
        # the app's Voila template is found as scripts/serve finds it (JUPYTER_PATH)
        env = voila_environment(
            {
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
                "SPECULATION_HOST": "127.0.0.1",  # tests never listen beyond loopback
                **self.extra_env,
            }
        )
        self.port = free_port()
        # Voila serves files below its working directory: the repository, or the
        # notebook's own folder for one outside it (a variant being measured)
        cwd = REPO if REPO in self.notebook.resolve().parents else self.notebook.parent
        rel = os.path.relpath(self.notebook, cwd)
        self.command = voila_command(rel, port=self.port, host="127.0.0.1", env=env, **self.options)
        started = time.perf_counter()
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, ended as a whole
            )
        try:
            self._wait_until_answering()
        except BaseException:
            self.stop()
            raise
        self.started_in = time.perf_counter() - started
        _RUNNING_SERVERS.append(self)
        return self

    def _wait_until_answering(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Voila exited with code {self.process.returncode}:\n{self.log_tail()}")
            match = _RUNNING.search(self.log_text())
            if match:
                url = match.group(1)
                port = int(re.search(r":(\d+)/", url).group(1))  # type: ignore[union-attr]
                try:
                    # a TCP connection only: a GET of the page would start a kernel
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        pass
                except OSError:
                    pass
                else:
                    self.port = port
                    self.url = f"http://127.0.0.1:{port}/"
                    return
            time.sleep(0.05)
        raise TimeoutError(f"Voila did not answer within {self.startup_timeout} s:\n{self.log_tail()}")

    def stop(self, timeout: float = 20.0) -> None:
        """Stop the server (SIGTERM: Voila shuts its kernels down), then kill what is left."""
        process, self.process = self.process, None
        if self in _RUNNING_SERVERS:
            _RUNNING_SERVERS.remove(self)
        if process is not None:
            kernels = self.kernel_pids(process.pid)
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout)
            with contextlib.suppress(ProcessLookupError, PermissionError):  # what is left in its process group
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
            # kernels run in sessions of their own (jupyter_client), so they are
            # not in that group: end the ones this server started, by pid
            for pid in kernels:
                if _is_kernel(pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        if self._tmp is not None:
            self._saved_log = self.log_text()
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------- observation
    @property
    def pid(self) -> int:
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def kernel_pids(self, server_pid: int | None = None) -> list[int]:
        """The pids of the server's live kernels (preheated ones included)."""
        if server_pid is None:
            if self.process is None:
                return []
            server_pid = self.process.pid
        return sorted(pid for pid, _, cmd in _children(server_pid) if "ipykernel" in cmd)

    def kernels(self) -> dict[str, int]:
        """The server's live kernels: ``{kernel id: pid}`` (the id a page's
        ``jupyter-config-data`` names as ``kernelId``; see :func:`page_kernel_id`)."""
        if self.process is None:
            return {}
        found = {}
        for pid, _, cmd in _children(self.process.pid):
            match = _KERNEL_FILE.search(cmd)
            if "ipykernel" in cmd and match:
                found[match.group(1)] = pid
        return found

    def wait_for_kernels(
        self, accept: Callable[[int], bool], timeout: float, interval: float = 0.25
    ) -> tuple[bool, int, float]:
        """Poll until ``accept(number of kernels)``: (accepted, last count, seconds waited)."""
        start = time.monotonic()
        while True:
            count = len(self.kernel_pids())
            waited = time.monotonic() - start
            if accept(count) or waited >= timeout:
                return accept(count), count, waited
            time.sleep(interval)

    def memory(self) -> dict[str, object]:
        """Resident memory in bytes: ``{"server": n, "kernels": {pid: n}}``."""
        kernels = {pid: process_rss(pid) for pid in self.kernel_pids()}
        return {
            "server": process_rss(self.pid),
            "kernels": {pid: rss for pid, rss in kernels.items() if rss is not None},
        }

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server and its live kernels."""
        pids = [self.pid, *self.kernel_pids()]
        return sum(t for t in map(process_cpu_seconds, pids) if t is not None)

    def wait_until_quiet(self, busy_below: float = 0.05, window: float = 0.5, timeout: float = 60.0) -> float:
        """Wait until the server and its kernels use less than ``busy_below`` of one core
        over ``window`` seconds (e.g. a preheated pool has finished filling). Returns the
        seconds waited; raises TimeoutError after ``timeout``."""
        start = time.monotonic()
        before = self.cpu_seconds()
        while True:
            time.sleep(window)
            now = self.cpu_seconds()
            if now - before < busy_below * window:
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"the server stayed busy for {timeout} s")
            before = now

    def log_text(self) -> str:
        if self.log_path is not None and self.log_path.exists():
            return self.log_path.read_text(errors="replace")
        return getattr(self, "_saved_log", "")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])
