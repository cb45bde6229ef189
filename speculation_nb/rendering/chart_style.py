"""What the odds panel's two charts share, whichever way they are drawn: their size and
colours, the choice of drawing (``backend``), names cut to fit under a bar, and the HTML
labels laid over the picture.

Three ways to draw them (``backend``):

* ``"svg"``: SVG written by :mod:`.svg_charts` into an HTML widget. Nothing to import,
  nothing rasterised on the server, crisp at any zoom; the default (``"auto"``), because
  it is what lets the app's first view start without matplotlib (a second less in a
  kernel, several in a browser running Pyodide).
* ``"ipympl"``: matplotlib figures on ipympl canvases (:mod:`.charts`).
* ``"static"``: matplotlib figures as PNG images (:mod:`.charts`).

The environment variable ``SPECULATION_CHARTS`` (``svg`` / ``ipympl`` / ``static``)
overrides ``"auto"``. A matplotlib drawing asked for where matplotlib does not import
(a static site's app page does not load it) falls back to SVG.
"""

from __future__ import annotations

import html
import importlib.util
import logging
import os
from collections.abc import Sequence
from fractions import Fraction

from ..languages.translator import Translator

__all__ = [
    "BACKENDS",
    "BAR_WIDTH",
    "HOLD_YLIM",
    "card_class",
    "chart_backend",
    "hold_frame",
    "hold_xlim",
    "label_spans",
    "name_limit",
    "short_name",
    "win_box",
]

log = logging.getLogger(__name__)

BACKENDS = ("auto", "svg", "ipympl", "static")
NAVY = "#1f3a68"
BLUE = "#4a78c2"
GOLD = "#d4a017"
GREY = "#9aa3ad"
INK = "#333333"
AXIS = "#c9ced6"
GRID = "#e6e9ee"
WIDTH_PX, HEIGHT_PX = 410, 170
#: The geometry both drawings share, in matplotlib's terms: a plot area is (left, bottom, width,
#: height) as fractions of the picture from its bottom left, and data ranges are (low, high).
BAR_WIDTH = 0.66  # of the space between two bars' centres
HOLD_YLIM = (-0.05, 1.07)


def _imports(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # pragma: no cover - a broken installation
        return False


def chart_backend(backend: str = "auto") -> str:
    """Resolve ``backend`` to ``"svg"``, ``"ipympl"`` or ``"static"``: ``"auto"`` is the
    environment's ``SPECULATION_CHARTS`` or else ``"svg"``; ipympl without ipympl is
    ``"static"``, and either without matplotlib is ``"svg"``."""
    if backend not in BACKENDS:
        raise ValueError(f"charts are {', '.join(map(repr, BACKENDS))}, not {backend!r}")
    if backend == "auto":
        chosen = os.environ.get("SPECULATION_CHARTS", "").strip().lower()
        backend = chosen if chosen in BACKENDS[1:] else "svg"
    if backend == "ipympl" and not _imports("ipympl"):
        log.info("ipympl is not available; the charts are static images")
        backend = "static"
    if backend == "static" and not _imports("matplotlib"):
        log.info("matplotlib is not available; the charts are SVG")
        backend = "svg"
    return backend


def short_name(name: str, limit: int = 9) -> str:
    """``name`` in at most two lines of at most ``limit`` characters, each cut with "…"."""

    def cut(text: str) -> str:
        return text if len(text) <= limit else text[: limit - 1] + "…"

    if len(name) <= limit:
        return name
    first, _, rest = name.partition(" ")
    if rest:
        return cut(first) + "\n" + cut(rest)
    return cut(name)


def name_limit(count: int, width_px: int = WIDTH_PX) -> tuple[float, int]:
    """The font size (points) of ``count`` names under the bars, and how many characters of
    that size fit under one bar (about 0.85 x the font size per character)."""
    size = 11.0 if count <= 5 else (9.0 if count <= 7 else 8.0)
    slot = width_px * 0.97 / (count + 0.2)
    return size, max(3, int((slot - 6) / (size * 0.85)))


def win_box(two_lines: bool) -> tuple[float, float, float, float]:
    """O2's plot area: names of two lines under the bars take more of the picture's height."""
    return (0.015, 0.25, 0.97, 0.61) if two_lines else (0.015, 0.16, 0.97, 0.70)


def hold_xlim(total: int) -> tuple[float, float]:
    """O1's x range: 0 to ``total`` cards turned up, with room for the first and last point."""
    return (-0.4, total + 0.6)


def hold_frame(total: int, t: Translator) -> tuple[list[str], tuple[float, float, float, float], int]:
    """O1's still parts in the language of ``t``: the y tick labels (0, 50 and 100 percent),
    the plot area (wider tick labels, "100 %" in German, push it right) and the step between
    x ticks (every card up to 12, then every 2nd up to 24, else every 5th)."""
    ticks = [t.percent(0, 0), t.percent(Fraction(1, 2), 0), t.percent(1, 0)]
    left = 0.115 if max(len(x) for x in ticks) <= 4 else 0.145
    step = 1 if total <= 12 else (2 if total <= 24 else 5)
    return ticks, (left, 0.25, 0.98 - left, 0.64), step


def card_class(card: str) -> str:
    """The CSS class of a card's name on the line chart: ``spec-red`` for hearts and diamonds."""
    return "spec-red" if card[-1] in "♥♦" else "spec-black"


def label_spans(labels: Sequence[tuple[float, float, str, str]]) -> str:
    """The overlay's HTML: ``(left px, top px, text, css class)``, each text escaped."""
    return "".join(
        f'<span class="spec-chart-label {cls}" style="left:{left:.1f}px;top:{top:.1f}px">{html.escape(text)}</span>'
        for left, top, text, cls in labels
    )
