"""Who sits at a shared table: members, their names (T2, T11), seats and the rate limit (T5);
the rules are in ``docs/TABLE.md``.

The referee (:mod:`.referee`) keeps one :class:`Seated` per member: the name as the rules of
:mod:`.names` keep it (normalised, checked for invisible characters and look-alikes; escaping is
the views' job wherever it is shown, T11), the seat (None: watching),
and the SHA-256 hashes of the member's seat secret (T3) and rejoin token (T8), never the secrets.
:class:`RateLimiter` is the token bucket of T5 with an injectable clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import TableRefusal
from .names import MAX_MEMBER_NAME, check_name

__all__ = [
    "MAX_MEMBER_NAME",
    "SEAT_NAME_LIMIT",
    "MemberInfo",
    "RateLimiter",
    "Roster",
    "SeatInfo",
    "Seated",
    "check_name",
    "seat_name",
]


#: The most characters of a seat's shown name: its members' names, as many as fit, then how many
#: more ("Ann, Ben +6"); well within the 200 a published moment carries for a name.
SEAT_NAME_LIMIT = 48


def seat_name(members: Sequence[str], default: str) -> str:
    """The name a seat is shown by on every screen: its members' names (a team's, joined by
    commas), as many as fit in :data:`SEAT_NAME_LIMIT` characters and then ``+n`` for the
    others; ``default`` (the session's name of the seat) when nobody sits there.

    >>> seat_name(["Ann", "Ben"], "Fanny"), seat_name([], "Fanny")
    ('Ann, Ben', 'Fanny')
    >>> seat_name(["Ann", "Ben"] + ["Cecilia Bertram-Crawford"] * 6, "Fanny")
    'Ann, Ben, Cecilia Bertram-Crawford +5'
    """
    names = list(members)
    for shown in range(len(names), 0, -1):
        more = len(names) - shown
        text = ", ".join(names[:shown]) + (f" +{more}" if more else "")
        if len(text) <= SEAT_NAME_LIMIT:
            return text
    return names[0][: SEAT_NAME_LIMIT - 6] + f" +{len(names) - 1}" if names else default


@dataclass(frozen=True)
class MemberInfo:
    """A member as the teacher's panel lists it (``seat`` None: watching)."""

    id: str
    name: str
    seat: int | None
    joined_at: float


@dataclass(frozen=True)
class SeatInfo:
    """A seat: ``kind`` is ``"free"``, ``"people"`` (members), ``"computer"`` or ``"teacher"``."""

    seat: int
    kind: str
    members: tuple[str, ...]


@dataclass
class Seated:
    """The referee's record of one member (secrets as hashes only)."""

    id: str
    name: str
    seat: int | None
    joined_at: float
    secret_hash: str
    token_hash: str
    left: bool = False
    #: The SHA-256 hash of the identity of the page (its kernel) that joined or last rejoined
    #: as this member ("" if none was given): one page holds one membership (T2).
    page: str = ""

    def info(self) -> MemberInfo:
        return MemberInfo(self.id, self.name, self.seat, self.joined_at)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "seat": self.seat,
            "joined_at": self.joined_at,
            "secret_hash": self.secret_hash,
            "token_hash": self.token_hash,
            "left": self.left,
            "page": self.page,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seated:
        seat = data["seat"]
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            seat=None if seat is None else int(seat),
            joined_at=float(data["joined_at"]),
            secret_hash=str(data["secret_hash"]),
            token_hash=str(data["token_hash"]),
            left=bool(data["left"]),
            page=str(data.get("page", "")),  # records from before issue 27 have none
        )


@dataclass
class RateLimiter:
    """T5's token bucket: each key may spend ``burst`` requests at once, then ``rate`` a second."""

    clock: Callable[[], float]
    burst: float = 10.0
    rate: float = 4.0
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def allow(self, key: str) -> bool:
        """Spend one request of ``key``'s bucket; False (nothing spent) when it is empty."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - then) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        return True


class Roster:
    """Who sits where at one table (T2, T9): the members, the joins made, the seats the teacher
    took over and the seats computer players play. At most ``max_joins`` members at once (who
    hold a seat or watch: members who left free their place). Seat numbers are checked against ``players``
    given at each call (the teacher may start a session of another size)."""

    def __init__(self, max_joins: int = 60, teams: bool = False) -> None:
        self.max_joins, self.teams = int(max_joins), bool(teams)
        self.members: dict[str, Seated] = {}
        self.joins = 0
        self.taken: set[int] = set()
        self.computers: set[int] = set()

    def from_page(self, page: str) -> Seated | None:
        """The member still at the table that page ``page`` (a hash) joined or rejoined as."""
        return next((m for m in self.active() if page and m.page == page), None)

    def member(self, named: object) -> Seated | None:
        """The member with id ``named`` still at the table, or None."""
        found = self.members.get(named) if isinstance(named, str) else None
        return None if found is None or found.left else found

    def active(self) -> list[Seated]:
        return [m for m in self.members.values() if not m.left]

    @staticmethod
    def seat_number(seat: object, players: int) -> int:
        """``seat`` if it is a seat of the table, else :class:`TableRefusal` T2."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise TableRefusal("T2", "table.no_seat", {"seat": seat if isinstance(seat, int) else -1})
        return seat

    def kind(self, seat: int) -> str:
        if seat in self.taken:
            return "teacher"
        if seat in self.computers:
            return "computer"
        if any(m.seat == seat for m in self.active()):
            return "people"
        return "free"

    def join(self, name: object, seat: object, players: int, new_id: Callable[[], str], now: float) -> Seated:
        """T2: a new member (its secrets are set by the referee), or :class:`TableRefusal`."""
        if len(self.active()) >= self.max_joins:  # who holds a seat or watches, not joins ever made
            raise TableRefusal("T2", "table.joins_full", {"limit": self.max_joins})
        clean = check_name(name, (m.name for m in self.active()))
        place = None if seat is None else self.seat_number(seat, players)
        if place is not None:
            kind = self.kind(place)
            if kind != "free" and not (kind == "people" and self.teams):
                raise TableRefusal("T2", "table.seat_taken", {"seat": place})
        member_id = new_id()
        while member_id in self.members:
            member_id = new_id()
        self.joins += 1
        member = Seated(member_id, clean, place, now, "", "")
        self.members[member_id] = member
        return member

    def seats(self, players: int) -> list[SeatInfo]:
        """Every seat: who sits there (kind) and the names of its members."""
        return [
            SeatInfo(seat, self.kind(seat), tuple(m.name for m in self.active() if m.seat == seat))
            for seat in range(players)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "members": [m.to_dict() for m in self.members.values()],
            "joins": self.joins,
            "max_joins": self.max_joins,
            "teams": self.teams,
            "taken": sorted(self.taken),
            "computers": sorted(self.computers),
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        self.members = {m["id"]: Seated.from_dict(m) for m in data["members"]}
        self.joins = int(data["joins"])
        self.taken = {int(s) for s in data["taken"]}
        self.computers = {int(s) for s in data["computers"]}
