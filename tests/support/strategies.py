"""Hypothesis strategies shared by the tests: random rules, random deals, random actions.

``rules_strategy`` draws any table the rules allow (3 to 8 players, hoyle1847 or cardrules with
any mix of variants, antes and stacks); ``action_strategy`` draws an action for a deal, legal or
not: mostly near the edges of what the rules allow (the lowest and highest bid, a seat out of
range, a number of the wrong type), where a rule is most easily got wrong.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from speculation_nb import Game, Rules
from speculation_nb.engine.actions import Action

__all__ = ["NOT_WHOLE", "action_strategy", "random_action", "rules_strategy"]


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """Random rules: hoyle1847 one time in four, else cardrules with random variants and antes;
    the stacks at least the largest ante."""
    players = draw(st.integers(3, 8))
    if draw(st.integers(0, 3)) == 0:
        return Rules(players=players, preset="hoyle1847", start_chips=draw(st.integers(6, 70)))
    hand_size = draw(st.sampled_from([3, 3, 4, 5]))
    ante = draw(st.sampled_from(["traditional", "uniform"]))
    uniform_ante = draw(st.integers(1, 8))
    settings_ = dict(
        hand_size=hand_size,
        ante=ante,
        uniform_ante=uniform_ante,
        jack_five=draw(st.booleans()),
        dead_hand=draw(st.booleans()),
        blind_trading=draw(st.booleans()),
        price_cap=draw(st.one_of(st.none(), st.integers(1, 20))),
    )
    least = max(Rules(players=players, **settings_).antes(0))
    return Rules(players=players, start_chips=draw(st.integers(least, least + 60)), **settings_)


#: Numbers of the wrong type for a seat, an amount, a count or a price.
NOT_WHOLE = (True, False, 1.0, 2.5, "1", None)


def random_action(rng: random.Random, game: Game) -> Action:
    """An action for ``game`` as it stands, legal or not (see the module docstring), drawn by
    ``rng`` (a Hypothesis ``st.randoms()`` in property tests: many per example, cheaply)."""
    n = game.rules.players
    stacks = game.stacks

    def seat() -> Any:
        return rng.choice(NOT_WHOLE) if rng.random() < 0.1 else rng.randint(-1, n)

    def number(low: int, high: int) -> Any:
        return rng.choice(NOT_WHOLE) if rng.random() < 0.1 else rng.randint(low, high)

    kind = rng.choice(["reveal", "open_auction", "bid", "bid", "accept", "decline", "blind_trade"])
    if kind in ("open_auction", "decline"):
        return Action.make(kind)
    who = seat()
    if kind in ("reveal", "accept"):
        return Action.make(kind, seat=who)
    if kind == "bid":
        stack = stacks[who] if type(who) is int and 0 <= who < n else 5
        standing = (game.auction or {}).get(who, 0) if type(who) is int else 0
        edges = [0, 1, -1, standing, standing + 1, stack, stack + 1, (game.rules.price_cap or stack) + 1]
        amount = rng.choice(edges) if rng.random() < 0.6 else number(-2, stack + 2)
        return Action.make(kind, seat=who, amount=amount)
    seller = seat()
    count = number(-1, max(game.face_down) + 1)
    price = number(-1, max(stacks) + 1)
    return Action.make(kind, buyer=who, seller=seller, count=count, price=price)


def action_strategy(game: Game) -> st.SearchStrategy[Action]:
    """:func:`random_action` as a Hypothesis strategy."""
    return st.randoms(use_true_random=False).map(lambda rng: random_action(rng, game))
