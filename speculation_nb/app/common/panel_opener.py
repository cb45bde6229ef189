"""Panels that are built on first open: the simulation and the sharing panels.

A class opens the app many times at once, and every widget costs the kernel and the
server work before the first view shows. So a further panel starts as one button in
its slot (``ui.odds_slot``, ``ui.share_slot``): the first press builds the panel
(``factory(controller)``, anything with a ``.widget``) and shows it under the button;
later presses hide and show it again. The button says which way it goes ("▸" closed,
"▾" open), in words too. The box under the button is made on the first open as well (two
widget models fewer on the first view, per panel).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator
from ..model import Controller
from .parts import Shell, button, set_traits, show

__all__ = ["PanelOpener"]


class PanelOpener:
    """``PanelOpener(app, slot, name, factory, label, tooltip)``: the button ``spec-open-<name>``
    in ``slot``, worded by the catalog keys ``label`` and ``tooltip`` (``button.close_panel``
    once open); ``panel`` is None until the first open."""

    def __init__(
        self,
        app: Shell,
        slot: widgets.Box,
        name: str,
        factory: Callable[[Controller], Any],
        label: str,
        tooltip: str,
    ) -> None:
        self.app = app
        self.name = name
        self.factory = factory
        self.label = label
        self.tooltip = tooltip
        self.panel: Any = None
        self.open = False
        self.button = button(f"spec-open-{name}")
        self.button.add_class("spec-panel-opener")
        self.slot = slot
        self.box: widgets.VBox | None = None
        slot.children = (self.button,)
        self.button.on_click(app.guard(lambda _b: self.toggle()))

    def toggle(self, open_: bool | None = None) -> None:
        """Open (building the panel the first time) or close the panel; ``open_`` forces one."""
        self.open = (not self.open) if open_ is None else open_
        if self.open and self.panel is None:
            self.panel = self.factory(self.app.controller)
            self.box = widgets.VBox([self.panel.widget])
            self.box.add_class(f"spec-{self.name}-box")
            self.slot.children = (self.button, self.box)
        if self.box is not None:
            show(self.box, self.open)
        self.texts(self.app.controller.t)

    def texts(self, t: Translator) -> None:
        label = t(self.label)
        description = f"▾ {label}" if self.open else f"▸ {label}"
        tip = t("button.close_panel") if self.open else t(self.tooltip)
        set_traits(self.button, description=description, tooltip=tip)
