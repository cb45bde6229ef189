"""A table store that goes away on demand: :class:`FlakyStore` (a Redis that stops answering).

The teacher's side of a table must go on when its store fails (the failure is said, the game is
not stopped); the tests of the host panel and of the host session use this one store to show it.
"""

from __future__ import annotations

from typing import Any

from speculation_nb.classroom.stores.base import MemoryStore, StoreError

__all__ = ["FlakyStore"]


class FlakyStore(MemoryStore):
    """A MemoryStore that refuses every write while ``failing`` (a Redis gone away)."""

    failing = False

    def put(self, code: str, key: str, record: Any) -> None:
        if self.failing:
            raise StoreError("the store went away")
        super().put(code, key, record)

    def append(self, code: str, stream: str, record: Any) -> int:
        if self.failing:
            raise StoreError("the store went away")
        return super().append(code, stream, record)
