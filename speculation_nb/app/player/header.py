"""The top of the app: the title bar, the headline, the message line, and starting a new session.

* The title bar: the deal and its dealer, the seed, the mode; the seed field and
  "New session…". While a shared table holds the game (``Controller.mode_held``) neither the
  seed nor its field is shown and a new session's seed is secret: the table deals from it.
  A new session throws the standings away, so once anything has
  happened it asks first (the confirm row, a :class:`.confirm.ConfirmRow`); Enter in the
  seed field is the same.
* The headline (``spec-headline``): trump, best trump and its holder, the pot, in one
  line; the CSS shows it on narrow screens, where the table's own header is lower down.
* The message line (``spec-message``): the last result, refusal or computer action.

While a shared table shows a question deal (issue 25) all three tell of it, not of the session's deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.checks import MAX_SEED, parse_seed
from ...languages.translator import Safe, Translator
from ..common.confirm import ConfirmRow
from ..common.parts import Shell, bidi, button, card_html, esc, html_widget, set_traits, show, toggle_class
from ..model import Controller, Snapshot

__all__ = ["HeaderView"]


class HeaderView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        ui.title = html_widget("spec-title")
        ui.deal_info = html_widget("spec-deal-info")
        ui.seed = widgets.Text()
        ui.seed.add_class("spec-seed")
        ui.new_session = button("spec-new-session", "warning")
        ui.topbar = widgets.HBox([ui.title, ui.deal_info, ui.seed, ui.new_session])
        ui.topbar.add_class("spec-topbar")
        ui.headline = html_widget("spec-headline")
        ui.message = html_widget("spec-message")
        self.row = ConfirmRow("spec-confirm", app.guard)
        ui.confirm, ui.confirm_text, ui.confirm_yes, ui.confirm_no = self.row.widgets
        self.widgets = [ui.topbar, ui.headline, ui.message, ui.confirm]

        g = app.guard
        ui.new_session.on_click(g(lambda _b: self.ask_new_session()))
        ui.seed.on_msg(g(self._on_seed_msg))

    # ------------------------------------------------------------ a new session
    def _on_seed_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # Enter in the seed field
            self.ask_new_session()

    def ask_new_session(self) -> None:
        """ "New session…" or Enter in the seed field: a new session of these settings from the
        seed typed (none: a random one), once the seed is a seed and the person agrees."""
        c = self.app.controller
        text = "" if c.mode_held else self.app.ui.seed.value  # a shared table's seed is secret
        try:
            seed = parse_seed(text)
        except ValueError:
            digits = text.strip().replace("_", "").replace(" ", "")
            if digits.isascii() and digits.isdigit():  # a whole number, only too large (5,000 digits)
                c.notify(c.t("error.seed_too_large", text=digits[:12] + "…", most=c.t.number(MAX_SEED)), "error")
            else:
                c.notify(c.t("error.bad_seed", text=text.strip()[:30]), "error")
            return
        self.ask(lambda: c.new_session(c.rules, c.session.names, c.session.deals, seed))

    def ask(self, start: Callable[[], None]) -> None:
        """Start a new session with ``start()``: at once while nothing has happened yet that it
        would throw away, else once the person confirms (the confirm row)."""
        c = self.app.controller
        if not c.started:
            self.row.drop()
            self._start(start)
            return
        self.row.ask(lambda: self._start(start), self._cancelled)
        c.notify(c.t("status.confirm_asked"), "info")

    def confirmed(self) -> None:
        """The confirm row's "Start a new session" (a stale click, with nothing asked, does nothing)."""
        self.row.answer(True)

    def cancel(self) -> None:
        """The confirm row's "Cancel": the session goes on."""
        self.row.answer(False)

    def _start(self, start: Callable[[], None]) -> None:
        c = self.app.controller
        start()
        with self.app.quietly():
            self.app.ui.seed.value = ""
        if c.mode_held:  # at a shared table the seed stays secret until it closes (issue 27)
            said = c.t("class.host.new_session_secret")
        else:
            said = c.t("status.new_session", seed=c.session.seed)
        if c.game.over:  # an Ace turned up: the first deal is over before it began (S5)
            said = f"{said} {status(c, c.game, c.t)}"
        c.notify(said, "ok")

    def _cancelled(self) -> None:
        c = self.app.controller
        c.notify(c.t("status.confirm_cancelled"), "info")

    @property
    def asking(self) -> bool:
        return self.row.asking

    # ------------------------------------------------------------------ refresh
    def texts(self, t: Translator) -> None:
        ui = self.app.ui
        ui.title.value = esc(t("app.title"))
        set_traits(ui.new_session, description=t("button.new_session"), tooltip=t("tooltip.new_session"))
        self.row.words(
            t("status.confirm_new_session"),
            yes=t("button.confirm_new_session"),
            yes_tip=t("tooltip.confirm_yes"),
            no=t("button.cancel"),
            no_tip=t("tooltip.confirm_no"),
        )
        set_traits(ui.seed, placeholder=t("label.seed_placeholder"), tooltip=t("tooltip.seed_enter"), description="")

    def refresh(self, c: Controller, game: Any, t: Translator, snap: Snapshot | None = None) -> None:
        ui = self.app.ui
        s = c.session
        if c.question is not None:  # a question deal (issue 25): not a deal of the session
            parts = [t("header.question")]
        elif s.deals:
            parts = [t("header.deal", number=s.deal_number, total=s.deals)]
        else:
            parts = [t("header.deal_open", number=s.deal_number)]
        parts.append(t("header.dealer", name=c.names[game.dealer]))
        if not c.mode_held:  # a shared table deals from a secret seed: shown, it rebuilds the hidden cards
            parts.append(t("header.seed", seed=s.seed))
        show(ui.seed, not c.mode_held)
        parts.append(t("header.play", name=c.names[c.human]) if c.mode == "play" else t("header.classroom"))
        ui.deal_info.value = " · ".join(esc(p) for p in parts)
        holder = game.holder
        ui.headline.value = t.html(
            "header.headline",
            suit=t.suit_name(game.trump),
            turn_up=card_html(game.turn_up, t),
            card=card_html(game.best_trump, t),
            name=bidi(c.names[holder]),
            pot=t.number(game.pot),
        )
        if snap is not None:  # on a phone, the chance and the fair price on the first screen
            fair = snap.odds.prices.fair
            chance = t.html(
                t.plural_key("header.headline_chance", fair),
                card=card_html(game.best_trump, t),
                pct=Safe(f"<b class='spec-headline-pct'>{esc(t.percent(snap.odds.hold))}</b>"),
                fair=Safe(f"<b>{esc(t.number(fair))}</b>"),
            )
            ui.headline.value = Safe(f"{ui.headline.value}<br>{chance}")
        self.message(c, game, t)

    def message(self, c: Controller, game: Any, t: Translator) -> None:
        ui = self.app.ui
        kind = c.message_kind if c.message else "info"
        if c.message:
            text = c.message
        elif c.question is not None:
            text, kind = t("status.question"), "past"
        elif not c.live:
            text = t("status.past", k=c.moment, total=c.last)
            kind = "past"
        else:
            text = status(c, game, t)
            if game.over:
                kind = "ok"
        ui.message.value = esc(text)
        set_traits(ui.message, tooltip=text)
        for k in ("error", "ok", "past", "auto"):
            toggle_class(ui.message, f"spec-message-{k}", kind == k)


def status(c: Controller, game: Any, t: Translator) -> str:
    """What the table waits for, in one line."""
    names = c.names
    s = c.session
    if s.over:
        best = s.standings()[0]
        return t("status.session_over", name=names[best.seat], chips=t.number(best.stack))
    if game.over:
        if game.winner is None:
            return t("status.carried", pot=t.number(game.pot))
        if game.reveals == 0 and game.end_rule == "S5":  # an Ace turned up: over before it began
            return t("status.ace_turn_up", name=names[game.winner], pot=t.number(game.pot))
        return t("status.won", name=names[game.winner])
    if c.acting:
        return t("status.computers_acting")
    if game.auction is not None:
        holder = game.holder
        if c.mode == "play" and holder != c.human:
            return t("status.auction_bid", name=names[holder])
        if c.mode == "play":
            return t("status.auction_yours")
        return t("status.auction_classroom", name=names[holder])
    return t("status.next", name=names[game.turn])
