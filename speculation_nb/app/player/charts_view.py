"""The two charts of the odds panel (SVG, :mod:`.svg_charts`, or matplotlib, :mod:`.mpl_charts`:
chosen as :func:`.chart_style.chart_backend` says), their titles, and their text
alternative: the same numbers as sentences (``spec-chart-alt``, read by screen readers,
hidden on screen), since a picture says nothing to someone who cannot see it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator
from ...rendering.chart_style import chart_backend
from ..common.parts import Shell, esc, html_widget
from ..model import Controller, Snapshot

__all__ = ["ChartsView"]


class ChartsView:
    def __init__(self, app: Shell, backend: str) -> None:
        self.app = app
        ui = app.ui
        backend = chart_backend(backend)
        if backend == "svg":
            from .svg_charts import SvgHoldChart, SvgWinChart

            self.win_chart: Any = SvgWinChart()
            self.hold_chart: Any = SvgHoldChart()
        else:  # matplotlib is imported only here: the default first view goes without it
            from .mpl_charts import HoldChart, WinChart

            self.win_chart = WinChart(backend)
            self.hold_chart = HoldChart(backend)
        ui.win_title = html_widget("spec-win-title")
        ui.win_title.add_class("spec-chart-title")
        ui.hold_title = html_widget("spec-hold-title")
        ui.hold_title.add_class("spec-chart-title")
        ui.win_chart = self.win_chart.widget
        ui.hold_chart = self.hold_chart.widget
        ui.win_labels = self.win_chart.overlay
        ui.hold_labels = self.hold_chart.overlay
        ui.chart_alt = html_widget("spec-chart-alt")
        ui.charts = widgets.VBox([ui.win_title, self.win_chart.box, ui.hold_title, self.hold_chart.box, ui.chart_alt])
        ui.charts.add_class("spec-charts")
        self.widget = ui.charts
        self._win_key: Any = None
        self._hold_key: Any = None

    def texts(self, t: Translator) -> None:
        ui = self.app.ui
        ui.win_title.value = esc(t("chart.win.title"))
        ui.hold_title.value = esc(t("chart.hold.title"))

    def refresh(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> None:
        names = list(c.names)
        n = game.rules.players
        values = [snap.odds.win.get(s, Fraction(0)) for s in range(n)]
        grey = None
        if game.rules.dead_hand or game.rules.hoyle or snap.odds.win.get(None, 0):
            names.append(t("chart.win.carried"))
            values.append(snap.odds.win.get(None, Fraction(0)))
            grey = n
        key = ("win", tuple(names), tuple(values), game.holder, t.lang)
        if self._win_key != key:
            self._win_key = key
            self.win_chart.update(names, values, game.holder, t, grey=grey)
        # O1 over the deal (a question deal shown, issue 25: its own moment only).
        moment = c.moment if c.question is None else snap.step
        points = c.hold_points(c.last) if c.question is None else []
        shown = [p for p in points if p.step <= moment]
        later = [p for p in points if p.step > moment]
        if not shown or shown[-1].step != moment:
            shown.append(snap)
        history = (c.question or c.game).history

        def reveals(k: int) -> int:  # the x axis: the cards turned up by the moment's step
            return sum(1 for action in history[:k] if action.kind == "reveal")

        xs = [reveals(p.step) for p in shown]
        ys = [p.odds.hold for p in shown]
        cards: list[str | None] = []
        previous = None
        for p in shown:
            cards.append(str(p.best) if (previous is None or p.best != previous) else None)
            previous = p.best
        total = n * game.rules.hand_size  # the x axis, fixed for the deal: every card the players could turn up
        hkey = ("hold", tuple(xs), tuple(ys), tuple(cards), tuple(p.step for p in later), t.lang)
        if self._hold_key != hkey:
            self._hold_key = hkey
            self.hold_chart.update(
                xs, ys, cards, ([reveals(p.step) for p in later], [p.odds.hold for p in later]), t, total
            )
            win = "; ".join(f"{name} {t.percent(v)}" for name, v in zip(names, values))
            hold = "; ".join(t(t.plural_key("chart.alt.point", x), k=x, pct=t.percent(y)) for x, y in zip(xs, ys))
            self.app.ui.chart_alt.value = (
                f"<p>{esc(t('chart.win.title'))}: {esc(win)}.</p><p>{esc(t('chart.hold.title'))}: {esc(hold)}.</p>"
            )

    def close(self) -> None:
        self.win_chart.close()
        self.hold_chart.close()
