"""Question deals at the shared table (issue 25): a composed moment polled outside the standings.

A moment of the question bank, or one composed in the app's editor with the teacher's own question
(:meth:`HostSession.open_composed`): the class sees its public view only, the teacher asks, locks
and reveals (T7), and takes the answers home; every check is the referee's or the session's.
Sessions with no event loop run in a worker thread (:func:`loops.in_thread`)."""

from __future__ import annotations

import csv
import html
import io
import json
from fractions import Fraction

import ipywidgets as widgets
import pytest
from game_views import cards_in
from loops import in_thread
from table_room import Class

from speculation_nb import Rules, Session, odds
from speculation_nb.app.composer import ComposerForm, build
from speculation_nb.app.student.screen import MemberApp
from speculation_nb.classroom import Member, MemoryStore, Referee, SessionHost, TableRefusal
from speculation_nb.classroom.answers import COLUMNS, answers_csv
from speculation_nb.classroom.host_session import HostSession
from speculation_nb.classroom.moment import QuestionView
from speculation_nb.classroom.poll import Poll
from speculation_nb.classroom.questions import QuestionDeal
from speculation_nb.classroom.teacher_game import SessionTable
from speculation_nb.engine import bank
from speculation_nb.engine.cards import Card
from speculation_nb.engine.compose import compose
from speculation_nb.languages.markup import escape as esc
from speculation_nb.languages.translator import translator
from speculation_nb.links.composed import MomentEntry, read_composed
from speculation_nb.links.query import MAX_QUESTION, query_params
from speculation_nb.rendering.poll_chart import poll_html

T = translator("en")


def ask(who: Member, referee: Referee, kind: str, **fields):
    token = who.post(kind, **fields)
    referee.handle_pending()
    return who.reply(token)


def a_table():
    session = next(s for s in (Session(Rules(players=4), seed=x) for x in range(1, 80)) if not s.game.over)
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(session))
    ann = Member(store, referee.code)
    assert ask(ann, referee, "join", name="Ann", seat=session.game.turn).ok
    return store, session, referee, ann


def test_a_question_deal_is_shown_and_polled_and_the_session_is_untouched():
    _store, session, referee, ann = a_table()
    before, dealer = session.to_json(), session.game.dealer
    q = bank.question("dozen")
    deal = referee.open_question(q.to_moment(), q.id)
    shown = ann.latest()  # every member sees the question's table: its public view, not live
    assert shown.players == 6 and not shown.live and shown.holder == 4
    assert all(s.kind == "free" for s in shown.seats)
    refused = ask(ann, referee, "act", seat=session.game.turn, action={"action": "reveal", "seat": session.game.turn})
    assert not refused.ok and refused.rule == "T4"  # nobody acts on a question deal
    poll = referee.ask()
    assert (poll.deal, poll.question, poll.question_deal) == (0, "dozen", deal.id)
    assert poll.fair == odds.fair_price(deal.game)
    assert ask(ann, referee, "answer", poll=poll.id, price=12).ok
    with pytest.raises(TableRefusal):  # one question at a time: the poll is still open
        referee.open_question(q.to_moment(), q.id)
    referee.close_poll()
    referee.reveal_poll()
    referee.end_question()
    assert session.to_json() == before and session.game.dealer == dealer  # no chip moved
    back = ann.latest()
    assert back.players == 4 and back.live
    export = referee.export()
    assert export["questions"][0]["question"] == "dozen" and export["questions"][0]["moment"] == q.moment
    rows = list(csv.reader(io.StringIO(answers_csv(export, T, named=True, base="https://x.example/app"))))
    row = dict(zip(COLUMNS, rows[1], strict=True))
    assert row["question"] == T(q.key) and row["deal"] == "0" and row["student"] == "Ann"
    assert row["fair"] == str(poll.fair)
    entry = read_composed(query_params(row["moment"].partition("?")[2]))
    assert entry is not None and entry.moment == q.to_moment()  # the link reopens the public view


def test_a_question_deal_survives_the_teachers_reload():
    store, _session, referee, _ann = a_table()
    q = bank.question("knave")
    deal = referee.open_question(q.to_moment(), q.id)
    again = Referee.resume(store, referee.code, referee.host_secret, SessionHost)
    assert again.question is not None and again.question.id == deal.id
    assert again.question.game.to_dict() == deal.game.to_dict()
    assert Member(store, referee.code).latest().players == 6


# ------------------------------------------------ a moment composed in the editor (issue 25)
TYPED = '<b>Mary</b> & "the queen": what would you pay for it?'  # typed text: escaped wherever shown


def a_host(store: MemoryStore) -> tuple[HostSession, Referee, Member]:
    """The teacher's session with its table open (answered by hand) and Ann watching."""
    session = HostSession(SessionTable(Session(Rules(players=4), seed=7)), store)
    referee = session.open_table()
    assert referee is not None and session.task is None  # no loop here: answered by hand
    ann = Member(store, referee.code)
    assert ask(ann, referee, "join", name="Ann", seat=None).ok
    return session, referee, ann


def dozen(question: str = TYPED) -> MomentEntry:
    """The chapter's "dozen for the queen", as the editor gives it: the moment and the typed question."""
    return MomentEntry(bank.question("dozen").to_moment(), "my dozen", question)


def hidden_cards(game) -> set[Card]:  # type: ignore[no-untyped-def]
    """The cards nobody sees in ``game`` (in a pile, the dead pile or the stock), from its layout."""
    layout = game.layout()
    everything = {Card.parse(c) for pile in layout["piles"] for c in pile}
    everything |= {Card.parse(c) for c in layout.get("dead") or []} | {Card.parse(c) for c in layout["stock"]}
    return everything - game.seen


def test_T7_T11_a_composed_moment_is_asked_locked_revealed_and_taken_home_with_the_teachers_question():
    def scene() -> None:
        store = MemoryStore()
        session, referee, ann = a_host(store)
        before = referee.host.session.to_json()
        names = ["Lady Bertram", "Mary", "Edmund", "Fanny", "Henry", "William"]
        assert session.open_composed(dozen(), names), session.notice
        deal = session.question
        assert deal is not None and (deal.question, deal.words, deal.names) == ("", TYPED, names)
        shown = ann.latest()  # the class sees the composed moment: its public view, not live
        assert shown.players == 6 and not shown.live and all(s.kind == "free" for s in shown.seats)
        assert [list(up) for up in shown.face_up] == deal.game.face_up and shown.holder == deal.game.holder
        assert session.ask()
        poll = referee.poll
        assert (poll.deal, poll.question, poll.question_deal) == (0, "", deal.id)
        assert poll.fair == odds.fair_price(deal.game)  # the exact fair price of the moment asked (O4)
        assert ask(ann, referee, "answer", poll=poll.id, price=12).ok
        assert session.close_poll()  # time is up (T7)
        late = ask(ann, referee, "answer", poll=poll.id, price=13)
        assert (late.ok, late.rule, late.key) == (False, "T7", "table.poll_locked")
        assert session.reveal_poll()
        rows = list(csv.reader(io.StringIO(session.answers(T, base="https://x.example/app", poll=poll.id).text)))
        assert len(rows) == 2
        row = dict(zip(COLUMNS, rows[1], strict=True))
        assert row["question"] == TYPED and row["deal"] == "0" and row["answer"] == "12"
        assert Fraction(row["fair"]) == poll.fair == odds.fair_price(deal.game) and row["student"] != "Ann"
        entry = read_composed(query_params(row["moment"].partition("?")[2]))  # the composed public-view link
        assert entry is not None and entry.moment == dozen().moment and entry.question == TYPED
        assert "seed" not in row["moment"]
        page = session.handout(T).text  # the handout of the moment, the question escaped
        assert esc(TYPED) in page and TYPED not in page and str(poll.fair) in page
        assert session.end_question()
        assert referee.host.session.to_json() == before  # no chip moved, the dealer rotation untouched
        export = referee.export()
        assert export["questions"][0]["words"] == TYPED and export["questions"][0]["question"] == ""
        session.close_table()

    in_thread(scene)


def test_T7_no_face_down_card_of_a_composed_moment_reaches_a_students_message_or_the_store():
    """The events, the published moment, the meta, the replies: public facts only; the record's
    question deals are sealed with the host secret, as its session is."""

    def scene() -> None:
        store = MemoryStore()
        session, referee, ann = a_host(store)
        since = store.last(referee.code, "events")  # what was published about the session's deal before
        assert session.open_composed(dozen())
        deal = session.question
        assert session.ask()
        reply = ask(ann, referee, "answer", poll=referee.poll.id, price=7)
        hidden = hidden_cards(deal.game)
        assert len(hidden) == 52 - len(deal.game.seen) > 0
        events = [e for _n, e in store.read(referee.code, "events", since)]
        published = [store.get(referee.code, k) for k in ("moment", "meta", "record")]
        assert cards_in(events) and not cards_in(events) & hidden
        assert not cards_in(published) & hidden and not cards_in(reply.data) & hidden
        assert set(store.get(referee.code, "record")["questions"]) == {"sealed", "token"}
        again = Referee.resume(store, referee.code, referee.host_secret, SessionHost)  # the teacher reloads
        assert again.question is not None and again.question.words == TYPED
        assert again.question.game.to_dict() == deal.game.to_dict()

    in_thread(scene)


def test_T7_a_composed_moment_is_refused_while_a_poll_is_open():
    def scene() -> None:
        session, _referee, _ann = a_host(MemoryStore())
        assert session.ask()
        assert not session.open_composed(dozen())
        refusal = session.notice.refusal
        assert (refusal.rule, refusal.key) == ("T7", "table.poll_open") and session.question is None
        assert session.notice.words(T).startswith("Rule T7")

    in_thread(scene)


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ({"face_up": ["", "QH", ""]}, "S3"),  # the turn-up face up twice
        ({"face_up": ["", "", "2C"]}, "P3"),  # seat 1 is due first, not seat 2
        ({"turn_up": "AH"}, "S5"),  # an Ace turned up ends the deal at once
    ],
)
def test_a_composed_moment_the_rules_cannot_reach_is_refused_by_the_session_naming_the_rule(fields, rule):
    """The session checks, whatever the page checked before (never only the page)."""
    moment = build(ComposerForm(players=3, **{"turn_up": "QH", **fields}))  # the editor's fields, unchecked

    def scene() -> None:
        session, referee, _ann = a_host(MemoryStore())
        version = referee.version
        assert not session.open_composed(MomentEntry(moment, "", "What would you pay?"))
        assert session.notice.refusal.rule == rule and f"Rule {rule}" in session.notice.words(T)
        assert session.question is None and referee.questions == [] and referee.version == version

    in_thread(scene)


def test_T9_T11_only_a_moment_entry_and_a_question_within_the_limit_are_asked():
    def scene() -> None:
        session, referee, _ann = a_host(MemoryStore())
        assert not session.open_composed({"moment": dozen().moment.to_dict()})  # what a page might send
        assert session.notice.refusal.rule == "T9" and session.question is None
        with pytest.raises(TableRefusal) as info:
            referee.open_question(dozen().moment, "", None, words="x" * (MAX_QUESTION + 1))
        assert (info.value.rule, info.value.key) == ("T11", "table.question_long") and referee.question is None

    in_thread(scene)


def test_T3_a_student_cannot_open_a_question_deal():
    def scene() -> None:
        session, referee, ann = a_host(MemoryStore())
        for kind in ("question", "open_question", "ask"):
            refused = ask(ann, referee, kind, moment=dozen().moment.to_dict(), words=TYPED)
            assert (refused.ok, refused.rule, refused.key) == (False, "T3", "table.bad_request")
        assert session.question is None and referee.polls == []

    in_thread(scene)


def page_text(page: MemberApp) -> str:
    """Everything a student's page holds (every widget's state), as one text."""
    found: list[str] = []

    def walk(w: widgets.Widget) -> None:
        found.append(json.dumps(w.get_state(), default=repr))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(page.widget)
    return "\n".join(found)


def test_issue25_while_the_table_is_open_the_apps_editor_asks_the_class_about_the_moment_composed():
    """The app's "Set up a moment" goes to the table while it is open (the button says so): the
    teacher's question on the projector, escaped; a student's page shows the public view only;
    asking again while the poll is open is refused in the editor with T7; closing the table gives
    the editor back."""
    room = Class(players=4)
    try:
        app, panel, referee = room.app, room.panel, room.referee
        bea = room.join("Bea", None)
        app.composing.toggle(True)
        editor = app.composing.panel
        assert editor.ui.open.description == T("button.compose.ask")
        before = app.controller.session.to_json()
        editor.open_entry("bank:dozen")
        editor.ui.ask.value = TYPED
        editor.ui.open.click()
        deal = referee.question
        assert deal is not None and (deal.question, deal.words) == ("", TYPED) and editor.error is None
        assert "Lady Bertram" in deal.names and editor.message() == T("status.compose.asked")
        assert app.controller.session.to_json() == before  # the app's deal stays where it was
        shown = panel.ui.question_table.value
        assert esc(TYPED) in shown and TYPED not in shown and esc(T("class.host.question_shown")) in shown
        room.serve()
        seen = page_text(bea)
        turn_up = deal.game.turn_up  # the student's page shows the question deal's table
        assert "Lady Bertram" in seen and T.card_name(turn_up) in seen
        for card in hidden_cards(deal.game):  # and no face-down card of it, by name or as drawn
            assert T.card_name(card) not in seen and str(card) not in seen, card
        panel.ui.ask.click()
        assert referee.poll is not None and referee.poll.question_deal == deal.id
        room.serve()  # the student reads the teacher's question, escaped, where the poll is announced
        poll = bea.ui.member_poll_question.value
        assert 'role="status"' in poll and esc(TYPED) in poll and TYPED not in poll
        assert T("class.member.poll_question") not in poll
        editor.ui.open.click()  # one question at a time: refused where it arrives, said in the editor
        assert editor.error is not None and (editor.error.rule, editor.error.key) == ("T7", "table.poll_open")
        assert "Rule T7" in editor.ui.message.value and referee.question is deal
        panel.ui.close_poll.click()
        panel.ui.question_end.click()
        panel.session.close_table()
        assert editor.taker is None and editor.ui.open.description == T("button.compose.open")
    finally:
        room.close()


WORDS = '<script>alert(1)</script><img src=x onerror="alert(2)"> مريم: ما الثمن؟'  # typed: any script


def test_issue25_the_published_question_deal_carries_its_question_and_no_face_down_card():
    """The class reads the question asked: a bank moment's id (each page words it in its language)
    or the teacher's words as typed; the session's moments have no question field (older members
    read them as before); nothing else of the question deal is published: no face-down card, in
    the moment nor in the events stream."""
    store, _session, referee, ann = a_table()
    assert "question" not in store.get(referee.code, "moment")
    q = bank.question("dozen")
    referee.open_question(q.to_moment(), q.id)
    assert store.get(referee.code, "moment")["question"] == {"bank": "dozen", "words": ""}
    assert ann.latest().question == QuestionView("dozen", "")
    referee.end_question()
    assert "question" not in store.get(referee.code, "moment") and ann.latest().question is None
    since = max(n for n, _event in store.read(referee.code, "events", 0))
    deal = referee.open_question(dozen().moment, "", None, words=WORDS)
    referee.ask()
    record = store.get(referee.code, "moment")
    assert record["question"] == {"bank": "", "words": WORDS} and record["poll"]["open"]
    assert ann.latest().question == QuestionView("", WORDS)
    hidden = hidden_cards(deal.game)
    assert hidden and not cards_in(record) & hidden
    events = store.read(referee.code, "events", since)
    assert events and all(not cards_in(event) & hidden for _n, event in events)
    referee.close_poll()
    with pytest.raises(TableRefusal) as info:  # a bank id the bank lacks is never published
        referee.open_question(dozen().moment, "no such question")
    assert info.value.rule == "T9"


def test_issue25_the_poll_of_a_question_deal_names_its_seats_on_the_projector_in_the_csv_and_the_handout():
    """The revealed poll of a question deal names the question's seats (the chapter's cast at the
    bank's table), never the session's names padded with numbers, also once the teacher went back
    to the deal; in the CSV a student answers from no seat of it (nobody of the class sits at a
    question's table): no seat, no break-even of a seat with the same number; the handout names its
    seats as the projector does."""
    room = Class(players=3)
    try:
        panel, referee = room.panel, room.referee
        ann = room.join("Ann", 0)  # seated at the session's table, seat 1
        panel.ui.question_open.click()  # the bank's dozen for the queen: six seats
        deal = referee.question
        assert deal is not None and len(deal.seat_names) == 6 and "Lady Bertram" in deal.seat_names
        panel.ui.ask.click()
        room.serve()
        ann.ui.member_poll_price.value = 12
        ann.ui.member_poll_answer.click()
        room.serve()
        panel.ui.close_poll.click()
        panel.ui.reveal_poll.click()
        poll = referee.poll
        assert poll is not None and poll.answers and poll.seats == {}
        session_names = room.c.table_names
        for shown in (panel.ui.poll.value, None):
            if shown is None:  # back to the deal: the revealed poll still names the question's seats
                panel.ui.question_end.click()
                shown = panel.ui.poll.value
            words = html.unescape(shown)
            for seat, name in enumerate(deal.seat_names):
                if seat in poll.break_even:
                    assert f"{name}'s break-even" in words
            assert not [n for n in session_names if f"{n}'s break-even" in words]
            assert "3's" not in words and "5's" not in words
        rows = list(csv.reader(io.StringIO(answers_csv(referee.export(), T, named=True))))
        row = dict(zip(COLUMNS, rows[1], strict=True))
        assert row["student"] == "Ann" and (row["seat"], row["break_even"], row["break_even_rounded"]) == ("", "", "")
        panel.ui.question_open.click()
        page = panel.session.handout(T).text
        assert referee.question is not None and all(html.escape(n) in page for n in referee.question.seat_names)
    finally:
        room.close()


def test_T7_a_question_polls_answers_carry_no_seat_of_the_session():
    poll = Poll.at(1, compose(bank.question("dozen").to_moment(), 1), 0)
    poll.question_deal = 1
    poll.answer("m1", 5, seat=2)
    assert poll.seats == {} and poll.answers == {"m1": 5}


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_issue25_a_question_deals_poll_is_titled_as_a_question_not_deal_0_step_0(lang: str) -> None:
    t = translator(lang)
    poll = QuestionDeal.of(2, bank.question("dozen").to_moment(), "dozen", seed=1).poll(3)
    for state, key in (("open", "open"), ("locked", "locked"), ("revealed", "revealed")):
        if state == "locked":
            poll.close()
        elif state == "revealed":
            poll.reveal()
        shown = html.unescape(poll_html(poll, [], t))
        assert t(f"class.host.poll.question_{key}", n=t.number(2)) in shown
        assert t(f"class.host.poll.title_{key}", deal=0, step=poll.step) not in shown
    assert translator("en")("class.host.poll.question_revealed", n=2) == "Question 2: the answers"
