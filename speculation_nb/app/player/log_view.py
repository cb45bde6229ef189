"""What happened (the deal's log, newest first) and the standings of the session.

Every name in a line is bidi-isolated (:func:`.parts.bidi`); a computer player's bid
above its break-even price carries the reason (its temperament) under the line. At a shared
table, a card the teacher turned up for a student's seat says so ("by": "teacher", issue 27).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...languages.translator import Safe, Translator
from ..common.parts import Shell, bidi, card_html, esc, html_widget, name_html
from ..model import Controller

__all__ = ["LogView", "event_html"]


def event_html(e: Any, names: Sequence[str], t: Translator) -> str | None:
    """One event of the deal's log as a line of HTML (None for events the log leaves out)."""
    kind = e["kind"]
    card = card_html(e["card"], t) if e.get("card") is not None else ""
    who = name_html(names, e.get("seat"))
    simple = {
        "jack_five": "log.jack_five",
        "reveal": "log.reveal",
        "new_best": "log.new_best",
    }
    if e.get("by") == "teacher" and kind in ("reveal", "jack_five"):  # for a student's seat (issue 27)
        key = "log.teacher_reveal" if kind == "reveal" else "log.teacher_jack_five"
        return t.html(key, name=who, card=card)
    if kind == "ante":
        return t.html("log.ante", pot=t.number(e["pot"]))
    if kind == "turn_up":
        return t.html("log.turn_up", name=who, card=card, suit=t.suit_name(e["card"].suit))
    if kind in simple:
        return t.html(simple[kind], name=who, card=card)
    if kind == "ace_turn_up":
        return t.html("log.ace_turn_up", name=who, pot=t.number(e["pot"]))
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
            seller=name_html(names, e["seller"]),
            buyer=name_html(names, e["buyer"]),
            card=card,
            chips=t.plural("unit.chips", e["price"]),
        )
    if kind == "decline":
        return t.html("log.decline", name=who)
    if kind == "blind_trade":
        return t.html(
            "log.blind_trade",
            buyer=name_html(names, e["buyer"]),
            seller=name_html(names, e["seller"]),
            cards=t.plural("unit.cards", e["count"]),
            chips=t.plural("unit.chips", e["price"]),
        )
    if kind in ("holder_cards", "dead_pile"):
        cards = Safe(" ".join(card_html(x, t) for x in e["cards"]))
        return t.html(f"log.{kind}", name=who, cards=cards)
    if kind == "win":
        return t.html("log.win", name=who, chips=t.plural("unit.chips", e["pot"]))
    if kind == "carry_over":
        key = "log.carry_over_hoyle" if str(e.get("rule", "")).startswith("hoyle") else "log.carry_over"
        return t.html(key, chips=t.plural("unit.chips", e["pot"]))
    return None


class LogView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        ui.log = html_widget("spec-log")
        ui.standings = html_widget("spec-standings")
        ui.bottom = widgets.HBox([ui.log, ui.standings])
        ui.bottom.add_class("spec-bottom")
        self.widget = ui.bottom

    def refresh(self, c: Controller, t: Translator) -> None:
        self._log(c, t)
        self._standings(c, t)

    def _log(self, c: Controller, t: Translator) -> None:
        names = c.names
        game = c.question or c.game  # a question deal shown (issue 25): its own log
        k = c.moment if c.question is None else len(game.history)
        deal = c.session.deal_number if c.question is None else 0
        by_teacher: frozenset[tuple[int, int]] = getattr(c.table_check, "teacher_steps", frozenset)()  # issue 27
        lines = []
        for event in game.events:
            if event["step"] > k:
                continue
            by = {"by": "teacher"} if (deal, event["step"]) in by_teacher else {}  # for a student's seat
            text = event_html({**event, **by} if by else event, names, t)
            if text is None:
                continue
            note = c.notes.get((deal, event["step"])) if event["kind"] == "bid" and deal else None
            if note is not None:
                text += f'<div class="spec-log-why">{esc(c.say(*note))}</div>'
            cls = "spec-log-new" if event["step"] == k and k > 0 else ""
            lines.append(f'<li class="{cls}" data-step="{event["step"]}">{text}</li>')
        lines.reverse()
        # Drawn focusable: it may scroll before the page's helper looks (assets/keys.js takes a
        # list that does not scroll out of the tab order).
        self.app.ui.log.value = (
            f'<div class="spec-box-title">{esc(t("label.log"))}</div>'
            f'<ol class="spec-log-lines" tabindex="0">{"".join(lines)}</ol>'
        )

    def _standings(self, c: Controller, t: Translator) -> None:
        s = c.session
        start = s.rules.start_chips
        names = c.table_names  # the session's seats, a shared table's names while one is open
        rows = []
        for st in s.standings():
            diff = st.stack - start
            cls = "spec-up-chips" if diff > 0 else ("spec-down-chips" if diff < 0 else "")
            sign = "+" if diff > 0 else ("−" if diff < 0 else "±")
            lead = " class='spec-lead'" if st.place == 1 else ""
            rows.append(
                f"<tr{lead} data-seat='{st.seat}'><td>{esc(t('standings.place', place=st.place))}</td>"
                f"<td>{bidi(names[st.seat])}</td><td class='spec-num'>{esc(t.number(st.stack))}</td>"
                f"<td class='spec-num {cls}'>{sign}{esc(t.number(abs(diff)))}</td></tr>"
            )
        foot = f"<div><b>{esc(t('standings.over'))}</b></div>" if s.over else ""
        self.app.ui.standings.value = (
            f'<div class="spec-box-title">{esc(t("label.standings"))}</div><table>{"".join(rows)}</table>{foot}'
        )
