"""One table, many devices: the shared table a whole class sits at (see ``docs/TABLE.md``).

The teacher's kernel is the table's only referee (:mod:`.referee`); the students' kernels are
its members (:mod:`.member`); they meet in a store every kernel can reach (:mod:`.store`).
Codes and secrets are in :mod:`.codes` (T1), refusals in :mod:`.errors`, the published moment
in :mod:`.moment`, polls in :mod:`.poll` (T7).
Nothing here imports ipywidgets: the app's views of a table are in ``speculation_nb.widgets``.
"""

from __future__ import annotations

from .codes import ALPHABET, new_code, new_secret, read_code, same_secret, secret_hash, show_code
from .errors import TableRefusal
from .moment import Moment, public_moment, read_moment
from .poll import MAX_PRICE, Poll
from .store import MemoryStore, StoreError, TableStore, open_store

__all__ = [
    "ALPHABET",
    "MAX_PRICE",
    "MemoryStore",
    "Moment",
    "Poll",
    "StoreError",
    "TableRefusal",
    "TableStore",
    "new_code",
    "new_secret",
    "open_store",
    "public_moment",
    "read_code",
    "read_moment",
    "same_secret",
    "secret_hash",
    "show_code",
]
