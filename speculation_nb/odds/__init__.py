"""Exact odds for a deal of Speculation, from public information only (RULES.md O1-O5).

Every number here is an exact :class:`~fractions.Fraction`, computed from what
every player at the table can see: the cards face up, how many cards each pile
holds, the stacks and the pot. No function here looks at a face-down card.
Probabilities are over the arrangements of the unseen cards, all equally
likely, and assume nobody trades again (an open auction counts as declined).

Notation (used in every docstring below)
----------------------------------------
``U``  unseen cards (in the piles, the dead pile and the stock);
``b``  the rank of the best trump; ``h = 14 - b`` trumps out-rank it, all unseen;
       call them ``T_1 > T_2 > ... > T_h`` (``T_i`` has rank ``15 - i``);
``f_s`` face-down cards in seat ``s``'s pile, ``N = sum f_s``, ``d`` the dead pile;
``S = U - N - d`` the stock; ``C(a, k)`` binomial coefficients.

The argument (why only *where* the cards lie matters, not whose turn it is)
--------------------------------------------------------------------------
Without a dead pile the winner is easy to name: look for the highest trump
above ``b`` lying in any player's pile. Its owner wins. A player who is not
the holder must keep turning up cards while they have any (the deal ends only
when the holder alone has cards, P7), so the owner either turns that card up,
and then nobody can beat it, or already holds the best trump when the deal
ends. If no pile holds a trump above ``b``, the holder wins.

In general, fix a seat ``s`` and let ``X`` be the highest trump above ``b`` in
the *other* players' piles (or "none"). If nobody trades:

1. every seat but the final holder turns up its whole pile (P7);
2. ``s`` ends as the holder exactly when its own pile holds a trump above ``X``,
   or when it holds the best trump now and there is no ``X`` (it is never beaten);
3. the final holder ``s`` turns up its pile from the top exactly down to ``F``,
   its first card above ``X``, and stops: ``F`` is the final best trump (or
   ``b`` if ``s`` was never beaten). Its cards below ``F`` stay face down, which
   is why, with a dead pile, the holder's own hidden cards count only if the
   holder is beaten (P9 compares the dead pile with ``F``).

So who wins, which cards get turned up and by whom depend only on where the
cards lie; the turn pointer (P3, P4, hoyle1847 (a)) changes the order of the
reveals, never the outcome. The exact odds are therefore sums over where the
few cards that matter lie (the trumps above ``b``; Jacks and Fives for V1),
multivariate hypergeometric counts, for each seat ``s`` with ``B = N - f_s``:

* ``P(X = T_x) = B C(U-B, x-1) / (x C(U, x))``: ``T_1..T_{x-1}`` avoid the other
  piles, ``T_x`` is in one of them;
* given ``X = T_x``, the ``x - 1`` trumps above it lie in ``s``'s pile (``a`` of them),
  the dead pile (``e``) or the stock: ``C(f_s, a) C(d, e) C(S, x-1-a-e) / C(U-B, x-1)``;
* ``F`` is a uniformly random one of the ``a``, so the dead pile does not out-rank it
  with probability ``1 / (e + 1)`` (``F`` must be the highest of itself and the ``e``);
* ``F`` lies at depth ``p`` with probability ``C(f_s - p, a - 1) / C(f_s, a)``, and the
  ``p - 1`` cards above it are a random draw from the cards that do not matter
  here: their Jacks and Fives are hypergeometric (V1). A seat's V1 payments are
  ``min(stack, Jacks and Fives it turns up)``, since only V1 changes stacks.

Each of these is a short sum (:mod:`speculation_nb.odds.counting`), so each function below
costs microseconds to a few milliseconds. The prices (break-even, seller's break-even, expected
net, a trade's worth) are remembered by the public view of the moment
(:class:`~speculation_nb.odds.view.PublicView`), so the many questions asked about one moment (every
bidder's break-even, every possible blind trade) are answered from one reading of the table.
:class:`HoldExplanation` explains O1 in words (:mod:`speculation_nb.odds.explain`).
:func:`shown_chips` is the one rounding of an exact price to the whole chips every screen shows
(half up, O4); :class:`Prices` a moment's prices so rounded (:mod:`speculation_nb.odds.prices`).
:class:`~speculation_nb.odds.moment.DealMoment` (:mod:`speculation_nb.odds.moment`) is one moment
of a deal as every seat sees it with all these numbers, computed once: the value the app, the
shared table and the share links show.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import TYPE_CHECKING, Any

from ..engine.checks import is_whole, plain, quote
from . import counting
from .counting import ONE, ZERO
from .explain import WORDS, HoldExplanation
from .prices import Prices, shown_chips
from .view import PublicView, public_view

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = [
    "WORDS",
    "HoldExplanation",
    "Prices",
    "PublicView",
    "break_even",
    "clear_caches",
    "expected_net",
    "expected_nets",
    "expected_pot",
    "explain_hold",
    "fair_price",
    "hold_probability",
    "pot_played_for",
    "public_view",
    "seller_break_even",
    "shown_chips",
    "trade_gain",
    "whole_break_even",
    "win_probabilities",
]


def _seat(game: Game, seat: Any, what: str) -> int:
    """``seat`` as an int (any whole number type: numpy integers too), if it is a seat of the table."""
    seat = plain(seat)
    if not is_whole(seat) or not 0 <= seat < game.rules.players:
        raise ValueError(f"{what} must be a seat from 0 to {game.rules.players - 1}, not {quote(seat)}")
    return int(seat)


# ---------------------------------------------------------------- O5: a finished deal
def pot_played_for(game: Game) -> int:
    """O5/O3 on a finished deal: the pot the deal was played for (won or carried over)."""
    for event in reversed(game.events):
        if event.kind in ("win", "carry_over"):
            return int(event["pot"])
    return game.pot


def _settled_hold(game: Game) -> Fraction:
    """O5: 1 if no card out-ranked the best trump (the dead pile did not, P9), else 0."""
    trump, best = game.trump, game.best_trump.rank
    dead = game.dead_cards or []
    return ZERO if any(c.suit == trump and c.rank > best for c in dead) else ONE


# ------------------------------------------------------------------------ O1
def _hold_numbers(game: Game, owner: int) -> tuple[int, int, int]:
    """(U, h, n) of O1 for ``owner``."""
    down = game.face_down
    return game.unseen, 14 - game.best_trump.rank, sum(down) - down[owner] + game.dead


def hold_probability(game: Game, owner: int | None = None) -> Fraction:
    """O1: the chance that no card still to be turned up by another player, or in
    the dead pile, out-ranks the best trump.

    ``P = C(U - h, n) / C(U, n)``: the ``n`` cards of the other players' piles
    (every pile but ``owner``'s; ``owner`` defaults to the holder) and the dead
    pile are a random ``n`` of the ``U`` unseen cards, and must miss all ``h``
    trumps above the best trump. On a finished deal (O5): 1 if nothing
    out-ranked the best trump, else 0.
    """
    seat = game.holder if owner is None else _seat(game, owner, "owner")
    if game.over:
        return _settled_hold(game)
    return counting.hold(*_hold_numbers(game, seat))  # three counts: cheaper than the whole view


def explain_hold(game: Game, owner: int | None = None) -> HoldExplanation:
    """O1 with its numbers ``U``, ``h``, ``n``, the formula filled in, and words."""
    seat = game.holder if owner is None else _seat(game, owner, "owner")
    unseen, above, n = _hold_numbers(game, seat)
    if game.over:
        return HoldExplanation(seat, game.best_trump, unseen, above, n, _settled_hold(game), True, game.dead)
    return HoldExplanation(seat, game.best_trump, unseen, above, n, counting.hold(unseen, above, n), False, game.dead)


# ------------------------------------------------------------------------ O2
def win_probabilities(game: Game) -> dict[int | None, Fraction]:
    """O2: for every seat, and ``None`` (the pot carries over), the chance of taking this deal's pot.

    Seat ``s`` wins when the highest trump above the best lying in any player's pile
    is in ``s``'s pile (its owner must end up turning it up, or already holds the
    best trump), or, for the holder, when no pile holds one; with a dead pile
    (V2) it must also not be out-ranked by the dead pile, which sees only the
    final best trump (see the module docstring for the sum). hoyle1847 (c): while no
    trump has come up from the piles, the holder's share loses
    ``C(U - t, N) / C(U, N)`` (no trump at all in the ``N`` pile cards, ``t`` unseen
    trumps) to ``None``. Every key is present and the values add up to exactly 1.
    """
    n = game.rules.players
    out: dict[int | None, Fraction]
    if game.over:
        out = dict.fromkeys(range(n), ZERO)
        out[None] = ZERO
        out[game.winner] = ONE
        return out
    table = counting.wins(public_view(game), game.holder)
    out = {seat: table[seat] for seat in range(n)}
    out[None] = table[n]
    return out


# ------------------------------------------------------------------------ O3
def expected_pot(game: Game) -> Fraction:
    """O3: the expected final pot, ``pot + sum_s E[min(stack_s, J_s)]``, ``J_s`` the Jacks and
    Fives seat ``s`` will still turn up (V1; each costs a chip only if it still has one).

    Which cards a seat turns up depends only on where the cards lie (module
    docstring): all of its pile, or, for the final holder, down to its final best
    trump. The dead pile pays nothing. On a finished deal (O5): the pot played for.
    """
    if game.over:
        return Fraction(pot_played_for(game))
    v = public_view(game)
    return v.pot + counting.pays(v, v.holder)


# ------------------------------------------------------------------------ O4
def fair_price(game: Game) -> Fraction:
    """O4: ``O1 x O3``, the hold probability times the expected pot (the simple value;
    it ignores that a beaten holder may win back)."""
    return hold_probability(game) * expected_pot(game)


# The prices, remembered by the public view of the moment (a view is hashable; the game is not).
@lru_cache(maxsize=1 << 15)
def _net(v: PublicView, seat: int, holder: int) -> Fraction:
    return counting.net(v, seat, holder)


@lru_cache(maxsize=1 << 14)
def _break_even(v: PublicView, buyer: int) -> Fraction:
    return _net(v, buyer, buyer) - _net(v, buyer, v.holder)


@lru_cache(maxsize=1 << 14)
def _seller_break_even(v: PublicView, buyer: int) -> Fraction:
    return _net(v, v.holder, v.holder) - _net(v, v.holder, buyer)


@lru_cache(maxsize=1 << 14)
def _whole_break_even(v: PublicView, buyer: int, appetite: Fraction) -> int:
    if not v.jack_five:  # E[net] = pot x P(win) (O2): whole-number arithmetic on the win tables, faster
        p, q = counting.wins(v, buyer)[buyer], counting.wins(v, v.holder)[buyer]
        num = v.pot * (p.numerator * q.denominator - q.numerator * p.denominator)
        return (appetite.numerator * num) // (appetite.denominator * p.denominator * q.denominator)
    return floor(appetite * _break_even(v, buyer))


def expected_net(game: Game, seat: int, owner: int | None = None) -> Fraction:
    """``seat``'s expected net chips from the rest of the deal if ``owner`` (default: the
    holder) owns the best trump now and nobody trades: ``E[pot taken] - E[own V1 payments]``.

    ``E[pot taken] = pot P(win) + sum_t E[V1 payments of t ; seat wins]``: the pot and who
    wins it are not independent under V1, so the joint sums are taken.
    (The price of a sale is not part of it.) 0 on a finished deal.
    """
    seat = _seat(game, seat, "seat")
    who = None if owner is None else _seat(game, owner, "owner")
    if game.over:
        return ZERO
    v = public_view(game)
    return _net(v, seat, v.holder if who is None else who)


def expected_nets(game: Game) -> list[float]:
    """Every seat's :func:`expected_net` now, as floats (for reports and plots; decisions use the
    exact fractions). 0 for everyone once the deal is over."""
    n = game.rules.players
    if game.over:
        return [0.0] * n
    v = public_view(game)
    if v.jack_five:
        return [float(_net(v, seat, v.holder)) for seat in range(n)]
    table = counting.wins(v, v.holder)  # E[net] = pot x P(win) (O2)
    return [v.pot * float(table[seat]) for seat in range(n)]


def break_even(game: Game, buyer: int) -> Fraction:
    """O4: the most ``buyer`` should pay the holder for the best trump:
    ``E[net of buyer | buyer owns it now] - E[net of buyer | nobody trades]``.

    0 for the holder itself and on a finished deal (O5). V1 chip checks use the
    stacks as they are now (the price itself is left out).
    """
    buyer = _seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return ZERO
    return _break_even(public_view(game), buyer)


def whole_break_even(game: Game, buyer: int, appetite: Fraction | int = 1) -> int:
    """``floor(appetite x break_even(game, buyer))``: the most whole chips a player who values the
    card at ``appetite`` times its break-even price pays (0 for the holder and once over)."""
    buyer = _seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return 0
    return _whole_break_even(public_view(game), buyer, Fraction(appetite))


def seller_break_even(game: Game, buyer: int) -> Fraction:
    """O4: the least the holder should take from ``buyer``:
    ``E[net of holder | nobody trades] - E[net of holder | buyer owns it now]``.

    0 for the holder itself and on a finished deal (O5).
    """
    buyer = _seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return ZERO
    return _seller_break_even(public_view(game), buyer)


def trade_gain(game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> Fraction:
    """What a blind trade (V3: ``buyer`` pays ``price`` for the top ``count`` cards of ``seller``)
    is worth to ``seat``, exactly: its expected net chips from the rest of the deal after the
    trade minus before it (nobody trading again), plus the price it receives (seller) or minus
    the price it pays (buyer). Cards move unseen, so only the pile sizes change (and the stacks,
    for V1's chip checks); a trade that leaves the holder alone with cards ends the deal (P7),
    which the numbers include. For a seat that is neither buyer nor seller it is the effect on
    that seat. 0 once the deal is over."""
    if game.over:
        return ZERO
    v = public_view(game)
    change = _net(v.after_trade(buyer, seller, count, price), seat, v.holder) - _net(v, seat, v.holder)
    if seat == buyer:
        change -= price
    elif seat == seller:
        change += price
    return change


def clear_caches() -> None:
    """Empty the memo tables and the views read (for benchmarks measuring cold calls)."""
    from . import view

    counting.clear()
    for memo in (_net, _break_even, _seller_break_even, _whole_break_even):
        memo.cache_clear()
    view.clear()
