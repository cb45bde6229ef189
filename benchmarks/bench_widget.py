"""Server-side speed of one "Next card" in the app: engine + odds + widget update + charts.

    python benchmarks/bench_widget.py [--deals 5] [--charts svg,ipympl,static]

For each table (5 players x 3 cards; 8 players x 5 cards with the dead hand) it
plays whole deals by clicking the app's "Next card" button from Python
(classroom mode, so every click is one reveal) and times each click: the
engine's reveal, the exact odds, every view's update and the charts. Prints
the median and the 90th percentile over all clicks. Targets (issue 4): under
30 ms median for 5x3 and under 60 ms for 8x5 with a dead pile.

Charts:

* ``svg``: the default: the SVG text written into its HTML widget inside the click;
* ``ipympl``: as in the browser once the page is up (``syncing_data_url`` off):
  the canvas is repainted by blitting and the changed pixels are encoded for
  the front-end, all inside the click;
* ``static``: the PNG fallback, rendered and encoded inside the click.

One warm-up deal is played first (not timed). The odds module's memo tables
are cleared before every timed deal, so each deal starts cold. A calibration
line (a pure-Python loop) helps compare machines.
"""

from __future__ import annotations

import argparse
import statistics
import time

from speculation_nb import Rules, odds
from speculation_nb.app import SpeculationApp

TABLES = {
    "5x3": (Rules(players=5), 30.0),
    "8x5+dead": (Rules(players=8, hand_size=5, dead_hand=True), 60.0),
}


def calibrate() -> float:
    """Milliseconds for a fixed pure-Python loop (about 100 ms on a recent laptop)."""
    start = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    return (time.perf_counter() - start) * 1000


def connect_front_end(app: SpeculationApp) -> None:
    """Make an ipympl canvas behave as when a browser shows it (diff images, no data URL)."""
    for chart in (app.win_chart, app.hold_chart):
        if chart.backend == "ipympl":
            chart.widget.syncing_data_url = False


def time_deals(rules: Rules, charts: str, deals: int) -> list[float]:
    app = SpeculationApp(rules=rules, mode="classroom", seed=1, charts=charts)
    connect_front_end(app)
    app.ui.play.click()  # a warm-up deal, not timed (fonts, imports, first renders)
    times: list[float] = []
    for deal in range(deals):
        odds.clear_caches()
        app.ui.seed.value = str(1000 + deal)
        app.ui.new_session.click()  # a new session from that seed, confirmed (the deal before was played)
        app.ui.confirm_yes.click()
        button = app.ui.next
        while not button.disabled:
            start = time.perf_counter()
            button.click()
            times.append((time.perf_counter() - start) * 1000)
        assert app.last_error is None, app.last_error
        assert app.controller.game.over
    app.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--charts", default="svg,ipympl,static")
    options = parser.parse_args()
    print(f"calibration: 2M-step Python loop {calibrate():.0f} ms")
    print(f"{'table':<10} {'charts':<7} {'clicks':>6} {'median':>9} {'p90':>9} {'target':>8}")
    for name, (rules, target) in TABLES.items():
        for charts in options.charts.split(","):
            times = time_deals(rules, charts, options.deals)
            median = statistics.median(times)
            p90 = statistics.quantiles(times, n=10)[-1]
            verdict = "ok" if median < target else "over"
            print(f"{name:<10} {charts:<7} {len(times):>6} {median:>7.1f}ms {p90:>7.1f}ms {target:>6.0f}ms {verdict}")


if __name__ == "__main__":
    main()
