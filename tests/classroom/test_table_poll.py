"""T7, "What would you pay?": polls of the whole class (docs/TABLE.md)."""

from __future__ import annotations

import json
import random
import statistics
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speculation_nb import Rules, Session, odds, players
from speculation_nb.classroom import MAX_PRICE, Member, MemoryStore, Poll, Referee, SessionHost, TableRefusal


def fresh(seed: int, n: int = 4) -> Session:
    return next(s for s in (Session(Rules(players=n), seed=x) for x in range(seed, seed + 60)) if not s.game.over)


def ask(who: Member, referee: Referee, kind: str, **fields):
    token = who.post(kind, **fields)
    referee.handle_pending()
    return who.reply(token)


def join(store, referee, name, seat=None) -> Member:
    m = Member(store, referee.code)
    assert ask(m, referee, "join", name=name, seat=seat).ok
    return m


def poll_of(answers: list[int], fair: Fraction = Fraction(36, 7)) -> Poll:
    poll = Poll(1, deal=1, step=0, fair=fair, break_even={1: Fraction(5, 2)}, holder=0, best="QH")
    for i, price in enumerate(answers):
        poll.answer(f"m{i}", price)
    return poll


@given(st.lists(st.integers(0, 10**6), max_size=60))
def test_T7_the_median_is_exact(prices):
    median = poll_of(prices).median()
    if not prices:
        assert median is None
    else:
        assert isinstance(median, Fraction) and median == Fraction(statistics.median(prices))


@given(st.lists(st.integers(0, MAX_PRICE), max_size=80), st.integers(1, 20), st.fractions(0, 600))
def test_T7_the_histogram_counts_every_answer_once_in_contiguous_bins_of_one_width(prices, bins, fair):
    binned = poll_of(prices, fair).bins(bins)
    rows = list(binned.rows)
    regular = rows[:-1] if binned.overflow else rows
    assert 1 <= len(regular) <= bins and sum(c for _, _, c in rows) == len(prices)
    assert all(rows[i][1] + 1 == rows[i + 1][0] for i in range(len(rows) - 1))
    assert len({hi - lo + 1 for lo, hi, _ in regular}) == 1
    for price in prices:  # each answer in exactly one range, counted there
        assert sum(1 for lo, hi, _ in rows if lo <= price <= hi) == 1
    for lo, hi, count in rows:
        assert count == sum(1 for p in prices if lo <= p <= hi)
    if binned.overflow:
        assert rows[-1][1] == max(prices) and rows[-1][2] >= 1
    if prices and not binned.overflow:
        assert rows[-1][1] >= max(prices)


@given(st.lists(st.integers(0, 1000), min_size=3, max_size=60), st.integers(2, 12), st.fractions(0, 1000))
def test_T7_one_far_answer_does_not_squeeze_the_others_into_one_bin(prices, bins, fair):
    """An answer of 10**9 goes to the overflow range "more than X"; the others keep ranges
    as narrow as their own spread (and the fair price) gives, as without it."""
    binned = poll_of([*prices, MAX_PRICE], fair).bins(bins)
    assert binned.overflow and binned.rows[-1][1] == MAX_PRICE
    regular = binned.rows[:-1]
    width = regular[0][1] - regular[0][0] + 1
    near = [p for p in prices if p <= regular[-1][1]]
    span = max([*near, int(fair) + 1]) - min([*near, int(fair)]) + 1
    assert width <= max(1, -(-span // bins))
    if max(near) - min(near) >= width:  # the bulk's extremes, a range apart, are never in one range
        lowest, highest = min(near), max(near)
        assert not any(lo <= lowest and highest <= hi for lo, hi, _ in regular)
    assert sum(c for _, _, c in binned.rows) == len(prices) + 1


def test_T7_the_bins_of_a_small_class_are_single_chips_and_the_far_answer_is_more_than():
    assert poll_of([2, 3, 3, 4, 5, 10**9], Fraction(4)).bins(8).rows == (
        (2, 2, 1),
        (3, 3, 2),
        (4, 4, 1),
        (5, 5, 1),
        (6, 10**9, 1),
    )
    assert poll_of([], Fraction(7)).histogram(8)[-1] == (7, 7, 0)


def test_T7_the_last_answer_counts_and_prices_are_whole_chips():
    poll = poll_of([3, 9])
    poll.answer("m0", 12)
    assert poll.answers == {"m0": 12, "m1": 9} and poll.median() == Fraction(21, 2)
    for bad in (-1, MAX_PRICE + 1, 2.5, "7", True, None):
        with pytest.raises(TableRefusal) as info:
            poll.answer("m2", bad)
        assert (info.value.rule, info.value.key) == ("T7", "table.bad_price")
    poll.close()
    assert poll.state == "locked"
    with pytest.raises(TableRefusal) as info:
        poll.answer("m0", 1)
    assert (info.value.rule, info.value.key) == ("T7", "table.poll_locked")
    assert poll.answers == {"m0": 12, "m1": 9}
    poll.reveal()
    assert poll.state == "revealed" and set(poll.times) == {"m0", "m1"}
    assert Poll.from_dict(poll.to_dict()) == poll
    with pytest.raises(ValueError, match="not a valid poll"):
        Poll.from_dict({**poll.to_dict(), "fair": "x"})


def test_T7_a_class_answers_the_poll_and_it_keeps_the_moments_exact_prices():
    store = MemoryStore()
    session = fresh(3)
    game = session.game
    game.reveal()
    referee = Referee.open(store, SessionHost(session))
    members = [join(store, referee, f"Student {i}", seat=i if i < 4 else None) for i in range(30)]
    poll = referee.ask()
    assert poll.fair == odds.fair_price(game) and poll.holder == game.holder
    assert poll.break_even == {s: odds.break_even(game, s) for s in range(4) if s != game.holder}
    rng = random.Random(7)
    last = {}
    for m in members + members[:5]:  # five change their minds: the last answer counts
        price = rng.randrange(0, 40)
        reply = ask(m, referee, "answer", poll=poll.id, price=price)
        assert reply.ok
        last[m.member] = price
    assert poll.answers == last
    assert poll.median() == Fraction(statistics.median(last.values()))
    assert sum(c for _, _, c in poll.histogram(8)) == 30
    moment = members[0].latest()
    assert moment.poll is not None and (moment.poll.id, moment.poll.open, moment.poll.answers) == (1, True, 30)
    events = [r for _, r in store.read(referee.code, "events") if r["kind"] == "poll"]
    assert events[-1]["poll"] == {"id": 1, "open": True, "answers": 30, "state": "open"}
    with pytest.raises(TableRefusal) as info:
        referee.ask()
    assert (info.value.rule, info.value.key) == ("T7", "table.poll_open")
    assert ask(members[0], referee, "answer", poll=99, price=1).key == "table.poll_closed"
    assert ask(members[0], referee, "answer", poll=poll.id, price=-3).key == "table.bad_price"
    referee.close_poll()  # time is up: the referee refuses later answers, in words (T7)
    late = ask(members[0], referee, "answer", poll=poll.id, price=3)
    assert (late.ok, late.rule, late.key) == (False, "T7", "table.poll_locked")
    assert poll.answers == last and poll.state == "locked"
    assert members[0].latest().poll.state == "locked"
    with pytest.raises(TableRefusal):
        referee.close_poll()
    referee.reveal_poll()
    assert poll.state == "revealed" and members[0].latest().poll.state == "revealed"
    assert ask(members[0], referee, "answer", poll=poll.id, price=3).key == "table.poll_locked"
    with pytest.raises(TableRefusal):
        referee.reveal_poll()
    # What the class reads (the moment, the events) never holds an answer or a spectator's name.
    readable = json.dumps([store.get(referee.code, "moment"), store.read(referee.code, "events")])
    assert "Student 29" not in readable and '"times"' not in readable
    assert Poll.from_dict(poll.to_dict()) == poll


def test_T7_the_teacher_may_reveal_an_open_poll_at_once_which_locks_it():
    store = MemoryStore()
    referee = Referee.open(store, SessionHost(fresh(5)))
    member = join(store, referee, "Ann")
    poll = referee.ask()
    assert ask(member, referee, "answer", poll=poll.id, price=4).ok
    referee.reveal_poll()
    assert poll.state == "revealed" and not ask(member, referee, "answer", poll=poll.id, price=5).ok
    assert poll.answers == {member.member: 4}


def test_T7_once_the_deal_ends_the_poll_knows_what_the_best_trump_was_worth():
    outcomes = set()
    for seed in range(1, 40):
        store = MemoryStore()
        session = fresh(seed, 3)
        game = session.game
        referee = Referee.open(store, SessionHost(session))
        poll = referee.ask()
        best = game.best_trump
        referee.close_poll()
        players.play(game, players.table_strategies(3), rounds=10)
        assert poll.worth is None
        referee.publish()
        held = game.best_trump == best and game.winner is not None
        assert poll.worth == (odds.pot_played_for(game) if held else 0)
        outcomes.add(held)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}  # both cases were seen
