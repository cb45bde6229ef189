"""Chance meets the exact answer: play the rest of the deal out many times, and watch.

``SimulationPanel(controller).widget`` (CSS class ``spec-simulation``) runs the
package's simulator (:mod:`speculation_nb.simulate`) from the moment the app
shows: every ending shuffles the unseen cards and plays on by the rules, with
no more trading. It shows how often the best trump held (O1) and how often each
seat took the pot (O2), each with its standard error, beside the exact numbers,
and a small chart of the running estimate of O1 settling on the exact value as
the endings add up.

The run is an asyncio task that plays the endings in batches and yields to the
kernel between them, so the app answers every click while it runs and the Stop
button stops it after the current batch. No thread: it works the same under
ipykernel and under Pyodide. The batches and the seed fix the numbers, so the
same run size and seed give the same result on every machine.

CSS classes: ``spec-simulation`` (the root), ``spec-sim-title``, ``spec-sim-runs``
(the run size), ``spec-sim-seed``, ``spec-sim-run`` and ``spec-sim-stop`` (buttons,
also ``spec-button``), ``spec-sim-status``, ``spec-sim-result`` (the table: rows
``tr[data-row]``, ``hold`` and ``seat-<n>`` / ``carry``), ``spec-sim-chart``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import log10, sqrt
from types import SimpleNamespace
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
import numpy as np

from ... import simulate
from ...assets import asset_text
from ...engine.checks import fresh_seed, parse_seed
from ...languages.markup import escape as esc
from ...languages.translator import Translator
from ..common.panel import ControllerPanel, tagged

__all__ = ["MAX_RUNS", "MIN_RUNS", "SimulationPanel", "SimulationResult", "batches"]

log = logging.getLogger("speculation_nb.widgets")

MIN_RUNS = 100
MAX_RUNS = 100_000
DEFAULT_RUNS = 1_000
#: The first batch; each next one is twice as large, up to the simulator's chunk.
FIRST_BATCH = 100

#: The panel's look (``speculation_nb/assets/simulation_panel.css``).
CSS = asset_text("simulation_panel.css")


def batches(total: int, first: int = FIRST_BATCH, largest: int = simulate.CHUNK) -> Iterator[int]:
    """The batch sizes of a run of ``total`` endings: 100, 200, 400, ... up to the
    simulator's chunk, the last one what is left."""
    size, left = first, total
    while left > 0:
        step = min(size, left)
        yield step
        left -= step
        size = min(2 * size, largest)


@dataclass(frozen=True)
class SimulationResult:
    """Endings played so far and what they show: ``runs`` endings, ``hold`` the fraction in
    which the best trump held (O1), ``win`` the fraction each seat took the pot (``None``:
    it carried over, O2), each with its standard error ``sqrt(p (1 - p) / runs)``;
    ``curve``: ``(endings, running O1 estimate, its standard error)`` at the chart's points."""

    runs: int
    planned: int
    seed: int
    hold: float
    hold_se: float
    win: dict[int | None, float]
    win_se: dict[int | None, float]
    curve: tuple[tuple[int, float, float], ...]
    stopped: bool = False

    @property
    def done(self) -> bool:
        return self.runs >= self.planned or self.stopped


def _summary(parts: list[simulate.PlayOuts], planned: int, seed: int, players: int, stopped: bool) -> SimulationResult:
    held = np.concatenate([p.held for p in parts])
    winner = np.concatenate([p.winner for p in parts]).astype(np.intp)  # bincount: intp (32-bit Pyodide)
    k = len(held)
    counts = np.bincount(winner + 1, minlength=players + 1)
    win: dict[int | None, float] = {}
    win_se: dict[int | None, float] = {}
    for seat in [*range(players), None]:
        p = float(counts[0 if seat is None else seat + 1] / k)
        win[seat] = p
        win_se[seat] = sqrt(p * (1 - p) / k)
    hold = float(held.mean())
    running = np.cumsum(held)
    points = sorted(set(_chart_points(k)))
    curve = []
    for n in points:
        p = float(running[n - 1] / n)
        curve.append((n, p, sqrt(p * (1 - p) / n)))
    return SimulationResult(k, planned, seed, hold, sqrt(hold * (1 - hold) / k), win, win_se, tuple(curve), stopped)


def _chart_points(k: int) -> list[int]:
    """10, 20, 50, 100, 200, 500, ... below ``k``, and ``k``."""
    out, base = [], 10
    while base < k:
        out += [m * base for m in (1, 2, 5) if m * base < k]
        base *= 10
    return [*out, k]


def parse_runs(text: str) -> int:
    """A run size typed by a person: a whole number from 100 to 100,000 (``1,000``, ``10 000``
    and ``1_000`` too); anything else raises ``ValueError``."""
    s = str(text).strip().replace(",", "").replace(".", "").replace("_", "").replace(" ", "").replace("\u202f", "")
    if not s.isdigit() or len(s) > 7 or not MIN_RUNS <= int(s) <= MAX_RUNS:
        raise ValueError(text)
    return int(s)


def _schedule(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` as a task on the running loop (ipykernel, Pyodide); with no loop running
    (a plain script), run it to the end here and return None."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is None:
        try:
            loop = asyncio.get_event_loop_policy().get_event_loop()
        except RuntimeError:
            loop = None
        if loop is None or not loop.is_running():
            asyncio.run(coro)
            return None
    return loop.create_task(coro)


class SimulationPanel(ControllerPanel):
    """The simulate control of the app (see the module docstring).

    ``SimulationPanel(controller, pause=0.05)``: ``controller`` is the app's
    :class:`~speculation_nb.app.model.Controller`; ``pause`` the seconds the
    panel waits between two batches, so that a class sees the estimate move (0: as
    fast as the kernel goes). ``run()`` starts a run of the size and seed in the
    fields, ``stop()`` stops it, ``task`` is the running task, ``result`` the last
    :class:`SimulationResult`.
    """

    def __init__(self, controller: Any, pause: float = 0.05) -> None:
        self.controller = controller
        self.pause = pause
        self.task: asyncio.Task[None] | None = None
        self.result: SimulationResult | None = None
        self.error_key: str = ""
        self._stopping = False
        self._key: tuple[Any, ...] | None = None
        self._exact: tuple[Fraction, dict[Any, Fraction]] | None = None
        self._build()
        controller.observe(self._on_version, "version")
        controller.observe(self._on_lang, "lang")
        self._on_version()

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        ui = self.ui = SimpleNamespace()
        ui.style = widgets.HTML(f"<style>{CSS}</style>")
        ui.title = tagged(widgets.HTML(), "spec-sim-title")
        ui.runs = tagged(widgets.Text(value=f"{DEFAULT_RUNS}", continuous_update=False), "spec-sim-runs")
        ui.seed = tagged(widgets.Text(value="", continuous_update=False), "spec-sim-seed")
        ui.run = tagged(widgets.Button(button_style="primary"), "spec-button", "spec-sim-run")
        ui.stop = tagged(widgets.Button(disabled=True), "spec-button", "spec-sim-stop")
        ui.status = tagged(widgets.HTML(), "spec-sim-status")
        ui.result = tagged(widgets.HTML(), "spec-sim-result")
        ui.chart = tagged(widgets.HTML(), "spec-sim-chart")
        row = tagged(widgets.HBox([ui.runs, ui.seed, ui.run, ui.stop]), "spec-sim-row")
        ui.root = tagged(widgets.VBox([ui.style, ui.title, row, ui.status, ui.result, ui.chart]), "spec-simulation")
        ui.run.on_click(self.guard(lambda _b: self.run()))
        ui.stop.on_click(self.guard(lambda _b: self.stop()))

    def close(self) -> None:
        self.stop()
        super().close()

    def failed(self) -> None:
        self.error_key = "error.unexpected"
        self._redraw()

    # ---------------------------------------------------------------- running
    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def _moment_key(self) -> tuple[Any, ...]:
        c = self.controller
        return (id(c.session), c.session.deal_number, c.moment, len(c.game.history), id(c.question))

    def run(self) -> asyncio.Task[None] | None:
        """Start a run from the moment shown, with the run size and seed of the fields.
        A run size or seed that cannot be read is refused with the reason, and nothing runs."""
        if self.running:
            return self.task
        self.error_key = ""
        try:
            runs = parse_runs(self.ui.runs.value)
        except ValueError:
            self.error_key = "error.sim.bad_runs"
            self._redraw()
            return None
        try:
            seed = parse_seed(self.ui.seed.value)
        except ValueError:
            self.error_key = "error.sim.bad_seed"
            self._redraw()
            return None
        game = self.controller.shown
        if game.over:
            self._redraw()
            return None
        if seed is None:
            seed = fresh_seed()
        numbers = self.controller.snapshot().odds  # the moment shown, as the odds panel shows it
        self._exact = (numbers.hold, dict(numbers.win))
        self._key = self._moment_key()
        self.result = None
        self._stopping = False
        setup = simulate.setup(game)
        self.task = None
        task = _schedule(self._play(setup, runs, seed))
        if task is not None:
            self.task = task
            task.add_done_callback(self._finished)
        self._redraw()
        return task

    def stop(self) -> None:
        """Stop the run after the batch being played (its endings so far stay shown)."""
        if self.running:
            self._stopping = True
            self.ui.stop.disabled = True

    async def _play(self, setup: simulate.Setup, runs: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        parts: list[simulate.PlayOuts] = []
        for size in batches(runs):
            if self._stopping:
                break
            parts.append(simulate.play_outs(setup, size, rng))
            self.result = _summary(parts, runs, seed, setup.players, stopped=False)
            self._redraw()
            await asyncio.sleep(self.pause)
        if parts:
            self.result = _summary(parts, runs, seed, setup.players, stopped=self._stopping)
        self._stopping = False
        self._redraw()

    def _finished(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("speculation_nb simulation panel: the run failed", exc_info=task.exception())
            self.error_key = "error.unexpected"
        self._redraw()

    def _cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self._stopping = False

    # ---------------------------------------------------------------- showing
    def _on_version(self, _change: Any = None) -> None:
        if self._key is not None and self._key != self._moment_key():
            # another moment is shown: these endings are not of it
            self._cancel()
            self._key = None
            self.result = None
            self._exact = None
            self.error_key = ""
        self._redraw()

    def _on_lang(self, _change: Any = None) -> None:
        self._redraw()

    def _redraw(self) -> None:
        try:
            self._draw()
        except Exception:
            log.exception("speculation_nb simulation panel: redraw failed")

    def _draw(self) -> None:
        t, ui = self.t, self.ui
        game = self.controller.shown
        running = self.running
        ui.title.value = esc(t("label.sim.title"))
        ui.runs.description = t("label.sim.runs")
        ui.runs.placeholder = t.number(DEFAULT_RUNS)
        ui.runs.tooltip = t("tooltip.sim.runs", low=t.number(MIN_RUNS), high=t.number(MAX_RUNS))
        ui.seed.description = t("label.sim.seed")
        ui.seed.placeholder = t("label.sim.seed_blank")
        ui.run.description = t("button.sim.run")
        ui.run.tooltip = t("tooltip.sim.run")
        ui.stop.description = t("button.sim.stop")
        ui.run.disabled = running or game.over
        ui.stop.disabled = not running or self._stopping
        ui.runs.disabled = ui.seed.disabled = running
        ui.status.value = self._status_html(t, game)
        ui.result.value = self._table_html(t) if self.result is not None else ""
        ui.chart.value = self._chart_svg(t) if self.result is not None and len(self.result.curve) > 1 else ""

    def _status_html(self, t: Translator, game: Any) -> str:
        if self.error_key == "error.sim.bad_runs":
            return esc(
                t(
                    self.error_key,
                    text=str(self.ui.runs.value).strip()[:24],
                    low=t.number(MIN_RUNS),
                    high=t.number(MAX_RUNS),
                )
            )
        if self.error_key == "error.sim.bad_seed":
            return esc(t(self.error_key, text=str(self.ui.seed.value).strip()[:24]))
        if self.error_key:
            return esc(t(self.error_key))
        if game.over:
            return esc(t("status.sim.over"))
        r = self.result
        if r is None:
            return esc(t("status.sim.ready", step=t.number(self.controller.moment)))
        if self.running:
            key = "status.sim.stopping" if self._stopping else "status.sim.running"
            return esc(t(key, runs=t.number(r.runs), planned=t.number(r.planned), seed=r.seed))
        if r.stopped:
            return esc(t("status.sim.stopped", runs=t.number(r.runs), planned=t.number(r.planned), seed=r.seed))
        return esc(t("status.sim.done", runs=t.number(r.runs), seed=r.seed))

    def _table_html(self, t: Translator) -> str:
        r = self.result
        assert r is not None and self._exact is not None
        exact_hold, exact_win = self._exact
        names = self.controller.names

        def row(key: str, label: str, p: float, se: float, exact: Fraction) -> str:
            off = abs(p - float(exact)) / se if se > 0 else (0.0 if p == float(exact) else float("inf"))
            far = ' class="spec-sim-far"' if off > 3 else ""
            off_text = t.number(Fraction(off).limit_denominator(1000), 1) if off != float("inf") else "∞"
            return (
                f'<tr data-row="{key}"><td>{label}</td><td>{esc(t.percent(Fraction(p)))}</td>'
                f"<td>± {esc(t.percent(Fraction(se)))}</td><td>{esc(t.percent(exact))}</td>"
                f"<td{far}>{esc(off_text)}</td></tr>"
            )

        head = "<th></th>" + "".join(
            f"<th>{esc(t(k))}</th>" for k in ("label.sim.simulated", "label.sim.se", "label.sim.exact", "label.sim.off")
        )
        rows = [row("hold", esc(t("label.sim.hold")), r.hold, r.hold_se, exact_hold)]
        rows.append(f'<tr class="spec-sim-group"><th colspan="5">{esc(t("label.sim.who_takes"))}</th></tr>')
        for seat in range(len(names)):
            label = esc(names[seat])
            rows.append(row(f"seat-{seat}", label, r.win[seat], r.win_se[seat], exact_win.get(seat, Fraction(0))))
        if exact_win.get(None, Fraction(0)) > 0 or r.win[None] > 0:
            rows.append(
                row("carry", esc(t("label.sim.carry")), r.win[None], r.win_se[None], exact_win.get(None, Fraction(0)))
            )
        caption = esc(t("label.sim.caption", runs=t.number(r.runs)))
        return (
            f'<table class="spec-sim-table"><caption>{caption}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )

    def _chart_svg(self, t: Translator) -> str:
        """The running estimate of O1 (a line), two standard errors either side (a band) and the
        exact value (a dashed line), against the number of endings on a logarithmic axis."""
        r = self.result
        assert r is not None and self._exact is not None
        exact = float(self._exact[0])
        width, height, left, right, top, bottom = 420, 170, 44, 24, 10, 34
        lo_n, hi_n = r.curve[0][0], max(r.planned, r.curve[-1][0])
        span = max(log10(hi_n) - log10(lo_n), 1e-9)

        def x(n: float) -> float:
            return left + (width - left - right) * (log10(n) - log10(lo_n)) / span

        def y(p: float) -> float:
            return top + (height - top - bottom) * (1 - min(max(p, 0.0), 1.0))

        line = " ".join(f"{x(n):.1f},{y(p):.1f}" for n, p, _ in r.curve)
        upper = [f"{x(n):.1f},{y(p + 2 * se):.1f}" for n, p, se in r.curve]
        lower = [f"{x(n):.1f},{y(p - 2 * se):.1f}" for n, p, se in reversed(r.curve)]
        ticks = []
        n = 10
        while n <= hi_n:
            if n >= lo_n:
                at, base = f"{x(n):.1f}", height - bottom
                ticks.append(
                    f'<line x1="{at}" y1="{base}" x2="{at}" y2="{base + 4}" stroke="#5b6270"/>'
                    f'<text x="{at}" y="{base + 16}" text-anchor="middle" font-size="11" fill="#5b6270">'
                    f"{esc(t.number(n))}</text>"
                )
            n *= 10
        yticks = []
        for p in (0.0, 0.5, 1.0):
            yticks.append(
                f'<text x="{left - 6}" y="{y(p) + 4:.1f}" text-anchor="end" font-size="11" fill="#5b6270">'
                f"{esc(t.percent(Fraction(p).limit_denominator(2), 0))}</text>"
            )
        title = esc(t("chart.sim.title", exact=t.percent(self._exact[0])))
        axis = esc(t("chart.sim.axis"))
        return (
            f'<svg role="img" aria-label="{title}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{title}</title>'
            f'<rect x="{left}" y="{top}" width="{width - left - right}" height="{height - top - bottom}" '
            'fill="#f7f5ef"/>'
            f'<polygon points="{" ".join(upper + lower)}" fill="#2e6fd8" fill-opacity="0.18"/>'
            f'<line x1="{left}" y1="{y(exact):.1f}" x2="{width - right}" y2="{y(exact):.1f}" stroke="#d4a017" '
            f'stroke-width="2.5" stroke-dasharray="6 4"/>'
            f'<polyline points="{line}" fill="none" stroke="#1f3a68" stroke-width="2.5"/>'
            f"{''.join(ticks)}{''.join(yticks)}"
            f'<text x="{(left + width - right) / 2:.0f}" y="{height - 4}" text-anchor="middle" font-size="12" '
            f'fill="#5b6270">{axis}</text></svg>'
        )
