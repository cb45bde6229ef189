"""The sums behind the exact odds: multivariate hypergeometric counts over where the cards that matter lie.

Each function here is one of the short sums of the argument in :mod:`speculation_nb.odds`
(read its docstring first), over plain whole numbers (``unseen`` U, ``f`` a seat's face-down
cards, ``others`` B the other piles' cards, ``dead`` d, ``above`` h...) or a
:class:`~speculation_nb.odds.view.PublicView`, and is remembered (``lru_cache``) by those numbers,
so a moment's questions cost microseconds once its numbers are known. Every result is an
exact :class:`~fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, perm

from .view import PublicView

__all__ = [
    "ONE",
    "ZERO",
    "clear",
    "hold",
    "hyp",
    "net",
    "no_trump_in_piles",
    "other_pay",
    "pay_seat",
    "pays",
    "win_seat",
    "win_table",
    "win_terms",
    "wins",
]

ZERO = Fraction(0)
ONE = Fraction(1)


# ------------------------------------------------------------------------ O1
@lru_cache(maxsize=65536)
def hold(unseen: int, above: int, n: int) -> Fraction:
    """O1: ``C(U - h, n) / C(U, n)``, the chance that ``n`` random unseen cards miss all ``h`` trumps above."""
    return Fraction(comb(unseen - above, n), comb(unseen, n))


# ------------------------------------------------------------------------ O2
@lru_cache(maxsize=65536)
def win_seat(unseen: int, f: int, others: int, dead: int, above: int, is_holder: bool) -> Fraction:
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
def no_trump_in_piles(unseen: int, piles: int, trumps: int) -> Fraction:
    """hoyle1847 (c): P(none of the ``trumps`` unseen trumps lies in the ``piles`` pile cards)."""
    return Fraction(comb(unseen - trumps, piles), comb(unseen, piles))


@lru_cache(maxsize=16384)
def win_table(
    unseen: int, face_down: tuple[int, ...], dead: int, above: int, holder: int, hoyle_trumps: int | None
) -> tuple[Fraction, ...]:
    N = sum(face_down)
    out = [win_seat(unseen, f, N - f, dead, above, seat == holder) for seat, f in enumerate(face_down)]
    if hoyle_trumps is not None:
        out[holder] -= no_trump_in_piles(unseen, N, hoyle_trumps)
    out.append(ONE - sum(out))
    return tuple(out)


def wins(v: PublicView, holder: int) -> tuple[Fraction, ...]:
    """O2: every seat's chance of taking the pot, ``holder`` owning the best trump, then the carry-over's."""
    return win_table(v.unseen, v.face_down, v.dead, v.above, holder, v.unseen_trumps if v.hoyle_c else None)


# ------------------------------------------------------------------- V1 helpers
@lru_cache(maxsize=65536)
def hyp(k: int, pool: int, good: int, draws: int) -> tuple[Fraction, Fraction]:
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


def hyp_plus(k: int, pool: int, good: int, draws: int, extra: int) -> Fraction:
    """E[min(k, extra + Y)] for ``extra`` 0 or 1."""
    if extra and k > 0:
        return 1 + hyp(k - 1, pool, good, draws)[0]
    return hyp(k, pool, good, draws)[0]


def x_range(unseen: int, others: int, above: int) -> Iterator[tuple[int, int, int, int, int]]:
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
def pay_seat(
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
    for x, hi, pool, mult, den in x_range(unseen, others, above):
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
        acc = mult * comb(Z, hi) * hyp(k, pool, good, f)[0]
        if hi:
            share = Fraction(high_jf, hi)
            for p in range(1, f + 1):
                w = comb(Z + f - p, hi - 1)
                if not w:
                    break
                mean, below = hyp(k, pool, good, p - 1)
                acc += mult * w * (mean + share * below)
        total += acc / den
    return total


def pays(v: PublicView, holder: int) -> Fraction:
    """O3: the chips V1 still adds to the pot, in expectation (0 without V1)."""
    if not v.jack_five:
        return ZERO
    N = sum(v.face_down)
    return sum(
        (
            pay_seat(v.unseen, f, N - f, v.above, v.plain_jf, v.jf_above, min(v.stacks[s], f), s == holder)
            for s, f in enumerate(v.face_down)
        ),
        ZERO,
    )


def phi(flags: tuple[int, ...], x: int, hi: int, e: int) -> Fraction:
    """P(F is the Jack / Five of trumps and the dead pile does not out-rank F | a, e):
    ``sum_j C(hi - j, e) / (C(hi, e) (hi - e))`` over those among ``T_1..T_{x-1}``."""
    num = sum(comb(hi - j, e) for j in flags if j < x)
    return Fraction(num, comb(hi, e) * (hi - e)) if num else ZERO


@lru_cache(maxsize=16384)
def win_terms(
    unseen: int, f: int, others: int, dead: int, above: int, plain: int, flags: tuple[int, ...], k: int, is_holder: bool
) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    """For seat s: ``((x, P(X = T_x and s wins)) for each x, E[s's V1 payments ; s wins])``."""
    U, d, B = unseen, dead, others
    stock = U - f - B - d
    linear = k >= f
    wins: list[tuple[int, Fraction]] = []
    pay = ZERO
    for x, hi, pool, mult, den in x_range(U, B, above):
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
        phis = [phi(flags, x, hi, e) for e in range(min(d, hi - 1) + 1)]
        # Given a trumps above X in the pile: F at depth p w.p. C(f-p, a-1) / C(f, a);
        # a_a = sum_p C(f-p, a-1) E[min(k, Y_{p-1})], b_a = sum_p C(f-p, a-1) P(Y_{p-1} < k).
        if linear:
            a_num = [0] + [sum(comb(f - p, a - 1) * (p - 1) for p in range(1, f - a + 2)) for a in range(1, f + 1)]
        else:
            hyps = [hyp(k, pool, good, p - 1) for p in range(1, f + 1)]
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
                    if phis[e]:
                        w2 += comb(d, e) * c * phis[e]
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
def other_pay(
    unseen: int, x: int, above: int, plain: int, flags: tuple[int, ...], f: int, others: int, k: int
) -> Fraction:
    """E[min(k, J_t)] for a seat t that is not the final holder (it turns up all ``f`` cards),
    given ``X = T_x`` (the highest trump above the best in the ``others`` cards of the piles
    around the winner, t's among them): t holds ``X`` with probability ``f / B``."""
    if k <= 0 or f == 0:
        return ZERO
    if x > above:
        return hyp(k, unseen - above, plain, f)[0]
    pool = unseen - x
    good = plain + sum(1 for j in flags if j > x)
    has_x = Fraction(f, others)
    return has_x * hyp_plus(k, pool, good, f - 1, int(x in flags)) + (1 - has_x) * hyp(k, pool, good, f)[0]


def net(v: PublicView, seat: int, holder: int) -> Fraction:
    """E[chips ``seat`` takes from the pot - its own V1 payments still to come], ``holder`` owning the card."""
    N = sum(v.face_down)
    f = v.face_down[seat]
    B = N - f
    if not v.jack_five:
        return v.pot * wins(v, holder)[seat]
    k = min(v.stacks[seat], f)
    terms, pay_win = win_terms(v.unseen, f, B, v.dead, v.above, v.plain_jf, v.jf_above, k, seat == holder)
    total = v.pot * sum((p for _, p in terms), ZERO) + pay_win
    for t, ft in enumerate(v.face_down):
        if t == seat or not ft:
            continue
        kt = min(v.stacks[t], ft)
        for x, p in terms:
            if p:
                total += p * other_pay(v.unseen, x, v.above, v.plain_jf, v.jf_above, ft, B, kt)
    own = pay_seat(v.unseen, f, B, v.above, v.plain_jf, v.jf_above, k, seat == holder)
    return total - own


def clear() -> None:
    """Empty the memo tables (for benchmarks measuring cold calls)."""
    for fn in (hold, win_seat, no_trump_in_piles, win_table, hyp, pay_seat, win_terms, other_pay):
        fn.cache_clear()
