"""Table codes and secrets (``docs/TABLE.md``, rule T1; T3, T8, T9 for the secrets).

A table code is 10 characters of :data:`ALPHABET` (31 letters and digits with no 0/O, 1/I/L
to confuse), about 50 bits: nobody guesses a code during a lesson. It is stored as
``"ABCDEFGHJK"`` and shown as ``"ABCDE-FGHJK"`` (:func:`show_code`); a typed code ignores
case, spaces and dashes (:func:`read_code`), anything else is refused with the reason.

Secrets (a member's seat secret, a rejoin token, the teacher's host secret) come from
:mod:`secrets`; the referee keeps only their SHA-256 hashes and compares them in constant
time (:func:`same_secret`). Request ids (T6) and reply tokens are random too.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .errors import TableRefusal

__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "check_request_id",
    "check_token",
    "new_code",
    "new_request_id",
    "new_secret",
    "new_token",
    "read_code",
    "same_secret",
    "secret_hash",
    "show_code",
    "table_link",
]

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
_REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,128}$")


def new_code(rng: random.Random | None = None) -> str:
    """A fresh table code in its stored form (``"ABCDEFGHJK"``): from :mod:`secrets`, or from
    ``rng`` when given (tests and reproducible examples only)."""
    if rng is None:
        return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return "".join(rng.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: object) -> str:
    """A code as typed (``"abcde fghjk"``, ``"ABCDE-FGHJK"``) in its stored form.

    :class:`TableRefusal` T1 with the reason: not text, the wrong number of letters, or a
    letter that is not in codes (``0 O 1 I L`` and punctuation never are)."""
    if not isinstance(text, str):
        raise TableRefusal("T1", "table.code_type")
    code = "".join(ch for ch in text.upper() if not ch.isspace() and ch not in "-\u2010\u2011\u2012\u2013\u2014")
    for ch in code:
        if ch not in ALPHABET:
            raise TableRefusal("T1", "table.code_letter", {"letter": ch})
    if len(code) != CODE_LENGTH:
        raise TableRefusal("T1", "table.code_length", {"length": len(code), "expected": CODE_LENGTH})
    return code


def show_code(code: str) -> str:
    """The code as shown and read aloud: ``"ABCDE-FGHJK"``."""
    return f"{code[:5]}-{code[5:]}"


def new_secret() -> str:
    """A fresh secret (43 URL-safe characters, 256 bits)."""
    return secrets.token_urlsafe(32)


def new_token() -> str:
    """A fresh reply token (the key ``reply:<token>`` the referee answers at)."""
    return secrets.token_urlsafe(32)


def new_request_id() -> str:
    """A fresh request id (T6): 22 URL-safe characters."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    """The SHA-256 hash of ``secret`` (hex), the only form of a secret the referee keeps."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(secret: object, hashed: object) -> bool:
    """True when ``secret`` hashes to ``hashed``, compared in constant time; False for anything
    that is not text."""
    if not isinstance(secret, str) or not isinstance(hashed, str) or len(secret) > 256:
        return False
    return hmac.compare_digest(secret_hash(secret), hashed)


def check_request_id(rid: object) -> str:
    """``rid`` if it is a request id of T6 (8-64 characters of ``[A-Za-z0-9_-]``), else
    :class:`TableRefusal` T6."""
    if not isinstance(rid, str) or not _REQUEST_ID.match(rid):
        raise TableRefusal("T6", "table.bad_request_id")
    return rid


def check_token(token: object) -> bool:
    """True if ``token`` may name a reply key (32-128 characters of ``[A-Za-z0-9_-]``)."""
    return isinstance(token, str) and _TOKEN.match(token) is not None


def table_link(base_url: str, code: str) -> str:
    """``base_url`` with ``?table=<code>`` (its other parameters kept; only the code: never a secret)."""
    parts = urlsplit(base_url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "table"]
    query.append(("table", show_code(code)))
    return urlunsplit(parts._replace(query=urlencode(query)))
