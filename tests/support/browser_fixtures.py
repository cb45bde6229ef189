"""Playwright fixtures for the browser tests: headless Chromium and page watchers.

``tests/conftest.py`` registers the fixtures once for every module (a
session-scoped fixture imported into two modules would start Playwright twice);
modules import the helpers (``PageWatch``, ``CHROMIUM``) from here.

``browser``
    one headless Debian Chromium for the session (``/usr/bin/chromium``;
    Playwright's own browser downloads are not used). Missing Chromium skips
    the browser tests locally and fails them in CI (``CI`` set).
``open_page(url, width=1280, height=800, wait_until="commit", **context_options)``
    a fresh browser context (``context_options`` go to ``browser.new_context``:
    ``has_touch``, ``is_mobile`` ...) and page with a :class:`PageWatch` attached;
    every page still open at the end of the test is closed with
    ``run_before_unload=True``, as a user closing the tab would.

:func:`click_until_changed` clicks a button and waits until another element's text
changes: the kernel behind the page answered.

:class:`PageWatch` collects console errors, uncaught page errors, dialogs
(``alert``/``confirm``, dismissed at once) and every request a page sends beyond
this machine (:func:`is_outside`: any host but loopback; issue 23, "no outside
request": the app's Voila template links nothing from a CDN, speculation_nb/serve.py).
It ignores exactly one thing: Voila's refused shutdown request when a page is
reloaded (voila-dashboards/voila#1458).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "PageWatch",
    "browser",
    "click_until_changed",
    "is_outside",
    "launch_chromium",
    "open_page",
]

CHROMIUM = os.environ.get("SPECULATION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]

#: The hosts a page may ask: this machine (every server of the tests listens on loopback).
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: What a page makes itself or reads from this machine's disk, never from a network.
LOCAL_SCHEMES = frozenset({"data", "blob", "about", "file"})


def is_outside(url: str) -> bool:
    """Does a request for ``url`` leave this machine?

    >>> [is_outside(u) for u in ("http://127.0.0.1:8866/x", "data:,", "https://cdn.jsdelivr.net/a.css")]
    [False, False, True]
    """
    parts = urlsplit(url)
    return parts.scheme not in LOCAL_SCHEMES and parts.hostname not in LOOPBACK_HOSTS


#: Voila's own shutdown request when a page unloads (a reload), which its XSRF check refuses
#: (voila-dashboards/voila#1458; culling removes the kernel, see speculation_nb.serve).
VOILA_SHUTDOWN = re.compile(r"^http://127\.0\.0\.1:\d+/voila/api/shutdown/[0-9a-f-]{36}$")


def _is_known_harmless(text: str, url: str) -> bool:
    return text.startswith("Failed to load resource") and "403" in text and bool(VOILA_SHUTDOWN.match(url))


@dataclass
class PageWatch:
    """What went wrong in one page: console errors, page errors, dialogs, requests beyond loopback."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> PageWatch:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("dialog", self._on_dialog)
        page.on("request", self._on_request)
        return self

    def _on_request(self, request: Any) -> None:
        if is_outside(request.url):
            self.outside_requests.append(request.url)

    def _on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        line = f"{message.text} [{url}]"
        if _is_known_harmless(message.text, url):
            self.ignored.append(line)
        else:
            self.console_errors.append(line)

    def _on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        with contextlib.suppress(Exception):  # the page may be closing
            dialog.dismiss()

    @property
    def problems(self) -> list[str]:
        return (
            [f"console error: {e}" for e in self.console_errors]
            + [f"page error: {e}" for e in self.page_errors]
            + [f"dialog: {d}" for d in self.dialogs]
            + [f"outside request: {u}" for u in self.outside_requests]
        )

    def assert_clean(self) -> None:
        assert not self.problems, "the page reported:\n" + "\n".join(self.problems)


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless, with the flags this machine needs."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def _chromium_or_skip() -> None:
    if shutil.which(CHROMIUM) is None and not os.path.isfile(CHROMIUM):
        message = f"no Chromium at {CHROMIUM} (scripts/test installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Any]:
    """The one Playwright of the test session: its sync API runs an event loop, so a second
    ``sync_playwright()`` in the same process fails; every browser is launched from this one."""
    _chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session: Any) -> Iterator[Any]:
    chromium = launch_chromium(playwright_session)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., tuple[Any, PageWatch]]]:
    contexts: list[Any] = []

    def open_(
        url: str, width: int = 1280, height: int = 800, wait_until: str = "commit", **context_options: Any
    ) -> tuple[Any, PageWatch]:
        context = browser.new_context(viewport={"width": width, "height": height}, **context_options)
        contexts.append(context)
        page = context.new_page()
        watch = PageWatch().attach(page)
        page.goto(url, wait_until=wait_until)
        return page, watch

    yield open_
    for context in contexts:
        for page in context.pages:
            if not page.is_closed():
                page.close(run_before_unload=True)
        context.close()


def click_until_changed(page: Any, button: str, changes: str, timeout_ms: int = 30_000) -> None:
    """Click the first ``button`` and wait until the text of the first ``changes`` is no longer
    what it was before the click (the kernel answered)."""
    before = page.locator(changes).first.text_content()
    page.locator(button).first.click()
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); return el && el.textContent !== before; }",
        arg=[changes, before],
        timeout=timeout_ms,
    )
