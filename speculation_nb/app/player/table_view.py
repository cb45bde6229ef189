"""The table: every seat's stack, face-down pile and face-up cards, drawn by
:func:`speculation_nb.rendering.cards.table_html` (greyed a little while replaying)."""

from __future__ import annotations

from typing import Any

from ...languages.translator import Translator
from ...rendering.cards import table_html
from ..common.parts import Shell, html_widget, toggle_class
from ..model import Controller

__all__ = ["TableView"]


class TableView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        app.ui.table = html_widget("spec-table-view")
        self.widget = app.ui.table

    def refresh(self, c: Controller, game: Any, t: Translator) -> None:
        names = list(c.names)
        if c.mode == "play":
            names[c.human] = t("seat.you", name=names[c.human])
        width = 54 if game.rules.players <= 5 else 46
        value = table_html(game, names, texts=t.render_texts(), card_width=width, number=t.number)
        if self.widget.value != value:
            self.widget.value = value
        toggle_class(self.widget, "spec-table-past", not c.live and c.question is None)
        toggle_class(self.widget, "spec-table-question", c.question is not None)
