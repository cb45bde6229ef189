"""``Game.legal_actions()``: exactly the actions the game takes (P1-P4, P7, V3, V4, S1, S5).

For random rules and random play: every action ``legal_actions()`` allows is taken, every other
one raises :class:`IllegalAction` naming a rule and changes nothing; the seat-by-seat view is
the same rules cut by seat.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import random_action, rules_strategy

from speculation_nb import Game, IllegalAction, Rules
from speculation_nb.engine.actions import Action
from speculation_nb.engine.legality import LegalActions

RULE = re.compile(r"^(S[1-6]|P[1-9]|V[1-5]|G[1-4]|hoyle1847\([a-d]\))$")


def allowed(legal: LegalActions) -> list[Action]:
    """A few actions from each kind ``legal`` allows: the edges of every range."""
    out: list[Action] = []
    if legal.reveal is not None:
        out.append(Action.make("reveal", seat=legal.reveal))
    if legal.open_auction is not None:
        out.append(Action.make("open_auction"))
    if legal.decline is not None:
        out.append(Action.make("decline"))
    out += [Action.make("accept", seat=s) for s in legal.accept]
    out += [Action.make("bid", seat=s, amount=0) for s in legal.withdraw]
    for seat, (low, high) in legal.bid.items():
        out += [Action.make("bid", seat=seat, amount=x) for x in {low, high, (low + high) // 2}]
    for (buyer, seller), (count, price) in legal.trade.items():
        out += [
            Action.make("blind_trade", buyer=buyer, seller=seller, count=c, price=p)
            for c, p in {(1, 1), (count, price)}
        ]
    return out


def fingerprint(game: Game) -> tuple:
    return (game.moment, game.stacks, game.pot, game.auction, game.face_down, game.turn, game.holder, game.over)


def taken(game: Game, action: Action) -> bool:
    """True when ``game`` takes ``action`` (tried on a copy when it does); a refusal must name its
    rule and leave the game as it was."""
    before = fingerprint(game)
    try:
        game.copy().apply(action) if game.legal_actions().allows(action) else game.apply(action)
    except IllegalAction as error:
        assert RULE.match(error.rule), error.rule
        assert str(error).startswith(error.rule + ": ")
        assert fingerprint(game) == before
        return False
    assert fingerprint(game) == before, f"{action} was taken by the game itself, yet legal_actions refuses it"
    return True


def check_moment(game: Game, candidates: list[Action]) -> None:
    legal = game.legal_actions()
    n = game.rules.players
    edges = allowed(legal)
    for action in edges[:: max(1, len(edges) // 6)]:  # a spread of them: each trial replays the deal
        assert legal.allows(action) and action in legal
        assert taken(game, action), f"{action} is legal but refused"
    for action in candidates:
        assert legal.allows(action) == taken(game, action), f"{action}: legal_actions says {legal.allows(action)}"
    # One seat's actions are the same rules, cut by seat; every seat that may act is named.
    for seat in range(n):
        mine = game.legal_actions(seat)
        assert not mine.seats or seat in mine.seats  # (a trade names its other side too)
        assert all(legal.allows(action) for action in allowed(mine))
        assert (seat in legal.seats) == bool(mine.seats)
    assert {s for s in range(n) if game.bid_range(s)} == set(legal.bid)
    assert all(game.bid_range(s) == span for s, span in legal.bid.items())
    assert list(legal.accept) == game.acceptable()
    if game.over:
        assert legal.seats == () and edges == []


@settings(max_examples=30)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_legal_actions_are_exactly_what_the_game_takes_P1_P2_P3_P4_P7_V3_V4(
    rules: Rules, seed: int, rng: random.Random
) -> None:
    game = Game.deal(rules, seed=seed, dealer=seed % rules.players)
    for _ in range(30):
        check_moment(game, [random_action(rng, game) for _ in range(8)])
        if game.over:
            break
        game.apply(rng.choice(allowed(game.legal_actions())))
    else:
        check_moment(game, [])


def test_legal_actions_after_the_deal_S5_P7() -> None:
    game = Game.from_layout(
        Rules(players=3), piles=[["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2S", "3S", "4S"]], turn_up="AH"
    )
    assert game.over
    legal = game.legal_actions()
    assert legal == LegalActions(holder=0) and legal.seats == ()
    assert not legal.allows(Action.make("reveal", seat=1))


def test_legal_actions_name_the_seat_due_and_the_holder_P3_P4() -> None:
    game = Game.from_layout(
        Rules(players=4),
        piles=[["2C"] * 0 + ["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2S", "3S", "4S"], ["5S", "6S", "7S"]],
        turn_up="9H",
        dealer=0,
    )
    legal = game.legal_actions()
    assert (legal.reveal, legal.open_auction, legal.holder) == (1, 0, 0)
    assert legal.seats == (0, 1)
    assert game.legal_actions(1).reveal == 1 and game.legal_actions(1).open_auction is None
    assert game.legal_actions(2).seats == ()
    game.open_auction()
    legal = game.legal_actions()
    assert legal.reveal is None and legal.decline == 0
    assert legal.bid == {1: (1, 56), 2: (1, 56), 3: (1, 56)}
    game.bid(2, 5)
    game.bid(3, 5)
    legal = game.legal_actions()
    assert legal.withdraw == (2, 3) and legal.accept == (2,)  # P1: the best offer only, the earliest
    assert legal.bid[2] == (6, 56)
    assert game.legal_actions(2).accept == () and game.legal_actions(0).accept == (2,)


def test_a_bid_above_the_cap_is_not_legal_V4() -> None:
    game = Game.deal(Rules(players=3, price_cap=12), seed=3)
    game.open_auction()
    assert all(high == 12 for _, high in game.legal_actions().bid.values())
    with pytest.raises(IllegalAction):
        game.bid(next(iter(game.legal_actions().bid)), 13)


def test_blind_trades_are_legal_only_with_V3_and_no_auction() -> None:
    plain = Game.deal(Rules(players=3), seed=6)
    assert plain.legal_actions().trade == {}
    game = Game.deal(Rules(players=3, blind_trading=True), seed=6)
    legal = game.legal_actions()
    assert legal.trade[(0, 1)] == (3, game.stacks[0])
    assert legal.allows(Action.make("blind_trade", buyer=0, seller=1, count=3, price=game.stacks[0]))
    assert not legal.allows(Action.make("blind_trade", buyer=0, seller=1, count=4, price=1))
    game.open_auction()
    assert game.legal_actions().trade == {}
