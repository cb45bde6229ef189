"""The teacher acts for a student's seat only on purpose (issue 27, item 8).

At a shared table the teacher's own presses (Next card, Play to the end, a bid or a sale in the
auction table) act on the teacher's game directly, not through the requests the students post.
They are checked here all the same, where they arrive: the referee's :class:`HostActs` is the
game's ``table_check`` while the table is served (:meth:`~.teacher_game.TableGame.guard`). A press
for a seat its students play is refused in words (T9): for a card to turn up, "It is Bob's turn:
turn up for Bob?" (``table.student_turn``: the teacher's page asks, :attr:`HostActs.asking`);
for anything else, ``table.student_seat`` (take the seat over first). Only :func:`act_for`, the
teacher's explicit yes for that seat, turns up the card: the ledger notes it as the teacher's
for that seat (``"for": true``, T10), and the published moment's last event says so
(``"by": "teacher"``: :func:`mark_last_event`), so every page says "the teacher turned up for
Bob" and no page credits Bob.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.errors import IllegalAction
from ..engine.session import Session
from .errors import TableRefusal
from .ledger import HOLDER_ACTIONS, Ledger
from .seating import Roster

if TYPE_CHECKING:
    from .referee import Referee

__all__ = ["HostActs", "act_for", "mark_last_event"]


class HostActs:
    """The check of the teacher's presses at one table (see the module docstring)."""

    def __init__(self, roster: Roster, ledger: Ledger, session: Callable[[], Session]) -> None:
        self.roster = roster
        self._ledger = ledger
        self._session = session
        #: The student's seat whose card the teacher last tried to turn up (the page asks).
        self.asking: int | None = None

    def acting_seat(self, kind: str, seat: int | None) -> int | None:
        """The seat a press of ``kind`` acts for: the holder's actions the holder's, a card the
        seat due's (or ``seat``'s), a bid its bidder's."""
        game = self._session().game
        if kind in HOLDER_ACTIONS:
            return game.holder
        return game.turn if seat is None else seat

    def __call__(self, kind: str, seat: int | None) -> None:
        """Check one of the teacher's presses: :class:`TableRefusal` T9 for a student's seat."""
        acting = self.acting_seat(kind, seat)
        if acting is None or self.roster.kind(acting) != "people":
            return
        if kind == "reveal":
            self.asking = acting
            raise TableRefusal("T9", "table.student_turn", {"seat": acting})
        raise TableRefusal("T9", "table.student_seat", {"seat": acting})

    def teacher_steps(self) -> frozenset[tuple[int, int]]:
        """(deal, step) of each action the teacher took for a student's seat: the log says so."""
        return self._ledger.teacher_steps()

    def due(self) -> int | None:
        """The seat the page asks about now: :attr:`asking` while it is still due and still its
        students' (None otherwise)."""
        game = self._session().game
        seat = self.asking
        if seat is None or game.over or game.auction is not None or game.turn != seat:
            return None
        return seat if self.roster.kind(seat) == "people" else None


def act_for(referee: Referee, seat: int) -> None:
    """The teacher said yes: turn up ``seat``'s card for its students (it must be due), noted
    as the teacher's (see the module docstring). :class:`TableRefusal` T4 while the teacher
    looks back; the engine's :class:`~speculation_nb.IllegalAction` if the seat is not due."""
    session = referee.host.session
    if not referee.host.live:
        raise TableRefusal("T4", "table.replay")
    deal, index = session.deal_number, len(session.game.history)
    action = Action.make("reveal", seat=seat)
    referee.ledger.note(deal, index, "teacher", None, seat, action, acted_for=True)  # before it is published
    try:
        referee.host.act(None, action)
    except IllegalAction:
        referee.ledger.forget(deal, index)
        raise
    referee.acts.asking = None


def mark_last_event(moment: dict[str, Any], ledger: Ledger, deal: int) -> None:
    """Say in ``moment``'s last event (of deal ``deal``) when the teacher took it for a student's
    seat: ``"by": "teacher"``."""
    event = moment.get("last_event")
    step = event.get("step") if isinstance(event, dict) else None
    if isinstance(event, dict) and isinstance(step, int) and ledger.acted_for(deal, step - 1):
        moment["last_event"] = {**event, "by": "teacher"}
