"""The lessons' exercises: each answer computed here, its words in the catalogs.

A :class:`Question` names its catalog key (``"l2a.king_holds"`` stands for the messages
``lesson.l2a.king_holds.question``, ``.hint`` and ``.solution`` of ``lessons.po``), the lesson
it belongs to, and a function that computes the exact answer together with the numbers its
worked solution quotes. A figure the question gives rounded is passed as a :class:`~decimal.Decimal`
(shown with exactly its digits), and the answer is computed from that figure, so the question is
checked against what it states. When the answer is not exact (a square root, a result of rounded
figures), ``within`` gives the range of values the question allows; the answer is then shown as a
decimal at the precision asked, never as a long fraction.

A notebook cell only says ``ask("l2a.king_holds", LANG)``: the answer never appears in a code
cell, and the same question speaks every language.

The lesson modules register their questions when imported; :func:`questions` imports them all.
:func:`answer_key` writes a teacher's key for one lesson (``python -m speculation_nb.lessons.answers``).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..languages.translator import Translator, translator
from .checker import TRIES, Exercise, decimal_text, exact_text

__all__ = ["LESSON_MODULES", "Question", "as_shown", "ask", "get", "questions", "register", "spread", "texts"]

#: The modules that register questions (each lesson engineer adds theirs).
LESSON_MODULES = ("lesson1", "lesson2_questions", "lesson3_questions", "lesson4", "evening")

#: What a question's function returns: the exact answer and the values its texts quote.
Worked = tuple[Fraction, Mapping[str, Any]]


@dataclass(frozen=True)
class Question:
    """One exercise: ``key`` in the catalog, the notebook stem it belongs to, how to compute it."""

    key: str
    lesson: str
    compute: Callable[[], Worked]
    digits: int = 2
    unit: str | None = None
    tries: int = TRIES
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: For an answer that is not exact: the range ``(low, high)`` of values the question allows.
    within: Callable[[], tuple[Fraction, Fraction]] | None = None

    def answer(self) -> Fraction:
        return Fraction(self.compute()[0])

    def answer_text(self, t: Translator) -> str:
        """The answer as shown: ``29/2 = 14.5`` when exact, ``≈ 0.0046`` (the digits asked) when not."""
        if self.within is not None:
            return "≈ " + decimal_text(self.answer(), self.digits, t)
        return exact_text(self.answer(), t)

    def texts(self, lang: str = "en") -> dict[str, str]:
        """The question, hint and worked solution in ``lang``, numbers written the language's way."""
        return texts(self, translator(lang))


def as_shown(value: Fraction | int, places: int = 4) -> Decimal:
    """``value`` as a question shows it, rounded half up to ``places`` decimals (0.16665... -> 0.1667).

    A question that gives a figure rounded computes its answer from this figure, and its range
    (``within``) from the figure ± half a unit of its last place.
    """
    units = math.floor(Fraction(value) * 10**places + Fraction(1, 2))
    return Decimal(units).scaleb(-places)


def spread(figure: Decimal) -> tuple[Fraction, Fraction]:
    """The values a figure shown as ``figure`` may stand for: ± half a unit of its last place."""
    exponent = figure.as_tuple().exponent
    half = Fraction(1, 2) * Fraction(10) ** (exponent if isinstance(exponent, int) else 0)
    return Fraction(figure) - half, Fraction(figure) + half


_REGISTRY: dict[str, Question] = {}
_loaded = False


def register(question: Question) -> Question:
    if question.key in _REGISTRY and _REGISTRY[question.key] != question:
        raise ValueError(f"two questions share the key {question.key!r}")
    _REGISTRY[question.key] = question
    return question


def _load() -> None:
    global _loaded
    if not _loaded:
        for name in LESSON_MODULES:
            if importlib.util.find_spec(f"{__package__}.{name}") is not None:
                importlib.import_module(f"{__package__}.{name}")
        _loaded = True


def questions(lesson: str | None = None) -> list[Question]:
    """Every registered question (of one lesson stem, when given), in the order registered."""
    _load()
    return [q for q in _REGISTRY.values() if lesson is None or q.lesson == lesson]


def get(key: str) -> Question:
    _load()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise KeyError(f"no exercise {key!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def _value(value: Any, t: Translator) -> str:
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return t.number(value, digits=max(-exponent, 0) if isinstance(exponent, int) else 0)
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        return str(value)
    if isinstance(value, float):
        return t.number(value, digits=4)
    return exact_text(Fraction(value), t)


def texts(question: Question, t: Translator) -> dict[str, str]:
    """``{"question": ..., "hint": ..., "solution": ...}`` with the computed values filled in."""
    _, values = question.compute()
    params = {name: _value(v, t) for name, v in values.items()}
    # a solution writes "≈ {answer}" when the answer is not exact (``within``): the number alone
    shown = decimal_text(question.answer(), question.digits, t) if question.within else question.answer_text(t)
    params.setdefault("answer", shown)
    out = {}
    for part in ("question", "hint", "solution"):
        key = f"lesson.{question.key}.{part}"
        out[part] = t(key, **params) if t.has(key) else ""
    return out


def ask(key: str, lang: str = "en") -> Exercise:
    """The exercise ``key`` as a widget in ``lang``: show it in a notebook cell."""
    question = get(key)
    words = texts(question, translator(lang))
    return Exercise(
        words["question"],
        question.answer(),
        hint=words["hint"] or None,
        solution=words["solution"] or None,
        digits=question.digits,
        unit=question.unit,
        tries=question.tries,
        lang=lang,
        within=question.within() if question.within else None,
    )
