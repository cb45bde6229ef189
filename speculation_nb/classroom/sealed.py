"""The part of a table's record that would show the face-down cards, sealed with the host secret
(issue 27).

The referee keeps its record in the store (``"record"``, T10) so that a reloaded teacher's page
resumes the table (T9). The record's session holds every deal's cards and the seed that deals
them: anyone who reads it while the table is open knows every face-down card. A Redis student
user cannot read the record (the ACL of ``deploy/README.md``); an SQLite file is one file every
kernel of its server can open. So the session is stored sealed: encrypted and authenticated with
a key drawn from the host secret, which only the teacher's kernel and the teacher's own browser
hold (never the store, which keeps only its hash). :func:`seal` and :func:`unseal` use the
standard library only (SHAKE-256 as the key stream, HMAC-SHA256 over the nonce and the text, a
fresh 16-byte nonce at each write), so they run wherever the package runs, Pyodide included.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

__all__ = ["SEAL_FORMAT", "seal", "unseal"]

#: The first field of a sealed value: what it is and how it was sealed.
SEAL_FORMAT = "speculation_nb.sealed.1"


def _keys(host_secret: str) -> tuple[bytes, bytes]:
    root = hashlib.sha256(("speculation_nb.record\0" + host_secret).encode("utf-8")).digest()
    return hashlib.sha256(root + b"\0stream").digest(), hashlib.sha256(root + b"\0mac").digest()


def _xor(text: bytes, key: bytes, nonce: bytes) -> bytes:
    """``text`` XOR the SHAKE-256 key stream of ``key`` and ``nonce`` (as one big number: fast)."""
    stream = hashlib.shake_256(key + nonce).digest(len(text))
    return (int.from_bytes(text, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(text), "big")


def seal(value: Any, host_secret: str) -> dict[str, str]:
    """``value`` (plain JSON) sealed with ``host_secret``: ``{"sealed", "nonce", "text", "mac"}``."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8")
    stream_key, mac_key = _keys(host_secret)
    nonce = secrets.token_bytes(16)
    hidden = _xor(text, stream_key, nonce)
    mac = hmac.new(mac_key, nonce + hidden, hashlib.sha256).digest()
    b64 = base64.b64encode
    return {"sealed": SEAL_FORMAT, "nonce": b64(nonce).decode(), "text": b64(hidden).decode(), "mac": b64(mac).decode()}


def unseal(sealed: Any, host_secret: str) -> Any:
    """The value :func:`seal` sealed; ``ValueError`` if it is not one, or not this secret's, or
    was changed."""
    if not isinstance(sealed, dict) or sealed.get("sealed") != SEAL_FORMAT:
        raise ValueError("not a sealed value")
    try:
        nonce, hidden, mac = (base64.b64decode(str(sealed[k]), validate=True) for k in ("nonce", "text", "mac"))
    except (KeyError, ValueError) as error:
        raise ValueError(f"a sealed value cannot be read: {error}") from None
    stream_key, mac_key = _keys(host_secret)
    if not hmac.compare_digest(mac, hmac.new(mac_key, nonce + hidden, hashlib.sha256).digest()):
        raise ValueError("a sealed value was changed, or is not this secret's")
    text = _xor(hidden, stream_key, nonce)
    return json.loads(text.decode("utf-8"))
