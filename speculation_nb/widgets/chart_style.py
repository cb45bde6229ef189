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

__all__ = ["BACKENDS", "chart_backend", "label_spans", "name_limit", "short_name"]

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


def label_spans(labels: Sequence[tuple[float, float, str, str]]) -> str:
    """The overlay's HTML: ``(left px, top px, text, css class)``, each text escaped."""
    return "".join(
        f'<span class="spec-chart-label {cls}" style="left:{left:.1f}px;top:{top:.1f}px">{html.escape(text)}</span>'
        for left, top, text, cls in labels
    )
