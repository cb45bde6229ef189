"""Browser-side speed of the Voila app, against a bare one-button notebook.

    python benchmarks/bench_app.py [--runs 5] [--clicks 15] [--pool 2] [--only plain|preheat]
                                   [--app other_app.ipynb] [--bare-only]

Serves ``benchmarks/bare.ipynb`` and ``notebooks/app.ipynb`` exactly as the
README's app command does (the options of ``speculation_nb.serve``), both at
once, and opens them in headless Chromium by turns, each time in a fresh
browser context (a cold cache, like a student's first visit):

- widget models at first display: how many widget models (widgets, their
  layouts and styles) the app's cell creates before the page can show it
  (counted in this process, building the app as the page does); 279 before
  issue 11, when every panel was built at start-up;
- time until interactive: from the start of navigation until the button is
  visible and enabled (``.bare-button``; the app's ``.spec-next``);
  target: app within 1.2x of bare, medians of the same run;
- click latency: from the click on "Next card" until the ``.spec-hold-pct``
  text has changed (for bare, the click counter), timed inside the page with
  a MutationObserver, on a seeded deal in classroom mode (the same cards every
  run, the odds changing at each); target: under 150 ms median;

once as served (a kernel started per page) and once with preheated kernels
(``--preheat_kernel=True --pool_size=N``), then says which measured better.
Before every page load it waits until the server and its kernels are idle
(a preheated pool refilled), so runs do not overlap. Loopback only; stops by
itself; every server, kernel and browser it starts is stopped.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))

from browser_fixtures import launch_chromium  # noqa: E402
from figures import load_average, median, p95  # noqa: E402
from voila_server import VoilaServer  # noqa: E402

BARE = "benchmarks/bare.ipynb"
APP = "notebooks/app.ipynb"
READY = {"bare": "button.bare-button:enabled", "app": "button.spec-next:enabled"}
#: The app opens on a seeded deal in classroom mode (nothing automatic): every run
#: clicks through the same cards. The seed is one whose odds change at every card.
QUERY = {"bare": "", "app": "?mode=classroom&seed={seed}"}
CLICK = {"bare": ("button.bare-button", ".bare-count"), "app": ("button.spec-next", ".spec-hold-pct")}
SEED = 0  # set in main()
TARGET_RATIO = 1.2
MODELS_BEFORE = 279  # widget models at first display before issue 11 (every panel built at start-up)
TARGET_CLICK_MS = 150.0
FILL_DELAY = 1  # seconds before the preheated pool replaces a kernel a page took


def role(notebook: str) -> str:
    """``"bare"`` for the baseline, ``"app"`` for the app (or a variant given with --app)."""
    return "bare" if notebook == BARE else "app"


# Clicks the button and resolves when the text of `out` has changed (the node may be
# replaced by a re-render, so the whole body is observed and the selector re-read).
_CLICK_JS = """
([button, out, timeout]) => new Promise((resolve) => {
  const read = () => { const el = document.querySelector(out); return el ? el.textContent : null; };
  const before = read();
  let t0 = 0;
  const observer = new MutationObserver(() => {
    const now = read();
    if (now !== before) { observer.disconnect(); resolve({ms: performance.now() - t0, before, after: now}); }
  });
  observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  setTimeout(() => { observer.disconnect(); resolve({ms: null, before, after: read()}); }, timeout);
  const el = document.querySelector(button);
  if (!el || el.disabled) { observer.disconnect(); resolve({ms: null, before, after: before, disabled: true}); return; }
  t0 = performance.now();
  el.click();
})
"""


def changing_seed(players: int = 5, reveals: int = 12) -> int:
    """The first seed whose deal lasts ``reveals`` cards with O1, in tenths of a
    percent as the page shows it, changing at each one."""
    from math import floor

    from speculation_nb import Rules, Session, odds

    def tenths(game: Any) -> int:
        return floor(odds.hold_probability(game) * 1000 + 0.5)

    for seed in range(1, 10_000):
        game = Session(Rules(players=players), None, 10, seed).game
        before, ok = tenths(game), True
        for _ in range(reveals):
            if game.over:
                ok = False
                break
            game.reveal()
            now = tenths(game)
            ok, before = ok and now != before, now
        if ok:
            return seed
    raise RuntimeError("no seed found")


def first_display_models(query: str) -> tuple[int, str]:
    """The widget models the app's cell creates (as ``notebooks/app.ipynb`` builds it), and the
    most common kinds; charts as the server draws them by default (SVG)."""
    from collections import Counter

    from ipywidgets.widgets.widget import _instances

    from speculation_nb.app import from_request

    before = set(_instances)
    app = from_request(query.lstrip("?"))
    new = [w for key, w in _instances.items() if key not in before]
    kinds = ", ".join(f"{n} {name}" for name, n in Counter(type(w).__name__ for w in new).most_common(5))
    app.close()
    return len(new), kinds


class LoadFailed(Exception):
    """A page that did not become interactive in time (counted, described, not fatal)."""


def load(browser: Any, server: VoilaServer, notebook: str, timeout_s: float = 120.0) -> tuple[float, Any, Any]:
    """Open the notebook in a fresh context: (seconds until interactive, context, page)."""
    from playwright.sync_api import Error as PlaywrightError

    time.sleep(1.5)  # the preheated pool starts refilling 1 s (FILL_DELAY) after a page took a kernel
    server.wait_until_quiet()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    start = time.perf_counter()
    try:
        page.goto(server.url + QUERY[role(notebook)].format(seed=SEED), wait_until="commit", timeout=timeout_s * 1000)
        page.locator(READY[role(notebook)]).first.wait_for(state="visible", timeout=timeout_s * 1000)
    except PlaywrightError as error:
        text = page.locator("body").inner_text(timeout=5000)[-600:] if not page.is_closed() else ""
        close(context, page)
        raise LoadFailed(
            f"{notebook} not interactive after {time.perf_counter() - start:.0f} s: {str(error).splitlines()[0]}\n"
            f"   page text (end): {text!r}\n   server log (end):\n{server.log_tail(25)}"
        ) from None
    return time.perf_counter() - start, context, page


def clicks(page: Any, notebook: str, count: int) -> tuple[list[float], int]:
    """Click latencies in ms, and how many clicks changed nothing within 2 s."""
    button, out = CLICK[role(notebook)]
    page.locator(out).first.wait_for(state="visible")
    latencies, unchanged = [], 0
    for _ in range(count):
        result = page.evaluate(_CLICK_JS, [button, out, 2000])
        if result.get("disabled"):
            break  # the deal is over
        if result["ms"] is None:
            unchanged += 1
        else:
            latencies.append(result["ms"])
        page.wait_for_timeout(50)
    return latencies, unchanged


def close(context: Any, page: Any) -> None:
    page.close(run_before_unload=True)
    context.close()


def run_config(browser: Any, label: str, pool: int, runs: int, click_count: int, notebooks: list[str]) -> dict:
    print(
        f"\n== {label}: " + ("a kernel started per page" if not pool else f"--preheat_kernel=True --pool_size={pool}")
    )
    # Every measured page gets a preheated kernel: the pool refills 1 s after each take (the served
    # default, 120 s, keeps refills out of a lesson's first minutes; here a page would wait for it).
    env = {"SPECULATION_POOL_FILL_DELAY": str(FILL_DELAY)} if pool else None
    servers = {nb: VoilaServer(nb, pool_size=pool, env=env).start() for nb in notebooks}
    try:
        print(
            "   command: python -m voila "
            + " ".join(servers[notebooks[0]].command[3:]).replace(notebooks[0], "<notebook>")
        )
        result: dict[str, Any] = {nb: {"tti": [], "first": None, "clicks": [], "unchanged": 0} for nb in notebooks}
        failures: list[str] = []
        for nb in notebooks:  # a first load each: compiles, fills caches; shown, not counted
            try:
                seconds, context, page = load(browser, servers[nb], nb)
            except LoadFailed as failure:
                failures.append(str(failure))
                result[nb]["first"] = float("nan")
                continue
            result[nb]["first"] = seconds
            close(context, page)
        for run in range(runs):
            for nb in notebooks if run % 2 == 0 else notebooks[::-1]:  # by turns, alternating order
                try:
                    seconds, context, page = load(browser, servers[nb], nb)
                except LoadFailed as failure:
                    failures.append(str(failure))
                    continue
                result[nb]["tti"].append(seconds)
                if not result[nb]["clicks"] and click_count:
                    latencies, unchanged = clicks(page, nb, click_count)
                    result[nb]["clicks"] = latencies
                    result[nb]["unchanged"] = unchanged
                close(context, page)
        for failure in failures:
            print(f"   FAILED LOAD: {failure}")
        for nb in notebooks:
            r = result[nb]
            tti = r["tti"] or [float("nan")]
            print(
                f"   {Path(nb).name:<12} interactive: median {median(tti):5.2f} s  "
                f"(min {min(tti):.2f}, max {max(tti):.2f}, n={len(r['tti'])}; first load {r['first']:.2f} s"
                + (f"; {sum(Path(nb).name in f for f in failures)} failed" if failures else "")
                + ")"
            )
            if click_count:
                lat = r["clicks"]
                print(
                    f"   {'':<12} click to updated numbers: median {median(lat):6.1f} ms  "
                    f"p95 {p95(lat):6.1f} ms  (n={len(lat)}; {r['unchanged']} clicks left the number unchanged)"
                )
        if len(notebooks) == 2:
            ratio = median(result[APP]["tti"]) / median(result[BARE]["tti"])
            result["ratio"] = ratio
            verdict = "meets" if ratio <= TARGET_RATIO else "misses"
            print(f"   app / bare interactive: {ratio:.2f}x  ({verdict} the {TARGET_RATIO}x target)")
            if click_count:
                m = median(result[APP]["clicks"])
                verdict = "meets" if m < TARGET_CLICK_MS else "misses"
                print(f"   app click latency median {m:.1f} ms ({verdict} the {TARGET_CLICK_MS:.0f} ms target)")
        return result
    finally:
        for server in servers.values():
            server.stop()


def main(argv: list[str] | None = None) -> None:
    global APP, SEED
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="measured page loads per notebook and configuration")
    parser.add_argument("--clicks", type=int, default=15, help="'Next card' clicks timed on the first measured load")
    parser.add_argument("--pool", type=int, default=2, help="pool size of the preheated configuration")
    parser.add_argument("--only", choices=["plain", "preheat"], help="measure one configuration only")
    parser.add_argument("--bare-only", action="store_true", help="measure the bare notebook only")
    parser.add_argument(
        "--app", default=APP, help=f"the app notebook to measure (default {APP}; e.g. a variant to compare)"
    )
    options = parser.parse_args(argv)
    APP = options.app
    notebooks = [BARE] if options.bare_only else [BARE, APP]
    if not (REPO / APP).is_file() and not options.bare_only:
        parser.error(f"{APP} does not exist (use --bare-only)")

    from playwright.sync_api import sync_playwright

    SEED = changing_seed(reveals=options.clicks)

    configs = [("plain", 0), ("preheat", options.pool)]
    if options.only:
        configs = [c for c in configs if c[0] == options.only]
    print(
        f"bench_app: {options.runs} measured loads per notebook, {options.clicks} clicks; loopback, headless Chromium"
    )
    print(f"machine: {os.cpu_count()} cores; load average {load_average()} at the start")
    if APP in notebooks:
        models, kinds = first_display_models(QUERY["app"].format(seed=SEED))
        print(
            f"widget models at first display: {models} (before issue 11: {MODELS_BEFORE}; "
            f"{models / MODELS_BEFORE:.2f}x); most: {kinds}"
        )
    started = time.perf_counter()
    results = {}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for label, pool in configs:
                results[label] = run_config(browser, label, pool, options.runs, options.clicks, notebooks)
        finally:
            browser.close()
    if len(results) == 2 and APP in notebooks:
        plain, heated = (median(results[k][APP]["tti"]) for k in ("plain", "preheat"))
        better = "preheat" if heated < plain else "plain"
        print(
            f"\nApp interactive: plain {plain:.2f} s, preheated {heated:.2f} s: {better} measures better "
            f"(ratios to bare {results['plain']['ratio']:.2f}x vs {results['preheat']['ratio']:.2f}x)."
        )
    print(f"bench_app took {time.perf_counter() - started:.0f} s; load average {load_average()} at the end")


if __name__ == "__main__":
    main()
