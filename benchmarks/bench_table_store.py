"""How fast the shared table's stores carry a request and a bid: MemoryStore, SQLite, Redis.

Three figures per store, each as the store is used by the table:

* **appends**: records appended per second by one writer (the referee publishing);
* **round trip**: a student's process appends a request, the referee's process (waiting in
  ``store.wait``) answers it with an event, the student's process (waiting too) gets it;
  median and 95th percentile over ``--trips`` round trips;
* **fan-out**: one event (a bid) reaching ``--students`` processes that wait for it, from the
  append to the last of them reading it (the time a whole class needs to see a bid; the
  target downstream is a median under 300 ms for 30 students), median over ``--bids`` bids.

The baseline is :class:`MemoryStore`, measured in the same run with threads of this process
in place of processes (no process boundary, no database: the floor); the other stores are
shown as ratios to it. SQLite runs in a temporary folder; Redis is Debian's ``redis-server``
started on loopback with the table's ACL users, as ``tests/support/redis_server.py`` does (skipped
when it is not installed).

    python benchmarks/bench_table_store.py [--trips 100] [--students 30] [--bids 10]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests" / "support")]

from speculation_nb.classroom.stores.base import MemoryStore, TableStore, open_store  # noqa: E402

CODE = "BENCH23456"
PATIENCE = 120.0


def _open(url: str, shared: TableStore | None) -> TableStore:
    store = shared if shared is not None else open_store(url)
    assert store is not None
    return store


def referee_loop(url: str, count: int, shared: TableStore | None = None) -> None:
    """Answer ``count`` requests, each with one event, as soon as each arrives."""
    store = _open(url, shared)
    seen = 0
    while seen < count:
        for number, request in store.wait(CODE, "requests", after=seen, timeout=PATIENCE):
            seen = number
            store.append(CODE, "events", {"kind": "echo", "trip": request["trip"]})


def student_loop(url: str, bids: int, after: int, ready: Any, results: Any, shared: TableStore | None = None) -> None:
    """Wait for ``bids`` events; report how long each took from its append (wall clock)."""
    store = _open(url, shared)
    ready.put(os.getpid())
    seen, delays = after, []
    while len(delays) < bids:
        for number, event in store.wait(CODE, "events", after=seen, timeout=PATIENCE):
            delays.append(time.time() - event["sent"])
            seen = number
    results.put(delays)


def start(target: Callable[..., None], args: tuple[Any, ...], in_process: bool) -> Any:
    """``target`` in a process of its own (a kernel), or a thread (the memory baseline)."""
    if in_process:
        worker: Any = multiprocessing.get_context("spawn").Process(target=target, args=args)
    else:
        worker = threading.Thread(target=target, args=args, daemon=True)
    worker.start()
    return worker


def measure(url: str, trips: int, students: int, bids: int) -> dict[str, float]:
    """The three figures for the store at ``url`` (``memory:``: threads share one MemoryStore)."""
    shared = MemoryStore() if url == "memory:" else None
    in_process = shared is None
    store = _open(url, shared)
    store.wipe(CODE)
    store.create(CODE, {"bench": True})
    figures: dict[str, float] = {}

    count, started = 500, time.perf_counter()
    for i in range(count):
        store.append(CODE, "events", {"kind": "moment", "i": i, "pad": "x" * 200})
    figures["appends per s"] = count / (time.perf_counter() - started)
    store.wipe(CODE)
    store.create(CODE, {"bench": True})

    warm_up = 5  # the referee's process starting (its imports, its connection) is not a trip
    referee = start(referee_loop, (url, warm_up + trips, shared), in_process)
    times = []
    for trip in range(1, warm_up + trips + 1):
        sent = time.perf_counter()
        store.append(CODE, "requests", {"kind": "act", "trip": trip})
        got: list[tuple[int, dict[str, Any]]] = []
        while not got:
            got = store.wait(CODE, "events", after=trip - 1, timeout=PATIENCE)
        if trip > warm_up:
            times.append(time.perf_counter() - sent)
    referee.join(PATIENCE)
    figures["round trip median ms"] = 1000 * statistics.median(times)
    figures["round trip p95 ms"] = 1000 * statistics.quantiles(times, n=20)[-1]

    context = multiprocessing.get_context("spawn")
    ready: Any = context.Queue() if in_process else _LocalQueue()
    results: Any = context.Queue() if in_process else _LocalQueue()
    after = len(store.read(CODE, "events", limit=10**6))
    workers = [start(student_loop, (url, bids, after, ready, results, shared), in_process) for _ in range(students)]
    for _ in workers:
        ready.get(timeout=PATIENCE)
    time.sleep(1.0)  # every student is inside wait() now: what follows measures wake-ups
    for _ in range(bids):
        store.append(CODE, "events", {"kind": "poll", "sent": time.time()})
        time.sleep(0.4)
    delays = [results.get(timeout=PATIENCE) for _ in workers]
    for worker in workers:
        worker.join(PATIENCE)
    last = [max(per_student[b] for per_student in delays) for b in range(bids)]
    figures["fan-out median ms"] = 1000 * statistics.median(d for per in delays for d in per)
    figures["fan-out last of class median ms"] = 1000 * statistics.median(last)
    store.wipe(CODE)
    if shared is None:
        store.close()
    return figures


class _LocalQueue:
    """queue.Queue with multiprocessing's ``get(timeout=)`` spelling, for the thread baseline."""

    def __init__(self) -> None:
        import queue

        self._queue: queue.Queue[Any] = queue.Queue()

    def put(self, item: Any) -> None:
        self._queue.put(item)

    def get(self, timeout: float) -> Any:
        return self._queue.get(timeout=timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=100)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--bids", type=int, default=10)
    options = parser.parse_args()
    from redis_server import RedisServer, redis_server_binary

    with tempfile.TemporaryDirectory() as folder:
        urls = {"memory (threads)": "memory:", "sqlite (processes)": f"sqlite://{folder}/tables.sqlite3"}
        server = RedisServer() if redis_server_binary() else None
        try:
            if server is not None:
                server.start()
                urls["redis (processes)"] = server.url("referee")
            results = {name: measure(url, options.trips, options.students, options.bids) for name, url in urls.items()}
        finally:
            if server is not None:
                server.__exit__()
    load = os.getloadavg()
    print(f"{options.trips} round trips, {options.students} students x {options.bids} bids; {os.cpu_count()} CPUs,")
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; Python {sys.version.split()[0]}")
    if len(urls) < 3:
        print("redis-server is not installed: Redis not measured")
    base = results["memory (threads)"]
    names = list(base)
    print(f"{'figure':34}" + "".join(f"{name:>22}" for name in results))
    for figure in names:
        row = f"{figure:34}"
        for figures in results.values():
            ratio = "" if figures is base else f" ({figures[figure] / base[figure]:.1f}x)"
            row += f"{figures[figure]:>14.1f}{ratio:>8}"
        print(row)


if __name__ == "__main__":
    main()
