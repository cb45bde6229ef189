"""The model of "Set up a moment" (issue 25): what the editor's fields say, as a :class:`Moment`.

No widget code here: the editor (:mod:`.player.composer_panel`) copies its fields into a
:class:`ComposerForm` (plain values: the text a teacher typed, the choices they made) and back;
:func:`build` reads the form into the public :class:`~speculation_nb.engine.compose.Moment` it
describes, and :func:`open_moment` opens a moment in the app's :class:`~.model.Controller` as a
deal of its own, its unseen cards dealt from a secret seed (:func:`~speculation_nb.engine.compose.
compose`), with its odds at once.

What the form leaves blank, the rules fill in: a seat's face-down count (the rest of its hand), the
holder (whoever turned up the best trump), the stacks and the pot (the starting chips less the
antes, the V1 payments and the price paid), the seat due (whichever the rules give). The best trump
is the highest trump face up. A field that cannot be read raises :class:`FormError` (a
:class:`~speculation_nb.engine.errors.Refusal` naming the field, worded from the ``error.compose.*``
keys); a moment the rules cannot reach, the engine's ``IllegalAction`` naming the rule. The
form is never changed by a refusal: what the teacher typed stays.

For other screens (the shared table's poll): :func:`open_moment` and
:func:`speculation_nb.engine.compose.compose` take a ``Moment``; :class:`Composer` lists the
question bank's moments and the teacher's own (``entries``), each a
:class:`~speculation_nb.links.composed.MomentEntry`.

>>> form = ComposerForm(players=3, turn_up="QH", face_up=["", "2C", "KH"])
>>> m = build(form)
>>> m.holder, str(m.best_trump), m.face_down, m.stacks, m.pot
(2, 'K♥', (3, 2, 2), (54, 56, 56), 14)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any
from weakref import WeakKeyDictionary

from ..engine import bank
from ..engine.cards import Card
from ..engine.compose import Moment, compose
from ..engine.errors import Refusal
from ..engine.game import Game
from ..engine.session import Session
from ..engine.settings import Rules
from ..links.composed import MomentEntry, moments_json, read_moments
from ..players.characters import mansfield_park
from ..players.lineups import DEFAULT_NAMES

__all__ = [
    "Composer",
    "ComposerForm",
    "FormError",
    "build",
    "composed_entry",
    "form_of",
    "moment_names",
    "open_moment",
    "public_entry",
    "seat_names",
]

_SPLIT = re.compile(r"[\s,;]+")
_OTHER_RULES = ("blind_trading", "price_cap", "ante", "uniform_ante", "start_chips")
#: The entry each composed session was opened from (its share link and file carry that view only).
_COMPOSED: WeakKeyDictionary[Session, MomentEntry] = WeakKeyDictionary()


class FormError(Refusal):
    """A field of the editor that cannot be read: ``field`` names it (``"turn_up"``, ``"up2"``,
    ``"stack1"``, ``"pot"``, ``"paid"``, ``"rules"``; seats from 0), ``key`` words it."""

    def __init__(self, field_name: str, key: str, message: str, **params: Any) -> None:
        super().__init__("", f"compose.{key}", message, params)
        self.field = field_name


@dataclass
class ComposerForm:
    """The editor's fields as plain values (see the module docstring). Seats count from 0;
    ``face_up[s]`` is the text typed for seat s ("QH 7S", in the order turned up); ``face_down[s]``,
    ``holder``, ``turn``, ``dead`` None for "as the rules give"; ``paid``, ``pot`` and ``stacks[s]``
    text ("" for the same)."""

    players: int = 5
    preset: str = "cardrules"
    hand_size: int = 3
    jack_five: bool = False
    dead_hand: bool = False
    dealer: int = 0
    turn_up: str = ""
    face_up: list[str] = field(default_factory=list)
    face_down: list[int | None] = field(default_factory=list)
    dead: int | None = None
    holder: int | None = None
    paid: str = ""
    stacks: list[str] = field(default_factory=list)
    pot: str = ""
    turn: int | None = None
    #: The rules' settings the editor does not show (antes, price cap, starting chips, V3), as
    #: ``Rules`` names them: kept from a moment opened in the form, the defaults otherwise.
    other_rules: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Make the seats' lists as long as ``players`` (new seats blank); seats beyond go."""
        n = self.players
        self.face_up = (list(self.face_up) + [""] * n)[:n]
        self.face_down = (list(self.face_down) + [None] * n)[:n]
        self.stacks = (list(self.stacks) + [""] * n)[:n]
        for name in ("dealer", "holder", "turn"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < n:
                setattr(self, name, 0 if name == "dealer" else None)


def _cards(text: str, where: str) -> tuple[Card, ...]:
    out = []
    for part in _SPLIT.split(text.strip()):
        if not part:
            continue
        try:
            out.append(Card.parse(part))
        except ValueError:
            raise FormError(where, "bad_card", f"{part!r} is not a card", value=part[:12]) from None
    return tuple(out)


def _number(text: str, where: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise FormError(where, "bad_number", f"{text!r} is not a whole number", value=text[:12])
    return int(text)


def _rules(form: ComposerForm) -> Rules:
    try:
        return Rules(
            **form.other_rules,
            players=form.players,
            preset=form.preset,
            hand_size=form.hand_size,
            jack_five=form.jack_five,
            dead_hand=form.dead_hand,
        )
    except Refusal:
        raise
    except ValueError as error:
        raise FormError("rules", "bad_rules", str(error), detail=str(error)) from None


def build(form: ComposerForm) -> Moment:
    """The :class:`Moment` the form describes (blanks filled in by the rules, module docstring).
    A field that cannot be read raises :class:`FormError`; the rules' own refusals come from
    :func:`~speculation_nb.engine.compose.compose` (or ``Rules``), naming the rule."""
    rules = _rules(form)
    n = rules.players
    form = replace(form)
    form.fit()
    if not form.turn_up.strip():
        raise FormError("turn_up", "no_turn_up", "say which card was turned up")
    turn_up = _cards(form.turn_up, "turn_up")
    if len(turn_up) != 1:
        raise FormError("turn_up", "one_turn_up", "one card is turned up after the deal")
    up = tuple(_cards(form.face_up[s], f"up{s}") for s in range(n))
    trumps = [c for seat in up for c in seat if c.suit == turn_up[0].suit]
    best = max([turn_up[0], *trumps], key=lambda c: c.rank)
    owner = form.dealer if best == turn_up[0] else next(s for s in range(n) if best in up[s])
    holder = owner if form.holder is None else form.holder
    down: tuple[int, ...] = tuple(
        max(0, rules.hand_size - len(up[s])) if (d := form.face_down[s]) is None else d for s in range(n)
    )
    dead = (rules.hand_size if rules.dead_hand else 0) if form.dead is None else form.dead
    paid = _number(form.paid, "paid")
    if holder == owner and paid is not None and form.holder is None:
        paid = None  # "turned it up": a price typed before the holder was chosen is not a sale
    antes = rules.antes(form.dealer)
    stacks = [rules.start_chips - a for a in antes]
    pot = sum(antes)
    if rules.jack_five:
        payers = [form.dealer] * (turn_up[0].rank in (5, 11)) + [
            s for s in range(n) for c in up[s] if c.rank in (5, 11)
        ]
        for seat in payers:
            stacks[seat] -= 1
            pot += 1
    if paid is not None and holder != owner:
        stacks[holder] -= paid
        stacks[owner] += paid
    for seat in range(n):
        given = _number(form.stacks[seat], f"stack{seat}")
        if given is not None:
            stacks[seat] = given
    given_pot = _number(form.pot, "pot")
    try:
        return Moment(
            rules,
            form.dealer,
            turn_up[0],
            up,
            down,
            holder,
            best,
            tuple(max(0, s) for s in stacks),
            pot if given_pot is None else given_pot,
            dead,
            paid,
            form.turn,
        )
    except Refusal:
        raise
    except ValueError as error:
        raise FormError("rules", "bad_moment", str(error), detail=str(error)[:200]) from None


def form_of(moment: Moment) -> ComposerForm:
    """The form that describes ``moment`` (every field filled in), for the editor to show."""
    rules = moment.rules
    return ComposerForm(
        players=rules.players,
        preset=rules.preset,
        hand_size=rules.hand_size,
        jack_five=rules.jack_five,
        dead_hand=rules.dead_hand,
        dealer=moment.dealer,
        turn_up=moment.turn_up.code,
        face_up=[" ".join(c.code for c in up) for up in moment.face_up],
        face_down=list(moment.face_down),
        dead=moment.dead if rules.dead_hand else None,
        holder=moment.holder,
        paid="" if moment.paid is None else str(moment.paid),
        stacks=[str(s) for s in moment.stacks],
        pot=str(moment.pot),
        turn=moment.turn,
        other_rules={k: v for k, v in rules.to_dict().items() if k in _OTHER_RULES},
    )


def seat_names(players: int, preset: str, temperament: str = "mixed") -> list[str]:
    """The seats' names of a composed moment: the chapter's round table for six seats under Hoyle
    (the bank's rules, :data:`speculation_nb.engine.bank.RULES`) or the novel's cast, else the
    app's defaults."""
    if (players, preset) == (bank.RULES.players, bank.RULES.preset) or temperament == "mansfield":
        return list(mansfield_park(players).names)
    return list(DEFAULT_NAMES[:players])


def moment_names(moment: Moment, temperament: str = "mixed") -> list[str]:
    """The seats' names for ``moment`` (:func:`seat_names`)."""
    return seat_names(moment.rules.players, moment.rules.preset, temperament)


def open_moment(
    controller: Any, moment: Moment | MomentEntry, names: list[str] | None = None, seed: int | None = None
) -> Game:
    """Open ``moment`` (a :class:`Moment`, or a :class:`MomentEntry` with its question) in
    ``controller`` (a :class:`~.model.Controller`): a deal of its own, composed from ``seed``
    (None: a secret one), shown live with its exact odds, in classroom mode (no computer player
    moves it on); :func:`composed_entry` is then its entry, and the share panel links and saves
    the public view only. Raises what :func:`compose` raises (nothing changes then). Returns the
    :class:`Game`."""
    entry = moment if isinstance(moment, MomentEntry) else MomentEntry(moment)
    game = compose(entry.moment, seed)
    names = names or moment_names(entry.moment, getattr(controller, "temperament", "mixed"))
    if getattr(controller, "mode", "classroom") != "classroom":
        controller.mode = "classroom"  # a question deal: the teacher drives every seat, nothing moves by itself
    session = Session.from_game(game, names)
    _COMPOSED[session] = entry
    controller.replace_session(session, None)
    return game


def composed_entry(controller: Any) -> MomentEntry | None:
    """The entry a controller's session was composed from (:func:`open_moment`), else None."""
    return _COMPOSED.get(controller.session)


def public_entry(controller: Any) -> MomentEntry | None:
    """The public view of the moment shown, when the session shown was composed (None otherwise):
    the moment as it stands now if it is one (a live deal, no auction open), else the one composed."""
    entry = composed_entry(controller)
    if entry is None:
        return None
    shown = controller.shown
    if shown.over or shown.auction is not None:
        return entry
    try:
        return replace(entry, moment=Moment.of(shown))
    except ValueError:
        return entry


class Composer:
    """The editor's state beside its form: the moments offered (the bank's, then the teacher's
    own), and the teacher's own list, which a file keeps (:func:`moments_json`)."""

    def __init__(self) -> None:
        self.form = ComposerForm()
        self.mine: list[MomentEntry] = []
        self.chosen: str = ""  # the id of the moment last opened in the form ("" for none)

    def entries(self) -> list[tuple[str, MomentEntry, str]]:
        """(id, entry, catalog key of the question or "") for each moment offered: ``bank:<id>``
        for the question bank's, ``mine:<n>`` for the teacher's own."""
        out = [(f"bank:{q.id}", MomentEntry(q.to_moment(), q.id), q.key) for q in bank.QUESTIONS]
        out += [(f"mine:{k}", e, "") for k, e in enumerate(self.mine)]
        return out

    def entry(self, id: str) -> tuple[MomentEntry, str]:
        """The entry and its question key of ``id`` (``ValueError`` when there is none)."""
        for key, entry, question in self.entries():
            if key == id:
                return entry, question
        raise ValueError(f"no moment {id!r}")

    def load(self, id: str) -> MomentEntry:
        """Fill the form from the moment ``id``; returns its entry."""
        entry, _key = self.entry(id)
        self.form = form_of(entry.moment)
        self.chosen = id
        return entry

    def keep(self, title: str, question: str = "") -> MomentEntry:
        """Add the form's moment to the teacher's own (built and composed first: a refused moment
        is not kept, the refusal is raised)."""
        moment = build(self.form)
        compose(moment, 0)
        entry = MomentEntry(moment, title.strip()[:80], question.strip()[:500])
        self.mine.append(entry)
        self.chosen = f"mine:{len(self.mine) - 1}"
        return entry

    def file_text(self) -> str:
        """The teacher's own moments as a file (:data:`~speculation_nb.links.composed.MOMENTS_FORMAT`)."""
        return moments_json(self.mine)

    def add_file(self, data: Any) -> int:
        """Add the moments of a file (its parsed JSON or text) to the teacher's own; returns how
        many. A file that is not one raises :class:`~speculation_nb.links.query.ShareError`."""
        entries = read_moments(data) if not isinstance(data, tuple) else data
        self.mine.extend(entries)
        return len(entries)
