"""T7, "What would you pay?": a poll of the whole class at one moment (``docs/TABLE.md``).

The teacher opens a poll at the moment shown; every member (seated or watching) answers a price
in whole chips, ``0`` to :data:`MAX_PRICE` (the last answer of a member counts, with the time it
came); the teacher locks it ("time is up": :meth:`Poll.close`, later answers are refused here,
T7), then reveals it (:meth:`Poll.reveal`: until then nobody but the count is shown, the
projector included). Its :attr:`Poll.state` is ``"open"``, ``"locked"`` or ``"revealed"``. The
poll keeps what the odds said of that moment (the fair price, O4, and each seat's break-even
price, exact Fractions) and, once the deal has ended, what the best trump of that moment turned
out to be worth to whoever held it at the end: the pot it took if it held, 0 if it did not
(:meth:`Poll.settle`). Answers are by member id; the projector shows them anonymously unless the
teacher shows names (the host panel's choice).

>>> p = Poll(1, deal=1, step=3, fair=Fraction(36, 7), break_even={1: Fraction(5, 2)}, holder=0, best="QH")
>>> p.answer("m1", 4); p.answer("m2", 7); p.answer("m1", 5)
>>> p.median(), p.histogram(2), p.state
(Fraction(6, 1), [(5, 6, 1), (7, 8, 1)], 'open')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any

from .. import odds
from ..engine.game import Game
from ..odds.moment import Odds
from ..odds.prices import Prices
from .bins import Bins, price_bins
from .errors import TableRefusal

__all__ = ["MAX_PRICE", "Poll", "check_price", "settle_polls"]

#: The highest price an answer may name (S1's chips are whole numbers up to this and beyond).
MAX_PRICE = 10**9


def check_price(price: object) -> int:
    """``price`` if it is a whole number of chips from 0 to :data:`MAX_PRICE`, else
    :class:`TableRefusal` T7 (a bool, a float or text is not a price)."""
    if isinstance(price, bool) or not isinstance(price, int) or not 0 <= price <= MAX_PRICE:
        raise TableRefusal("T7", "table.bad_price", {"limit": MAX_PRICE})
    return price


@dataclass
class Poll:
    """One poll: the moment it asks about, what the odds said then, the answers, the worth."""

    id: int
    deal: int
    step: int
    fair: Fraction
    break_even: dict[int, Fraction]
    holder: int
    best: str  #: the best trump of the moment, as a card code ("QH")
    open: bool = True
    answers: dict[str, int] = field(default_factory=dict)
    worth: int | None = None
    revealed: bool = False
    #: member id -> when their last answer came (ISO 8601, UTC, to the second)
    times: dict[str, str] = field(default_factory=dict)
    #: member id -> the seat they answered from (a spectator has none)
    seats: dict[str, int] = field(default_factory=dict)
    #: the question bank's id of the moment asked (a question deal), ``""`` at the live table
    question: str = ""
    #: the number of the question deal asked about (:mod:`.questions`; then ``deal`` is 0), else 0
    question_deal: int = 0

    @classmethod
    def at(cls, poll_id: int, game: Game, deal: int) -> Poll:
        """A new open poll about ``game`` as it stands (deal number ``deal``): its fair price and
        every other seat's break-even price, as the moment's odds give them
        (:class:`~speculation_nb.odds.moment.Odds`, the numbers every screen shows)."""
        exact = Odds.of(game, every_buyer=True)
        return cls(poll_id, deal, game.moment, exact.fair, dict(exact.break_even), game.holder, game.best_trump.code)

    @property
    def prices(self) -> Prices:
        """The poll's prices as every screen shows them: whole chips, half up (O4)."""
        return Prices.rounded(self.fair, self.break_even)

    @property
    def state(self) -> str:
        """``"open"`` (answers taken), ``"locked"`` (time is up) or ``"revealed"`` (shown)."""
        return "open" if self.open else "revealed" if self.revealed else "locked"

    def answer(self, member: str, price: object, at: datetime | None = None, seat: int | None = None) -> None:
        """Record ``member``'s answer (the last one counts), its time (``at``, default now) and the
        seat it came from (None: watching; always None about a question deal, where nobody of the
        class sits: its seats are not theirs); T7 ``table.poll_locked`` once the time is up,
        ``table.bad_price`` if not a price."""
        if not self.open:
            raise TableRefusal("T7", "table.poll_locked")
        self.answers[member] = check_price(price)
        self.seats.pop(member, None)
        if seat is not None and not self.question_deal:
            self.seats[member] = int(seat)
        when = datetime.now(timezone.utc) if at is None else at
        self.times[member] = when.astimezone(timezone.utc).replace(microsecond=0).isoformat()

    def close(self) -> None:
        """Lock the answers ("time is up")."""
        self.open = False

    def reveal(self) -> None:
        """Show the answers (locking them first if still open)."""
        self.open, self.revealed = False, True

    def median(self) -> Fraction | None:
        """The median answer, exact (the mean of the two middle ones for an even count); None
        without answers."""
        prices = sorted(self.answers.values())
        if not prices:
            return None
        middle = len(prices) // 2
        if len(prices) % 2:
            return Fraction(prices[middle])
        return Fraction(prices[middle - 1] + prices[middle], 2)

    def bins(self, bins: int = 10) -> Bins:
        """The answers' price ranges, following their spread (:func:`.bins.price_bins`: at most
        ``bins`` ranges of one width over the bulk, and an overflow range for far answers)."""
        return price_bins(self.answers.values(), self.fair, bins)

    def histogram(self, bins: int = 10) -> list[tuple[int, int, int]]:
        """The rows ``(low, high, count)`` of :meth:`bins`, both ends included."""
        return list(self.bins(bins).rows)

    def settle(self, game: Game) -> None:
        """Once ``game`` (the deal asked about) is over: the worth of the moment's best trump to
        its holder at the end: the pot it took if it held (it is still the best trump and someone
        won with it), else 0."""
        if game.over and self.worth is None:
            held = game.best_trump.code == self.best and game.winner is not None
            self.worth = odds.pot_played_for(game) if held else 0

    def public(self) -> dict[str, Any]:
        """What every member sees: ``{"id", "open", "answers", "state"}`` (the number of answers;
        never an answer or a name)."""
        return {"id": self.id, "open": self.open, "answers": len(self.answers), "state": self.state}

    def to_dict(self) -> dict[str, Any]:
        """The poll in the table's record and export (answers by member id, Fractions as ``"p/q"``)."""
        return {
            "id": self.id,
            "deal": self.deal,
            "step": self.step,
            "fair": str(self.fair),
            "break_even": {str(s): str(v) for s, v in self.break_even.items()},
            "holder": self.holder,
            "best": self.best,
            "open": self.open,
            "answers": dict(self.answers),
            "worth": self.worth,
            "revealed": self.revealed,
            "times": dict(self.times),
            "seats": dict(self.seats),
            "question": self.question,
            "question_deal": self.question_deal,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Poll:
        """Read :meth:`to_dict` output (the referee's own record); ``ValueError`` if malformed."""
        try:
            answers = {str(k): check_price(v) for k, v in dict(data["answers"]).items()}
            worth = data["worth"]
            return cls(
                id=int(data["id"]),
                deal=int(data["deal"]),
                step=int(data["step"]),
                fair=Fraction(str(data["fair"])),
                break_even={int(k): Fraction(str(v)) for k, v in dict(data["break_even"]).items()},
                holder=int(data["holder"]),
                best=str(data["best"]),
                open=bool(data["open"]),
                answers=answers,
                worth=None if worth is None else int(worth),
                revealed=bool(data.get("revealed", False)),  # (a record of an older referee has none)
                times={str(k): str(v) for k, v in dict(data.get("times", {})).items()},
                seats={str(k): int(v) for k, v in dict(data.get("seats", {})).items()},
                question=str(data.get("question", "")),
                question_deal=int(data.get("question_deal", 0)),
            )
        except (KeyError, TypeError, ValueError, TableRefusal) as error:
            raise ValueError(f"not a valid poll: {error}") from None


def settle_polls(polls: Sequence[Poll], games: Sequence[Game]) -> None:
    """Settle each poll about one of ``games`` (its deal, numbered from 1) once that deal is over
    (:meth:`Poll.settle`); a question deal's poll (deal 0) is not the session's."""
    for poll in polls:
        if poll.worth is None and 1 <= poll.deal <= len(games):
            poll.settle(games[poll.deal - 1])
