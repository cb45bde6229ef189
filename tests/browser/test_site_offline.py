"""The static site offline (issue 26): its service worker, after one visit, with no server at all.

The site built once for the session (``tests/support/site_fixtures.py``), each test with a static server
of its own (they stop it, or change its files), in headless Chromium with every request outside
loopback refused and counted (0):

- the app visited once, its offline copy completed in the background; the server stopped and the
  page reloaded: the app plays a deal and simulates (numpy, which the first view does not load,
  came into the copy after the app was interactive);
- a rebuilt site (one file changed, the worker stamped again, as the build's last step does) is
  served fresh at the next visit, and its worker replaces the whole offline copy;
- the build: the worker names every file the app loads, the manifest makes the site installable.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_fixtures import BuiltSite, OutsideCounter, StaticServer, offline_page
from test_site import (
    READY,
    STEP_TIMEOUT_MS,
    build_module,
    first_lesson,
    kernel_idle,
    open_lesson,
    pyodide_folder,
    wait_live,
)

SEED = 1813
OFFLINE_READY_MS = 300_000


def offline_state(page: Any) -> str:
    return str(page.evaluate("document.documentElement.dataset.offline || ''"))


def wait_offline_ready(page: Any) -> str:
    """Wait until the worker says the offline copy is complete; its version."""
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement.dataset.offline)", timeout=OFFLINE_READY_MS
    )
    assert offline_state(page) == "ready"
    return str(page.evaluate("document.documentElement.dataset.offlineVersion"))


def worker_list(worker: str, name: str) -> list[str]:
    """One of the file lists the build wrote into the service worker."""
    found = re.search(rf"const {name} = (\[.*?\]);", worker, re.DOTALL)
    assert found, name
    return list(json.loads(found.group(1)))


def cache_names(page: Any) -> list[str]:
    return sorted(page.evaluate("caches.keys()"))


@pytest.fixture
def own_server(built_site: BuiltSite, tmp_path: Path) -> Iterator[tuple[StaticServer, Path]]:
    """A copy of the built site, served on a port of its own (the test may stop it or change it)."""
    folder = tmp_path / "site"
    shutil.copytree(built_site.path, folder)
    server = StaticServer(folder)
    try:
        yield server, folder
    finally:
        server.close()


def test_the_worker_knows_every_file_the_app_loads_and_the_site_is_installable(built_site: BuiltSite) -> None:
    """The service worker's list holds the app's page, the Pyodide runtime, the wheels of every
    package the app's page preloads, and numpy (Simulate); the manifest opens the app, with icons."""
    build = build_module()
    worker = (built_site.path / "service-worker.js").read_text(encoding="utf-8")
    summary = json.loads((built_site.path / "build.json").read_text(encoding="utf-8"))
    assert json.dumps(summary["offline"]["version"]) in worker and "__VERSION__" not in worker
    folder = pyodide_folder(built_site.path)
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    app, lab = worker_list(worker, "APP_FILES"), worker_list(worker, "LAB_FILES")
    for name in build.site_offline.closure([*build.PRELOAD, *build.PINS["app_later"]], lock):
        assert f"static/{folder.name}/{lock[name]['file_name']}" in app, name
    for name in ("voici/render/app.html", f"static/{folder.name}/pyodide.asm.wasm", "manifest.webmanifest"):
        assert name in app, name
    # The lessons' own packages come into the copy once a lesson has run (LAB_FILES), with the lab.
    assert not [name for name in app if name.startswith(f"static/{folder.name}/matplotlib-")]
    for name in build.site_offline.closure(build.LAB_PRELOAD, lock):
        assert f"static/{folder.name}/{lock[name]['file_name']}" in lab, name
    assert {"lab/index.html", "jupyter-lite.json", "api/contents/all.json"} <= set(lab)
    assert {f"files/{path.name}" for path in build.lessons()} <= set(lab)
    assert "<script>" in (built_site.path / "lab" / "index.html").read_text(encoding="utf-8").split("site/lab.js")[0]
    manifest = json.loads((built_site.path / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (built_site.path / icon["src"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (built_site.path / "voici" / "render" / "app.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="../../manifest.webmanifest">' in page


@pytest.mark.browser
def test_after_one_visit_the_app_plays_and_simulates_with_the_server_stopped(
    own_server: tuple[StaticServer, Path], site_browser: Any, outside: OutsideCounter
) -> None:
    """One visit, the offline copy completed after the app was interactive; then the static server
    stopped and the page reloaded: the app opens, plays a card and runs a simulation."""
    server, _folder = own_server
    opened = offline_page(site_browser, server.url.rstrip("/"))
    page = opened.page
    try:
        page.goto(f"{server.url}index.html?seed={SEED}&mode=classroom", wait_until="commit")
        wait_live(page)
        wait_offline_ready(page)
        server.close()
        # Chromium sends a page's synchronous request (the painted view's) past the service worker
        # while Playwright intercepts requests: the reload goes without that, the proxy still counts.
        page.unroute("**/*")
        page.reload(wait_until="commit")
        page.locator("#spec-painted .spec-app").wait_for(state="attached", timeout=STEP_TIMEOUT_MS)  # at once
        wait_live(page)
        assert str(SEED) in page.locator(".spec-deal-info").first.inner_text()
        page.locator(READY).first.click()
        page.locator(".spec-log li[data-step='1']").first.wait_for(timeout=STEP_TIMEOUT_MS)
        page.locator("button.spec-open-simulation").first.click()
        page.wait_for_selector("button.spec-sim-run:enabled", timeout=STEP_TIMEOUT_MS)
        page.locator("button.spec-sim-run").first.click()
        page.wait_for_function(
            "() => document.querySelectorAll('.spec-sim-result tr[data-row=\"hold\"]').length === 1",
            timeout=STEP_TIMEOUT_MS,
        )  # numpy ran: it came into the offline copy after the first visit's app was interactive
        assert page.locator("[data-mime-type='application/vnd.jupyter.error']").count() == 0
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
    opened.watch.assert_clean()


@pytest.mark.browser
def test_a_lesson_run_once_opens_and_runs_with_the_server_stopped(
    own_server: tuple[StaticServer, Path], site_browser: Any, outside: OutsideCounter
) -> None:
    """The lab's lessons offline: a lesson opened once, its kernel started, the lab's copy fetched
    (site/lab.js asks the worker); then the static server stopped and the lesson's link opened
    again: the lab opens it from the worker's copy, and a code cell runs in a kernel started
    offline."""
    server, _folder = own_server
    opened = offline_page(site_browser, server.url.rstrip("/"))
    page = opened.page
    try:
        open_lesson(page, server.url, first_lesson())
        kernel_idle(page)
        wait_offline_ready(page)
        # The started kernel marks the lesson changed (its metadata): saved, the lab lets the page
        # go without asking (the test's pages dismiss every dialog, a "Leave site?" included).
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.keyboard.press("Control+s")
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=STEP_TIMEOUT_MS)
        server.close()
        page.unroute("**/*")  # as above: the requests go to the worker, none reaches a server
        # The lesson's link opened again (the lab has taken ?path= out of its own address).
        page.goto(f"{server.url}lab/index.html?path={first_lesson()}", wait_until="commit", timeout=OFFLINE_READY_MS)
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(state="visible", timeout=OFFLINE_READY_MS)
        kernel_idle(page)
        code = page.locator(".jp-Notebook .jp-CodeCell").first
        code.click()
        page.keyboard.press("Shift+Enter")
        code.locator(".jp-OutputArea-output, .jp-InputPrompt:has-text('[1]')").first.wait_for(timeout=OFFLINE_READY_MS)
        assert page.locator("[data-mime-type='application/vnd.jupyter.error']").count() == 0
        page.keyboard.press("Control+s")  # kept offline too; the page then closes without asking
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=STEP_TIMEOUT_MS)
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)


@pytest.mark.browser
def test_a_rebuilt_site_is_served_fresh_and_replaces_the_offline_copy(
    own_server: tuple[StaticServer, Path], site_browser: Any, outside: OutsideCounter
) -> None:
    """A visit installs the worker; the site is rebuilt with one file changed (the worker stamped
    again, as the build's last step does); the next visit shows the changed file, and the new worker
    keeps one cache, the new build's, with that file in it."""
    server, folder = own_server
    build = build_module()
    opened = offline_page(site_browser, server.url.rstrip("/"))
    page = opened.page
    marker = "rebuilt-26"
    css_rule = "getComputedStyle(document.body).getPropertyValue('--spec-build-marker').trim()"
    try:
        page.goto(f"{server.url}reset.html", wait_until="load")  # a page of the site without Python
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)
        (old,) = cache_names(page)
        css = folder / "static" / "site" / "site.css"
        css.write_text(css.read_text(encoding="utf-8") + f"\nbody {{ --spec-build-marker: {marker}; }}\n")
        summary = json.loads((folder / "build.json").read_text(encoding="utf-8"))
        new = build.site_offline.finish(
            folder,
            pyodide_folder(folder).name,
            build.PRELOAD,
            build.PINS["pyodide"]["runtime"],
            build.PINS["app_later"],
            build.LAB_PRELOAD,
        )
        assert (
            new["version"] != summary["offline"]["version"]
            and old == f"speculation-site-{summary['offline']['version']}"
        )
        page.goto(f"{server.url}reset.html", wait_until="load")
        assert page.evaluate(css_rule) == marker  # fresh at the next visit
        page.wait_for_function(
            "name => caches.keys().then(k => k.length === 1 && k[0] === name)",
            arg=f"speculation-site-{new['version']}",
            timeout=OFFLINE_READY_MS,
        )
        kept = page.evaluate(
            "url => caches.match(url).then(r => r ? r.text() : '')", f"{server.url}static/site/site.css"
        )
        assert marker in kept
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
