"""Property-based tests (hypothesis): thousands of random deals and whole sessions, over random
rules (3-8 players, both presets, every variant combination, random antes and caps), driven by
random legal AND illegal actions.

Every deal is played side by side with ``Model``, a small reference implementation written
straight from RULES.md (and nothing else), which predicts for every action whether it is legal
(and by which rules it is not) and what every reader shows afterwards. After every step:

- every reader of the game agrees with the model (turn, holder, best trump, pot, stacks, piles,
  face-up cards, dead pile, auction with its bid order, winner, ...);
- G4: the stacks plus the pot add up to what the deal started with;
- the 52 cards are all distinct and all accounted for: the model's piles (which the engine's
  returned cards and pile counts confirm), the dead pile, the face-up cards, the turn-up, the stock;
- an illegal action raises IllegalAction naming a rule it breaks, and leaves to_json() and
  every reader unchanged;
- Game.from_json(game.to_json()).to_json() == game.to_json(), and game.at(k) for a random k
  equals the game as it was after its first k actions (its readers then, its saved form cut to k
  actions): after every step in test_g4_random_deals_every_step_round_trips, after every 8th
  legal action and at the end elsewhere (a reload replays the whole deal, so doing it at every
  step of every deal would not fit the time budget);
- a finished deal has exactly one outcome: a winner with the pot at 0, or no winner and the
  pot carried over; and every further action is refused (P7, S5).

Hypothesis draws the rules, the deal (by seed, or by an exact deck whose S3 deal is worked out
independently), the stacks and a carried pot, and the seed of the ``random.Random`` that picks the
actions (drawing each action from hypothesis directly was several times slower). One run plays
about 2,500 deals: 200 + 1,500 + 400 single deals and some 400 in 200 sessions.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rules_strategy

from speculation_nb import Card, Game, IllegalAction, Rules, Session
from speculation_nb.engine.cards import full_deck

ACE = 14
FULL_DECK = frozenset(full_deck())
JUNK = [True, False, 1.5, 2.0, "1", None, -1, 10**12]


# =========================================================== the reference model
def model_antes(rules: Rules, dealer: int) -> list[int]:
    """S2 with V5: 6 / 4 (or the uniform ante) times hand_size / 3, rounded half up."""
    if rules.ante == "traditional":
        dealer_base, other_base = 6, 4
    else:
        dealer_base = other_base = rules.uniform_ante

    def scale(x: int) -> int:  # floor(x * h / 3 + 1/2)
        return (2 * x * rules.hand_size + 3) // 6

    return [scale(dealer_base if s == dealer else other_base) for s in range(rules.players)]


def is_seat(value: Any, n: int) -> bool:
    return type(value) is int and 0 <= value < n


def is_whole(value: Any) -> bool:
    return type(value) is int


class Model:
    """One deal, by RULES.md alone."""

    def __init__(self, rules: Rules, layout: dict) -> None:
        self.rules = rules
        self.n = n = rules.players
        self.hoyle = rules.preset == "hoyle1847"
        self.piles = [list(p) for p in layout["piles"]]
        self.dead = list(layout["dead"]) if layout["dead"] is not None else []
        self.dead_up: list[Card] | None = None
        self.stock = list(layout["stock"])
        self.turn_up = layout["turn_up"]
        self.trump = self.turn_up.suit
        self.dealer = layout["dealer"]
        self.face_up: list[list[Card]] = [[] for _ in range(n)]
        self.stacks = list(layout["stacks"])
        self.pot = layout["pot"]
        for seat, ante in enumerate(model_antes(rules, self.dealer)):  # S2
            self.stacks[seat] -= ante
            self.pot += ante
        self.holder = self.dealer  # S4
        self.best = self.turn_up
        self.reveals = 0
        self.bids: list[tuple[int, int]] | None = None  # in the order they stand
        self.best_only = False
        self.over = False
        self.winner: int | None = None
        self.ended_by: str | None = None
        self.pay_jack_five(self.dealer, self.turn_up)  # V1: after the antes
        if self.turn_up.rank == ACE:  # S5
            self.over, self.ended_by, self.winner, self.pointer = True, "S5", self.dealer, None
            self.stacks[self.dealer] += self.pot
            self.pot = 0
        else:
            self.pointer: int | None = (self.dealer + 1) % n  # P3
            self.settle()

    # ------------------------------------------------------------------ rules
    def pay_jack_five(self, seat: int, card: Card) -> None:
        if self.rules.jack_five and card.rank in (5, 11) and self.stacks[seat] >= 1:
            self.stacks[seat] -= 1
            self.pot += 1

    def skipped(self, seat: int) -> bool:  # P4
        return seat == self.holder or not self.piles[seat]

    def settle(self) -> None:
        """P3/P4: move the pointer forward past skipped seats; P7: end when all are skipped."""
        if all(self.skipped(s) for s in range(self.n)):
            self.finish()
            return
        while self.skipped(self.pointer):
            self.pointer = (self.pointer + 1) % self.n

    def finish(self) -> None:
        self.over, self.pointer = True, None
        if self.hoyle and self.piles[self.holder]:  # hoyle (b)
            for card in self.piles[self.holder]:
                self.face_up[self.holder].append(card)
                if card.suit == self.trump and card.rank > self.best.rank:
                    self.best = card
            self.piles[self.holder] = []
        carried = False
        if self.rules.dead_hand:  # V2, P9
            self.dead_up, self.dead = self.dead, []
            if any(c.suit == self.trump and c.rank > self.best.rank for c in self.dead_up):
                carried, self.ended_by = True, "P9"
        if self.hoyle and not any(c.suit == self.trump for up in self.face_up for c in up):
            carried, self.ended_by = True, "hoyle1847(c)"  # hoyle (c)
        if not carried:  # P8
            self.ended_by = "P8"
            self.winner = self.holder
            self.stacks[self.holder] += self.pot
            self.pot = 0

    def best_offer(self) -> int | None:
        if not self.bids:
            return None
        top = max(amount for _, amount in self.bids)
        return next(seat for seat, amount in self.bids if amount == top)

    def standing(self, seat: int) -> int | None:
        return dict(self.bids or []).get(seat)

    # ------------------------------------------------------------ legality
    def broken(self, kind: str, args: dict) -> set[str]:
        """The rules the action breaks (empty: legal)."""
        n = self.n
        if self.over:
            return {"S5" if self.ended_by == "S5" else "P7"}
        out: set[str] = set()
        if kind == "reveal":
            if self.bids is not None:
                out.add("P2")
            seat = args.get("seat")
            if seat is not None:
                if not is_seat(seat, n):
                    out.add("S1")
                elif seat != self.pointer:
                    out.add("P4" if self.skipped(seat) else "P3")
        elif kind == "open_auction":
            if self.bids is not None:
                out.add("P2")
        elif kind == "bid":
            seat, amount = args["seat"], args["amount"]
            if self.bids is None:
                out.add("P2")
            if not is_seat(seat, n):
                out.add("S1")
            elif seat == self.holder:
                out.add("P2")
            if not is_whole(amount):
                out.add("P2")
            elif is_seat(seat, n):
                standing = self.standing(seat)
                if amount == 0 and standing is None:
                    out.add("P2")
                if amount < 0 or amount > self.stacks[seat]:
                    out.add("P2")
                if amount > 0 and standing is not None and amount <= standing:
                    out.add("P2")
                if self.rules.price_cap is not None and amount > self.rules.price_cap:
                    out.add("V4")
        elif kind == "accept":
            seat = args["seat"]
            if self.bids is None:
                out.add("P2")
            if not is_seat(seat, n):
                out.add("S1")
            elif self.bids is not None:
                if self.standing(seat) is None:
                    out.add("P2")
                elif self.best_only and seat != self.best_offer():
                    out.add("P1" if self.reveals == 0 else "hoyle1847(d)")
                    if self.hoyle:
                        out.add("hoyle1847(d)")
        elif kind == "decline":
            if self.bids is None:
                out.add("P2")
        elif kind == "blind_trade":
            buyer, seller, count, price = args["buyer"], args["seller"], args["count"], args["price"]
            if not self.rules.blind_trading:
                out.add("V3")
            if self.bids is not None:
                out.add("P2")
            if not is_seat(buyer, n) or not is_seat(seller, n):
                out.add("S1")
            else:
                if buyer == seller:
                    out.add("V3")
                if not is_whole(count) or not 1 <= count <= len(self.piles[seller]):
                    out.add("V3")
                if not is_whole(price) or price < 1 or price > self.stacks[buyer]:
                    out.add("V3")
        else:  # pragma: no cover
            raise AssertionError(kind)
        return out

    # --------------------------------------------------------------- acting
    def act(self, kind: str, args: dict) -> Card | None:
        """Apply a legal action; returns the card of a reveal."""
        n = self.n
        if kind == "reveal":
            seat = self.pointer
            card = self.piles[seat].pop(0)
            self.face_up[seat].append(card)
            self.reveals += 1
            self.pay_jack_five(seat, card)  # V1
            if card.suit == self.trump and card.rank > self.best.rank:  # P6
                self.best, self.holder = card, seat
            self.pointer = (seat + 1) % n
            self.settle()
            return card
        if kind == "open_auction":
            self.bids = []
            self.best_only = self.reveals == 0 or self.hoyle  # P1, hoyle (d)
        elif kind == "bid":
            seat, amount = args["seat"], args["amount"]
            self.bids = [(s, a) for s, a in self.bids if s != seat]  # a raise is re-timed
            if amount:
                self.bids.append((seat, amount))
        elif kind == "accept":
            buyer = args["seat"]
            price = self.standing(buyer)
            self.stacks[buyer] -= price
            self.stacks[self.holder] += price
            self.holder = buyer
            self.bids = None
            if self.hoyle:  # hoyle (a)
                self.pointer = (buyer + 1) % n
            self.settle()
        elif kind == "decline":
            self.bids = None
        elif kind == "blind_trade":  # V3
            buyer, seller, count, price = args["buyer"], args["seller"], args["count"], args["price"]
            moved = self.piles[seller][:count]
            self.piles[seller] = self.piles[seller][count:]
            self.piles[buyer].extend(moved)
            self.stacks[buyer] -= price
            self.stacks[seller] += price
            self.settle()
        return None

    # -------------------------------------------------------------- reading
    def readers(self) -> dict:
        return {
            "turn": self.pointer,
            "holder": self.holder,
            "best_trump": self.best,
            "pot": self.pot,
            "stacks": list(self.stacks),
            "face_down": [len(p) for p in self.piles],
            "face_up": [list(f) for f in self.face_up],
            "dead": len(self.dead),
            "dead_cards": None if self.dead_up is None else list(self.dead_up),
            "auction": None if self.bids is None else list(self.bids),
            "best_offer": self.best_offer(),
            "over": self.over,
            "winner": self.winner,
            "end_rule": self.ended_by if self.over else None,
            "seen": {self.turn_up, *(c for f in self.face_up for c in f), *(self.dead_up or ())},
        }

    def all_cards(self) -> list[Card]:
        return (
            [c for p in self.piles for c in p]
            + self.dead
            + (self.dead_up or [])
            + [c for f in self.face_up for c in f]
            + [self.turn_up]
            + self.stock
        )


def engine_readers(game: Game) -> dict:
    auction = game.auction
    return {
        "turn": game.turn,
        "holder": game.holder,
        "best_trump": game.best_trump,
        "pot": game.pot,
        "stacks": game.stacks,
        "face_down": game.face_down,
        "face_up": game.face_up,
        "dead": game.dead,
        "dead_cards": game.dead_cards,
        "auction": None if auction is None else list(auction.items()),
        "best_offer": game.best_offer,
        "over": game.over,
        "winner": game.winner,
        "end_rule": game.end_rule,
        "seen": game.seen,
    }


# ================================================================ strategies
def deal_by_hand(rules: Rules, deck: list[Card], dealer: int) -> dict:
    """S3/S4 worked independently: one card at a time from the dealer's left, the dealer last,
    then (V2) the dead pile; each card on top of its pile; then the turn-up; the rest is stock."""
    n = rules.players
    order = [(dealer + 1 + i) % n for i in range(n)] + (["dead"] if rules.dead_hand else [])
    piles: dict = {who: [] for who in order}
    position = 0
    for _ in range(rules.hand_size):
        for who in order:
            piles[who] = [deck[position]] + piles[who]
            position += 1
    return {
        "piles": [piles[s] for s in range(n)],
        "dead": piles["dead"] if rules.dead_hand else None,
        "turn_up": deck[position],
        "stock": deck[position + 1 :],
    }


@st.composite
def deal_strategy(draw) -> Game:
    """A random deal: random rules, dealer, stacks and carried pot; dealt by seed or by an exact deck
    (whose S3 deal is then checked against ``deal_by_hand``)."""
    rules = draw(rules_strategy())
    n = rules.players
    dealer = draw(st.integers(0, n - 1))
    antes = rules.antes(dealer)
    if draw(st.booleans()):
        stacks = None
    else:  # a session's later deal: uneven stacks (some at exactly their ante) and a carried pot
        stacks = [a + draw(st.sampled_from([0, 0, 1, 2, 5, 17, 40])) for a in antes]
    pot = draw(st.sampled_from([0, 0, 0, 1, 7, 23]))
    seed = draw(st.integers(0, 2**40))
    if draw(st.booleans()):
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        if draw(st.integers(0, 4)) == 0:  # now and then an Ace turn-up (S5)
            position = n * rules.hand_size + (rules.hand_size if rules.dead_hand else 0)
            ace = next(i for i, c in enumerate(deck) if c.rank == ACE)
            deck[position], deck[ace] = deck[ace], deck[position]
        game = Game.deal(rules, deck=deck, dealer=dealer, stacks=stacks, pot=pot)
        expected = deal_by_hand(rules, deck, dealer)
        layout = game.layout()
        for key in ("piles", "dead", "turn_up", "stock"):
            assert layout[key] == expected[key], key
        assert game.seed is None
    else:
        game = Game.deal(rules, seed=seed, dealer=dealer, stacks=stacks, pot=pot)
        assert game.seed == seed
    return game


def choose_seat(rnd: random.Random, n: int) -> Any:
    if rnd.random() < 0.85:
        return rnd.randrange(n)
    return rnd.choice([-1, n, *JUNK])


def draw_action(rnd: random.Random, model: Model) -> tuple[str, dict]:
    """A random action: mostly sensible, often illegal, sometimes junk."""
    n = model.n
    if model.bids is not None:
        kind = rnd.choice(["bid"] * 6 + ["accept"] * 3 + ["decline"] * 2 + ["reveal", "open_auction", "blind_trade"])
    else:
        kind = rnd.choice(["reveal"] * 8 + ["open_auction"] * 2 + ["blind_trade"] * 2 + ["bid", "accept", "decline"])
    if kind == "reveal":
        return kind, ({"seat": choose_seat(rnd, n)} if rnd.random() < 0.3 else {})
    if kind in ("open_auction", "decline"):
        return kind, {}
    if kind == "bid":
        who = choose_seat(rnd, n)
        stack = model.stacks[who] if is_seat(who, n) else 10
        standing = model.standing(who) if is_seat(who, n) else None
        cap = model.rules.price_cap or stack
        roll = rnd.random()
        if roll < 0.55:
            amount = rnd.randint(1, max(1, min(stack, cap + 1)))
        elif roll < 0.75:
            amount = rnd.randint(-1, stack + 2)
        elif roll < 0.85:
            amount = 0
        elif roll < 0.93:
            amount = standing if standing is not None else 1
        else:
            amount = rnd.choice(JUNK)
        return kind, {"seat": who, "amount": amount}
    if kind == "accept":
        if model.bids and rnd.random() < 0.6:
            return kind, {"seat": rnd.choice([s for s, _ in model.bids])}
        return kind, {"seat": choose_seat(rnd, n)}
    # blind_trade
    buyer, seller = choose_seat(rnd, n), choose_seat(rnd, n)
    pile = len(model.piles[seller]) if is_seat(seller, n) else 3
    stack = model.stacks[buyer] if is_seat(buyer, n) else 3
    roll = rnd.random()
    count = (
        rnd.randint(1, max(1, pile)) if roll < 0.7 else rnd.randint(-1, pile + 1) if roll < 0.9 else rnd.choice(JUNK)
    )
    roll = rnd.random()
    price = (
        rnd.randint(1, max(1, min(stack, 6)))
        if roll < 0.7
        else rnd.randint(-1, stack + 1)
        if roll < 0.9
        else rnd.choice(JUNK)
    )
    return kind, {"buyer": buyer, "seller": seller, "count": count, "price": price}


def perform(game: Game, kind: str, args: dict):
    if kind == "reveal":
        return game.reveal(**args)
    return getattr(game, kind)(**args)


# ================================================================== checking
def check_state(game: Game, model: Model, start_total: int, legal_actions: int) -> None:
    assert engine_readers(game) == model.readers()
    # G4
    assert sum(game.stacks) + game.pot == start_total
    # the 52 cards
    cards = model.all_cards()
    assert len(cards) == 52 and set(cards) == FULL_DECK
    assert game.face_down == [len(p) for p in model.piles] and game.dead == len(model.dead)
    assert game.unseen == 52 - len(game.seen)
    assert len(game.history) == legal_actions
    # the helpers an interface asks before offering an action
    live = not model.over
    assert game.can_reveal() == game.can_open_auction() == (live and model.bids is None)
    assert game.can_blind_trade() == (live and model.bids is None and model.rules.blind_trading)
    assert game.turn_up_auction == (model.bids is not None and model.reveals == 0)
    assert game.reveals == model.reveals
    if live and model.bids:
        assert game.acceptable() == ([model.best_offer()] if model.best_only else [s for s, _ in model.bids])
    else:
        assert game.acceptable() == []
    for seat in range(model.n):
        if not live or model.bids is None or seat == model.holder:
            assert game.bid_range(seat) is None
        else:
            low = (model.standing(seat) or 0) + 1
            high = min(model.stacks[seat], model.rules.price_cap or model.stacks[seat])
            assert game.bid_range(seat) == ((low, high) if low <= high else None)
    if game.over:
        assert game.turn is None and game.auction is None
        if game.winner is None:
            assert game.end_rule in ("P9", "hoyle1847(c)") and game.pot > 0
        else:
            assert game.end_rule in ("S5", "P8") and game.pot == 0
    else:
        assert game.winner is None and game.end_rule is None
        assert game.turn is not None and game.turn != game.holder and game.face_down[game.turn] > 0


def saved_prefix(data: dict, k: int) -> str:
    """The saved form of a game's first ``k`` actions, cut from the saved form of the whole game."""
    return json.dumps({**data, "actions": data["actions"][:k]}, sort_keys=True, separators=(",", ":"))


def play_deal(rnd: random.Random, game: Game, *, max_steps: int, round_trip_every: int) -> Game:
    """Play ``game`` to its end with random actions, checking everything after every step.

    ``round_trip_every``: after every that many legal actions, reload the game from its JSON and
    compare ``at(k)`` for a random k with the game as it was after k actions (1: every step).
    """
    model = Model(game.rules, game.layout())
    layout = game.layout()
    start_total = sum(layout["stacks"]) + layout["pot"]
    readers = [engine_readers(game)]  # the readers after each legal action
    check_state(game, model, start_total, 0)
    text: str | None = None  # to_json() of the game as it stands, once asked for
    steps = 0
    while not game.over:
        steps += 1
        if steps > max_steps:  # wind the deal up: close any auction, then reveal
            kind, args = ("decline", {}) if model.bids is not None else ("reveal", {})
        else:
            kind, args = draw_action(rnd, model)
        broken = model.broken(kind, args)
        if broken:
            if text is None:
                text = game.to_json()
            try:
                perform(game, kind, args)
            except IllegalAction as error:
                assert error.rule in broken, (kind, args, str(error), broken)
                assert str(error).startswith(error.rule + ": ")
                assert isinstance(error.params, dict) and isinstance(error.key, str)
            else:  # pragma: no cover
                raise AssertionError(f"{kind}{args} should break {broken}")
            assert game.to_json() == text
            assert engine_readers(game) == readers[-1]
            continue
        result = perform(game, kind, args)
        text = None
        expected = model.act(kind, args)
        assert result == expected
        check_state(game, model, start_total, len(readers))
        readers.append(engine_readers(game))
        if round_trip_every and len(readers) % round_trip_every == 0:
            text = game.to_json()
            assert Game.from_json(text).to_json() == text
            k = rnd.randrange(len(readers))
            past = game.at(k)
            assert engine_readers(past) == readers[k]
            assert past.to_json() == saved_prefix(json.loads(text), k)
    # the end: exactly one outcome, and the whole deal replays and reloads
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.to_json() == text and engine_readers(loaded) == engine_readers(game)
    assert (game.winner is not None and game.pot == 0) != (game.winner is None and game.pot > 0)
    if game.winner is None:
        assert game.pot == model.pot
    # P7 (S5): nothing more may happen
    for _ in range(3):
        kind, args = draw_action(rnd, model)
        assert model.broken(kind, args) == {"S5" if game.end_rule == "S5" else "P7"}
        try:
            perform(game, kind, args)
        except IllegalAction as error:
            assert error.rule == ("S5" if game.end_rule == "S5" else "P7")
        else:  # pragma: no cover
            raise AssertionError(f"{kind}{args} after the end")
        assert game.to_json() == text
    data = json.loads(text)
    for k in {0, rnd.randrange(len(readers)), len(readers) - 1}:
        past = game.at(k)
        assert engine_readers(past) == readers[k]
        assert past.to_json() == saved_prefix(data, k)
        assert past.events == [e for e in game.events if e["step"] <= k]  # the log, as Event documents
    return game


SEEDS = st.integers(0, 2**64)


# ===================================================================== tests
@settings(max_examples=200)
@given(game=deal_strategy(), seed=SEEDS)
def test_g4_random_deals_every_step_round_trips(game, seed):
    """Random legal and illegal actions; the JSON round trip and at(k) checked after every step."""
    play_deal(random.Random(seed), game, max_steps=60, round_trip_every=1)


@settings(max_examples=1500)
@given(game=deal_strategy(), seed=SEEDS)
def test_g4_random_deals_agree_with_the_rules_after_every_step(game, seed):
    """1,500 deals of random legal and illegal actions against the model; the JSON round trip and
    at(k) after every 8th legal action and at the end."""
    play_deal(random.Random(seed), game, max_steps=100, round_trip_every=8)


@settings(max_examples=400)
@given(game=deal_strategy())
def test_p7_deals_of_reveals_alone_end_with_one_outcome(game):
    """Played by reveals alone, a deal ends by P7 (or S5) after at most every pile is turned up."""
    model = Model(game.rules, game.layout())
    count = 0
    while not game.over:
        assert game.reveal() == model.act("reveal", {})
        count += 1
        assert engine_readers(game) == model.readers()
    assert count <= game.rules.players * game.rules.hand_size
    assert engine_readers(game) == model.readers()
    if game.end_rule != "S5" and not game.rules.hoyle:
        # P7: nobody but the holder has a face-down card left
        assert sum(game.face_down) == game.face_down[game.holder]


# ================================================================== sessions
@st.composite
def session_strategy(draw) -> Session:
    rules = draw(rules_strategy())
    deals = draw(st.one_of(st.none(), st.integers(1, 6)))
    return Session(rules, deals=deals, seed=draw(st.integers(0, 2**32)), dealer=draw(st.integers(0, rules.players - 1)))


def random_legal(rnd: random.Random, model: Model) -> tuple[str, dict]:
    for _ in range(30):
        kind, args = draw_action(rnd, model)
        if not model.broken(kind, args):
            return kind, args
    return ("decline", {}) if model.bids is not None else ("reveal", {})


@settings(max_examples=200)
@given(session=session_strategy(), seed=SEEDS)
def test_g1_g4_random_sessions(session, seed):
    rnd = random.Random(seed)
    rules = session.rules
    n = rules.players
    total = n * rules.start_chips
    first = session.game.dealer
    carried = 0
    while not session.over:
        game = session.game
        index = session.deal_number - 1
        assert game.dealer == (first + index) % n  # G2
        assert game.layout()["pot"] == carried  # P9: the pot carries over
        assert game.layout()["stacks"] == (session.games[-2].stacks if index else [rules.start_chips] * n)
        model = Model(rules, game.layout())
        steps = 0
        while not game.over:
            steps += 1
            kind, args = (
                random_legal(rnd, model)
                if steps < 40
                else (("decline", {}) if model.bids is not None else ("reveal", {}))
            )
            assert perform(game, kind, args) == model.act(kind, args)
            assert sum(session.stacks) + session.pot == total  # G4
        assert engine_readers(game) == model.readers()
        carried = game.pot
        if rnd.random() < 0.25:
            text = session.to_json()
            assert Session.from_json(text).to_json() == text
        if rnd.random() < 0.1:
            session.stop()
            assert session.ended == "stopped"
            break
        stacks, dealer_next = game.stacks, (game.dealer + 1) % n
        antes = model_antes(rules, dealer_next)
        result = session.next_deal()
        if result is None:  # G3
            if session.deals is not None and session.deal_number >= session.deals:
                assert session.ended == "deals"
            else:
                assert session.ended == "ante"
                assert any(c < a for c, a in zip(stacks, antes))
        else:
            assert session.deals is None or session.deal_number <= session.deals
            assert all(c >= a for c, a in zip(stacks, antes))
            jack_five = rules.jack_five and result.turn_up.rank in (5, 11) and stacks[dealer_next] > antes[dealer_next]
            expected_pot = carried + sum(antes) + (1 if jack_five else 0)
            if result.end_rule == "S5":  # an Ace turn-up: the dealer took that pot at once
                assert result.pot == 0 and result.winner == dealer_next
                assert result.stacks[dealer_next] == stacks[dealer_next] - antes[dealer_next] + expected_pot
            else:
                assert result.pot == expected_pot
    # the end: the leftover pot is shared, the stacks hold every chip
    assert session.over and session.pot == 0
    leftover = session.game.pot
    shared = session.shared
    assert sum(shared) == leftover
    base, rest = divmod(leftover, n)
    next_dealer = (session.game.dealer + 1) % n
    lucky = {(next_dealer + 1 + i) % n for i in range(rest)}
    assert shared == [base + (1 if s in lucky else 0) for s in range(n)]
    assert session.stacks == [c + x for c, x in zip(session.game.stacks, shared)]
    assert sum(session.stacks) == total
    rows = session.standings()
    assert [r.stack for r in rows] == sorted(session.stacks, reverse=True)
    assert [r.place for r in rows] == [1 + sum(1 for x in session.stacks if x > r.stack) for r in rows]
    assert {r.seat for r in rows if r.winner} == {s for s in range(n) if session.stacks[s] == max(session.stacks)}
    text = session.to_json()
    assert Session.from_json(text).to_json() == text
