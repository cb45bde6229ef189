"""The student's screen at a shared table (widgets/member_app.py), driven from Python as a
student would, against a real referee in this process: a :class:`MemoryStore` and a
:class:`Referee` over a :class:`SessionHost`. The referee handles the requests when the test
says so (``serve()``), then the page reads the replies (``refresh_from_store``): no event loop,
no timing. Rule numbers as in docs/TABLE.md (T1-T12) and RULES.md (P1-P9, O1-O4).
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Iterator

import ipywidgets as widgets
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipywidgets.widgets.widget import _instances
from loops import run_loop

from speculation_nb import Action, Rules, Session, odds
from speculation_nb.app import SpeculationApp, from_request
from speculation_nb.app.student.screen import MEMORY_PREFIX, WATCH, MemberApp, join_in_place
from speculation_nb.classroom import MemoryStore, show_code
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.referee import Referee
from speculation_nb.classroom.teacher_game import SessionHost
from speculation_nb.languages.translator import translator
from speculation_nb.rendering.cards import table_html

T = translator("en")


def text(value: str) -> str:
    """The words of some HTML: inline tags (a name's <bdi>, <b>, <span>) vanish, others part words."""
    value = re.sub(r"</?(bdi|b|span)\b[^>]*>", "", value)
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def words(value: str) -> str:
    return re.sub(r"\s+", " ", text(value)).strip()


class Table:
    """A teacher's table in this process, and the students' pages that join it."""

    def __init__(self, players: int = 3, seed: int = 1, **kw: object) -> None:
        self.store = MemoryStore()
        self.session = Session(Rules(players=players), seed=seed)
        self.host = SessionHost(self.session)
        self.referee = Referee.open(self.store, self.host, **kw)
        self.pages: list[MemberApp] = []

    @property
    def game(self):
        return self.session.game

    def page(self, code: str | None = None, lang: str = "en") -> MemberApp:
        page = MemberApp(
            code=self.referee.code if code is None else code,
            lang=lang,
            store=self.store,
            follow=False,
            page=new_token(),
        )
        self.pages.append(page)
        return page

    def serve(self) -> None:
        """The referee handles every request posted so far; every page reads its replies."""
        self.referee.handle_pending()
        for page in self.pages:
            page.refresh_from_store()

    def join(self, name: str, seat: int | None, lang: str = "en") -> MemberApp:
        page = self.page(lang=lang)
        page.ui.member_name.value = name
        page.ui.member_seat.value = WATCH if seat is None else seat
        page.ui.member_join.click()
        self.serve()
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()


@pytest.fixture
def table() -> Iterator[Table]:
    made = Table()
    yield made
    made.close()


def message(page: MemberApp) -> str:
    return words(page.ui.message.value)


def visible(w: widgets.Widget) -> bool:
    return w.layout.display != "none"


def play_to_auction(table: Table) -> None:
    """Reveal cards (the host acts for the seat due) until the holder may open an auction."""
    game = table.game
    for _ in range(40):
        if game.can_open_auction() and game.holder is not None:
            return
        table.host.act(game.turn, Action.make("reveal", seat=game.turn))
        table.referee.publish()
    pytest.skip("this seed never lets the holder open an auction")


def offered(table: Table) -> int:
    """Play to an auction, whose holder joins and offers the card (page "Hold"); a seat that may bid."""
    play_to_auction(table)
    holder = table.game.holder
    seller = table.join("Hold", holder)
    seller.ui.member_offer.click()
    table.serve()
    return next(s for s in range(3) if s != holder)


# ------------------------------------------------------------------- T1 / T2: joining
def test_t1_a_mistyped_code_is_refused_in_words_and_kept_as_typed(table: Table) -> None:
    page = table.page(code="ABCDE-0O1IL")
    assert message(page).startswith("Rule T1:")
    assert page.ui.member_code.value == "ABCDE-0O1IL"  # what was typed stays
    assert not page.joined and visible(page.ui.member_join_box)


def test_t1_a_code_of_no_table_is_refused(table: Table) -> None:
    other = "ABCDEFGHJK" if table.referee.code != "ABCDEFGHJK" else "BBCDEFGHJK"
    page = table.page(code=other)
    assert message(page) == T("error.format", rule="T1", message=T("error.table.no_table", code=show_code(other)))


def test_t1_a_typed_code_ignores_case_spaces_and_dashes(table: Table) -> None:
    code = show_code(table.referee.code).lower().replace("-", " - ")
    page = table.page(code=code)
    assert page.code == table.referee.code
    assert page.ui.member_code.value == show_code(table.referee.code)
    assert message(page) == T("class.member.found", code=show_code(table.referee.code))


def test_t2_the_seat_choice_offers_the_free_seats_and_watch(table: Table) -> None:
    page = table.page()
    names = table.session.names
    assert list(page.ui.member_seat.options) == [
        *[(T("class.member.free_seat", name=names[i]), i) for i in range(3)],
        (T("class.member.watch"), WATCH),
    ]
    table.join("Ann", 1)
    page.refresh_from_store()
    assert [v for _, v in page.ui.member_seat.options] == [0, 2, WATCH]


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "bad\x07name"])
def test_t2_a_bad_name_is_refused_in_words(table: Table, name: str) -> None:
    page = table.join(name, 0)
    assert not page.joined
    assert message(page).startswith("Rule T2:")
    assert page.last_reply is None  # refused by the page's kernel: nothing was posted (Member.post)
    assert [r for _n, r in table.store.read(table.referee.code, "requests")] == []
    assert visible(page.ui.member_join_box) and not visible(page.ui.member_table_box)


def test_t2_a_taken_seat_and_a_taken_name_are_refused(table: Table) -> None:
    """Two pages that both saw seat 1 free ask for it at once: the first request wins (T2)."""
    first, late = table.page(), table.page()
    for page, name in ((first, "Ann"), (late, "Bob")):
        page.ui.member_name.value = name
        page.ui.member_seat.value = 1
        page.ui.member_join.click()
    table.serve()
    assert first.joined and not late.joined and late.last_reply.key == "table.seat_taken"
    assert message(late).startswith("Rule T2:")
    assert late.ui.member_name.value == "Bob"  # what was typed stays
    assert [v for _, v in late.ui.member_seat.options] == [0, 2, WATCH]
    twin = table.join("ANN", 2)
    assert not twin.joined and twin.last_reply.key == "table.name_taken"


def test_t2_join_as_a_seat(table: Table) -> None:
    page = table.join("Ann", 1)
    assert page.joined and page.seat == 1
    assert message(page) == T("class.member.joined_seat", seat=table.session.names[1], name="Ann")
    assert not visible(page.ui.member_join_box) and visible(page.ui.member_table_box)
    assert [m.name for m in table.referee.members()] == ["Ann"]
    assert "Ann" in words(page.ui.member_you.value)


def test_t2_join_as_a_spectator(table: Table) -> None:
    page = table.join("Cy", None)
    assert page.joined and page.seat is None
    assert message(page) == T("class.member.joined_watch", name="Cy")
    assert words(page.ui.member_you.value).startswith(words(T("class.member.you_watch", name="Cy")))
    assert not visible(page.ui.member_actions)


# --------------------------------------------------------------- the table, from the moment
def test_the_drawn_table_is_the_referees_game(table: Table) -> None:
    """What a spectator's page draws is what the teacher's game would draw (public facts only,
    the dealer's tag included)."""
    page = table.join("Cy", None)
    for _ in range(3):
        game = table.game
        table.host.act(game.turn, Action.make("reveal", seat=game.turn))
        table.referee.publish()
        page.refresh_from_store()
        names = list(page.moment.names)

        expected = table_html(game, names, texts=T.render_texts(), card_width=54, number=T.number)
        assert page.parts["board"] == expected and expected in page.ui.member_table.value
        assert page.moment.step == len(game.history)


def test_t11_a_name_is_shown_as_text_everywhere(table: Table) -> None:
    page = table.join("<b>x</b>", 1)
    other = table.join("Bob", 2)
    assert page.joined
    for p in (page, other):
        p.refresh_from_store()
        for w in (p.ui.message, p.ui.member_you, p.ui.member_table):
            assert "<b>x</b>" not in w.value
        assert "&lt;b&gt;x&lt;/b&gt;" in p.parts["seats"]
        assert "&lt;b&gt;x&lt;/b&gt;" in p.ui.member_table.value
    assert "<b>x</b>" in words(page.ui.member_you.value)


def test_o1_o4_the_numbers_shown_are_the_referees(table: Table) -> None:
    """Every chance on the page is the exact figure of the teacher's game, as text; every price
    is the whole number of chips the projector shows for it (O4, issue 23: not "≈ 9.5")."""
    play_to_auction(table)
    holder = table.game.holder
    table.host.act(holder, Action.make("open_auction"))
    table.referee.publish()
    me = next(s for s in range(3) if s != holder)
    page = table.join("Bo", me)
    shown = words(page.parts["odds"])
    game = table.game

    def exact(x) -> str:
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"

    hold = odds.hold_probability(game)
    assert f"{T.percent(hold)} = {exact(hold)}" in shown
    for seat, chance in odds.win_probabilities(game).items():
        if seat is not None:
            assert f"{T.percent(chance)} = {exact(chance)}" in shown
    for value in (odds.fair_price(game), odds.break_even(game, me)):
        assert T.plural("unit.chips", odds.shown_chips(value)) in shown and exact(value) not in shown
    assert (
        T("class.member.break_even", value=T.plural("unit.chips", odds.shown_chips(odds.break_even(game, me)))) in shown
    )
    assert "≈" not in shown.replace(T("odds.about", value=""), "")


# -------------------------------------------------------------- T3: the seat's buttons
def test_t3_next_card_shows_only_for_the_seat_due(table: Table) -> None:
    pages = {s: table.join(f"P{s}", s) for s in range(3)}
    watcher = table.join("W", None)
    for _ in range(3):
        for p in (*pages.values(), watcher):
            p.refresh_from_store()
        due = table.game.turn if table.game.can_reveal() else None
        for seat, p in pages.items():
            assert visible(p.ui.member_next) == (seat == due), (seat, due)
            assert visible(p.ui.member_offer) == (table.game.can_open_auction() and table.game.holder == seat)
        assert not visible(watcher.ui.member_next)
        if due is None:
            break
        pages[due].ui.member_next.click()
        table.serve()
        assert message(pages[due]) == T("class.member.done")


def test_t3_a_bid_through_the_page_reaches_the_referees_game(table: Table) -> None:
    play_to_auction(table)
    holder = table.game.holder
    seller = table.join("Hold", holder)
    bidder_seat = next(s for s in range(3) if s != holder)
    bidder = table.join("Bid", bidder_seat)
    assert visible(seller.ui.member_offer) and not visible(bidder.ui.member_offer)
    seller.ui.member_offer.click()
    table.serve()
    assert table.game.auction is not None
    bidder.refresh_from_store()
    assert visible(bidder.ui.member_bid) and not visible(seller.ui.member_bid)
    low, high = table.game.bid_range(bidder_seat)
    assert bidder.ui.member_bid_amount.value == low
    assert words(bidder.ui.member_hint.value).endswith(
        T("class.member.bid_range", low=T.number(low), high=T.number(high))
    )
    bidder.ui.member_bid_amount.value = low
    bidder.ui.member_bid.click()
    table.serve()
    assert table.game.auction == {bidder_seat: low}
    assert visible(bidder.ui.member_withdraw)
    # the holder now sees "Sell to Bid for <low>" and "Keep the card"
    sell = seller.ui.member_sell[0]
    assert visible(sell) and sell.description == T("button.sell_to", name="Bid", amount=T.number(low))
    assert visible(seller.ui.member_decline)
    sell.click()
    table.serve()
    assert table.game.holder == bidder_seat and table.game.auction is None


def test_p2_a_typed_bid_below_one_is_refused_in_words_and_sends_nothing(table: Table) -> None:
    bidder = table.join("Bid", offered(table))
    before = len(table.store.read(table.referee.code, "requests"))
    bidder.ui.member_bid_amount.value = 0
    bidder.ui.member_bid.click()
    assert message(bidder).startswith("Rule P2:")
    assert bidder.ui.member_bid_amount.value == 0  # kept as typed
    assert len(table.store.read(table.referee.code, "requests")) == before


def test_p_rules_the_engines_refusal_comes_back_in_words(table: Table) -> None:
    seat = offered(table)
    bidder = table.join("Bid", seat)
    stack = table.game.stacks[seat]
    bidder.ui.member_bid_amount.value = stack + 50  # more than the stack: the engine refuses (P2)
    bidder.ui.member_bid.click()
    table.serve()
    reply = bidder.last_reply
    assert reply is not None and not reply.ok and reply.rule.startswith("P")
    assert message(bidder) == reply.text(T, list(bidder.moment.names))
    assert message(bidder).startswith(f"Rule {reply.rule}:")
    assert table.game.auction == {}


def test_t4_paused_a_banner_shows_and_actions_are_refused_in_words(table: Table) -> None:
    pages = {s: table.join(f"P{s}", s) for s in range(3)}
    due = table.game.turn
    table.referee.pause()
    table.serve()
    page = pages[due]
    assert visible(page.ui.member_banner) and words(page.ui.member_banner.value) == T("class.member.paused")
    assert not visible(page.ui.member_next)  # nothing is due while paused
    page.next_card()  # as a click that was queued before the pause
    table.serve()
    assert page.last_reply.rule == "T4"
    assert message(page) == T("error.format", rule="T4", message=T("error.table.paused"))
    table.referee.resume_play()
    table.serve()
    assert not visible(page.ui.member_banner) and visible(page.ui.member_next)


def test_t4_the_teacher_looks_back(table: Table) -> None:
    page = table.join("Ann", 0)
    for _ in range(2):
        table.host.act(table.game.turn, Action.make("reveal", seat=table.game.turn))
    table.host.go(1)
    table.referee.publish()
    page.refresh_from_store()
    assert words(page.ui.member_banner.value) == T("class.member.looking_back", step="1", last="2")
    assert page.moment.step == 1 and not page.moment.live


def test_t3_a_spectator_cannot_act(table: Table) -> None:
    page = table.join("W", None)
    before = len(table.store.read(table.referee.code, "requests"))
    page.guard(page.next_card)()  # as a keyboard shortcut would
    assert message(page) == T("error.format", rule="T3", message=T("error.table.spectator"))
    assert len(table.store.read(table.referee.code, "requests")) == before


# ------------------------------------------------------------------------ T7: the poll
def test_t7_the_poll_field_shows_while_open_and_the_answer_reaches_the_referee(table: Table) -> None:
    page = table.join("Ann", 1)
    watcher = table.join("W", None)
    assert not visible(page.ui.member_poll)
    poll = table.referee.ask()
    table.serve()
    for p in (page, watcher):
        assert visible(p.ui.member_poll)
        assert words(p.ui.member_poll_question.value) == T("class.member.poll_question")
    page.ui.member_poll_price.value = 7
    page.ui.member_poll_answer.click()
    watcher.ui.member_poll_price.value = 3
    watcher.ui.member_poll_answer.click()
    table.serve()
    assert message(page) == T("class.member.poll_sent", price="7")
    assert sorted(table.referee.poll.answers.values()) == [3, 7]
    assert table.referee.poll.id == poll.id
    table.referee.close_poll()  # time is up: the field goes, the words say so (T7)
    table.serve()
    assert visible(page.ui.member_poll) and not visible(page.ui.member_poll_row)
    assert words(page.ui.member_poll_question.value) == T("class.member.poll_locked")
    table.referee.reveal_poll()
    table.serve()
    assert words(page.ui.member_poll_question.value) == T("class.member.poll_revealed")
    assert "W" not in page.ui.member_poll.children[0].value  # no name, no answer on a student's page


def test_t7_a_price_out_of_range_is_refused_in_words(table: Table) -> None:
    page = table.join("Ann", 1)
    table.referee.ask()
    table.serve()
    page.ui.member_poll_price.value = -1
    page.ui.member_poll_answer.click()
    assert message(page).startswith("Rule T7:")
    assert page.ui.member_poll_price.value == -1
    assert table.referee.poll.answers == {}


# --------------------------------------------------------------------- T8: rejoining
def browser_stores(page: MemberApp) -> str:
    """The browser writes the kernel's pending value and confirms (see tests/app/test_device_memory.py)."""
    memory = page.memory
    assert memory is not None and memory.pending
    memory.set_state({"written": memory.value, "pending": False, "loaded": True, "available": True})
    return memory.value


def test_t8_a_reload_rejoins_the_same_seat_and_the_old_secret_stops(table: Table) -> None:
    first = table.join("Ann", 1)
    assert first.memory is not None and first.memory.key == MEMORY_PREFIX + table.referee.code
    kept = json.loads(browser_stores(first))
    assert set(kept) == {"member", "token"}
    # the reload: a new kernel, a new page; its browser reads the same localStorage entry
    second = table.page()
    assert not second.joined
    second.memory.set_state({"value": json.dumps(kept), "written": json.dumps(kept), "loaded": True})
    assert message(second) == T("class.member.rejoining")
    table.serve()
    assert second.joined and second.seat == 1 and second.name == "Ann"
    assert message(second) == T("class.member.rejoined", name="Ann")
    assert visible(second.ui.member_table_box) and not visible(second.ui.member_join_box)
    assert second.moment == first.moment
    # the old page's secret no longer works (T8)
    first.refresh_from_store()
    first.next_card()
    table.serve()
    assert first.last_reply is not None and first.last_reply.rule == "T3"


def test_t8_once_joined_the_pages_address_is_the_tables_link_however_the_code_came(table: Table) -> None:
    """A code typed on the app's page (join in place) or a link: once the table has the student,
    the page's address names the table (the code only), so a reload comes back to it; Leave takes
    it out again. A page not joined leaves the address alone."""
    shown = show_code(table.referee.code)
    linked = table.join("Ann", 1)
    assert linked.address.table == shown
    app = SpeculationApp(players=3, seed=2, charts="static")
    typed = join_in_place(app, store=table.store)
    table.pages.append(typed)
    assert typed.address in typed.all_widgets() and typed.address.table is None
    typed.ui.member_code.value = table.referee.code.lower()
    typed.ui.member_look.click()
    assert typed.address.table is None  # found, not joined: the address stays as it was
    typed.ui.member_name.value = "Bea"
    typed.ui.member_seat.value = 2
    typed.ui.member_join.click()
    table.serve()
    assert typed.joined and typed.address.table == shown
    assert not any(secret in json.dumps(typed.address.get_state()) for secret in ("secret", "token"))
    # the reload: the address is the link, the browser kept the token: the same seat (T8)
    kept = browser_stores(typed)
    again = table.page(code=shown)
    again.memory.set_state({"value": kept, "written": kept, "loaded": True})
    table.serve()
    assert again.joined and again.seat == 2 and again.address.table == shown
    typed.ui.member_leave.click()
    assert typed.address.table == ""
    app.close()


def test_t8_a_refused_rejoin_forgets_the_token_and_shows_the_form(table: Table) -> None:
    page = table.page()
    page.memory.set_state({"value": '{"member": "nobody", "token": "x"}', "written": "x", "loaded": True})
    table.serve()
    assert not page.joined and visible(page.ui.member_join_box)
    assert page.last_reply is not None and page.last_reply.rule == "T8"
    assert message(page) == T("class.member.rejoin_refused", reason=page.last_reply.text(T))
    assert page.memory.value == "" and page.memory.pending


def test_t8_private_mode_nothing_is_kept_and_nothing_fails(table: Table) -> None:
    page = table.page()
    page.memory.set_state({"value": "", "written": "", "loaded": True, "available": False})
    assert not page.joined and message(page) == T("class.member.found", code=show_code(table.referee.code))


def test_t3_t8_no_seat_secret_in_any_widget_state(table: Table) -> None:
    earlier = set(_instances)  # widgets other tests left behind are not this page's
    page = table.join("Ann", 1)
    browser_stores(page)
    table.referee.ask()
    table.serve()
    page.ui.member_poll_price.value = 4
    page.ui.member_poll_answer.click()  # posts with the seat secret
    table.serve()
    requests = [r for _, r in table.store.read(table.referee.code, "requests")]
    secrets = {r["secret"] for r in requests if r.get("secret")}
    joins = [table.store.get(table.referee.code, f"reply:{r['reply']}") for r in requests if r["kind"] == "join"]
    secrets |= {j["secret"] for j in joins if j}
    assert len(secrets) == 1  # the secret the join gave is the one the answer carried
    every = [w for p in table.pages for w in p.all_widgets()]
    assert len(every) > 30 and page.memory in every
    made = [w for key, w in list(_instances.items()) if key not in earlier]
    for widget in [*every, *made]:
        if widget.comm is None:  # closed
            continue
        state = json.dumps(widget.get_state(), default=str)
        for secret in secrets:
            assert secret not in state, type(widget).__name__


# ------------------------------------------------------------------------ closing, routing
def test_t10_a_wiped_table_says_so(table: Table) -> None:
    page = table.join("Ann", 1)
    table.referee.wipe()
    page.refresh_from_store()
    assert page.closed and message(page) == T("class.member.closed")
    assert not visible(page.ui.member_table_box) and not visible(page.ui.member_join_box)


def test_the_page_speaks_the_language_of_the_link(table: Table) -> None:
    page = table.join("Ann", 1, lang="it")
    it = translator("it")
    assert message(page) == it("class.member.joined_seat", seat=table.session.names[1], name="Ann")
    assert page.ui.member_next.description == it("button.next_card")


def test_from_request_opens_the_student_screen_for_a_table_link(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPECULATION_TABLE_STORE", raising=False)
    page = from_request("table=ABCDE-FGHJK&lang=de")
    assert isinstance(page, MemberApp)
    assert message(page) == translator("de")("class.member.no_server")
    page.close()
    app = from_request("seed=3", charts="static")
    assert isinstance(app, SpeculationApp)
    app.close()


def test_join_in_place_and_leave_restores_the_app(table: Table) -> None:
    app = SpeculationApp(players=3, seed=2, charts="static")
    before = tuple(app.widget.children)
    page = join_in_place(app, show_code(table.referee.code), store=table.store)
    table.pages.append(page)
    assert app.widget.children == (page.widget,)
    page.ui.member_name.value = "Ann"
    page.ui.member_seat.value = 0
    page.ui.member_join.click()
    table.serve()
    assert page.joined
    page.ui.member_leave.click()
    assert tuple(app.widget.children) == before
    app.close()


def test_the_page_follows_the_table_on_the_event_loop() -> None:
    """In a kernel the page follows by itself: its task reads the replies and the moments as the
    referee (serving on the same loop) publishes them. Waits for conditions, never for time."""
    made = Table()

    async def until(condition, what: str) -> None:
        for _ in range(2000):  # a safety net of some 100 s on a loaded machine
            if condition():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(what)

    async def scene() -> None:
        serving = asyncio.create_task(made.referee.serve(interval=0.05))
        page = MemberApp(code=made.referee.code, store=made.store, follow=True)
        made.pages.append(page)
        try:
            page.ui.member_name.value = "Ann"
            page.ui.member_seat.value = made.game.turn
            page.ui.member_join.click()
            await until(lambda: page.joined and visible(page.ui.member_next), "the page joined")
            step = len(made.game.history)
            page.ui.member_next.click()
            await until(lambda: page.moment is not None and page.moment.step == step + 1, "the card was turned up")
            assert len(made.game.history) == step + 1
            made.referee.pause()
            await until(lambda: visible(page.ui.member_banner), "the banner")
        finally:
            page.stop()
            made.referee.close()
            await serving

    run_loop(scene)
    made.close()


def test_t2_with_teams_a_seat_with_members_is_offered_too() -> None:
    made = Table(teams=True)
    made.join("Ann", 1)
    page = made.page()
    assert [v for _, v in page.ui.member_seat.options] == [0, 1, 2, WATCH]
    page.ui.member_name.value = "Bob"
    page.ui.member_seat.value = 1
    page.ui.member_join.click()
    made.serve()
    assert page.joined and page.seat == 1
    assert "Ann, Bob" in words(page.parts["seats"])
    made.close()


def test_the_last_event_is_worded_as_the_apps_log(table: Table) -> None:
    from speculation_nb.app.player.log_view import event_html

    page = table.join("Ann", 0)
    game = table.game
    seat = game.turn
    table.host.act(seat, Action.make("reveal", seat=seat))
    table.referee.publish()
    page.refresh_from_store()
    line = event_html(game.events[-1], list(page.moment.names), T)
    assert page.parts["last"] == line
    assert f'<div class="spec-member-last">{line}</div>' in page.ui.member_you.value


def test_t3_t9_a_seat_the_teacher_took_over_shows_no_buttons(table: Table) -> None:
    seat = table.game.turn
    page = table.join("Ann", seat)
    assert visible(page.ui.member_next)
    table.referee.take_over(seat)
    table.serve()
    assert not visible(page.ui.member_next) and not visible(page.ui.member_actions)
    assert T("class.member.seat_teacher", seat=page.moment.names[seat]) in words(page.parts["seats"])
    table.referee.give_back(seat)
    table.serve()
    assert visible(page.ui.member_next)


# ------------------------------------------------------------------------ properties
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), reveals=st.integers(0, 12))
def test_property_a_spectator_sees_the_referees_table_and_numbers(seed: int, players: int, reveals: int) -> None:
    made = Table(players=players, seed=seed)
    page = made.join("W", None)
    game = made.game
    for _ in range(reveals):
        if not game.can_reveal():
            break
        made.host.act(game.turn, Action.make("reveal", seat=game.turn))
    made.referee.publish()
    page.refresh_from_store()
    names = list(page.moment.names)
    board = table_html(game, names, texts=T.render_texts(), card_width=54 if players <= 5 else 46, number=T.number)
    assert page.parts["board"] == board and board in page.ui.member_table.value
    hold = odds.hold_probability(game)
    exact = str(hold.numerator) if hold.denominator == 1 else f"{hold.numerator}/{hold.denominator}"
    assert f"{T.percent(hold)} = {exact}" in words(page.parts["odds"])
    made.close()


@settings(max_examples=25, deadline=None)
@given(name=st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=24))
def test_property_t11_any_accepted_name_is_shown_escaped(name: str) -> None:
    made = Table()
    page = made.join(name, 0)
    if page.joined:  # names the referee refuses (T2: blank, taken) are refused in words instead
        shown = page.parts["seats"]
        assert f"<bdi>{html.escape(page.name, quote=True)}</bdi>" in shown
        assert text(page.parts["who"]).startswith(f"You: {page.name},")
    else:
        assert message(page).startswith("Rule T2:")
    made.close()


def test_enter_in_the_code_field_looks_up_and_enter_in_the_name_field_joins(table: Table) -> None:
    page = table.page(code="")
    page.ui.member_code.value = show_code(table.referee.code)
    page.ui.member_code._handle_custom_msg({"event": "submit"}, [])
    assert page.member is not None and [v for _, v in page.ui.member_seat.options] == [0, 1, 2, WATCH]
    page.ui.member_name.value = "Ann"
    page.ui.member_seat.value = 2
    page.ui.member_name._handle_custom_msg({"event": "submit"}, [])
    table.serve()
    assert page.joined and page.seat == 2


def test_issue25_a_question_deal_is_drawn_on_a_students_page_and_no_card_moves(table: Table) -> None:
    from speculation_nb.engine import bank

    page = table.join("Ann", 1)
    q = bank.question("dozen")
    table.referee.open_question(q.to_moment(), q.id)
    table.serve()
    assert "spec-table" in page.ui.member_table.value or page.ui.member_table.value
    assert not visible(page.ui.member_next) or page.ui.member_next.disabled
    table.referee.ask()
    table.serve()
    assert visible(page.ui.member_poll_row)
    page.ui.member_poll_price.value = 9
    page.ui.member_poll_answer.click()
    table.serve()
    assert message(page) == T("class.member.poll_sent", price="9")
    table.referee.close_poll()
    table.referee.end_question()
    table.serve()
    assert page.session.moment is not None and page.session.moment.players == table.referee.host.session.rules.players
