"""How long a student waits to be back in the seat after a reload, against the app's own page load.

    PYTHONPATH=$PWD python benchmarks/bench_rejoin.py [--runs 5] [--pool 0] [--time-limit 600]

Issue 27 ("Back in the seat after any reload"): however a student joined, a reload or a lost
connection brings them back to their seat; target: the time from reload to seated within 1 s of
the app's own page load, measured in the same run.

One Voila server serves the app exactly as the README's app command does (the options of
``speculation_nb.serve``; ``--pool N`` adds preheated kernels) with
``SPECULATION_TABLE_STORE=sqlite:///<a temporary folder>/tables.sqlite3``. In headless Chromium
(loopback only):

* the **teacher**'s page (classroom mode, seeded, 3 players) opens the table and stays open (its
  kernel referees);
* the **student**'s page opens the app's own address, presses "Join a table as a student" and
  types the code (the case issue 27 found broken), a name, a seat, Join: seated;
* a **plain app page** (the app's own address, no table) in a context of its own: the baseline.

Then, ``--runs`` times, by turns (the order alternating, the server and kernels idle before each
load, as ``bench_app.py`` does):

* **app page load** (the baseline): the plain app page reloads; the time until its Next card
  button is visible and enabled (``button.spec-next:enabled``: interactive);
* **reload -> seated**: the student's page reloads (its address is the table's link since the
  join); the time until the student's screen shows (``.spec-member``: the same page load as the
  app's, another screen) and until it is seated again (``.spec-member-you`` names the student and
  the table is shown: the rejoin's round trip through the device's memory, the kernel, the store
  and the teacher's referee);
* **lost connection -> seated**: the student's page is closed and its address opened in a new
  page of the same browser context (the same ``localStorage``); the time until seated; against
  **app page opened again**: the plain app page closed and its address opened in a new page.

Times are taken in the page: ``performance.now()`` of the new document (from the start of its
navigation) when the condition first holds (polled every animation frame). Medians, min, max,
and each figure against the app page load of the same run (the difference is the target's).
Every server, kernel and browser it starts is stopped; bounded by ``--time-limit``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))
sys.path.insert(0, str(REPO))

from browser_fixtures import launch_chromium  # noqa: E402
from figures import load_average, median  # noqa: E402
from voila_server import VoilaServer  # noqa: E402

APP = "notebooks/app.ipynb"
PLAYERS = 3
SEED = 7
NAME = "Cleo"
TARGET_S = 1.0
CODE_SHOWN = re.compile(r"[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}")

APP_READY = (
    "(() => { const b = document.querySelector('button.spec-next'); return !!b && !b.disabled && !!b.offsetParent; })()"
)
MEMBER_SHOWN = "!!document.querySelector('.spec-member')"
SEATED = f"""(() => {{
  const box = document.querySelector('.spec-member-table-box');
  return !!box && !!box.offsetParent
    && [...document.querySelectorAll('.spec-member-you')].some(e => e.innerText.includes({NAME!r}));
}})()"""


class Run:
    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.deadline = time.monotonic() + options.time_limit
        self.figures: dict[str, list[float]] = {
            "app page load": [],
            "app page opened again": [],
            "reload -> student's screen": [],
            "reload -> seated": [],
            "lost connection -> seated": [],
        }

    def ms_left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time limit came")
        return left * 1000

    def when(self, page: Any, ready: str) -> float:
        """Seconds from the start of the page's navigation until ``ready`` held (the page's clock,
        polled every animation frame)."""
        handle = page.wait_for_function(
            f"() => ({ready}) ? performance.now() : false", polling="raf", timeout=self.ms_left()
        )
        return float(handle.json_value()) / 1000

    def quiet(self, server: VoilaServer) -> None:
        """The server and its kernels idle before a load (the last page's kernel settled)."""
        time.sleep(1.5 if self.options.pool else 0.2)
        try:
            server.wait_until_quiet(0.1, 0.5, max(1.0, min(60.0, self.ms_left() / 1000)))
        except TimeoutError:
            print("   (the server stayed busy: measured anyway)")

    def open_table(self, browser: Any, url: str) -> tuple[Any, str]:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"{url}?mode=classroom&players={PLAYERS}&seed={SEED}", wait_until="commit")
        for selector in ("button.spec-open-table", "button.spec-host-open"):
            button = page.locator(f"{selector}:visible").first
            button.wait_for(timeout=self.ms_left())
            button.click()
        shown = page.locator(".spec-host-code").first
        page.wait_for_function(
            "() => /[2-9A-Z]{5}-[2-9A-Z]{5}/.test(document.querySelector('.spec-host-code')?.innerText || '')",
            timeout=self.ms_left(),
        )
        match = CODE_SHOWN.search(shown.inner_text())
        assert match is not None, shown.inner_text()
        return page, match.group(0)

    def join_by_typing(self, browser: Any, url: str, code: str) -> Any:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(url, wait_until="commit")
        for selector in ("button.spec-open-table", "button.spec-host-join"):
            button = page.locator(f"{selector}:visible").first
            button.wait_for(timeout=self.ms_left())
            button.click()
        typed = page.locator(".spec-member-code input").first
        typed.wait_for(timeout=self.ms_left())
        typed.fill(code)
        typed.press("Enter")
        page.wait_for_function(
            "() => document.querySelectorAll('.spec-member-seat option').length > 1", timeout=self.ms_left()
        )
        page.locator(".spec-member-name input").first.fill(NAME)
        page.locator(".spec-member-seat select").first.select_option(index=0)
        page.locator("button.spec-member-join:visible").first.click()
        page.wait_for_function(SEATED, timeout=self.ms_left())
        page.wait_for_function(
            "code => new URL(location.href).searchParams.get('table') === code", arg=code, timeout=self.ms_left()
        )
        return page

    def measure(self) -> None:
        from playwright.sync_api import sync_playwright

        folder = Path(tempfile.mkdtemp(prefix="bench-rejoin-"))
        env = {"SPECULATION_TABLE_STORE": f"sqlite:///{folder}/tables.sqlite3"}
        if self.options.pool:
            env["SPECULATION_POOL_FILL_DELAY"] = "1"
        server = VoilaServer(APP, env=env, pool_size=self.options.pool or None, startup_timeout=120.0)
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    self.measure_with(browser, server)
                finally:
                    browser.close()
        finally:
            server.stop()
            import shutil

            shutil.rmtree(folder, ignore_errors=True)

    def measure_with(self, browser: Any, server: VoilaServer) -> None:
        url = server.url
        teacher, code = self.open_table(browser, url)
        student = self.join_by_typing(browser, url, code)
        address = student.url
        print(f"table {code}; the student joined by typing the code; their page's address: ...{address[-30:]}")
        plain = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        plain.goto(url, wait_until="commit")
        plain.wait_for_function(APP_READY, timeout=self.ms_left())
        for run in range(self.options.runs):
            order = ["app", "reload", "app again", "lost"] if run % 2 == 0 else ["lost", "app again", "reload", "app"]
            for kind in order:
                self.quiet(server)
                if kind == "app":
                    plain.reload(wait_until="commit", timeout=self.ms_left())
                    self.figures["app page load"].append(self.when(plain, APP_READY))
                elif kind == "app again":
                    context = plain.context
                    plain.close(run_before_unload=True)
                    plain = context.new_page()
                    plain.goto(url, wait_until="commit", timeout=self.ms_left())
                    self.figures["app page opened again"].append(self.when(plain, APP_READY))
                elif kind == "reload":
                    student.reload(wait_until="commit", timeout=self.ms_left())
                    self.figures["reload -> student's screen"].append(self.when(student, MEMBER_SHOWN))
                    self.figures["reload -> seated"].append(self.when(student, SEATED))
                else:
                    context = student.context
                    student.close(run_before_unload=True)
                    student = context.new_page()
                    student.goto(address, wait_until="commit", timeout=self.ms_left())
                    self.figures["lost connection -> seated"].append(self.when(student, SEATED))
        teacher.close(run_before_unload=True)

    def report(self) -> str:
        """Each figure; a student's against the app's page loaded the same way (a reload against a
        reload, a page opened again against a page opened again)."""
        bases = {
            "reload -> student's screen": "app page load",
            "reload -> seated": "app page load",
            "lost connection -> seated": "app page opened again",
        }
        lines = []
        for name, values in self.figures.items():
            if not values:
                lines.append(f"   {name:<28} no figure")
                continue
            line = (
                f"   {name:<28} median {median(values):5.2f} s  (min {min(values):.2f}, max {max(values):.2f}, "
                f"n={len(values)})"
            )
            base = median(self.figures[bases[name]]) if name in bases else float("nan")
            if base == base:
                line += f"  {median(values) / base:4.2f}x the {bases[name]}, {median(values) - base:+.2f} s"
            lines.append(line)
        for name in ("reload -> seated", "lost connection -> seated"):
            values, base = self.figures[name], median(self.figures[bases[name]])
            if values and base == base:
                over = median(values) - base
                verdict = "meets" if over <= TARGET_S else "misses"
                lines.append(f"   {name}: {over:+.2f} s over the {bases[name]} ({verdict} the {TARGET_S:.0f} s target)")
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="measured loads of each kind (default 5)")
    parser.add_argument("--pool", type=int, default=0, help="preheated kernels (default 0: as served)")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds for the whole run (default 600)")
    options = parser.parse_args(argv)
    print(
        f"bench_rejoin: {options.runs} loads of each kind; pool {options.pool}; loopback, headless Chromium; "
        f"{os.cpu_count()} CPUs (shared); load average {load_average()} at the start"
    )
    started = time.perf_counter()
    run = Run(options)
    try:
        run.measure()
    except TimeoutError as late:
        print(f"stopped early: {late}")
    print(run.report())
    print(f"bench_rejoin took {time.perf_counter() - started:.0f} s; load average {load_average()} at the end")


if __name__ == "__main__":
    main()
