"""The play loop: the next action a computer player takes, one at a time, with its reason.

:func:`next_move` is the one loop that the app, the tournament and the lessons use. Called
again and again, each :class:`Move` applied (``game.apply(move.action)``), it plays the
computer seats of a deal exactly as a card table would:

1. the holder of the best trump, if a computer, is asked once per best trump and owner
   whether to open an auction (``asked`` remembers who was asked);
2. in an open auction the computer seats bid round after round, clockwise from the
   holder's left, until a round passes with no bid (at most ``rounds`` rounds; a person's
   bid starts the rounds again);
3. when nobody bids any more and no person has a say in the auction (as the holder, with a
   standing bid or a bid still allowed), a computer holder accepts a bid or declines;
4. with blind trading (V3) each computer seat, the holder first, may propose trades at each
   moment; a trade is made when the other side (a computer) agrees;
5. otherwise ``None``: a card is to be turned up (a person's action in the app, the
   loop's own in :func:`play`), or a person must act, or the deal is over.

Where the loop stands in an auction is read from the deal itself (the bids since the
auction opened or since a person's last bid), so ``next_move`` keeps no state of its own
beyond ``asked``; this relies on strategies being pure functions of the deal as it stands
(see :class:`~.protocol.Strategy`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, MutableSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from weakref import WeakKeyDictionary

from ..engine.actions import Action
from ..engine.checks import is_whole as _whole
from ..engine.legality import LegalActions
from . import reasons
from .protocol import Strategy, StrategyError, Trade, trade_offers

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "SEAT_PARAMS",
    "Move",
    "bidders",
    "computer_bids",
    "computer_decision",
    "holder_decision",
    "next_move",
    "play",
    "play_deal",
    "waits_for",
]

#: The names under which a :class:`Move`'s params carry seat numbers (the views put names there).
SEAT_PARAMS = ("seat", "buyer", "holder", "seller")

# What next_move remembers for a game when its caller keeps no ``asked`` of its own.
_ASKED: WeakKeyDictionary[Game, set[Hashable]] = WeakKeyDictionary()


@dataclass(frozen=True)
class Move:
    """One action a computer player takes, and why.

    ``action``: apply it with ``game.apply(move.action)``. ``reason``: a catalog key for the
    log line (``"reason.bid"``, ``"reason.bid.above.bold"``...; ``engine.po``). ``params``: its
    placeholders: seats as ints under :data:`SEAT_PARAMS`, chips as ints, exact prices and
    chances as Fractions (``worth`` the break-even price, ``hold`` the chance the card holds).
    """

    action: Action
    reason: str
    params: Mapping[str, Any]


def _strict(strict: bool, message: str) -> None:
    if strict:
        raise StrategyError(message)


# --------------------------------------------------------------------------- auctions
def bidders(game: Game) -> list[int]:
    """The seats that may bid in the open auction, clockwise from the holder's left."""
    spans = game.legal_actions().bid
    return [seat for seat in _order(game) if seat in spans]


def waits_for(game: Game, seat: int) -> bool:
    """An open auction waits for ``seat``: it holds the card (to decide), may bid, or has bid."""
    auction = game.auction
    if auction is None or game.over:
        return False
    return game.holder == seat or game.bid_range(seat) is not None or seat in auction


def _order(game: Game) -> list[int]:
    n = game.rules.players
    return [(game.holder + i) % n for i in range(1, n)]


def _next_bid(game: Game, strategies: Mapping[int, Strategy], after: int, strict: bool) -> Move | None:
    """The first computer bid of the round from the seat after position ``after`` (clockwise from
    the holder's left; -1: from the start), or None if none of them bids."""
    spans = game.legal_actions().bid
    for seat in _order(game)[after + 1 :]:
        span = spans.get(seat)
        player = strategies.get(seat)
        if span is None or player is None:
            continue
        amount = player.bid(game, seat)
        if amount is None:
            continue
        if not _whole(amount) or not span[0] <= amount <= span[1]:
            _strict(strict, f"{player.name} at seat {seat} bid {amount!r}; the allowed range is {span}")
            continue
        amount = int(amount)
        key, params = reasons.bid_reason(player, game, seat, amount)
        return Move(Action.make("bid", seat=seat, amount=amount), key, params)
    return None


def _bidding(game: Game, strategies: Mapping[int, Strategy], rounds: int, strict: bool) -> Move | None:
    """The next computer bid in the open auction, or None when the computers are done bidding.

    The bids since the auction opened (or since a person's last bid) tell the round: a bid by a
    seat not later in the order than the bid before it starts a new round (a seat asked again in
    the same position as before would answer as before)."""
    if rounds < 1:
        return None
    position = {seat: i for i, seat in enumerate(_order(game))}
    seats: list[int] = []
    for action in reversed(game.history):
        if action.kind == "open_auction":
            break
        if action.kind == "bid":
            seat = action["seat"]
            if seat not in strategies:
                break  # a person bid: the computers' rounds start again
            seats.append(seat)
    round_, last = 1, -1
    for seat in reversed(seats):
        if position[seat] <= last:
            round_ += 1
        last = position[seat]
    move = _next_bid(game, strategies, last, strict)
    if move is None and last >= 0 and round_ < rounds:
        move = _next_bid(game, strategies, -1, strict)
    return move


def _person_has_a_say(game: Game, strategies: Mapping[int, Strategy]) -> bool:
    """A person (a seat without a strategy) holds the card, has a standing bid or may bid: the
    rules leave them something to do in the auction."""
    return any(seat not in strategies for seat in game.legal_actions().seats)


def holder_decision(game: Game, player: Strategy, *, strict: bool = False) -> Move:
    """The holder's strategy ends the open auction: the Move accepting a bid or declining (the
    app's "let the holder decide"). A choice the rules do not allow counts as declining
    (``strict``: raises :class:`~.protocol.StrategyError`)."""
    seat = game.holder
    choice = player.choose_sale(game, seat)
    acceptable = list(game.legal_actions().accept)
    if choice is not None and choice not in acceptable:
        _strict(strict, f"{player.name} at seat {seat} chose to sell to {choice!r}; acceptable: {acceptable}")
        choice = None
    key, params = reasons.sale_reason(player, game, seat, choice)
    if choice is None:
        return Move(Action.make("decline"), key, params)
    return Move(Action.make("accept", seat=int(choice)), key, params)


# --------------------------------------------------------------------------- trades (V3)
def _legal_trade(legal: LegalActions, seat: int, trade: object) -> bool:
    """``trade`` is a (buyer, seller, count, price) that ``seat``, one of its sides, may propose now."""
    if not isinstance(trade, tuple) or len(trade) != 4 or not all(_whole(x) for x in trade):
        return False
    buyer, seller, count, price = (int(x) for x in trade)
    action = Action.make("blind_trade", buyer=buyer, seller=seller, count=count, price=price)
    return seat in (buyer, seller) and legal.allows(action)


def _trading(
    game: Game, strategies: Mapping[int, Strategy], asked: MutableSet[Hashable], strict: bool, max_offers: int
) -> Move | None:
    """V3: each computer seat, the holder first, proposes its trades once per moment; the first one
    the other side (a computer) agrees to is the move."""
    n = game.rules.players
    moment = (
        "trade",
        game.initial_layout,
        game.reveals,
        game.holder,
        game.pot,
        tuple(game.stacks),
        tuple(game.face_down),
    )
    legal: LegalActions | None = None
    for k in range(n):
        seat = (game.holder + k) % n
        if (moment, seat) in asked:
            continue
        asked.add((moment, seat))
        player = strategies.get(seat)
        if player is None:
            continue
        for offer in trade_offers(player, game, seat)[:max_offers]:
            legal = legal or game.legal_actions()  # read once, at the first offer of the moment
            if not _legal_trade(legal, seat, offer):
                _strict(strict, f"{player.name} at seat {seat} proposed an impossible trade {offer!r}")
                continue
            trade = Trade(*(int(x) for x in offer))
            other = trade.seller if trade.buyer == seat else trade.buyer
            partner = strategies.get(other)
            if partner is None or not partner.accepts_trade(game, other, *trade):
                continue
            key, params = reasons.trade_reason(player, game, seat, trade)
            return Move(Action.make("blind_trade", **trade._asdict()), key, params)
    return None


def _trades_made(game: Game) -> int:
    return sum(1 for action in game.history if action.kind == "blind_trade")


# --------------------------------------------------------------------------- the loop
def next_move(
    game: Game,
    strategies: Mapping[int, Strategy],
    asked: MutableSet[Hashable] | None = None,
    *,
    rounds: int = 10,
    trades: bool = True,
    strict: bool = False,
    max_offers: int = 64,
) -> Move | None:
    """The next single action a computer player takes at this moment, or None when no computer
    acts now (a person's turn, a reveal is due, the deal is over).

    Seats missing from ``strategies`` are people. ``asked`` remembers (the deal, best trump,
    holder) already asked whether to open an auction, so a holder who declined to open is not
    asked again for the same trump, and (V3) which seats were asked for trades at which moment;
    the caller keeps it across calls (one set for a whole session is fine; without one, the loop
    remembers them for this game object itself). ``rounds``: the most
    rounds of bidding in a row (10, as the app; the tournament plays 100). ``trades=False``: no
    blind trades are proposed (the app's players propose none anyway). ``strict``: a strategy
    choosing what the rules forbid raises :class:`~.protocol.StrategyError` (otherwise the
    choice is ignored). At most ``max_offers`` of a seat's trade offers are tried per moment,
    and at most ``4 x players x hand_size`` trades are made in a deal.
    """
    if game.over:
        return None
    if asked is None:
        asked = _ASKED.setdefault(game, set())
    if game.auction is not None:
        move = _bidding(game, strategies, rounds, strict)
        if move is not None or _person_has_a_say(game, strategies):
            return move
        holder = strategies.get(game.holder)
        return None if holder is None else holder_decision(game, holder, strict=strict)
    seat = game.holder
    player = strategies.get(seat)
    if player is not None:
        key = ("open", game.initial_layout, game.best_trump, seat)
        if key not in asked:
            asked.add(key)
            if player.wants_auction(game, seat):
                reason, params = reasons.open_reason(player, game, seat)
                return Move(Action.make("open_auction"), reason, params)
    limit = 4 * game.rules.players * game.rules.hand_size
    if trades and game.can_blind_trade() and _trades_made(game) < limit:
        return _trading(game, strategies, asked, strict, max_offers)
    return None


def computer_bids(game: Game, strategies: Mapping[int, Strategy], rounds: int = 10) -> list[tuple[int, int]]:
    """Let every computer seat bid in the open auction, clockwise from the holder's
    left, round after round until nobody bids (at most ``rounds`` rounds).
    Applies the bids to ``game`` and returns them as ``(seat, amount)``."""
    made: list[tuple[int, int]] = []
    for _ in range(rounds):
        after, any_bid = -1, False
        while (move := _next_bid(game, strategies, after, False)) is not None:
            seat = move.action["seat"]
            game.apply(move.action)
            made.append((seat, move.action["amount"]))
            after, any_bid = _order(game).index(seat), True
        if not any_bid:
            break
    return made


def computer_decision(game: Game, strategy_: Strategy) -> int | None:
    """The holder's strategy ends the open auction: accepts a bid (returns the buyer) or declines (None)."""
    move = holder_decision(game, strategy_)
    game.apply(move.action)
    return move.action["seat"] if move.action.kind == "accept" else None


class Observer(Protocol):
    """Watches the sales and trades of :func:`play` (the tournament's accounts)."""

    def before(self, game: Game) -> Any: ...
    def after(self, game: Game, kind: str, info: dict[str, int], state: Any) -> None: ...


def play(
    game: Game,
    strategies: Mapping[int, Strategy],
    *,
    rounds: int = 100,
    strict: bool = False,
    trades: bool = True,
    max_actions: int = 5000,
    max_offers: int = 64,
    observer: Observer | None = None,
) -> Game:
    """Play ``game`` to its end with computer players only (every seat needs a strategy):
    :func:`next_move` and its moves until none is left, then a card turned up, and again.

    ``rounds``, ``strict``, ``trades``, ``max_offers`` as for :func:`next_move`. ``observer``
    (with ``before(game)`` and ``after(game, kind, info, state)``) watches every sale
    (``kind`` ``"sale"``, info seller, buyer, price) and trade (``"trade"``, info buyer, seller,
    count, price); the tournament uses it. At most ``max_actions`` reveals, auctions and trades.
    Returns the same game, now over.
    """
    asked: set[Hashable] = set()
    steps = 0
    while not game.over:
        move = next_move(game, strategies, asked, rounds=rounds, trades=trades, strict=strict, max_offers=max_offers)
        kind = "reveal" if move is None else move.action.kind
        if kind in ("reveal", "open_auction", "blind_trade"):
            steps += 1
            if steps > max_actions:
                raise RuntimeError("the deal did not end")
        if move is None:
            if game.auction is not None:
                missing = [seat for seat in range(game.rules.players) if seat not in strategies]
                raise ValueError(f"play needs a strategy for every seat; none for {missing}")
            game.reveal()
            continue
        info: dict[str, int] | None = None
        if observer is not None and kind == "accept":
            seat = move.action["seat"]
            info = {"seller": game.holder, "buyer": seat, "price": (game.auction or {})[seat]}
        elif observer is not None and kind == "blind_trade":
            info = dict(move.action.args)
        state = observer.before(game) if observer is not None and info is not None else None
        game.apply(move.action)
        if observer is not None and info is not None:
            observer.after(game, "sale" if kind == "accept" else "trade", info, state)
    return game


def play_deal(game: Game, strategies: Mapping[int, Strategy], max_actions: int = 1000) -> Game:
    """Play ``game`` to its end with computer players only (every seat needs a strategy).

    Each owner of each best trump is asked once whether to open an auction (as
    the app does); the other seats bid (at most 10 rounds, as :func:`computer_bids`);
    the holder decides; with blind trading (V3) the seats may trade; then the
    next card is turned up. (This is :func:`play` with ``rounds=10``.)
    Returns the same game, now over.
    """
    return play(game, strategies, rounds=10, max_actions=max_actions)
