"""The part of a table's record that would show the face-down cards, sealed with the host secret
(issue 27).

The referee keeps its record in the store (``"record"``, T10) so that a reloaded teacher's page
resumes the table (T9). The record's session holds every deal's cards and the seed that deals
them: anyone who reads it while the table is open knows every face-down card. A Redis student
user cannot read the record (the ACL of ``deploy/README.md``); an SQLite file is one file every
kernel of its server can open. So the session is stored sealed: encrypted and authenticated with
a key drawn from the host secret, which only the teacher's kernel and the teacher's own browser
hold (never the store, which keeps only its hash). :func:`seal` and :func:`unseal` use
``cryptography``'s Fernet (AES-128 in CBC mode with HMAC-SHA256, a fresh IV at each write), its
key drawn from the host secret by HKDF-SHA256: a kept library's recipe, not one of our own.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

__all__ = ["SEAL_FORMAT", "seal", "unseal"]

#: The first field of a sealed value: what it is and how it was sealed.
SEAL_FORMAT = "speculation_nb.sealed.2"


def _fernet(host_secret: str) -> Fernet:
    """The Fernet key of ``host_secret``: 32 bytes drawn from it by HKDF-SHA256. (Imported here:
    the app imports this module, and the static site, which has no table, ships no OpenSSL.)"""
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    kdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"speculation_nb.record")
    return Fernet(base64.urlsafe_b64encode(kdf.derive(host_secret.encode("utf-8"))))


def seal(value: Any, host_secret: str) -> dict[str, str]:
    """``value`` (plain JSON) sealed with ``host_secret``: ``{"sealed", "token"}``."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return {"sealed": SEAL_FORMAT, "token": _fernet(host_secret).encrypt(text).decode("ascii")}


def unseal(sealed: Any, host_secret: str) -> Any:
    """The value :func:`seal` sealed; ``ValueError`` if it is not one, or not this secret's, or
    was changed."""
    if not isinstance(sealed, dict) or sealed.get("sealed") != SEAL_FORMAT or not isinstance(sealed.get("token"), str):
        raise ValueError("not a sealed value")
    from cryptography.fernet import InvalidToken

    try:
        text = _fernet(host_secret).decrypt(sealed["token"].encode("ascii"))
    except (InvalidToken, UnicodeEncodeError):
        raise ValueError("a sealed value was changed, or is not this secret's") from None
    return json.loads(text.decode("utf-8"))
