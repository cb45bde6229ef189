"""The auction (P1, P2, V4): the holder offers the best trump for sale, the others bid,
the holder sells to one of them or declines.

Only the offer button exists at first (the app puts it by the step controls); the
rest is built the first time an auction opens (the first view is quicker to show).
While an auction is open it takes the charts' place in the odds panel, so that the
numbers to decide by stay in view:

* the table of bids with each bidder's break-even (the most that buyer should pay) and, only
  when its whole number differs from it for some bidder, the seller's break-even (the least the
  holder should take), every price as :class:`~speculation_nb.odds.Prices` shows it (whole
  chips, half up, RULES.md O4); under it the line that defines those terms (the same terms as
  the headers) and the one sentence saying why the break-even can sit below the fair price
  shown above;
* the bid row: the bidder (classroom mode), the amount, Bid, Withdraw. A bid is sent as
  typed: the rules refuse one they do not allow, and the message line says why
  (above your stack, not above your own bid, above the price cap); it is never changed;
* the decision row: the offer to accept, defaulting to the best offer, and a button that
  says it all ("Sell to William for 20"); Decline; in play mode, when a computer player
  holds, "Let ... decide".
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.errors import IllegalAction
from ...languages.translator import Safe, Translator
from ...odds import shown_chips
from ..common.parts import (
    NumberField,
    Shell,
    bidi,
    button,
    card_html,
    esc,
    html_widget,
    set_traits,
    show,
    toggle_class,
    word_buttons,
)
from ..model import Controller, Snapshot

__all__ = ["AuctionPanel", "BidAmount"]

#: The names of the widgets built on first use.
LAZY = (
    "auction_title",
    "auction_table",
    "price_note",
    "bid_seat",
    "bid_amount",
    "bid_hint",
    "bid",
    "withdraw",
    "bid_row",
    "accept_seat",
    "accept",
    "decline",
    "let_decide",
    "decide_row",
)


class BidAmount(NumberField):
    """The amount field (see :class:`.parts.NumberField`): ``min`` and ``max`` are the bid range."""


class AuctionPanel:
    """The auction's widgets (see the module docstring); the auction's value, as everyone sees it,
    is :class:`~speculation_nb.odds.moment.AuctionView`."""

    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        ui.open_auction = button("spec-open-auction", "warning")  # the app puts it by the step controls
        ui.auction = widgets.VBox([])
        ui.auction.add_class("spec-auction")
        self.widget = ui.auction
        self.built = False
        self._offers: Any = None
        self._span: Any = None
        ui.lazy(LAZY, self.build)
        ui.open_auction.on_click(app.guard(lambda _b: app.controller.open_auction()))

    def build(self) -> None:
        if self.built:
            return
        self.built = True
        ui = self.app.ui
        g = self.app.guard
        c = self.app.controller
        ui.auction_title = html_widget("spec-auction-title")
        ui.auction_table = html_widget("spec-auction-table")
        ui.price_note = html_widget("spec-price-note")
        ui.bid_seat = widgets.Dropdown(options=[("-", 0)], value=0, style={"description_width": "auto"})
        ui.bid_seat.add_class("spec-bid-seat")
        ui.bid_amount = BidAmount(value=1, style={"description_width": "auto"})
        ui.bid_amount.add_class("spec-bid-amount")
        ui.bid = button("spec-bid", "primary")
        ui.withdraw = button("spec-withdraw")
        ui.bid_hint = html_widget("spec-bid-hint")
        ui.bid_row = widgets.HBox([ui.bid_seat, ui.bid_amount, ui.bid, ui.withdraw, ui.bid_hint])
        ui.bid_row.add_class("spec-bid-row")
        ui.accept_seat = widgets.Dropdown(options=[("-", -1)], value=-1, style={"description_width": "auto"})
        ui.accept_seat.add_class("spec-accept-seat")
        ui.accept = button("spec-accept", "success")
        ui.decline = button("spec-decline", "danger")
        ui.let_decide = button("spec-let-decide", "info")
        ui.decide_row = widgets.HBox([ui.accept_seat, ui.accept, ui.decline, ui.let_decide])
        ui.decide_row.add_class("spec-decide-row")
        ui.auction.children = [
            ui.auction_title,
            ui.auction_table,
            ui.price_note,
            ui.bid_row,
            ui.decide_row,
        ]
        ui.bid.on_click(g(lambda _b: self._bid()))
        ui.withdraw.on_click(g(lambda _b: c.withdraw(self.bid_seat())))
        ui.bid_seat.observe(g(lambda _ch: self._refresh_bid(c.shown, c.snapshot(), c.t)), "value")
        ui.accept.on_click(g(lambda _b: c.accept(ui.accept_seat.value)))
        ui.accept_seat.observe(g(lambda _ch: self._refresh_accept_label(c, c.shown, c.t)), "value")
        ui.decline.on_click(g(lambda _b: c.decline()))
        ui.let_decide.on_click(g(lambda _b: self._let_decide()))
        self.texts(c.t)

    # ----------------------------------------------------------------- actions
    def bid_seat(self) -> int:
        c = self.app.controller
        return c.human if c.mode == "play" else int(self.app.ui.bid_seat.value)

    def _bid(self) -> None:
        amount = self.app.ui.bid_amount.value
        if amount is None or amount < 1:  # 0 would withdraw: a typed bid is a bid
            raise IllegalAction("P2", "bid_below_one", f"a bid is at least 1 chip, not {amount}", amount=amount)
        self.app.controller.bid(self.bid_seat(), amount)

    def _let_decide(self) -> None:
        self.app.controller.let_holder_decide()  # the message line says what the holder decided, and why

    # ------------------------------------------------------------------ refresh
    def texts(self, t: Translator) -> None:
        ui = self.app.ui
        set_traits(ui.open_auction, tooltip=t("tooltip.open_auction"))
        if not self.built:
            return
        word_buttons(
            t,
            [
                (ui.bid, "button.bid", "tooltip.bid"),
                (ui.withdraw, "button.withdraw", "tooltip.withdraw"),
                (ui.decline, "button.decline", "tooltip.decline"),
                (ui.accept, "button.accept", "tooltip.accept"),
                (ui.bid_seat, "label.bidder", "tooltip.bidder"),
                (ui.bid_amount, "label.amount", "tooltip.amount"),
                (ui.accept_seat, "label.offer", "tooltip.offer"),
            ],
        )
        holder = self.app.controller.names[self.app.controller.game.holder]
        set_traits(ui.let_decide, description=t("button.let_decide", name=holder), tooltip=t("tooltip.let_decide"))
        self._offers = None

    def refresh(self, c: Controller, game: Any, snap: Snapshot, t: Translator) -> bool:
        """Redraw; returns True while an auction is open (the charts then make room)."""
        ui = self.app.ui
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
            and not c.acting
        )
        show(ui.open_auction, can_open)
        set_traits(ui.open_auction, description=t("button.open_auction", card=str(game.best_trump)))
        open_ = auction is not None and not game.over
        show(ui.auction, open_)
        toggle_class(ui.auction, "spec-auction-idle", not open_)
        if not open_ and not self.built:
            return False
        self.build()
        for w in (ui.auction_title, ui.auction_table, ui.price_note, ui.bid_row, ui.decide_row):
            show(w, open_)
        if not open_:
            return False
        title_key = "auction.title_turn_up" if game.turn_up_auction else "auction.title"
        ui.auction_title.value = t.html(title_key, name=bidi(names[holder]), card=card_html(game.best_trump, t))
        ui.auction_table.value = self._table(c, game, snap, t)
        ui.price_note.value = self._note(snap, names[holder], t)

        # Bidding: classroom, any seat but the holder; play, the person (not the holder).
        if c.mode == "classroom":
            seats = [s for s in range(game.rules.players) if s != holder]
            options = [(names[s], s) for s in seats]
            value = ui.bid_seat.value if ui.bid_seat.value in seats else (seats[0] if seats else 0)
            with ui.bid_seat.hold_sync():
                if list(ui.bid_seat.options) != options:
                    ui.bid_seat.options = options
                ui.bid_seat.value = value
            show(ui.bid_seat, True)
            can_bid_row = live
        else:
            show(ui.bid_seat, False)
            can_bid_row = live and holder != c.human
        show(ui.bid_row, can_bid_row)
        self._refresh_bid(game, snap, t)

        # Deciding: the holder, when a person decides for it; the best offer first.
        acceptable = game.acceptable() if live else []
        if person_holds:
            best = game.best_offer
            order = sorted(acceptable, key=lambda s: (s != best, -auction[s]))
            options = [(t("auction.offer", name=names[s], amount=t.number(auction[s])), s) for s in order]
            if not options:
                options = [(t("auction.no_offer"), -1)]
            key = tuple(options)
            with ui.accept_seat.hold_sync():
                if key != self._offers:  # the offers changed: the best one is selected again
                    self._offers = key
                    ui.accept_seat.options = options
                    ui.accept_seat.value = options[0][1]
            set_traits(ui.accept_seat, disabled=not acceptable)
            set_traits(ui.accept, disabled=not acceptable)
            set_traits(ui.decline, disabled=not live or c.acting)
            self._refresh_accept_label(c, game, t)
        for w in (ui.accept_seat, ui.accept, ui.decline):
            show(w, person_holds)
        let = not person_holds  # play mode, or a computer seat of the shared table holds
        show(ui.let_decide, let)
        set_traits(ui.let_decide, description=t("button.let_decide", name=names[holder]), disabled=not live or c.acting)
        show(ui.decide_row, live and (person_holds or let))
        return True

    @staticmethod
    def _note(snap: Snapshot, seller: str, t: Translator) -> Safe:
        """What the table's prices mean (each term defined once, as the headers name it) and why
        the break-even can sit below the fair price."""
        lines = [t.html("auction.price_note")]
        if snap.odds.prices.seller_differs():
            lines.append(t.html("auction.seller_note", seller=bidi(seller)))
        lines.append(t.html("odds.why_below"))
        return Safe("".join(f"<div>{line}</div>" for line in lines))

    @staticmethod
    def _table(c: Controller, game: Any, snap: Snapshot, t: Translator) -> str:
        names = c.names
        holder = game.holder
        auction = game.auction or {}
        best = game.best_offer
        prices = snap.odds.prices
        seller = prices.seller_differs()  # the seller's column only where it tells something
        head = [
            f"<th>{esc(t('auction.col.seat'))}</th>",
            f"<th class='spec-num'>{esc(t('auction.col.bid'))}</th>",
            f"<th class='spec-num' title='{esc(t('tooltip.break_even'))}'>{esc(t('auction.col.break_even'))}</th>",
        ]
        if seller:
            tip = esc(t("tooltip.seller_break_even"))
            head.append(f"<th class='spec-num' title='{tip}'>{esc(t('auction.col.seller'))}</th>")
        rows = [f"<table><tr>{''.join(head)}</tr>"]
        for seat in range(game.rules.players):
            if seat == holder:
                continue
            bid = auction.get(seat)
            cls = " class='spec-best-offer'" if seat == best else ""
            be = prices.break_even.get(seat)
            cells = [
                f"<td>{bidi(names[seat])}</td>",
                f"<td class='spec-num spec-standing-bid'>{esc(t.number(bid) if bid else '–')}</td>",
                f"<td class='spec-num spec-break-even'>{esc(t.number(be) if be is not None else '–')}</td>",
            ]
            if seller:
                sbe = prices.seller_break_even.get(seat)
                cells.append(
                    f"<td class='spec-num spec-seller-break-even'>{esc(t.number(sbe) if sbe is not None else '–')}</td>"
                )
            rows.append(f"<tr{cls} data-seat='{seat}'>{''.join(cells)}</tr>")
        rows.append("</table>")
        return "".join(rows)

    def _refresh_accept_label(self, c: Controller, game: Any, t: Translator) -> None:
        ui = self.app.ui
        seat = ui.accept_seat.value
        auction = game.auction or {}
        if isinstance(seat, int) and seat in auction:
            label = t("button.sell_to", name=c.names[seat], amount=t.number(auction[seat]))
        else:
            label = t("button.accept")
        set_traits(ui.accept, description=label)

    def _refresh_bid(self, game: Any, snap: Snapshot, t: Translator) -> None:
        ui = self.app.ui
        c = self.app.controller
        seat = self.bid_seat()
        span = game.bid_range(seat) if (c.live and game.auction is not None and not c.acting) else None
        standing = (game.auction or {}).get(seat)
        if span is None:
            set_traits(ui.bid_amount, disabled=True)
            set_traits(ui.bid, disabled=True)
            ui.bid_hint.value = ""
        else:
            low, high = span
            key = (c.session.deal_number, len(game.history), seat)
            if key != self._span:  # a new moment or bidder: suggest the break-even (never clamp a typed bid)
                self._span = key
                be = snap.odds.break_even.get(seat)
                suggestion = shown_chips(be) if be is not None else low
                with self.app.quietly():
                    set_traits(ui.bid_amount, value=min(max(suggestion, low), high), min=low, max=high)
            set_traits(ui.bid_amount, disabled=False)
            set_traits(ui.bid, disabled=False)
            ui.bid_hint.value = esc(t("auction.bid_range", low=t.number(low), high=t.number(high)))
        set_traits(ui.withdraw, disabled=not (c.live and standing) or c.acting)
