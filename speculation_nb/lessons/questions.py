"""The lessons' exercises: each answer computed here, its words in the catalogs.

A :class:`Question` names its catalog key (``"l2a.king_holds"`` stands for the messages
``lesson.l2a.king_holds.question``, ``.hint`` and ``.solution`` of ``lessons.po``), the lesson
it belongs to, and a function that computes the exact answer together with the numbers its
worked solution quotes. A notebook cell only says ``ask("l2a.king_holds", LANG)``: the answer
never appears in a code cell, and the same question speaks every language.

The lesson modules register their questions when imported; :func:`questions` imports them all.
:func:`answer_key` writes a teacher's key for one lesson (``python -m speculation_nb.lessons.answers``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..languages.translator import Translator, translator
from .checker import TRIES, Exercise, exact_text

__all__ = ["LESSON_MODULES", "Question", "ask", "get", "questions", "register", "texts"]

#: The modules that register questions (each lesson engineer adds theirs).
LESSON_MODULES = ("lesson1", "lesson2", "lesson3", "lesson4", "evening")

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

    def answer(self) -> Fraction:
        return Fraction(self.compute()[0])

    def texts(self, lang: str = "en") -> dict[str, str]:
        """The question, hint and worked solution in ``lang``, numbers written the language's way."""
        return texts(self, translator(lang))


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
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        return str(value)
    if isinstance(value, float):
        return t.number(value, digits=4)
    return exact_text(Fraction(value), t)


def texts(question: Question, t: Translator) -> dict[str, str]:
    """``{"question": ..., "hint": ..., "solution": ...}`` with the computed values filled in."""
    answer, values = question.compute()
    params = {name: _value(v, t) for name, v in values.items()}
    params.setdefault("answer", exact_text(Fraction(answer), t))
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
    )
