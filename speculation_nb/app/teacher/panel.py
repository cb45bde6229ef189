"""The teacher's side of the shared table: the "Open the table to the class" panel (T1-T12).

:func:`table_opener` puts, in the app's ``ui.table_slot``, a :class:`~.panel_opener.PanelOpener`
named ``table`` whose first press builds a :class:`HostPanel`; on the static site (no server:
:func:`~.page_address.static_site`) or when no table store is configured
(``SPECULATION_TABLE_STORE``, :func:`speculation_nb.classroom.stores.base.open_store`) it puts one line
instead, saying what the shared table needs.

``HostPanel(controller, store)``: before a table is open, "Open the table" (and whether several
students may share a seat); if this browser kept a table that is still open (the teacher
reloaded: DeviceMemory ``speculation_nb.host``), "Resume the table", which asks first
(``spec-host-resume-ask``, a :class:`~.confirm.ConfirmRow`) once a game has been played here: the
table's game replaces the one shown; "Open the table" then asks in the same row, since a new
table closes the kept one (T10: its students are told). Once open:

* the code, big (``ABCDE-FGHJK``), the link (only the code in it, never a secret) with a Copy
  button, and its QR code;
* what the table is doing (live, paused, or you are looking back: students wait, T4) and how
  many joined; Pause / Resume;
* each seat: free, its students (escaped names), a computer player or you; Take over / Give
  back, and a computer player on or off (an empty seat only); the spectators; moving a student
  to another seat or to the spectators;
* the poll: "Ask: what would you pay?" at the moment shown, Close the poll, Show names, and the
  answers (:func:`.poll_chart.poll_html`: every number in words and figures);
* Export (a download of the table's record, names included) and Close the table, which asks
  first: closing wipes the table from the store and sends the students away.

The host secret lives in this kernel (the referee) and in the teacher's own browser (the
DeviceMemory, so that a reload resumes, T9); never in the link, the code or any widget shown.
The referee serves on the kernel's event loop (``serve()`` as a task); every change of the
teacher's game publishes the moment shown (a publisher of the controller's), before the
teacher's own page redraws: the students' screens do not wait for the projector's.

CSS classes: ``spec-host`` (the root) and ``spec-host-*`` for its parts (:mod:`.host_style`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.codes import show_code
from ...classroom.errors import TableRefusal
from ...classroom.stores.base import REFEREE_SETTING, STORE_SETTING, StoreError, TableStore, open_store
from ...engine.errors import IllegalAction
from ...languages.translator import Safe, Translator, error_text
from ...links.share import link_base
from ...rendering.poll_chart import poll_html
from ..common.confirm import CSS as CONFIRM_CSS
from ..common.confirm import ConfirmRow
from ..common.device_memory import DeviceMemory
from ..common.panel import ControllerPanel, tagged
from ..common.panel_opener import PanelOpener
from ..common.parts import Shell, bidi, esc, set_traits, show, toggle_class
from ..model import Controller
from ..page_address import static_site
from .app_game import ControllerHost, host_maker
from .style import COPY_JS, CSS

if TYPE_CHECKING:  # the referee and the QR code load when a table opens, not with every page
    from ...classroom.referee import Referee

__all__ = ["ADDRESS_SETTING", "CSS", "MEMORY_KEY", "HostPanel", "ServerOnlyLine", "table_available", "table_opener"]

log = logging.getLogger("speculation_nb.widgets")

#: The address students open (the class's own server), when it is not this page's own.
ADDRESS_SETTING = "SPECULATION_TABLE_ADDRESS"
#: The teacher's browser keeps ``{"code": ..., "secret": ...}`` here (T9: a reload resumes).
MEMORY_KEY = "speculation_nb.host"


def table_available() -> bool:
    """Whether this kernel may open a shared table: a server runs it and a store is configured."""
    configured = any(os.environ.get(name, "").strip() for name in (STORE_SETTING, REFEREE_SETTING))
    return not static_site() and configured


def table_address() -> str:
    """The address students open: ``SPECULATION_TABLE_ADDRESS``, else this page's own."""
    return os.environ.get(ADDRESS_SETTING, "").strip() or link_base()


class ServerOnlyLine:
    """What the table slot shows where no shared table can be opened: one line, in words."""

    def __init__(self, slot: widgets.Box) -> None:
        self.line = tagged(widgets.HTML(), "spec-host-unavailable")
        self.key = "class.host.needs_site_server" if static_site() else "class.host.needs_store"
        slot.children = (self.line,)

    def texts(self, t: Translator) -> None:
        self.line.value = esc(t(self.key))


def table_opener(app: Shell, slot: widgets.Box, store: TableStore | None = None) -> PanelOpener | ServerOnlyLine:
    """The table slot's content: the ``table`` opener, or the one line (see the module docstring).
    ``store``: the table store (None: the configured one, opened on the panel's first open)."""
    if store is None and not table_available():
        return ServerOnlyLine(slot)

    memory = DeviceMemory(MEMORY_KEY)

    def build(controller: Controller) -> HostPanel:
        return HostPanel(controller, store, app, memory)

    opener = PanelOpener(app, slot, "table", build, "class.host.open_panel", "class.host.open_panel_tip")
    slot.children = (*slot.children, memory)

    def resume_kept(change: Any) -> None:
        """The teacher reloaded with a table open (T9): open the panel and referee it again."""
        if not change["new"] or memory.kept() is None or opener.panel is not None:
            return
        opener.toggle(True)
        panel = built_panel(opener)
        if isinstance(panel, HostPanel) and panel.kept is not None:
            panel.resume_table()

    memory.observe(app.guard(resume_kept), "loaded")
    return opener


def built_panel(opener: PanelOpener) -> Any:
    """The panel ``opener`` has built (None before its first open)."""
    return opener.panel


def _button(*classes: str, style: str = "") -> widgets.Button:
    return tagged(widgets.Button(button_style=style), "spec-button", *classes)


class HostPanel(ControllerPanel):
    """The teacher's panel of the shared table (see the module docstring)."""

    def __init__(
        self, controller: Controller, store: TableStore | None = None, app: Any = None, memory: Any = None
    ) -> None:
        self.controller = controller
        self.store = store
        self._memory = memory  # the app's DeviceMemory of the host secret (None: the panel's own)
        self.app = app  # the app, for "Join a table as a student" (None: no such button)
        self.referee: Referee | None = None
        self.task: asyncio.Task[None] | None = None
        self.closing = False  # this page is closing the table itself
        self.names_shown = False
        self.download = ""
        self.message: tuple[str, str, dict[str, Any]] = ("", "", {})
        self.kept: dict[str, str] | None = None  # a table this browser kept, still open in the store
        self._qr_for: tuple[str, str] | None = None
        self._seat_rows: list[tuple[widgets.HTML, widgets.Button, widgets.Button]] = []
        self._seat_boxes: list[widgets.HBox] = []
        self._build()
        controller.observe(self._on_change, "version")
        controller.observe(self._on_change, "lang")
        self.memory.observe(self.guard(self._on_memory), "loaded")
        if self.memory.loaded:  # the app's memory had arrived before the panel was built
            self._on_memory({"new": True})
        self.draw()

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        ui = self.ui = SimpleNamespace()
        ui.style = widgets.HTML(f"<style>{CSS}{CONFIRM_CSS}</style>", layout=widgets.Layout(display="none"))
        ui.memory = self.memory = self._memory if self._memory is not None else DeviceMemory(MEMORY_KEY)
        ui.intro = tagged(widgets.HTML(), "spec-host-intro")
        ui.teams = tagged(widgets.Checkbox(value=False, indent=False), "spec-host-teams")
        ui.open = _button("spec-host-open", style="primary")
        ui.resume = _button("spec-host-resume")
        ui.join = _button("spec-host-join")
        ui.start = tagged(widgets.HBox([ui.open, ui.teams, ui.resume, ui.join]), "spec-host-row", "spec-host-start")
        self.resume_row = ConfirmRow("spec-host-resume-ask", self.guard)
        ui.resume_ask, ui.resume_ask_text, ui.resume_yes, ui.resume_no = self.resume_row.widgets
        ui.code_label = tagged(widgets.HTML(), "spec-host-code-label")
        ui.code = tagged(widgets.HTML(), "spec-host-code")
        ui.link = tagged(widgets.HTML(), "spec-host-link")
        ui.qr = tagged(widgets.HTML(), "spec-host-qr")
        where = tagged(widgets.VBox([ui.code_label, ui.code, ui.link]), "spec-host-where")
        ui.head = tagged(widgets.HBox([where, ui.qr]), "spec-host-head")
        ui.status = tagged(widgets.HTML(), "spec-host-status")
        ui.pause = _button("spec-host-pause")
        ui.export = _button("spec-host-export")
        ui.close = _button("spec-host-close", style="danger")
        ui.actions = tagged(widgets.HBox([ui.pause, ui.export, ui.close]), "spec-host-row")
        ui.download = tagged(widgets.HTML(), "spec-host-download")
        self.close_row = ConfirmRow("spec-host-confirm", self.guard)  # "Close the table?", focus on Keep
        ui.confirm, ui.confirm_text, ui.confirm_yes, ui.confirm_no = self.close_row.widgets
        ui.seats_title = tagged(widgets.HTML(), "spec-host-title")
        ui.seats = tagged(widgets.VBox([]), "spec-host-seats")
        ui.spectators = tagged(widgets.HTML(), "spec-host-spectators")
        ui.place_member = tagged(widgets.Dropdown(options=[]), "spec-host-place-member")
        ui.place_seat = tagged(widgets.Dropdown(options=[]), "spec-host-place-seat")
        ui.place = _button("spec-host-place")
        ui.place_row = tagged(widgets.HBox([ui.place_member, ui.place_seat, ui.place]), "spec-host-row")
        ui.poll_title = tagged(widgets.HTML(), "spec-host-title")
        ui.ask = _button("spec-host-ask", style="primary")
        ui.close_poll = _button("spec-host-close-poll")
        ui.show_names = tagged(widgets.Checkbox(value=False, indent=False), "spec-host-show-names")
        ui.poll_row = tagged(widgets.HBox([ui.ask, ui.close_poll, ui.show_names]), "spec-host-row")
        ui.poll = tagged(widgets.HTML(), "spec-host-poll")
        parts = [ui.head, ui.status, ui.actions, ui.confirm, ui.download, ui.seats_title, ui.seats]
        parts += [ui.spectators, ui.place_row, ui.poll_title, ui.poll_row, ui.poll]
        ui.table = tagged(
            widgets.VBox(parts),
            "spec-host-table",
        )
        ui.message = tagged(widgets.HTML(), "spec-host-message")
        ui.root = tagged(
            widgets.VBox([ui.style, ui.memory, ui.intro, ui.start, ui.resume_ask, ui.table, ui.message]), "spec-host"
        )
        ui.open.on_click(self.guard(lambda _b: self.ask_open()))
        ui.resume.on_click(self.guard(lambda _b: self.ask_resume()))
        ui.join.on_click(self.guard(lambda _b: self.join()))
        ui.pause.on_click(self.guard(lambda _b: self.toggle_pause()))
        ui.export.on_click(self.guard(lambda _b: self.export()))
        ui.close.on_click(self.guard(lambda _b: self.ask_close()))
        ui.place.on_click(self.guard(lambda _b: self.place(ui.place_member.value, ui.place_seat.value)))
        ui.ask.on_click(self.guard(lambda _b: self.ask()))
        ui.close_poll.on_click(self.guard(lambda _b: self.close_poll()))
        ui.show_names.observe(self.guard(lambda change: self.show_names(bool(change["new"]))), "value")

    def failed(self) -> None:
        self._say("error.unexpected", "error")

    def _say(self, key: str, kind: str = "ok", **params: Any) -> None:
        self.message = (key, kind, params)
        self.draw()

    def _refused(self, error: Exception) -> None:
        """A refusal of the referee or the engine (TableRefusal, IllegalAction), in words."""
        self.message = ("", "error", {"text": error_text(error, self.t, self.controller.names)})
        self.draw()

    def _open_store(self) -> TableStore | None:
        """The table store (opened on first use); None, said in words, if it cannot be opened."""
        if self.store is None:
            try:
                self.store = open_store(referee=True)
            except StoreError:
                log.exception("speculation_nb host panel: the table store cannot be opened")
                self.message = ("class.host.store_unreachable", "error", {})
        return self.store

    # ---------------------------------------------------------------- the table
    def open_table(self) -> Referee | None:
        """Open a new table for the game shown (T1, T9): a code, the host secret kept here and
        in this browser, the first moment published, the referee serving."""
        if self.referee is not None:
            return self.referee
        store = self._open_store()
        if store is None:
            self._say(self.message[0] or "class.host.needs_store", "error")
            return None
        from ...classroom.referee import Referee

        try:
            referee = Referee.open(store, ControllerHost(self.controller), teams=bool(self.ui.teams.value))
        except StoreError:
            log.exception("speculation_nb host panel: the table could not be made")
            self._say("class.host.store_unreachable", "error")
            return None
        self._start(referee)
        self._say("class.host.opened", "ok", code=show_code(referee.code))
        return referee

    def ask_open(self) -> None:
        """The Open button: a new table. If this browser kept a table that is still open (the
        teacher reloaded), the new one replaces it: the panel asks first, and only a yes closes
        the kept table (T10: its students are told) before the new one opens."""
        kept = self.kept
        if kept is None or self.referee is not None:
            self.open_table()
            return
        t = self.t
        self.resume_row.words(
            t("class.host.replace_ask", code=show_code(kept["code"])),
            yes=t("class.host.replace_yes"),
            no=t("class.host.replace_no"),
        )
        self.resume_row.ask(self._replace_agreed, self.draw)

    def _replace_agreed(self) -> None:
        kept, store = self.kept, self._open_store()
        if kept is None or store is None:
            self.open_table()
            return
        from ...classroom.referee import Referee

        try:
            Referee.wipe_table(store, kept["code"], kept["secret"])
        except StoreError:
            log.exception("speculation_nb host panel: the kept table could not be closed")
            self._say("class.host.store_unreachable", "error")
            return
        self.kept = None
        self.memory.keep(None)
        self.open_table()

    def ask_resume(self) -> None:
        """The Resume button: the table's game replaces the one shown, so once something has been
        played here the panel asks first (nothing changes until the teacher answers)."""
        kept = self.kept
        if kept is None or self.referee is not None:
            return
        if not self.controller.started:
            self.resume_table()
            return
        t = self.t
        self.resume_row.words(
            t("class.host.resume_ask", code=show_code(kept["code"])),
            yes=t("class.host.resume_yes"),
            no=t("class.host.resume_no"),
        )
        self.resume_row.ask(self._resume_agreed, self._resume_declined)

    def _resume_agreed(self) -> None:
        self.resume_table()

    def _resume_declined(self) -> None:
        self.message = ("class.host.resume_kept", "ok", {})
        self.draw()

    def resume_table(self) -> Referee | None:
        """Referee again the table this browser kept (the teacher reloaded: T9, T12)."""
        kept, store = self.kept, self._open_store()
        if self.referee is not None or kept is None or store is None:
            return self.referee
        from ...classroom.referee import Referee

        try:
            referee = Referee.resume(store, kept["code"], kept["secret"], host_maker(self.controller))
        except (TableRefusal, ValueError, StoreError) as error:  # wiped, expired, or not this secret's
            log.info("speculation_nb host panel: the kept table did not resume: %s", error)
            self.kept = None
            self.memory.keep(None)
            if isinstance(error, TableRefusal):
                self._refused(error)
            else:
                self._say("class.host.resume_failed", "error")
            return None
        self._start(referee)
        self._say("class.host.resumed", "ok", code=show_code(referee.code))
        return referee

    def _start(self, referee: Referee) -> None:
        self.referee = referee
        self.kept = None
        self.close_row.drop()
        self.download = ""
        self.memory.keep({"code": referee.code, "secret": referee.host_secret})
        referee.observe(self._on_table)
        self.controller.add_publisher(self._publish)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop serves this kernel (a script, a test): handle_pending() by hand
            self.task = None
        else:
            self.task = loop.create_task(referee.serve())
            self.task.add_done_callback(self._served)

    def _stop(self) -> None:
        self.controller.remove_publisher(self._publish)
        self.controller.hold_mode(None)
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.referee = None

    def _publish(self) -> None:
        """Before the teacher's page redraws (the controller's publisher): the moment to the class."""
        referee = self.referee
        if referee is not None:
            referee.publish()  # a store failure is kept in referee.trouble (drawn next), never raised

    def _served(self, task: asyncio.Task[None]) -> None:
        """The referee stopped serving: closed here, or another tab took the table over (T12)."""
        if task is not self.task or task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("speculation_nb host panel: the referee stopped", exc_info=error)
        self._stop()
        self._say("class.host.stopped", "error")

    def _on_table(self) -> None:
        try:
            referee = self.referee
            if referee is not None and referee.stopped is not None and not self.closing:
                # T12: another page of the teacher's resumed the table, or it is gone
                self._stop()
                if referee.stopped == "closed":
                    self.memory.keep(None)
                self.message = ("class.host.stopped", "error", {})
            self.draw()
        except Exception:
            log.exception("speculation_nb host panel: redraw failed")

    def _on_change(self, _change: Any = None) -> None:
        self._on_table()

    def _on_memory(self, change: Any) -> None:
        """The browser told what it kept: a table still open is offered to resume."""
        if not change["new"] or self.referee is not None:
            return
        kept = self.memory.kept()
        store = self._open_store()
        ok = (
            kept is not None
            and isinstance(kept.get("code"), str)
            and isinstance(kept.get("secret"), str)
            and store is not None
            and store.exists(kept["code"])
        )
        self.kept = {"code": kept["code"], "secret": kept["secret"]} if ok and kept is not None else None
        self.draw()

    def join(self) -> Any:
        """Show the student's screen in place of the app (:func:`.member_app.join_in_place`):
        the teacher, or anyone, joins a table by its code; "Leave the table" comes back."""
        from ..student.screen import join_in_place

        return join_in_place(self.app, store=self._open_store())

    # ---------------------------------------------------------------- actions
    def _live_referee(self) -> Referee:
        if self.referee is None:
            raise RuntimeError("no table is open")
        return self.referee

    def _table_action(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except (TableRefusal, IllegalAction) as error:
            self._refused(error)
            return
        self.message = ("", "", {})
        self.draw()

    def toggle_pause(self) -> None:
        """T4/T9: Pause (students' actions are refused) or Resume."""
        referee = self._live_referee()
        self._table_action(referee.resume_play if referee.paused else referee.pause)

    def take_over(self, seat: int, on: bool = True) -> None:
        """T9: the teacher plays ``seat`` (its students' requests refused), or gives it back."""
        referee = self._live_referee()
        self._table_action(referee.take_over if on else referee.give_back, seat)

    def computer(self, seat: int, on: bool = True) -> None:
        """T9: a computer player takes the empty ``seat`` (or leaves it)."""
        referee = self._live_referee()
        self._table_action(referee.seat_computer, seat, on)

    def place(self, member: Any, seat: Any) -> None:
        """T9: move a student to ``seat`` (a team if taken) or to the spectators (``-1``/None)."""
        if not isinstance(member, str) or not member:
            self._say("class.host.place_nobody", "error")
            return
        target = None if seat is None or seat == -1 else int(seat)
        self._table_action(self._live_referee().place, member, target)

    def ask(self) -> None:
        """T7: ask "What would you pay?" at the moment shown."""
        self._table_action(self._live_referee().ask)

    def close_poll(self) -> None:
        self._table_action(self._live_referee().close_poll)

    def show_names(self, on: bool) -> None:
        """Show the poll's answers by name (anonymous on the projector otherwise, T7)."""
        self.names_shown = on
        if self.ui.show_names.value != on:
            self.ui.show_names.value = on
        self.draw()

    def export(self) -> str:
        """T10: a download of the table's record (JSON, names included); returns the JSON."""
        referee = self._live_referee()
        text = referee.export_json()
        self.download = (
            f'<a class="spec-host-file" download="{esc(f"speculation-table-{referee.code}.json")}" '
            f'href="data:application/json;charset=utf-8,{quote(text, safe="")}">'
            f"{esc(self.t('class.host.download'))}</a>"
        )
        self.draw()
        return text

    @property
    def asking(self) -> bool:
        """True while "Close the table?" waits for an answer."""
        return self.close_row.asking

    def ask_close(self) -> None:
        """Close the table: first ask (closing wipes it); the focus goes to "keep it open"."""
        self._live_referee()
        self.close_row.ask(self.close_table, self.draw)
        self.draw()

    def close_table(self) -> None:
        """T9/T10: wipe the table from the store (students are told it closed) and stop refereeing."""
        referee = self._live_referee()
        self.close_row.drop()
        self.closing = True
        try:
            referee.wipe()
            referee.close()
        finally:
            self.closing = False
        self._stop()
        self.memory.keep(None)
        self.download = ""
        self._say("class.host.closed", "ok")

    def close(self) -> None:
        """Close the panel's widgets; an open table stays in the store (a reload resumes it)."""
        if self.referee is not None:
            self.closing = True
            self.referee.close()
        self._stop()
        super().close()

    # ---------------------------------------------------------------- drawing
    def draw(self) -> None:
        t, ui, referee = self.t, self.ui, self.referee
        ui.intro.value = esc(t("class.host.intro"))
        set_traits(ui.open, description=t("class.host.open"), tooltip=t("class.host.open_tip"))
        set_traits(ui.teams, description=t("class.host.teams"))
        kept = self.kept
        show(ui.resume, kept is not None)
        if kept is None or referee is not None:
            self.resume_row.drop()
        show(ui.join, self.app is not None)
        set_traits(ui.join, description=t("class.host.join"), tooltip=t("class.host.join_tip"))
        if kept is not None:
            set_traits(ui.resume, description=t("class.host.resume", code=show_code(kept["code"])))
        show(ui.start, referee is None)
        show(ui.intro, referee is None)
        show(ui.table, referee is not None)
        if referee is not None:
            self._draw_table(referee, t)
        key, kind, params = self.message
        text = params.get("text", "") if not key else t(key, **params)
        toggle_class(ui.message, "spec-host-error", kind == "error")
        ui.message.value = esc(text)

    def _draw_table(self, referee: Referee, t: Translator) -> None:
        ui, c = self.ui, self.controller
        code = show_code(referee.code)
        link = referee.link(table_address())
        ui.code_label.value = esc(t("class.host.code_label"))
        ui.code.value = f'<span aria-label="{esc(t("class.host.code_spoken", code=" ".join(code)))}">{esc(code)}</span>'
        ui.link.value = (
            f'<input class="spec-host-address" type="text" readonly value="{esc(link)}" '
            f'aria-label="{esc(t("class.host.link"))}" onfocus="this.select()">'
            f'<button class="spec-host-copy" type="button" data-done="{esc(t("class.host.copied"))}" '
            f'data-manual="{esc(t("class.host.copy_by_hand"))}" onclick="{esc(COPY_JS)}">'
            f"{esc(t('class.host.copy'))}</button>"
            f'<span class="spec-host-copied" aria-live="polite"></span>'
        )
        from ...rendering.qr import qr_svg

        picture = (link, t.lang)
        if self._qr_for != picture:  # drawn once per link and language (the QR code is the slow part)
            self._qr_for = picture
            ui.qr.value = qr_svg(link, title=t("class.host.qr", code=code))
        members = referee.members()
        watching = [m for m in members if m.seat is None]
        if referee.paused:
            state = t("class.host.state_paused")
        elif not c.live:
            state = t("class.host.state_looking_back")
        else:
            state = t("class.host.state_live")
        joined = t.plural("class.host.joined", len(members), watching=t.number(len(watching)))
        trouble = f" {t('class.host.store_failed')}" if referee.trouble else ""
        ui.status.value = esc(f"{state} {joined}{trouble}")
        toggle_class(ui.status, "spec-host-waiting", referee.paused or not c.live or bool(trouble))
        set_traits(
            ui.pause,
            description=t("class.host.resume_play" if referee.paused else "class.host.pause"),
            tooltip=t("class.host.resume_play_tip" if referee.paused else "class.host.pause_tip"),
        )
        set_traits(ui.export, description=t("class.host.export"), tooltip=t("class.host.export_tip"))
        set_traits(ui.close, description=t("class.host.close"), tooltip=t("class.host.close_tip"))
        self.close_row.words(t("class.host.close_ask"), yes=t("class.host.close_yes"), no=t("class.host.close_no"))
        ui.download.value = self.download
        self._draw_seats(referee, t)
        names = [m.name for m in watching]
        ui.spectators.value = t.html(
            "class.host.spectators", names=_name_list(names) if names else t("class.host.nobody")
        )
        options = [(m.name, m.id) for m in members]
        seats = [(t("class.host.place_watch"), -1)] + [(c.names[s], s) for s in range(c.rules.players)]
        _options(ui.place_member, options)
        _options(ui.place_seat, seats)
        set_traits(ui.place_member, description=t("class.host.place_who"))
        set_traits(ui.place_seat, description=t("class.host.place_where"))
        set_traits(ui.place, description=t("class.host.place"), disabled=not members)
        show(ui.place_row, bool(members))
        self._draw_poll(referee, t)

    def _draw_seats(self, referee: Referee, t: Translator) -> None:
        ui, c = self.ui, self.controller
        seats = referee.seats()
        while len(self._seat_rows) < len(seats):
            seat = len(self._seat_rows)
            label = tagged(widgets.HTML(), "spec-host-seat-label")
            take = _button("spec-host-take")
            computer = _button("spec-host-computer")
            take.on_click(self.guard(functools.partial(self._seat_pressed, seat, "teacher")))
            computer.on_click(self.guard(functools.partial(self._seat_pressed, seat, "computer")))
            self._seat_rows.append((label, take, computer))
            self._seat_boxes.append(tagged(widgets.HBox([label, take, computer]), "spec-host-seat"))
        rows = self._seat_rows[: len(seats)]
        boxes = tuple(self._seat_boxes[: len(seats)])
        if ui.seats.children != boxes:
            ui.seats.children = boxes
        ui.seats_title.value = esc(t("class.host.seats"))
        for info, (label, take, computer) in zip(seats, rows, strict=True):
            name = c.names[info.seat] if 0 <= info.seat < len(c.names) else str(info.seat)
            kind = t(f"class.host.kind.{info.kind}")
            who = _name_list(list(info.members)) if info.members else ""
            label.value = (
                f"{t.html('class.host.seat', n=info.seat + 1, name=bidi(name))} "
                f'<span class="spec-host-kind">{esc(kind)}</span> {who}'
            )
            teacher = info.kind == "teacher"
            set_traits(
                take,
                description=t("class.host.give_back" if teacher else "class.host.take_over", name=name),
                tooltip=t("class.host.give_back_tip" if teacher else "class.host.take_over_tip"),
                disabled=info.kind == "computer",
            )
            on = info.kind == "computer"
            set_traits(
                computer,
                description=t("class.host.computer_off" if on else "class.host.computer_on", name=name),
                tooltip=t("class.host.computer_tip"),
                disabled=info.kind == "people",  # a seat with students keeps them (T2)
            )

    def _seat_pressed(self, seat: int, kind: str, _button: Any = None) -> None:
        """A seat's button: take over / give back (``"teacher"``), computer on / off (``"computer"``)."""
        on = self._kind(seat) != kind
        if kind == "teacher":
            self.take_over(seat, on)
        else:
            self.computer(seat, on)

    def _kind(self, seat: int) -> str:
        for info in self._live_referee().seats():
            if info.seat == seat:
                return str(info.kind)
        return "free"

    def _draw_poll(self, referee: Referee, t: Translator) -> None:
        ui, c = self.ui, self.controller
        poll = referee.poll
        shown = poll if poll is not None else (referee.polls[-1] if referee.polls else None)
        ui.poll_title.value = esc(t("class.host.poll.heading"))
        set_traits(ui.ask, description=t("class.host.ask"), tooltip=t("class.host.ask_tip"))
        set_traits(ui.close_poll, description=t("class.host.close_poll"))
        set_traits(ui.show_names, description=t("class.host.show_names"))
        open_ = poll is not None and bool(poll.open)
        show(ui.ask, not open_)
        show(ui.close_poll, open_)
        show(ui.show_names, shown is not None)
        if shown is None:
            ui.poll.value = ""
            return
        names = {m.id: m.name for m in referee.members()} if self.names_shown else None
        ui.poll.value = poll_html(shown, c.names, t, names)


def _name_list(names: list[str]) -> Safe:
    """Names typed by students, each escaped and isolated (T11)."""
    return Safe(", ".join(str(bidi(n)) for n in names))


def _options(w: widgets.Dropdown, options: list[tuple[str, Any]]) -> None:
    if list(w.options) == options:
        return
    value = w.value
    values = [v for _label, v in options]
    with w.hold_sync():
        w.options = options
        w.value = value if value in values else (values[0] if values else None)
