"""One moment of a deal as every seat sees it, with its exact odds: the one value the app, the
shared table, the students' screens and the share links show.

:meth:`DealMoment.of` reads a :class:`~speculation_nb.engine.game.Game` once: the **public facts**
(the cards face up, how many cards each pile holds, the stacks, the pot, the bids, who holds the
best trump, whose turn it is, what each seat may do now, as ``Game.legal_actions()`` says) and
the exact numbers of RULES.md O1-O5 (:class:`Odds`: the hold chance, the win chances, the expected
pot, the fair price and, while an auction is open, every bidder's break-even prices), all
:class:`~fractions.Fraction`. Nobody looks at a face-down card (S6): no field holds one, so a
moment can be shown, published or sent anywhere.

The value is frozen. :meth:`DealMoment.to_json` is its JSON form, the deal's part of the record
the shared table's referee publishes (``docs/TABLE.md``; :mod:`speculation_nb.classroom.moment`
adds the table's own fields); :meth:`DealMoment.from_json` reads it back, strictly. The format
is the one published since the shared table began: a member's kernel of any version reads it.

>>> from speculation_nb import Game, Rules
>>> game = Game.deal(Rules(players=3), seed=1)
>>> m = DealMoment.of(game)
>>> m.step, m.holder, m.hold_terms, sum(m.odds.win.values())
(0, 0, (51, 7, 6), Fraction(1, 1))
>>> DealMoment.from_json(m.to_json()) == m
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine.cards import Card
from ..engine.legality import LegalActions
from . import break_even, expected_pot, fair_price, hold_probability, record, seller_break_even, win_probabilities
from .prices import Prices

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["DEAL_KEYS", "AuctionView", "DealMoment", "Odds"]

_ODDS_KEYS = frozenset({"hold", "win", "expected_pot", "fair", "break_even", "seller_break_even"})


def _exact(x: Fraction | int) -> str:
    return str(Fraction(x))


@dataclass(frozen=True)
class AuctionView:
    """The open auction as everyone sees it."""

    bids: Mapping[int, int]  #: each bidder's standing bid
    best: int | None  #: the seat with the best offer (highest, then earliest), None without bids


@dataclass(frozen=True)
class Odds:
    """O1-O5 at one moment, exact; the break-even prices (O4) only while an auction is open,
    for every seat but the holder."""

    hold: Fraction  #: O1: the chance the best trump holds
    win: Mapping[int | None, Fraction]  #: O2: each seat's chance of the pot, None: it carries over
    expected_pot: Fraction  #: O3
    fair: Fraction  #: O4: O1 x O3
    break_even: Mapping[int, Fraction]  #: O4: the most each bidder should pay
    seller_break_even: Mapping[int, Fraction]  #: O4: the least the holder should take from each

    @classmethod
    def of(cls, game: Game, every_buyer: bool = False) -> Odds:
        """The numbers of ``game`` as it stands (:mod:`speculation_nb.odds`), computed once; with
        ``every_buyer`` the break-even prices of every seat but the holder even while no auction
        is open (the poll asks what the class would pay at any moment)."""
        be: dict[int, Fraction] = {}
        sbe: dict[int, Fraction] = {}
        if (every_buyer or game.auction is not None) and not game.over:
            for seat in range(game.rules.players):
                if seat != game.holder:
                    be[seat], sbe[seat] = break_even(game, seat), seller_break_even(game, seat)
        return cls(hold_probability(game), win_probabilities(game), expected_pot(game), fair_price(game), be, sbe)

    @property
    def prices(self) -> Prices:
        """The prices as every screen shows them: whole chips, half up (:func:`.prices.shown_chips`)."""
        return Prices.of(self)

    def to_json(self) -> dict[str, Any]:
        """Exact ``"p/q"`` strings; seats as strings, ``"none"`` for the pot carried over."""
        return {
            "hold": _exact(self.hold),
            "win": {("none" if seat is None else str(seat)): _exact(p) for seat, p in self.win.items()},
            "expected_pot": _exact(self.expected_pot),
            "fair": _exact(self.fair),
            "break_even": {str(s): _exact(v) for s, v in self.break_even.items()},
            "seller_break_even": {str(s): _exact(v) for s, v in self.seller_break_even.items()},
        }

    @classmethod
    def from_json(cls, data: Any, players: int) -> Odds:
        """:meth:`to_json`'s output read back strictly (``ValueError`` naming what is wrong)."""
        o = record.obj(data, "odds")
        if set(o) != _ODDS_KEYS:
            raise record.fail("odds", "{hold, win, expected_pot, fair, break_even, seller_break_even}", o)
        win_raw = dict(record.obj(o["win"], "odds.win"))
        if "none" not in win_raw:
            raise record.fail("odds.win", 'an object with "none"', win_raw)
        none = record.fraction(win_raw.pop("none"), "odds.win.none")
        win: dict[int | None, Fraction] = {}
        for seat, chance in record.seat_map(win_raw, "odds.win", players, record.fraction).items():
            win[seat] = chance
        win[None] = none
        return cls(
            hold=record.fraction(o["hold"], "odds.hold"),
            win=win,
            expected_pot=record.fraction(o["expected_pot"], "odds.expected_pot"),
            fair=record.fraction(o["fair"], "odds.fair"),
            break_even=record.seat_map(o["break_even"], "odds.break_even", players, record.fraction),
            seller_break_even=record.seat_map(
                o["seller_break_even"], "odds.seller_break_even", players, record.fraction
            ),
        )


@dataclass(frozen=True)
class DealMoment:
    """A deal after its first ``step`` actions, as every seat sees it, with its :class:`Odds`.

    The readers of a game, public ones only: ``best`` is ``game.best_trump``, ``trump`` the
    suit's letter, ``face_down`` and ``dead`` are counts, ``dead_cards`` the dead pile once
    turned up at the end (V2). ``due`` is ``game.legal_actions()`` without the blind trades (V3:
    they are agreed between two seats, not pressed on a button; the game's own
    ``legal_actions()`` has them). ``dealer`` is None only in a record of a referee older than
    the field.
    """

    step: int
    over: bool
    players: int
    stacks: tuple[int, ...]
    pot: int
    trump: str
    turn_up: Card
    best: Card
    holder: int
    dealer: int | None
    turn: int | None
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[int, ...]
    dead: int
    dead_cards: tuple[Card, ...] | None
    auction: AuctionView | None
    due: LegalActions
    odds: Odds
    winner: int | None
    end_rule: str | None

    @classmethod
    def of(cls, game: Game) -> DealMoment:
        """The moment of ``game`` as it stands: its public facts and its numbers, computed once."""
        auction = game.auction
        dead_cards = game.dead_cards
        return cls(
            step=game.moment,
            over=game.over,
            players=game.rules.players,
            stacks=tuple(game.stacks),
            pot=game.pot,
            trump=game.trump.value,
            turn_up=game.turn_up,
            best=game.best_trump,
            holder=game.holder,
            dealer=game.dealer,
            turn=game.turn,
            face_up=tuple(tuple(up) for up in game.face_up),
            face_down=tuple(game.face_down),
            dead=game.dead,
            dead_cards=None if dead_cards is None else tuple(dead_cards),
            auction=None if auction is None else AuctionView(auction, game.best_offer),
            due=dataclasses.replace(game.legal_actions(), trade={}),
            odds=Odds.of(game),
            winner=game.winner,
            end_rule=game.end_rule,
        )

    # -------------------------------------------------------------- derived facts
    @property
    def seen(self) -> frozenset[Card]:
        """Every card face up: the turn-up, the players' cards and a turned-up dead pile."""
        cards = {self.turn_up, *(c for up in self.face_up for c in up), *(self.dead_cards or ())}
        return frozenset(cards)

    @property
    def hold_terms(self) -> tuple[int, int, int]:
        """O1's ``(U, h, n)``: the unseen cards, the trumps above the best, and the face-down cards
        of the other piles plus the dead pile (``hold = C(U - h, n) / C(U, n)`` while live)."""
        others = sum(self.face_down) - self.face_down[self.holder] + self.dead
        return 52 - len(self.seen), 14 - self.best.rank, others

    # -------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The deal's part of the published record (``docs/TABLE.md``), plain JSON."""
        due = self.due
        return {
            "step": self.step,
            "over": self.over,
            "players": self.players,
            "stacks": list(self.stacks),
            "pot": self.pot,
            "trump": self.trump,
            "turn_up": self.turn_up.code,
            "best": self.best.code,
            "holder": self.holder,
            "dealer": self.dealer,
            "turn": self.turn,
            "face_up": [[c.code for c in up] for up in self.face_up],
            "face_down": list(self.face_down),
            "dead": self.dead,
            "dead_cards": None if self.dead_cards is None else [c.code for c in self.dead_cards],
            "auction": None
            if self.auction is None
            else {"bids": {str(s): b for s, b in self.auction.bids.items()}, "best": self.auction.best},
            "due": {
                "reveal": due.reveal,
                "open_auction": due.open_auction,
                "bid": {str(s): list(r) for s, r in due.bid.items()},
                "accept": list(due.accept),
                "decline": due.decline,
            },
            "odds": self.odds.to_json(),
            "winner": self.winner,
            "end_rule": self.end_rule,
        }

    @classmethod
    def from_json(cls, data: Any) -> DealMoment:
        """:meth:`to_json`'s output read back; ``ValueError`` naming the first thing wrong when it
        is not exactly that (a field missing, extra, or of the wrong type)."""
        d = record.obj(data, "the moment")
        if set(d) != DEAL_KEYS and set(d) != DEAL_KEYS - {"dealer"}:
            missing, extra = sorted(DEAL_KEYS - set(d)), sorted(set(d) - DEAL_KEYS)
            raise ValueError(f"not a valid moment: fields missing {missing}, unknown {extra}")
        return cls(**cls.fields_from_json(d))

    @staticmethod
    def fields_from_json(d: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of a :class:`DealMoment` read from the deal's keys of a record ``d`` (other
        keys are the caller's: the shared table's record has more)."""
        n = record.whole(d["players"], "players", 2, 16)

        def seat(value: Any, where: str) -> int:
            return record.whole(value, where, 0, n - 1)

        def maybe_seat(value: Any, where: str) -> int | None:
            return None if value is None else seat(value, where)

        trump = record.text(d["trump"], "trump")
        if trump not in ("S", "H", "D", "C"):
            raise record.fail("trump", "S, H, D or C", trump)
        auction = None
        if d["auction"] is not None:
            a = record.obj(d["auction"], "auction")
            if set(a) != {"bids", "best"}:
                raise record.fail("auction", "{bids, best}", a)
            auction = AuctionView(
                record.seat_map(a["bids"], "auction.bids", n, record.whole), maybe_seat(a["best"], "auction.best")
            )
        holder = seat(d["holder"], "holder")
        due = record.obj(d["due"], "due")
        if set(due) != {"reveal", "open_auction", "bid", "accept", "decline"}:
            raise record.fail("due", "{reveal, open_auction, bid, accept, decline}", due)

        def span(v: Any, w: str) -> tuple[int, int]:
            low, high = (record.whole(x, w) for x in record.items(v, w, 2))
            return low, high

        dead_cards, end_rule = d["dead_cards"], d["end_rule"]
        return {
            "step": record.whole(d["step"], "step"),
            "over": record.boolean(d["over"], "over"),
            "players": n,
            "stacks": tuple(record.whole(x, "stacks") for x in record.items(d["stacks"], "stacks", n)),
            "pot": record.whole(d["pot"], "pot"),
            "trump": trump,
            "turn_up": record.card(d["turn_up"], "turn_up"),
            "best": record.card(d["best"], "best"),
            "holder": holder,
            "dealer": maybe_seat(d.get("dealer"), "dealer"),
            "turn": maybe_seat(d["turn"], "turn"),
            "face_up": tuple(
                tuple(record.card(c, f"face_up.{i}") for c in record.items(up, f"face_up.{i}"))
                for i, up in enumerate(record.items(d["face_up"], "face_up", n))
            ),
            "face_down": tuple(
                record.whole(x, "face_down", 0, 52) for x in record.items(d["face_down"], "face_down", n)
            ),
            "dead": record.whole(d["dead"], "dead", 0, 52),
            "dead_cards": None
            if dead_cards is None
            else tuple(record.card(c, "dead_cards") for c in record.items(dead_cards, "dead_cards")),
            "auction": auction,
            "due": LegalActions(
                reveal=maybe_seat(due["reveal"], "due.reveal"),
                open_auction=maybe_seat(due["open_auction"], "due.open_auction"),
                bid=record.seat_map(due["bid"], "due.bid", n, span),
                withdraw=() if auction is None else tuple(auction.bids),
                accept=tuple(seat(x, "due.accept") for x in record.items(due["accept"], "due.accept")),
                decline=maybe_seat(due["decline"], "due.decline"),
                holder=holder,
            ),
            "odds": Odds.from_json(d["odds"], n),
            "winner": maybe_seat(d["winner"], "winner"),
            "end_rule": None if end_rule is None else record.text(end_rule, "end_rule", 40),
        }


#: The keys of :meth:`DealMoment.to_json` (the deal's part of the published record).
DEAL_KEYS = frozenset(f.name for f in dataclasses.fields(DealMoment))
