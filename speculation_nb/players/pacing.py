"""When the computer players act: one action at a time, at a pace a person can follow.

:func:`~speculation_nb.players.next_move` decides *what* a computer player does; this module
decides *when*. A :class:`Pacer` plays the computer seats of one table (the app's model owns one):

* at the ``"instant"`` pace (a delay of 0) every pending action happens at once, inside the call
  that made them due (a script, a test, a person's click where no event loop runs);
* otherwise one action every :func:`delay_of` seconds, each on a timer of the clock (the running
  event loop's ``call_later``): the kernel keeps answering the page meanwhile, and each action is
  announced (``announce``) with its reason in words; :attr:`Pacer.acting` is True while some are
  still to come;
* :meth:`Pacer.hurry` plays the pending ones at once (a person acts: their action comes after),
  :meth:`Pacer.stop` drops them (looking back at an earlier moment, a new deal, the app closing).

At a shared table the computer seats also turn up their own cards when they are due
(``self_revealing``), since nobody clicks for them.

Nothing here draws or imports a widget: the pacer is given callables to read the table and to
apply a move, and a clock (:class:`Clock`), so that tests drive time by hand (no sleeping).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Hashable, Mapping
from typing import Protocol

from ..engine.actions import Action
from ..engine.game import Game
from .loop import Move, next_move
from .protocol import Strategy

__all__ = ["PACES", "PACE_CHOICES", "Clock", "Pacer", "Timer", "delay_of", "running_loop"]

log = logging.getLogger("speculation_nb.players.pacing")

#: Seconds between two actions of the computer players, by pace. ``"auto"``: ``"normal"`` in a
#: Jupyter kernel (Voila, JupyterLab, the static site), else ``"instant"`` (scripts and tests);
#: the environment variable ``SPECULATION_PACE`` overrides ``"auto"``.
PACES = {"slow": 2.5, "normal": 1.2, "instant": 0.0}
PACE_CHOICES = ("auto", *PACES)
#: The most actions the computers take at once at the instant pace, per player (a safety net:
#: a deal ends long before).
ACTIONS_PER_PLAYER = 50


class Timer(Protocol):
    """A pending call of a :class:`Clock` (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What calls the pacer back later: the running event loop, or a test's hand-driven clock."""

    def call_later(self, delay: float, callback: Callable[[], None], /) -> Timer: ...


def running_loop() -> Clock | None:
    """The event loop running in this thread (a kernel's), or None (then the pace is instant)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def delay_of(pace: str, in_kernel: Callable[[], bool]) -> float:
    """Seconds between two computer actions at ``pace`` (one of :data:`PACE_CHOICES`): ``"auto"``
    is the environment's ``SPECULATION_PACE`` when it names a pace, else ``"normal"`` when
    ``in_kernel()`` (a Jupyter kernel serves the timers), else ``"instant"``."""
    if pace == "auto":
        pace = os.environ.get("SPECULATION_PACE", "").strip().lower()
        if pace not in PACES:
            pace = "normal" if in_kernel() else "instant"
    return PACES[pace]


class Pacer:
    """Plays the computer seats of one table, one action at a time (see the module docstring).

    ``game``, ``strategies``: the live deal and a strategy for every computer seat, read at each
    step (they change with the session and the seating). ``delay``: the seconds between two
    actions, read at each step (the pace may change meanwhile; see :func:`delay_of`).
    ``may_act``: whether the computers may act now (some seat is a computer's and the live moment
    is shown). ``self_revealing``: the computer seats that turn up their own cards (a shared
    table's). ``play``: applies one move to the game and returns it in words. ``announce``: after
    a timer, tells the page (the words and ``"auto"``; ``""`` and ``"info"`` when no action came;
    ``""`` and ``"error"`` when the action failed, which is logged: the page says so in its own
    words). ``on_acting``: told whether :attr:`acting`, whenever that may have changed.
    ``clock``: gives the clock to pace on, or None where none runs (default: the running loop).
    """

    def __init__(
        self,
        game: Callable[[], Game],
        strategies: Callable[[], Mapping[int, Strategy]],
        *,
        delay: Callable[[], float],
        may_act: Callable[[], bool],
        self_revealing: Callable[[], frozenset[int]],
        play: Callable[[Move], str],
        announce: Callable[[str, str], None],
        on_acting: Callable[[bool], None],
        clock: Callable[[], Clock | None] = running_loop,
    ) -> None:
        self._game = game
        self._strategies = strategies
        self._delay = delay
        self._may_act = may_act
        self._self_revealing = self_revealing
        self._play = play
        self._announce = announce
        self._on_acting = on_acting
        self._clock = clock
        self._timer: Timer | None = None
        #: Whom the loop has asked already whether to open an auction (see ``next_move``).
        self.asked: set[Hashable] = set()

    @property
    def acting(self) -> bool:
        """True while an action is waiting for its timer."""
        return self._timer is not None

    def forget(self) -> None:
        """A new deal or session: drop what is pending and whom the loop has asked."""
        self.stop()
        self.asked.clear()

    def next_move(self) -> Move | None:
        """The computers' next action now (marking the holder asked, as ``next_move`` does), or
        None when none acts: a person's turn, the deal over, or no computer may act."""
        if not self._may_act() or self._game().over:
            return None
        return self._move(self.asked)

    def peek(self) -> Move | None:
        """The computers' next action, without marking anyone asked."""
        return self._move(set(self.asked))

    def _move(self, asked: set[Hashable]) -> Move | None:
        game = self._game()
        move = next_move(game, self._strategies(), asked)
        due = game.turn
        if move is None and due in self._self_revealing() and game.can_reveal():
            # Nobody turns up a computer seat's card at a shared table: it turns it up itself.
            return Move(Action.make("reveal", seat=due), "class.host.computer_reveals", {"seat": due})
        return move

    def start(self, instant: bool = False) -> None:
        """Let the computers act: every pending action now when ``instant``, at a delay of 0 or
        where no clock runs; else the first one after the delay (and each next one as long after
        the one before). Nothing happens while an action already waits for its timer, or when the
        computers may not act."""
        if not self._may_act() or self._timer is not None:
            return
        delay = 0.0 if instant else self._delay()
        clock = self._clock() if delay > 0 else None
        if clock is None:
            for _ in range(ACTIONS_PER_PLAYER * self._game().rules.players):
                move = self.next_move()
                if move is None:
                    break
                self._play(move)
            return
        if self.peek() is None:
            return
        self._timer = clock.call_later(delay, self._tick)
        self._on_acting(True)

    def hurry(self) -> None:
        """A person is about to act: the pending actions happen now, before theirs."""
        if self._timer is not None:
            self.stop()
            self.start(instant=True)

    def stop(self) -> None:
        """Drop the pending actions (they come again at the next :meth:`start`)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._on_acting(False)

    def _tick(self) -> None:
        self._timer = None
        try:
            move = self.next_move()
            if move is None:
                self._on_acting(False)
                self._announce("", "info")
                return
            said = self._play(move)
            self.start()
            self._on_acting(self._timer is not None)
            self._announce(said, "auto")
        except Exception:  # the page shows a line; a computer player never breaks it
            log.exception("speculation_nb: a computer player's action failed")
            self._on_acting(False)
            self._announce("", "error")
