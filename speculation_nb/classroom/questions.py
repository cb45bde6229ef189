"""Question deals (issue 25): a composed moment asked about at the shared table, outside the standings.

The teacher puts a moment before the class: a :class:`~speculation_nb.engine.compose.Moment` (the
public view, from the composer's editor or the question bank, :mod:`speculation_nb.engine.bank`),
dealt afresh by :func:`~speculation_nb.engine.compose.compose` from a secret seed. While it is
shown, the table publishes it instead of the session's deal: every member sees that table and
may answer "what would you pay?" about it (T7); nobody acts on it (T4: it is not the live deal),
and the session itself is untouched: no chip moves, the dealer rotation stays as it was. When the
teacher goes back to the deal, the table shows the session again. Each question deal is kept, with
its polls, in the table's record and export (its dealt cards included: the export is the
teacher's; the published moment holds the public view only, as always).

A bank moment's question is its bank id (worded in each language from the catalogs); a moment
composed in the editor has none, and carries the teacher's question as typed (``words``: plain
text, at most :data:`~speculation_nb.links.query.MAX_QUESTION` characters, T11; escaped wherever it
is shown).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import bank
from ..engine.compose import Moment as Composed
from ..engine.compose import compose
from ..engine.game import Game
from ..engine.session import Session
from ..links.query import MAX_QUESTION
from .errors import TableRefusal
from .moment import public_moment
from .poll import Poll
from .teacher_game import Host

__all__ = ["QuestionDeal", "show_question"]


@dataclass
class QuestionDeal:
    """One question deal: its number at the table, the bank's question id (or ``""``), the
    public moment (:meth:`Moment.to_dict`), the deal composed from it, the seats' names and the
    teacher's question as typed (``words``, a composed moment's; ``""`` for a bank one)."""

    id: int
    question: str
    moment: dict[str, Any]
    game: Game
    names: list[str] = field(default_factory=list)
    words: str = ""

    @classmethod
    def of(
        cls,
        number: int,
        moment: Composed,
        question: str = "",
        names: list[str] | None = None,
        seed: int | None = None,
        words: str = "",
    ) -> QuestionDeal:
        """Compose ``moment`` (a secret seed unless ``seed``); ``words`` that are not text of at
        most :data:`MAX_QUESTION` characters are refused (T11), a ``question`` not of the bank too
        (T9); an unreachable moment raises the engine's ``IllegalAction`` (a ``ValueError`` naming
        the rule)."""
        if not isinstance(words, str) or len(words) > MAX_QUESTION:
            raise TableRefusal("T11", "table.question_long", {"limit": MAX_QUESTION})
        if not isinstance(moment, Composed) or (question and question not in {q.id for q in bank.QUESTIONS}):
            raise TableRefusal("T9", "table.bad_request")
        game = compose(moment, seed)
        n = game.rules.players
        given = list(names or [])
        return cls(number, str(question), moment.to_dict(), game, given if len(given) == n else [], words.strip())

    @property
    def seat_names(self) -> list[str]:
        """Its seats' names as every page shows them: ``names``, else a session's of it alone."""
        return list(self.names) if self.names else self.session().names

    def poll(self, number: int) -> Poll:
        """A new open poll about this question deal (deal 0, its bank id and its number)."""
        poll = Poll.at(number, self.game, 0)
        poll.question, poll.question_deal = self.question, self.id
        return poll

    def session(self) -> Session:
        """The question deal as a session of one deal (for the published moment)."""
        return Session.from_game(self.game, self.names or None)

    def published(self, *, version: int, paused: bool, poll: Mapping[str, Any] | None) -> dict[str, Any]:
        """The moment every member sees while the question is shown: its public view, not live
        (T4: no action), every seat free (nobody of the class sits at a question's table), and its
        question (``question``: the bank id, worded by each page in its language, and the teacher's
        words as typed; nothing else of the question deal)."""
        n = self.game.rules.players
        return public_moment(
            self.session(),
            version=version,
            live=False,
            paused=paused,
            seats=[{"kind": "free", "members": []}] * n,
            poll=poll,
            question={"bank": self.question, "words": self.words},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "moment": self.moment,
            "game": self.game.to_dict(),
            "names": list(self.names),
            "words": self.words,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuestionDeal:
        """Read :meth:`to_dict` output; ``ValueError`` if malformed."""
        try:
            Composed.from_dict(data["moment"])
            game = Game.from_json(json.dumps(data["game"]))
            names = [str(x) for x in data.get("names", [])]
            words = str(data.get("words", ""))[:MAX_QUESTION]  # (a record of an older referee has none)
            return cls(int(data["id"]), str(data["question"]), dict(data["moment"]), game, names, words)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a valid question deal: {error}") from None


def show_question(host: Host, question: QuestionDeal | None) -> None:
    """Tell ``host`` (the teacher's game) the question deal the table shows, with its seats'
    names, or None: the teacher's screen shows the question deal the students see."""
    host.show_question(None if question is None else question.game, [] if question is None else question.seat_names)
