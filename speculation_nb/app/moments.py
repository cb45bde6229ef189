"""The moments of a deal the app's model keeps: each moment's :class:`~speculation_nb.Game` and its
numbers (a :class:`~speculation_nb.odds.moment.DealMoment`), computed once and kept per
``(deal number, step)``, bounded (:data:`SNAPSHOT_LIMIT`): other deals' are dropped first, then the
oldest. :class:`~.model.Controller` reads them through :meth:`MomentCache.game_at` and
:meth:`MomentCache.snapshot`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.game import Game
from ..engine.session import Session
from ..odds.moment import DealMoment

__all__ = ["SNAPSHOT_LIMIT", "MomentCache", "QuestionShown"]

#: Snapshots kept per deal (a whole deal's moments fit many times over).
SNAPSHOT_LIMIT = 400


class MomentCache:
    """The games and numbers of the moments looked at (see the module docstring)."""

    def __init__(self) -> None:
        self.snaps: dict[tuple[int, int], DealMoment] = {}
        self.games: dict[tuple[int, int], Game] = {}

    def clear(self) -> None:
        self.snaps.clear()
        self.games.clear()

    def keep_deal(self, deal: int) -> None:
        """A new deal: the last deal's numbers are no longer shown."""
        for old in [x for x in self.snaps if x[0] != deal]:
            del self.snaps[old]
        self.games.clear()

    def game_at(self, live: Game, deal: int, k: int) -> Game:
        """Deal ``deal`` (its live game ``live``) at step ``k``."""
        if k == len(live.history):
            return live
        key = (deal, k)
        game = self.games.get(key)
        if game is None:
            if len(self.games) > 64:
                self.games.clear()
            game = self.games[key] = live.at(k)
        return game

    def snapshot(self, live: Game, deal: int, k: int) -> DealMoment:
        """The numbers of deal ``deal`` at step ``k``, computed once."""
        key = (deal, k)
        snap = self.snaps.get(key)
        if snap is None:
            if len(self.snaps) >= SNAPSHOT_LIMIT:  # other deals' first, then the oldest
                for old in [x for x in self.snaps if x[0] != deal] or list(self.snaps)[: SNAPSHOT_LIMIT // 2]:
                    del self.snaps[old]
            snap = self.snaps[key] = DealMoment.of(self.game_at(live, deal, k))
        return snap

    def hold_points(self, live: Game, deal: int, upto: int) -> list[DealMoment]:
        """O1 over the deal: the moments 0..upto where the best trump or its owner could change."""
        points = [0] + [
            k + 1 for k, action in enumerate(live.history[:upto]) if action.kind in ("reveal", "accept", "blind_trade")
        ]
        return [self.snapshot(live, deal, k) for k in points]


@dataclass(frozen=True)
class QuestionShown:
    """A question deal the app shows instead of the session's deal (issue 25): its game, its
    seats' names and its numbers."""

    game: Game
    names: list[str]
    snap: DealMoment

    @classmethod
    def of(cls, game: Game, names: Sequence[str] | None = None) -> QuestionShown:
        """``names``: one for each seat, else the names a session of ``game`` alone gives them."""
        given = [str(n) for n in names or []]
        shown = given if len(given) == game.rules.players else Session.from_game(game).names
        return cls(game, shown, DealMoment.of(game))
