"""The odds panel's two charts as SVG: the app's default drawing (see :mod:`.chart_style`).

* :class:`SvgWinChart`: every seat's chance of taking the pot (O2) as bars, the holder's
  bar gold, a pot carried over grey.
* :class:`SvgHoldChart`: the chance that the best trump holds (O1) over the cards turned up
  so far in this deal, a step line with a dot at every card, the moment shown ringed, and
  in a replay the rest of the deal dashed.

They look like the matplotlib charts of :mod:`.mpl_charts` (the same axes, colours and sizes),
but are a few lines of text each: written into an ``ipywidgets.HTML`` after each update,
only when something changed, with no figure, canvas or image on the server. As there, the
numbers over the bars and the cards named on the line are HTML labels in ``overlay``, laid
over the picture at the data points (``spec-chart-label``).

Each chart has ``widget`` (the picture), ``overlay`` (the labels), ``box`` (both, what the
app lays out) and ``close()`` (all from :class:`.chart_frame.ChartFrame`, as the matplotlib
charts have), and ``update(...)``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator
from ...rendering.chart_style import (
    AXIS,
    BAR_WIDTH,
    GOLD,
    GREY,
    GRID,
    HEIGHT_PX,
    HOLD_YLIM,
    INK,
    NAVY,
    WIDTH_PX,
    card_notes,
    hold_frame,
    hold_points,
    hold_xlim,
    label_spans,
    win_bar,
    win_box,
    win_names,
)
from ..common.parts import html_style
from .chart_frame import ChartFrame

__all__ = ["SvgHoldChart", "SvgWinChart"]

PX_PER_PT = 100 / 72  # the matplotlib charts' 100 dpi
TICK_PAD = 3.5 * PX_PER_PT
FONT = 11 * PX_PER_PT


@dataclass(frozen=True)
class Axes:
    """A plot area: ``box`` (left, bottom, width, height) as fractions of the picture from its
    bottom left, as matplotlib places axes, and the data ranges ``xlim`` and ``ylim``."""

    box: tuple[float, float, float, float]
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    width_px: int = WIDTH_PX
    height_px: int = HEIGHT_PX

    @property
    def left(self) -> float:
        return self.box[0] * self.width_px

    @property
    def right(self) -> float:
        return (self.box[0] + self.box[2]) * self.width_px

    @property
    def top(self) -> float:
        return (1 - self.box[1] - self.box[3]) * self.height_px

    @property
    def bottom(self) -> float:
        return (1 - self.box[1]) * self.height_px

    def x(self, value: float) -> float:
        """x px from the picture's left: ``left + (value - x0) / (x1 - x0) * width``."""
        x0, x1 = self.xlim
        return self.left + (value - x0) / (x1 - x0) * (self.right - self.left)

    def y(self, value: float) -> float:
        """y px from the picture's top (upwards in the data, downwards on the screen)."""
        y0, y1 = self.ylim
        return self.bottom - (value - y0) / (y1 - y0) * (self.bottom - self.top)


def _text(x: float, y: float, text: str, size: float, anchor: str = "middle") -> str:
    """SVG text at (x, y) (the first line's baseline), a line per ``\\n``, escaped."""
    lines = text.split("\n")
    spans = "".join(
        f'<tspan x="{x:.1f}" dy="{0 if i == 0 else 1.05 * size:.1f}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" fill="{INK}">{spans}</text>'


def _steps(axes: Axes, xs: Sequence[float], ys: Sequence[float]) -> str:
    """A step line's path (matplotlib's ``steps-post``: level until the next point, then up or down)."""
    if not xs:
        return ""
    parts = [f"M{axes.x(xs[0]):.1f} {axes.y(ys[0]):.1f}"]
    for x, y in zip(xs[1:], ys[1:]):
        parts.append(f"H{axes.x(x):.1f}V{axes.y(y):.1f}")
    return "".join(parts)


class _SvgChart(ChartFrame):
    """One chart: the picture (``widget``), the labels over it (``overlay``) and ``box`` holding
    both, all of one size (one Layout model); :meth:`show` puts a new drawing on the page."""

    backend = "svg"

    def __init__(self, width_px: int = WIDTH_PX, height_px: int = HEIGHT_PX) -> None:
        self.width_px, self.height_px = width_px, height_px
        size = widgets.Layout(width=f"{width_px}px", height=f"{height_px}px")  # one model for all three
        self.set_picture(widgets.HTML(layout=size, style=html_style()), size)
        self.svg = ""

    def show(self, body: str, labels: Sequence[tuple[float, float, str, str]]) -> None:
        """Put the picture ``body`` (SVG elements) and the ``labels`` on the page, each only if changed."""
        svg = (
            f'<svg class="spec-chart-picture" viewBox="0 0 {self.width_px} {self.height_px}" width="{self.width_px}" '
            f'height="{self.height_px}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">'
            f"{body}</svg>"
        )
        if svg != self.svg:
            self.svg = self.widget.value = svg
        spans = label_spans(labels)
        if self.overlay.value != spans:
            self.overlay.value = spans


class SvgWinChart(_SvgChart):
    """O2: every seat's chance of taking this deal's pot, as bars."""

    css_class = "spec-win-chart"

    def update(
        self,
        labels: Sequence[str],
        values: Sequence[Fraction],
        gold: int | None,
        t: Translator,
        grey: int | None = None,
    ) -> None:
        """``labels[i]``'s bar at ``values[i]`` (probabilities); bar ``gold`` (the holder) in gold,
        bar ``grey`` (a pot carried over) in grey; each bar's percentage written over it."""
        n = len(labels)
        size, names, two_lines = win_names(labels, self.width_px)
        axes = Axes(win_box(two_lines), (-0.6, n - 0.4), (0.0, 1.0), self.width_px, self.height_px)
        parts = []
        texts = []
        for i, value in enumerate(values):
            colour, cls = win_bar(i, gold, grey)
            x0, x1 = axes.x(i - BAR_WIDTH / 2), axes.x(i + BAR_WIDTH / 2)
            top = axes.y(float(value))
            parts.append(
                f'<rect x="{x0:.1f}" y="{top:.1f}" width="{x1 - x0:.1f}" height="{axes.bottom - top:.1f}" '
                f'fill="{colour}"/>'
            )
            texts.append((axes.x(i), top, t.percent(value), cls))
        parts.append(
            f'<line x1="{axes.left:.1f}" y1="{axes.bottom:.1f}" x2="{axes.right:.1f}" y2="{axes.bottom:.1f}" '
            f'stroke="{AXIS}" stroke-width="1.1"/>'
        )
        font = size * PX_PER_PT
        baseline = axes.bottom + TICK_PAD + 0.8 * font
        parts += [_text(axes.x(i), baseline, name, font) for i, name in enumerate(names)]
        self.show("".join(parts), texts)


class SvgHoldChart(_SvgChart):
    """O1 over the deal: x the cards turned up so far, y the chance the best trump holds."""

    css_class = "spec-hold-chart"

    def update(
        self,
        xs: Sequence[int],
        ys: Sequence[Fraction],
        cards: Sequence[str | None],
        later: tuple[Sequence[int], Sequence[Fraction]],
        t: Translator,
        total: int,
    ) -> None:
        """Points (xs[i], ys[i]) up to the moment shown; ``cards[i]`` names a new best trump at
        that point (or None); ``later`` the points after the moment shown (replay), drawn dashed;
        the x axis runs from 0 to ``total`` cards turned up."""
        ticks, box, step = hold_frame(total, t)
        axes = Axes(box, hold_xlim(total), HOLD_YLIM, self.width_px, self.height_px)
        parts = []
        for value, tick in zip((0.0, 0.5, 1.0), ticks):
            y = axes.y(value)
            parts.append(
                f'<line x1="{axes.left:.1f}" y1="{y:.1f}" x2="{axes.right:.1f}" y2="{y:.1f}" '
                f'stroke="{GRID}" stroke-width="1.4"/>'
            )
            parts.append(_text(axes.left - TICK_PAD, y + 0.35 * FONT, tick, FONT, "end"))
        parts.append(
            f'<path d="M{axes.left:.1f} {axes.top:.1f}V{axes.bottom:.1f}H{axes.right:.1f}" fill="none" '
            f'stroke="{AXIS}" stroke-width="1.1"/>'
        )
        baseline = axes.bottom + TICK_PAD + 0.8 * FONT
        parts += [_text(axes.x(k), baseline, str(k), FONT) for k in range(0, total + 1, step)]
        parts.append(_text((axes.left + axes.right) / 2, baseline + 1.3 * FONT, t("chart.hold.xlabel"), FONT))
        fx, fy, rest_x, rest_y = hold_points(xs, ys, later)
        if rest_x:
            parts.append(
                f'<path d="{_steps(axes, rest_x, rest_y)}" fill="none" stroke="{GREY}" stroke-width="2.8" '
                'stroke-dasharray="8.3 8.3"/>'
            )
        if fx:
            parts.append(f'<path d="{_steps(axes, fx, fy)}" fill="none" stroke="{NAVY}" stroke-width="3.6"/>')
            dot = '<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="' + NAVY + '"/>'
            parts += [dot.format(axes.x(x), axes.y(y)) for x, y in zip(fx, fy)]
            parts.append(
                f'<circle cx="{axes.x(fx[-1]):.1f}" cy="{axes.y(fy[-1]):.1f}" r="7.6" fill="{GOLD}" '
                f'stroke="{NAVY}" stroke-width="2.1"/>'
            )
        notes = [(axes.x(x), axes.y(y), card, cls) for x, y, card, cls in card_notes(fx, fy, cards)]
        self.show("".join(parts), notes)
