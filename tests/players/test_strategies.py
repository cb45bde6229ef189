"""The strategies of speculation_nb.players beyond the app's temperaments: shrewd, spirited,
undecided, fond, the pile-buyer, trading by the exact numbers, and the strict play loop."""

from __future__ import annotations

import random
from fractions import Fraction
from math import ceil, floor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from old_loops import ref_play
from strategies import random_rules

from speculation_nb import Game, Rules, odds
from speculation_nb.players import (
    BOLD,
    CAUTIOUS,
    FAIR,
    SHREWD,
    SPIRITED,
    STRATEGY_NAMES,
    TEMPERAMENTS,
    Cast,
    Fond,
    PileBuyer,
    RandomPlayer,
    Strategy,
    StrategyError,
    Temperament,
    Trade,
    Trader,
    Undecided,
    bidders,
    break_even,
    expected_net,
    expected_nets,
    mansfield_park,
    play,
    play_deal,
    seller_break_even,
    strategy,
    table_strategies,
    trade_gain,
    trade_offers,
    trading,
)
from speculation_nb.players.characters import Haggler, fanny_as_she_wishes


# ----------------------------------------------------------------------------- states
def live_state(seed: int, *, auction: bool = True, v3: bool | None = None) -> Game:
    """A live deal at a random moment (seeded): some reveals, perhaps a sale or a blind trade,
    and (``auction``) an auction open with some standing bids."""
    rng = random.Random(seed)
    while True:
        rules = random_rules(rng, blind_trading=v3)
        game = Game.deal(rules, seed=rng.randrange(10**9), dealer=rng.randrange(rules.players))
        for _ in range(rng.randrange(0, 3 * rules.players)):
            if game.over:
                break
            if rules.blind_trading and rng.random() < 0.15:
                sellers = [s for s in range(rules.players) if game.face_down[s]]
                buyer = rng.randrange(rules.players)
                sellers = [s for s in sellers if s != buyer]
                if sellers and game.stacks[buyer] >= 1:
                    seller = rng.choice(sellers)
                    game.blind_trade(
                        buyer,
                        seller,
                        rng.randint(1, game.face_down[seller]),
                        rng.randint(1, min(3, game.stacks[buyer])),
                    )
                    continue
            game.reveal()
        if game.over:
            continue
        if auction:
            game.open_auction()
            for seat in range(rules.players):
                span = game.bid_range(seat)
                if span and rng.random() < 0.4:
                    game.bid(seat, rng.randint(span[0], min(span[1], span[0] + 10)))
        return game


def players_under_test(n: int) -> list[Strategy]:
    return [
        CAUTIOUS,
        FAIR,
        BOLD,
        SHREWD,
        SPIRITED,
        RandomPlayer(seed=5),
        Undecided(),
        Undecided(advisor=SPIRITED),
        Fond(favourite=n - 1),
        Fond(base=FAIR, favourite=0),
        PileBuyer(),
        trading(FAIR),
        trading(CAUTIOUS),
        trading(BOLD),
        trading(SHREWD),
    ]


# ------------------------------------------------------------------ exact numbers, read once
def test_the_remembered_numbers_are_the_odds_numbers():
    for seed in range(40):
        game = live_state(seed, auction=seed % 2 == 0)
        n = game.rules.players
        nets = expected_nets(game)
        for seat in range(n):
            assert expected_net(game, seat) == odds.expected_net(game, seat)
            assert nets[seat] == pytest.approx(float(odds.expected_net(game, seat)), abs=1e-9)
            assert break_even(game, seat) == odds.break_even(game, seat)
            assert seller_break_even(game, seat) == odds.seller_break_even(game, seat)
            for owner in range(n):
                assert expected_net(game, seat, owner) == odds.expected_net(game, seat, owner)


def test_the_memory_follows_the_game():
    """The same game object read before and after an action, and two games at the same moment."""
    game = Game.deal(Rules(players=4), seed=3)
    before = [break_even(game, s) for s in range(4)]
    copy = game.copy()
    game.reveal()
    game.reveal()
    assert [break_even(game, s) for s in range(4)] == [odds.break_even(game, s) for s in range(4)]
    assert [break_even(copy, s) for s in range(4)] == before
    game.open_auction()
    game.bid((game.holder + 1) % 4, 1)
    assert [break_even(game, s) for s in range(4)] == [odds.break_even(game, s) for s in range(4)]


# ----------------------------------------------------------------------- fair never overpays
FAIR_PLAYERS = [
    FAIR,
    trading(FAIR),
    SHREWD,
    Undecided(),
    Undecided(advisor=SHREWD),
    Fond(base=FAIR, favourite=1),
    PileBuyer(),
]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_fair_player_never_bids_above_its_break_even(seed):
    game = live_state(seed)
    for seat in bidders(game):
        be = odds.break_even(game, seat)
        low, high = game.bid_range(seat)
        for player in FAIR_PLAYERS:
            amount = player.bid(game, seat)
            if amount is not None:
                assert low <= amount <= high
                assert amount <= be, (player, seat, amount, be)
        # the fair temperament bids exactly its break-even, rounded down, when it can
        expected = floor(be) if floor(be) >= max(low, 1) else None
        assert FAIR.bid(game, seat) == (min(expected, high) if expected is not None else None)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_appetites_scale_the_bids(seed):
    game = live_state(seed)
    for seat in bidders(game):
        be = odds.break_even(game, seat)
        for player in (CAUTIOUS, FAIR, BOLD, SPIRITED):
            amount = player.bid(game, seat)
            if amount is not None:
                assert amount <= player.appetite * be
        values = [p.bid(game, seat) or 0 for p in (CAUTIOUS, FAIR, BOLD, SPIRITED)]
        assert values == sorted(values)


# --------------------------------------------------------------------------- legal play
def _lineups(rules: Rules, rng: random.Random) -> list[dict[int, Strategy]]:
    n = rules.players
    pool = players_under_test(n)
    tables = [dict.fromkeys(range(n), player) for player in pool]
    tables.append({s: rng.choice(pool) for s in range(n)})
    tables.append(mansfield_park(n, trades=rules.blind_trading).lineup())
    return tables


@pytest.mark.parametrize("preset", ["cardrules", "hoyle1847"])
def test_every_strategy_takes_only_legal_actions(preset):
    """Strict play: a bid outside the allowed range, a sale to a seat that may not be accepted or an
    impossible trade raises StrategyError; the engine refuses anything else the rules forbid."""
    rng = random.Random(preset)
    deals = 0
    for k in range(10 if preset == "cardrules" else 6):
        if preset == "hoyle1847":
            rules = Rules(players=rng.randint(3, 8), preset="hoyle1847")
        else:
            rules = random_rules(rng, presets=("cardrules",), blind_trading=k % 2 == 0)
        for table in _lineups(rules, rng):
            game = Game.deal(rules, seed=rng.randrange(10**9), dealer=rng.randrange(rules.players))
            total = sum(game.stacks) + game.pot
            play(game, table, strict=True)
            assert game.over
            assert sum(game.stacks) + game.pot == total
            assert min(game.stacks) >= 0
            deals += 1
    assert deals > 50


def test_every_variant_alone_with_every_strategy():
    variants = [
        dict(jack_five=True),
        dict(dead_hand=True),
        dict(blind_trading=True),
        dict(price_cap=5),
        dict(hand_size=5),
        dict(ante="uniform", uniform_ante=2),
    ]
    rng = random.Random(8)
    for extra in variants:
        rules = Rules(players=5, **extra)
        for player in players_under_test(5):
            game = Game.deal(rules, seed=rng.randrange(10**9))
            play(game, dict.fromkeys(range(5), player), strict=True)
            assert game.over


def test_strict_play_catches_a_strategy_that_breaks_the_rules():
    class Greedy(Temperament):
        def bid(self, game, seat):
            return game.stacks[seat] + 1  # more than it has

    game = Game.deal(Rules(players=4), seed=1)
    table = {s: Greedy("greedy") for s in range(4)}
    with pytest.raises(StrategyError):
        play(game, table, strict=True)
    game = Game.deal(Rules(players=4), seed=1)
    play(game, table)  # not strict: the bid is ignored
    assert game.over

    class Cheat(Temperament):
        def trade_offers(self, game, seat):
            return [Trade(seat, seat, 1, 1)]

    game = Game.deal(Rules(players=4, blind_trading=True), seed=1)
    with pytest.raises(StrategyError):
        play(game, {s: Cheat("cheat") for s in range(4)}, strict=True)


def test_play_deal_plays_as_before_without_trading():
    """play_deal is play(rounds=10): the same deal as the loop the app was built with (0.1.0's,
    tests/support/old_loops.py)."""

    rng = random.Random(2)
    for _ in range(12):
        rules = random_rules(rng, blind_trading=False)
        tables = [
            table_strategies(rules.players, "mixed"),
            {s: RandomPlayer(seed=s) for s in range(rules.players)},
            table_strategies(rules.players, "mansfield"),
        ]
        for table in tables:
            seed = rng.randrange(10**9)
            a = play_deal(Game.deal(rules, seed=seed), table)
            b = Game.deal(rules, seed=seed)
            ref_play(b, table, 10)
            assert a.to_json() == b.to_json()


# --------------------------------------------------------------------------- undecided
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_undecided_follows_its_advisor(seed):
    game = live_state(seed, v3=seed % 2 == 0)
    for advisor in (FAIR, SPIRITED, SHREWD, RandomPlayer(seed=seed), PileBuyer(), trading(CAUTIOUS)):
        lady = Undecided(advisor=advisor)
        holder = game.holder
        assert lady.choose_sale(game, holder) == advisor.choose_sale(game, holder)
        for seat in range(game.rules.players):
            assert lady.bid(game, seat) == advisor.bid(game, seat)
            assert lady.accepts_trade(game, seat, seat, holder, 1, 2) == advisor.accepts_trade(
                game, seat, seat, holder, 1, 2
            )
        advice = lady.advice(game, holder)
        assert advice.get("sell_to") == advisor.choose_sale(game, holder)
    game.decline()
    for advisor in (FAIR, BOLD, PileBuyer()):
        lady = Undecided(advisor=advisor)
        assert lady.wants_auction(game, game.holder) == advisor.wants_auction(game, game.holder)
        assert lady.trade_offers(game, game.holder) == trade_offers(advisor, game, game.holder)


def test_an_undecided_player_plays_the_deal_its_advisor_would():
    rng = random.Random(5)
    for _ in range(10):
        rules = random_rules(rng)
        n = rules.players
        seat = rng.randrange(n)
        advisor = rng.choice([FAIR, SHREWD, SPIRITED, PileBuyer(), RandomPlayer(seed=3)])
        others = {s: rng.choice([CAUTIOUS, FAIR, BOLD, trading(CAUTIOUS)]) for s in range(n)}
        seed = rng.randrange(10**9)
        with_lady = play(Game.deal(rules, seed=seed), {**others, seat: Undecided(advisor=advisor)})
        with_advisor = play(Game.deal(rules, seed=seed), {**others, seat: advisor})
        assert with_lady.to_json() == with_advisor.to_json()


def test_undecided_needs_a_strategy_for_advisor():
    assert Undecided().advisor is FAIR
    with pytest.raises(ValueError):
        Undecided(advisor="Sir Thomas")


# --------------------------------------------------------------------------- fond, shrewd
def test_a_fond_player_does_not_bid_against_the_favourite_and_lets_them_have_the_card():
    for seed in range(30):
        game = live_state(seed)
        n = game.rules.players
        holder = game.holder
        for fav in range(n):
            if fav == holder:
                continue
            fanny = Fond(favourite=fav)
            for seat in bidders(game):
                if seat == fav:
                    continue
                if fav in game.auction:
                    assert fanny.bid(game, seat) is None
                else:
                    assert fanny.bid(game, seat) == CAUTIOUS.bid(game, seat)
            choice = fanny.choose_sale(game, holder)
            if fav in game.acceptable() and game.auction[fav] >= Fraction(1, 2) * odds.seller_break_even(game, fav):
                assert choice == fav
            else:
                assert choice == CAUTIOUS.choose_sale(game, holder)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_shrewd_player_bids_only_what_it_takes(seed):
    game = live_state(seed)
    for seat in bidders(game):
        amount = SHREWD.bid(game, seat)
        if amount is None:
            continue
        others = [b for s, b in game.auction.items() if s != seat]
        be = odds.break_even(game, seat)
        assert game.best_offer != seat
        assert amount <= be
        assert amount > max(others, default=0)
        low, high = game.bid_range(seat)
        limit = min(floor(be), high)
        reserve = ceil(odds.seller_break_even(game, seat))
        assert amount == min(limit, max(low, 1, max(others, default=0) + 1, reserve))


# --------------------------------------------------------------------------- trading (V3)
def test_trade_gain_is_the_change_in_expected_net():
    """Checked against the engine: make the trade on a copy and ask odds.expected_net."""
    for seed in range(25):
        game = live_state(seed, auction=False, v3=True)
        n = game.rules.players
        sellers = [s for s in range(n) if game.face_down[s] and s != game.holder]
        if not sellers or game.stacks[game.holder] < 1:
            continue
        seller = sellers[0]
        trade = Trade(game.holder, seller, game.face_down[seller], 1)
        after = game.copy()
        after.blind_trade(*trade)
        if after.over and game.rules.dead_hand:
            continue  # V2: the dead pile turned up at the end (P9) is one draw, trade_gain its mean
        for seat in range(n):
            cash = -1 if seat == trade.buyer else 1 if seat == trade.seller else 0
            if after.over:  # the trade ended the deal (P7): the pot was taken
                settled = after.stacks[seat] - game.stacks[seat]
                assert trade_gain(game, seat, trade) == settled - odds.expected_net(game, seat)
            else:
                assert trade_gain(game, seat, trade) == (
                    odds.expected_net(after, seat) - odds.expected_net(game, seat) + cash
                )


def test_sellers_accept_by_their_own_expected_net_loss():
    for seed in range(25):
        game = live_state(seed, auction=False, v3=True)
        n = game.rules.players
        buyer = game.holder
        for seller in range(n):
            if seller == buyer or not game.face_down[seller]:
                continue
            loss = -trade_gain(game, seller, Trade(buyer, seller, 1, 0))
            for price in range(1, min(game.stacks[buyer], 25) + 1):
                for player in (trading(FAIR), trading(CAUTIOUS), trading(BOLD)):
                    assert player.accepts_trade(game, seller, buyer, seller, 1, price) == (
                        price >= player.appetite * loss
                    )
                assert FAIR.accepts_trade(game, seller, buyer, seller, 1, price) is False  # the app's refuse


def test_without_v1_or_v2_a_blind_trade_is_zero_sum_between_buyer_and_seller():
    rng = random.Random(4)
    for _ in range(30):
        rules = Rules(players=rng.randint(3, 8), blind_trading=True, hand_size=rng.choice([3, 4, 5]))
        game = Game.deal(rules, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(rules.players * 2)):
            if game.over:
                break
            game.reveal()
        if game.over:
            continue
        holder = game.holder
        for seller in range(rules.players):
            if seller != holder and game.face_down[seller]:
                for count in range(1, game.face_down[seller] + 1):
                    trade = Trade(holder, seller, count, 0)
                    assert trade_gain(game, holder, trade) == -trade_gain(game, seller, trade)
                    for other in set(range(rules.players)) - {holder, seller}:
                        assert trade_gain(game, other, trade) == 0


def test_the_pile_buyer_offers_only_profitable_trades_and_fair_sellers_refuse_them():
    buyer = PileBuyer()
    seen = 0
    for seed in range(40):
        game = live_state(seed, auction=False, v3=True)
        offers = buyer.trade_offers(game, game.holder)
        assert all(o.buyer == game.holder for o in offers)
        gains = [trade_gain(game, o.buyer, o) for o in offers]
        assert all(g > 0 for g in gains)
        assert gains == sorted(gains, reverse=True)
        for offer in offers:
            seen += 1
            assert 1 <= offer.price <= game.stacks[offer.buyer]
            assert 1 <= offer.count <= game.face_down[offer.seller]
            if not game.rules.jack_five and not game.rules.dead_hand:
                assert not trading(FAIR).accepts_trade(game, offer.seller, *offer)
        not_holder = (game.holder + 1) % game.rules.players
        assert buyer.trade_offers(game, not_holder) == []
    assert seen > 20


def test_the_pile_buyer_buys_from_cautious_sellers_and_gains():
    rules = Rules(players=4, blind_trading=True)
    rng = random.Random(6)
    bought = 0
    for _ in range(20):
        game = Game.deal(rules, seed=rng.randrange(10**9))
        table = {0: PileBuyer(), 1: trading(CAUTIOUS), 2: trading(CAUTIOUS), 3: trading(CAUTIOUS)}

        class Check:
            def before(self, g):
                return None

            def after(self, g, kind, info, state):
                nonlocal bought
                if kind == "trade":
                    bought += 1
                    assert info["buyer"] == 0

        play(game, table, strict=True, observer=Check())
    assert bought > 10


def test_trading_variants_and_the_trader_protocol():
    assert trading(FAIR).trades and not FAIR.trades
    assert trading(SHREWD).name == "shrewd" and isinstance(trading(SHREWD), type(SHREWD))
    for player in players_under_test(5):
        assert isinstance(player, Strategy) and isinstance(player, Trader), player
    game = Game.deal(Rules(players=4), seed=2)  # no V3: nobody offers
    assert all(trade_offers(p, game, game.holder) == [] for p in players_under_test(4))


# --------------------------------------------------------------------------- names, the cast
def test_strategies_by_name():
    assert strategy("fair") is FAIR and strategy("cautious") is CAUTIOUS and strategy("bold") is BOLD
    assert set(TEMPERAMENTS) == {"cautious", "fair", "bold"}
    for name in STRATEGY_NAMES:
        player = strategy(name, seed=3)
        assert isinstance(player, Strategy)
        assert player.name == name
    assert strategy("fair", trades=True) == trading(FAIR)
    assert strategy("undecided").advisor is FAIR
    with pytest.raises(ValueError):
        strategy("reckless")
    table = table_strategies(5, "pile-buyer", people=[0])
    assert set(table) == {1, 2, 3, 4} and all(p.name == "pile-buyer" for p in table.values())


@pytest.mark.parametrize("players", range(3, 9))
def test_the_mansfield_park_table(players):
    cast = mansfield_park(players)
    assert isinstance(cast, Cast) and cast.players == players
    assert len(set(cast.names)) == players and len(cast.why) == players
    assert "Henry Crawford" in cast.names and "Fanny Price" in cast.names
    henry = cast.strategies[cast.seat("Henry")]
    assert henry.name == "shrewd"
    if "Lady Bertram" in cast.names:
        lady = cast.strategies[cast.seat("Lady Bertram")]
        assert isinstance(lady, Undecided) and lady.advisor is henry
        assert cast.seat("Henry") == (cast.seat("Lady Bertram") + 1) % players  # Henry sits by her ...
        assert cast.seat("Fanny") == (cast.seat("Henry") + 1) % players  # ... and by Fanny
    fanny = cast.strategies[cast.seat("Fanny")]  # Henry manages her cards (vol. II, ch. 7)
    assert isinstance(fanny, Undecided) and fanny.advisor is henry
    wishes = fanny_as_she_wishes(cast)  # ... and left to herself she would spare William
    assert isinstance(wishes, Fond) and wishes.softness == 0
    assert wishes.favourite == (cast.seat("William") if "William Price" in cast.names else None)
    if "William Price" in cast.names:
        william = cast.strategies[cast.seat("William")]
        assert isinstance(william, Haggler) and william.offer < Fraction(1, 2) < 1 < william.appetite
    if "Mary Crawford" in cast.names:
        assert cast.strategies[cast.seat("Mary")] is SPIRITED
    table = table_strategies(players, "mansfield", people=[cast.seat("Fanny")])
    assert set(table) == set(range(players)) - {cast.seat("Fanny")}
    assert all(isinstance(p, Strategy) for p in table.values())
    with pytest.raises(KeyError):
        cast.seat("Mr Rushworth")


def test_the_novel_s_table_is_six():
    cast = mansfield_park()
    assert cast.names == (
        "Lady Bertram",
        "Henry Crawford",
        "Fanny Price",
        "William Price",
        "Mary Crawford",
        "Edmund Bertram",
    )
    assert [s.name for s in cast.strategies] == ["undecided", "shrewd", "coached", "haggler", "spirited", "fair"]
    with pytest.raises(ValueError):
        mansfield_park(9)
    traders = mansfield_park(6, trades=True)
    assert traders.strategies[traders.seat("Edmund")].trades
