"""The check character of a share link: a link with one character changed is refused in words
instead of opening a different moment (issue 23).

A new link starts with ``check=<c>&``, then the moment's query as
:func:`speculation_nb.links.share.moment_query` writes it (its *body*). ``<c>`` is computed from the
body exactly as written: every character of a body is one of the 69 of :data:`BODY` (what
``urllib.parse.quote`` leaves, with ``%``, ``&`` and ``=``), and each step of the sum
``state = (2 * state + index(character)) mod 69`` is a bijection in the character and in the
state, so a body with any one character changed into another of :data:`BODY` ends on another
state, and a character outside :data:`BODY` is refused at once. The check comes first, so a
change to its own name leaves the body intact (the link opens the same moment, as a link without
a check always did), and a change to its ``&`` makes its value longer than one character.

Links written before the check (no ``check=`` first) open exactly as before.

>>> check_character("seed=42&deal=1&moves=r3")
'b'
>>> verify_check("check=b&seed=42&deal=1&moves=r3")
>>> verify_check("check=b&seed=43&deal=1&moves=r3")
Traceback (most recent call last):
...
speculation_nb.links.query.ShareError: the link was changed: its check character does not match
"""

from __future__ import annotations

from .query import ShareError

__all__ = ["BODY", "NAME", "SYMBOLS", "add_check", "check_character", "split_check", "verify_check"]

#: The characters a link's body is written in (``quote`` leaves letters, digits and ``-._~``).
BODY = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~%&="
#: The check characters, one per state (none of them is ``&``, ``=``, ``%``, ``+`` or a space).
SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~!*:"
#: The check's parameter (a row of :data:`speculation_nb.links.query.PARAMS`); no other
#: parameter's name is one character away from it.
NAME = "check"
_INDEX = {ch: i for i, ch in enumerate(BODY)}
assert len(BODY) == len(SYMBOLS) == len(_INDEX) == len(set(SYMBOLS))


def check_character(body: str) -> str | None:
    """The check character of ``body``, or None when ``body`` holds a character no link's
    body is written in."""
    state = 0
    for ch in body:
        index = _INDEX.get(ch)
        if index is None:
            return None
        state = (2 * state + index) % len(BODY)
    return SYMBOLS[state]


def add_check(body: str) -> str:
    """``body`` (a query as :func:`~speculation_nb.links.share.moment_query` writes it) with
    its check in front: ``check=<c>&<body>``."""
    check = check_character(body)
    if check is None:
        raise ValueError("a link's body is written in letters, digits and -._~%&= only")
    return f"{NAME}={check}&{body}"


def split_check(query: str) -> tuple[str | None, str]:
    """``(check, body)`` of a query: its first parameter's value when its name is ``check``
    (None when it has none: a link of earlier versions), and the rest as written."""
    if not query.startswith(NAME + "="):
        return None, query
    head, _, body = query.partition("&")
    return head[len(NAME) + 1 :], body


def verify_check(query: str) -> None:
    """Refuse a link whose check does not match its body (:class:`ShareError`
    ``share.changed``); a link without a check passes as it always did."""
    check, body = split_check(query)
    if check is not None and (len(check) != 1 or check_character(body) != check):
        raise ShareError("share.changed", "the link was changed: its check character does not match")
