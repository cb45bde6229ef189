"""The widget layer of ``bench_table.py --voila``: the shared table through real pages of a Voila server.

One Voila server serves the app (``tests/support/voila_server.py``, the README's options) with
``SPECULATION_TABLE_STORE=sqlite:///<a temporary folder>/tables.sqlite3``. The **teacher** is one
headless Chromium page (Playwright; every host name but loopback's unresolvable) on the app in
classroom mode (seeded, 4 players): it presses "Open the table to the class"
(``spec-open-table``), then "Open the table" (``spec-host-open``), and reads the code
(``spec-host-code``). The **students** are protocol clients (``benchmarks/load_test.py``'s
:class:`ProtocolSession`: the page, its kernel websocket, the widget models) on ``?table=<code>``:
each types a name (``spec-member-name``), picks a seat (``spec-member-seat``: the first 4 take the
4 seats, the others watch) and presses Join (``spec-member-join``), as the MemberApp's page does.

Measured (time stamps: the wall clock of this one machine: ``time.time()`` in this process,
which holds every student's websocket, and ``performance.timeOrigin + performance.now()`` in the
teacher's page):

* **bid**: the teacher offers the best trump (``spec-open-auction`` on the teacher's page); a
  seated student types a bid (``spec-member-bid-amount``) and presses Bid (``spec-member-bid``);
  the time until the teacher's page shows it (a ``span.spec-bid`` reading ``bid <n>`` in the
  page's DOM: a ``MutationObserver`` installed before the press notes the time in the page) and
  until each other student's ``spec-member-table`` model holds it (their websockets' updates,
  looked at every 5 ms);
* **Next card**: the teacher's page presses ``spec-next`` (a click in the page, its time noted
  there); the time until each student's ``spec-member-table`` model changes, and, as the
  baseline of the same run, until the teacher's own table (``spec-table-view``) changes in the
  teacher's page (the app's own click latency, as ``load_test.py`` measures it);
* the CPU seconds each step costs the server with its kernels and this process (the clients),
  and what an idle table followed by every page costs (in cores).

Every wait is bounded by the run's time limit; the pages, the clients, the browser and the
server (with every kernel) are stopped at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from load_test import APP, ProtocolSession, SessionResult, Target
from voila_server import VoilaServer, process_cpu_seconds

PLAYERS = 4
CODE_SHOWN = re.compile(r"[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}")
LOOPBACK_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"


#: The word the table draws for a bid (``render.TEXTS["bid"]`` in English: "bid {n}").
_BID_WORD = "bid"
# In the teacher's page: a promise of the wall-clock time when a span.spec-bid reads "bid <n>".
_WATCH_BID_JS = """([word, n]) => {
  const want = word + ' ' + n;
  const now = () => performance.timeOrigin + performance.now();
  const found = () => [...document.querySelectorAll('span.spec-bid')].some(e => e.textContent.trim() === want);
  window.__benchBidSeen = new Promise(resolve => {
    if (found()) { resolve(now()); return; }
    const watch = new MutationObserver(() => { if (found()) { watch.disconnect(); resolve(now()); } });
    watch.observe(document.body, {subtree: true, childList: true, characterData: true});
  });
}"""
_CLICK_JS = (
    """s => { const at = performance.timeOrigin + performance.now(); document.querySelector(s).click(); return at; }"""
)


# Click a button of the teacher's page and watch an element change: the click's time, and a
# promise of the time of the element's first change (the app's own click latency).
_CLICK_WATCH_JS = """([button, watched]) => {
  const now = () => performance.timeOrigin + performance.now();
  const el = document.querySelector(watched);
  window.__benchChanged = new Promise(resolve => {
    const watch = new MutationObserver(() => { watch.disconnect(); resolve(now()); });
    watch.observe(el, {subtree: true, childList: true, characterData: true});
  });
  const at = now();
  document.querySelector(button).click();
  return at;
}"""


class Late(Exception):
    """The run's time limit came before what was awaited."""


def model_with(session: ProtocolSession, cls: str, name: str | None = None) -> str:
    """The id of the session's widget model carrying CSS class ``cls`` (of model ``name``)."""
    for model_id, model in session.models.items():
        state = model["state"]
        if cls in (state.get("_dom_classes") or []) and (name is None or model["name"] == name):
            return model_id
    raise KeyError(f"no .{cls} model")


def state_of(session: ProtocolSession, model_id: str) -> dict[str, Any]:
    state: dict[str, Any] = session.models.get(model_id, {}).get("state", {})
    return state


def visible(session: ProtocolSession, model_id: str) -> bool:
    """False when the model's layout says ``display: none`` (the kernel's ``show(w, False)``)."""
    layout = str(state_of(session, model_id).get("layout", ""))
    return state_of(session, layout.removeprefix("IPY_MODEL_")).get("display") != "none"


def holds(text: str, student: Student) -> bool:
    """The student's table shows ``text``."""
    return text in student.value("spec-member-table")


def changed(before: dict[int, str], student: Student) -> bool:
    """The student's table is no longer what it was ``before``."""
    return student.value("spec-member-table") != before[student.index]


def no_bids(student: Student) -> bool:
    """The student's table shows no bid (the auction closed)."""
    return 'class="spec-bid"' not in student.value("spec-member-table")


class Student:
    """One protocol client at the table."""

    def __init__(self, index: int, session: ProtocolSession) -> None:
        self.index = index
        self.session = session
        self.seat: int | None = None
        self.ids: dict[str, str] = {}

    def id(self, cls: str, name: str | None = None) -> str:
        if cls not in self.ids:
            self.ids[cls] = model_with(self.session, cls, name)
        return self.ids[cls]

    def value(self, cls: str) -> str:
        return str(state_of(self.session, self.id(cls)).get("value", ""))


class VoilaRun:
    """The widget layer's run (see the module docstring)."""

    def __init__(self, students: int, bids: int, cards: int, seed: int, deadline: float) -> None:
        self.students, self.bids, self.cards, self.seed, self.deadline = students, bids, cards, seed, deadline
        self.figures: dict[str, list[float]] = {}
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.think = random.Random(seed + 2)
        self.loads: dict[str, tuple[float, float, float]] = {}
        self.server: VoilaServer | None = None
        self.cpu: dict[str, list[float]] = {}  # CPU seconds per step: the server and kernels, this process

    def cpu_now(self) -> dict[str, float]:
        """CPU seconds so far of the server process, of each kernel (by pid) and of this process (the clients)."""
        seconds: dict[str, float] = {"clients": time.process_time()}
        if self.server is not None and self.server.process is not None:
            seconds["server"] = process_cpu_seconds(self.server.process.pid) or 0.0
            for pid in self.server.kernel_pids():
                seconds[str(pid)] = process_cpu_seconds(pid) or 0.0
        return seconds

    def cpu_since(self, kind: str, before: dict[str, float]) -> None:
        """Note a step's CPU seconds: the server with its kernels, and apart the server process, the
        busiest kernel (the teacher's: it referees and draws the projected app), the other kernels
        (the students') and this process (the clients)."""
        now = self.cpu_now()
        spent = {key: now[key] - before.get(key, 0.0) for key in now}
        kernels = sorted((v for k, v in spent.items() if k not in ("server", "clients")), reverse=True)
        parts = {
            "server and kernels": spent.get("server", 0.0) + sum(kernels),
            "the server process": spent.get("server", 0.0),
            "the busiest kernel (the teacher's)": kernels[0] if kernels else 0.0,
            "the other kernels (the students')": sum(kernels[1:]),
            "this process (the clients)": spent["clients"],
        }
        for part, value in parts.items():
            self.cpu.setdefault(f"{kind}: {part}", []).append(value)

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def until(self, test: Callable[[], bool], what: str, step: float = 0.005) -> float:
        """Poll ``test()`` every ``step`` seconds; the ``time.time()`` when it held, or :class:`Late`."""
        while not test():
            if self.left() <= 0:
                raise Late(what)
            await asyncio.sleep(step)
        return time.time()

    async def run(self) -> None:
        from browser_fixtures import CHROMIUM, CHROMIUM_ARGS
        from playwright.async_api import async_playwright

        folder = Path(tempfile.mkdtemp(prefix="bench-table-voila-"))
        env = {"SPECULATION_TABLE_STORE": f"sqlite://{folder}/tables.sqlite3"}
        server = self.server = VoilaServer(APP, env=env, startup_timeout=max(10.0, min(120.0, self.left())))
        server.start()
        clients: list[Student] = []
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, LOOPBACK_ONLY], headless=True
                )
                page = None
                try:
                    context = await browser.new_context(viewport={"width": 1280, "height": 900})
                    page = await context.new_page()
                    code = await self.open_table(page, server.url)
                    self.notes.append(f"table {code}; {server.url}")
                    clients = await self.join_all(server.url, code)
                    await self.settle(server)
                    await self.measure_bids(page, clients)
                    await self.measure_cards(page, clients)
                finally:
                    if page is not None and not page.is_closed():
                        await page.close(run_before_unload=True)
                    await browser.close()
        except Late as late:
            self.problems.append(f"the time limit came while waiting for {late}")
        finally:
            for student in clients:
                with contextlib.suppress(Exception):
                    await student.session.close()
            server.stop()
            import shutil

            shutil.rmtree(folder, ignore_errors=True)

    async def settle(self, server: VoilaServer) -> None:
        """Let the kernels finish starting (their CPU below half a core), then note what a class
        following an idle table costs: the server's and kernels' CPU over 5 s, in cores."""
        try:
            waited = await asyncio.to_thread(server.wait_until_quiet, 0.5, 2.0, max(1.0, min(120.0, self.left())))
            self.notes.append(f"the kernels settled in {waited:.0f} s")
        except TimeoutError:
            self.notes.append("the server and kernels stayed above half a core: measured anyway")
        before, started = server.cpu_seconds(), time.monotonic()
        await asyncio.sleep(5.0)
        cores = (server.cpu_seconds() - before) / (time.monotonic() - started)
        self.notes.append(f"an idle table followed by {self.students} pages: server and kernels use {cores:.2f} cores")

    def timeout_ms(self) -> float:
        if self.left() <= 0:
            raise Late("the page")
        return self.left() * 1000

    async def open_table(self, page: Any, url: str) -> str:
        """The teacher's page: the app, the table panel, "Open the table"; the code it shows."""
        await page.goto(f"{url}?mode=classroom&seed={self.seed}&players={PLAYERS}", timeout=self.timeout_ms())
        opener = page.locator("button.spec-open-table:enabled").first
        await opener.wait_for(state="visible", timeout=self.timeout_ms())
        await opener.click()
        button = page.locator("button.spec-host-open:enabled").first
        await button.wait_for(state="visible", timeout=self.timeout_ms())
        await button.click()
        shown = page.locator(".spec-host-code").first
        await shown.wait_for(state="visible", timeout=self.timeout_ms())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            match = CODE_SHOWN.search(await shown.inner_text())
            if match:
                return match.group(0)
            await asyncio.sleep(0.1)
        raise Late("the table's code on the teacher's page")

    async def join_all(self, url: str, code: str) -> list[Student]:
        """Every student's page opened (a few at a time), then joined one after another."""
        target = Target(APP, "spec-member-join", "spec-member-table", f"?table={code}", "spec-message-error")
        gate = asyncio.Semaphore(4)
        students: list[Student] = []

        async def open_one(index: int) -> Student:
            async with gate:
                result = SessionResult(index=index, kind="protocol")
                session = ProtocolSession(url, target, target.query, result, timeout=max(5.0, self.left()))
                await session.open(time.perf_counter())
                return Student(index, session)

        students = list(await asyncio.gather(*(open_one(i) for i in range(self.students))))
        for student in students:
            seat = student.index if student.index < PLAYERS else None
            await self.join(student, seat)
        return students

    async def join(self, student: Student, seat: int | None) -> None:
        session = student.session
        choice = student.id("spec-member-seat")
        if seat is not None:  # this page sees the seats taken before it: the first free one is ours
            await self.until(
                lambda: len(state_of(session, choice).get("_options_labels", ())) == PLAYERS - seat + 1,
                "the free seats on a student's page",
            )
            index = 0
        else:
            index = len(state_of(session, choice).get("_options_labels", ())) - 1  # "Watch" comes last
        session.update(student.id("spec-member-name", "TextModel"), {"value": f"Student {student.index + 1:02d}"})
        session.update(choice, {"index": index})
        session.press(student.id("spec-member-join", "ButtonModel"))
        you = student.id("spec-member-you")
        await self.until(lambda: bool(state_of(session, you).get("value")), f"student {student.index + 1} joining")
        student.seat = seat
        if session.result.errors:
            self.problems.extend(session.result.errors[:3])

    async def teacher_click(self, page: Any, selector: str) -> float:
        """Click ``selector`` in the teacher's page (in the page, no actionability wait); when (the
        page's wall clock, seconds)."""
        await page.locator(selector).first.wait_for(state="visible", timeout=self.timeout_ms())
        return float(await page.evaluate(_CLICK_JS, selector)) / 1000

    async def measure_bids(self, page: Any, students: list[Student]) -> None:
        await self.teacher_click(page, "button.spec-open-auction:enabled")
        seated = {s.seat: s for s in students if s.seat is not None}
        holder_seat = await self.holder(students)
        bidders = [seated[s] for s in sorted(seated) if s != holder_seat]
        for bidder in bidders:
            button = bidder.id("spec-member-bid", "ButtonModel")
            await self.until(functools.partial(visible, bidder.session, button), "the Bid button")
        teacher, others_all = self.figures.setdefault("bid -> teacher's page", []), []
        last = self.figures.setdefault("bid -> last student", [])
        for step in range(self.bids):
            bidder = bidders[step % len(bidders)]
            amount = step + 1  # every bid higher than all before: "bid <n>" names one bid
            shown = f"{_BID_WORD} {amount}</span>"
            others = [s for s in students if s is not bidder]
            await page.evaluate(_WATCH_BID_JS, [_BID_WORD, amount])
            cpu = self.cpu_now()
            bidder.session.update(bidder.id("spec-member-bid-amount"), {"value": amount})
            sent = time.time()
            bidder.session.press(bidder.id("spec-member-bid", "ButtonModel"))
            seen = await self.seen_by(others, functools.partial(holds, shown), "a bid")
            on_page = await asyncio.wait_for(page.evaluate("() => window.__benchBidSeen"), max(1.0, self.left()))
            teacher.append(float(on_page) / 1000 - sent)
            self.cpu_since("bid", cpu)
            times = [t - sent for t in seen]
            others_all += times
            last.append(max(times))
            await asyncio.sleep(self.think.uniform(0.1, 0.3))
        self.figures["bid -> each other student"] = others_all
        await self.teacher_click(page, "button.spec-decline:enabled")
        await self.seen_by(students, no_bids, "the auction closing on every page")

    async def holder(self, students: list[Student]) -> int:
        """The seat whose student sees the Keep button (the holder decides)."""
        seated = [s for s in students if s.seat is not None]

        def found() -> int | None:
            keep = [s for s in seated if visible(s.session, s.id("spec-member-decline", "ButtonModel"))]
            return keep[0].seat if keep else None

        await self.until(lambda: found() is not None, "the holder's Keep button")
        seat = found()
        assert seat is not None
        return seat

    async def seen_by(self, students: list[Student], test: Callable[[Student], bool], what: str) -> list[float]:
        """When each of ``students`` first passed ``test`` (``time.time()``, polled every 5 ms)."""
        when: dict[int, float] = {}
        while len(when) < len(students):
            now = time.time()
            for s in students:
                if s.index not in when and test(s):
                    when[s.index] = now
            if self.left() <= 0:
                raise Late(what)
            await asyncio.sleep(0.005)
        return list(when.values())

    async def measure_cards(self, page: Any, students: list[Student]) -> None:
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        own = self.figures.setdefault("Next card -> teacher's page", [])
        each, last = self.figures.setdefault("Next card -> each student", []), []
        for _ in range(self.cards):
            try:  # the teacher's page enables Next card once the last change reached it
                await page.locator("button.spec-next:enabled").first.wait_for(timeout=min(15000, self.timeout_ms()))
            except PlaywrightTimeout:
                self.notes.append("Next card stayed disabled (the deal ended?): fewer cards")
                break
            before = {s.index: s.value("spec-member-table") for s in students}
            cpu = self.cpu_now()
            sent = float(await page.evaluate(_CLICK_WATCH_JS, ["button.spec-next:enabled", ".spec-table-view"])) / 1000
            seen = await self.seen_by(students, functools.partial(changed, before), "a card on every page")
            self.cpu_since("Next card", cpu)
            on_page = await asyncio.wait_for(page.evaluate("() => window.__benchChanged"), max(1.0, self.left()))
            own.append(float(on_page) / 1000 - sent)
            times = [t - sent for t in seen]
            each += times
            last.append(max(times))
            await asyncio.sleep(self.think.uniform(0.1, 0.3))
        self.figures["Next card -> last student"] = last


async def run_voila(students: int, bids: int, cards: int, seed: int, deadline: float) -> VoilaRun:
    """The widget layer, bounded by ``deadline`` (``time.monotonic()``)."""
    run = VoilaRun(students, bids, cards, seed, deadline)
    await run.run()
    return run
