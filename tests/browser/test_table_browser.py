"""The shared table in real browsers: a teacher's page and students' pages on one real Voila server.

The app's own notebook (``notebooks/app.ipynb``, as served) is opened by the teacher (classroom
mode, a seeded deal) and by two students (``?table=<code>``, each in a browser context of its
own, as two phones are). They play a deal together: the holder of the best trump, a student,
offers it, the other student bids, the holder sells; a student turns up a card on their turn; the
teacher plays the deal to its end. Meanwhile the test process, as a third student's kernel would,
joins through the store and forges requests for another seat (refused: T3, and nothing changes),
one student reloads (T8: back at the same seat, nobody new at the table), many students answer
"what would you pay?" (T7) while the teacher's page shows the answers beside the exact values,
and the teacher reloads (T9: the new page referees the same table, where it stood). A student who
joined by typing the code on the app's own page is back in the seat after a reload and after the
page was closed and its address opened again (T8, issue 27 item 9). Issue 25's "Done when": the
teacher composes the chapter's "dozen for the queen" in the app's editor and asks the class at the
table, two students' pages answer, the teacher locks, reveals and downloads the answers, by the
keyboard alone and then by mouse, and no face-down card of that moment reaches a student.

The whole suite runs once per store (a module fixture per store, one Voila server each):
SQLite, the serve command's default, and Redis (a real ``redis-server`` with the ACL users of
``deploy/README.md``: the teacher's kernel referees with the ``referee`` user through
``SPECULATION_TABLE_REFEREE_STORE``, every other kernel, and this test's students, use the
``student`` user). What the pages show is checked against the published moment and the
referee's record (the session, replayed by the engine).
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
import urllib.parse
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from voila_server import REPO, VoilaServer

from speculation_nb import Game, Rules, Session, odds
from speculation_nb.app.model import DEFAULT_NAMES
from speculation_nb.classroom.answers import COLUMNS
from speculation_nb.classroom.codes import read_code
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.moment import Moment
from speculation_nb.classroom.sealed import unseal
from speculation_nb.classroom.stores.base import REFEREE_SETTING, STORE_SETTING, TableStore, open_store
from speculation_nb.classroom.teacher_game import TABLE_SEED_SETTING
from speculation_nb.engine import bank
from speculation_nb.engine.cards import Card
from speculation_nb.languages.translator import translator
from speculation_nb.links.composed import read_composed
from speculation_nb.links.query import query_params

NOTEBOOK = "notebooks/app.ipynb"
READY = "button.spec-next:enabled"
TIMEOUT_MS = 180_000  # a safety net for a page on a busy 2-core machine; the waits are for conditions
TIMEOUT = TIMEOUT_MS / 1000
PLAYERS = 3
ARTIFACTS = REPO / "tests" / "artifacts"  # screenshots, to look at (gitignored)
EN = translator("en")

pytestmark = pytest.mark.browser


def seed_with_an_auction_at_once() -> int:
    """A seed whose first deal (3 players) lets its holder offer the best trump before any card."""
    for seed in range(1, 500):
        game = Session(Rules(players=PLAYERS), list(DEFAULT_NAMES[:PLAYERS]), 10, seed).game
        if not game.over and game.can_open_auction() and game.turn != game.holder:
            return seed
    raise AssertionError("no such seed below 500")


SEED = seed_with_an_auction_at_once()


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def table_server(request: Any, tmp_path_factory: Any) -> Any:
    """(server, store the test's students use, store the referee reads with) for one store kind."""
    env = {"SPECULATION_CULL_IDLE_TIMEOUT": "60", "SPECULATION_CULL_INTERVAL": "5", "SPECULATION_PACE": "instant"}
    env[TABLE_SEED_SETTING] = str(SEED)  # the table deals from SEED (a class's server leaves it unset: secret)
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('tables')}/tables.sqlite3"
        env[STORE_SETTING] = url
        referee_url = url
    else:
        redis = request.getfixturevalue("redis_server")
        env[STORE_SETTING] = url = redis.url("student")
        env[REFEREE_SETTING] = referee_url = redis.url("referee")
    students, referee = open_store(url), open_store(referee_url)
    assert students is not None and referee is not None
    with VoilaServer(NOTEBOOK, env=env, startup_timeout=TIMEOUT) as server:
        yield server, students, referee
    students.close()
    referee.close()


def wait_for(check: Any, what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``check()`` until it returns something true (a condition, not a sleep)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def moment_of(store: TableStore, code: str) -> Moment:
    latest = Member(store, code).latest()
    assert latest is not None
    return latest


def wait_moment(store: TableStore, code: str, what: str, check: Any) -> Moment:
    return wait_for(lambda: (m := Member(store, code).latest()) is not None and check(m) and m, what)


#: What a student's page says when the table did not answer in time (the catalog's words).
LATE = translator("en")("error.table.no_answer")
_FOCUSED_JS = """sel => { const a = document.activeElement;
  return !!a && !!a.closest(sel) && getComputedStyle(a).outlineStyle !== 'none'; }"""


def tab_to(page: Any, selector: str, limit: int = 40, key: str = "Tab") -> None:
    """Press Tab (or ``key``: "Shift+Tab") until the focus is in ``selector`` (at most ``limit``
    presses), and check that it shows."""
    for _ in range(limit):
        if page.evaluate(_FOCUSED_JS, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector} with a visible focus")


def join_page(
    open_page: Any, server: VoilaServer, code: str, name: str, seat_name: str | None, keyboard: bool = False
) -> Any:
    """A student's page: the link, a name, a seat (by its name) or Watch, Join; then their table.
    ``keyboard``: by the keyboard alone (Tab, typing, the arrow keys in the seat list, Enter)."""
    page, watch = open_page(f"{server.url}?table={code}", width=390, height=844)
    select = page.locator(".spec-member-seat select").first
    select.wait_for(timeout=TIMEOUT_MS)
    labels = select.locator("option").all_inner_texts()
    wanted = [i for i, label in enumerate(labels) if seat_name and seat_name in label]
    assert wanted or seat_name is None, labels
    index = wanted[0] if wanted else len(labels) - 1
    if keyboard:
        tab_to(page, ".spec-member-name")
        page.keyboard.type(name)
        page.wait_for_function(  # the name is in the field (typed into the field the kernel drew)
            "n => document.querySelector('.spec-member-name input').value === n", arg=name, timeout=TIMEOUT_MS
        )
        tab_to(page, ".spec-member-seat")
        page.keyboard.press("Home")
        for _ in range(index):
            page.keyboard.press("ArrowDown")
        page.wait_for_function(
            "([sel, i]) => document.querySelector(sel).selectedIndex === i",
            arg=[".spec-member-seat select", index],
            timeout=TIMEOUT_MS,
        )
        tab_to(page, ".spec-member-join")
    else:
        page.locator(".spec-member-name input").first.fill(name)
        select.select_option(index=index)

    def join() -> None:
        if keyboard:
            tab_to(page, ".spec-member-join", key="Shift+Tab")
            page.keyboard.press("Enter")
        else:
            page.locator("button.spec-member-join").first.click()

    join()
    for _ in range(3):  # as a student does when the page says "did not answer in time: try again"
        page.wait_for_function(
            "([name, late]) => [...document.querySelectorAll('.spec-member-you')].some(e => e.innerText.includes(name))"
            " || document.querySelector('.spec-member').innerText.includes(late)",
            arg=[name, LATE],
            timeout=TIMEOUT_MS,
        )
        if LATE not in page.locator(".spec-member").first.inner_text():
            return page, watch
        join()
    raise AssertionError(f"{name} could not join: {page.locator('.spec-member').first.inner_text()}")


def click_when_shown(page: Any, selector: str) -> None:
    button = page.locator(f"{selector}:visible").first
    button.wait_for(timeout=TIMEOUT_MS)
    button.click()


def test_T3_T7_T8_a_class_plays_a_deal_together_on_its_own_devices(table_server: Any, open_page: Any) -> None:
    server, students, referee_store = table_server
    names = list(DEFAULT_NAMES[:PLAYERS])
    start = Session(Rules(players=PLAYERS), names, 10, SEED).game
    holder, bidder = start.holder, (start.holder + 1) % PLAYERS

    # The teacher opens the table: the code and the link carry the code only.
    teacher, teacher_watch = open_page(f"{server.url}?mode=classroom&players={PLAYERS}&seed={SEED}", 1920, 1080)
    teacher.wait_for_selector(READY, timeout=TIMEOUT_MS)
    click_when_shown(teacher, "button.spec-open-table")
    click_when_shown(teacher, "button.spec-host-open")
    shown_code = teacher.locator(".spec-host-code").first
    teacher.wait_for_function(
        "() => /[2-9A-Z]{5}-[2-9A-Z]{5}/.test(document.querySelector('.spec-host-code')?.innerText || '')",
        timeout=TIMEOUT_MS,
    )
    code = re.search(r"[2-9A-Z]{5}-[2-9A-Z]{5}", shown_code.inner_text()).group(0)
    link = teacher.locator(".spec-host-link input").first.input_value()
    assert link.endswith(f"table={code}") and "secret" not in link

    # Two students join from their own pages, at the holder's seat and the next one.
    alice, alice_watch = join_page(open_page, server, code, "Alice", names[holder])
    bob, bob_watch = join_page(open_page, server, code, "Bob", names[bidder], keyboard=True)
    seated = wait_moment(
        students, code, "both students seated", lambda m: m.seats[holder].members and m.seats[bidder].members
    )
    assert seated.seats[holder].members == ("Alice",) and seated.seats[bidder].members == ("Bob",)

    # An auction between people: Alice offers the best trump, Bob bids 3, Alice sells to Bob.
    before = moment_of(students, code)
    click_when_shown(alice, "button.spec-member-offer")
    wait_moment(students, code, "the auction open", lambda m: m.auction is not None)
    bob.locator(".spec-member-bid-amount input:visible").first.wait_for(timeout=TIMEOUT_MS)
    bob.locator(".spec-member-bid-amount input:visible").first.fill("3")
    click_when_shown(bob, "button.spec-member-bid")
    wait_moment(students, code, "Bob's bid", lambda m: m.auction is not None and m.auction.bids.get(bidder) == 3)
    click_when_shown(alice, "button.spec-member-sell")
    sold = wait_moment(students, code, "the sale", lambda m: m.auction is None and m.holder == bidder)
    assert sold.stacks[bidder] == before.stacks[bidder] - 3 and sold.stacks[holder] == before.stacks[holder] + 3
    # Every screen shows it: the teacher's table and the other student's.
    for page in (teacher, alice):
        page.wait_for_function("() => document.body.innerText.includes('Bob')", timeout=TIMEOUT_MS)

    # A forged request: a third student's kernel acting for Alice's seat is refused (T3).
    mallory = Member(students, code)
    joined = mallory.wait_reply(mallory.post("join", name="Mallory", seat=None))
    assert joined.ok, joined
    version = moment_of(students, code).version
    forged = mallory.wait_reply(mallory.post("act", seat=holder, action={"action": "reveal", "seat": holder}))
    assert not forged.ok and forged.rule == "T3", forged
    token = f"forged{uuid.uuid4().hex}"
    wrong_secret = {"kind": "act", "rid": uuid.uuid4().hex, "reply": token, "member": mallory.member}
    students.append(
        mallory.code, "requests", {**wrong_secret, "secret": "x" * 43, "seat": holder, "action": {"action": "decline"}}
    )
    refused = mallory.wait_reply(token)
    assert not refused.ok and refused.rule == "T3", refused
    assert moment_of(students, code).version == version  # nothing changed

    # Bob reloads: back at his seat, nobody new at the table (T8).
    bob.reload()
    bob.wait_for_function(
        "() => [...document.querySelectorAll('.spec-member-you')].some(e => e.innerText.includes('Bob'))",
        timeout=TIMEOUT_MS,
    )
    assert moment_of(students, code).seats[bidder].members == ("Bob",)

    # A student turns up a card on their own turn; the teacher's page follows.
    for _ in range(3 * PLAYERS):
        now = moment_of(students, code)
        if now.over or now.turn in (holder, bidder):
            break
        teacher.locator(READY).first.click()
        wait_moment(students, code, "the teacher's card", lambda m, k=now.step: m.step > k)
    now = moment_of(students, code)
    if not now.over and now.turn in (holder, bidder):
        click_when_shown(alice if now.turn == holder else bob, "button.spec-member-next")
        wait_moment(students, code, "the student's card", lambda m, k=now.step: m.step > k)

    # "What would you pay?": the teacher asks, many students answer, the projector shows them.
    click_when_shown(teacher, "button.spec-host-ask")
    wait_moment(students, code, "the poll open", lambda m: m.poll is not None and m.poll.open)
    prices = [2, 3, 3, 4, 5, 5, 5, 6, 8, 10]
    crowd = []
    for i, price in enumerate(prices):
        member = Member(students, code)
        assert member.wait_reply(member.post("join", name=f"Student {i + 1}", seat=None)).ok
        poll_id = moment_of(students, code).poll.id
        assert member.wait_reply(member.post("answer", poll=poll_id, price=price)).ok
        crowd.append(member)
    alice.locator(".spec-member-poll-price input:visible").first.fill("4")
    click_when_shown(alice, "button.spec-member-poll-answer")
    answers = len(prices) + 1
    wait_moment(students, code, "every answer", lambda m: m.poll is not None and m.poll.answers == answers)
    poll_text = teacher.locator(".spec-host-poll").first
    teacher.wait_for_function(
        "n => (document.querySelector('.spec-host-poll')?.innerText || '').includes(String(n))",
        arg=answers,
        timeout=TIMEOUT_MS,
    )
    # Until the reveal the projector shows the count only (T7): no median, no histogram.
    assert teacher.locator(".spec-poll-chart[data-state='open'] table").count() == 0
    # Time is up: the referee refuses a later answer, in words, whatever a page shows.
    click_when_shown(teacher, "button.spec-host-close-poll")
    wait_moment(students, code, "the poll locked", lambda m: m.poll is not None and m.poll.state == "locked")
    late = crowd[0].wait_reply(crowd[0].post("answer", poll=poll_id, price=99))
    assert not late.ok and (late.rule, late.key) == ("T7", "table.poll_locked"), late
    alice.wait_for_function(
        "() => /Time is up/.test(document.querySelector('.spec-member-poll')?.innerText || '')",
        timeout=TIMEOUT_MS,
    )
    assert teacher.locator(".spec-poll-chart table").count() == 0
    # The reveal: the histogram beside the exact prices, anonymous; names on the teacher's demand.
    click_when_shown(teacher, "button.spec-host-reveal-poll")
    teacher.wait_for_selector(".spec-poll-chart[data-state='revealed'] table", timeout=TIMEOUT_MS)
    median = sorted([*prices, 4])[answers // 2]
    assert str(median) in poll_text.inner_text() and "exact" in poll_text.inner_text()
    assert "Student 3" not in poll_text.inner_text()
    teacher.locator(".spec-host-show-names input:visible").first.check()
    teacher.wait_for_function(
        "() => (document.querySelector('.spec-host-poll')?.innerText || '').includes('Student 3')",
        timeout=TIMEOUT_MS,
    )
    alice.wait_for_function(
        "() => /on the board/.test(document.querySelector('.spec-member-poll')?.innerText || '')",
        timeout=TIMEOUT_MS,
    )
    for page in (alice, bob):  # a student's page never receives the answers' names
        assert "Student 3" not in page.content()
    # Take the answers home: the CSV of this question, one row per answer, the exact fair price.
    click_when_shown(teacher, "button.spec-host-answers-one")
    csv_link = teacher.locator(".spec-host-answers-download a[download$='.csv']").first
    csv_link.wait_for(timeout=TIMEOUT_MS)
    rows = list(csv.reader(io.StringIO(urllib.parse.unquote(csv_link.get_attribute("href").partition(",")[2]))))
    kept = referee_store.get(read_code(code), "record")["polls"][-1]
    assert len(rows) == 1 + answers and all(r[9] == kept["fair"] for r in rows[1:])
    assert sorted(int(r[7]) for r in rows[1:]) == sorted([*prices, 4]) and "Alice" not in str(rows)  # anonymous ids
    # A question deal (issue 25): the class sees a moment of the question bank, outside the
    # standings, and the teacher's projector draws it in its main view; then the deal again, where it stood.
    before_question = moment_of(students, code)
    click_when_shown(teacher, "button.spec-host-question-open")
    asked = wait_moment(students, code, "the question deal", lambda m: m.players == 6 and not m.live)
    assert all(s.kind == "free" for s in asked.seats)
    teacher.wait_for_selector(".spec-table-question .spec-table", timeout=TIMEOUT_MS)
    alice.wait_for_function(
        "() => (document.querySelector('.spec-member-table-box')?.innerText || '').length > 0", timeout=TIMEOUT_MS
    )
    click_when_shown(teacher, "button.spec-host-question-end")
    back = wait_moment(students, code, "the deal again", lambda m: m.players == PLAYERS and m.live)
    assert (back.step, back.stacks, back.dealer) == (
        before_question.step,
        before_question.stacks,
        before_question.dealer,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    teacher.screenshot(path=str(ARTIFACTS / "table-teacher-1920x1080.png"), full_page=True)
    alice.screenshot(path=str(ARTIFACTS / "table-student-390x844.png"), full_page=True)
    # On a laptop the odds and the seats stand beside the table; on a phone, below it.
    board, odds = alice.locator(".spec-member-board").first, alice.locator(".spec-member-odds").first
    narrow = (board.bounding_box(), odds.bounding_box())
    assert narrow[0] and narrow[1] and narrow[1]["y"] >= narrow[0]["y"] + narrow[0]["height"] - 1
    alice.set_viewport_size({"width": 1280, "height": 900})
    alice.wait_for_function(
        "() => { const b = document.querySelector('.spec-member-board').getBoundingClientRect();"
        " const o = document.querySelector('.spec-member-odds').getBoundingClientRect();"
        " return o.left >= b.right - 1 && o.top < b.bottom; }",
        timeout=TIMEOUT_MS,
    )
    alice.screenshot(path=str(ARTIFACTS / "table-student-1280x900.png"), full_page=True)
    alice.set_viewport_size({"width": 390, "height": 844})

    # The teacher reloads: the new page referees the same table again (T9), where it stood.
    step = moment_of(students, code).step
    teacher.reload()
    teacher.wait_for_function(
        "code => (document.querySelector('.spec-host-code')?.innerText || '').includes(code)",
        arg=code,
        timeout=TIMEOUT_MS,
    )
    teacher.wait_for_selector(READY, timeout=TIMEOUT_MS)
    assert moment_of(students, code).step == step

    # The teacher plays the deal to its end: every page shows the same end as the engine's replay.
    # A student's card only on purpose (issue 27): the panel asks "It is Alice's turn: turn up for
    # Alice?", and the teacher says yes.
    for _ in range(6 * PLAYERS):
        now = moment_of(students, code)
        if now.over:
            break
        if now.turn in (holder, bidder):
            teacher.locator(READY).first.click()
            click_when_shown(teacher, "button.spec-host-turn-ask-yes")
        else:
            teacher.locator("button.spec-play:enabled").first.click()
        wait_moment(students, code, "the teacher's cards", lambda m, k=now.step: m.step > k)
    end = wait_moment(students, code, "the end of the deal", lambda m: m.over)
    kept = teacher.evaluate("() => localStorage.getItem('speculation_nb.host')")
    host_secret = json.loads(kept)["secret"]  # the record's session is sealed with it (issue 27)

    def recorded() -> Session | None:  # the referee saves its record just after it publishes (T10)
        record = referee_store.get(read_code(code), "record")
        session = None if record is None else Session.from_json(json.dumps(unseal(record["session"], host_secret)))
        return session if session is not None and session.game.over else None

    replayed = wait_for(recorded, "the record of the deal's end")
    assert replayed.game.winner == end.winner and replayed.game.stacks == list(end.stacks)
    for page in (alice, bob):
        page.wait_for_function(
            "() => /over|won|carries|nobody/i.test(document.querySelector('.spec-member-table-box')?.innerText || '')",
            timeout=TIMEOUT_MS,
        )
    for watch in (teacher_watch, alice_watch, bob_watch):
        watch.assert_clean()


def open_table(
    open_page: Any, server: VoilaServer, width: int = 1920, height: int = 1080, keyboard: bool = False
) -> tuple[Any, Any, str]:
    """The teacher's page with a table open: (page, its watch, the code as shown); ``keyboard``:
    the buttons reached by Tab and pressed with Enter, else clicked."""
    teacher, watch = open_page(f"{server.url}?mode=classroom&players={PLAYERS}&seed={SEED}", width, height)
    teacher.wait_for_selector(READY, timeout=TIMEOUT_MS)
    for button in ("button.spec-open-table", "button.spec-host-open"):
        if keyboard:
            press(teacher, button)
        else:
            click_when_shown(teacher, button)
    teacher.wait_for_function(
        "() => /[2-9A-Z]{5}-[2-9A-Z]{5}/.test(document.querySelector('.spec-host-code')?.innerText || '')",
        timeout=TIMEOUT_MS,
    )
    code = re.search(r"[2-9A-Z]{5}-[2-9A-Z]{5}", teacher.locator(".spec-host-code").first.inner_text()).group(0)
    return teacher, watch, code


def seated_as(page: Any, name: str) -> None:
    """Wait until ``page`` shows its student at the table (``spec-member-you`` names them)."""
    page.wait_for_function(
        "name => [...document.querySelectorAll('.spec-member-you')]"
        ".some(e => e.offsetParent && e.innerText.includes(name))",
        arg=name,
        timeout=TIMEOUT_MS,
    )


def bid_from(page: Any, students: TableStore, code: str, seat: int, amount: int) -> None:
    """The page's Bid: ``amount`` chips for its seat, seen in the published moment."""
    field = page.locator(".spec-member-bid-amount input:visible").first
    field.wait_for(timeout=TIMEOUT_MS)
    field.fill(str(amount))
    click_when_shown(page, "button.spec-member-bid")
    wait_moment(
        students, code, f"a bid of {amount}", lambda m: m.auction is not None and m.auction.bids.get(seat) == amount
    )


def test_T8_a_student_who_typed_the_code_is_back_in_the_seat_after_a_reload_or_a_lost_connection(
    table_server: Any, open_page: Any
) -> None:
    """Issue 27, item 9: joined by typing the code on the app's page (no link, no QR code), a
    reload brings the student back to the seat, and so does the page's address opened again after
    the page was closed (a lost connection): the address became the table's link (the code only)
    and the browser kept the rejoin token (T8). The seat is still theirs: they bid."""
    server, students, _referee = table_server
    if "redis" in type(students).__name__.lower():
        pytest.skip("the page's side is the same on both stores; the class test reloads a student on Redis")
    names = list(DEFAULT_NAMES[:PLAYERS])
    start = Session(Rules(players=PLAYERS), names, 10, SEED).game
    seat = (start.holder + 1) % PLAYERS
    teacher, teacher_watch, code = open_table(open_page, server)

    # The student opens the app's own address and types the code: "Join a table as a student".
    cleo, cleo_watch = open_page(server.url, width=390, height=844)
    click_when_shown(cleo, "button.spec-open-table")
    click_when_shown(cleo, "button.spec-host-join")
    typed = cleo.locator(".spec-member-code input").first
    typed.wait_for(timeout=TIMEOUT_MS)
    typed.fill(code.lower().replace("-", " "))
    typed.press("Enter")
    select = cleo.locator(".spec-member-seat select").first
    cleo.wait_for_function(
        "name => [...document.querySelectorAll('.spec-member-seat option')].some(o => o.innerText.includes(name))",
        arg=names[seat],
        timeout=TIMEOUT_MS,
    )
    labels = select.locator("option").all_inner_texts()
    cleo.locator(".spec-member-name input").first.fill("Cleo")
    select.select_option(index=next(i for i, label in enumerate(labels) if names[seat] in label))
    click_when_shown(cleo, "button.spec-member-join")
    seated_as(cleo, "Cleo")
    assert moment_of(students, code).seats[seat].members == ("Cleo",)
    # The page's address is now the table's link: the code, never a secret.
    cleo.wait_for_function(
        "code => new URL(location.href).searchParams.get('table') === code", arg=code, timeout=TIMEOUT_MS
    )
    address = cleo.url
    assert "secret" not in address and "token" not in address

    # A reload: the same seat, nobody new at the table, and the seat is Cleo's to act for.
    cleo.reload()
    seated_as(cleo, "Cleo")
    assert moment_of(students, code).seats[seat].members == ("Cleo",)
    click_when_shown(teacher, "button.spec-open-auction:enabled")  # the teacher offers the holder's card
    wait_moment(students, code, "the auction open", lambda m: m.auction is not None)
    bid_from(cleo, students, code, seat, 2)

    # A lost connection: the page closed, its address opened again in the same browser.
    context = cleo.context
    cleo.close()
    again = context.new_page()
    again_watch = type(cleo_watch)().attach(again)
    again.goto(address, wait_until="commit")
    seated_as(again, "Cleo")
    assert moment_of(students, code).seats[seat].members == ("Cleo",)
    assert sum(len(s.members) for s in moment_of(students, code).seats) == 1
    bid_from(again, students, code, seat, 3)
    for watch in (teacher_watch, cleo_watch, again_watch):
        watch.assert_clean()


#: Where each part the projector must show is, in the viewport: [left, top, right, bottom] or None.
_BOXES_JS = """parts => Object.fromEntries(Object.entries(parts).map(([name, sel]) => {
  const e = [...document.querySelectorAll(sel)].find(e => e.getClientRects().length && e.offsetParent);
  if (!e) return [name, null];
  const b = e.getBoundingClientRect();
  return [name, [b.left, b.top, b.right, b.bottom]];
}))"""
PROJECTED = {
    "the table": ".spec-table-view",
    "the chance": ".spec-hold-pct",
    "the exact fraction": ".spec-hold-fraction",
    "the fair price": ".spec-fair-price",
    "the poll's histogram": ".spec-host-poll table",
    "Next card": "button.spec-next",
    "Ask again": "button.spec-host-ask",
    "Pause": "button.spec-host-pause",
    "the table's state": ".spec-host-status",
}


_FOCUSABLE = "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])"


def tab_after_the_odds(page: Any) -> str:
    """Focus the last control of the table and the odds, press Tab until the focus leaves them,
    and name the part of the app it lands in (UI.md: every control in reading order)."""
    page.evaluate(
        "sel => { const all = [...document.querySelectorAll('.spec-main ' + sel.split(', ').join(', .spec-main '))]"
        ".filter(e => e.offsetParent !== null && !e.disabled); all[all.length - 1].focus(); }",
        _FOCUSABLE,
    )
    for _ in range(10):
        page.keyboard.press("Tab")
        if not page.evaluate("() => !!document.activeElement.closest('.spec-main')"):
            break
    return str(
        page.evaluate(
            "() => ['spec-table-slot', 'spec-compose-slot', 'spec-settings']"
            ".find(c => document.activeElement.closest('.' + c)) || document.activeElement.outerHTML.slice(0, 80)"
        )
    )


def test_issue_27_the_projector_shows_the_table_the_odds_the_histogram_and_the_host_controls_together(
    table_server: Any, open_page: Any
) -> None:
    """Issue 27, item 10: with a table open and the poll answered, the teacher's page at 1280x800
    and 1920x1080 shows the table, the odds, the poll's histogram and the host's controls in the
    first viewport, nothing scrolled; axe-core finds nothing there; on a phone (390x844) the host's
    panel follows the table. Screenshots: tests/artifacts/projector-<w>x<h>.png."""
    server, students, _referee = table_server
    if "redis" in type(students).__name__.lower():
        pytest.skip("the layout does not depend on the store")
    teacher, teacher_watch, code = open_table(open_page, server, 1280, 800)
    crowd = []
    for i, price in enumerate([2, 3, 3, 4, 6, 9]):
        member = Member(students, code)
        assert member.wait_reply(member.post("join", name=f"Student {i + 1}", seat=i if i < PLAYERS else None)).ok
        crowd.append((member, price))
    click_when_shown(teacher, "button.spec-host-ask")
    poll = wait_moment(students, code, "the poll open", lambda m: m.poll is not None and m.poll.open).poll
    for member, price in crowd:
        assert member.wait_reply(member.post("answer", poll=poll.id, price=price)).ok
    teacher.wait_for_function(  # every answer counted: time is up, then the answers are shown
        "n => (document.querySelector('.spec-host-poll')?.innerText || '').includes(String(n))",
        arg=len(crowd),
        timeout=TIMEOUT_MS,
    )
    click_when_shown(teacher, "button.spec-host-close-poll")
    click_when_shown(teacher, "button.spec-host-reveal-poll")
    teacher.wait_for_function(
        "() => document.querySelectorAll('.spec-host-poll tbody tr').length > 0", timeout=TIMEOUT_MS
    )
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (1920, 1080), (390, 844)):
        teacher.set_viewport_size({"width": width, "height": height})
        teacher.evaluate(  # the first viewport: every scrolled box back at its top
            "() => { for (const e of [document.scrollingElement, ...document.querySelectorAll('*')])"
            " if (e && e.scrollTop) e.scrollTop = 0; }"
        )
        if width >= 1000:  # the two columns of the projector's layout
            teacher.wait_for_function(
                "() => getComputedStyle(document.querySelector('.spec-app.spec-live-table')).display === 'grid'",
                timeout=TIMEOUT_MS,
            )
        teacher.screenshot(path=str(ARTIFACTS / f"projector-{width}x{height}.png"))
        boxes = teacher.evaluate(_BOXES_JS, PROJECTED)
        if width >= 1000:
            outside = {
                name: box
                for name, box in boxes.items()
                if box is None or box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
            }
            assert outside == {}, f"not in the first viewport at {width}x{height}: {outside}"
            assert tab_after_the_odds(teacher) == "spec-table-slot", "the keyboard reads the right column next"
        else:  # a phone: one column, the host's panel right after the table's own parts
            table, status = boxes["the table"], boxes["the table's state"]
            settings = teacher.locator(".spec-settings-area").first.bounding_box()
            assert table and status and settings and table[3] <= status[1] <= settings["y"], (boxes, settings)
        assert axe_found(teacher) == [], f"axe-core at {width}x{height}"
    teacher_watch.assert_clean()


def axe_found(page: Any) -> list[str]:
    """What axe-core's WCAG 2.2 AA rules find on ``page`` as it is (tests/browser/test_accessibility.py)."""
    from engines import AXE
    from test_accessibility import TAGS

    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return list(
        page.evaluate(
            "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
            ".then(r => r.violations.map(v => v.id + ': '"
            " + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ')))",
            TAGS,
        )
    )


def press(page: Any, selector: str, key: str = "Tab") -> None:
    """By the keyboard alone: Tab (``key``) to ``selector``, whose focus shows, and press Enter."""
    page.locator(f"{selector}:visible").first.wait_for(timeout=TIMEOUT_MS)
    tab_to(page, selector, limit=400, key=key)
    page.keyboard.press("Enter")


def answer_by_keyboard(page: Any, price: int) -> None:
    """A student's answer to "what would you pay?", typed and sent by the keyboard alone."""
    tab_to(page, ".spec-member-poll-price", limit=100)
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type(str(price))
    press(page, "button.spec-member-poll-answer")


def csv_rows(text: str) -> list[dict[str, str]]:
    """The answers' CSV (a header row, then one row per answer) as dicts by its columns."""
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == [EN(f"class.poll.csv.{c}") for c in COLUMNS]
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows]


def test_T7_issue25_a_moment_composed_in_the_editor_is_asked_at_the_table_by_keyboard_then_by_mouse(
    table_server: Any, open_page: Any
) -> None:
    """Issue 25's "Done when": the teacher opens the table, composes the chapter's "dozen for the
    queen" from the bank in the app's editor, types the question, asks the class (two students'
    real pages answer), locks, reveals the histogram beside the exact prices and downloads the
    answers, all by the keyboard alone; the students' pages and the table's messages carry no
    face-down card of the composed moment. Then the same by mouse, on the same pages."""
    server, students, referee_store = table_server
    if "redis" in type(students).__name__.lower():
        pytest.skip("the editor and the poll do not depend on the store; the class test runs on Redis")
    teacher, teacher_watch, code = open_table(open_page, server, keyboard=True)
    ann, ann_watch = join_page(open_page, server, code, "Ann", None, keyboard=True)  # both watch: they answer
    ben, ben_watch = join_page(open_page, server, code, "Ben", None, keyboard=True)
    since = students.last(read_code(code), "events")
    live = moment_of(students, code)  # the session's deal: its face-up cards are the class's to see
    public = {live.turn_up, *(c for up in live.face_up for c in up)}

    # The editor, by keyboard: the bank's first moment (the dozen for the queen), the question typed.
    press(teacher, "button.spec-open-compose")
    tab_to(teacher, ".spec-compose-bank", limit=100)
    assert "queen" in teacher.locator(".spec-compose-bank select").first.evaluate(
        "s => s.options[s.selectedIndex].text"
    )
    press(teacher, ".spec-compose-bank-open")
    teacher.wait_for_function(
        "() => /dozen/.test(document.querySelector('.spec-compose-question')?.innerText || '')", timeout=TIMEOUT_MS
    )
    typed = "Mary's Queen & a <dozen>: what would you pay?"
    tab_to(teacher, ".spec-compose-ask", limit=100)
    teacher.keyboard.type(typed)
    teacher.wait_for_function(  # the button says what it does while the table is open
        "() => document.querySelector('.spec-compose-open')?.innerText.trim() === 'Ask the class about this moment'",
        timeout=TIMEOUT_MS,
    )
    press(teacher, ".spec-compose-open", key="Shift+Tab")
    asked = wait_moment(students, code, "the composed moment", lambda m: m.players == 6 and not m.live)
    assert all(s.kind == "free" for s in asked.seats) and asked.turn_up == bank.question("dozen").to_moment().turn_up
    teacher.wait_for_function(  # the projector: the question as typed (escaped: shown as text)
        "q => (document.querySelector('.spec-host-question-table')?.innerText || '').includes(q)",
        arg=typed,
        timeout=TIMEOUT_MS,
    )
    for page in (ann, ben):
        page.wait_for_function(
            "() => (document.querySelector('.spec-member-table-box')?.innerText || '').includes('Lady Bertram')",
            timeout=TIMEOUT_MS,
        )

    # No face-down card of the composed deal in any message to the class or on a student's page.
    host_secret = json.loads(teacher.evaluate("() => localStorage.getItem('speculation_nb.host')"))["secret"]
    record = referee_store.get(read_code(code), "record")
    deal = unseal(record["questions"], host_secret)[-1]  # the dealt cards: sealed in the record
    game = Game.from_json(json.dumps(deal["game"]))
    assert deal["words"] == typed and deal["question"] == ""
    layout = game.layout()
    hidden = {Card.parse(c) for c in [*(c for pile in layout["piles"] for c in pile), *layout["stock"]]} - game.seen
    messages = json.dumps([e for _n, e in students.read(read_code(code), "events", since)])
    assert hidden and f'"{game.turn_up.code}"' in messages
    assert [c for c in hidden if f'"{c.code}"' in messages] == []
    for page in (ann, ben):  # the cards a page draws are named (aria-label) and written as "Q♥"
        shown = page.locator(".spec-member").first.inner_html()
        assert EN.card_name(game.turn_up) in shown
        assert [c for c in hidden - public if EN.card_name(c) in shown or str(c) in shown] == []

    # Ask, two students answer, time is up, the reveal: the histogram beside the exact prices.
    press(teacher, "button.spec-host-ask")
    poll = wait_moment(students, code, "the poll open", lambda m: m.poll is not None and m.poll.open).poll
    size = ben.viewport_size
    ben.set_viewport_size({"width": 360, "height": 740})  # a phone
    for page in (ann, ben):  # each student reads the teacher's question, as text, where the poll is announced
        page.wait_for_function(
            "q => (document.querySelector('.spec-member-poll [role=status]')?.innerText || '').includes(q)",
            arg=typed,
            timeout=TIMEOUT_MS,
        )
        assert page.locator(".spec-member-poll dozen").count() == 0  # typed text, never markup
    assert ben.evaluate(  # on the phone the question wraps within the page
        "() => { const q = document.querySelector('.spec-member-poll-question');"
        " return q.getBoundingClientRect().right <= document.documentElement.clientWidth"
        " && q.scrollWidth <= q.clientWidth + 1; }"
    )
    for page in (ann, ben):  # a question, not the game's past (issue 25): said so, with no seat, deal or step
        page.wait_for_function(
            "q => (document.querySelector('.spec-member-banner')?.innerText || '').includes(q)",
            arg=EN("class.member.question_shown"),
            timeout=TIMEOUT_MS,
        )
        said = page.locator(".spec-member").first.inner_text()
        assert "Looking back" not in said and "step 0" not in said, said
    ARTIFACTS.mkdir(exist_ok=True)
    ben.screenshot(path=str(ARTIFACTS / "question-student-360x740.png"), full_page=True)
    assert axe_found(ben) == [], "axe-core on a phone asked about a question deal"
    if size is not None:
        ben.set_viewport_size(size)
    answer_by_keyboard(ann, 12)
    answer_by_keyboard(ben, 9)
    wait_moment(students, code, "both answers", lambda m: m.poll is not None and m.poll.answers == 2)
    press(teacher, "button.spec-host-close-poll")
    wait_moment(students, code, "the poll locked", lambda m: m.poll is not None and m.poll.state == "locked")
    press(teacher, "button.spec-host-reveal-poll")
    fair = odds.fair_price(game)
    teacher.wait_for_function(
        "f => document.querySelectorAll('.spec-host-poll tbody tr').length > 0"
        " && (document.querySelector('.spec-host-poll')?.innerText || '').includes(f)",
        arg=str(fair),
        timeout=TIMEOUT_MS,
    )
    # One moment, one price (issue 25): the projector's main view shows the question deal (its
    # table, its seats' names, its chance) and the same fair price as the poll beside it.
    shown_fair = odds.shown_chips(fair)
    teacher.wait_for_function(
        "f => (document.querySelector('.spec-fair-price')?.innerText || '').split(/\\s+/).includes(f)",
        arg=str(shown_fair),
        timeout=TIMEOUT_MS,
    )
    main = teacher.evaluate(
        "() => Object.fromEntries(['.spec-fair-price', '.spec-hold-pct', '.spec-table-view', '.spec-host-poll',"
        " '.spec-next'].map(s => [s, document.querySelector(s)?.innerText || '']))"
    )
    assert main[".spec-fair-price"].split() == ["fair", "price", str(shown_fair), "chips"], main
    assert main[".spec-hold-pct"].strip() == EN.percent(odds.hold_probability(game)), main
    assert f"fair price {shown_fair} chips" in main[".spec-host-poll"], main
    assert main[".spec-host-poll"].startswith(EN("class.host.poll.question_revealed", n="1")), main
    assert "Lady Bertram's break-even" in main[".spec-host-poll"] and "3's" not in main[".spec-host-poll"], main
    holder = deal["names"][game.holder]  # the question's seats' names, on the table and in the headline
    assert (
        "Lady Bertram" in main[".spec-table-view"] and holder in teacher.locator(".spec-headline").first.text_content()
    )
    assert teacher.locator("button.spec-next").first.is_disabled()  # the session's deal waits
    teacher.screenshot(path=str(ARTIFACTS / "question-teacher-revealed.png"), full_page=True)
    assert axe_found(teacher) == [], "axe-core on the projector, a question deal's answers revealed"

    # Take the answers home, by the keyboard: the CSV's rows, the question, the link, the exact price.
    press(teacher, "button.spec-host-answers-one")
    link = ".spec-host-answers-download a[download$='.csv']"
    teacher.locator(link).first.wait_for(timeout=TIMEOUT_MS)
    with teacher.expect_download(timeout=TIMEOUT_MS) as download:
        tab_to(teacher, link, limit=100)
        teacher.keyboard.press("Enter")
    rows = csv_rows(Path(download.value.path()).read_text(encoding="utf-8"))
    assert sorted(int(r["answer"]) for r in rows) == [9, 12], rows
    assert all(r["question"] == typed and r["deal"] == "0" and "Ann" not in r["student"] for r in rows)
    assert all(Fraction(r["fair"]) == fair for r in rows)  # the exact fair price, as a fraction (O4)
    entry = read_composed(query_params(rows[0]["moment"].partition("?")[2]))  # the composed public view
    assert entry is not None and entry.moment == bank.question("dozen").to_moment() and entry.question == typed

    # The same by mouse, on the same pages: back to the deal, ask again, answer, lock, reveal.
    teacher.locator("button.spec-host-question-end:visible").first.click()
    wait_moment(students, code, "the deal again", lambda m: m.players == PLAYERS and m.live)
    teacher.locator(".spec-compose-open").first.click()
    wait_moment(students, code, "the composed moment again", lambda m: m.players == 6 and not m.live)
    click_when_shown(teacher, "button.spec-host-ask")
    again = wait_moment(students, code, "the second poll", lambda m: m.poll is not None and m.poll.id > poll.id)
    for page, price in ((ann, 7), (ben, 30)):
        page.locator(".spec-member-poll-price input:visible").first.fill(str(price))
        click_when_shown(page, "button.spec-member-poll-answer")
    wait_moment(students, code, "the answers", lambda m: m.poll is not None and m.poll.answers == 2)
    click_when_shown(teacher, "button.spec-host-close-poll")
    click_when_shown(teacher, "button.spec-host-reveal-poll")
    teacher.wait_for_function(
        "() => document.querySelectorAll('.spec-host-poll tbody tr').length > 0", timeout=TIMEOUT_MS
    )
    click_when_shown(teacher, "button.spec-host-answers-all")
    click_when_shown(teacher, "button.spec-host-handout")
    teacher.locator(".spec-host-answers-download a[download$='.html']").first.wait_for(timeout=TIMEOUT_MS)
    href = teacher.locator(f"{link}").first.get_attribute("href")
    rows = csv_rows(urllib.parse.unquote(href.partition(",")[2]))
    assert len(rows) == 4 and {r["poll"] for r in rows} == {str(poll.id), str(again.poll.id)}
    for watch in (teacher_watch, ann_watch, ben_watch):
        watch.assert_clean()
