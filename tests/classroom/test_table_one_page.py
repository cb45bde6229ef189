"""One person, one page, one seat (issue 27, item 2; T2, T5, T7 of docs/TABLE.md).

A page is the student's to control: it can send its kernel any widget message (a click on a
hidden button, Enter in the name field, a seat list's value, a button's ``disabled`` turned
off). Here a student's page (:class:`~speculation_nb.app.student.screen.MemberApp`) gets those
raw messages after joining; the referee answers by hand (``handle_pending``). Whatever the page
sends, it holds one membership: the page's session refuses a second join in words, and the
referee refuses one from the same kernel (its identity travels in the request) even when the
page's own check is skipped. Joins from one page are rate-limited; the cap counts the members
at the table, not the joins ever made; a poll counts one answer per member. A team's shown name
always fits in a moment ("Ann, Ben +6"), and a page that cannot read a moment says so.
"""

from __future__ import annotations

from typing import Any

import pytest
from loops import in_thread, run_loop

from speculation_nb import Rules, Session
from speculation_nb.app.student.screen import MemberApp
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.desk import PAGE_BURST
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.member_session import MemberSession
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.seating import SEAT_NAME_LIMIT
from speculation_nb.classroom.stores.base import MemoryStore
from speculation_nb.classroom.teacher_game import SessionHost
from speculation_nb.languages.translator import translator

T = translator("en")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def table(max_joins: int = 60) -> tuple[MemoryStore, Referee, Clock]:
    store, clock = MemoryStore(), Clock()
    referee = Referee.open(store, SessionHost(Session(Rules(players=4), seed=7)), max_joins=max_joins, clock=clock)
    return store, referee, clock


def message(widget: Any, data: dict[str, Any]) -> None:
    """What a page's front end can send its kernel for ``widget`` (a comm message, as it arrives)."""
    widget._handle_msg({"content": {"data": data}, "buffers": []})


def test_t2_a_page_joins_once_whatever_its_widgets_send() -> None:
    in_thread(joins_once)


def joins_once() -> None:
    store, referee, _clock = table()
    page = MemberApp(referee.code, store=store, follow=False, page=new_token())
    ui = page.ui
    message(ui.member_name, {"method": "update", "state": {"value": "Ana"}})
    message(ui.member_join, {"method": "custom", "content": {"event": "click"}})
    referee.handle_pending()
    page.refresh_from_store()
    assert page.joined and [m.name for m in referee.members()] == ["Ana"]
    for i in range(12):  # Enter in the name field, a click on the hidden Join, a seat chosen
        message(ui.member_name, {"method": "update", "state": {"value": f"Ben{i}"}})
        message(ui.member_name, {"method": "custom", "content": {"event": "submit"}})
        message(ui.member_join, {"method": "update", "state": {"disabled": False}})
        message(ui.member_join, {"method": "custom", "content": {"event": "click"}})
        referee.handle_pending()
        page.refresh_from_store()
    assert [m.name for m in referee.members()] == ["Ana"]
    words = T("error.table.page_joined", name="Ana")
    assert words in page.session.notice.words(T, [])
    page.close()


def test_t2_the_referee_refuses_a_second_membership_from_one_kernel() -> None:
    """A page whose kernel's own check were skipped (its Member posting joins as it likes): the
    referee counts memberships by the page's identity in the request."""
    store, referee, _clock = table()
    kernel = new_token()
    first = Member(store, referee.code, page=kernel)
    token = first.post("join", name="Ana", seat=0)
    referee.handle_pending()
    assert (reply := first.reply(token)) is not None and reply.ok
    again = Member(store, referee.code, page=kernel)  # the same kernel, another Member
    tokens = [again.post("join", name=f"Ana {i}", seat=i) for i in (1, 2, 3)]
    referee.handle_pending()
    replies = [again.reply(t) for t in tokens]
    assert all(r is not None and not r.ok and r.rule == "T2" and r.key == "table.page_joined" for r in replies)
    assert [m.name for m in referee.members()] == ["Ana"]
    # a rejoin as the member this page holds is fine; another page (a reload) joins as itself
    other = Member(store, referee.code)
    token = other.post("join", name="Ben", seat=None)
    referee.handle_pending()
    assert (reply := other.reply(token)) is not None and reply.ok


def test_t2_t5_joins_from_one_page_are_rate_limited() -> None:
    store, referee, clock = table()
    Member(store, referee.code).post("join", name="Ana", seat=None)
    referee.handle_pending()
    page = Member(store, referee.code)
    tokens = [page.post("join", name="Ana", seat=None) for _ in range(int(PAGE_BURST) + 3)]  # a taken name
    referee.handle_pending()
    keys = [r.key for t in tokens if (r := page.reply(t)) is not None]
    assert keys[: int(PAGE_BURST)] == ["table.name_taken"] * int(PAGE_BURST)
    assert set(keys[int(PAGE_BURST) :]) == {"table.join_rate"}
    clock.now += 10  # a try again after ten seconds
    token = page.post("join", name="Eve", seat=None)
    referee.handle_pending()
    assert (reply := page.reply(token)) is not None and reply.ok


def test_t2_the_cap_counts_members_at_the_table_not_joins_ever_made() -> None:
    store, referee, clock = table(max_joins=3)
    for round_ in range(4):  # three join and leave, four times: twelve joins, never more than three at once
        members = [Member(store, referee.code) for _ in range(3)]
        tokens = [m.post("join", name=f"S{round_}-{i}", seat=None) for i, m in enumerate(members)]
        referee.handle_pending()
        assert all((r := m.reply(t)) is not None and r.ok for m, t in zip(members, tokens, strict=True))
        late = Member(store, referee.code)
        token = late.post("join", name=f"Late{round_}", seat=None)
        referee.handle_pending()
        assert (reply := late.reply(token)) is not None and reply.key == "table.joins_full"
        for m in members:
            m.post("leave")
        clock.now += 10
        referee.handle_pending()
    assert referee.members() == [] and referee.roster.joins == 12


def test_t7_one_page_answering_six_times_is_one_answer() -> None:
    in_thread(answers_once)


def answers_once() -> None:
    store, referee, _clock = table()
    page = MemberApp(referee.code, store=store, follow=False, page=new_token())
    page.ui.member_name.value = "Ana"
    page.join()
    referee.handle_pending()
    page.refresh_from_store()
    poll = referee.ask()
    page.refresh_from_store()
    for price in (1, 2, 3, 4, 5, 60):
        message(page.ui.member_poll_price, {"method": "update", "state": {"value": price}})
        message(page.ui.member_poll_answer, {"method": "custom", "content": {"event": "click"}})
    referee.handle_pending()
    assert poll.public()["answers"] == 1 and list(poll.answers.values()) == [60]
    page.close()


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_t2_the_words_of_one_page_one_seat_in_every_language(lang: str) -> None:
    t = translator(lang)
    for key in ("error.table.page_joined", "error.table.join_rate", "error.table.joins_full"):
        said = t(key, name="Ana", limit=3)
        assert said and said != key and "{" not in said


# ------------------------------------------------------------------ teams' names (issue 27, item 4)
def test_t2_eight_long_names_on_one_seat_make_a_name_that_fits_and_every_page_follows() -> None:
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(Session(Rules(players=4), seed=7)), teams=True)
    names = [f"{chr(65 + i)}{'x' * 23}" for i in range(8)]  # eight 24-character names
    members = [Member(store, referee.code) for _ in names]
    for member, name in zip(members, names, strict=True):
        member.post("join", name=name, seat=1)
    referee.handle_pending()
    assert [m.seat for m in referee.members()] == [1] * 8
    referee.pause()
    referee.resume_play()  # two more moments published
    follower = Member(store, referee.code)
    events = run_loop(lambda: follower.updates(timeout=0))
    assert {"kind": "unreadable"} not in events
    latest = follower.latest()
    assert latest is not None and latest.version == referee.version
    shown = latest.names[1]
    assert (
        len(shown) <= SEAT_NAME_LIMIT and shown.startswith(names[0]) and shown.endswith(f" +{8 - shown.count(',') - 1}")
    )


def test_a_page_that_cannot_read_a_moment_says_so() -> None:
    store, referee, _clock = table()
    student = MemberSession(store, page=new_token())
    assert student.look_up(referee.code)
    store.append(referee.code, "events", {"kind": "moment", "moment": {"version": "not a moment"}})
    assert student.member is not None
    student.take_events(run_loop(lambda: student.member.updates(timeout=0)))
    assert student.notice.key == "class.member.cannot_follow" and student.notice.error
    for lang in ("en", "it", "pt", "de"):
        said = translator(lang)("class.member.cannot_follow")
        assert said and said != "class.member.cannot_follow"
