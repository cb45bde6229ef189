"""The step controls: Next card, New deal (the session's next deal), Play to the end,
back, forward, back to now, the timeline slider, and the line that names the keys.

While the page looks at the past (replay) or the computer players are acting, the
buttons that would change the game are disabled; "Now" brings the page back. While a shared
table shows a question deal (issue 25) every step control is disabled (the model refuses them too).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator
from ..common.parts import Shell, button, esc, html_widget, set_traits, show, toggle_class, word_buttons
from ..model import Controller

__all__ = ["KEYS", "LABELS", "SUBMITS", "ControlsView"]

#: The keys of the main actions: key -> (CSS class of the button it presses, catalog key of its name).
KEYS = {
    "n": ("spec-next", "button.next_card"),
    "d": ("spec-new-deal", "button.new_deal"),
    "e": ("spec-play", "button.play_to_end"),
    "b": ("spec-back", "button.back"),
    "f": ("spec-forward", "button.forward"),
}

#: Enter in a field presses its submit button: the field's CSS class -> the button's.
SUBMITS = {
    "spec-bid-amount": "spec-bid",
    "spec-trade-count": "spec-trade",
    "spec-trade-price": "spec-trade",
    "spec-sim-runs": "spec-sim-run",
    "spec-sim-seed": "spec-sim-run",
}

#: Accessible names of the controls that show no label of their own: selector -> catalog key.
LABELS = {
    ".spec-timeline .noUi-handle": "label.timeline",
    ".spec-seed input": "label.seed",
}


class ControlsView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        c = app.controller
        ui.next = button("spec-next", "primary")
        ui.new_deal = button("spec-new-deal", "primary")
        ui.play = button("spec-play", "info")
        ui.back = button("spec-back")
        ui.forward = button("spec-forward")
        ui.now = button("spec-now")
        ui.controls = widgets.HBox([ui.next, ui.new_deal, ui.play, ui.back, ui.forward, ui.now])
        ui.controls.add_class("spec-controls")
        ui.timeline = widgets.IntSlider(min=0, max=0, value=0, readout=False, continuous_update=False)
        ui.timeline.add_class("spec-timeline")
        ui.timeline_label = html_widget("spec-timeline-label")
        ui.timeline_row = widgets.HBox([ui.timeline, ui.timeline_label])
        ui.timeline_row.add_class("spec-timeline-row")
        ui.keys_help = html_widget("spec-keys-help")
        self.widgets = [ui.controls, ui.timeline_row, ui.keys_help]

        g = app.guard
        ui.next.on_click(g(lambda _b: c.next_card()))
        ui.new_deal.on_click(g(lambda _b: self._next_deal()))
        ui.play.on_click(g(lambda _b: c.play_to_end()))
        ui.back.on_click(g(lambda _b: c.back()))
        ui.forward.on_click(g(lambda _b: c.forward()))
        ui.now.on_click(g(lambda _b: c.now()))
        ui.timeline.observe(g(lambda change: c.go(change["new"])), "value")

    def _next_deal(self) -> None:
        c = self.app.controller
        if c.next_deal() == "next" and c.game.over:  # an Ace turned up: over before it began (S5)
            from .header import status

            c.notify(status(c, c.game, c.t), "ok")

    def texts(self, t: Translator) -> None:
        ui = self.app.ui
        word_buttons(
            t,
            [
                (ui.next, "button.next_card", "tooltip.next_card"),
                (ui.new_deal, "button.new_deal", "tooltip.new_deal"),
                (ui.play, "button.play_to_end", "tooltip.play_to_end"),
                (ui.back, "button.back", "tooltip.back"),
                (ui.forward, "button.forward", "tooltip.forward"),
                (ui.now, "button.now", "tooltip.now"),
            ],
        )
        set_traits(ui.timeline, description_allow_html=False, tooltip=t("tooltip.timeline"))
        keys = " · ".join(
            f"<kbd>{esc(key.upper())}</kbd> {esc(t(name).strip(' ▶◀⏭⇥'))}" for key, (_cls, name) in KEYS.items()
        )
        ui.keys_help.value = f"{esc(t('label.keys'))} {keys}"

    def refresh(self, c: Controller, game: Any, t: Translator) -> None:
        ui = self.app.ui
        live = c.live
        live_game = c.game
        running = not live_game.over
        can_step = live and live_game.can_reveal() and not c.session.over and not c.acting
        show(ui.next, running or c.session.over)
        show(ui.new_deal, not running and not c.session.over)
        set_traits(ui.next, disabled=not can_step)
        set_traits(ui.new_deal, disabled=not live)
        set_traits(ui.play, disabled=not can_step)
        asked = c.question is not None  # a question deal is shown: the deal waits (issue 25)
        set_traits(ui.back, disabled=c.moment <= 0 or asked)
        set_traits(ui.forward, disabled=live or asked)
        set_traits(ui.now, disabled=live or asked)
        toggle_class(ui.now, "spec-now-alert", not live and not asked)
        set_traits(ui.timeline, max=c.last, value=c.moment, disabled=c.last == 0 or asked)
        ui.timeline_label.value = esc(t("timeline.label", k=c.moment, total=c.last))
