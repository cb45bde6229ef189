"""The published moment: what every member of a table sees, computed once by the referee.

The referee (the teacher's kernel) publishes, for the moment the teacher shows, a small JSON
record: the moment of the deal, :class:`~speculation_nb.odds.moment.DealMoment` (the **public
facts only**: the cards face up, how many cards each pile holds, the stacks, the pot, the bids,
who may do what, and the exact numbers of :mod:`speculation_nb.odds`), and the table's own
fields: the record's version, the deal's number, the last step, whether the teacher shows it
live or paused, the seats' names and who sits there, the last event, the poll, and, while a
question deal is shown (:mod:`.questions`), the question asked (``question``: a bank moment's id,
worded by each page in its own language, or the teacher's question as typed). A face-down card
never goes into it: on JupyterHub the students' kernels can read the events stream, so what is
not in the record cannot leak.

:func:`public_moment` writes the record; :func:`read_public_moment` reads it back, strictly, into a
frozen :class:`Moment` (a ``DealMoment`` with the table's fields): a malformed record raises
``ValueError``. The format is in ``docs/TABLE.md``. Fractions travel as exact
``"p/q"`` strings; seats as keys of JSON objects are strings (``"2"``), ``"none"`` for the pot
carried over.

>>> from speculation_nb import Rules, Session
>>> m = read_public_moment(public_moment(Session(Rules(players=3), seed=1)))
>>> m.step, m.players, sum(m.odds.win.values())
(0, 3, Fraction(1, 1))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from ..engine.legality import LegalActions
from ..engine.session import Session
from ..links.query import MAX_QUESTION
from ..odds import record
from ..odds.moment import DEAL_KEYS, AuctionView, DealMoment, Odds

__all__ = [
    "POLL_STATES",
    "SEAT_KINDS",
    "AuctionView",
    "Due",
    "Moment",
    "Odds",
    "PollView",
    "QuestionView",
    "SeatView",
    "plain_json",
    "public_moment",
    "read_public_moment",
]

#: Who sits at a seat: nobody, people (members), a computer player, the teacher (taken over).
SEAT_KINDS = ("free", "people", "computer", "teacher")
#: Who may do what now: the game's own :class:`~speculation_nb.engine.legality.LegalActions`, as
#: published (``due``: reveal, open_auction, bid, accept, decline; ``withdraw`` is read back from
#: the standing bids; blind trades, V3, are the teacher's and are not published).
Due = LegalActions


@dataclass(frozen=True)
class SeatView:
    kind: str
    members: tuple[str, ...]


#: A poll's states (T7): answers taken, time is up, the answers shown on the projector.
POLL_STATES = ("open", "locked", "revealed")


@dataclass(frozen=True)
class PollView:
    """The poll as every member sees it: its number, whether it takes answers, how many came,
    and its state (:data:`POLL_STATES`); never an answer or a name."""

    id: int
    open: bool
    answers: int
    state: str = "open"


@dataclass(frozen=True)
class QuestionView:
    """The question of a question deal as published: its bank id (``""`` for a composed moment;
    each page words it in its own language) and the teacher's question as typed (``""`` for a bank
    one): plain text of at most :data:`~speculation_nb.links.query.MAX_QUESTION` characters, to be
    escaped wherever it is shown."""

    bank: str
    words: str


@dataclass(frozen=True)
class Moment(DealMoment):
    """One published moment, read back: the deal's :class:`~speculation_nb.odds.moment.DealMoment`
    and the table's fields (see the module docstring and ``docs/TABLE.md``)."""

    version: int
    deal: int
    last: int
    live: bool
    paused: bool
    names: tuple[str, ...]
    seats: tuple[SeatView, ...]
    last_event: Mapping[str, Any] | None
    poll: PollView | None
    question: QuestionView | None = None  # (only while a question deal is shown)


#: The table's own fields of the record (the rest are the deal's: ``DEAL_KEYS``).
TABLE_KEYS = frozenset(
    {"version", "deal", "last", "live", "paused", "names", "seats", "last_event", "poll", "question"}
)
#: The fields a record may lack: an older referee's has no ``dealer``; ``question`` is there only
#: while a question deal is shown (so the session's moments read as they always did).
OPTIONAL_KEYS = frozenset({"dealer", "question"})
#: A bank question's id, as published (the page words it only if its catalogs know it).
_BANK_ID = re.compile(r"[a-z0-9_]{0,40}")


# ------------------------------------------------------------------------ writing
def plain_json(value: Any) -> Any:
    """An event parameter as JSON: cards as codes, lists and dicts element by element."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (list, tuple)):
        return [plain_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain_json(v) for k, v in value.items()}
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    return str(value)


def public_moment(
    session: Session,
    step: int | None = None,
    *,
    version: int = 0,
    live: bool | None = None,
    paused: bool = False,
    names: Sequence[str] | None = None,
    seats: Sequence[Mapping[str, Any]] | None = None,
    poll: Mapping[str, Any] | None = None,
    question: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The public record of the current deal of ``session`` after its first ``step`` actions
    (default: now). ``live``: the teacher shows now (default: ``step`` is the last moment);
    ``names``: the seats' display names (default: the session's); ``seats``: who sits at each
    seat (``{"kind": ..., "members": [names]}``, default: all free); ``poll``: the poll's
    public part (``{"id", "open", "answers", "state"}``); ``question``: a question deal's question
    (``{"bank", "words"}``, :class:`QuestionView`; no field when None)."""
    current = session.game
    last = len(current.history)
    k = last if step is None else step
    game = current if k == last else current.at(k)
    n = game.rules.players
    events = game.events
    asked = {} if question is None else {"question": {"bank": str(question["bank"]), "words": str(question["words"])}}
    return {
        **DealMoment.of(game).to_json(),
        "version": int(version),
        "deal": session.deal_number,
        "last": last,
        "live": (k == last) if live is None else bool(live),
        "paused": bool(paused),
        "names": list(session.names if names is None else names),
        "seats": [
            {"kind": str(s["kind"]), "members": [str(x) for x in s["members"]]}
            for s in (seats if seats is not None else [{"kind": "free", "members": []}] * n)
        ],
        "last_event": plain_json(dict(events[-1])) if events else None,
        "poll": None if poll is None else {k: poll[k] for k in ("id", "open", "answers", "state") if k in poll},
        **asked,
    }


# ------------------------------------------------------------------------ reading
_FIELDS = DEAL_KEYS | TABLE_KEYS


def read_public_moment(data: Any) -> Moment:
    """A published moment as a :class:`Moment`; ``ValueError`` naming the first thing wrong when
    ``data`` is not exactly a moment's record (a field missing, extra, or of the wrong type)."""
    d = record.obj(data, "the moment")
    if not _FIELDS - OPTIONAL_KEYS <= set(d) <= _FIELDS:  # (a moment of an older referee has no dealer)
        missing, extra = sorted(_FIELDS - OPTIONAL_KEYS - set(d)), sorted(set(d) - _FIELDS)
        raise ValueError(f"not a valid moment: fields missing {missing}, unknown {extra}")
    deal = DealMoment.fields_from_json(d)
    n, step = deal["players"], deal["step"]
    last = record.whole(d["last"], "last")
    if step > last:
        raise record.fail("step", f"at most last ({last})", step)
    seats = []
    for i, s in enumerate(record.items(d["seats"], "seats", n)):
        s = record.obj(s, f"seats.{i}")
        if set(s) != {"kind", "members"} or s["kind"] not in SEAT_KINDS:
            raise record.fail(f"seats.{i}", f"{{kind: one of {SEAT_KINDS}, members}}", s)
        where = f"seats.{i}.members"
        seats.append(SeatView(s["kind"], tuple(record.text(m, where) for m in record.items(s["members"], where))))
    poll = None
    if d["poll"] is not None:
        p = record.obj(d["poll"], "poll")
        if set(p) - {"state"} != {"id", "open", "answers"} or p.get("state", "open") not in POLL_STATES:
            raise record.fail("poll", f"{{id, open, answers, state: one of {POLL_STATES}}}", p)
        opened = record.boolean(p["open"], "poll.open")
        poll = PollView(
            record.whole(p["id"], "poll.id"),
            opened,
            record.whole(p["answers"], "poll.answers"),
            str(p.get("state", "open" if opened else "locked")),  # (an older referee's poll has none)
        )
    event = None if d["last_event"] is None else record.obj(d["last_event"], "last_event")
    if event is not None and not isinstance(event.get("kind"), str):
        raise record.fail("last_event", "an event with a kind", event)
    return Moment(
        **deal,
        question=_question(d["question"]) if "question" in d else None,
        version=record.whole(d["version"], "version"),
        deal=record.whole(d["deal"], "deal", 1),
        last=last,
        live=record.boolean(d["live"], "live"),
        paused=record.boolean(d["paused"], "paused"),
        names=tuple(record.text(x, "names") for x in record.items(d["names"], "names", n)),
        seats=tuple(seats),
        last_event=event,
        poll=poll,
    )


def _question(value: Any) -> QuestionView:
    q = record.obj(value, "question")
    if set(q) != {"bank", "words"}:
        raise record.fail("question", "{bank, words}", q)
    bank = record.text(q["bank"], "question.bank", 40)
    if not _BANK_ID.fullmatch(bank):
        raise record.fail("question.bank", "a question's id (a-z, 0-9, _)", bank)
    return QuestionView(bank, record.text(q["words"], "question.words", MAX_QUESTION))
