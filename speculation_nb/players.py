"""Computer players: decisions from public information and the exact odds.

A computer player is a :class:`Strategy`: a small frozen dataclass with a
``name`` and its parameters, answering three questions about a deal:

* :meth:`~Strategy.wants_auction`: as the holder, put the best trump up for sale now?
* :meth:`~Strategy.bid`: as a bidder in an open auction, which new bid to make (or none)?
* :meth:`~Strategy.choose_sale`: as the holder, which standing bid to accept (or decline)?

and, with blind trading (V3), :meth:`~Strategy.accepts_trade`.

Strategies read only what every player sees: the cards face up, the stacks,
the pot, the bids, and the exact numbers of :mod:`speculation_nb.odds`
(which look at face-up cards only). They never look at a face-down card.
Where a strategy is random it is seeded, and its choices are a pure function
of the seed and the deal as it stands, so the same deal gives the same play.

The temperaments of the app (:data:`CAUTIOUS`, :data:`FAIR`, :data:`BOLD`) are
:class:`Temperament` values: a player values the best trump at its
break-even price (``odds.break_even``; as a seller ``odds.seller_break_even``)
times ``appetite``: 3/4 for cautious, 1 for fair, 5/4 for bold. A fair player
never bids above its break-even price.

The helpers :func:`computer_bids` and :func:`computer_decision` apply a table's
strategies to a game; the widget uses them, and so can a lesson or a
tournament (:func:`play_deal` plays a whole deal with no person at the table).

More players, for the lessons and :mod:`speculation_nb.tournament` (further
down): :class:`Shrewd` (bids only what it takes), :data:`SPIRITED` (3/2),
:class:`Undecided` (does what its advisor would), :class:`Fond` (spares a
favourite), :class:`PileBuyer` (V3: buys up other piles when the exact numbers
say it pays), :func:`trading` (a temperament that answers blind trades by the
exact numbers), :func:`mansfield_park` (the card table of the novel), and
:func:`play`, the play loop with blind trades and a ``strict`` mode.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Protocol, runtime_checkable

from . import odds
from .game import Game

__all__ = [
    "BOLD",
    "CAUTIOUS",
    "FAIR",
    "TEMPERAMENTS",
    "RandomPlayer",
    "Strategy",
    "Temperament",
    "bidders",
    "computer_bids",
    "computer_decision",
    "play_deal",
    "strategy",
    "table_strategies",
]


@runtime_checkable
class Strategy(Protocol):
    """What a computer player decides. Every method reads ``game`` and never changes it."""

    name: str

    def wants_auction(self, game: Game, seat: int) -> bool:
        """``seat`` holds the best trump and no auction is open: open one now?"""
        ...

    def bid(self, game: Game, seat: int) -> int | None:
        """An auction is open and ``seat`` may bid: the new bid (within ``game.bid_range(seat)``), or None."""
        ...

    def choose_sale(self, game: Game, seat: int) -> int | None:
        """``seat`` holds and its auction is open: the bidder to sell to (one of ``game.acceptable()``), or None to decline."""
        ...

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        """V3: does ``seat`` (the buyer or the seller) agree to this blind trade?"""
        ...


def _floor_in(value: Fraction, low: int, high: int) -> int | None:
    """The largest whole number <= value within [low, high], or None."""
    top = min(floor(value), high)
    return top if top >= low else None


@dataclass(frozen=True)
class Temperament:
    """Values the best trump at ``appetite`` times its break-even price (O4).

    As a bidder it bids once, the most it is willing to pay: its break-even
    price times ``appetite``, rounded down to whole chips (a ``fair`` player,
    appetite 1, never bids above its break-even). As a holder it opens an
    auction whenever its card can still be beaten (a bold one, appetite above
    1, only when the card is more likely beaten than not), and accepts the
    acceptable bid that gains it most, if the bid reaches its own price
    (``odds.seller_break_even`` times ``appetite``); otherwise it declines.
    Blind trades (V3): with ``card_price`` None (the default) it refuses them;
    otherwise it sells face-down cards for at least ``card_price`` chips each
    and buys them for at most that (a plain rule of thumb, for lessons to refine).
    With ``trades=True`` (see :func:`trading`) it answers by the exact numbers
    instead: as a seller it agrees when the price reaches ``appetite`` times its
    expected-net loss, as a buyer when the price is at most ``appetite`` times
    its expected-net gain (:func:`trade_gain`). It never proposes trades itself.
    """

    name: str = "fair"
    appetite: Fraction = Fraction(1)
    card_price: int | None = None
    trades: bool = False

    def __post_init__(self) -> None:
        appetite = Fraction(self.appetite)
        if appetite < 0:
            raise ValueError(f"a temperament's appetite is at least 0, not {self.appetite!r}")
        object.__setattr__(self, "appetite", appetite)

    # -- bidder
    def limit(self, game: Game, seat: int) -> int:
        """The most ``seat`` will pay for the best trump now, in whole chips (may be 0)."""
        return max(0, _floor_of(game, seat, self.appetite))  # floor(appetite x odds.break_even)

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        top = min(_floor_of(game, seat, self.appetite), high)  # as _floor_in(appetite x break-even, ...)
        return top if top >= max(low, 1) else None

    # -- holder
    def asking(self, game: Game, seat: int, buyer: int) -> Fraction:
        """The least the holder ``seat`` takes from ``buyer``."""
        return self.appetite * seller_break_even(game, buyer)  # = odds.seller_break_even

    def wants_auction(self, game: Game, seat: int) -> bool:
        """Asking for bids costs nothing, so a holder does whenever its card can still be
        beaten (a bold one only when the chance that it holds is below one half) and some
        other seat has chips to bid."""
        if game.over or game.auction is not None or seat != game.holder:
            return False
        hold = _hold(game)  # = odds.hold_probability(game)
        if hold == 1 or (self.appetite > 1 and hold >= Fraction(1, 2)):
            return False
        return any(game.stacks[b] > 0 for b in range(game.rules.players) if b != seat)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        auction = game.auction or {}
        best: tuple[Fraction, int] | None = None
        for buyer in game.acceptable():
            gain = auction[buyer] - self.asking(game, seat, buyer)
            if gain >= 0 and (best is None or gain > best[0]):
                best = (gain, buyer)
        return None if best is None else best[1]

    # -- V3
    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        if self.trades:
            return _exact_trade_answer(self.appetite, game, seat, buyer, seller, count, price)
        if self.card_price is None:
            return False
        if seat == seller:
            return price >= self.card_price * count
        return seat == buyer and price <= self.card_price * count

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        """A temperament answers trades but proposes none (see :class:`PileBuyer`)."""
        return []


@dataclass(frozen=True)
class RandomPlayer:
    """Plays at random, seeded: opens an auction with probability ``p_open``,
    bids a random amount in the allowed range with probability ``p_bid``,
    accepts a random acceptable bid with probability ``p_accept``; with blind
    trading (V3) it proposes, with probability ``p_trade``, a random trade (a
    random pile, count and price it can pay) and agrees to trades half the time.

    Each choice is drawn from a generator seeded by ``seed``, the deal's seed
    and the number of actions taken, so it is the same every time the same
    deal reaches the same point.
    """

    name: str = "random"
    seed: int = 0
    p_open: Fraction = Fraction(1, 3)
    p_bid: Fraction = Fraction(1, 2)
    p_accept: Fraction = Fraction(1, 2)
    p_trade: Fraction = Fraction(1, 4)

    def _rng(self, game: Game, seat: int, what: str) -> random.Random:
        return random.Random(
            f"{self.seed}:{game.seed}:{game.to_json() if game.seed is None else ''}:{len(game.history)}:{seat}:{what}"
        )

    def wants_auction(self, game: Game, seat: int) -> bool:
        if game.over or game.auction is not None or seat != game.holder:
            return False
        return self._rng(game, seat, "open").random() < self.p_open

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        rng = self._rng(game, seat, "bid")
        if rng.random() >= self.p_bid:
            return None
        return rng.randint(*span)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        options = game.acceptable()
        rng = self._rng(game, seat, "sale")
        if not options or rng.random() >= self.p_accept:
            return None
        return rng.choice(options)

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return self._rng(game, seat, f"trade:{buyer}:{seller}:{count}:{price}").random() < Fraction(1, 2)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        if not game.can_blind_trade() or game.stacks[seat] < 1:
            return []
        rng = self._rng(game, seat, "offer")
        if rng.random() >= self.p_trade:
            return []
        down = game.face_down
        sellers = [s for s in range(game.rules.players) if s != seat and down[s]]
        if not sellers:
            return []
        seller = rng.choice(sellers)
        return [Trade(seat, seller, rng.randint(1, down[seller]), rng.randint(1, game.stacks[seat]))]


CAUTIOUS = Temperament("cautious", Fraction(3, 4))
FAIR = Temperament("fair", Fraction(1))
BOLD = Temperament("bold", Fraction(5, 4))
#: The temperaments offered by the app, by name.
TEMPERAMENTS: dict[str, Temperament] = {t.name: t for t in (CAUTIOUS, FAIR, BOLD)}


def strategy(name: str, seed: int = 0, *, trades: bool = False) -> Strategy:
    """A strategy by name: ``"cautious"``, ``"fair"``, ``"bold"``, ``"random"`` (seeded), and
    ``"shrewd"``, ``"spirited"``, ``"undecided"`` (advised by a fair player), ``"pile-buyer"``
    (see :data:`STRATEGY_NAMES`). ``trades=True``: the temperaments agree to blind trades (V3)
    by the exact numbers (:func:`trading`); the app's refuse them."""
    if name in TEMPERAMENTS and not trades:
        return TEMPERAMENTS[name]
    if name == "random":
        return RandomPlayer(seed=seed)
    return _named(name, seed, trades)


def table_strategies(players: int, temperament: str = "mixed", people: Iterable[int] = ()) -> dict[int, Strategy]:
    """A strategy for every computer seat: ``temperament`` for all (any name of :func:`strategy`),
    ``"mixed"`` (fair, cautious, bold, fair, ... around the table) or ``"mansfield"`` (seat by seat,
    the characters of :func:`mansfield_park`). Seats in ``people`` get none."""
    people = set(people)
    if temperament == "mansfield":
        return mansfield_park(players).table(people)
    cycle = (FAIR, CAUTIOUS, BOLD)
    out: dict[int, Strategy] = {}
    k = 0
    for seat in range(players):
        if seat in people:
            continue
        out[seat] = cycle[k % 3] if temperament == "mixed" else strategy(temperament)
        k += 1
    return out


def bidders(game: Game) -> list[int]:
    """The seats that may bid in the open auction, clockwise from the holder's left."""
    if game.auction is None or game.over:
        return []
    n = game.rules.players
    order = [(game.holder + i) % n for i in range(1, n)]
    return [seat for seat in order if game.bid_range(seat) is not None]


def computer_bids(game: Game, strategies: Mapping[int, Strategy], rounds: int = 10) -> list[tuple[int, int]]:
    """Let every computer seat bid in the open auction, clockwise from the holder's
    left, round after round until nobody bids (at most ``rounds`` rounds).
    Applies the bids to ``game`` and returns them as ``(seat, amount)``."""
    made: list[tuple[int, int]] = []
    for _ in range(rounds):
        any_bid = False
        for seat in bidders(game):
            player = strategies.get(seat)
            if player is None:
                continue
            amount = player.bid(game, seat)
            span = game.bid_range(seat)
            if amount is None or span is None or not span[0] <= amount <= span[1]:
                continue
            game.bid(seat, amount)
            made.append((seat, amount))
            any_bid = True
        if not any_bid:
            break
    return made


def computer_decision(game: Game, strategy_: Strategy) -> int | None:
    """The holder's strategy ends the open auction: accepts a bid (returns the buyer) or declines (None)."""
    seat = game.holder
    choice = strategy_.choose_sale(game, seat)
    if choice is not None and choice in game.acceptable():
        game.accept(choice)
        return choice
    game.decline()
    return None


def play_deal(game: Game, strategies: Mapping[int, Strategy], max_actions: int = 1000) -> Game:
    """Play ``game`` to its end with computer players only (every seat needs a strategy).

    Each owner of each best trump is asked once whether to open an auction (as
    the app does); the other seats bid (at most 10 rounds, as :func:`computer_bids`);
    the holder decides; with blind trading (V3) the seats may trade; then the
    next card is turned up. (This is :func:`play` with ``rounds=10``.)
    Returns the same game, now over.
    """
    return play(game, strategies, rounds=10, max_actions=max_actions)


# =============================================================================
# More computer players: trading (V3), advice, characters; a strict play loop.
#
# Everything below reads the same public information as the temperaments
# above. The exact numbers come from :mod:`speculation_nb.odds`; the helpers
# here only remember the public view of the deal as it stands, so that the
# many questions asked about one moment (every bidder's break-even, every
# possible blind trade) read the table once.
# =============================================================================

import dataclasses as _dc  # noqa: E402  (kept with the code that uses it)
from math import ceil as _ceil  # noqa: E402
from typing import Any, NamedTuple  # noqa: E402

__all__ += [
    "SHREWD",
    "SPIRITED",
    "STRATEGY_NAMES",
    "Cast",
    "Fond",
    "PileBuyer",
    "Shrewd",
    "StrategyError",
    "Trade",
    "Trader",
    "Undecided",
    "break_even",
    "expected_net",
    "expected_nets",
    "mansfield_park",
    "play",
    "seller_break_even",
    "trade_gain",
    "trade_offers",
    "trading",
]


class Trade(NamedTuple):
    """A blind trade (V3): ``buyer`` pays ``price`` chips for the top ``count`` cards of ``seller``."""

    buyer: int
    seller: int
    count: int
    price: int


@runtime_checkable
class Trader(Protocol):
    """A strategy that also proposes blind trades (V3). Every strategy of this module is one;
    a :class:`Strategy` without ``trade_offers`` simply never proposes any."""

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        """The trades ``seat`` proposes now, best first (it is a party to each); [] for none.
        Each goes to the other party's ``accepts_trade``; the first one agreed is made."""
        ...


class StrategyError(RuntimeError):
    """Strict play (:func:`play` with ``strict=True``): a strategy chose something the rules do not allow."""


# ------------------------------------------------------------- exact numbers, read once per moment
_VIEWS: dict[int, list] = {}


def _moment(game: Game) -> tuple:
    """What the public view depends on, for one game object: its face-up cards are fixed by the number
    of reveals (its history only grows), the rest is pile sizes, chips and the holder."""
    return (game.reveals, game.holder, game.pot, tuple(game.stacks), tuple(game.face_down), game.over)


def _entry(game: Game) -> list:
    """``[game, moment, view, memo, actions]`` for the moment ``game`` is at. Bids and declines do not
    change the view: when the number of actions is unchanged the check is skipped altogether."""
    actions = len(getattr(game, "_history", ()))  # a cheap first check; the moment decides
    hit = _VIEWS.get(id(game))
    if hit is not None and hit[0] is game:
        if actions and hit[4] == actions:
            return hit
        key = _moment(game)
        if hit[1] == key:
            hit[4] = actions
            return hit
    else:
        key = _moment(game)
    if len(_VIEWS) >= 64:
        _VIEWS.clear()
    # the game is kept alive in the entry, so its id is not reused meanwhile
    hit = _VIEWS[id(game)] = [game, key, odds.public_view(game), {}, actions]
    return hit


def _view(game: Game) -> Any:
    """``odds.public_view(game)``, remembered for the moment (bids do not change it)."""
    return _entry(game)[2]


def _net(view: Any, seat: int, owner: int) -> Fraction:
    # odds.expected_net without reading the table again (its documented meaning, O4)
    return odds._net(view, seat, owner)


def _memo_net(memo: dict, view: Any, seat: int, owner: int) -> Fraction:
    key = (seat, owner)
    value = memo.get(key)
    if value is None:
        value = memo[key] = _net(view, seat, owner)
    return value


def expected_net(game: Game, seat: int, owner: int | None = None) -> Fraction:
    """``odds.expected_net(game, seat, owner)``: ``seat``'s expected net chips from the rest of the
    deal if ``owner`` (default: the holder) owns the best trump now and nobody trades (0 once over)."""
    if game.over:
        return Fraction(0)
    _, _, view, memo, _ = _entry(game)
    return _memo_net(memo, view, seat, view.holder if owner is None else owner)


def expected_nets(game: Game) -> list[float]:
    """Every seat's :func:`expected_net` now, as floats (for reports and plots; decisions use the
    exact fractions). 0 for everyone once the deal is over."""
    n = game.rules.players
    if game.over:
        return [0.0] * n
    entry = _entry(game)
    view, memo = entry[2], entry[3]
    floats = memo.get("floats")
    if floats is None:
        if view.jack_five:
            floats = [float(_memo_net(memo, view, seat, view.holder)) for seat in range(n)]
        else:  # E[net] = pot x P(win) (O2)
            table = odds._wins(view, view.holder)
            floats = [view.pot * float(table[seat]) for seat in range(n)]
        memo["floats"] = floats
    return list(floats)


def break_even(game: Game, buyer: int) -> Fraction:
    """``odds.break_even(game, buyer)`` (the most ``buyer`` should pay for the best trump), read once per moment."""
    if game.over or buyer == game.holder:
        return Fraction(0)
    _, _, view, memo, _ = _entry(game)
    value = memo.get(("be", buyer))
    if value is None:
        holder = view.holder
        value = memo[("be", buyer)] = _memo_net(memo, view, buyer, buyer) - _memo_net(memo, view, buyer, holder)
    return value


def seller_break_even(game: Game, buyer: int) -> Fraction:
    """``odds.seller_break_even(game, buyer)`` (the least the holder should take from ``buyer``)."""
    if game.over or buyer == game.holder:
        return Fraction(0)
    _, _, view, memo, _ = _entry(game)
    value = memo.get(("sbe", buyer))
    if value is None:
        holder = view.holder
        value = memo[("sbe", buyer)] = _memo_net(memo, view, holder, holder) - _memo_net(memo, view, holder, buyer)
    return value


def _difference(view: Any, seat: int, a: int, b: int) -> tuple[int, int] | None:
    """``E[net of seat | a owns the card] - E[net of seat | b owns it]`` as an integer fraction
    ``(numerator, denominator)``, without V1: then E[net] is ``pot x P(win)`` (O2), read from the
    exact win tables. None with V1 (use the fractions)."""
    if view.jack_five:
        return None
    p, q = odds._wins(view, a)[seat], odds._wins(view, b)[seat]
    return view.pot * (p.numerator * q.denominator - q.numerator * p.denominator), p.denominator * q.denominator


def _floor_of(game: Game, seat: int, appetite: Fraction) -> int:
    """``floor(appetite * break_even(game, seat))``, remembered for the moment (whole-number
    arithmetic on the exact win tables when it can: the same value, faster)."""
    entry = _entry(game)
    memo = entry[3]
    key = ("floor", appetite.numerator, appetite.denominator, seat)
    value = memo.get(key)
    if value is None:
        view = entry[2]
        if game.over or seat == view.holder:
            value = 0
        else:
            exact = _difference(view, seat, seat, view.holder)
            if exact is None:
                value = floor(appetite * break_even(game, seat))
            else:
                value = (appetite.numerator * exact[0]) // (appetite.denominator * exact[1])
        memo[key] = value
    return value


def _ceil_of_seller(game: Game, buyer: int) -> int:
    """``ceil(seller_break_even(game, buyer))``, remembered for the moment."""
    entry = _entry(game)
    memo = entry[3]
    key = ("ceil", buyer)
    value = memo.get(key)
    if value is None:
        view = entry[2]
        if game.over or buyer == view.holder:
            value = 0
        else:
            exact = _difference(view, view.holder, view.holder, buyer)
            value = _ceil(seller_break_even(game, buyer)) if exact is None else -((-exact[0]) // exact[1])
        memo[key] = value
    return value


def _hold(game: Game) -> Fraction:
    """``odds.hold_probability(game)`` (O1) from the remembered view."""
    if game.over:
        return Fraction(odds.hold_probability(game))
    v = _view(game)
    n = sum(v.face_down) - v.face_down[v.holder] + v.dead
    return odds._hold(v.unseen, v.above, n)


def _after_trade(view: Any, trade: Trade) -> Any:
    down = list(view.face_down)
    down[trade.seller] -= trade.count
    down[trade.buyer] += trade.count
    stacks = list(view.stacks)
    stacks[trade.buyer] -= trade.price
    stacks[trade.seller] += trade.price
    return _dc.replace(view, face_down=tuple(down), stacks=tuple(stacks))


def trade_gain(game: Game, seat: int, trade: Trade) -> Fraction:
    """What ``trade`` is worth to ``seat``, exactly: its expected net chips from the rest of the deal
    after the trade minus before it (nobody trading again), plus the price it receives (seller) or
    minus the price it pays (buyer). Cards move unseen, so only the pile sizes change (and the stacks,
    for V1's chip checks); a trade that leaves the holder alone with cards ends the deal (P7), which the
    numbers include. For a seat that is neither buyer nor seller it is the effect on that seat."""
    if game.over:
        return Fraction(0)
    view = _view(game)
    after = _after_trade(view, trade)
    change = _net(after, seat, view.holder) - _net(view, seat, view.holder)
    if seat == trade.buyer:
        change -= trade.price
    elif seat == trade.seller:
        change += trade.price
    return change


def _card_worth(game: Game, seat: int, buyer: int, seller: int, count: int) -> Fraction:
    """The change in ``seat``'s expected net from the cards moving alone (no price)."""
    return trade_gain(game, seat, Trade(buyer, seller, count, 0))


def _exact_trade_answer(
    appetite: Fraction, game: Game, seat: int, buyer: int, seller: int, count: int, price: int
) -> bool:
    """A seller agrees when the price reaches ``appetite`` times its expected-net loss from parting
    with the cards; a buyer when the price is at most ``appetite`` times their expected-net gain."""
    if game.over or seat not in (buyer, seller) or buyer == seller:
        return False
    if not game.can_blind_trade():
        return False
    if not (isinstance(count, int) and 1 <= count <= game.face_down[seller]):
        return False
    if not (isinstance(price, int) and 1 <= price <= game.stacks[buyer]):
        return False
    worth = _card_worth(game, seat, buyer, seller, count)
    if seat == seller:
        return price >= appetite * (-worth)
    return price <= appetite * worth


def trade_offers(player: Any, game: Game, seat: int) -> list[Trade]:
    """The blind trades ``player`` (the strategy of ``seat``) proposes now; [] if it proposes none
    (or is a plain :class:`Strategy` without ``trade_offers``, or there is no trading now)."""
    if not game.can_blind_trade():
        return []
    method = getattr(player, "trade_offers", None)
    return list(method(game, seat)) if method is not None else []


# ------------------------------------------------------------------------- the players
@dataclass(frozen=True)
class Shrewd(Temperament):
    """Values the card like a :class:`Temperament` (break-even times ``appetite``; 1 by default,
    so never above break-even) but bids only what it takes: one chip more than the best other
    offer, or what a fair holder would take (``odds.seller_break_even``, rounded up) if that is
    more, and never above its own limit; it raises round by round while someone outbids it and
    its limit allows, and does not bid against itself. Holder and trades as a :class:`Temperament`."""

    name: str = "shrewd"

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        limit = min(_floor_of(game, seat, self.appetite), high)
        if game.best_offer == seat:
            return None
        auction = game.auction or {}
        best_other = max((amount for other, amount in auction.items() if other != seat), default=0)
        need = max(low, 1, best_other + 1)
        if need > limit:
            return None
        return min(limit, max(need, _ceil_of_seller(game, seat)))


@dataclass(frozen=True)
class Undecided:
    """Cannot decide, and asks: every decision is the ``advisor``'s, as if the advisor sat in its
    seat (the way Henry Crawford directs Lady Bertram's cards in the novel). The advisor is any
    strategy; ``advice(game, seat)`` shows what it says."""

    name: str = "undecided"
    advisor: Any = None  # a Strategy; None: FAIR (set in __post_init__)

    def __post_init__(self) -> None:
        if self.advisor is None:
            object.__setattr__(self, "advisor", FAIR)
        if not isinstance(self.advisor, Strategy):
            raise ValueError(f"an undecided player's advisor is a strategy, not {self.advisor!r}")

    def wants_auction(self, game: Game, seat: int) -> bool:
        return self.advisor.wants_auction(game, seat)

    def bid(self, game: Game, seat: int) -> int | None:
        return self.advisor.bid(game, seat)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        return self.advisor.choose_sale(game, seat)

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return self.advisor.accepts_trade(game, seat, buyer, seller, count, price)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        return trade_offers(self.advisor, game, seat)

    def advice(self, game: Game, seat: int) -> dict[str, Any]:
        """What the advisor says now: ``{"open": ..., "bid": ..., "sell_to": ...}`` where they apply."""
        out: dict[str, Any] = {}
        if seat == game.holder and game.can_open_auction():
            out["open"] = self.wants_auction(game, seat)
        if game.bid_range(seat) is not None:
            out["bid"] = self.bid(game, seat)
        if seat == game.holder and game.auction is not None:
            out["sell_to"] = self.choose_sale(game, seat)
        return out


@dataclass(frozen=True)
class Fond:
    """A ``base`` strategy with a soft spot for one seat, the ``favourite`` (Fanny for her brother
    William): it never bids against the favourite once the favourite has bid, and as the holder it
    lets the favourite have the card for as little as ``softness`` times its own fair asking price
    (``odds.seller_break_even``). Everything else is the base's."""

    name: str = "fond"
    base: Any = None  # a Strategy; None: CAUTIOUS
    favourite: int | None = None
    softness: Fraction = Fraction(1, 2)

    def __post_init__(self) -> None:
        if self.base is None:
            object.__setattr__(self, "base", CAUTIOUS)
        object.__setattr__(self, "softness", Fraction(self.softness))

    def wants_auction(self, game: Game, seat: int) -> bool:
        return self.base.wants_auction(game, seat)

    def bid(self, game: Game, seat: int) -> int | None:
        if self.favourite is not None and self.favourite in (game.auction or {}):
            return None
        return self.base.bid(game, seat)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        fav = self.favourite
        if fav is not None and fav in game.acceptable():
            if (game.auction or {})[fav] >= self.softness * seller_break_even(game, fav):
                return fav
        return self.base.choose_sale(game, seat)

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return self.base.accepts_trade(game, seat, buyer, seller, count, price)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        return trade_offers(self.base, game, seat)


@dataclass(frozen=True)
class PileBuyer:
    """A holder who buys up the other piles (V3), the way the rules say a holder keeps a trump safe.

    Auctions are the ``base`` strategy's. While it holds the best trump and no auction is open, it
    looks at every other pile and every number of its top cards, works out exactly what those cards
    are worth to it (its expected net after the trade minus before) and what they cost the seller
    (the seller's expected-net loss), and offers a price for them: ``haggle`` fractions of the
    seller's loss, rounded up, at least 1 chip, within its stack, and always strictly below what
    the cards are worth to it (the gain, price included, must be positive). Offers go best first
    (largest gain); sellers accept by their own rule (an exact trader: by its expected-net loss).

    Without a dead pile or Jacks and Fives, a trade is zero-sum between the two: the cards are
    worth to the buyer exactly what the seller loses. So a pile-buyer profits only from sellers
    who part with their cards for less than they lose (cautious ones, say); a seller who asks its
    full loss is never offered enough.
    """

    name: str = "pile-buyer"
    base: Any = None  # a Strategy; None: FAIR, trading by the exact numbers
    haggle: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(5, 6), Fraction(1))

    def __post_init__(self) -> None:
        if self.base is None:
            object.__setattr__(self, "base", trading(FAIR))
        object.__setattr__(self, "haggle", tuple(sorted(Fraction(f) for f in self.haggle)))
        if not self.haggle or self.haggle[0] <= 0:
            raise ValueError("haggle fractions are positive")

    def wants_auction(self, game: Game, seat: int) -> bool:
        return self.base.wants_auction(game, seat)

    def bid(self, game: Game, seat: int) -> int | None:
        return self.base.bid(game, seat)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        return self.base.choose_sale(game, seat)

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return _exact_trade_answer(Fraction(1), game, seat, buyer, seller, count, price)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        if not game.can_blind_trade() or seat != game.holder:
            return []
        stack = game.stacks[seat]
        if stack < 1:
            return []
        down = game.face_down
        scored: list[tuple[Fraction, int, int, int, Trade]] = []
        for seller in range(game.rules.players):
            if seller == seat or not down[seller]:
                continue
            for count in range(1, down[seller] + 1):
                worth = _card_worth(game, seat, seat, seller, count)
                if worth <= 1:
                    continue  # the least price is 1 chip: nothing to gain
                loss = -_card_worth(game, seller, seat, seller, count)
                prices = sorted({max(1, _ceil(f * loss)) for f in self.haggle})
                for price in prices:
                    if price > stack:
                        break
                    trade = Trade(seat, seller, count, price)
                    gain = trade_gain(game, seat, trade)
                    if gain > 0:
                        scored.append((-gain, count, seller, price, trade))
        scored.sort(key=lambda item: item[:4])
        return [item[4] for item in scored]


def trading(player: Temperament) -> Temperament:
    """The same temperament, agreeing to blind trades (V3) by the exact numbers: a seller when the
    price reaches ``appetite`` times its expected-net loss, a buyer when the price is at most
    ``appetite`` times its expected-net gain. (The temperaments of the app refuse every trade.)"""
    return _dc.replace(player, trades=True)


SHREWD = Shrewd()
#: Mary Crawford's temperament in lesson 5: pays up to one and a half times what a card is worth.
SPIRITED = Temperament("spirited", Fraction(3, 2))

#: Every name :func:`strategy` knows.
STRATEGY_NAMES = ("cautious", "fair", "bold", "random", "shrewd", "spirited", "undecided", "pile-buyer")


def _named(name: str, seed: int, trades: bool) -> Strategy:
    if name in TEMPERAMENTS or name in ("shrewd", "spirited"):
        base = TEMPERAMENTS.get(name) or {"shrewd": SHREWD, "spirited": SPIRITED}[name]
        return trading(base) if trades else base
    if name == "random":
        return RandomPlayer(seed=seed)
    if name == "undecided":
        return Undecided(advisor=trading(FAIR) if trades else FAIR)
    if name == "pile-buyer":
        return PileBuyer()
    raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(STRATEGY_NAMES)}")


# ------------------------------------------------------------------------- strict play
class _Observer(Protocol):
    def before(self, game: Game) -> Any: ...
    def after(self, game: Game, kind: str, info: dict, state: Any) -> None: ...


def _strict(strict: bool, message: str) -> None:
    if strict:
        raise StrategyError(message)


def _run_bids(game: Game, strategies: Mapping[int, Strategy], rounds: int, strict: bool) -> None:
    for _ in range(rounds):
        any_bid = False
        for seat in bidders(game):
            player = strategies.get(seat)
            if player is None:
                continue
            amount = player.bid(game, seat)
            if amount is None:
                continue
            span = game.bid_range(seat)
            if (
                span is None
                or isinstance(amount, bool)
                or not isinstance(amount, int)
                or not span[0] <= amount <= span[1]
            ):
                _strict(strict, f"{player.name} at seat {seat} bid {amount!r}; the allowed range is {span}")
                continue
            game.bid(seat, amount)
            any_bid = True
        if not any_bid:
            return


def _end_auction(game: Game, holder: Strategy, strict: bool, observer: _Observer | None) -> None:
    seat = game.holder
    choice = holder.choose_sale(game, seat)
    if choice is not None and choice not in game.acceptable():
        _strict(strict, f"{holder.name} at seat {seat} chose to sell to {choice!r}; acceptable: {game.acceptable()}")
        choice = None
    if choice is None:
        game.decline()
        return
    state = observer.before(game) if observer else None
    price = (game.auction or {})[choice]
    game.accept(choice)
    if observer:
        observer.after(game, "sale", {"seller": seat, "buyer": choice, "price": price}, state)


def _legal_trade(game: Game, seat: int, trade: Any) -> bool:
    n = game.rules.players
    if not isinstance(trade, tuple) or len(trade) != 4:
        return False
    buyer, seller, count, price = trade
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in trade):
        return False
    if seat not in (buyer, seller) or buyer == seller or not (0 <= buyer < n and 0 <= seller < n):
        return False
    return 1 <= count <= game.face_down[seller] and 1 <= price <= game.stacks[buyer]


def _run_trades(
    game: Game,
    strategies: Mapping[int, Strategy],
    asked: set,
    strict: bool,
    observer: _Observer | None,
    max_offers: int,
) -> bool:
    """V3: each seat, the holder first, may propose trades; the first one the other side agrees to
    is made. Each seat is asked once per moment. Returns True if a trade was made."""
    n = game.rules.players
    moment = _moment(game)
    for k in range(n):
        seat = (game.holder + k) % n
        if (moment, seat) in asked:
            continue
        asked.add((moment, seat))
        player = strategies.get(seat)
        if player is None:
            continue
        for offer in trade_offers(player, game, seat)[:max_offers]:
            if not _legal_trade(game, seat, offer):
                _strict(strict, f"{player.name} at seat {seat} proposed an impossible trade {offer!r}")
                continue
            trade = Trade(*offer)
            other = trade.seller if trade.buyer == seat else trade.buyer
            partner = strategies.get(other)
            if partner is None or not partner.accepts_trade(game, other, *trade):
                continue
            state = observer.before(game) if observer else None
            game.blind_trade(*trade)
            if observer:
                observer.after(game, "trade", trade._asdict(), state)
            return True
    return False


def play(
    game: Game,
    strategies: Mapping[int, Strategy],
    *,
    rounds: int = 100,
    strict: bool = False,
    trades: bool = True,
    max_actions: int = 5000,
    max_offers: int = 64,
    observer: _Observer | None = None,
) -> Game:
    """Play ``game`` to its end with computer players only (every seat needs a strategy).

    As :func:`play_deal` (each owner of each best trump is asked once whether to open an auction;
    the others bid round after round, clockwise from the holder's left, until nobody bids, at most
    ``rounds`` rounds; the holder accepts one bid or declines), and with blind trading (V3) each
    seat, the holder first, may propose trades at every moment before the next card is turned up
    (``trades=False`` switches that off). ``strict``: a strategy that chooses anything the rules
    forbid raises :class:`StrategyError` (otherwise its choice is ignored). ``observer`` (with
    ``before(game)`` and ``after(game, kind, info, state)``) watches every sale and trade; the
    tournament uses it. Returns the same game, now over.
    """
    asked: set[tuple] = set()
    asked_trades: set[tuple] = set()
    made = 0
    limit = 4 * game.rules.players * game.rules.hand_size
    for _ in range(max_actions):
        if game.over:
            return game
        key = (game.best_trump, game.holder)
        if key not in asked and game.can_open_auction():
            asked.add(key)
            holder = strategies[game.holder]
            if holder.wants_auction(game, game.holder):
                game.open_auction()
                _run_bids(game, strategies, rounds, strict)
                _end_auction(game, holder, strict, observer)
                continue
        if trades and made < limit and game.can_blind_trade():
            if _run_trades(game, strategies, asked_trades, strict, observer, max_offers):
                made += 1
                continue
        game.reveal()
    raise RuntimeError("the deal did not end")


# ------------------------------------------------------------------------- the Mansfield Park table
@dataclass(frozen=True)
class Cast:
    """A table of named characters: ``names[seat]`` plays ``strategies[seat]``; ``why[seat]`` says why."""

    names: tuple[str, ...]
    strategies: tuple[Any, ...]
    why: tuple[str, ...]

    @property
    def players(self) -> int:
        return len(self.names)

    def seat(self, name: str) -> int:
        """The seat of the character whose name is or starts with ``name`` ("Fanny" finds "Fanny Price")."""
        for seat, full in enumerate(self.names):
            if full == name or full.split()[0] == name or full.startswith(name):
                return seat
        raise KeyError(name)

    def table(self, people: Iterable[int] = ()) -> dict[int, Strategy]:
        """``{seat: strategy}`` for the computer seats (those not in ``people``)."""
        people = set(people)
        return {seat: s for seat, s in enumerate(self.strategies) if seat not in people}


# Who plays, in the order of the places at the round table (vol. II, ch. 7 / ch. 25): Henry Crawford
# sits between Lady Bertram and Fanny; the rest of the order is ours. With 7 or 8 players the whist
# table's Sir Thomas and Mrs Norris join (they did not, in the novel).
_MANSFIELD_ORDER = (
    "Lady Bertram",
    "Henry Crawford",
    "Fanny Price",
    "William Price",
    "Mary Crawford",
    "Edmund Bertram",
    "Sir Thomas Bertram",
    "Mrs Norris",
)
# Who stays when fewer play: the first ``players`` of these.
_MANSFIELD_PRIORITY = (
    "Henry Crawford",
    "Fanny Price",
    "Mary Crawford",
    "William Price",
    "Edmund Bertram",
    "Lady Bertram",
    "Sir Thomas Bertram",
    "Mrs Norris",
)
_MANSFIELD_WHY = {
    "Lady Bertram": "undecided: she cannot choose even her game without asking Sir Thomas, and at the "
    "table Henry Crawford directs her cards for her, so she follows his advice",
    "Henry Crawford": "shrewd: the quick, practised player of the table who teaches the others; he values "
    "a card exactly and bids no more than it takes to win it",
    "Fanny Price": "cautious, and fond of William: new to the game, she learns it fast but must be urged "
    "to be greedy, above all against her brother",
    "William Price": "bold: the young sailor, eager and open-hearted, bids a quarter above a card's worth",
    "Mary Crawford": "spirited: she will have no cold prudence and stakes freely to win a hand, paying up "
    "to half as much again as a card is worth",
    "Edmund Bertram": "fair: steady and principled, he pays what a card is worth and never more",
    "Sir Thomas Bertram": "fair: grave and judicious (in the novel he is at the whist table)",
    "Mrs Norris": "cautious: careful of every chip (in the novel she is at the whist table)",
}


def mansfield_park(players: int = 6, *, trades: bool = False) -> Cast:
    """The Speculation players of *Mansfield Park* (vol. II, ch. 7) as computer players.

    Six played: Lady Bertram, Henry Crawford, Fanny Price, William Price, Mary Crawford and Edmund
    Bertram, while Sir Thomas, Mrs Norris and Dr and Mrs Grant made up the whist table. With
    fewer players the least-needed leave first (Lady Bertram keeps Henry, her advisor); with 7 or
    8, Sir Thomas and Mrs Norris come over from the whist table. ``trades=True`` makes every
    temperament trade by the exact numbers under V3 (the novel's table did not trade blind).
    """
    if not isinstance(players, int) or not 3 <= players <= 8:
        raise ValueError(f"S1: Speculation is for 3 to 8 players, not {players!r}")
    present = set(_MANSFIELD_PRIORITY[:players])
    names = tuple(name for name in _MANSFIELD_ORDER if name in present)
    seat = {name: i for i, name in enumerate(names)}

    def t(player: Temperament) -> Temperament:
        return trading(player) if trades else player

    henry = t(SHREWD)
    chosen: dict[str, Any] = {
        "Henry Crawford": henry,
        "Mary Crawford": t(SPIRITED),
        "William Price": t(BOLD),
        "Edmund Bertram": t(FAIR),
        "Sir Thomas Bertram": t(FAIR),
        "Mrs Norris": t(CAUTIOUS),
        "Lady Bertram": Undecided(advisor=henry),
        "Fanny Price": Fond(base=t(CAUTIOUS), favourite=seat.get("William Price")),
    }
    strategies = tuple(chosen[name] for name in names)
    return Cast(names, strategies, tuple(_MANSFIELD_WHY[name] for name in names))
