"""Blind trades (V3): a buyer buys face-down cards from a seller, unseen, for chips.

Shown only with V3 on, between reveals; built the first time it is shown. In play
mode the person is one side and the computer side agrees or refuses. Counts and
prices are sent as typed; the rules refuse what they do not allow, with the reason.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Translator
from ..common.parts import NumberField, Shell, button, set_traits, show
from ..model import Controller

__all__ = ["TradeView"]

LAZY = ("trade_buyer", "trade_seller", "trade_count", "trade_price", "trade")


class TradeView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        ui.trade_row = widgets.HBox([])
        ui.trade_row.add_class("spec-trade-row")
        show(ui.trade_row, False)
        self.widget = ui.trade_row
        self.built = False
        ui.lazy(LAZY, self.build)

    def build(self) -> None:
        if self.built:
            return
        self.built = True
        ui = self.app.ui
        style = {"description_width": "auto"}
        ui.trade_buyer = widgets.Dropdown(options=[("-", 0)], value=0, style=style)
        ui.trade_buyer.add_class("spec-trade-buyer")
        ui.trade_seller = widgets.Dropdown(options=[("-", 0)], value=0, style=style)
        ui.trade_seller.add_class("spec-trade-seller")
        ui.trade_count = NumberField(value=1, style=style)
        ui.trade_count.add_class("spec-trade-count")
        ui.trade_price = NumberField(value=1, style=style)
        ui.trade_price.add_class("spec-trade-price")
        ui.trade = button("spec-trade", "primary")
        ui.trade_row.children = [ui.trade_buyer, ui.trade_seller, ui.trade_count, ui.trade_price, ui.trade]
        g = self.app.guard
        c = self.app.controller
        ui.trade.on_click(
            g(
                lambda _b: c.blind_trade(
                    ui.trade_buyer.value, ui.trade_seller.value, ui.trade_count.value, ui.trade_price.value
                )
            )
        )
        ui.trade_seller.observe(g(lambda _ch: self._parties(c, c.shown)), "value")
        ui.trade_buyer.observe(g(lambda _ch: self._parties(c, c.shown)), "value")
        self.texts(c.t)

    def texts(self, t: Translator) -> None:
        if not self.built:
            return
        ui = self.app.ui
        set_traits(ui.trade, description=t("button.trade"), tooltip=t("tooltip.trade"))
        set_traits(ui.trade_buyer, description=t("label.buyer"), tooltip=t("tooltip.trade_buyer"))
        set_traits(ui.trade_seller, description=t("label.seller"), tooltip=t("tooltip.trade_seller"))
        set_traits(ui.trade_count, description=t("label.count"), tooltip=t("tooltip.trade_count"))
        set_traits(ui.trade_price, description=t("label.price"), tooltip=t("tooltip.trade_price"))

    def refresh(self, c: Controller, game: Any) -> None:
        ui = self.app.ui
        visible = c.live and game.rules.blind_trading and game.can_blind_trade() and not c.session.over
        show(ui.trade_row, visible)
        if not visible:
            return
        self.build()
        with self.app.quietly():
            self._parties(c, game)

    def _parties(self, c: Controller, game: Any) -> None:
        ui = self.app.ui
        names = c.names
        n = game.rules.players
        buyers = list(range(n))  # the person buys from anyone or sells to anyone
        buyer_opts = [(names[s], s) for s in buyers]
        if list(ui.trade_buyer.options) != buyer_opts:
            ui.trade_buyer.options = buyer_opts
        buyer = ui.trade_buyer.value if ui.trade_buyer.value in buyers else buyers[0]
        ui.trade_buyer.value = buyer
        sellers = [s for s in range(n) if s != buyer and game.face_down[s] > 0]
        if c.mode == "play":
            sellers = [s for s in sellers if c.human in (s, buyer)]
        seller_opts = [(names[s], s) for s in sellers] or [("–", -1)]
        if list(ui.trade_seller.options) != seller_opts:
            ui.trade_seller.options = seller_opts
        seller = ui.trade_seller.value if ui.trade_seller.value in sellers else (sellers[0] if sellers else -1)
        ui.trade_seller.value = seller
        have = game.face_down[seller] if seller >= 0 else 0
        stack = game.stacks[buyer]
        ok = seller >= 0 and have >= 1 and stack >= 1 and not c.acting
        set_traits(ui.trade_count, min=1, max=max(have, 1))
        set_traits(ui.trade_price, min=1, max=max(stack, 1))
        set_traits(ui.trade_count, disabled=not ok)
        set_traits(ui.trade_price, disabled=not ok)
        set_traits(ui.trade, disabled=not ok)
