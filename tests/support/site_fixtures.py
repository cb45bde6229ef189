"""The static site for the tests: built once, served by a plain static server, opened offline.

``tests/browser/test_site*.py`` and ``test_engines.py`` (the site in Firefox and WebKit) use these; one
build, one server and one browser for the whole session.

``built_site``
    ``./scripts/build-site --output <tmp>``, the command the README and the Pages workflow run
    (its downloads come from the cache in ``~/.cache/speculation_nb/site/``).
``site_url``
    ``python -m http.server`` on a free loopback port, serving the built folder, as a teacher would.
``site_browser``
    headless Chromium whose proxy is :class:`OutsideCounter`: loopback goes direct, and every
    request for any other address (from the page, a web worker or the service worker) reaches
    the counter, which refuses it and writes it down. :func:`offline_page` also aborts and counts
    such requests in the page itself.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import socketserver
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import CHROMIUM, CHROMIUM_ARGS, PageWatch

REPO = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 1800  # a first build downloads about 100 MB; a cached one takes about 20 s

__all__ = ["BuiltSite", "OutsideCounter", "offline_page"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class BuiltSite:
    path: Path
    seconds: float
    output: str


class _Refuse(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        line = self.rfile.readline(65536).decode("latin-1").strip()
        if line:
            self.server.seen.append(line)  # type: ignore[attr-defined]
        self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


#: Chromium's own background services (updates, sign-in, autofill), asked for by the browser
#: whatever page it shows; nothing a page of the site requests. Every other host counts.
BROWSER_OWN = re.compile(
    r"\b(?:CONNECT |[A-Z]+ https?://)(?:accounts\.google\.com|(?:update|content-autofill|optimizationguide-pa"
    r"|safebrowsing)\.googleapis\.com|clients2\.google\.com)[:/]"
)


class OutsideCounter:
    """A proxy on loopback that refuses and records every request sent to it."""

    def __init__(self) -> None:
        self.port = free_port()
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", self.port), _Refuse)
        self._server.daemon_threads = True
        self._server.seen = []  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def seen(self) -> list[str]:
        """Every request refused, Chromium's own ones included."""
        return list(self._server.seen)  # type: ignore[attr-defined]

    @property
    def from_pages(self) -> list[str]:
        """The requests refused that were not Chromium's own background ones (:data:`BROWSER_OWN`)."""
        return [line for line in self.seen if not BROWSER_OWN.search(line)]

    def __enter__(self) -> OutsideCounter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def build_site(output: Path) -> BuiltSite:
    started = time.monotonic()
    done = subprocess.run(
        [str(REPO / "scripts" / "build-site"), "--output", str(output)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )
    if done.returncode != 0:
        raise AssertionError(f"./scripts/build-site failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return BuiltSite(output, time.monotonic() - started, done.stdout)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    if shutil.which("npm") is None:
        message = "npm is needed to build the site (apt-get install npm)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return build_site(tmp_path_factory.mktemp("site") / "_site")


class StaticServer:
    """``python -m http.server`` on a free loopback port, serving one folder."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        command = [sys.executable, "-m", "http.server", "-d", str(folder), "--bind", "127.0.0.1", str(self.port)]
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "reset.html", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or self._process.poll() is not None:
                    self.close()
                    raise
                time.sleep(0.2)

    def close(self) -> None:
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()


@pytest.fixture(scope="session")
def site_url(built_site: BuiltSite) -> Iterator[str]:
    server = StaticServer(built_site.path)
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture(scope="session")
def outside() -> Iterator[OutsideCounter]:
    with OutsideCounter() as counter:
        yield counter


def launch_offline(playwright: Any, counter: OutsideCounter) -> Any:
    """Chromium sending everything that is not loopback to ``counter`` (loopback bypasses proxies)."""
    # Chromium's own flag, not Playwright's proxy option (which sends loopback through the proxy too).
    proxy = [f"--proxy-server=http://127.0.0.1:{counter.port}", "--proxy-bypass-list=127.0.0.1"]
    return playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--disable-sync", "--no-first-run", *proxy], headless=True
    )


@pytest.fixture(scope="session")
def site_browser(playwright_session: Any, outside: OutsideCounter) -> Iterator[Any]:
    browser = launch_offline(playwright_session, outside)
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class OfflinePage:
    page: Any
    context: Any
    watch: PageWatch
    aborted: list[str] = field(default_factory=list)

    def close(self) -> None:
        """Close the tabs as a user would (``beforeunload`` runs), then the context."""
        for page in self.context.pages:
            if not page.is_closed():
                page.close(run_before_unload=True)
        with contextlib.suppress(Exception):  # already closed by the browser
            self.context.close()


def offline_page(browser: Any, origin: str, width: int = 1280, height: int = 800, context: Any = None) -> OfflinePage:
    """A page in a new (or the given) context; requests outside ``origin`` are aborted and counted."""
    context = context or browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    opened = OfflinePage(page, context, PageWatch().attach(page))

    def route(route: Any) -> None:
        url = route.request.url
        if url.startswith((origin, "data:", "blob:")):
            route.continue_()
        else:
            opened.aborted.append(url)
            route.abort()

    page.route("**/*", route)
    return opened
