"""The referee's front desk: who a request comes from and whether it was seen before (``docs/TABLE.md``).

:class:`Desk` admits the students' requests before the referee looks at what they ask: T2
joins and T8 rejoins (each answered with a fresh seat secret; a join also with a rejoin
token; one membership per page, whose kernel names it in the request, and only so many joins
from one page), T3 authentication (member id + seat secret, compared by hash), T5's rate limit
and T6's "applied once" (a retry with the same member and request id gets the first reply) and
"in time" (a request past its deadline is dropped: :func:`in_time`). It
keeps only hashes of secrets; the replies it remembers for retries hold a new member's secret
in memory only (:meth:`Desk.to_dict` leaves the join replies out; a join retried across a
referee restart gets fresh credentials for the member it made).
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from .codes import check_token, new_code, new_secret, same_secret, secret_hash
from .errors import TableRefusal
from .seating import RateLimiter, Roster, Seated

__all__ = ["PAGE_BURST", "PAGE_RATE", "REMEMBERED", "Desk", "in_time"]

log = logging.getLogger("speculation_nb.table")

#: Replies kept for T6 retries (the oldest are forgotten first).
REMEMBERED = 4096
#: T2: the joins and rejoins one page may ask for at once, then per second.
PAGE_BURST, PAGE_RATE = 5.0, 0.1


class Desk:
    """T2, T3, T5, T6 and T8 for one table's :class:`~.seating.Roster`."""

    def __init__(self, roster: Roster, clock: Callable[[], float], rng: random.Random | None = None) -> None:
        self.roster = roster
        self.rate = RateLimiter(clock)
        #: T2: joins and rejoins from one page (its kernel), refused or not: 5 at once, then one in 10 s.
        self.page_rate = RateLimiter(clock, burst=PAGE_BURST, rate=PAGE_RATE)
        self._rng = rng
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._joined: dict[str, str] = {}  # T6 key of a join -> the member it made (kept across restarts)
        #: The wall clock a request's deadline is read against (seconds since the epoch; T6).
        self.wall: Callable[[], float] = time.time

    def remember(self, key: str, reply: dict[str, Any]) -> None:
        self._done[key] = reply
        while len(self._done) > REMEMBERED:
            self._done.popitem(last=False)

    def admit(self, request: Mapping[str, Any], rid: str) -> tuple[Seated, str, dict[str, Any] | None]:
        """T3 then T6 then T5: the member (its secret checked), the request's T6 key, and the first
        reply if this is a retry. :class:`TableRefusal` T3 or T5 (a T5 refusal is not remembered:
        the retry may pass)."""
        member = self.roster.member(request.get("member"))
        if member is None:
            raise TableRefusal("T3", "table.not_member")
        if not same_secret(request.get("secret"), member.secret_hash):
            raise TableRefusal("T3", "table.bad_secret")
        key = f"{member.id}:{rid}"
        if key in self._done:
            return member, key, self._done[key]
        in_time(request, self.wall)
        if not self.rate.allow(member.id):
            raise TableRefusal("T5", "table.rate")
        return member, key, None

    def entry(self, kind: str, request: Mapping[str, Any], rid: str, token: str, players: int) -> dict[str, Any]:
        """T2 join or T8 rejoin: the reply (with the new seat secret); a retry (same request id,
        same reply token) gets its first reply (T6). :class:`TableRefusal` T2, T5 or T8."""
        key = f"{kind}:{rid}:{secret_hash(token)}"
        if key in self._done:
            return self._done[key]
        in_time(request, self.wall)
        page = request.get("page")
        page_hash = secret_hash(page) if isinstance(page, str) and check_token(page) else ""
        if kind == "rejoin":
            member = self.roster.member(request.get("member"))
            if member is None or not same_secret(request.get("token"), member.token_hash):
                raise TableRefusal("T8", "table.bad_token")
            if not self.rate.allow(member.id):
                raise TableRefusal("T5", "table.rate")
            self._one_page(page_hash, member)
            member.page = page_hash or member.page
            reply = self._credentials(member, rid, new_token=False)
        elif (made := self.roster.member(self._joined.get(key))) is not None:  # retried across a restart
            reply = self._credentials(made, rid, new_token=True)
        else:
            self._one_page(page_hash, None)
            member = self.roster.join(request.get("name"), request.get("seat"), players, self._new_id, time.time())
            member.page = page_hash
            self._joined[key] = member.id
            reply = self._credentials(member, rid, new_token=True)
        self.remember(key, reply)
        return reply

    def _one_page(self, page: str, member: Seated | None) -> None:
        """T2: one page (its kernel's identity, hashed) holds one membership: a join from a page
        that holds one, or a rejoin as another member, is refused in words, whatever the page's
        widgets sent; and a page may ask only so often (:data:`PAGE_BURST`, :data:`PAGE_RATE`)."""
        if not page:
            return
        if not self.page_rate.allow(page):
            raise TableRefusal("T5", "table.join_rate")
        held = self.roster.from_page(page)
        if held is not None and held is not member:
            raise TableRefusal("T2", "table.page_joined", {"name": held.name})

    def _new_id(self) -> str:
        return new_code(self._rng)

    @staticmethod
    def _credentials(member: Seated, rid: str, new_token: bool) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
        """For the table's record: the members' replies (no secret in them) and the joins made."""
        done = {k: v for k, v in self._done.items() if not k.startswith(("join:", "rejoin:"))}
        return {"done": done, "joined": dict(self._joined)}

    def restore(self, data: Mapping[str, Any]) -> None:
        self._done = OrderedDict((str(k), dict(v)) for k, v in dict(data["done"]).items())
        self._joined = {str(k): str(v) for k, v in dict(data["joined"]).items()}


def in_time(request: Mapping[str, Any], wall: Callable[[], float] = time.time) -> None:
    """T6: a request past its ``"deadline"`` (seconds since the epoch, which the member's kernel
    sets to when its page says "did not answer in time: try again") is dropped, logged, and
    answered with that refusal (:class:`TableRefusal` T6 ``table.no_answer``): the page's message
    stays true. A retry of a request already answered gets its first answer, deadline or not; a
    request without a deadline (a kernel from before issue 27) is in time."""
    deadline = request.get("deadline")
    if deadline is None:
        return
    if isinstance(deadline, bool) or not isinstance(deadline, int | float) or not math.isfinite(deadline):
        raise TableRefusal("T6", "table.bad_request")
    late = wall() - deadline
    if late > 0:
        log.warning(
            "a %s request %.1f s past its deadline dropped (its page said to try again)", request.get("kind"), late
        )
        raise TableRefusal("T6", "table.no_answer")
