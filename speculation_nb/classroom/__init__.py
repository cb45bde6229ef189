"""One table, many devices: the shared table a whole class sits at (see ``docs/TABLE.md``).

The teacher's kernel is the table's only referee (:mod:`.referee`); the students' kernels are
its members (:mod:`.member`); they meet in a store every kernel can reach (:mod:`.stores`).
Codes and secrets are in :mod:`.codes` (T1), refusals in :mod:`.errors`, the published moment
in :mod:`.moment`, polls in :mod:`.poll` (T7), names, seats and the rate limit in :mod:`.seating`,
the game the referee drives in :mod:`.teacher_game`. The teacher's side of a table as a page
lives it (open, resume, serve, close, export) is :mod:`.host_session`; a student's (look up,
join, rejoin, send, follow) :mod:`.member_session`.
Nothing here imports ipywidgets: the app's screens of a table (``speculation_nb.app.teacher``,
``speculation_nb.app.student``) draw these sessions.
"""

from __future__ import annotations

from .codes import ALPHABET, new_code, new_secret, read_code, same_secret, secret_hash, show_code
from .errors import TableRefusal
from .member import Member, Reply
from .moment import Moment, public_moment, read_public_moment
from .poll import MAX_PRICE, Poll
from .referee import Referee
from .seating import MAX_MEMBER_NAME, MemberInfo, SeatInfo
from .stores.base import MemoryStore, StoreError, TableStore, open_store
from .teacher_game import Host, SessionHost

__all__ = [
    "ALPHABET",
    "MAX_MEMBER_NAME",
    "MAX_PRICE",
    "Host",
    "Member",
    "MemberInfo",
    "MemoryStore",
    "Moment",
    "Poll",
    "Referee",
    "Reply",
    "SeatInfo",
    "SessionHost",
    "StoreError",
    "TableRefusal",
    "TableStore",
    "new_code",
    "new_secret",
    "open_store",
    "public_moment",
    "read_code",
    "read_public_moment",
    "same_secret",
    "secret_hash",
    "show_code",
]
