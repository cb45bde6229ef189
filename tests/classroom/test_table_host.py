"""The teacher's side of the shared table (widgets/table_host.py, widgets/host_panel.py), in one
process: the teacher's app and the students' kernels (speculation_nb.classroom.member.Member) meet
in a MemoryStore. Rules T1-T12 as in docs/TABLE.md, P1-P9 as in RULES.md.

Most tests run on an event loop, as a kernel does: the panel starts ``referee.serve()`` as a task
of the loop it opens the table on, and the members' requests are answered by it. One test opens
the table with no loop running and answers with ``referee.handle_pending()``.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import re
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec

import pytest
from flaky_store import FlakyStore
from hypothesis import given, settings
from hypothesis import strategies as st
from ipywidgets.widgets.widget import _instances
from loops import in_thread, run_loop

from speculation_nb import Action
from speculation_nb.app import SpeculationApp
from speculation_nb.app.common.device_memory import dump_memory
from speculation_nb.app.common.parts import shown as visible
from speculation_nb.app.model import Controller
from speculation_nb.app.teacher.panel import MEMORY_KEY, HostPanel
from speculation_nb.classroom.codes import show_code
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.poll import Poll
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.stores.base import MemoryStore
from speculation_nb.classroom.teacher_game import TABLE_SEED_SETTING
from speculation_nb.languages.translator import translator
from speculation_nb.rendering.poll_chart import poll_html, price_text

T = translator("en")
P = ParamSpec("P")
ADDRESS = "http://127.0.0.1:8866/voila/render/speculation.ipynb"


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def teacher(store: MemoryStore, **kwargs: Any) -> tuple[SpeculationApp, HostPanel]:
    kwargs = {"players": 4, "seed": 7, "mode": "classroom", "charts": "static", "pace": "instant", **kwargs}
    app = SpeculationApp(table_store=store, **kwargs)
    app.hosting.toggle(True)
    panel = app.hosting.panel
    assert isinstance(panel, HostPanel)
    return app, panel


def opened(store: MemoryStore, **kwargs: Any) -> tuple[SpeculationApp, HostPanel, Referee]:
    """The teacher's app with its table open (its referee serving on the running loop, if any)."""
    app, panel = teacher(store, **kwargs)
    assert panel.open_table()
    referee = panel.session.referee
    assert referee is not None
    return app, panel, referee


async def seated(store: MemoryStore, seat: int | None = None) -> tuple[SpeculationApp, HostPanel, Referee, Member]:
    """The teacher's app with its table open, and Ana seated at ``seat`` (None: the seat due)."""
    app, panel, referee = opened(store)
    ana = Member(store, referee.code)
    assert (await ana.join("Ana", app.controller.game.turn if seat is None else seat)).ok
    return app, panel, referee, ana


def on_loop(test: Callable[P, Awaitable[None]]) -> Callable[P, None]:
    """The async ``test`` as a plain one that runs on an event loop of its own (as the kernel's),
    with a safety timeout; pytest gives it its fixtures as to any test."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        async def main() -> None:
            await asyncio.wait_for(test(*args, **kwargs), timeout=120)

        run_loop(main)

    return run


def widget_states() -> dict[Any, str]:
    """Every live widget's state as JSON text, by widget."""
    out = {}
    for w in list(_instances.values()):
        try:
            out[w] = json.dumps(w.get_state(), default=repr)
        except Exception:  # a widget closing meanwhile
            continue
    return out


@pytest.fixture(autouse=True)
def address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_ADDRESS", ADDRESS)


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables here deal from seed 7 (the server's setting: a table's seed is secret otherwise)."""
    monkeypatch.setenv(TABLE_SEED_SETTING, "7")


@pytest.fixture
def store() -> MemoryStore:
    """The students' kernels and the teacher's app meet in it."""
    return MemoryStore()


# ------------------------------------------------------------------ opening
@on_loop
async def test_t1_t9_the_table_opens_with_its_code_and_a_link_holding_only_the_code(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    assert panel.session.referee is referee and store.exists(referee.code)
    code, secret = referee.code, referee.host_secret
    assert show_code(code) in text(panel.ui.code.value)
    link = referee.link(ADDRESS)
    assert link == f"{ADDRESS}?table={show_code(code)}" and secret not in link
    assert html.escape(link, quote=True) in panel.ui.link.value
    assert "<svg" in panel.ui.qr.value and T("class.host.qr", code=show_code(code)) in panel.ui.qr.value
    # T9: the host secret is in no widget of the page but the teacher's own device memory,
    # and in nothing the students' kernels can read.
    holders = [w for w, state in widget_states().items() if secret in state]
    assert holders == [panel.memory] and panel.memory.key == MEMORY_KEY
    assert json.loads(panel.memory.value) == {"code": code, "secret": secret}
    public = [store.get(code, "meta"), store.get(code, "moment"), *[r for _n, r in store.read(code, "events")]]
    assert all(secret not in json.dumps(r) for r in public)
    assert T("class.host.state_live") in panel.ui.status.value
    app.close()


# ------------------------------------------------------------------ members
@on_loop
async def test_t2_t11_members_joining_show_in_the_seats_escaped(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    ana, zoe, bea = Member(store, referee.code), Member(store, referee.code), Member(store, referee.code)
    assert (await ana.join("Ana", 1)).ok
    assert (await zoe.join("<b>Zoé</b>", 2)).ok
    assert (await bea.join("Bea", None)).ok
    rows = [row.children[0].value for row in panel.ui.seats.children]
    assert "Ana" in text(rows[1]) and T("class.host.kind.people") in text(rows[1])
    assert "&lt;b&gt;Zoé&lt;/b&gt;" in rows[2] and "<b>Zoé" not in rows[2]  # T11
    assert T("class.host.kind.free") in text(rows[0])
    assert "Bea" in text(panel.ui.spectators.value)
    assert T.plural("class.host.joined", 3, watching="1") in text(panel.ui.status.value)
    # T2: the seat taken is no longer free for the next student
    late = Member(store, referee.code)
    refused = await late.join("Carl", 1)
    assert not refused.ok and refused.rule == "T2"
    app.close()


@on_loop
async def test_t3_a_members_bid_appears_in_the_teachers_game_and_a_wrong_seat_is_refused(store: MemoryStore) -> None:
    app, _panel, referee = opened(store)
    c = app.controller
    c.open_auction()  # the turn-up's holder (the dealer) offers it at once
    seat = (c.game.holder + 1) % 4
    ana = Member(store, referee.code)
    assert (await ana.join("Ana", seat)).ok
    low, _high = c.game.bid_range(seat)
    before = len(c.game.history)
    reply = await ana.act(Action.make("bid", seat=seat, amount=low))
    assert reply.ok, reply
    assert c.game.auction == {seat: low} and len(c.game.history) == before + 1
    assert str(low) in text(app.ui.auction_table.value)  # the projected auction shows the bid
    latest = ana.latest()
    assert latest is not None and latest.auction is not None and latest.auction.bids == {seat: low}
    # T3: a bid for another seat is refused and changes nothing
    other = (seat + 1) % 4 if (seat + 1) % 4 != c.game.holder else (seat + 2) % 4
    wrong = await ana.act(Action.make("bid", seat=other, amount=low + 1))
    assert not wrong.ok and wrong.rule == "T3"
    assert c.game.auction == {seat: low} and len(c.game.history) == before + 1
    # P2: the engine's own refusal comes back with its rule
    low_again = await ana.act(Action.make("bid", seat=seat, amount=low))
    assert not low_again.ok and low_again.rule.startswith("P")
    app.close()


@on_loop
async def test_t3_the_class_gets_each_moment_before_the_teachers_page_redraws(store: MemoryStore) -> None:
    """The referee publishes first (a publisher of the controller's): when the projected app's
    views are told of a change, the students' moment is already in the store, for a student's
    bid and for the teacher's own Next card. A redraw of the panel makes no new widget."""
    app, panel = teacher(store)
    c = app.controller
    seen: list[tuple[int, int]] = []  # (the step the views are told of, the step published by then)

    def told(_change: Any) -> None:  # a view of the app's: it observes before the table opens
        published = None if panel.session.referee is None else store.get(panel.session.referee.code, "moment")
        seen.append((c.moment, -1 if published is None else int(published["step"])))

    c.observe(told, "version")
    assert panel.open_table()
    referee = panel.session.referee
    assert referee is not None
    seen.clear()
    rows = list(panel.ui.seats.children)
    c.open_auction()
    seat = (c.game.holder + 2) % 4  # not the seat due next (issue 27)
    ana = Member(store, referee.code)
    assert (await ana.join("Ana", seat)).ok
    low, _high = c.game.bid_range(seat)
    assert (await ana.act(Action.make("bid", seat=seat, amount=low))).ok
    c.decline()  # the holder keeps the card: the auction is over
    c.next_card()
    assert len(seen) >= 3 and all(step == published for step, published in seen), seen
    assert list(panel.ui.seats.children) == rows
    alive = len(_instances)
    panel.draw()
    panel.draw()
    assert len(_instances) == alive  # a redraw makes no widget
    app.close()


@on_loop
async def test_t4_the_teacher_looking_back_is_not_live_and_refuses_requests(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    c = app.controller
    c.next_card()
    c.next_card()
    due = c.game.turn
    ana = Member(store, referee.code)
    assert (await ana.join("Ana", due)).ok
    app.ui.back.click()  # the teacher looks back one step
    assert not c.live
    latest = ana.latest()
    assert latest is not None and latest.live is False
    assert T("class.host.state_looking_back") in text(panel.ui.status.value)
    before = len(c.game.history)
    refused = await ana.act(Action.make("reveal", seat=due))
    assert not refused.ok and refused.rule == "T4"
    assert len(c.game.history) == before and not c.live
    app.ui.now.click()
    latest = ana.latest()
    assert latest is not None and latest.live is True
    reply = await ana.act(Action.make("reveal", seat=due))
    assert reply.ok, reply
    assert c.game.history[-1] == Action.make("reveal", seat=due)
    app.close()


@on_loop
async def test_t4_t9_pause_refuses_actions_until_resumed(store: MemoryStore) -> None:
    app, panel, referee, ana = await seated(store)
    c = app.controller
    due = c.game.turn
    panel.ui.pause.click()
    assert referee.paused and T("class.host.state_paused") in text(panel.ui.status.value)
    assert panel.ui.pause.description == T("class.host.resume_play")
    latest = ana.latest()
    assert latest is not None and latest.paused
    refused = await ana.act(Action.make("reveal", seat=due))
    assert not refused.ok and refused.rule == "T4" and c.game.history == []
    panel.ui.pause.click()
    assert not referee.paused
    assert (await ana.act(Action.make("reveal", seat=due))).ok
    assert len(c.game.history) == 1
    app.close()


@on_loop
async def test_t9_take_over_refuses_the_seats_members_and_a_computer_seat_plays(store: MemoryStore) -> None:
    app, panel, referee, ana = await seated(store)
    c = app.controller
    due = c.game.turn
    take, computer = panel.ui.seats.children[due].children[1:]
    assert take.description == T("class.host.take_over", name=c.names[due])
    assert computer.disabled  # T2: a seat with students keeps them
    take.click()
    assert referee.seats()[due].kind == "teacher"
    assert T("class.host.kind.teacher") in text(panel.ui.seats.children[due].children[0].value)
    refused = await ana.act(Action.make("reveal", seat=due))
    assert not refused.ok and refused.rule == "T3" and c.game.history == []
    assert take.description == T("class.host.give_back", name=c.names[due])
    take.click()
    assert referee.seats()[due].kind == "people"
    assert (await ana.act(Action.make("reveal", seat=due))).ok
    # A computer player in the empty seat now due: it turns up its own card at once (instant pace).
    free = c.game.turn
    assert referee.seats()[free].kind == "free"
    reveals = sum(1 for a in c.game.history if a.kind == "reveal" and a["seat"] == free)
    panel.ui.seats.children[free].children[2].click()
    assert referee.seats()[free].kind == "computer" and free in c.computer_seats
    assert sum(1 for a in c.game.history if a.kind == "reveal" and a["seat"] == free) == reveals + 1
    assert c.game.turn != free or c.game.auction is not None or c.game.over
    panel.ui.seats.children[free].children[2].click()
    assert referee.seats()[free].kind == "free" and c.computer_seats == frozenset()
    app.close()


@on_loop
async def test_t9_a_member_moved_to_the_spectators_leaves_the_seat(store: MemoryStore) -> None:
    app, panel, referee, ana = await seated(store, 2)
    panel.ui.place_member.value = ana.member
    panel.ui.place_seat.value = -1
    panel.ui.place.click()
    assert referee.seats()[2].kind == "free"
    assert "Ana" in text(panel.ui.spectators.value)
    app.close()


# ------------------------------------------------------------------ polls
@on_loop
async def test_t7_a_poll_shows_the_median_beside_the_fair_price_and_each_break_even(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    c = app.controller
    c.open_auction()  # during an auction each bidder has a break-even (O4)
    snap = c.snapshot()
    panel.ui.ask.click()
    poll = referee.poll
    assert poll is not None and poll.open and poll.fair == snap.odds.fair
    assert poll.break_even == snap.odds.break_even
    members = [Member(store, referee.code) for _ in range(3)]
    for i, member in enumerate(members):
        assert (await member.join(f"S{i}", None)).ok
    for member, price in zip(members, (3, 9, 5), strict=True):
        assert (await member.answer(price)).ok
    shown = text(panel.ui.poll.value)  # T7: until the reveal, the count only
    assert T.plural("class.host.poll.answers", 3) in shown and T("class.host.poll.hidden") in shown
    assert "median" not in shown and not visible(panel.ui.show_names) and not visible(panel.ui.reveal_poll)
    panel.ui.close_poll.click()  # time is up
    assert referee.poll.state == "locked" and visible(panel.ui.reveal_poll)
    assert not (await members[0].answer(4)).ok and poll.answers[members[0].member] == 3
    assert "median" not in text(panel.ui.poll.value)
    panel.ui.reveal_poll.click()
    assert referee.poll.state == "revealed" and visible(panel.ui.show_names)
    shown = text(panel.ui.poll.value)
    assert T("class.host.poll.median", price=price_text(poll.median(), T)) in shown
    assert T("class.host.poll.exact", fair=str(poll.fair)) in shown
    assert poll.median() == 5
    assert T("class.host.poll.fair", price=T.number(snap.odds.prices.fair)) in shown  # whole chips (O4)
    for seat, value in snap.odds.prices.break_even.items():
        assert T("class.host.poll.break_even", name=c.names[seat], price=T.number(value)) in shown
    # every bin's count is text; the bars are decoration only
    rows = re.findall(r"<tr><td class=\"spec-poll-range\">.*?</tr>", panel.ui.poll.value)
    counts = [int(re.search(r'spec-poll-count">(\d+)<', r).group(1)) for r in rows]
    assert sum(counts) == 3 and len(rows) == len(poll.histogram(8))
    assert 'aria-hidden="true"' in panel.ui.poll.value
    assert "S0" not in shown  # T7: anonymous unless the teacher shows names
    panel.ui.show_names.value = True
    assert all(f"S{i}" in text(panel.ui.poll.value) for i in range(3))
    assert T("class.host.poll.title_revealed", deal=poll.deal, step=poll.step) in text(panel.ui.poll.value)
    panel.ui.answers_one.click()  # the answers as a CSV download: anonymous ids unless chosen
    link = html.unescape(panel.ui.answers_download.value)
    assert "data:text/csv" in link and "S0" not in link and f"-poll-{poll.id}.csv" in link
    panel.ui.answers_names.value = True
    panel.ui.answers_all.click()
    text_ = urllib.parse.unquote(html.unescape(panel.ui.answers_download.value))
    assert all(f"S{i}" in text_ for i in range(3)) and str(poll.fair) in text_
    panel.ui.handout.click()  # the printable page of the moment shown, beside the CSV
    text_ = urllib.parse.unquote(html.unescape(panel.ui.answers_download.value))
    assert "data:text/html" in text_ and "spec-handout-answer" in text_ and str(poll.fair) in text_
    panel.ui.ask.click()  # a new question: anonymous again
    assert not panel.ui.show_names.value and referee.poll.id == 2
    app.close()


@on_loop
async def test_t9_the_game_stays_in_classroom_mode_while_the_table_is_open(store: MemoryStore) -> None:
    """Play mode would give the students' seats to computer players: asked for while the table is
    open, it is refused in words (T9) and nothing changes; once the table is closed it is allowed."""
    app, panel, referee, _ana = await seated(store, 1)
    c = app.controller
    app.settings.build()
    before = c.session.to_json()
    app.ui.set_mode.value = "play"  # the teacher's settings
    assert c.mode == "classroom" and app.ui.set_mode.value == "classroom"
    assert c.message == T("class.host.mode_held") and c.message.startswith("Rule T9:")
    assert c.session.to_json() == before and referee.seats()[1].kind == "people"
    panel.ask_close()
    panel.session.close_table()
    assert panel.session.referee is None
    app.ui.set_mode.value = "play"
    assert c.mode == "play"
    app.close()


# ------------------------------------------------------------------ export, close
@on_loop
async def test_t10_export_is_the_record_as_json_with_names_and_no_host_secret(store: MemoryStore) -> None:
    app, panel, referee, _ana = await seated(store, 2)  # not the seat due (issue 27)
    app.controller.next_card()
    exported = panel.session.export()
    record = json.loads(exported)
    assert "Ana" in exported and isinstance(record, dict)
    assert referee.host_secret not in exported
    assert 'download="speculation-table-' in panel.ui.download.value and "data:application/json" in (
        panel.ui.download.value
    )
    app.close()


@on_loop
async def test_t10_closing_asks_first_then_wipes_and_tells_the_students(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    code = referee.code
    ana = Member(store, code)
    assert (await ana.join("Ana", 1)).ok
    await ana.updates(timeout=0)
    focused: list[str] = []
    panel.ui.confirm_no.focus = lambda: focused.append("keep")
    panel.ui.close.click()
    assert panel.asking and store.exists(code) and panel.ui.confirm.layout.display != "none"
    assert T("class.host.close_ask") in text(panel.ui.confirm_text.value)
    assert focused == ["keep"] and "spec-ask" in panel.ui.confirm._dom_classes  # the safe answer has the focus
    panel.ui.confirm_no.click()
    assert panel.ui.confirm.layout.display == "none"
    assert not panel.asking and store.exists(code) and panel.session.referee is referee
    panel.ui.close.click()
    panel.ui.confirm_yes.click()
    assert not store.exists(code) and panel.session.referee is None
    assert panel.memory.value == ""  # the device forgets the table
    assert panel.ui.table.layout.display == "none" and panel.ui.start.layout.display != "none"
    assert T("class.host.closed") in text(panel.ui.message.value)
    app.close()


# ------------------------------------------------------------------ reload, no loop
@on_loop
async def test_t9_the_teachers_reload_resumes_the_table_from_the_device(store: MemoryStore) -> None:
    app, panel, referee, _ana = await seated(store, 2)  # not the seat due (issue 27)
    app.controller.next_card()
    kept = panel.memory.value
    history = list(app.controller.game.history)
    app.close()  # the page reloads: a new kernel, a new app
    again, panel2 = teacher(store, seed=99)
    browser = {"value": kept, "written": kept, "loaded": True, "available": True}
    panel2.memory.set_state(browser)  # the browser reports what it kept
    assert panel2.session.kept is not None
    assert panel2.ui.resume.description == T("class.host.resume", code=show_code(referee.code))
    panel2.ui.resume.click()
    assert panel2.session.referee is not None and panel2.session.referee.code == referee.code
    assert again.controller.game.history == history  # the table's session is shown again
    assert "Ana" in text(panel2.ui.seats.children[2].children[0].value)
    again.close()


@on_loop
async def test_t9_resuming_over_a_game_played_here_asks_first(store: MemoryStore) -> None:
    """Resume replaces the game shown with the table's: once the teacher has played here, the panel
    asks, in words; keeping changes nothing, resuming shows the table's game."""
    app, panel, referee, _ana = await seated(store, 2)  # not the seat due (issue 27)
    app.controller.next_card()
    kept, history = panel.memory.value, list(app.controller.game.history)
    app.close()
    again, panel2 = teacher(store, seed=99)
    panel2.memory.set_state({"value": kept, "written": kept, "loaded": True, "available": True})
    again.controller.next_card()  # the teacher plays on the new page before pressing Resume
    played = again.controller.session.to_json()
    panel2.ui.resume.click()
    assert panel2.session.referee is None and panel2.resume_row.asking
    assert text(panel2.ui.resume_ask_text.value).strip() == T("class.host.resume_ask", code=show_code(referee.code))
    assert panel2.ui.resume_yes.description == T("class.host.resume_yes")
    assert panel2.ui.resume_no.description == T("class.host.resume_no")
    panel2.ui.resume_no.click()
    assert panel2.session.referee is None and again.controller.session.to_json() == played
    assert T("class.host.resume_kept") in text(panel2.ui.message.value)
    panel2.ui.resume.click()
    panel2.ui.resume_yes.click()
    assert panel2.session.referee is not None and panel2.session.referee.code == referee.code
    assert again.controller.game.history == history
    assert not panel2.resume_row.asking
    again.close()


@on_loop
async def test_t10_opening_a_new_table_over_a_kept_one_asks_then_closes_it(store: MemoryStore) -> None:
    """A table kept from before a reload stays open until it is resumed or closed: "Open the table"
    (a new one) asks first, with the focus on Cancel; yes closes the kept table (its students are
    told) and opens the new one; Cancel changes nothing."""
    app, panel, referee, ana = await seated(store, 1)
    kept = panel.memory.value
    app.close()
    again, panel2 = teacher(store, seed=99)
    panel2.memory.set_state({"value": kept, "written": kept, "loaded": True, "available": True})
    focused: list[str] = []
    panel2.ui.resume_no.focus = lambda: focused.append("cancel")
    panel2.ui.open.click()
    assert panel2.session.referee is None and panel2.resume_row.asking and focused == ["cancel"]
    words = T("class.host.replace_ask", code=show_code(referee.code))
    assert text(panel2.ui.resume_ask_text.value).strip() == words
    assert panel2.ui.resume_yes.description == T("class.host.replace_yes")
    panel2.ui.resume_no.click()
    assert panel2.session.referee is None and panel2.session.kept is not None and store.exists(referee.code)
    panel2.ui.open.click()
    panel2.ui.resume_yes.click()
    new = panel2.session.referee
    assert new is not None and new.code != referee.code and store.exists(new.code)
    assert not store.exists(referee.code) and panel2.session.kept is None
    assert new.code in panel2.memory.value and referee.code not in panel2.memory.value  # the device keeps the new one
    assert {"kind": "closed"} in await ana.updates(timeout=0)  # the kept table's student is told
    assert not Referee.wipe_table(store, referee.code, "not the secret")
    again.close()


@on_loop
async def test_t9_the_teachers_reload_resumes_the_table_before_the_panel_is_opened(store: MemoryStore) -> None:
    """The app keeps the host secret's memory itself: the reloaded page opens the panel and
    referees the table again, without the teacher looking for it."""
    from speculation_nb.app.common.device_memory import DeviceMemory

    app, panel, referee = opened(store)
    app.controller.next_card()
    kept, history = panel.memory.value, list(app.controller.game.history)
    app.close()
    again = SpeculationApp(table_store=store, players=4, seed=99, mode="classroom", charts="static")
    assert again.hosting.panel is None  # nothing built before the browser says what it kept
    (memory,) = [w for w in again.ui.table_slot.children if isinstance(w, DeviceMemory)]
    memory.set_state({"value": kept, "written": kept, "loaded": True, "available": True})
    resumed = again.hosting.panel
    assert isinstance(resumed, HostPanel) and resumed.session.referee is not None
    assert resumed.session.referee.code == referee.code and again.controller.game.history == history
    again.close()


def test_a_device_entry_for_a_table_that_is_gone_offers_nothing(store: MemoryStore) -> None:
    _app, panel = teacher(store)
    stale = dump_memory({"code": "ABCDEFGHJK", "secret": "s" * 40})
    panel.memory.set_state({"value": stale, "written": stale, "loaded": True, "available": True})
    assert panel.session.kept is None and panel.ui.resume.layout.display == "none"
    _app.close()


def test_without_a_running_loop_the_referee_answers_by_hand(store: MemoryStore) -> None:
    in_thread(lambda: answers_by_hand(store))


def answers_by_hand(store: MemoryStore) -> None:
    app, panel, referee = opened(store)
    assert panel.session.task is None
    ana = Member(store, referee.code)
    token = ana.post("join", name="Ana", seat=3)
    assert referee.handle_pending() >= 1
    reply = ana.reply(token)
    assert reply is not None and reply.ok
    assert "Ana" in text(panel.ui.seats.children[3].children[0].value)
    app.close()


# ------------------------------------------------------------------ where there is no table
def test_the_static_site_shows_one_line_instead_of_the_opener(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_STATIC_SITE", "1")
    monkeypatch.setenv("SPECULATION_TABLE_STORE", "memory:")
    app = SpeculationApp(players=3, seed=1, charts="static")
    (line,) = app.ui.table_slot.children
    assert text(line.value) == T("class.host.needs_site_server")
    assert "spec-host-unavailable" in line._dom_classes and not hasattr(app.hosting, "button")
    app.close()


def test_no_store_configured_shows_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPECULATION_STATIC_SITE", raising=False)
    monkeypatch.delenv("SPECULATION_TABLE_STORE", raising=False)
    app = SpeculationApp(players=3, seed=1, charts="static", lang="de")
    (line,) = app.ui.table_slot.children
    assert text(line.value) == translator("de")("class.host.needs_store")
    app.close()
    monkeypatch.setenv("SPECULATION_TABLE_STORE", "memory:")
    app = SpeculationApp(players=3, seed=1, charts="static")
    button, memory = app.ui.table_slot.children  # the opener, and the host secret's memory (hidden)
    assert button.description == "▸ " + T("class.host.open_panel") and memory.value == ""
    app.close()


# ------------------------------------------------------------------ the controller's computer seats
def test_classroom_computer_seats_play_and_the_others_wait_for_people() -> None:
    c = Controller(None, seed=7, mode="classroom")
    c.pace = "instant"
    assert c.is_person(0) and c.strategies == {} and not c.computers_play
    c.next_card()
    assert len(c.game.history) == 1  # nothing happens by itself in classroom mode
    due = c.game.turn
    c.set_computer_seats({due})
    assert not c.is_person(due) and set(c.strategies) == {due}
    assert any(a.kind == "reveal" and a["seat"] == due for a in c.game.history[1:])
    c.set_computer_seats(set())
    assert c.computer_seats == frozenset() and c.strategies == {}


def test_the_controllers_act_applies_a_persons_action_at_now_or_refuses_it() -> None:
    c = Controller(None, seed=7, mode="classroom")
    c.next_card()
    c.go(0)
    due = c.game.turn
    not_due = (due + 1) % c.rules.players
    with pytest.raises(Exception) as refused:
        c.act(Action.make("reveal", seat=not_due))
    assert getattr(refused.value, "rule", None) == "P3" and len(c.game.history) == 1
    c.act(Action.make("reveal", seat=due))
    assert c.live and c.game.history[-1] == Action.make("reveal", seat=due)


@on_loop
async def test_t12_a_second_page_resuming_the_table_stops_the_first(store: MemoryStore) -> None:
    first_app, first, referee = opened(store)
    assert first.session.task is not None
    kept = first.memory.value
    second_app, second = teacher(store)  # a second tab of the same browser
    second.memory.set_state({"value": kept, "written": kept, "loaded": True, "available": True})
    second.ui.resume.click()
    assert second.session.referee is not None and second.session.referee.epoch > referee.epoch
    while first.session.referee is not None:  # the first page's serve() sees the newer epoch
        await asyncio.sleep(0.02)
    assert referee.stopped == "superseded"
    assert T("class.host.stopped") in text(first.ui.message.value)
    assert first.memory.value == kept  # the device still holds the table: the second tab serves it
    ana = Member(store, referee.code)
    assert (await ana.join("Ana", 0)).ok  # answered by the second page
    assert "Ana" in text(second.ui.seats.children[0].children[0].value)
    first_app.close()
    second_app.close()


@pytest.mark.parametrize("lang", ["it", "pt", "de"])
def test_the_open_panel_speaks_the_language(lang: str, store: MemoryStore) -> None:
    app, panel, _referee = opened(store, lang=lang)
    panel.ask()
    shown: list[str] = []

    def walk(w: Any) -> None:
        for name in ("description", "tooltip"):
            if getattr(w, name, None):
                shown.append(str(getattr(w, name)))
        if isinstance(getattr(w, "value", None), str) and w is not panel.ui.style and w is not panel.memory:
            shown.append(text(w.value))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(panel.widget)
    words = " ".join(shown)
    assert "class.host." not in words and not re.search(r"\{[a-z_]+\}", words)
    t = translator(lang)
    assert t("class.host.pause") in words and t("class.host.poll.heading") in words
    assert t("class.host.pause") != T("class.host.pause")
    app.close()


def test_a_store_that_fails_is_said_in_words_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_STORE", "ftp://nowhere")  # not a store: StoreError
    app = SpeculationApp(players=3, seed=1, charts="static", mode="classroom")
    app.hosting.toggle(True)
    panel = app.hosting.panel
    assert not panel.open_table() and panel.session.referee is None
    assert text(panel.ui.message.value) == T("class.host.store_unreachable")
    app.ui.next.click()
    assert len(app.controller.game.history) == 1
    app.close()


def test_join_a_table_shows_the_students_screen_in_place_and_leaving_brings_the_game_back(store: MemoryStore) -> None:
    host_app, _host, _referee = opened(store)
    app, panel = teacher(store, seed=3)  # another page: it joins the first one's table
    before = tuple(app.widget.children)
    assert panel.ui.join.description == T("class.host.join")
    member = panel.join()
    assert app.widget.children == (member.widget,)
    member.ui.member_leave.click()
    assert tuple(app.widget.children) == before
    host_app.close()
    app.close()


@settings(max_examples=60, deadline=None)
@given(
    prices=st.lists(st.integers(min_value=0, max_value=10**9), max_size=40),
    fair=st.fractions(min_value=0, max_value=200),
    spans=st.lists(st.fractions(min_value=0, max_value=300), max_size=4),
)
def test_t7_every_answer_and_every_number_of_the_poll_is_shown_once(prices, fair, spans) -> None:
    """Whatever the answers: the counts per range add up to the answers, and the median, the
    fair price and each break-even are each marked in exactly one range, in words."""
    poll = Poll(1, deal=1, step=0, fair=fair, break_even=dict(enumerate(spans, 1)), holder=0, best="QH")
    for i, price in enumerate(prices):
        poll.answer(f"m{i}", price)
    poll.reveal()
    seats = ["Fanny", "Edmund", "Mary", "Henry", "William"]
    shown = poll_html(poll, seats, T)
    rows = re.findall(r"<tr><td class=\"spec-poll-range\">.*?</tr>", shown)
    if not prices:
        assert rows == [] and T.plural("class.host.poll.answers", 0) in text(shown)
        return
    counts = [int(re.search(r'spec-poll-count">([\d,]+)<', r).group(1).replace(",", "")) for r in rows]
    assert sum(counts) == len(prices)
    marks = [text(re.search(r'spec-poll-marks">(.*?)</td>', r).group(1)) for r in rows]
    wanted = [T("class.host.poll.mark_median"), T("class.host.poll.mark_fair")]
    wanted += [T("class.host.poll.mark_break_even", name=seats[s]) for s in range(1, len(spans) + 1)]
    for words in wanted:
        assert sum(m.split("; ").count(words) for m in marks) == 1, (words, marks)


def test_a_store_failing_while_the_table_is_open_is_said_and_the_game_goes_on() -> None:
    store = FlakyStore()
    app, panel, referee = opened(store)
    store.failing = True
    app.ui.next.click()
    assert len(app.controller.game.history) == 1 and referee.trouble
    assert T("class.host.store_failed") in text(panel.ui.status.value)
    store.failing = False
    app.ui.next.click()
    assert referee.trouble is None and T("class.host.store_failed") not in text(panel.ui.status.value)
    moment = store.get(referee.code, "moment")
    assert moment is not None and moment["step"] == 2
    app.close()


@on_loop
async def test_issue25_the_teacher_asks_the_class_about_a_moment_of_the_bank(store: MemoryStore) -> None:
    """A question deal from the panel: the class sees the bank's moment, outside the standings."""
    app, panel, referee = opened(store)
    before = app.controller.session.to_json()
    assert not visible(panel.ui.question_end) and panel.ui.question_pick.options
    panel.ui.question_pick.value = "dozen"
    panel.ui.question_open.click()
    assert referee.question is not None and referee.question.question == "dozen"
    assert visible(panel.ui.question_end) and T("class.host.question_shown") in text(panel.ui.question_table.value)
    panel.ui.ask.click()
    assert referee.poll.question == "dozen" and referee.poll.deal == 0
    panel.ui.close_poll.click()
    panel.ui.handout.click()
    assert "bank" not in panel.ui.answers_download.value and "text/html" in panel.ui.answers_download.value
    panel.ui.question_end.click()
    assert referee.question is None and app.controller.session.to_json() == before
    assert panel.ui.question_table.value == ""
    app.close()
