"""The refusals: one family of errors for everything the package refuses a person.

Every refusal a user sees is a :class:`Refusal` (a ``ValueError``): what the rules of the game
forbid (:class:`IllegalAction`, rules of RULES.md), what the shared table refuses
(``classroom.errors.TableRefusal``, rules of docs/TABLE.md) and a link or a file that cannot be
opened (``links.share.ShareError``). Each carries

* ``rule``: the rule that refuses (``"P4"``, ``"T3"``), or ``""`` where no numbered rule does;
* ``key``: the case, the catalog's ``error.<key>`` (``"holder_skipped"``, ``"table.not_your_seat"``,
  ``"share.not_replay"``), so that one rule broken in several ways is worded case by case;
* ``params``: the numbers and words of the case (``{"seat": 2}``), plain values;
* ``cause``: the refusal that led to this one, if one did (a link that does not replay says
  which action the rules refused).

:func:`speculation_nb.languages.translator.error_text` words any of them, in any language of the
catalogs, from ``key`` and ``params`` (never from the English ``str``): ``"Rule P4: ..."``.
``str(refusal)`` is English and starts with the rule: ``"P4: seat 2 holds the best trump and does
not reveal"``. Whatever refused it is left exactly as it was.

>>> error = IllegalAction("P4", "holder_skipped", "seat 2 holds the best trump", seat=2)
>>> isinstance(error, Refusal) and isinstance(error, ValueError), error.params, str(error)
(True, {'seat': 2}, 'P4: seat 2 holds the best trump')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["IllegalAction", "Refusal"]


class Refusal(ValueError):
    """A request refused, with its ``rule``, ``key`` and ``params`` (see the module docstring).

    ``message`` is the English wording without the rule (subclasses may word it from the
    English catalog instead); ``str()`` is ``"<rule>: <message>"``, or the message alone where
    no numbered rule refuses.
    """

    def __init__(
        self,
        rule: str,
        key: str,
        message: str = "",
        params: Mapping[str, Any] | None = None,
        cause: Refusal | None = None,
    ) -> None:
        self.rule = rule
        self.key = key
        self.params: dict[str, Any] = dict(params or {})
        self.cause = cause
        self._message = message
        super().__init__(str(self))

    @property
    def message(self) -> str:
        """The English words of the refusal (without the rule)."""
        return self._message or self.key

    @property
    def catalog_key(self) -> str:
        """The catalog key that words it: ``"error." + key``."""
        return f"error.{self.key}"

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


class IllegalAction(Refusal):
    """An action the rules of the game forbid.

    ``rule`` names the rule of RULES.md that forbids it (``"P4"``), ``key`` the
    case (``"holder_skipped"``: one rule can be broken in several ways) and
    ``params`` the numbers of the case (``{"seat": 2}``), so that an interface
    can word the message in any language. ``str(error)`` starts with the rule:
    ``"P4: seat 2 holds the best trump and does not reveal"``.

    The game that raised it is left exactly as it was.
    """

    def __init__(self, rule: str, key: str, message: str, **params: Any) -> None:
        super().__init__(rule, key, message, params)

    def __reduce__(self) -> tuple[Any, tuple[str, str, str, dict[str, Any]]]:  # keep pickling working
        return (_rebuild, (self.rule, self.key, self.message, self.params))


def _rebuild(rule: str, key: str, message: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(rule, key, message, **params)
