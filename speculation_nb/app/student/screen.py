"""The student's screen at a shared table: join, then follow the teacher's table and act for a seat.

``MemberApp(code=None, lang="en", store=None)`` is what a student's page shows when its address
carries ``?table=<code>`` (:func:`.app.from_request`), or what "Join a table" shows in place of
the app (:func:`join_in_place`). It is displayable as it is; ``app.widget`` is its root.

It draws a :class:`~speculation_nb.classroom.member_session.MemberSession` (the student's side of
the table, no widget there: look up, join, rejoin, send, follow, the replies and their timeout)
and forwards what the student does to it; every check of a request is the session's or the
referee's, whatever the page sent.

* **Joining** (T1, T2): the code (filled in from the link), a name, a seat among the free ones
  or "Watch". Every refusal is said in words ("Rule T2: ..."), and what was typed stays.
* **The table**, drawn from the referee's published moment only (:mod:`.view`): a
  student's kernel never computes a chance, it shows the projector's numbers.
* **Acting** for the seat (T3): Next card when due, Offer the best trump when holding it, a bid
  field with Bid / Withdraw during an auction, Sell to a bidder / Keep the card as holder. A
  button shows only when the moment says the seat may do it; the referee checks again.
* **The poll** (T7): "What would you pay for the best trump?" while the teacher's question is open
  (at a question deal, its own question: a bank moment's, or the teacher's as typed, escaped).
* **A banner** while the teacher has paused or looks back (T4), and a message line.
* **Reload** (T8): the rejoin token (never the seat secret) is kept in the browser
  (:class:`.device_memory.DeviceMemory`, key ``speculation_nb.table.<code>``); a new kernel
  finding it hands it to the session, which rejoins; the page shows the table where it stands.
  However the student came (the link, its QR code, or the code typed on the app's page), once
  the table has them the page's address is the table's link (:class:`.address_bar.AddressBar`:
  ``?table=<code>``, the code only): a reload or the address opened again finds the table.

Requests are posted at once and their replies read by :meth:`MemberApp.refresh_from_store`
(the session's ``read``), which the session's follow task calls on the kernel's event loop after
each event and a few times a second while a reply is awaited; tests call it directly.

The widgets and their CSS classes: :mod:`.controls`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.codes import show_code
from ...classroom.errors import TableRefusal
from ...classroom.member import Member, Reply
from ...classroom.member_session import MemberSession, configured_store
from ...classroom.moment import Moment
from ...engine.errors import IllegalAction
from ...languages.translator import Translator, translator
from ..common.address_bar import AddressBar
from ..common.device_memory import DeviceMemory
from ..common.keys import make_helper
from ..common.parts import UI, bidi, button, esc, relabel, set_traits, show, shown, toggle_class
from ..common.style import CSS
from ..page_address import in_kernel
from .controls import MAX_SEATS, WATCH, build_controls, draw_actions, word_controls
from .style import MEMBER_CSS
from .view import banner_text, last_event_html, odds_value, poll_html, seats_value, table_value

__all__ = ["MEMORY_PREFIX", "WATCH", "MemberApp", "join_in_place"]

log = logging.getLogger("speculation_nb.widgets")

#: The browser's memory of a table is ``localStorage["speculation_nb.table.<code>"]``.
MEMORY_PREFIX = "speculation_nb.table."


class MemberApp:
    """A student's page at a shared table (see the module docstring).

    ``code``: the table's code as typed or linked (checked by T1 when looked up); ``lang`` the
    language; ``store`` where the table lives (default: the configured store,
    :func:`~speculation_nb.classroom.member_session.configured_store`); ``follow``: run the
    follow task on the kernel's event loop (default: in a kernel only).
    """

    def __init__(
        self,
        code: str | None = None,
        lang: str = "en",
        store: Any = None,
        *,
        follow: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        page: str | None = None,
    ) -> None:
        self.t: Translator = translator(lang)
        #: The student's side of the table, which this page draws.
        self.session = MemberSession(
            store if store is not None else configured_store(),
            follow=in_kernel() if follow is None else follow,
            clock=clock,
            remember=self._keep,
            **({} if page is None else {"page": page}),  # None: this kernel's identity (T2)
        )
        #: The parts of the page last drawn, as HTML: ``who``, ``last`` (in ``spec-member-you``),
        #: ``board``, ``odds`` and ``seats`` (in ``spec-member-table``).
        self.parts: dict[str, str] = {}
        self.memory: DeviceMemory | None = None
        #: The page's address in the browser: the table's link once joined (T8, a typed code too).
        self.address = AddressBar()
        self._busy = False
        self._span: tuple[int, int] | None = None  # the bid range last suggested
        self.ui = UI()
        self._build()
        self.session.observe(self.refresh)
        if code:
            self.ui.member_code.value = str(code)[:40]
            self.guard(self.look_up)()
        elif self.session.store is None:
            self.session.tell("class.member.no_server", True)
        self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def widget(self) -> widgets.VBox:
        """The root widget (``spec-app spec-member``)."""
        return self.ui.app

    @property
    def member(self) -> Member | None:
        return self.session.member

    @property
    def code(self) -> str:
        return self.session.code

    @property
    def name(self) -> str:
        return self.session.name

    @property
    def moment(self) -> Moment | None:
        return self.session.moment

    @property
    def closed(self) -> bool:
        return self.session.closed

    @property
    def last_reply(self) -> Reply | None:
        return self.session.last_reply

    @property
    def joined(self) -> bool:
        """True once the table has this page's member (joined or rejoined)."""
        return self.session.joined

    @property
    def seat(self) -> int | None:
        """The seat this page acts for (None: watching, or not joined)."""
        return self.session.seat

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """A callback that says every refusal in words and never shows a traceback."""

        @functools.wraps(fn)
        def handler(*args: Any) -> None:
            if self._busy:
                return
            if args and isinstance(args[0], widgets.Button) and (args[0].disabled or not shown(args[0])):
                return  # a click queued before the button was disabled or hidden (the session checks anyway)
            try:
                fn(*args)
            except (IllegalAction, TableRefusal) as error:
                self.session.refuse(error)
            except Exception:  # never a traceback in the page
                log.exception("speculation_nb member app: a callback failed")
                self.session.tell("error.unexpected", True)
            with contextlib.suppress(Exception):
                self.refresh()

        return handler

    def stop(self) -> None:
        """Stop following the table (the seat stays this member's: T8)."""
        self.session.stop()

    def close(self) -> None:
        """Stop following and close this page's widgets."""
        self.stop()
        for w in self.all_widgets():
            w.close()

    def all_widgets(self) -> list[widgets.Widget]:
        """Every widget of this page (the rows and boxes too), each once."""
        found: dict[int, widgets.Widget] = {}
        todo = [w for w in self.ui.built() if isinstance(w, widgets.Widget)]
        while todo:
            w = todo.pop()
            if id(w) in found:
                continue
            found[id(w)] = w
            todo.extend(c for c in getattr(w, "children", ()) or () if isinstance(c, widgets.Widget))
        return list(found.values())

    # ------------------------------------------------------------------ what the student does
    def look_up(self) -> None:
        """Find the table of the code typed (T1): its seats fill the seat choice."""
        if self.session.look_up(self.ui.member_code.value):
            self.ui.member_code.value = show_code(self.session.code)
            self._remember(self.session.code)

    def join(self) -> None:
        """Ask the table for the chosen seat (or to watch) under the name typed (T2)."""
        choice = self.ui.member_seat.value
        seat = None if choice is None or choice == WATCH else int(choice)
        self.session.join(self.ui.member_name.value, seat, code=self.ui.member_code.value)
        self._remember(self.session.code)

    def next_card(self) -> None:
        self.session.next_card()

    def offer(self) -> None:
        self.session.offer()

    def bid(self) -> None:
        self.session.bid(self.ui.member_bid_amount.value)

    def withdraw(self) -> None:
        self.session.withdraw()

    def sell_to(self, buyer: int) -> None:
        self.session.sell_to(buyer)

    def keep_card(self) -> None:
        self.session.keep_card()

    def answer(self) -> None:
        """Send the price typed as this member's answer to the open poll (T7)."""
        self.session.answer(self.ui.member_poll_price.value)

    def refresh_from_store(self, followed: bool = False) -> None:
        """Read the referee's replies and the latest moment, and redraw (the session's ``read``)."""
        self.session.read(followed)

    # ------------------------------------------------------------------ the device's memory
    def _keep(self, code: str, kept: dict[str, str] | None) -> None:
        """The session's ``remember``: what this browser keeps for table ``code`` (T8)."""
        if self.memory is not None and self.memory.key == MEMORY_PREFIX + code:
            self.memory.keep(kept)

    def _on_memory(self, change: dict[str, Any]) -> None:
        """The browser's memory arrived: the session rejoins with what it kept (T8)."""
        if change.get("new") and self.memory is not None:
            self.session.rejoin(self.memory.kept())

    def _remember(self, code: str) -> None:
        """The browser's memory of this table (a new widget per code: its key is its own)."""
        if not code or (self.memory is not None and self.memory.key == MEMORY_PREFIX + code):
            return
        if self.memory is not None:
            self.memory.close()
        self.memory = DeviceMemory(MEMORY_PREFIX + code)
        self.memory.observe(self.guard(self._on_memory), "loaded")
        self.ui.memory = self.memory
        self.ui.app.children = (*self._top(), self.ui.member_join_box, self.ui.member_table_box)
        if self.memory.loaded:  # no anywidget: nothing kept, nothing to wait for
            self._on_memory({"new": True})

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        ui, t = self.ui, self.t
        g = self.guard
        ui.style = widgets.HTML(f"<style>{CSS}{MEMBER_CSS}</style>", layout=widgets.Layout(display="none"))
        ui.style.add_class("spec-style")
        helper = make_helper({"n": "spec-member-next"})
        self.helper = helper
        if helper is not None:
            ui.keys = helper
        build_controls(ui, t)
        ui.app = widgets.VBox([*self._top(), ui.member_join_box, ui.member_table_box])
        ui.app.add_class("spec-app")
        ui.app.add_class("spec-member")
        ui.member_look.on_click(g(lambda _b: self.look_up()))
        ui.member_join.on_click(g(lambda _b: self.join()))
        ui.member_name.on_msg(g(self._on_enter))
        ui.member_code.on_msg(g(self._on_code_enter))
        ui.member_next.on_click(g(lambda _b: self.next_card()))
        ui.member_offer.on_click(g(lambda _b: self.offer()))
        ui.member_bid.on_click(g(lambda _b: self.bid()))
        ui.member_withdraw.on_click(g(lambda _b: self.withdraw()))
        for i, b in enumerate(ui.member_sell):
            b.on_click(g(functools.partial(self._sell_button, i)))
        ui.member_decline.on_click(g(lambda _b: self.keep_card()))
        ui.member_poll_answer.on_click(g(lambda _b: self.answer()))
        word_controls(ui, t)

    def _top(self) -> list[widgets.Widget]:
        ui = self.ui
        top = [ui.style, self.address]
        if self.helper is not None:
            top.append(self.helper)
        if self.memory is not None:
            top.append(self.memory)
        return [*top, ui.member_top, ui.message]

    def _on_enter(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # Enter in the name field
            self.join()

    def _on_code_enter(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # Enter in the code field
            self.look_up()

    def _sell_button(self, i: int, _b: Any = None) -> None:
        buyers = self.session.buyers()[:MAX_SEATS]
        if i < len(buyers):
            self.sell_to(buyers[i])

    # ----------------------------------------------------------------- drawing
    def refresh(self) -> None:
        """Redraw the page from this page's state and the latest moment."""
        was = self._busy
        self._busy = True
        try:
            self._draw()
        finally:
            self._busy = was

    def _draw(self) -> None:
        ui, t, m = self.ui, self.t, self.moment
        code = show_code(self.code) if self.code else ""
        title = esc(t("class.member.title"))
        if code:
            title += f' <span class="spec-member-code-tag">{esc(t("class.member.table_code", code=code))}</span>'
        if ui.member_title.value != title:
            ui.member_title.value = title
        notice = self.session.notice
        text, error = notice.words(t, self.session.names()), notice.error
        if self.closed:
            text, error = t("class.member.closed"), True
        elif self.joined and m is None:
            text = text or t("class.member.waiting")
        value = esc(text)
        if ui.message.value != value:
            ui.message.value = value
        toggle_class(ui.message, "spec-message-error", error and bool(text))
        toggle_class(ui.message, "spec-message-ok", not error and bool(text))
        if self.helper is not None and self.helper.text != text:
            self.helper.say(text)
        joined = self.joined and not self.closed
        if joined and self.address.table is None:  # joined or rejoined: a reload comes back here (T8)
            self.address.table = code
        show(ui.member_join_box, not self.joined and not self.closed)
        show(ui.member_table_box, joined and m is not None)
        waiting = self.session.waiting("join", "rejoin")
        set_traits(ui.member_join, disabled=waiting or (self.member is None and not ui.member_code.value))
        if not self.joined:
            self._draw_seat_choice()
        if not joined or m is None:
            return
        asked = m.question is not None  # a question deal (issue 25): nobody's seat, no deal, no step
        me = None if asked else self.seat
        banner = banner_text(m, t)
        if self.session.restored is not None:  # the table was restored after a crash (issue 27)
            banner = " ".join(filter(None, (self.session.restored.words(t), banner)))
        ui.member_banner.value = f'<div role="status">{esc(banner)}</div>' if banner else ""
        show(ui.member_banner, bool(banner))
        names = list(m.names)
        if asked:
            who = t.html("class.member.you_question", name=bidi(self.name))
        elif me is None:
            who = t.html("class.member.you_watch", name=bidi(self.name))
        else:
            who = t.html("class.member.you_seat", name=bidi(self.name), seat=bidi(self._seat_label(names, me)))
        deal = "" if asked else " · " + esc(t("class.member.deal_step", deal=t.number(m.deal), step=t.number(m.step)))
        # Each widget changed is one message through the server to this page, at every step of a
        # class of 30: what changes together travels together (two messages a step, not five).
        parts = self.parts
        parts["who"], parts["last"] = f"{who}{deal}", last_event_html(m, t)
        seats = "" if asked else seats_value(m, t)  # every seat of a question deal is nobody's
        parts["board"], parts["odds"], parts["seats"] = table_value(m, t, me), odds_value(m, t, me), seats
        you = f'<div class="spec-member-who">{parts["who"]}</div>'
        if parts["last"]:
            you += f'<div class="spec-member-last">{parts["last"]}</div>'
        set_traits(ui.member_you, value=you)
        table = (
            f'<div class="spec-member-board">{parts["board"]}</div><div class="spec-member-side">'
            f'<div class="spec-member-odds">{parts["odds"]}</div><div class="spec-member-seats">{parts["seats"]}</div>'
            "</div>"
        )
        set_traits(ui.member_table, value=table)
        busy = self.session.waiting("act")
        self._span = draw_actions(ui, t, m, me, self.session.buyers()[:MAX_SEATS], busy, self._span)
        poll = m.poll  # T7: the question while open; then "time is up", then "on the board"
        show(ui.member_poll, poll is not None)
        show(ui.member_poll_row, poll is not None and poll.open)
        set_traits(ui.member_poll_question, value=poll_html(m, t))

    def _seat_label(self, names: list[str], seat: int) -> str:
        """The seat's display name, or its number when that name is the member's own."""
        if names[seat].casefold() == self.name.casefold():
            return self.t("seat.number", n=seat + 1)
        return names[seat]

    def _draw_seat_choice(self) -> None:
        ui, t = self.ui, self.t
        names = self.session.names()
        free = [s for s in self.session.free_seats() if s < len(names)]
        options = [(t("class.member.free_seat", name=names[s]), s) for s in free]
        options.append((t("class.member.watch"), WATCH))
        if list(ui.member_seat.options) != options:
            value = ui.member_seat.value
            with ui.member_seat.hold_sync():
                ui.member_seat.options = options
                ui.member_seat.value = value if value in [v for _, v in options] else options[0][1]
        relabel(ui.member_seat, {v: label for label, v in options})


def join_in_place(app: Any, code: str | None = None, store: Any = None) -> MemberApp:
    """Show a :class:`MemberApp` in place of ``app``'s root children (``app.widget``), with a
    "Leave the table" button that puts them back as they were (nothing of the app is lost)."""
    root = app.widget
    saved = tuple(root.children)
    lang = getattr(getattr(app, "t", None), "lang", "en")
    member = MemberApp(code=code, lang=lang, store=store)
    leave = button("spec-member-leave")
    set_traits(leave, description=member.t("class.member.leave"), tooltip=member.t("class.member.tooltip_leave"))
    member.ui.member_leave = leave
    member.ui.member_slot.children = (leave,)
    member.widget.add_class("spec-member-embedded")

    def back(_b: Any = None) -> None:
        member.stop()
        member.address.table = ""  # the app's own address again (the device still keeps the seat: T8)
        root.children = saved

    leave.on_click(member.guard(back))
    root.children = (member.widget,)
    return member
