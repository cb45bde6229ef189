"""Checks at the door: whole numbers, their limits, and hostile input quoted short.

Every number the engine takes from outside (seats, chips, seeds, counts) is a whole number:
any :class:`numbers.Integral` that is not a bool (so numpy integers too), turned into a plain
``int`` before use. Seeds are 0 to :data:`MAX_SEED` (the app's limit); chips, stacks, pots,
antes and the price cap at most :data:`MAX_CHIPS` (a stack or a pot at most :data:`MAX_STACK`),
so that everything saved can be loaded.
A seat's name in a game or a session is at most :data:`MAX_PLAYER_NAME` characters.
Error messages quote what they refuse, cut to :data:`MAX_QUOTED` characters.
:func:`parse_seed` reads a seed a person typed (a settings field, a page's address);
:func:`fresh_seed` draws one short enough for a person to read out and type again.
"""

from __future__ import annotations

import numbers
import operator
import reprlib
import secrets
from typing import Any

__all__ = [
    "FRESH_SEED_BITS",
    "MAX_CHIPS",
    "MAX_PLAYER_NAME",
    "MAX_QUOTED",
    "MAX_SEED",
    "MAX_STACK",
    "as_int",
    "fresh_seed",
    "is_whole",
    "parse_seed",
    "plain",
    "quote",
    "seed",
    "whole_in",
]

#: The largest seed: 2**63 - 1.
MAX_SEED = 2**63 - 1
#: The most chips a table's settings may name: the starting stack, an ante, the price cap.
MAX_CHIPS = 10**9
#: The most chips one stack or a carried-over pot may hold: every chip of a table of eight
#: who started with :data:`MAX_CHIPS` each, so a session's later deals are never refused.
MAX_STACK = 10 * MAX_CHIPS
#: The longest name of a seat in a game or a session, in characters after trimming. (A name at the
#: classroom's shared table has a limit of its own: ``classroom.seating.MAX_MEMBER_NAME``.)
MAX_PLAYER_NAME = 40
#: The longest quotation of refused input in a message.
MAX_QUOTED = 60

_REPR = reprlib.Repr()
_REPR.maxstring = MAX_QUOTED
_REPR.maxother = MAX_QUOTED
_REPR.maxlevel = 2
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4


def is_whole(value: object) -> bool:
    """True for a whole number: an :class:`numbers.Integral` that is not a bool."""
    if type(value) is int:  # the common case, without the slower abstract-class check
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def plain(value: Any) -> Any:
    """A whole number of any integer type (a numpy integer, say) as a plain int; anything else
    (bools included) as it is, to be refused by the check that follows."""
    if type(value) is not int and is_whole(value):
        try:
            return operator.index(value)
        except TypeError:
            return value
    return value


def _int_text(value: int) -> str:
    if -(10**15) < value < 10**15:
        return str(value)
    digits = int(value.bit_length() * 0.30103) + 1  # about log10(|value|): str() may refuse huge ints
    return f"a whole number of about {digits} digits"


def quote(value: object) -> str:
    """``repr(value)`` for a message, cut short: a 990 KB string shows its first few dozen characters."""
    if is_whole(value):
        return _int_text(operator.index(value))  # type: ignore[arg-type]
    try:
        text = _REPR.repr(value)
    except Exception:  # a hostile object whose repr fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_QUOTED + 5 else text[:MAX_QUOTED] + "..."


def whole_in(value: object, low: int, high: int) -> bool:
    """True for a whole number from ``low`` to ``high``."""
    return is_whole(value) and low <= operator.index(value) <= high  # type: ignore[arg-type]


def as_int(value: object, what: str, low: int = 0, high: int = MAX_CHIPS, rule: str = "") -> int:
    """``value`` as a plain int if it is a whole number from ``low`` to ``high``, else ``ValueError``
    ``"<rule>: <what> is a whole number from <low> to <high>, not <value>"``."""
    if not whole_in(value, low, high):
        prefix = f"{rule}: " if rule else ""
        raise ValueError(f"{prefix}{what} is a whole number from {low:,} to {high:,}, not {quote(value)}")
    return operator.index(value)  # type: ignore[arg-type]


def seed(value: object, what: str = "a seed") -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED`."""
    return as_int(value, what, 0, MAX_SEED)


def parse_seed(text: object) -> int | None:
    """A seed as a person gives it, in a settings field or a page's address: blank (or None) ->
    None (a fresh seed is drawn); a whole number from 0 to :data:`MAX_SEED`, as an int or as
    text (spaces and ``_`` between digits allowed: ``"1 000_000"``) -> it; anything else raises
    ``ValueError``.

    >>> parse_seed(" 42 "), parse_seed(""), parse_seed(7)
    (42, None, 7)
    """
    if text is None:
        return None
    if is_whole(text):
        value = operator.index(text)  # type: ignore[arg-type]
    else:
        digits = str(text).strip().replace("_", "").replace(" ", "")
        if not digits:
            return None
        # isdigit() accepts "²" and "٣": only ASCII digits are a seed
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
            raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED:,}, not {quote(text)}")
        value = int(digits)
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED:,}, not {quote(text)}")
    return value


#: The bits of a seed the app draws for a person (:func:`fresh_seed`): at most 13 digits.
FRESH_SEED_BITS = 40


def fresh_seed() -> int:
    """A new random seed for the app to show (a new session, a simulation): :data:`FRESH_SEED_BITS`
    random bits, short enough to read out to a class and type again."""
    return secrets.randbits(FRESH_SEED_BITS)
