"""What a shared table's referee drives: the teacher's game (``docs/TABLE.md``).

:class:`Host` is the protocol the referee acts through: the app's controller implements it in
``speculation_nb.app.teacher.app_game``; :class:`SessionHost` implements it over a bare
:class:`~speculation_nb.Session` (tests, benchmarks, a notebook refereeing a table), its
computer seats played at once by the engine's one play loop
(:func:`speculation_nb.players.next_move`).

:class:`TableGame` is what the teacher's side of a table (:class:`~.host_session.HostSession`)
needs of the game on the teacher's screen: a :class:`Host` on it for a new table, the table's
own session shown instead when a table is resumed, and a hook to publish each change before the
screen redraws. A new table's game is :func:`secret_session`: the settings shown, dealt from a
seed nobody has seen (issue 27: a seed a student could read, such as the page's ``?seed=`` or the
header's, rebuilds every hidden card; the seed is told when the table closes, and in the export).
The app implements it in ``speculation_nb.app.teacher.app_game``;
:class:`SessionTable` over a bare session.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Hashable, Mapping
from typing import Protocol, runtime_checkable

from .. import players
from ..engine.actions import Action
from ..engine.checks import parse_seed
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.session import Session

__all__ = ["TABLE_SEED_SETTING", "Host", "SessionHost", "SessionTable", "TableGame", "secret_seed", "secret_session"]


#: The server's setting that fixes the seed tables deal from, for tests and rehearsals only: a
#: table dealt from it is not secret. A page cannot set it (it is the server's environment).
TABLE_SEED_SETTING = "SPECULATION_TABLE_SEED"


def secret_seed() -> int:
    """A seed from the operating system's secret source (48 bits: no page can guess it), unless
    the server fixes it (:data:`TABLE_SEED_SETTING`)."""
    fixed = parse_seed(os.environ.get(TABLE_SEED_SETTING, ""))
    return secrets.randbits(48) if fixed is None else fixed


def secret_session(session: Session) -> Session:
    """A new session of ``session``'s settings (rules, names, deals) dealt from
    :func:`secret_seed`, never from a page: the seed a shared table deals from while a card is
    face down."""
    return Session(session.rules, session.names, session.deals, seed=secret_seed())


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

    def show_names(self, names: list[str]) -> None:
        """The seats' names as the table publishes them (its students'): the teacher's screen
        shows these, so the projector and the phones name a seat alike (issue 27)."""
        ...

    def show_question(self, game: Game | None, names: list[str]) -> None:
        """The question deal the table shows instead of the session's deal (issue 25), its seats
        named ``names``; None: the session's deal again. The session itself does not change."""
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
        #: The seats' names the table last published (:meth:`show_names`).
        self.names: list[str] = list(session.names)
        #: The question deal the table shows (:meth:`show_question`) and its names, or None.
        self.question: tuple[Game, list[str]] | None = None

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

    def show_names(self, names: list[str]) -> None:
        self.names = list(names)

    def show_question(self, game: Game | None, names: list[str]) -> None:
        self.question = None if game is None else (game, list(names))

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


@runtime_checkable
class TableGame(Protocol):
    """The game on the teacher's screen, as the teacher's side of a table uses it."""

    @property
    def started(self) -> bool:
        """True once something was played here that the table's own game would replace."""
        ...

    def host(self) -> Host:
        """A new table's host: the game shown replaced by :func:`secret_session` of its settings
        (the game stays in classroom mode meanwhile)."""
        ...

    def host_for(self, session: Session) -> Host:
        """Show the table's ``session`` instead of the game shown (a table resumed), as its host."""
        ...

    def attach(self, publish: Callable[[], None]) -> None:
        """Call ``publish()`` at every change of the game, before the teacher's screen redraws."""
        ...

    def detach(self, publish: Callable[[], None]) -> None:
        """Stop calling ``publish``: the table is no longer served here (the mode is free again)."""
        ...

    def guard(self, check: Callable[[str, int | None], None] | None) -> None:
        """Check each of the teacher's own presses with ``check(kind, seat)`` before it acts (the
        referee's :class:`~.acting.HostActs`: a student's seat only on purpose, issue 27); None: no check."""
        ...


class SessionTable:
    """A :class:`TableGame` over a bare session (tests, notebooks): its host is a
    :class:`SessionHost`, and :meth:`act` is the teacher acting, published at once."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.current: SessionHost | None = None
        self.publishers: list[Callable[[], None]] = []
        self.check: Callable[[str, int | None], None] | None = None

    @property
    def started(self) -> bool:
        return self.session.deal_number > 1 or len(self.session.game.history) > 0

    def host(self) -> SessionHost:
        return self.host_for(secret_session(self.session))

    def host_for(self, session: Session) -> SessionHost:
        self.session = session
        self.current = SessionHost(session)
        return self.current

    def attach(self, publish: Callable[[], None]) -> None:
        self.publishers.append(publish)

    def detach(self, publish: Callable[[], None]) -> None:
        if publish in self.publishers:
            self.publishers.remove(publish)

    def guard(self, check: Callable[[str, int | None], None] | None) -> None:
        self.check = check

    def act(self, action: Action) -> None:
        """The teacher's own action at now (the seat due reveals), then every publisher."""
        host = self.current if self.current is not None else self.host()
        if self.check is not None:  # the table's check of the teacher's press (issue 27)
            seat = dict(action.args).get("seat")
            self.check(action.kind, seat if isinstance(seat, int) else None)
        host.act(None, action)
        for publish in list(self.publishers):
            publish()
