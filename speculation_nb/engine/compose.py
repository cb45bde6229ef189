"""A moment composed from its public view: a :class:`Moment`, and the :class:`Game` it opens as.

A teacher who wants to ask "Mary holds the Queen of trumps with eleven cards to come: what would
you pay?" describes the moment by what the table shows, never by the face-down cards:

* the rules, the dealer and the turn-up;
* the cards each seat has turned up, in order, and how many face-down cards each pile still holds
  (and, with V2, the dead pile's count; the stock is what is left of the 52);
* the best trump and its holder: the seat that turned it up (the dealer for the turn-up), or a
  seat that bought it from that seat for ``paid`` chips: the sale is part of the history;
* the stacks and the pot as they are now.

:func:`compose` deals the face-down cards at random among the unseen ones (from ``seed``, or from
a secret seed drawn by :class:`random.SystemRandom`), then finds a history that reaches the moment
by the rules: the reveals in the order of turns from the dealer's left (P3, P4), with the sale
placed where it fits. So the game it returns is an ordinary deal, played on fairly, and its odds
(:mod:`speculation_nb.odds`) are exactly those of the public view: all unseen cards are
interchangeable (RULES.md, "unseen card").

**Reachable** means: some order of reveals, with at most the one sale of the best trump named by
``paid`` and no blind trade, leads from the deal to the moment. Moments reached only through the
sale of a trump since beaten, a chain of sales or a blind trade (V3) are not described (their
piles may not fit), nor a moment with an auction open or a deal already over. V1 payments are
taken as paid (every payer had a chip then). Anything else is refused with an
:class:`~speculation_nb.engine.errors.IllegalAction` (a ``ValueError``) naming the rule, worded
from the catalogs' ``error.compose_*`` keys:

>>> from speculation_nb import Rules
>>> m = Moment(Rules(players=3), dealer=0, turn_up=Card.parse("QH"),
...            face_up=((), ("2C",), ("KH",)), face_down=(3, 2, 2), holder=2, best_trump="KH",
...            stacks=(54, 56, 56), pot=14, turn=0)
>>> game = compose(m, seed=1)
>>> game.holder, str(game.best_trump), game.face_down, game.turn
(2, 'K♥', [3, 2, 2], 0)
>>> Moment.of(game) == m
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, full_deck
from .checks import MAX_STACK, as_int, is_whole, plain
from .deal import check_seat_number, laid_out
from .errors import IllegalAction
from .game import Game
from .settings import Rules

__all__ = ["Moment", "compose"]


def _ints(values: Any, n: int, what: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != n:
        raise ValueError(f"give {what} for each of the {n} seats")
    return tuple(as_int(plain(v), what, 0, MAX_STACK) for v in values)


@dataclass(frozen=True)
class Moment:
    """The public view of a live deal (see the module docstring): no face-down card in it.

    ``face_up[s]``: seat s's turned-up cards, first turned up first; ``face_down[s]``: how many
    cards seat s's pile still holds; ``dead``: the dead pile's count (V2, else 0); ``holder`` owns
    ``best_trump``; ``paid``: the price the holder paid for it, or None if the holder turned it up
    (the dealer, for the turn-up); ``stacks`` and ``pot``: chips now; ``turn``: the seat due to turn
    up a card next (when the sale happened can change it), or None for whichever a history gives.
    Fields are checked for their types here (``ValueError``); whether the rules can reach the moment,
    by :func:`compose`.
    """

    rules: Rules
    dealer: int
    turn_up: Card
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[int, ...]
    holder: int
    best_trump: Card
    stacks: tuple[int, ...]
    pot: int
    dead: int = 0
    paid: int | None = None
    turn: int | None = None

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Rules):
            raise ValueError("a moment needs a Rules")
        n = rules.players
        put = object.__setattr__
        put(self, "dealer", check_seat_number(rules, self.dealer, "dealer"))
        put(self, "holder", check_seat_number(rules, self.holder, "holder"))
        put(self, "turn_up", Card.parse(self.turn_up))
        put(self, "best_trump", Card.parse(self.best_trump))
        ups: Any = self.face_up
        if isinstance(ups, (str, bytes)) or not isinstance(ups, Sequence) or len(ups) != n:
            raise ValueError(f"give the turned-up cards of each of the {n} seats")
        cards = []
        for seat, up in enumerate(list(ups)):
            if isinstance(up, (str, bytes)) or not isinstance(up, Sequence) or len(up) > 52:
                raise ValueError(f"seat {seat}'s turned-up cards must be a list of cards")
            cards.append(tuple(Card.parse(c) for c in up))
        put(self, "face_up", tuple(cards))
        put(self, "face_down", _ints(self.face_down, n, "a face-down count"))
        put(self, "stacks", _ints(self.stacks, n, "a stack"))
        put(self, "pot", as_int(plain(self.pot), "the pot", 0, MAX_STACK))
        put(self, "dead", as_int(plain(self.dead), "the dead pile's count", 0, 52))
        paid = plain(self.paid)
        put(self, "paid", None if paid is None else as_int(paid, "the price paid", 0, MAX_STACK))
        if self.turn is not None:
            put(self, "turn", check_seat_number(rules, self.turn, "seat due"))

    # ------------------------------------------------------------------ reading
    @property
    def stock(self) -> int:
        """How many cards the stock holds: the 52 less the dealt ones and the turn-up."""
        return 52 - self.rules.hand_size * (self.rules.players + self.rules.dead_hand) - 1

    @property
    def unseen(self) -> int:
        """Cards not face up: the piles, the dead pile and the stock."""
        return 51 - sum(len(up) for up in self.face_up)

    @classmethod
    def of(cls, game: Game) -> Moment:
        """The public view of a live ``game`` (its sale of the best trump, if the holder bought it)."""
        if game.over or game.auction is not None:
            raise ValueError("only a live deal with no auction open is a moment")
        best, paid = game.best_trump, None
        for event in game.events:
            if event.kind == "sale" and event.get("card") == best and event.get("buyer") == game.holder:
                paid = event.get("price")
        owner = _owner(game.dealer, game.turn_up, best, [tuple(u) for u in game.face_up])
        return cls(
            game.rules,
            game.dealer,
            game.turn_up,
            tuple(tuple(u) for u in game.face_up),
            tuple(game.face_down),
            game.holder,
            best,
            tuple(game.stacks),
            game.pot,
            game.dead,
            None if owner == game.holder else paid,
            game.turn,
        )

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (card codes, plain numbers): the moment and nothing face down."""
        return {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "turn_up": self.turn_up.code,
            "face_up": [[c.code for c in up] for up in self.face_up],
            "face_down": list(self.face_down),
            "dead": self.dead,
            "holder": self.holder,
            "best_trump": self.best_trump.code,
            "paid": self.paid,
            "stacks": list(self.stacks),
            "pot": self.pot,
            "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Moment:
        """Read :meth:`to_dict` output; anything malformed raises ``ValueError`` (nothing runs)."""
        keys = {"rules", "dealer", "turn_up", "face_up", "face_down", "dead", "holder", "best_trump", "paid"}
        keys |= {"stacks", "pot", "turn"}
        if not isinstance(data, dict) or set(data) != keys:
            raise ValueError(f"a moment is a dict with the keys {', '.join(sorted(keys))}")
        args = dict(data)
        args["rules"] = Rules.from_dict(args["rules"])
        return cls(**args)


# ---------------------------------------------------------------------- reachability
def _owner(dealer: int, turn_up: Card, best: Card, face_up: Sequence[Sequence[Card]]) -> int | None:
    """The seat that turned up ``best`` (the dealer for the turn-up); None if it is not face up."""
    if best == turn_up:
        return dealer
    return next((seat for seat, up in enumerate(face_up) if best in up), None)


def _refuse(rule: str, key: str, message: str, **params: Any) -> IllegalAction:
    return IllegalAction(rule, f"compose_{key}", message, **params)


def check(m: Moment) -> int:
    """The checks a moment passes before any history is sought; returns the best trump's first owner."""
    rules, n = m.rules, m.rules.players
    seen: set[Card] = {m.turn_up}
    for up in m.face_up:
        for card in up:
            if card in seen:
                raise _refuse("S3", "card_twice", f"{card} is face up twice", card=card.code)
            seen.add(card)
    if m.turn_up.rank == 14:
        raise _refuse("S5", "ace", "an Ace turned up ends the deal at once: there is no moment to ask about")
    for seat in range(n):
        shown, down = len(m.face_up[seat]), m.face_down[seat]
        if shown + down != rules.hand_size:
            raise _refuse(
                "S3",
                "pile_size",
                f"seat {seat} has {shown} cards turned up and {down} face down, not {rules.hand_size} in all",
                seat=seat,
                up=shown,
                down=down,
                size=rules.hand_size,
            )
    dead = rules.hand_size if rules.dead_hand else 0
    if m.dead != dead:
        raise _refuse("V2", "dead", f"the dead pile holds {dead} cards, not {m.dead}", count=m.dead, size=dead)
    trump, best = m.turn_up.suit, m.best_trump
    owner = _owner(m.dealer, m.turn_up, best, m.face_up)
    if best.suit != trump or owner is None:
        raise _refuse("P6", "best_not_up", f"the best trump is a trump face up, not {best}", card=best.code)
    higher = [c for c in seen if c.suit == trump and c.rank > best.rank]
    if higher:
        top = max(higher, key=lambda c: c.rank)
        raise _refuse("P6", "higher_trump", f"{top} is face up above {best}", card=top.code, trump=best.code)
    if m.paid is None:
        if m.holder != owner:
            raise _refuse(
                "P2", "holder_unpaid", f"seat {m.holder} did not turn up {best}: say what it paid", holder=m.holder
            )
        if (m.face_up[owner] and m.face_up[owner][-1] != best) or (best == m.turn_up and m.face_up[owner]):
            raise _refuse(
                "P4", "holder_revealed", f"seat {owner} holds {best} and turned up no card after it", seat=owner
            )
    else:
        if m.holder == owner:
            raise _refuse("P2", "paid_own", f"seat {owner} turned up {best} itself and paid nothing", seat=owner)
        if m.paid < 1:
            raise _refuse("P2", "price_low", "a price is at least 1 chip", price=m.paid)
        if rules.price_cap is not None and m.paid > rules.price_cap:
            raise _refuse(
                "V4", "price_cap", f"no price above the cap of {rules.price_cap}", price=m.paid, cap=rules.price_cap
            )
    if not any(m.face_down[s] for s in range(n) if s != m.holder):
        raise _refuse("P7", "over", "no one but the holder has a face-down card: the deal is over")
    return owner


def _chips(m: Moment, owner: int) -> tuple[list[int], int]:
    """The stacks before the antes and the carried-over pot that lead to the moment's chips (G4)."""
    rules = m.rules
    before = [s + a for s, a in zip(m.stacks, rules.antes(m.dealer))]
    carried = m.pot - sum(rules.antes(m.dealer))
    if rules.jack_five:
        payers = [m.dealer] * (m.turn_up.rank in (5, 11))
        payers += [seat for seat, up in enumerate(m.face_up) for c in up if c.rank in (5, 11)]
        for seat in payers:
            before[seat] += 1
            carried -= 1
    if m.paid is not None:
        before[m.holder] += m.paid
        before[owner] -= m.paid
    if carried < 0 or any(b < a for b, a in zip(before, rules.antes(m.dealer))):
        raise _refuse("G4", "chips", "the stacks and the pot do not add up to what the antes and payments left")
    return before, carried


def _history(m: Moment, game: Game, owner: int, sale_at: int | None) -> tuple[Game, tuple[str, int] | None]:
    """Play the moment's reveals on ``game`` in the order of turns, the sale after ``sale_at`` reveals.

    Returns the game and None when it reaches the moment, else why not: ("due", seat) when a seat
    is due that has no more cards to turn up, ("over", 0) when the deal ends first."""
    total = sum(len(up) for up in m.face_up)
    for step in range(total + 1):
        if step == sale_at:
            if game.holder != owner or game.best_trump != m.best_trump or game.over:
                return game, ("sale", step)
            game.open_auction()
            game.bid(m.holder, m.paid or 0)
            game.accept(m.holder)
        if step == total:
            break
        due = game.turn
        if due is None:
            return game, ("over", step)
        if len(game.face_up[due]) >= len(m.face_up[due]):
            return game, ("due", due)
        game.reveal()
    if game.over:
        return game, ("over", total)
    return game, None


def compose(moment: Moment, seed: int | None = None) -> Game:
    """A :class:`Game` at ``moment``: its face-down cards dealt at random among the unseen ones
    (from ``seed``, or a secret seed), its history found by the rules (see the module docstring).

    Refuses a moment the rules cannot reach with an ``IllegalAction`` naming the rule."""
    if not isinstance(moment, Moment):
        raise ValueError("compose needs a Moment")
    m, rules = moment, moment.rules
    owner = check(m)
    before, carried = _chips(m, owner)
    seen = {m.turn_up, *(c for up in m.face_up for c in up)}
    unseen = [c for c in full_deck() if c not in seen]
    if seed is not None and not is_whole(seed):
        raise ValueError("a seed is a whole number")
    rng = random.SystemRandom() if seed is None else random.Random(seed)
    rng.shuffle(unseen)
    piles: list[list[Card]] = []
    for seat in range(rules.players):
        piles.append(list(m.face_up[seat]) + unseen[: m.face_down[seat]])
        del unseen[: m.face_down[seat]]
    dead = unseen[: m.dead] if rules.dead_hand else None
    layout = laid_out(rules, piles, m.turn_up, dead, m.dealer, before, carried)
    total = sum(len(up) for up in m.face_up)
    # the sale, if any, after any number of reveals (those before the best trump fail at once)
    tries: list[int | None] = [None] if m.paid is None else list(range(total + 1))
    furthest: tuple[int, tuple[str, int]] | None = None
    for sale_at in tries:
        game, why = _history(m, Game(rules, layout), owner, sale_at)
        if why is None and m.turn is not None and game.turn != m.turn:
            why = ("turn", m.turn)
        if why is None:
            if game.stacks != list(m.stacks) or game.pot != m.pot:
                raise _refuse("G4", "chips", "the stacks and the pot do not add up to what the antes and payments left")
            return game
        if furthest is None or game.reveals >= furthest[0]:
            furthest = (game.reveals, why)
    assert furthest is not None
    kind, seat = furthest[1]
    if kind == "due":
        raise _refuse(
            "P3",
            "out_of_turn",
            f"in the order of turns from the dealer's left, seat {seat} would have to turn up another card",
            seat=seat,
        )
    if kind == "turn":
        raise _refuse("P3", "turn", f"seat {seat} cannot be due to turn up a card at this moment", seat=seat)
    if kind == "over":
        raise _refuse("P7", "ends_early", "in the order of turns the deal would be over before this moment")
    raise _refuse(
        "P2",
        "no_sale",
        f"seat {m.holder} could not have bought {m.best_trump} from seat {owner}",
        holder=m.holder,
        seat=owner,
    )
