"""What a side of the shared table has to say: the outcome of the last thing done, as data.

A :class:`Notice` is the teacher's (:mod:`.host_session`) or a student's (:mod:`.member_session`)
last outcome: a catalog key with its parameters ("class.host.opened", code), or a refusal (a
:class:`~.errors.TableRefusal`, an :class:`~speculation_nb.IllegalAction` or a referee's
:class:`~.member.Reply`) worded by its rule, or both (a key whose ``{reason}`` is the refusal).
The sessions keep it as data; the screens word it in the page's language (:meth:`Notice.words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.checks import is_whole
from ..languages.translator import Translator, error_text

__all__ = ["Notice"]


@dataclass(frozen=True)
class Notice:
    """The last outcome to say (see the module docstring); ``error`` when it went wrong."""

    key: str = ""
    error: bool = False
    params: Mapping[str, Any] = field(default_factory=dict)
    refusal: Any = None

    @classmethod
    def refused(cls, refusal: Any, key: str = "") -> Notice:
        """A refusal (anything with ``rule``, ``key`` and ``params``), alone or as ``key``'s reason."""
        return cls(key, True, {}, refusal)

    def words(self, t: Translator, names: Sequence[str] | None = None) -> str:
        """The notice in words (``""``: nothing to say); whole numbers as the language writes them,
        seat numbers of a refusal as ``names``."""
        reason = "" if self.refusal is None else error_text(self.refusal, t, names)
        if not self.key:
            return reason
        params = {k: t.number(v) if is_whole(v) else v for k, v in self.params.items()}
        if self.refusal is not None:
            params["reason"] = reason
        return t(self.key, **params)
