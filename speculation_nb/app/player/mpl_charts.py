"""The two charts of the odds panel drawn with matplotlib, for ``charts="ipympl"`` or
``"static"`` (the default is SVG: :mod:`.svg_charts`; the choice: :mod:`.chart_style`).

* :class:`WinChart`: every seat's chance of taking the pot (O2) as bars, the
  holder's bar gold, the percentage written over each bar.
* :class:`HoldChart`: the chance that the best trump holds (O1) over the cards
  turned up so far in this deal, each new best trump named at its point.

Each chart builds one :class:`~matplotlib.figure.Figure` once (no pyplot, so
no global state and no backend switch) and afterwards only changes its
artists, redrawing by blitting (see :class:`_Chart`). The words that change at
every step (the percentages over the bars, the cards named on the line) are
not drawn by matplotlib but laid over the picture as HTML text at the same
places: crisp on a projector, readable by screen readers, and no font
rendering on the server at each step.

Two ways to show the picture, chosen by ``backend``:

* ``"ipympl"``: the figure's ipympl ``Canvas`` widget (in Voila it must exist
  when the notebook runs, which it does: the app builds its charts at start-up);
* ``"static"``: an ``ipywidgets.Image`` holding a PNG rendered by Agg after each
  update (works wherever images do: nbconvert, a missing front-end extension).
"""

from __future__ import annotations

import base64
import io
import logging
import warnings
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ...languages.translator import Translator
from ...rendering.chart_style import (
    AXIS,
    BAR_WIDTH,
    BLUE,
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
from .chart_frame import ChartFrame

__all__ = ["HoldChart", "WinChart"]

log = logging.getLogger(__name__)

FONT = "DejaVu Sans"  # shipped with matplotlib: the same everywhere
DPI = 100


_QUIET_CANVAS: Any = None


def _quiet_canvas_class() -> Any:
    """An ipympl Canvas with no toolbar, header, footer or resize handle from its very
    first state (set afterwards, ipympl 0.10 can leave the resize handle drawn), and
    quicker PNG frames (compression level 1: the frames are small and go to loopback
    or a classroom network)."""
    global _QUIET_CANVAS
    if _QUIET_CANVAS is None:
        import numpy as np
        from ipympl.backend_nbagg import Canvas  # type: ignore[import-untyped]
        from PIL import Image
        from traitlets import Bool, Enum

        class QuietCanvas(Canvas):  # type: ignore[misc]
            _png_is_old: bool
            _force_full: bool
            _last_buff: Any

            toolbar_visible = Enum(["visible", "hidden", "fade-in-fade-out", True, False], default_value=False).tag(
                sync=True
            )
            header_visible = Bool(False).tag(sync=True)
            footer_visible = Bool(False).tag(sync=True)
            resizable = Bool(False).tag(sync=True)
            capture_scroll = Bool(False).tag(sync=True)

            def get_diff_image(self) -> bytes | None:  # matplotlib's webagg_core logic, with a faster PNG
                if not self._png_is_old:
                    return None
                pixels = np.asarray(self.get_renderer().buffer_rgba())
                buff = pixels.view(np.uint32).squeeze(2)
                if self._force_full or buff.shape != self._last_buff.shape or (pixels[:, :, 3] != 255).any():
                    self.set_image_mode("full")
                    output = buff
                else:
                    self.set_image_mode("diff")
                    output = np.where(buff != self._last_buff, buff, 0)
                self._last_buff = buff.copy()
                self._force_full = False
                self._png_is_old = False
                data = output.view(dtype=np.uint8).reshape((*output.shape, 4))
                with io.BytesIO() as png:
                    Image.fromarray(data).save(png, format="png", compress_level=1)
                    return png.getvalue()

        _QUIET_CANVAS = QuietCanvas
    return _QUIET_CANVAS


class _Chart(ChartFrame):
    """One figure, the widget that shows it, and HTML labels laid over it.

    Redrawn by blitting: the artists that change at every step are *animated*; a
    full draw (ours, or one the browser asks ipympl for) paints the still parts,
    keeps them as the background (``draw_event``) and paints the moving parts on
    top. An update restores that background and repaints only the moving parts.
    Whatever changes the still parts (names, language, axis limits) calls
    :meth:`restyle` and gets a full draw.

    ``widget`` is the picture (ipympl canvas or Image); ``box`` holds it and the
    ``overlay`` of labels, and is what the app lays out (:class:`.chart_frame.ChartFrame`).
    """

    #: ipympl: leave the first full draw to the front-end's request (see :meth:`draw`).
    defer_first_draw = True

    def __init__(self, backend: str = "ipympl", width_px: int = WIDTH_PX, height_px: int = HEIGHT_PX) -> None:
        if backend not in ("ipympl", "static"):
            raise ValueError(f"matplotlib charts are 'ipympl' or 'static', not {backend!r}")
        self.backend = backend
        self.figure = Figure(figsize=(width_px / DPI, height_px / DPI), dpi=DPI, facecolor="white")
        self.width_px, self.height_px = width_px, height_px
        self._background: Any = None
        self._still_changed = True
        self.animated: list[Any] = []
        size = widgets.Layout(width=f"{width_px}px", height=f"{height_px}px")
        if self.backend == "ipympl":
            try:
                self.widget = self._ipympl_canvas()
            except Exception:  # pragma: no cover - a broken ipympl install
                log.exception("ipympl canvas failed; falling back to a static image")
                self.backend = "static"
        if self.backend == "static":
            FigureCanvasAgg(self.figure)
            self.widget = widgets.Image(format="png", layout=size)
        self.figure.canvas.mpl_connect("draw_event", self._on_draw)
        self.set_picture(self.widget, size)

    def _ipympl_canvas(self) -> widgets.DOMWidget:
        from ipympl.backend_nbagg import FigureManager

        canvas = _quiet_canvas_class()(self.figure)
        with warnings.catch_warnings():  # ipympl's toolbar passes traitlets an argument it ignores
            warnings.simplefilter("ignore", DeprecationWarning)
            FigureManager(canvas, 0)  # wires the canvas to its toolbar and resize handling
        canvas.layout = widgets.Layout(width=f"{self.width_px}px", height=f"{self.height_px}px")
        return canvas

    # -------------------------------------------------------------- artists
    def animate(self, *artists: Any) -> None:
        """Mark artists as moving parts (drawn over the kept background)."""
        for artist in artists:
            artist.set_animated(True)
            self.animated.append(artist)

    def restyle(self) -> None:
        """The still parts changed: the next :meth:`draw` is a full draw."""
        self._still_changed = True

    def _on_draw(self, _event: Any) -> None:
        canvas: Any = self.figure.canvas
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        self._paint()

    def _paint(self) -> None:
        for artist in self.animated:
            if artist.get_visible():
                self.figure.draw_artist(artist)

    def draw(self) -> None:
        """Show the artists as they now are."""
        canvas: Any = self.figure.canvas
        # ipympl before its front-end is there: paint with Agg only and keep the picture as the
        # canvas's first image (ipympl 0.10 would store it without its "data:" prefix, a broken image).
        offline = self.backend == "ipympl" and getattr(canvas, "syncing_data_url", False)
        if offline and self.defer_first_draw:
            # Nobody sees the picture before the page connects, and then ipympl's front-end asks
            # for a full draw anyway ("initialized"): the app's cell returns sooner without it.
            self._still_changed = True
            return
        if self._still_changed or self._background is None:
            self._still_changed = False
            if offline:
                agg: Any = FigureCanvasAgg
                agg.draw(canvas)  # full draw, nothing sent
            else:
                canvas.draw()  # full draw; _on_draw keeps the background and paints the moving parts
        else:
            canvas.restore_region(self._background)
            self._paint()
            if self.backend == "ipympl" and not offline:
                canvas.blit(self.figure.bbox)
        if self.backend == "static":
            self.widget.value = self.png()
        elif offline:
            self.widget._data_url = "data:image/png;base64," + base64.b64encode(self.png()).decode("ascii")

    def png(self) -> bytes:
        """The figure as it was last painted, as PNG bytes."""
        from PIL import Image

        canvas: Any = self.figure.canvas
        w, h = canvas.get_width_height(physical=True)
        out = io.BytesIO()
        Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).save(
            out, format="png", compress_level=1
        )
        return out.getvalue()

    # --------------------------------------------------------------- labels
    def _px(self, ax: Any, x: float, y: float) -> tuple[float, float]:
        """CSS pixels from the picture's top left of the data point (x, y) of ``ax``."""
        box = ax.get_position()
        x0, x1 = ax.get_xlim()
        y0, y1 = ax.get_ylim()
        fx = box.x0 + (x - x0) / (x1 - x0) * box.width
        fy = box.y0 + (y - y0) / (y1 - y0) * box.height
        return fx * self.width_px, (1 - fy) * self.height_px

    def set_labels(self, ax: Any, labels: Sequence[tuple[float, float, str, str]]) -> None:
        """Text over the picture: ``(x, y, text, css class)``, centred above the data point."""
        value = label_spans([(*self._px(ax, x, y), text, cls) for x, y, text, cls in labels])
        if self.overlay.value != value:
            self.overlay.value = value


def _style_axes(ax: Any) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["left"].set_color(AXIS)
    ax.spines["bottom"].set_color(AXIS)
    ax.tick_params(colors=INK, labelsize=11, length=0)


class WinChart(_Chart):
    """O2: every seat's chance of taking this deal's pot, as bars."""

    css_class = "spec-win-chart"

    def __init__(self, backend: str = "ipympl") -> None:
        super().__init__(backend)
        self.ax = self.figure.add_axes(win_box(False))
        self._labels: tuple[str, ...] = ()
        self._bars: list[Any] = []

    def _build(self, labels: Sequence[str]) -> None:
        ax = self.ax
        ax.clear()
        self.animated = []
        _style_axes(ax)
        ax.spines["left"].set_visible(False)
        ax.yaxis.set_visible(False)
        ax.set_ylim(0, 1)
        xs = list(range(len(labels)))
        self._bars = list(ax.bar(xs, [0] * len(xs), width=BAR_WIDTH, color=BLUE, edgecolor="none"))
        size, short, two_lines = win_names(labels, self.width_px)
        ax.set_position(win_box(two_lines))
        ax.set_xticks(xs, short, fontsize=size, family=FONT, linespacing=1.0)
        for tick in ax.get_xticklabels():
            tick.set_parse_math(False)  # a name with $ signs is text, not mathtext
        ax.set_xlim(-0.6, len(xs) - 0.4)
        self.animate(*self._bars)
        self._labels = tuple(labels)
        self.restyle()

    def update(
        self,
        labels: Sequence[str],
        values: Sequence[Fraction],
        gold: int | None,
        t: Translator,
        grey: int | None = None,
    ) -> None:
        """``labels[i]``'s bar at ``values[i]`` (probabilities); bar ``gold`` (the holder) in gold,
        bar ``grey`` (a pot carried over) in grey."""
        if tuple(labels) != self._labels:
            self._build(labels)
        texts = []
        for i, (bar, value) in enumerate(zip(self._bars, values)):
            bar.set_height(float(value))
            colour, cls = win_bar(i, gold, grey)
            bar.set_color(colour)
            texts.append((i, float(value), t.percent(value), cls))
        self.draw()
        self.set_labels(self.ax, texts)


class HoldChart(_Chart):
    """O1 over the deal: x the cards turned up so far, y the chance the best trump holds."""

    css_class = "spec-hold-chart"

    def __init__(self, backend: str = "ipympl") -> None:
        super().__init__(backend)
        ax = self.ax = self.figure.add_axes((0.115, 0.25, 0.865, 0.64))
        _style_axes(ax)
        ax.set_ylim(*HOLD_YLIM)
        ax.grid(axis="y", color=GRID, linewidth=1)
        ax.set_axisbelow(True)
        (self.past,) = ax.plot([], [], color=GREY, linewidth=2, linestyle=(0, (3, 3)), drawstyle="steps-post")
        (self.line,) = ax.plot([], [], color=NAVY, linewidth=2.6, drawstyle="steps-post")
        (self.dots,) = ax.plot([], [], "o", color=NAVY, markersize=5)
        (self.now,) = ax.plot([], [], "o", color=GOLD, markersize=11, markeredgecolor=NAVY, markeredgewidth=1.5)
        self.animate(self.past, self.line, self.dots, self.now)
        self.xlabel = ax.set_xlabel("", fontsize=11, family=FONT, color=INK)
        self._frame: tuple[Any, ...] = ()

    def frame(self, total: int, t: Translator) -> None:
        """The still parts: x from 0 to ``total`` cards turned up, the words of ``t``."""
        key = (total, t.lang)
        if key == self._frame:
            return
        self._frame = key
        ax = self.ax
        ticks, box, step = hold_frame(total, t)
        ax.set_yticks([0, 0.5, 1], ticks)
        if abs(ax.get_position().x0 - box[0]) > 1e-9:
            ax.set_position(box)
        ax.set_xlim(*hold_xlim(total))
        ax.set_xticks(list(range(0, int(total) + 1, step)))
        self.xlabel.set_text(t("chart.hold.xlabel"))
        self.restyle()

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
        the x axis runs to ``total``."""
        self.frame(total, t)
        fx, fy, rest_x, rest_y = hold_points(xs, ys, later)
        self.line.set_data(fx, fy)
        self.dots.set_data(fx, fy)
        self.past.set_data(rest_x, rest_y)
        self.now.set_data(fx[-1:], fy[-1:])
        self.draw()
        self.set_labels(self.ax, card_notes(fx, fy, cards))
