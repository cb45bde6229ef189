"""The referee of a shared table: the teacher's kernel, the single writer (``docs/TABLE.md``).

Students' kernels post requests (join, rejoin, act, answer, leave) to ``"requests"``; the referee
checks each by T2-T8 (:mod:`.desk`, :mod:`.admission`) and the engine, answers at ``reply:<token>``
and publishes what changed (``"moment"`` and an event, the poll, ``"meta"``, its ``"record"``,
T10). Only the newest referee of a table serves it (T12). It drives a :class:`~.teacher_game.Host`
or shows a question deal (:mod:`.questions`); the teacher's presses for a student's seat are
:mod:`.acting`'s, the record and export :mod:`.record`'s; a store failure is :attr:`trouble`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.compose import Moment as Composed
from ..engine.errors import IllegalAction
from ..engine.session import Session
from .acting import HostActs, act_for, mark_last_event
from .admission import admitted_action
from .codes import check_request_id, check_token, new_code, new_secret, read_code, table_link
from .desk import Desk
from .errors import TableRefusal
from .ledger import Ledger
from .moment import plain_json, public_moment
from .poll import Poll, settle_polls
from .questions import QuestionDeal, show_question
from .record import RECORD_FORMAT, kept_referee, table_export, table_meta, table_record, wipe_kept_table
from .restore import Restored, StoreWatch
from .seating import MemberInfo, Roster, Seated, SeatInfo, seat_name
from .stores.base import StoreError, TableStore, together
from .teacher_game import Host, SessionHost

__all__ = ["RECORD_FORMAT", "Host", "MemberInfo", "Referee", "SeatInfo", "SessionHost"]

log = logging.getLogger("speculation_nb.table")


class Referee:
    """One table's referee (see the module docstring), by :meth:`open` or :meth:`resume`; ``clock`` for T5."""

    def __init__(
        self,
        store: TableStore,
        host: Host,
        *,
        max_joins: int = 60,
        teams: bool = False,
        clock: Callable[[], float] = time.monotonic,
        code: str | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store, self.host = store, host
        self.code = read_code(code) if code is not None else new_code(rng)
        self.host_secret = ""
        self.roster = Roster(max_joins, teams)
        self.paused = False
        self.version = 0
        self.epoch = 1
        self.polls: list[Poll] = []
        self.questions: list[QuestionDeal] = []  # question deals (issue 25), outside the standings
        self.question: QuestionDeal | None = None  # the one shown now, instead of the session's deal
        self.stopped: str | None = None  # "superseded" (T12) or "closed"
        self.trouble: str | None = None  # the store's last failure (English, for the log), None when well
        self._rng = rng
        self._clock = clock
        self.desk = Desk(self.roster, clock, rng)
        self.cursor = 0  # the number of the last request read
        self.ledger = Ledger()
        self._last: dict[str, Any] | None = None
        self._observers: list[Callable[[], None]] = []
        self._closing = False
        #: Notices a store that went back in time (a crash restored an older state): ``restored``.
        self.watch = StoreWatch()
        self.acts = HostActs(self.roster, self.ledger, lambda: self.host.session)  # the teacher's presses (issue 27)

    # ------------------------------------------------------------ making a table
    @classmethod
    def open(cls, store: TableStore, host: Host, **kw: Any) -> Referee:
        """Make a new table (a fresh code, T1; a fresh host secret, T9) and publish its first moment."""
        for _ in range(8):
            referee = cls(store, host, **kw)
            referee.host_secret = new_secret()
            if store.create(referee.code, table_meta(referee)):
                referee.ledger.follow(host.session)
                referee.publish()
                return referee
            kw.pop("code", None)
        raise TableRefusal("T1", "table.no_table", {"code": "?"})

    @classmethod
    def resume(
        cls, store: TableStore, code: str, host_secret: str, make_host: Callable[[Session], Host], **kw: Any
    ) -> Referee:
        """Referee table ``code`` again (the teacher reloaded, T9); the one before stops (T12)."""
        referee = kept_referee(cls, store, code, host_secret, make_host, **kw)
        referee._save()
        referee.publish(force=True)
        return referee

    wipe_table = staticmethod(wipe_kept_table)

    def link(self, base_url: str) -> str:
        """``base_url`` with ``?table=<code>`` (only the code: never a secret)."""
        return table_link(base_url, self.code)

    def observe(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after members, seats, polls or the referee's state change."""
        self._observers.append(fn)

    # ------------------------------------------------------------------ serving
    def handle_pending(self, timeout: float = 0.0) -> int:
        """Handle the requests posted since (waiting up to ``timeout`` s for one); how many it handled."""
        if not self._live_table():
            return 0
        self._resync()
        if timeout > 0:
            found = self.store.wait(self.code, "requests", self.cursor, timeout)
        else:
            found = self.store.read(self.code, "requests", self.cursor)
        return self._handle_all(found)

    async def serve(self, interval: float = 0.5) -> None:
        """Serve until :meth:`close` (or :meth:`wipe`, or T12): wait in a thread, handle on the loop."""
        self._closing = False
        touched = time.monotonic()
        while not self._closing:
            try:
                if not self._live_table():
                    break
                self._resync()
                found = await asyncio.to_thread(self.store.wait, self.code, "requests", self.cursor, interval)
                if self._closing or not self._live_table():
                    break
                self._handle_all(found)
                if self.trouble is not None:  # the store answers again: publish and save, said well
                    self._changed()
                if time.monotonic() - touched > 60:
                    self.store.touch(self.code)
                    touched = time.monotonic()
            except StoreError as error:  # unreachable or corrupted: said on the teacher's page, retried
                self._trouble(error)
                await asyncio.sleep(interval)
            except Exception:  # a bug on one batch must not stop the table: logged, the cursor moved past it
                log.exception("the referee of table %s failed; serving on", self.code)
                await asyncio.sleep(interval)

    def close(self) -> None:
        """Stop serving (the table stays in the store until it expires or is wiped)."""
        self._closing = True

    def _handle_all(self, found: list[tuple[int, dict[str, Any]]]) -> int:
        changed = False
        for number, request in found:
            # The cursor passes a request once it is answered: if the store fails to take the
            # answer (StoreError), the request is handled again, and answered once (T6).
            changed = self._handle(request) or changed
            self.cursor = max(self.cursor, number)
        if found:
            if changed:
                self._changed()
            else:
                self._save()
        return len(found)

    def _live_table(self) -> bool:
        """False once this referee stopped: the table is gone, or a newer referee serves it (T12)."""
        if self.stopped is not None:
            return False
        meta = self.store.get(self.code, "meta")
        if meta is None:
            self._stop("closed")
        elif int(meta.get("referee", 0)) > self.epoch:
            self._stop("superseded")
        elif int(meta.get("referee", 0)) < self.epoch:  # an older referee wrote last: the newest wins
            self.store.put(self.code, "meta", table_meta(self))
        return self.stopped is None

    def _stop(self, why: str) -> None:
        self.stopped, self._closing = why, True
        for fn in list(self._observers):
            fn()

    def _require_live(self) -> None:
        if not self._live_table():
            key = "table.superseded" if self.stopped == "superseded" else "table.closed"
            raise TableRefusal("T12", key)

    # ----------------------------------------------------------------- requests
    def _handle(self, request: dict[str, Any]) -> bool:
        """Answer one request; True if it changed the table."""
        token = request.get("reply")
        if not check_token(token):  # nowhere to answer: dropped (an unreadable record was logged by the store)
            if request:
                log.warning("table %s: a request without a valid reply token dropped", self.code)
            return False
        raw = request.get("rid")
        changed = False
        try:
            rid = check_request_id(raw)
            kind = request.get("kind")
            if kind in ("join", "rejoin"):
                reply = self.desk.entry(str(kind), request, rid, str(token), self.host.session.rules.players)
                changed = True
            elif kind in ("act", "answer", "leave"):
                member, key, first = self.desk.admit(request, rid)
                if first is not None:
                    reply = first
                else:
                    try:
                        reply, changed = self._member_request(str(kind), member, request, rid)
                    except TableRefusal as refusal:
                        reply = refusal.to_reply(rid)
                    self.desk.remember(key, reply)
            else:
                raise TableRefusal("T3", "table.bad_request")
        except TableRefusal as refusal:
            reply = refusal.to_reply(raw if isinstance(raw, str) and len(raw) <= 64 else None)
        except Exception:  # a bug must not stop the table: the request is refused, the lesson goes on
            log.exception("the referee of table %s failed on a request", self.code)
            reply = TableRefusal("T3", "table.bad_request").to_reply(None)
        self.store.put(self.code, f"reply:{token}", reply)
        return changed

    def _member_request(
        self, kind: str, member: Seated, request: Mapping[str, Any], rid: str
    ) -> tuple[dict[str, Any], bool]:
        if kind == "leave":
            member.left, member.seat = True, None
            return {"ok": True, "rid": rid}, True
        if kind == "answer":
            poll = self.poll
            if poll is None:
                raise TableRefusal("T7", "table.no_poll")
            if request.get("poll") != poll.id:
                raise TableRefusal("T7", "table.poll_closed")
            poll.answer(member.id, request.get("price"), seat=member.seat)  # T7: refused once locked
            self._poll_event()
            return {"ok": True, "rid": rid, "seat": member.seat}, True
        return self._act(member, request, rid)

    def _act(self, member: Seated, request: Mapping[str, Any], rid: str) -> tuple[dict[str, Any], bool]:
        """T4, T3 (:func:`~.admission.admitted_action`), then the engine."""
        game = self.host.session.game
        seat, action = admitted_action(
            member,
            request,
            paused=self.paused,
            live=self.host.live and not self.question,
            roster=self.roster,
            game=game,
        )
        deal, index = self.host.session.deal_number, len(game.history)
        try:
            self.host.act(seat, action)
        except IllegalAction as error:
            params = plain_json(error.params)
            return {"ok": False, "rid": rid, "rule": error.rule, "key": error.key, "params": params}, False
        # A host may first let computer moves due before it happen (the app's controller does):
        # the member's action is the first equal one from here on.
        history = self.host.session.games[deal - 1].history
        taken = next((i for i in range(index, len(history)) if history[i] == action), index)
        self.ledger.note(deal, taken, member.name, member.id, seat, action)
        return {"ok": True, "rid": rid, "seat": member.seat}, True

    # ------------------------------------------------------------------ seats
    def _seat_number(self, seat: object) -> int:
        return self.roster.seat_number(seat, self.host.session.rules.players)

    def members(self) -> list[MemberInfo]:
        """The members at the table now (seated or watching), in the order they joined."""
        return [m.info() for m in self.roster.active()]

    def seats(self) -> list[SeatInfo]:
        """Every seat: who sits there (kind) and the names of its members."""
        return self.roster.seats(self.host.session.rules.players)

    @property
    def max_joins(self) -> int:
        return self.roster.max_joins

    @property
    def teams(self) -> bool:
        return self.roster.teams

    def pause(self) -> None:
        """T4: students' actions are refused until :meth:`resume_play`."""
        self._require_live()
        self.paused = True
        self._changed()

    def resume_play(self) -> None:
        self._require_live()
        self.paused = False
        self._changed()

    def take_over(self, seat: int) -> None:
        """T9: the teacher plays ``seat`` (its members' requests are refused) until :meth:`give_back`."""
        self._require_live()
        seat = self._seat_number(seat)
        self.roster.taken.add(seat)
        self.roster.computers.discard(seat)
        self.host.set_computers(frozenset(self.roster.computers))
        self._changed()

    def act_for(self, seat: int) -> None:
        """Issue 27: the teacher turns up ``seat``'s card for its students, on purpose (:mod:`.acting`)."""
        self._require_live()
        act_for(self, self._seat_number(seat))
        self._changed()

    def give_back(self, seat: int) -> None:
        self._require_live()
        self.roster.taken.discard(self._seat_number(seat))
        self._changed()

    def seat_computer(self, seat: int, on: bool = True) -> None:
        """T9: a computer player plays ``seat`` (an empty seat, or one the teacher took over), or stops."""
        self._require_live()
        seat = self._seat_number(seat)
        if on and self.roster.kind(seat) == "people":
            raise TableRefusal("T2", "table.seat_has_members", {"seat": seat})
        if on:
            self.roster.computers.add(seat)
            self.roster.taken.discard(seat)
        else:
            self.roster.computers.discard(seat)
        self.host.set_computers(frozenset(self.roster.computers))
        self._changed()

    def place(self, member: str, seat: int | None) -> None:
        """T9: move ``member`` to ``seat`` (a team if taken; a computer there stops) or to the spectators (None)."""
        self._require_live()
        found = self.roster.member(member)
        if found is None:
            raise TableRefusal("T9", "table.no_member", {"member": str(member)})
        if seat is not None:
            seat = self._seat_number(seat)
            if seat in self.roster.computers:
                self.roster.computers.discard(seat)
                self.host.set_computers(frozenset(self.roster.computers))
        found.seat = seat
        self._changed()

    # ------------------------------------------------------------------- polls
    @property
    def poll(self) -> Poll | None:
        """The latest poll (open or closed), None before the first."""
        return self.polls[-1] if self.polls else None

    def ask(self) -> Poll:
        """T7: open a poll at the moment shown ("What would you pay?")."""
        self._require_live()
        if self.poll is not None and self.poll.open:
            raise TableRefusal("T7", "table.poll_open")
        session, number = self.host.session, len(self.polls) + 1
        at = session.game.at(self.host.moment)
        poll = Poll.at(number, at, session.deal_number) if self.question is None else self.question.poll(number)
        self.polls.append(poll)
        self._poll_event()
        self._changed()
        return poll

    def close_poll(self, reveal: bool = False) -> None:
        """T7: lock the answers ("time is up"); ``reveal``: show them too (locking them first)."""
        self._require_live()
        if self.poll is None or (self.poll.revealed if reveal else not self.poll.open):
            raise TableRefusal("T7", "table.no_poll")
        self.poll.reveal() if reveal else self.poll.close()
        self._poll_event()
        self._changed()

    def reveal_poll(self) -> None:
        self.close_poll(reveal=True)

    def open_question(
        self, moment: Composed, question: str = "", names: list[str] | None = None, words: str = ""
    ) -> QuestionDeal:
        """Show a question deal (:mod:`.questions`) until :meth:`end_question`; ``question``: its bank
        id, ``words``: the teacher's question as typed (a composed moment's). Refused while a poll is
        open (T7), and a moment the rules cannot reach with the engine's rule."""
        self._require_live()
        if self.poll is not None and self.poll.open:
            raise TableRefusal("T7", "table.poll_open")
        self.question = QuestionDeal.of(len(self.questions) + 1, moment, question, names, words=words)
        self.questions.append(self.question)
        self._changed()
        return self.question

    def end_question(self) -> None:
        """Back to the session's deal, where it stood."""
        self._require_live()
        self.question = None
        self._changed()

    def _poll_event(self) -> None:
        if self.poll is not None:
            self.watch.appended(self.store.append(self.code, "events", {"kind": "poll", "poll": self.poll.public()}))

    # ------------------------------------------------------------- publishing
    def publish(self, force: bool = False) -> bool:
        """Publish the shown moment (before the teacher's page redraws); again only if ``force``."""
        if not self._live_table():
            return False
        session = self.host.session
        if self.ledger.following(session):  # before following: a replaced session's polls are not settled by it
            settle_polls(self.polls, session.games)
        self.ledger.follow(session)
        self.ledger.attribute(session, self.roster.computers)
        seats = [{"kind": s.kind, "members": list(s.members)} for s in self.seats()]
        names = [seat_name(s["members"], session.names[i]) for i, s in enumerate(seats)]  # always fits
        self.host.show_names(names)  # the projector names each seat as the phones do (issue 27)
        show_question(self.host, self.question)  # the projector shows what the phones do (issue 25)
        poll = None if self.poll is None else self.poll.public()
        if self.question is not None:
            moment = self.question.published(version=self.version + 1, paused=self.paused, poll=poll)
        else:
            moment = public_moment(
                session, self.host.moment, version=self.version + 1, live=self.host.live, paused=self.paused
            ) | {"names": names, "seats": seats, "poll": poll}
            mark_last_event(moment, self.ledger, session.deal_number)
        same = self._last is not None and {**self._last, "version": 0} == {**moment, "version": 0}
        if same and not force:
            return False
        try:
            with together(self.store):
                self.store.put(self.code, "moment", moment)
                self.watch.appended(self.store.append(self.code, "events", {"kind": "moment", "moment": moment}))
        except StoreError as error:  # published at the next change; the teacher's page goes on
            self._trouble(error)
            return False
        self.version += 1
        self._last = moment
        self._save()
        return True

    def _changed(self) -> None:
        if not self.publish():
            self._save()
        for fn in list(self._observers):
            fn()

    def _save(self) -> None:
        """Write ``"meta"`` and ``"record"`` (T10) and keep the table alive (T1)."""
        if self.stopped is not None:
            return
        try:
            with together(self.store):
                self.store.put(self.code, "meta", table_meta(self))
                self.store.put(self.code, "record", table_record(self))
                self.store.touch(self.code)
        except StoreError as error:
            self._trouble(error)
        else:
            self._trouble(None)

    def _trouble(self, error: StoreError | None) -> None:
        """The store failed (logged), or is well again (None); the teacher's page is told of a change."""
        if error is not None:
            log.warning("the store of table %s failed: %s", self.code, error)
        was, self.trouble = self.trouble, None if error is None else str(error)
        if (was is None) != (self.trouble is None):
            for fn in list(self._observers):
                fn()

    # ------------------------------------------------ a store that went back (issue 27)
    @property
    def restored(self) -> Restored | None:
        """The last time the store was found behind this referee (a crash), or None: pages announce it."""
        return self.watch.restored

    def _resync(self) -> None:
        """The store lost records (a crash): the cursor back to its last request, all written again."""
        found = self.watch.check(self.store, self.code, self.cursor)
        if found is None:
            return
        log.warning("table %s: the store went back (%s requests, %s events lost)", self.code, *found.params.values())
        self.cursor -= found.requests
        if not self.publish(force=True):
            self._save()
        for fn in list(self._observers):
            fn()

    # ------------------------------------------------------------------ the end
    def export(self) -> dict[str, Any]:
        """T10: the table's record for the teacher (:func:`~.record.table_export`)."""
        return table_export(self)

    def export_json(self) -> str:
        return json.dumps(self.export(), ensure_ascii=False, indent=1, sort_keys=True)

    def wipe(self) -> None:
        """T10: remove the table from the store at once (its code stops working) and stop."""
        self.store.wipe(self.code)
        self._stop("closed")
