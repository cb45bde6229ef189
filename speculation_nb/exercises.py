"""The lessons' answer checker, kept importable here: it lives in :mod:`speculation_nb.lessons.checker`.

>>> from speculation_nb.exercises import check
>>> check("75%", 3/4).correct
True
"""

from __future__ import annotations

from .lessons.checker import TRIES, UNITS, Answer, Exercise, Verdict, check, exact_text, parse_answer, unit_words

__all__ = ["TRIES", "UNITS", "Answer", "Exercise", "Verdict", "check", "exact_text", "parse_answer", "unit_words"]
