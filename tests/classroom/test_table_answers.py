"""T7, T10: the answers taken home: one CSV row per answer, with the moment's exact prices."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from fractions import Fraction

import pytest

from speculation_nb import Rules, Session, odds, players
from speculation_nb.classroom import Member, MemoryStore, Referee, SessionHost
from speculation_nb.classroom.answers import COLUMNS, answers_csv, answers_name, text_cell
from speculation_nb.engine import bank
from speculation_nb.engine.compose import Moment
from speculation_nb.languages.translator import translator
from speculation_nb.links.composed import read_composed
from speculation_nb.links.query import query_params
from speculation_nb.odds import shown_chips

T = translator("en")


def ask(who: Member, referee: Referee, kind: str, **fields):
    token = who.post(kind, **fields)
    referee.handle_pending()
    return who.reply(token)


def a_lesson():
    """A table of 3 seats: Ann and Ben seated (Ben at the holder's seat), Cy watching; two polls,
    the first answered by all three (Ann twice), locked and revealed; the deal then played out."""
    session = next(s for s in (Session(Rules(players=3), seed=x) for x in range(1, 80)) if not s.game.over)
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(session))
    game = session.game
    holder = game.holder
    other = (holder + 1) % 3
    members = {}
    for name, seat in (("Ann", other), ("Ben", holder), ("Cy", None)):
        m = Member(store, referee.code)
        assert ask(m, referee, "join", name=name, seat=seat).ok
        members[name] = m
    first = referee.ask()
    at = game.at(len(game.history))
    for name, price in (("Ann", 3), ("Ben", 7), ("Cy", 10**9), ("Ann", 5)):
        assert ask(members[name], referee, "answer", poll=first.id, price=price).ok
    referee.close_poll()
    assert not ask(members["Cy"], referee, "answer", poll=first.id, price=1).ok
    referee.reveal_poll()
    second = referee.ask()
    assert ask(members["Cy"], referee, "answer", poll=second.id, price=2).ok
    referee.close_poll()
    players.play(game, players.table_strategies(3), rounds=10)
    referee.publish()
    return referee, at, members, (holder, other)


def rows_of(text: str) -> list[dict[str, str]]:
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == [T(f"class.poll.csv.{c}") for c in COLUMNS]
    return [dict(zip(COLUMNS, r, strict=True)) for r in table[1:]]


def test_T7_the_csv_has_one_row_per_answer_with_the_exact_and_rounded_prices():
    referee, at, _members, (holder, other) = a_lesson()
    export = referee.export()
    rows = rows_of(answers_csv(export, T, named=True, poll=1))
    assert [(r["student"], r["answer"]) for r in rows] == [("Ann", "5"), ("Ben", "7"), ("Cy", str(10**9))]
    fair = odds.fair_price(at)
    for r in rows:
        assert (r["poll"], r["deal"], r["step"]) == ("1", "1", str(len(at.history)))
        assert r["question"] == T("class.member.poll_question")
        assert Fraction(r["fair"]) == fair and r["fair"] == str(fair)
        assert r["fair_rounded"] == str(shown_chips(fair))
        datetime.fromisoformat(r["time"])  # an ISO time
    ann, ben, cy = rows
    spread = odds.break_even(at, other)  # the answering seat's own break-even
    assert (ann["seat"], ann["break_even"], ann["break_even_rounded"]) == (
        str(other + 1),
        str(spread),
        str(shown_chips(spread)),
    )
    assert (ben["seat"], ben["break_even"]) == (str(holder + 1), "")  # the holder has none
    assert (cy["seat"], cy["break_even"], cy["break_even_rounded"]) == ("", "", "")  # a spectator neither
    game = referee.host.session.game
    assert game.over
    worth = referee.polls[0].worth
    assert worth is not None and all(r["worth"] == str(worth) for r in rows)


def test_T7_the_csv_is_anonymous_unless_names_are_chosen_and_covers_the_whole_lesson():
    referee, _at, _members, _seats = a_lesson()
    export = referee.export()
    text = answers_csv(export, T)
    assert "Ann" not in text and "Ben" not in text and "Cy," not in text
    rows = rows_of(text)
    assert [(r["poll"], r["student"]) for r in rows] == [
        ("1", T("class.poll.anonymous", n=1)),
        ("1", T("class.poll.anonymous", n=2)),
        ("1", T("class.poll.anonymous", n=3)),
        ("2", T("class.poll.anonymous", n=3)),  # the same id in every poll of the table
    ]
    assert answers_name("ABCDE", 2) == "speculation-table-ABCDE-answers-poll-2.csv"
    assert rows_of(export["answers_csv"])[0]["student"] == "Ann"  # the export has it too, named


def test_T7_the_moment_link_reopens_the_moment_asked_about():
    referee, at, _members, _seats = a_lesson()
    row = rows_of(answers_csv(referee.export(), T, poll=1, base="https://class.example/app"))[0]
    base, _, query = row["moment"].partition("?")
    assert base == "https://class.example/app"
    params = query_params(query)
    assert "seed" not in params and "moves" not in params  # the public view only: no hidden card
    entry = read_composed(params)
    assert entry is not None and entry.moment == Moment.of(at)


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_T7_the_csv_header_is_worded_in_every_language(lang):
    t = translator(lang)
    header = next(csv.reader(io.StringIO(answers_csv({"polls": [], "members": []}, t))))
    assert len(header) == len(COLUMNS) and not any(h.startswith("class.") for h in header)


FORMULA = '=HYPERLINK("http://x","y")'  # a name a spreadsheet would run as a formula
JOINED = '=HYPERLINK("http://x")'  # the same within a name's 24 characters (T2)


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        (FORMULA, "'" + FORMULA),
        ("+1", "'+1"),
        ("-3 chips?", "'-3 chips?"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ann", "Ann"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_T7_a_text_cell_never_starts_a_formula(typed, written):
    assert text_cell(typed) == written


def test_T7_typed_text_is_written_as_text_and_the_numbers_stay_numbers():
    """OWASP's CSV injection: a student's name ``=HYPERLINK(...)`` and a teacher's question
    beginning with ``-`` get a ``'`` in front; the columns of numbers (answers, exact prices, a
    negative break-even or fair price) are written as they are."""
    session = next(s for s in (Session(Rules(players=4), seed=x) for x in range(1, 80)) if not s.game.over)
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(session))
    evil, ann = Member(store, referee.code), Member(store, referee.code)
    assert ask(evil, referee, "join", name=JOINED, seat=None).ok
    assert ask(ann, referee, "join", name="Ann", seat=None).ok
    words = "-3 chips or more: what would you pay for the queen?"
    referee.open_question(bank.question("dozen").to_moment(), "", None, words=words)
    poll = referee.ask()
    assert ask(evil, referee, "answer", poll=poll.id, price=7).ok
    assert ask(ann, referee, "answer", poll=poll.id, price=0).ok
    referee.close_poll()
    export = referee.export()
    first, second = rows_of(answers_csv(export, T, named=True))
    assert (first["student"], first["question"]) == ("'" + JOINED, "'" + words)
    assert (second["student"], second["question"]) == ("Ann", "'" + words)
    assert (first["answer"], second["answer"]) == ("7", "0")
    assert Fraction(first["fair"]) == poll.fair and first["fair_rounded"] == str(shown_chips(poll.fair))
    member = next(m for m in export["members"] if m["name"] == JOINED)
    member["name"], member = FORMULA, member["id"]  # (a saved export's name, beyond T2's limit)
    export["polls"][0] |= {"fair": "-3/4", "worth": -2}
    # (a poll of the session's deal: a seat's break-even, here negative; nobody sits at a question's table)
    export["polls"].append(
        export["polls"][0] | {"id": 2, "question_deal": 0, "break_even": {"1": "-5/2"}, "seats": {member: 1}}
    )
    assert rows_of(answers_csv(export, T, named=True, poll=1))[0]["break_even"] == ""
    first = rows_of(answers_csv(export, T, named=True, poll=2))[0]
    assert (first["fair"], first["break_even"], first["worth"], first["seat"]) == ("-3/4", "-5/2", "-2", "2")
    assert first["student"] == "'" + FORMULA
    assert first["fair_rounded"] == str(shown_chips(Fraction(-3, 4)))
    assert first["break_even_rounded"] == str(shown_chips(Fraction(-5, 2)))
    assert (
        answers_csv(export, T, named=True, poll=1).count("'") == 3
    )  # only the typed cells: a name, the question twice
