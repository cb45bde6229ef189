"""A composed moment as a link and as a file: its public view only, never a seed (issue 25).

A moment a teacher composes (:class:`~speculation_nb.engine.compose.Moment`) is what the table
shows: no face-down card is in it. Its **link** carries that view and nothing else; whoever opens
it gets the unseen cards dealt afresh from a secret seed (:func:`~.compose.compose`), so the odds
are those of the public view, and nothing in the link tells a face-down card. The parameters are
rows of the links' one grammar (:data:`.query.PARAMS`)::

    ?players=6&preset=hoyle1847&turnup=QH&dealer=5&up=_____&down=3.3.3.3.3.3&holder=5
     &stacks=56.56.56.56.54.56&pot=26&due=6&ask=...

``turnup`` (a card code) marks a composed moment; ``dealer``, ``holder`` and ``due`` (the seat due
to turn up next) count seats from 1; ``up`` gives each seat's turned-up cards in order (seats
joined by ``_``, cards by ``.``); ``down`` and ``stacks`` one number per seat (joined by ``.``);
``dead`` the dead pile's count (V2); ``paid`` what the holder paid for the best trump (absent:
the holder turned it up); ``pot``; ``ask`` the question, as typed. A check character comes first, as in every share link
(:mod:`.check`). The best trump is the highest
trump face up. A composed link with a ``seed`` or ``moves`` is refused (``share.composed_seed``).
The rules are written as a share link writes them (``players``, ``hand``, ``v1``-``v3``, ``cap``,
``ante``, ``chips``, ``preset``).

Its **file** (:data:`MOMENTS_FORMAT`, version 1) is a list of moments, each with a title and a
question: the teacher's own moments, kept beside the question bank's. A file of one moment is the
"save the moment" of the share panel. It holds :meth:`Moment.to_dict` and no dealt card, and
:func:`read_moments` reads it strictly (:class:`~.query.ShareError`, nothing half read).

>>> from speculation_nb.engine import bank
>>> entry = MomentEntry(bank.question("dozen").to_moment(), "dozen")
>>> q = composed_query(entry)
>>> "seed" in q, read_composed(dict(p.split("=") for p in q.split("&")[1:])).moment == entry.moment
(False, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from ..engine.cards import Card
from ..engine.compose import Moment
from ..engine.saving import dumps
from ..engine.settings import Rules
from .check import add_check
from .query import MAX_QUESTION, PARAMS, ShareError, given, rules_of, shown

__all__ = [
    "MAX_MOMENTS",
    "MOMENTS_FORMAT",
    "MomentEntry",
    "composed_query",
    "moments_json",
    "read_composed",
    "read_moments",
    "rules_params",
]

MOMENTS_FORMAT = "speculation_nb.moments"
#: The most moments a file of moments holds.
MAX_MOMENTS = 200
_MAX_TITLE = 80


@dataclass(frozen=True)
class MomentEntry:
    """A moment with what a teacher calls it and asks about it (both as typed, maybe empty)."""

    moment: Moment
    title: str = ""
    question: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.moment, Moment):
            raise ValueError("a moment entry needs a Moment")
        for name, limit in (("title", _MAX_TITLE), ("question", MAX_QUESTION)):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > limit:
                raise ValueError(f"the {name} is text of at most {limit} characters")


# ------------------------------------------------------------------ the rules
def rules_params(rules: Rules) -> list[tuple[str, str]]:
    """The parameters that give ``rules`` (only those that differ from the defaults, ``players``
    always), as a share link writes them."""
    out = [("players", str(rules.players))]
    standard = Rules(players=rules.players)
    if rules.hand_size != standard.hand_size:
        out.append(("hand", str(rules.hand_size)))
    for name, key in (("jack_five", "v1"), ("dead_hand", "v2"), ("blind_trading", "v3")):
        if getattr(rules, name):
            out.append((key, "1"))
    if rules.price_cap is not None:
        out.append(("cap", str(rules.price_cap)))
    if rules.ante == "uniform":
        out.append(("ante", str(rules.uniform_ante)))
    if rules.start_chips != standard.start_chips:
        out.append(("chips", str(rules.start_chips)))
    if rules.preset != standard.preset:
        out.append(("preset", rules.preset))
    return out


# ------------------------------------------------------------------ the link
def composed_query(entry: MomentEntry | Moment, settings: Mapping[str, Any] | None = None) -> str:
    """The query (without ``?``) of a composed moment: its public view only (module docstring).
    ``settings``: the app's ``lang`` (written when not English)."""
    if isinstance(entry, Moment):
        entry = MomentEntry(entry)
    m = entry.moment
    out: list[tuple[str, str]] = []
    lang = (settings or {}).get("lang", PARAMS["lang"].default)
    if lang != PARAMS["lang"].default:
        out.append(("lang", str(lang)))
    out += rules_params(m.rules)
    out.append(("turnup", m.turn_up.code))
    out.append(("dealer", str(m.dealer + 1)))
    out.append(("up", "_".join(".".join(c.code for c in up) for up in m.face_up)))
    out.append(("down", ".".join(str(n) for n in m.face_down)))
    if m.dead:
        out.append(("dead", str(m.dead)))
    out.append(("holder", str(m.holder + 1)))
    if m.paid is not None:
        out.append(("paid", str(m.paid)))
    out.append(("stacks", ".".join(str(n) for n in m.stacks)))
    out.append(("pot", str(m.pot)))
    if m.turn is not None:
        out.append(("due", str(m.turn + 1)))
    if entry.question:
        out.append(("ask", entry.question))
    return add_check(urlencode(out, quote_via=quote))


def _numbers(params: Mapping[str, str], name: str, count: int) -> list[int]:
    text = given(params, name)
    parts = text.split(".")
    if len(parts) != count or not all(p.isascii() and p.isdigit() and len(p) <= 12 for p in parts):
        raise ShareError("share.bad_list", f"{name} is not {count} whole numbers", name=name, count=count)
    return [int(p) for p in parts]


def _card(name: str, text: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise ShareError("share.bad_card", f"{name}: {shown(text)!r} is not a card", value=shown(text)) from None


def read_composed(params: Mapping[str, str]) -> MomentEntry | None:
    """The composed moment a page's query names (``turnup=...``), or None when it names none.
    A value that is not one, a ``seed`` or ``moves`` beside it, raise :class:`ShareError`;
    whether the rules can reach the moment is for :func:`~.compose.compose` to say."""
    if "turnup" not in params:
        return None
    if "seed" in params or "moves" in params:
        raise ShareError("share.composed_seed", "a composed moment's link carries no seed and no moves")
    rules = rules_of(params, given(params, "players"))
    n = rules.players
    for name in ("dealer", "holder", "stacks", "pot", "up", "down"):
        if name not in params:
            raise ShareError("share.composed_missing", f"the composed moment has no {name}", name=name)
    ups = given(params, "up").split("_")
    if len(ups) != n:
        raise ShareError("share.bad_list", f"up is not {n} seats' cards", name="up", count=n)
    face_up = tuple(tuple(_card("up", c) for c in up.split(".") if c) for up in ups)
    turn = given(params, "due", high=n)
    try:
        moment = Moment(
            rules,
            given(params, "dealer", high=n) - 1,
            _card("turnup", given(params, "turnup")),
            face_up,
            tuple(_numbers(params, "down", n)),
            given(params, "holder", high=n) - 1,
            _best(rules, _card("turnup", given(params, "turnup")), face_up),
            tuple(_numbers(params, "stacks", n)),
            given(params, "pot"),
            given(params, "dead"),
            given(params, "paid"),
            None if turn is None else turn - 1,
        )
        return MomentEntry(moment, "", given(params, "ask") or "")
    except ShareError:
        raise
    except ValueError as error:
        raise ShareError("share.bad_moment", f"the moment cannot be read: {error}", detail=str(error)[:200]) from None


def _best(rules: Rules, turn_up: Card, face_up: tuple[tuple[Card, ...], ...]) -> Card:
    """The highest trump face up (the turn-up counts): the best trump of a moment (P6)."""
    trumps = [c for up in face_up for c in up if c.suit == turn_up.suit]
    return max([turn_up, *trumps], key=lambda c: c.rank)


# ------------------------------------------------------------------ the file
def moments_json(entries: list[MomentEntry] | tuple[MomentEntry, ...]) -> str:
    """The file of ``entries`` (:data:`MOMENTS_FORMAT`): deterministic JSON, no dealt card."""
    if len(entries) > MAX_MOMENTS:
        raise ValueError(f"a file holds at most {MAX_MOMENTS} moments")
    return dumps(
        {
            "format": MOMENTS_FORMAT,
            "version": 1,
            "moments": [{"moment": e.moment.to_dict(), "title": e.title, "question": e.question} for e in entries],
        }
    )


def read_moments(data: Any) -> tuple[MomentEntry, ...]:
    """The moments of a file's parsed JSON ``data`` (a dict of :data:`MOMENTS_FORMAT`), or
    :class:`ShareError` (``save.version``, ``save.damaged``): nothing half read."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError:
            raise ShareError("save.not_json", "the file is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != MOMENTS_FORMAT:
        raise ShareError("save.not_a_save", "the file is not a file of moments")
    version = data.get("version")
    if version != 1 or isinstance(version, bool):
        raise ShareError(
            "save.version", f"version {str(version)[:12]!r} of the save is not known", version=str(version)[:12]
        )
    try:
        if set(data) != {"format", "version", "moments"}:
            raise ValueError("a file of moments has the keys format, version, moments")
        items = data["moments"]
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_MOMENTS:
            raise ValueError(f"a file holds 1 to {MAX_MOMENTS} moments")
        entries = []
        for item in items:
            if not isinstance(item, dict) or set(item) != {"moment", "title", "question"}:
                raise ValueError("a moment of the file has the keys moment, title, question")
            entries.append(MomentEntry(Moment.from_dict(item["moment"]), item["title"], item["question"]))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        raise ShareError("save.damaged", f"the save does not replay: {error}", detail=str(error)[:300]) from None
    return tuple(entries)
