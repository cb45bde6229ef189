"""T7, "What would you pay?": polls of the whole class (docs/TABLE.md)."""

from __future__ import annotations

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


@given(st.lists(st.integers(0, 500), max_size=80), st.integers(1, 20), st.fractions(0, 600))
def test_T7_the_histogram_counts_every_answer_once_in_bins_of_one_width(prices, bins, fair):
    out = poll_of(prices, fair).histogram(bins)
    assert len(out) == bins and sum(c for _, _, c in out) == len(prices)
    assert out[0][0] == 0 and all(out[i][1] + 1 == out[i + 1][0] for i in range(bins - 1))
    widths = {hi - lo + 1 for lo, hi, _ in out[:-1]}
    assert len(widths) <= 1
    assert out[-1][1] >= max([*prices, fair.__ceil__()])
    for price in prices:
        assert sum(c for lo, hi, c in out if lo <= price <= hi) >= 1


def test_T7_the_last_answer_counts_and_prices_are_whole_chips():
    poll = poll_of([3, 9])
    poll.answer("m0", 12)
    assert poll.answers == {"m0": 12, "m1": 9} and poll.median() == Fraction(21, 2)
    for bad in (-1, MAX_PRICE + 1, 2.5, "7", True, None):
        with pytest.raises(TableRefusal) as info:
            poll.answer("m2", bad)
        assert (info.value.rule, info.value.key) == ("T7", "table.bad_price")
    poll.close()
    with pytest.raises(TableRefusal) as info:
        poll.answer("m0", 1)
    assert info.value.key == "table.poll_closed"
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
    assert events[-1]["poll"] == {"id": 1, "open": True, "answers": 30}
    with pytest.raises(TableRefusal) as info:
        referee.ask()
    assert (info.value.rule, info.value.key) == ("T7", "table.poll_open")
    assert ask(members[0], referee, "answer", poll=99, price=1).key == "table.poll_closed"
    assert ask(members[0], referee, "answer", poll=poll.id, price=-3).key == "table.bad_price"
    referee.close_poll()
    assert ask(members[0], referee, "answer", poll=poll.id, price=3).key == "table.no_poll"
    assert poll.answers == last and not poll.open
    with pytest.raises(TableRefusal):
        referee.close_poll()


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
