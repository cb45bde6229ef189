"""The teacher's side of one shared table, without a widget: open, resume, serve, close, export.

A :class:`HostSession` is what the teacher's panel (``speculation_nb.app.teacher.panel``)
observes and redraws; it drives the :class:`~.referee.Referee` of the table and the game on the
teacher's screen (a :class:`~.teacher_game.TableGame`: the app's controller, or a
:class:`~.teacher_game.SessionTable` in tests and notebooks). Its lifecycle:

* **open** (T1, T9): a new table for the game shown, with a fresh code and host secret; the first
  moment is published and the referee serves. The store is opened on first need
  (:func:`~.stores.base.open_store`); a store that cannot be reached is a notice, never a
  traceback, and the teacher's game goes on.
* **the host secret** lives in this object (the referee's) and on the teacher's own device: the
  session hands ``{"code": ..., "secret": ...}`` to ``remember`` (the panel's browser memory) and
  ``None`` when the table is gone. It is never in a link, a code or anything a student reads.
* **resume** (T9, T12): the device tells what it kept (:meth:`HostSession.offer_kept`, plain
  data); a table still in the store is offered (:attr:`HostSession.kept`) and
  :meth:`HostSession.resume` referees it again, its game replacing the one shown; the page that
  served it before stops (T12). :meth:`HostSession.replace_kept` closes the kept table (its
  students are told, T10) and opens a new one.
* **serving**: on the running event loop ``referee.serve()`` runs as a task (:attr:`task`);
  without one (a script, a test) ``referee.handle_pending()`` answers by hand. Every change of
  the teacher's game publishes the moment shown before the teacher's screen redraws.
* **the teacher's actions** (pause, take over, a computer player, place a student, the poll):
  checked by the referee; a refusal becomes the session's :attr:`notice`, nothing changes.
* **question deals** (issue 25): a moment of the question bank (:meth:`HostSession.open_question`) or
  one composed in the editor (:meth:`HostSession.open_composed`, with the teacher's question)
  shown to the class outside the standings, until :meth:`HostSession.end_question`.
* **the answers** (T7): a CSV file per question or for the whole lesson (:meth:`HostSession.answers`);
  a printable handout of the moment shown (:meth:`HostSession.handout`).
* **export** (T10): the table's record as JSON (:attr:`exported`), names included, and the
  session's seed (the teacher's file: it replays the session).
* **close** (T9, T10): :meth:`close_table` wipes the table (students are told), forgets it on
  the device and tells the seed that replays the session (hidden while the table was open: a
  table deals from a secret seed, :func:`~.teacher_game.secret_session`);
  :meth:`let_go` only stops serving here (the page closes; a reload resumes).

Observers (:meth:`HostSession.observe`) are called after every change of the session or of the
table (members, seats, polls), and when the referee stops (closed elsewhere, or another page of
the teacher's took the table over, T12).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import bank
from ..engine.errors import IllegalAction
from ..languages.translator import Translator
from ..links.composed import MomentEntry
from ..links.handout import handout_html, handout_name
from .answers import answers_csv, answers_name
from .codes import show_code
from .errors import TableRefusal
from .notice import Notice
from .poll import Poll
from .questions import QuestionDeal
from .referee import Referee
from .seating import MemberInfo, SeatInfo
from .stores.base import REFEREE_SETTING, STORE_SETTING, StoreError, TableStore, open_store
from .teacher_game import TableGame

__all__ = ["Export", "HostSession", "store_configured"]

log = logging.getLogger("speculation_nb.table")


def store_configured() -> bool:
    """Whether this kernel is told where tables live (``SPECULATION_TABLE_STORE`` or the referee's)."""
    return any(os.environ.get(name, "").strip() for name in (STORE_SETTING, REFEREE_SETTING))


@dataclass(frozen=True)
class Export:
    """A table's record (T10) as a file: its ``name`` and its JSON ``text``."""

    name: str
    text: str


class HostSession:
    """The teacher's side of one shared table (see the module docstring).

    ``game``: the game on the teacher's screen; ``store``: where the table lives (None: the
    configured one, opened on first need); ``remember``: keeps the host secret on the teacher's
    device (``None`` forgets it)."""

    def __init__(
        self,
        game: TableGame,
        store: TableStore | None = None,
        remember: Callable[[dict[str, str] | None], None] | None = None,
    ) -> None:
        self.game = game
        self.store = store
        self.remember = remember
        self.referee: Referee | None = None
        #: The serve task on the event loop the table was opened on (None: answered by hand).
        self.task: asyncio.Task[None] | None = None
        #: A table this device kept from before a reload, still in the store: ``{"code", "secret"}``.
        self.kept: dict[str, str] | None = None
        self.notice = Notice()
        self.exported: Export | None = None
        self.answers_file: Export | None = None  #: the answers as CSV (:meth:`answers`)
        self.handout_file: Export | None = None  #: the moment's printable page (:meth:`handout`)
        self._closing = False  # this session is closing the table itself
        self._observers: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ observing
    def observe(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after every change of the session or of its table."""
        self._observers.append(fn)

    def _changed(self) -> None:
        for fn in list(self._observers):
            fn()

    def tell(self, key: str = "", error: bool = False, **params: Any) -> None:
        """Set the notice (a catalog key and its parameters; ``""``: nothing to say) and tell."""
        self.notice = Notice(key, error, params)
        self._changed()

    def _refused(self, refusal: Exception) -> None:
        self.notice = Notice.refused(refusal)
        self._changed()

    def _keep(self, kept: dict[str, str] | None) -> None:
        if self.remember is not None:
            self.remember(kept)

    @property
    def open(self) -> bool:
        """True while this session referees a table."""
        return self.referee is not None

    def reach_store(self) -> TableStore | None:
        """The table store (opened on first use); None, with a notice, if it cannot be opened."""
        if self.store is None:
            try:
                self.store = open_store(referee=True)
            except StoreError:
                log.exception("speculation_nb host session: the table store cannot be opened")
                self.notice = Notice("class.host.store_unreachable", True)
        return self.store

    # ------------------------------------------------------------------ opening
    def open_table(self, teams: bool = False) -> Referee | None:
        """Open a new table for the game shown (T1, T9): a code, the host secret kept here and on
        the device, the first moment published, the referee serving. ``teams``: several students
        may share a seat. None (said in the notice) when the store fails."""
        if self.referee is not None:
            return self.referee
        store = self.reach_store()
        if store is None:
            self.tell(self.notice.key or "class.host.needs_store", True)
            return None
        try:
            referee = Referee.open(store, self.game.host(), teams=bool(teams))
        except StoreError:
            log.exception("speculation_nb host session: the table could not be made")
            self.game.detach(self._publish)  # no table: the game is free again
            self.tell("class.host.store_unreachable", True)
            return None
        self._start(referee)
        self.tell("class.host.opened", code=show_code(referee.code))
        return referee

    def offer_kept(self, kept: Mapping[str, Any] | None) -> None:
        """What the teacher's device kept (plain data, whatever it holds): a table still in the
        store is offered to resume (:attr:`kept`); anything else offers nothing."""
        if self.referee is not None:
            return
        store = self.reach_store() if isinstance(kept, Mapping) else None
        code, secret = (kept.get("code"), kept.get("secret")) if isinstance(kept, Mapping) else (None, None)
        ok = isinstance(code, str) and isinstance(secret, str) and store is not None and store.exists(code)
        self.kept = {"code": str(code), "secret": str(secret)} if ok else None
        self._changed()

    def replace_kept(self, teams: bool = False) -> Referee | None:
        """Close the kept table (T10: its students are told) and open a new one."""
        kept, store = self.kept, self.reach_store()
        if kept is None or store is None or self.referee is not None:
            return self.open_table(teams)
        try:
            Referee.wipe_table(store, kept["code"], kept["secret"])
        except StoreError:
            log.exception("speculation_nb host session: the kept table could not be closed")
            self.tell("class.host.store_unreachable", True)
            return None
        self.kept = None
        self._keep(None)
        return self.open_table(teams)

    def resume(self) -> Referee | None:
        """Referee again the table the device kept (the teacher reloaded: T9); its game replaces
        the one shown, and the page that served it before stops (T12)."""
        kept, store = self.kept, self.reach_store()
        if self.referee is not None or kept is None or store is None:
            return self.referee
        try:
            referee = Referee.resume(store, kept["code"], kept["secret"], self.game.host_for)
        except (TableRefusal, ValueError, StoreError) as error:  # wiped, expired, or not this secret's
            log.info("speculation_nb host session: the kept table did not resume: %s", error)
            self.kept = None
            self._keep(None)
            if isinstance(error, TableRefusal):
                self._refused(error)
            else:
                self.tell("class.host.resume_failed", True)
            return None
        self._start(referee)
        self.tell("class.host.resumed", code=show_code(referee.code))
        return referee

    # ------------------------------------------------------------------ serving
    def _start(self, referee: Referee) -> None:
        self.referee = referee
        self._closing = False
        self.kept = None
        self.exported = self.answers_file = self.handout_file = None
        self._keep({"code": referee.code, "secret": referee.host_secret})
        referee.observe(self._on_table)
        self.game.attach(self._publish)
        self.game.guard(referee.acts)  # the teacher's presses for a student's seat: only on purpose
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop serves this kernel (a script, a test): handle_pending() by hand
            self.task = None
        else:
            self.task = loop.create_task(referee.serve())
            self.task.add_done_callback(self._served)

    def _stop(self) -> None:
        self.game.guard(None)
        self.game.detach(self._publish)
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.referee = None

    def _publish(self) -> None:
        """At each change of the teacher's game, before the screen redraws: the moment to the class."""
        referee = self.referee
        if referee is not None:
            referee.publish()  # a store failure is kept in referee.trouble (drawn next), never raised

    def _served(self, task: asyncio.Task[None]) -> None:
        """The referee stopped serving: closed here, or another page took the table over (T12)."""
        if task is not self.task or task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("speculation_nb host session: the referee stopped", exc_info=error)
        self._stop()
        self.tell("class.host.stopped", True)

    def _on_table(self) -> None:
        """The referee's observer: members, seats or polls changed, or the referee stopped."""
        referee = self.referee
        if referee is not None and referee.stopped is not None and not self._closing:
            # T12: another page of the teacher's resumed the table, or it is gone
            self._stop()
            if referee.stopped == "closed":
                self._keep(None)
            self.notice = Notice("class.host.stopped", True)
        self._changed()

    # ------------------------------------------------------------------ the teacher's actions
    def _live(self) -> Referee:
        if self.referee is None:
            raise RuntimeError("no table is open")
        return self.referee

    def _act(self, fn: Callable[..., object], *args: Any) -> bool:
        """Do one of the teacher's actions; a refusal (the referee's or the engine's) is the notice."""
        try:
            fn(*args)
        except (TableRefusal, IllegalAction) as error:
            self._refused(error)
            return False
        self.tell()
        return True

    def toggle_pause(self) -> bool:
        """T4/T9: Pause (students' actions are refused) or Resume."""
        referee = self._live()
        return self._act(referee.resume_play if referee.paused else referee.pause)

    def take_over(self, seat: int, on: bool = True) -> bool:
        """T9: the teacher plays ``seat`` (its students' requests refused), or gives it back."""
        referee = self._live()
        return self._act(referee.take_over if on else referee.give_back, seat)

    def computer(self, seat: int, on: bool = True) -> bool:
        """T9: a computer player takes the empty ``seat`` (or leaves it); a seat with students
        keeps them (T2, the referee's check)."""
        return self._act(self._live().seat_computer, seat, on)

    def kind(self, seat: int) -> str:
        """Who plays ``seat`` now: ``free``, ``people``, ``teacher`` or ``computer``."""
        for info in self._live().seats():
            if info.seat == seat:
                return str(info.kind)
        return "free"

    def switch_seat(self, seat: int, kind: str) -> bool:
        """A seat's button: ``"teacher"`` takes over or gives back, ``"computer"`` seats a
        computer player or lifts it: whichever the seat is not now."""
        on = self.kind(seat) != kind
        return self.take_over(seat, on) if kind == "teacher" else self.computer(seat, on)

    def place(self, member: object, seat: object) -> bool:
        """T9: move ``member`` (an id) to ``seat`` (a team if taken) or to the spectators
        (``-1`` or None); whatever the page sent, a wrong value changes nothing."""
        if not isinstance(member, str) or not member:
            self.tell("class.host.place_nobody", True)
            return False
        if seat is None or seat == -1:
            target = None
        elif isinstance(seat, int) and not isinstance(seat, bool):
            target = seat
        else:
            self._refused(TableRefusal("T9", "table.bad_request"))
            return False
        return self._act(self._live().place, member, target)

    @property
    def asking(self) -> int | None:
        """The student's seat whose card the teacher tried to turn up, still due: the page asks
        "It is Bob's turn: turn up for Bob?" (issue 27); None otherwise."""
        return None if self.referee is None else self.referee.acts.due()

    def act_for(self, seat: int) -> None:
        """The teacher's yes: turn up ``seat``'s card for its students (the log says the teacher did);
        a refusal is the notice."""
        self._act(self._live().act_for, seat)

    def wait_for(self) -> None:
        """The teacher's no: the student turns up the card."""
        if self.referee is not None:
            self.referee.acts.asking = None
        self.tell()

    def ask(self) -> bool:
        """T7: ask "What would you pay?" at the moment shown."""
        return self._act(self._live().ask)

    def close_poll(self) -> bool:
        """T7: time is up (the referee refuses later answers)."""
        return self._act(self._live().close_poll)

    def reveal_poll(self) -> bool:
        """T7: show the answers (on the teacher's page: the class's projector)."""
        return self._act(self._live().reveal_poll)

    def answers(self, t: Translator, *, named: bool = False, poll: int | None = None, base: str = "") -> Export:
        """T7, T10: the answers of poll ``poll`` (None: of the whole lesson) as a CSV file worded by
        ``t`` (:func:`.answers.answers_csv`: names or anonymous ids, the exact prices), kept as
        :attr:`answers_file`."""
        referee = self._live()
        text = answers_csv(referee.export(), t, named=named, poll=poll, base=base)
        self.answers_file = Export(answers_name(referee.code, poll), text)
        self._changed()
        return self.answers_file

    def open_question(self, question: str, names: list[str] | None = None) -> bool:
        """Issue 25: show the question bank's moment ``question`` to the class, a question deal
        outside the standings (:meth:`.Referee.open_question`), until :meth:`end_question`;
        ``names``: its seats' names (None: a session's defaults)."""
        moment = bank.question(question).to_moment()
        return self._act(self._live().open_question, moment, question, names)

    def open_composed(self, entry: object, names: list[str] | None = None) -> bool:
        """Issue 25: show a moment composed in the editor (a
        :class:`~speculation_nb.links.composed.MomentEntry`: the moment and the teacher's question
        as typed) to the class, a question deal as a bank one is; ``names``: its seats' names. The
        referee checks it (:meth:`.Referee.open_question`: T7 while a poll is open, T11 for the
        question, and the rule a moment breaks that the rules cannot reach); a refusal is the notice."""
        if not isinstance(entry, MomentEntry):
            self._refused(TableRefusal("T9", "table.bad_request"))
            return False
        return self._act(self._live().open_question, entry.moment, "", names, entry.question)

    def end_question(self) -> bool:
        return self._act(self._live().end_question)

    @property
    def question(self) -> QuestionDeal | None:
        """The question deal the class sees now, or None."""
        return None if self.referee is None else self.referee.question

    def seat_names(self, poll: Poll) -> list[str] | None:
        """The names of the seats of the deal ``poll`` asks about: its question deal's (issue 25),
        or None for the session's deal (the page names those as the table does)."""
        asked = [q for q in self._live().questions if poll.question_deal and q.id == poll.question_deal]
        return asked[0].seat_names if asked else None

    def handout(self, t: Translator) -> Export:
        """A printable handout of the moment shown, worded by ``t``
        (:func:`~speculation_nb.links.handout.handout_html`), kept as :attr:`handout_file`."""
        referee = self._live()
        session, step, q = referee.host.session, referee.host.moment, referee.question
        if q is not None:  # the question deal the class sees, with its bank question or the teacher's own
            asker = bank.question(q.question).asker if q.question else None
            words = t(f"bank.{q.question}.question") if q.question else q.words or t("class.member.poll_question")
            text = handout_html(q.game, t, question=words, names=q.seat_names, asker=asker)
            self.handout_file = Export(handout_name(0, len(q.game.history)), text)
            self._changed()
            return self.handout_file
        text = handout_html(session.game.at(step), t, question=t("class.member.poll_question"), names=session.names)
        self.handout_file = Export(handout_name(session.deal_number, step), text)
        self._changed()
        return self.handout_file

    def export(self) -> str:
        """T10: the table's record (JSON, names included) as :attr:`exported`; returns the JSON."""
        referee = self._live()
        text = referee.export_json()
        self.exported = Export(f"speculation-table-{referee.code}.json", text)
        self._changed()
        return text

    def close_table(self) -> None:
        """T9/T10: wipe the table from the store (students are told it closed), stop refereeing
        and forget it on the device."""
        referee = self._live()
        seed = referee.host.session.seed  # told now that no card of the table is hidden any more
        self._closing = True
        try:
            referee.wipe()
            referee.close()
        finally:
            self._closing = False
        self._stop()
        self._keep(None)
        self.exported = self.answers_file = self.handout_file = None
        self.tell("class.host.closed_seed", seed=seed)

    def let_go(self) -> None:
        """Stop serving here (the page closes); an open table stays in the store and a reload
        resumes it."""
        if self.referee is not None:
            self._closing = True
            self.referee.close()
        self._stop()

    # ------------------------------------------------------------------ what the screen draws
    @property
    def code(self) -> str:
        return self._live().code

    def link(self, address: str) -> str:
        """The address students open, with only the code in it (never a secret)."""
        return self._live().link(address)

    def members(self) -> list[MemberInfo]:
        return self._live().members()

    def seats(self) -> list[SeatInfo]:
        return self._live().seats()

    @property
    def paused(self) -> bool:
        return self._live().paused

    @property
    def trouble(self) -> bool:
        """True while the store's last write failed (the lesson goes on; said on the panel)."""
        return self._live().trouble is not None

    @property
    def poll(self) -> Poll | None:
        """The latest poll (open or closed), None before the first."""
        return self._live().poll

    @property
    def restored(self) -> Notice | None:
        """The table was restored (its store went back after a crash, issue 27): what was lost,
        for the page to say (catalog key ``table.restored.teacher``); None when it never was."""
        found = None if self.referee is None else self.referee.restored
        return None if found is None else Notice(found.key, True, found.params)
