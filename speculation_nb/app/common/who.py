"""Who is who at a shared table: each seat and the students who play it (issue 27).

Every screen names a seat by the name the table publishes (a student's, or a team's abbreviated,
"Ann, Ben +6"); this list says, seat by seat, whom that name stands for: the students in full,
a computer player, the teacher, or nobody. The student's page shows it beside the table, the
teacher's panel above the seats (the teacher may hide it). Never "Alice: Alice": a seat with
students is named by its number. Every name is escaped and bidi-isolated (T11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ...languages.markup import Safe, bidi, escape
from ...languages.translator import Translator

__all__ = ["SeatLike", "who_is_who"]

_WORDS = {
    "computer": "class.member.seat_computer",
    "teacher": "class.member.seat_teacher",
    "free": "class.member.seat_free",
}


class SeatLike(Protocol):
    """A seat as the published moment (:class:`~speculation_nb.classroom.moment.SeatView`) or the
    referee (:class:`~speculation_nb.classroom.seating.SeatInfo`) describes it."""

    @property
    def kind(self) -> str: ...

    @property
    def members(self) -> Sequence[str]: ...


def who_is_who(seats: Sequence[SeatLike], names: Sequence[str], t: Translator) -> Safe:
    """The rows (``<li data-seat data-kind>``) of the list: "Seat 2: Ann, Ben, Cecilia" for a seat
    with students (all of them), "Edmund: a computer player", "Fanny: free"..."""
    rows = []
    for i, seat in enumerate(seats):
        if seat.kind == "people":
            words = t.html(
                "class.member.seat_people", n=t.number(i + 1), names=Safe(", ".join(bidi(m) for m in seat.members))
            )
        else:
            label = bidi(names[i]) if i < len(names) else Safe(escape(str(i + 1)))
            words = t.html(_WORDS.get(seat.kind, "class.member.seat_free"), seat=label)
        rows.append(f'<li data-seat="{i}" data-kind="{escape(seat.kind)}">{words}</li>')
    return Safe("".join(rows))
