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

Each of these is a short sum, so each function below costs microseconds to a
few milliseconds, and results are cached on the public state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import dataclasses
import numbers
import operator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, floor, perm
from typing import Any
from weakref import WeakKeyDictionary

from .cards import Card

__all__ = [
    "WORDS",
    "HoldExplanation",
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
    "trade_gain",
    "whole_break_even",
    "win_probabilities",
]

ZERO = Fraction(0)
ONE = Fraction(1)
_JF_CARDS = tuple(Card(rank, suit) for suit in "SHDC" for rank in (5, 11))
_SUIT_CARDS = {suit: tuple(Card(rank, suit) for rank in range(2, 15)) for suit in "SHDC"}


# ------------------------------------------------------------------ the public view
@dataclass(frozen=True)
class PublicView:
    """What the odds depend on, read from the public state of a live deal.

    ``unseen`` U, ``above`` h (trumps out-ranking the best trump), ``face_down``
    f_s per seat, ``dead`` d, the ``holder``, the ``pot`` and ``stacks``; for V1
    ``plain_jf`` (unseen Jacks and Fives that are not trumps above the best) and
    ``jf_above`` (the indices ``i`` of the Jack / Five of trumps among
    ``T_1..T_h``, ``T_i`` having rank ``15 - i``); for hoyle1847 (c)
    ``hoyle_c`` (no trump has come up from the piles yet) and
    ``unseen_trumps``.
    """

    players: int
    holder: int
    best: int
    unseen: int
    above: int
    face_down: tuple[int, ...]
    dead: int
    pot: int
    stacks: tuple[int, ...]
    jack_five: bool
    plain_jf: int
    jf_above: tuple[int, ...]
    hoyle: bool
    hoyle_c: bool
    unseen_trumps: int
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(values))

    def __hash__(self) -> int:
        return self._hash

    @property
    def stock(self) -> int:
        return self.unseen - sum(self.face_down) - self.dead


_VIEWS: WeakKeyDictionary[Any, tuple[int, PublicView]] = WeakKeyDictionary()


def public_view(game: Any) -> PublicView:
    """Read the public state of a live deal (face-up cards, pile sizes, chips), once per moment."""
    moment = game.moment
    hit = _VIEWS.get(game)
    if hit is not None and hit[0] == moment:
        return hit[1]
    view = _read_view(game)
    _VIEWS[game] = (moment, view)
    return view


def _read_view(game: Any) -> PublicView:
    rules = game.rules
    seen = game.seen
    trump = game.trump
    best = game.best_trump.rank
    jf_above: tuple[int, ...] = ()
    plain = 0
    if rules.jack_five:
        above = []
        for card in _JF_CARDS:
            if card in seen:
                continue
            if card.suit == trump and card.rank > best:
                above.append(15 - card.rank)
            else:
                plain += 1
        jf_above = tuple(sorted(above))
    hoyle_c = False
    unseen_trumps = 0
    if rules.hoyle:
        hoyle_c = not any(c.suit == trump for up in game.face_up for c in up)
        unseen_trumps = sum(1 for card in _SUIT_CARDS[trump.value] if card not in seen)
    return PublicView(
        players=rules.players,
        holder=game.holder,
        best=best,
        unseen=52 - len(seen),
        above=14 - best,
        face_down=tuple(game.face_down),
        dead=game.dead,
        pot=game.pot,
        stacks=tuple(game.stacks),
        jack_five=rules.jack_five,
        plain_jf=plain,
        jf_above=jf_above,
        hoyle=rules.hoyle,
        hoyle_c=hoyle_c,
        unseen_trumps=unseen_trumps,
    )


def _check_seat(game: Any, seat: Any, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < game.rules.players:
        raise ValueError(f"{what} must be a seat from 0 to {game.rules.players - 1}, not {seat!r}")
    return operator.index(seat)


# ---------------------------------------------------------------- O5: a finished deal
def pot_played_for(game: Any) -> int:
    """O5/O3 on a finished deal: the pot the deal was played for (won or carried over)."""
    for event in reversed(game.events):
        if event.kind in ("win", "carry_over"):
            return event["pot"]
    return game.pot


def _settled_hold(game: Any) -> Fraction:
    """O5: 1 if no card out-ranked the best trump (the dead pile did not, P9), else 0."""
    trump, best = game.trump, game.best_trump.rank
    dead = game.dead_cards or []
    return ZERO if any(c.suit == trump and c.rank > best for c in dead) else ONE


# ------------------------------------------------------------------------ O1
@lru_cache(maxsize=65536)
def _hold(unseen: int, above: int, n: int) -> Fraction:
    return Fraction(comb(unseen - above, n), comb(unseen, n))


def _hold_numbers(game: Any, owner: int | None) -> tuple[int, int, int, int]:
    """(owner, U, h, n) of O1."""
    owner = game.holder if owner is None else _check_seat(game, owner, "owner")
    down = game.face_down
    n = sum(down) - down[owner] + game.dead
    return owner, game.unseen, 14 - game.best_trump.rank, n


def hold_probability(game: Any, owner: int | None = None) -> Fraction:
    """O1: the chance that no card still to be turned up by another player, or in
    the dead pile, out-ranks the best trump.

    ``P = C(U - h, n) / C(U, n)``: the ``n`` cards of the other players' piles
    (every pile but ``owner``'s; ``owner`` defaults to the holder) and the dead
    pile are a random ``n`` of the ``U`` unseen cards, and must miss all ``h``
    trumps above the best trump. On a finished deal (O5): 1 if nothing
    out-ranked the best trump, else 0.
    """
    if game.over:
        if owner is not None:
            _check_seat(game, owner, "owner")
        return _settled_hold(game)
    _, unseen, above, n = _hold_numbers(game, owner)
    return _hold(unseen, above, n)


#: The English words of the explanations, by stable keys with ``{named}``
#: placeholders (the keys of the app's message catalog). A translation layer
#: passes its own ``translate(key, **params)`` to :meth:`HoldExplanation.words`.
WORDS: dict[str, str] = {
    "odds.hold.formula": "C({U_minus_h}, {n}) / C({U}, {n}) = {p}",
    "odds.hold.over": "The deal is over: the {card} {outcome}.",
    "odds.hold.over.kept": "was not out-ranked, so the chance is settled at 1",
    "odds.hold.over.beaten": "was out-ranked by the dead pile, so the chance is settled at 0",
    "odds.hold.top": "No trump out-ranks the {card}, so nothing can beat it: the chance is 1.",
    "odds.hold.none_left": (
        "No card is left for the other players to turn up or in the dead pile, "
        "so the {card} cannot be beaten: the chance is 1."
    ),
    "odds.hold.main.one": (
        "The {h} trump above the {card} is among the {U} unseen cards; {n} of those cards "
        "will still be turned up by other players or lie in the dead pile. The {card} holds "
        "if that trump is not among those {n}: {formula}, about {percent}."
    ),
    "odds.hold.main.other": (
        "The {h} trumps above the {card} are among the {U} unseen cards; {n} of those cards "
        "will still be turned up by other players or lie in the dead pile. The {card} holds "
        "if none of those {h} trumps is among those {n}: {formula}, about {percent}."
    ),
    # The same for a table without a dead pile (n_dead == 0): no "dead pile" in the words.
    "odds.hold.none_left_no_dead": (
        "No card is left for the other players to turn up, so the {card} cannot be beaten: the chance is 1."
    ),
    "odds.hold.main_no_dead.one": (
        "The {h} trump above the {card} is among the {U} unseen cards; {n} of those cards "
        "will still be turned up by other players. The {card} holds "
        "if that trump is not among those {n}: {formula}, about {percent}."
    ),
    "odds.hold.main_no_dead.other": (
        "The {h} trumps above the {card} are among the {U} unseen cards; {n} of those cards "
        "will still be turned up by other players. The {card} holds "
        "if none of those {h} trumps is among those {n}: {formula}, about {percent}."
    ),
}


def _english(key: str, **params: Any) -> str:
    return WORDS[key].format(**params)


@dataclass(frozen=True)
class HoldExplanation:
    """O1 with its working: ``probability = C(U - h, n) / C(U, n)``.

    ``U`` unseen cards, ``h`` trumps above the best trump, ``n`` face-down cards
    in the other players' piles (every pile but ``owner``'s) plus the dead pile.
    ``over`` marks a finished deal (O5), where the probability is settled.
    ``n_dead`` is the part of ``n`` in the dead pile (0 without V2): the words
    mention the dead pile only when there is one.
    """

    owner: int
    best_trump: Card
    U: int
    h: int
    n: int
    probability: Fraction
    over: bool = False
    n_dead: int = 0

    @property
    def formula(self) -> str:
        """The formula with its numbers: ``"C(44, 8) / C(46, 8) = 703/1035"``."""
        return self._formula(_english)

    def _formula(self, translate: Callable[..., str]) -> str:
        return translate(
            "odds.hold.formula", U_minus_h=self.U - self.h, U=self.U, n=self.n, p=_fraction_text(self.probability)
        )

    def words(self, translate: Callable[..., str] | Mapping[str, str] | None = None) -> str:
        """The same in words. ``translate`` is ``None`` (English, :data:`WORDS`), a dict of
        templates by key, or a callable ``translate(key, **params)`` such as the app's
        translator (whose ``percent`` method, if it has one, writes the percentage)."""
        if translate is None:
            translate = _english
        elif isinstance(translate, Mapping):
            templates = {**WORDS, **translate}
            translate = lambda key, **params: templates[key].format(**params)  # noqa: E731
        card = str(self.best_trump)
        if self.over:
            outcome = translate("odds.hold.over.kept" if self.probability == 1 else "odds.hold.over.beaten")
            return translate("odds.hold.over", card=card, outcome=outcome)
        if self.h == 0:
            return translate("odds.hold.top", card=card)
        dead = self.n_dead > 0
        if self.n == 0:
            return translate("odds.hold.none_left" if dead else "odds.hold.none_left_no_dead", card=card)
        main = "odds.hold.main" if dead else "odds.hold.main_no_dead"
        key = f"{main}.one" if self.h == 1 else f"{main}.other"
        percent = getattr(translate, "percent", _percent)(self.probability)
        return translate(
            key, h=self.h, card=card, U=self.U, n=self.n, formula=self._formula(translate), percent=percent
        )

    def __str__(self) -> str:
        return self.words()


def _percent(p: Fraction) -> str:
    """``"67.9%"``: one decimal, rounded half up (exactly, from the fraction)."""
    tenths = floor(p * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}%"


def _fraction_text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def explain_hold(game: Any, owner: int | None = None) -> HoldExplanation:
    """O1 with its numbers ``U``, ``h``, ``n``, the formula filled in, and words."""
    if game.over:
        owner = game.holder if owner is None else _check_seat(game, owner, "owner")
        down = game.face_down
        return HoldExplanation(
            owner,
            game.best_trump,
            game.unseen,
            14 - game.best_trump.rank,
            sum(down) - down[owner] + game.dead,
            _settled_hold(game),
            over=True,
            n_dead=game.dead,
        )
    owner, unseen, above, n = _hold_numbers(game, owner)
    return HoldExplanation(owner, game.best_trump, unseen, above, n, _hold(unseen, above, n), n_dead=game.dead)


# ------------------------------------------------------------------------ O2
@lru_cache(maxsize=65536)
def _win_seat(unseen: int, f: int, others: int, dead: int, above: int, is_holder: bool) -> Fraction:
    """P(seat s takes the pot), with ``f`` its face-down cards, ``others`` = B the other
    players' face-down cards, ``dead`` = d, ``above`` = h.

    Summing over ``X = T_x`` (the highest trump above the best in another pile),
    over ``e`` dead trumps above ``X`` and ``a >= 1`` of ``s``'s trumps above ``X``::

        P = sum_x  B / (x C(U, x)) * sum_e C(d, e) / (e + 1) * [C(f + S, x-1-e) - C(S, x-1-e)]
          + [no X]: the same with x - 1 -> h over C(U, h); or, for the holder
            (never beaten), C(f + S, h) / C(U, h), i.e. no trump above in the others' piles
            or the dead pile.

    All over the common denominator ``(d + 1) * U!/(U-h)!`` so only integers are summed.
    """
    U, h, d, B = unseen, above, dead, others
    stock = U - f - B - d
    fs = f + stock
    num = 0
    if B:
        for x in range(1, h + 1):
            t = x - 1
            inner = 0
            for e in range(min(d, t) + 1):
                inner += comb(d + 1, e + 1) * (comb(fs, t - e) - comb(stock, t - e))
            if inner:
                num += B * inner * factorial(t) * perm(U - x, h - x)
    if is_holder:
        num += comb(fs, h) * factorial(h) * (d + 1)
    else:
        inner = 0
        for e in range(min(d, h) + 1):
            inner += comb(d + 1, e + 1) * (comb(fs, h - e) - comb(stock, h - e))
        num += inner * factorial(h)
    return Fraction(num, (d + 1) * perm(U, h))


@lru_cache(maxsize=65536)
def _no_trump_in_piles(unseen: int, piles: int, trumps: int) -> Fraction:
    """hoyle1847 (c): P(none of the ``trumps`` unseen trumps lies in the ``piles`` pile cards)."""
    return Fraction(comb(unseen - trumps, piles), comb(unseen, piles))


@lru_cache(maxsize=16384)
def _win_table(
    unseen: int, face_down: tuple[int, ...], dead: int, above: int, holder: int, hoyle_trumps: int | None
) -> tuple[Fraction, ...]:
    N = sum(face_down)
    out = [_win_seat(unseen, f, N - f, dead, above, seat == holder) for seat, f in enumerate(face_down)]
    if hoyle_trumps is not None:
        out[holder] -= _no_trump_in_piles(unseen, N, hoyle_trumps)
    out.append(ONE - sum(out))
    return tuple(out)


def _wins(v: PublicView, holder: int) -> tuple[Fraction, ...]:
    return _win_table(v.unseen, v.face_down, v.dead, v.above, holder, v.unseen_trumps if v.hoyle_c else None)


def win_probabilities(game: Any) -> dict[int | None, Fraction]:
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
    if game.over:
        out: dict[int | None, Fraction] = dict.fromkeys(range(n), ZERO)
        out[None] = ZERO
        out[game.winner] = ONE
        return out
    table = _wins(public_view(game), game.holder)
    out = {seat: table[seat] for seat in range(n)}
    out[None] = table[n]
    return out


# ------------------------------------------------------------------- V1 helpers
@lru_cache(maxsize=65536)
def _hyp(k: int, pool: int, good: int, draws: int) -> tuple[Fraction, Fraction]:
    """For ``Y`` hypergeometric (``draws`` from ``pool`` cards of which ``good`` are Jacks
    or Fives): ``(E[min(k, Y)], P(Y < k))``."""
    if k <= 0:
        return ZERO, ZERO
    if draws == 0 or good == 0:
        return ZERO, ONE
    if k > draws or k > good:
        return Fraction(draws * good, pool), ONE
    total = comb(pool, draws)
    below = 0
    mean_below = 0
    for y in range(k):
        ways = comb(good, y) * comb(pool - good, draws - y)
        below += ways
        mean_below += y * ways
    return Fraction(mean_below + k * (total - below), total), Fraction(below, total)


def _hyp_plus(k: int, pool: int, good: int, draws: int, extra: int) -> Fraction:
    """E[min(k, extra + Y)] for ``extra`` 0 or 1."""
    if extra and k > 0:
        return 1 + _hyp(k - 1, pool, good, draws)[0]
    return _hyp(k, pool, good, draws)[0]


def _x_range(unseen: int, others: int, above: int):
    """The cases ``X = T_x`` (x = 1..h) and "no X" (x = h + 1), as
    ``(x, hi, pool, mult, den)``: ``hi`` trumps above ``X``; ``pool`` the unseen cards
    other than ``T_1..T_x`` (their Jacks and Fives are hypergeometric draws); and

        P(X = T_x, a of the hi in the seat's pile, e in the dead pile)
            = mult * C(f, a) C(d, e) C(S, hi - a - e) / den,

    ``mult / den = B / (x C(U, x))`` for ``x <= h`` and ``1 / C(U, h)`` for no ``X``."""
    for x in range(1, above + 1):
        if others:
            yield x, x - 1, unseen - x, others, x * comb(unseen, x)
    yield above + 1, above, unseen - above, 1, comb(unseen, above)


@lru_cache(maxsize=65536)
def _pay_seat(
    unseen: int, f: int, others: int, above: int, plain: int, flags: tuple[int, ...], k: int, is_holder: bool
) -> Fraction:
    """O3 for one seat: E[min(k, J)], ``J`` the Jacks and Fives it will still turn up and
    ``k`` its stack (each V1 payment needs a chip then; stacks change only by V1 here).

    Given ``X = T_x``: with no trump above ``X`` in its pile the seat turns up all
    ``f`` cards, a hypergeometric draw; otherwise it stops at ``F`` at depth ``p``::

        P(X = T_x, F at depth p) = B C(Z + f - p, x - 2) / (x C(U, x)),   Z = U - f - B,

    and turns up ``p - 1`` cards that do not matter plus ``F`` (a Jack or Five of
    trumps with probability ``(those among T_1..T_{x-1}) / (x - 1)``).
    """
    if k <= 0 or f == 0:
        return ZERO
    Z = unseen - f - others
    linear = k >= f  # a chip for every card: min(k, J) = J, expectations add up
    total = ZERO
    for x, hi, pool, mult, den in _x_range(unseen, others, above):
        if x > above and is_holder:
            continue  # never beaten: the holder turns up nothing more
        good = plain + sum(1 for j in flags if j > x)
        high_jf = sum(1 for j in flags if j < x)
        if linear:
            # E = good/pool * (f C(Z, hi) + sum_p (p-1) w_p) + high_jf/hi * sum_p w_p
            drawn = f * comb(Z, hi)
            reach = 0
            if hi:
                for p in range(1, f + 1):
                    w = comb(Z + f - p, hi - 1)
                    drawn += (p - 1) * w
                    reach += w
            term = Fraction(drawn * good, pool) if good else ZERO
            if reach and high_jf:
                term += Fraction(reach * high_jf, hi)
            total += term * mult / den
            continue
        acc = mult * comb(Z, hi) * _hyp(k, pool, good, f)[0]
        if hi:
            share = Fraction(high_jf, hi)
            for p in range(1, f + 1):
                w = comb(Z + f - p, hi - 1)
                if not w:
                    break
                mean, below = _hyp(k, pool, good, p - 1)
                acc += mult * w * (mean + share * below)
        total += acc / den
    return total


def _pays(v: PublicView, holder: int) -> Fraction:
    if not v.jack_five:
        return ZERO
    N = sum(v.face_down)
    return sum(
        (
            _pay_seat(v.unseen, f, N - f, v.above, v.plain_jf, v.jf_above, min(v.stacks[s], f), s == holder)
            for s, f in enumerate(v.face_down)
        ),
        ZERO,
    )


# ------------------------------------------------------------------------ O3
def expected_pot(game: Any) -> Fraction:
    """O3: the expected final pot, ``pot + sum_s E[min(stack_s, J_s)]``, ``J_s`` the Jacks and
    Fives seat ``s`` will still turn up (V1; each costs a chip only if it still has one).

    Which cards a seat turns up depends only on where the cards lie (module
    docstring): all of its pile, or, for the final holder, down to its final best
    trump. The dead pile pays nothing. On a finished deal (O5): the pot played for.
    """
    if game.over:
        return Fraction(pot_played_for(game))
    v = public_view(game)
    return v.pot + _pays(v, v.holder)


# ------------------------------------------------------------------------ O4
def fair_price(game: Any) -> Fraction:
    """O4: ``O1 x O3``, the hold probability times the expected pot (the simple value;
    it ignores that a beaten holder may win back)."""
    return hold_probability(game) * expected_pot(game)


def _phi(flags: tuple[int, ...], x: int, hi: int, e: int) -> Fraction:
    """P(F is the Jack / Five of trumps and the dead pile does not out-rank F | a, e):
    ``sum_j C(hi - j, e) / (C(hi, e) (hi - e))`` over those among ``T_1..T_{x-1}``."""
    num = sum(comb(hi - j, e) for j in flags if j < x)
    return Fraction(num, comb(hi, e) * (hi - e)) if num else ZERO


@lru_cache(maxsize=16384)
def _win_terms(
    unseen: int, f: int, others: int, dead: int, above: int, plain: int, flags: tuple[int, ...], k: int, is_holder: bool
) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    """For seat s: ``((x, P(X = T_x and s wins)) for each x, E[s's V1 payments ; s wins])``."""
    U, d, B = unseen, dead, others
    stock = U - f - B - d
    linear = k >= f
    wins = []
    pay = ZERO
    for x, hi, pool, mult, den in _x_range(U, B, above):
        if x > above and is_holder:  # never beaten: wins unless the dead pile holds a trump above
            wins.append((x, Fraction(comb(f + stock, hi), den)))
            continue
        # sum over a >= 1, e of C(f, a) C(d, e) C(S, hi-a-e) / (e + 1), times (d + 1)
        win_num = 0
        for e in range(min(d, hi) + 1):
            win_num += comb(d + 1, e + 1) * (comb(f + stock, hi - e) - comb(stock, hi - e))
        wins.append((x, Fraction(mult * win_num, den * (d + 1))))
        if k <= 0 or not hi or not win_num:
            continue
        good = plain + sum(1 for j in flags if j > x)
        phi = [_phi(flags, x, hi, e) for e in range(min(d, hi - 1) + 1)]
        # Given a trumps above X in the pile: F at depth p w.p. C(f-p, a-1) / C(f, a);
        # a_a = sum_p C(f-p, a-1) E[min(k, Y_{p-1})], b_a = sum_p C(f-p, a-1) P(Y_{p-1} < k).
        if linear:
            a_num = [0] + [sum(comb(f - p, a - 1) * (p - 1) for p in range(1, f - a + 2)) for a in range(1, f + 1)]
        else:
            hyps = [_hyp(k, pool, good, p - 1) for p in range(1, f + 1)]
        acc1 = 0  # sum_a a_a * sum_e C(d+1, e+1) C(S, hi-a-e)   (over d + 1; a_a integer if linear)
        acc1_f = ZERO
        acc2 = ZERO  # sum_a b_a * sum_e C(d, e) C(S, hi-a-e) phi_e
        for a in range(1, min(f, hi) + 1):
            w1 = 0
            w2 = ZERO
            for e in range(min(d, hi - a) + 1):
                c = comb(stock, hi - a - e)
                if c:
                    w1 += comb(d + 1, e + 1) * c
                    if phi[e]:
                        w2 += comb(d, e) * c * phi[e]
            if linear:
                acc1 += a_num[a] * w1
                acc2 += comb(f, a) * w2
            else:
                a_sum = sum((comb(f - p, a - 1) * hyps[p - 1][0] for p in range(1, f - a + 2)), ZERO)
                b_sum = sum((comb(f - p, a - 1) * hyps[p - 1][1] for p in range(1, f - a + 2)), ZERO)
                acc1_f += a_sum * w1
                acc2 += b_sum * w2
        if linear:
            total = (Fraction(acc1 * good, pool * (d + 1)) if good else ZERO) + acc2
        else:
            total = acc1_f / (d + 1) + acc2
        pay += total * mult / den
    return tuple(wins), pay


@lru_cache(maxsize=65536)
def _other_pay(
    unseen: int, x: int, above: int, plain: int, flags: tuple[int, ...], f: int, others: int, k: int
) -> Fraction:
    """E[min(k, J_t)] for a seat t that is not the final holder (it turns up all ``f`` cards),
    given ``X = T_x`` (the highest trump above the best in the ``others`` cards of the piles
    around the winner, t's among them): t holds ``X`` with probability ``f / B``."""
    if k <= 0 or f == 0:
        return ZERO
    if x > above:
        return _hyp(k, unseen - above, plain, f)[0]
    pool = unseen - x
    good = plain + sum(1 for j in flags if j > x)
    has_x = Fraction(f, others)
    return has_x * _hyp_plus(k, pool, good, f - 1, int(x in flags)) + (1 - has_x) * _hyp(k, pool, good, f)[0]


def _net(v: PublicView, seat: int, holder: int) -> Fraction:
    """E[chips ``seat`` takes from the pot - its own V1 payments still to come], ``holder`` owning the card."""
    N = sum(v.face_down)
    f = v.face_down[seat]
    B = N - f
    if not v.jack_five:
        return v.pot * _wins(v, holder)[seat]
    k = min(v.stacks[seat], f)
    wins, pay_win = _win_terms(v.unseen, f, B, v.dead, v.above, v.plain_jf, v.jf_above, k, seat == holder)
    total = v.pot * sum((p for _, p in wins), ZERO) + pay_win
    for t, ft in enumerate(v.face_down):
        if t == seat or not ft:
            continue
        kt = min(v.stacks[t], ft)
        for x, p in wins:
            if p:
                total += p * _other_pay(v.unseen, x, v.above, v.plain_jf, v.jf_above, ft, B, kt)
    own = _pay_seat(v.unseen, f, B, v.above, v.plain_jf, v.jf_above, k, seat == holder)
    return total - own


@lru_cache(maxsize=1 << 15)
def _net_of(v: PublicView, seat: int, holder: int) -> Fraction:
    return _net(v, seat, holder)


@lru_cache(maxsize=1 << 14)
def _break_even_of(v: PublicView, buyer: int) -> Fraction:
    return _net_of(v, buyer, buyer) - _net_of(v, buyer, v.holder)


@lru_cache(maxsize=1 << 14)
def _seller_break_even_of(v: PublicView, buyer: int) -> Fraction:
    return _net_of(v, v.holder, v.holder) - _net_of(v, v.holder, buyer)


@lru_cache(maxsize=1 << 14)
def _whole_break_even_of(v: PublicView, buyer: int, appetite: Fraction) -> int:
    if not v.jack_five:  # E[net] = pot x P(win) (O2): whole-number arithmetic on the win tables, faster
        p, q = _wins(v, buyer)[buyer], _wins(v, v.holder)[buyer]
        num = v.pot * (p.numerator * q.denominator - q.numerator * p.denominator)
        return (appetite.numerator * num) // (appetite.denominator * p.denominator * q.denominator)
    return floor(appetite * _break_even_of(v, buyer))


def expected_net(game: Any, seat: int, owner: int | None = None) -> Fraction:
    """``seat``'s expected net chips from the rest of the deal if ``owner`` (default: the
    holder) owns the best trump now and nobody trades: ``E[pot taken] - E[own V1 payments]``.

    ``E[pot taken] = pot P(win) + sum_t E[V1 payments of t ; seat wins]``: the pot and who
    wins it are not independent under V1, so the joint sums are taken.
    (The price of a sale is not part of it.) 0 on a finished deal.
    """
    seat = _check_seat(game, seat, "seat")
    if owner is not None:
        owner = _check_seat(game, owner, "owner")
    if game.over:
        return ZERO
    v = public_view(game)
    return _net_of(v, seat, v.holder if owner is None else owner)


def expected_nets(game: Any) -> list[float]:
    """Every seat's :func:`expected_net` now, as floats (for reports and plots; decisions use the
    exact fractions). 0 for everyone once the deal is over."""
    n = game.rules.players
    if game.over:
        return [0.0] * n
    v = public_view(game)
    if v.jack_five:
        return [float(_net_of(v, seat, v.holder)) for seat in range(n)]
    table = _wins(v, v.holder)  # E[net] = pot x P(win) (O2)
    return [v.pot * float(table[seat]) for seat in range(n)]


def break_even(game: Any, buyer: int) -> Fraction:
    """O4: the most ``buyer`` should pay the holder for the best trump:
    ``E[net of buyer | buyer owns it now] - E[net of buyer | nobody trades]``.

    0 for the holder itself and on a finished deal (O5). V1 chip checks use the
    stacks as they are now (the price itself is left out).
    """
    buyer = _check_seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return ZERO
    return _break_even_of(public_view(game), buyer)


def whole_break_even(game: Any, buyer: int, appetite: Fraction | int = 1) -> int:
    """``floor(appetite x break_even(game, buyer))``: the most whole chips a player who values the
    card at ``appetite`` times its break-even price pays (0 for the holder and once over)."""
    buyer = _check_seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return 0
    return _whole_break_even_of(public_view(game), buyer, Fraction(appetite))


def seller_break_even(game: Any, buyer: int) -> Fraction:
    """O4: the least the holder should take from ``buyer``:
    ``E[net of holder | nobody trades] - E[net of holder | buyer owns it now]``.

    0 for the holder itself and on a finished deal (O5).
    """
    buyer = _check_seat(game, buyer, "buyer")
    if game.over or buyer == game.holder:
        return ZERO
    return _seller_break_even_of(public_view(game), buyer)


def trade_gain(game: Any, seat: int, buyer: int, seller: int, count: int, price: int) -> Fraction:
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
    down = list(v.face_down)
    down[seller] -= count
    down[buyer] += count
    stacks = list(v.stacks)
    stacks[buyer] -= price
    stacks[seller] += price
    after = dataclasses.replace(v, face_down=tuple(down), stacks=tuple(stacks))
    change = _net_of(after, seat, v.holder) - _net_of(v, seat, v.holder)
    if seat == buyer:
        change -= price
    elif seat == seller:
        change += price
    return change


def clear_caches() -> None:
    """Empty the memo tables (for benchmarks measuring cold calls)."""
    for fn in (_hold, _win_seat, _no_trump_in_piles, _win_table, _hyp, _pay_seat, _win_terms, _other_pay):
        fn.cache_clear()
    for memo in (_net_of, _break_even_of, _seller_break_even_of, _whole_break_even_of):
        memo.cache_clear()
    _VIEWS.clear()
