"""What the panels built on first open share (:mod:`.simulation_panel`, :mod:`.share_panel`).

A panel observes the app's :class:`~.controller.Controller` and keeps its widgets in
``self.ui`` (a namespace) with the root in ``self.ui.root``; ``widget`` is that root. Its
callbacks go through :meth:`ControllerPanel.guard`: anything unexpected is logged and the
panel says so in words (:meth:`failed`), never a traceback in the page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator

__all__ = ["ControllerPanel", "tagged"]

log = logging.getLogger("speculation_nb.widgets")


def tagged(w: Any, *classes: str) -> Any:
    """``w`` with the CSS classes added."""
    for cls in classes:
        w.add_class(cls)
    return w


class ControllerPanel:
    controller: Any
    ui: SimpleNamespace

    @property
    def widget(self) -> widgets.VBox:
        """The root widget."""
        root: widgets.VBox = self.ui.root
        return root

    @property
    def t(self) -> Translator:
        t: Translator = self.controller.t
        return t

    def close(self) -> None:
        for w in vars(self.ui).values():
            w.close()

    def failed(self) -> None:
        """Say in the panel that something unexpected went wrong."""
        raise NotImplementedError

    def guard(self, fn: Callable[[Any], object]) -> Callable[[Any], None]:
        """A callback that turns any failure into the panel's own line."""

        def handler(arg: Any) -> None:
            try:
                fn(arg)
            except Exception:  # never a traceback in the page
                log.exception("speculation_nb %s: a callback failed", type(self).__name__)
                self.failed()

        return handler
