"""What a shared table's referee drives: the teacher's game (``docs/TABLE.md``).

:class:`Host` is the protocol: the app's controller implements it in
``speculation_nb.app.teacher.app_game``; :class:`SessionHost` implements it over a bare
:class:`~speculation_nb.Session` (tests, benchmarks, a notebook refereeing a table), its
computer seats played at once by the engine's one play loop
(:func:`speculation_nb.players.next_move`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Protocol, runtime_checkable

from .. import players
from ..engine.actions import Action
from ..engine.errors import IllegalAction
from ..engine.session import Session

__all__ = ["Host", "SessionHost"]


@runtime_checkable
class Host(Protocol):
    """The teacher's game as the referee sees it."""

    @property
    def session(self) -> Session:
        """The session played (its current deal is the live one)."""
        ...

    @property
    def moment(self) -> int:
        """The moment shown of the live deal (a number of actions)."""
        ...

    @property
    def live(self) -> bool:
        """True when the moment shown is now (not the replay)."""
        ...

    def act(self, seat: int | None, action: Action) -> None:
        """A person's action at now, for ``seat``; raises :class:`~speculation_nb.IllegalAction`
        (nothing changes then). The host redraws itself."""
        ...

    def set_computers(self, seats: frozenset[int]) -> None:
        """These seats are played by computer players from now on."""
        ...


class SessionHost:
    """A :class:`Host` over a bare session: the moment shown is now unless :meth:`go` looks back;
    computer seats (``strategies``, default :func:`~speculation_nb.players.table_strategies`)
    play at once after every change, reveals included, until a person must act."""

    def __init__(self, session: Session, strategies: Mapping[int, players.Strategy] | None = None) -> None:
        self._session = session
        n = session.rules.players
        self._strategies = dict(players.table_strategies(n) if strategies is None else strategies)
        self._computers: frozenset[int] = frozenset()
        self._asked: set[Hashable] = set()
        self._shown: int | None = None  # None: now

    @property
    def session(self) -> Session:
        return self._session

    @property
    def moment(self) -> int:
        now = len(self._session.game.history)
        return now if self._shown is None else min(self._shown, now)

    @property
    def live(self) -> bool:
        return self._shown is None or self._shown >= len(self._session.game.history)

    @property
    def computers(self) -> frozenset[int]:
        return self._computers

    def go(self, k: int | None) -> None:
        """Show moment ``k`` of the live deal (the replay); None: now."""
        self._shown = None if k is None or k >= len(self._session.game.history) else max(0, int(k))

    def act(self, seat: int | None, action: Action) -> None:
        if not self.live:
            raise IllegalAction("T4", "table.replay", "the moment shown is not now")
        self._session.game.apply(action)
        self._play()

    def set_computers(self, seats: frozenset[int]) -> None:
        self._computers = frozenset(seats)
        self._play()

    def next_deal(self) -> None:
        """The teacher deals the next deal (G2) once this one is over; the computers play on."""
        self._session.next_deal()
        self._shown = None
        self._play()

    def _play(self, limit: int = 2000) -> None:
        if not self.live:
            return
        strategies = {s: self._strategies[s] for s in self._computers if s in self._strategies}
        game = self._session.game
        for _ in range(limit):
            if game.over:
                return
            move = players.next_move(game, strategies, self._asked, trades=False)
            if move is not None:
                game.apply(move.action)
            elif game.auction is None and game.turn in self._computers:
                game.reveal()
            else:
                return
