"""What the odds panel's charts share as widgets, however they are drawn (:mod:`.svg_charts`,
:mod:`.mpl_charts`): the picture (``widget``), the HTML labels laid over it (``overlay``), the
box holding both (``box``, what the app lays out), their CSS classes, and ``close()``."""

from __future__ import annotations

import contextlib
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..common.parts import html_style

__all__ = ["ChartFrame"]


class ChartFrame:
    """A chart's widgets: :meth:`set_picture` puts the picture and its labels in one box.

    ``css_class`` names the chart (``spec-win-chart``, ``spec-hold-chart``), ``backend`` the
    drawing (``svg``, ``ipympl``, ``static``); the picture carries both as classes."""

    css_class = "spec-chart"
    backend = ""
    widget: Any
    overlay: widgets.HTML
    box: widgets.Box

    def set_picture(self, widget: Any, size: widgets.Layout) -> None:
        """``widget`` (the picture) and an overlay for its labels, in a box of ``size`` (the
        overlay and the box share that one Layout model)."""
        self.widget = widget
        for cls in ("spec-chart", self.css_class, f"spec-chart-{self.backend}"):
            widget.add_class(cls)
        self.overlay = widgets.HTML(layout=size, style=html_style())
        self.overlay.add_class("spec-chart-overlay")
        self.box = widgets.Box([widget, self.overlay], layout=size)
        self.box.add_class("spec-chart-box")
        self.box.add_class(f"{self.css_class}-box")

    def close(self) -> None:
        for w in (self.overlay, self.box, self.widget):
            with contextlib.suppress(Exception):
                w.close()
