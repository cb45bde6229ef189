"""The actions of a deal, as values (a deal is its layout plus a list of these), and its log.

Each action names who did it. ``Action.to_dict`` / ``Action.from_dict`` give
the saved form, ``{"action": "bid", "seat": 2, "amount": 5}``. Each action, and
each automatic step of the rules it sets off, writes an :class:`Event` in the
deal's log (``Game.events``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .checks import is_whole, quote

__all__ = ["ACTION_FIELDS", "Action", "Event"]

#: The fields each kind of action carries, in order.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "reveal": ("seat",),
    "open_auction": (),
    "bid": ("seat", "amount"),
    "accept": ("seat",),
    "decline": (),
    "blind_trade": ("buyer", "seller", "count", "price"),
}


@dataclass(frozen=True)
class Action:
    """One step of a deal: ``Action("bid", {"seat": 2, "amount": 5})``."""

    kind: str
    args: tuple[tuple[str, int], ...] = ()

    @classmethod
    def make(cls, kind: str, **args: int) -> Action:
        return cls(kind, tuple((name, args[name]) for name in ACTION_FIELDS[kind]))

    def __getitem__(self, name: str) -> int:
        return dict(self.args)[name]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.kind, **dict(self.args)}

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """Read a saved action; anything but the exact expected shape raises ``ValueError``."""
        if not isinstance(data, dict):
            raise ValueError('an action must be an object such as {"action": "reveal", "seat": 1}')
        kind = data.get("action")
        if not isinstance(kind, str) or kind not in ACTION_FIELDS:
            raise ValueError(f"unknown action {quote(kind)}")
        expected = set(ACTION_FIELDS[kind]) | {"action"}
        if set(data) != expected:
            raise ValueError(
                f"a {kind!r} action has exactly the fields {sorted(expected)}, not {quote(sorted(map(str, data)))}"
            )
        for name in ACTION_FIELDS[kind]:
            value = data[name]
            if not is_whole(value):
                raise ValueError(f"{kind}.{name} must be a whole number, not {quote(value)}")
        return cls.make(kind, **{name: data[name] for name in ACTION_FIELDS[kind]})

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.args)
        return f"{self.kind}({inner})"


class Event(dict[str, Any]):
    """One line of a deal's log: ``{"step": 3, "kind": "reveal", "seat": 1, "card": Card}``.

    ``step`` is the number of actions taken once it had happened (0: at the deal), so
    ``game.at(k).events`` are the events whose step is at most ``k``.
    Kinds: ``ante``, ``turn_up``, ``jack_five``, ``ace_turn_up``, ``reveal``,
    ``new_best``, ``auction_open``, ``bid``, ``withdraw``, ``sale``, ``decline``,
    ``blind_trade``, ``holder_cards`` (hoyle1847 b), ``dead_pile``, ``win``,
    ``carry_over``.
    """

    @property
    def kind(self) -> str:
        return str(self["kind"])
