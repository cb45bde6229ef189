"""The app's model: a session, the moment shown, the mode, the computer players.

No widget code here. :class:`Controller` owns the :class:`~speculation_nb.Session`
and changes it only through the engine; the views observe its ``version``
trait (bumped after every change) and redraw from what it exposes:
:attr:`Controller.shown` (the deal at the moment looked at) and
:meth:`Controller.snapshot` (the exact numbers of that moment).

Actions raise :class:`~speculation_nb.IllegalAction` when the rules refuse
them; the app turns that into a friendly line (see ``error_text``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from traitlets import Enum, HasTraits, Int, Unicode

from .. import odds, players
from ..errors import IllegalAction
from ..game import Game
from ..i18n import Translator, available_languages, translator
from ..rules import Rules
from ..session import Session

__all__ = ["DEFAULT_NAMES", "MODES", "Controller", "Snapshot"]

#: Default names, from Mansfield Park: five of the Speculation table of volume II, chapter 7
#: (Lady Bertram played too), then Bertram children who were away that evening.
DEFAULT_NAMES = ("Fanny", "Edmund", "Mary", "Henry", "William", "Julia", "Maria", "Tom")
MODES = ("play", "classroom")
MAX_SEED = 2**63 - 1


@dataclass
class Snapshot:
    """The exact numbers of one moment of a deal (RULES.md O1-O5)."""

    k: int
    reveals: int
    holder: int
    best: Any
    over: bool
    hold: Fraction
    U: int
    h: int
    n: int
    win: dict
    expected_pot: Fraction
    fair: Fraction
    break_even: dict[int, Fraction] = field(default_factory=dict)
    seller_break_even: dict[int, Fraction] = field(default_factory=dict)


def _explained(ex: Any, name: str) -> int:
    value = getattr(ex, name)
    return int(value)


def take_snapshot(game: Game, k: int) -> Snapshot:
    """Compute the numbers of ``game`` as it stands (``k`` is its number of actions)."""
    ex = odds.explain_hold(game)
    snap = Snapshot(
        k=k,
        reveals=game.reveals,
        holder=game.holder,
        best=game.best_trump,
        over=game.over,
        hold=Fraction(odds.hold_probability(game)),
        U=_explained(ex, "U"),
        h=_explained(ex, "h"),
        n=_explained(ex, "n"),
        win={key: Fraction(v) for key, v in odds.win_probabilities(game).items()},
        expected_pot=Fraction(odds.expected_pot(game)),
        fair=Fraction(odds.fair_price(game)),
    )
    if game.auction is not None and not game.over:
        for seat in range(game.rules.players):
            if seat != game.holder:
                snap.break_even[seat] = Fraction(odds.break_even(game, seat))
                snap.seller_break_even[seat] = Fraction(odds.seller_break_even(game, seat))
    return snap


def parse_seed(text: Any) -> int | None:
    """A seed typed by a person: blank -> None; a whole number 0..2**63-1 -> it; else ValueError."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        s = str(text).strip().replace("_", "").replace(" ", "")
        if not s:
            return None
        if not s.isdigit() or len(s) > 19:
            raise ValueError(text)
        value = int(s)
    if not 0 <= value <= MAX_SEED:
        raise ValueError(text)
    return value


class Controller(HasTraits):
    """A table of Speculation as the app plays it (see the module docstring).

    ``mode`` ``"play"``: seat ``human`` is the person, every other seat a
    computer player (``temperament`` ``"mixed"``, ``"cautious"``, ``"fair"``,
    ``"bold"``) acting on its own; ``"classroom"``: the teacher drives every
    seat and nothing happens by itself.
    """

    version = Int(0, help="bumped after every change the views must show")
    lang = Unicode("en")
    mode = Enum(MODES, default_value="play")
    human = Int(0)
    temperament = Unicode("mixed")
    message = Unicode("", help="a one-line notice: an error or a result; cleared by the next action")
    message_kind = Unicode("info")

    def __init__(
        self,
        rules: Rules | None = None,
        names: Sequence[str] | None = None,
        deals: int | None = 10,
        seed: int | None = None,
        mode: str = "play",
        human: int = 0,
        temperament: str = "mixed",
        lang: str = "en",
    ) -> None:
        super().__init__()
        rules = rules or Rules(players=5)
        if lang not in available_languages():
            lang = "en"
        self.lang = lang
        self.mode = mode
        self.temperament = temperament
        self._moment: int | None = None
        self._snaps: dict[tuple[int, int], Snapshot] = {}
        self._games_at: dict[tuple[int, int], Game] = {}
        self._asked: set[tuple] = set()
        self.new_session(rules, names, deals, seed, human=human)

    # ----------------------------------------------------------------- reading
    @property
    def t(self) -> Translator:
        return translator(self.lang)

    @property
    def rules(self) -> Rules:
        return self.session.rules

    @property
    def names(self) -> list[str]:
        return self.session.names

    @property
    def game(self) -> Game:
        """The live deal."""
        return self.session.game

    @property
    def moment(self) -> int:
        """The moment shown: the number of actions of the deal taken at that moment."""
        return len(self.game.history) if self._moment is None else self._moment

    @property
    def last(self) -> int:
        """The live moment (the number of actions so far)."""
        return len(self.game.history)

    @property
    def live(self) -> bool:
        return self._moment is None or self._moment == self.last

    @property
    def shown(self) -> Game:
        """The deal at the moment shown (the live game itself when live)."""
        return self.game if self.live else self.game_at(self.moment)

    def game_at(self, k: int) -> Game:
        if k == self.last:
            return self.game
        key = (self.session.deal_number, k)
        game = self._games_at.get(key)
        if game is None:
            if len(self._games_at) > 64:
                self._games_at.clear()
            game = self._games_at[key] = self.game.at(k)
        return game

    def snapshot(self, k: int | None = None) -> Snapshot:
        """The numbers at moment ``k`` (default: the moment shown), computed once."""
        k = self.moment if k is None else k
        key = (self.session.deal_number, k)
        snap = self._snaps.get(key)
        if snap is None:
            snap = self._snaps[key] = take_snapshot(self.game_at(k), k)
        return snap

    def hold_points(self, upto: int | None = None) -> list[Snapshot]:
        """O1 over the deal: the moments 0..upto where the best trump or its owner could change."""
        upto = self.last if upto is None else upto
        history = self.game.history
        points = [0] + [
            k + 1 for k, action in enumerate(history[:upto]) if action.kind in ("reveal", "accept", "blind_trade")
        ]
        return [self.snapshot(k) for k in points]

    def is_person(self, seat: int) -> bool:
        """True when a person decides for ``seat`` (every seat in classroom mode)."""
        return self.mode == "classroom" or seat == self.human

    @property
    def strategies(self) -> dict[int, players.Strategy]:
        people = range(self.rules.players) if self.mode == "classroom" else [self.human]
        return players.table_strategies(self.rules.players, self.temperament, people)

    def strategy_of(self, seat: int) -> players.Strategy | None:
        return self.strategies.get(seat)

    def waiting_for_person(self) -> bool:
        """In play mode: an auction waits for the person (to bid, or to decide as the holder)."""
        game = self.game
        return (
            self.mode == "play"
            and game.auction is not None
            and not game.over
            and (
                game.holder == self.human
                or game.bid_range(self.human) is not None
                or self.human in (game.auction or {})
            )
        )

    # ----------------------------------------------------------------- changes
    def _changed(self, message: str = "", kind: str = "info") -> None:
        self.message = message
        self.message_kind = kind
        self.version += 1

    def notify(self, message: str, kind: str = "error") -> None:
        """Show a one-line notice (an error, a result) without changing the game."""
        self._changed(message, kind)

    def _live_only(self) -> None:
        if not self.live:
            # The controls are disabled in the past; this only guards direct calls.
            self._moment = None

    def new_session(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        deals: int | None = 10,
        seed: int | None = None,
        human: int | None = None,
    ) -> None:
        n = rules.players
        defaults = DEFAULT_NAMES
        if self.temperament == "mansfield":  # the characters sit where their strategies play
            defaults = players.mansfield_park(n).names
            if names and list(names)[:n] == list(DEFAULT_NAMES[:n]):
                names = None
        names = list(names or [])[:n]
        names += [defaults[i] for i in range(len(names), n)]
        names = [str(x).strip() or defaults[i] for i, x in enumerate(names)]
        if seed is None:
            seed = secrets.randbits(40)
        self.session = Session(rules, names, deals, seed)
        if human is not None:
            self.human = min(max(0, human), n - 1)
        self.human = min(self.human, n - 1)
        self._moment = None
        self._snaps.clear()
        self._games_at.clear()
        self._asked.clear()
        self._auto()
        self._changed()

    def new_deal(self, seed: int | None = None) -> str:
        """Deal again. With a seed, or when the deal is not over or the session
        is over: a new session from that seed (everyone with the same seed and
        settings gets the same deals). Otherwise the session's next deal.
        Returns ``"next"`` or ``"session"``."""
        session = self.session
        if seed is None and self.game.over and not session.over:
            if session.next_deal() is not None:
                self._moment = None
                self._auto()
                self._changed()
                return "next"
            self._changed()  # the session ended (G3): show the final standings
            return "ended"
        self.new_session(session.rules, session.names, session.deals, seed)
        return "session"

    # -- moments
    def go(self, k: int) -> None:
        k = max(0, min(int(k), self.last))
        self._moment = None if k == self.last else k
        self._changed()

    def back(self) -> None:
        self.go(self.moment - 1)

    def forward(self) -> None:
        self.go(self.moment + 1)

    def now(self) -> None:
        self.go(self.last)

    # -- the deal
    def next_card(self) -> None:
        """The seat due turns up its top card (P3); in play mode the computers then act."""
        self._live_only()
        self.game.reveal()
        self._auto()
        self._changed()

    def play_to_end(self, limit: int = 500) -> None:
        """Turn up cards until the deal is over (play mode: or an auction waits for the person)."""
        self._live_only()
        game = self.game
        for _ in range(limit):
            if game.over or game.auction is not None:
                break
            game.reveal()
            self._auto()
        self._changed()

    def open_auction(self) -> None:
        self._live_only()
        self.game.open_auction()
        if self.mode == "play":
            players.computer_bids(self.game, self.strategies)
            self._auto()
        self._changed()

    def bid(self, seat: int, amount: int) -> None:
        self._live_only()
        self.game.bid(seat, amount)
        if self.mode == "play":
            players.computer_bids(self.game, self.strategies)
        self._changed()

    def withdraw(self, seat: int) -> None:
        self.bid(seat, 0)

    def accept(self, seat: int) -> None:
        self._live_only()
        self.game.accept(seat)
        self._auto()
        self._changed()

    def decline(self) -> None:
        self._live_only()
        self.game.decline()
        self._auto()
        self._changed()

    def let_holder_decide(self) -> int | None:
        """Play mode: the person stops bidding; the computer holder accepts a bid or declines."""
        self._live_only()
        game = self.game
        if game.auction is None:
            raise IllegalAction("P2", "no_auction", "no auction is open")
        strategy = self.strategy_of(game.holder)
        if strategy is None:
            raise IllegalAction("P2", "no_auction", "the holder decides for themselves")
        buyer = players.computer_decision(game, strategy)
        self._auto()
        self._changed()
        return buyer

    def blind_trade(self, buyer: int, seller: int, count: int, price: int) -> bool:
        """V3. In play mode the computer side agrees or refuses (returns False, nothing happens)."""
        self._live_only()
        game = self.game
        for seat in (buyer, seller):
            strategy = self.strategy_of(seat) if self.mode == "play" else None
            if strategy is not None and not strategy.accepts_trade(game, seat, buyer, seller, count, price):
                self._changed(self.t("trade.refused", name=self.names[seat]), "info")
                return False
        game.blind_trade(buyer, seller, count, price)
        self._auto()
        self._changed()
        return True

    def set_mode(self, mode: str, human: int | None = None) -> None:
        self.mode = mode
        if human is not None:
            self.human = min(max(0, int(human)), self.rules.players - 1)
        self._auto()
        self._changed()

    def set_lang(self, lang: str) -> None:
        self.lang = lang if lang in available_languages() else "en"
        self._changed()

    # ------------------------------------------------------------ the computers
    def _auto(self) -> None:
        """Play mode: computer holders open auctions (asked once per best trump and owner),
        computer bidders bid, computer holders decide when nobody waits for the person."""
        if self.mode != "play":
            return
        game = self.game
        strategies = self.strategies
        for _ in range(4 * self.rules.players + 4):
            if game.over or self._moment is not None:
                return
            holder = game.holder
            if game.auction is None:
                strategy = strategies.get(holder)
                key = (self.session.deal_number, game.best_trump, holder)
                if strategy is None or key in self._asked or not game.can_open_auction():
                    return
                self._asked.add(key)
                if not strategy.wants_auction(game, holder):
                    return
                game.open_auction()
                players.computer_bids(game, strategies)
                if self.waiting_for_person():
                    return
                players.computer_decision(game, strategy)
            else:
                if holder == self.human or self.waiting_for_person():
                    return
                strategy = strategies.get(holder)
                if strategy is None:
                    return
                players.computer_decision(game, strategy)
