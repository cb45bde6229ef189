"""A saved game or session as a file: :func:`save_name` names it, :func:`read_save` reads a file a
person uploads, a saved game (``Game.to_json``), a saved session (``Session.to_json``) or a file of
composed moments (:mod:`.composed`), refused
with a :class:`~.query.ShareError` when it is not one (:mod:`.share` repeats these names)."""

from __future__ import annotations

import json
from typing import Any

from ..engine.game import Game
from ..engine.saving import GAME_FORMAT, SESSION_FORMAT, VERSION
from ..engine.session import Session
from .composed import MOMENTS_FORMAT, MomentEntry, read_moments
from .query import ShareError

__all__ = ["MAX_SAVE_BYTES", "read_save", "save_name"]

#: The largest file :func:`read_save` reads (bytes); the engine refuses more than a million characters.
MAX_SAVE_BYTES = 1_000_000


def save_name(thing: Game | Session) -> str:
    """A file name for a save: ``speculation-session-42-deal-3.json``, ``speculation-deal-7.json``."""
    if isinstance(thing, Session):
        return f"speculation-session-{thing.seed}-deal-{thing.deal_number}.json"
    seed = "" if thing.seed is None else f"-{thing.seed}"
    return f"speculation-deal{seed}.json"


def read_save(data: bytes | str) -> Game | Session | tuple[MomentEntry, ...]:
    """A saved game or session from the bytes of a file, or a file of composed moments (their public
    views only, :func:`.composed.read_moments`); anything else raises :class:`ShareError`:
    ``save.too_large``, ``save.not_text``, ``save.not_json``, ``save.not_a_save`` (JSON, but no
    game or session), ``save.version`` (a save of another version) or ``save.damaged`` (a save
    that does not replay)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ShareError("save.not_text", "a save is a file of text")
    raw = bytes(data)
    if len(raw) > MAX_SAVE_BYTES:
        raise ShareError("save.too_large", f"the file is larger than {MAX_SAVE_BYTES} bytes", limit=MAX_SAVE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ShareError("save.not_text", "the file is not UTF-8 text") from None

    def no_constant(name: str) -> Any:
        raise ValueError(name)

    try:
        data_ = json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError):
        raise ShareError("save.not_json", "the file is not JSON") from None
    kind = data_.get("format") if isinstance(data_, dict) else None
    if kind == MOMENTS_FORMAT:
        return read_moments(data_)
    loaders: dict[str, Any] = {GAME_FORMAT: Game, SESSION_FORMAT: Session}
    if not isinstance(kind, str) or kind not in loaders:
        raise ShareError("save.not_a_save", "the file is JSON but not a saved game or session")
    version = data_.get("version")
    if version != VERSION or isinstance(version, bool):
        raise ShareError(
            "save.version", f"version {str(version)[:12]!r} of the save is not known", version=str(version)[:12]
        )
    try:
        loaded: Game | Session = loaders[kind].from_json(text)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        raise ShareError("save.damaged", f"the save does not replay: {error}", detail=str(error)[:300]) from None
    return loaded
