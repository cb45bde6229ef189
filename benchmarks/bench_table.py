"""How fast a shared table carries a class of 30: issue 15's speed figures, on both stores.

The target (issue 15): with 30 students joined, a student's bid is shown on the teacher's screen
and on every other student's screen within 300 ms median and 1 s at the 95th percentile; the
teacher's Next card reaches every student within the same bounds; both stores measured.

**The model layer** (always): the teacher's kernel is this process: a :class:`Referee` over a
:class:`SessionHost` (a seeded 4-player session), its :meth:`Referee.serve` running as a task on
this process's asyncio loop, as in the teacher's kernel; the teacher's own actions (Next card,
opening a poll) run on the same loop, as a widget callback does. The 30 students are
:class:`Member` objects in ``--workers`` separate processes (spawned: several members per process,
each member with a store connection of its own and following the table with
:meth:`Member.updates` on its process's loop, as a student's kernel does). The first 4 members
sit at the 4 seats, the others watch. The store is SQLite (a temporary folder) and Redis (Debian's
``redis-server`` on loopback, started as ``tests/support/redis_server.py`` does, with the table's ACL
users: the referee with the ``referee`` credentials, the members with the ``student`` ones).

Measured, per store:

* **baselines**, the store alone, in the same run and the same processes: ``append -> 1 reader``
  (this process appends an event, one raw ``store.wait`` in a worker process gets it) and
  ``append -> 30 members`` (an event appended by this process reaching the 30 members'
  ``updates()``, no referee involved);
* **bid** (``--bids``): a seated member (not the holder) posts a bid (``Member.act``) in an open
  auction; the referee accepts it and publishes the moment (the teacher's screen, in this
  layer); every other member (29) sees that moment. Per member: median, p95, max; and per bid
  the last member of the class to see it;
* **Next card** (``--cards``): the teacher's host reveals (``host.act``) and the referee
  publishes; all 30 members see the moment;
* **poll** (``--polls``): the teacher opens a poll; each member answers as soon as its
  ``updates()`` brings the moment with the open poll (30 answers at once); the figure is the
  time until the referee's poll counts all 30 (its observer, which redraws the teacher's
  panel), and each answer's post -> counted time.

Between steps the bench waits until every member has seen the step (a condition, not a sleep),
then a think time drawn from ``random.Random(--seed)``. The ratios show the table's overhead
over the store's own: ``bid -> others`` against ``append -> 1 reader``, ``Next card -> members``
against ``append -> 30 members``.

**Time stamps** are ``time.time()`` taken in every process of this one machine (one clock): the
start of a step is taken in the process that starts it (the bidder's worker just before
``Member.act``; this process just before ``host.act`` or ``Referee.ask``), the end in the process
that sees it (a member's worker when ``updates()`` returns the event; this process when the
store's append of the moment returns or the referee's observer runs).

Where the time goes: the referee's store is wrapped (:class:`TimedStore`) to note when its
waits brought each request and how long its writes took, so the poll's ``answer -> counted``
splits into ``answer -> referee read it`` and ``referee read -> counted``; the counts give the
referee's store writes per step and their time.

**The widget layer** (``--voila``, or ``--voila-only``: :mod:`bench_table_voila`): a real Voila
server on SQLite, the teacher's app in one headless Chromium page opening the table, the students
as ``load_test.py``'s protocol clients on ``?table=<code>`` joining and bidding through the
MemberApp's widgets; the bid timed to the teacher's page and to the other students' widget
models, the teacher's Next card to every student's; the CPU each step costs the server and its
kernels. ``--voila-students`` (default ``--students``) clients.

Bounded in time (``--time-limit``: every wait stops at it and the run reports what it had);
stops every process and server it started; loopback only; the deal, the seats, the think times
and the poll answers are seeded (request ids and secrets are random by design: they do not
change what is measured). ``--json FILE`` writes the figures.

    PYTHONPATH=$PWD python benchmarks/bench_table.py --students 30 [--stores sqlite,redis] [--voila]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import math
import multiprocessing
import operator
import os
import queue
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sized
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests" / "support")]

from speculation_nb.classroom import Member, Referee, SessionHost, TableStore, open_store  # noqa: E402
from speculation_nb.classroom.stores.base import DEFAULT_TTL  # noqa: E402
from speculation_nb.engine.actions import Action  # noqa: E402
from speculation_nb.engine.session import Session  # noqa: E402
from speculation_nb.engine.settings import Rules  # noqa: E402

PLAYERS = 4
#: The issue's bounds, in milliseconds.
TARGET_MEDIAN, TARGET_P95 = 300.0, 1000.0


# --------------------------------------------------------------------------- figures
def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0-100) of ``values`` (NaN when there are none)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def spread(values: list[float]) -> dict[str, float]:
    """Median, p95 and max of ``values`` (seconds) in milliseconds, and how many there were."""
    ms = [1000 * v for v in values]
    return {"median": percentile(ms, 50), "p95": percentile(ms, 95), "max": max(ms, default=math.nan), "n": len(ms)}


# ---------------------------------------------------------------- a student's process
def worker_main(url: str, code: str, specs: list[tuple[int, str, int | None]], commands: Any, results: Any) -> None:
    """One process holding several members (``specs``: index, name, seat), run by ``commands``."""
    asyncio.run(_worker(url, code, specs, commands, results))


async def _worker(url: str, code: str, specs: list[tuple[int, str, int | None]], commands: Any, results: Any) -> None:
    loop = asyncio.get_running_loop()
    # Each member blocks a thread in updates(), and another while it waits for a reply.
    loop.set_default_executor(ThreadPoolExecutor(max_workers=3 * len(specs) + 4))
    members: dict[int, Member] = {}
    stores: list[TableStore] = []
    stop = asyncio.Event()
    tasks: set[asyncio.Task[None]] = set()

    def store() -> TableStore:
        made = open_store(url)
        assert made is not None
        stores.append(made)
        return made

    def start(job: Any) -> None:
        task = loop.create_task(job)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def answer(index: int, member: Member, price: int) -> None:
        sent = time.time()
        reply = await member.answer(price)
        results.put(("answered", index, member.member, sent, time.time(), reply.ok, reply.rule, reply.key))

    async def follow(index: int, member: Member, seed: int) -> None:
        prices = random.Random(seed)
        answered: set[int] = set()
        while not stop.is_set():
            events = await member.updates(timeout=0.5)
            seen = time.time()
            tags: list[tuple[str, int]] = []
            for event in events:
                kind = event.get("kind")
                if kind == "moment":
                    moment = event["moment"]
                    tags.append(("moment", int(moment["version"])))
                    poll = moment.get("poll")
                    if poll and poll["open"] and poll["id"] not in answered:
                        answered.add(poll["id"])
                        start(answer(index, member, prices.randrange(0, 21)))
                elif kind in ("ping", "solo"):
                    tags.append((kind, int(event["id"])))
                elif kind == "closed":
                    return
            if tags:
                results.put(("seen", index, seen, tags))

    async def join(seed: int) -> None:
        for index, name, seat in specs:
            member = Member(store(), code)
            reply = await member.join(name, seat)
            members[index] = member
            results.put(("joined", index, reply.ok, member.member, member.seat, reply.rule, reply.key))
            if reply.ok:
                start(follow(index, member, seed + index))

    async def bid(index: int, seat: int, amount: int, step: int) -> None:
        sent = time.time()
        reply = await members[index].act(Action.make("bid", seat=seat, amount=amount))
        results.put(("acted", step, index, sent, time.time(), reply.ok, reply.rule, reply.key))

    def solo(count: int) -> None:
        """A raw reader: ``store.wait`` on the events, no Member."""
        raw, after, got = store(), 0, 0
        results.put(("solo-ready",))
        while got < count and not stop.is_set():
            found = raw.wait(code, "events", after, timeout=0.5)
            seen = time.time()
            for number, event in found:
                after = number
                if event.get("kind") == "solo":
                    got += 1
                    results.put(("seen", -1, seen, [("solo", int(event["id"]))]))

    results.put(("ready", os.getpid()))
    while True:
        command = await asyncio.to_thread(commands.get)
        if command[0] == "stop":
            break
        if command[0] == "solo":
            start(asyncio.to_thread(solo, command[1]))
        elif command[0] == "join":
            start(join(command[1]))
        elif command[0] == "bid":
            start(bid(*command[1:]))
    stop.set()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*list(tasks), return_exceptions=True), 20)
    for made in stores:
        with contextlib.suppress(Exception):
            made.close()
    results.put(("stopped", os.getpid()))


# ---------------------------------------------------------------- the teacher's process
class TimedStore:
    """The referee's store, noting when each moment's append returned (the moment is then in
    the store: what every reader can see, and what the teacher's screen shows), when the
    referee's waits brought requests (and how many at once), and its writes (count, seconds)."""

    def __init__(self, store: TableStore, on_moment: Callable[[], None]) -> None:
        self.inner = store
        self.on_moment = on_moment
        self.published: dict[int, tuple[float, int, int]] = {}  # version -> (time, deal, step)
        self.writes = 0  # appends, puts and touches: the referee's writes (and the baselines' appends)
        self.writing = 0.0  # seconds spent in them
        self.taken: dict[tuple[str, str], float] = {}  # (member id, kind) -> when the referee read its latest
        self.batches: list[int] = []  # requests per wait that brought some

    def _timed(self, write: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            return write()
        finally:
            self.writes += 1
            self.writing += time.perf_counter() - started

    def append(self, code: str, stream: str, record: Mapping[str, Any]) -> int:
        number: int = self._timed(lambda: self.inner.append(code, stream, record))
        if stream == "events" and record.get("kind") == "moment":
            moment = record["moment"]
            self.published[int(moment["version"])] = (time.time(), int(moment["deal"]), int(moment["step"]))
            self.on_moment()
        return number

    def put(self, code: str, key: str, record: Mapping[str, Any]) -> None:
        self._timed(lambda: self.inner.put(code, key, record))

    def touch(self, code: str, ttl: float = DEFAULT_TTL) -> None:
        self._timed(lambda: self.inner.touch(code, ttl))

    def wait(
        self, code: str, stream: str, after: int = 0, timeout: float = 1.0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        found = self.inner.wait(code, stream, after, timeout, limit)
        if stream == "requests" and found:
            now = time.time()
            self.batches.append(len(found))
            for _, request in found:
                self.taken[(str(request.get("member")), str(request.get("kind")))] = now
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Timeout(Exception):
    """The run's time limit came before a step was seen."""


@dataclass
class StoreRun:
    """One store's run: what the workers reported, and the figures."""

    name: str
    referee_url: str
    student_url: str
    options: argparse.Namespace
    deadline: float
    seen: dict[tuple[str, int], dict[int, float]] = field(default_factory=dict)
    newest: dict[int, int] = field(default_factory=dict)  # member -> newest version seen
    acted: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    answered: list[tuple[Any, ...]] = field(default_factory=list)
    joined: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    counted: dict[int, dict[str, float]] = field(default_factory=dict)  # poll -> member id -> time
    other: list[tuple[Any, ...]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wake = asyncio.Event()

    def take(self, item: tuple[Any, ...]) -> None:
        """A worker's report (on the loop)."""
        kind = item[0]
        if kind == "seen":
            _, index, at, tags = item
            for tag in tags:
                self.seen.setdefault((str(tag[0]), int(tag[1])), {}).setdefault(index, at)
                if tag[0] == "moment":
                    self.newest[index] = max(self.newest.get(index, 0), tag[1])
        elif kind == "acted":
            self.acted[item[1]] = item
        elif kind == "answered":
            self.answered.append(item)
        elif kind == "joined":
            self.joined[item[1]] = item
        else:
            self.other.append(item)
        self.wake.set()

    async def until(self, test: Callable[[], bool], what: str) -> None:
        """Wait for ``test()`` (woken by every report), or :class:`Timeout` at the deadline."""
        while not test():
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Timeout(what)
            self.wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), min(left, 1.0))


def member_specs(students: int) -> list[tuple[int, str, int | None]]:
    """Index, name and seat of every member: the first :data:`PLAYERS` sit, the others watch."""
    return [(i, f"Student {i + 1:02d}", i if i < PLAYERS else None) for i in range(students)]


async def run_store(run: StoreRun) -> None:
    """The whole model-layer scenario on one store (see the module's text)."""
    options = run.options
    loop = asyncio.get_running_loop()
    think = random.Random(options.seed + 1)
    raw = open_store(run.referee_url)
    assert raw is not None

    def wake() -> None:
        loop.call_soon_threadsafe(run.wake.set)

    store = TimedStore(raw, wake)
    host = SessionHost(Session(Rules(players=PLAYERS), seed=options.seed))
    referee = Referee.open(store, host, rng=random.Random(options.seed))
    code = referee.code

    def on_change() -> None:
        poll = referee.poll
        if poll is not None:
            counts = run.counted.setdefault(poll.id, {})
            now = time.time()
            for member in poll.answers:
                counts.setdefault(member, now)
            run.wake.set()

    referee.observe(on_change)
    serving = loop.create_task(referee.serve(interval=0.5))
    context = multiprocessing.get_context("spawn")
    results: Any = context.Queue()
    specs = member_specs(options.students)
    groups = [specs[w :: options.workers] for w in range(options.workers)]
    commands = [context.Queue() for _ in groups]
    workers = [
        context.Process(target=worker_main, args=(run.student_url, code, group, box, results), daemon=True)
        for group, box in zip(groups, commands, strict=True)
    ]
    receiving = True

    def receive() -> None:
        while receiving:
            try:
                item = results.get(timeout=0.2)
            except queue.Empty:
                continue
            loop.call_soon_threadsafe(run.take, item)

    receiver = threading.Thread(target=receive, daemon=True)
    receiver.start()
    everyone = [i for i, _, _ in specs]

    async def pause() -> None:
        await asyncio.sleep(think.uniform(0.1, 0.3))

    def seen_by(tag: tuple[str, int], who: list[int]) -> Callable[[], bool]:
        return lambda: all(i in run.seen.get(tag, {}) for i in who)

    async def all_caught_up(what: str) -> None:
        version = referee.version
        await run.until(lambda: all(run.newest.get(i, 0) >= version for i in everyone), what)

    try:
        for worker in workers:
            worker.start()
        await run.until(lambda: sum(1 for o in run.other if o[0] == "ready") == len(workers), "workers ready")

        # Baseline 1: the store alone, one raw reader in a worker process.
        commands[0].put(("solo", options.pings))
        await run.until(lambda: any(o[0] == "solo-ready" for o in run.other), "the raw reader")
        solo_times: list[float] = []
        for i in range(options.pings):
            sent = time.time()
            store.append(code, "events", {"kind": "solo", "id": i})
            await run.until(seen_by(("solo", i), [-1]), "a raw read")
            solo_times.append(run.seen[("solo", i)][-1] - sent)
            await pause()
        run.figures["append -> 1 reader"] = spread(solo_times)

        # The class joins; everyone follows the table.
        for worker_index, box in enumerate(commands):
            box.put(("join", options.seed * 1000 + worker_index * 100))
        await run.until(lambda: len(run.joined) == len(specs), "every join")
        refused = [j for j in run.joined.values() if not j[2]]
        if refused:
            run.problems.append(f"{len(refused)} joins refused: {sorted({(j[5], j[6]) for j in refused})}")
        joined = [i for i, j in run.joined.items() if j[2]]
        everyone = joined
        await all_caught_up("the class following")

        # Baseline 2: the store alone, an event reaching the 30 members' updates().
        fan_times: list[float] = []
        for i in range(options.pings):
            sent = time.time()
            store.append(code, "events", {"kind": "ping", "id": i})
            await run.until(seen_by(("ping", i), everyone), "a ping")
            fan_times += [run.seen[("ping", i)][m] - sent for m in everyone]
            await pause()
        run.figures["append -> members"] = spread(fan_times)

        # Bids in one auction: the teacher opens it for the holder; seated members bid in turn.
        game = host.session.game
        holder = game.holder
        host.act(holder, Action.make("open_auction"))
        referee.publish()
        await all_caught_up("the auction opening")
        seated = {run.joined[i][4]: i for i in joined if run.joined[i][4] is not None}
        bidders = [s for s in sorted(seated) if s != holder]
        bid_seen: list[float] = []
        bid_last: list[float] = []
        bid_published: list[float] = []
        bid_reply: list[float] = []
        writes = store.writes
        for step in range(options.bids):
            seat = bidders[step % len(bidders)]
            span = game.bid_range(seat)
            if span is None:
                run.problems.append(f"seat {seat} may not bid at bid {step}")
                break
            deal, expected = host.session.deal_number, len(game.history) + 1
            index = seated[seat]
            commands[groups_index(groups, index)].put(("bid", index, seat, span[0], step))
            await run.until(functools.partial(operator.contains, run.acted, step), "a bid's reply")
            acted = run.acted[step]
            if not acted[5]:
                run.problems.append(f"bid {step} refused: {acted[6]} {acted[7]}")
                continue
            sent = acted[3]
            bid_reply.append(acted[4] - sent)
            version = await published_version(run, store, deal, expected)
            bid_published.append(store.published[version][0] - sent)
            others = [m for m in everyone if m != index]
            await run.until(seen_by(("moment", version), others), "a bid seen by the class")
            times = [run.seen[("moment", version)][m] - sent for m in others]
            bid_seen += times
            bid_last.append(max(times))
            await pause()
        run.counts["referee's store writes per bid"] = (store.writes - writes) / max(1, len(bid_reply))
        run.figures["bid -> bidder's reply"] = spread(bid_reply)
        run.figures["bid -> referee published"] = spread(bid_published)
        run.figures["bid -> each other member"] = spread(bid_seen)
        run.figures["bid -> last of the class"] = spread(bid_last)
        host.act(holder, Action.make("decline"))
        referee.publish()
        await all_caught_up("the auction closing")

        # Next card: the teacher's host reveals for the seat due, the referee publishes.
        card_seen: list[float] = []
        card_last: list[float] = []
        card_published: list[float] = []
        writes, deals = store.writes, 0
        for _ in range(options.cards):
            if host.session.game.over:
                host.next_deal()
                deals += 1
                referee.publish()
                await all_caught_up("the next deal")
            game = host.session.game
            sent = time.time()
            host.act(game.turn, Action.make("reveal", seat=game.turn))  # type: ignore[arg-type]
            referee.publish()
            version = referee.version
            card_published.append(store.published[version][0] - sent)
            await run.until(seen_by(("moment", version), everyone), "a card seen by the class")
            times = [run.seen[("moment", version)][m] - sent for m in everyone]
            card_seen += times
            card_last.append(max(times))
            await pause()
        run.counts["referee's store writes per card"] = (store.writes - writes) / max(
            1, len(card_seen) // len(everyone)
        )
        run.counts["deals dealt during the cards"] = deals
        run.figures["Next card -> published"] = spread(card_published)
        run.figures["Next card -> each member"] = spread(card_seen)
        run.figures["Next card -> last of the class"] = spread(card_last)

        # Polls: the teacher asks; every member answers when it sees the open poll.
        poll_complete: list[float] = []
        answer_counted: list[float] = []
        writes, published, writing, batches = store.writes, 0, store.writing, len(store.batches)
        answer_read: list[float] = []
        read_counted: list[float] = []
        for _ in range(options.polls):
            before = len(run.answered)
            sent = time.time()
            first = referee.version
            poll = referee.ask()
            await run.until(functools.partial(counted_all, poll.answers, len(everyone)), "a poll's answers")
            await run.until(functools.partial(counted_all, run.answered, before + len(everyone)), "the replies")
            counts = run.counted.get(poll.id, {})
            poll_complete.append(max(counts.values()) - sent)
            published += referee.version - first
            for item in run.answered[before:]:
                if not item[5]:
                    run.problems.append(f"an answer refused: {item[6]} {item[7]}")
                elif item[2] in counts:
                    answer_counted.append(counts[item[2]] - item[3])
                    read = store.taken.get((item[2], "answer"))
                    if read is not None:
                        answer_read.append(read - item[3])
                        read_counted.append(counts[item[2]] - read)
            referee.close_poll()
            await all_caught_up("a poll closing")
            await pause()
        answers = max(1, len(answer_counted))
        run.counts["referee's store writes per answer"] = (store.writes - writes) / answers
        run.counts["moments published per poll"] = published / max(1, len(poll_complete))
        run.counts["ms in the referee's writes per answer"] = 1000 * (store.writing - writing) / answers
        run.counts["ms per referee write (polls)"] = 1000 * (store.writing - writing) / max(1, store.writes - writes)
        run.counts["requests per referee read (polls)"] = statistics.mean(store.batches[batches:] or [0])
        run.figures["answer -> referee read it"] = spread(answer_read)
        run.figures["referee read -> counted"] = spread(read_counted)
        run.figures["poll opened -> all counted"] = spread(poll_complete)
        run.figures["answer -> counted"] = spread(answer_counted)
    except Timeout as timeout:
        run.problems.append(f"the time limit came while waiting for {timeout}")
    finally:
        for box in commands:
            with contextlib.suppress(Exception):
                box.put(("stop",))
        stopped_by = time.monotonic() + 30
        for worker in workers:
            if worker.pid is not None:
                worker.join(max(0.1, stopped_by - time.monotonic()))
            if worker.is_alive():
                run.problems.append(f"worker {worker.pid} did not stop: terminated")
                worker.terminate()
                worker.join(5)
        receiving = False
        receiver.join(2)
        referee.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(serving, 10)
        with contextlib.suppress(Exception):
            referee.wipe()
        raw.close()


def counted_all(things: Sized, count: int) -> bool:
    return len(things) >= count


def groups_index(groups: list[list[tuple[int, str, int | None]]], index: int) -> int:
    """The worker holding member ``index``."""
    return next(w for w, group in enumerate(groups) if any(i == index for i, _, _ in group))


async def published_version(run: StoreRun, store: TimedStore, deal: int, step: int) -> int:
    """The version of the moment published for ``step`` of ``deal`` (waiting for it)."""

    def find() -> int | None:
        return next((v for v, (_, d, s) in store.published.items() if d == deal and s == step), None)

    await run.until(lambda: find() is not None, "a bid's moment")
    found = find()
    assert found is not None
    return found


# ------------------------------------------------------------------------------ report
ROWS = [
    "append -> 1 reader",
    "append -> members",
    "bid -> bidder's reply",
    "bid -> referee published",
    "bid -> each other member",
    "bid -> last of the class",
    "Next card -> published",
    "Next card -> each member",
    "Next card -> last of the class",
    "poll opened -> all counted",
    "answer -> counted",
    "answer -> referee read it",
    "referee read -> counted",
]
RATIOS = [
    ("bid -> each other member", "append -> 1 reader", "bid seen / 1 reader"),
    ("bid -> each other member", "append -> members", "bid seen / members"),
    ("Next card -> each member", "append -> members", "Next card seen / members"),
]
#: The rows issue 15 bounds: the bid on the teacher's screen and on the others', the Next card.
BOUNDED = ["bid -> referee published", "bid -> each other member", "Next card -> each member"]


def verdict(figures: Mapping[str, Any], row: str) -> str:
    """Whether ``row`` keeps issue 15's bounds (300 ms median, 1 s p95)."""
    figure = figures.get(row)
    if not figure or figure["n"] == 0:
        return "not measured"
    ok = figure["median"] <= TARGET_MEDIAN and figure["p95"] <= TARGET_P95
    return "within" if ok else "OUTSIDE"


def report(runs: list[StoreRun], loads: Mapping[str, tuple[float, ...]]) -> str:
    """The figures of every store side by side (milliseconds: median / p95 / max, and how many)."""
    width, cell = 40, 34
    lines = [f"{'ms: median / p95 / max (n)':{width}}" + "".join(f"{run.name:>{cell}}" for run in runs)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:{width}}" + "".join(f"{c:>{cell}}" for c in cells))

    for name in ROWS:
        cells = []
        for run in runs:
            f = run.figures.get(name)
            cells.append(f"{f['median']:.1f} / {f['p95']:.1f} / {f['max']:.1f} ({f['n']})" if f and f["n"] else "-")
        row(name, cells)
    lines += ["", "ratios of medians: the table's time over the store's own"]
    for top, bottom, label in RATIOS:
        cells = []
        for run in runs:
            a, b = run.figures.get(top), run.figures.get(bottom)
            cells.append(f"{a['median'] / b['median']:.1f}x" if a and b and b["median"] else "-")
        row(label, cells)
    lines += ["", "counts"]
    for name in dict.fromkeys(k for run in runs for k in run.counts):
        row(name, [f"{run.counts[name]:.1f}" if name in run.counts else "-" for run in runs])
    lines += ["", f"issue 15's bounds ({TARGET_MEDIAN:.0f} ms median, {TARGET_P95:.0f} ms p95)"]
    for name in BOUNDED:
        row(name, [verdict(run.figures, name) for run in runs])
    lines.append("")
    for name, load in loads.items():
        lines.append(f"load average {name}: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for run in runs:
        lines += [f"{run.name}: {problem}" for problem in run.problems]
    return "\n".join(lines)


# -------------------------------------------------------------------------------- main
def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="members joined (default 30)")
    parser.add_argument("--workers", type=int, default=5, help="processes holding them (default 5)")
    parser.add_argument("--bids", type=int, default=20)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--polls", type=int, default=5)
    parser.add_argument("--pings", type=int, default=20, help="events of each baseline (default 20)")
    parser.add_argument("--stores", default="sqlite,redis", help="sqlite, redis or both (default both)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds for the whole run (default 600)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--voila", action="store_true", help="also the widget layer (bench_table_voila.py)")
    parser.add_argument("--voila-students", type=int, help="protocol clients of the widget layer (default --students)")
    parser.add_argument("--voila-only", action="store_true", help="the widget layer alone (no store measured)")
    options = parser.parse_args(argv)
    if options.students < PLAYERS + 1:
        parser.error(f"--students is at least {PLAYERS + 1} (the seats and one watcher)")
    options.workers = max(1, min(options.workers, options.students))
    options.voila = options.voila or options.voila_only
    if options.voila_students is None:
        options.voila_students = options.students
    options.deadline = time.monotonic() + options.time_limit
    options.stores = [] if options.voila_only else [s.strip() for s in options.stores.split(",") if s.strip()]
    if not set(options.stores) <= {"sqlite", "redis"}:
        parser.error("--stores is sqlite, redis or sqlite,redis")
    return options


async def main_async(options: argparse.Namespace) -> tuple[list[StoreRun], dict[str, tuple[float, ...]]]:
    deadline = options.deadline
    runs: list[StoreRun] = []
    loads: dict[str, tuple[float, ...]] = {"at the start": os.getloadavg()}
    folder = Path(tempfile.mkdtemp(prefix="bench-table-"))
    server = None
    try:
        for name in options.stores:
            if name == "sqlite":
                url = f"sqlite://{folder}/tables.sqlite3"
                run = StoreRun("sqlite", url, url, options, deadline)
            else:
                from redis_server import RedisServer, redis_server_binary

                if redis_server_binary() is None:
                    print("redis-server is not installed (apt-get install redis-server): Redis not measured")
                    continue
                server = RedisServer().start()
                run = StoreRun("redis", server.url("referee"), server.url("student"), options, deadline)
            print(f"{name}: {options.students} members in {options.workers} processes ...", flush=True)
            await run_store(run)
            runs.append(run)
            loads[f"after {name}"] = os.getloadavg()
            if server is not None:
                server.__exit__()
                server = None
    finally:
        if server is not None:
            server.__exit__()
        shutil.rmtree(folder, ignore_errors=True)
    return runs, loads


async def widget_layer(options: argparse.Namespace) -> Any:
    """The widget layer (:mod:`bench_table_voila`) in the time the model layer left."""
    from bench_table_voila import run_voila

    print(f"widget layer: a Voila server, the teacher in Chromium, {options.voila_students} protocol clients ...")
    before = os.getloadavg()
    run = await run_voila(options.voila_students, options.bids, options.cards, options.seed, options.deadline)
    run.loads = {"at its start": before, "at its end": os.getloadavg()}
    return run


def voila_figures(run: Any) -> dict[str, Any]:
    return {
        "figures": {name: spread(values) for name, values in run.figures.items()},
        "problems": run.problems,
        "notes": run.notes,
        "cpu_seconds_per_step": run.cpu,
        "load_average": run.loads,
    }


def voila_report(run: Any) -> str:
    """The widget layer's figures (milliseconds)."""
    lines = [f"widget layer (Voila, SQLite), {run.students} students: ms median / p95 / max (n)"]
    for name, values in run.figures.items():
        f = spread(values)
        cells = f"{f['median']:.1f} / {f['p95']:.1f} / {f['max']:.1f} ({f['n']})" if f["n"] else "-"
        lines.append(f"{name:40}{cells:>34}  {verdict({name: f}, name) if f['n'] else ''}")
    for top, bottom in (
        ("bid -> each other student", "bid -> teacher's page"),
        ("Next card -> each student", "Next card -> teacher's page"),
    ):
        a, b = spread(run.figures.get(top, [])), spread(run.figures.get(bottom, []))
        if a["n"] and b["n"] and b["median"]:
            lines.append(f"ratio of medians {top} / {bottom}: {a['median'] / b['median']:.1f}x")
    for name, values in run.cpu.items():
        lines.append(f"CPU seconds per step, {name}: median {statistics.median(values):.2f}, max {max(values):.2f}")
    for name, load in run.loads.items():
        lines.append(f"load average {name}: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    lines += [f"note: {note}" for note in run.notes] + [f"problem: {problem}" for problem in run.problems]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    options = parse(argv)
    runs, loads = asyncio.run(main_async(options))
    print()
    print(
        f"{options.students} members in {options.workers} processes, {PLAYERS} seated; {options.bids} bids,"
        f" {options.cards} cards, {options.polls} polls, {options.pings} pings per baseline; seed {options.seed}"
    )
    print(f"{os.cpu_count()} CPUs (a machine shared with other engineers); Python {sys.version.split()[0]}")
    if runs:
        print(report(runs, loads))
    voila = None
    if options.voila:
        voila = asyncio.run(widget_layer(options))
        print()
        print(voila_report(voila))
    if options.json is not None:
        data = {
            "options": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(options).items()},
            "cpus": os.cpu_count(),
            "load_average": loads,
            "voila": None if voila is None else voila_figures(voila),
            "stores": {
                run.name: {"figures": run.figures, "counts": run.counts, "problems": run.problems} for run in runs
            },
        }
        options.json.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
