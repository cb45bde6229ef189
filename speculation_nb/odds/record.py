"""Strict reading of a published JSON record: each value checked for its type and range.

A moment travels as JSON (:mod:`.moment`, the shared table's :mod:`speculation_nb.classroom.moment`)
and is read back by whoever receives it, a student's kernel say, which must trust nothing: each
reader here returns the value when it is exactly of the expected kind, else raises ``ValueError``
naming where in the record it went wrong (``"not a valid moment: odds.hold must be ..."``).
Fractions travel as exact ``"p/q"`` strings; seats as keys of JSON objects are strings (``"2"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from ..engine.cards import Card

__all__ = [
    "boolean",
    "card",
    "fail",
    "fraction",
    "items",
    "obj",
    "seat_map",
    "text",
    "whole",
]

T = TypeVar("T")
_FRACTION = re.compile(r"^-?[0-9]{1,400}(/[1-9][0-9]{0,400})?$")


def fail(where: str, what: str, value: Any) -> ValueError:
    """The error for ``value`` found at ``where`` when ``what`` was expected."""
    return ValueError(f"not a valid moment: {where} must be {what}, not {repr(value)[:60]}")


def whole(value: Any, where: str, low: int = 0, high: int = 10**12) -> int:
    """A whole number from ``low`` to ``high`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(where, f"a whole number from {low} to {high}", value)
    return value


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise fail(where, "true or false", value)
    return value


def text(value: Any, where: str, limit: int = 200) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise fail(where, f"text of at most {limit} characters", value)
    return value


def items(value: Any, where: str, length: int | None = None) -> list[Any]:
    """A JSON list (of ``length`` items, when given)."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise fail(where, "a list" if length is None else f"a list of {length}", value)
    return value


def obj(value: Any, where: str) -> dict[str, Any]:
    """A JSON object."""
    if not isinstance(value, dict):
        raise fail(where, "an object", value)
    return value


def card(value: Any, where: str) -> Card:
    """A card code (``"QH"``)."""
    if not isinstance(value, str):
        raise fail(where, "a card code", value)
    try:
        return Card.parse(value)
    except ValueError:
        raise fail(where, "a card code", value) from None


def fraction(value: Any, where: str) -> Fraction:
    """An exact fraction written ``"p/q"`` (or ``"p"``)."""
    if not isinstance(value, str) or not _FRACTION.match(value):
        raise fail(where, 'an exact fraction "p/q"', value)
    return Fraction(value)


def seat_map(value: Any, where: str, players: int, read: Callable[[Any, str], T]) -> dict[int, T]:
    """A JSON object keyed by seats (``"0"`` to ``"players - 1"``), each value read by ``read``."""
    out: dict[int, T] = {}
    for key, item in obj(value, where).items():
        if not key.isdigit() or key != str(int(key)) or not 0 <= int(key) < players:
            raise fail(where, f"keyed by seats 0 to {players - 1}", key)
        out[int(key)] = read(item, f"{where}.{key}")
    return out
