"""Helpers shared by the rules tests (test_play, test_auctions, test_variants, test_hoyle1847,
test_illegal_actions, test_saved_games)."""

from __future__ import annotations

from typing import Any

import pytest

from speculation_nb import Card, Game, IllegalAction


def C(text: str) -> Card:
    return Card.parse(text)


#: Every variant on (V1-V5, uniform antes), for ``Rules(players=..., **EVERY_VARIANT, ...)``.
EVERY_VARIANT: dict[str, Any] = {
    "hand_size": 5,
    "jack_five": True,
    "dead_hand": True,
    "blind_trading": True,
    "price_cap": 12,
    "ante": "uniform",
}

#: Everything a Game tells of itself through its public readers.
GAME_READERS = (
    "rules",
    "dealer",
    "seed",
    "turn_up",
    "trump",
    "turn",
    "holder",
    "best_trump",
    "pot",
    "stacks",
    "face_down",
    "face_up",
    "dead",
    "dead_cards",
    "auction",
    "over",
    "winner",
    "history",
    "events",
    "reveals",
)


def readers(game: Game) -> dict[str, Any]:
    """What ``game`` tells through each of :data:`GAME_READERS`."""
    return {name: getattr(game, name) for name in GAME_READERS}


def reveal_all(game: Game, times: int) -> list[tuple[int, str]]:
    """Reveal ``times`` cards; returns (seat, card code) of each reveal in order."""
    out = []
    for _ in range(times):
        seat = game.turn
        out.append((seat, game.reveal().code))
    return out


def illegal(game: Game, rule: str, action) -> IllegalAction:
    """``action()`` is refused by ``rule``, says so first, and leaves ``game`` exactly as it was."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        action()
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(rule + ": ")
    assert game.to_json() == before
    return info.value
