"""Helpers shared by the rules tests (test_play, test_auctions, test_variants, test_hoyle1847)."""

from __future__ import annotations

import pytest

from speculation_nb import Card, Game, IllegalAction


def C(text: str) -> Card:
    return Card.parse(text)


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
