"""Question deals at the shared table (issue 25): a composed moment polled outside the standings."""

from __future__ import annotations

import csv
import io

import pytest

from speculation_nb import Rules, Session, odds
from speculation_nb.classroom import Member, MemoryStore, Referee, SessionHost, TableRefusal
from speculation_nb.classroom.answers import COLUMNS, answers_csv
from speculation_nb.engine import bank
from speculation_nb.languages.translator import translator
from speculation_nb.links.composed import read_composed
from speculation_nb.links.query import query_params

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
