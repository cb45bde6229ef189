"""An independent brute force for the odds of RULES.md (O1-O5), for the tests.

Written from the rules alone; it shares no code with ``speculation_nb.odds``
and no argument either: it does not know that the turn pointer is irrelevant,
nor who ends up holding what. It takes a deal at some moment, looks only at
its public record (face-up cards, the actions, pile sizes, chips), and:

1. replays the public history on *slots* (seat i's j-th dealt card, the dead
   pile's j-th card) to learn which initial slots are still face down and
   where they are now (blind trades move them);
2. lists the unseen cards that can change anything (trumps above the best
   trump; with V1 every Jack and Five; under hoyle1847 while no trump has come
   up from the piles, every trump); all other unseen cards are alike (P5);
3. enumerates every way to fill the face-down slots with kinds of card (each
   of those cards, or "a Jack or Five" with V1, or "a card that does nothing"),
   each weighted by the number of arrangements of the whole unseen deck it
   stands for;
4. builds each initial layout with ``Game.from_layout``, replays the public
   history with the real ``Game``, closes an open auction, turns cards up
   until the deal ends, and averages what happened.

``play_out`` does the same for one random arrangement (the Monte Carlo check
against ``Game`` itself).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb, perm

from speculation_nb import Card, Game, Rules
from speculation_nb.engine.cards import full_deck

Slot = tuple  # ("seat", i, j) or ("dead", j)


# ----------------------------------------------------------------- public record
@dataclass
class Skeleton:
    piles: list[list[Slot]]  # current face-down slots of each seat, top first
    dead: list[Slot]  # the dead pile's slots
    known: dict[Slot, Card]  # initial slots already turned up, with their card
    unseen: list[Card]  # every card not face up
    stock: int  # how many unseen cards are in the stock


def skeleton(game: Game) -> Skeleton:
    rules = game.rules
    n, hand = rules.players, rules.hand_size
    piles = [[("seat", i, j) for j in range(hand)] for i in range(n)]
    dead = [("dead", j) for j in range(hand)] if rules.dead_hand else []
    face_up = game.face_up
    turned = [0] * n
    known: dict[Slot, Card] = {}
    for action in game.history:
        args = dict(action.args)
        if action.kind == "reveal":
            seat = args["seat"]
            slot = piles[seat].pop(0)
            known[slot] = face_up[seat][turned[seat]]
            turned[seat] += 1
        elif action.kind == "blind_trade":
            moved = piles[args["seller"]][: args["count"]]
            del piles[args["seller"]][: args["count"]]
            piles[args["buyer"]].extend(moved)
    assert [len(p) for p in piles] == game.face_down
    assert len(dead) == game.dead
    seen = {game.turn_up} | {c for up in face_up for c in up}
    unseen = [c for c in full_deck() if c not in seen]
    live = sum(len(p) for p in piles) + len(dead)
    return Skeleton(piles, dead, known, unseen, len(unseen) - live)


def relevant_cards(game: Game, wide: bool = False) -> tuple[list[Card], list[Card]]:
    """The unseen cards that can change anything: ``(special, payers)``.

    ``special``: trumps above the best trump (they can become the best trump), and under
    hoyle1847, while no trump has come up from the piles, every trump (rule (c)).
    ``payers``: with V1, the other Jacks and Fives; they all do the same thing (cost their
    player a chip, P5 otherwise), so they are interchangeable among themselves.
    Every other unseen card does nothing (P5) and they are interchangeable too.
    ``wide``: every unseen trump and every Jack and Five counted special, to check the above.
    """
    rules, trump, best = game.rules, game.trump, game.best_trump.rank
    seen = {game.turn_up} | {c for up in game.face_up for c in up}
    trump_up = any(c.suit == trump for up in game.face_up for c in up)
    special, payers = [], []
    for card in full_deck():
        if card in seen:
            continue
        if (card.suit == trump and (card.rank > best or wide or (rules.hoyle and not trump_up))) or (
            wide and card.rank in (5, 11)
        ):
            special.append(card)
        elif rules.jack_five and card.rank in (5, 11):
            payers.append(card)
    return special, payers


def _kinds(game: Game, wide: bool):
    sk = skeleton(game)
    special, payers = relevant_cards(game, wide)
    taken = set(special) | set(payers)
    blanks = [c for c in sk.unseen if c not in taken]
    slots = [s for p in sk.piles for s in p] + sk.dead
    return sk, slots, special, payers, blanks


def arrangement_count(game: Game, wide: bool = False) -> int:
    """How many weighted arrangements :func:`arrangements` would list."""
    _, slots, special, payers, blanks = _kinds(game, wide)
    P = len(slots)
    return sum(
        comb(P, k) * perm(len(special), k) * comb(P - k, j)
        for k in range(min(P, len(special)) + 1)
        for j in range(P - k + 1)
        if j <= len(payers) and P - k - j <= len(blanks)
    )


def arrangements(game: Game, wide: bool = False) -> Iterator[tuple[int, dict[Slot, Card]]]:
    """(weight, {face-down slot: card}) for every way to fill the face-down slots with kinds
    of card: each special card (at most once), "a Jack or Five", "a card that does nothing".
    The weight counts the arrangements of the whole unseen deck it stands for:
    ``(q)_j (b)_i`` for ``j`` of the ``q`` payers and ``i`` of the ``b`` blanks in the slots
    (the rest of the unseen cards then fill the stock in equally many ways each)."""
    _, slots, special, payers, blanks = _kinds(game, wide)
    P = len(slots)
    content: dict[Slot, Card] = {}
    used = [False] * len(special)

    def fill(i: int, jf: int, bl: int) -> Iterator[tuple[int, dict[Slot, Card]]]:
        if i == P:
            yield perm(len(payers), jf) * perm(len(blanks), bl), dict(content)
            return
        slot = slots[i]
        for c, card in enumerate(special):
            if not used[c]:
                used[c] = True
                content[slot] = card
                yield from fill(i + 1, jf, bl)
                used[c] = False
        if jf < len(payers):
            content[slot] = payers[jf]
            yield from fill(i + 1, jf + 1, bl)
        if bl < len(blanks):
            content[slot] = blanks[bl]
            yield from fill(i + 1, jf, bl + 1)
        content.pop(slot, None)

    yield from fill(0, 0, 0)


def initial_layout(game: Game, sk: Skeleton, content: dict[Slot, Card]):
    rules = game.rules
    piles = [
        [sk.known.get(("seat", i, j)) or content[("seat", i, j)] for j in range(rules.hand_size)]
        for i in range(rules.players)
    ]
    dead = [content[("dead", j)] for j in range(rules.hand_size)] if rules.dead_hand else None
    return piles, dead


def rebuild(
    game: Game, content: dict[Slot, Card], sk: Skeleton | None = None, extra_chips: dict[int, int] | None = None
) -> Game:
    """The same deal at the same moment, with ``content`` in the face-down slots."""
    sk = sk or skeleton(game)
    piles, dead = initial_layout(game, sk, content)
    start = game.layout()  # only its public parts: dealer, turn-up, chips before antes, pot
    stacks = list(start["stacks"])
    for seat, chips in (extra_chips or {}).items():
        stacks[seat] += chips
    g = Game.from_layout(game.rules, piles, game.turn_up, dead, game.dealer, stacks, start["pot"])
    for action in game.history:
        g.apply(action)
    return g


def finish(g: Game) -> Game:
    """Nobody trades again: an open auction is declined, then cards are turned up to the end."""
    if not g.over and g.auction is not None:
        g.decline()
    while not g.over:
        g.reveal()
    return g


def sell(g: Game, buyer: int) -> Game:
    """The holder sells the best trump to ``buyer`` now for 1 chip."""
    if g.auction is not None:
        g.decline()
    g.open_auction()
    g.bid(buyer, 1)
    g.accept(buyer)
    return g


def final_pot(g: Game) -> int:
    for event in reversed(g.events):
        if event.kind in ("win", "carry_over"):
            return event["pot"]
    raise AssertionError("the deal did not end")


def beats(game: Game, content: dict[Slot, Card], sk: Skeleton, owner: int) -> bool:
    """Does a card another player will still turn up, or the dead pile, out-rank the best trump?"""
    others = [s for i, p in enumerate(sk.piles) if i != owner for s in p] + sk.dead
    best, trump = game.best_trump.rank, game.trump
    return any(content[s].suit == trump and content[s].rank > best for s in others)


# ---------------------------------------------------------------------- results
@dataclass
class Exact:
    hold: Fraction  # O1 for the holder
    win: dict  # O2
    pot: Fraction  # O3
    net: dict  # seat -> E[final stack - stack now]
    count: int  # arrangements played


def exact(game: Game, wide: bool = False) -> Exact:
    """O1-O3 and every seat's expected net chips, by playing every arrangement out."""
    sk = skeleton(game)
    n = game.rules.players
    now = game.stacks
    total = 0
    hold = 0
    win = dict.fromkeys([*range(n), None], 0)
    pot = 0
    net = dict.fromkeys(range(n), 0)
    count = 0
    for weight, content in arrangements(game, wide):
        count += 1
        total += weight
        if not beats(game, content, sk, game.holder):
            hold += weight
        g = finish(rebuild(game, content, sk))
        win[g.winner] += weight
        pot += weight * final_pot(g)
        for s in range(n):
            net[s] += weight * (g.stacks[s] - now[s])
    return Exact(
        Fraction(hold, total),
        {k: Fraction(v, total) for k, v in win.items()},
        Fraction(pot, total),
        {k: Fraction(v, total) for k, v in net.items()},
        count,
    )


class Unfit(Exception):
    """This moment cannot be replayed with the chips moved for a price-free sale."""


def exact_after_sale(game: Game, buyer: int) -> dict:
    """Every seat's expected net chips if the holder sells to ``buyer`` now, the price left
    out: the buyer starts the deal with 1 chip more and the seller with 1 chip less, so that
    after a sale for 1 chip every stack is as it is now (V1 payments need chips). Raises
    :class:`Unfit` when that changes the replayed history or an ante."""
    sk = skeleton(game)
    n = game.rules.players
    seller = game.holder
    now = game.stacks
    total = 0
    net = dict.fromkeys(range(n), 0)
    for weight, content in arrangements(game):
        total += weight
        try:
            g = rebuild(game, content, sk, extra_chips={buyer: 1, seller: -1})
        except ValueError as error:
            raise Unfit(str(error)) from None
        expect = list(now)
        expect[buyer] += 1
        expect[seller] -= 1
        if g.stacks != expect:
            raise Unfit("the moved chip changed a V1 payment in the history")
        sell(g, buyer)  # may end the deal at once (P7)
        finish(g)
        for s in range(n):
            net[s] += weight * (g.stacks[s] - now[s])
    return {k: Fraction(v, total) for k, v in net.items()}


def play_out(game: Game, rng: random.Random, sk: Skeleton | None = None) -> Game:
    """One random ending of ``game``: shuffle the unseen cards into the face-down slots,
    rebuild, and play on with no trade."""
    sk = sk or skeleton(game)
    slots = [s for p in sk.piles for s in p] + sk.dead
    cards = rng.sample(sk.unseen, len(slots))
    return finish(rebuild(game, dict(zip(slots, cards)), sk))


# ------------------------------------------------------------ random deal moments
def random_moment(
    rules: Rules,
    rng: random.Random,
    stop: float = 0.5,
    trade: float = 0.2,
    stacks: list[int] | None = None,
    max_live: int | None = None,
) -> Game:
    """A deal played at random (reveals, auctions and sales, blind trades with V3) up to a
    random moment: each step stops with probability ``stop`` (never before ``max_live``
    face-down cards or fewer are left, when given)."""
    n = rules.players
    game = Game.deal(
        rules, seed=rng.randrange(2**32), dealer=rng.randrange(n), stacks=stacks, pot=rng.choice([0, 0, 0, 7])
    )
    while not game.over:
        live = sum(game.face_down) + game.dead
        if (max_live is None or live <= max_live) and rng.random() < stop:
            break
        if game.auction is not None:
            bidders = [s for s in range(n) if game.bid_range(s)]
            if bidders and rng.random() < 0.6:
                seat = rng.choice(bidders)
                low, high = game.bid_range(seat)
                game.bid(seat, rng.randint(low, min(high, low + 3)))
            elif game.acceptable() and rng.random() < 0.5:
                game.accept(rng.choice(game.acceptable()))
            else:
                game.decline()
            continue
        roll = rng.random()
        if roll < trade * 0.5:
            game.open_auction()
        elif roll < trade and game.can_blind_trade():
            buyers = [s for s in range(n) if game.stacks[s] >= 1]
            sellers = [s for s in range(n) if game.face_down[s]]
            if buyers and sellers:
                buyer = rng.choice(buyers)
                seller = rng.choice([s for s in sellers if s != buyer] or [None])
                if seller is not None:
                    game.blind_trade(buyer, seller, rng.randint(1, game.face_down[seller]), 1)
        else:
            game.reveal()
    return game
