"""A JupyterHub on loopback serves the Voila app to a logged-in student.

The hub runs deploy/jupyterhub_config.py, the school configuration, with only
what a test machine cannot have replaced: a plain local process per student
(``SimpleLocalProcessSpawner``) instead of systemd, loopback ports, and a
temporary folder for the hub's database, cookie secret and the students' homes.
Everything else is the school's: the class-password login
(``SharedPasswordAuthenticator``), the landing page (``Spawner.default_url``),
the single-user server's options, and the idle culler the hub runs as a service.

Headless Chromium logs in (a wrong password first, which must fail), lands on
``/user/<name>/voila/render/notebooks/app.ipynb`` and waits until the app shows
its "Next card" button. Then the hub is stopped, and with it the proxy, the
culler and the student's server and kernel: the test checks that none of the
processes it saw is left.

The proxy, configurable-http-proxy, comes from the npm registry
(``deploy/install-proxy`` installs it under deploy/.proxy/ when it is not on
PATH); the test is skipped only if npm itself is missing.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest

from browser_fixtures import PageWatch, browser, open_page  # noqa: F401 (fixtures)

pytest.importorskip("jupyterhub", reason="jupyterhub is in the test extra: pip install -e '.[test]'")

REPO = Path(__file__).resolve().parent.parent
DEPLOY_CONFIG = REPO / "deploy" / "jupyterhub_config.py"
INSTALL_PROXY = REPO / "deploy" / "install-proxy"
APP = REPO / "notebooks" / "app.ipynb"
APP_URL = "/voila/render/notebooks/app.ipynb"
USER = "student"
PASSWORD = "test-class-password"
HUB_START_TIMEOUT = 60  # seconds until the hub answers
APP_TIMEOUT = 90  # seconds from login until the app's button shows
STOP_TIMEOUT = 30  # seconds for the hub to stop everything it started


def _free_ports(count: int) -> list[int]:
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


def _proxy_command() -> str:
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


def _descendants(pid: int) -> list[int]:
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


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _memory_kib(pid: int) -> dict[str, int]:
    """Resident (Rss) and proportional (Pss) memory of ``pid`` in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        if name in ("Rss", "Pss"):
            fields[name.lower()] = int(value.split()[0])
    return fields


# --- The hub ---------------------------------------------------------------------


def _write_config(tmp: Path, proxy: str, port: int, hub_port: int, api_port: int, default_url: str) -> Path:
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
        "default_url": default_url,
    }
    path = tmp / "jupyterhub_config.py"
    path.write_text(
        f"""# Written by tests/test_jupyterhub.py: the school's config, for loopback.
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
c.Spawner.environment = t["environment"]
c.Spawner.default_url = t["default_url"]
"""
    )
    return path


def _wait_for_hub(hub: subprocess.Popen, url: str, log: Callable[[], str]) -> None:
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


def _stop(hub: subprocess.Popen, seen: set[int]) -> list[str]:
    """Stop the hub as an administrator would (SIGTERM); return what it left running.

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
    while time.monotonic() < deadline and any(_alive(pid) for pid in seen):
        time.sleep(0.2)
    left = [pid for pid in seen if _alive(pid)]
    described = [f"{pid}: {_cmdline(pid)}" for pid in left]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return described


@pytest.mark.browser
def test_hub_serves_the_app_to_a_logged_in_student(
    tmp_path: Path, open_page: Callable[..., tuple[Any, PageWatch]]
) -> None:
    if APP.exists():
        notebook_url, ready = APP_URL, ".spec-next"
    else:  # until the app is written: a one-button notebook of the same shape
        notebook_url, ready = "/voila/render/tests/_hub_dev.ipynb", ".spec-next"
    proxy = _proxy_command()
    port, hub_port, api_port = _free_ports(3)
    config = _write_config(tmp_path, proxy, port, hub_port, api_port, notebook_url)
    log_path = tmp_path / "jupyterhub.log"
    env = {**os.environ, "SPECULATION_CLASS_PASSWORD": PASSWORD}
    env.pop("SPECULATION_TEACHER_PASSWORD", None)

    def log() -> str:
        return log_path.read_text(errors="replace")[-6000:]

    base = f"http://127.0.0.1:{port}"
    seen: set[int] = set()
    started = time.monotonic()
    with open(log_path, "wb") as log_file:
        hub = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    seen.add(hub.pid)
    left: list[str] = []
    try:
        _wait_for_hub(hub, f"{base}/hub/api", log)
        seen.update(_descendants(hub.pid))
        hub_up = time.monotonic() - started

        page, watch = open_page(f"{base}/hub/login", wait_until="load")
        # A wrong password does not let anyone in.
        page.fill("#username_input", USER)
        page.fill("#password_input", "not-the-class-password")
        page.click("#login_submit")
        page.wait_for_selector(".login_error", timeout=10_000)
        # The class password does, and lands the student on the app.
        logged_in = time.monotonic()
        page.fill("#username_input", USER)
        page.fill("#password_input", PASSWORD)
        page.click("#login_submit")
        try:
            page.wait_for_selector(ready, state="visible", timeout=APP_TIMEOUT * 1000)
        except Exception:
            seen.update(_descendants(hub.pid))
            pytest.fail(f"the app did not show {ready!r} at {page.url}:\n{log()}")
        app_up = time.monotonic() - logged_in
        assert page.url.startswith(f"{base}/user/{USER}{notebook_url}"), page.url

        processes = {pid: _cmdline(pid) for pid in _descendants(hub.pid)}
        seen.update(processes)
        servers = [pid for pid, cmd in processes.items() if "jupyterhub.singleuser" in cmd]
        kernels = [pid for pid, cmd in processes.items() if "ipykernel" in cmd]
        assert len(servers) == 1, processes
        assert len(kernels) == 1, processes
        # The culler is running: it would have stopped at its first round
        # (at start-up) if its role lacked a scope.
        assert any("jupyterhub_idle_culler" in cmd for cmd in processes.values()), processes
        assert not re.search(r"\b403 (GET|POST|DELETE) ", log()), log()
        # Students get no terminal.
        response = page.request.get(f"{base}/user/{USER}/api/terminals")
        assert response.status == 404, response.status
        # Nothing went wrong in the page, but for the refused wrong password
        # and what Voila's templates ask a CDN for (MathJax, Font Awesome),
        # which this offline machine cannot load and a school's browsers can.
        problems = [
            problem
            for problem in watch.problems
            if not (
                problem.startswith("console error: Failed to load resource:")
                and (problem.endswith(f"[{base}/hub/login?next=]") or "[https://" in problem)
            )
        ]
        assert not problems, "the page reported:\n" + "\n".join(problems)

        server_kib, kernel_kib = _memory_kib(servers[0]), _memory_kib(kernels[0])
        print(
            f"\nhub up in {hub_up:.1f} s; login to app in {app_up:.1f} s; "
            f"student's server rss {server_kib['rss'] / 1024:.0f} MiB (pss {server_kib['pss'] / 1024:.0f}), "
            f"kernel rss {kernel_kib['rss'] / 1024:.0f} MiB (pss {kernel_kib['pss'] / 1024:.0f})"
        )
        # open_page closes the page (run_before_unload=True) after the test.
    finally:
        seen.update(_descendants(hub.pid))
        left = _stop(hub, seen)
    assert not left, "still running after the hub stopped:\n" + "\n".join(left)
