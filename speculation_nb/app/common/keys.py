"""Keyboard and screen-reader help that ipywidgets alone cannot give, as one small
anywidget (its ES module, ``speculation_nb/assets/keys.js``, goes with the widget's state:
nothing is fetched from anywhere).

* **Keys**: N next card, D new deal, E play to the end, B back, F forward (the line
  under the controls names them); they press the visible, enabled button of this app,
  never while the person types in a field.
* **Focus**: a chart never keeps the focus (the ipympl canvas takes ``tabindex=-1``
  and is hidden from screen readers, which read the charts' text alternative); the
  settings header takes the focus and opens with Enter or Space; Escape leaves a field.
* **Enter submits**: ``submits`` maps a field's CSS class to the button it submits (Enter in
  the Chips field places the bid), the field's value committed first.
* **Names**: ``labels`` maps a CSS selector to the accessible name its elements take (the
  timeline slider's handle, the seed box), worded from the catalogs by the screen.
* **The focus stays on a control**: when the control that had it is disabled, hidden or
  redrawn (Offer, Sell, B, F), it moves to the same control drawn again, else to the first
  control of the area that replaced it, else to the step controls; never to the page.
* **Landmark**: the app's root is the page's ``main`` region.
* **Live region**: ``say(text)`` has screen readers speak ``text`` once (the chance that the
  best trump holds after each card, each refusal, each computer action), in an ``aria-live``
  element that the module creates once and only ever changes the text of. Each ``say`` is
  one announcement: the same words said again (a refusal repeated) are spoken again, and
  nothing else (a redraw, a trait that did not change) speaks.

Works wherever anywidget does: JupyterLab, Voila, the static site (JupyterLite).
Without anywidget the app still works, with neither keys nor live region.
"""

from __future__ import annotations

import logging
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...assets import asset_text, widget_file

__all__ = ["ESM", "make_helper"]

log = logging.getLogger("speculation_nb.widgets")

#: The ES module (``speculation_nb/assets/keys.js``), as text.
ESM = asset_text("keys.js")

_CLASS: Any = None


def _helper_class() -> Any:
    global _CLASS
    if _CLASS is None:
        import anywidget
        from traitlets import Dict, Int, Unicode

        class KeyHelper(anywidget.AnyWidget):
            """Keys, focus fixes and the live region (see the module docstring)."""

            _esm = widget_file("keys.js")
            text = Unicode("").tag(sync=True)
            said = Int(0).tag(sync=True)  # bumped by each say(): the module speaks text then
            shortcuts = Dict().tag(sync=True)
            submits = Dict().tag(sync=True)
            labels = Dict().tag(sync=True)

            def say(self, text: str) -> None:
                """Have screen readers speak ``text`` once (see the module docstring)."""
                with self.hold_sync():
                    self.text = text
                    self.said += 1

        _CLASS = KeyHelper
    return _CLASS


def make_helper(keys: dict[str, str], submits: dict[str, str] | None = None) -> widgets.DOMWidget | None:
    """The helper widget (``keys``: key -> CSS class of the button it presses; ``submits``:
    a field's CSS class -> the CSS class of the button Enter in it presses), or None without
    anywidget."""
    try:
        cls = _helper_class()
    except Exception:  # anywidget missing: the app works without keys and live region
        log.info("anywidget is not available: no keyboard shortcuts, no live region")
        return None
    helper: widgets.DOMWidget = cls(shortcuts=keys, submits=submits or {})
    helper.add_class("spec-keys")
    return helper
