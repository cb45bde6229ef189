"""The referee of a shared table: the teacher's kernel, the single writer (``docs/TABLE.md``).

Students' kernels post requests (join, rejoin, act, answer, leave) to the table's ``"requests"``
stream; the referee reads them in order, checks each one by the table's rules T2-T8 and then by
the engine (an :class:`~speculation_nb.IllegalAction` names its own rule), answers at
``reply:<token>``, and publishes what changed: the moment the teacher shows
(:func:`~.moment.public_moment`, key ``"moment"`` and an event), the poll, the ``"meta"`` a
joining kernel reads, and its own ``"record"`` (T10), from which a reloaded teacher's page
resumes (T9). Only the newest referee of a table serves it (T12: the ``referee`` epoch in
``"meta"``). A refused request changes nothing.

The referee drives a :class:`~.host.Host`, the teacher's game (the app's controller, or a
:class:`~.host.SessionHost` over a bare session in tests and notebooks).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .. import odds
from ..actions import Action
from ..errors import IllegalAction
from ..session import Session
from .codes import check_request_id, check_token, new_code, new_secret, read_code, same_secret, secret_hash, show_code
from .errors import TableRefusal
from .host import Host, SessionHost
from .moment import plain_json, public_moment
from .poll import Poll
from .seating import MemberInfo, RateLimiter, Seated, SeatInfo, check_name
from .store import TableStore

__all__ = ["RECORD_FORMAT", "Host", "MemberInfo", "Referee", "SeatInfo", "SessionHost"]

RECORD_FORMAT = "speculation_nb.table"
_HOLDER_ACTIONS = ("open_auction", "accept", "decline")
_REMEMBERED = 4096  # replies kept for T6 retries


class Referee:
    """The referee of one table (see the module docstring); make one with :meth:`open` or
    :meth:`resume`. ``clock`` (monotonic seconds) drives T5's rate limit; ``rng`` the code."""

    def __init__(
        self,
        store: TableStore,
        host: Host,
        *,
        max_joins: int = 60,
        teams: bool = False,
        clock: Callable[[], float] = time.monotonic,
        code: str | None = None,
        rng: Any = None,
    ) -> None:
        self.store, self.host = store, host
        self.code = read_code(code) if code is not None else new_code(rng)
        self.host_secret = ""
        self.max_joins, self.teams = int(max_joins), bool(teams)
        self.paused = False
        self.version = 0
        self.epoch = 1
        self.polls: list[Poll] = []
        self.stopped: str | None = None  # "superseded" (T12) or "closed"
        self._rng = rng
        self._clock = clock
        self._rate = RateLimiter(clock)
        self._members: dict[str, Seated] = {}
        self._joins = 0
        self._taken: set[int] = set()
        self._computers: set[int] = set()
        self._cursor = 0
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._joined: dict[str, str] = {}  # T6 key of a join -> member id (survives a restart)
        self._who: dict[tuple[int, int], dict[str, Any]] = {}
        self._earlier: list[dict[str, Any]] = []  # who did what in sessions the teacher replaced
        self._session: Session | None = None
        self._last: dict[str, Any] | None = None
        self._observers: list[Callable[[], None]] = []
        self._closing = False

    # ------------------------------------------------------------ making a table
    @classmethod
    def open(cls, store: TableStore, host: Host, **kw: Any) -> Referee:
        """Make a new table (a fresh code, T1; a fresh host secret, T9) and publish its first moment."""
        for _ in range(8):
            referee = cls(store, host, **kw)
            referee.host_secret = new_secret()
            if store.create(referee.code, referee._meta()):
                referee._session = host.session
                referee.publish()
                return referee
            kw.pop("code", None)
        raise TableRefusal("T1", "table.no_table", {"code": "?"})

    @classmethod
    def resume(
        cls, store: TableStore, code: str, host_secret: str, make_host: Callable[[Session], Host], **kw: Any
    ) -> Referee:
        """Referee table ``code`` again from its record (the teacher reloaded, T9), with its host
        secret; the referee that served it before stops (T12). Members keep their seats."""
        code = read_code(code)
        record, meta = store.get(code, "record"), store.get(code, "meta")
        if record is None or meta is None:
            raise TableRefusal("T1", "table.no_table", {"code": show_code(code)})
        if not same_secret(host_secret, record.get("host")):
            raise TableRefusal("T9", "table.bad_host_secret")
        try:
            session = Session.from_json(json.dumps(record["session"]))
            host = make_host(session)
            referee = cls(store, host, code=code, max_joins=record["max_joins"], teams=record["teams"], **kw)
            referee._restore(record)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"the table's record cannot be read: {error}") from None
        referee.host_secret = host_secret
        referee.epoch = max(int(meta.get("referee", 0)), int(record.get("epoch", 0))) + 1
        referee._session = host.session
        host.set_computers(frozenset(referee._computers))
        referee._save()
        referee.publish(force=True)
        return referee

    def link(self, base_url: str) -> str:
        """``base_url`` with ``?table=<code>`` (only the code: never a secret)."""
        parts = urlsplit(base_url)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "table"]
        query.append(("table", show_code(self.code)))
        return urlunsplit(parts._replace(query=urlencode(query)))

    def observe(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after members, seats, polls or the referee's state change."""
        self._observers.append(fn)

    # ------------------------------------------------------------------ serving
    def handle_pending(self, timeout: float = 0.0) -> int:
        """Handle the requests posted since the last call (waiting up to ``timeout`` seconds for
        one); publish what changed. The number of requests handled."""
        if not self._live_table():
            return 0
        if timeout > 0:
            found = self.store.wait(self.code, "requests", self._cursor, timeout)
        else:
            found = self.store.read(self.code, "requests", self._cursor)
        return self._handle_all(found)

    async def serve(self, interval: float = 0.5) -> None:
        """Serve the table until :meth:`close` (or :meth:`wipe`, or a newer referee, T12): wait for
        requests in a thread (``store.wait``), handle them here on the event loop."""
        self._closing = False
        touched = time.monotonic()
        while not self._closing and self._live_table():
            found = await asyncio.to_thread(self.store.wait, self.code, "requests", self._cursor, interval)
            if self._closing or not self._live_table():
                break
            self._handle_all(found)
            if time.monotonic() - touched > 60:
                self.store.touch(self.code)
                touched = time.monotonic()

    def close(self) -> None:
        """Stop serving (the table stays in the store until it expires or is wiped)."""
        self._closing = True

    def _handle_all(self, found: list[tuple[int, dict[str, Any]]]) -> int:
        changed = False
        for number, request in found:
            self._cursor = max(self._cursor, number)
            changed = self._handle(request) or changed
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
        if not check_token(token):
            return False  # nowhere to answer: dropped
        raw = request.get("rid")
        changed = False
        try:
            rid = check_request_id(raw)
            kind = request.get("kind")
            if kind in ("join", "rejoin"):
                reply, changed = self._entry(kind, request, rid, str(token))
            elif kind in ("act", "answer", "leave"):
                member = self._authentic(request)
                key = f"{member.id}:{rid}"
                if key in self._done:
                    reply = self._done[key]
                else:
                    if not self._rate.allow(member.id):
                        raise TableRefusal("T5", "table.rate")
                    reply, changed = self._member_request(kind, member, request, rid)
                    self._remember(key, reply)
            else:
                raise TableRefusal("T3", "table.bad_request")
        except TableRefusal as refusal:
            reply = refusal.to_reply(raw if isinstance(raw, str) and len(raw) <= 64 else None)
        self.store.put(self.code, f"reply:{token}", reply)
        return changed

    def _remember(self, key: str, reply: dict[str, Any]) -> None:
        self._done[key] = reply
        while len(self._done) > _REMEMBERED:
            self._done.popitem(last=False)

    def _authentic(self, request: Mapping[str, Any]) -> Seated:
        """T3: the member named, with that member's current seat secret."""
        member = self._members.get(request.get("member"))  # type: ignore[arg-type]
        if member is None or member.left:
            raise TableRefusal("T3", "table.not_member")
        if not same_secret(request.get("secret"), member.secret_hash):
            raise TableRefusal("T3", "table.bad_secret")
        return member

    def _entry(self, kind: str, request: Mapping[str, Any], rid: str, token: str) -> tuple[dict[str, Any], bool]:
        """T2 join, T8 rejoin; a retry (same id, same reply token) gets its first reply (T6)."""
        key = f"{kind}:{rid}:{secret_hash(token)}"
        if key in self._done:
            return self._done[key], False
        if kind == "rejoin":
            member = self._members.get(request.get("member"))  # type: ignore[arg-type]
            if member is None or member.left or not same_secret(request.get("token"), member.token_hash):
                raise TableRefusal("T8", "table.bad_token")
            if not self._rate.allow(member.id):
                raise TableRefusal("T5", "table.rate")
            reply = self._credentials(member, rid, new_token=False)
        elif key in self._joined and self._joined[key] in self._members:  # a retry after a restart
            reply = self._credentials(self._members[self._joined[key]], rid, new_token=True)
        else:
            member = self._join(request)
            self._joined[key] = member.id
            reply = self._credentials(member, rid, new_token=True)
        self._remember(key, reply)
        return reply, True

    def _join(self, request: Mapping[str, Any]) -> Seated:
        if self._joins >= self.max_joins:
            raise TableRefusal("T2", "table.joins_full", {"limit": self.max_joins})
        name = check_name(request.get("name"), (m.name for m in self._members.values() if not m.left))
        seat = request.get("seat")
        if seat is not None:
            seat = self._seat_number(seat)
            kind = self._kind(seat)
            if kind != "free" and not (kind == "people" and self.teams):
                raise TableRefusal("T2", "table.seat_taken", {"seat": seat})
        member_id = new_code(self._rng)
        while member_id in self._members:
            member_id = new_code(self._rng)
        self._joins += 1
        member = Seated(member_id, name, seat, time.time(), "", "")
        self._members[member_id] = member
        return member

    def _credentials(self, member: Seated, rid: str, new_token: bool) -> dict[str, Any]:
        """A new seat secret (the old one stops working, T8) and, on joining, a rejoin token."""
        secret = new_secret()
        member.secret_hash = secret_hash(secret)
        reply: dict[str, Any] = {"ok": True, "rid": rid, "member": member.id, "secret": secret, "seat": member.seat}
        reply["name"] = member.name
        if new_token:
            token = new_secret()
            member.token_hash = secret_hash(token)
            reply["token"] = token
        return reply

    def _member_request(
        self, kind: str, member: Seated, request: Mapping[str, Any], rid: str
    ) -> tuple[dict[str, Any], bool]:
        if kind == "leave":
            member.left, member.seat = True, None
            return {"ok": True, "rid": rid}, True
        if kind == "answer":
            poll = self.poll
            if poll is None or not poll.open:
                raise TableRefusal("T7", "table.no_poll")
            if request.get("poll") != poll.id:
                raise TableRefusal("T7", "table.poll_closed")
            poll.answer(member.id, request.get("price"))
            self._poll_event()
            return {"ok": True, "rid": rid, "seat": member.seat}, True
        return self._act(member, request, rid)

    def _act(self, member: Seated, request: Mapping[str, Any], rid: str) -> tuple[dict[str, Any], bool]:
        """T4, T3, then the engine."""
        if self.paused:
            raise TableRefusal("T4", "table.paused")
        if not self.host.live:
            raise TableRefusal("T4", "table.replay")
        if member.seat is None:
            raise TableRefusal("T3", "table.spectator")
        seat = request.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat != member.seat:
            raise TableRefusal("T3", "table.not_your_seat", {"seat": seat if isinstance(seat, int) else member.seat})
        if seat in self._taken:
            raise TableRefusal("T3", "table.seat_teacher", {"seat": seat})
        if seat in self._computers:
            raise TableRefusal("T3", "table.seat_computer", {"seat": seat})
        try:
            action = Action.from_dict(request.get("action"))
        except ValueError:
            raise TableRefusal("T3", "table.bad_action") from None
        game = self.host.session.game
        if action.kind in ("reveal", "bid") and action["seat"] != seat:
            raise TableRefusal("T3", "table.not_your_seat", {"seat": action["seat"]})
        if action.kind in _HOLDER_ACTIONS and game.holder != seat:
            raise TableRefusal("T3", "table.not_holder", {"holder": game.holder})
        if action.kind == "blind_trade":
            raise TableRefusal("T3", "table.teacher_only")
        deal, index = self.host.session.deal_number, len(game.history)
        try:
            self.host.act(seat, action)
        except IllegalAction as error:
            params = plain_json(error.params)
            return {"ok": False, "rid": rid, "rule": error.rule, "key": error.key, "params": params}, False
        entry = {"deal": deal, "index": index, "who": member.name, "member": member.id, "seat": seat}
        self._who[(deal, index)] = {**entry, "action": action.to_dict()}
        return {"ok": True, "rid": rid, "seat": member.seat}, True

    # ------------------------------------------------------------------ seats
    def _seat_number(self, seat: object) -> int:
        n = self.host.session.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise TableRefusal("T2", "table.no_seat", {"seat": seat if isinstance(seat, int) else -1})
        return seat

    def _kind(self, seat: int) -> str:
        if seat in self._taken:
            return "teacher"
        if seat in self._computers:
            return "computer"
        if any(m.seat == seat for m in self._members.values() if not m.left):
            return "people"
        return "free"

    def members(self) -> list[MemberInfo]:
        """The members at the table now (seated or watching), in the order they joined."""
        return [m.info() for m in self._members.values() if not m.left]

    def seats(self) -> list[SeatInfo]:
        """Every seat: who sits there (kind) and the names of its members."""
        out = []
        for seat in range(self.host.session.rules.players):
            names = tuple(m.name for m in self._members.values() if m.seat == seat and not m.left)
            out.append(SeatInfo(seat, self._kind(seat), names))
        return out

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
        self._taken.add(seat)
        self._computers.discard(seat)
        self.host.set_computers(frozenset(self._computers))
        self._changed()

    def give_back(self, seat: int) -> None:
        self._require_live()
        self._taken.discard(self._seat_number(seat))
        self._changed()

    def seat_computer(self, seat: int, on: bool = True) -> None:
        """T9: a computer player plays ``seat`` (an empty seat, or one the teacher took over), or stops."""
        self._require_live()
        seat = self._seat_number(seat)
        if on and any(m.seat == seat for m in self._members.values() if not m.left):
            raise TableRefusal("T2", "table.seat_has_members", {"seat": seat})
        if on:
            self._computers.add(seat)
            self._taken.discard(seat)
        else:
            self._computers.discard(seat)
        self.host.set_computers(frozenset(self._computers))
        self._changed()

    def place(self, member: str, seat: int | None) -> None:
        """T9: move ``member`` to ``seat`` (sharing it with whoever is there: a team) or to the
        spectators (None). A computer playing that seat stops."""
        self._require_live()
        found = self._members.get(member)
        if found is None or found.left:
            raise TableRefusal("T9", "table.no_member", {"member": str(member)})
        if seat is not None:
            seat = self._seat_number(seat)
            if seat in self._computers:
                self._computers.discard(seat)
                self.host.set_computers(frozenset(self._computers))
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
        session = self.host.session
        game = session.game.at(self.host.moment)
        others = [s for s in range(game.rules.players) if s != game.holder]
        spans = {s: Fraction(odds.break_even(game, s)) for s in others}
        fair = Fraction(odds.fair_price(game))
        poll = Poll(
            len(self.polls) + 1, session.deal_number, self.host.moment, fair, spans, game.holder, game.best_trump.code
        )
        self.polls.append(poll)
        self._poll_event()
        self._changed()
        return poll

    def close_poll(self) -> None:
        self._require_live()
        if self.poll is None or not self.poll.open:
            raise TableRefusal("T7", "table.no_poll")
        self.poll.close()
        self._poll_event()
        self._changed()

    def _poll_event(self) -> None:
        if self.poll is not None:
            self.store.append(self.code, "events", {"kind": "poll", "poll": self.poll.public()})

    def _settle(self) -> None:
        games = self.host.session.games
        for poll in self.polls:
            if poll.worth is None and 1 <= poll.deal <= len(games) and self._session is self.host.session:
                poll.settle(games[poll.deal - 1])

    # ------------------------------------------------------------- publishing
    def publish(self, force: bool = False) -> None:
        """Publish the host's shown moment (the app calls it after each change of its game); a
        moment equal to the last one published is not published again unless ``force``."""
        if not self._live_table():
            return
        session = self.host.session
        if self._session is not session:  # the teacher started another session
            self._earlier.extend(self._actions())
            self._who.clear()
            self._session = session
        self._attribute()
        self._settle()
        seats = [{"kind": s.kind, "members": list(s.members)} for s in self.seats()]
        names = [", ".join(s["members"]) or session.names[i] for i, s in enumerate(seats)]
        poll = None if self.poll is None else self.poll.public()
        moment = public_moment(
            session, self.host.moment, version=self.version + 1, live=self.host.live, paused=self.paused
        ) | {"names": names, "seats": seats, "poll": poll}
        same = self._last is not None and {**self._last, "version": 0} == {**moment, "version": 0}
        if same and not force:
            return
        self.version += 1
        self._last = moment
        self.store.put(self.code, "moment", moment)
        self.store.append(self.code, "events", {"kind": "moment", "moment": moment})
        self._save()

    def _changed(self) -> None:
        self.publish()
        self._save()
        for fn in list(self._observers):
            fn()

    def _attribute(self) -> None:
        """Who did the actions the referee did not take itself: a computer seat's are the
        computer's, the others the teacher's (T10)."""
        for deal, game in enumerate(self.host.session.games, 1):
            for index, action in enumerate(game.history):
                if (deal, index) in self._who:
                    continue
                if action.kind in _HOLDER_ACTIONS:
                    seat: int | None = game.at(index).holder
                else:
                    seat = dict(action.args).get("seat")
                who = "computer" if seat in self._computers else "teacher"
                entry = {"deal": deal, "index": index, "who": who, "member": None, "seat": seat}
                self._who[(deal, index)] = {**entry, "action": action.to_dict()}

    def _actions(self) -> list[dict[str, Any]]:
        return [self._who[key] for key in sorted(self._who)]

    def _meta(self) -> dict[str, Any]:
        session = self.host.session
        seats = self.seats()
        return {
            "players": session.rules.players,
            "names": session.names,
            "seats": [{"kind": s.kind, "members": list(s.members)} for s in seats],
            "free": [s.seat for s in seats if s.kind == "free" or (self.teams and s.kind == "people")],
            "teams": self.teams,
            "referee": self.epoch,
        }

    def _save(self) -> None:
        """Write ``"meta"`` and ``"record"`` (T10) and keep the table alive (T1)."""
        if self.stopped is not None:
            return
        self.store.put(self.code, "meta", self._meta())
        self.store.put(self.code, "record", self._record())
        self.store.touch(self.code)

    def _record(self) -> dict[str, Any]:
        done = {k: v for k, v in self._done.items() if not k.startswith(("join:", "rejoin:"))}
        return {
            "format": RECORD_FORMAT,
            "version": 1,
            "code": self.code,
            "host": secret_hash(self.host_secret),
            "epoch": self.epoch,
            "session": self.host.session.to_dict(),
            "moment": self.host.moment,
            "members": [m.to_dict() for m in self._members.values()],
            "joins": self._joins,
            "max_joins": self.max_joins,
            "teams": self.teams,
            "paused": self.paused,
            "taken": sorted(self._taken),
            "computers": sorted(self._computers),
            "polls": [p.to_dict() for p in self.polls],
            "actions": self._actions(),
            "earlier": self._earlier,
            "cursor": self._cursor,
            "done": done,
            "joined": self._joined,
            "published": self.version,
        }

    def _restore(self, record: Mapping[str, Any]) -> None:
        if record.get("format") != RECORD_FORMAT:
            raise ValueError("not a table's record")
        self._members = {m["id"]: Seated.from_dict(m) for m in record["members"]}
        self._joins = int(record["joins"])
        self.paused = bool(record["paused"])
        self._taken = {int(s) for s in record["taken"]}
        self._computers = {int(s) for s in record["computers"]}
        self.polls = [Poll.from_dict(p) for p in record["polls"]]
        self._who = {(int(a["deal"]), int(a["index"])): dict(a) for a in record["actions"]}
        self._earlier = list(record["earlier"])
        self._cursor = int(record["cursor"])
        self._done = OrderedDict(record["done"])
        self._joined = dict(record["joined"])
        self.version = int(record["published"])

    # ------------------------------------------------------------------ the end
    def export(self) -> dict[str, Any]:
        """T10: the table's record for the teacher: the session, who did each action, the members
        (names included) and the polls with their answers; no secret or hash."""
        self._attribute()
        return {
            "format": RECORD_FORMAT + ".export",
            "version": 1,
            "code": self.code,
            "session": self.host.session.to_dict(),
            "actions": self._actions(),
            "earlier": list(self._earlier),
            "members": [
                {"id": m.id, "name": m.name, "seat": m.seat, "joined_at": m.joined_at, "left": m.left}
                for m in self._members.values()
            ],
            "joins": self._joins,
            "polls": [p.to_dict() for p in self.polls],
        }

    def export_json(self) -> str:
        return json.dumps(self.export(), ensure_ascii=False, indent=1, sort_keys=True)

    def wipe(self) -> None:
        """T10: remove the table from the store at once (its code stops working) and stop."""
        self.store.wipe(self.code)
        self._stop("closed")
