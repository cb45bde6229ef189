"""The static site against the Voila app, in one run: each phase of a visit, downloads, one click.

    python benchmarks/bench_site.py [--site _site] [--clicks 5]

Builds the site with ``./scripts/build-site`` unless ``--site`` names a built one, serves it from a
static server on loopback that counts the bytes it sends, and opens the app in headless Chromium
(one profile: the second visit has the browser's cache and the site's service worker, as a
student's second visit):

* first visit (empty profile), cached visit, and a reload with the static server stopped
  (offline: the service worker's copy): seconds from the request to the painted first view
  (``#spec-painted``, the view built at build time), to Python running the app's cell
  (``site/page.js`` notes it), and to an enabled "Next card" (interactive);
* megabytes the server sent before the app was interactive (what a static host sends; what the
  service worker fetches in the background afterwards, numpy for Simulate included, does not count)
  and after it, until the offline copy was complete;
* "Next card" clicked ``--clicks`` times: milliseconds from the click to the new numbers;
* Chromium's memory (the sum of its processes' RSS) with the site's app open.

The same for the Voila app (``tests/support/voila_server.py``: a real Voila server on loopback) in
the same run (its first view is the live one; its download is the bytes Chromium received), and
the ratios. Targets (issue 26): painted within 2 s, the cached visit interactive within 2x the
Voila app's, at most 25 MB before the first visit is interactive.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))

from browser_fixtures import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from site_fixtures import build_site  # noqa: E402
from voila_server import VoilaServer  # noqa: E402

READY = "button.spec-next:enabled"
TIMEOUT_MS = 600_000
QUERY = "?seed=42&mode=classroom"


class CountingServer:
    """A static server on loopback (as ``python -m http.server``) that counts the bytes it sends."""

    def __init__(self, folder: Path) -> None:
        self.sent = 0
        lock = threading.Lock()
        counter = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def copyfile(self, source: Any, outputfile: Any) -> None:
                while block := source.read(1 << 16):
                    outputfile.write(block)
                    with lock:
                        counter.sent += len(block)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder))
        )
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def rss_mib(marker: str) -> float:
    """The resident memory of every process whose command line holds ``marker`` (one profile)."""
    total = 0
    for proc in Path("/proc").iterdir():
        try:
            if marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                for line in (proc / "status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def visit(context: Any, url: str, sent: Any) -> tuple[Any, dict[str, float]]:
    """Open ``url`` in a new page: seconds to the first view painted and to interactive, the
    page's own phases, and megabytes sent meanwhile (``sent()``: the bytes so far)."""
    received = [0]

    def count(request: Any) -> None:
        with contextlib.suppress(Exception):  # a request the browser dropped
            received[0] += max(0, int(request.sizes()["responseBodySize"]))  # -1: from the cache

    context.on("requestfinished", count)
    before = sent() if sent is not None else 0
    page = context.new_page()
    started = time.monotonic()
    page.goto(url, wait_until="commit")
    page.locator("#spec-painted .spec-app, .spec-app").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    painted = time.monotonic() - started
    page.locator(READY).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    ready = time.monotonic() - started
    context.remove_listener("requestfinished", count)
    phases = page.evaluate("window.SPECULATION_TIMES || {}")
    python = phases.get("python")
    out = {
        "painted_s": painted,
        "python_s": float("nan") if python is None else python / 1000,
        "ready_s": ready,
        "mb": (sent() - before) / 1e6 if sent is not None else received[0] / 1e6,
    }
    out.update({f"phase_{name}": value for name, value in worker_phases(page).items()})
    return page, out


def worker_phases(page: Any) -> dict[str, float]:
    """When each phase of the kernel's start ended, in seconds from the page's request: the kernel's
    worker notes them (``site/kernel-start.js``: ``self.SPECULATION_WORKER_TIMES``, ms since the epoch)."""
    origin = page.evaluate("performance.timeOrigin")
    for worker in page.workers:
        with contextlib.suppress(Exception):  # a worker gone, or not the kernel's
            times = worker.evaluate("self.SPECULATION_WORKER_TIMES || null")
            if times:
                # "compiled": 1 when Python started from the compiled start (site/site_pyc.py)
                return {name: value if name == "compiled" else (value - origin) / 1000 for name, value in times.items()}
    return {}


#: The steps in the live app's log (the painted first view, still over it for a moment once the app
#: is interactive, has a log of its own).
LIVE_STEPS = (
    "Array.from(document.querySelectorAll('.spec-log li[data-step]')).filter(e => !e.closest('#spec-painted')).length"
)


def clicks(page: Any, count: int) -> list[float]:
    """Milliseconds from a Next card click to the new step in the log and the odds."""
    out = []
    for _ in range(count):
        if page.locator(READY).count() == 0:
            break
        steps = page.evaluate(LIVE_STEPS)
        started = time.monotonic()
        page.locator(READY).first.click()
        page.wait_for_function(f"n => ({LIVE_STEPS}) > n", arg=steps, timeout=60_000)
        out.append((time.monotonic() - started) * 1000)
    return out


def measure(playwright: Any, url: str, n_clicks: int, server: CountingServer | None = None) -> dict[str, Any]:
    sent = (lambda: server.sent) if server is not None else None
    with tempfile.TemporaryDirectory(prefix="bench-site-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 800},
        )
        try:
            result: dict[str, Any] = {}
            page, first = visit(context, url, sent)
            result.update({f"first_{k}": v for k, v in first.items()})
            result["rss_mib"] = rss_mib(profile)
            if server is not None:  # the offline copy, completed in the background
                before = server.sent
                page.wait_for_function("document.documentElement.dataset.offline === 'ready'", timeout=TIMEOUT_MS)
                result["background_mb"] = (server.sent - before) / 1e6
            page.close(run_before_unload=True)
            page, second = visit(context, url, sent)
            result.update({f"second_{k}": v for k, v in second.items()})
            times = clicks(page, n_clicks)
            page.close(run_before_unload=True)
            if server is not None:
                server.close()
                page, offline = visit(context, url, None)
                result.update({f"offline_{k}": v for k, v in offline.items() if k != "mb"})
                page.close(run_before_unload=True)
        finally:
            context.close()
    result["click_ms"] = statistics.median(times) if times else float("nan")
    return result


ROWS = [
    ("first visit: first view painted (s)", "first_painted_s", "{:.1f}"),
    ("first visit: Python runs the app (s)", "first_python_s", "{:.1f}"),
    ("first visit: interactive (s)", "first_ready_s", "{:.1f}"),
    ("first visit: download before (MB)", "first_mb", "{:.1f}"),
    ("first visit: download after (MB)", "background_mb", "{:.1f}"),
    ("cached visit: first view painted (s)", "second_painted_s", "{:.1f}"),
    ("cached visit: Python runs the app (s)", "second_python_s", "{:.1f}"),
    ("cached visit: interactive (s)", "second_ready_s", "{:.1f}"),
    ("cached visit: download (MB)", "second_mb", "{:.2f}"),
    ("offline reload: painted (s)", "offline_painted_s", "{:.1f}"),
    ("offline reload: interactive (s)", "offline_ready_s", "{:.1f}"),
    ("Next card to numbers, median (ms)", "click_ms", "{:.0f}"),
    ("Chromium memory, app open (MiB)", "rss_mib", "{:.0f}"),
]


#: The phases of the static site's start, in order (``site/kernel-start.js``), and what each one is.
PHASES = [
    ("start", "the kernel's worker started (site/page.js)"),
    ("pyodide_js", "pyodide.js loaded"),
    ("wasm", "Pyodide's wasm compiled and instantiated"),
    ("pyodide", "Python started, preloaded packages in"),
    ("package_manager", "kernel: package manager (piplite)"),
    ("kernel", "kernel: IPython, pyodide_kernel imported"),
    ("app_import", "the app's modules imported"),
    ("cell_1", "the app's cell run (first draw)"),
]


def print_phases(static: dict[str, Any]) -> None:
    """Each phase of the static site's start: when it ended (s from the page's request) and how long it took."""
    visits = [("first", "first visit"), ("second", "cached visit"), ("offline", "offline")]
    head = "".join(f"{title:>20}" for _, title in visits)
    print(f"{'phases of the static site (end s / took s)':52}{head}")
    rows = [*PHASES, ("ready", "interactive (Next card enabled)")]
    for name, label in rows:
        cells = []
        for visit_key, _ in visits:
            key = f"{visit_key}_ready_s" if name == "ready" else f"{visit_key}_phase_{name}"
            end = static.get(key)
            index = rows.index((name, label))
            before = None
            for earlier, _ in reversed(rows[:index]):
                before = static.get(f"{visit_key}_phase_{earlier}")
                if before is not None:
                    break
            if end is None:
                cells.append(f"{'-':>20}")
            else:
                took = f"{end - before:5.1f}" if before is not None else "     "
                cells.append(f"{end:>12.1f} /{took}")
        print(f"  {label:50}" + "".join(cells))
    used = ["yes" if static.get(f"{key}_phase_compiled") else "no" for key, _ in visits]
    print(f"  {'Python from the compiled start (site/site_pyc.py)':50}" + "".join(f"{u:>20}" for u in used))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site built already (default: build one now)")
    parser.add_argument("--clicks", type=int, default=5)
    parser.add_argument("--no-voila", action="store_true", help="the static site alone (its phases; no ratio)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            built = build_site(Path(tmp) / "_site")
            print(f"build: {built.seconds:.1f} s")
            site = built.path
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"site folder: {size / 2**20:.1f} MiB")
        server = CountingServer(site)
        try:
            with sync_playwright() as playwright:
                static = measure(playwright, f"{server.url}{QUERY}", args.clicks, server)
                if args.no_voila:
                    served: dict[str, Any] = {}
                else:
                    with VoilaServer("notebooks/app.ipynb", env={}) as voila:
                        served = measure(playwright, f"{voila.url}{QUERY}", args.clicks)
        finally:
            with contextlib.suppress(Exception):  # stopped already, for the offline reload
                server.close()
    nan = float("nan")
    print(f"{'':40} {'static site':>12} {'Voila app':>12} {'ratio':>8}")
    for label, key, fmt in ROWS:
        ours, theirs = static.get(key, nan), served.get(key, nan)
        ratio = ours / theirs if theirs and theirs == theirs else nan
        print(f"{label:40} {fmt.format(ours):>12} {fmt.format(theirs):>12} {ratio:>7.1f}x")
    print_phases(static)
    if not served:
        return 0
    ratio = static["second_ready_s"] / served["second_ready_s"]
    painted = max(static["first_painted_s"], static["second_painted_s"])
    print(
        f"targets: painted <= 2 s: {'met' if painted <= 2 else 'NOT met'}; "
        f"cached interactive <= 2x Voila ({ratio:.1f}x): {'met' if ratio <= 2 else 'NOT met'}; "
        f"first download <= 25 MB: {'met' if static['first_mb'] <= 25 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
