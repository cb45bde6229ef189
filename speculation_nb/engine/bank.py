"""The question bank: the chapter's moments and the lessons', each a public :class:`~.compose.Moment`
with its question, ready to open (issue 25; the app's editor and the poll build on it).

The chapter is *Mansfield Park*, vol. II, ch. 7 (the lesson's round table, :data:`RULES`: Hoyle's
rules of 1847, six seats clockwise: Lady Bertram 0, Henry Crawford 1, Fanny Price 2, William
Price 3, Mary Crawford 4, Edmund Bertram 5). Each :class:`Question` carries its moment (plain
data, as :meth:`Moment.to_dict` writes it), the catalog key of its question in the four languages
(``bank.<id>.question`` in ``engine.po``), the seat whose break-even price it asks about, and, for
the chapter's own moments, Austen's words exactly as the chapter prints them. The moments are
those of :mod:`speculation_nb.lessons.evening` (the cards turned up are the lowest non-trumps, as
its ``moment`` lays them out), so the bank's answers are the lesson's.

>>> game = load("dozen", seed=1)
>>> game.holder, str(game.best_trump), game.face_down
(4, 'Q♥', [3, 3, 3, 3, 3, 3])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .compose import Moment, compose
from .game import Game
from .settings import Rules

__all__ = ["QUESTIONS", "RULES", "Question", "load", "question"]

#: Hoyle's rules of 1847 for the six players of the chapter's round table.
RULES = Rules(players=6, preset="hoyle1847")
_DEAL = {"dead": 0, "turn_up": "QH", "best_trump": "QH", "paid": None, "pot": 26}


@dataclass(frozen=True)
class Question:
    """One moment of the bank: ``id``, ``moment`` (a :meth:`Moment.to_dict`), ``asker`` (the seat
    whose break-even price the question asks), ``quote`` (Austen's words, or ``""``)."""

    id: str
    moment: dict[str, Any]
    asker: int
    quote: str = ""

    @property
    def key(self) -> str:
        """The catalog key of the question's words."""
        return f"bank.{self.id}.question"

    def to_moment(self) -> Moment:
        return Moment.from_dict(self.moment)


def _m(**fields: Any) -> dict[str, Any]:
    return {"rules": RULES.to_dict(), **_DEAL, **fields}


QUESTIONS: tuple[Question, ...] = (
    Question(  # Mary has dealt and turned up the queen; Lady Bertram would bid a dozen
        "dozen",
        _m(dealer=4, face_up=[[]] * 6, face_down=[3] * 6, holder=4, stacks=[56, 56, 56, 56, 54, 56], turn=5),
        asker=0,
        quote="a dozen is more than it is worth",
    ),
    Question(  # the lesson's later moment: six cards turned up, none a trump
        "dozen_six",
        _m(
            dealer=4,
            face_up=[["2S"], ["3S"], ["4S"], ["5S"], [], ["7S", "7D"]],
            face_down=[2, 2, 2, 2, 3, 1],
            holder=4,
            stacks=[56, 56, 56, 56, 54, 56],
            turn=0,
        ),
        asker=0,
    ),
    Question(  # William has dealt and turned up the knave; Mary secures it
        "knave",
        _m(
            dealer=3,
            turn_up="JH",
            best_trump="JH",
            face_up=[["2S"], [], [], [], ["6S"], ["7S"]],
            face_down=[2, 3, 3, 3, 2, 2],
            holder=3,
            stacks=[56, 56, 56, 54, 56, 56],
            turn=1,
        ),
        asker=4,
        quote="at an exorbitant rate",
    ),
    Question(  # Fanny bought Henry's queen for 8; William bids for it
        "fanny",
        _m(
            dealer=1,
            face_up=[["2S"], [], [], ["5S"], ["6S"], ["7S"]],
            face_down=[2, 3, 3, 2, 2, 2],
            holder=2,
            paid=8,
            stacks=[56, 62, 48, 56, 56, 56],
            turn=1,
        ),
        asker=3,
        quote="your brother does not offer half her value",
    ),
)


def question(id: str) -> Question:
    """The bank's question ``id``; an unknown one raises ``ValueError``."""
    for q in QUESTIONS:
        if q.id == id:
            return q
    raise ValueError(f"the question bank has no moment {id!r}")


def load(id: str, seed: int | None = None) -> Game:
    """The question's moment as a :class:`Game`, its unseen cards dealt from ``seed`` (or a secret one)."""
    return compose(question(id).to_moment(), seed)
