"""A JupyterHub on loopback serves the Voila app to a logged-in student.

The hub runs deploy/jupyterhub_config.py, the school configuration, with only
what a test machine cannot have replaced: a plain local process per student
(``SimpleLocalProcessSpawner``) instead of systemd, loopback ports, and a
temporary folder for the hub's database, cookie secret and the students' homes.
Everything else is the school's: the class-password login
(``SharedPasswordAuthenticator``), the landing page (``Spawner.default_url``),
the single-user server's options, and the idle culler the hub runs as a service.

Headless Chromium logs in (a wrong password first, which must fail), lands on
``/user/<name>/voila/render/notebooks/app.ipynb``, waits for the app's "Next
card" button and clicks it: the app's log changes, so the kernel answers
through the hub's proxy. The landing page has no seed, so its deal is a fresh
one: one deal in thirteen turns up an Ace, which ends it at once (S5) and leaves
"Next card" disabled for good. The test then clicks "New deal" instead, whose
answer (a new seed in the header) proves the same. (Waiting for an enabled "Next
card" was the cause of the one CI failure seen: 180 s for a button that never
comes, on an Ace, not under load.) The student has one server and one kernel, the culler
runs, there is no terminal, and the kernel ignores code sent to it from a page
(a widget-only message list, as in standalone Voila). The test prints the memory of the student's
server and kernel (deploy/README.md sizes a school's server with it). Then the
hub is stopped, and with it the proxy, the culler and the student's server and
kernel: the test checks that none of the processes it saw is left.

The proxy, configurable-http-proxy, comes from the npm registry
(``deploy/install-proxy`` installs it under deploy/.proxy/ when it is not on
PATH); the test is skipped only if npm itself is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import PageWatch, click_until_changed

pytest.importorskip("jupyterhub", reason="jupyterhub is in the test extra: pip install -e '.[test]'")

REPO = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = REPO / "deploy" / "jupyterhub_config.py"
INSTALL_PROXY = REPO / "deploy" / "install-proxy"
APP = REPO / "notebooks" / "app.ipynb"
APP_URL = "/voila/render/notebooks/app.ipynb"
SHOWN = "button.spec-next"  # the app's "Next card" button: there once the kernel has shown the app
NEW_DEAL = "button.spec-new-deal"
LOG = ".spec-log"  # the app's log of the deal, which a click extends
DEAL_INFO = ".spec-deal-info"  # the header, with the session's seed
USER = "student"
PASSWORD = "test-class-password"
HUB_START_TIMEOUT = 90  # seconds until the hub answers
APP_TIMEOUT = 180  # safety net: seconds from login until the app shows (100 s seen on a busy 2-core machine)
# Seconds for the hub to stop everything it started. JupyterHub stops its services, then each
# user's server, each with its own SIGINT / SIGTERM / SIGKILL waits (Spawner.interrupt_timeout 10,
# term_timeout 5, kill_timeout 5): one service and two servers may take 60 s on a busy machine, and
# a hub killed before it is done leaves them running (seen in a CI run beside a 30-kernel benchmark).
STOP_TIMEOUT = 120


#: In the page: send a kernel "1+1" and then a kernel_info_request on a new
#: connection, and list the types of the replies. The kernel answers in order,
#: so once kernel_info_reply is in, an execute_reply would be too. The kernel's
#: broadcasts reach this connection too; those with binary buffers (binary frames)
#: are skipped (parsing one as JSON failed the test once, after the app's
#: charts began sending their first image when the page asks).
SEND_CODE = """async (url) => {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  const replies = [];
  const answered = new Promise((resolve) => {
    ws.onmessage = (event) => {
      // messages with binary buffers (an ipympl image, widget state) come as binary frames
      // to every connection of the kernel: not the replies this asks for
      if (typeof event.data !== "string") return;
      const type = JSON.parse(event.data).header.msg_type;
      replies.push(type);
      if (type === "kernel_info_reply") resolve();
    };
  });
  const send = (msg_type, content) => ws.send(JSON.stringify({
    header: {msg_id: crypto.randomUUID(), msg_type, username: "", session: "hub-test",
             date: new Date().toISOString(), version: "5.3"},
    parent_header: {}, metadata: {}, content, channel: "shell", buffers: [],
  }));
  send("execute_request", {code: "1+1", silent: false, store_history: false,
                           user_expressions: {}, allow_stdin: false, stop_on_error: true});
  send("kernel_info_request", {});
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 20000))]);
  ws.close();
  return replies;
}"""


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports on loopback that nobody listens on right now."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def proxy_command() -> str:
    """The path of configurable-http-proxy, installed with npm if needed."""
    result = subprocess.run(["bash", str(INSTALL_PROXY)], capture_output=True, text=True, timeout=300)
    if result.returncode == 3:
        pytest.skip("npm is missing, so configurable-http-proxy cannot be installed (apt-get install npm)")
    assert result.returncode == 0, f"deploy/install-proxy failed:\n{result.stderr}"
    return result.stdout.strip().splitlines()[-1]


# --- Processes, read from /proc (Linux) -------------------------------------------


def _parent_pids() -> dict[int, int]:
    """``{pid: parent pid}`` of every live process."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def descendants(pid: int) -> list[int]:
    parents = _parent_pids()
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), or None if it is gone or a zombie.

    A pid together with its start time names one process, even once the pid is reused.
    """
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else int(fields[19])


def _alive(pid: int, started: int | None) -> bool:
    return started is not None and start_time(pid) == started


def _usage(pid: int) -> str:
    """Memory (resident, proportional, private) and CPU time of ``pid``, as text."""
    kib = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        kib[name] = int(value.split()[0])
    private = kib["Private_Clean"] + kib["Private_Dirty"]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return (
        f"rss {kib['Rss'] / 1024:.0f}, pss {kib['Pss'] / 1024:.0f}, private {private / 1024:.0f} MiB, cpu {cpu:.1f} s"
    )


# --- The hub ---------------------------------------------------------------------


def write_config(tmp: Path, proxy: str, port: int, hub_port: int, api_port: int) -> Path:
    """A config that loads the school's and replaces what a test machine cannot have."""
    overrides = {
        "spawner_class": "simple",
        "home": str(tmp / "home" / "{username}"),
        "bind_url": f"http://127.0.0.1:{port}",
        "hub_bind_url": f"http://127.0.0.1:{hub_port}",
        "api_url": f"http://127.0.0.1:{api_port}",
        "proxy": proxy,
        "db_url": f"sqlite:///{tmp / 'jupyterhub.sqlite'}",
        "cookie_secret_file": str(tmp / "jupyterhub_cookie_secret"),
        "pid_file": str(tmp / "proxy.pid"),
        # jupyter_server refuses to run as root without it (CI runs as root)
        "extra_args": ["--allow-root"] if os.geteuid() == 0 else [],
        # passed on unchanged: some processors here need them for OpenBLAS
        "environment": {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ},
    }
    path = tmp / "jupyterhub_config.py"
    path.write_text(
        f"""# Written by tests/browser/test_jupyterhub.py: the school's config, for loopback.
load_subconfig({str(DEPLOY_CONFIG)!r})
t = {overrides!r}
c.JupyterHub.spawner_class = t["spawner_class"]
c.SimpleLocalProcessSpawner.home_dir_template = t["home"]
c.JupyterHub.bind_url = t["bind_url"]
c.JupyterHub.hub_bind_url = t["hub_bind_url"]
c.ConfigurableHTTPProxy.api_url = t["api_url"]
c.ConfigurableHTTPProxy.command = [t["proxy"]]
c.ConfigurableHTTPProxy.pid_file = t["pid_file"]
c.JupyterHub.db_url = t["db_url"]
c.JupyterHub.cookie_secret_file = t["cookie_secret_file"]
c.Spawner.args = list(c.Spawner.args) + t["extra_args"]
c.Spawner.environment.update(t["environment"])  # keeps the school's (the shared table's store)
"""
    )
    return path


def start_hub(config: Path, cwd: Path, env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """``jupyterhub -f config`` in a process session of its own (stop_hub ends the whole group),
    its output in ``log_path``."""
    with open(log_path, "wb") as log_file:
        return subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_for_hub(hub: subprocess.Popen, url: str, log: Callable[[], str]) -> None:
    deadline = time.monotonic() + HUB_START_TIMEOUT
    while time.monotonic() < deadline:
        assert hub.poll() is None, f"JupyterHub exited with {hub.returncode}:\n{log()}"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    pytest.fail(f"JupyterHub did not answer at {url} within {HUB_START_TIMEOUT} s:\n{log()}")


def stop_hub(hub: subprocess.Popen, seen: dict[int, int | None]) -> list[str]:
    """Stop the hub as an administrator would (SIGTERM); return what it left running.

    ``seen`` maps the pids of the processes it started to their start times.
    Whatever is left is then killed, so that nothing outlives the test.
    """
    if hub.poll() is None:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid, started) for pid, started in seen.items()):
        time.sleep(0.2)
    left = [pid for pid, started in seen.items() if _alive(pid, started)]
    described = [f"{pid}: {_cmdline(pid)}" for pid in left]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return described


@dataclass
class Hub:
    """A JupyterHub a test started on loopback, and every process it started (``seen``)."""

    process: subprocess.Popen
    port: int
    log_path: Path
    #: pid: start time, of every process the hub started (stop_hub checks that none is left)
    seen: dict[int, int | None] = field(default_factory=dict)
    #: seconds from the hub's start until it answered
    up: float = 0.0

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def base(self) -> str:
        """The hub's address, as the browser opens it."""
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """The end of the hub's log (its output and its users' servers'), for a failure's message."""
        return self.log_path.read_text(errors="replace")[-6000:]

    def see(self, pids: Iterable[int] | None = None) -> None:
        """Note ``pids`` (by default every process the hub runs now) as the hub's."""
        for pid in descendants(self.pid) if pids is None else pids:
            self.seen.setdefault(pid, start_time(pid))

    def land(self, page: Any, user: str, selector: str, what: str) -> None:
        """Wait (``APP_TIMEOUT`` at most) until ``page`` shows ``selector``, then check that it is
        ``user``'s app; if it never shows, fail with the hub's log."""
        try:
            page.wait_for_selector(selector, state="visible", timeout=APP_TIMEOUT * 1000)
        except Exception:
            self.see()
            pytest.fail(f"{what} did not show {selector!r} at {page.url}:\n{self.log()}")
        assert page.url.startswith(f"{self.base}/user/{user}{APP_URL}"), page.url


@contextlib.contextmanager
def running_hub(tmp: Path, env: dict[str, str]) -> Iterator[Hub]:
    """The school's hub (:func:`write_config`) on free loopback ports, started with ``env`` in
    ``tmp`` and answering. When the ``with`` block ends the hub is stopped (:func:`stop_hub`);
    if the block passed, nothing the hub started may be left running."""
    proxy = proxy_command()
    port, hub_port, api_port = free_ports(3)
    config = write_config(tmp, proxy, port, hub_port, api_port)
    log_path = tmp / "jupyterhub.log"
    started = time.monotonic()
    hub = Hub(start_hub(config, tmp, env, log_path), port, log_path)
    hub.see([hub.pid])
    left: list[str] = []
    try:
        wait_for_hub(hub.process, f"{hub.base}/hub/api", hub.log)
        hub.see()
        hub.up = time.monotonic() - started
        yield hub
    finally:
        hub.see()
        left = stop_hub(hub.process, hub.seen)
    assert not left, "still running after the hub stopped:\n" + "\n".join(left)


def log_in(page: Any, user: str, password: str) -> None:
    """Log in on the hub's login page, which then sends the browser where its ``next`` says."""
    page.fill("#username_input", user)
    page.fill("#password_input", password)
    page.click("#login_submit")


def page_problems(watch: PageWatch, *refused: str) -> list[str]:
    """What went wrong in a page (a request beyond loopback included: the hub serves the app with
    its template, which links nothing from a CDN), but for the failed loads of the ``refused``
    addresses (a wrong password's login page), and ipympl's occasional
    "drawImage ... 'broken' state" while a figure's first image loads (seen here once under load;
    cf. matplotlib/ipympl#472): the app's own browser test is the judge of the app's console."""
    return [
        problem
        for problem in watch.problems
        if not (
            problem.startswith("console error: Failed to load resource:")
            and any(problem.endswith(f"[{url}]") for url in refused)
        )
        and not problem.startswith("console error: Error setting state: Failed to execute 'drawImage'")
    ]


@pytest.mark.browser
@pytest.mark.skipif(not APP.is_file(), reason="notebooks/app.ipynb does not exist yet")
def test_hub_serves_the_app_to_a_logged_in_student(
    tmp_path: Path, open_page: Callable[..., tuple[Any, PageWatch]]
) -> None:
    env = {**os.environ, "SPECULATION_CLASS_PASSWORD": PASSWORD}
    env.pop("SPECULATION_TEACHER_PASSWORD", None)
    with running_hub(tmp_path, env) as hub:
        page, watch = open_page(f"{hub.base}/hub/login", wait_until="load")
        # A wrong password does not let anyone in.
        log_in(page, USER, "not-the-class-password")
        page.wait_for_selector(".login_error", timeout=10_000)
        # The class password does, and lands the student on the app.
        logged_in = time.monotonic()
        log_in(page, USER, PASSWORD)
        hub.land(page, USER, SHOWN, "the app")
        app_up = time.monotonic() - logged_in
        # The kernel answers through the hub's proxy: "Next card" extends the log; on a deal
        # already over (an Ace turned up, S5) "New deal" puts a new seed in the header.
        button, changes = (SHOWN, LOG) if page.locator(SHOWN).first.is_enabled() else (NEW_DEAL, DEAL_INFO)
        click_until_changed(page, button, changes)

        processes = {pid: _cmdline(pid) for pid in descendants(hub.pid)}
        hub.see(list(processes))
        servers = [pid for pid, cmd in processes.items() if "jupyterhub.singleuser" in cmd]
        kernels = [pid for pid, cmd in processes.items() if "ipykernel" in cmd]
        assert len(servers) == 1, processes
        assert len(kernels) == 1, processes
        # The culler runs; its first round (at start-up) read the list of users
        # with its role's scopes and was refused nothing.
        assert any("jupyterhub_idle_culler" in cmd for cmd in processes.values()), processes
        full_log = hub.log_path.read_text(errors="replace")
        assert re.search(r"\b200 GET /hub/api/users\S* \(jupyterhub-idle-culler@", full_log), hub.log()
        assert not re.findall(r"\b40[13] \w+ \S+ \(jupyterhub-idle-culler@.*", full_log)
        # Students get no terminal, and their kernels run no code sent from a page.
        response = page.request.get(f"{hub.base}/user/{USER}/api/terminals")
        assert response.status == 404, response.status
        kernel_ids = [k["id"] for k in page.request.get(f"{hub.base}/user/{USER}/api/kernels").json()]
        assert len(kernel_ids) == 1, kernel_ids
        channels = f"ws://127.0.0.1:{hub.port}/user/{USER}/api/kernels/{kernel_ids[0]}/channels?session_id=hub-test"
        replies = page.evaluate(SEND_CODE, channels)
        assert "kernel_info_reply" in replies, replies
        assert "execute_reply" not in replies, replies
        # Nothing went wrong in the page, but for the refused wrong password (and what
        # page_problems passes over).
        problems = page_problems(watch, f"{hub.base}/hub/login?next=")
        assert not problems, "the page reported:\n" + "\n".join(problems)

        def usage(word: str) -> str:
            pids = [pid for pid, cmd in processes.items() if word in cmd]
            return _usage(pids[0]) if pids else "?"

        print(
            f"\nhub up in {hub.up:.1f} s; login to app in {app_up:.1f} s\n"
            f"student's server: {_usage(servers[0])}\napp kernel: {_usage(kernels[0])}\n"
            f"hub: {_usage(hub.pid)}\nproxy: {usage('configurable-http-proxy')}\n"
            f"culler: {usage('jupyterhub_idle_culler')}"
        )
        # open_page closes the page (run_before_unload=True) after the test.
