"""The Hypothesis strategies every test room shares: random rules, random deals, random actions.
One place says which tables and which actions the tests explore, so that the engine's, the
players' and the odds' tests draw from one space.

Import by plain name (``tests/support`` is on pytest's path)::

    from strategies import rules_strategy, seeds

    @given(rules=rules_strategy(blind_trading=False), seed=seeds())
    def test_something(rules, seed): ...

``rules_strategy`` draws any table the rules allow (3 to 8 players, hoyle1847 or cardrules with
any mix of variants, antes and stacks). A test that gathers figures over many seeded deals (which
Hypothesis, one example at a time, does not do) draws the same settings from a
:class:`random.Random` with :func:`random_rules`: the space is written once, in :func:`_rules`,
and either source of choices draws from it.

``action_strategy`` draws an action for a deal, legal or not: mostly near the edges of what the
rules allow (the lowest and highest bid, a seat out of range, a number of the wrong type), where a
rule is most easily got wrong. ``random_legal_action`` and ``random_play`` draw only what
``Game.legal_actions()`` allows: a deal played at random to any moment.

Add strategies here rather than in a test module.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from speculation_nb import Game, Rules
from speculation_nb.engine.actions import Action
from speculation_nb.engine.settings import ANTES, PRESETS

__all__ = [
    "NOT_WHOLE",
    "action_strategy",
    "random_action",
    "random_legal_action",
    "random_play",
    "random_rules",
    "rules_strategy",
    "seeds",
]

T = TypeVar("T")

#: Hand sizes, three twice as likely as the others (from a ``random.Random``): the usual deal.
HAND_SIZES = (3, 3, 4, 5)


def seeds() -> st.SearchStrategy[int]:
    """A deal's seed, or the seed of a test's own ``random.Random``."""
    return st.integers(0, 2**32)


class _Choices(Protocol):
    """Where a generator's choices come from: Hypothesis' ``draw`` or a ``random.Random``."""

    def integer(self, least: int, most: int) -> int: ...

    def one_of(self, options: Sequence[T]) -> T: ...


class _Drawn:
    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def integer(self, least: int, most: int) -> int:
        return self._draw(st.integers(least, most))

    def one_of(self, options: Sequence[T]) -> T:
        return self._draw(st.sampled_from(options))


class _Seeded:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def integer(self, least: int, most: int) -> int:
        return self._rng.randint(least, most)

    def one_of(self, options: Sequence[T]) -> T:
        return self._rng.choice(options)


def _rules(choose: _Choices, presets: Sequence[str], blind_trading: bool | None, any_stacks: bool) -> Rules:
    """The one space of settings the tests explore (see :func:`rules_strategy`)."""
    players = choose.integer(3, 8)  # S1
    allowed = [p for p in presets if not (blind_trading and p == "hoyle1847")]
    if not allowed:
        raise ValueError(f"no preset of {tuple(presets)} has blind trading")
    preset = choose.one_of(allowed)
    if preset == "hoyle1847":
        hoyle = Rules(players=players, preset=preset)
        if not any_stacks:
            return hoyle
        return Rules(players=players, preset=preset, start_chips=choose.integer(max(hoyle.antes(0)), 70))
    caps: list[int | None] = [None, choose.integer(1, 20)]  # V4: no cap, or one
    settings = Rules(
        players=players,
        hand_size=choose.one_of(HAND_SIZES),
        ante=choose.one_of(ANTES),
        uniform_ante=choose.integer(1, 8),
        jack_five=choose.one_of((False, True)),
        dead_hand=choose.one_of((False, True)),
        blind_trading=choose.one_of((False, True)) if blind_trading is None else blind_trading,
        price_cap=choose.one_of(caps),
    )
    if not any_stacks:
        return settings
    least = max(settings.antes(0))
    return dataclasses.replace(settings, start_chips=choose.integer(least, least + 60))


@st.composite
def rules_strategy(
    draw: st.DrawFn,
    *,
    presets: Sequence[str] = PRESETS,
    blind_trading: bool | None = None,
    any_stacks: bool = True,
) -> Rules:
    """Rules of a table: any number of players, either preset, and any mix of the variants
    V1-V5 (jack five, dead hand, blind trading, price cap, uniform ante).

    ``presets``: the presets drawn from (the 1847 preset fixes its own settings, S1-S5 of Hoyle, so
    a test of the variants passes ``("cardrules",)``). ``blind_trading``: V3 on (True), off (False)
    or either (None); True also leaves out the 1847 preset, which has no blind trading.
    ``any_stacks``: starting stacks from the least that pays the ante to sixty more (the default
    60 when False).
    """
    return _rules(_Drawn(draw), presets, blind_trading, any_stacks)


def random_rules(
    rng: random.Random,
    *,
    presets: Sequence[str] = PRESETS,
    blind_trading: bool | None = None,
    any_stacks: bool = True,
) -> Rules:
    """The rules :func:`rules_strategy` draws, drawn from ``rng`` instead (same arguments)."""
    return _rules(_Seeded(rng), presets, blind_trading, any_stacks)


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


def random_legal_action(rng: random.Random, game: Game) -> Action:
    """One action the rules allow now (``game.legal_actions()``), drawn by ``rng``: a reveal, an
    auction opened or closed, a bid anywhere in its range, a withdrawal, a sale or a blind trade."""
    legal = game.legal_actions()
    choices: list[Action] = []
    if legal.reveal is not None:
        choices += [Action.make("reveal", seat=legal.reveal)] * 3
    if legal.open_auction is not None:
        choices.append(Action.make("open_auction"))
    if legal.decline is not None:
        choices.append(Action.make("decline"))
    choices += [Action.make("accept", seat=s) for s in legal.accept]
    choices += [Action.make("bid", seat=s, amount=0) for s in legal.withdraw]
    choices += [Action.make("bid", seat=s, amount=rng.randint(low, high)) for s, (low, high) in legal.bid.items()]
    if legal.trade:
        (buyer, seller), (count, price) = rng.choice(sorted(legal.trade.items()))
        choices.append(
            Action.make(
                "blind_trade", buyer=buyer, seller=seller, count=rng.randint(1, count), price=rng.randint(1, price)
            )
        )
    return rng.choice(choices)


def random_play(rng: random.Random, game: Game, steps: int) -> Game:
    """``game`` after at most ``steps`` random legal actions (fewer when the deal ends first)."""
    for _ in range(steps):
        if game.over:
            break
        game.apply(random_legal_action(rng, game))
    return game


# ----------------------------------------------------------------------------- composed moments
@st.composite
def composable_games(draw: st.DrawFn, most: int = 40) -> Game:
    """A live deal that :class:`speculation_nb.Moment` describes (engine/compose.py): a real random
    deal (any rules but V3, stacks of the default 60 so that every V1 payer has a chip) played by
    reveals, with at most one sale, of a trump still the best at the end; no auction open."""
    from hypothesis import assume

    rules = draw(rules_strategy(blind_trading=False, any_stacks=False))
    game = Game.deal(rules, seed=draw(seeds()), dealer=draw(st.integers(0, rules.players - 1)))
    rng = random.Random(draw(seeds()))
    sale_at = draw(st.one_of(st.none(), st.integers(0, most)))
    for step in range(draw(st.integers(0, most))):
        if game.over:
            break
        if step == sale_at:
            buyer = rng.choice([s for s in range(rules.players) if s != game.holder])
            high = min(game.stacks[buyer], rules.price_cap or game.stacks[buyer])
            if high >= 1:
                game.open_auction()
                game.bid(buyer, rng.randint(1, high))
                game.accept(buyer)
                continue
        game.reveal()
    assume(not game.over)
    sales = [e for e in game.events if e.kind == "sale"]
    assume(all(e["card"] == game.best_trump for e in sales))
    return game
