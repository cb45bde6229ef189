"""The Speculation app: the views of a :class:`~.controller.Controller`, laid out.

``SpeculationApp()`` is displayable as it is (the last line of a cell, or
``display(app)``); ``app.widget`` is its root ``VBox``. Every widget is in
``app.ui`` under the name of its CSS class without ``spec-``
(``app.ui.next`` is the "Next card" button, class ``spec-next``).

The views never change the game themselves: a button calls the controller,
the controller changes the session and bumps its ``version``, and
:meth:`SpeculationApp.refresh` redraws everything from the controller's state,
inside ``hold_sync`` blocks. Every callback is guarded: a rule refusal shows
its rule and message in the page's message line, anything unexpected a
friendly line (the details go to the ``speculation_nb.widgets`` logger), and
never a traceback.
"""

from __future__ import annotations

import functools
import html
import logging
import re
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import ipywidgets as widgets

from ..cards import Card
from ..errors import IllegalAction
from ..i18n import Safe, Translator, available_languages, error_text, round_half_up, translator
from ..render import table_html
from ..rules import PRESETS, Rules
from .charts import HoldChart, WinChart
from .controller import DEFAULT_NAMES, MODES, Controller, Snapshot, parse_seed
from .page_address import page_query
from .style import CSS

__all__ = ["SpeculationApp", "app", "from_request", "query_settings"]

log = logging.getLogger("speculation_nb.widgets")

TEMPERAMENT_CHOICES = ("mixed", "cautious", "fair", "bold", "mansfield")


def _esc(value: Any) -> str:
    if isinstance(value, Safe):
        return str(value)
    return html.escape(str(value), quote=True)


def card_html(card: Any, t: Translator) -> Safe:
    """A card as coloured text (``Q♥``) with its name for screen readers."""
    card = Card.parse(card)
    colour = "spec-red" if card.suit.red else "spec-black"
    name = _esc(t.card_name(card))
    return Safe(
        f'<span class="spec-card-text {colour}" role="img" aria-label="{name}" title="{name}">{_esc(str(card))}</span>'
    )


def _name(names: Sequence[str], seat: Any) -> Safe:
    return Safe(f"<b>{_esc(names[seat])}</b>") if isinstance(seat, int) and 0 <= seat < len(names) else Safe("?")


def _button(cls: str, style: str = "", extra: str = "") -> widgets.Button:
    b = widgets.Button(button_style=style)
    b.add_class("spec-button")
    b.add_class(cls)
    if extra:
        b.add_class(extra)
    return b


def _show(widget: widgets.Widget, visible: bool) -> None:
    value = None if visible else "none"
    if widget.layout.display != value:
        widget.layout.display = value


def _set(widget: widgets.Widget, **traits: Any) -> None:
    """Set traits that changed, in one message."""
    changed = {k: v for k, v in traits.items() if getattr(widget, k) != v}
    if not changed:
        return
    with widget.hold_sync():
        for k, v in changed.items():
            setattr(widget, k, v)


def _toggle_class(widget: widgets.Widget, cls: str, on: bool) -> None:
    if on and cls not in widget._dom_classes:
        widget.add_class(cls)
    elif not on and cls in widget._dom_classes:
        widget.remove_class(cls)


class SpeculationApp:
    """The teaching app: the table, the live odds, replay, auctions, settings.

    >>> app = SpeculationApp(players=4, seed=7, mode="classroom")   # doctest: +SKIP
    >>> app                                                          # doctest: +SKIP

    ``rules`` (a :class:`~speculation_nb.Rules`) or ``players`` (3-8, default 5);
    ``names`` the players' names; ``deals`` the length of the session (None: no
    limit); ``seed`` makes the whole session reproducible; ``mode``
    ``"play"`` (you are seat ``human``, the others are computer players of
    ``temperament`` ``"mixed"``, ``"cautious"``, ``"fair"`` or ``"bold"``) or
    ``"classroom"`` (the teacher drives every seat); ``lang`` the language;
    ``charts`` ``"auto"`` (ipympl when available), ``"ipympl"`` or ``"static"``
    (PNG images).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        players: int | None = None,
        names: Sequence[str] | None = None,
        deals: int | None = 10,
        seed: int | None = None,
        mode: str = "play",
        human: int = 0,
        temperament: str = "mixed",
        lang: str = "en",
        charts: str = "auto",
    ) -> None:
        if rules is None:
            rules = Rules(players=players or 5)
        elif players is not None and players != rules.players:
            raise ValueError(f"rules are for {rules.players} players, not {players}")
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        if temperament not in TEMPERAMENT_CHOICES:
            raise ValueError(f"temperament is one of {', '.join(TEMPERAMENT_CHOICES)}, not {temperament!r}")
        self.controller = Controller(rules, names, deals, seed, mode, human, temperament, lang)
        self.last_error: BaseException | None = None
        self._busy = False
        self._build(charts)
        self._sync_settings_from_controller()
        self.controller.observe(self._on_change, "version")
        self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def t(self) -> Translator:
        return self.controller.t

    @property
    def widget(self) -> widgets.VBox:
        """The root widget (``spec-app``)."""
        return self.ui.app

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Close this app's widgets (and its chart canvases); other widgets are left alone."""
        self.win_chart.close()
        self.hold_chart.close()
        for value in vars(self.ui).values():
            for w in value if isinstance(value, list) else [value]:
                if isinstance(w, widgets.Widget):
                    w.close()

    # ---------------------------------------------------------------- building
    def _build(self, charts: str) -> None:
        ui = self.ui = SimpleNamespace()
        HTML = widgets.HTML

        def html_w(cls: str) -> widgets.HTML:
            w = HTML()
            w.add_class(cls)
            return w

        ui.style = HTML(f"<style>{CSS}</style>", layout=widgets.Layout(display="none"))
        ui.style.add_class("spec-style")

        # Top bar.
        ui.title = html_w("spec-title")
        ui.deal_info = html_w("spec-deal-info")
        ui.seed = widgets.Text(continuous_update=False)
        ui.seed.add_class("spec-seed")
        ui.new_deal = _button("spec-new-deal", "warning")
        ui.topbar = widgets.HBox([ui.title, ui.deal_info, ui.seed, ui.new_deal])
        ui.topbar.add_class("spec-topbar")

        ui.message = html_w("spec-message")

        # The table.
        ui.table = html_w("spec-table-view")

        # Step controls.
        ui.next = _button("spec-next", "primary")
        ui.play = _button("spec-play", "info")
        ui.back = _button("spec-back")
        ui.forward = _button("spec-forward")
        ui.now = _button("spec-now")
        ui.controls = widgets.HBox([ui.next, ui.play, ui.back, ui.forward, ui.now])
        ui.controls.add_class("spec-controls")
        ui.timeline = widgets.IntSlider(
            min=0,
            max=0,
            value=0,
            readout=False,
            continuous_update=False,
            layout=widgets.Layout(width="auto", flex="1 1 auto"),
        )
        ui.timeline.add_class("spec-timeline")
        ui.timeline_label = html_w("spec-timeline-label")
        ui.timeline_row = widgets.HBox([ui.timeline, ui.timeline_label])
        ui.timeline_row.add_class("spec-timeline-row")

        # The auction.
        ui.open_auction = _button("spec-open-auction", "warning")
        ui.auction_title = html_w("spec-auction-title")
        ui.auction_table = html_w("spec-auction-table")
        ui.bid_seat = widgets.Dropdown(options=[("-", 0)], value=0, style={"description_width": "auto"})
        ui.bid_seat.add_class("spec-bid-seat")
        ui.bid_amount = widgets.BoundedIntText(value=1, min=1, max=1, style={"description_width": "auto"})
        ui.bid_amount.add_class("spec-bid-amount")
        ui.bid = _button("spec-bid", "primary")
        ui.withdraw = _button("spec-withdraw")
        ui.bid_row = widgets.HBox([ui.bid_seat, ui.bid_amount, ui.bid, ui.withdraw])
        ui.bid_row.add_class("spec-bid-row")
        ui.accept_seat = widgets.Dropdown(options=[("-", 0)], value=0, style={"description_width": "auto"})
        ui.accept_seat.add_class("spec-accept-seat")
        ui.accept = _button("spec-accept", "success")
        ui.decline = _button("spec-decline", "danger")
        ui.let_decide = _button("spec-let-decide", "info")
        ui.decide_row = widgets.HBox([ui.accept_seat, ui.accept, ui.decline, ui.let_decide])
        ui.decide_row.add_class("spec-decide-row")
        ui.auction = widgets.VBox([ui.open_auction, ui.auction_title, ui.auction_table, ui.bid_row, ui.decide_row])
        ui.auction.add_class("spec-auction")

        # V3 blind trades.
        ui.trade_buyer = widgets.Dropdown(options=[("-", 0)], value=0, style={"description_width": "auto"})
        ui.trade_buyer.add_class("spec-trade-buyer")
        ui.trade_seller = widgets.Dropdown(options=[("-", 0)], value=0, style={"description_width": "auto"})
        ui.trade_seller.add_class("spec-trade-seller")
        ui.trade_count = widgets.BoundedIntText(value=1, min=1, max=1, style={"description_width": "auto"})
        ui.trade_count.add_class("spec-trade-count")
        ui.trade_price = widgets.BoundedIntText(value=1, min=1, max=1, style={"description_width": "auto"})
        ui.trade_price.add_class("spec-trade-price")
        ui.trade = _button("spec-trade", "primary")
        ui.trade_row = widgets.HBox([ui.trade_buyer, ui.trade_seller, ui.trade_count, ui.trade_price, ui.trade])
        ui.trade_row.add_class("spec-trade-row")

        # Log and standings.
        ui.log = html_w("spec-log")
        ui.standings = html_w("spec-standings")
        ui.bottom = widgets.HBox([ui.log, ui.standings])
        ui.bottom.add_class("spec-bottom")

        ui.left = widgets.VBox([ui.table, ui.controls, ui.timeline_row, ui.trade_row, ui.bottom])
        ui.left.add_class("spec-left")

        # The odds panel.
        ui.hold_label = html_w("spec-hold-label")
        ui.hold_pct = html_w("spec-hold-pct")
        ui.hold_formula = html_w("spec-hold-formula")
        ui.hold_fraction = html_w("spec-hold-fraction")
        ui.math = widgets.HBox([ui.hold_formula, ui.hold_fraction])
        ui.math.add_class("spec-math")
        ui.hold_legend = html_w("spec-hold-legend")
        ui.hold_words = html_w("spec-hold-words")
        ui.expected_pot = html_w("spec-expected-pot")
        ui.fair_price = html_w("spec-fair-price")
        ui.money = widgets.HBox([ui.expected_pot, ui.fair_price])
        ui.money.add_class("spec-money")
        self.win_chart = WinChart(charts)
        self.hold_chart = HoldChart(charts)
        ui.win_title = html_w("spec-win-title")
        ui.win_title.add_class("spec-chart-title")
        ui.hold_title = html_w("spec-hold-title")
        ui.hold_title.add_class("spec-chart-title")
        ui.win_chart = self.win_chart.widget
        ui.hold_chart = self.hold_chart.widget
        ui.win_labels = self.win_chart.overlay
        ui.hold_labels = self.hold_chart.overlay
        ui.charts = widgets.VBox([ui.win_title, self.win_chart.box, ui.hold_title, self.hold_chart.box])
        ui.charts.add_class("spec-charts")
        # The auction takes the charts' place while it is open: the numbers to decide by stay in view.
        ui.odds = widgets.VBox(
            [ui.hold_label, ui.hold_pct, ui.math, ui.hold_legend, ui.hold_words, ui.money, ui.auction, ui.charts]
        )
        ui.odds.add_class("spec-odds")

        ui.main = widgets.HBox([ui.left, ui.odds])
        ui.main.add_class("spec-main")

        self._build_settings()

        ui.app = widgets.VBox([ui.style, ui.topbar, ui.message, ui.main, ui.settings])
        ui.app.add_class("spec-app")

        # Wiring: every callback guarded.
        c = self.controller
        ui.next.on_click(self._guard(lambda _b: c.next_card()))
        ui.play.on_click(self._guard(lambda _b: c.play_to_end()))
        ui.back.on_click(self._guard(lambda _b: c.back()))
        ui.forward.on_click(self._guard(lambda _b: c.forward()))
        ui.now.on_click(self._guard(lambda _b: c.now()))
        ui.new_deal.on_click(self._guard(self._on_new_deal))
        ui.timeline.observe(self._guard(self._on_timeline), "value")
        ui.open_auction.on_click(self._guard(lambda _b: c.open_auction()))
        ui.bid.on_click(self._guard(self._on_bid))
        ui.withdraw.on_click(self._guard(lambda _b: c.withdraw(self._bid_seat())))
        ui.bid_seat.observe(self._guard(self._on_bid_seat), "value")
        ui.accept.on_click(self._guard(lambda _b: c.accept(ui.accept_seat.value)))
        ui.decline.on_click(self._guard(lambda _b: c.decline()))
        ui.let_decide.on_click(self._guard(self._on_let_decide))
        ui.trade.on_click(self._guard(self._on_trade))
        ui.trade_seller.observe(self._guard(self._on_trade_parties), "value")
        ui.trade_buyer.observe(self._guard(self._on_trade_parties), "value")

    def _build_settings(self) -> None:
        ui = self.ui
        L = widgets.Layout
        style = {"description_width": "150px"}

        def tag(w: widgets.Widget, cls: str) -> widgets.Widget:
            w.add_class(cls)
            return w

        ui.set_players = tag(widgets.BoundedIntText(value=5, min=3, max=8, style=style), "spec-set-players")
        ui.set_names = [
            tag(
                widgets.Text(value=DEFAULT_NAMES[i], style={"description_width": "60px"}, layout=L(width="auto")),
                f"spec-set-name-{i}",
            )
            for i in range(8)
        ]
        for w in ui.set_names:
            w.add_class("spec-set-name")
        ui.names_box = tag(widgets.GridBox(ui.set_names), "spec-names")
        ui.set_preset = tag(
            widgets.Dropdown(options=[("-", p) for p in PRESETS], value=PRESETS[0], style=style), "spec-set-preset"
        )
        ui.set_v1 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v1")
        ui.set_v2 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v2")
        ui.set_v3 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v3")
        ui.set_v4 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v4")
        ui.set_cap = tag(widgets.BoundedIntText(value=12, min=1, max=10_000, style=style), "spec-set-cap")
        ui.set_hand = tag(
            widgets.Dropdown(options=[("3", 3), ("4", 4), ("5", 5)], value=3, style=style), "spec-set-hand"
        )
        ui.set_ante = tag(
            widgets.Dropdown(options=[("-", "traditional"), ("-", "uniform")], value="traditional", style=style),
            "spec-set-ante",
        )
        ui.set_uniform = tag(widgets.BoundedIntText(value=4, min=1, max=1000, style=style), "spec-set-uniform")
        ui.set_chips = tag(widgets.BoundedIntText(value=60, min=6, max=100_000, style=style), "spec-set-chips")
        ui.set_deals = tag(widgets.BoundedIntText(value=10, min=0, max=1000, style=style), "spec-set-deals")
        ui.set_mode = tag(
            widgets.ToggleButtons(options=[("-", m) for m in MODES], value="play", style=style), "spec-set-mode"
        )
        ui.set_you = tag(widgets.Dropdown(options=[("-", 0)], value=0, style=style), "spec-set-you")
        ui.set_temperament = tag(
            widgets.Dropdown(options=[("-", x) for x in TEMPERAMENT_CHOICES], value="mixed", style=style),
            "spec-set-temperament",
        )
        ui.set_lang = tag(
            widgets.Dropdown(options=[(x, x) for x in available_languages()], value="en", style=style), "spec-set-lang"
        )
        ui.apply = _button("spec-apply", "success")
        ui.set_note = tag(widgets.HTML(), "spec-settings-note")
        ui.set_group_table = tag(widgets.HTML(), "spec-settings-group")
        ui.set_group_variants = tag(widgets.HTML(), "spec-settings-group")
        ui.set_group_app = tag(widgets.HTML(), "spec-settings-group")
        ui.settings_grid = tag(
            widgets.GridBox(
                [
                    ui.set_players,
                    ui.set_preset,
                    ui.set_deals,
                    ui.set_chips,
                    ui.set_ante,
                    ui.set_uniform,
                ]
            ),
            "spec-settings-grid",
        )
        ui.variants_grid = tag(
            widgets.GridBox(
                [
                    ui.set_v1,
                    ui.set_v2,
                    ui.set_v3,
                    widgets.HBox([ui.set_v4, ui.set_cap]),
                    ui.set_hand,
                ]
            ),
            "spec-settings-grid",
        )
        ui.app_grid = tag(
            widgets.GridBox([ui.set_mode, ui.set_you, ui.set_temperament, ui.set_lang]), "spec-settings-grid"
        )
        ui.settings_body = widgets.VBox(
            [
                ui.set_group_table,
                ui.settings_grid,
                ui.names_box,
                ui.set_group_variants,
                ui.variants_grid,
                ui.apply,
                ui.set_note,
                ui.set_group_app,
                ui.app_grid,
            ]
        )
        ui.settings = widgets.Accordion(children=[ui.settings_body], selected_index=None)
        ui.settings.add_class("spec-settings")

        g = self._guard
        ui.apply.on_click(g(self._on_apply))
        ui.set_players.observe(g(self._on_settings_form), "value")
        ui.set_preset.observe(g(self._on_settings_form), "value")
        ui.set_ante.observe(g(self._on_settings_form), "value")
        ui.set_v4.observe(g(self._on_settings_form), "value")
        ui.set_hand.observe(g(self._on_settings_form), "value")
        ui.set_uniform.observe(g(self._on_settings_form), "value")
        for w in ui.set_names:
            w.observe(g(self._on_settings_form), "value")
        ui.set_mode.observe(g(self._on_mode), "value")
        ui.set_you.observe(g(self._on_mode), "value")
        ui.set_temperament.observe(g(self._on_temperament), "value")
        ui.set_lang.observe(g(self._on_lang), "value")

    # ---------------------------------------------------------------- guarding
    def _guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """Run a callback; turn any refusal or failure into a friendly line in the page."""

        @functools.wraps(fn)
        def handler(*args: Any) -> None:
            if self._busy:  # a trait set by refresh() itself, not by a person
                return
            try:
                fn(*args)
            except IllegalAction as error:
                self.last_error = error
                self.controller.notify(error_text(error, self.t, self.controller.names), "error")
            except Exception as error:  # never a traceback in the page
                self.last_error = error
                log.exception("speculation_nb app: a callback failed")
                self._fail(error)

        return handler

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` as a button would: refusals become the page's message line."""
        self._guard(lambda: fn(*args))()

    def _fail(self, error: BaseException) -> None:
        try:
            self.controller.notify(self.t("error.unexpected"), "error")
        except Exception:  # the refresh itself failed: say so directly
            log.exception("speculation_nb app: refresh failed")
            self._busy = False
            self.ui.message.value = _esc(translator("en")("error.unexpected"))

    def _on_change(self, _change: Any = None) -> None:
        try:
            self.refresh()
        except Exception as error:
            self.last_error = error
            log.exception("speculation_nb app: refresh failed")
            self._busy = False
            self.ui.message.value = _esc(self.t("error.unexpected"))
            _toggle_class(self.ui.message, "spec-message-error", True)

    # --------------------------------------------------------------- callbacks
    def _on_new_deal(self, _b: Any) -> None:
        text = self.ui.seed.value
        try:
            seed = parse_seed(text)
        except ValueError:
            self.controller.notify(self.t("error.bad_seed", text=text.strip()[:30]), "error")
            return
        result = self.controller.new_deal(seed)
        self._busy = True
        try:
            self.ui.seed.value = ""
        finally:
            self._busy = False
        if result == "session":
            self.controller.notify(self.t("status.new_session", seed=self.controller.session.seed), "ok")

    def _on_let_decide(self, _b: Any) -> None:
        c = self.controller
        c.let_holder_decide()
        # Say what the holder decided (the log says it too).
        for event in reversed(c.game.events):
            if event.kind in ("sale", "decline"):
                line = self._event_html(event, c.names, self.t) or ""
                c.notify(html.unescape(re.sub(r"<[^>]+>", "", line)), "ok")
                break

    def _on_timeline(self, change: Any) -> None:
        self.controller.go(change["new"])

    def _bid_seat(self) -> int:
        return self.controller.human if self.controller.mode == "play" else self.ui.bid_seat.value

    def _on_bid(self, _b: Any) -> None:
        self.controller.bid(self._bid_seat(), self.ui.bid_amount.value)

    def _on_bid_seat(self, _change: Any) -> None:
        self._busy = True
        try:
            self._refresh_bid_amount(self.controller.shown, self.controller.snapshot())
        finally:
            self._busy = False

    def _on_trade(self, _b: Any) -> None:
        ui = self.ui
        self.controller.blind_trade(
            ui.trade_buyer.value, ui.trade_seller.value, ui.trade_count.value, ui.trade_price.value
        )

    def _on_trade_parties(self, _change: Any) -> None:
        self._busy = True
        try:
            self._refresh_trade(self.controller.shown)
        finally:
            self._busy = False

    def _on_settings_form(self, _change: Any) -> None:
        self._busy = True
        try:
            self._refresh_settings_form()
        finally:
            self._busy = False

    def _on_mode(self, _change: Any) -> None:
        self._on_settings_form(None)
        self.controller.set_mode(self.ui.set_mode.value, self.ui.set_you.value)

    def _on_temperament(self, _change: Any) -> None:
        self.controller.temperament = self.ui.set_temperament.value
        self.controller.set_mode(self.controller.mode)

    def _on_lang(self, _change: Any) -> None:
        self.controller.set_lang(self.ui.set_lang.value)

    def settings_rules(self) -> Rules:
        """The :class:`Rules` the settings panel describes (raises ``ValueError`` if impossible)."""
        ui = self.ui
        hoyle = ui.set_preset.value == "hoyle1847"
        ante = "traditional" if hoyle else ui.set_ante.value
        return Rules(
            players=ui.set_players.value,
            hand_size=3 if hoyle else ui.set_hand.value,
            jack_five=False if hoyle else ui.set_v1.value,
            dead_hand=False if hoyle else ui.set_v2.value,
            blind_trading=False if hoyle else ui.set_v3.value,
            price_cap=(ui.set_cap.value if ui.set_v4.value and not hoyle else None),
            ante=ante,
            uniform_ante=ui.set_uniform.value
            if ante == "uniform"
            else Rules.__dataclass_fields__["uniform_ante"].default,
            start_chips=ui.set_chips.value,
            preset=ui.set_preset.value,
        )

    def _on_apply(self, _b: Any) -> None:
        ui = self.ui
        try:
            rules = self.settings_rules()
        except ValueError as error:
            self.controller.notify(self.t("error.settings", detail=str(error)), "error")
            return
        try:
            seed = parse_seed(ui.seed.value)
        except ValueError:
            self.controller.notify(self.t("error.bad_seed", text=ui.seed.value.strip()[:30]), "error")
            return
        names = [w.value for w in ui.set_names[: rules.players]]
        deals = ui.set_deals.value or None
        c = self.controller
        c.mode = ui.set_mode.value
        c.temperament = ui.set_temperament.value
        c.new_session(rules, names, deals, seed, human=ui.set_you.value)
        self._busy = True
        try:
            ui.seed.value = ""
            self._sync_settings_from_controller()
        finally:
            self._busy = False
        c.notify(self.t("status.new_session", seed=c.session.seed), "ok")

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        """Redraw every view from the controller (batched with ``hold_sync``)."""
        self._busy = True
        try:
            c = self.controller
            t = c.t
            game = c.shown
            snap = c.snapshot()
            with ExitStack() as stack:
                for w in (self.ui.timeline, self.ui.bid_amount, self.ui.bid_seat, self.ui.accept_seat):
                    stack.enter_context(w.hold_sync())
                self._refresh_texts(t)
                self._refresh_top(c, t)
                self._refresh_message(c, game, t)
                self._refresh_table(c, game, t)
                self._refresh_controls(c, game, t)
                self._refresh_auction(c, game, snap, t)
                self._refresh_trade(game)
                self._refresh_log(c, game, t)
                self._refresh_standings(c, t)
                self._refresh_odds(c, game, snap, t)
            self._refresh_charts(c, game, snap, t)
        finally:
            self._busy = False

    # -- the words that only change with the language
    def _refresh_texts(self, t: Translator) -> None:
        if getattr(self, "_texts_lang", None) == t.lang:
            return
        self._texts_lang = t.lang
        ui = self.ui
        ui.title.value = _esc(t("app.title"))
        buttons = {
            ui.next: ("button.next_card", "tooltip.next_card"),
            ui.play: ("button.play_to_end", "tooltip.play_to_end"),
            ui.back: ("button.back", "tooltip.back"),
            ui.forward: ("button.forward", "tooltip.forward"),
            ui.now: ("button.now", "tooltip.now"),
            ui.new_deal: ("button.new_deal", "tooltip.new_deal"),
            ui.bid: ("button.bid", "tooltip.bid"),
            ui.withdraw: ("button.withdraw", "tooltip.withdraw"),
            ui.accept: ("button.accept", "tooltip.accept"),
            ui.decline: ("button.decline", "tooltip.decline"),
            ui.trade: ("button.trade", "tooltip.trade"),
            ui.apply: ("button.apply", "tooltip.apply"),
        }
        for button, (label, tip) in buttons.items():
            _set(button, description=t(label), tooltip=t(tip))
        _set(ui.open_auction, tooltip=t("tooltip.open_auction"))
        _set(ui.let_decide, tooltip=t("tooltip.let_decide"))
        _set(ui.timeline, description_allow_html=False, tooltip=t("tooltip.timeline"))
        ui.seed.placeholder = t("label.seed_placeholder")
        ui.seed.tooltip = t("tooltip.seed")
        ui.seed.description = ""
        _set(ui.bid_seat, description=t("label.bidder"), tooltip=t("tooltip.bidder"))
        _set(ui.bid_amount, description=t("label.amount"), tooltip=t("tooltip.amount"))
        _set(ui.accept_seat, description=t("label.offer"), tooltip=t("tooltip.offer"))
        _set(ui.trade_buyer, description=t("label.buyer"), tooltip=t("tooltip.trade_buyer"))
        _set(ui.trade_seller, description=t("label.seller"), tooltip=t("tooltip.trade_seller"))
        _set(ui.trade_count, description=t("label.count"), tooltip=t("tooltip.trade_count"))
        _set(ui.trade_price, description=t("label.price"), tooltip=t("tooltip.trade_price"))
        ui.win_title.value = _esc(t("chart.win.title"))
        ui.hold_title.value = _esc(t("chart.hold.title"))
        # Settings.
        ui.settings.set_title(0, t("settings.title"))
        ui.set_group_table.value = _esc(t("settings.group.table"))
        ui.set_group_variants.value = _esc(t("settings.group.variants"))
        ui.set_group_app.value = _esc(t("settings.group.app"))
        ui.set_note.value = _esc(t("settings.note"))
        labels = {
            ui.set_players: ("settings.players", "tooltip.set_players"),
            ui.set_preset: ("settings.preset", "tooltip.set_preset"),
            ui.set_v1: ("settings.v1", "tooltip.set_v1"),
            ui.set_v2: ("settings.v2", "tooltip.set_v2"),
            ui.set_v3: ("settings.v3", "tooltip.set_v3"),
            ui.set_v4: ("settings.v4", "tooltip.set_v4"),
            ui.set_cap: ("settings.cap", "tooltip.set_cap"),
            ui.set_hand: ("settings.hand_size", "tooltip.set_hand"),
            ui.set_ante: ("settings.ante", "tooltip.set_ante"),
            ui.set_uniform: ("settings.uniform_ante", "tooltip.set_uniform"),
            ui.set_chips: ("settings.start_chips", "tooltip.set_chips"),
            ui.set_deals: ("settings.deals", "tooltip.set_deals"),
            ui.set_mode: ("settings.mode", "tooltip.set_mode"),
            ui.set_you: ("settings.you", "tooltip.set_you"),
            ui.set_temperament: ("settings.temperament", "tooltip.set_temperament"),
            ui.set_lang: ("settings.language", "tooltip.set_lang"),
        }
        for w, (label, tip) in labels.items():
            _set(w, description=t(label), tooltip=t(tip))
        for i, w in enumerate(ui.set_names):
            _set(w, description=t("settings.name", n=i + 1), tooltip=t("tooltip.set_name"))
        self._relabel(ui.set_preset, {p: t(f"preset.{p}") for p in PRESETS})
        self._relabel(ui.set_ante, {"traditional": t("ante.traditional"), "uniform": t("ante.uniform")})
        self._relabel(ui.set_mode, {m: t(f"mode.{m}") for m in MODES})
        ui.set_mode.tooltips = [t(f"tooltip.mode.{m}") for m in MODES]
        self._relabel(ui.set_temperament, {x: t(f"temperament.{x}") for x in TEMPERAMENT_CHOICES})
        self._relabel(ui.set_lang, {x: t.language_name(x) for x in available_languages()})

    @staticmethod
    def _relabel(w: widgets.Widget, labels: dict[Any, str]) -> None:
        value = w.value
        options = [(labels.get(v, str(v)), v) for _, v in w.options]
        if list(w.options) != options:
            with w.hold_sync():
                w.options = options
                w.value = value

    # -- top bar
    def _refresh_top(self, c: Controller, t: Translator) -> None:
        s = c.session
        game = c.game
        if s.deals:
            parts = [t("header.deal", number=s.deal_number, total=s.deals)]
        else:
            parts = [t("header.deal_open", number=s.deal_number)]
        parts.append(t("header.dealer", name=c.names[game.dealer]))
        parts.append(t("header.seed", seed=s.seed))
        if c.mode == "play":
            parts.append(t("header.play", name=c.names[c.human]))
        else:
            parts.append(t("header.classroom"))
        self.ui.deal_info.value = " · ".join(_esc(p) for p in parts)

    # -- the message line
    def _refresh_message(self, c: Controller, game: Any, t: Translator) -> None:
        kind = c.message_kind if c.message else "info"
        if c.message:
            text = c.message
        elif not c.live:
            text = t("status.past", k=c.moment, total=c.last)
            kind = "past"
        else:
            text = self._status(c, game, t)
            if game.over:
                kind = "ok"
        self.ui.message.value = _esc(text)
        _set(self.ui.message, tooltip=text)
        for k in ("error", "ok", "past"):
            _toggle_class(self.ui.message, f"spec-message-{k}", kind == k)

    def _status(self, c: Controller, game: Any, t: Translator) -> str:
        names = c.names
        s = c.session
        if s.over:
            best = s.standings()[0]
            return t("status.session_over", name=best.name, chips=t.number(best.stack))
        if game.over:
            if game.winner is None:
                return t("status.carried", pot=t.number(game.pot))
            return t("status.won", name=names[game.winner])
        if game.auction is not None:
            holder = game.holder
            if c.mode == "play" and holder != c.human:
                return t("status.auction_bid", name=names[holder])
            if c.mode == "play":
                return t("status.auction_yours")
            return t("status.auction_classroom", name=names[holder])
        return t("status.next", name=names[game.turn])

    # -- the table
    def _refresh_table(self, c: Controller, game: Any, t: Translator) -> None:
        names = list(c.names)
        if c.mode == "play":
            names[c.human] = t("seat.you", name=names[c.human])
        width = 54 if game.rules.players <= 5 else 46
        value = table_html(game, names, texts=t.render_texts(), card_width=width, number=t.number)
        if self.ui.table.value != value:
            self.ui.table.value = value
        _toggle_class(self.ui.table, "spec-table-past", not c.live)

    # -- step controls
    def _refresh_controls(self, c: Controller, game: Any, t: Translator) -> None:
        ui = self.ui
        live = c.live
        live_game = c.game
        can_step = live and live_game.can_reveal() and not c.session.over
        _set(ui.next, disabled=not can_step)
        _set(ui.play, disabled=not can_step)
        _set(ui.back, disabled=c.moment <= 0)
        _set(ui.forward, disabled=live)
        _set(ui.now, disabled=live)
        _toggle_class(ui.now, "spec-now-alert", not live)
        _set(ui.timeline, max=c.last, value=c.moment, disabled=c.last == 0)
        ui.timeline_label.value = _esc(t("timeline.label", k=c.moment, total=c.last))
        _set(ui.new_deal, disabled=False)

    # -- the auction
    def _refresh_auction(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> None:
        ui = self.ui
        names = c.names
        live = c.live
        auction = game.auction
        holder = game.holder
        person_holds = c.is_person(holder)
        can_open = (
            live
            and auction is None
            and not game.over
            and game.can_open_auction()
            and person_holds
            and not c.session.over
        )
        _show(ui.open_auction, can_open)
        _set(ui.open_auction, description=t("button.open_auction", card=str(game.best_trump)))
        _set(ui.let_decide, description=t("button.let_decide", name=names[holder]))
        open_ = auction is not None and not game.over
        for w in (ui.auction_title, ui.auction_table, ui.bid_row, ui.decide_row):
            _show(w, open_)
        _show(ui.charts, not open_)
        _show(ui.auction, can_open or open_)
        _toggle_class(ui.auction, "spec-auction-idle", not open_)
        if not open_:
            return
        turn_up = game.turn_up_auction
        title_key = "auction.title_turn_up" if turn_up else "auction.title"
        ui.auction_title.value = t.html(title_key, name=names[holder], card=card_html(game.best_trump, t))
        best = game.best_offer
        rows = [
            "<table><tr>"
            f"<th>{_esc(t('auction.col.seat'))}</th>"
            f"<th class='spec-num'>{_esc(t('auction.col.bid'))}</th>"
            f"<th class='spec-num' title='{_esc(t('tooltip.break_even'))}'>{_esc(t('auction.col.break_even'))}</th>"
            f"<th class='spec-num' title='{_esc(t('tooltip.seller_break_even'))}'>"
            f"{_esc(t('auction.col.seller', name=names[holder]))}</th></tr>"
        ]
        for seat in range(game.rules.players):
            if seat == holder:
                continue
            bid = auction.get(seat)
            cls = " class='spec-best-offer'" if seat == best else ""
            be = snap.break_even.get(seat)
            sbe = snap.seller_break_even.get(seat)
            rows.append(
                f"<tr{cls} data-seat='{seat}'><td>{_esc(names[seat])}</td>"
                f"<td class='spec-num spec-standing-bid'>{_esc(t.number(bid) if bid else '–')}</td>"
                f"<td class='spec-num spec-break-even'>{_esc(t.chips(be) if be is not None else '–')}</td>"
                f"<td class='spec-num spec-seller-break-even'>{_esc(t.chips(sbe) if sbe is not None else '–')}</td></tr>"
            )
        rows.append("</table>")
        ui.auction_table.value = "".join(rows)

        # Bidding: classroom, any seat that may bid; play, the person (not the holder).
        if c.mode == "classroom":
            seats = [s for s in range(game.rules.players) if s != holder]
            options = [(names[s], s) for s in seats]
            value = ui.bid_seat.value if ui.bid_seat.value in seats else (seats[0] if seats else 0)
            if list(ui.bid_seat.options) != options:
                ui.bid_seat.options = options
            ui.bid_seat.value = value
            _show(ui.bid_seat, True)
            can_bid_row = live
        else:
            _show(ui.bid_seat, False)
            can_bid_row = live and holder != c.human
        _show(ui.bid_row, can_bid_row)
        self._refresh_bid_amount(game, snap)

        # Deciding: the holder, when a person decides for it.
        acceptable = game.acceptable() if live else []
        if person_holds:
            options = [(t("auction.offer", name=names[s], amount=t.number(auction[s])), s) for s in acceptable]
            if not options:
                options = [(t("auction.no_offer"), -1)]
            if list(ui.accept_seat.options) != options:
                current = ui.accept_seat.value
                ui.accept_seat.options = options
                ui.accept_seat.value = current if current in [v for _, v in options] else options[0][1]
            _set(ui.accept_seat, disabled=not acceptable)
            _set(ui.accept, disabled=not acceptable)
            _set(ui.decline, disabled=not live)
        _show(ui.accept_seat, person_holds)
        _show(ui.accept, person_holds)
        _show(ui.decline, person_holds)
        let = c.mode == "play" and not person_holds
        _show(ui.let_decide, let)
        _set(ui.let_decide, disabled=not live)
        _show(ui.decide_row, live and (person_holds or let))

    def _refresh_bid_amount(self, game: Any, snap: Snapshot) -> None:
        ui = self.ui
        c = self.controller
        seat = self._bid_seat()
        span = game.bid_range(seat) if (c.live and game.auction is not None) else None
        standing = (game.auction or {}).get(seat)
        if span is None:
            _set(ui.bid_amount, disabled=True)
            _set(ui.bid, disabled=True)
        else:
            low, high = span
            be = snap.break_even.get(seat)
            suggestion = round_half_up(be) if be is not None else low
            value = min(max(ui.bid_amount.value, low), high)
            if value == low and suggestion > low:
                value = min(suggestion, high)
            with ui.bid_amount.hold_sync():
                # Widen first, so the value is never clamped by stale bounds.
                ui.bid_amount.max = max(high, ui.bid_amount.max)
                ui.bid_amount.min = min(low, ui.bid_amount.min)
                ui.bid_amount.value = value
                ui.bid_amount.min = low
                ui.bid_amount.max = high
                ui.bid_amount.disabled = False
            _set(ui.bid, disabled=False)
        _set(ui.withdraw, disabled=not (c.live and standing))

    # -- V3 trades
    def _refresh_trade(self, game: Any) -> None:
        ui = self.ui
        c = self.controller
        t = c.t
        show = c.live and game.rules.blind_trading and game.can_blind_trade() and not c.session.over
        _show(ui.trade_row, show)
        if not show:
            return
        names = c.names
        n = game.rules.players
        buyers = list(range(n))
        if c.mode == "play":
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
        ok = seller >= 0 and have >= 1 and stack >= 1
        with ui.trade_count.hold_sync():
            ui.trade_count.max = max(have, 1)
            ui.trade_count.value = min(max(ui.trade_count.value, 1), max(have, 1))
        with ui.trade_price.hold_sync():
            ui.trade_price.max = max(stack, 1)
            ui.trade_price.value = min(max(ui.trade_price.value, 1), max(stack, 1))
        _set(ui.trade_count, disabled=not ok)
        _set(ui.trade_price, disabled=not ok)
        _set(ui.trade, disabled=not ok, description=t("button.trade"))

    # -- the log
    def _refresh_log(self, c: Controller, game: Any, t: Translator) -> None:
        names = c.names
        events = c.game.events
        k = c.moment
        lines = []
        for event in events:
            if event["step"] > k:
                continue
            text = self._event_html(event, names, t)
            if text is None:
                continue
            cls = "spec-log-new" if event["step"] == k and k > 0 else ""
            lines.append(f'<li class="{cls}" data-step="{event["step"]}">{text}</li>')
        lines.reverse()
        self.ui.log.value = (
            f'<div class="spec-box-title">{_esc(t("label.log"))}</div>'
            f'<ol class="spec-log-lines" aria-live="polite">{"".join(lines)}</ol>'
        )

    def _event_html(self, e: dict, names: Sequence[str], t: Translator) -> str | None:
        kind = e["kind"]
        card = card_html(e["card"], t) if e.get("card") is not None else ""
        seat = e.get("seat")
        who = _name(names, seat)
        if kind == "ante":
            return t.html("log.ante", pot=t.number(e["pot"]))
        if kind == "turn_up":
            return t.html("log.turn_up", name=who, card=card, suit=t.suit_name(e["card"].suit))
        if kind == "jack_five":
            return t.html("log.jack_five", name=who, card=card)
        if kind == "ace_turn_up":
            return t.html("log.ace_turn_up", name=who, pot=t.number(e["pot"]))
        if kind == "reveal":
            return t.html("log.reveal", name=who, card=card)
        if kind == "new_best":
            return t.html("log.new_best", name=who, card=card)
        if kind == "auction_open":
            key = "log.auction_open_turn_up" if e.get("turn_up_auction") else "log.auction_open"
            return t.html(key, name=who, card=card)
        if kind == "bid":
            return t.html("log.bid", name=who, amount=t.number(e["amount"]))
        if kind == "withdraw":
            return t.html("log.withdraw", name=who)
        if kind == "sale":
            return t.html(
                "log.sale",
                seller=_name(names, e["seller"]),
                buyer=_name(names, e["buyer"]),
                card=card,
                chips=t.plural("unit.chips", e["price"]),
            )
        if kind == "decline":
            return t.html("log.decline", name=who)
        if kind == "blind_trade":
            return t.html(
                "log.blind_trade",
                buyer=_name(names, e["buyer"]),
                seller=_name(names, e["seller"]),
                cards=t.plural("unit.cards", e["count"]),
                chips=t.plural("unit.chips", e["price"]),
            )
        if kind == "holder_cards":
            cards = Safe(" ".join(card_html(x, t) for x in e["cards"]))
            return t.html("log.holder_cards", name=who, cards=cards)
        if kind == "dead_pile":
            cards = Safe(" ".join(card_html(x, t) for x in e["cards"]))
            return t.html("log.dead_pile", cards=cards)
        if kind == "win":
            return t.html("log.win", name=who, chips=t.plural("unit.chips", e["pot"]))
        if kind == "carry_over":
            key = "log.carry_over_hoyle" if str(e.get("rule", "")).startswith("hoyle") else "log.carry_over"
            return t.html(key, chips=t.plural("unit.chips", e["pot"]))
        return None

    # -- standings
    def _refresh_standings(self, c: Controller, t: Translator) -> None:
        s = c.session
        start = s.rules.start_chips
        rows = []
        for st in s.standings():
            diff = st.stack - start
            cls = "spec-up-chips" if diff > 0 else ("spec-down-chips" if diff < 0 else "")
            sign = "+" if diff > 0 else ("−" if diff < 0 else "±")
            lead = " class='spec-lead'" if st.place == 1 else ""
            rows.append(
                f"<tr{lead} data-seat='{st.seat}'><td>{_esc(t('standings.place', place=st.place))}</td><td>{_esc(st.name)}</td>"
                f"<td class='spec-num'>{_esc(t.number(st.stack))}</td>"
                f"<td class='spec-num {cls}'>{sign}{_esc(t.number(abs(diff)))}</td></tr>"
            )
        foot = f"<div><b>{_esc(t('standings.over'))}</b></div>" if s.over else ""
        self.ui.standings.value = (
            f'<div class="spec-box-title">{_esc(t("label.standings"))}</div><table>{"".join(rows)}</table>{foot}'
        )

    # -- the odds panel
    def _refresh_odds(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> None:
        ui = self.ui
        names = c.names
        best = game.best_trump
        holder = game.holder
        ui.hold_label.value = t.html("odds.label", card=card_html(best, t), name=names[holder])
        ui.hold_pct.value = _esc(t.percent(snap.hold))
        _toggle_class(ui.hold_pct, "spec-settled", game.over)
        fraction = snap.hold
        ui.hold_fraction.value = _esc(
            f"= {fraction.numerator}/{fraction.denominator}" if fraction.denominator != 1 else f"= {fraction.numerator}"
        )
        U, h, n = snap.U, snap.h, snap.n
        if game.over:  # O5: settled, no formula
            ui.hold_formula.value = _esc(t("odds.settled"))
            ui.hold_legend.value = ""
        else:
            ui.hold_formula.value = _esc(t("odds.formula", a=U - h, n=n, b=U))
            ui.hold_legend.value = _esc(t("odds.legend", U=U, h=h, n=n))
        _show(ui.hold_legend, not game.over)
        higher = [card_html(Card(r, game.trump), t) for r in range(best.rank + 1, 15)]
        if len(higher) > 5:  # 5♣ 6♣ … A♣
            higher = [*higher[:2], Safe("…"), higher[-1]]
        higher_html = Safe(" ".join(higher))
        if game.over:
            if game.winner is None:
                words = t.html("odds.words.over_carried")
            else:
                words = t.html("odds.words.over", card=card_html(best, t), name=names[game.winner])
        elif h == 0:
            words = t.html("odds.words.unbeatable", card=card_html(best, t))
        elif n == 0:
            words = t.html("odds.words.no_cards", card=card_html(best, t))
        else:
            words = t.html(
                "odds.words.live",
                card=card_html(best, t),
                higher=higher_html,
                trumps=t.plural("unit.higher_trumps", h),
                cards=t.plural("unit.cards_to_come", n),
            )
        ui.hold_words.value = words
        pot = snap.expected_pot
        pot_text = t.chips(pot) if pot.denominator == 1 else t("odds.about", value=t.chips(pot))
        ui.expected_pot.value = t.html("odds.expected_pot", value=Safe(f"<b>{_esc(pot_text)}</b>"))
        fair = round_half_up(snap.fair)
        ui.fair_price.value = t.html(
            t.plural_key("odds.fair_price", fair), value=Safe(f"<b>{_esc(t.number(fair))}</b>")
        )
        _set(ui.expected_pot, tooltip=t("tooltip.expected_pot", exact=str(pot)))
        _set(ui.fair_price, tooltip=t("tooltip.fair_price", exact=str(snap.fair)))

    def _refresh_charts(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> None:
        names = list(c.names)
        n = game.rules.players
        values = [snap.win.get(s, Fraction(0)) for s in range(n)]
        grey = None
        if game.rules.dead_hand or game.rules.hoyle or snap.win.get(None, 0):
            names.append(t("chart.win.carried"))
            values.append(snap.win.get(None, Fraction(0)))
            grey = n
        key = ("win", tuple(names), tuple(values), game.holder, t.lang)
        if getattr(self, "_win_key", None) != key:
            self._win_key = key
            self.win_chart.update(names, values, game.holder, t, grey=grey)
        # O1 over the deal.
        points = c.hold_points(c.last)
        shown = [p for p in points if p.k <= c.moment]
        later = [p for p in points if p.k > c.moment]
        if not shown or shown[-1].k != c.moment:
            shown.append(snap)
        xs = [p.reveals for p in shown]
        ys = [p.hold for p in shown]
        cards = []
        previous = None
        for p in shown:
            label = str(p.best) if (previous is None or p.best != previous) else None
            previous = p.best
            cards.append(label)
        # The x axis, fixed for the deal: every card the players could turn up.
        total = n * c.rules.hand_size
        hkey = ("hold", tuple(xs), tuple(ys), tuple(cards), tuple(p.k for p in later), t.lang)
        if getattr(self, "_hold_key", None) != hkey:
            self._hold_key = hkey
            self.hold_chart.update(xs, ys, cards, ([p.reveals for p in later], [p.hold for p in later]), t, total)

    # ---------------------------------------------------------------- settings
    def _sync_settings_from_controller(self) -> None:
        ui = self.ui
        c = self.controller
        r = c.rules
        was = self._busy
        self._busy = True
        try:
            ui.set_players.value = r.players
            for i, w in enumerate(ui.set_names):
                w.value = c.names[i] if i < r.players else (w.value or DEFAULT_NAMES[i])
            ui.set_preset.value = r.preset
            ui.set_v1.value = r.jack_five
            ui.set_v2.value = r.dead_hand
            ui.set_v3.value = r.blind_trading
            ui.set_v4.value = r.price_cap is not None
            if r.price_cap is not None:
                ui.set_cap.value = r.price_cap
            ui.set_hand.value = r.hand_size
            ui.set_ante.value = r.ante
            ui.set_uniform.value = r.uniform_ante
            ui.set_chips.min = 1
            ui.set_chips.value = r.start_chips
            ui.set_deals.value = c.session.deals or 0
            ui.set_mode.value = c.mode
            ui.set_temperament.value = c.temperament
            ui.set_lang.value = c.lang
            self._refresh_settings_form()
            ui.set_you.value = c.human
        finally:
            self._busy = was

    def _refresh_settings_form(self) -> None:
        """Keep the settings form consistent: no impossible combination can be applied."""
        ui = self.ui
        n = ui.set_players.value
        for i, w in enumerate(ui.set_names):
            _show(w, i < n)
        hoyle = ui.set_preset.value == "hoyle1847"
        for w in (ui.set_v1, ui.set_v2, ui.set_v3, ui.set_v4, ui.set_hand, ui.set_ante):
            w.disabled = hoyle
        ui.set_cap.disabled = hoyle or not ui.set_v4.value
        ui.set_uniform.disabled = hoyle or ui.set_ante.value != "uniform"
        # The smallest starting stack that pays the largest ante (S1).
        try:
            probe = Rules(
                players=n,
                hand_size=3 if hoyle else ui.set_hand.value,
                ante="traditional" if hoyle else ui.set_ante.value,
                uniform_ante=ui.set_uniform.value,
                start_chips=100_000,
                preset=ui.set_preset.value,
            )
            least = max(probe.dealer_ante, probe.player_ante)
        except ValueError:
            least = 1
        if ui.set_chips.value < least:
            ui.set_chips.value = least
        ui.set_chips.min = least
        options = [(ui.set_names[i].value.strip() or DEFAULT_NAMES[i], i) for i in range(n)]
        if list(ui.set_you.options) != options:
            current = ui.set_you.value
            with ui.set_you.hold_sync():
                ui.set_you.options = options
                ui.set_you.value = current if current is not None and current < n else 0
        ui.set_you.disabled = ui.set_mode.value != "play"
        ui.set_temperament.disabled = ui.set_mode.value != "play"


def app(**kwargs: Any) -> SpeculationApp:
    """``app(players=4, seed=7, lang="en")``: a :class:`SpeculationApp` (same arguments)."""
    return SpeculationApp(**kwargs)


def query_settings(query: str | None = None) -> dict[str, Any]:
    """App settings from a page's query string (``?lang=de&seed=42&mode=classroom``).

    Read from ``query``, or else from the page's own address
    (:func:`~speculation_nb.widgets.page_address.page_query`). Unknown or malformed
    values are ignored.
    """
    from urllib.parse import parse_qs

    if query is None:
        query = page_query()
    params = {k: v[-1] for k, v in parse_qs(query or "", keep_blank_values=False).items() if v}
    out: dict[str, Any] = {}
    lang = params.get("lang", "").strip().replace("-", "_")
    if lang in available_languages():
        out["lang"] = lang
    elif lang.split("_")[0].lower() in available_languages():  # "de_AT", "pt-BR", "IT"
        out["lang"] = lang.split("_")[0].lower()
    if params.get("mode") in MODES:
        out["mode"] = params["mode"]
    if params.get("cast") == "mansfield":  # the novel's card party, chapter 7
        out["temperament"] = "mansfield"
        out.setdefault("players", 6)
    if params.get("charts") in ("auto", "ipympl", "static"):
        out["charts"] = params["charts"]
    try:
        seed = parse_seed(params.get("seed"))
        if seed is not None:
            out["seed"] = seed
    except ValueError:
        pass
    players = params.get("players", "")
    if players.isdigit() and 3 <= int(players) <= 8:
        out["players"] = int(players)
    return out


def from_request(query: str | None = None, **kwargs: Any) -> SpeculationApp:
    """The app as the Voila page asks for it: :func:`query_settings`, then ``kwargs``."""
    settings = query_settings(query)
    settings.update(kwargs)
    return SpeculationApp(**settings)
