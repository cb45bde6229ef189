"""A student's side of one shared table, without a widget: look up, join, rejoin, send, follow.

A :class:`MemberSession` is what the student's screen (``speculation_nb.app.student.screen``)
observes and redraws. It builds on :class:`~.member.Member`, the table's wire (a request posted,
its reply read, the seat secret kept, the published moments followed), and adds what a page
lives through:

* **look up** (T1): the table of a code as typed; its free seats (:meth:`MemberSession.free_seats`);
* **join** (T2) under a name at a seat or to watch; the referee's answer comes later (requests
  never block the page): every request waits in :attr:`MemberSession.pending` until its reply is
  read, or until :data:`~.member.REPLY_TIMEOUT` seconds pass (T6: said, and forgotten). While a
  join or a rejoin waits, another is not sent: one request to join at a time;
* **rejoin** (T8): what the page kept on the device (``{"member", "token"}``, plain data, never
  the seat secret) is given to :meth:`MemberSession.rejoin`; the session hands what to keep to
  ``remember(code, kept)`` (``None`` forgets it);
* **send** the seat's actions (T3) and an answer to the poll (T7), after the checks a request
  needs whatever the page sent (joined, a seat, a bid of at least 1, a price in range, a poll
  open); the referee checks everything again;
* **follow** (:meth:`MemberSession.start`): on the kernel's event loop, a task reads the table's
  events (:meth:`Member.updates <.member.Member.updates>`) and then the replies and the latest
  moment (:meth:`MemberSession.read`); without a loop, whoever drives the page calls ``read``.

A refusal of a check here raises (:class:`~.errors.TableRefusal` or
:class:`~speculation_nb.IllegalAction`, nothing sent); the referee's answers, the timeouts and the
session's own news are its :attr:`notice` (:class:`~.notice.Notice`). Observers
(:meth:`MemberSession.observe`) are called after each :meth:`read` and each request sent.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.checks import is_whole, plain
from ..engine.errors import IllegalAction
from .codes import new_token, read_code, show_code
from .errors import TableRefusal
from .member import REPLY_GRACE, REPLY_TIMEOUT, Member, Reply
from .moment import Moment
from .notice import Notice
from .poll import check_price
from .stores.base import StoreError, TableStore, open_store

__all__ = ["KERNEL_PAGE", "MemberSession", "Pending", "configured_store", "refusal"]

log = logging.getLogger("speculation_nb.table")

#: This kernel's identity as a page of a table (T2: one page, one membership), sent with every
#: join and rejoin. It lives in the kernel, which the page's widgets cannot change: whatever they
#: send, a second join from this kernel is refused by the referee too.
KERNEL_PAGE = new_token()

#: Seconds the follow task waits for an event: shorter while a reply is awaited.
FOLLOW_WAIT, REPLY_WAIT = 1.0, 0.25


def refusal(rule: str, case: str) -> TableRefusal:
    """The table's refusal ``case`` (worded by ``error.table.<case>`` of the catalogs)."""
    return TableRefusal(rule, f"table.{case}")


def configured_store() -> TableStore | None:
    """The store this kernel is told of (``SPECULATION_TABLE_STORE``); None when there is none or
    it cannot be opened (logged: the page says there is no server)."""
    try:
        return open_store()
    except StoreError:
        log.exception("speculation_nb member session: the table store could not be opened")
        return None


@dataclass
class Pending:
    """A request sent and not yet answered: its ``kind``, what to do with the reply, since when."""

    kind: str
    done: Callable[[Reply], None]
    since: float


class MemberSession:
    """A student's side of one shared table (see the module docstring).

    ``store``: where tables live (None: no server, nothing can be joined); ``follow``: run the
    follow task on the event loop; ``clock``: monotonic seconds (T6's timeout); ``remember``:
    keeps ``{"member", "token"}`` on the device for a table's code (``None`` forgets it); ``page``:
    the page's identity (:data:`KERNEL_PAGE`, this kernel's)."""

    def __init__(
        self,
        store: TableStore | None,
        *,
        follow: bool = False,
        clock: Callable[[], float] = time.monotonic,
        remember: Callable[[str, dict[str, str] | None], None] | None = None,
        page: str = KERNEL_PAGE,
    ) -> None:
        self.store = store
        self.remember = remember
        #: The page's identity the referee counts memberships by (this kernel's; tests give one per student).
        self.page = page
        self.member: Member | None = None
        self.code = ""
        self.name = ""
        self.moment: Moment | None = None
        self.closed = False
        self.last_reply: Reply | None = None
        self.notice = Notice()
        #: The table was restored after a crash (issue 27): said on the page until the next table.
        self.restored: Notice | None = None
        self.pending: dict[str, Pending] = {}
        self._clock = clock
        self._follow = follow
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._observers: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ observing
    def observe(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` after each :meth:`read` and each request sent."""
        self._observers.append(fn)

    def _changed(self) -> None:
        for fn in list(self._observers):
            fn()

    def tell(self, key: str, error: bool = False, **params: Any) -> None:
        """Set the notice: a catalog key and its parameters."""
        self.notice = Notice(key, error, params)

    def refuse(self, refused: Any, key: str = "") -> None:
        """Set the notice to a refusal (alone, or as ``key``'s ``{reason}``)."""
        self.notice = Notice.refused(refused, key)

    @property
    def joined(self) -> bool:
        """True once the table has this page's member (joined or rejoined)."""
        return self.member is not None and self.member.member is not None

    @property
    def seat(self) -> int | None:
        """The seat this page acts for (None: watching, or not joined)."""
        return None if self.member is None else self.member.seat

    def waiting(self, *kinds: str) -> bool:
        """True while a request of one of these kinds waits for its reply."""
        return any(p.kind in kinds for p in self.pending.values())

    # ------------------------------------------------------------------ joining
    def look_up(self, typed: object) -> bool:
        """Find the table of the code typed (T1: read whatever was typed; no such table is
        refused); its seats become the ones to choose from. False when there is no store."""
        if self.store is None:
            self.tell("class.member.no_server", True)
            return False
        code = read_code(typed)
        if self.member is not None and code == self.code:
            return True
        member = Member(self.store, code, page=self.page)
        self.stop()
        self._stopped = False
        self.member, self.code, self.moment, self.closed = member, code, member.latest(), False
        self.pending.clear()
        self.restored = None
        self.tell("class.member.found" if self.free_seats() else "class.member.no_free_seat", code=show_code(code))
        self.start()
        return True

    def join(self, name: object, seat: int | None, code: object = None) -> None:
        """Ask the table for ``seat`` (None: to watch) under ``name`` (T2; the referee checks
        both). ``code``: the code as typed now, looked up first if it is another table's."""
        if self.member is None or (code is not None and self.code != _read(code)):
            self.look_up(self.code if code is None else code)
        if self.joined:  # one page, one seat (T2): whatever its widgets sent; the referee checks too
            raise TableRefusal("T2", "table.page_joined", {"name": self.name})
        if self.member is None or self.waiting("join", "rejoin"):
            return  # one request to join at a time: the first one's answer stands
        self._send("join", self._joined, name=name, seat=seat)

    def _joined(self, reply: Reply) -> None:
        if not reply.ok:
            self.refuse(reply)
            return
        member = self.member
        self.name = str(reply.data.get("name", "")) or (member.name if member else "") or ""
        if member is not None and member.member and member.token and self.remember is not None:
            self.remember(self.code, {"member": member.member, "token": member.token})
        if self.seat is None:
            self.tell("class.member.joined_watch", name=self.name)
        else:
            self.tell("class.member.joined_seat", seat=self.names()[self.seat], name=self.name)

    def rejoin(self, kept: Mapping[str, Any] | None) -> None:
        """What the device kept for this table (plain data, whatever it holds): a member id and
        its rejoin token take this member's place back (T8); anything else does nothing."""
        if self.member is None or self.joined or self.waiting("join", "rejoin"):
            return  # a join asked for before the device answered stands
        if not isinstance(kept, Mapping):
            return
        member, token = kept.get("member"), kept.get("token")
        if not isinstance(member, str) or not isinstance(token, str):
            return
        self._send("rejoin", self._rejoined, "class.member.rejoining", member=member, token=token)

    def _rejoined(self, reply: Reply) -> None:
        if not reply.ok:
            if self.remember is not None:
                self.remember(self.code, None)
            self.refuse(reply, "class.member.rejoin_refused")
            return
        self.name = str(reply.data.get("name", ""))
        self.tell("class.member.rejoined", name=self.name)

    # ------------------------------------------------------------------ acting (T3, T7)
    def _my_seat(self) -> int:
        if not self.joined:
            raise refusal("T3", "not_joined")
        if self.seat is None:
            raise refusal("T3", "spectator")
        return self.seat

    def act(self, action: Action) -> None:
        """Send ``action`` for this page's seat (T3: joined, at a seat; the referee checks the rest)."""
        self._send("act", self._acted, seat=self._my_seat(), action=action.to_dict())

    def _acted(self, reply: Reply) -> None:
        if reply.ok:
            self.tell("class.member.done")
        else:
            self.refuse(reply)

    def next_card(self) -> None:
        self.act(Action.make("reveal", seat=self._my_seat()))

    def offer(self) -> None:
        self.act(Action.make("open_auction"))

    def bid(self, amount: object) -> None:
        """A bid as typed: a whole number of at least 1 chip (0 would withdraw: a typed bid is a bid)."""
        whole = plain(amount)
        if not is_whole(whole) or whole < 1:
            raise IllegalAction("P2", "bid_below_one", f"a bid is at least 1 chip, not {amount}", amount=amount)
        self.act(Action.make("bid", seat=self._my_seat(), amount=int(whole)))

    def withdraw(self) -> None:
        self.act(Action.make("bid", seat=self._my_seat(), amount=0))

    def sell_to(self, buyer: int) -> None:
        self.act(Action.make("accept", seat=int(buyer)))

    def keep_card(self) -> None:
        self.act(Action.make("decline"))

    def answer(self, price: object) -> None:
        """Send ``price`` as this member's answer to the open poll (T7: a poll open, a price in range)."""
        poll = None if self.moment is None else self.moment.poll
        if poll is None or not poll.open:
            raise refusal("T7", "no_poll" if poll is None else "poll_locked")
        checked = check_price(price)
        self._send("answer", functools.partial(self._answered, checked), poll=poll.id, price=checked)

    def _answered(self, price: int, reply: Reply) -> None:
        if reply.ok:
            self.tell("class.member.poll_sent", price=price)
        else:
            self.refuse(reply)

    # ------------------------------------------------------------------ requests and replies
    def _send(self, kind: str, done: Callable[[Reply], None], saying: str = "", **fields: Any) -> None:
        if self.member is None:
            raise refusal("T2", "not_joined")
        token = self.member.post(kind, **fields)
        self.pending[token] = Pending(kind, done, self._clock())
        self.tell(saying or "class.member.asking")
        self._changed()

    def read(self, followed: bool = False) -> None:
        """Read the referee's replies to this page's requests (a request unanswered for
        :data:`~.member.REPLY_TIMEOUT` seconds is said to have had none, T6) and the latest
        moment. ``followed``: the follow task has just read the table's events, which carry the
        moments and say when the table closed: nothing more to read for them."""
        member = self.member
        if member is None:
            return
        for token, pending in list(self.pending.items()):
            reply = member.reply(token)
            if reply is None:
                if self._clock() - pending.since > REPLY_TIMEOUT + REPLY_GRACE:  # past its deadline (T6)
                    del self.pending[token]
                    self.refuse(refusal("T6", "no_answer"))
                continue
            del self.pending[token]
            self.last_reply = reply
            try:
                pending.done(reply)
            except Exception:
                log.exception("speculation_nb member session: a reply could not be read")
                self.tell("error.unexpected", True)
        if not self.joined:
            member.refresh()  # the free seats change as others join
        latest = member.newest if followed else member.latest()
        if latest is not None and (self.moment is None or latest.version >= self.moment.version):
            self.moment = latest
        if not followed and self.store is not None and not self.store.exists(self.code):
            self.closed = True
        self._changed()

    def take_events(self, events: list[dict[str, Any]]) -> None:
        """Events of the table's stream (the follow task's): a ``closed`` one ends the page's table;
        an ``unreadable`` one (a moment this page could not read) is said: the page does not follow;
        a ``restored`` one (the store went back after a crash) is kept in :attr:`restored`."""
        if any(e.get("kind") == "closed" for e in events):
            self.closed = True
        if any(e.get("kind") == "unreadable" for e in events):  # stuck behind the teacher: said
            self.tell("class.member.cannot_follow", True)
        if any(e.get("kind") == "restored" for e in events):  # the store went back (issue 27): said
            self.restored = Notice("table.restored.student", True)

    # ------------------------------------------------------------------ following
    def start(self) -> None:
        """Follow the table on the event loop (when this session follows, once)."""
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

    def stop(self) -> None:
        """Stop following the table (the seat stays this member's: T8)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while not self._stopped and self.member is not None:
            member = self.member
            try:
                events = await member.updates(timeout=REPLY_WAIT if self.pending else FOLLOW_WAIT)
                if member is not self.member:
                    continue
                self.take_events(events)
                if events or self.pending or not self.joined:  # a quiet second costs one wait, no redraw
                    self.read(followed=True)
            except asyncio.CancelledError:
                raise
            except Exception:  # a store that hiccups: say nothing yet, try again in a moment
                log.exception("speculation_nb member session: following the table failed")
                await asyncio.sleep(1.0)
            if self.closed:
                break

    # ------------------------------------------------------------------ what the screen draws
    def names(self) -> list[str]:
        """The seats' names: the latest moment's, else the table's meta's."""
        if self.moment is not None:
            return list(self.moment.names)
        meta = {} if self.member is None else (self.member.meta or {})
        names = meta.get("names")
        return [str(n) for n in names] if isinstance(names, list) else []

    def free_seats(self) -> list[int]:
        """The seats a newcomer may ask for: the table's meta says (with teams, seats that have
        members too); the latest moment's free seats when the meta does not."""
        meta = {} if self.member is None else (self.member.meta or {})
        free = meta.get("free")
        if isinstance(free, list):
            return [s for s in free if is_whole(s)]
        if self.moment is not None:
            return [i for i, s in enumerate(self.moment.seats) if s.kind == "free"]
        return []

    def buyers(self) -> list[int]:
        """The bidders this page's holder may sell to now (highest bid first)."""
        m = self.moment
        if m is None or m.auction is None or self.seat is None or m.holder != self.seat:
            return []
        bids = m.auction.bids
        return sorted((s for s in m.due.accept if s in bids), key=lambda s: (-bids[s], s))


def _read(code: object) -> str:
    try:
        return read_code(code)
    except TableRefusal:
        return ""
