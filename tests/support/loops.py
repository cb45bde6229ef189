"""Event loops for the tests, in a thread of their own.

After the browser tests, the test process's main thread holds Playwright's running event loop
(its sync API keeps one): ``asyncio.run`` is refused there, and code that looks for a running
loop finds that one, which nobody serves for it. So a test that needs a loop of its own, or none
at all, runs in a worker thread: :func:`run_loop` runs ``main()`` on a fresh loop there, and
:func:`in_thread` runs a plain function where no loop runs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["in_thread", "run_loop"]

T = TypeVar("T")
#: Seconds a test's loop may run (a safety net: the tests wait for conditions).
TIMEOUT = 600


def run_loop(main: Callable[[], Coroutine[Any, Any, T]], timeout: float = TIMEOUT) -> T:
    """``asyncio.run(main())`` in a worker thread; its result (or its exception)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result(timeout=timeout)


def in_thread(fn: Callable[[], T], timeout: float = TIMEOUT) -> T:
    """``fn()`` in a worker thread, where no event loop runs; its result (or its exception)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result(timeout=timeout)
