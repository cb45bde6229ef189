"""The published moment: what every member of a table sees, computed once by the referee.

The referee (the teacher's kernel) publishes, for the moment the teacher shows, a small JSON
record built from the **public facts only**: the cards face up, how many cards each pile holds,
the stacks, the pot, the bids, and the exact numbers of :mod:`speculation_nb.odds` (which read
public facts only too). A face-down card never goes into it: on JupyterHub the students'
kernels can read the events stream, so what is not in the record cannot leak.

:func:`public_moment` writes the record; :func:`read_public_moment` reads it back, strictly, into a
frozen :class:`Moment` (Fractions and :class:`~speculation_nb.engine.cards.Card` objects): a malformed
record raises ``ValueError``. The format is in ``docs/TABLE.md``. Fractions travel as exact
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
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from .. import odds
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.legality import LegalActions
from ..engine.session import Session

__all__ = [
    "SEAT_KINDS",
    "AuctionView",
    "Due",
    "Moment",
    "Odds",
    "PollView",
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
_FRACTION = re.compile(r"^-?[0-9]{1,400}(/[1-9][0-9]{0,400})?$")


@dataclass(frozen=True)
class SeatView:
    kind: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class AuctionView:
    bids: Mapping[int, int]  #: each bidder's standing bid
    best: int | None  #: the seat with the best offer (highest, then earliest), None without bids


@dataclass(frozen=True)
class Odds:
    """O1-O4 at the moment, exact; the break-even prices only while an auction is open."""

    hold: Fraction
    win: Mapping[int | None, Fraction]
    expected_pot: Fraction
    fair: Fraction
    break_even: Mapping[int, Fraction]
    seller_break_even: Mapping[int, Fraction]


@dataclass(frozen=True)
class PollView:
    id: int
    open: bool
    answers: int


@dataclass(frozen=True)
class Moment:
    """One published moment, read back (see the module docstring and ``docs/TABLE.md``)."""

    version: int
    deal: int
    step: int
    last: int
    live: bool
    paused: bool
    over: bool
    players: int
    names: tuple[str, ...]
    seats: tuple[SeatView, ...]
    stacks: tuple[int, ...]
    pot: int
    trump: str
    turn_up: Card
    best: Card
    holder: int
    turn: int | None
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[int, ...]
    dead: int
    dead_cards: tuple[Card, ...] | None
    auction: AuctionView | None
    due: Due
    odds: Odds
    winner: int | None
    end_rule: str | None
    last_event: Mapping[str, Any] | None
    poll: PollView | None
    #: The seat that dealt (it holds the turn-up); None in a moment published before it was told.
    dealer: int | None = None


# ------------------------------------------------------------------------ writing
def _frac(x: Fraction | int) -> str:
    return str(Fraction(x))


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


def _numbers(game: Game) -> dict[str, Any]:
    win = odds.win_probabilities(game)
    out: dict[str, Any] = {
        "hold": _frac(odds.hold_probability(game)),
        "win": {("none" if seat is None else str(seat)): _frac(p) for seat, p in win.items()},
        "expected_pot": _frac(odds.expected_pot(game)),
        "fair": _frac(odds.fair_price(game)),
        "break_even": {},
        "seller_break_even": {},
    }
    if game.auction is not None and not game.over:
        others = [s for s in range(game.rules.players) if s != game.holder]
        out["break_even"] = {str(s): _frac(odds.break_even(game, s)) for s in others}
        out["seller_break_even"] = {str(s): _frac(odds.seller_break_even(game, s)) for s in others}
    return out


def _due(game: Game) -> dict[str, Any]:
    """Who may do what now, as :meth:`Game.legal_actions` says (blind trades are the teacher's)."""
    legal = game.legal_actions()
    return {
        "reveal": legal.reveal,
        "open_auction": legal.open_auction,
        "bid": {str(s): list(r) for s, r in legal.bid.items()},
        "accept": list(legal.accept),
        "decline": legal.decline,
    }


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
) -> dict[str, Any]:
    """The public record of the current deal of ``session`` after its first ``step`` actions
    (default: now). ``live``: the teacher shows now (default: ``step`` is the last moment);
    ``names``: the seats' display names (default: the session's); ``seats``: who sits at each
    seat (``{"kind": ..., "members": [names]}``, default: all free); ``poll``: the poll's
    public part (``{"id", "open", "answers"}``)."""
    current = session.game
    last = len(current.history)
    k = last if step is None else step
    game = current if k == last else current.at(k)
    n = game.rules.players
    events = game.events
    auction = game.auction
    dead_cards = game.dead_cards
    return {
        "version": int(version),
        "deal": session.deal_number,
        "step": k,
        "last": last,
        "live": (k == last) if live is None else bool(live),
        "paused": bool(paused),
        "over": game.over,
        "players": n,
        "names": list(session.names if names is None else names),
        "seats": [
            {"kind": str(s["kind"]), "members": [str(x) for x in s["members"]]}
            for s in (seats if seats is not None else [{"kind": "free", "members": []}] * n)
        ],
        "stacks": game.stacks,
        "pot": game.pot,
        "trump": game.trump.value,
        "turn_up": game.turn_up.code,
        "best": game.best_trump.code,
        "holder": game.holder,
        "dealer": game.dealer,
        "turn": game.turn,
        "face_up": [[c.code for c in up] for up in game.face_up],
        "face_down": game.face_down,
        "dead": game.dead,
        "dead_cards": None if dead_cards is None else [c.code for c in dead_cards],
        "auction": None
        if auction is None
        else {"bids": {str(s): b for s, b in auction.items()}, "best": game.best_offer},
        "due": _due(game),
        "odds": _numbers(game),
        "winner": game.winner,
        "end_rule": game.end_rule,
        "last_event": plain_json(dict(events[-1])) if events else None,
        "poll": None if poll is None else {"id": poll["id"], "open": poll["open"], "answers": poll["answers"]},
    }


# ------------------------------------------------------------------------ reading
def _fail(where: str, what: str, value: Any) -> ValueError:
    shown = repr(value)
    return ValueError(f"not a valid moment: {where} must be {what}, not {shown[:60]}")


def _int(value: Any, where: str, low: int = 0, high: int = 10**12) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"a whole number from {low} to {high}", value)
    return value


def _opt_int(value: Any, where: str, low: int = 0, high: int = 10**12) -> int | None:
    return None if value is None else _int(value, where, low, high)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def _str(value: Any, where: str, limit: int = 200) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise _fail(where, f"text of at most {limit} characters", value)
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _fail(where, "a list" if length is None else f"a list of {length}", value)
    return value


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "an object", value)
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise _fail(where, "a card code", value)
    try:
        return Card.parse(value)
    except ValueError:
        raise _fail(where, "a card code", value) from None


def _fraction(value: Any, where: str) -> Fraction:
    if not isinstance(value, str) or not _FRACTION.match(value):
        raise _fail(where, 'an exact fraction "p/q"', value)
    return Fraction(value)


def _seat_key(key: str, where: str, n: int) -> int:
    if not key.isdigit() or not 0 <= int(key) < n or key != str(int(key)):
        raise _fail(where, f"keyed by seats 0 to {n - 1}", key)
    return int(key)


def _seat_map(value: Any, where: str, n: int, read: Any) -> dict[int, Any]:
    return {_seat_key(k, where, n): read(v, f"{where}.{k}") for k, v in _obj(value, where).items()}


_FIELDS = frozenset(f.name for f in fields(Moment))


def read_public_moment(data: Any) -> Moment:
    """A published moment as a :class:`Moment`; ``ValueError`` naming the first thing wrong when
    ``data`` is not exactly a moment's record (a field missing, extra, or of the wrong type)."""
    d = _obj(data, "the moment")
    if set(d) != _FIELDS and set(d) != _FIELDS - {"dealer"}:  # (a moment of an older referee)
        missing, extra = sorted(_FIELDS - set(d)), sorted(set(d) - _FIELDS)
        raise ValueError(f"not a valid moment: fields missing {missing}, unknown {extra}")
    n = _int(d["players"], "players", 2, 16)

    def seat(value: Any, where: str) -> int:
        return _int(value, where, 0, n - 1)

    step, last = _int(d["step"], "step"), _int(d["last"], "last")
    if step > last:
        raise _fail("step", f"at most last ({last})", step)
    seats = []
    for i, s in enumerate(_list(d["seats"], "seats", n)):
        s = _obj(s, f"seats.{i}")
        if set(s) != {"kind", "members"} or s["kind"] not in SEAT_KINDS:
            raise _fail(f"seats.{i}", f"{{kind: one of {SEAT_KINDS}, members}}", s)
        members = tuple(_str(m, f"seats.{i}.members") for m in _list(s["members"], f"seats.{i}.members"))
        seats.append(SeatView(s["kind"], members))
    trump = _str(d["trump"], "trump")
    if trump not in ("S", "H", "D", "C"):
        raise _fail("trump", "S, H, D or C", trump)
    auction = None
    if d["auction"] is not None:
        a = _obj(d["auction"], "auction")
        if set(a) != {"bids", "best"}:
            raise _fail("auction", "{bids, best}", a)
        auction = AuctionView(
            _seat_map(a["bids"], "auction.bids", n, _int),
            None if a["best"] is None else seat(a["best"], "auction.best"),
        )
    due = _obj(d["due"], "due")
    if set(due) != {"reveal", "open_auction", "bid", "accept", "decline"}:
        raise _fail("due", "{reveal, open_auction, bid, accept, decline}", due)

    def span(v: Any, w: str) -> tuple[int, int]:
        lo, hi = (_int(x, w) for x in _list(v, w, 2))
        return lo, hi

    holder = seat(d["holder"], "holder")
    o = _obj(d["odds"], "odds")
    if set(o) != {"hold", "win", "expected_pot", "fair", "break_even", "seller_break_even"}:
        raise _fail("odds", "{hold, win, expected_pot, fair, break_even, seller_break_even}", o)
    win_raw = dict(_obj(o["win"], "odds.win"))
    if "none" not in win_raw:
        raise _fail("odds.win", 'an object with "none"', win_raw)
    none = _fraction(win_raw.pop("none"), "odds.win.none")
    win: dict[int | None, Fraction] = {}
    for key, chance in _seat_map(win_raw, "odds.win", n, _fraction).items():
        win[key] = chance
    win[None] = none
    poll = None
    if d["poll"] is not None:
        p = _obj(d["poll"], "poll")
        if set(p) != {"id", "open", "answers"}:
            raise _fail("poll", "{id, open, answers}", p)
        poll = PollView(_int(p["id"], "poll.id"), _bool(p["open"], "poll.open"), _int(p["answers"], "poll.answers"))
    event = None if d["last_event"] is None else _obj(d["last_event"], "last_event")
    if event is not None and not isinstance(event.get("kind"), str):
        raise _fail("last_event", "an event with a kind", event)
    dead_cards = d["dead_cards"]
    end_rule = d["end_rule"]
    return Moment(
        version=_int(d["version"], "version"),
        deal=_int(d["deal"], "deal", 1),
        step=step,
        last=last,
        live=_bool(d["live"], "live"),
        paused=_bool(d["paused"], "paused"),
        over=_bool(d["over"], "over"),
        players=n,
        names=tuple(_str(x, "names") for x in _list(d["names"], "names", n)),
        seats=tuple(seats),
        stacks=tuple(_int(x, "stacks") for x in _list(d["stacks"], "stacks", n)),
        pot=_int(d["pot"], "pot"),
        trump=trump,
        turn_up=_card(d["turn_up"], "turn_up"),
        best=_card(d["best"], "best"),
        holder=holder,
        dealer=None if d.get("dealer") is None else seat(d["dealer"], "dealer"),
        turn=None if d["turn"] is None else seat(d["turn"], "turn"),
        face_up=tuple(
            tuple(_card(c, f"face_up.{i}") for c in _list(up, f"face_up.{i}"))
            for i, up in enumerate(_list(d["face_up"], "face_up", n))
        ),
        face_down=tuple(_int(x, "face_down", 0, 52) for x in _list(d["face_down"], "face_down", n)),
        dead=_int(d["dead"], "dead", 0, 52),
        dead_cards=None
        if dead_cards is None
        else tuple(_card(c, "dead_cards") for c in _list(dead_cards, "dead_cards")),
        auction=auction,
        due=LegalActions(
            reveal=None if due["reveal"] is None else seat(due["reveal"], "due.reveal"),
            open_auction=None if due["open_auction"] is None else seat(due["open_auction"], "due.open_auction"),
            bid=_seat_map(due["bid"], "due.bid", n, span),
            withdraw=() if auction is None else tuple(auction.bids),
            accept=tuple(seat(x, "due.accept") for x in _list(due["accept"], "due.accept")),
            decline=None if due["decline"] is None else seat(due["decline"], "due.decline"),
            holder=holder,
        ),
        odds=Odds(
            hold=_fraction(o["hold"], "odds.hold"),
            win=win,
            expected_pot=_fraction(o["expected_pot"], "odds.expected_pot"),
            fair=_fraction(o["fair"], "odds.fair"),
            break_even=_seat_map(o["break_even"], "odds.break_even", n, _fraction),
            seller_break_even=_seat_map(o["seller_break_even"], "odds.seller_break_even", n, _fraction),
        ),
        winner=None if d["winner"] is None else seat(d["winner"], "winner"),
        end_rule=None if end_rule is None else _str(end_rule, "end_rule", 40),
        last_event=event,
        poll=poll,
    )
