"""What the odds panel's two charts share, whichever way they are drawn: their size and
colours, the choice of drawing (``backend``), names cut to fit under a bar, each bar's colour,
the points of the line and the cards named on it, and the HTML labels laid over the picture.

Three ways to draw them (``backend``):

* ``"svg"``: SVG written by :mod:`speculation_nb.app.player.svg_charts` into an HTML
  widget. Nothing to import, nothing rasterised on the server, crisp at any zoom; the
  default (``"auto"``), because it is what lets the app's first view start without
  matplotlib (a second less in a kernel, several in a browser running Pyodide).
* ``"ipympl"``: matplotlib figures on ipympl canvases
  (:mod:`speculation_nb.app.player.mpl_charts`).
* ``"static"``: matplotlib figures as PNG images (the same module).

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
    "card_notes",
    "chart_backend",
    "hold_frame",
    "hold_points",
    "hold_xlim",
    "label_spans",
    "name_limit",
    "short_name",
    "win_bar",
    "win_box",
    "win_names",
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


def win_names(labels: Sequence[str], width_px: int = WIDTH_PX) -> tuple[float, list[str], bool]:
    """The names under O2's bars: their font size (points), each name given its bar's width
    (whole where it fits, else two lines, "Henry" / "Crawford", each cut to fit with "…"), and
    whether any of them takes two lines."""
    size, limit = name_limit(len(labels), width_px)
    names = [short_name(x, limit) for x in labels]
    return size, names, any("\n" in x for x in names)


def win_bar(i: int, gold: int | None, grey: int | None) -> tuple[str, str]:
    """Bar ``i``'s colour and the CSS class of its percentage: the holder's (``gold``) gold, a
    pot carried over (``grey``) grey, any other blue."""
    if i == gold:
        return GOLD, "spec-chart-gold"
    return (GREY if i == grey else BLUE), ""


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


def hold_points(
    xs: Sequence[int], ys: Sequence[Fraction], later: tuple[Sequence[int], Sequence[Fraction]]
) -> tuple[list[float], list[float], list[float], list[float]]:
    """O1's points as floats: the line up to the moment shown (``xs``, ``ys``), and the rest of
    the deal (a replay's ``later`` points), drawn dashed from the last point shown; no rest
    when nothing is later."""
    fx = [float(x) for x in xs]
    fy = [float(y) for y in ys]
    if not later[0]:
        return fx, fy, [], []
    return fx, fy, fx[-1:] + [float(x) for x in later[0]], fy[-1:] + [float(y) for y in later[1]]


def card_class(card: str) -> str:
    """The CSS class of a card's name on the line chart: ``spec-red`` for hearts and diamonds."""
    return "spec-red" if card[-1] in "♥♦" else "spec-black"


def card_notes(
    xs: Sequence[float], ys: Sequence[float], cards: Sequence[str | None]
) -> list[tuple[float, float, str, str]]:
    """The cards named on O1's line, at their data points: ``(x, y, card, css class)`` for each
    point where a new best trump came up (``cards[i]``, None elsewhere)."""
    return [(x, y, card, card_class(card)) for x, y, card in zip(xs, ys, cards) if card]


def label_spans(labels: Sequence[tuple[float, float, str, str]]) -> str:
    """The overlay's HTML: ``(left px, top px, text, css class)``, each text escaped."""
    return "".join(
        f'<span class="spec-chart-label {cls}" style="left:{left:.1f}px;top:{top:.1f}px">{html.escape(text)}</span>'
        for left, top, text, cls in labels
    )
