"""The controls of the student's page at a shared table (:class:`.member_app.MemberApp`).

* :func:`build_controls` makes the widgets, into ``ui`` (named as their CSS class without
  ``spec-``, dashes as underscores), and lays them out: the join form and the table;
* :func:`word_controls` gives them their words;
* :func:`draw_actions` shows the buttons a seat may press at a moment (T3), and the hint.

The page wires them to its requests and draws the rest (:mod:`.member_view`).

CSS classes (for tests and styles; the widgets are in ``app.ui`` under the name without ``spec-``,
dashes as underscores): the root ``spec-app spec-member`` (+ ``spec-member-embedded`` in place of
the app), ``spec-member-top`` (``spec-member-title`` with ``spec-member-code-tag``,
``spec-member-slot`` holding ``spec-member-leave``), ``spec-message``, ``spec-device-memory``;
the form ``spec-member-join-box``: ``spec-member-code``, ``spec-member-look``,
``spec-member-name``, ``spec-member-seat``, ``spec-member-join``; the table
``spec-member-table-box``: ``spec-member-banner``, ``spec-member-you`` (``spec-member-who`` and
the last event, ``spec-member-last``), ``spec-member-actions`` (``spec-member-hint``,
``spec-member-next``, ``spec-member-offer``,
``spec-member-bid-row`` with ``spec-member-bid-amount``, ``spec-member-bid``,
``spec-member-withdraw``, and the holder's ``spec-member-sell`` (+ ``spec-member-sell-<i>``) and
``spec-member-decline``), ``spec-member-poll`` (``spec-member-poll-question``,
``spec-member-poll-price``, ``spec-member-poll-answer``) and ``spec-member-table``, one widget
holding ``spec-member-board`` (the app's ``spec-table``) and ``spec-member-side``: ``spec-member-odds``
(``spec-member-hold``, ``spec-member-win`` rows
``li[data-seat]``, ``spec-member-expected-pot``, ``spec-member-fair``, ``spec-member-break-even``)
and ``spec-member-seats`` (rows ``li[data-seat][data-kind]``). The key N presses Next card.
"""

from __future__ import annotations

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.moment import Moment
from ...engine.legality import LegalActions
from ...languages.translator import Translator
from ..common.parts import UI, NumberField, button, esc, html_widget, set_traits, show, word_buttons

__all__ = ["MAX_SEATS", "WATCH", "build_controls", "draw_actions", "word_controls"]

#: Most sellers a holder may choose between at once (one button each): the largest table.
MAX_SEATS = 16
WATCH = -1  # the seat choice "Watch" (a Dropdown value cannot be None in every front end)


def build_controls(ui: UI, t: Translator) -> None:
    """The page's widgets, into ``ui``: the top bar (``member_top``), the message line, the join
    form (``member_join_box``) and the table (``member_table_box``)."""
    ui.member_title = html_widget("spec-member-title")
    ui.member_slot = widgets.HBox([])  # join_in_place puts "Leave the table" here
    ui.member_slot.add_class("spec-member-slot")
    ui.member_top = widgets.HBox([ui.member_title, ui.member_slot])
    ui.member_top.add_class("spec-topbar")
    ui.member_top.add_class("spec-member-top")
    ui.message = html_widget("spec-message")
    # The join form.
    ui.member_intro = html_widget("spec-member-intro", esc(t("class.member.intro")))
    ui.member_code = widgets.Text(description=t("class.member.code"), placeholder=t("class.member.code_placeholder"))
    ui.member_code.add_class("spec-member-code")
    ui.member_look = button("spec-member-look")
    ui.member_name = widgets.Text(description=t("class.member.name"), placeholder=t("class.member.name_placeholder"))
    ui.member_name.add_class("spec-member-name")
    ui.member_seat = widgets.Dropdown(description=t("class.member.seat"), options=[(t("class.member.watch"), WATCH)])
    ui.member_seat.add_class("spec-member-seat")
    ui.member_join = button("spec-member-join", "primary")
    for w in (ui.member_code, ui.member_name, ui.member_seat):
        w.style.description_width = "initial"
    code_row = widgets.HBox([ui.member_code, ui.member_look])
    code_row.add_class("spec-member-row")
    ui.member_join_box = widgets.VBox([ui.member_intro, code_row, ui.member_name, ui.member_seat, ui.member_join])
    ui.member_join_box.add_class("spec-member-join-box")
    # The table.
    ui.member_banner = html_widget("spec-member-banner")
    ui.member_you = html_widget("spec-member-you")  # who, the step, and the last event
    ui.member_hint = html_widget("spec-member-hint")
    ui.member_next = button("spec-member-next", "primary")
    ui.member_offer = button("spec-member-offer", "warning")
    ui.member_bid_amount = NumberField(description=t("class.member.bid_label"))
    ui.member_bid_amount.add_class("spec-member-bid-amount")
    ui.member_bid_amount.style.description_width = "initial"
    ui.member_bid = button("spec-member-bid", "primary")
    ui.member_withdraw = button("spec-member-withdraw")
    ui.member_bid_row = widgets.HBox([ui.member_bid_amount, ui.member_bid, ui.member_withdraw])
    ui.member_bid_row.add_class("spec-member-row")
    ui.member_sell = [button("spec-member-sell", "success") for _ in range(MAX_SEATS)]
    for i, b in enumerate(ui.member_sell):
        b.add_class(f"spec-member-sell-{i}")
    ui.member_decline = button("spec-member-decline")
    ui.member_decide_row = widgets.HBox([*ui.member_sell, ui.member_decline])
    ui.member_decide_row.add_class("spec-member-row")
    ui.member_actions = widgets.VBox(
        [ui.member_hint, ui.member_next, ui.member_offer, ui.member_bid_row, ui.member_decide_row]
    )
    ui.member_actions.add_class("spec-member-actions")
    ui.member_poll_question = html_widget("spec-member-poll-question")
    ui.member_poll_price = NumberField(description=t("class.member.poll_price"), min=0, max=10**9)
    ui.member_poll_price.add_class("spec-member-poll-price")
    ui.member_poll_price.style.description_width = "initial"
    ui.member_poll_answer = button("spec-member-poll-answer", "primary")
    poll_row = widgets.HBox([ui.member_poll_price, ui.member_poll_answer])
    poll_row.add_class("spec-member-row")
    ui.member_poll_row = poll_row
    ui.member_poll = widgets.VBox([ui.member_poll_question, poll_row])
    ui.member_poll.add_class("spec-member-poll")
    ui.member_table = html_widget("spec-member-table")  # the table, the odds and the seats
    ui.member_table_box = widgets.VBox(
        [ui.member_banner, ui.member_you, ui.member_actions, ui.member_poll, ui.member_table]
    )
    ui.member_table_box.add_class("spec-member-table-box")


def word_controls(ui: UI, t: Translator) -> None:
    """The controls' words and tooltips in ``t``'s language (the changing labels are drawn)."""
    word_buttons(
        t,
        [
            (ui.member_look, "class.member.check_code", "class.member.tooltip_check_code"),
            (ui.member_join, "class.member.join", "class.member.tooltip_join"),
            (ui.member_next, "button.next_card", "tooltip.next_card"),
            (ui.member_bid, "button.bid", "tooltip.bid"),
            (ui.member_withdraw, "button.withdraw", "tooltip.withdraw"),
            (ui.member_decline, "button.decline", "tooltip.decline"),
            (ui.member_poll_answer, "class.member.poll_answer", "class.member.tooltip_poll_answer"),
        ],
    )


def draw_actions(
    ui: UI, t: Translator, m: Moment, me: int | None, buyers: list[int], busy: bool, span_before: tuple[int, int] | None
) -> tuple[int, int] | None:
    """Show the buttons the seat ``me`` may press at moment ``m`` (T3), each with its words,
    and the hint over them. ``buyers``: the bidders the holder may sell to, highest first;
    ``busy``: a request is awaited (the buttons wait too); ``span_before``: the bid range last
    suggested. Returns the bid range now open to ``me`` (None when none is)."""
    # T3: a seat the teacher took over, or a computer plays, refuses its members: no buttons.
    # What the seat may do is the game's own legal_actions, as the referee published them (due).
    people = me is not None and 0 <= me < len(m.seats) and m.seats[me].kind == "people"
    live = m.live and not m.paused and not m.over and people
    allowed = m.due.of(me) if live and me is not None else LegalActions()
    can_reveal = allowed.reveal is not None
    can_offer = allowed.open_auction is not None
    span = allowed.bid.get(me) if me is not None else None
    standing = m.auction is not None and me is not None and me in m.auction.bids
    can_withdraw = bool(allowed.withdraw)
    buyers = buyers if live else []
    can_decline = allowed.decline is not None
    show(ui.member_next, can_reveal)
    show(ui.member_offer, can_offer)
    if can_offer:
        set_traits(ui.member_offer, description=t("button.open_auction", card=str(m.best)))
        set_traits(ui.member_offer, tooltip=t("tooltip.open_auction"))
    show(ui.member_bid_row, span is not None or can_withdraw)
    show(ui.member_bid, span is not None)
    show(ui.member_bid_amount, span is not None)
    show(ui.member_withdraw, can_withdraw)
    if span is not None and span != span_before:  # a new range: suggest its lowest bid once
        low, high = span
        set_traits(ui.member_bid_amount, min=low, max=high, value=low)
    names = list(m.names)
    bids = {} if m.auction is None else m.auction.bids
    for i, b in enumerate(ui.member_sell):
        if i < len(buyers):
            s = buyers[i]
            label = t("button.sell_to", name=names[s], amount=t.number(bids[s]))
            set_traits(b, description=label, tooltip=t("tooltip.accept"))
        show(b, i < len(buyers))
    show(ui.member_decline, can_decline)
    show(ui.member_decide_row, bool(buyers) or can_decline)
    for b in (ui.member_next, ui.member_offer, ui.member_bid, ui.member_withdraw, *ui.member_sell):
        set_traits(b, disabled=busy)
    set_traits(ui.member_decline, disabled=busy)
    hints = []
    if can_reveal:
        hints.append(t("class.member.your_turn"))
    if can_offer:
        hints.append(t("class.member.you_hold"))
    if buyers or can_decline:
        hints.append(t("class.member.decide"))
    if span is not None:
        hints.append(t("class.member.bid_range", low=t.number(span[0]), high=t.number(span[1])))
    if standing and me is not None:
        hints.append(t("class.member.bid_standing", amount=t.number(bids[me])))
    ui.member_hint.value = " ".join(esc(h) for h in hints)
    show(ui.member_hint, bool(hints))
    show(ui.member_actions, bool(hints) or can_reveal or can_offer)
    return span
