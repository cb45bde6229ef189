"""The student's view of a shared table, drawn from the published moment only.

The referee (the teacher's kernel) computes each :class:`~speculation_nb.table.moment.Moment`
once, from the public facts, odds included; a student's page only words and draws it. Nothing
here computes a chance: a student's kernel shows the referee's numbers, exact fractions as
published and their percentages, so that every page of the class shows the same figures as
the projector.

* :func:`table_value`: the table as the app draws it (:func:`speculation_nb.render.table_html`,
  fed by :class:`MomentTable`, which reads a moment the way ``table_html`` reads a game);
* :func:`odds_value`: the chance that the best trump holds, each seat's chance of the pot,
  the expected pot, the fair price and the member's own break-even, as text;
* :func:`seats_value`: who sits where (people, a computer player, the teacher, free);
* :func:`banner_text`: the line over the table while the teacher has paused or looks back (T4).

Every name is escaped and bidi-isolated (T11). A moment is read through :func:`field`, so a
:class:`Moment` and its JSON form (``public_moment``'s dict) draw the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import Card
from ..i18n import Safe, Translator
from ..render import table_html
from .parts import bidi, card_html, esc

__all__ = [
    "MomentTable",
    "at_seat",
    "banner_text",
    "due_seat",
    "exact_text",
    "field",
    "fraction",
    "odds_value",
    "seat_names",
    "seats_value",
    "table_value",
]


def field(obj: Any, name: str, default: Any = None) -> Any:
    """``obj.name`` (a dataclass) or ``obj[name]`` (its JSON form); ``default`` when absent."""
    if obj is None:
        return default
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def at_seat(mapping: Any, seat: Any, default: Any = None) -> Any:
    """The entry of seat ``seat`` in a mapping keyed by seat numbers (ints, or strings in JSON)."""
    if not isinstance(mapping, Mapping):
        return default
    if seat in mapping:
        return mapping[seat]
    return mapping.get(str(seat), default)


def seats_of(mapping: Any) -> dict[int, Any]:
    """A mapping keyed by seat numbers, with int keys (``"none"`` and other words left out)."""
    if not isinstance(mapping, Mapping):
        return {}
    out: dict[int, Any] = {}
    for key, value in mapping.items():
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            out[int(key)] = value
    return out


def fraction(value: Any) -> Fraction | None:
    """A published exact number (``Fraction`` or ``"p/q"``) as a Fraction; None if absent."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def exact_text(value: Fraction) -> str:
    """``3/7``, or ``12`` for a whole number: the form the moment publishes."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def due_seat(moment: Any, what: str) -> Any:
    """``moment.due[what]``: a seat, a list of seats, a mapping of seats, or None."""
    return field(field(moment, "due"), what)


def seat_names(moment: Any, t: Translator) -> list[str]:
    """The seats' display names (``Seat 1`` ... when the moment gives none)."""
    players = int(field(moment, "players", 0) or 0)
    names = [str(n) for n in (field(moment, "names") or [])]
    return [names[i] if i < len(names) else t("seat.number", n=i + 1) for i in range(players)]


class MomentTable:
    """What :func:`~speculation_nb.render.table_html` reads of a game, read off a moment:
    the public facts only (face-down cards are counts, never cards)."""

    def __init__(self, moment: Any) -> None:
        players = int(field(moment, "players", 0) or 0)
        dead = int(field(moment, "dead", 0) or 0)
        self.rules = _Rules(players, dead > 0)
        self.turn_up = Card.parse(field(moment, "turn_up"))
        best = field(moment, "best")
        self.best_trump = None if best is None else Card.parse(best)
        trump = field(moment, "trump")
        self.trump = self.turn_up.suit if trump is None else trump
        self.holder = field(moment, "holder")
        self.over = bool(field(moment, "over", False))
        self.turn = None if self.over else field(moment, "turn")
        self.stacks = [int(x) for x in field(moment, "stacks", [])]
        self.face_down = [int(x) for x in field(moment, "face_down", [])]
        self.face_up = [[Card.parse(c) for c in cards] for cards in field(moment, "face_up", [])]
        self.pot = int(field(moment, "pot", 0) or 0)
        self.dead = dead
        self.dead_cards = None
        self.dealer = field(moment, "dealer")
        self.winner = field(moment, "winner")
        bids = field(field(moment, "auction"), "bids")
        self.auction = {seat: int(amount) for seat, amount in seats_of(bids).items()}


class _Rules:
    def __init__(self, players: int, dead_hand: bool) -> None:
        self.players = players
        self.dead_hand = dead_hand


def table_value(moment: Any, t: Translator, me: int | None = None) -> str:
    """The table of ``moment`` as HTML (seat ``me`` marked as the reader's own)."""
    names = seat_names(moment, t)
    if me is not None and 0 <= me < len(names):
        names[me] = t("seat.you", name=names[me])
    width = 54 if len(names) <= 5 else 46
    return table_html(MomentTable(moment), names, texts=t.render_texts(), card_width=width, number=t.number)


def _chance(value: Fraction, t: Translator) -> str:
    return f"{t.percent(value)} = {exact_text(value)}"


def _chips(value: Fraction, t: Translator) -> str:
    return t.number(value) if value.denominator == 1 else t.number(value, 1)


def odds_value(moment: Any, t: Translator, me: int | None = None) -> Safe:
    """The published odds in words (see the module docstring); the settled line once over."""
    odds = field(moment, "odds")
    names = seat_names(moment, t)
    out = [f'<div class="spec-box-title">{esc(t("class.member.odds_title"))}</div>']
    if field(moment, "over", False):
        out.append(f'<div class="spec-member-settled">{esc(t("class.member.settled"))}</div>')
    hold = fraction(field(odds, "hold"))
    best = field(moment, "best")
    if hold is not None and best is not None:
        words = t.html("class.member.hold", card=card_html(best, t), pct=t.percent(hold), fraction=exact_text(hold))
        out.append(f'<div class="spec-member-hold">{words}</div>')
    win = field(odds, "win")
    if isinstance(win, Mapping) and win:
        rows = []
        for seat, value in sorted(seats_of(win).items()):
            chance = fraction(value)
            if chance is None or not 0 <= seat < len(names):
                continue
            rows.append(
                f'<li data-seat="{seat}"><b>{bidi(names[seat])}</b> '
                f'<span class="spec-member-number">{esc(_chance(chance, t))}</span></li>'
            )
        nobody = fraction(at_seat(win, "none"))
        if nobody is not None and nobody != 0:
            words = t.html("class.member.win_none", pct=t.percent(nobody), fraction=exact_text(nobody))
            rows.append(f'<li data-seat="none">{words}</li>')
        out.append(f'<div class="spec-member-win-title">{esc(t("class.member.win_title"))}</div>')
        out.append(f'<ul class="spec-member-win">{"".join(rows)}</ul>')
    for key, name in (("expected_pot", "class.member.expected_pot"), ("fair", "class.member.fair_price")):
        value = fraction(field(odds, key))
        if value is not None:
            words = t.html(name, value=_chips(value, t), exact=exact_text(value))
            out.append(f'<div class="spec-member-{key.replace("_", "-")}">{words}</div>')
    if me is not None:
        mine = fraction(at_seat(field(odds, "break_even"), me))
        if mine is not None:
            words = t.html("class.member.break_even", value=_chips(mine, t), exact=exact_text(mine))
            out.append(f'<div class="spec-member-break-even">{words}</div>')
    return Safe("".join(out))


def seats_value(moment: Any, t: Translator) -> Safe:
    """Who sits at each seat, in words (never colour alone)."""
    names = seat_names(moment, t)
    seats: Sequence[Any] = field(moment, "seats") or []
    rows = []
    for i, seat in enumerate(seats):
        if i >= len(names):
            break
        kind = field(seat, "kind", "free")
        label = bidi(names[i])
        if kind == "people":
            members = Safe(", ".join(bidi(m) for m in field(seat, "members", []) or []))
            words = Safe(f"{label}: {members}")
        elif kind in ("computer", "teacher"):
            words = t.html(f"class.member.seat_{kind}", seat=label)
        else:
            words = t.html("class.member.seat_free", seat=label)
        rows.append(f'<li data-seat="{i}" data-kind="{esc(kind)}">{words}</li>')
    title = esc(t("class.member.seats_title"))
    return Safe(f'<div class="spec-box-title">{title}</div><ul class="spec-member-seat-list">{"".join(rows)}</ul>')


def banner_text(moment: Any, t: Translator) -> str:
    """The T4 line: paused, or the teacher looks back at an earlier step; ``""`` when live."""
    if field(moment, "paused", False):
        return t("class.member.paused")
    if not field(moment, "live", True):
        step, last = field(moment, "step", 0), field(moment, "last", 0)
        return t("class.member.looking_back", step=t.number(int(step)), last=t.number(int(last)))
    return ""
