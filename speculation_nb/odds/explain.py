"""O1 explained: the numbers of the hold probability, the formula filled in, and words.

The words come from the message catalogs (``odds.hold.*`` in
``locale/<lang>/LC_MESSAGES/speculation_nb.po``): :data:`WORDS` holds the English ones, and
:meth:`HoldExplanation.words` takes any translator (the app's, in its language).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

from ..engine.cards import Card
from ..languages.catalogs import messages

__all__ = ["WORDS", "HoldExplanation"]

_KEYS = (
    "odds.hold.formula",
    "odds.hold.over",
    "odds.hold.over.kept",
    "odds.hold.over.beaten",
    "odds.hold.top",
    "odds.hold.none_left",
    "odds.hold.main.one",
    "odds.hold.main.other",
    "odds.hold.none_left_no_dead",
    "odds.hold.main_no_dead.one",
    "odds.hold.main_no_dead.other",
)

#: The English words of the explanations, by stable keys with ``{named}`` placeholders, as
#: the catalog has them. A translation layer passes its own ``translate(key, **params)`` to
#: :meth:`HoldExplanation.words`.
WORDS: dict[str, str] = {key: messages("en")[key] for key in _KEYS}


def _english(key: str, **params: Any) -> str:
    return WORDS[key].format(**params)


def _percent(p: Fraction) -> str:
    """``"67.9%"``: one decimal, rounded half up (exactly, from the fraction)."""
    tenths = floor(p * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}%"


def _fraction_text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


@dataclass(frozen=True)
class HoldExplanation:
    """O1 with its working: ``probability = C(U - h, n) / C(U, n)``.

    ``U`` unseen cards, ``h`` trumps above the best trump, ``n`` face-down cards
    in the other players' piles (every pile but ``owner``'s) plus the dead pile.
    ``over`` marks a finished deal (O5), where the probability is settled.
    ``n_dead`` is the part of ``n`` in the dead pile (0 without V2): the words
    mention the dead pile only when there is one.
    """

    owner: int
    best_trump: Card
    U: int
    h: int
    n: int
    probability: Fraction
    over: bool = False
    n_dead: int = 0

    @property
    def formula(self) -> str:
        """The formula with its numbers: ``"C(44, 8) / C(46, 8) = 703/1035"``."""
        return self._formula(_english)

    def _formula(self, translate: Callable[..., str]) -> str:
        return translate(
            "odds.hold.formula", U_minus_h=self.U - self.h, U=self.U, n=self.n, p=_fraction_text(self.probability)
        )

    def words(self, translate: Callable[..., str] | Mapping[str, str] | None = None) -> str:
        """The same in words. ``translate`` is ``None`` (English, :data:`WORDS`), a dict of
        templates by key, or a callable ``translate(key, **params)`` such as the app's
        translator (whose ``percent`` method, if it has one, writes the percentage)."""
        if translate is None:
            say: Callable[..., str] = _english
        elif isinstance(translate, Mapping):
            templates = {**WORDS, **translate}

            def say(key: str, **params: Any) -> str:
                return templates[key].format(**params)

        else:
            say = translate
        card = str(self.best_trump)
        if self.over:
            outcome = say("odds.hold.over.kept" if self.probability == 1 else "odds.hold.over.beaten")
            return say("odds.hold.over", card=card, outcome=outcome)
        if self.h == 0:
            return say("odds.hold.top", card=card)
        dead = self.n_dead > 0
        if self.n == 0:
            return say("odds.hold.none_left" if dead else "odds.hold.none_left_no_dead", card=card)
        main = "odds.hold.main" if dead else "odds.hold.main_no_dead"
        key = f"{main}.one" if self.h == 1 else f"{main}.other"
        percent = getattr(translate, "percent", _percent)(self.probability)
        return say(key, h=self.h, card=card, U=self.U, n=self.n, formula=self._formula(say), percent=percent)

    def __str__(self) -> str:
        return self.words()
