"""The settings of a table: players, antes, variants V1-V5 and the preset.

``Rules`` is an immutable value. Impossible settings raise a
:class:`~.errors.Refusal` (a ``ValueError``) naming the rule of RULES.md they break, worded in
any language from the catalog's ``error.settings.*``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .checks import MAX_CHIPS, is_whole, plain, quote
from .errors import Refusal

__all__ = ["ANTES", "MAX_PLAYERS", "MIN_PLAYERS", "PRESETS", "Rules"]

PRESETS = ("cardrules", "hoyle1847")
#: Speculation is for 3 to 8 players (S1).
MIN_PLAYERS, MAX_PLAYERS = 3, 8
ANTES = ("traditional", "uniform")
_NUMBERS = ("players", "hand_size", "price_cap", "uniform_ante", "start_chips")


@dataclass(frozen=True)
class Rules:
    """How a table plays.

    ``players`` 3 to 8 (S1); ``hand_size`` 3, or 4 or 5 for long hands (V5);
    ``jack_five`` (V1), ``dead_hand`` (V2), ``blind_trading`` (V3),
    ``price_cap`` (V4, ``None`` for no cap); ``ante`` ``"traditional"``
    (dealer 6, others 4) or ``"uniform"`` (everyone ``uniform_ante``) (S2);
    ``start_chips`` per player (S1); ``preset`` ``"cardrules"`` or
    ``"hoyle1847"``.
    """

    players: int
    hand_size: int = 3
    jack_five: bool = False
    dead_hand: bool = False
    blind_trading: bool = False
    price_cap: int | None = None
    ante: str = "traditional"
    uniform_ante: int = 4
    start_chips: int = 60
    preset: str = "cardrules"

    def __post_init__(self) -> None:
        for name in _NUMBERS:  # numpy integers and the like are stored as plain ints
            object.__setattr__(self, name, plain(getattr(self, name)))
        if not is_whole(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise _refuse(
                "S1",
                "players",
                f"Speculation is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {quote(self.players)}",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                value=quote(self.players),
            )
        if not is_whole(self.hand_size) or self.hand_size not in (3, 4, 5):
            raise _refuse(
                "V5",
                "hand_size",
                f"a hand is 3 cards, or 4 or 5 with long hands, not {quote(self.hand_size)}",
                value=quote(self.hand_size),
            )
        for name in ("jack_five", "dead_hand", "blind_trading"):
            if not isinstance(getattr(self, name), bool):
                value = quote(getattr(self, name))
                raise _refuse("", "switch", f"{name} is True or False, not {value}", name=name, value=value)
        if self.price_cap is not None and (not is_whole(self.price_cap) or not 1 <= self.price_cap <= MAX_CHIPS):
            raise _refuse(
                "V4",
                "price_cap",
                f"the price cap is a whole number of chips from 1 to {MAX_CHIPS:,}, or None; "
                f"not {quote(self.price_cap)}",
                high=MAX_CHIPS,
                value=quote(self.price_cap),
            )
        if self.ante not in ANTES:
            raise _refuse(
                "S2", "ante", f"antes are 'traditional' or 'uniform', not {quote(self.ante)}", value=quote(self.ante)
            )
        if not is_whole(self.uniform_ante) or not 1 <= self.uniform_ante <= MAX_CHIPS:
            raise _refuse(
                "S2",
                "uniform_ante",
                f"the uniform ante is a whole number of chips from 1 to {MAX_CHIPS:,}; not {quote(self.uniform_ante)}",
                high=MAX_CHIPS,
                value=quote(self.uniform_ante),
            )
        if self.preset not in PRESETS:
            choices = ", ".join(PRESETS)
            raise _refuse(
                "",
                "preset",
                f"unknown preset {quote(self.preset)}: choose one of {choices}",
                value=quote(self.preset),
                choices=choices,
            )
        if self.preset == "hoyle1847":
            uniform = self.ante != "traditional"
            if uniform or self.variants:
                off = ", ".join(["uniform antes"] * uniform + self.variants)
                raise _refuse(
                    "",
                    "hoyle",
                    f"hoyle1847 plays with traditional antes and no variants; switch off: {off}",
                    switched=", ".join(["S2"] * uniform + self.variants),  # rule codes read in any language
                )
        if not is_whole(self.start_chips) or self.start_chips > MAX_CHIPS:
            raise _refuse(
                "S1",
                "start_chips",
                f"the starting stack is a whole number of chips up to {MAX_CHIPS:,}, not {quote(self.start_chips)}",
                high=MAX_CHIPS,
                value=quote(self.start_chips),
            )
        if self.start_chips < max(self.dealer_ante, self.player_ante):
            ante = max(self.dealer_ante, self.player_ante)
            raise _refuse(
                "S1",
                "start_below_ante",
                f"a starting stack of {self.start_chips} chips cannot pay the ante of {ante} (S2)",
                chips=self.start_chips,
                ante=ante,
            )

    # ----------------------------------------------------------------- derived
    @property
    def hoyle(self) -> bool:
        """True for the 1847 preset."""
        return self.preset == "hoyle1847"

    @property
    def variants(self) -> list[str]:
        """The variants switched on, by rule number: e.g. ``["V1", "V4"]``."""
        on = []
        if self.jack_five:
            on.append("V1")
        if self.dead_hand:
            on.append("V2")
        if self.blind_trading:
            on.append("V3")
        if self.price_cap is not None:
            on.append("V4")
        if self.hand_size != 3:
            on.append("V5")
        return on

    def _scaled(self, chips: int) -> int:
        """V5: antes times hand_size / 3, rounded half up."""
        return (2 * chips * self.hand_size + 3) // 6  # = floor(chips * hand_size / 3 + 1/2)

    @property
    def dealer_ante(self) -> int:
        """The dealer's ante (S2, scaled by V5)."""
        return self._scaled(6 if self.ante == "traditional" else self.uniform_ante)

    @property
    def player_ante(self) -> int:
        """Every other player's ante (S2, scaled by V5)."""
        return self._scaled(4 if self.ante == "traditional" else self.uniform_ante)

    def ante_for(self, seat: int, dealer: int) -> int:
        """What ``seat`` antes in a deal dealt by ``dealer``."""
        return self.dealer_ante if seat == dealer else self.player_ante

    def antes(self, dealer: int) -> list[int]:
        """Every seat's ante for a deal dealt by ``dealer``."""
        dealer_ante, player_ante = self.dealer_ante, self.player_ante
        return [dealer_ante if seat == dealer else player_ante for seat in range(self.players)]

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # all plain values: no deep copy

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rebuild from ``to_dict()``; unknown or missing keys raise ``ValueError``."""
        if not isinstance(data, dict):
            raise ValueError("rules must be an object of settings")
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rule settings: {quote(', '.join(sorted(map(str, unknown))))}")
        if "players" not in data:
            raise ValueError("rules need the number of players")
        return cls(**data)

    def __repr__(self) -> str:
        defaults = {f.name: f.default for f in fields(self)}
        parts = [f"players={self.players}"] + [
            f"{name}={value!r}" for name, value in asdict(self).items() if name != "players" and value != defaults[name]
        ]
        return f"Rules({', '.join(parts)})"


def _refuse(rule: str, case: str, message: str, **params: Any) -> Refusal:
    """Settings the rules cannot play: a :class:`~.errors.Refusal` worded from the catalog's
    ``error.settings.<case>`` (English ``message`` for ``str``)."""
    return Refusal(rule, f"settings.{case}", message, params)
