"""T10 of ``docs/TABLE.md``: who did each action of a shared table's session (a member's name, "teacher" or "computer").

The referee notes the actions it applies for members (:meth:`Ledger.note`); every other action
of the session (the teacher's own clicks in the app, the computer players' moves) is attributed
when the referee next publishes (:meth:`Ledger.attribute`): a computer seat's to "computer",
the rest to "teacher". When the teacher replaces the session, what was noted moves to
:attr:`Ledger.earlier`, so the export keeps it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.session import Session

__all__ = ["HOLDER_ACTIONS", "Ledger"]

#: The actions only the holder of the best trump takes (T3).
HOLDER_ACTIONS = ("open_auction", "accept", "decline")


class Ledger:
    """Who did what, by (deal number, index of the action in its deal's history)."""

    def __init__(self) -> None:
        self._who: dict[tuple[int, int], dict[str, Any]] = {}
        self.earlier: list[dict[str, Any]] = []
        self._session: Session | None = None

    def follow(self, session: Session) -> None:
        """The session now played; a new one (the teacher replaced it) starts a new ledger."""
        if self._session is not None and session is not self._session:
            self.earlier.extend(self.actions())
            self._who.clear()
        self._session = session

    def following(self, session: Session) -> bool:
        return self._session is session

    def note(
        self,
        deal: int,
        index: int,
        who: str,
        member: str | None,
        seat: int | None,
        action: Action,
        acted_for: bool = False,
    ) -> None:
        """``acted_for``: the teacher took this action for a seat its students play (issue 27)."""
        self._who[(deal, index)] = {
            "deal": deal,
            "index": index,
            "who": who,
            "member": member,
            "seat": seat,
            "action": action.to_dict(),
        } | ({"for": True} if acted_for else {})

    def forget(self, deal: int, index: int) -> None:
        self._who.pop((deal, index), None)

    def acted_for(self, deal: int, index: int) -> bool:
        """True if the teacher took action ``index`` of deal ``deal`` for a student's seat."""
        return bool(self._who.get((deal, index), {}).get("for"))

    def teacher_steps(self) -> frozenset[tuple[int, int]]:
        """The (deal, step after it) of every action the teacher took for a student's seat."""
        return frozenset((deal, index + 1) for (deal, index), a in self._who.items() if a.get("for"))

    def attribute(self, session: Session, computers: Collection[int]) -> None:
        """Attribute every action of ``session`` not noted yet (see the module docstring)."""
        for deal, game in enumerate(session.games, 1):
            for index, action in enumerate(game.history):
                if (deal, index) in self._who:
                    continue
                if action.kind in HOLDER_ACTIONS:
                    seat: int | None = game.at(index).holder
                else:
                    seat = dict(action.args).get("seat")
                self.note(deal, index, "computer" if seat in computers else "teacher", None, seat, action)

    def actions(self) -> list[dict[str, Any]]:
        """The noted actions, in the order they were taken."""
        return [self._who[key] for key in sorted(self._who)]

    def restore(self, actions: list[Mapping[str, Any]], earlier: list[Mapping[str, Any]], session: Session) -> None:
        self._who = {(int(a["deal"]), int(a["index"])): dict(a) for a in actions}
        self.earlier = [dict(a) for a in earlier]
        self._session = session
