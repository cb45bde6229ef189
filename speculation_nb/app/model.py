"""The app's model: a session, the moment shown, the mode, the computer players.

No widget code here. :class:`Controller` owns the :class:`~speculation_nb.Session` and changes
it only through the engine; the views observe its ``version`` trait (bumped after every change)
and redraw from what it exposes: :attr:`Controller.shown` (the deal at the moment looked at) and
:meth:`Controller.snapshot` (that moment as everyone sees it, with its exact numbers: a
:class:`~speculation_nb.odds.moment.DealMoment`). Actions raise
:class:`~speculation_nb.IllegalAction` when the rules refuse them; the app words it (``error_text``).

The computer players (play mode) decide in :mod:`speculation_nb.players` and act when its
:class:`~speculation_nb.players.pacing.Pacer` says: one action at a time, each announced in
``message`` with its reason; ``acting`` is True while some are still to come. A person's action
first lets the pending ones happen; looking back (replay) pauses them. The model only wires the
pacer to the session and the seats. :meth:`Controller.replace_session` shows another session (a
new one, a loaded save, a shared link); :meth:`Controller.next_deal` goes on with this one.
Snapshots are kept for the current deal only (bounded: :mod:`.moments`).

In classroom mode the teacher drives every seat, except the seats in ``computer_seats``
(empty unless the shared table seats computer players, :mod:`.teacher.app_game`): those are
played by the same pacer, and such a seat also turns up its own card when it is due.
:meth:`Controller.act` takes a person's action from elsewhere (a student at the shared table)
without hurrying the computers' pending actions. A shared table checks each press here first
(``table_check``) and names the seats (:meth:`Controller.show_seat_names`): issue 27.
It shows a question deal instead of the session's deal, read only (:meth:`Controller.show_question`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from traitlets import Bool, Enum, HasTraits, Int, Unicode

from .. import players
from ..classroom.errors import question_shown
from ..engine.actions import Action
from ..engine.checks import fresh_seed
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.session import Session
from ..engine.settings import Rules
from ..languages.translator import Translator, available_languages, reason_text, translator
from ..links.query import MODES
from ..odds.moment import DealMoment
from ..players.lineups import DEFAULT_NAMES, seat_names
from ..players.pacing import PACE_CHOICES, PACES, Pacer, delay_of
from .moments import SNAPSHOT_LIMIT, MomentCache, QuestionShown
from .page_address import in_kernel

__all__ = ["DEFAULT_NAMES", "MODES", "PACES", "PACE_CHOICES", "SNAPSHOT_LIMIT", "Controller", "Snapshot"]

log = logging.getLogger("speculation_nb.widgets")


#: What :meth:`Controller.snapshot` returns, under its older name: the one moment value of the odds.
Snapshot = DealMoment


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
    pace = Enum(PACE_CHOICES, default_value="auto", help="how fast the computer players act")
    acting = Bool(False, help="True while computer players have actions still to come")
    #: A shared table's check of a press, ``(kind, seat)`` (:mod:`speculation_nb.classroom.acting`).
    table_check: Callable[[str, int | None], None] | None = None

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
        #: Counts the notices given (``message``): each is one announcement (the views' live region).
        self.message_serial = 0
        self._cache = MomentCache()
        self._question: QuestionShown | None = None  # shown instead of the session's deal (issue 25)
        #: Classroom mode: the seats computer players play (see the module docstring).
        self.computer_seats: frozenset[int] = frozenset()
        self._pacer = Pacer(
            lambda: self.game,
            lambda: self.strategies,
            delay=lambda: self.delay,
            may_act=lambda: self.computers_play and self.live,
            self_revealing=lambda: self.computer_seats if self.mode == "classroom" else frozenset(),
            play=self._apply,
            announce=lambda said, kind: self._changed(self.t("error.unexpected") if kind == "error" else said, kind),
            on_acting=lambda acting: setattr(self, "acting", acting),
        )
        #: Why a computer player did what it did, by (deal, step): (catalog key, parameters).
        self.notes: dict[tuple[int, int], tuple[str, dict[str, Any]]] = {}
        self._publishers: list[Callable[[], None]] = []
        self._mode_hold: str | None = None
        self._seat_names: list[str] | None = None  # a shared table's names of the seats (issue 27)
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
        """The names of the seats of the deal shown: a question deal's while one is shown, else
        :attr:`table_names`."""
        return list(self._question.names) if self._question is not None else self.table_names

    @property
    def table_names(self) -> list[str]:
        """The session's seats' names: a shared table's while one is open, else the session's."""
        shown = self._seat_names
        return list(shown) if shown is not None and len(shown) == self.rules.players else self.session.names

    @property
    def question(self) -> Game | None:
        """The question deal shown instead of the session's deal (issue 25), or None."""
        return None if self._question is None else self._question.game

    def show_question(self, game: Game | None, names: Sequence[str] | None = None) -> None:
        """Show the question deal ``game`` instead of the session's deal (issue 25; its seats named
        ``names``): ``shown``, ``snapshot()`` and ``names`` are then its own, ``live`` is False, every
        change of the session (replay included) is refused (T4, ``table.question_shown``) and the
        computer players wait; None: the session's deal again, exactly where it stood."""
        if game is not self.question:
            self._question = None if game is None else QuestionShown.of(game, names)
            self._pacer.start() if game is None else self._pacer.stop()
            self.version += 1

    def show_seat_names(self, names: Sequence[str] | None) -> None:
        """Name the seats as the shared table does (issue 27); None: the session's names again."""
        shown = None if names is None else [str(n) for n in names]
        if shown != self._seat_names:
            self._seat_names = shown
            self.version += 1

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
        """True when the session's deal is shown as it stands now (no replay, no question deal)."""
        return self._question is None and (self._moment is None or self._moment == self.last)

    @property
    def shown(self) -> Game:
        """The deal at the moment shown (the live game itself when live; a question deal's game)."""
        if self._question is not None:
            return self._question.game
        return self.game if self.live else self.game_at(self.moment)

    def game_at(self, k: int) -> Game:
        """The session's deal at moment ``k``."""
        return self._cache.game_at(self.game, self.session.deal_number, k)

    def snapshot(self, k: int | None = None) -> Snapshot:
        """The numbers at moment ``k`` of the session's deal (default: the moment shown, a question
        deal's while one is shown), computed once."""
        if k is None and self._question is not None:
            return self._question.snap
        return self._cache.snapshot(self.game, self.session.deal_number, self.moment if k is None else k)

    @property
    def cached_snapshots(self) -> int:
        """How many snapshots are kept (bounded: see ``SNAPSHOT_LIMIT``)."""
        return len(self._cache.snaps)

    def hold_points(self, upto: int | None = None) -> list[Snapshot]:
        """O1 over the deal: the moments 0..upto where the best trump or its owner could change."""
        return self._cache.hold_points(self.game, self.session.deal_number, self.last if upto is None else upto)

    def is_person(self, seat: int) -> bool:
        """True when a person decides for ``seat`` (classroom mode: every seat but ``computer_seats``)."""
        if self.mode == "classroom":
            return seat not in self.computer_seats
        return seat == self.human

    @property
    def strategies(self) -> dict[int, players.Strategy]:
        n = self.rules.players
        people = [s for s in range(n) if s not in self.computer_seats] if self.mode == "classroom" else [self.human]
        return players.table_strategies(n, self.temperament, people)

    @property
    def computers_play(self) -> bool:
        """True when some seat is a computer player's (play mode, or computer seats in classroom)."""
        return self.mode == "play" or bool(self.computer_seats & set(range(self.rules.players)))

    def strategy_of(self, seat: int) -> players.Strategy | None:
        return self.strategies.get(seat)

    def waiting_for_person(self) -> bool:
        """In play mode: an auction waits for the person (to bid, or to decide as the holder)."""
        return self.mode == "play" and players.waits_for(self.game, self.human)

    # ----------------------------------------------------------------- changes
    def add_publisher(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` at every change, before ``version`` tells this page's views (the shared
        table's referee does not wait for this page to redraw); an error of ``fn`` is logged."""
        self._publishers.append(fn)

    def remove_publisher(self, fn: Callable[[], None]) -> None:
        """Stop calling ``fn`` (no error when it was not added)."""
        with contextlib.suppress(ValueError):
            self._publishers.remove(fn)

    def _changed(self, message: str = "", kind: str = "info") -> None:
        if message:  # a new notice, even in the same words as the last: the live region speaks it once
            self.message_serial += 1
        self.message = message
        self.message_kind = kind
        for fn in list(self._publishers):
            try:
                fn()
            except Exception:
                log.exception("speculation_nb controller: a publisher failed")
        self.version += 1

    def notify(self, message: str, kind: str = "error") -> None:
        """Show a one-line notice (an error, a result) without changing the game."""
        self._changed(message, kind)

    def _not_question(self) -> None:
        """Refuse a change of the session while a question deal is shown (T4, issue 25)."""
        if self._question is not None:
            raise question_shown()

    def _live_only(self) -> None:
        """Before a person's action: back to now, and the computers' pending actions done (refused
        while a question deal is shown)."""
        self._not_question()
        if not self.live:
            # The controls are disabled in the past; this only guards direct calls.
            self._moment = None
        self._pacer.hurry()

    def _person_acts(self, act: Callable[[], object], kind: str, seat: int | None = None) -> None:
        """A person's action: back to now, the computers' pending actions first, the table's check, then
        ``act()`` (the engine may refuse it: ``IllegalAction``, nothing changes); the computers answer."""
        self._live_only()
        if self.table_check is not None:
            self.table_check(kind, seat)
        act()
        self._pacer.start()
        self._changed()

    def new_session(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        deals: int | None = 10,
        seed: int | None = None,
        human: int | None = None,
    ) -> None:
        self._not_question()
        n = rules.players
        names = seat_names(n, self.temperament, names)
        if seed is None:
            seed = fresh_seed()
        if human is not None:
            self.human = min(max(0, human), n - 1)
        self.replace_session(Session(rules, names, deals, seed))

    def replace_session(self, session: Session, moment: int | None = None) -> None:
        """Show ``session`` from now on (a new one, a loaded save, a shared link), at
        ``moment`` of its live deal (None: now). Replay, caches and notes start afresh."""
        self._pacer.forget()
        self.session = session
        self.human = min(max(0, self.human), session.rules.players - 1)
        self._cache.clear()
        self.notes.clear()
        last = len(session.game.history)
        self._moment = None if moment is None or not 0 <= moment < last else int(moment)
        self._pacer.start()
        self._changed()

    @property
    def started(self) -> bool:
        """True once something happened in this session that a new session would throw away."""
        return self.session.deal_number > 1 or len(self.game.history) > 0

    def next_deal(self) -> str | None:
        """The session's next deal (G1-G3), once this deal is over: ``"next"``, or ``"ended"``
        when the session has played all its deals. None (nothing happens) while the deal runs."""
        session = self.session
        self._not_question()
        if not self.game.over or session.over:
            return None
        self._pacer.forget()
        if session.next_deal() is not None:
            self._moment = None
            self._cache.keep_deal(session.deal_number)
            self.notes.clear()
            self._pacer.start()
            self._changed()
            return "next"
        self._changed()  # the session ended (G3): show the final standings
        return "ended"

    def new_deal(self, seed: int | None = None) -> str:
        """The next deal when this one is over and no seed is given (``"next"``, ``"ended"``); else
        a new session from ``seed`` (``"session"``): :meth:`next_deal`, :meth:`new_session`."""
        if seed is None and self.game.over and not self.session.over:
            return self.next_deal() or "ended"  # never None: the deal is over
        session = self.session
        self.new_session(session.rules, session.names, session.deals, seed)
        return "session"

    # -- moments
    def go(self, k: int) -> None:
        """Look at moment ``k`` of the deal (replay); the computer players wait meanwhile."""
        self._not_question()
        k = max(0, min(int(k), self.last))
        self._moment = None if k == self.last else k
        self._pacer.start() if self._moment is None else self._pacer.stop()
        self._changed()

    def back(self) -> None:
        self.go(self.moment - 1)

    def forward(self) -> None:
        self.go(self.moment + 1)

    def now(self) -> None:
        self.go(self.last)

    def next_card(self, seat: int | None = None) -> None:
        """The seat due turns up its top card (P3); in play mode the computers then act.
        ``seat``: the seat asking to turn up (refused unless it is due)."""
        self._person_acts(lambda: self.game.reveal(seat), "reveal", seat)

    def play_to_end(self, limit: int = 500) -> None:
        """Turn up cards until the deal is over (play mode: or an auction waits for the person)."""
        self._live_only()
        game = self.game
        try:
            for _ in range(limit):
                if game.over or game.auction is not None or self._pacer.acting:
                    break
                if self.table_check is not None:  # a student's turn stops it (issue 27)
                    self.table_check("reveal", None)
                game.reveal()
                self._pacer.start(instant=True)
        finally:
            self._changed()

    def open_auction(self) -> None:
        self._person_acts(lambda: self.game.open_auction(), "open_auction")

    def bid(self, seat: int, amount: int) -> None:
        self._person_acts(lambda: self.game.bid(seat, amount), "bid", seat)

    def withdraw(self, seat: int) -> None:
        self.bid(seat, 0)

    def accept(self, seat: int) -> None:
        self._person_acts(lambda: self.game.accept(seat), "accept", seat)

    def decline(self) -> None:
        self._person_acts(lambda: self.game.decline(), "decline")

    def let_holder_decide(self) -> int | None:
        """Play mode: the person stops bidding; the computer holder accepts a bid or declines."""
        self._live_only()
        game = self.game
        if game.auction is None:
            raise IllegalAction("P2", "no_auction", "no auction is open")
        strategy = self.strategy_of(game.holder)
        if strategy is None:  # the app shows the holder's own buttons then; this guards direct calls
            raise IllegalAction("P2", "holder_decides", "the holder decides for themselves", holder=game.holder)
        move = players.holder_decision(game, strategy)
        said = self._apply(move)
        self._pacer.start()
        self._changed(said, "auto")
        return move.action["seat"] if move.action.kind == "accept" else None

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
        self._pacer.start()
        self._changed()
        return True

    def act(self, action: Action) -> None:
        """A person's ``action`` taken elsewhere (a student at the shared table), at now, checked by
        the engine; the computers' pending actions keep their pace (they do not all act at once)."""
        self._not_question()
        self._moment = None
        self.game.apply(action)
        self._pacer.start()
        self._changed()

    def set_computer_seats(self, seats: frozenset[int] | set[int]) -> None:
        """Classroom mode: computer players play ``seats`` from now on (the others are people)."""
        seats = frozenset(int(s) for s in seats if 0 <= int(s) < self.rules.players)
        if seats == self.computer_seats:
            return
        self._pacer.stop()
        self.computer_seats = seats
        self._pacer.start()
        self._changed()

    @property
    def mode_held(self) -> bool:
        """True while something holds the mode (the shared table: classroom mode, T9)."""
        return self._mode_hold is not None

    def hold_mode(self, reason: str | None) -> None:
        """Keep the mode as it is (``reason``: the catalog key that says why, to a person who
        asks for another), or let it change again (None)."""
        self._mode_hold = reason

    def set_mode(self, mode: str, human: int | None = None) -> None:
        """The mode (``"play"`` or ``"classroom"``) and the person's seat; another mode while the
        mode is held is refused with its reason in words, and nothing changes."""
        if self._mode_hold is not None and mode != self.mode:
            self.notify(self.t(self._mode_hold), "error")
            return
        self.mode = mode
        if human is not None:
            self.human = min(max(0, int(human)), self.rules.players - 1)
        self._pacer.start()
        self._changed()

    def set_lang(self, lang: str) -> None:
        self.lang = lang if lang in available_languages() else "en"
        self._changed()

    # ------------------------------------------------------------ the computers
    @property
    def delay(self) -> float:
        """Seconds between two computer actions at the current pace (0: all at once)."""
        return delay_of(self.pace, in_kernel)

    def stop(self) -> None:
        """Cancel the computer players' pending actions (the app closing); nothing else changes."""
        self._pacer.stop()

    def _apply(self, move: players.Move) -> str:
        """Apply one computer action (a :class:`~speculation_nb.players.Move`), keep its reason for
        the log when it needs one (a bid above break-even...); return the action in words."""
        game = self.game
        game.apply(move.action)
        if move.reason.startswith(("reason.bid.above", "reason.accept.below", "reason.accept.fond")):
            self.notes[(self.session.deal_number, len(game.history))] = (move.reason, dict(move.params))
        return self.say(move.reason, move.params)

    def say(self, key: str, params: Mapping[str, Any]) -> str:
        """A computer player's reason in words, seats as names (:func:`.translator.reason_text`)."""
        return reason_text(key, params, self.t, self.names)
