"""The student's screen at a shared table: join, then follow the teacher's table and act for a seat.

``MemberApp(code=None, lang="en", store=None)`` is what a student's page shows when its address
carries ``?table=<code>`` (:func:`.app.from_request`), or what "Join a table" shows in place of
the app (:func:`join_in_place`). It is displayable as it is; ``app.widget`` is its root.

* **Joining** (T1, T2): the code (filled in from the link), a name, a seat among the free ones
  or "Watch". Every refusal is said in words ("Rule T2: ..."), and what was typed stays.
* **The table**, drawn from the referee's published moment only (:mod:`.member_view`): a
  student's kernel never computes a chance, it shows the projector's numbers.
* **Acting** for the seat (T3): Next card when due, Offer the best trump when holding it, a bid
  field with Bid / Withdraw during an auction, Sell to a bidder / Keep the card as holder. A
  button shows only when the moment says the seat may do it; the referee checks again.
* **The poll** (T7): "What would you pay for the best trump?" while the teacher's question is open.
* **A banner** while the teacher has paused or looks back (T4), and a message line.
* **Reload** (T8): the rejoin token (never the seat secret) is kept in the browser
  (:class:`.device_memory.DeviceMemory`, key ``speculation_nb.classroom.<code>``); a new kernel
  finding it rejoins and shows the table where it stands.

Requests are posted at once and their replies read by :meth:`MemberApp.refresh_from_store`,
which the follow task (:meth:`.table.member.Member.updates` on the kernel's event loop) calls
after each event and a few times a second while a reply is awaited; tests call it directly.

The widgets and their CSS classes: :mod:`.member_controls`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.codes import read_code, show_code
from ...classroom.errors import TableRefusal
from ...classroom.member import Member, Reply
from ...classroom.moment import Moment
from ...classroom.poll import check_price
from ...classroom.stores.base import StoreError, TableStore, open_store
from ...engine.actions import Action
from ...engine.errors import IllegalAction
from ...languages.translator import Translator, error_text, translator
from ..common.device_memory import DeviceMemory
from ..common.keys import make_helper
from ..common.parts import UI, bidi, button, esc, relabel, set_traits, show, shown, toggle_class
from ..common.style import CSS
from ..page_address import in_kernel
from .controls import MAX_SEATS, WATCH, build_controls, draw_actions, word_controls
from .style import MEMBER_CSS
from .view import banner_text, last_event_html, odds_value, seats_value, table_value

__all__ = ["MEMORY_PREFIX", "REPLY_TIMEOUT", "MemberApp", "join_in_place"]

log = logging.getLogger("speculation_nb.widgets")

#: The browser's memory of a table is ``localStorage["speculation_nb.table.<code>"]``.
MEMORY_PREFIX = "speculation_nb.table."
#: Seconds a request waits for the referee before the page says it had no answer.
REPLY_TIMEOUT = 20.0


@dataclass
class _Waiting:
    kind: str
    done: Callable[[Reply], None]
    since: float


class MemberApp:
    """A student's page at a shared table (see the module docstring).

    ``code``: the table's code as typed or linked (checked by T1 when looked up); ``lang`` the
    language; ``store`` where the table lives (default :func:`~speculation_nb.classroom.stores.base.open_store`);
    ``follow``: run the follow task on the kernel's event loop (default: in a kernel only).
    """

    def __init__(
        self,
        code: str | None = None,
        lang: str = "en",
        store: TableStore | None = None,
        *,
        follow: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.t: Translator = translator(lang)
        self.store = store if store is not None else _open_store()
        self.member: Member | None = None
        self.code = ""
        self.name = ""
        self.moment: Moment | None = None
        #: The parts of the page last drawn, as HTML: ``who``, ``last`` (in ``spec-member-you``),
        #: ``board``, ``odds`` and ``seats`` (in ``spec-member-table``).
        self.parts: dict[str, str] = {}
        self.closed = False
        self.last_reply: Reply | None = None
        self.last_error: BaseException | None = None
        self.memory: DeviceMemory | None = None
        self._clock = clock
        self._follow = in_kernel() if follow is None else follow
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._busy = False
        self._waiting: dict[str, _Waiting] = {}
        self._message = ("", "")
        self._span: tuple[int, int] | None = None  # the bid range last suggested
        self.ui = UI()
        self._build()
        if code:
            self.ui.member_code.value = str(code)[:40]
            self.guard(self.look_up)()
        elif self.store is None:
            self._say(self.t("class.member.no_server"), "error")
        self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def widget(self) -> widgets.VBox:
        """The root widget (``spec-app spec-member``)."""
        return self.ui.app

    @property
    def joined(self) -> bool:
        """True once the table has this page's member (joined or rejoined)."""
        return self.member is not None and self.member.member is not None

    @property
    def seat(self) -> int | None:
        """The seat this page acts for (None: watching, or not joined)."""
        return None if self.member is None else self.member.seat

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """A callback that says every refusal in words and never shows a traceback."""

        @functools.wraps(fn)
        def handler(*args: Any) -> None:
            if self._busy:
                return
            if args and isinstance(args[0], widgets.Button) and (args[0].disabled or not shown(args[0])):
                return  # a click queued before the button was disabled or hidden
            try:
                fn(*args)
            except (IllegalAction, TableRefusal) as error:
                self.last_error = error
                self._say(error_text(error, self.t, self._names()), "error")
            except Exception as error:  # never a traceback in the page
                self.last_error = error
                log.exception("speculation_nb member app: a callback failed")
                self._say(self.t("error.unexpected"), "error")
            with contextlib.suppress(Exception):
                self.refresh()

        return handler

    def stop(self) -> None:
        """Stop following the table (the seat stays this member's: T8)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

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

    # ----------------------------------------------------------------- joining
    def look_up(self) -> None:
        """Find the table of the code typed (T1): its seats fill the seat choice."""
        if self.store is None:
            self._say(self.t("class.member.no_server"), "error")
            return
        code = read_code(self.ui.member_code.value)
        if self.member is not None and code == self.code:
            return
        member = Member(self.store, code)
        self.stop()
        self._stopped = False
        self.member, self.code, self.moment, self.closed = member, code, member.latest(), False
        self._waiting.clear()
        self.ui.member_code.value = show_code(code)
        self._remember(code)
        free = self._free_seats()
        key = "class.member.found" if free else "class.member.no_free_seat"
        self._say(self.t(key, code=show_code(code)), "ok")
        self._start()

    def join(self) -> None:
        """Ask the table for the chosen seat (or to watch) under the name typed (T2)."""
        if self.member is None or self.code != _typed_code(self.ui.member_code.value):
            self.look_up()
        if self.member is None:
            return
        choice = self.ui.member_seat.value
        seat = None if choice is None or choice == WATCH else int(choice)
        name = str(self.ui.member_name.value)
        self._send("join", self._joined, name=name, seat=seat)

    def _joined(self, reply: Reply) -> None:
        if not reply.ok:
            self._refused(reply)
            return
        self.name = str(reply.data.get("name", "")) or (self.member.name if self.member else "") or ""
        self._keep_token()
        if self.seat is None:
            self._say(self.t("class.member.joined_watch", name=self.name), "ok")
        else:
            self._say(self.t("class.member.joined_seat", seat=self._names()[self.seat], name=self.name), "ok")

    def _on_memory(self, change: dict[str, Any]) -> None:
        """The browser's memory arrived: rejoin with the token it kept (T8)."""
        if not change.get("new") or self.memory is None or self.member is None or self.joined:
            return
        if any(w.kind in ("join", "rejoin") for w in self._waiting.values()):
            return  # the person asked to join before the browser answered: that request stands
        kept = self.memory.kept()
        if kept is None or not isinstance(kept.get("member"), str) or not isinstance(kept.get("token"), str):
            return
        self._send(
            "rejoin", self._rejoined, self.t("class.member.rejoining"), member=kept["member"], token=kept["token"]
        )

    def _rejoined(self, reply: Reply) -> None:
        if not reply.ok:
            if self.memory is not None:
                self.memory.keep(None)
            reason = reply.text(self.t, self._names())
            self._say(self.t("class.member.rejoin_refused", reason=reason), "error")
            return
        self.name = str(reply.data.get("name", ""))
        kept = None if self.memory is None else self.memory.kept()
        if self.member is not None and kept is not None and self.member.token is None:
            self.member.token = str(kept.get("token"))  # a rejoin keeps the token the browser has
        self._say(self.t("class.member.rejoined", name=self.name), "ok")

    def _keep_token(self) -> None:
        if self.memory is not None and self.member is not None and self.member.member and self.member.token:
            self.memory.keep({"member": self.member.member, "token": self.member.token})

    def _remember(self, code: str) -> None:
        """The browser's memory of this table (a new widget per code: its key is its own)."""
        if self.memory is not None and self.memory.key == MEMORY_PREFIX + code:
            return
        if self.memory is not None:
            self.memory.close()
        self.memory = DeviceMemory(MEMORY_PREFIX + code)
        self.memory.observe(self.guard(self._on_memory), "loaded")
        self.ui.memory = self.memory
        self.ui.app.children = (*self._top(), self.ui.member_join_box, self.ui.member_table_box)
        if self.memory.loaded:  # no anywidget: nothing kept, nothing to wait for
            self._on_memory({"new": True})

    # ----------------------------------------------------------------- acting
    def next_card(self) -> None:
        self._act(Action.make("reveal", seat=self._my_seat()))

    def offer(self) -> None:
        self._act(Action.make("open_auction"))

    def bid(self) -> None:
        amount = self.ui.member_bid_amount.value
        if amount is None or amount < 1:  # 0 would withdraw: a typed bid is a bid
            raise IllegalAction("P2", "bid_below_one", f"a bid is at least 1 chip, not {amount}", amount=amount)
        self._act(Action.make("bid", seat=self._my_seat(), amount=int(amount)))

    def withdraw(self) -> None:
        self._act(Action.make("bid", seat=self._my_seat(), amount=0))

    def sell_to(self, buyer: int) -> None:
        self._act(Action.make("accept", seat=int(buyer)))

    def keep_card(self) -> None:
        self._act(Action.make("decline"))

    def answer(self) -> None:
        """Send the price typed as this member's answer to the open poll (T7)."""
        poll = None if self.moment is None else self.moment.poll
        if poll is None or not poll.open:
            raise refusal("T7", "no_poll")
        price = check_price(self.ui.member_poll_price.value)
        self._send("answer", functools.partial(self._answered, price), poll=poll.id, price=price)

    def _answered(self, price: int, reply: Reply) -> None:
        if reply.ok:
            self._say(self.t("class.member.poll_sent", price=self.t.number(price)), "ok")
        else:
            self._refused(reply)

    def _my_seat(self) -> int:
        if not self.joined:
            raise refusal("T3", "not_joined")
        if self.seat is None:
            raise refusal("T3", "spectator")
        return self.seat

    def _act(self, action: Action) -> None:
        self._send("act", self._acted, seat=self._my_seat(), action=action.to_dict())

    def _acted(self, reply: Reply) -> None:
        if reply.ok:
            self._say(self.t("class.member.done"), "ok")
        else:
            self._refused(reply)

    # --------------------------------------------------------------- requests
    def _send(self, kind: str, done: Callable[[Reply], None], saying: str = "", **fields: Any) -> None:
        if self.member is None:
            raise refusal("T2", "not_joined")
        token = self.member.post(kind, **fields)
        self._waiting[token] = _Waiting(kind, done, self._clock())
        self._say(saying or self.t("class.member.asking"), "ok")

    def _refused(self, reply: Reply) -> None:
        self.last_reply = reply
        self._say(reply.text(self.t, self._names()), "error")

    def refresh_from_store(self, followed: bool = False) -> None:
        """Read the referee's replies to this page's requests and the latest moment, and redraw.
        ``followed``: the follow task has just read the table's events, which carry the moments
        and say when the table closed: nothing more to read for them."""
        member = self.member
        if member is None:
            return
        for token, waiting in list(self._waiting.items()):
            reply = member.reply(token)
            if reply is None:
                if self._clock() - waiting.since > REPLY_TIMEOUT:
                    del self._waiting[token]
                    self._say(error_text(refusal("T6", "no_answer"), self.t), "error")
                continue
            del self._waiting[token]
            self.last_reply = reply
            try:
                waiting.done(reply)
            except Exception as error:
                self.last_error = error
                log.exception("speculation_nb member app: a reply could not be shown")
                self._say(self.t("error.unexpected"), "error")
        if not self.joined:
            member.refresh()  # the free seats change as others join
        latest = member.newest if followed else member.latest()
        if latest is not None and (self.moment is None or latest.version >= self.moment.version):
            self.moment = latest
        if not followed and self.store is not None and not self.store.exists(self.code):
            self.closed = True
        self.refresh()

    def take_events(self, events: list[dict[str, Any]]) -> None:
        """Events of the table's stream (the follow task's): a ``closed`` one ends the page's table."""
        if any(e.get("kind") == "closed" for e in events):
            self.closed = True

    def _start(self) -> None:
        if not self._follow or self._task is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            try:
                loop = asyncio.get_event_loop_policy().get_event_loop()
            except RuntimeError:
                return
        self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while not self._stopped and self.member is not None:
            member = self.member
            try:
                events = await member.updates(timeout=0.25 if self._waiting else 1.0)
                if member is not self.member:
                    continue
                self.take_events(events)
                if events or self._waiting or not self.joined:  # a quiet second costs one wait, no redraw
                    self.refresh_from_store(followed=True)
            except asyncio.CancelledError:
                raise
            except Exception:  # a store that hiccups: say nothing yet, try again in a moment
                log.exception("speculation_nb member app: following the table failed")
                await asyncio.sleep(1.0)
            if self.closed:
                break

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
        top = [ui.style]
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
        buyers = self._buyers()
        if i < len(buyers):
            self.sell_to(buyers[i])

    # ----------------------------------------------------------------- drawing
    def _names(self) -> list[str]:
        if self.moment is not None:
            return list(self.moment.names)
        meta = {} if self.member is None else (self.member.meta or {})
        names = meta.get("names")
        return [str(n) for n in names] if isinstance(names, list) else []

    def _free_seats(self) -> list[int]:
        """The seats a newcomer may ask for: the table's meta says (with teams, seats that have
        members too); the latest moment's free seats when the meta does not."""
        meta = {} if self.member is None else (self.member.meta or {})
        free = meta.get("free")
        if isinstance(free, list):
            return [s for s in free if isinstance(s, int) and not isinstance(s, bool)]
        if self.moment is not None:
            return [i for i, s in enumerate(self.moment.seats) if s.kind == "free"]
        return []

    def _buyers(self) -> list[int]:
        """The bidders this page's holder may sell to now (highest bid first)."""
        m = self.moment
        if m is None or m.auction is None or self.seat is None or m.holder != self.seat:
            return []
        bids = m.auction.bids
        return sorted((s for s in m.due.accept if s in bids), key=lambda s: (-bids[s], s))[:MAX_SEATS]

    def _say(self, text: str, kind: str = "ok") -> None:
        self._message = (text, kind)

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
        text, kind = self._message
        if self.closed:
            text, kind = t("class.member.closed"), "error"
        elif self.joined and m is None:
            text, kind = (text or t("class.member.waiting")), kind
        value = esc(text)
        if ui.message.value != value:
            ui.message.value = value
        toggle_class(ui.message, "spec-message-error", kind == "error" and bool(text))
        toggle_class(ui.message, "spec-message-ok", kind == "ok" and bool(text))
        if self.helper is not None and self.helper.text != text:
            self.helper.text = text
        joined = self.joined and not self.closed
        show(ui.member_join_box, not self.joined and not self.closed)
        show(ui.member_table_box, joined and m is not None)
        waiting = any(w.kind in ("join", "rejoin") for w in self._waiting.values())
        set_traits(ui.member_join, disabled=waiting or (self.member is None and not ui.member_code.value))
        if not self.joined:
            self._draw_seat_choice()
        if not joined or m is None:
            return
        me = self.seat
        banner = banner_text(m, t)
        ui.member_banner.value = f'<div role="status">{esc(banner)}</div>' if banner else ""
        show(ui.member_banner, bool(banner))
        names = list(m.names)
        who = (
            t.html("class.member.you_watch", name=bidi(self.name))
            if me is None
            else t.html("class.member.you_seat", name=bidi(self.name), seat=bidi(self._seat_label(names, me)))
        )
        deal = esc(t("class.member.deal_step", deal=t.number(m.deal), step=t.number(m.step)))
        # Each widget changed is one message through the server to this page, at every step of a
        # class of 30: what changes together travels together (two messages a step, not five).
        parts = self.parts
        parts["who"], parts["last"] = f"{who} · {deal}", last_event_html(m, t)
        parts["board"], parts["odds"], parts["seats"] = table_value(m, t, me), odds_value(m, t, me), seats_value(m, t)
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
        busy = any(w.kind == "act" for w in self._waiting.values())
        self._span = draw_actions(ui, t, m, me, self._buyers(), busy, self._span)
        poll_open = m.poll is not None and m.poll.open
        show(ui.member_poll, poll_open)

    def _seat_label(self, names: list[str], seat: int) -> str:
        """The seat's display name, or its number when that name is the member's own."""
        if names[seat].casefold() == self.name.casefold():
            return self.t("seat.number", n=seat + 1)
        return names[seat]

    def _draw_seat_choice(self) -> None:
        ui, t = self.ui, self.t
        names = self._names()
        free = [s for s in self._free_seats() if s < len(names)]
        options = [(t("class.member.free_seat", name=names[s]), s) for s in free]
        options.append((t("class.member.watch"), WATCH))
        if list(ui.member_seat.options) != options:
            value = ui.member_seat.value
            with ui.member_seat.hold_sync():
                ui.member_seat.options = options
                ui.member_seat.value = value if value in [v for _, v in options] else options[0][1]
        relabel(ui.member_seat, {v: label for label, v in options})


def refusal(rule: str, case: str) -> TableRefusal:
    """The table's refusal ``case`` (worded by ``error.table.<case>`` of the catalogs)."""
    return TableRefusal(rule, f"table.{case}")


def _typed_code(text: Any) -> str:
    try:
        return read_code(text)
    except TableRefusal:
        return ""


def _open_store() -> TableStore | None:
    try:
        return open_store()
    except StoreError:
        log.exception("speculation_nb member app: the table store could not be opened")
        return None


def join_in_place(app: Any, code: str | None = None, store: TableStore | None = None) -> MemberApp:
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
        root.children = saved

    leave.on_click(member.guard(back))
    root.children = (member.widget,)
    return member
