"""The computer players' loops of 0.1.0: the reference that ``players.loop`` (``next_move``,
``play``, ``play_deal``) is checked against (tests/players/test_loop.py, test_strategies.py).

``ref_play`` is 0.1.0's ``players.play``: ask each owner of each best trump once, bid, decide;
trade; reveal. ``ref_auto`` is the app controller's ``_auto`` of 0.1.0, after a person's action.
"""

from __future__ import annotations

from collections.abc import Mapping

from speculation_nb import Game
from speculation_nb.players import Strategy, trade_offers


def ref_bidders(game: Game) -> list[int]:
    n = game.rules.players
    order = [(game.holder + i) % n for i in range(1, n)]
    return [seat for seat in order if game.bid_range(seat) is not None]


def ref_computer_bids(game: Game, strategies: Mapping[int, Strategy], rounds: int = 10) -> None:
    for _ in range(rounds):
        any_bid = False
        for seat in ref_bidders(game):
            player = strategies.get(seat)
            if player is None:
                continue
            amount = player.bid(game, seat)
            span = game.bid_range(seat)
            if amount is None or span is None or not span[0] <= amount <= span[1]:
                continue
            game.bid(seat, amount)
            any_bid = True
        if not any_bid:
            break


def ref_computer_decision(game: Game, player: Strategy) -> None:
    choice = player.choose_sale(game, game.holder)
    if choice is not None and choice in game.acceptable():
        game.accept(choice)
    else:
        game.decline()


def ref_moment(game: Game) -> tuple:
    return (game.reveals, game.holder, game.pot, tuple(game.stacks), tuple(game.face_down), game.over)


def ref_trades(game: Game, strategies: Mapping[int, Strategy], asked: set) -> bool:
    n = game.rules.players
    moment = ref_moment(game)
    for k in range(n):
        seat = (game.holder + k) % n
        if (moment, seat) in asked:
            continue
        asked.add((moment, seat))
        player = strategies[seat]
        for offer in trade_offers(player, game, seat)[:64]:
            buyer, seller, count, price = offer
            if not (1 <= count <= game.face_down[seller] and 1 <= price <= game.stacks[buyer]):
                continue
            other = seller if buyer == seat else buyer
            if not strategies[other].accepts_trade(game, other, *offer):
                continue
            game.blind_trade(*offer)
            return True
    return False


def ref_play(game: Game, strategies: Mapping[int, Strategy], rounds: int) -> None:
    """players.play of 0.1.0: ask each owner of each best trump once, bid, decide; trade; reveal."""
    asked: set = set()
    asked_trades: set = set()
    made = 0
    limit = 4 * game.rules.players * game.rules.hand_size
    while not game.over:
        key = (game.best_trump, game.holder)
        if key not in asked and game.can_open_auction():
            asked.add(key)
            holder = strategies[game.holder]
            if holder.wants_auction(game, game.holder):
                game.open_auction()
                ref_computer_bids(game, strategies, rounds)
                ref_computer_decision(game, holder)
                continue
        if made < limit and game.can_blind_trade() and ref_trades(game, strategies, asked_trades):
            made += 1
            continue
        game.reveal()


def ref_waiting(game: Game, human: int) -> bool:
    return game.auction is not None and (
        game.holder == human or game.bid_range(human) is not None or human in (game.auction or {})
    )


def ref_auto(game: Game, strategies: Mapping[int, Strategy], asked: set, human: int) -> None:
    """The app controller's _auto of 0.1.0 (widgets/controller.py), one deal."""
    for _ in range(4 * game.rules.players + 4):
        if game.over:
            return
        holder = game.holder
        if game.auction is None:
            player = strategies.get(holder)
            key = (game.best_trump, holder)
            if player is None or key in asked:
                return
            asked.add(key)
            if not player.wants_auction(game, holder):
                return
            game.open_auction()
            ref_computer_bids(game, strategies)
            if ref_waiting(game, human):
                return
            ref_computer_decision(game, player)
        else:
            if holder == human or ref_waiting(game, human):
                return
            ref_computer_decision(game, strategies[holder])
