"""Waiting in the tests for a condition, never for a fixed time: on a loaded machine a test only
waits longer (tests/classroom/test_table_store.py, test_table_store_attacks.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

#: A safety net only: every wait ends as soon as its condition holds.
PATIENCE = 60.0


def until(condition: Callable[[], bool], timeout: float = PATIENCE) -> bool:
    """Wait for ``condition`` (checked every few ms), at most ``timeout`` seconds; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
