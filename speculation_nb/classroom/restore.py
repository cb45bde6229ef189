"""When the store went back in time: a crash restored an older state of a table (issue 27).

Redis with append-only persistence (``appendfsync everysec``, ``deploy/README.md``) loses at most
the last second of writes when its machine crashes; a store restored from a backup loses more.
The referee outlives it with the newer state in memory (its members, the session, the cursor of
requests it handled), so it can tell: a stream whose last record number
(:meth:`~.stores.base.TableStore.last`) is below what the referee read or wrote *went back*.
Left alone, the referee would wait for requests numbered above its cursor while the store
numbers new ones from below it, and drop them without a word; members likewise would skip the
events numbered below theirs.

:class:`StoreWatch` notices it. The referee then moves its cursor back to the store's last
request, writes its state again (``meta``, ``record``, the moment shown) and keeps the finding
in :attr:`StoreWatch.restored` (a :class:`Restored`, for the teacher's page: catalog key
``table.restored.teacher``); ``meta`` carries ``"restored": [count, events]``, from which each
member (:class:`~.member.Member`) reads the events again from number ``events`` on, and says so
(event ``{"kind": "restored"}``, catalog key ``table.restored.student``). Requests the store
lost are not answered: their pages get no answer in time and send them again (T6: a request
already applied is applied once).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .stores.base import TableStore

__all__ = ["Restored", "StoreWatch"]


@dataclass(frozen=True)
class Restored:
    """One time the store was found behind the referee: how many times so far (``count``), how
    many requests and events it lost, the events stream's last number when found (members read
    again from there) and when (``at``, seconds since the epoch)."""

    count: int
    requests: int
    events: int
    events_from: int
    at: float

    #: The catalog key of the teacher's words (params: :attr:`params`).
    key = "table.restored.teacher"

    @property
    def params(self) -> dict[str, Any]:
        return {"requests": self.requests, "events": self.events}

    def meta(self) -> list[int]:
        """What ``meta`` carries for the members: ``[count, events_from]``."""
        return [self.count, self.events_from]


class StoreWatch:
    """What the referee read and wrote last, to notice a store that went back (:meth:`check`)."""

    def __init__(self, events: int = 0) -> None:
        self.events = events  # the number of the last event this referee wrote
        self.restored: Restored | None = None

    def appended(self, number: int | None) -> None:
        """The referee wrote an event, numbered ``number``."""
        if number is not None:
            self.events = max(self.events, number)

    def check(self, store: TableStore, code: str, cursor: int) -> Restored | None:
        """A :class:`Restored` if table ``code``'s streams end before ``cursor`` (the last request
        the referee handled) or before the last event it wrote; None when all is well."""
        requests, events = store.last(code, "requests"), store.last(code, "events")
        if requests >= cursor and events >= self.events:
            return None
        count = 1 if self.restored is None else self.restored.count + 1
        self.restored = Restored(count, max(0, cursor - requests), max(0, self.events - events), events, time.time())
        self.events = events
        return self.restored
