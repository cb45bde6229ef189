"""A session: deal after deal at one table, by the rules G1-G4 of RULES.md.

The deal passes to the left after every deal (G2), a pot nobody won carries
over (P9, hoyle1847 c), and the session ends after the agreed number of deals,
before a deal that some player cannot ante for, or when the players stop (G3).
A pot still on the table then is shared equally, the indivisible rest one chip
each to the seats from the next dealer's left. The largest stack wins.

Every deal's shuffle comes from the session's seed, so a session is its
settings plus the actions of each deal, and saves as such.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import saving
from .checks import MAX_PLAYER_NAME, is_whole, plain, quote
from .checks import seed as check_seed
from .errors import IllegalAction
from .game import Game
from .settings import Rules

__all__ = ["Session", "Standing"]


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` 1 is the best (equal stacks share a place)."""

    place: int
    seat: int
    name: str
    stack: int
    winner: bool


class Session:
    """Deals of Speculation played one after another by named players.

    >>> s = Session(Rules(players=3), names=["Fanny", "Edmund", "Mary"], deals=2, seed=1)
    >>> s.game.dealer
    0
    """

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        deals: int | None = None,
        seed: int | None = None,
        dealer: int = 0,
    ) -> None:
        if not isinstance(rules, Rules):
            raise ValueError("a session needs a Rules")
        n = rules.players
        if names is None:
            names = [f"Player {i + 1}" for i in range(n)]
        if isinstance(names, str) or len(names) != n:
            raise ValueError(f"S1: give {n} names, one for each seat")
        clean = [_name(name) for name in names]
        deals = plain(deals)
        if deals is not None and (not is_whole(deals) or not 1 <= deals <= saving.MAX_DEALS):
            raise ValueError(
                f"G3: the number of deals is a whole number from 1 to {saving.MAX_DEALS:,}, or None; not {quote(deals)}"
            )
        seed = secrets.randbits(48) if seed is None else check_seed(seed)
        dealer = plain(dealer)
        if not is_whole(dealer) or not 0 <= dealer < n:
            raise ValueError(f"S1: the first dealer is a seat from 0 to {n - 1}, not {quote(dealer)}")
        self._rules = rules
        self._names = clean
        self._deals = deals
        self._seed = seed
        self._first_dealer = dealer
        self._games = [Game.deal(rules, seed=self.deal_seed(0), dealer=dealer)]
        self._ended: str | None = None
        self._final: list[int] | None = None
        self._shared: list[int] | None = None
        self._from_game = False

    @classmethod
    def from_game(cls, game: Game, names: Sequence[str] | None = None) -> Session:
        """A session of one deal: ``game`` as it stands (a deal saved alone, opened in the app).

        Its deal does not follow from a session seed, so it has no next deal (G3 ends it after
        this one) and it saves with ``"dealt": "game"`` (:mod:`speculation_nb.engine.saving`).
        """
        if not isinstance(game, Game):
            raise ValueError("Session.from_game needs a Game")
        seed = game.seed if game.seed is not None else 0
        session = cls(game.rules, names, deals=1, seed=seed, dealer=game.dealer)
        session._games = [game]
        session._from_game = True
        return session

    @property
    def from_one_game(self) -> bool:
        """True for a session made by :meth:`from_game` (its one deal was given, not dealt)."""
        return self._from_game

    # ----------------------------------------------------------------- readers
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def deals(self) -> int | None:
        """The agreed number of deals, or None for no limit."""
        return self._deals

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def first_dealer(self) -> int:
        """The dealer of the first deal."""
        return self._first_dealer

    @property
    def game(self) -> Game:
        """The current deal (the last one, once the session is over)."""
        return self._games[-1]

    @property
    def games(self) -> list[Game]:
        """Every deal of the session so far, in order."""
        return list(self._games)

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self._games)

    @property
    def over(self) -> bool:
        return self._ended is not None

    @property
    def ended(self) -> str | None:
        """Why the session ended: "deals", "ante" (someone could not ante) or "stopped"."""
        return self._ended

    @property
    def stacks(self) -> list[int]:
        """Every seat's chips now (after sharing a leftover pot, once over)."""
        return list(self._final) if self._final is not None else self.game.stacks

    @property
    def pot(self) -> int:
        """Chips on the table now (0 once the session is over)."""
        return 0 if self._final is not None else self.game.pot

    @property
    def shared(self) -> list[int] | None:
        """What each seat received of a pot left on the table at the end (G3), once over."""
        return None if self._shared is None else list(self._shared)

    def deal_seed(self, index: int) -> int:
        """The shuffle seed of deal ``index`` (0 for the first), derived from the session's seed."""
        return random.Random(f"speculation_nb:{self._seed}:{index}").getrandbits(48)

    def standings(self) -> list[Standing]:
        """Seats from the largest stack down; equal stacks share a place (G3)."""
        stacks = self.stacks
        top = max(stacks)
        order = sorted(range(len(stacks)), key=lambda s: (-stacks[s], s))
        out = []
        for seat in order:
            place = 1 + sum(1 for other in stacks if other > stacks[seat])
            out.append(Standing(place, seat, self._names[seat], stacks[seat], stacks[seat] == top))
        return out

    # ----------------------------------------------------------------- actions
    def next_deal(self) -> Game | None:
        """After the current deal is over: pass the deal left, ante and deal again (G2).

        Ends the session instead (and returns None) when the agreed deals are
        played (with no agreed number: after ``saving.MAX_DEALS`` deals) or some
        player cannot ante for the next deal (G3).
        """
        self._check_between_deals()
        game = self.game
        dealer = (game.dealer + 1) % self._rules.players
        stacks = game.stacks
        if len(self._games) >= (saving.MAX_DEALS if self._deals is None else self._deals):
            self._end("deals")
            return None
        if any(chips < ante for chips, ante in zip(stacks, self._rules.antes(dealer))):
            self._end("ante")
            return None
        new = Game.deal(self._rules, seed=self.deal_seed(len(self._games)), dealer=dealer, stacks=stacks, pot=game.pot)
        self._games.append(new)
        return new

    def stop(self) -> None:
        """The players stop between deals (G3)."""
        self._check_between_deals()
        self._end("stopped")

    def _check_between_deals(self) -> None:
        if self._ended is not None:
            raise IllegalAction("G3", "session_over", "the session is over")
        if not self.game.over:
            raise IllegalAction(
                "G3", "deal_not_over", "the current deal is not over yet: a session moves on only between deals"
            )

    def _end(self, reason: str) -> None:
        """G3: share a leftover pot equally, the rest one chip each from the next dealer's left."""
        n = self._rules.players
        game = self.game
        pot = game.pot
        shared = [pot // n] * n
        first = (game.dealer + 2) % n  # the next dealer's left
        for i in range(pot % n):
            shared[(first + i) % n] += 1
        self._shared = shared
        self._final = [chips + extra for chips, extra in zip(game.stacks, shared)]
        self._ended = reason

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        """The saved form (see :mod:`speculation_nb.engine.saving`): the settings and every deal's saved game."""
        return saving.session_to_dict(self)

    def to_json(self) -> str:
        return saving.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Session:
        """Load ``to_json()`` output by replaying it; anything corrupt raises ``ValueError``."""
        return saving.session_from_json(text)

    def __repr__(self) -> str:
        state = f"over ({self._ended})" if self.over else f"deal {self.deal_number}"
        return f"<Session {self._rules.players} players, {state}, stacks {self.stacks}>"


def _name(name: object) -> str:
    """A player's name: text of 1 to :data:`~.checks.MAX_PLAYER_NAME` characters (spaces around it dropped) that
    can be saved (UTF-8: no lone surrogates)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a player's name is non-empty text, not {quote(name)}")
    name = name.strip()
    if len(name) > MAX_PLAYER_NAME:
        raise ValueError(f"a player's name has at most {MAX_PLAYER_NAME} characters, not {len(name):,}: {quote(name)}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"a player's name must be text that can be saved, not {quote(name)}") from None
    return name
