"""The teacher's side of the shared table: the "Open the table to the class" panel (T1-T12).

``HostPanel(controller, store)`` draws a :class:`~speculation_nb.classroom.host_session.HostSession`
(the table's lifecycle: open, resume, serve, close, export; no widget there) and forwards the
teacher's presses to it; it is built on the first press of the app's ``table`` opener
(:mod:`.opener`). Before a table is open: "Open the table" (and whether several students may
share a seat); if this browser kept a table that is still open (the teacher reloaded:
DeviceMemory ``speculation_nb.host``), "Resume the table", which asks first
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
* the poll as a lesson runs it (T7): "Ask: what would you pay?" at the moment shown, "Time is
  up" (the referee refuses later answers), Reveal the answers, then Show names (the teacher's
  choice; names never go to the students' pages), and the answers
  (:func:`.poll_chart.poll_html`: the count only until the reveal, then every number in words
  and figures);
* Export (a download of the table's record, names included) and Close the table, which asks
  first: closing wipes the table from the store and sends the students away.

Once open, the state, Pause and the poll come first, and the app's root has ``spec-live-table``: at
1000 px wide or more (a projector) the app is two columns, the table and its controls beside the odds,
the host's controls and the poll's histogram (``teacher.css``), all seen at 1280x800 and 1920x1080.

The host secret lives in the session (the referee's) and in the teacher's own browser (the
DeviceMemory, which the session is given to keep it in, so that a reload resumes, T9); never in
the link, the code or any widget shown. Every check of a press is the session's or the referee's.

CSS classes: ``spec-host`` (the root) and ``spec-host-*`` for its parts (:mod:`.style`).
"""

from __future__ import annotations

import functools
import logging
import os
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.codes import show_code
from ...classroom.host_session import HostSession
from ...languages.translator import Safe, Translator
from ...links.share import link_base
from ...rendering.poll_chart import poll_html
from ..common.confirm import CSS as CONFIRM_CSS
from ..common.confirm import ConfirmRow
from ..common.device_memory import DeviceMemory
from ..common.panel import ControllerPanel, tagged
from ..common.parts import bidi, esc, set_options, set_traits, show, toggle_class
from ..common.who import who_is_who
from ..model import Controller
from . import question_row
from .app_game import AppTable
from .style import COPY_JS, CSS

__all__ = ["ADDRESS_SETTING", "CSS", "MEMORY_KEY", "HostPanel", "table_address"]

log = logging.getLogger("speculation_nb.widgets")

#: The address students open (the class's own server), when it is not this page's own.
ADDRESS_SETTING = "SPECULATION_TABLE_ADDRESS"
#: The teacher's browser keeps ``{"code": ..., "secret": ...}`` here (T9: a reload resumes).
MEMORY_KEY = "speculation_nb.host"


def table_address() -> str:
    """The address students open: ``SPECULATION_TABLE_ADDRESS``, else this page's own."""
    return os.environ.get(ADDRESS_SETTING, "").strip() or link_base()


def _button(*classes: str, style: str = "") -> widgets.Button:
    return tagged(widgets.Button(button_style=style), "spec-button", *classes)


class HostPanel(ControllerPanel):
    """The teacher's panel of the shared table (see the module docstring): it draws a
    :class:`~speculation_nb.classroom.host_session.HostSession` and forwards the teacher's presses."""

    def __init__(
        self, controller: Controller, store: Any = None, app: Any = None, memory: DeviceMemory | None = None
    ) -> None:
        self.controller = controller
        self._memory = memory  # the app's DeviceMemory of the host secret (None: the panel's own)
        self.app = app  # the app, for "Join a table as a student" (None: no such button)
        self.names_shown = False
        self._qr_for: tuple[str, str] | None = None
        self._seat_rows: list[tuple[widgets.HTML, widgets.Button, widgets.Button]] = []
        self._seat_boxes: list[widgets.HBox] = []
        self._build()
        #: The table's lifecycle (``store``: a table store, None: the configured one).
        self.session = HostSession(AppTable(controller), store, remember=self.memory.keep)
        self.lend = question_row.EditorLend(app, self.session)
        self.session.observe(self._on_change)
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
        ui.restored = tagged(widgets.HTML(), "spec-host-restored")  # the table restored after a crash
        ui.show_who = tagged(widgets.Checkbox(value=True, indent=False), "spec-host-show-who")
        ui.who = tagged(widgets.HTML(), "spec-host-who")
        ui.who_box = tagged(widgets.VBox([ui.show_who, ui.who]), "spec-host-who-box")
        ui.pause = _button("spec-host-pause")
        ui.export = _button("spec-host-export")
        ui.close = _button("spec-host-close", style="danger")
        ui.actions = tagged(widgets.HBox([ui.pause, ui.export, ui.close]), "spec-host-row")
        ui.download = tagged(widgets.HTML(), "spec-host-download")
        #: "It is Bob's turn: turn up for Bob?" (issue 27: a student's card only on purpose)
        self.turn_row = ConfirmRow("spec-host-turn-ask", self.guard)
        ui.turn_ask, ui.turn_ask_text, ui.turn_yes, ui.turn_no = self.turn_row.widgets
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
        ui.reveal_poll = _button("spec-host-reveal-poll", style="primary")
        ui.show_names = tagged(widgets.Checkbox(value=False, indent=False), "spec-host-show-names")
        ui.handout = _button("spec-host-handout")
        row = [ui.ask, ui.close_poll, ui.reveal_poll, ui.show_names, ui.handout]
        ui.poll_row = tagged(widgets.HBox(row), "spec-host-row")
        ui.poll = tagged(widgets.HTML(), "spec-host-poll")
        ui.answers_one = _button("spec-host-answers-one")
        ui.answers_all = _button("spec-host-answers-all")
        ui.answers_names = tagged(widgets.Checkbox(value=False, indent=False), "spec-host-answers-names")
        ui.answers_row = tagged(widgets.HBox([ui.answers_one, ui.answers_all, ui.answers_names]), "spec-host-row")
        ui.answers_download = tagged(widgets.HTML(), "spec-host-answers-download")
        questions = question_row.build(ui, lambda: self.session, self.guard)  # issue 25: question deals
        # The host's controls and the poll first, then the rest: a projector's column (teacher.css), in order
        parts = [ui.turn_ask, ui.status, ui.restored, ui.actions, ui.confirm, ui.download, ui.poll_title, ui.poll_row]
        parts += [ui.poll, ui.answers_row, ui.answers_download, questions, ui.who_box, ui.head, ui.seats_title]
        parts += [ui.seats, ui.spectators, ui.place_row]
        ui.table = tagged(widgets.VBox(parts), "spec-host-table")
        ui.message = tagged(widgets.HTML(), "spec-host-message")
        ui.root = tagged(
            widgets.VBox([ui.style, ui.memory, ui.intro, ui.start, ui.resume_ask, ui.table, ui.message]), "spec-host"
        )
        ui.open.on_click(self.guard(lambda _b: self.ask_open()))
        ui.resume.on_click(self.guard(lambda _b: self.ask_resume()))
        ui.join.on_click(self.guard(lambda _b: self.join()))
        ui.pause.on_click(self.guard(lambda _b: self.session.toggle_pause()))
        ui.export.on_click(self.guard(lambda _b: self.session.export()))
        ui.close.on_click(self.guard(lambda _b: self.ask_close()))
        ui.place.on_click(self.guard(lambda _b: self.session.place(ui.place_member.value, ui.place_seat.value)))
        ui.ask.on_click(self.guard(lambda _b: self.ask()))
        ui.close_poll.on_click(self.guard(lambda _b: self.session.close_poll()))
        ui.reveal_poll.on_click(self.guard(lambda _b: self.session.reveal_poll()))
        ui.answers_one.on_click(self.guard(lambda _b: self.answers(whole=False)))
        ui.answers_all.on_click(self.guard(lambda _b: self.answers(whole=True)))
        ui.handout.on_click(self.guard(lambda _b: self.session.handout(self.t)))
        ui.show_names.observe(self.guard(lambda change: self.show_names(bool(change["new"]))), "value")
        ui.show_who.observe(self.guard(lambda _change: self.draw()), "value")

    def failed(self) -> None:
        self.session.tell("error.unexpected", True)

    # ---------------------------------------------------------------- the teacher's presses
    def open_table(self) -> bool:
        """Open a new table for the game shown (the session's :meth:`~.HostSession.open_table`)."""
        return self.session.open_table(teams=bool(self.ui.teams.value)) is not None

    def ask_open(self) -> None:
        """The Open button: a new table. If this browser kept a table that is still open (the
        teacher reloaded), the new one replaces it: the panel asks first, and only a yes closes
        the kept table (T10: its students are told) before the new one opens."""
        kept = self.session.kept
        if kept is None or self.session.open:
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
        self.session.replace_kept(teams=bool(self.ui.teams.value))

    def ask_resume(self) -> None:
        """The Resume button: the table's game replaces the one shown, so once something has been
        played here the panel asks first (nothing changes until the teacher answers)."""
        kept = self.session.kept
        if kept is None or self.session.open:
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
        self.resume_row.ask(self.resume_table, lambda: self.session.tell("class.host.resume_kept"))

    def resume_table(self) -> None:
        """Referee again the table this browser kept (the teacher reloaded: T9, T12)."""
        self.session.resume()

    def _on_change(self, _change: Any = None) -> None:
        try:
            self.draw()
        except Exception:
            log.exception("speculation_nb host panel: redraw failed")

    def _on_memory(self, change: Any) -> None:
        """The browser told what it kept: a table still open is offered to resume."""
        if change["new"]:
            self.session.offer_kept(self.memory.kept())

    def join(self) -> Any:
        """Show the student's screen in place of the app (:func:`..student.screen.join_in_place`):
        the teacher, or anyone, joins a table by its code; "Leave the table" comes back."""
        from ..student.screen import join_in_place

        return join_in_place(self.app, store=self.session.reach_store())

    def ask(self) -> None:
        """T7: ask "What would you pay?" at the moment shown (anonymous again: names hidden)."""
        if self.session.ask():
            self.show_names(False)

    def show_names(self, on: bool) -> None:
        """Show the poll's answers by name (anonymous on the projector otherwise, T7)."""
        self.names_shown = on
        if self.ui.show_names.value != on:
            self.ui.show_names.value = on
        self.draw()

    def answers(self, whole: bool = False) -> None:
        """T7: the answers of the latest question (or of the whole lesson) as a CSV download, with
        names or anonymous ids as the "Names in the file" box says."""
        poll = self.session.poll
        if poll is not None:
            named = bool(self.ui.answers_names.value)
            self.session.answers(self.t, named=named, poll=None if whole else poll.id, base=table_address())

    @property
    def asking(self) -> bool:
        """True while "Close the table?" waits for an answer."""
        return self.close_row.asking

    def ask_close(self) -> None:
        """Close the table: first ask (closing wipes it); the focus goes to "keep it open"."""
        if self.session.open:
            self.close_row.ask(self.session.close_table, self.draw)
            self.draw()

    def close(self) -> None:
        """Close the panel's widgets; an open table stays in the store (a reload resumes it)."""
        self.session.let_go()
        self.lend.follow()  # the editor opens moments in the app again
        super().close()

    # ---------------------------------------------------------------- drawing
    def draw(self) -> None:
        t, ui, session = self.t, self.ui, self.session
        ui.intro.value = esc(t("class.host.intro"))
        set_traits(ui.open, description=t("class.host.open"), tooltip=t("class.host.open_tip"))
        set_traits(ui.teams, description=t("class.host.teams"))
        kept = session.kept
        show(ui.resume, kept is not None)
        if kept is None or session.open:
            self.resume_row.drop()
        show(ui.join, self.app is not None)
        set_traits(ui.join, description=t("class.host.join"), tooltip=t("class.host.join_tip"))
        if kept is not None:
            set_traits(ui.resume, description=t("class.host.resume", code=show_code(kept["code"])))
        show(ui.start, not session.open)
        show(ui.intro, not session.open)
        show(ui.table, session.open)
        if session.open:
            self._draw_table(t)
        else:
            self.close_row.drop()
            self.turn_row.drop()
        self.lend.follow()  # issue 25: the app's editor asks the class while the table is open
        toggle_class(ui.message, "spec-host-error", session.notice.error)
        ui.message.value = esc(session.notice.words(t, self.controller.table_names))
        root = getattr(self.app, "widget", None)
        if isinstance(root, widgets.Widget):  # the projector's layout while a table is open (teacher.css)
            toggle_class(root, "spec-live-table", session.open)

    def _draw_table(self, t: Translator) -> None:
        ui, c, session = self.ui, self.controller, self.session
        code = show_code(session.code)
        link = session.link(table_address())
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
        members = session.members()
        watching = [m for m in members if m.seat is None]
        if session.paused:
            state = t("class.host.state_paused")
        elif session.question is not None:  # issue 25: the deal waits, where it stood
            state = t("class.host.state_question")
        elif not c.live:
            state = t("class.host.state_looking_back")
        else:
            state = t("class.host.state_live")
        joined = t.plural("class.host.joined", len(members), watching=t.number(len(watching)))
        trouble = f" {t('class.host.store_failed')}" if session.trouble else ""
        ui.status.value = esc(f"{state} {joined}{trouble}")
        toggle_class(ui.status, "spec-host-waiting", session.paused or not c.live or bool(trouble))
        restored = session.restored  # issue 27: the store went back after a crash, and what was lost
        value = "" if restored is None else f'<div role="alert">{esc(restored.words(t))}</div>'
        if ui.restored.value != value:
            ui.restored.value = value
        show(ui.restored, restored is not None)
        set_traits(
            ui.pause,
            description=t("class.host.resume_play" if session.paused else "class.host.pause"),
            tooltip=t("class.host.resume_play_tip" if session.paused else "class.host.pause_tip"),
        )
        set_traits(ui.export, description=t("class.host.export"), tooltip=t("class.host.export_tip"))
        set_traits(ui.close, description=t("class.host.close"), tooltip=t("class.host.close_tip"))
        self.close_row.words(t("class.host.close_ask"), yes=t("class.host.close_yes"), no=t("class.host.close_no"))
        exported = session.exported
        ui.download.value = (
            ""
            if exported is None
            else (
                f'<a class="spec-host-file" download="{esc(exported.name)}" '
                f'href="data:application/json;charset=utf-8,{quote(exported.text, safe="")}">'
                f"{esc(t('class.host.download'))}</a>"
            )
        )
        self._draw_seats(t)
        self._draw_who(t)
        self._draw_turn(t)
        names = [m.name for m in watching]
        ui.spectators.value = t.html(
            "class.host.spectators", names=_name_list(names) if names else t("class.host.nobody")
        )
        options = [(m.name, m.id) for m in members]
        seats = [(t("class.host.place_watch"), -1)] + [(c.table_names[s], s) for s in range(c.rules.players)]
        set_options(ui.place_member, options)
        set_options(ui.place_seat, seats)
        set_traits(ui.place_member, description=t("class.host.place_who"))
        set_traits(ui.place_seat, description=t("class.host.place_where"))
        set_traits(ui.place, description=t("class.host.place"), disabled=not members)
        show(ui.place_row, bool(members))
        self._draw_poll(t)

    def _draw_seats(self, t: Translator) -> None:
        ui, c = self.ui, self.controller
        seats = self.session.seats()
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
            name = c.table_names[info.seat] if 0 <= info.seat < len(c.table_names) else str(info.seat)
            kind = t(f"class.host.kind.{info.kind}")
            if info.members:  # named by its number: the seat's name is its students' (never "Ana: Ana")
                who = _name_list(list(info.members))
                label_html = t.html("class.member.seat_people", n=t.number(info.seat + 1), names=who)
            else:
                label_html = t.html("class.host.seat", n=info.seat + 1, name=bidi(name))
            label.value = f'{label_html} <span class="spec-host-kind">{esc(kind)}</span>'
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
                disabled=info.kind == "people",  # a seat with students keeps them (T2, the referee's check)
            )

    def _draw_turn(self, t: Translator) -> None:
        """Next card refused for a student's seat (issue 27): "It is Bob's turn: turn up for Bob?"."""
        due = self.session.asking
        if due is None:
            self.turn_row.drop()
            return
        name = self.controller.table_names[due]
        ask, yes, no = (t(k, name=name) for k in ("class.host.turn_ask", "class.host.turn_yes", "class.host.turn_no"))
        self.turn_row.words(ask, yes=yes, no=no)
        if not self.turn_row.asking:
            self.turn_row.ask(lambda: self.session.act_for(due), self.session.wait_for)

    def _draw_who(self, t: Translator) -> None:
        """Who is who (issue 27): each seat and its students, unless the teacher hides it."""
        ui = self.ui
        set_traits(ui.show_who, description=t("class.host.show_who"), tooltip=t("class.host.show_who_tip"))
        on = bool(ui.show_who.value)
        show(ui.who, on)
        rows = who_is_who(self.session.seats(), self.controller.table_names, t) if on else ""
        value = f'<div class="spec-host-title">{esc(t("class.host.who_title"))}</div><ul>{rows}</ul>' if on else ""
        if ui.who.value != value:
            ui.who.value = value

    def _seat_pressed(self, seat: int, kind: str, _button: Any = None) -> None:
        """A seat's button: take over / give back (``"teacher"``), computer on / off (``"computer"``)."""
        self.session.switch_seat(seat, kind)

    def _draw_poll(self, t: Translator) -> None:
        ui, c, session = self.ui, self.controller, self.session
        poll = session.poll
        ui.poll_title.value = esc(t("class.host.poll.heading"))
        set_traits(ui.ask, description=t("class.host.ask"), tooltip=t("class.host.ask_tip"))
        set_traits(ui.close_poll, description=t("class.host.lock_poll"), tooltip=t("class.host.lock_poll_tip"))
        set_traits(ui.reveal_poll, description=t("class.host.reveal_poll"), tooltip=t("class.host.reveal_poll_tip"))
        set_traits(ui.show_names, description=t("class.host.show_names"))
        state = "none" if poll is None else poll.state  # T7: ask, time is up, reveal
        show(ui.ask, state != "open")
        show(ui.close_poll, state == "open")
        show(ui.reveal_poll, state == "locked")
        show(ui.show_names, state == "revealed")
        show(ui.answers_row, poll is not None)
        set_traits(ui.answers_one, description=t("class.host.answers_csv"), tooltip=t("class.host.answers_csv_tip"))
        set_traits(ui.answers_all, description=t("class.host.answers_csv_all"), tooltip=t("class.host.answers_csv_tip"))
        set_traits(ui.answers_names, description=t("class.host.answers_names"))
        set_traits(ui.handout, description=t("class.host.handout"), tooltip=t("class.host.handout_tip"))
        question_row.draw(ui, t, session.question)
        ui.answers_download.value = question_row.files_html(t, session.answers_file, session.handout_file)
        if poll is None:
            ui.poll.value = ""
            return
        names = {m.id: m.name for m in session.members()} if self.names_shown else None
        ui.poll.value = poll_html(poll, session.seat_names(poll) or c.table_names, t, names)  # issue 25


def _name_list(names: list[str]) -> Safe:
    """Names typed by students, each escaped and isolated (T11)."""
    return Safe(", ".join(str(bidi(n)) for n in names))
