"""The one error the rules raise."""

from __future__ import annotations

from typing import Any

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """An action the rules forbid.

    ``rule`` names the rule of RULES.md that forbids it (``"P4"``), ``key`` the
    case (``"holder_skipped"``: one rule can be broken in several ways) and
    ``params`` the numbers of the case (``{"seat": 2}``), so that an interface
    can word the message in any language. ``str(error)`` starts with the rule:
    ``"P4: seat 2 holds the best trump and does not reveal"``.

    The game that raised it is left exactly as it was.
    """

    def __init__(self, rule: str, key: str, message: str, **params: Any) -> None:
        self.rule = rule
        self.key = key
        self.params = params
        self.message = message
        super().__init__(f"{rule}: {message}")

    def __reduce__(self) -> tuple[Any, tuple[str, str, str, dict[str, Any]]]:  # keep pickling working
        return (_rebuild, (self.rule, self.key, self.message, self.params))


def _rebuild(rule: str, key: str, message: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(rule, key, message, **params)
