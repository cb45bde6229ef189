"""The static site against the Voila app, in one run: load to interactive, download size, one click.

    python benchmarks/bench_site.py [--site _site] [--clicks 5]

Builds the site with ``./scripts/build-site`` unless ``--site`` names a built one, serves it with
``python -m http.server`` on loopback, and opens the app in headless Chromium (one profile, so the
second load is served from the browser's cache, as a student's second visit):

* first load (empty cache) and second load: seconds from navigation to an enabled "Next card";
* bytes received by the first load and by the second (every response, workers included);
* "Next card" clicked ``--clicks`` times: milliseconds from the click to the new numbers;
* Chromium's memory (the sum of its processes' RSS) with the site's app open.

The same for the Voila app (``tests/support/voila_server.py``: a real Voila server on loopback) in the
same run, and the ratios. Targets (issue 13): cached load within 15 s, a click within 300 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))

from browser_fixtures import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from site_fixtures import StaticServer, build_site  # noqa: E402
from voila_server import VoilaServer  # noqa: E402

READY = "button.spec-next:enabled"
TIMEOUT_MS = 600_000


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


def load(context: Any, url: str, urls: set[str] | None = None) -> tuple[Any, float, int]:
    """Open ``url`` in a new page; seconds to an enabled Next card, bytes received meanwhile
    (and every address asked for, page and workers, into ``urls``)."""
    received = [0]

    def note(request: Any) -> None:
        if urls is not None:
            urls.add(request.url)

    def count(request: Any) -> None:
        with contextlib.suppress(Exception):  # a request the browser dropped
            received[0] += max(0, int(request.sizes()["responseBodySize"]))  # -1: from the cache

    context.on("requestfinished", count)
    context.on("request", note)
    page = context.new_page()
    started = time.monotonic()
    page.goto(url, wait_until="commit")
    page.locator(READY).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    seconds = time.monotonic() - started
    context.remove_listener("requestfinished", count)
    context.remove_listener("request", note)
    return page, seconds, received[0]


def clicks(page: Any, count: int) -> list[float]:
    """Milliseconds from a Next card click to the new step in the log and the odds."""
    out = []
    for _ in range(count):
        if page.locator(READY).count() == 0:
            break
        steps = page.locator(".spec-log li[data-step]").count()
        started = time.monotonic()
        page.locator(READY).first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('.spec-log li[data-step]').length > n", arg=steps, timeout=60_000
        )
        out.append((time.monotonic() - started) * 1000)
    return out


def files_mb(site: Path | None, base: str, urls: set[str]) -> float:
    """The size on disk of the site's files that the addresses name (what a static host sends)."""
    if site is None:
        return float("nan")
    paths = {urllib.parse.urlsplit(u).path for u in urls if u.startswith(base)}
    files = [site / urllib.parse.unquote(p).lstrip("/") for p in paths]
    files = [f / "index.html" if f.is_dir() else f for f in files]
    return sum(f.stat().st_size for f in files if f.is_file()) / 1e6


def measure(playwright: Any, url: str, n_clicks: int, site: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-site-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 800},
        )
        try:
            urls: set[str] = set()
            page, first, first_bytes = load(context, url, urls)
            memory = rss_mib(profile)
            page.close(run_before_unload=True)
            page, second, second_bytes = load(context, url)
            times = clicks(page, n_clicks)
            page.close(run_before_unload=True)
        finally:
            context.close()
    return {
        "first_s": first,
        "second_s": second,
        "first_mb": first_bytes / 1e6,
        "first_files_mb": files_mb(site, url.split("?")[0], urls),
        "second_mb": second_bytes / 1e6,
        "click_ms": statistics.median(times) if times else float("nan"),
        "rss_mib": memory,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site built already (default: build one now)")
    parser.add_argument("--clicks", type=int, default=5)
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
        server = StaticServer(site)
        try:
            with sync_playwright() as playwright:
                static = measure(playwright, f"{server.url}?seed=42&mode=classroom", args.clicks, site)
                with VoilaServer("notebooks/app.ipynb", env={}) as voila:
                    served = measure(playwright, f"{voila.url}?seed=42&mode=classroom", args.clicks)
        finally:
            server.close()
    rows = [
        ("first load to interactive (s)", "first_s", "{:.1f}"),
        ("second load, cached (s)", "second_s", "{:.1f}"),
        ("first load download (MB, received)", "first_mb", "{:.1f}"),
        ("first load: files asked for (MB, on disk)", "first_files_mb", "{:.1f}"),
        ("second load download (MB)", "second_mb", "{:.2f}"),
        ("Next card to numbers, median (ms)", "click_ms", "{:.0f}"),
        ("Chromium memory, app open (MiB)", "rss_mib", "{:.0f}"),
    ]
    print(f"{'':38} {'static site':>12} {'Voila app':>12} {'ratio':>8}")
    for label, key, fmt in rows:
        ratio = static[key] / served[key] if served[key] and served[key] == served[key] else float("nan")
        print(f"{label:38} {fmt.format(static[key]):>12} {fmt.format(served[key]):>12} {ratio:>7.1f}x")
    print(
        f"targets: cached load <= 15 s: {'met' if static['second_s'] <= 15 else 'NOT met'}; "
        f"click <= 300 ms: {'met' if static['click_ms'] <= 300 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
