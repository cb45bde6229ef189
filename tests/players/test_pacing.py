"""When computer players act (speculation_nb.players.pacing): all at once at the instant pace, one
action per tick of a clock otherwise, hurried by a person's action, stopped by looking back. The
clock here is driven by hand: no widget, no event loop, no sleeping."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from speculation_nb import Game, Rules
from speculation_nb.players import Move, Strategy, table_strategies
from speculation_nb.players.pacing import PACES, Pacer, delay_of


class HandClock:
    """A clock whose timers fire only when the test calls :meth:`tick`."""

    def __init__(self) -> None:
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def call_later(self, delay: float, callback: Callable[[], None], /) -> HandClock.Handle:
        self.timers.append((delay, callback))
        return HandClock.Handle(self, callback)

    class Handle:
        def __init__(self, clock: HandClock, callback: Callable[[], None]) -> None:
            self.clock, self.callback = clock, callback

        def cancel(self) -> None:
            self.clock.timers = [t for t in self.clock.timers if t[1] is not self.callback]

    def tick(self) -> None:
        _delay, callback = self.timers.pop(0)
        callback()


class Table:
    """What the app's model gives its pacer, as plain attributes: a deal, every seat a computer
    that turns up its own cards (as at a shared table), a log of what the page is told."""

    def __init__(self, seed: int = 3, players: int = 4, delay: float = 1.2) -> None:
        self.game = Game.deal(Rules(players=players), seed=seed)
        assert not self.game.over  # (some deals end at once, by S5)
        self.strategies: Mapping[int, Strategy] = table_strategies(players, "mixed", [])
        self.delay = delay
        self.may_act = True
        self.clock: HandClock | None = HandClock()
        self.announced: list[tuple[str, str]] = []
        self.acting: list[bool] = []
        self.fail = False
        self.pacer = Pacer(
            lambda: self.game,
            lambda: self.strategies,
            delay=lambda: self.delay,
            may_act=lambda: self.may_act,
            self_revealing=lambda: frozenset(range(players)),
            play=self.play,
            announce=lambda said, kind: self.announced.append((said, kind)),
            on_acting=self.acting.append,
            clock=lambda: self.clock,
        )

    def play(self, move: Move) -> str:
        if self.fail:
            raise RuntimeError("a strategy broke")
        self.game.apply(move.action)
        return f"{move.reason} {dict(move.action.args)}"


def a_whole_deal_at_once(seed: int) -> list:
    table = Table(seed)
    table.pacer.start(instant=True)
    assert table.game.over
    return table.game.history


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_at_the_instant_pace_every_pending_action_happens_inside_the_call(seed):
    table = Table(seed)
    table.pacer.start(instant=True)
    assert table.game.over  # every seat a computer that turns up its own cards: the deal ends
    assert not table.pacer.acting and table.clock is not None and not table.clock.timers
    assert table.announced == []  # the caller tells the page once, after the call


def test_at_a_pace_one_action_happens_per_tick_each_announced():
    table = Table(seed=3, delay=PACES["slow"])
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    assert table.game.history == [] and table.pacer.acting and table.acting == [True]
    assert [delay for delay, _ in clock.timers] == [PACES["slow"]]
    while clock.timers:
        before = len(table.game.history)
        clock.tick()
        assert len(table.game.history) == before + 1  # one action per tick
        said, kind = table.announced[-1]
        assert kind == "auto" and said.startswith(("reason.", "class.host.computer_reveals"))
        assert len(clock.timers) <= 1  # never two pending at once
        assert table.pacer.acting == bool(clock.timers) == table.acting[-1]
    assert table.game.over and not table.pacer.acting
    assert table.game.history == a_whole_deal_at_once(3)  # the pace changes when, never what


def test_a_pace_changed_meanwhile_takes_effect_at_the_next_action():
    table = Table(seed=3, delay=PACES["slow"])
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    table.delay = PACES["normal"]
    clock.tick()
    assert [delay for delay, _ in clock.timers] == [PACES["normal"]]


def test_a_person_acting_first_lets_the_pending_actions_happen():
    table = Table(seed=8)
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    clock.tick()
    assert table.pacer.acting
    table.pacer.hurry()
    assert table.game.over and not clock.timers and not table.pacer.acting and table.acting[-1] is False
    assert table.game.history == a_whole_deal_at_once(8)


def test_stop_drops_the_pending_actions_and_start_takes_them_up_again():
    table = Table(seed=9)
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    clock.tick()
    done = len(table.game.history)
    table.pacer.stop()  # looking back at an earlier moment
    assert not clock.timers and not table.pacer.acting and table.acting[-1] is False
    assert len(table.game.history) == done
    table.may_act = False  # still looking back: nothing starts
    table.pacer.start()
    assert not clock.timers
    table.may_act = True
    table.pacer.start()
    while clock.timers:
        clock.tick()
    assert table.game.history == a_whole_deal_at_once(9)


def test_where_no_clock_runs_a_pace_cannot_wait():
    table = Table(seed=3, delay=PACES["normal"])
    table.clock = None  # a script or a test without an event loop
    table.pacer.start()
    assert table.game.over and not table.pacer.acting


def test_a_start_while_an_action_waits_adds_no_second_timer():
    table = Table(seed=3)
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    table.pacer.start()
    assert len(clock.timers) == 1


def test_a_failing_action_is_announced_as_an_error_and_stops_the_pacing(caplog):
    table = Table(seed=3)
    clock = table.clock
    assert clock is not None
    table.pacer.start()
    table.fail = True
    clock.tick()
    assert table.announced[-1] == ("", "error") and not table.pacer.acting and not clock.timers
    assert "a computer player's action failed" in caplog.text


def test_peek_does_not_mark_the_holder_asked_but_next_move_does():
    table = Table(seed=3)
    peeked = table.pacer.peek()
    assert peeked is not None and table.pacer.asked == set()
    assert table.pacer.next_move() == peeked
    table.pacer.forget()
    assert table.pacer.asked == set()


def test_nothing_moves_when_the_computers_may_not_act():
    table = Table(seed=3)
    table.may_act = False
    table.pacer.start(instant=True)
    assert table.game.history == [] and table.pacer.next_move() is None


def test_the_pace_in_seconds(monkeypatch):
    monkeypatch.delenv("SPECULATION_PACE", raising=False)
    assert delay_of("slow", lambda: False) == PACES["slow"]
    assert delay_of("instant", lambda: True) == 0.0
    assert delay_of("auto", lambda: True) == PACES["normal"]  # a kernel serves the timers
    assert delay_of("auto", lambda: False) == 0.0  # a script's loop may never serve them
    monkeypatch.setenv("SPECULATION_PACE", " Slow ")
    assert delay_of("auto", lambda: False) == PACES["slow"]
    assert delay_of("normal", lambda: False) == PACES["normal"]  # a pace asked for wins
    monkeypatch.setenv("SPECULATION_PACE", "warp")
    assert delay_of("auto", lambda: True) == PACES["normal"]
