"""Whether a member may ask for an action now: checked where the request arrives (T3, T4).

The referee asks :func:`admitted_action` before the engine sees a member's action. Whatever the
member's page shows, disables or sends, a request is admitted only when the table is live and not
paused (T4), the member sits at the seat the request names and that seat is not the teacher's or
a computer's (T3), and the action is one that seat may take as a seat: a turn-up or bid for
itself, an offer, sale or refusal only by the holder; blind trades stay the teacher's. The engine
then checks the action itself against the rules of play (``engine.legality``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.game import Game
from .errors import TableRefusal
from .ledger import HOLDER_ACTIONS
from .seating import Roster, Seated

__all__ = ["admitted_action"]


def admitted_action(
    member: Seated, request: Mapping[str, Any], *, paused: bool, live: bool, roster: Roster, game: Game
) -> tuple[int, Action]:
    """The seat and the action of ``request`` from ``member``, or a :class:`TableRefusal` naming
    the rule (T4 paused or replaying; T3 not their seat, the teacher's or a computer's, not the
    holder, a teacher's action, an unreadable action)."""
    if paused:
        raise TableRefusal("T4", "table.paused")
    if not live:
        raise TableRefusal("T4", "table.replay")
    if member.seat is None:
        raise TableRefusal("T3", "table.spectator")
    seat = request.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat != member.seat:
        raise TableRefusal("T3", "table.not_your_seat", {"seat": seat if isinstance(seat, int) else member.seat})
    if seat in roster.taken:
        raise TableRefusal("T3", "table.seat_teacher", {"seat": seat})
    if seat in roster.computers:
        raise TableRefusal("T3", "table.seat_computer", {"seat": seat})
    try:
        action = Action.from_dict(request.get("action"))
    except ValueError:
        raise TableRefusal("T3", "table.bad_action") from None
    if action.kind in ("reveal", "bid") and action["seat"] != seat:
        raise TableRefusal("T3", "table.not_your_seat", {"seat": action["seat"]})
    if action.kind in HOLDER_ACTIONS and game.holder != seat:
        raise TableRefusal("T3", "table.not_holder", {"holder": game.holder})
    if action.kind == "blind_trade":
        raise TableRefusal("T3", "table.teacher_only")
    return seat, action
