"""The odds panel, the hero of the page: the chance that the best trump holds (O1) large,
its exact fraction and the filled-in formula, one line in words, the expected pot (O3) and
the fair price (O4, whole chips as :class:`~speculation_nb.odds.Prices` shows it) with the line
defining it; then the charts. It also makes
``ui.odds_slot``, the simulation's place, which the app lays out below the step controls.

The ``spec-live`` region (see :mod:`.keys`) speaks the new chance after each card.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.cards import Card
from ...languages.translator import Safe, Translator
from ...odds import shown_chips
from ..common.parts import Shell, bidi, card_html, esc, html_widget, set_traits, show, toggle_class
from ..model import Controller, Snapshot

__all__ = ["OddsPanel"]


class OddsPanel:
    def __init__(self, app: Shell, charts: widgets.Widget, auction: widgets.Widget) -> None:
        self.app = app
        ui = app.ui
        ui.hold_label = html_widget("spec-hold-label")
        ui.hold_pct = html_widget("spec-hold-pct")
        ui.hold_formula = html_widget("spec-hold-formula")
        ui.hold_fraction = html_widget("spec-hold-fraction")
        ui.math = widgets.HBox([ui.hold_formula, ui.hold_fraction])
        ui.math.add_class("spec-math")
        ui.hold_legend = html_widget("spec-hold-legend")
        ui.hold_words = html_widget("spec-hold-words")
        ui.expected_pot = html_widget("spec-expected-pot")
        ui.fair_price = html_widget("spec-fair-price")
        ui.money = widgets.HBox([ui.expected_pot, ui.fair_price])
        ui.money.add_class("spec-money")
        ui.fair_note = html_widget("spec-fair-note")
        ui.odds_slot = widgets.VBox([])  # the simulation's place: the app lays it out (see .app)
        ui.odds_slot.add_class("spec-odds-slot")
        # The auction takes the charts' place while it is open: the numbers to decide by stay in view.
        ui.odds = widgets.VBox(
            [
                ui.hold_label,
                ui.hold_pct,
                ui.math,
                ui.hold_legend,
                ui.hold_words,
                ui.money,
                ui.fair_note,
                auction,
                charts,
            ]
        )
        ui.odds.add_class("spec-odds")
        self.widget = ui.odds

    def texts(self, t: Translator) -> None:
        self.app.ui.fair_note.value = esc(t("odds.fair_note"))

    def refresh(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> None:
        ui = self.app.ui
        names = c.names
        best = game.best_trump
        ui.hold_label.value = t.html("odds.label", card=card_html(best, t), name=bidi(names[game.holder]))
        ui.hold_pct.value = esc(t.percent(snap.odds.hold))
        toggle_class(ui.hold_pct, "spec-settled", game.over)
        fraction = snap.odds.hold
        ui.hold_fraction.value = esc(
            f"= {fraction.numerator}/{fraction.denominator}" if fraction.denominator != 1 else f"= {fraction.numerator}"
        )
        U, h, n = snap.hold_terms
        if game.over:  # O5: settled, no formula
            ui.hold_formula.value = esc(t("odds.settled"))
            ui.hold_legend.value = ""
        else:
            ui.hold_formula.value = esc(t("odds.formula", a=U - h, n=n, b=U))
            ui.hold_legend.value = esc(t("odds.legend", U=U, h=h, n=n))
        show(ui.hold_legend, not game.over)
        # A long formula and fraction ("= C(41, 12) / C(51, 12) = 566618/11388335") in smaller type, on one line.
        toggle_class(ui.math, "spec-math-long", len(ui.hold_formula.value) + len(ui.hold_fraction.value) > 38)
        ui.hold_words.value = self._words(c, game, snap, t)
        pot = snap.odds.expected_pot
        pot_text = t.number(shown_chips(pot))
        pot_text = pot_text if pot.denominator == 1 else t("odds.about", value=pot_text)
        ui.expected_pot.value = t.html("odds.expected_pot", value=Safe(f"<b>{esc(pot_text)}</b>"))
        fair = snap.odds.prices.fair
        ui.fair_price.value = t.html(t.plural_key("odds.fair_price", fair), value=Safe(f"<b>{esc(t.number(fair))}</b>"))
        set_traits(ui.expected_pot, tooltip=t("tooltip.expected_pot", exact=str(pot)))
        set_traits(ui.fair_price, tooltip=t("tooltip.fair_price", exact=str(snap.odds.fair)))

    @staticmethod
    def _words(c: Controller, game: Any, snap: Snapshot, t: Translator) -> Safe:
        names = c.names
        best = game.best_trump
        if game.over:
            if game.winner is None:
                return t.html("odds.words.over_carried")
            return t.html("odds.words.over", card=card_html(best, t), name=bidi(names[game.winner]))
        _, h, n = snap.hold_terms
        if h == 0:
            return t.html("odds.words.unbeatable", card=card_html(best, t))
        if n == 0:
            return t.html("odds.words.no_cards", card=card_html(best, t))
        higher = [card_html(Card(r, game.trump), t) for r in range(best.rank + 1, 15)]
        if len(higher) > 5:  # 5♣ 6♣ … A♣
            higher = [*higher[:2], Safe("…"), higher[-1]]
        return t.html(
            "odds.words.live",
            card=card_html(best, t),
            higher=Safe(" ".join(higher)),
            trumps=t.plural("unit.higher_trumps", h),
            cards=t.plural("unit.cards_to_come", n),
        )

    @staticmethod
    def spoken(c: Controller, game: Any, snap: Snapshot, t: Translator) -> str:
        """The live numbers in one sentence, for the screen readers' live region."""
        return t(
            "odds.live",
            card=t.card_name(game.best_trump),
            name=c.names[game.holder],
            pct=t.percent(snap.odds.hold),
            fraction=f"{snap.odds.hold.numerator}/{snap.odds.hold.denominator}",
            fair=t.number(snap.odds.prices.fair),
        )
