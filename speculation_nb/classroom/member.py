"""A member of a shared table: a student's kernel (``docs/TABLE.md``).

A :class:`Member` posts requests to its table's ``"requests"`` stream and waits for the
referee's answer at ``reply:<token>`` (in a thread, :func:`asyncio.to_thread`, so the kernel's
event loop keeps answering the page); it follows the table through the ``"events"`` stream
(:meth:`Member.updates`) and the latest published moment (:meth:`Member.latest`). Nothing is
computed here: every number shown comes from the published :class:`~.moment.Moment`.

The seat secret (T3, T8) stays in this object only: it is never in :attr:`Reply.data`, a URL or
anything sent to the browser. The rejoin token (:attr:`Member.token`) is what the browser keeps
(in ``localStorage``) to rejoin after a reload.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..languages.translator import Translator, error_text
from .codes import new_request_id, new_token, read_code, show_code
from .errors import TableRefusal
from .moment import Moment, read_public_moment
from .names import clean_name
from .stores.base import StoreError, TableStore

__all__ = ["REPLY_GRACE", "REPLY_TIMEOUT", "Member", "Reply"]

#: Seconds a request waits for the referee's answer before it is said to have had none (T6).
REPLY_TIMEOUT = 20.0
#: T6: a request carries its deadline (``time.time()`` + its timeout: past it the referee drops it,
#: :func:`~.desk.in_time`), and its page says "no answer" this much later still: the kernels'
#: clocks may differ by up to this (one server: one clock; a hub's machines: NTP, milliseconds).
REPLY_GRACE = 2.0


@dataclass(frozen=True)
class Reply:
    """The referee's answer to one request: ``ok``, or the refusal's ``rule``, ``key`` and
    ``params`` (a table rule T1-T12 or an engine rule, worded by :meth:`text`); ``data`` the
    rest of the answer (``member``, ``seat``, ``token``...; never the seat secret)."""

    ok: bool
    rule: str = ""
    key: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Reply:
        if record.get("ok") is True:
            data = {k: v for k, v in record.items() if k not in ("ok", "secret")}
            return cls(True, data=data)
        params = record.get("params")
        return cls(
            False,
            str(record.get("rule", "")),
            str(record.get("key", "")),
            dict(params) if isinstance(params, dict) else {},
        )

    @classmethod
    def refused(cls, refusal: TableRefusal) -> Reply:
        return cls(False, refusal.rule, refusal.key, dict(refusal.params))

    def text(self, t: Translator, names: Sequence[str] | None = None) -> str:
        """The refusal in words (``"Rule T3: ..."``); ``""`` when the request was accepted."""
        return "" if self.ok else error_text(self, t, names)


class Member:
    """One student's place at table ``code`` (T1: typed codes are read; :class:`TableRefusal`
    T1 if there is no such table)."""

    def __init__(self, store: TableStore, code: str, page: str | None = None) -> None:
        self.store = store
        self.code = read_code(code)
        #: This page's identity (its kernel's: the page controls its widgets, never this), sent
        #: with each join and rejoin: the referee lets one page hold one membership (T2).
        self.page = page if page is not None else new_token()
        meta = store.get(self.code, "meta")
        if meta is None:
            raise TableRefusal("T1", "table.no_table", {"code": show_code(self.code)})
        self.meta: dict[str, Any] = meta
        self.member: str | None = None
        self.seat: int | None = None
        self.name: str | None = None
        self.token: str | None = None
        self._secret: str | None = None
        self._after = 0  # events read by updates()
        self._woken = 0  # events looked at while waiting for a reply
        self._closed = False
        self._rejoining: dict[str, str] = {}  # a rejoin's reply token -> the rejoin token it sent
        #: How many times the table's store was found restored to an older state (a crash): each
        #: is announced once by :meth:`updates` (``{"kind": "restored"}``; the words: catalog key
        #: ``table.restored.student``), and the events are read again from where the store went.
        self.restored = _restored(meta)[0]
        self._looked = time.monotonic()
        #: The newest moment this member has read (from an event of :meth:`updates`, or :meth:`latest`);
        #: a published moment it cannot read is reported by :meth:`updates` as ``{"kind": "unreadable"}``.
        self.newest: Moment | None = None

    def refresh(self) -> dict[str, Any]:
        """Read the table's ``"meta"`` again (the free seats change as others join)."""
        meta = self.store.get(self.code, "meta")
        if meta is not None:
            self.meta = meta
        return self.meta

    @property
    def joined(self) -> bool:
        return self.member is not None and self._secret is not None

    # ------------------------------------------------------------ the plain parts
    def post(
        self,
        kind: str,
        *,
        rid: str | None = None,
        reply: str | None = None,
        timeout: float = REPLY_TIMEOUT,
        **fields: Any,
    ) -> str:
        """Post one request (with this member's id and secret, once joined; a join or a rejoin
        with this page's identity); its reply token. ``rid`` and ``reply`` given again repeat a
        request (T6: it is applied once). It carries its deadline, ``timeout`` seconds from now
        (T6: the referee drops it after). A join's name is checked first (T2,
        :func:`~.names.clean_name`: :class:`TableRefusal`, nothing stored)."""
        token = reply or new_token()
        if kind == "join":  # T2's checks of a name alone, in one place for every way to join
            fields["name"] = clean_name(fields.get("name"))
        record: dict[str, Any] = {"kind": kind, "rid": rid or new_request_id(), "reply": token, **fields}
        record["deadline"] = round(time.time() + timeout, 3)
        if kind in ("join", "rejoin"):
            record["page"] = self.page
        else:
            record["member"] = self.member
            record["secret"] = self._secret
        self.store.append(self.code, "requests", record)
        if kind == "rejoin" and isinstance(fields.get("token"), str):
            self._rejoining[token] = fields["token"]
        return token

    def reply(self, token: str) -> Reply | None:
        """The answer at ``reply:<token>``, or None while there is none."""
        record = self.store.get(self.code, f"reply:{token}")
        if record is None:
            return None
        answer = Reply.from_record(record)
        rejoined = self._rejoining.pop(token, None)
        if answer.ok:
            self._learn(record)
            if rejoined is not None and "token" not in record:
                self.token = rejoined  # a rejoin keeps the token the device had
        return answer

    def _learn(self, record: Mapping[str, Any]) -> None:
        if "secret" in record:
            self._secret = str(record["secret"])
            self.member = str(record["member"])
            self.name = str(record.get("name", self.name))
        if "token" in record:
            self.token = str(record["token"])
        if "seat" in record:
            seat = record["seat"]
            self.seat = seat if isinstance(seat, int) else None

    def wait_reply(self, token: str, timeout: float = REPLY_TIMEOUT) -> Reply:
        """Block (in a thread: see the async methods) until the answer comes, or T6 ``no_answer``
        (the request's deadline and :data:`REPLY_GRACE` passed: the referee will not apply it)."""
        deadline = time.monotonic() + timeout + REPLY_GRACE
        while True:
            answer = self.reply(token)
            if answer is not None:
                return answer
            left = deadline - time.monotonic()
            if left <= 0:
                return Reply(False, "T6", "table.no_answer")
            # A published change wakes us at once; a refusal publishes nothing: look again soon.
            woke = self.store.wait(self.code, "events", self._woken, min(left, 0.05))
            if woke:
                self._woken = woke[-1][0]

    def latest(self) -> Moment | None:
        """The latest published moment (key ``"moment"``), or None (none yet, or unreadable)."""
        record = self.store.get(self.code, "moment")
        if record is None:
            return None
        try:
            moment = read_public_moment(record)
        except ValueError:
            return None
        self._follow(moment)
        return moment

    def _follow(self, moment: Moment) -> None:
        """Keep the newest moment; the teacher may move this member (T9): read its seat from the
        moment, by its name."""
        if self.newest is None or moment.version >= self.newest.version:
            self.newest = moment
        if self.name is None:
            return
        folded = self.name.casefold()
        seats = [i for i, s in enumerate(moment.seats) if any(m.casefold() == folded for m in s.members)]
        self.seat = seats[0] if seats else None

    # ------------------------------------------------------------ the async parts
    async def _ask(self, kind: str, timeout: float, **fields: Any) -> Reply:
        try:
            token = self.post(kind, timeout=timeout, **fields)
        except TableRefusal as refusal:  # refused before anything was stored (a join's name)
            return Reply.refused(refusal)
        except StoreError as error:  # the store is unreachable, or the table is gone
            if not self.store.exists(self.code):
                return Reply.refused(TableRefusal("T1", "table.no_table", {"code": show_code(self.code)}))
            return Reply(False, "T6", "table.no_answer", {"error": type(error).__name__})
        return await asyncio.to_thread(self.wait_reply, token, timeout)

    async def join(self, name: str, seat: int | None, timeout: float = REPLY_TIMEOUT) -> Reply:
        """T2: join with ``name`` at ``seat`` (None: watch). A name that breaks T2's rules
        (:func:`~.names.clean_name`: too long, invisible characters...) is refused in words before
        anything is stored (by :meth:`post`, which every way to join goes through); the referee checks it again,
        with the names already taken."""
        return await self._ask("join", timeout, name=name, seat=seat)

    async def rejoin(self, member: str, token: str, timeout: float = REPLY_TIMEOUT) -> Reply:
        """T8: a new kernel takes this member's place back (a new seat secret)."""
        answer = await self._ask("rejoin", timeout, member=member, token=token)
        if answer.ok:
            self.latest()
        return answer

    async def act(self, action: Action, timeout: float = REPLY_TIMEOUT) -> Reply:
        """T3: an action for this member's seat, e.g. ``Action.make("bid", seat=2, amount=5)``."""
        if not self.joined:
            return Reply(False, "T3", "table.not_joined")
        return await self._ask("act", timeout, seat=self.seat, action=action.to_dict())

    async def answer(self, price: int, timeout: float = REPLY_TIMEOUT) -> Reply:
        """T7: this member's answer to the open poll."""
        if not self.joined:
            return Reply(False, "T3", "table.not_joined")
        moment = self.latest()
        poll = None if moment is None or moment.poll is None else moment.poll.id
        return await self._ask("answer", timeout, poll=poll, price=price)

    async def leave(self, timeout: float = REPLY_TIMEOUT) -> Reply:
        """Leave the table (the seat is free again, the name too)."""
        if not self.joined:
            return Reply(False, "T3", "table.not_joined")
        answer = await self._ask("leave", timeout)
        if answer.ok:
            self.member = self._secret = self.token = None
            self.seat = None
        return answer

    async def updates(self, timeout: float = 1.0) -> list[dict[str, Any]]:
        """The events since the last call (waiting in a thread up to ``timeout`` for one);
        ``[{"kind": "closed"}]`` once when the table is gone."""
        found = await asyncio.to_thread(self.store.wait, self.code, "events", self._after, timeout)
        events: list[dict[str, Any]] = []
        if found:
            self._after = found[-1][0]
            unreadable = False
            for _, event in found:
                if event.get("kind") == "moment":
                    try:
                        self._follow(read_public_moment(event.get("moment")))
                    except ValueError:  # a moment this page cannot read: it says so (issue 27)
                        unreadable = True
            events = [event for _, event in found] + ([{"kind": "unreadable"}] if unreadable else [])
        if found and time.monotonic() - self._looked < 1.0:
            return events
        self._looked = time.monotonic()
        meta = self.store.get(self.code, "meta")
        if meta is None:
            if not found and not self._closed:
                self._closed = True
                return [{"kind": "closed"}]
            return events
        count, since = _restored(meta)
        if count > self.restored:  # the store went back (issue 27): read the events again from there
            self.restored, self._after = count, min(self._after, since)
            self.latest()
            events.append({"kind": "restored"})
        return events


def _restored(meta: Mapping[str, Any]) -> tuple[int, int]:
    """``meta``'s ``"restored"``: how many times the store went back, and the events' number then."""
    mark = meta.get("restored")
    if isinstance(mark, list) and len(mark) == 2 and all(type(n) is int and n >= 0 for n in mark):
        return mark[0], mark[1]
    return 0, 0
