"""What the lessons' model cells share: a student's own function run on the lesson's cases and
told, in words, how it stands (``check_hold`` and ``check_trade_value`` of :mod:`.lesson4`,
``check_break_even`` and ``check_interval`` of :mod:`.evening`).

:func:`student_value` runs the function on one case: a function that stops, still returns
None, or returns what is not a (finite) number ends the check with a :class:`Verdict`, the words to
show instead; :func:`way` says which way a wrong number is off. Every word comes from the
runtime catalog ``lessons.po``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from ..languages.translator import Translator

__all__ = ["Verdict", "student_value", "way"]

T = TypeVar("T")


class Verdict(Exception):
    """The words that end a model check before any comparison (``str(verdict)``)."""


def student_value(
    t: Translator,
    function: Callable[..., Any],
    args: Sequence[Any],
    convert: Callable[[Any], T],
    error: str,
    not_number: str = "lesson.l4.model.not_number",
    **params: Any,
) -> T:
    """``convert(function(*args))``, or a :class:`Verdict`: ``error`` (with the exception's name
    and ``params``) when the student's code stops (never a traceback), "not yet" when it still
    returns None, ``not_number`` (with what it returned) when ``convert`` refuses that."""
    try:
        got = function(*args)
    except Exception as exc:  # a student's code: report it, never a traceback
        raise Verdict(t(error, error=type(exc).__name__, **params)) from None
    if got is None:
        raise Verdict(t("lesson.l4.model.not_yet"))
    try:
        value = convert(got)
    except (TypeError, ValueError, OverflowError):
        raise Verdict(t(not_number, value=repr(got)[:40])) from None
    # NaN compares false with everything: unchecked, it would pass any "is it close" test.
    numbers: tuple[Any, ...] = value if isinstance(value, tuple) else (value,)
    if not all(math.isfinite(v) for v in numbers):
        raise Verdict(t(not_number, value=repr(got)[:40]))
    return value


def way(t: Translator, value: float, expected: float | Fraction) -> str:
    """Which way the student's ``value`` is off the ``expected`` one, in words."""
    return t("lesson.l4.model.high" if value > float(expected) else "lesson.l4.model.low")
