"""The one error of the shared table: a request or a teacher's step the table's rules refuse.

A :class:`TableRefusal` is a :class:`~speculation_nb.engine.errors.Refusal`, as the engine's
:class:`~speculation_nb.engine.errors.IllegalAction` is: it names its rule of ``docs/TABLE.md``
(``"T3"``), its case (``key``, ``"table.not_your_seat"``) and the numbers of the case
(``params``), so :func:`speculation_nb.languages.translator.error_text` words both alike from the
catalogs (``error.table.*``, in ``table.po``): ``"Rule T3: ..."``. Its ``str()`` is English, read
from the English catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.errors import Refusal

__all__ = ["TableRefusal", "question_shown"]

_SEATS = ("seat", "holder", "buyer", "seller")


class TableRefusal(Refusal):
    """``TableRefusal("T3", "table.not_your_seat", {"seat": 2})``: refused by rule T3.

    The refused request (or teacher's step) changed nothing. ``params`` are plain JSON values
    (seats and chips as ints, names and letters as strings), so a reply carries them as they are.
    """

    def __init__(self, rule: str, key: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(rule, key, params=params)

    @property
    def message(self) -> str:
        """The English words of the refusal (without the rule)."""
        from ..languages.catalogs import messages

        english = messages("en")
        text = english.get(f"error.{self.key}", self.key)
        seat = english.get("seat.number", "seat {n}")
        shown = {
            k: seat.format(n=v) if k in _SEATS and isinstance(v, int) and not isinstance(v, bool) else v
            for k, v in self.params.items()
        }
        try:
            return text.format_map(shown)
        except (KeyError, ValueError, IndexError, AttributeError):
            return text

    def to_reply(self, rid: str | None) -> dict[str, Any]:
        """The refusal as a reply record: ``{"ok": false, "rid": ..., "rule", "key", "params"}``."""
        return {"ok": False, "rid": rid, "rule": self.rule, "key": self.key, "params": dict(self.params)}

    def __reduce__(self) -> tuple[Any, tuple[str, str, dict[str, Any]]]:
        return (TableRefusal, (self.rule, self.key, self.params))


def question_shown() -> TableRefusal:
    """T4 (issue 25): the teacher's deal waits while the table shows a question deal; the
    teacher's app refuses every change of it meanwhile (``error.table.question_shown``)."""
    return TableRefusal("T4", "table.question_shown")
